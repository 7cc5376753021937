"""The programs: the ``tabletop`` command and each of its jobs (run, diag, enrol, show,
export…)."""

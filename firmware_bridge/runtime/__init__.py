"""The runtime: one table's session carrying the referee's decisions out, and what it runs
on."""

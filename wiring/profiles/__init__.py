"""The shipped board profiles, one TOML file each (read with importlib.resources)."""

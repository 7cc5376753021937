"""Example files shipped with the package (read with importlib.resources)."""

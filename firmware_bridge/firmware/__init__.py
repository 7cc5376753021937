"""The Pico firmware (MicroPython). Imported as a package only on the host, for tests
and the simulated board; on the Pico the files are copied flat (see docs/firmware.md)."""

"""A Pico board's KiCad 9 project made from its profile: schematic, PCB and fab files."""

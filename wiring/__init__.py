"""The physical map: pins, cell maps and board profiles."""

"""DoubleCross at the table: its referee, its turn state and its view."""

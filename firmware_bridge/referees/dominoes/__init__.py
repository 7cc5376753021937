"""Double Double Dominoes at the table: its referee, its count, its turn state and its view."""

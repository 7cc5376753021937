"""Double Double Dominoes at the table: its kit (``kit.py``), referee, turn state, view, tie count
(``count.py``) and simulated hand."""

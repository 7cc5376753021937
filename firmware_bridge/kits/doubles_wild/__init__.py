"""Doubles Wild at the table: its kit (``kit.py``), referee, turn state, view and simulated hand."""

"""Devices behind small interfaces, each with a real and a simulated twin."""

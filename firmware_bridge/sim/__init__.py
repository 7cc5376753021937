"""Simulated hardware: the whole program headless, real except the electrons."""

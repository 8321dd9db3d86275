"""Drivers: one small class per chip or part, built from the pins it is given."""

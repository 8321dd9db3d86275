"""Benchmarks: `python -m bench` (make bench) prints the table."""

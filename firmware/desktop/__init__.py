"""Desktop-only helpers: the simulator's and the tests' virtual clock, seeded random source and
file system in RAM (the store on it). `make deploy` never copies this package to a Pico
(tools/deploy.py).
"""

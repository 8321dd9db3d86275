"""Desktop-only helpers: the simulator's and the tests' virtual clock, seeded random source and
store in RAM. `make deploy` never copies this package to a Pico (tools/deploy.py).
"""

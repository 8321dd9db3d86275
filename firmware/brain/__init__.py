"""The brain: the unit's rules as plain Python driven by events (key, card, time).

It knows no pins, no wall clock and no files: the board (board/) gives it events and shows
what it says; the store (store/) keeps what it decides. Rule ids (B1-B22) are docs/rules.md's.
"""

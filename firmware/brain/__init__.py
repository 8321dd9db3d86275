"""The unit's rules (docs/rules.md), driven by events: no pins, no clock, no files."""

"""A fake `rp2` module for the unix port: only what the firmware touches."""


def bootsel_button():
    return 0

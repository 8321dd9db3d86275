"""Waiting in a test for what a real window, browser or process does in its own time: a
condition polled every few tens of ms, never a sleep that guesses how long it takes."""

import time


def wait_for(cond, timeout=8.0, every=0.02):
    """cond()'s first truthy value, asked every `every` seconds; AssertionError after timeout
    seconds."""
    end = time.monotonic() + timeout
    while True:
        got = cond()
        if got:
            return got
        assert time.monotonic() < end, "not within %.1f s" % timeout
        time.sleep(every)

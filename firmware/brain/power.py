"""Kept only for callers outside the brain not yet moved to `Unit.boot` (simulator/host.py,
web/body.py): power on, off and wake are the unit's own methods (unit.py). Delete with them."""


def boot(unit, now):
    return unit.boot(now)

"""Amounts on the 5-cell display (B1) and typed on the keypad (B2), per profile (B15)."""

CELLS = 5
OVERFLOW = ("-----", False, True)  # 100,000 M and more


def _scaled(amount, unit):
    # B1: as many decimals as the cells left allow, truncated, trailing zeros and a bare point
    # dropped. The whole is at most 5 digits (fmt's bounds), so the slice's end is never < 1;
    # unit + the fraction, a power of ten's digits less its leading 1, pads it with zeros.
    text = str(amount // unit)
    frac = amount % unit
    if not frac:
        return text  # a round amount, a balance's usual: no string made for its fraction
    digits = str(unit + frac)[1:CELLS - len(text) + 1].rstrip("0")
    return text + "." + digits if digits else text


def fmt(amount, profile):
    """(text, k, M) for amount: 14995000 -> ("14.995", False, True). A profile without millions
    (classic) still goes to M where thousands no longer fit."""
    if amount >= 100000000000:
        return OVERFLOW
    if amount >= 100000000 or (profile.m_from is not None and amount >= profile.m_from):
        return _scaled(amount, 1000000), False, True
    if amount >= profile.k_from:
        return _scaled(amount, 1000), True, False
    return str(amount), False, False


def accepts(digits, dot, suffix, key):
    """Whether key may extend an entry with that many digits, its point and its suffix (B2):
    digits, at most one `.`, then K or M. dot: None before a point, else the cells it takes
    (1 when it leads: no digit's cell lights it, so a blank one does; else 0). It runs on
    every key press: it allocates nothing."""
    if suffix:
        return False
    if key == ".":
        return dot is None
    if key == "K" or key == "M":
        return digits > 0
    return digits + (dot or 0) < CELLS


def parse(entry, profile, limits):
    """(amount, None) or (None, error code) for an entry (B2, B15); without limits (the tally,
    B14) the profile's minimum and maximum do not apply."""
    if not any("0" <= c <= "9" for c in entry):
        return None, "no-amount"
    last = entry[-1]
    mult = 1000 if last == "K" else 1000000 if last == "M" else 1
    if mult > 1:
        entry = entry[:-1]
    elif profile.suffix_required:
        return None, "no-suffix"
    dot = entry.find(".")
    whole, frac = (entry, "") if dot < 0 else (entry[:dot], entry[dot + 1:])
    scale = 10 ** len(frac)
    fine = (int(frac) if frac else 0) * mult
    if fine % scale:
        return None, "too-fine"  # a fraction of the currency unit
    amount = (int(whole) if whole else 0) * mult + fine // scale
    if amount % profile.resolution:
        return None, "too-fine"  # 12.5K in world, whose resolution is 1k
    if limits:
        if amount < profile.minimum:
            return None, "below-minimum"
        if amount > profile.maximum:
            return None, "above-maximum"
    return amount, None

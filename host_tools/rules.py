"""The unit's own rules, from the firmware/ beside host_tools: the repo, which `make setup`
installs host_tools from (editable), as `bank deploy` finds it. The host tools check by the
unit's code itself, never by a copy of it, so that what they let through is what the unit takes:
a name (protocol/names.py), a balance and a profile (brain/ledger.py, brain/profiles.py), and
the sentences a refusal is said in (desktop/words.py, the window's).

Installed without the firmware, WORDS is None: a refusal is said by its code alone, a name is
left to the unit to check, and what needs every rule at once (a backup restored) says so.
"""

import os
import sys

from .errors import Failed

FIRMWARE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        "firmware")


def _words():
    if not os.path.isfile(os.path.join(FIRMWARE, "desktop", "words.py")):
        return None
    if FIRMWARE not in sys.path:
        sys.path.append(FIRMWARE)  # last: nothing of the user's is shadowed by the firmware's
    from desktop import words

    return words


WORDS = _words()

NOT_UTF8 = "a name is text in UTF-8 (this one came in another encoding)"


def name_problem(text):
    """Why the unit would refuse text as a name, in the window's sentence, or None: when the
    firmware is not beside host_tools, only the unit can say."""
    if any(0xD800 <= ord(c) <= 0xDFFF for c in text):
        return NOT_UTF8  # bytes of another encoding, kept by argv's or JSON's decoding
    return None if WORDS is None else WORDS.name_refused(text, "en")


def need(what):
    """The firmware's modules for a check that cannot be left to the unit (Failed without
    them): (ledger, profiles)."""
    if WORDS is None:
        raise Failed("%s needs the unit's rules, in the firmware/ beside host_tools (%s is "
                     "not there): install the host tools from the repository (pip install -e "
                     ".)" % (what, FIRMWARE))
    from brain import ledger, profiles

    return ledger, profiles

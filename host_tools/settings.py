"""The unit's settings from the command line: the volume (B12), the profile (B15) and the
players' names (the NAME extension)."""

from .errors import EXIT_OK, CommandError, Failed, UsageError
from .keypad import set_sound
from .maintenance import maint_errors
from .out import VOLUMES, say
from .wire import printable

# The unit's rules for a name (docs/protocol-extensions.md, NAME), checked here first so that a
# name it would refuse is explained before anything is sent.
NAME_MAX = 16  # characters (code points)
NAME_MAX_BYTES = 48  # of UTF-8
# C0, DEL and C1, line and paragraph separators, bidirectional embeddings, overrides, isolates
NAME_CONTROL = ((0, 0x1F), (0x7F, 0x9F), (0x2028, 0x202E), (0x2066, 0x2069))


def name_problem(text):
    """Why the unit would refuse text as a name, or None."""
    if any(lo <= ord(c) <= hi for c in text for lo, hi in NAME_CONTROL):
        return "a name cannot hold control characters (tab, newline, direction marks)"
    if len(text) > NAME_MAX:
        return "a name is at most %d characters" % NAME_MAX
    if len(text.encode("utf-8", "surrogatepass")) > NAME_MAX_BYTES:
        return ("a name is at most %d bytes of UTF-8, and an emoji or a rare character takes 4"
                % NAME_MAX_BYTES)
    return None


def cmd_set(bank, args):
    if args.what == "sound":
        try:
            level = int(args.value)
        except ValueError:
            level = -1
        if level not in VOLUMES:
            raise UsageError("sound must be 0 (off), 1 (soft) or 2 (loud)")
        set_sound(bank, level)
        say("sound %d (%s)" % (level, VOLUMES[level]))
        return EXIT_OK
    name = args.value.lower()
    if not name.isalnum():
        raise UsageError("not a profile name: '%s'" % printable(args.value))
    maint_errors(lambda: bank.set_profile(name))
    info = bank.hello()
    if info.get("profile") != name:
        raise Failed("the unit's profile is %s, not %s" % (info.get("profile"), name))
    say("profile %s: a new game has started" % name)
    return EXIT_OK


def cmd_name(bank, args):
    text = " ".join(args.text)
    problem = name_problem(text)
    if problem is None and any(0xD800 <= ord(c) <= 0xDFFF for c in text):
        problem = "a name is text in UTF-8 (this one came in another encoding)"
    if problem:
        raise UsageError(problem)
    try:
        names = bank.set_name(args.card, text)
    except CommandError as exc:
        if exc.code == "unknown-command":
            raise Failed("this unit's firmware has no player names (NAME)") from None
        raise
    say("card %d: %s" % (args.card, names.get(args.card) or "(no name)"))
    return EXIT_OK

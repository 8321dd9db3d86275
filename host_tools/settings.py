"""The unit's settings from the command line: the volume (B12), the profile (B15) and the
players' names (the NAME extension)."""

from .errors import EXIT_OK, CommandError, Failed, UsageError
from .keypad import set_sound
from .maintenance import maint_errors
from .out import VOLUMES, say
from .rules import name_problem
from .wire import printable


def cmd_set(bank, args):
    if args.what == "sound":
        try:
            level = int(args.value) if args.value.isascii() else -1
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
    maint_errors(bank, lambda: bank.set_profile(name))
    info = bank.hello()
    if info.get("profile") != name:
        raise Failed("the unit's profile is %s, not %s" % (info.get("profile"), name))
    say("profile %s: a new game has started" % name)
    return EXIT_OK


def cmd_name(bank, args):
    # The words as the unit's protocol splits them: a run of spaces is one space there.
    text = " ".join(w for w in " ".join(args.text).split(" ") if w)
    problem = name_problem(text)
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

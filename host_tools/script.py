"""`bank run SCRIPT`: protocol commands with the replies they must get.

    # a comment (whole lines only)
    > INSERT L 1
    < OK {"slots": {"L": 1, "R": null}}     JSON after OK: these keys must have these values
    > EVENTS ON
    < OK
    > KEY 1 5 0 K +
    < ! tone {"name": "money-in"}           an event line expected before the reply
    < OK {"display": {"text": "15.15"}}
    > KEY X
    < ERR bad-key                           ERR <code>: any message after the code is fine
    > STATE
    < OK {"power": "on", *                  a `*` (outside JSON) matches any characters

A `>` line is sent as written (it may be junk the unit must refuse). The `<` lines after it are
the expectations for its reply: `! ...` lines are events that must arrive, in that order,
before the reply; the last non-event `<` line is the reply. With no `<` line any reply will do.

Matching a pattern against a line: equal lines match; `OK <json>` and `! <type> <json>`
patterns whose JSON parses match a line with the same prefix whose JSON contains the pattern's
(objects: every key of the pattern, recursively; lists: same length, item by item; the string
"*" matches any value); `ERR <code>` matches any message; otherwise `*` matches any run of
characters and everything else must be equal.
"""

import json
import re

from .errors import EXIT_FAILED, EXIT_OK, UsageError
from .out import say
from .wire import printable


class ScriptSyntaxError(ValueError):
    pass


class Step:
    def __init__(self, lineno, command):
        self.lineno = lineno
        self.command = command
        self.events = []  # (lineno, pattern)
        self.reply = None  # (lineno, pattern) or None


def parse(text, name="script"):
    """Script text -> list of Steps; raises ScriptSyntaxError naming the line."""
    steps = []
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip("\r\n")
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if line.startswith("> ") or line == ">":
            steps.append(Step(lineno, line[2:]))
        elif line.startswith("< "):
            if not steps:
                raise ScriptSyntaxError("%s:%d: expectation before any command" % (name, lineno))
            step = steps[-1]
            pattern = line[2:].rstrip()
            if step.reply is not None:
                raise ScriptSyntaxError(
                    "%s:%d: a second reply expected for one command (line %d)"
                    % (name, lineno, step.reply[0])
                )
            if pattern.startswith("! "):
                step.events.append((lineno, pattern))
            else:
                step.reply = (lineno, pattern)
        else:
            raise ScriptSyntaxError(
                "%s:%d: lines start with '> ' (a command), '< ' (its expected reply) or '#': '%s'"
                % (name, lineno, printable(line))
            )
    return steps


def subset(pattern, value):
    """True when `value` contains `pattern` (see the module doc)."""
    if pattern == "*":
        return True
    if isinstance(pattern, dict):
        return isinstance(value, dict) and all(
            k in value and subset(v, value[k]) for k, v in pattern.items()
        )
    if isinstance(pattern, list):
        return (
            isinstance(value, list)
            and len(pattern) == len(value)
            and all(subset(p, v) for p, v in zip(pattern, value, strict=True))
        )
    if isinstance(pattern, bool) or isinstance(value, bool):
        return pattern is value
    return pattern == value


def _split_json(line):
    """`OK <json>` -> ("OK", json); `! type <json>` -> ("! type", json); else None."""
    if line.startswith("OK "):
        head, body = "OK", line[3:]
    elif line.startswith("! "):
        parts = line.split(" ", 2)
        if len(parts) < 3:
            return None
        head, body = "! " + parts[1], parts[2]
    else:
        return None
    try:
        return head, json.loads(body)
    except ValueError:
        return None


def _glob(pattern, line):
    regex = ".*".join(re.escape(part) for part in pattern.split("*"))
    return re.fullmatch(regex, line, re.S) is not None


def matches(pattern, line):
    if pattern == line:
        return True
    want = _split_json(pattern)
    if want is not None:
        got = _split_json(line)
        return got is not None and got[0] == want[0] and subset(want[1], got[1])
    if pattern.startswith("ERR ") and " " not in pattern[4:] and "*" not in pattern:
        return line == pattern or line.startswith(pattern + " ")
    if "*" in pattern:
        return _glob(pattern, line)
    return False


def check(step, reply):
    """Failures (list of (lineno, message)) of one step against the Reply it got."""
    failures = []
    got_events = [e.line for e in reply.events]
    i = 0
    for lineno, pattern in step.events:
        while i < len(got_events) and not matches(pattern, got_events[i]):
            i += 1
        if i == len(got_events):
            failures.append(
                (
                    lineno,
                    "expected event %s\n    got events: %s"
                    % (pattern, "; ".join(got_events) if got_events else "none"),
                )
            )
            break
        i += 1
    if step.reply is not None and not matches(step.reply[1], reply.line):
        failures.append(
            (step.reply[0], "expected %s\n    got      %s" % (step.reply[1], reply.line))
        )
    return failures


def run(bank, steps, name="script", out=None, verbose=False, fail_fast=False):
    """Run steps on `bank`; write a report to `out` (a callable taking a line). Returns the
    number of failed steps. Link errors (timeout, unplugged, unparseable) propagate."""
    out = out or (lambda s: None)
    failed = 0
    for step in steps:
        reply = bank.exchange(step.command)
        if verbose:
            out("> %s" % printable(step.command, 200))
            for event in reply.events:
                out("< %s" % printable(event.line, 200))
            out("< %s" % printable(reply.line, 200))
        failures = check(step, reply)
        if failures:
            failed += 1
            for lineno, message in failures:
                out("%s:%d: > %s\n    %s" % (name, lineno, printable(step.command), message))
            if fail_fast:
                break
    return failed


def _say_lines(text):
    # A report's own line breaks; a line from the unit holds none (it ended at one).
    for line in text.split("\n"):
        say(line)


MAX_CHARS = 4 << 20  # far past any script a person writes; a device's endless bytes stop here


def cmd_run(bank, args):
    try:
        with open(args.script, encoding="utf-8", errors="replace") as f:
            text = f.read(MAX_CHARS + 1)
    except OSError as exc:
        raise UsageError("cannot read %s: %s" % (args.script, exc.strerror)) from None
    if len(text) > MAX_CHARS:
        raise UsageError("%s is not a script: it is longer than %d MB, and no script is"
                         % (args.script, MAX_CHARS >> 20))
    try:
        steps = parse(text, args.script)
    except ScriptSyntaxError as exc:
        raise UsageError(str(exc)) from None
    if not args.no_wake:
        bank.wake()  # B16: a switched-off unit would swallow the script's first key
    failed = run(bank, steps, args.script, out=_say_lines, verbose=args.verbose,
                 fail_fast=args.fail_fast)
    ran = len(steps)
    if failed:
        say("%s: %d of %d commands did not get the expected reply" % (args.script, failed, ran))
        return EXIT_FAILED
    say("%s: all %d commands got the expected reply" % (args.script, ran))
    return EXIT_OK


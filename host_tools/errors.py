"""Errors of the host tools, one class per thing a user can be told.

Each carries the process exit code the CLI uses for it (docs/host_tools.md, "Exit codes"),
so a script can tell a missing unit from a refused command without parsing messages.
"""

EXIT_OK = 0
EXIT_FAILED = 1  # also CommandError's and Failed's
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


class BankError(Exception):
    """Anything that went wrong talking to a unit. str(e) is the message shown to the user."""

    exit_code = 1


class NoUnitError(BankError):
    """No unit at the given port, or none / several found by USB discovery."""

    exit_code = 3


class BadPortError(BankError):
    """--port is no device path nor a URL pyserial opens: the user's argument (exit 2)."""

    exit_code = EXIT_USAGE


class PortBusyError(BankError):
    """The port exists but another program holds it (or we may not open it)."""

    exit_code = 4


class SimulatorFullError(BankError):
    """The simulator already serves the most hosts it takes: it answered `ERR busy` on
    connecting, and closed. A place is free again as soon as one of them closes."""

    exit_code = 8


class DisconnectedError(BankError):
    """The unit went away while we were talking to it (unplugged, closed the socket)."""

    exit_code = 5


class ReplyTimeout(BankError):
    """No reply line came within the timeout."""

    exit_code = 6


class ProtocolError(BankError):
    """A reply that does not parse as protocol v1 (`OK`, `OK <json>`, `ERR <code> [msg]`)."""

    exit_code = 7


class CommandError(BankError):
    """The unit answered `ERR <code> [message]`: it refused the command and changed nothing."""

    exit_code = 1

    def __init__(self, command, code, message=""):
        self.command = command
        self.code = code
        self.message = message
        text = "unit refused %r: %s" % (command, code)
        if message:
            text += " (%s)" % message
        super().__init__(text)


class Refused(BankError):
    """The unit took the command but refused what it asked (STATE's `error`: a payment the
    payer cannot afford, a key the slots do not fit, B2-B9) and moved nothing. `code` is the
    unit's code, `words` the window's sentence for it, `state` the unit's state after."""

    exit_code = 1

    def __init__(self, command, code, words, state):
        self.command = command
        self.code = code
        self.words = words
        self.state = state
        super().__init__("the unit refused %r: %s" % (command, words))


class UsageError(Exception):
    """Bad arguments or a bad input file, found before anything is sent: exit code 2."""

    exit_code = EXIT_USAGE


class Failed(Exception):
    """The command ran but what it had to achieve did not hold: exit code 1."""

    exit_code = EXIT_FAILED

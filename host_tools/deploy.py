"""`bank deploy`: put a firmware tree on a Pico with `make deploy`'s deployer, tools/deploy.py.

There is one way to deploy: this runs tools/deploy.py's `main` (its plan: the files the tree's
manifest.py lists, version.py written for the deploy, the mpy-cross compile, the stale copies
removed, mpremote's chain), with this command's options passed through; `--firmware DIR`
deploys another tree by the same plan. `refusal()` is here, where both ask the unit first: one
in play refuses a deploy in one line. `$MPREMOTE` overrides the mpremote command (tests use
it).
"""

import importlib.util
import os

from .errors import NoUnitError, UsageError
from .link import resolve_port

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOL = os.path.join(REPO, "tools", "deploy.py")


IN_PLAY = ("the unit on %s is in play, and in play no host may stop it: hold DEAL 3 s on its "
           "keypad (the glass says SErv), then deploy again; a unit whose keypad cannot be "
           "reached is flashed with BOOTSEL")


def refusal(port):
    """The one line to say when the bank unit on `port` will not let mpremote in (it is not in
    maintenance, docs/protocol.md), or None: a unit in maintenance, or anything else on the
    port (a stock MicroPython, nothing at all), which mpremote then meets as it is."""
    from .bank import Bank
    from .errors import BankError

    try:
        with Bank.open(port, timeout=1.0) as bank:
            if bank.info and bank.info.get("device") == "bank-unit" and not bank.maintenance():
                return IN_PLAY % port
    except (BankError, OSError, ValueError, AttributeError):
        pass
    return None


def tool():
    """tools/deploy.py, loaded from the repository this package is part of."""
    if not os.path.isfile(TOOL):
        raise UsageError("bank deploy runs the repository's tools/deploy.py, which is not at "
                         "%s: deploy from a clone (make deploy)" % TOOL)
    spec = importlib.util.spec_from_file_location("bank_unit_deploy", TOOL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def argv(port, firmware, reset=True, dry_run=False, mpy=False):
    """tools/deploy.py's arguments for this deploy (port None: none found, for a dry run)."""
    out = (["--port", port] if port else []) + ["--firmware", firmware]
    out += ["--no-reset"] if not reset else []
    out += ["--dry-run"] if dry_run else []
    out += ["--mpy"] if mpy else []
    return out


def main(args):
    firmware = os.path.abspath(args.firmware or os.path.join(REPO, "firmware"))
    if not os.path.isdir(firmware):
        raise UsageError("no firmware directory at %s" % firmware)
    try:
        port = resolve_port(args.port)
    except NoUnitError:
        if not args.dry_run:
            raise
        port = None  # a dry run needs no Pico: tools/deploy.py says the commands with PORT
    if not args.dry_run and port and port.startswith("/") and not os.path.exists(port):
        raise NoUnitError("no unit at %s: no such port" % port)  # as every bank command says
    deploy = tool()
    try:
        return deploy.main(argv(port, firmware, reset=not args.no_reset,
                                dry_run=args.dry_run, mpy=args.mpy))
    except SystemExit as exc:  # the deployer's refusals (no manifest, ...), said as they are
        if isinstance(exc.code, str):
            raise UsageError(exc.code.split(": ", 1)[-1]) from None
        raise

"""Host tools for the bank unit: a Python API (`Bank`) and the `bank` command line."""

from .bank import Bank, Event, Reply, split_keys
from .errors import (
    BankError,
    CommandError,
    DisconnectedError,
    NoUnitError,
    PortBusyError,
    ProtocolError,
    Refused,
    ReplyTimeout,
    SimulatorFullError,
)

__all__ = [
    "Bank",
    "Event",
    "Reply",
    "split_keys",
    "BankError",
    "CommandError",
    "DisconnectedError",
    "NoUnitError",
    "PortBusyError",
    "ProtocolError",
    "Refused",
    "ReplyTimeout",
    "SimulatorFullError",
]

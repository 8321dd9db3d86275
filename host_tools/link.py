"""Finding and opening the port a unit (or a simulator) is on, with errors a user can act on.

`--port` is a device path (`/dev/ttyACM0`, `COM3`), any pyserial URL (`socket://127.0.0.1:5000`,
`loop://`, `rfc2217://...`), or nothing: then the one Raspberry Pi Pico plugged in is found by its
USB vendor id.
"""

import errno
import os

import serial
import serial.tools.list_ports

from .errors import BadPortError, NoUnitError, PortBusyError

PICO_VID = 0x2E8A  # Raspberry Pi: every RP2040 board running MicroPython enumerates with it
BAUDRATE = 115200  # ignored by USB CDC, but a real UART bridge needs some rate

_BUSY = {errno.EBUSY, errno.EAGAIN, errno.EWOULDBLOCK}
_MISSING = {errno.ENOENT, errno.ENODEV, errno.ENXIO}
_DENIED = {errno.EACCES, errno.EPERM}


def find_units():
    """The serial ports that look like a Pico (USB vendor id 0x2E8A), sorted by device name."""
    return sorted(
        (p for p in serial.tools.list_ports.comports() if p.vid == PICO_VID),
        key=lambda p: p.device,
    )


def socket_url(port):
    """`5555` or `HOST:5555` (a simulator's TCP port, as `listening tcp ...` prints it) as the
    pyserial URL socket://HOST:5555; None for anything else (a device path, a URL)."""
    if "://" in port or "/" in port or "\\" in port:
        return None
    host, sep, num = port.rpartition(":")
    if not num.isdigit() or not 0 < int(num) < 65536 or (sep and not host) or ":" in host:
        return None  # tcp:HOST:PORT is no host: pyserial would be handed socket://tcp:...
    return "socket://%s:%s" % (host or "127.0.0.1", int(num))


def resolve_port(port=None):
    """The port to open: `port`, else $BANK_PORT, else the single Pico found over USB. A bare
    port number or HOST:PORT is a TCP socket (socket_url), read quietly: a refusal names the
    socket."""
    port = port or os.environ.get("BANK_PORT")
    if port:
        return socket_url(port) or port
    units = find_units()
    if not units:
        raise NoUnitError(
            "no unit found: no USB serial device with the Raspberry Pi vendor id 2E8A is "
            "plugged in; plug the unit in, or give --port (a device, a simulator's TCP PORT, or "
            "socket://HOST:PORT)"
        )
    if len(units) > 1:
        raise NoUnitError(
            "several units found (%s); choose one with --port" % ", ".join(p.device for p in units)
        )
    return units[0].device


def _errno_of(exc):
    """The errno behind a pyserial open failure; pyserial sometimes only has it in the text."""
    if isinstance(getattr(exc, "errno", None), int):
        return exc.errno
    text = str(exc)
    for name in ("ECONNREFUSED", "ENOENT", "EBUSY", "EACCES", "EAGAIN", "EHOSTUNREACH"):
        code = getattr(errno, name)
        if "[Errno %d]" % code in text:
            return code
    return None


def open_port(url, timeout=0.05, write_timeout=2.0):
    """Open `url` with pyserial, exclusively where the platform allows, or raise a BankError.
    `timeout` bounds one read call (Bank polls with it); `write_timeout` is how long a write may
    wait for a unit that takes no input before it counts as not answering."""
    kwargs = {"timeout": timeout, "write_timeout": write_timeout, "baudrate": BAUDRATE}
    if "://" not in url:
        kwargs["exclusive"] = True  # a second host tool on the same unit fails fast: "busy"
    try:
        if url.startswith("socket://"):
            return _open_socket(url, kwargs)
        return serial.serial_for_url(url, **kwargs)
    except (serial.SerialException, OSError, ValueError) as exc:
        raise _open_error(url, exc) from None


def _open_socket(url, kwargs):
    """pyserial 3.5's socket open() drops whatever already came in. A simulator that already
    serves the most hosts it takes says `ERR busy ...` at once and closes: that line must reach
    Bank.discard_input, which looks at what it drops."""
    ser = serial.serial_for_url(url, do_not_open=True, **kwargs)
    ser.reset_input_buffer = lambda: None
    try:
        ser.open()
    finally:
        del ser.reset_input_buffer
    return ser


def _open_error(url, exc):
    code = _errno_of(exc)
    text = str(exc)
    if "exclusively lock" in text or code in _BUSY:
        return PortBusyError(
            "port %s is busy: another program (mpremote, a serial monitor, another bank "
            "command?) has it open" % url
        )
    if code in _DENIED:
        return PortBusyError(
            "permission denied opening %s (on Linux, add yourself to the dialout group)" % url
        )
    num = url.rpartition(":")[2].partition("?")[0]
    if "/" not in url and num and not num.strip("0123456789") and not 0 < int(num) < 65536:
        # 70000, HOST:0: read as a device path, no such port
        return BadPortError("cannot open %s: a simulator's TCP port is a number from 1 to "
                            "65535 (-p 5000, HOST:5000 or socket://HOST:5000)" % url)
    if code in _MISSING:
        hint = "" if "/" in url or ":" not in url else (
            " (a simulator's TCP port is PORT, HOST:PORT or socket://HOST:PORT)")
        return NoUnitError("no unit at %s: no such port%s" % (url, hint))
    if code == errno.ECONNREFUSED:
        return NoUnitError(
            "no unit at %s: connection refused (is the simulator running?)" % url
        )
    if url.startswith("socket://") and not (num.isdigit() and 0 < int(num) < 65536):
        return BadPortError("cannot open %s: a socket URL names its port, 1-65535, as "
                           "socket://127.0.0.1:5000 (or give the port alone: -p 5000)" % url)
    if isinstance(exc, ValueError) or "expected a string in the form" in text:
        return BadPortError("cannot open %s: not a device path or a valid pyserial URL" % url)
    return NoUnitError("cannot open %s: %s" % (url, text))


def close_socket_quickly(port):
    """pyserial's socket:// close() sleeps 0.3 s "for quick reconnects"; a CLI run should not
    pay that on every command. Close the socket ourselves (pyserial 3.5's attributes)."""
    sock = getattr(port, "_socket", None)
    if sock is None or not getattr(port, "is_open", False):
        return
    try:
        sock.shutdown(2)  # socket.SHUT_RDWR
    except OSError:
        pass
    sock.close()
    port._socket = None
    port.is_open = False

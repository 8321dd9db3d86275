"""This machine on its local network: the address a phone there reaches it at, and a link as a
QR code drawn in the terminal for the phone's camera (`--web --lan`, `--table --lan`, `bank
table --lan`)."""

import io
import socket

ANY = "0.0.0.0"


def lan_address():
    """This machine's address on its local network, as a phone there would reach it: the one
    its route out would leave from. A UDP socket's connect sends nothing; it only picks the
    route. None without a network."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("10.255.255.255", 1))
        addr = s.getsockname()[0]
    except OSError:
        addr = None
    finally:
        s.close()
    if addr and not addr.startswith("127.") and addr != ANY:
        return addr
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            if not info[4][0].startswith("127."):
                return info[4][0]
    except OSError:
        pass
    return None


def qr_block(url):
    """The URL's QR code as text, two modules a character, for a phone's camera to read off
    the terminal (segno: pure Python, no other dependency)."""
    import segno

    out = io.StringIO()
    segno.make(url, error="m", micro=False).terminal(out=out, compact=True)
    return out.getvalue()

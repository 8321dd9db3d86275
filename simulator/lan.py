"""This machine on its local network: the address a phone there reaches it at, and a link as a
QR code drawn in the terminal for the phone's camera (`--web --lan`, `--table --lan`, `bank
table --lan`)."""

import io
import socket
import threading

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


class Bounded:
    """A threading HTTP server (mixed in first) that holds at most `most` connections at once:
    one more is closed as it comes, so a flood of idle connections from the network takes
    neither a thread each nor every file of the process (the unit's store, its port)."""

    most = 256  # a table's phones hold one stream each, and a request or two at a time
    _lock = threading.Lock()

    def verify_request(self, request, client_address):
        with self._lock:
            held = self.__dict__.setdefault("_held", set())
            if len(held) >= self.most:
                return False
            held.add(request)
        return True

    def shutdown_request(self, request):
        with self._lock:
            self.__dict__.setdefault("_held", set()).discard(request)
        super().shutdown_request(request)

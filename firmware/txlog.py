"""The transactions a ledger keeps in RAM: a ring of packed records in one bytearray.

A record tuple (ledger.py) would take 96 bytes of heap on the 64-bit unix port, 48 on a Pico,
and a list of 200 of them a fifth of the heap the firmware may use. Here a record is 18 bytes:
seq (u32), amount (i64), undoes (u32), and kind, from, to and via in 16 bits. The balances a
move left are not kept: they are the fold of the records from the ledger's base
(Ledger.records works them out).
"""

import struct

KINDS = ("receive", "pay", "transfer", "go", "undo", "set", "restore")
VIAS = ("key", "serial")

_FMT = "<IqIH"
_SIZE = 18  # struct.calcsize(_FMT)


class Log:
    def __init__(self, size):
        self.size = size
        self.buf = bytearray(size * _SIZE)
        self.first = 0  # where the oldest record is
        self.n = 0

    def __len__(self):
        return self.n

    def append(self, rec):
        """Keep rec (a record tuple); when the ring is full the oldest record goes and is
        returned (for the base to take in), else None."""
        gone = None
        if self.n == self.size:
            gone = self.get(0)
            self.first = (self.first + 1) % self.size
            self.n -= 1
        code = KINDS.index(rec[1]) | rec[2] << 3 | rec[3] << 6 | VIAS.index(rec[8]) << 9
        struct.pack_into(_FMT, self.buf, (self.first + self.n) % self.size * _SIZE, rec[0],
                         rec[4], rec[7], code)
        self.n += 1
        return gone

    def get(self, i):
        """The i-th oldest record as a record tuple, its two balances after as None."""
        seq, amount, undoes, code = struct.unpack_from(
            _FMT, self.buf, (self.first + i) % self.size * _SIZE)
        return (seq, KINDS[code & 7], code >> 3 & 7, code >> 6 & 7, amount, None, None, undoes,
                VIAS[code >> 9 & 1])

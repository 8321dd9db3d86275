"""Random sources for the deal timer (B13).

MicroPython's `random` is not CPython's, so a simulator seeded with --seed would draw different
deals on each interpreter. `Seeded` is our own generator (xorshift128+ on 32-bit halves, kept in
small ints so the unix port and CPython agree bit for bit). `Entropy` draws every number from the
hardware (`os.urandom`: the ring oscillator on the Pico), so no draw says anything of the next.
"""

from os import urandom  # the rp2 port draws it from the ring oscillator

_M32 = 0xFFFFFFFF


def _below(next32, n):
    # Uniform in [0, n): reject the top sliver of 2**32 that would bias a plain modulo.
    limit = (1 << 32) - ((1 << 32) % n)
    while True:
        r = next32()
        if r < limit:
            return r % n


class Seeded:
    def __init__(self, seed):
        # splitmix-style scrambling so seeds 1, 2, 3 start far apart.
        s = seed & 0xFFFFFFFFFFFFFFFF
        self.a = self._mix(s ^ 0x9E3779B9) or 1
        self.b = self._mix(s + 0x7F4A7C15) or 2
        self.c = self._mix(self.a ^ 0x85EBCA6B) or 3
        self.d = self._mix(self.b ^ 0xC2B2AE35) or 4

    @staticmethod
    def _mix(x):
        x &= _M32
        x ^= x >> 16
        x = (x * 0x45D9F3B) & _M32
        x ^= x >> 16
        x = (x * 0x45D9F3B) & _M32
        x ^= x >> 16
        return x

    def next32(self):
        # xorshift128 (Marsaglia 2003).
        t = self.d
        s = self.a
        self.d = self.c
        self.c = self.b
        self.b = s
        t ^= (t << 11) & _M32
        t ^= t >> 8
        self.a = t ^ s ^ (s >> 19)
        return self.a

    def randint(self, lo, hi):
        return lo + _below(self.next32, hi - lo + 1)


class Entropy:
    def next32(self):
        b = urandom(4)
        return b[0] | (b[1] << 8) | (b[2] << 16) | (b[3] << 24)

    def randint(self, lo, hi):
        return lo + _below(self.next32, hi - lo + 1)

"""The reproducible random source of the simulator (--seed) and the tests (B13).

MicroPython's `random` is not CPython's, so a simulator seeded with --seed would draw different
deals on each interpreter. `Seeded` is our own generator (xorshift128 on 32-bit halves, kept in
small ints so the unix port and CPython agree bit for bit). Not imported on the Pico, which
draws from the hardware (rng.Entropy), so it costs the unit no heap.
"""

from board.rng import _below

_M32 = 0xFFFFFFFF


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

"""The Pico's random source for the deal timer (B13): every draw from the hardware."""

from os import urandom  # the rp2 port's is the ring oscillator


def _below(next32, n):
    # Uniform in [0, n): the top sliver of 2**32 that would bias a modulo is drawn again, but a
    # source stuck in it (a broken oscillator, an emulator's constant) must not hang DEAL.
    limit = (1 << 32) - ((1 << 32) % n)
    for _ in range(8):
        r = next32()
        if r < limit:
            break
    return r % n


class Entropy:
    def next32(self):
        b = urandom(4)
        return b[0] | (b[1] << 8) | (b[2] << 16) | (b[3] << 24)

    def randint(self, lo, hi):
        return lo + _below(self.next32, hi - lo + 1)

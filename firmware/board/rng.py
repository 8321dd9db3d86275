"""The Pico's random source for the deal timer (B13).

`Entropy` draws every number from the hardware (`os.urandom`: the ring oscillator on the Pico),
so no draw says anything of the next. The reproducible one the simulator and the tests use,
`seeded.Seeded`, is a module of its own: the Pico never imports it.
"""

from os import urandom  # the rp2 port draws it from the ring oscillator

def _below(next32, n):
    # Uniform in [0, n): reject the top sliver of 2**32 that would bias a plain modulo. A
    # source stuck in that sliver (a broken ring oscillator, an emulator's constant) must not
    # hang the DEAL key: after a few rejections the modulo is taken anyway.
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

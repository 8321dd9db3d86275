"""Passive piezo on a PWM pin: a tone sequencer that never blocks.

A square wave is loudest at 50 % duty, a narrow pulse soft: B12's volumes 2 and 1.
"""

from brain.clock import ticks_add, ticks_diff


class Beeper:
    duty = (0, 2000, 32768)  # duty_u16 for volume 0, 1, 2
    gap_ms = 8  # a silence between two notes, so repeated notes are heard apart

    def __init__(self, pwm):
        self.pwm = pwm
        self._notes = ()  # type: tuple
        self._i = 0
        self._until = None  # ticks the current note (or gap) ends; None when silent
        self._gap = False
        self._volume = 0
        pwm.duty_u16(0)

    def play(self, notes, volume, now):
        """Starts notes (brain/tones.py's), replacing any playing, and returns."""
        if volume <= 0 or not notes:
            self.stop()
            return
        self._notes = notes
        self._volume = volume
        self._i = 0
        self._start(now)

    def _start(self, now):
        notes = self._notes
        freq = notes[self._i]
        ms = notes[self._i + 1]
        self._gap = False
        if freq > 0:
            self.pwm.freq(freq)
            self.pwm.duty_u16(self.duty[self._volume])
        else:
            self.pwm.duty_u16(0)
        self._until = ticks_add(now, ms)

    def update(self, now):
        while self._until is not None and ticks_diff(now, self._until) >= 0:
            due = self._until
            if not self._gap and self.gap_ms and self._i + 2 < len(self._notes):
                self.pwm.duty_u16(0)
                self._gap = True
                self._until = ticks_add(due, self.gap_ms)
                continue
            self._i += 2
            if self._i >= len(self._notes):
                self.stop()
                return
            self._start(due)

    def deadline(self):
        """Ticks of the next change, or None when silent."""
        return self._until

    def stop(self):
        self.pwm.duty_u16(0)
        self._notes = ()
        self._until = None
        self._gap = False

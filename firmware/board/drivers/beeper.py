"""Piezo beeper on one PWM pin: a tone sequencer that never blocks.

A passive piezo disc driven by PWM (RP2040 datasheet, section 4.5 "PWM"; MicroPython
`machine.PWM`: `freq()` sets the period, `duty_u16()` the on-time out of 65535). A square wave
at the note's frequency is loudest at 50 % duty; a narrow pulse is much softer, which gives the
three volume levels (B12): 2 loud, 1 soft, 0 silent.

`play(notes, volume, now)` starts a sequence of notes given flat (frequency Hz, duration ms,
frequency Hz, duration ms, ...: tones.TONES), a frequency of 0 being a rest, and returns at
once; `update(now)` moves on to the next note when its time has come and `deadline()` says when
that is, so the main loop can sleep until then. A new sequence replaces the one playing.
Nothing here sleeps or reads the clock.
"""

from brain.clock import ticks_add, ticks_diff


class Beeper:
    # duty_u16 for volume 0 (silent), 1 (soft), 2 (loud: a square wave is loudest at 50 %), B12
    duty = (0, 2000, 32768)
    gap_ms = 8  # a short silence between two notes, so repeated notes are heard apart

    def __init__(self, pwm):
        self.pwm = pwm
        self._notes = ()  # type: tuple
        self._i = 0
        self._until = None  # ticks the current note (or gap) ends; None when silent
        self._gap = False
        self._volume = 0
        pwm.duty_u16(0)

    def play(self, notes, volume, now):
        """Start playing `notes` at `volume` (0, 1, 2); returns immediately."""
        if volume <= 0 or not notes:
            self.stop()
            return
        self._notes = notes
        self._volume = volume if volume < len(self.duty) else len(self.duty) - 1
        self._i = 0
        self._start(now)

    def _start(self, now):
        notes = self._notes
        freq = notes[self._i]
        ms = notes[self._i + 1]
        self._gap = False
        if freq > 0:
            self.pwm.freq(int(freq))
            self.pwm.duty_u16(self.duty[self._volume])
        else:
            self.pwm.duty_u16(0)
        self._until = ticks_add(now, ms)

    def update(self, now):
        """Advance the sequence to `now`. Cheap when nothing is due."""
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

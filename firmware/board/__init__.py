"""The body the brain is given: one interface, two bodies.

app.App runs the loop on whichever board it is given; it reads and drives only what is listed
here. The Pico's body is board/pico.py (`Board`, built from pins.py by board/build.py, drivers in
board/drivers/); the simulator's is desktop/simboard.py (`SimBoard`, never deployed), driven by
the window, the terminal and the headless server through desktop/simapp.py.

display   `show(text, k, M)`: the unit's display() drawn; `blank()`: display, lights and beeper
          off (switched off, B16)
keys      `keypad`: `scan(now)` -> [("down" | "up", key), ...]; `idle(now)`: no key down and
          no debounce running; `armed`: scanning waits for `woke` (an edge since the last scan)
slots     `slots["L"]`, `slots["R"]`: `poll(now)` -> None, ("in", card) or ("out", None);
          `due()`: poll again soon (a reading settling); `woke`: a contact moved
beeper    `tone(name, volume, now)` starts a tone (tones.TONES), never blocking;
          `beeper.update(now)` plays its next note, `beeper.deadline()` is when (or None)
lights    `lights(red, green)` sets the modes ('off' 'on' 'slow' 'fast'); `leds.modes` are
          they; `leds.update(now)` flashes them (board/lights.py)
power     `latch`: None, or `release()` cuts the power when the unit switches off;
          `usb_powered()`: a host may be listening; `sleep(ms)`: the low-power wait when off
quiet     `quiet()` holds the USB and pin interrupts off from a key's wake until `loud()`, once
          its picture is drawn (the Pico's; the simulator's do nothing)
clock     the loop's `clock.now()` (brain/clock.py RealClock; desktop/vclock.py's VirtualClock
          in the simulator and the tests): every event above takes that `now`
serial    the Pico: the USB port, app.App's own (`open_serial`, `serial`: one port, one
          Protocol, loaded at the first byte); the simulator: any number of ports (stdio, a pty,
          TCP clients), each with its own Protocol (desktop/ports.py)
"""

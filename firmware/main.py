"""What MicroPython runs at reset: the unit's loop, app.py.

Kept this small because it is the one file a Pico compiles from source at boot; `make deploy`
sends everything else compiled. `micropython firmware/main.py` runs it under the unix port.
"""

import app

if __name__ == "__main__":
    app.main()

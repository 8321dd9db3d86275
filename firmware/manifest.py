# What goes on a Pico: MicroPython's manifest format (package(), module()), the one list read by
# the frozen image's build (`make uf2`), by `make deploy` and `bank deploy`, and by the page's
# build. desktop/ is never in it: that code only runs on a desktop (the simulator, the tests).
# Paths are relative to this folder; package() takes every .py under it, sub-packages too.

module("main.py")
module("app.py")
module("pins.py")
module("startup.py")
module("version.py")
module("jsonw.py")
package("brain")
package("store")
package("protocol")
package("board")

# What goes on a Pico, in MicroPython's manifest format: the one list every tool reads
# (docs/design.md, "The tree"). desktop/ is never in it.

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

"""What the table view reads of a unit (docs/table.md): the protocol's read-only commands, the
only ones its feeds send (simulator/table/follow.py, web/body.py) and the only ones the line the
simulator gives its table answers (simulator/table/link.py); and the whole game, as a feed reads
it when it starts and after a restore. Never deployed.
"""

from store import FileStore

READS = ("HELLO", "STATE", "BALANCES", "LOG", "NAMES", "EVENTS")
LOG_KEPT = FileStore.keep  # as far back as LOG reaches
WHOLE = ("HELLO", "STATE", "BALANCES", "LOG %d" % LOG_KEPT, "NAMES")

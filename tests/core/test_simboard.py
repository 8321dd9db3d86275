"""The Pico's loop (app.App) on the simulated board (desktop/simboard.py): the simulator's one
loop, as the window, the terminal and the headless server drive it (docs/simulator.md)."""

from desktop.ports import Link, Ports
from desktop.simapp import SimApp
from harness import Rig
from protocol import Protocol


def _app():
    rig = Rig()
    sent = []
    proto = Protocol(rig.unit, rig.clock)
    ports = Ports()
    ports.links.append(Link(proto, 0, lambda: None, lambda b: sent.append(b) or len(b)))
    app = SimApp(rig.unit, rig.clock, ports)
    return rig, app, proto, sent


def test_keys_on_the_board_reach_the_unit_and_the_display_through_app():
    rig, app, _, _ = _app()
    board = app.board
    assert board.shown == ("0", False, False)  # the first picture, drawn at start (B1)
    for k in "250":
        app.press(k)
        app.release(k)
    assert rig.unit.entry == "250"
    assert board.shown == rig.unit.display()
    # a key waits on the board until App's next step takes it, as the keypad's scan does
    board.keypad.push("down", "K")
    assert rig.unit.entry == "250" and app.wait(rig.clock.now()) == 0
    app.step(rig.clock.now())
    assert rig.unit.entry == "250K"
    assert app.wait(rig.clock.now()) == -1  # a virtual clock: nothing moves until told


def test_cards_on_the_board_and_a_refusal_said_back():
    rig, app, _, _ = _app()
    assert app.insert("L", 3) is None
    assert rig.unit.slots["L"] == 3 and app.board.shown[0] == "3"  # the card's number (B3)
    assert app.insert("L", 4) == "slot-occupied"  # the window says it in words
    assert rig.unit.slots["L"] == 3
    assert app.remove("R") == "slot-empty"
    assert app.remove("L") is None and rig.unit.slots["L"] is None


def test_a_keypad_transaction_is_an_event_on_a_port_that_asked():
    rig, app, proto, sent = _app()
    assert proto.handle("EVENTS ON") == ["OK"]
    app.insert("L", 1)
    for k in "1M+":
        app.press(k)
        app.release(k)
    app.io([])  # what the body does after its wait: the ports' queues go out
    lines = b"".join(sent).decode().splitlines()
    txns = [x for x in lines if x.startswith("! txn ")]
    assert len(txns) == 1 and '"via": "key"' in txns[0], lines
    assert '"amount": 1000000' in txns[0]
    assert rig.unit.ledger.bal[1] == 16000000  # 15 M to start, 1 M received from the bank (B4)


def test_both_bodies_are_boards_and_define_every_method_of_it():
    # board.Board is the interface app.App drives: the Pico's body and the simulator's are
    # Boards, and each defines every method itself (none left to the base's
    # NotImplementedError, none found a class further up at each call on the Pico).
    from board import Board
    from board.pico import PicoBoard
    from desktop.simboard import SimBoard

    methods = [n for n in dir(Board) if not n.startswith("_") and callable(getattr(Board, n))]
    assert sorted(methods) == ["blank", "free_irqs", "hold_irqs", "host_session", "lights", "show",
                               "sleep", "tone", "usb_powered", "usb_sending", "write_card"]
    for body in (PicoBoard, SimBoard):
        assert issubclass(body, Board)
        assert [n for n in methods if getattr(body, n) is getattr(Board, n)] == [], body


def test_the_simulated_board_has_the_parts_app_drives():
    # board.Board: the interface both bodies implement
    board = SimApp(Rig().unit, Rig().clock).board
    assert board.latch is None and board.usb_powered() and board.host_session() == 0
    pad = board.keypad
    assert pad.armed and not pad.woke and pad.scan(0) == [] and pad.idle(0)
    for s in ("L", "R"):
        slot = board.slots[s]
        assert not slot.woke and not slot.due() and slot.poll(0) is None
    assert board.beeper.deadline() is None
    board.lights("slow", "on")
    assert board.leds.modes == ["slow", "on"]
    board.blank()
    assert board.leds.modes == ["off", "off"] and board.shown == ("", False, False)


class _Latch:
    def __init__(self):
        self.released = 0

    def release(self):
        self.released += 1


def test_the_power_latch_is_kept_while_the_game_clock_runs_b20():
    # Released at switch-off (B16), the unit would keep no time: not while the clock runs, and
    # at the first switch-off after its end.
    rig, app, _, _ = _app()
    app.board.latch = latch = _Latch()
    app.press("K")  # held 3 s: the clock's view (B20)
    for _ in range(31):
        rig.clock.t += 100
        app.step(rig.clock.now())
    app.release("K")
    for k in ("7", "+", "K"):
        app.press(k)
        app.release(k)
    assert rig.unit.game_clock is not None and rig.unit.game_clock.running
    rig.clock.advance(rig.unit, 61000)
    app.step(rig.clock.now())
    assert not rig.unit.power and latch.released == 0
    rig.clock.advance(rig.unit, 7 * 60000 - 61000)  # woken at 5 and 1 minute left, the end
    app.step(rig.clock.now())
    assert rig.unit.power and latch.released == 0
    rig.clock.advance(rig.unit, 61000)
    app.step(rig.clock.now())
    assert not rig.unit.power and latch.released == 1


def test_a_bankruptcy_at_the_3rd_second_of_minus_is_drawn_b21():
    # The move comes from a timer, not a key: the picture must follow it (the payer's 0).
    rig, app, _, _ = _app()
    app.insert("R", 2)
    app.insert("L", 4)
    rig.clock.advance(rig.unit, 1200)
    app.step(rig.clock.now())
    app.press("-")
    for _ in range(310):
        rig.clock.t += 10
        app.step(rig.clock.now())
    assert rig.unit.ledger.bal[2] == 0 and app.board.shown == ("0", False, False)
    app.release("-")
    rig.clock.advance(rig.unit, 1000)
    app.step(rig.clock.now())
    assert app.board.shown == ("30", False, True)  # then the creditor's new balance

"""The Table by keyboard only: a shot in at most 8 keys, Enter never rolls, the batch.

Keys go to whatever widget has the keyboard focus, as the GM's keyboard would send
them; :class:`Keys` counts them (QTest key events, never time).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QWidget

from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.table import TableWorkspace
from carwars_desktop.gui.table.procedure_dialog import ProcedureDialog

CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier

NAMED = {"Enter": Qt.Key.Key_Return, "Esc": Qt.Key.Key_Escape, "Tab": Qt.Key.Key_Tab,
         "Space": Qt.Key.Key_Space}


class Keys:
    """Key presses sent to the focused widget, counted."""

    def __init__(self, qtbot: Any) -> None:
        self.qtbot = qtbot
        self.count = 0

    def focused(self) -> QWidget:
        widget = QApplication.focusWidget()
        modal = QApplication.activeModalWidget()
        if modal is not None and (widget is None or not modal.isAncestorOf(widget)):
            widget = modal.focusWidget() or modal
        assert widget is not None, "nothing has the keyboard focus"
        return widget

    def press(self, *keys: str) -> None:
        """Each argument is one key: ``"1"``, ``"f"``, ``"Enter"``, ``"Ctrl+Enter"``."""
        for key in keys:
            modifiers = Qt.KeyboardModifier.NoModifier
            *mods, name = key.split("+") if len(key) > 1 else [key]
            for mod in mods:
                modifiers |= {"Ctrl": CTRL, "Shift": SHIFT}[mod]
            code = NAMED.get(name) or getattr(Qt.Key, f"Key_{name.upper()}")
            target = self.focused()
            # The window the key goes to is the active one, as on the GM's screen.
            if QApplication.activeWindow() is not target.window():
                target.window().activateWindow()
                self.qtbot.waitUntil(lambda t=target: QApplication.activeWindow() is t.window())
                target = self.focused()
            self.qtbot.keyClick(target, code, modifiers)
            self.count += 1

    def type(self, text: str) -> None:
        """Each character one key."""
        self.press(*text)


def _start(window: MainWindow, start_session: Any, ruleset: str,
           players: list[tuple[str, ...]]) -> TableWorkspace:
    table: TableWorkspace = start_session(ruleset, players)
    window.activateWindow()
    table.focus_default()
    return table


def test_a_mini_car_wars_mg_shot_in_eight_keys(window: MainWindow, start_session, qtbot) -> None:  # type: ignore[no-untyped-def]
    table = _start(window, start_session, "mini_car_wars",
                   [("Ann", "Killer Kart"), ("Bo", "Courier")])
    game = table.context.game
    assert game is not None
    before = game.sheet("v2").to_json()
    keys = Keys(qtbot)
    keys.press("1", "f")  # Killer Kart fires (its MG is weapon 1) at the other car
    dialog = table.hub.runner.dialog
    assert isinstance(dialog, ProcedureDialog) and dialog.isVisible()
    assert keys.focused() is dialog.form.editors["range"]  # no range measured yet
    keys.type("5")
    keys.press("Enter")  # to the dice, never a roll
    assert keys.focused() is dialog.dice_edit and dialog.pending is None
    keys.type("543")  # to hit 5+4, damage 3
    keys.press("Ctrl+Shift+Enter")  # this shot alone, now
    assert keys.count <= 8, keys.count
    assert dialog.error.text() == ""
    assert not dialog.isVisible()
    assert game.sheet("v2").to_json() != before
    last = table.play.log_dock.model.event_at(table.play.log_dock.model.rowCount() - 1)
    assert "hit" in last.event.summary and "3 damage" in last.event.summary


def test_a_battlecars_rocket_shot_in_eight_keys(window: MainWindow, start_session, qtbot) -> None:  # type: ignore[no-untyped-def]
    from carwars_desktop.gui.table.battlecars_clock_panel import BattlecarsClockPanel
    from carwars_desktop.rules import find_ruleset

    card = next(iter(find_ruleset("battlecars").catalog()))
    table = _start(window, start_session, "battlecars",
                   [("Ann", card, "Interceptor"), ("Bo", card, "Wasp")])
    clock = table.play.clock
    assert isinstance(clock, BattlecarsClockPanel)
    clock.speed_rows["v1"].speed.setValue(3)
    clock.speed_rows["v2"].speed.setValue(3)
    clock.reveal_speeds()  # the round under way: the Interceptor's turn
    game = table.context.game
    assert game is not None and str(game.clock) == "Round 1, Interceptor's turn"
    table.focus_default()
    before = game.sheet("v2").to_json()
    keys = Keys(qtbot)
    keys.press("f")  # the car whose turn it is fires (it is selected)
    dialog = table.hub.runner.dialog
    assert isinstance(dialog, ProcedureDialog) and dialog.isVisible()
    assert dialog.form.values()["mount"] == "Pod A"  # its first pod, two rockets
    assert keys.focused() is dialog.form.editors["area"]  # the area aimed at: asked
    keys.press("f")  # front
    keys.press("Enter")
    assert keys.focused() is dialog.dice_edit and dialog.pending is None
    keys.type("7611")  # to hit 7+6, damage 1+1
    keys.press("Ctrl+Enter")
    assert keys.count <= 8, keys.count
    assert dialog.error.text() == ""
    assert not dialog.isVisible()
    assert game.sheet("v2").to_json() != before
    model = table.play.log_dock.model
    assert "Wasp" in model.event_at(model.rowCount() - 1).event.summary


def test_an_autopower_attack_in_six_keys(window: MainWindow, start_session, qtbot) -> None:  # type: ignore[no-untyped-def]
    table = _start(window, start_session, "autopower", [("Bo", "Rhino"), ("Ann", "Longshot")])
    game = table.context.game
    assert game is not None
    keys = Keys(qtbot)
    keys.press("2", "f")  # Longshot attacks Rhino
    dialog = table.hub.runner.dialog
    assert isinstance(dialog, ProcedureDialog) and dialog.isVisible()
    assert dialog.form.bindings() == {"firer": "v2", "target": "v1"}
    assert keys.focused() is dialog.form.editors["cards"]
    keys.type("4")  # a Fighting 4
    keys.press("Enter")
    keys.type("65")
    keys.press("Ctrl+Enter")
    assert keys.count <= 8, keys.count
    assert dialog.error.text() == ""
    assert not dialog.isVisible()
    from carwars_desktop.rules.autopower.sheet import CarSheet

    rhino = game.sheet("v1")
    assert isinstance(rhino, CarSheet) and rhino.total_damage == 4

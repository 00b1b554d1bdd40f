"""A GM's evening at the Table, step by step, through the real window (issue 28, "Done when").

:class:`Evening` drives the MainWindow as the GM does: New Session from its dialog, the
Table's keys (sent to whatever widget has the keyboard focus, :class:`Keys`), the dialogs,
Finish. After every step :meth:`Evening.check` compares what each party knows:

- the database: ``session_events`` (seq, status, summary), the ``resolution_log`` rows and
  their ``state``, the ``dice_rolls`` rows and the roll-log rows they belong to, each
  vehicle's ``current_sheet`` and the stored clock;
- the log dock (one row per stored event, an undone one marked undone in words);
- the sheets (the game's, the one each sheet widget draws, the durations it shows);
- the players' display (opened with ``Ctrl+Shift+D``): what it draws is what
  :func:`~carwars_desktop.services.players_view.players_view` lets the players know of
  the session as stored now.

:func:`play_in_child` runs ``evening_player.py`` in a child process on the same database:
it resumes the session in its own window, types keys, prints what it shows and waits to be
killed with SIGKILL (mid-turn, as a power cut would).

This module imports no pytest fixture: the child process imports it too.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QWidget
from sqlalchemy import text

from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.table import TableWorkspace

CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier
NAMED = {"Enter": Qt.Key.Key_Return, "Esc": Qt.Key.Key_Escape, "Tab": Qt.Key.Key_Tab,
         "Space": Qt.Key.Key_Space, " ": Qt.Key.Key_Space, ".": Qt.Key.Key_Period}
PLAYER = Path(__file__).with_name("evening_player.py")

WaitUntil = Callable[..., None]


def wait_until(condition: Callable[[], bool], timeout: int = 20000) -> None:
    """Process events until ``condition`` holds (the child has no qtbot)."""
    from PySide6.QtCore import QDeadlineTimer

    deadline = QDeadlineTimer(timeout)
    while not condition():
        assert not deadline.hasExpired(), "the condition never held"
        QApplication.processEvents()
        QTest.qWait(5)


class Keys:
    """Key presses sent to the focused widget, counted (as tests/gui/table's)."""

    def __init__(self, wait: WaitUntil | Any = wait_until) -> None:
        """``wait``: how to wait for a condition, or a pytest-qt ``qtbot`` (its waitUntil)."""
        self.wait = getattr(wait, "waitUntil", wait)
        self.count = 0

    @staticmethod
    def focused() -> QWidget:
        widget = QApplication.focusWidget()
        if widget is not None and not widget.window().isVisible():
            # A dialog just closed: the window manager gives the main window back its focus
            # (the offscreen platform leaves the closed dialog active).
            widget = None
        modal = QApplication.activeModalWidget()
        if modal is not None and (widget is None or not modal.isAncestorOf(widget)):
            widget = modal.focusWidget() or modal
        if widget is None:  # a dialog just closed: the main window's focus, once active
            widget = next((w.focusWidget() for w in QApplication.topLevelWidgets()
                           if isinstance(w, MainWindow) and w.isVisible()), None)
        assert widget is not None, "nothing has the keyboard focus"
        return widget

    def press(self, *keys: str) -> None:
        """Each argument is one key: ``"1"``, ``"f"``, ``"Enter"``, ``"Ctrl+Enter"``."""
        for key in keys:
            modifiers = Qt.KeyboardModifier.NoModifier
            *mods, name = key.split("+") if len(key) > 1 else [key]
            for mod in mods:
                modifiers |= {"Ctrl": CTRL, "Shift": SHIFT}[mod]
            code = NAMED.get(name) if not modifiers or name != " " else None
            if code is None and name.isalnum():
                code = getattr(Qt.Key, f"Key_{name.upper()}")
            if code is None and modifiers:
                code = NAMED.get(name)
            target = self.focused()
            if QApplication.activeWindow() is not target.window():
                target.window().activateWindow()
                self.wait(lambda t=target: QApplication.activeWindow() is t.window())
                target = self.focused()
            if code is None:  # a character without a Key name of its own (":", "/")
                QTest.keyClicks(target, name)
            else:
                QTest.keyClick(target, code, modifiers)
            self.count += 1

    def type(self, text: str) -> None:
        """Each character one key."""
        self.press(*text)


@dataclass
class Stored:
    """What the database holds of the session."""

    events: list[tuple[int, str, str]]
    """(seq, status, summary), in order."""
    resolutions: list[tuple[int, str, str]]
    """(id, procedure id, state) of the roll log, in order."""
    dice: list[tuple[int, int | None]]
    """(id, roll-log id) of every dice row."""
    sheets: dict[str, Any]
    clock: Any
    declared: list[tuple[str, str]]
    """(bindings JSON, dice) of each declared shot of the batch."""
    status: str
    changes: dict[str, Any] = field(default_factory=dict)

    def states(self, procedure: str | None = None) -> list[str]:
        return [s for _id, p, s in self.resolutions if procedure is None or p == procedure]

    def active(self) -> list[str]:
        return [summary for _seq, status, summary in self.events if status == "active"]


def stored(window: MainWindow, session_id: int) -> Stored:
    assert window.database is not None
    with window.database.engine.connect() as db:
        events = [(int(r[0]), str(r[1]), str(r[2])) for r in db.execute(text(
            "SELECT seq, status, summary FROM session_events WHERE session_id = :s "
            "ORDER BY seq"), {"s": session_id})]
        resolutions = [(int(r[0]), str(r[1]), str(r[2])) for r in db.execute(text(
            "SELECT id, procedure_id, state FROM resolution_log WHERE session_id = :s "
            "ORDER BY id"), {"s": session_id})]
        dice = [(int(r[0]), None if r[1] is None else int(r[1])) for r in db.execute(text(
            "SELECT id, resolution_id FROM dice_rolls ORDER BY id"))]
        sheets = {str(r[0]): json.loads(r[1]) for r in db.execute(text(
            "SELECT key, current_sheet FROM session_vehicles WHERE session_id = :s"),
            {"s": session_id})}
        row = db.execute(text("SELECT clock, status FROM game_sessions WHERE id = :s"),
                         {"s": session_id}).one()
        declared = [(str(r[0]), str(r[1])) for r in db.execute(text(
            "SELECT bindings, dice FROM declared_shots WHERE session_id = :s "
            "ORDER BY position"), {"s": session_id})]
    return Stored(events, resolutions, dice, sheets, json.loads(row[0]), declared,
                  str(row[1]))


class Evening:
    """One GM, one window (or its successor after a crash), one session."""

    def __init__(self, qtbot: Any, tmp_path: Path, url: str) -> None:
        self.qtbot = qtbot
        self.url = url
        self.settings_path = tmp_path / "settings.ini"
        self.keys = Keys(qtbot.waitUntil)
        self.window: MainWindow | None = None
        self.session_id: int | None = None
        self.before: Stored | None = None
        self.steps: list[str] = []

    # --- the window ----------------------------------------------------------------------
    def open_window(self) -> MainWindow:
        window = MainWindow(db_url_hint=self.url, interactive=False,
                            settings=QSettings(str(self.settings_path),
                                               QSettings.Format.IniFormat))
        self.qtbot.addWidget(window)
        window.show()
        assert window.finish_startup()
        window.activateWindow()
        self.qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
        self.window = window
        return window

    def close_window(self) -> None:
        """The GM quits (File › Quit does this): the lease is let go."""
        assert self.window is not None
        display = self.window.player_display
        self.window.shutdown()
        self.window.close()
        if display is not None:
            display.close()
        self.window = None

    @property
    def table(self) -> TableWorkspace:
        assert self.window is not None
        return self.window.table

    @property
    def game(self) -> Any:
        game = self.table.context.service.game
        assert game is not None
        return game

    def press(self, *keys: str) -> None:
        self.keys.press(*keys)

    def type(self, text: str) -> None:
        self.keys.type(text)

    def wait_for_the_table(self) -> None:
        """The keyboard focus is back at the Table (after a click on the Clock, say)."""

        def at_the_table() -> bool:
            focused = self.keys.focused()  # where the next key goes
            return self.table.isAncestorOf(focused)

        self.qtbot.waitUntil(at_the_table)

    def every_action(self, vehicle: int, title: str) -> None:
        """The vehicle's number key, then ``A`` (every action) and the item whose title
        starts with ``title``.

        The menu is filled as ``A`` shows it, and its item triggered: the offscreen
        platform cannot grab the keyboard for a popup menu (Qt warns, the tests fail)."""
        self.press(str(vehicle))
        keys = self.table.keys
        menu = keys.every_action_menu(self.table)
        menu.aboutToShow.emit()
        [item] = [a for a in menu.actions()
                  if a.text().partition(": ")[2].startswith(title)]
        assert item.isEnabled(), item.toolTip()
        item.trigger()
        menu.deleteLater()

    def dialog(self) -> Any:
        """The Table's procedure dialog, open."""
        from carwars_desktop.gui.table.procedure_dialog import ProcedureDialog

        dialog = self.table.hub.runner.dialog
        assert isinstance(dialog, ProcedureDialog) and dialog.isVisible()
        return dialog

    # --- New Session ---------------------------------------------------------------------
    def new_session(self, ruleset_id: str, name: str,
                    players: Sequence[tuple[str, str, str]],
                    profile: str | None = None, scenario: str | None = None,
                    refused: str | None = None) -> Any:
        """Ctrl+N at the Table, the dialog filled row by row, *Start session* clicked.

        ``refused``: the words the dialog must show instead of starting (it stays open and
        the database holds no new session); the dialog is returned for the next try."""
        from PySide6.QtWidgets import QDialogButtonBox

        from carwars_desktop.gui.table.new_session import NewSessionDialog

        window = self.window
        assert window is not None
        dialog = self.table.new_dialog
        if dialog is None or not dialog.isVisible():
            window._rail.setCurrentRow(window.workspaces.index(self.table))
            self.table.focus_default()
            self.press("Ctrl+N")
            dialog = self.table.new_dialog
            assert isinstance(dialog, NewSessionDialog)
            self.qtbot.waitUntil(dialog.isVisible)
        box = dialog.ruleset_box
        box.setCurrentIndex(box.findData(ruleset_id))
        if scenario is not None:
            dialog.scenario_box.setCurrentIndex(dialog.scenario_box.findData(scenario))
        if profile is not None:
            dialog.choose_profile(profile)
        dialog.name_edit.selectAll()
        QTest.keyClicks(dialog.name_edit, name)
        while dialog.players.rowCount() > len(players):
            dialog.remove_player()
        for row, (player, vehicle, in_play) in enumerate(players):
            dialog.set_player(row, player, vehicle, in_play)
        sessions_before = self._session_ids()
        buttons = dialog.findChild(QDialogButtonBox)
        assert buttons is not None
        ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.click()
        if refused is not None:
            assert dialog.isVisible() and refused in dialog.error.text(), dialog.error.text()
            assert self._session_ids() == sessions_before  # nothing written
            return dialog
        self.qtbot.waitUntil(lambda: not dialog.isVisible())
        self.qtbot.waitUntil(lambda: self.table.context.service.game is not None
                             and self.table.session_id not in sessions_before
                             and not self.table.opening)
        self.session_id = self.table.session_id
        assert self.session_id is not None
        if self.table.hub.runner.dialog is None or not self.table.hub.runner.dialog.isVisible():
            self.table.focus_default()  # (else the rules' first roll is offered at once)
        return dialog

    def _session_ids(self) -> set[int]:
        assert self.window is not None and self.window.database is not None
        with self.window.database.engine.connect() as db:
            return {int(r[0]) for r in db.execute(text("SELECT id FROM game_sessions"))}

    def open_display(self) -> Any:
        """Ctrl+Shift+D: the players' display, on the TV."""
        assert self.window is not None
        self.press("Ctrl+Shift+D")
        display = self.window.player_display
        assert display is not None
        self.qtbot.waitUntil(display.isVisible)
        return display

    # --- the checks after each step -----------------------------------------------------
    def stored(self) -> Stored:
        assert self.window is not None and self.session_id is not None
        return stored(self.window, self.session_id)

    def check(self, step: str, pending: int = 0) -> Stored:
        """Everything agrees after ``step``: the database, the log dock, the sheets, the
        players' display. ``pending``: roll-log rows shown and not yet applied (a dialog
        still open with its result). Returns what is stored; ``changes`` says what differs
        from the last check (new events, new roll-log rows, new dice, changed sheets)."""
        self.steps.append(step)
        self.qtbot.waitUntil(lambda: not self.table.opening)
        now = self.stored()
        game = self.game
        where = f"after {step!r}"
        # The sheets: the game's are the stored ones, each sheet widget draws its own.
        assert {v.key: game.sheet(v.key).to_json() for v in game.vehicles} == now.sheets, where
        assert game.clock.to_json() == now.clock, where
        play = self.table.play
        for vehicle in game.vehicles:
            frame = play.sheets[vehicle.key]
            assert frame.sheet is not None, where
            assert frame.sheet.to_json() == now.sheets[vehicle.key], (where, vehicle.key)
            shown = [str(d) for d in game.ruleset.play().durations(
                game.clock, game.vehicles_view()) if d.vehicle == vehicle.key]
            assert frame.durations_text() == "\n".join(shown), (where, vehicle.key)
        # The log dock lists every stored event, an undone one marked in words.
        model = play.log_dock.model
        self.qtbot.waitUntil(lambda: model.rowCount() == len(now.events))
        for row, (seq, status, summary) in enumerate(now.events):
            event = model.event_at(row)
            assert event is not None and event.seq == seq, (where, row)
            assert event.event.summary == summary, (where, row)
            assert event.undone == (status != "active"), (where, seq, status)
            assert event.abandoned == (status == "abandoned"), (where, seq, status)
            words = str(model.data(model.index(row, model.columnCount() - 1)))
            assert words.startswith("↶ undone") == (status != "active"), (where, words)
        # The roll log: every dice row belongs to a roll-log row; nothing left pending
        # but what the open dialog shows.
        ids = {rid for rid, _p, _s in now.resolutions}
        before = self.before
        new_dice = [d for d in now.dice if before is None or d not in before.dice]
        assert all(rid in ids for _id, rid in new_dice), (where, new_dice, ids)
        assert now.states().count("pending") == pending, (where, now.resolutions)
        # The players' display: what it draws is what the players may know, now.
        self._check_display(where)
        if before is not None:
            now.changes = {
                "events": [e for e in now.events if e not in before.events],
                "resolutions": [r for r in now.resolutions if r not in before.resolutions],
                "dice": new_dice,
                "sheets": sorted(k for k in now.sheets if now.sheets[k] != before.sheets[k]),
            }
        self.before = now
        return now

    def _check_display(self, where: str) -> None:
        from carwars_desktop.services.players_view import players_view, recent_events

        assert self.window is not None
        display = self.window.player_display
        if display is None:
            return
        table = self.window.services.table
        game = table.game
        assert game is not None
        fresh = players_view(game, table.title, recent_events(game.store), table.roll)

        def same() -> bool:
            view = display.view
            return view is not None and view.vehicles == fresh.vehicles \
                and view.log == fresh.log and view.clock == fresh.clock

        self.qtbot.waitUntil(same)
        shown = display.view
        assert shown is not None
        for key, card in display.cards.items():
            assert card.view == shown.vehicle(key), (where, key)
        # The last-events box holds every line whole (it shows the newest that fit, each
        # elided to its width); the clock keeps its whole text beside what fits.
        log_text = "\n".join(display.log.lines)
        for line in shown.log:
            assert line in log_text or line.replace("&", "&amp;") in log_text, (where, line)
        clock = getattr(display.clock, "full_text", display.clock.text())
        assert clock == ("" if shown.clock is None else shown.clock.title)

    def players_see(self) -> Any:
        assert self.window is not None and self.window.player_display is not None
        view = self.window.player_display.view
        assert view is not None
        return view

    # --- Finish --------------------------------------------------------------------------
    def finish(self, monkeypatch: Any) -> None:
        """■ Finish session, answered Yes: the session reopens read-only with its charts."""
        from PySide6.QtWidgets import QMessageBox

        monkeypatch.setattr(QMessageBox, "question",
                            lambda *_a, **_k: QMessageBox.StandardButton.Yes)
        self.table.play.finish_action.trigger()
        self.qtbot.waitUntil(
            lambda: self.table.context.service.read_only and not self.table.opening)
        assert self.stored().status == "finished"


# --- a child process holding the session ----------------------------------------------------
def play_in_child(url: str, settings: Path, session_id: int,
                  keys: Sequence[str]) -> dict[str, Any]:
    """``evening_player.py`` resumes the session in its own window, presses ``keys`` and
    prints what it shows; then it is killed with SIGKILL. Returns what it printed."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    child = subprocess.Popen(
        [sys.executable, str(PLAYER), url, str(settings), str(session_id), json.dumps(keys)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    assert child.stdout is not None and child.stderr is not None
    try:
        line = child.stdout.readline()
        if not line.startswith("shown "):
            child.kill()
            child.wait(timeout=60)
            raise AssertionError(f"the child said {line!r}: {child.stderr.read()}")
        child.send_signal(signal.SIGKILL)  # mid-turn: the app holds the session
        child.wait(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait(timeout=60)
        child.stdout.close()
        child.stderr.close()
    assert child.returncode == -signal.SIGKILL
    shown: dict[str, Any] = json.loads(line.split(" ", 1)[1])
    return shown


def shown_state(window: MainWindow) -> dict[str, Any]:
    """What a window shows of its session (the child prints it before the kill)."""
    table = window.table
    game = table.context.service.game
    assert game is not None
    model = table.play.log_dock.model
    batch = table.keys.batch
    return {"session": table.session_id,
            "clock": game.clock.to_json(),
            "sheets": {v.key: game.sheet(v.key).to_json() for v in game.vehicles},
            "log": [model.event_at(r).event.summary  # type: ignore[union-attr]
                    for r in range(model.rowCount())],
            "batch": [] if batch is None else [
                {"label": s.label, "dice": s.dice, "bindings": dict(s.bindings)}
                for s in batch.shots],
            "message": table.play.message.text(),
            "quick": table.quick.info.text() if table.quick.isVisible() else ""}

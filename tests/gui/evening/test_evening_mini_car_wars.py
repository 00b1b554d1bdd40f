"""Mini Car Wars, one evening through the real window (issue 28, "Done when").

Four cars, three turns, from New Session to Finish: a shot alone by its keys, the phase's
fire as one batch (a quick line and a smokescreen), the smoke's 60 turns counting down, an
undo followed by a new event, a shot the rules refuse, and a child process holding the
session killed mid-turn with a declared batch, resumed here. After every step
:meth:`~harness.Evening.check` compares the database, the log dock, the sheets and the
players' display.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from .harness import Evening, play_in_child

FOUR = [("Ann", "Rocket Special", ""), ("Bo", "Courier", ""), ("Cy", "Killer Kart", ""),
        ("Di", "Mini Sherman", "")]
"""The Rocket Special's MG is its second weapon (its first is the RL)."""

MCW_SHOT = ("F1", "2", "2", "5", "f", "5", "4", "3", "Ctrl+Shift+Enter")
"""The guide's sequence: vehicle 1's weapon 2 at vehicle 2, 5", front, dice 5 4 3, alone."""

SMOKE = "◷ smoke cloud behind Mini Sherman (laid Turn 1, phase 1): {} turns left (gone at turn 61)"


def _fact(view: Any, key: str, label: str) -> str:
    vehicle = view.vehicle(key)
    assert vehicle is not None
    return str(next(f.value for f in vehicle.facts if f.label == label))


def _next_turn(evening: Evening, qtbot: Any, turn: int, refused_speed: str = "") -> None:
    """Ctrl+J to the end of the turn (nobody moves at 0 mph), the speeds kept, Start.

    ``refused_speed``: first typed for vehicle 1, and refused (§2.2: a car changes speed
    by at most its acceleration a turn); nothing changes until it is put right."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    from carwars_desktop.gui.plugins.mini_car_wars.clock_panel import MiniClockPanel

    clock = evening.table.play.clock
    assert isinstance(clock, MiniClockPanel)
    evening.press("Ctrl+J")  # phases 1→10 as one event
    evening.press("Ctrl+J")  # the end of the turn: the new speeds
    assert clock.speeds_open
    # The GM clicks the button once it is on screen (the form is laid out in a turn).
    qtbot.waitUntil(lambda: not clock.start_button.visibleRegion().isEmpty())
    if refused_speed:
        assert evening.keys.focused() is clock.speed_edits["v1"]  # typed into at once
        evening.press("Ctrl+A", *refused_speed)
        before = evening.stored()
        QTest.mouseClick(clock.start_button, Qt.MouseButton.LeftButton)
        assert clock.speeds_open and evening.game.clock.turn == turn - 1
        assert clock.speeds_error.text() == "⚠ some speeds are not allowed: nothing was changed"
        assert clock.speed_errors["v1"].text().startswith("⚠ ")
        assert clock.speed_errors["v2"].text() == ""
        refused = evening.check(f"a refused speed of {refused_speed} mph")
        assert (refused.events, refused.sheets, refused.clock) == (
            before.events, before.sheets, before.clock)
        clock.speed_edits["v1"].setFocus()
        evening.press("Ctrl+A", "0")
    QTest.mouseClick(clock.start_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: evening.game.clock.turn == turn)
    evening.wait_for_the_table()  # the focus back on the sheets (#28 §3)


@pytest.mark.slow
@pytest.mark.posix_signals
def test_evening_mini_car_wars(qtbot: Any, tmp_path: Path, sqlite_url: str,
                               monkeypatch: pytest.MonkeyPatch) -> None:
    from carwars_desktop.rules.mini_car_wars.play import mini_sheet

    evening = Evening(qtbot, tmp_path, sqlite_url)
    evening.open_window()

    # New Session: four cars; the players' display on the TV.
    evening.new_session("mini_car_wars", "Friday duel", FOUR)
    display = evening.open_display()
    start = evening.check("New Session")
    assert start.events == [] and start.resolutions == [] and start.dice == []
    assert [v.name for v in evening.players_see().vehicles] == [v for _p, v, _n in FOUR]
    assert str(evening.game.clock) == "Turn 1, phase 1"
    courier_front = _fact(evening.players_see(), "v2", "front armor")

    # A shot alone, by the guide's keys.
    evening.press(*MCW_SHOT)
    shot = evening.check("the Rocket Special's MG at the Courier, alone")
    assert shot.changes["events"] == [(1, "active", "hit: 3 damage to Courier's front")]
    assert shot.states() == ["applied"]
    [(shot_log, _p, _s)] = shot.resolutions
    assert [rid for _id, rid in shot.changes["dice"]] == [shot_log]  # its dice, linked
    assert shot.changes["sheets"] == ["v1", "v2"]
    assert mini_sheet(evening.game.sheet("v2")).armor.front == 27
    assert [w.fired for w in mini_sheet(evening.game.sheet("v1")).weapons] == [False, True]
    assert _fact(evening.players_see(), "v2", "front armor") != courier_front
    assert evening.players_see().log[-1] == "hit: 3 damage to Courier's front"

    # The phase's fire as one batch: a quick line, then the smokescreen by its dialog.
    evening.press("Q", *"3mg4f2:543", "Enter")  # into the batch (§2.2), with its dice
    declared = evening.check("a quick line into the batch")
    assert declared.changes["events"] == [] and declared.changes["sheets"] == []
    assert [(json.loads(b), d) for b, d in declared.declared] == [
        ({"firer": "v3", "target": "v4"}, "543")]  # committed before it is shown
    evening.press("F4", "3")  # the Sherman's smokescreen
    dialog = evening.dialog()
    evening.press("Ctrl+Enter")  # into the batch
    assert not dialog.isVisible() and dialog.error.text() == ""
    assert len(evening.check("the smokescreen into the batch").declared) == 2
    evening.press("b")
    batch_dialog = evening.table.keys.batch_dialog
    assert batch_dialog is not None and batch_dialog.isVisible()
    assert [e.text() for e in batch_dialog.dice_edits] == ["543", ""]
    evening.press("Ctrl+Enter")  # the whole phase's fire, one event
    qtbot.waitUntil(lambda: not batch_dialog.isVisible())
    batch = evening.check("the batch applied")
    [(seq, status, summary)] = batch.changes["events"]
    assert (seq, status) == (2, "active") and summary.startswith("fire batch of 2: ")
    assert "3 damage to Mini Sherman's front" in summary and "smoke cloud" in summary
    assert batch.declared == []  # gone with the batch's event
    assert batch.states() == ["applied"] * len(batch.resolutions)
    assert len(batch.changes["resolutions"]) >= 2  # each shot in the roll log
    assert batch.changes["sheets"] == ["v3", "v4"]
    assert evening.table.play.sheets["v4"].durations_text() == SMOKE.format(60)
    assert "smoke cloud behind Mini Sherman" in evening.table.play.durations_text()
    assert evening.players_see().log[-1] == summary
    seen_before_undo = evening.players_see()

    # Undo the batch, then a new event: the batch stays in the log, undone, never redone.
    evening.press("Ctrl+Z")
    undone = evening.check("undo the batch")
    assert undone.events[-1] == (2, "undone", summary)
    assert undone.sheets == shot.sheets  # exactly as before the batch
    assert evening.table.play.sheets["v4"].durations_text() == ""
    assert evening.players_see().log[-1] == "hit: 3 damage to Courier's front"
    evening.press("F2", "2", "3", "3", "f", "4", "3", "2", "Ctrl+Shift+Enter")
    after_undo = evening.check("a new shot after the undo")
    assert after_undo.events[1:] == [(2, "abandoned", summary),
                                     (3, "active", "hit: 2 damage to Killer Kart's front")]
    model = evening.table.play.log_dock.model
    assert str(model.data(model.index(1, model.columnCount() - 1))).startswith(
        "↶ undone, not redoable (a new event followed)")
    assert seen_before_undo.log[-1] not in evening.players_see().log  # never shown as done

    # The smoke again, through the batch, so that it lasts into the next turns.
    evening.press("F4", "3", "Ctrl+Enter")
    evening.press("b", "Ctrl+Enter")
    smoke = evening.check("the smokescreen again")
    assert smoke.changes["events"][0][0] == 4
    assert evening.table.play.sheets["v4"].durations_text() == SMOKE.format(60)

    # A refused move: the Rocket Special's MG has fired this turn (§1.3).
    evening.press("F1", "2")
    dialog = evening.dialog()
    assert dialog.odds_label.text() == (
        "not allowed: MG (Turret) has already fired this turn (once per turn, §1.3)")
    evening.press("2", "5", "f", "5", "4", "3", "Ctrl+Shift+Enter")
    assert dialog.isVisible() and dialog.error.text() == (
        "⚠ not allowed: MG (Turret) has already fired this turn (once per turn, §1.3): "
        "nothing was resolved.")
    evening.press("Esc")
    refused = evening.check("a refused shot")
    assert refused.events == smoke.events and refused.resolutions == smoke.resolutions
    assert refused.changes["dice"] == [] and refused.changes["sheets"] == []

    # Turn 2: the smoke counts down.
    _next_turn(evening, qtbot, 2)
    turn2 = evening.check("start of turn 2")
    assert evening.table.play.sheets["v4"].durations_text() == SMOKE.format(59)
    assert evening.players_see().clock is not None
    assert evening.players_see().clock.turn == 2

    # Mid-turn the GM's laptop is another process, killed while it holds the session: one
    # shot applied, one declared into the batch with its dice.
    evening.close_window()
    assert evening.session_id is not None
    shown = play_in_child(sqlite_url, evening.settings_path, evening.session_id,
                          [*MCW_SHOT, "Q", *"2mg1f3:643", "Enter"])
    assert shown["log"][-1] == "hit: 3 damage to Courier's front"
    assert [(s["bindings"], s["dice"]) for s in shown["batch"]] == [
        ({"firer": "v2", "target": "v1"}, "643")]

    # The app started again resumes the session where the child left it.
    window = evening.open_window()
    qtbot.waitUntil(lambda: evening.table.context.service.game is not None
                    and not evening.table.opening and not evening.table.context.service.read_only)
    assert evening.table.session_id == evening.session_id
    display = evening.open_display()
    resumed = evening.check("resumed after the kill")
    assert resumed.sheets == shown["sheets"] and resumed.clock == shown["clock"]
    assert [s for _seq, _st, s in resumed.events] == shown["log"]
    assert resumed.changes["events"] == [(len(turn2.events) + 1, "active",
                                          "hit: 3 damage to Courier's front")]
    assert resumed.declared == [('{"firer":"v2","target":"v1"}', "643")]
    batch_now = evening.table.keys.batch
    assert batch_now is not None
    assert [(dict(s.bindings), s.dice) for s in batch_now.shots] == [
        ({"firer": "v2", "target": "v1"}, "643")]
    assert "declared before the app stopped" in evening.table.play.message.text()
    assert evening.players_see().log[-1] == "hit: 3 damage to Courier's front"
    evening.table.focus_default()
    evening.press("b")
    batch_dialog = evening.table.keys.batch_dialog
    assert batch_dialog is not None and [e.text() for e in batch_dialog.dice_edits] == ["643"]
    evening.press("Ctrl+Enter")
    qtbot.waitUntil(lambda: not batch_dialog.isVisible())
    applied = evening.check("the resumed batch applied")
    assert applied.declared == [] and len(applied.changes["events"]) == 1
    assert "Rocket Special" in applied.changes["events"][0][2]
    assert applied.changes["sheets"] == ["v1", "v2"]

    # Turn 3, one more shot, and the end of the evening.
    _next_turn(evening, qtbot, 3, refused_speed="90")
    evening.check("start of turn 3")
    assert evening.table.play.sheets["v4"].durations_text() == SMOKE.format(58)
    evening.press("F4", "1", "2", "3", "l", "4", "4", "2", "Ctrl+Shift+Enter")
    last = evening.check("the Sherman's linked MGs at the Courier")
    assert len(last.changes["events"]) == 1 and "Courier's left" in last.changes["events"][0][2]
    # The record sheets made secret (View › What the players see): no armor left on any
    # card of the players' display; the GM's sheets are unchanged.
    menu = window._players_menu
    menu.aboutToShow.emit()
    [open_sheets] = [a for a in menu.actions()
                     if a.text() == "Players see each other's record sheets"]
    assert open_sheets.isChecked()
    open_sheets.trigger()
    secret = evening.check("the record sheets secret")
    assert [status for _seq, status, _s in secret.changes["events"]] == ["active"]
    assert secret.changes["sheets"] == []
    view = evening.players_see()
    assert not view.sheets_open
    assert all("armor" not in fact.label for v in view.vehicles for fact in v.facts)
    assert "record sheets secret" in display.visibility.text()
    assert view.log[-1] == last.changes["events"][0][2]  # (a setting is the GM's business)
    evening.finish(monkeypatch)
    finished = evening.check("Finish")
    assert finished.status == "finished" and finished.events == secret.events
    assert evening.table.context.service.read_only
    assert display is window.player_display
    evening.close_window()

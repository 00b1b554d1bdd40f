"""AUTOpower, one evening through the real window (issue 28, "Done when").

Four cars, three turns, from New Session to Finish under the GM's saved house rules: a
Division 15 duel refused at New Session (Darkseid's total 18, §2.1 / AP-D2), then the
Control Rolls variant (§2.8): the turn order settled from the Clock, the guide's attack
keys in the attacker's Combat phase, the control roll due after a hit (a duration shown on
the sheet and the Clock until it is rolled), an undo followed by a new event, every phase
by Ctrl+., and a child process
killed mid-turn with a control roll due and its dialog open, resumed here. After every step
:meth:`~harness.Evening.check` compares the database, the log dock, the sheets and the
players' display.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .harness import Evening, play_in_child

FOUR = [("Bo", "Darkseid", ""), ("Ann", "Longshot", ""), ("Cy", "Rhino", ""),
        ("Di", "Bishop", "")]
AP_ATTACK = ("F2", "1", "4", "Enter", "6", "5", "Ctrl+Enter")
"""The guide's sequence: vehicle 2 attacks vehicle 1 with a Fighting 4, dice 6 5."""
DUE = "◷ {}: control roll due (damage 4): until it is rolled (C)"


def _control_offered(evening: Evening, qtbot: Any, damage: int) -> Any:
    """After a hit the control roll is offered at once, the damage taken filled in."""
    runner = evening.table.hub.runner
    qtbot.waitUntil(lambda: runner.dialog is not None and runner.dialog.isVisible()
                    and runner.dialog.procedure.id == "autopower.control")
    dialog = evening.dialog()
    assert dialog.form.values()["damage"] == damage
    assert evening.keys.focused() is dialog.dice_edit
    return dialog


def _to_turn(evening: Evening, turn: int) -> int:
    """Ctrl+. through every phase to the next turn's first; how many presses."""
    presses = 0
    while evening.game.clock.turn < turn:
        evening.press("Ctrl+.")
        presses += 1
        assert presses <= 16, str(evening.game.clock)
    return presses


def _to_phase(evening: Evening, phase: str) -> Any:
    """Ctrl+. to ``phase`` of this turn (§2.2: a car attacks in its own Combat phase),
    one event a press; what is stored then."""
    before = evening.stored()
    presses = 0
    while evening.game.clock.phase_name != phase:
        evening.press("Ctrl+.")
        presses += 1
        assert presses <= 16, str(evening.game.clock)
    there = evening.check(f"Ctrl+. to {phase}")
    assert len(there.changes["events"]) == presses
    assert [s for _q, _st, s in there.changes["events"]][-1] == phase
    assert there.sheets == before.sheets
    return there


@pytest.mark.slow
@pytest.mark.posix_signals
def test_evening_autopower(qtbot: Any, tmp_path: Path, sqlite_url: str,
                           monkeypatch: pytest.MonkeyPatch) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    from carwars_desktop.gui.plugins.autopower.clock_panel import AutopowerClockPanel
    from carwars_desktop.rules.autopower import CarSheet
    from carwars_desktop.services.house_rules import HouseRulesService

    evening = Evening(qtbot, tmp_path, sqlite_url)
    window = evening.open_window()
    assert window.database is not None
    profiles = HouseRulesService(window.database)
    profiles.create("autopower", "Division 15", {"AP-division": 15})
    profiles.create("autopower", "Control", {"AP-control-rolls": True})

    # New Session: a Division 15 duel is refused with Darkseid (total 18) and nothing is
    # written; the same dialog, the Control Rolls profile chosen, starts the evening.
    dialog = evening.new_session("autopower", "Duel night", FOUR, profile="Division 15",
                                 refused="Darkseid cannot enter play: Total 18 is above 15")
    assert dialog.error.text() == (
        "⚠ Darkseid cannot enter play: Total 18 is above 15: the car cannot enter "
        "Division 15.")
    evening.new_session("autopower", "Duel night", FOUR, profile="Control")
    game = evening.game
    assert game.house["AP-control-rolls"] is True
    evening.open_display()
    start = evening.check("New Session")
    assert start.events == [] and start.resolutions == []
    assert str(game.clock) == "Turn 1, Bishop: draw"

    # The turn order, from the Clock (§2.2 step 4: the fastest first, no roll).
    clock = evening.table.play.clock
    assert isinstance(clock, AutopowerClockPanel)
    qtbot.waitUntil(lambda: not clock.order_button.visibleRegion().isEmpty())
    QTest.mouseClick(clock.order_button, Qt.MouseButton.LeftButton)
    order = evening.dialog()
    assert order.procedure.id == "autopower.first_player"
    assert order.odds_label.text() == "Bishop goes first: no roll"
    evening.press("Ctrl+Enter")
    qtbot.waitUntil(lambda: not order.isVisible())
    ordered = evening.check("the turn order")
    assert ordered.changes["events"] == [
        (1, "active", "turn order: Bishop → Darkseid → Longshot → Rhino")]
    assert ordered.states() == ["applied"] and ordered.changes["dice"] == []
    assert clock.order_label.text() == "Turn order: Bishop → Darkseid → Longshot → Rhino"
    evening.wait_for_the_table()

    # Longshot's Combat phase: it attacks Darkseid by the guide's keys; the control roll
    # is due at once.
    combat = _to_phase(evening, "Longshot: combat")
    seq = len(combat.events) + 1
    darkseid_before = evening.players_see().vehicle("v1")
    evening.press(*AP_ATTACK)
    control = _control_offered(evening, qtbot, 4)
    evening.press("Esc")  # not rolled yet: it stays due
    qtbot.waitUntil(lambda: not control.isVisible())
    hit = evening.check("Longshot's attack, the control roll left due")
    assert hit.changes["events"] == [(seq, "active", "hit: 4 damage to Darkseid")]
    assert [s for _i, _p, s in hit.changes["resolutions"]] == ["applied"]
    assert [rid for _id, rid in hit.changes["dice"]] == [hit.changes["resolutions"][0][0]]
    assert hit.changes["sheets"] == ["v1", "v2"]
    darkseid = game.sheet("v1")
    assert isinstance(darkseid, CarSheet)
    assert darkseid.total_damage == 4 and darkseid.control_due == 4
    assert "control roll due (damage 4)" in evening.table.play.sheets["v1"].status_text()
    assert evening.table.play.sheets["v1"].durations_text() == DUE.format("Darkseid")
    assert DUE.format("Darkseid") in evening.table.play.durations_text()
    assert evening.players_see().vehicle("v1") != darkseid_before
    assert evening.players_see().log[-1] == "hit: 4 damage to Darkseid"

    # Undo the attack, then attack again: the first stays in the log, undone.
    evening.wait_for_the_table()
    evening.press("Ctrl+Z")
    undone = evening.check("undo the attack")
    assert undone.events[-1] == (seq, "undone", "hit: 4 damage to Darkseid")
    assert undone.sheets == combat.sheets
    assert evening.table.play.durations_text() == ""
    assert evening.players_see().vehicle("v1") == darkseid_before
    evening.press(*AP_ATTACK)
    control = _control_offered(evening, qtbot, 4)
    assert control.odds_label.text() == "control target 2 ≤ 2: kept without a roll"
    evening.press("Enter", "Ctrl+Enter")  # no dice: resolved, applied
    qtbot.waitUntil(lambda: not control.isVisible())
    again = evening.check("the attack again, its control roll made")
    assert again.events[-3:] == [(seq, "abandoned", "hit: 4 damage to Darkseid"),
                                 (seq + 1, "active", "hit: 4 damage to Darkseid"),
                                 (seq + 2, "active", again.events[-1][2])]
    assert [p for _i, p, _s in again.changes["resolutions"]] == [
        "autopower.attack", "autopower.control"]
    assert again.states() == ["applied"] * len(again.resolutions)
    model = evening.table.play.log_dock.model
    assert str(model.data(model.index(seq - 1, model.columnCount() - 1))).startswith(
        "↶ undone, not redoable (a new event followed)")
    darkseid = game.sheet("v1")
    assert isinstance(darkseid, CarSheet) and darkseid.control_due is None
    assert evening.table.play.durations_text() == ""

    # The rest of turn 1 by Ctrl+., one event each, and turn 2 to the Rhino's Combat.
    evening.wait_for_the_table()
    presses = _to_turn(evening, 2)
    turn2 = evening.check("to turn 2")
    assert len(turn2.changes["events"]) == presses == 5  # Longshot's combat, Rhino's four
    assert str(game.clock) == "Turn 2, Bishop: draw"
    seen = evening.players_see()
    assert seen.clock is not None and seen.clock.turn == 2

    turn2 = _to_phase(evening, "Rhino: combat")

    # A child process holds the session: the Rhino attacks Longshot, and is killed with
    # the control roll due and its dialog open.
    evening.close_window()
    assert evening.session_id is not None
    shown = play_in_child(sqlite_url, evening.settings_path, evening.session_id,
                          ["F3", "2", "4", "Enter", "6", "5", "Ctrl+Enter"])
    assert shown["log"][-1] == "hit: 4 damage to Longshot"

    window = evening.open_window()
    qtbot.waitUntil(lambda: evening.table.context.service.game is not None
                    and not evening.table.opening and not evening.table.context.service.read_only)
    assert evening.table.session_id == evening.session_id
    game = evening.game
    evening.open_display()
    resumed = evening.check("resumed after the kill")
    assert resumed.sheets == shown["sheets"] and resumed.clock == shown["clock"]
    assert [s for _q, _st, s in resumed.events] == shown["log"]
    assert resumed.changes["events"] == [(len(turn2.events) + 1, "active",
                                          "hit: 4 damage to Longshot")]
    longshot = game.sheet("v2")
    assert isinstance(longshot, CarSheet) and longshot.control_due == 4
    assert evening.table.play.sheets["v2"].durations_text() == DUE.format("Longshot")
    assert DUE.format("Longshot") in evening.table.play.durations_text()
    evening.table.focus_default()
    evening.press("2", "c")  # C: the control roll due, filled in
    control = _control_offered(evening, qtbot, 4)
    evening.press("Enter", "Ctrl+Enter")
    qtbot.waitUntil(lambda: not control.isVisible())
    rolled = evening.check("Longshot's control roll after the resume")
    assert [p for _i, p, _s in rolled.changes["resolutions"]] == ["autopower.control"]
    assert evening.table.play.durations_text() == ""

    # Turn 3: Darkseid attacks Bishop; the end of the evening.
    evening.wait_for_the_table()
    _to_turn(evening, 3)
    evening.check("to turn 3")
    assert str(game.clock) == "Turn 3, Bishop: draw"
    _to_phase(evening, "Darkseid: combat")
    evening.press("F1", "4", "4", "Enter", "6", "5", "Ctrl+Enter")
    control = _control_offered(evening, qtbot, 4)
    evening.press("Enter", "Ctrl+Enter")
    qtbot.waitUntil(lambda: not control.isVisible())
    last = evening.check("Darkseid's attack on Bishop")
    assert last.changes["events"][0][2] == "hit: 4 damage to Bishop"
    evening.finish(monkeypatch)
    finished = evening.check("Finish")
    assert finished.status == "finished" and finished.events == last.events
    assert evening.table.context.service.read_only and window.player_display is not None
    evening.close_window()

"""Battlecars, one evening through the real window (issue 28, "Done when").

Four cars of the example card in the street, three rounds, from New Session (and its 1d8
order-of-play roll, §2.1 step 7) to Finish: a rocket by the guide's keys, return fire on
the quick line (§2.9) and a target it refuses, a Smoke marker dropped (it lasts until an
end-of-round dispersal roll removes it, §2.2 step 4), an undo followed by a new event, a
refused speed, and a child process killed mid-turn with a roll shown and not applied. After
every step :meth:`~harness.Evening.check` compares the database, the log dock, the sheets
and the players' display.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from carwars_desktop.rules.battlecars import EXAMPLE_CARD_NAME as CARD
from carwars_desktop.storage.game_sessions import APP_STOPPED

from .harness import Evening, play_in_child

FOUR = [("Ann", CARD, "Interceptor"), ("Bo", CARD, "Wasp"), ("Cy", CARD, "Hornet"),
        ("Di", CARD, "Viper")]
BC_SHOT = ("F1", "2", "f", "Enter", "7", "6", "1", "1", "Ctrl+Enter")
"""The guide's sequence: vehicle 1 fires its first pod at vehicle 2's front, 7 6 1 1."""
SMOKE = ("◷ Smoke marker from Interceptor's Pod C (round 1): until the end-of-round "
         "dispersal roll removes it")


def _speeds(evening: Evening, speeds: dict[str, int]) -> None:
    """Each car's secret speed typed into its box on the Clock."""
    from carwars_desktop.gui.plugins.battlecars.clock_panel import BattlecarsClockPanel

    clock = evening.table.play.clock
    assert isinstance(clock, BattlecarsClockPanel)
    for key, speed in speeds.items():
        box = clock.speed_rows[key].speed
        box.setFocus()
        evening.press("Ctrl+A", *str(speed))
        assert box.value() == speed


def _drop_smoke(evening: Evening) -> None:
    """1, A › Drop passive weapon, the marker typed (``s`` ``m``: smoke), Ctrl+Enter."""
    evening.every_action(1, "Drop passive weapon")
    dialog = evening.dialog()
    assert dialog.procedure.id == "battlecars.drop"
    dialog.form.editors["weapon"].setFocus()
    evening.press("s", "m")
    assert dialog.form.values()["weapon"] == "smoke"
    evening.press("Ctrl+Enter")
    assert not dialog.isVisible() and dialog.error.text() == ""


def _end_turns(evening: Evening, qtbot: Any, dice: str) -> Any:
    """Ctrl+. through the other cars' turns, then the end-of-round roll, its dice typed."""
    game = evening.game
    for name in ("Wasp", "Hornet", "Viper"):
        if str(game.clock).endswith(f"{name}'s turn"):
            continue
        evening.press("Ctrl+.")
    while not str(game.clock).endswith("Viper's turn"):
        evening.press("Ctrl+.")
    evening.press("Ctrl+.")
    dialog = evening.dialog()
    assert dialog.procedure.id == "battlecars.end_round"
    assert evening.keys.focused() is dialog.dice_edit
    evening.type(dice)
    evening.press("Ctrl+Enter")
    qtbot.waitUntil(lambda: not dialog.isVisible())
    return dialog


@pytest.mark.slow
@pytest.mark.posix_signals
def test_evening_battlecars(qtbot: Any, tmp_path: Path, sqlite_url: str,
                            monkeypatch: pytest.MonkeyPatch) -> None:
    from carwars_desktop.gui.plugins.battlecars.clock_panel import BattlecarsClockPanel
    from carwars_desktop.rules.battlecars import CarSheet
    from carwars_desktop.rules.battlecars.terms import Weapon

    evening = Evening(qtbot, tmp_path, sqlite_url)
    window = evening.open_window()

    # New Session in the street; the order-of-play roll is offered at once.
    evening.new_session("battlecars", "Street night", FOUR, scenario="street")
    order = evening.dialog()
    assert order.procedure.id == "battlecars.entry_order"
    assert order.form.values()["players"] == "Interceptor, Wasp, Hornet, Viper"
    evening.type("8642")  # each player's 1d8, typed
    evening.press("Ctrl+Enter")
    qtbot.waitUntil(lambda: not order.isVisible())
    evening.open_display()
    start = evening.check("New Session and the order of play")
    assert start.events == [(1, "active", "play order: Interceptor → Wasp → Hornet → Viper")]
    assert start.states() == ["applied"]
    assert window.database is not None
    with window.database.engine.connect() as db:
        dice = db.execute(text("SELECT dice_values, entered, resolution_id FROM dice_rolls"))
        assert [(r[0], bool(r[1]), r[2]) for r in dice] == [
            ("[8, 6, 4, 2]", True, start.resolutions[0][0])]
    clock = evening.table.play.clock
    assert isinstance(clock, BattlecarsClockPanel)
    assert clock.order_label.text() == "Play order: Interceptor → Wasp → Hornet → Viper"
    assert str(evening.game.clock) == "Round 1, secret speeds"
    seen = evening.players_see()
    assert seen.clock is not None and seen.clock.title == "Round 1 · secret speeds"

    # A refused speed: from 0 the card reaches at most 3 on road.
    _speeds(evening, {"v1": 6, "v2": 3, "v3": 3, "v4": 3})
    evening.press("Ctrl+.")
    assert "not allowed (outside 0–3)" in clock.speed_rows["v1"].error.text()
    refused = evening.check("a refused speed")
    assert refused.events == start.events and str(evening.game.clock) == (
        "Round 1, secret speeds")
    _speeds(evening, {"v1": 3})
    evening.press("Ctrl+.")
    revealed = evening.check("the speeds revealed")
    assert revealed.changes["events"] == [(2, "active", "Round 1: speeds revealed")]
    assert str(evening.game.clock) == "Round 1, Interceptor's turn"
    evening.table.focus_default()

    # The Interceptor's rocket at the Wasp, by the guide's keys.
    evening.press(*BC_SHOT)
    shot = evening.check("the Interceptor's rocket at the Wasp")
    assert shot.changes["events"] == [(3, "active", "hit Wasp: 2 damage")]
    assert [s for _i, _p, s in shot.changes["resolutions"]] == ["applied"]
    assert [rid for _id, rid in shot.changes["dice"]] == [shot.changes["resolutions"][0][0]]
    assert shot.changes["sheets"] == ["v1", "v2"]
    interceptor = evening.game.sheet("v1")
    assert isinstance(interceptor, CarSheet)
    assert interceptor.load("Pod A").count(Weapon.ROCKET) == 1
    assert evening.players_see().log[-1] == "hit Wasp: 2 damage"

    # Return fire (§2.9): refused at a car that did not attack, taken at the attacker.
    evening.press("Q", *"2sh3f2", "Enter")
    assert evening.table.quick.info.text() == (
        "⚠ Wasp may return fire only at its attacker, Interceptor, not at Hornet "
        "(Battlecars §2.9 step 2 · BC-D26)")
    evening.press("Esc")
    not_at_hornet = evening.check("return fire at a non-attacker, refused")
    assert not_at_hornet.events == shot.events and not_at_hornet.changes["dice"] == []
    assert not_at_hornet.resolutions == shot.resolutions
    evening.press("Q", *"2sh1f2:76", "Enter")
    assert "Enter applies" in evening.table.quick.info.text()
    evening.press("Enter")
    returned = evening.check("the Wasp returns fire at the Interceptor")
    assert returned.changes["events"] == [(4, "active", "hit Interceptor: 4 damage")]
    model = evening.table.play.log_dock.model
    assert "return fire: one round, only at the attacker" in " ".join(
        model.event_at(model.rowCount() - 1).event.steps)

    # A Smoke marker dropped: it lasts until a dispersal roll removes it.
    _drop_smoke(evening)
    smoke = evening.check("smoke dropped")
    assert smoke.changes["events"] == [(5, "active", "Interceptor: Smoke dropped from Pod C")]
    assert evening.table.play.sheets["v1"].durations_text() == SMOKE
    assert evening.table.play.durations_text() == SMOKE

    # Undo it, and a new event: the drop stays in the log, undone, not redoable.
    evening.press("Ctrl+Z")
    undone = evening.check("undo the drop")
    assert undone.events[-1] == (5, "undone", "Interceptor: Smoke dropped from Pod C")
    assert undone.sheets == returned.sheets
    assert evening.table.play.durations_text() == ""
    _drop_smoke(evening)
    again = evening.check("smoke dropped again")
    assert again.events[-2:] == [(5, "abandoned", "Interceptor: Smoke dropped from Pod C"),
                                 (6, "active", "Interceptor: Smoke dropped from Pod C")]
    assert "↶ undone, not redoable (a new event followed)" in str(
        model.data(model.index(4, model.columnCount() - 1)))
    assert evening.table.play.durations_text() == SMOKE

    # The other cars' turns, and the end of the round: the marker stays (1–4).
    ended = _end_turns(evening, qtbot, "2")
    round2 = evening.check("the end of round 1")
    assert ended.procedure.id == "battlecars.end_round"
    assert str(evening.game.clock) == "Round 2, secret speeds"
    assert evening.table.play.durations_text() == SMOKE
    assert round2.states().count("applied") == len(round2.resolutions)
    evening.table.focus_default()
    evening.press("Ctrl+.")  # the same speeds again
    turn = evening.check("round 2's speeds revealed")
    assert str(evening.game.clock) == "Round 2, Interceptor's turn"

    # A child process holds the session: a rocket at the Hornet applied, then the Hornet's
    # return fire read and shown on the quick line, never applied, when it is killed.
    evening.close_window()
    assert evening.session_id is not None
    shown = play_in_child(sqlite_url, evening.settings_path, evening.session_id,
                          ["F1", "3", "f", "Enter", *"7611", "Ctrl+Enter",
                           "Q", *"3sh1f2:763", "Enter"])
    assert shown["log"][-1] == "hit Hornet: 2 damage"

    window = evening.open_window()
    qtbot.waitUntil(lambda: evening.table.context.service.game is not None
                    and not evening.table.opening and not evening.table.context.service.read_only)
    assert evening.table.session_id == evening.session_id
    evening.open_display()
    resumed = evening.check("resumed after the kill")
    assert resumed.sheets == shown["sheets"] and resumed.clock == shown["clock"]
    assert [s for _q, _st, s in resumed.events] == shown["log"]
    assert resumed.changes["events"] == [(len(turn.events) + 1, "active",
                                          "hit Hornet: 2 damage")]
    # The return fire shown and never applied: discarded, with its dice, not pending.
    assert shown["quick"] == "<b>hit Interceptor: 4 damage</b> — Enter applies, Esc discards"
    *_, (fire_id, _p, fire_state), (shown_id, shown_proc, shown_state) = resumed.resolutions
    assert (fire_state, shown_proc, shown_state) == ("applied", "battlecars.fire", "discarded")
    assert [rid for _id, rid in resumed.changes["dice"]] == [fire_id, shown_id]
    assert window.database is not None
    logged = window.database.game_sessions.roll_log(evening.session_id)[-1]
    assert (logged.id, logged.state, logged.note) == (shown_id, "discarded", APP_STOPPED)
    assert evening.players_see().log[-1] == "hit Hornet: 2 damage"
    assert str(evening.game.clock) == "Round 2, Interceptor's turn"
    # The Dice workspace (Ctrl+5) lists those dice as discarded, and why.
    evening.press("Ctrl+5")
    from carwars_desktop.gui.dice_workspace import DiceWorkspace

    qtbot.waitUntil(lambda: isinstance(window.workspaces[4], DiceWorkspace)
                    and window.workspaces[4].isVisible())
    history = window.workspaces[4]
    assert isinstance(history, DiceWorkspace)
    qtbot.waitUntil(lambda: not history.reading_history)  # (read on a worker when shown)
    model = history.history_model
    states = {str(model.data(model.index(row, 3))): str(model.data(model.index(row, 5)))
              for row in range(model.rowCount())}
    assert states["7 6 3"] == f"discarded: {APP_STOPPED}"
    assert states["7 6 1 1"].startswith("applied")
    evening.press("Ctrl+3")
    qtbot.waitUntil(evening.table.isVisible)

    # Round 3: the marker goes (5–8); the Wasp's rocket at the Interceptor; the end.
    evening.table.focus_default()
    _end_turns(evening, qtbot, "7")
    evening.check("the end of round 2")
    assert evening.table.play.durations_text() == ""
    assert str(evening.game.clock) == "Round 3, secret speeds"
    evening.table.focus_default()
    evening.press("Ctrl+.")
    evening.press("Ctrl+.")
    assert str(evening.game.clock) == "Round 3, Wasp's turn"
    evening.press("F2", "1", "f", "Enter", *"7611", "Ctrl+Enter")
    last = evening.check("the Wasp's rocket at the Interceptor")
    assert last.changes["events"][-1][2] == "hit Interceptor: 2 damage"
    evening.finish(monkeypatch)
    finished = evening.check("Finish")
    assert finished.status == "finished" and finished.events == last.events
    assert evening.table.context.service.read_only and window.player_display is not None
    evening.close_window()

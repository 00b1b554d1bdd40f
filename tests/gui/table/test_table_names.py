"""The Table shows a vehicle's name as the GM wrote it."""

from __future__ import annotations

from carwars_desktop.gui.plugins.battlecars.clock_panel import BattlecarsClockPanel
from carwars_desktop.rules.battlecars import EXAMPLE_CARD_NAME


def test_battlecars_clock_keeps_the_names_as_written(start_session) -> None:  # type: ignore[no-untyped-def]
    table = start_session("battlecars", [("Ann", EXAMPLE_CARD_NAME, "Street Hawk"),
                                         ("Bo", EXAMPLE_CARD_NAME)], "street")
    clock = table.play.clock
    assert isinstance(clock, BattlecarsClockPanel)
    assert clock.header.phase.text() == "Secret speeds"
    for row in clock.speed_rows.values():
        row.speed.setValue(3)
    clock.reveal_speeds()
    assert clock.header.phase.text() == "Street Hawk's turn"
    clock.next_phase()
    assert clock.header.phase.text() == f"{EXAMPLE_CARD_NAME}'s turn"

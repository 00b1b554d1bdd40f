"""The Table redraws from the change bus: a change any initiator publishes (a Resolver, a
second window, the keyboard line) redraws the sheets of the vehicles it names, nothing else."""

from __future__ import annotations

from dataclasses import replace

from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.rules.mini_car_wars import MiniSheet
from carwars_desktop.services import Changes


def test_a_change_from_elsewhere_redraws_only_its_sheets(window: MainWindow,
                                                         start_session) -> None:  # type: ignore[no-untyped-def]
    table = start_session("mini_car_wars", [("Ann", "Courier"), ("Bob", "Killer Kart")])
    heard: list[Changes] = []
    window.services.bus.subscribe(heard.append)
    drawn: list[str] = []
    for key, widget in table.play.sheets.items():
        original = widget.set_sheet

        def spy(sheet, read_only=False, key=key, original=original):  # type: ignore[no-untyped-def]
            drawn.append(key)
            original(sheet, read_only)

        widget.set_sheet = spy  # type: ignore[method-assign]
    service = window.services.table
    sheet = service.running().sheet("v2")
    assert isinstance(sheet, MiniSheet)
    other_window = object()
    service.mark("v2", replace(sheet, maneuvers=sheet.maneuvers + 1), "Bob: a maneuver",
                 initiator=other_window)
    assert drawn == ["v2"]
    assert table.play.sheets["v2"].sheet == service.running().sheet("v2")
    assert heard[-1].initiator is other_window and heard[-1].vehicles == {"v2"}
    assert table.play.undo_action.isEnabled()
    assert table.play.log_dock.model.rowCount() == 1  # one row of the log
    drawn.clear()
    table.undo()
    assert drawn == ["v2"] and heard[-1].game is not None and heard[-1].game.undone

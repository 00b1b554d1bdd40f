"""The selected Mini Car Wars sheet beside the compact grid at 1366×768 shows whole: no
child of it reaches past what holds it and the sheet is not cut by the grid's view,
for each of four vehicles, new and with every weapon destroyed and a smoke cloud on it,
and with long names (a name in play or a player's name never widens the sheet past the
Table's room: it ends in "…", whole in its tooltip)."""

from __future__ import annotations

from typing import Any

from carwars_desktop.dice import EnteredDice
from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.plugins.mini_car_wars.sheet import MiniSheetWidget
from carwars_desktop.gui.table import TableWorkspace
from carwars_desktop.rules import find_procedure
from carwars_desktop.rules.mini_car_wars.play import marks as mini_marks

from ..loop import settle
from ..readable import clipped, unreadable
from .test_table_layout import FOUR, _laptop

LONG = [("Alexandra Konstantinopoulou-Papadimitriou", "Firelight Deluxe (opt)",
         "The Unstoppable Firelight of Doom and Everlasting Gloom on the Road"),
        ("Bartholomew", "Mini Sherman (b)", "Mini Sherman (b) the Second of His Name"),
        ("Cy", "Rocket Special (a)"), ("Di", "Shogun 220")]


def _every_sheet_whole(table: TableWorkspace, qtbot: Any) -> list[str]:
    grid = table.play.grid
    problems = []
    for number in range(1, len(table.play.sheets) + 1):
        table.keys.select(number)
        settle()
        qtbot.waitUntil(lambda: grid.compact)
        [large] = grid.visible_sheets()
        problems += [f"{large.vehicle.name}: {p}" for p in clipped(large) + unreadable(large)]
    return problems


def test_the_large_sheet_beside_the_compact_grid_shows_whole_at_1366x768(
        window: MainWindow, start_session: Any, qtbot: Any) -> None:
    _laptop(window, qtbot)
    table: TableWorkspace = start_session("mini_car_wars", FOUR, "road_duel")
    assert _every_sheet_whole(table, qtbot) == []
    game = table.context.service.game
    assert game is not None
    fire = find_procedure("mini.fire")
    table.context.service.resolve(
        fire, fire.bind({"firer": game.sheet("v3"), "weapon": "smokescreen"}),
        EnteredDice([]), bindings={"firer": "v3"}).apply()
    for key, sheet in table.play.sheets.items():
        assert isinstance(sheet, MiniSheetWidget)
        for index in range(len(sheet._mini().weapons)):
            table.hub.mark(key, lambda s=sheet, i=index: mini_marks.set_weapon(
                s._mini(), i, destroyed=True))
    settle()
    assert _every_sheet_whole(table, qtbot) == []


def test_long_names_never_widen_the_large_sheet_past_the_table(
        window: MainWindow, start_session: Any, qtbot: Any) -> None:
    _laptop(window, qtbot)
    table: TableWorkspace = start_session("mini_car_wars", LONG)
    assert _every_sheet_whole(table, qtbot) == []
    sheet = table.play.sheets["v1"]
    assert sheet.title.text().endswith("…")  # elided, the whole name in its tooltip
    assert "Everlasting Gloom on the Road" in sheet.title.toolTip()
    assert sheet.player.toolTip() == LONG[0][0]
    short = table.play.sheets["v3"]  # a short name shows whole, without a tooltip
    assert short.title.text() == "[3] Rocket Special (a)" and short.title.toolTip() == ""

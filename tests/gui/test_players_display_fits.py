"""The players' display shows every text whole at 1100×700 and 1366×768 (#28): its roll
panel with a roll in progress (the need, the odds and the modifiers, before any die) and
with a result shown after Apply, Mini Car Wars and Battlecars, four vehicles in play."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from carwars_desktop.gui.players_display import PlayerDisplay
from carwars_desktop.rules import find_procedure, find_ruleset
from carwars_desktop.rules.battlecars import EXAMPLE_CARD_NAME
from carwars_desktop.services import Services, typed_dice
from carwars_desktop.session.setup import Entry, prepare
from carwars_desktop.storage import Database

from .readable import unreadable

# ruleset → (four catalog vehicles, its scenario, its fire procedure, a shot, dice that hit)
CASES: dict[str, tuple[list[str], str, str, dict[str, Any], str]] = {
    "mini_car_wars": (["Courier (b)", "Courier", "Killer Kart", "Mini Sherman"], "",
                      "mini.fire", {"side": "L", "range": "5"}, "4 4 5 6 6"),
    "battlecars": ([EXAMPLE_CARD_NAME] * 4, "street", "battlecars.fire",
                   {"mount": "Pod D", "area": "front", "points_between": 2}, ""),
}


@pytest.fixture
def services(database: Database) -> Services:
    services = Services()
    services.table.database = database
    return services


def _start(services: Services, ruleset_id: str) -> None:
    names, scenario = CASES[ruleset_id][:2]
    ruleset = find_ruleset(ruleset_id)
    catalog = ruleset.catalog()
    entries = [Entry(f"Player {n}", f"Car {n}" if len(set(names)) == 1 else name,
                     catalog[name].to_json()) for n, name in enumerate(names, start=1)]
    services.table.open(services.table.start(ruleset_id, "Friday night at the club",
                                             scenario, prepare(ruleset, entries, scenario)))


@pytest.mark.parametrize("size", [(1100, 700), (1366, 768)])
@pytest.mark.parametrize("ruleset_id", ["mini_car_wars", "battlecars"])
def test_the_roll_panel_is_whole(qtbot: Any, services: Services, settings: QSettings,
                                 ruleset_id: str, size: tuple[int, int]) -> None:
    _start(services, ruleset_id)
    display = PlayerDisplay(services, settings)
    qtbot.addWidget(display)
    display.resize(*size)
    display.show()
    qtbot.waitExposed(display)
    qtbot.waitUntil(lambda: display.size().toTuple() == size)
    _names, _scenario, procedure_id, shot, dice = CASES[ruleset_id]
    table = services.table
    game = table.running()
    fire = find_procedure(procedure_id)
    values = fire.bind({**shot, "firer": game.sheet("v1"), "target": game.sheet("v2")})
    table.preparing(fire.id, {"firer": "v1", "target": "v2"}, fire.odds(values))
    qtbot.waitUntil(lambda: "prepares" in display.roll.outcome.text())
    QApplication.processEvents()
    assert unreadable(display) == [], "roll in progress"
    pending = table.resolve(fire, values, typed_dice(dice, roll=not dice),
                            bindings={"firer": "v1", "target": "v2"})
    pending.apply()
    qtbot.waitUntil(lambda: bool(display.roll.dice.text()))
    QApplication.processEvents()
    assert unreadable(display) == [], "result shown"

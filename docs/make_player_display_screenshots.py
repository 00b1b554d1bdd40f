"""Screenshots of the players' display at 1920×1080, one per ruleset (offscreen).

    QT_QPA_PLATFORM=offscreen .venv/bin/python docs/make_player_display_screenshots.py

Each shows a session of four vehicles after a few events, with a roll in progress
(need N+ and the exact odds before the dice); the Mini Car Wars one is also drawn
with secret record sheets and hidden odds (``players-display-mini-secret.png``), the
Battlecars one also in a dark system theme (``players-display-battlecars-dark.png``).
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

HERE = Path(__file__).resolve().parent / "images"


CARS = ["Red Baron", "Blue Thunder", "Green Hornet", "Black Widow"]


def session(services: Any, ruleset_id: str, names: list[str],
            shown_names: list[str] | None = None) -> None:
    from carwars_desktop.rules import find_ruleset
    from carwars_desktop.session.setup import Entry, prepare

    ruleset = find_ruleset(ruleset_id)
    catalog = ruleset.catalog()
    players = ["Ann", "Bo", "Cy", "Di"]
    shown = shown_names or names
    entries = [Entry(player, label, catalog[name].to_json())
               for player, name, label in zip(players, names, shown, strict=False)]
    scenario = ""
    session_id = services.table.start(ruleset_id, "Friday night", scenario,
                                      prepare(ruleset, entries, scenario))
    services.table.open(session_id)


def roll(services: Any, procedure_id: str, inputs: dict[str, Any], dice: str,
         bindings: dict[str, str], apply: bool) -> None:
    from carwars_desktop.rules import find_procedure
    from carwars_desktop.services import typed_dice

    procedure = find_procedure(procedure_id)
    game = services.table.running()
    values = procedure.bind({**inputs, **{name: game.sheet(key)
                                          for name, key in bindings.items()}})
    pending = services.table.resolve(procedure, values, typed_dice(dice, roll=True),
                                     bindings=bindings)
    if apply:
        pending.apply()


def mini(services: Any) -> None:
    session(services, "mini_car_wars", ["Courier (b)", "Courier", "Killer Kart",
                                        "Mini Sherman"])
    roll(services, "mini.fire", {"side": "L", "range": "5"}, "4 4 5 6 6",
         {"firer": "v1", "target": "v2"}, apply=True)
    roll(services, "mini.fire", {"side": "F", "range": "3"}, "",
         {"firer": "v3", "target": "v4"}, apply=False)


def battlecars(services: Any) -> None:
    from carwars_desktop.rules import find_ruleset

    card = next(iter(find_ruleset("battlecars").catalog()))
    session(services, "battlecars", [card] * 4, CARS)
    roll(services, "battlecars.damage", {"area": "front", "amount": 3}, "",
         {"vehicle": "v2"}, apply=True)
    roll(services, "battlecars.skid", {"speed": 5, "corner_excess": 1}, "",
         {"vehicle": "v3"}, apply=False)


def autopower(services: Any) -> None:
    from carwars_desktop.rules import find_ruleset

    names = list(find_ruleset("autopower").catalog())[:4]
    session(services, "autopower", names)
    roll(services, "autopower.attack", {"cards": "5 3"}, "", {"firer": "v1", "target": "v2"},
         apply=True)
    roll(services, "autopower.attack", {"cards": "5 3"}, "", {"firer": "v3", "target": "v4"},
         apply=False)


def dark_palette() -> Any:
    from PySide6.QtGui import QColor, QGuiApplication, QPalette

    palette = QPalette(QGuiApplication.palette())
    palette.setColor(QPalette.ColorRole.Window, QColor("#202020"))
    palette.setColor(QPalette.ColorRole.WindowText, QColor("#f0f0f0"))
    return palette


def shoot(name: str, build: Callable[[Any], None],
          after: Callable[[Any], None] | None = None, dark: bool = False) -> Path:
    from carwars_desktop.gui.players_display import PlayerDisplay
    from carwars_desktop.services import Services
    from carwars_desktop.storage import open_database

    folder = Path(tempfile.mkdtemp())
    database = open_database(f"sqlite:///{folder / 'shots.sqlite3'}")
    services = Services()
    services.table.database = database
    build(services)
    if after is not None:
        after(services)
    original = QApplication.palette()
    if dark:
        QApplication.setPalette(dark_palette())
    settings = QSettings(str(folder / "display.ini"), QSettings.Format.IniFormat)
    display = PlayerDisplay(services, settings)
    display.resize(1920, 1080)
    display.show()
    QApplication.processEvents()
    path = HERE / f"players-display-{name}.png"
    display.grab().save(str(path))
    display.close()
    database.close()
    QApplication.setPalette(original)
    return path


def secret(services: Any) -> None:
    from carwars_desktop.session.visibility import Visibility

    services.table.set_visibility(Visibility(sheets_open=False, odds_shown=False))


def main() -> None:
    app = QApplication.instance() or QApplication(sys.argv)
    for name, build, after, dark in (("mini", mini, None, False),
                                     ("mini-secret", mini, secret, False),
                                     ("battlecars", battlecars, None, False),
                                     ("battlecars-dark", battlecars, None, True),
                                     ("autopower", autopower, None, False)):
        print(shoot(name, build, after, dark))
    del app


if __name__ == "__main__":
    main()

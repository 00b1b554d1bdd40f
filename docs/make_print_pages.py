"""Print a sample session of each ruleset (blank and mid-game, one and several sheets to a
page, A4 and Letter) as PDF and render the pages to PNG with pdftoppm, into docs/images/.

    QT_QPA_PLATFORM=offscreen .venv/bin/python docs/make_print_pages.py [OUT_DIR]
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from PySide6.QtGui import QGuiApplication

from carwars_desktop.gui.workshop.printing.live import SheetToPrint
from carwars_desktop.gui.workshop.printing.session import SessionPrint, write_session_pdf
from carwars_desktop.rules import RecordSheet, find_ruleset
from carwars_desktop.rules.play import Mark


def _fresh(ruleset_id: str, design_name: str) -> RecordSheet:
    ruleset = find_ruleset(ruleset_id)
    return ruleset.sheet_for_design(ruleset.catalog()[design_name])


def _apply(sheet: RecordSheet, *marks: object) -> RecordSheet:
    for mark in marks:
        assert callable(mark)
        result = mark(sheet)
        assert isinstance(result, Mark)
        sheet = result.sheet
    return sheet


def mini_sheets(mid_game: bool) -> list[tuple[str, SheetToPrint]]:
    from carwars_desktop.rules.mini_car_wars import MiniDesign
    from carwars_desktop.rules.mini_car_wars.play import marks

    rules = find_ruleset("mini_car_wars").play()
    cars = [("Ann", "Killer Kart"), ("Bo", "Rocket Special (a)"), ("Cy", "Mini Sherman"),
            ("Di", "Courier")]
    sheets = [(player, name, _fresh("mini_car_wars", name)) for player, name in cars]
    cycle = MiniDesign.stock_design("shogun_220", None, name="Shogun 220")
    for player, name in (("Ed", "Shogun A"), ("Flo", "Shogun B")):
        sheets.append((player, name, find_ruleset("mini_car_wars").sheet_for_design(cycle)))
    if mid_game:
        sheets[0] = (*sheets[0][:2], _apply(
            sheets[0][2], lambda s: marks.set_armor(s, "F", 3),
            lambda s: marks.set_armor(s, "L", 2), lambda s: marks.set_crew(s, "driver", 1),
            lambda s: marks.set_power_plant(s, 2), lambda s: marks.set_speed(s, "40"),
            lambda s: marks.set_weapon(s, 0, destroyed=True)))
        sheets[1] = (*sheets[1][:2], _apply(
            sheets[1][2], lambda s: marks.set_armor(s, "B", 5),
            lambda s: marks.set_weapon(s, 0, fired=True),
            lambda s: marks.set_speed(s, "60")))
        sheets[4] = (*sheets[4][:2], _apply(
            sheets[4][2], lambda s: marks.set_armor(s, "F", 10),
            lambda s: marks.set_crew(s, "driver", 2), lambda s: marks.set_speed(s, "50")))
    when = "turn 3 · phase 4" if mid_game else "blank"
    return [("mini_car_wars", SheetToPrint(name, player, sheet, rules, not mid_game,
                                           f"as it stands, {when}" if mid_game else "blank"))
            for player, name, sheet in sheets]


def battlecars_sheets(mid_game: bool) -> list[tuple[str, SheetToPrint]]:
    from carwars_desktop.rules.battlecars import EXAMPLE_CARD_NAME
    from carwars_desktop.rules.battlecars.play import marks

    rules = find_ruleset("battlecars").play()
    sheets = [(p, n, _fresh("battlecars", EXAMPLE_CARD_NAME))
              for p, n in (("Ann", "Interceptor"), ("Bo", "Wasp"), ("Cy", "Hornet"))]
    if mid_game:
        sheets[0] = (*sheets[0][:2], _apply(
            sheets[0][2], lambda s: marks.set_armour(s, "front", 3),
            lambda s: marks.set_armour(s, "right-front", 2),
            lambda s: marks.set_component(s, "Driver", 1),
            lambda s: marks.take_round(s, "Pod A", "rocket"),
            lambda s: marks.set_speed(s, 3, "forward")))
        sheets[1] = (*sheets[1][:2], _apply(
            sheets[1][2], lambda s: marks.set_armour(s, "rear", 4),
            lambda s: marks.set_stunned(s, True), lambda s: marks.set_speed(s, 2, "forward")))
    return [("battlecars", SheetToPrint(name, player, sheet, rules, not mid_game,
                                        "as it stands, round 2" if mid_game else "blank"))
            for player, name, sheet in sheets]


def autopower_sheets(mid_game: bool) -> list[tuple[str, SheetToPrint]]:
    from carwars_desktop.rules.autopower.play import marks

    rules = find_ruleset("autopower").play()
    sheets = [(p, n, _fresh("autopower", n)) for p, n in (("Ann", "Bishop"), ("Bo", "Rhino"))]
    if mid_game:
        sheets[0] = (*sheets[0][:2], _apply(
            sheets[0][2], lambda s: marks.add_damage(s, 1),
            lambda s: marks.play_strength(s, 4), lambda s: marks.set_hand(s, 5),
            lambda s: marks.set_declared_speed(s, 2)))
    return [("autopower", SheetToPrint(name, player, sheet, rules, not mid_game,
                                       "as it stands, turn 4" if mid_game else "blank"))
            for player, name, sheet in sheets]


SAMPLES = {"mini_car_wars": mini_sheets, "battlecars": battlecars_sheets,
           "autopower": autopower_sheets}


def render(out: Path) -> list[Path]:
    written: list[Path] = []
    jobs = []
    for ruleset_id, make in SAMPLES.items():
        layouts = {"mini_car_wars": (1, 2, 4), "battlecars": (1, 2), "autopower": (1,)}
        for mid_game in (False, True):
            for per_page in layouts[ruleset_id]:
                state = "mid-game" if mid_game else "blank"
                jobs.append((f"print-{ruleset_id}-{state}-{per_page}up", make(mid_game),
                             per_page, "A4"))
    jobs.append(("print-mini_car_wars-mid-game-4up-letter", mini_sheets(True), 4, "Letter"))
    with tempfile.TemporaryDirectory() as temporary:
        for name, sheets, per_page, paper in jobs:
            pdf = Path(temporary) / f"{name}.pdf"
            job = SessionPrint("Friday night — Road duel", sheets[0][1].when, "none (the "
                               "digests' defaults)", tuple(sheets), per_page)
            write_session_pdf(str(pdf), job, paper)
            subprocess.run(["pdftoppm", "-png", "-r", "72", "-f", "1", "-l", "1",
                            "-singlefile", str(pdf), str(out / name)], check=True)
            written.append(out / f"{name}.png")
    return written


if __name__ == "__main__":
    app = QGuiApplication(sys.argv)
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent / "images"
    for path in render(target):
        print(path)

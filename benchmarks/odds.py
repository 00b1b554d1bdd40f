"""Exact odds timings: the dice engine and each ruleset's heaviest procedures.

    .venv/bin/python benchmarks/odds.py [--runs 25] [--quick]

Each figure is the median over the runs, next to a baseline measured in the same
run (the 2d6 distribution, the smallest exact computation the app makes), with
the ratio. Targets from the issues: 30d8 well under 50 ms; any fire procedure's
odds well under 5 ms; 100d100 (9,901 outcomes) well under a second, on the Dice
workspace's worker thread.

Then the Dice workspace itself (offscreen): ``--typed`` (100d100) typed key by key and
its exact odds shown, the watchdog (benchmarks/gui_watchdog.py) reporting the most the
GUI thread itself worked in one turn meanwhile, with pass or FAIL against the 100 ms goal
(tests/gui/test_responsiveness.py asserts instead that the odds are computed on a
worker). ``--quick``: one run (./dev test keeps the benchmark working).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import replace

from carwars_desktop.dice import dice_sum, parse
from carwars_desktop.procedures import Procedure
from carwars_desktop.rules import find_procedure


def median_ms(action: Callable[[], object], runs: int) -> float:
    timings = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        timings.append(time.perf_counter() - start)
    return statistics.median(timings) * 1000


def fresh(expression: str) -> Callable[[], object]:
    """The distribution computed from scratch (the convolution cache cleared)."""

    def run() -> object:
        dice_sum.cache_clear()
        return parse(expression).distribution()

    return run


def cases() -> dict[str, Callable[[], object]]:
    from carwars_desktop.rules.mini_car_wars import stock_sheet
    from carwars_desktop.rules.mini_car_wars.model import Side

    mini_fire = find_procedure("mini.fire")
    carter = stock_sheet("Courier (b)")
    courier = stock_sheet("Courier")
    bare = replace(courier, armor=courier.armor.with_side(Side.RIGHT, 0))
    worst_fire = mini_fire.bind({"firer": carter, "target": bare, "linked": True, "side": "R",
                                 "range": "5"})
    attack = find_procedure("autopower.attack")
    attack_values = attack.parse({"attacker": "Booster Gold", "target": "Two Face at Speed 6",
                                  "cards": "5,4", "iq_cards": "4"})
    battlecars_fire = find_procedure("battlecars.fire")
    return {
        "30d8 distribution": fresh("30d8"),
        "100d6 distribution": fresh("100d6"),
        "100d100 distribution": fresh("100d100"),
        "mini.fire odds, 2 linked lasers into a bare side": lambda: mini_fire.odds_fn(worst_fire),
        "autopower.attack odds": lambda: attack.odds_fn(attack_values),
        **{f"battlecars.fire odds, {weapon}": _battlecars(battlecars_fire, weapon)
           for weapon in ("mg", "rocket")},
    }


def _battlecars(procedure: Procedure, weapon: str) -> Callable[[], object]:
    values = procedure.parse({"firer": "car 1 (TEST-1 example, not official)",
                              "target": "car 2 (TEST-1 example, not official)",
                              "mount": "Pod A" if weapon == "rocket" else "Turret",
                              "weapon": weapon, "area": "front", "points_between": "2"})
    return lambda: procedure.odds_fn(values)


def typed_in_the_dice_workspace(expression: str) -> None:
    """``expression`` typed into the Dice workspace, until its exact odds are shown."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from gui_watchdog import watching
    from PySide6.QtCore import QEventLoop
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    from carwars_desktop.gui.dice_workspace import DiceWorkspace

    app = QApplication.instance() or QApplication(sys.argv[:1])
    dice = DiceWorkspace()
    dice.resize(1280, 800)
    dice.show()
    dice.expression_edit.clear()
    app.processEvents()
    dice_sum.cache_clear()
    with watching() as dog:
        started = time.perf_counter()
        for character in expression:
            QTest.keyClicks(dice.expression_edit, character)
            app.processEvents()
        while dice.odds_pending:
            app.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents, 50)
        app.processEvents()
        took = time.perf_counter() - started
    print(f"{expression} typed in the Dice workspace, odds shown  {took * 1000:8.0f} ms   "
          f"({dice.odds_status.text()})")
    print(f"  {dog.verdict()}")
    dice.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=25)
    parser.add_argument("--typed", default="100d100", help="typed into the Dice workspace")
    parser.add_argument("--quick", action="store_true", help="one run (a smoke run)")
    arguments = parser.parse_args()
    runs = 1 if arguments.quick else arguments.runs
    baseline = median_ms(fresh("2d6"), runs)
    print(f"runs: {runs} each; baseline 2d6 distribution: {baseline:.3f} ms")
    for name, action in cases().items():
        figure = median_ms(action, runs)
        print(f"{name:50} {figure:8.3f} ms   ratio {figure / baseline:8.1f}")
    typed_in_the_dice_workspace(arguments.typed)


if __name__ == "__main__":
    main()

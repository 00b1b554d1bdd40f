"""Scenario purchases and victory (Mini Car Wars §2.1, §2.15; MCW-D23, MCW-D26).

A purchase check returns every problem at once, like a design's own check.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from carwars_desktop.rules.kernel.formatting import money
from carwars_desktop.rules.mini_car_wars.decisions import DEFAULT_RULES, MiniRules
from carwars_desktop.rules.mini_car_wars.design import MiniDesign
from carwars_desktop.rules.mini_car_wars.sheet import MiniSheet
from carwars_desktop.rules.mini_car_wars.tables import PACK_ATTACK, Scenario
from carwars_desktop.rules.ruleset import Problem

SCENARIO_RULE = "Mini Car Wars §2.15"


def purchase_problems(designs: Sequence[MiniDesign], scenario: Scenario | None = None,
                      side: int = 0, budget: int | None = None,
                      rules: MiniRules = DEFAULT_RULES) -> tuple[Problem, ...]:
    """Check one player's purchase for a scenario side, or against a free ``budget``.

    Road Duel has no printed budget: pass the players' ``budget`` ($10,000 and
    $15,000 are suggested). Each design's own problems are included.
    """
    found: list[Problem] = []
    for design in designs:
        found += [Problem(p.code, f"{design.name}: {p.message}", p.rule, p.field)
                  for p in design.problems(rules=rules)]
    total = sum(design.cost() for design in designs)
    if scenario is not None:
        wanted = scenario.sides[side]
        budget = wanted.budget if wanted.budget is not None else budget
        if budget is None:
            suggested = ", ".join(money(b) for b in scenario.suggested_budgets)
            found.append(Problem("budget-missing", f"{scenario.name}: agree a budget first "
                                 f"(suggested: {suggested}).", SCENARIO_RULE, "budget"))
        found += _count_problems(designs, scenario, side)
        if scenario is PACK_ATTACK and not rules.d26_pack_attack_extras:
            for design in designs:
                if design.option or not (design.driver.is_empty and design.gunner.is_empty):
                    found.append(Problem("stock-only", f"{design.name}: Pack Attack vehicles are "
                                         "stock, without options or accessories (MCW-D26 "
                                         "alternative).", SCENARIO_RULE + " MCW-D26",
                                         "option"))
    if budget is not None and total > budget:
        found.append(Problem("over-budget", f"Total {money(total)} is over the "
                             f"{money(budget)} budget by {money(total - budget)}.",
                             SCENARIO_RULE, "cost"))
    return tuple(found)


def _count_problems(designs: Sequence[MiniDesign], scenario: Scenario,
                    side: int) -> list[Problem]:
    wanted = scenario.sides[side]
    found: list[Problem] = []
    count = len(designs)
    kind = "cycles" if wanted.cycles else "car"
    if count < wanted.min_vehicles or (wanted.max_vehicles is not None
                                       and count > wanted.max_vehicles):
        amount = (f"exactly {wanted.min_vehicles}" if wanted.min_vehicles == wanted.max_vehicles
                  else f"at least {wanted.min_vehicles}")
        found.append(Problem("vehicle-count", f"{scenario.name}, {wanted.label}: {amount} "
                             f"{kind} needed, {count} bought.", SCENARIO_RULE, "vehicles"))
    for design in designs:
        is_cycle = design.stock_vehicle.size.is_cycle
        if is_cycle != wanted.cycles:
            what = "a cycle" if is_cycle else "a car"
            found.append(Problem("vehicle-kind", f"{scenario.name}, {wanted.label}: "
                                 f"{design.name} is {what}; this side buys {kind}.",
                                 SCENARIO_RULE, "vehicles"))
    return found


def road_duel_winner(first: MiniSheet, second: MiniSheet) -> str:
    """"The survivor wins" (§2.15), with "out" per MCW-D23."""
    if first.is_out and second.is_out:
        return "no survivor: both vehicles are out"
    if first.is_out:
        return f"{second.name} wins (the survivor)"
    if second.is_out:
        return f"{first.name} wins (the survivor)"
    return "no winner yet"


def pack_attack_winner(car: MiniSheet, cycles: Sequence[MiniSheet], lead: Fraction) -> str:
    """Cycles win by destroying the car; the car by destroying every cycle or a lead > 30"."""
    over = PACK_ATTACK.winning_lead_over
    if car.is_out:
        return "the cycles win: the car is out"
    if all(cycle.is_out for cycle in cycles):
        return "the car wins: every cycle is out"
    if over is not None and lead > over:
        return f"the car wins: its lead is more than {over}\" (MCW-D26)"
    return "no winner yet"

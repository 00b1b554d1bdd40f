"""Mini Car Wars designs as the library keeps them: one kind, the vehicle.

Its cost is the purchase price in dollars (``MiniDesign.cost``); its class is the
vehicle's size, Cycle … Luxury (the library sorts by the size order).
"""

from __future__ import annotations

from collections.abc import Sequence

from carwars_desktop.rules.builtin import MINI_CAR_WARS
from carwars_desktop.rules.kernel.formatting import money
from carwars_desktop.rules.mini_car_wars.decisions import DEFAULT_RULES, MiniRules
from carwars_desktop.rules.mini_car_wars.design import MiniDesign
from carwars_desktop.rules.mini_car_wars.scenarios import purchase_problems
from carwars_desktop.rules.mini_car_wars.tables import SCENARIOS
from carwars_desktop.rules.ruleset import VEHICLE, DesignFigures, DesignKind, Problem

SIZE_ORDER = ("Cycle", "Subcompact", "Compact", "Mid-size", "Luxury")
"""Sizes, smallest first: the class order of the library's sort."""


def _figures(design: MiniDesign) -> DesignFigures:
    return DesignFigures(design.cost(), SIZE_ORDER.index(design.stock_vehicle.size.value))


def cost_text(cost: int | None) -> str:
    """``$13,300``; ``−$950`` for an option that lowers the price."""
    return "—" if cost is None else money(cost)


def class_text(class_value: int | None) -> str:
    if class_value is None or not 0 <= class_value < len(SIZE_ORDER):
        return "—"
    return SIZE_ORDER[class_value]


def _new(name: str) -> MiniDesign:
    return MiniDesign.stock_design("killer_kart", name=name)


def _purchase(designs: Sequence[MiniDesign], scenario: str | None, side: int,
              budget: int | None, rules: MiniRules = DEFAULT_RULES) -> tuple[Problem, ...]:
    """A player's purchase for a §2.15 scenario side, or against a free budget (the house
    rules' budget when none is given)."""
    chosen = None
    if scenario is not None:
        chosen = SCENARIOS.get(scenario)
        if chosen is None:
            raise ValueError(f"no scenario {scenario!r} (known: {', '.join(SCENARIOS)})")
        if not 0 <= side < len(chosen.sides):
            labels = ", ".join(f"{n} = {s.label}" for n, s in enumerate(chosen.sides))
            raise ValueError(f"{chosen.name} has no side {side} ({labels})")
    return purchase_problems(designs, chosen, side, rules.budget if budget is None else budget,
                             rules)


def _house_problems(design: MiniDesign, rules: MiniRules) -> tuple[Problem, ...]:
    return design.problems(rules=rules)


VEHICLE_KIND: DesignKind[MiniDesign, MiniRules] = DesignKind(
    ruleset=MINI_CAR_WARS, kind=VEHICLE, title="Vehicle",
    default_name="New vehicle", design_type=MiniDesign, reader=MiniDesign.from_json, new=_new,
    figures=_figures, cost_text=cost_text, class_text=class_text, purchase=_purchase,
    scenarios={key: scenario.name for key, scenario in SCENARIOS.items()},
    house_problems=_house_problems, house_purchase=_purchase,
)

"""What the library shows of a design: cost, class, legality, every problem.

All of it comes from the engines' design types; the per-ruleset meaning of
"cost" and "class" is:

============== ========================== =====================================
ruleset/kind   cost                       class
============== ========================== =====================================
Mini Car Wars  dollars (``design.cost()``) vehicle size (Subcompact … Cycle)
Battlecars     — (cards have no price)    the Speed Track maximum
AUTOpower car  the total E + F + S + I    the division it enters (15, 20, 25)
AUTOpower deck —                          —  (the number of cards is shown)
============== ========================== =====================================
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from carwars_desktop.library.kinds import DECK, design_kind
from carwars_desktop.rules import Design, Problem
from carwars_desktop.rules.kernel.formatting import money


@dataclass(frozen=True)
class DesignSummary:
    """A design as the library lists it. ``warnings`` never make a design illegal."""

    ruleset_id: str
    kind: str
    name: str
    cost: int | None
    class_value: int | None
    problems: tuple[Problem, ...]
    warnings: tuple[Problem, ...] = ()

    @property
    def legal(self) -> bool:
        return not self.problems

    @property
    def cost_text(self) -> str:
        return cost_text(self.ruleset_id, self.kind, self.cost)

    @property
    def class_text(self) -> str:
        return class_text(self.ruleset_id, self.kind, self.class_value)

    @property
    def status_text(self) -> str:
        return status_text(self.legal, len(self.problems))


_SIZE_ORDER = ("Cycle", "Subcompact", "Compact", "Mid-size", "Luxury")
"""Mini Car Wars sizes, smallest first: the class order of the library's sort."""


def summarize_design(ruleset_id: str, kind: str, design: Design) -> DesignSummary:
    """The summary of a design object of ``ruleset_id``/``kind`` (as its engine made it)."""
    design_kind(ruleset_id, kind)
    problems = tuple(design.problems())
    if ruleset_id == "mini_car_wars":
        from carwars_desktop.rules.mini_car_wars import MiniDesign

        assert isinstance(design, MiniDesign)
        size = design.stock_vehicle.size.value
        return DesignSummary(ruleset_id, kind, design.name, design.cost(),
                             _SIZE_ORDER.index(size), problems)
    if ruleset_id == "battlecars":
        from carwars_desktop.rules.battlecars import Card

        assert isinstance(design, Card)
        return DesignSummary(ruleset_id, kind, design.name, None, design.speed_track_max,
                             problems)
    if kind == DECK:
        from carwars_desktop.rules.autopower import Deck

        assert isinstance(design, Deck)
        return DesignSummary(ruleset_id, kind, design.name, None, None, problems,
                             design.warnings())
    from carwars_desktop.rules.autopower import Car

    assert isinstance(design, Car)
    return DesignSummary(ruleset_id, kind, design.name, design.total, design.car_class,
                         problems)


def summarize(ruleset_id: str, kind: str, data: Mapping[str, Any]) -> DesignSummary:
    """Read ``data`` with the engine and summarize it (:class:`DesignDataError` if refused)."""
    return summarize_design(ruleset_id, kind, design_kind(ruleset_id, kind).load(data))


def cost_text(ruleset_id: str, kind: str, cost: int | None) -> str:
    """``$13,300`` (Mini Car Wars), ``total 17`` (AUTOpower car), ``—`` otherwise."""
    if cost is None:
        return "—"
    if ruleset_id == "mini_car_wars":
        return money(cost)
    return f"total {cost}"


def class_text(ruleset_id: str, kind: str, class_value: int | None) -> str:
    """``Luxury``, ``top speed 9``, ``Division 20``; ``no division`` above 25."""
    if ruleset_id == "mini_car_wars":
        if class_value is None or not 0 <= class_value < len(_SIZE_ORDER):
            return "—"
        return _SIZE_ORDER[class_value]
    if ruleset_id == "battlecars":
        return "—" if class_value is None else f"top speed {class_value}"
    if kind == DECK:
        return "—"
    return "no division" if class_value is None else f"Division {class_value}"


def status_text(legal: bool, problem_count: int) -> str:
    """``✔ legal`` or ``⚠ draft · 3 problems``: a word and a shape, never colour alone."""
    if legal:
        return "✔ legal"
    return f"⚠ draft · {problem_count} problem{'s' if problem_count != 1 else ''}"

"""What the library shows of a design: cost, class, legality, every problem.

All of it comes from the engines' design types through each ruleset's design
kinds (:class:`~carwars_desktop.rules.DesignKind`): what "cost" and "class" mean
and how they read is the ruleset's (dollars and size in Mini Car Wars, the Speed
Track maximum of a Battlecars card, an AUTOpower car's stat total and division).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from carwars_desktop.library.kinds import design_kind
from carwars_desktop.rules import Design, Problem


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


def summarize_design(ruleset_id: str, kind: str, design: Design,
                     options: Any = None) -> DesignSummary:
    """The summary of a design object of ``ruleset_id``/``kind`` (as its engine made it),
    its verdict under the house rules ``options`` (the ruleset's options value; ``None``:
    the digest's defaults)."""
    kind_ = design_kind(ruleset_id, kind)
    figures = kind_.describe(design)
    problems = tuple(design.problems()) if options is None else \
        kind_.problems_under(design, options)
    return DesignSummary(ruleset_id, kind, design.name, figures.cost, figures.class_value,
                         problems, figures.warnings)


def summarize(ruleset_id: str, kind: str, data: Mapping[str, Any],
              options: Any = None) -> DesignSummary:
    """Read ``data`` with the engine and summarize it, its verdict under the house rules
    ``options`` (:class:`DesignDataError` if refused)."""
    return summarize_design(ruleset_id, kind, design_kind(ruleset_id, kind).load(data),
                            options)


def cost_text(ruleset_id: str, kind: str, cost: int | None) -> str:
    """``$13,300`` (Mini Car Wars), ``total 17`` (AUTOpower car), ``—`` otherwise."""
    return "—" if cost is None else design_kind(ruleset_id, kind).cost_text(cost)


def class_text(ruleset_id: str, kind: str, class_value: int | None) -> str:
    """``Luxury``, ``top speed 9``, ``Division 20``; ``no division`` above 25."""
    return design_kind(ruleset_id, kind).class_text(class_value)


def status_text(legal: bool, problem_count: int) -> str:
    """``✔ legal`` or ``⚠ draft · 3 problems``: a word and a shape, never colour alone."""
    if legal:
        return "✔ legal"
    return f"⚠ draft · {problem_count} problem{'s' if problem_count != 1 else ''}"

"""The Table's per-ruleset play rules: status flags, hand marks, gauges, clock helpers.

:func:`play_rules` finds a ruleset's :class:`PlayRules` (importing its engine
only then). The marks and clock helpers live in one module per ruleset
(``mini_marks``, ``mini_clock``, ``autopower_marks``…), called by that
ruleset's sheet and clock widgets.
"""

from __future__ import annotations

import importlib

from carwars_desktop.session.play.common import (
    FREE_PLAY,
    ClockStep,
    Gauge,
    Level,
    Mark,
    MarkError,
    PlayRules,
    Scenario,
    StatusFlag,
    TurnError,
    status_changes,
)


def play_rules(ruleset_id: str) -> PlayRules:
    """The :class:`PlayRules` of a ruleset (``mini_car_wars``, ``battlecars``, ``autopower``)."""
    if ruleset_id not in ("mini_car_wars", "battlecars", "autopower"):
        raise ValueError(f"unknown ruleset {ruleset_id!r}")
    module = importlib.import_module(f"carwars_desktop.session.play.{ruleset_id}")
    rules: PlayRules = module.RULES
    return rules


__all__ = [
    "FREE_PLAY", "ClockStep", "Gauge", "Level", "Mark", "MarkError", "PlayRules", "Scenario",
    "StatusFlag", "TurnError", "play_rules", "status_changes",
]

"""Find rulesets and procedures by id (python-chess ``find_variant`` style).

Ruleset packages are imported on first use, so starting the app costs nothing.
"""

from __future__ import annotations

import importlib
from functools import cache

from carwars_desktop.procedures import Procedure
from carwars_desktop.procedures.dice_roll import DICE_ROLL
from carwars_desktop.rules.ruleset import Ruleset

RULESET_IDS: tuple[str, ...] = ("mini_car_wars", "battlecars", "autopower")
"""Every ruleset, in menu order. Each is a package here exporting ``RULESET``."""

_TITLES = {"mini_car_wars": "Mini Car Wars", "battlecars": "Battlecars", "autopower": "AUTOpower"}

GENERIC_PROCEDURES: tuple[Procedure, ...] = (DICE_ROLL,)


class UnknownRulesetError(LookupError):
    """No ruleset has that id."""


class UnknownProcedureError(LookupError):
    """No procedure has that id."""


def ruleset_title(ruleset_id: str) -> str:
    """The game's name without importing its package (for menus at start-up)."""
    try:
        return _TITLES[ruleset_id]
    except KeyError:
        raise UnknownRulesetError(
            f"unknown ruleset {ruleset_id!r} (known: {', '.join(RULESET_IDS)})"
        ) from None


@cache
def find_ruleset(ruleset_id: str) -> Ruleset:
    ruleset_title(ruleset_id)
    module = importlib.import_module(f"carwars_desktop.rules.{ruleset_id}")
    ruleset: Ruleset = module.RULESET
    return ruleset


def all_rulesets() -> tuple[Ruleset, ...]:
    return tuple(find_ruleset(ruleset_id) for ruleset_id in RULESET_IDS)


def all_procedures(ruleset_id: str | None = None) -> tuple[Procedure, ...]:
    """The generic procedures, then each ruleset's (only one ruleset's if given)."""
    if ruleset_id is not None:
        return GENERIC_PROCEDURES + find_ruleset(ruleset_id).procedures
    procedures = GENERIC_PROCEDURES
    for ruleset in all_rulesets():
        procedures += ruleset.procedures
    return procedures


_ID_PREFIXES = {"dice": None, "mini": "mini_car_wars", "battlecars": "battlecars",
                "autopower": "autopower"}
"""Procedure ids start with their ruleset's prefix, so one id imports one ruleset."""


def find_procedure(procedure_id: str) -> Procedure:
    prefix = procedure_id.partition(".")[0]
    if prefix in _ID_PREFIXES:
        ruleset_id = _ID_PREFIXES[prefix]
        candidates = GENERIC_PROCEDURES if ruleset_id is None else all_procedures(ruleset_id)
        for procedure in candidates:
            if procedure.id == procedure_id:
                return procedure
    raise UnknownProcedureError(f"unknown procedure {procedure_id!r} (see resolve --list)")

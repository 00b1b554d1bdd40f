"""Find rulesets and procedures by id (python-chess ``find_variant`` style).

Every ruleset is one entry here: its id, title, package and procedure-id prefix.
The built-in three are registered below; a plug-in (a test's tiny dice game, a
fourth game) calls :func:`register_ruleset`. Ruleset packages are imported on
first use, so starting the app costs nothing.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import cache

from carwars_desktop.procedures import Procedure
from carwars_desktop.procedures.dice_roll import DICE_ROLL
from carwars_desktop.rules.ruleset import Ruleset


@dataclass(frozen=True)
class RulesetEntry:
    """What is known of a ruleset without importing it.

    Args:
        id: the registry id (``mini_car_wars``), stored in sessions and designs.
        title: the game's name, for menus at start-up.
        module: the package exporting ``RULESET`` (a :class:`Ruleset`).
        procedure_prefix: the first part of its procedure ids (``mini`` in ``mini.fire``).
    """

    id: str
    title: str
    module: str
    procedure_prefix: str


BUILT_IN: tuple[RulesetEntry, ...] = (
    RulesetEntry("mini_car_wars", "Mini Car Wars", "carwars_desktop.rules.mini_car_wars", "mini"),
    RulesetEntry("battlecars", "Battlecars", "carwars_desktop.rules.battlecars", "battlecars"),
    RulesetEntry("autopower", "AUTOpower", "carwars_desktop.rules.autopower", "autopower"),
)

RULESET_IDS: tuple[str, ...] = tuple(entry.id for entry in BUILT_IN)
"""The built-in rulesets, in menu order (what the installers bundle)."""

GENERIC_PROCEDURES: tuple[Procedure, ...] = (DICE_ROLL,)
GENERIC_PREFIX = "dice"

_ENTRIES: dict[str, RulesetEntry] = {entry.id: entry for entry in BUILT_IN}


class UnknownRulesetError(LookupError):
    """No ruleset has that id."""


class UnknownProcedureError(LookupError):
    """No procedure has that id."""


def register_ruleset(entry: RulesetEntry) -> None:
    """Add a ruleset (after the built-in ones in menus); refused if its id or prefix is taken."""
    for known in _ENTRIES.values():
        if known.id == entry.id:
            raise ValueError(f"a ruleset {entry.id!r} is already registered")
        if known.procedure_prefix == entry.procedure_prefix:
            raise ValueError(f"the procedure prefix {entry.procedure_prefix!r} is {known.id}'s")
    if entry.procedure_prefix == GENERIC_PREFIX:
        raise ValueError(f"the procedure prefix {GENERIC_PREFIX!r} is the generic procedures'")
    _ENTRIES[entry.id] = entry


def unregister_ruleset(ruleset_id: str) -> None:
    """Remove a registered plug-in (a built-in ruleset cannot be removed)."""
    if any(entry.id == ruleset_id for entry in BUILT_IN):
        raise ValueError(f"{ruleset_id!r} is built in")
    _ENTRIES.pop(ruleset_id, None)
    find_ruleset.cache_clear()


def ruleset_ids() -> tuple[str, ...]:
    """Every registered ruleset, in menu order (the built-in ones first)."""
    return tuple(_ENTRIES)


def ruleset_entry(ruleset_id: str) -> RulesetEntry:
    try:
        return _ENTRIES[ruleset_id]
    except KeyError:
        raise UnknownRulesetError(
            f"unknown ruleset {ruleset_id!r} (known: {', '.join(_ENTRIES)})"
        ) from None


def ruleset_title(ruleset_id: str) -> str:
    """The game's name without importing its package (for menus at start-up)."""
    return ruleset_entry(ruleset_id).title


@cache
def find_ruleset(ruleset_id: str) -> Ruleset:
    entry = ruleset_entry(ruleset_id)
    module = importlib.import_module(entry.module)
    ruleset: Ruleset = module.RULESET
    if ruleset.id != entry.id:
        raise UnknownRulesetError(f"{entry.module} holds ruleset {ruleset.id!r}, not {entry.id!r}")
    return ruleset


def all_rulesets() -> tuple[Ruleset, ...]:
    return tuple(find_ruleset(ruleset_id) for ruleset_id in _ENTRIES)


def all_procedures(ruleset_id: str | None = None) -> tuple[Procedure, ...]:
    """The generic procedures, then each ruleset's (only one ruleset's if given)."""
    if ruleset_id is not None:
        return GENERIC_PROCEDURES + find_ruleset(ruleset_id).procedures
    procedures = GENERIC_PROCEDURES
    for ruleset in all_rulesets():
        procedures += ruleset.procedures
    return procedures


def find_procedure(procedure_id: str) -> Procedure:
    """The procedure ``procedure_id``; its prefix imports just its ruleset."""
    prefix = procedure_id.partition(".")[0]
    if prefix == GENERIC_PREFIX:
        candidates = GENERIC_PROCEDURES
    else:
        owners = [e.id for e in _ENTRIES.values() if e.procedure_prefix == prefix]
        candidates = all_procedures(owners[0]) if owners else ()
    for procedure in candidates:
        if procedure.id == procedure_id:
            return procedure
    raise UnknownProcedureError(f"unknown procedure {procedure_id!r} (see resolve --list)")

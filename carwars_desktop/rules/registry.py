"""Find rulesets and procedures by id (python-chess ``find_variant`` style).

Every ruleset is one :class:`RulesetEntry`: its id, title, package, procedure-id prefix
and screens module. Installed rulesets are found through the ``carwars_desktop.rulesets``
entry-point group (:data:`ENTRY_POINT_GROUP`, read with :mod:`importlib.metadata`): a
fourth game installed with pip appears with no edit of the app. The three built-ins are
registered the same way (``pyproject.toml``) and are found even when the app's metadata
is missing (:data:`~carwars_desktop.rules.builtin.BUILT_IN`). A test or a script may also
call :func:`register_ruleset`. Ruleset packages are imported on first use, so starting the
app costs nothing.
"""

from __future__ import annotations

import importlib
import logging
from functools import cache
from importlib.metadata import entry_points

from carwars_desktop.procedures import Procedure
from carwars_desktop.procedures.dice_roll import DICE_ROLL
from carwars_desktop.rules.builtin import BUILT_IN
from carwars_desktop.rules.ruleset import AnyRuleset, RulesetEntry

__all__ = ["BUILT_IN", "ENTRY_POINT_GROUP", "RULESET_IDS", "RulesetEntry"]

ENTRY_POINT_GROUP = "carwars_desktop.rulesets"
"""The entry-point group of installed rulesets: each entry point is named by a ruleset's id
and names its :class:`RulesetEntry` (``mini_car_wars = carwars_desktop.rules.builtin:
MINI_CAR_WARS``)."""

RULESET_IDS: tuple[str, ...] = tuple(entry.id for entry in BUILT_IN)
"""The built-in rulesets, in menu order (what the installers bundle)."""

GENERIC_PROCEDURES: tuple[Procedure, ...] = (DICE_ROLL,)
GENERIC_PREFIX = "dice"

_log = logging.getLogger(__name__)
_REGISTERED: dict[str, RulesetEntry] = {}
"""Rulesets registered at run time (:func:`register_ruleset`), after the installed ones."""


class UnknownRulesetError(LookupError):
    """No ruleset has that id."""


class UnknownProcedureError(LookupError):
    """No procedure has that id."""


def _check(entry: RulesetEntry, known: dict[str, RulesetEntry]) -> str:
    """Why ``entry`` cannot join ``known`` (``""``: it can)."""
    for other in known.values():
        if other.id == entry.id:
            return f"a ruleset {entry.id!r} is already registered"
        if other.procedure_prefix == entry.procedure_prefix:
            return f"the procedure prefix {entry.procedure_prefix!r} is {other.id}'s"
    if entry.procedure_prefix == GENERIC_PREFIX:
        return f"the procedure prefix {GENERIC_PREFIX!r} is the generic procedures'"
    return ""


def installed_entries() -> tuple[RulesetEntry, ...]:
    """The rulesets the installed packages' metadata names (the entry-point group), in
    their order; an entry point that does not load, or names something else than a
    :class:`RulesetEntry` of its own name, is left out and logged."""
    found: list[RulesetEntry] = []
    for point in entry_points(group=ENTRY_POINT_GROUP):
        try:
            entry = point.load()
        except Exception as error:  # a broken plug-in must not stop the app
            _log.error("ruleset %r (%s) does not load: %s", point.name, point.value, error)
            continue
        if not isinstance(entry, RulesetEntry) or entry.id != point.name:
            _log.error("ruleset entry point %r names %r, not a RulesetEntry with that id",
                       point.name, point.value)
            continue
        found.append(entry)
    return tuple(found)


@cache
def _installed() -> dict[str, RulesetEntry]:
    """The built-ins first (in menu order), then the other installed rulesets by id."""
    entries: dict[str, RulesetEntry] = {}
    built_in = {entry.id: entry for entry in BUILT_IN}
    installed = installed_entries()
    others = sorted((e for e in installed if e.id not in built_in), key=lambda e: e.id)
    for entry in (*BUILT_IN, *others):
        problem = _check(entry, entries)
        if problem:
            _log.error("ruleset %r left out: %s", entry.id, problem)
            continue
        entries[entry.id] = entry
    return entries


def _entries() -> dict[str, RulesetEntry]:
    return _installed() | _REGISTERED


def rediscover() -> None:
    """Read the installed rulesets again (after a package was installed or removed)."""
    _installed.cache_clear()
    find_ruleset.cache_clear()


def register_ruleset(entry: RulesetEntry) -> None:
    """Add a ruleset (after the installed ones in menus); refused if its id or prefix is taken."""
    problem = _check(entry, _entries())
    if problem:
        raise ValueError(problem)
    _REGISTERED[entry.id] = entry


def unregister_ruleset(ruleset_id: str) -> None:
    """Remove a ruleset registered with :func:`register_ruleset` (not an installed one)."""
    if ruleset_id in _installed():
        raise ValueError(f"{ruleset_id!r} is installed, not registered at run time")
    _REGISTERED.pop(ruleset_id, None)
    find_ruleset.cache_clear()


def ruleset_ids() -> tuple[str, ...]:
    """Every ruleset, in menu order (the built-in ones first)."""
    return tuple(_entries())


def ruleset_entry(ruleset_id: str) -> RulesetEntry:
    entries = _entries()
    try:
        return entries[ruleset_id]
    except KeyError:
        raise UnknownRulesetError(
            f"unknown ruleset {ruleset_id!r} (known: {', '.join(entries)})"
        ) from None


def ruleset_title(ruleset_id: str) -> str:
    """The game's name without importing its package (for menus at start-up)."""
    return ruleset_entry(ruleset_id).title


@cache
def find_ruleset(ruleset_id: str) -> AnyRuleset:
    entry = ruleset_entry(ruleset_id)
    module = importlib.import_module(entry.module)
    ruleset: AnyRuleset = module.RULESET
    if ruleset.id != entry.id:
        raise UnknownRulesetError(f"{entry.module} holds ruleset {ruleset.id!r}, not {entry.id!r}")
    return ruleset


def all_rulesets() -> tuple[AnyRuleset, ...]:
    return tuple(find_ruleset(ruleset_id) for ruleset_id in _entries())


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
        owners = [e.id for e in _entries().values() if e.procedure_prefix == prefix]
        candidates = all_procedures(owners[0]) if owners else ()
    for procedure in candidates:
        if procedure.id == procedure_id:
            return procedure
    raise UnknownProcedureError(f"unknown procedure {procedure_id!r} (see resolve --list)")

"""What the library keeps: each ruleset's kinds of design (``Ruleset.kinds``).

Every ruleset has vehicles; a ruleset may keep kinds of its own (AUTOpower
players also build decks of power cards). A kind is named by ``(ruleset id, kind)``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from carwars_desktop.rules import (
    VEHICLE,
    Design,
    DesignDataError,
    DesignKind,
    UnknownKindError,
    UnknownRulesetError,
    find_ruleset,
    ruleset_ids,
)


def design_kind(ruleset_id: str, kind: str = VEHICLE) -> DesignKind[Any, Any]:
    """The kind ``kind`` of ruleset ``ruleset_id``, refused (:class:`UnknownKindError`)
    when there is none."""
    try:
        return find_ruleset(ruleset_id).kind(kind)
    except UnknownRulesetError as error:
        raise UnknownKindError(f"no design kind {ruleset_id!r}/{kind!r}: {error}") from None


def kinds_of(ruleset_id: str) -> tuple[DesignKind[Any, Any], ...]:
    """Every kind of design a ruleset keeps, vehicles first."""
    return find_ruleset(ruleset_id).kinds


def all_kinds() -> tuple[DesignKind[Any, Any], ...]:
    return tuple(kind for ruleset_id in ruleset_ids() for kind in kinds_of(ruleset_id))


def load_design(ruleset_id: str, kind: str, data: Mapping[str, Any]) -> Design:
    """Read a design of any kind; :class:`DesignDataError` (or :class:`UnknownKindError`)."""
    design: Design = design_kind(ruleset_id, kind).load(data)
    return design


__all__ = ["VEHICLE", "DesignDataError", "DesignKind", "UnknownKindError", "all_kinds",
           "design_kind", "kinds_of", "load_design"]

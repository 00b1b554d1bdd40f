"""The designs the rules ship (the Mini Car Wars stock list with its options, the
labelled Battlecars example card, the AUTOpower sample cars), as library entries."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from carwars_desktop.rules import VEHICLE, find_ruleset, ruleset_ids


@dataclass(frozen=True)
class CatalogEntry:
    """One shipped design: ``name`` is its catalog name (the key it keeps in the library)."""

    ruleset_id: str
    kind: str
    name: str
    data: Mapping[str, Any]


def catalog_entries(rulesets: Sequence[str] | None = None) -> tuple[CatalogEntry, ...]:
    """Every shipped design of the given rulesets (default: all), in each catalog's order."""
    entries: list[CatalogEntry] = []
    for ruleset_id in ruleset_ids() if rulesets is None else rulesets:
        for name, design in find_ruleset(ruleset_id).catalog().items():
            entries.append(CatalogEntry(ruleset_id, VEHICLE, name, design.to_json()))
    return tuple(entries)

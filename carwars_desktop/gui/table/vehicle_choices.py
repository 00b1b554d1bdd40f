"""Where a session's vehicles come from: the library's designs, or the rules' own catalog.

The library (``database.library``, the Workshop's) lists the GM's saved designs and
the catalog the rules ship; without a library (or with an empty one) the ruleset's
catalog is offered. Either way the session takes a copy of the design's JSON.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from carwars_desktop.library import DesignDataError, summarize
from carwars_desktop.rules import AnyRuleset


@dataclass(frozen=True)
class VehicleChoice:
    label: str
    name: str
    design: Mapping[str, Any]
    source: str
    """``library`` or ``catalog``."""


def _design_json(data: Any) -> Mapping[str, Any]:
    if isinstance(data, str):
        loaded = json.loads(data)
        if isinstance(loaded, Mapping):
            return loaded
        raise ValueError("a library design's data is not a JSON object")
    if isinstance(data, Mapping):
        return data
    raise ValueError(f"a library design's data is a {type(data).__name__}")


def vehicle_choices(database: object | None, ruleset: AnyRuleset,
                    options: Any = None) -> list[VehicleChoice]:
    """The library's designs of ``ruleset`` — the GM's own first — or, with no library
    (or an empty one), the ruleset's catalog; each judged under the house rules
    ``options`` (``None``: the digest's defaults, the library's own verdict)."""
    own: list[VehicleChoice] = []
    shipped: list[VehicleChoice] = []
    library = getattr(database, "library", None) if database is not None else None
    if library is not None:
        for record in library.all(ruleset_id=ruleset.id):
            try:
                design = _design_json(record.data)
            except ValueError:
                continue
            legal = bool(getattr(record, "legal", True))
            if options is not None:
                try:
                    legal = summarize(ruleset.id, str(getattr(record, "kind", "vehicle")),
                                      design, options).legal
                except DesignDataError:
                    legal = False
            if getattr(record, "catalog_name", None):
                shipped.append(VehicleChoice(f"{record.name} (rules{_flag(legal)})",
                                             str(record.name), design, "catalog"))
                continue
            own.append(VehicleChoice(f"{record.name} (library{_flag(legal)})",
                                     str(record.name), design, "library"))
    if not own and not shipped:
        for name, stock in ruleset.catalog().items():
            legal = options is None or ruleset.vehicle.problems_under(stock, options) == ()
            shipped.append(VehicleChoice(f"{name} (rules{_flag(legal)})", name,
                                         stock.to_json(), "catalog"))
    return own + shipped


def _flag(legal: bool) -> str:
    return "" if legal else " — has problems"

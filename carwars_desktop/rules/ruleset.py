"""A ruleset is a value: its tables, design and record-sheet types, and procedures."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from carwars_desktop.procedures import Procedure


@dataclass(frozen=True)
class Problem:
    """One defect of a design: a readable reason, its rule, and the field at fault."""

    code: str
    message: str
    rule: str
    field: str = ""

    def __str__(self) -> str:
        return f"{self.message} [{self.rule}]"

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message, "rule": self.rule,
                "field": self.field}


class Design(Protocol):
    """A vehicle design of some ruleset (what the Workshop edits and the library keeps)."""

    @property
    def name(self) -> str: ...

    def to_json(self) -> dict[str, Any]: ...

    def problems(self) -> tuple[Problem, ...]: ...


class RecordSheet(Protocol):
    """The live state of one vehicle in play."""

    @property
    def name(self) -> str: ...

    def to_json(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class ReferenceTable:
    """A rules table for browsing (the data itself lives once, in the ruleset's tables module)."""

    id: str
    title: str
    rule: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    note: str = ""


@dataclass(frozen=True)
class Ruleset:
    """One rule system, as python-chess keeps a variant.

    Args:
        id: ``mini_car_wars``, ``battlecars`` or ``autopower``.
        title: the game's name.
        dice: the dice it uses, for display (``d6``).
        digest: the digest file it implements (``mini-car-wars.md``).
        procedures: every declared procedure.
        tables: the reference tables, for browsing.
        catalog: the vehicles the rules ship, by name (stock list, samples).
        design_from_json / sheet_from_json: load the JSON forms.
        sheet_for_design: a fresh record sheet for a design (vehicle enters play).
    """

    id: str
    title: str
    dice: str
    digest: str
    procedures: tuple[Procedure, ...]
    tables: tuple[ReferenceTable, ...]
    catalog: Callable[[], Mapping[str, Design]]
    design_from_json: Callable[[Mapping[str, Any]], Design]
    sheet_from_json: Callable[[Mapping[str, Any]], RecordSheet]
    sheet_for_design: Callable[[Any], RecordSheet]

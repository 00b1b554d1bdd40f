"""Tiny Dice Derby: a ruleset defined entirely under ``tests/`` to prove the plug-in shape.

A racer has armor 1–6; in play its sheet counts hits. One procedure, ``tiny.shot``:
the firer rolls 1d6 and hits on ``need`` or more; a hit crosses one armor box of
the target. The turn has one phase, ``shots``. Nothing outside this package and
its UI module (``tiny_dice_ui``) knows of it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from carwars_desktop.dice import DiceSource, Distribution
from carwars_desktop.procedures import (
    Chart,
    DiceNeed,
    IntInput,
    Odds,
    Outcome,
    Procedure,
    Result,
    SheetChange,
    SheetInput,
    Step,
)
from carwars_desktop.rules import (
    VEHICLE,
    DesignFigures,
    DesignKind,
    Problem,
    ReferenceTable,
    Ruleset,
    RulesetEntry,
)
from carwars_desktop.rules.kernel.citation import Citer
from carwars_desktop.rules.play import Gauge, Level, PlayRules, PublicFact, StatusFlag

ENTRY = RulesetEntry("tiny_dice", "Tiny Dice Derby", "tiny_dice", "tiny",
                     screens="tiny_dice_ui")
"""What the app knows of Tiny Dice Derby before importing it (its one id and title): the
entry point of its package names it (``tiny_dice = tiny_dice:ENTRY``)."""

RULE = Citer("TINY")("§1")


@dataclass(frozen=True)
class Racer:
    name: str
    armor: int

    def problems(self) -> tuple[Problem, ...]:
        if not 1 <= self.armor <= 6:
            return (Problem("armor", f"armor must be 1–6, not {self.armor}", RULE, "armor"),)
        return ()

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "armor": self.armor}

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Racer:
        armor = data["armor"]
        if isinstance(armor, bool) or not isinstance(armor, int):
            raise ValueError(f"armor: expected an integer, got {armor!r}")
        return Racer(str(data["name"]), armor)


@dataclass(frozen=True)
class RacerSheet:
    name: str
    armor: int
    hits: int = 0

    @property
    def wrecked(self) -> bool:
        return self.hits >= self.armor

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "armor": self.armor, "hits": self.hits}

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> RacerSheet:
        return RacerSheet(str(data["name"]), int(data["armor"]), int(data.get("hits", 0)))

    @staticmethod
    def from_design(design: Any) -> RacerSheet:
        if not isinstance(design, Racer):
            raise TypeError(f"expected a Racer, got {type(design).__name__}")
        return RacerSheet(design.name, design.armor)


def catalog() -> dict[str, Racer]:
    return {"Red Racer": Racer("Red Racer", 3), "Blue Racer": Racer("Blue Racer", 4)}


def sheet_catalog() -> dict[str, RacerSheet]:
    return {name: RacerSheet.from_design(racer) for name, racer in catalog().items()}


def _resolve(values: Mapping[str, Any], dice: DiceSource) -> Result:
    target: RacerSheet = values["target"]
    (roll,) = dice.roll(6, 1, "to hit")
    need = values["need"]
    if roll < need:
        return Result(f"miss ({roll} < {need})", [Step(f"rolled {roll}, need {need}+: miss",
                                                       RULE)], success=False)
    hit = replace(target, hits=min(target.armor, target.hits + 1))
    return Result(f"hit ({roll} ≥ {need})",
                  [Step(f"rolled {roll}, need {need}+: hit", RULE),
                   Step(f"{target.name}: hits {target.hits} → {hit.hits}", RULE)],
                  success=True,
                  effects=[SheetChange("target", hit, f"1 hit on {target.name}")],
                  values={"roll": roll})


def _odds(values: Mapping[str, Any]) -> Odds:
    need = values["need"]
    p = Fraction(max(0, 7 - need), 6)
    die = Distribution.uniform(range(1, 7))
    return Odds((Outcome("hit", p), Outcome("miss", 1 - p)), f"need {need}+ · {p}",
                need=need, chart=Chart("1d6", die, frozenset(range(need, 7))))


def _dice(values: Mapping[str, Any]) -> Sequence[DiceNeed]:
    return (DiceNeed("to hit", 1, 6),)


def _sheet(name: str, label: str) -> SheetInput:
    return SheetInput(name, label, RacerSheet, RacerSheet.from_json, sheet_catalog)


SHOT = Procedure(
    id="tiny.shot", title="Tiny shot", ruleset=ENTRY.id, rule=RULE,
    inputs=(_sheet("firer", "Firer"), _sheet("target", "Target"),
            IntInput("need", "Need", 4, 2, 6)),
    resolve_fn=_resolve, odds_fn=_odds, dice_fn=_dice,
    summary="1d6 against a need; a hit crosses one armor box.",
)


def _status(sheet: Any) -> tuple[StatusFlag, ...]:
    if sheet.wrecked:
        return (StatusFlag("wrecked", "✖", Level.DANGER),)
    return ()


def _boxes(sheet: Any) -> dict[str, str]:
    return {f"armor:{n}": "x" if n <= sheet.hits else "" for n in range(1, sheet.armor + 1)}


def _public(sheet: Any, sheets_open: bool) -> tuple[PublicFact, ...]:
    if sheets_open:
        return (PublicFact("armor left", str(sheet.armor - sheet.hits), number=True),)
    return (PublicFact("hits", str(sheet.hits), number=True),)


def _hits(sheet: Any) -> int:
    return int(sheet.hits)


def _gauges(sheet: Any) -> tuple[Gauge, ...]:
    return (Gauge("armor", sheet.armor - sheet.hits),)


def _out(sheet: Any) -> bool:
    return bool(sheet.wrecked)


RULES = PlayRules(
    ruleset_id=ENTRY.id, status=_status, boxes=_boxes, damage_points=_hits, gauges=_gauges,
    out_of_play=_out, public=_public,
)

VEHICLE_KIND: DesignKind[Racer, None] = DesignKind(
    ruleset=ENTRY, kind=VEHICLE, title="Racer",
    default_name="New racer", design_type=Racer, reader=Racer.from_json,
    new=lambda name: Racer(name, 1),
    figures=lambda racer: DesignFigures(None, racer.armor),
    class_text=lambda armor: "—" if armor is None else f"armor {armor}",
)

RULESET: Ruleset[Racer, RacerSheet, None] = Ruleset(
    entry=ENTRY, dice="d6", digest="", procedures=(SHOT,),
    tables=(ReferenceTable("tiny.hits", "To hit", RULE, ("need", "chance"),
                           tuple((str(n), f"{7 - n}/6") for n in range(2, 7))),),
    catalog=catalog, kinds=(VEHICLE_KIND,), sheet_type=RacerSheet,
    sheet_from_json=RacerSheet.from_json, sheet_for_design=RacerSheet.from_design,
    phases=lambda names: ("shots",), play=lambda: RULES,
)

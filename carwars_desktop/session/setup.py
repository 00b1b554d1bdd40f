"""Setting a session up: the vehicles in play (copies of their designs) and a game to resume.

A vehicle in play is a copy: its design JSON is copied here (renamed when two
players bring the same design), so the library design never changes in play.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from carwars_desktop.rules import AnyRuleset, RecordSheet
from carwars_desktop.rules.clock import Clock
from carwars_desktop.rules.play import play_rules
from carwars_desktop.session.game import Game, VehicleInPlay
from carwars_desktop.session.store import EventStore


class SetupError(ValueError):
    """A session that cannot start as asked (no vehicle, a design the engine refuses…)."""


@dataclass(frozen=True)
class Entry:
    """One vehicle a player brings: its design's JSON, as the library or the rules keep it."""

    player: str
    name: str
    design: Mapping[str, Any]


@dataclass(frozen=True)
class Setup:
    """What a new session starts with."""

    vehicles: tuple[VehicleInPlay, ...]
    sheets: Mapping[str, RecordSheet]
    clock: Clock


def unique_names(names: Sequence[str]) -> list[str]:
    """``Courier, Courier`` → ``Courier, Courier #2`` (the clock and the log name vehicles)."""
    seen: dict[str, int] = {}
    result: list[str] = []
    taken = set(names)
    for name in names:
        count = seen.get(name, 0) + 1
        seen[name] = count
        unique = name
        number = count
        while count > 1 and (unique == name or unique in taken):
            unique = f"{name} #{number}"
            number += 1
        taken.add(unique)
        result.append(unique)
    return result


def prepare(ruleset: AnyRuleset, entries: Sequence[Entry], scenario: str = "",
            options: Any = None) -> Setup:
    """Copy each design, give each vehicle a fresh sheet as the scenario places it and the
    house rules ``options`` make it (MCW-D15 shots; ``None``: the digest's defaults).

    Raises:
        SetupError: no vehicles, or a design the engine cannot put in play (with why).
    """
    if not entries:
        raise SetupError("add at least one vehicle")
    rules = play_rules(ruleset.id)
    if scenario not in {s.key for s in rules.scenarios}:
        raise SetupError(f"{ruleset.title} has no scenario {scenario!r}")
    names = unique_names([entry.name.strip() or "vehicle" for entry in entries])
    vehicles: list[VehicleInPlay] = []
    sheets: dict[str, RecordSheet] = {}
    for number, (entry, name) in enumerate(zip(entries, names, strict=True), start=1):
        design_json = copy.deepcopy(dict(entry.design))
        if "name" in design_json:
            design_json["name"] = name
        try:
            design = ruleset.design_from_json(design_json)
        except (ValueError, TypeError, KeyError) as error:
            raise SetupError(f"{name}: {error}") from None
        refused = ruleset.vehicle.refused_entry(design, options)
        if refused:  # AUTOpower §2.2 step 1 / AP-D2: the car must fit the duel's division
            raise SetupError(f"{name} cannot enter play: "
                             + "; ".join(p.message for p in refused))
        try:
            sheet = rules.start_sheet(ruleset.sheet_under(design, options), scenario)
        except (ValueError, TypeError, KeyError) as error:
            raise SetupError(f"{name}: {error}") from None
        key = f"v{number}"
        vehicles.append(VehicleInPlay(key, name, entry.player.strip(), design.to_json()))
        sheets[key] = sheet
    first = rules.start_order([(v.name, sheets[v.key]) for v in vehicles])
    return Setup(tuple(vehicles), sheets, Clock.start(ruleset.id, first))


def build_game(ruleset: AnyRuleset, vehicles: Sequence[VehicleInPlay],
               sheets: Mapping[str, Mapping[str, Any]], clock: Mapping[str, Any],
               store: EventStore, settings: Mapping[str, Any] | None = None) -> Game:
    """The game of a stored session, from its current sheets, clock and settings (no
    event is read)."""
    return Game(ruleset, vehicles, {key: ruleset.sheet_from_json(data)
                                    for key, data in sheets.items()},
                Clock.from_json(clock), store, settings)

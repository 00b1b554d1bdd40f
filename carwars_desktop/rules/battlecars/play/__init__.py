"""The Table's view of Battlecars: status at a glance, boxes, gauges, scenarios.

Read off the engine's :class:`CarSheet` (``is_wreck``, ``driver_dead``,
``stunned``, ``max_speed``…); nothing here decides a rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from carwars_desktop.procedures import Resolution
from carwars_desktop.rules.battlecars import CarSheet
from carwars_desktop.rules.battlecars.cite import bc
from carwars_desktop.rules.battlecars.play import return_fire
from carwars_desktop.rules.battlecars.play.clock import car_of, is_speeds, result
from carwars_desktop.rules.battlecars.scenarios import RULE_SCENARIOS
from carwars_desktop.rules.battlecars.tables import SMOKE_REMOVED_ON
from carwars_desktop.rules.battlecars.terms import BLOCKS, Direction, Weapon
from carwars_desktop.rules.builtin import BATTLECARS
from carwars_desktop.rules.clock import Clock
from carwars_desktop.rules.play import (
    FREE_PLAY,
    ClockMove,
    Duration,
    Gauge,
    Level,
    OpeningRoll,
    PlayRules,
    PublicFact,
    Scenario,
    ShownDuration,
    StatusFlag,
    TurnOrder,
    Vehicles,
    clock_durations,
    expire,
    sheet_reader,
)
from carwars_desktop.rules.ruleset import RecordSheet

RULESET_ID = BATTLECARS.id

SCENARIOS = (
    Scenario("street", "Street combat",
             f"The driver occupying the last mobile Battlecar wins; none left is a draw "
             f"({RULE_SCENARIOS}, BC-D45)."),
    Scenario("arena", "Arena",
             "Cars enter the arena in rolled order (BC-D40); a car leaving by its entry point "
             "re-arms and re-enters at speed 3 (battlecars.rearm, BC-D38)."),
    Scenario("mission", "Mission Accomplished",
             "Each player secretly rolls a mission on the plot of their car number "
             "(battlecars.mission, §3.10)."),
)


car_sheet = sheet_reader(CarSheet, "a Battlecars car sheet")
"""The sheet as a :class:`CarSheet` (``TypeError`` when it is another ruleset's)."""


def status(record: RecordSheet) -> tuple[StatusFlag, ...]:
    sheet = car_sheet(record)
    flags: list[StatusFlag] = []
    if sheet.exploded:
        flags.append(StatusFlag("exploded", "✸", Level.DANGER,
                                "the fuel tank exploded: a wreck (§2.15)"))
    elif sheet.is_wreck():
        why = "all three sections destroyed" if sheet.destroyed_car() else "max speed 0"
        flags.append(StatusFlag("wrecked", "✖", Level.DANGER, f"{why} (§2.17, BC-D32)"))
    if sheet.driver_dead and not sheet.exploded:
        flags.append(StatusFlag("driver killed", "☠", Level.DANGER, "§2.16"))
    elif sheet.driver_hits > 0:
        flags.append(StatusFlag(f"driver hit {sheet.driver_hits}/{sheet.driver.boxes}", "✚",
                                Level.INFO))
    if sheet.stunned:
        flags.append(StatusFlag("stunned", "★", Level.WARNING,
                                "no driving or firing until the end of the Round (§2.8)"))
    if not sheet.occupied:
        flags.append(StatusFlag("no driver aboard", "⊘", Level.WARNING, "§2.18"))
    if sheet.direction is Direction.REVERSE:
        flags.append(StatusFlag("reverse", "◀", Level.INFO))
    return tuple(flags)


def boxes(record: RecordSheet) -> dict[str, str]:
    sheet = car_sheet(record)
    found: dict[str, str] = {}
    for block, hits in zip(BLOCKS, sheet.armour_hits, strict=True):
        for number in range(1, sheet.card.armour_boxes(block) + 1):
            found[f"armour:{block.value}:{number}"] = "x" if number <= hits else ""
    for component, hits in zip(sheet.card.components, sheet.component_hits, strict=True):
        for number in range(1, component.boxes + 1):
            found[f"component:{component.name}:{number}"] = "x" if number <= hits else ""
    for component, load in zip(sheet.card.components, sheet.loads, strict=True):
        if component.kind.is_mount:
            found[f"load:{component.name}"] = ",".join(w.value for w in load)
    found["speed"] = f"{sheet.speed} {sheet.direction.value}"
    found["stunned"] = "x" if sheet.stunned else ""
    return found


def damage_points(record: RecordSheet) -> int:
    sheet = car_sheet(record)
    return sum(sheet.armour_hits) + sum(sheet.component_hits)


def gauges(record: RecordSheet) -> tuple[Gauge, ...]:
    sheet = car_sheet(record)
    armour = sum(sheet.armour_left(block) for block in BLOCKS)
    interior = sum(sheet.remaining(c.name) for c in sheet.card.components)
    return (Gauge("armour boxes left", armour), Gauge("component boxes left", interior))


def out_of_play(record: RecordSheet) -> bool:
    sheet = car_sheet(record)
    return not sheet.mobile_with_driver()


def public(record: RecordSheet, sheets_open: bool) -> tuple[PublicFact, ...]:
    """The revealed speed, then the armour boxes left per block and the components
    destroyed; with secret cards only the speed and the hits announced so far.

    The sheet's speed is always a revealed one: every car's secret speed is set at
    once, at the reveal (``set_speeds``, §2.2 step 1).
    """
    sheet = car_sheet(record)
    speed = f"{sheet.speed}" + (" reverse" if sheet.direction is Direction.REVERSE else "")
    facts = [PublicFact("speed", speed, number=True)]
    if not sheets_open:
        hits = sum(sheet.armour_hits) + sum(sheet.component_hits)
        facts.append(PublicFact("hits taken", str(hits), number=True))
        return tuple(facts)
    facts += [PublicFact(block.value, str(sheet.armour_left(block)), number=True,
                         lost=sheet.armour_left(block) <= 0)
              for block in BLOCKS if sheet.card.armour_boxes(block)]
    facts += [PublicFact(component.label, "destroyed", lost=True)
              for component in sheet.card.components if sheet.destroyed(component.name)]
    return tuple(facts)


def turn_order(clock: Clock, vehicles: Mapping[str, tuple[str, RecordSheet]]) -> TurnOrder:
    """The car whose turn it is and the next one still mobile (§2.2); at the secret
    speeds, every car chooses and the first in order moves next."""

    keys = {name: key for key, (name, _sheet) in vehicles.items()}
    out = {key for key, (_name, sheet) in vehicles.items() if out_of_play(sheet)}
    following = [keys[name] for name in (car_of(p) for p in clock.phases[clock.phase + 1:])
                 if name in keys and keys[name] not in out]
    if is_speeds(clock):
        return TurnOrder((), tuple(following[:1]))
    name = car_of(clock.phase_name)
    now = (keys[name],) if name in keys else ()
    return TurnOrder(now, tuple(following[:1]))


STUN_RULE = bc("§2.16 step 4", "§2.8 step 4")
SMOKE_RULE = bc("§2.2 step 4")
SMOKE_MARKER = "smoke_marker"


def durations_from(resolution: Resolution, bindings: Mapping[str, str], clock: Clock,
                   vehicles: Vehicles) -> tuple[Duration, ...]:
    """A Smoke marker dropped (§2.12) stays on the board until the end-of-Round roll
    removes it: "Roll 1d8 for each Smoke marker on the board: 1–4 it stays, 5–8 it is
    removed" (§2.2 step 4)."""

    if resolution.inputs.get("weapon") != Weapon.SMOKE.value or not resolution.effects \
            or "mount" not in resolution.inputs:
        return ()
    key = bindings.get("vehicle")
    name = vehicles[key][0] if key is not None and key in vehicles else "a car"
    return (Duration(SMOKE_MARKER, f"Smoke marker from {name}'s {resolution.inputs['mount']} "
                                   f"(round {clock.turn})", SMOKE_RULE, key, None, 0,
                     clock.turn),)


def smoke_markers(clock: Clock) -> tuple[Duration, ...]:
    return tuple(d for d in clock.kept() if d.kind == SMOKE_MARKER)


def dispersed(clock: Clock, resolution: Resolution) -> tuple[Duration, ...]:
    """The durations after the end-of-Round roll: marker *i* goes on its die of 5–8 (the dice
    as thrown or typed, one per marker in order, §2.2 step 4)."""

    faces = [d.value for d in resolution.dice if d.purpose.startswith("smoke marker")]
    markers = smoke_markers(clock)
    gone = {markers[i] for i, face in enumerate(faces[:len(markers)])
            if face in SMOKE_REMOVED_ON}
    return tuple(d for d in clock.kept() if d not in gone)


def clock_moved(before: Clock, after: Clock, vehicles: Vehicles) -> ClockMove:
    """A stun lasts "until the end of the current Round" (§2.16 step 4): a new Round lifts
    every stun still marked; the clock's durations expire as usual."""

    moved = expire(before, after, vehicles)
    if after.turn <= before.turn:
        return moved
    sheets: dict[str, RecordSheet] = dict(moved.sheets)
    steps = list(moved.steps)
    for key, (name, record) in vehicles.items():
        sheet = car_sheet(record)
        if sheet.stunned:
            sheets[key] = replace(sheet, stunned=False)
            steps.append(f"{name}: the stun ends with Round {before.turn} ({STUN_RULE})")
    return ClockMove(sheets, moved.durations, tuple(steps))


def durations(clock: Clock, vehicles: Vehicles) -> tuple[ShownDuration, ...]:
    found = list(clock_durations(clock, vehicles))
    for key, (name, record) in vehicles.items():
        if car_sheet(record).stunned:
            found.append(ShownDuration(f"{name}: driver stunned (no move, no fire)",
                                       f"until the end of round {clock.turn}", STUN_RULE, key))
    return tuple(found)


def verdict(vehicles: Vehicles) -> str:
    """Street combat (BC-D32, BC-D45): the driver in the last mobile Battlecar wins."""
    return result([car_sheet(sheet) for _name, sheet in vehicles.values()])


def opening_roll(scenario: str, names: Sequence[str]) -> OpeningRoll | None:
    """Before the first round each player rolls 1d8, ties re-rolled, highest first; play
    passes to the left (§2.1 step 7, BC-D6); in the arena the same roll is the entry order
    (§2.19, BC-D40). ``battlecars.entry_order`` takes 2–4 players."""
    if not 2 <= len(names) <= 4:
        return None
    arena = scenario == "arena"
    what = "the arena entry order (§2.19, BC-D40)" if arena else \
        "the order of play (§2.1 step 7, BC-D6)"
    return OpeningRoll("battlecars.entry_order",
                       {"players": ", ".join(names), "scenario": "arena" if arena else "street"},
                       f"Play starts: each player rolls 1d8 for {what}, highest first, ties "
                       "re-rolled; type the dice in the listed order.")


RULES = PlayRules(
    ruleset_id=RULESET_ID,
    status=status,
    boxes=boxes,
    damage_points=damage_points,
    gauges=gauges,
    out_of_play=out_of_play,
    scenarios=(FREE_PLAY, *SCENARIOS),
    public=public,
    turn_order=turn_order,
    clock_moved=clock_moved,
    durations_from=durations_from,
    durations=durations,
    verdict=verdict,
    table_defaults=return_fire.table_defaults,
    table_problems=return_fire.table_problems,
    opening_roll=opening_roll,
)

"""The Table's view of Battlecars: status at a glance, boxes, gauges, scenarios.

Read off the engine's :class:`CarSheet` (``is_wreck``, ``driver_dead``,
``stunned``, ``max_speed``…); nothing here decides a rule.
"""

from __future__ import annotations

from collections.abc import Mapping

from carwars_desktop.rules.battlecars import CarSheet
from carwars_desktop.rules.battlecars.scenarios import RULE_SCENARIOS
from carwars_desktop.rules.battlecars.terms import BLOCKS, Direction
from carwars_desktop.rules.clock import Clock
from carwars_desktop.rules.play import (
    FREE_PLAY,
    Gauge,
    Level,
    PlayRules,
    PublicFact,
    Scenario,
    StatusFlag,
    TurnOrder,
)
from carwars_desktop.rules.ruleset import RecordSheet

RULESET_ID = "battlecars"

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


def car_sheet(sheet: RecordSheet) -> CarSheet:
    if not isinstance(sheet, CarSheet):
        raise TypeError(f"expected a Battlecars car sheet, got {type(sheet).__name__}")
    return sheet


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
    from carwars_desktop.rules.battlecars.play.clock import car_of, is_speeds

    keys = {name: key for key, (name, _sheet) in vehicles.items()}
    out = {key for key, (_name, sheet) in vehicles.items() if out_of_play(sheet)}
    following = [keys[name] for name in (car_of(p) for p in clock.phases[clock.phase + 1:])
                 if name in keys and keys[name] not in out]
    if is_speeds(clock):
        return TurnOrder((), tuple(following[:1]))
    name = car_of(clock.phase_name)
    now = (keys[name],) if name in keys else ()
    return TurnOrder(now, tuple(following[:1]))


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
)

"""The Table's view of Mini Car Wars: status at a glance, boxes, gauges, scenarios.

Everything is read off the engine's :class:`MiniSheet` (its derived states
``uncontrolled``, ``is_out``…); nothing here decides a rule.
"""

from __future__ import annotations

from collections.abc import Mapping

from carwars_desktop.procedures import Resolution
from carwars_desktop.rules.builtin import MINI_CAR_WARS
from carwars_desktop.rules.clock import Clock
from carwars_desktop.rules.mini_car_wars import MiniSheet
from carwars_desktop.rules.mini_car_wars.cite import mcw
from carwars_desktop.rules.mini_car_wars.model import SIDES, Side
from carwars_desktop.rules.mini_car_wars.play import crew
from carwars_desktop.rules.mini_car_wars.play.clock import PHASES, has_moved, phase_movers
from carwars_desktop.rules.mini_car_wars.tables import BODY_ARMOR, PERSON_BOXES, SCENARIOS
from carwars_desktop.rules.play import (
    FREE_PLAY,
    Duration,
    Gauge,
    Level,
    PlayRules,
    PublicFact,
    Scenario,
    StatusFlag,
    TurnOrder,
    Vehicles,
    sheet_reader,
)
from carwars_desktop.rules.ruleset import RecordSheet

RULESET_ID = MINI_CAR_WARS.id


mini_sheet = sheet_reader(MiniSheet, "a Mini Car Wars sheet")
"""The sheet as a :class:`MiniSheet` (``TypeError`` when it is another ruleset's)."""


def status(record: RecordSheet) -> tuple[StatusFlag, ...]:
    sheet = mini_sheet(record)
    flags: list[StatusFlag] = []
    if sheet.wrecked:
        flags.append(StatusFlag("wrecked", "✖", Level.DANGER,
                                "crashed and burned: a wreck at 0 mph (§2.7)"))
    elif sheet.is_out:
        flags.append(StatusFlag("out of the game", "⊘", Level.DANGER,
                                "every occupant is unconscious or dead (MCW-D23)"))
    if sheet.uncontrolled and not sheet.wrecked:
        flags.append(StatusFlag("uncontrolled", "⚠", Level.WARNING,
                                f"driver {sheet.driver.state.value}: straight ahead, no "
                                "maneuvers, −10 mph per turn (§2.12)"))
    for person in sheet.crew:
        if person.is_dead and not sheet.wrecked:
            flags.append(StatusFlag(f"{person.role.value} killed", "☠", Level.DANGER))
        elif person.hits == 2:
            flags.append(StatusFlag(f"{person.role.value} unconscious", "☾", Level.WARNING))
        elif person.hits == 1:
            flags.append(StatusFlag(f"{person.role.value} wounded", "✚", Level.INFO))
    if sheet.power_plant_destroyed and not sheet.wrecked:
        flags.append(StatusFlag("power plant destroyed", "⊗", Level.WARNING,
                                "must lose at least 10 mph every turn (§2.12)"))
    if sheet.skip_next_move:
        flags.append(StatusFlag("skids: skips its next move", "↯", Level.WARNING, "§2.7"))
    if sheet.reverse:
        flags.append(StatusFlag("reverse", "◀", Level.INFO))
    return tuple(flags)


SEEN_AT_THE_TABLE = frozenset({"wrecked", "reverse", "skids: skips its next move"})
"""The status flags the players see happen with secret sheets: a wreck (its counter,
§2.7), a car backing up, a skid. A wounded crew, a dead power plant or a driver out
cold are on the sheet only."""


def seen_at_the_table(flag: StatusFlag) -> bool:
    return flag.word in SEEN_AT_THE_TABLE


def armor_crossed(sheet: MiniSheet, side: Side) -> int:
    return max(0, sheet.starting_armor.get(side) - sheet.armor.get(side))


def boxes(record: RecordSheet) -> dict[str, str]:
    sheet = mini_sheet(record)
    found: dict[str, str] = {}
    for side in SIDES:
        crossed = armor_crossed(sheet, side)
        for number in range(1, sheet.starting_armor.get(side) + 1):
            found[f"armor:{side.value}:{number}"] = "x" if number <= crossed else ""
    for person in sheet.crew:
        role = person.role.value
        if person.wears_body_armor:
            lost = BODY_ARMOR.boxes - person.body_armor
            for number in range(1, BODY_ARMOR.boxes + 1):
                found[f"{role}:armor:{number}"] = "x" if number <= lost else ""
        for number in range(1, PERSON_BOXES + 1):
            found[f"{role}:{number}"] = "x" if number <= person.hits else ""
    lost = sheet.power_plant_max - sheet.power_plant
    for number in range(1, sheet.power_plant_max + 1):
        found[f"pp:{number}"] = "x" if number <= lost else ""
    for index, weapon in enumerate(sheet.weapons):
        state = ["destroyed" if weapon.destroyed else "", "fired" if weapon.fired else ""]
        if weapon.shots_left is not None:
            state.append(f"shots {weapon.shots_left}")
        found[f"weapon:{index}"] = " ".join(s for s in state if s)
    found["speed"] = sheet.velocity
    found["wrecked"] = "x" if sheet.wrecked else ""
    return found


def damage_points(record: RecordSheet) -> int:
    sheet = mini_sheet(record)
    armor = sum(armor_crossed(sheet, side) for side in SIDES)
    crew = sum(person.hits + (BODY_ARMOR.boxes - person.body_armor
                              if person.wears_body_armor else 0) for person in sheet.crew)
    return armor + crew + sheet.power_plant_max - sheet.power_plant


def gauges(record: RecordSheet) -> tuple[Gauge, ...]:
    sheet = mini_sheet(record)
    return (Gauge("armor", sheet.armor.total), Gauge("DP", sheet.power_plant))


def out_of_play(record: RecordSheet) -> bool:
    return mini_sheet(record).is_out


def start_sheet(record: RecordSheet, scenario: str) -> RecordSheet:
    """A scenario's vehicles start at its speed (§2.15: Road Duel 60 mph, Pack Attack 80)."""
    sheet = mini_sheet(record)
    if not scenario:
        return sheet
    return sheet.started_turn(SCENARIOS[scenario].start_speed, False)


SIDE_WORDS = {"F": "front", "R": "right", "L": "left", "B": "back", "T": "top"}


def public(record: RecordSheet, sheets_open: bool) -> tuple[PublicFact, ...]:
    """Speed, then armor left per side, weapons and crew.

    With secret sheets (§2.15; the original's §9(c): the players do not see each other's
    record sheets, they "find out the hard way what their opponents have") only the
    speed, which every player reveals each turn (§2.3). Not the hits each side took: with
    a stock design's armor from the Stock Car List they give the armor left, which is
    the sheet itself; what a shot did stays in the log, as it was rolled at the table.
    """
    sheet = mini_sheet(record)
    facts = [PublicFact("speed (mph, reverse)" if sheet.reverse else "speed (mph)",
                        str(sheet.speed),
                        number=True)]
    if not sheets_open:
        return tuple(facts)
    facts += [PublicFact(f"{SIDE_WORDS[side.value]} armor", str(sheet.armor.get(side)),
                         number=True)
              for side in SIDES if sheet.starting_armor.get(side)]
    facts += [PublicFact(weapon.label, "lost" if weapon.destroyed else weapon.status,
                         lost=weapon.destroyed,
                         spent=not weapon.destroyed and weapon.status != "ready")
              for weapon in sheet.weapons]
    facts += [PublicFact(person.role.value, person.state.value, lost=person.is_dead)
              for person in sheet.crew]
    facts.append(PublicFact("power plant", f"{sheet.power_plant}/{sheet.power_plant_max} DP",
                            lost=sheet.power_plant_destroyed))
    return tuple(facts)


def turn_order(clock: Clock, vehicles: Mapping[str, tuple[str, RecordSheet]]) -> TurnOrder:
    """The vehicles still to move in this phase, fastest first (§2.4); when all have,
    those of the next phase."""

    sheets = {key: mini_sheet(sheet) for key, (_name, sheet) in vehicles.items()}
    phase = clock.phase + 1
    still = [key for key in phase_movers(sheets, phase) if not has_moved(sheets[key], phase)]
    if still:
        return TurnOrder(tuple(still[:1]), tuple(still[1:]))
    following = phase_movers(sheets, phase + 1) if phase < PHASES else ()
    return TurnOrder((), tuple(following))


SMOKE_RULE = mcw("§2.13 step 3", "MCW-A4")


def durations_from(resolution: Resolution, bindings: Mapping[str, str], clock: Clock,
                   vehicles: Vehicles) -> tuple[Duration, ...]:
    """A smokescreen fired: "The cloud lasts 60 turns" (§2.13 step 3, as printed: MCW-A4;
    the number comes from the session's decisions, ``smoke_turns``)."""
    turns = resolution.values.get("smoke_turns")
    if not isinstance(turns, int) or resolution.refusal is not None:
        return ()
    key = bindings.get("firer")
    name = vehicles[key][0] if key is not None and key in vehicles else "the firer"
    return (Duration("smoke", f"smoke cloud behind {name} (laid {clock})", SMOKE_RULE, key,
                     clock.turn + turns, clock.phase, clock.turn),)


def verdict(vehicles: Vehicles) -> str:
    """"The survivor wins" (§2.15, "out" per MCW-D23): one vehicle left in, or none."""
    sheets = [mini_sheet(sheet) for _name, sheet in vehicles.values()]
    if len(sheets) < 2:
        return ""
    left = [sheet for sheet in sheets if not sheet.is_out]
    if not left:
        return "no survivor: every vehicle is out (§2.15, MCW-D23)"
    if len(left) == 1:
        return f"{left[0].name} wins: the survivor (§2.15, MCW-D23)"
    return ""


RULES = PlayRules(
    ruleset_id=RULESET_ID,
    status=status,
    boxes=boxes,
    damage_points=damage_points,
    gauges=gauges,
    out_of_play=out_of_play,
    scenarios=(FREE_PLAY, *(Scenario(s.key, s.name, f"{s.start} {s.victory}")
                            for s in SCENARIOS.values())),
    start_sheet=start_sheet,
    public=public,
    seen_at_the_table=seen_at_the_table,
    turn_order=turn_order,
    durations_from=durations_from,
    verdict=verdict,
    table_defaults=crew.table_defaults,
)

"""Scenario set-up and victory (Mini Car Wars §2.15; MCW-D23, D26, D27).

mini.road_duel_setup rolls which car starts in front (1d6: 1–3 the first car,
4–6 the second) and the gap (2d6 inches, bumper to bumper, MCW-D27), and sets
both cars to 60 mph. mini.pack_attack_setup puts everyone at 80 mph with the
car 12" ahead. mini.victory says who has won.
"""

from __future__ import annotations

from fractions import Fraction

from carwars_desktop.dice import DiceSource, dice_sum
from carwars_desktop.procedures import (
    Chart,
    ChoiceInput,
    DiceNeed,
    InputError,
    Odds,
    Outcome,
    Procedure,
    Result,
    SheetChange,
    Step,
    TextInput,
    Values,
)
from carwars_desktop.rules.mini_car_wars.cite import mcw
from carwars_desktop.rules.mini_car_wars.procedures.common import (
    RULESET,
    certain,
    get_optional_sheet,
    get_sheet,
    sheet_input,
)
from carwars_desktop.rules.mini_car_wars.scenarios import pack_attack_winner, road_duel_winner
from carwars_desktop.rules.mini_car_wars.sheet import MiniSheet
from carwars_desktop.rules.mini_car_wars.tables import PACK_ATTACK, ROAD_DUEL, SCENARIOS
from carwars_desktop.rules.mini_car_wars.to_hit import parse_inches

RULE = mcw("§2.15")
FIRST_IN_FRONT = frozenset({1, 2, 3})
MAX_CYCLES = 8
CYCLE_INPUTS = tuple(f"cycle_{n}" for n in range(1, MAX_CYCLES + 1))


def _started(name: str, sheet: MiniSheet, speed: int) -> SheetChange:
    """The input ``name``'s vehicle at the scenario's starting ``speed``."""
    return SheetChange(name, sheet.started_turn(speed, False), f"{sheet.name}: {speed} mph")


def _duel_resolve(values: Values, dice: DiceSource) -> Result:
    first, second = get_sheet(values, "car_a"), get_sheet(values, "car_b")
    order = dice.roll(6, 1, "which car starts in front")[0]
    front, back = ("car_a", "car_b") if order in FIRST_IN_FRONT else ("car_b", "car_a")
    gap_faces = dice.roll(6, ROAD_DUEL.gap_dice, "starting gap")
    gap = sum(gap_faces)
    leader = values[front].name
    speed = ROAD_DUEL.start_speed
    steps = [Step(f"front car: rolled {order} → {front.replace('_', ' ')} ({leader}) in front "
                  "(1–3 car A, 4–6 car B)", RULE),
             Step(f"gap: 2d6 {' '.join(map(str, gap_faces))} = {gap}\" from the front car's "
                  "rear bumper to the other's front bumper (MCW-D27)", RULE),
             Step(f"both cars go the same direction at {speed} mph; the survivor wins", RULE)]
    effects = [_started("car_a", first, speed), _started("car_b", second, speed)]
    return Result(outcome=f"{leader} in front, {gap}\" ahead", steps=steps, effects=effects,
                  values={"front": front, "behind": back, "gap": gap, "front_roll": order,
                          "car_a_front_on": sorted(FIRST_IN_FRONT),
                          "car_b_front_on": sorted(set(range(1, 7)) - FIRST_IN_FRONT),
                          "speed": speed},
                  label="car A in front" if front == "car_a" else "car B in front")


def _duel_odds(values: Values) -> Odds:
    p = Fraction(len(FIRST_IN_FRONT), 6)
    gap = dice_sum(ROAD_DUEL.gap_dice, 6)
    return Odds(outcomes=(Outcome("car A in front", p), Outcome("car B in front", 1 - p)),
                summary="each car 1/2 to start in front; gap 2–12\", mean 7\"",
                chart=Chart("starting gap (2d6 inches)", gap),
                expected=(("gap (inches)", gap.mean()),))


ROAD_DUEL_SETUP = Procedure(
    id="mini.road_duel_setup",
    title="Road Duel setup (who starts in front, starting gap)",
    ruleset=RULESET,
    rule=RULE,
    summary="Roll for the car in front and the 2d6\" gap; both cars start at 60 mph.",
    inputs=(sheet_input("car_a", "Car A"), sheet_input("car_b", "Car B")),
    resolve_fn=_duel_resolve,
    odds_fn=_duel_odds,
    dice_fn=lambda values: [DiceNeed("which car starts in front", 1, 6, "1–3 car A"),
                            DiceNeed("starting gap", ROAD_DUEL.gap_dice, 6)],
)


def _cycles(values: Values) -> list[tuple[str, MiniSheet]]:
    found = []
    for name in CYCLE_INPUTS:
        sheet = get_optional_sheet(values, name)
        if sheet is not None:
            found.append((name, sheet))
    return found


def _pack_check(values: Values) -> None:
    car = get_sheet(values, "car")
    if car.is_cycle:
        raise InputError(f"car: {car.name} is a cycle; the lone vehicle is a car")
    cycles = _cycles(values)
    low = PACK_ATTACK.sides[1].min_vehicles
    if len(cycles) < low:
        raise InputError(f"cycle_1…: at least {low} cycles are needed, {len(cycles)} given")
    for name, sheet in cycles:
        if not sheet.is_cycle:
            raise InputError(f"{name}: {sheet.name} is not a cycle")


def _pack_resolve(values: Values, dice: DiceSource) -> Result:
    speed = PACK_ATTACK.start_speed
    car = get_sheet(values, "car")
    cycles = _cycles(values)
    effects = [_started(name, sheet, speed) for name, sheet in [("car", car), *cycles]]
    steps = [Step(f"{car.name} starts with a {PACK_ATTACK.lead}\" lead over "
                  f"{len(cycles)} cycles; all vehicles go {speed} mph", RULE),
             Step(f"victory: {PACK_ATTACK.victory}", RULE)]
    return Result(outcome=f"{car.name} {PACK_ATTACK.lead}\" ahead of {len(cycles)} cycles, "
                          f"all at {speed} mph", steps=steps, effects=effects,
                  values={"lead": PACK_ATTACK.lead, "cycles": len(cycles), "speed": speed,
                          "winning_lead_over": PACK_ATTACK.winning_lead_over},
                  label="set up")


PACK_ATTACK_SETUP = Procedure(
    id="mini.pack_attack_setup",
    title="Pack Attack setup (car with a 12\" lead, all at 80 mph)",
    ruleset=RULESET,
    rule=RULE,
    summary="One car against at least 5 cycles: the car 12\" ahead, everyone at 80 mph.",
    inputs=(sheet_input("car", "The lone car"),
            *(sheet_input(name, f"Cycle {n}", optional=True)
              for n, name in enumerate(CYCLE_INPUTS, start=1))),
    resolve_fn=_pack_resolve,
    odds_fn=lambda values: certain("set up", "no dice"),
    check_fn=_pack_check,
)


def _victory_text(values: Values) -> str:
    scenario = SCENARIOS[values["scenario"]]
    first = get_sheet(values, "side_a")
    others = [get_sheet(values, name) for name in ("side_b", *CYCLE_INPUTS[1:])
              if values.get(name) is not None]
    if scenario is ROAD_DUEL:
        return road_duel_winner(first, others[0])
    return pack_attack_winner(first, others, parse_inches(values["lead"]))


def _victory_check(values: Values) -> None:
    if values["scenario"] == ROAD_DUEL.key and any(values[n] is not None
                                                   for n in CYCLE_INPUTS[1:]):
        raise InputError("a Road Duel has one car per side")


def _victory_resolve(values: Values, dice: DiceSource) -> Result:
    text = _victory_text(values)
    sheets = [get_sheet(values, n) for n in ("side_a", "side_b", *CYCLE_INPUTS[1:])
              if values.get(n) is not None]
    steps = [Step(f"{s.name}: {'out' if s.is_out else 'still in'} (MCW-D23: out when wrecked or "
                  "every occupant is unconscious or dead)", mcw("§2.12")) for s in sheets]
    steps.append(Step(text, RULE))
    return Result(outcome=text, steps=steps, success=None)


VICTORY = Procedure(
    id="mini.victory",
    title="Scenario victory check (Road Duel, Pack Attack)",
    ruleset=RULESET,
    rule=RULE,
    summary="Who has won: the survivor of a Road Duel; in Pack Attack the cycles by destroying "
            "the car, the car by destroying every cycle or a lead of more than 30\".",
    inputs=(
        ChoiceInput("scenario", "Scenario", tuple(SCENARIOS), ROAD_DUEL.key),
        sheet_input("side_a", "Car (player A / the lone car)"),
        sheet_input("side_b", "Player B's car / cycle 1"),
        *(sheet_input(name, f"Cycle {n}", optional=True)
          for n, name in enumerate(CYCLE_INPUTS[1:], start=2)),
        TextInput("lead", "Pack Attack: car's lead (inches)", "12",
                  help="along the road, to the nearest cycle (MCW-D26)", validate=parse_inches),
    ),
    resolve_fn=_victory_resolve,
    odds_fn=lambda values: certain(_victory_text(values), "no dice"),
    check_fn=_victory_check,
)

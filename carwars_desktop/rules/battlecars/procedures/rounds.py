"""Procedures of the Game Round: order of play, a Turn's start, the Round's end (§2.1–§2.2)."""

from __future__ import annotations

from fractions import Fraction

from carwars_desktop.dice import DiceSource
from carwars_desktop.procedures import (
    Chart,
    ChoiceInput,
    DiceNeed,
    IntInput,
    Odds,
    Outcome,
    Procedure,
    Result,
    SheetChange,
    Step,
    TextInput,
    Values,
    odds_text,
)
from carwars_desktop.rules.battlecars.cite import bc
from carwars_desktop.rules.battlecars.options import options_from
from carwars_desktop.rules.battlecars.procedures.common import (
    RULESET,
    car_input,
    certain,
    clear_points_input,
    decisions,
    need,
)
from carwars_desktop.rules.battlecars.procedures.movement import (
    SKID_DECISIONS,
    skid_dice,
    skid_odds,
)
from carwars_desktop.rules.battlecars.rounds import (
    RULE_ROUND,
    disperse_smoke,
    end_round,
    p_smoke_removed,
    play_order,
    roll_off,
    smoke_removed_distribution,
    start_turn,
)
from carwars_desktop.rules.battlecars.sheet import CarSheet
from carwars_desktop.rules.battlecars.skid import resolve_skid
from carwars_desktop.rules.battlecars.tables import DIE

MAX_MARKERS = 28
CARS = ("car1", "car2", "car3", "car4")


# --- smoke dispersal ----------------------------------------------------------------------
def _smoke_odds(markers: int) -> Odds:
    distribution = smoke_removed_distribution(markers)
    return Odds(outcomes=tuple(Outcome(f"{k} removed", p)
                               for k, p in distribution.probabilities().items()),
                summary=f"each of {markers} marker(s) is removed on 5–8 · "
                        f"{odds_text(p_smoke_removed())}",
                chart=Chart("Smoke markers removed", distribution, x_label="removed"),
                expected=(("removed", distribution.mean()),))


def _smoke_resolve(values: Values, dice: DiceSource) -> Result:
    markers = values["markers"]
    removed, steps = disperse_smoke(markers, dice)
    return Result(f"{removed} of {markers} Smoke marker(s) removed", steps, None,
                  values={"removed": removed, "remaining": markers - removed,
                          "markers": markers},
                  label=f"{removed} removed")


SMOKE_DISPERSAL = Procedure(
    id="battlecars.smoke_dispersal",
    title="Smoke dispersal (end of round)",
    ruleset=RULESET,
    rule=RULE_ROUND.more("step 4"),
    summary="Roll 1d8 for each Smoke marker on the board: 1–4 it stays, 5–8 it is removed.",
    inputs=(IntInput("markers", "Smoke markers on the board", 1, 0, MAX_MARKERS),),
    resolve_fn=_smoke_resolve,
    odds_fn=lambda values: _smoke_odds(values["markers"]),
    dice_fn=lambda values: [DiceNeed("smoke marker", values["markers"], DIE)]
    if values["markers"] else [],
)


# --- end of round -------------------------------------------------------------------------
def _end_resolve(values: Values, dice: DiceSource) -> Result:
    removed, steps = disperse_smoke(values["smoke_markers"], dice)
    all_steps = [Step("every car has moved: the Round ends", RULE_ROUND.more("step 4")), *steps]
    effects = []
    for name in CARS:
        sheet: CarSheet | None = values[name]
        if sheet is None:
            continue
        after = end_round(sheet)
        if sheet.stunned:
            all_steps.append(Step(f"{sheet.name}: the stun ends with the Round",
                                  bc("§2.8 step 4")))
        effects.append(SheetChange(name, after, "stun cleared, Turn tallies reset"))
    all_steps.append(Step("next Round: each player turns the current Speed Counter face down "
                          "and secretly sets the new speed (battlecars.speed)",
                          RULE_ROUND.more("step 5")))
    return Result(f"Round over: {removed} Smoke marker(s) removed", all_steps, None, effects,
                  {"smoke_removed": removed}, label=f"{removed} removed")


END_ROUND = Procedure(
    id="battlecars.end_round",
    title="End of Round (smoke, stun)",
    ruleset=RULESET,
    rule=RULE_ROUND.more("steps 4–5"),
    summary="Smoke dispersal for every marker, stuns end, and the next Round's speeds follow.",
    inputs=(IntInput("smoke_markers", "Smoke markers on the board", 0, 0, MAX_MARKERS),
            *(car_input(name, f"Car {i}", optional=True) for i, name in enumerate(CARS, 1))),
    resolve_fn=_end_resolve,
    odds_fn=lambda values: _smoke_odds(values["smoke_markers"]),
    dice_fn=lambda values: [DiceNeed("smoke marker", values["smoke_markers"], DIE)]
    if values["smoke_markers"] else [],
)


# --- start of a Turn ----------------------------------------------------------------------
def _dead_moving(sheet: CarSheet) -> bool:
    return sheet.occupied and sheet.driver_dead and not sheet.exploded and sheet.speed > 0


def _start_resolve(values: Values, dice: DiceSource) -> Result:
    sheet: CarSheet = values["vehicle"]
    after = start_turn(sheet)
    steps = [Step(f"{sheet.name}'s Turn: targets fired at and pods dropped from are counted "
                  "afresh", bc("§2.9"))]
    if _dead_moving(sheet):
        steps.append(Step(f"the driver is dead and the car moves at speed {sheet.speed}: an "
                          "immediate skid test with SD = speed", bc("§2.16 step 2", "BC-D30")))
        skid = resolve_skid(after, sheet.speed, sheet.speed, dice, values["clear_points"], None,
                            True, options_from(values))
        steps += skid.steps
        return Result(f"dead driver's skid: {skid.outcome}", steps, None,
                      [SheetChange("vehicle", skid.sheet, f"skidded, speed {skid.sheet.speed}")],
                      {"sd": skid.sd, "drift": skid.drift, "facing": skid.facing,
                       "collided": skid.collided} | skid.details, label=skid.label)
    blocked = sheet.cannot_act()
    if blocked is not None:
        steps.append(Step(f"{blocked}: the car does not move or fire this Turn",
                          bc("§2.8 step 4 · §2.16")))
        outcome = blocked
    else:
        steps.append(Step(f"move exactly {sheet.speed} point(s), the first straight ahead; fire "
                          "on entering each point", bc("§2.2 step 2 · §2.4")))
        outcome = f"move {sheet.speed}"
    return Result(outcome, steps, None, [SheetChange("vehicle", after, "Turn tallies reset")],
                  {"speed": sheet.speed}, label="turn starts")


def _start_odds(values: Values) -> Odds:
    sheet: CarSheet = values["vehicle"]
    if _dead_moving(sheet):
        return skid_odds(sheet.speed, sheet.speed, values["clear_points"], True, values,
                         "dead driver's skid ")
    return certain("turn starts", "no dice")


START_TURN = Procedure(
    id="battlecars.start_turn",
    aliases={"car": "vehicle"},
    title="Start of a car's Turn (dead driver skid, stun)",
    ruleset=RULESET,
    rule=bc("§2.2 step 2 · §2.16"),
    summary="Resets the Turn's target and drop tallies; a moving car with a dead driver skids "
            "with SD = its speed, then stops.",
    inputs=(car_input(), clear_points_input()) + decisions(*SKID_DECISIONS),
    resolve_fn=_start_resolve,
    odds_fn=_start_odds,
    dice_fn=lambda values: skid_dice(values["vehicle"].speed, values)
    if _dead_moving(values["vehicle"]) else [],
)


# --- order of play / arena entry ----------------------------------------------------------
def _players(values: Values) -> tuple[str, ...]:
    return tuple(p.strip() for p in values["players"].split(",") if p.strip())


def _order_check(values: Values) -> None:
    players = _players(values)
    need([] if 2 <= len(players) <= 4 and len(set(players)) == len(players)
           else ["name 2–4 different players, separated by commas, in seating order"])


def _order_resolve(values: Values, dice: DiceSource) -> Result:
    players = _players(values)
    arena = values["scenario"] == "arena"
    first, steps = roll_off(players, dice, "arena entry" if arena else "order")
    order = play_order(players, first)
    text = (f"{players[first]} enters the arena first" if arena
            else f"{players[first]} moves first")
    all_steps = list(steps) + [Step(f"{text}; play passes to the left: {', '.join(order)}",
                                    bc("§2.1 step 7 · §2.19"))]
    return Result(f"{text}: {', '.join(order)}", all_steps, None,
                  values={"first": players[first], "order": order},
                  label=f"{players[first]} first")


def _order_dice(values: Values) -> list[DiceNeed]:
    """One 1d8 per player, then again for each player still tied highest (BC-D6, BC-D40)."""
    players = _players(values)
    purpose = "arena entry" if values["scenario"] == "arena" else "order"
    return ([DiceNeed(f"{purpose}: {name}", 1, DIE) for name in players]
            + [DiceNeed(f"{purpose}: {name}", 1, DIE, "again while tied highest", repeat=True)
               for name in players])


def _order_odds(values: Values) -> Odds:
    players = _players(values)
    p = Fraction(1, len(players))
    return Odds(outcomes=tuple(Outcome(f"{name} first", p) for name in players),
                summary=f"each player {odds_text(p)} to go first (ties re-rolled)")


ENTRY_ORDER = Procedure(
    id="battlecars.entry_order",
    title="Order of play / arena entry order",
    ruleset=RULESET,
    rule=bc("§2.1 step 7 · §2.19", "BC-D6", "BC-D40"),
    summary="Each player rolls 1d8, ties re-roll, the highest goes (or enters the arena) first; "
            "play then passes to the left.",
    inputs=(TextInput("players", "Players in seating order", "car 1, car 2, car 3, car 4",
                      help="2–4 names separated by commas, clockwise (to the left)"),
            ChoiceInput("scenario", "Scenario", ("street", "arena"), "street",
                        help="street combat (BC-D6) or arena entry (BC-D40)")),
    resolve_fn=_order_resolve,
    odds_fn=_order_odds,
    dice_fn=_order_dice,
    check_fn=_order_check,
)

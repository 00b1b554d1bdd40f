"""The Table's view of AUTOpower: status at a glance, boxes, gauges.

Read off the engine's :class:`CarSheet` (``pushing``, ``killed``, the control
penalties); nothing here decides a rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from carwars_desktop.rules.autopower import CarSheet, ControlPenalty
from carwars_desktop.rules.autopower.play.clock import current, order, result
from carwars_desktop.rules.autopower.tables import ap
from carwars_desktop.rules.autopower.turns import first_turn_key
from carwars_desktop.rules.builtin import AUTOPOWER
from carwars_desktop.rules.clock import Clock
from carwars_desktop.rules.play import (
    ClockMove,
    Done,
    DueRoll,
    Gauge,
    Level,
    PlayRules,
    PublicFact,
    ShownDuration,
    StatusFlag,
    TurnOrder,
    Vehicles,
    clock_durations,
    expire,
    sheet_reader,
)
from carwars_desktop.rules.ruleset import RecordSheet

RULESET_ID = AUTOPOWER.id


car_sheet = sheet_reader(CarSheet, "an AUTOpower car sheet")
"""The sheet as a :class:`CarSheet` (``TypeError`` when it is another ruleset's)."""


def status(record: RecordSheet) -> tuple[StatusFlag, ...]:
    sheet = car_sheet(record)
    flags: list[StatusFlag] = []
    if sheet.killed:
        flags.append(StatusFlag("killed", "☠", Level.DANGER,
                                f"damage {sheet.total_damage} > Armor {sheet.armor} (§2.7)"))
        return tuple(flags)
    if sheet.pushing:
        flags.append(StatusFlag("pushing the engine", "⚡", Level.WARNING,
                                f"rawSpeed {sheet.raw_speed} > 2 × E = {sheet.safe_speed}: a push "
                                f"roll of {sheet.push_target}+ in each accelerate phase (§2.4)"))
    if sheet.penalty_this_turn is not ControlPenalty.NONE:
        flags.append(StatusFlag(f"{sheet.penalty_this_turn.label} this turn", "⚠",
                                Level.WARNING, "a control failure (§2.8, AP-D12)"))
    if sheet.next_turn_penalty is not ControlPenalty.NONE:
        flags.append(StatusFlag(sheet.next_turn_penalty.next_turn_label, "⚠", Level.WARNING,
                                "a control failure (§2.8, AP-D12)"))
    if sheet.control_due is not None:
        flags.append(StatusFlag(f"control roll due (damage {sheet.control_due})", "⟳",
                                Level.WARNING, f"it took damage: {CONTROL_RULE}"))
    if sheet.attacked_this_turn:
        flags.append(StatusFlag("attacked this turn", "●", Level.INFO, "one attack a turn (§2.3)"))
    if sheet.total_damage and sheet.total_damage == sheet.armor:
        flags.append(StatusFlag("one more point kills", "!", Level.WARNING,
                                f"damage {sheet.total_damage} = Armor {sheet.armor}"))
    return tuple(flags)


def boxes(record: RecordSheet) -> dict[str, str]:
    sheet = car_sheet(record)
    found = {f"damage:{i}": str(amount) for i, amount in enumerate(sheet.damage_taken)}
    found.update({f"energy:{i}": str(v) for i, v in enumerate(sheet.energy_in_play)})
    found.update({f"strength:{i}": str(v) for i, v in enumerate(sheet.strength_in_play)})
    found["hand"] = str(sheet.hand_size)
    found["speed"] = str(sheet.speed)
    found["armor"] = str(sheet.armor)
    found["killed"] = "x" if sheet.killed else ""
    found["penalty"] = f"{sheet.penalty_this_turn.value}/{sheet.next_turn_penalty.value}"
    return found


def damage_points(record: RecordSheet) -> int:
    return car_sheet(record).total_damage


def gauges(record: RecordSheet) -> tuple[Gauge, ...]:
    sheet = car_sheet(record)
    return (Gauge("armor", sheet.armor), Gauge("armor left", max(0, sheet.armor
                                                               - sheet.total_damage)))


def out_of_play(record: RecordSheet) -> bool:
    return car_sheet(record).killed


def public(record: RecordSheet, sheets_open: bool) -> tuple[PublicFact, ...]:
    """Speed, Armor and the damage taken (cards in play lie face up, AP-D27); with
    secret sheets the Speed and the damage announced."""
    sheet = car_sheet(record)
    facts = [PublicFact("speed", str(sheet.speed), number=True)]
    if sheets_open:
        facts.append(PublicFact("armor", str(sheet.armor), number=True))
    facts.append(PublicFact("damage", str(sheet.total_damage), number=True))
    return tuple(facts)


def turn_order(clock: Clock, vehicles: Mapping[str, tuple[str, RecordSheet]]) -> TurnOrder:
    """The car whose turn it is, and the next car in the turn order not killed (§2.3)."""

    keys = {name: key for key, (name, _sheet) in vehicles.items()}
    out = {key for key, (_name, sheet) in vehicles.items() if out_of_play(sheet)}
    name, _step = current(clock)
    cars = order(clock)
    now = (keys[name],) if name in keys else ()
    if name not in cars:
        return TurnOrder(now)
    start = cars.index(name)
    later = [keys[n] for n in cars[start + 1:] + cars[:start] if n in keys]
    return TurnOrder(now, tuple(k for k in later if k not in out)[:1])


def start_order(vehicles: Sequence[tuple[str, RecordSheet]]) -> tuple[str, ...]:
    """AP §2.2 step 4: "The player with the higher Speed takes the first turn"; AP-D24: with
    more than 2 players, by descending starting Speed, kept all game. Ties are broken as the
    draw order (E, F, S, I, AP-D16); cars tied on all of these keep their seats until the
    GM settles them with ``autopower.first_player`` (its 2d6 roll-off)."""

    ranked = sorted(vehicles, key=lambda entry: first_turn_key(car_sheet(entry[1])),
                    reverse=True)
    return tuple(name for name, _sheet in ranked)


PENALTY_RULE = ap("§2.8", "AP-D12")


def _car_of(phase: str) -> tuple[str, str]:
    name, _, step = phase.rpartition(": ")
    return name, step


def clock_moved(before: Clock, after: Clock, vehicles: Vehicles) -> ClockMove:
    """AP-D12: a control penalty holds for "the car's next own turn only": it comes into
    force when the car's turn begins (its draw) and ends when the clock leaves that turn.
    The turn's one attack (§2.3 step 4) is spent only in that turn: "The turn ends" (step 5)
    takes the mark off too."""

    moved = expire(before, after, vehicles)
    sheets: dict[str, RecordSheet] = dict(moved.sheets)
    steps = list(moved.steps)
    was, _ = _car_of(before.phase_name)
    now, step = _car_of(after.phase_name)
    if was == now and after.turn == before.turn:
        return moved
    for key, (name, record) in vehicles.items():
        sheet = car_sheet(record)
        if name == was and sheet.attacked_this_turn:
            sheets[key] = sheet = replace(sheet, attacked_this_turn=False)
        if name == was and sheet.penalty_this_turn is not ControlPenalty.NONE:
            ended = sheet.penalty_this_turn
            sheets[key] = sheet = replace(sheet, penalty_this_turn=ControlPenalty.NONE)
            steps.append(f"{name}: the turn is over, and with it \"{ended.label}\" "
                         f"({PENALTY_RULE})")
        if name == now and step == "draw" and sheet.next_turn_penalty is not ControlPenalty.NONE:
            due = sheet.next_turn_penalty
            sheets[key] = replace(sheet, penalty_this_turn=due,
                                  next_turn_penalty=ControlPenalty.NONE)
            steps.append(f"{name}: its turn begins: {due.label} this turn ({PENALTY_RULE})")
    return ClockMove(sheets, moved.durations, tuple(steps))


def durations(clock: Clock, vehicles: Vehicles) -> tuple[ShownDuration, ...]:
    """The control penalties with when they end (AP-D12), and any the clock keeps."""
    found = list(clock_durations(clock, vehicles))
    current, _step = _car_of(clock.phase_name)
    for key, (name, record) in vehicles.items():
        sheet = car_sheet(record)
        if sheet.killed:
            continue
        if sheet.penalty_this_turn is not ControlPenalty.NONE:
            found.append(ShownDuration(f"{name}: {sheet.penalty_this_turn.label}",
                                       f"until the end of {name}'s turn" if name == current
                                       else "this own turn", PENALTY_RULE, key))
        if sheet.control_due is not None:
            found.append(ShownDuration(f"{name}: control roll due (damage {sheet.control_due})",
                                       "until it is rolled (C)", CONTROL_RULE, key))
        if sheet.next_turn_penalty is not ControlPenalty.NONE:
            found.append(ShownDuration(f"{name}: {sheet.next_turn_penalty.label}",
                                       f"in {name}'s next own turn (turn "
                                       f"{_next_own_turn(clock, name)})", PENALTY_RULE, key))
    return tuple(found)


CONTROL = "autopower.control"
CONTROL_RULE = f"{ap('§2.8')} (the Control Rolls variant), {CONTROL}"


def due_rolls(vehicles: Vehicles) -> tuple[DueRoll, ...]:
    """§2.8: each car that took damage from an attack with the Control Rolls variant on
    rolls for control; the roll stays due on its sheet until it is made."""
    found = []
    for key, (name, record) in vehicles.items():
        sheet = car_sheet(record)
        if sheet.control_due is not None and not sheet.killed:
            found.append(DueRoll(key, CONTROL, "vehicle", {"damage": sheet.control_due},
                                 f"{name}: control roll due (damage {sheet.control_due})",
                                 CONTROL_RULE))
    return tuple(found)


def table_defaults(procedure_id: str, vehicles: Mapping[str, tuple[str, RecordSheet]],
                   clock: Clock) -> Mapping[str, Any]:
    """A control roll opened for a car with one due takes the damage of the hit (§2.8
    step 1: target = damage just taken + Energy cards in play − I)."""
    if procedure_id != CONTROL or "vehicle" not in vehicles:
        return {}
    sheet = car_sheet(vehicles["vehicle"][1])
    return {} if sheet.control_due is None else {"damage": sheet.control_due}


ATTACKS = {"autopower.attack": "firer", "autopower.laser": "firer", "autopower.ram": "rammer"}
"""The attacks of a turn's Combat phase (§2.3 step 4: standard, laser or ram), each with
its attacker's input."""
COMBAT = "combat"
ONE_ATTACK_RULE = ap("§2.3 step 4")


def table_problems(procedure_id: str, names: Mapping[str, str], inputs: Mapping[str, Any],
                   clock: Clock, done: Sequence[Done]) -> tuple[str, ...]:
    """§2.3 step 4: a car makes at most one attack a turn, in its own Combat phase. An
    attack by another car, or in another phase of its turn, is refused (a second attack in
    the same turn the engine refuses: the sheet's "attacked this turn"). A clock with no
    turn order yet (its phases name no car) is not judged here."""

    attacker_input = ATTACKS.get(procedure_id)
    attacker = names.get(attacker_input) if attacker_input is not None else None
    now, step = current(clock)
    if attacker is None or not now or (attacker == now and step == COMBAT):
        return ()
    return (f"{attacker} attacks only in its own Combat phase: it is {now}'s {step} phase "
            f"({ONE_ATTACK_RULE})",)


def _next_own_turn(clock: Clock, name: str) -> int:
    """The turn of the car's next draw phase after ``clock``."""
    for index, phase in enumerate(clock.phases):
        if phase == f"{name}: draw":
            return clock.turn if index > clock.phase else clock.turn + 1
    return clock.turn + 1


def verdict(vehicles: Vehicles) -> str:
    """AP §2.12 (AP-D19): the last car not killed wins; cars killed together draw."""
    return result([car_sheet(sheet) for _name, sheet in vehicles.values()])


RULES = PlayRules(
    ruleset_id=RULESET_ID,
    status=status,
    boxes=boxes,
    damage_points=damage_points,
    gauges=gauges,
    out_of_play=out_of_play,
    public=public,
    turn_order=turn_order,
    start_order=start_order,
    clock_moved=clock_moved,
    durations=durations,
    verdict=verdict,
    table_defaults=table_defaults,
    table_problems=table_problems,
    due_rolls=due_rolls,
)

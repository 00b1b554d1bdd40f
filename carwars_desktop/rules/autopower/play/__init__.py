"""The Table's view of AUTOpower: status at a glance, boxes, gauges.

Read off the engine's :class:`CarSheet` (``pushing``, ``killed``, the control
penalties); nothing here decides a rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from carwars_desktop.rules.autopower import CarSheet, ControlPenalty
from carwars_desktop.rules.clock import Clock
from carwars_desktop.rules.play import Gauge, Level, PlayRules, PublicFact, StatusFlag, TurnOrder
from carwars_desktop.rules.ruleset import RecordSheet

RULESET_ID = "autopower"


def car_sheet(sheet: RecordSheet) -> CarSheet:
    if not isinstance(sheet, CarSheet):
        raise TypeError(f"expected an AUTOpower car sheet, got {type(sheet).__name__}")
    return sheet


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
    from carwars_desktop.rules.autopower.play.clock import current, order

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
    from carwars_desktop.rules.autopower.turns import first_turn_key

    ranked = sorted(vehicles, key=lambda entry: first_turn_key(car_sheet(entry[1])),
                    reverse=True)
    return tuple(name for name, _sheet in ranked)


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
)

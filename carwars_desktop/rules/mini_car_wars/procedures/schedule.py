"""mini.schedule — who moves in each of the 10 phases, and in what order (Mini Car Wars §2.4).

A vehicle at S mph moves in phases 1 to S/10 (MCW-D1); in each phase the
fastest moves first. Ties are in the order given unless rolled: each tied
vehicle rolls 1d6, highest first, equal dice rolling again.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import permutations, product
from math import factorial, prod

from carwars_desktop.dice import DiceSource
from carwars_desktop.procedures import (
    BoolInput,
    DiceNeed,
    Odds,
    Outcome,
    Procedure,
    Result,
    Step,
    TextInput,
    Values,
)
from carwars_desktop.rules.mini_car_wars.cite import mcw
from carwars_desktop.rules.mini_car_wars.movement import (
    Mover,
    move_phases,
    parse_movers,
    schedule,
    tie_groups,
)
from carwars_desktop.rules.mini_car_wars.procedures.common import RULESET

RULE = mcw("§2.4")
MAX_LISTED_ORDERS = 720


def _roll_order(group: tuple[Mover, ...], dice: DiceSource, steps: list[Step]) -> list[Mover]:
    if len(group) < 2:
        return list(group)
    rolls = {m.name: dice.roll(6, 1, f"tie order at {m.velocity.mph} mph ({m.name})")[0]
             for m in group}
    steps.append(Step(f"tie at {group[0].velocity.mph} mph: " + ", ".join(
        f"{m.name} rolls {rolls[m.name]}" for m in group), RULE))
    ordered: list[Mover] = []
    for value in sorted(set(rolls.values()), reverse=True):
        ordered += _roll_order(tuple(m for m in group if rolls[m.name] == value), dice, steps)
    return ordered


def _phase_lines(order: list[Mover]) -> list[Step]:
    lines: list[Step] = []
    phases = schedule(order)
    for number, movers in enumerate(phases, start=1):
        names = ", ".join(f"{m.name} ({m.velocity})" for m in movers)
        lines.append(Step(f"phase {number}: {names or 'nobody moves'}", RULE))
    return lines


def _resolve(values: Values, dice: DiceSource) -> Result:
    movers = parse_movers(values["speeds"])
    steps: list[Step] = []
    order: list[Mover] = []
    for group in tie_groups(movers):
        if values["roll_ties"]:
            order += _roll_order(group, dice, steps)
        else:
            order += list(group)
            if len(group) > 1:
                steps.append(Step(f"tie at {group[0].velocity.mph} mph: in the order given "
                                  "(roll for it when it matters)", RULE))
    stopped = [m.name for m in movers if m.velocity.mph == 0]
    steps.insert(0, Step("move order (fastest first): " + ", ".join(
        f"{m.name} ({m.velocity}, phases {_span(m)})" for m in order)
        + (f"; not moving: {', '.join(stopped)}" if stopped else ""), RULE))
    steps += _phase_lines(order)
    return Result(outcome="order: " + ", ".join(m.name for m in order), steps=steps,
                  values={"order": tuple(m.name for m in order),
                          "phases": tuple(tuple(m.name for m in movers)
                                          for movers in schedule(order)),
                          "speeds": {m.name: m.velocity.mph for m in movers},
                          "spans": {m.name: _span_values(m) for m in order},
                          "phase_items": [{"phase": number, "movers": [m.name for m in group]}
                                          for number, group in enumerate(schedule(order),
                                                                         start=1)]},
                  label=_order_label(values, movers, order))


def _order_label(values: Values, movers: Sequence[Mover], order: list[Mover]) -> str:
    """The odds outcome of this order: the whole order, or who of the first tie leads."""
    groups = [g for g in tie_groups(movers) if len(g) > 1]
    if values["roll_ties"] and groups and \
            prod(factorial(len(g)) for g in groups) > MAX_LISTED_ORDERS:
        leader = next(m for m in order if m in groups[0])
        return f"{leader.name} first at {leader.velocity.mph} mph"
    return ", ".join(m.name for m in order)


def _span_values(mover: Mover) -> dict[str, int]:
    """The first and last phase a mover moves in (``phases 1–4``)."""
    phases = move_phases(mover.velocity.mph)
    return {"first": min(phases), "last": max(phases)} if phases else {}


def _span(mover: Mover) -> str:
    phases = move_phases(mover.velocity.mph)
    return f"{phases[0]}–{phases[-1]}" if len(phases) > 1 else str(phases[0])


def _odds(values: Values) -> Odds:
    movers = parse_movers(values["speeds"])
    groups = [g for g in tie_groups(movers) if len(g) > 1]
    if not values["roll_ties"] or not groups:
        order = [m for g in tie_groups(movers) for m in g]
        return Odds(outcomes=(Outcome(", ".join(m.name for m in order), Fraction(1)),),
                    summary="the order is fixed by speed" + (
                        " (ties in the order given)" if groups else ""))
    count = prod(factorial(len(g)) for g in groups)
    if count > MAX_LISTED_ORDERS:
        first = groups[0]
        return Odds(outcomes=tuple(Outcome(f"{m.name} first at {m.velocity.mph} mph",
                                           Fraction(1, len(first))) for m in first),
                    summary=f"{count} equally likely orders")
    outcomes = []
    for choice in product(*(permutations(g) for g in groups)):
        arranged = {g[0].velocity.mph: list(p) for g, p in zip(groups, choice, strict=True)}
        order = [m for g in tie_groups(movers)
                 for m in arranged.get(g[0].velocity.mph, list(g))]
        outcomes.append(Outcome(", ".join(m.name for m in order), Fraction(1, count)))
    return Odds(outcomes=tuple(outcomes), summary=f"{count} equally likely orders")


def _dice(values: Values) -> list[DiceNeed]:
    if not values["roll_ties"]:
        return []
    return [DiceNeed(f"tie order at {g[0].velocity.mph} mph", len(g), 6,
                     "one per tied vehicle; equal dice roll again", repeat=True)
            for g in tie_groups(parse_movers(values["speeds"])) if len(g) > 1]


SCHEDULE = Procedure(
    id="mini.schedule",
    title="Movement schedule (who moves in each phase)",
    ruleset=RULESET,
    rule=RULE,
    summary="For any set of speeds: the phases 1–10 in which each vehicle moves, fastest first.",
    inputs=(
        TextInput("speeds", "Speeds", "A=40, B=60",
                  help="name=speed pairs, comma-separated; 20R for reverse",
                  validate=parse_movers),
        BoolInput("roll_ties", "Roll for ties", False,
                  help="vehicles at equal speed roll 1d6 for order when it matters"),
    ),
    resolve_fn=_resolve,
    odds_fn=_odds,
    dice_fn=_dice,
)

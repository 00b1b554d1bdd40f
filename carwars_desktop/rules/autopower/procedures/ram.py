"""autopower.ram: ramming with Strength cards; both cars take the damage (variant).

AUTOpower §2.9, §2.12; AP-D9, AP-D11, AP-D13, AP-D19, AP-D20, AP-D22, AP-D25,
AP-D27, AP-D28, AP-D29.
"""

from __future__ import annotations

from carwars_desktop.dice import DiceSource
from carwars_desktop.procedures import (
    DiceNeed,
    Odds,
    Procedure,
    Result,
    Values,
    plan_of,
)
from carwars_desktop.rules.autopower.damage import is_killed
from carwars_desktop.rules.autopower.procedures.common import (
    AP_D13,
    AP_D25,
    AP_D27,
    CONTROL_ROLLS,
    IQ_CARDS_IN_USE,
    RAMMING,
    RULESET,
    attack_odds,
    car_input,
    cards,
    cards_input,
    change,
    options_of,
    planned,
)
from carwars_desktop.rules.autopower.ram import RamPlan, plan_ram, resolve_ram
from carwars_desktop.rules.autopower.sheet import CarSheet
from carwars_desktop.rules.autopower.tables import DICE_COUNT, DICE_SIDES, rule


def _plan(values: Values) -> RamPlan:
    return plan_ram(values["rammer"], values["target"], cards(values, "cards"),
                    cards(values, "iq_cards"), cards(values, "defender_iq_cards"),
                    options_of(values), values["control_rolls"])


def _state(sheet: CarSheet) -> str:
    return (f"{sheet.name}: damage {sheet.total_damage} vs Armor {sheet.armor}"
            + (" — killed" if sheet.killed else ""))


def _resolve(values: Values, dice: DiceSource) -> Result:
    plan = plan_of(values, _plan)
    result = resolve_ram(plan, dice)
    attacker, target = result.attacker, result.target
    if result.hit:
        dead = [s.name for s in (target, attacker) if s.killed]
        outcome = (f"the ram hits: {plan.damage} damage to both cars"
                   + (f"; killed: {', '.join(dead)}" if dead else ""))
        effects = [change("rammer", attacker, _state(attacker)),
                   change("target", target, _state(target))]
    else:
        outcome = "miss"
        effects = [change("rammer", attacker, f"{attacker.name}: attack made")]
        if plan.defender_iq_cards:
            effects.append(change("target", target, f"{target.name}: IQ cards spent"))
    return Result(outcome=outcome, steps=result.steps, success=result.hit, effects=effects,
                  values={"to_hit": plan.to_hit, "damage": plan.damage, "hit": result.hit,
                          "natural": result.natural, "attacker_killed": attacker.killed,
                          "target_killed": target.killed,
                          "control_targets": dict(result.control_targets),
                          "base_to_hit": plan.base,
                          "modifiers": [m.to_json() for m in plan.modifiers],
                          "running_to_hit": plan.running_to_hit(),
                          "damage_before": {s.name: s.total_damage
                                            for s in (plan.attacker, plan.target)},
                          "armor": {s.name: s.armor for s in (plan.attacker, plan.target)}},
                  label=_hit_label(plan) if result.hit else "miss")


def _hit_label(plan: RamPlan) -> str:
    dead = [s.name for s in (plan.target, plan.attacker)
            if is_killed(s.total_damage + plan.damage, s.armor)]
    what = f"hit: {plan.damage} damage to both cars"
    return what + (f", kills {' and '.join(dead)}" if dead else "")


def _odds(values: Values) -> Odds:
    plan = plan_of(values, _plan)
    return attack_odds(plan, "Strength", "2.9", _hit_label(plan), f"ram on {plan.target.name}",
                       ("damage to each car", plan.damage))


def _dice(values: Values) -> list[DiceNeed]:
    return [DiceNeed("ram", DICE_COUNT, DICE_SIDES)]


RAM = Procedure(
    id="autopower.ram",
    aliases={"attacker": "rammer"},
    title="Ram (Strength cards, both cars damaged)",
    ruleset=RULESET,
    rule=rule("2.9"),
    summary="Strength cards C from the hand; to-hit C + target Speed − own Speed − own S − own "
            "IQ cards + defender's IQ cards; a hit does C to both cars, no cap.",
    inputs=(
        car_input("rammer", "Rammer"),
        car_input("target", "Rammed car"),
        cards_input("cards", "Strength cards played", "from the hand, such as 5, 7 (AP-D20)"),
        cards_input("iq_cards", "Rammer's IQ cards", "each lowers the to-hit"),
        cards_input("defender_iq_cards", "Rammed car's IQ cards", "each raises the to-hit "
                                                                   "(AP-D13)"),
        CONTROL_ROLLS,
        IQ_CARDS_IN_USE,
        AP_D13,
        AP_D25,
        AP_D27,
    ),
    resolve_fn=_resolve,
    odds_fn=_odds,
    dice_fn=_dice,
    plan_fn=planned(_plan),
    requires=(RAMMING,),
)

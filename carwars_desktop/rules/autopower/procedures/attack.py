"""autopower.attack and autopower.laser: the standard attack and the laser variant.

AUTOpower §2.6 (to-hit, damage, kill check), §2.7, §2.10; AP-D9, AP-D10,
AP-D11, AP-D14, AP-D22, AP-D27, AP-D28, AP-D29.
"""

from __future__ import annotations

from carwars_desktop.dice import DiceSource
from carwars_desktop.procedures import (
    DiceNeed,
    Input,
    Odds,
    Procedure,
    Result,
    Values,
    plan_of,
)
from carwars_desktop.rules.autopower.combat import (
    AttackPlan,
    plan_attack,
    resolve_attack,
)
from carwars_desktop.rules.autopower.control import control_target
from carwars_desktop.rules.autopower.damage import is_killed
from carwars_desktop.rules.autopower.procedures.common import (
    AP_D9,
    AP_D10,
    AP_D14,
    AP_D27,
    CONTROL_ROLLS,
    IQ_CARDS_IN_USE,
    LASERS,
    RULESET,
    attack_odds,
    car_input,
    cards,
    cards_input,
    change,
    options_of,
    planned,
)
from carwars_desktop.rules.autopower.tables import DAMAGE_CAP_FACTOR, DICE_COUNT, DICE_SIDES, rule


def _plan(values: Values, laser: bool) -> AttackPlan:
    return plan_attack(values["firer"], values["target"], cards(values, "cards"),
                       cards(values, "iq_cards"), cards(values, "defender_iq_cards"),
                       options_of(values), laser, values["control_rolls"])


def _hit_label(plan: AttackPlan) -> str:
    target = plan.target
    if is_killed(target.total_damage + plan.damage, target.armor):
        return f"hit: {plan.damage} damage kills {target.name}"
    return f"hit: {plan.damage} damage to {target.name}"


def _resolve(values: Values, dice: DiceSource, laser: bool) -> Result:
    plan = plan_of(values, lambda v: _plan(v, laser))
    result = resolve_attack(plan, dice)
    target = result.target
    effects = [change("firer", result.attacker,
                      f"{result.attacker.name}: hand {result.attacker.hand_size}, attack made")]
    if result.hit:
        outcome = (f"hit: {plan.damage} damage to {target.name}"
                   + (f", {target.name} killed" if target.killed else ""))
        effects.append(change("target", target, f"{target.name}: damage {target.total_damage} "
                              f"vs Armor {target.armor}" + (" — killed" if target.killed else "")))
    else:
        outcome = "miss"
        if plan.defender_iq_cards:
            effects.append(change("target", target, f"{target.name}: IQ cards spent"))
    goal = None
    if result.hit and plan.control_rolls and not target.killed:
        goal = control_target(plan.damage, target.energy_in_play, target.car.iq)
    return Result(outcome=outcome, steps=result.steps, success=result.hit, effects=effects,
                  values={"to_hit": plan.to_hit, "damage": plan.damage, "hit": result.hit,
                          "natural": result.natural, "killed": target.killed,
                          "control_target": goal, "base_to_hit": plan.base,
                          "modifiers": [m.to_json() for m in plan.modifiers],
                          "running_to_hit": plan.running_to_hit(),
                          "card_total": sum(plan.cards),
                          "damage_cap": DAMAGE_CAP_FACTOR * plan.attacker.car.fighting})


def _odds(values: Values, laser: bool) -> Odds:
    plan = plan_of(values, lambda v: _plan(v, laser))
    return attack_odds(plan, plan.ammunition, plan.section, _hit_label(plan),
                       f"to hit {plan.target.name}", ("damage", plan.damage))


def _dice(values: Values) -> list[DiceNeed]:
    return [DiceNeed("to hit", DICE_COUNT, DICE_SIDES)]


def _procedure(laser: bool) -> Procedure:
    ammunition = "Energy" if laser else "Fighting"
    inputs: list[Input] = [
        car_input("firer", "Attacker"),
        car_input("target", "Target"),
        cards_input("cards", f"{ammunition} cards played",
                    f"the {ammunition} cards from the hand, such as 3, 6"),
        cards_input("iq_cards", "Attacker's IQ cards", "each lowers the to-hit by its value"),
        cards_input("defender_iq_cards", "Defender's IQ cards (AP-D10)",
                    "only with AP-D10 switched on; each raises the to-hit"),
        CONTROL_ROLLS,
        IQ_CARDS_IN_USE,
        AP_D9,
        AP_D10,
        AP_D27,
    ]
    if laser:
        inputs.append(AP_D14)
    return Procedure(
        id="autopower.laser" if laser else "autopower.attack",
        aliases={"attacker": "firer"},
        title=("Laser attack (Energy cards instead of Fighting)" if laser
               else "Attack with Fighting cards (to hit, damage, kill)"),
        ruleset=RULESET,
        rule=rule("2.10" if laser else "2.6"),
        summary=(f"{ammunition} cards C: damage min(C, 2F); to-hit C − I + target Speed − IQ "
                 "cards; 2d6 ≥ to-hit, a natural 2 misses; killed when damage > Armor."),
        inputs=tuple(inputs),
        resolve_fn=lambda values, dice: _resolve(values, dice, laser),
        odds_fn=lambda values: _odds(values, laser),
        dice_fn=_dice,
        plan_fn=planned(lambda values: _plan(values, laser)),
        requires=(LASERS,) if laser else (),
    )


ATTACK = _procedure(laser=False)
LASER = _procedure(laser=True)

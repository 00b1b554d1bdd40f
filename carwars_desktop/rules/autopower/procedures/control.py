"""autopower.control: the control roll after damage (variant).

AUTOpower §2.8 ("Variant: Control rolls"): offered only with the Control Rolls variant on
(§2.1 step 4), as the ram (§2.9) and the laser (§2.10) are; AP-D12 (the penalty lasts the
car's next own turn), AP-D15, AP-D22, AP-D25.
"""

from __future__ import annotations

from carwars_desktop.dice import DiceSource
from carwars_desktop.procedures import (
    Chart,
    DiceNeed,
    IntInput,
    Modifier,
    Odds,
    Outcome,
    Procedure,
    Result,
    Values,
    plan_of,
)
from carwars_desktop.rules.autopower.cards import cards_text
from carwars_desktop.rules.autopower.control import (
    ControlPlan,
    control_outcomes,
    p_keep_control,
    plan_control,
    resolve_control,
)
from carwars_desktop.rules.autopower.odds import chance
from carwars_desktop.rules.autopower.procedures.common import (
    AP_D15,
    CONTROL_ROLLS_ON,
    IQ_CARDS_IN_USE,
    RULESET,
    car_input,
    cards,
    cards_input,
    change,
    options_of,
    planned,
)
from carwars_desktop.rules.autopower.tables import (
    DICE_COUNT,
    DICE_SIDES,
    ControlPenalty,
    rule,
    two_dice,
)


def _plan(values: Values) -> ControlPlan:
    return plan_control(values["vehicle"], values["damage"], cards(values, "iq_cards"),
                        options_of(values))


def _penalty_value(penalty: ControlPenalty) -> int | str:
    """A penalty as ``values`` give it: what it does to the attacks (0, -3, -6), or
    ``"no_attack"`` (no attack and no push next turn)."""
    return "no_attack" if penalty is ControlPenalty.NO_ATTACK else -penalty.to_hit


def _resolve(values: Values, dice: DiceSource) -> Result:
    plan = plan_of(values, _plan)
    taken = len(dice.used)
    sheet, steps, penalty = resolve_control(plan, dice)
    kept = penalty is ControlPenalty.NONE
    natural = sum(d.value for d in dice.used[taken:]) if not plan.automatic else None
    return Result(outcome=f"{sheet.name}: {penalty.next_turn_label}", steps=steps, success=kept,
                  effects=[change("vehicle", sheet, f"{sheet.name}: next turn "
                                                f"{sheet.next_turn_penalty.label}")],
                  values={"target": plan.target, "penalty": _penalty_value(penalty),
                          "next_turn_penalty": _penalty_value(sheet.next_turn_penalty),
                          "damage": plan.damage, "energy_in_play": sum(plan.sheet.energy_in_play),
                          "iq": plan.sheet.car.iq, "iq_bonus": plan.iq_total,
                          "natural": natural,
                          "total": None if natural is None else natural + plan.iq_total,
                          "shortfall": None if natural is None else
                          max(0, plan.shortfall(natural)),
                          "p_keep_control": p_keep_control(plan)},
                  label=penalty.next_turn_label)


def _odds(values: Values) -> Odds:
    plan = plan_of(values, _plan)
    car = plan.sheet.car
    energy = plan.sheet.energy_in_play
    modifiers = [Modifier("damage taken", plan.damage, rule("2.8")),
                 Modifier(f"Energy cards in play {cards_text(energy)}", sum(energy), rule("2.8")),
                 Modifier(f"{car.name} Intelligence", -car.iq, rule("2.8"))]
    outcomes = tuple(Outcome(penalty.next_turn_label, p) for penalty, p in control_outcomes(plan))
    if plan.automatic:
        return Odds(outcomes, f"control target {plan.target} ≤ 2: kept without a roll",
                    tuple(modifiers), need=plan.target)
    need = plan.target - plan.iq_total
    success = frozenset(v for v in two_dice().values() if plan.penalty(v) is ControlPenalty.NONE)
    with_iq = f" (target {plan.target} − IQ {plan.iq_total})" if plan.iq_cards else ""
    summary = f"need {need}+{with_iq} · {chance(p_keep_control(plan))} to keep control"
    return Odds(outcomes, summary, tuple(modifiers), need=need,
                chart=Chart(f"control roll for {car.name}", two_dice(), success, "2d6 roll"))


def _dice(values: Values) -> list[DiceNeed]:
    plan = plan_of(values, _plan)
    return [] if plan.automatic else [DiceNeed("control", DICE_COUNT, DICE_SIDES)]


CONTROL = Procedure(
    id="autopower.control",
    aliases={"car": "vehicle"},
    title="Control roll after damage (−3 / −6 / no attack)",
    ruleset=RULESET,
    rule=rule("2.8"),
    summary="Target = damage + Energy cards in play − I; 2d6 + IQ cards; short by 1–3: −3, "
            "4–6: −6, 7+: no attack and no push, on the car's next turn.",
    inputs=(
        car_input("vehicle", "Car that took damage"),
        IntInput("damage", "Damage just taken", None, 0, 999,
                 help="the damage of the hit (both cars use the ram's total after a ram)"),
        cards_input("iq_cards", "IQ cards played before the roll", "each adds its value"),
        IQ_CARDS_IN_USE,
        AP_D15,
    ),
    requires=(CONTROL_ROLLS_ON,),
    resolve_fn=_resolve,
    odds_fn=_odds,
    dice_fn=_dice,
    plan_fn=planned(_plan),
)

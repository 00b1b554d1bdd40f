"""autopower.accelerate and autopower.push: speed, Energy cards, pushing the engine.

AUTOpower §2.4 (and §2.2 step 3 for the opening plays), §3.1; AP-D5, AP-D6,
AP-D7, AP-D12 (no push after a bad control failure), AP-D17.
"""

from __future__ import annotations

from fractions import Fraction

from carwars_desktop.dice import DiceSource
from carwars_desktop.procedures import (
    BoolInput,
    DiceNeed,
    IntInput,
    Modifier,
    Odds,
    Outcome,
    Procedure,
    Result,
    TextInput,
    Values,
    plan_of,
)
from carwars_desktop.rules.autopower.cards import cards_text, parse_card_values
from carwars_desktop.rules.autopower.odds import at_least_chart, chance, p_at_least
from carwars_desktop.rules.autopower.procedures.common import (
    AP_D7,
    AP_D17,
    RULESET,
    car_input,
    cards,
    change,
    options_of,
    planned,
)
from carwars_desktop.rules.autopower.sheet import CarSheet
from carwars_desktop.rules.autopower.speed import (
    SpeedPlan,
    plan_speed,
    resolve_speed,
    rolled_stages,
    speed_outcomes,
)
from carwars_desktop.rules.autopower.tables import (
    DICE_COUNT,
    DICE_SIDES,
    SAFE_SPEED_FACTOR,
    SURCHARGE_SPEED_FACTOR,
    rule,
)


def _discard_text(text: str) -> object:
    return () if text.strip().lower() == "all" else parse_card_values(text)


def _plan(values: Values) -> SpeedPlan:
    sheet: CarSheet = values["vehicle"]
    options = options_of(values)
    if "play" not in values:  # autopower.push: the cards stay as they are
        return plan_speed(sheet, options=options)
    discard_text: str = values["discard"]
    discard_all = discard_text.strip().lower() == "all"
    return plan_speed(sheet, () if discard_all else cards(values, "discard"),
                      cards(values, "play"), values["speed"], options,
                      values["opening"], discard_all)


def _resolve(values: Values, dice: DiceSource) -> Result:
    plan = plan_of(values, _plan)
    taken = len(dice.used)
    sheet, steps, held = resolve_speed(plan, dice, options_of(values).ap_d7_discard)
    faces = [d.value for d in dice.used[taken:]]
    if held is None:
        how = "holds without a roll" if sheet.pushing else "safe"
    else:
        how = "the push holds" if held else "the push failed"
    outcome = f"{sheet.name}: {how}, rawSpeed {sheet.raw_speed}, Speed {sheet.speed}"
    energy = cards_text(sheet.energy_in_play)
    return Result(outcome=outcome, steps=steps, success=held,
                  effects=[change("vehicle", sheet, f"{sheet.name}: Energy in play {energy}, "
                                                f"Speed {sheet.speed}")],
                  values={"raw_speed": sheet.raw_speed, "speed": sheet.speed,
                          "pushing": sheet.pushing, "push_held": held,
                          "energy_in_play": sheet.energy_in_play,
                          "stages": _stages(plan, faces), "energy": sheet.car.energy,
                          "safe_limit": SAFE_SPEED_FACTOR * sheet.car.energy,
                          "surcharge_limit": SURCHARGE_SPEED_FACTOR * sheet.car.energy,
                          "safe_factor": SAFE_SPEED_FACTOR,
                          "surcharge_factor": SURCHARGE_SPEED_FACTOR},
                  label=next((o.label for o in speed_outcomes(plan)
                              if o.sheet.raw_speed == sheet.raw_speed), outcome))


def _stages(plan: SpeedPlan, faces: list[int]) -> list[dict[str, object]]:
    """Each push stage reached, in order: its cards, rawSpeed, target, natural 2d6 and result.

    A stage whose target is 13 or more fails without a roll (§2.4 step 5, §3.1): it is
    listed with ``natural`` ``null`` and ``result`` ``"auto_failed"``; a rolled stage's
    result is ``"held"`` or ``"failed"``. The safe speed the chain falls back to is not a
    stage (it is the state after the chain).
    """
    if not plan.rolls or len(plan.stages) == 1:
        return []
    naturals = iter(sum(faces[n:n + DICE_COUNT]) for n in range(0, len(faces), DICE_COUNT))
    reached: list[dict[str, object]] = []
    for stage in plan.stages:
        if stage.target is None:
            break
        natural = next(naturals, None) if stage.can_succeed else None
        if stage.can_succeed and natural is None:
            break  # not reached: an earlier push held
        if not stage.can_succeed:
            result = "auto_failed"
        else:
            assert natural is not None
            result = "held" if natural >= stage.target else "failed"
        reached.append({"energy_in_play": list(stage.energy_in_play),
                        "raw_speed": stage.raw_speed, "target": stage.target,
                        "natural": natural, "result": result})
        if result == "held":
            break
    return reached


def _odds(values: Values) -> Odds:
    plan = plan_of(values, _plan)
    outcomes = speed_outcomes(plan)
    sheet = plan.sheet
    modifiers = [Modifier(f"E{sheet.car.energy}", sheet.car.energy, rule("2.4"))]
    if sheet.energy_in_play:
        modifiers.append(Modifier(f"Energy cards {cards_text(sheet.energy_in_play)}",
                                  sum(sheet.energy_in_play), rule("2.4", "AP-D5")))
    expected = sum((o.probability * o.sheet.speed for o in outcomes), Fraction(0))
    rolled = rolled_stages(plan)
    first = plan.stages[0]
    if not rolled:
        if plan.rolls and first.target is not None:
            summary = (f"push at {first.raw_speed} needs {first.target}+: cannot succeed → "
                       f"{outcomes[-1].label}")
        else:
            summary = f"{outcomes[0].label}: no roll"
        return Odds(tuple(Outcome(o.label, o.probability) for o in outcomes), summary,
                    tuple(modifiers), expected=(("Speed", expected),))
    stage = rolled[0]
    assert stage.target is not None
    summary = (f"push at {stage.raw_speed}: need {stage.target}+ · "
               f"{chance(p_at_least(stage.target))}")
    return Odds(tuple(Outcome(o.label, o.probability) for o in outcomes), summary,
                tuple(modifiers), need=stage.target,
                chart=at_least_chart(f"push at {stage.raw_speed}", stage.target),
                expected=(("Speed", expected),))


def _dice(values: Values) -> list[DiceNeed]:
    needs: list[DiceNeed] = []
    previous: int | None = None
    for stage in rolled_stages(plan_of(values, _plan)):
        when = "" if previous is None else f"if the push at {previous} fails"
        needs.append(DiceNeed(f"push at {stage.raw_speed} (need {stage.target}+)",
                              DICE_COUNT, DICE_SIDES, when))
        previous = stage.raw_speed
    return needs


CAR = car_input("vehicle", "Car")

ACCELERATE = Procedure(
    id="autopower.accelerate",
    aliases={"car": "vehicle", "declared_speed": "speed"},
    title="Accelerate (speed, Energy cards, push the engine)",
    ruleset=RULESET,
    rule=rule("2.4"),
    summary="Discard and play Energy cards or declare a speed up to E; above 2E push the "
            "engine: 2d6 ≥ speed (+2 above 3E), losing a card per failure.",
    inputs=(
        CAR,
        TextInput("discard", "Energy cards in play to discard", "",
                  help="values such as 1, 2; or all", validate=_discard_text),
        TextInput("play", "Energy cards played from the hand", "",
                  help="values such as 5", validate=parse_card_values),
        IntInput("speed", "Declared speed (no Energy card in play)", None, 0, 99,
                 optional=True, help="0 to E; empty keeps the declared speed"),
        BoolInput("opening", "Opening plays at setup (§2.2 step 3)", False),
        AP_D7,
        AP_D17,
    ),
    resolve_fn=_resolve,
    odds_fn=_odds,
    dice_fn=_dice,
    plan_fn=planned(_plan),
)

PUSH = Procedure(
    id="autopower.push",
    aliases={"car": "vehicle"},
    title="Push the engine (roll again while over twice Energy)",
    ruleset=RULESET,
    rule=rule("2.4"),
    summary="The car keeps its cards: while rawSpeed > 2E it rolls 2d6 ≥ speed (+2 above 3E) "
            "each turn, losing an Energy card per failure.",
    inputs=(CAR, AP_D7),
    resolve_fn=_resolve,
    odds_fn=_odds,
    dice_fn=_dice,
    plan_fn=planned(_plan),
)

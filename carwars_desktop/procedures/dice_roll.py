"""The generic dice roll: any expression, optionally against a target number."""

from __future__ import annotations

from fractions import Fraction

from carwars_desktop.dice import DiceSource, parse
from carwars_desktop.procedures.citation import Citation
from carwars_desktop.procedures.framework import (
    Chart,
    DiceNeed,
    Odds,
    Outcome,
    Procedure,
    Result,
    Step,
    Values,
    odds_text,
)
from carwars_desktop.procedures.inputs import BoolInput, IntInput, TextInput

RULE = Citation("Dice", "(all rulesets)")


def _auto_miss(values: Values) -> frozenset[int]:
    expression = parse(values["expression"])
    two_d6 = len(expression.groups) == 1 and expression.groups[0].count == 2 \
        and expression.groups[0].sides == 6 and expression.groups[0].sign > 0
    return frozenset({2}) if values["natural_two_misses"] and two_d6 else frozenset()


def _resolve(values: Values, dice: DiceSource) -> Result:
    expression = parse(values["expression"])
    thrown: list[int] = []
    for group in expression.groups:
        thrown += dice.roll(group.sides, group.count, str(expression))
    natural = expression.natural(tuple(thrown))
    total = natural + expression.modifier
    shown = " ".join(str(v) for v in thrown)
    steps = [Step(f"{expression}: dice {shown} → natural {natural}"
                  + (f", {expression.modifier:+d} → {total}" if expression.modifier else ""), RULE)]
    target = values["target"]
    success: bool | None = None
    outcome = f"{total}"
    if target is not None:
        if natural in _auto_miss(values):
            success = False
            steps.append(Step("natural 2 always misses", RULE))
        else:
            success = total >= target
            steps.append(Step(f"{total} {'≥' if success else '<'} {target}", RULE))
        outcome = f"{total}: {'success' if success else 'failure'} (needed {target}+)"
    return Result(outcome=outcome, steps=steps, success=success,
                  values={"total": total, "natural": natural, "dice": tuple(thrown),
                          "modifier": expression.modifier, "target": target},
                  label=outcome if success is None else "success" if success else "failure")


def _odds(values: Values) -> Odds:
    expression = parse(values["expression"])
    distribution = expression.distribution()
    target = values["target"]
    if target is None:
        mean = distribution.mean()
        return Odds(outcomes=tuple(Outcome(str(v), p)
                                   for v, p in distribution.probabilities().items()),
                    summary=f"{expression}: {distribution.minimum}–{distribution.maximum}, "
                            f"mean {float(mean):.2f}",
                    chart=Chart(str(expression), distribution),
                    expected=(("total", mean),))
    auto_miss = _auto_miss(values)
    p = expression.p_success(target, auto_miss)
    success_values = frozenset(v for v in distribution.values() if v >= target
                               and not (auto_miss and v - expression.modifier in auto_miss))
    return Odds(outcomes=(Outcome("success", p), Outcome("failure", Fraction(1) - p)),
                summary=f"need {target}+ · {odds_text(p)}",
                need=target,
                chart=Chart(str(expression), distribution, success_values),
                expected=(("total", distribution.mean()),))


def _dice(values: Values) -> list[DiceNeed]:
    expression = parse(values["expression"])
    return [DiceNeed(str(expression), g.count, g.sides) for g in expression.groups]


DICE_ROLL = Procedure(
    id="dice.roll",
    title="Dice roll",
    ruleset="generic",
    rule=RULE,
    summary="Any dice expression (2d6, 1d8+3, 3d6-2), optionally against a target number.",
    inputs=(
        TextInput("expression", "Dice", "2d6", help="e.g. 2d6, 1d8+3, 2d8-4", validate=parse),
        IntInput("target", "Target (≥)", None, -1000, 1000, optional=True,
                 help="succeeds when the total is at least this"),
        BoolInput("natural_two_misses", "Natural 2 always misses", False,
                  help="for 2d6 rolls: a natural 2 fails whatever the modifiers"),
    ),
    resolve_fn=_resolve,
    odds_fn=_odds,
    dice_fn=_dice,
)

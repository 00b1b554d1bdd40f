"""mini.hazard — optional road hazards: debris sections and leaving the road (§2.14).

"new section": roll 1d6 when a road section is placed; a 6 makes it
debris-littered. "debris": a control roll for a vehicle running over debris
(MCW-D25: once per movement phase). "off-road": a control roll for each
movement phase spent partly or wholly off the road.
"""

from __future__ import annotations

from fractions import Fraction

from carwars_desktop.dice import DiceSource, die
from carwars_desktop.procedures import (
    Chart,
    ChoiceInput,
    DiceNeed,
    InputError,
    Odds,
    Outcome,
    Procedure,
    Refusal,
    Result,
    RulesRefusal,
    Step,
    Values,
)
from carwars_desktop.rules.mini_car_wars.cite import mcw
from carwars_desktop.rules.mini_car_wars.procedures.common import (
    D2,
    D3,
    DEBRIS,
    OFF_ROAD,
    RULESET,
    get_optional_sheet,
    sheet_input,
)
from carwars_desktop.rules.mini_car_wars.procedures.control import (
    CONTROL_DICE,
    control_odds,
    control_result,
)
from carwars_desktop.rules.mini_car_wars.tables import DEBRIS_SECTION_ON

RULE = mcw("§2.14")
NEW_SECTION = "new section"
HAZARDS = (NEW_SECTION, "debris", "off-road")
_WHY = {"debris": "ran over debris (MCW-D25: once this phase)",
        "off-road": "off the road this phase (§2.14)"}


def _check(values: Values) -> None:
    hazard = values["hazard"]
    if hazard in (NEW_SECTION, "debris") and not values[DEBRIS.name]:
        raise RulesRefusal(Refusal("debris sections are not in use in this session "
                                   "(house rules: MCW-debris off)", RULE))
    if hazard == "off-road" and not values[OFF_ROAD.name]:
        raise RulesRefusal(Refusal("off-road control rolls are not in use in this session "
                                   "(house rules: MCW-off-road off)", RULE))
    if values["hazard"] != NEW_SECTION and values["vehicle"] is None:
        raise InputError(f"vehicle: a {values['hazard']} control roll needs the vehicle")


def _resolve(values: Values, dice: DiceSource) -> Result:
    hazard = values["hazard"]
    if hazard == NEW_SECTION:
        roll = dice.roll(6, 1, "debris section")[0]
        debris = roll in DEBRIS_SECTION_ON
        kind = "debris-littered" if debris else "clear"
        return Result(outcome=f"{roll}: {kind} road section",
                      steps=[Step(f"new road section: rolled {roll} → {kind} (debris on a 6)",
                                  RULE)],
                      success=debris, values={"roll": roll, "debris": debris,
                                                     "debris_on": sorted(DEBRIS_SECTION_ON)},
                      label=kind)
    sheet = get_optional_sheet(values, "vehicle")
    assert sheet is not None
    return control_result(sheet, dice, _WHY[hazard], values)


def _odds(values: Values) -> Odds:
    if values["hazard"] == NEW_SECTION:
        p = Fraction(len(DEBRIS_SECTION_ON), 6)
        return Odds(outcomes=(Outcome("debris-littered", p), Outcome("clear", 1 - p)),
                    summary="debris on a 6 · 1/6 · 16.7%",
                    chart=Chart("debris roll (1d6)", die(6), DEBRIS_SECTION_ON))
    sheet = get_optional_sheet(values, "vehicle")
    assert sheet is not None
    return control_odds(sheet)


def _dice(values: Values) -> list[DiceNeed]:
    if values["hazard"] == NEW_SECTION:
        return [DiceNeed("debris section", 1, 6)]
    return CONTROL_DICE


HAZARD = Procedure(
    id="mini.hazard",
    title="Road hazards (debris section, debris, off-road control roll)",
    ruleset=RULESET,
    rule=RULE,
    summary="Optional rules: a new road section is debris-littered on a 6; running over debris "
            "or a phase off the road needs a control roll.",
    inputs=(
        ChoiceInput("hazard", "Hazard", HAZARDS, NEW_SECTION),
        sheet_input("vehicle", "Vehicle", optional=True, help="for debris and off-road rolls"),
        D2, D3, DEBRIS, OFF_ROAD,
    ),
    resolve_fn=_resolve,
    odds_fn=_odds,
    dice_fn=_dice,
    check_fn=_check,
)

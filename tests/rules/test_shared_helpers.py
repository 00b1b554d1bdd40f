"""The helpers the rulesets share: decisions declared by a maker, a clock event applied to
every vehicle, and a ruleset's play rules loaded by module name."""

from __future__ import annotations

import pytest

from carwars_desktop.rules import all_rulesets
from carwars_desktop.rules.builtin import BATTLECARS
from carwars_desktop.rules.kernel.decisions import Decision, DecisionMaker
from carwars_desktop.rules.mini_car_wars import stock_sheet
from carwars_desktop.rules.play import PlayRules, TurnError, VehicleChange, clock_step
from carwars_desktop.rules.ruleset import RecordSheet, play_from


def test_a_decision_maker_writes_the_id_input_and_rule_of_its_ruleset() -> None:
    house = DecisionMaker("XX-D", "Rules §5", input_prefix="xx_")
    assert house(7, "d7_flag", "XX-D7: a flag", "off: not") == Decision(
        "XX-D7", "d7_flag", "XX-D7: a flag", "off: not", (True, False), "xx_d7_flag", False,
        "Rules §5", None)
    named = house(8, "d8_count", "XX-D8", input_name="", choices=(None, 5),
                  words={None: "any"})
    assert (named.id, named.input_name, named.choices, named.text(None)) == (
        "XX-D8", "", (None, 5), "any")
    assert DecisionMaker("XX-", "Rules §2", pregame=True)("setup", "f", "F").pregame


def test_a_clock_step_takes_every_change_in_order_and_skips_none() -> None:
    sheets = {key: stock_sheet("Courier (b)") for key in ("a", "b", "c")}

    def change(key: str) -> VehicleChange:
        return None if key == "b" else (sheets[key], f"{key} moved")

    step = clock_step(("c", "b", "a"), change)
    assert (list(step.sheets), step.steps) == (["c", "a"], ("c moved", "a moved"))


def test_a_clock_step_with_a_refusal_raises_every_reason_and_changes_nothing() -> None:
    sheet: RecordSheet = stock_sheet("Courier (b)")
    reasons = {"a": "a: too fast", "c": "c: too slow"}

    def change(key: str) -> VehicleChange:
        return reasons.get(key, (sheet, "moved"))

    with pytest.raises(TurnError) as raised:
        clock_step(("a", "b", "c"), change)
    assert raised.value.reasons == reasons


def test_each_ruleset_s_play_rules_load_from_its_play_module() -> None:
    for ruleset in all_rulesets():
        rules = ruleset.play()
        assert isinstance(rules, PlayRules)
        assert rules.ruleset_id == ruleset.id
    loaded = play_from("carwars_desktop.rules.battlecars.play")()
    assert loaded.ruleset_id == BATTLECARS.id

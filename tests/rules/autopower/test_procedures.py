"""Every procedure resolved with entered dice, its explanation and exact odds checked."""

import json
from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest

from carwars_desktop.dice import EnteredDice, NotEnoughDiceError
from carwars_desktop.procedures import InputError, Resolution
from carwars_desktop.rules.autopower import RULESET, Car, CarSheet, ControlPenalty, new_sheet
from carwars_desktop.rules.autopower import sheet_catalog as catalog

PROCEDURES = {p.id: p for p in RULESET.procedures}
VARIANTS_ON = {"AP-ramming": True, "AP-lasers": True}
"""House rules with the ram and laser variants switched on (off, neither is offered)."""
CONTROL_ON = {"AP-control-rolls": True}
"""The Control Rolls variant switched on (§2.8; off, autopower.control is not offered). Only
the control roll's own tests take it: with it on, attacks and rams chain a control roll."""


def run(procedure_id: str, dice: list[int], **values: Any) -> Resolution:
    house = CONTROL_ON if procedure_id == "autopower.control" else VARIANTS_ON
    resolution = PROCEDURES[procedure_id].resolve(values, EnteredDice(dice), house)
    assert len(resolution.dice) == len(dice), "every entered die is used"
    return resolution


def sheet_of(resolution: Resolution, name: str) -> CarSheet:
    sheets = {effect.input_name: effect.sheet for effect in resolution.effects}
    sheet = sheets[name]
    assert isinstance(sheet, CarSheet)
    return sheet


def car(name: str, e: int, f: int, s: int, i: int | None = None, **state: Any) -> CarSheet:
    return replace(new_sheet(Car(name, e, f, s, i)), **state)


# --- accelerate and push ----------------------------------------------------------
def test_push_chain_re_rolls_while_over_the_limit() -> None:
    racer = car("Racer", 2, 3, 3, energy_in_play=(3, 3, 2))
    values = {"vehicle": racer}
    procedure = PROCEDURES["autopower.push"]
    odds = procedure.odds(values)
    assert [(o.label, o.probability) for o in odds.outcomes] == [
        ("push holds at 10 (Speed 10)", Fraction(1, 36)),
        ("push holds at 8 (Speed 8)", Fraction(35, 216)),
        ("push holds at 5 (Speed 5)", Fraction(875, 1296)),
        ("falls back to 2 (Speed 2)", Fraction(175, 1296)),
    ]
    needs = procedure.dice_needed(values)
    assert [(n.purpose, n.when) for n in needs] == [
        ("push at 10 (need 12+)", ""), ("push at 8 (need 10+)", "if the push at 10 fails"),
        ("push at 5 (need 5+)", "if the push at 8 fails")]
    resolution = run("autopower.push", [5, 5, 4, 5, 1, 2], vehicle=racer)
    assert resolution.success is False
    final = sheet_of(resolution, "vehicle")
    assert final.energy_in_play == () and final.raw_speed == 2
    explained = resolution.explain()
    assert "push roll 5 + 5 = 10 < 12" in explained
    assert "discards Energy 2 (newest, AP-D7) → rawSpeed 8" in explained
    assert "8 > 3 × E2 = 6 → target 8 + 2 = 10" in explained
    assert "push roll 1 + 2 = 3 < 5" in explained


def test_push_holds_after_a_failure() -> None:
    racer = car("Racer", 2, 3, 3, energy_in_play=(3, 3, 2))
    resolution = run("autopower.push", [1, 1, 6, 4], vehicle=racer)
    assert resolution.success is True
    assert sheet_of(resolution, "vehicle").energy_in_play == (3, 3)
    assert resolution.values["speed"] == 8


def test_target_13_or_more_fails_without_a_roll() -> None:
    flier = car("Flier", 1, 1, 1, energy_in_play=(5, 5))
    procedure = PROCEDURES["autopower.push"]
    assert [n.purpose for n in procedure.dice_needed({"vehicle": flier})] == ["push at 6 (need 8+)"]
    odds = procedure.odds({"vehicle": flier})
    assert odds.probability("push holds at 6 (Speed 6)") == Fraction(15, 36)
    resolution = run("autopower.push", [4, 4], vehicle=flier)
    assert "target 13 ≥ 13: the push fails, no roll" in resolution.explain()
    assert resolution.values["raw_speed"] == 6


def test_an_automatic_push_failure_is_a_stage() -> None:
    flier = car("Flier", 1, 1, 1, energy_in_play=(5, 5))  # 11: target 13, then 6: 8+
    resolution = run("autopower.push", [4, 4], vehicle=flier)
    assert resolution.values["stages"] == [
        {"energy_in_play": [5, 5], "raw_speed": 11, "target": 13, "natural": None,
         "result": "auto_failed"},
        {"energy_in_play": [5], "raw_speed": 6, "target": 8, "natural": 8, "result": "held"},
    ]
    json.dumps(resolution.values["stages"])


def test_push_stages_list_the_failures_and_stop_at_the_hold() -> None:
    racer = car("Racer", 2, 3, 3, energy_in_play=(3, 3, 2))
    stages = run("autopower.push", [1, 1, 6, 4], vehicle=racer).values["stages"]
    assert [(s["raw_speed"], s["natural"], s["result"]) for s in stages] == [
        (10, 2, "failed"), (8, 10, "held")]


def test_a_push_that_cannot_succeed_at_all_lists_its_auto_failed_stages() -> None:
    flier = car("Flier", 1, 1, 1, energy_in_play=(10, 10))  # 21 → 11 → safe at 1
    stages = run("autopower.push", [], vehicle=flier).values["stages"]
    assert [(s["raw_speed"], s["target"], s["result"]) for s in stages] == [
        (21, 23, "auto_failed"), (11, 13, "auto_failed")]


def test_push_with_no_chance_at_all() -> None:
    flier = car("Flier", 1, 1, 1, energy_in_play=(10, 10))
    odds = PROCEDURES["autopower.push"].odds({"vehicle": flier})
    assert odds.outcomes[-1].probability == 1
    assert "cannot succeed" in odds.summary
    assert run("autopower.push", [], vehicle=flier).values["raw_speed"] == 1


@pytest.mark.parametrize(("choice", "left"), [
    ("newest", (4, 1)), ("oldest", (1, 3)), ("largest", (1, 3)), ("smallest", (4, 3))])
def test_ap_d7_which_card_is_lost(choice: str, left: tuple[int, ...]) -> None:
    racer = car("Racer", 3, 3, 3, energy_in_play=(4, 1, 3))  # 11 > 9: target 13, no roll
    resolution = run("autopower.push", [6, 6], vehicle=racer, ap_d7_discard=choice)
    assert sheet_of(resolution, "vehicle").energy_in_play == left
    assert f"({choice}, AP-D7)" in resolution.explain()


def test_no_push_after_losing_control_badly() -> None:
    cat = catalog()["Black Cat at Speed 6"]
    shaken = replace(cat, penalty_this_turn=ControlPenalty.NO_ATTACK)
    values = {"vehicle": shaken, "play": "5"}
    assert PROCEDURES["autopower.accelerate"].dice_needed(values) == ()
    odds = PROCEDURES["autopower.accelerate"].odds(values)
    assert odds.outcomes[0].probability == 1 and "safe at 6" in odds.outcomes[0].label
    resolution = run("autopower.accelerate", [], **values)
    assert sheet_of(resolution, "vehicle").energy_in_play == (1, 2)
    assert "no push this turn" in resolution.explain()


def test_ap_d17_opening_speed() -> None:
    values: dict[str, Any] = {"vehicle": "Black Cat", "play": "5", "opening": True}
    assert len(PROCEDURES["autopower.accelerate"].dice_needed(values)) == 1
    values["ap_d17_opening_push_roll"] = False
    assert PROCEDURES["autopower.accelerate"].dice_needed(values) == ()
    resolution = run("autopower.accelerate", [], **values)
    assert resolution.values["raw_speed"] == 8
    assert "no push roll (AP-D17 switched off)" in resolution.explain()


def test_accelerate_refusals() -> None:
    accelerate = PROCEDURES["autopower.accelerate"]
    with pytest.raises(InputError, match="discard rawSpeed|discard cards to slow down"):
        accelerate.odds({"vehicle": "Longshot at Speed 6", "speed": 2})
    with pytest.raises(InputError, match="no card 4 among 1 \\+ 2"):
        accelerate.odds({"vehicle": "Longshot at Speed 6", "discard": "4"})
    with pytest.raises(InputError, match="declare a speed of 0–3"):
        accelerate.odds({"vehicle": "Longshot", "speed": 4})
    with pytest.raises(InputError, match="holds 1 cards and cannot play 2"):
        accelerate.odds({"vehicle": car("X", 3, 3, 3, hand_size=1), "play": "1, 1"})
    with pytest.raises(InputError, match="'x' is not a card value"):
        accelerate.odds({"vehicle": "Longshot", "play": "x"})


def test_slowing_down_by_discarding() -> None:
    resolution = run("autopower.accelerate", [], vehicle="Longshot at Speed 6", discard="2")
    assert sheet_of(resolution, "vehicle").energy_in_play == (1,)
    assert resolution.values["raw_speed"] == 4
    dropped = run("autopower.accelerate", [], vehicle="Longshot at Speed 6", discard="all",
                  speed=1)
    assert dropped.values["raw_speed"] == 1


def test_push_needed_next_turn_while_still_pushing() -> None:
    first = run("autopower.accelerate", [6, 6], vehicle="Black Cat", play="5")
    pushing = sheet_of(first, "vehicle")
    assert pushing.pushing
    again = PROCEDURES["autopower.push"].dice_needed({"vehicle": pushing})
    assert [n.purpose for n in again] == ["push at 8 (need 8+)"]


# --- armor ------------------------------------------------------------------------
def test_armor_cap_refuses_the_card_that_breaks_it() -> None:
    rhino = car("Rhino", 2, 3, 5)
    with pytest.raises(InputError, match="Strength 6 would bring Rhino's added armor to 21, "
                                         "over the cap 10 × E2 = 20"):
        PROCEDURES["autopower.armor"].odds({"vehicle": rhino, "cards": "8, 7, 6"})
    resolution = run("autopower.armor", [], vehicle=rhino, cards="8, 7, 5")
    sheet = sheet_of(resolution, "vehicle")
    assert sheet.armor == 25 and sheet.speed_penalty == 2 and sheet.speed == 0
    assert sheet.hand_size == 4
    odds = PROCEDURES["autopower.armor"].odds({"vehicle": rhino, "cards": "5"})
    assert odds.outcomes == (odds.outcomes[0],) and odds.outcomes[0].probability == 1
    assert odds.summary == "Armor 10, Speed 2: no roll"


# --- the standard attack, laser ------------------------------------------------------------
def test_attack_miss_discards_and_ends_the_turn() -> None:
    resolution = run("autopower.attack", [3, 4], firer="Booster Gold",
                     target="Two Face at Speed 6", cards="3, 6")
    assert resolution.success is False and resolution.outcome == "miss"
    explained = resolution.explain()
    assert "rolled 3 + 4 = 7 < 12 → miss" in explained
    assert "are discarded" in explained
    attacker = sheet_of(resolution, "firer")
    assert attacker.attacked_this_turn and attacker.hand_size == 5
    with pytest.raises(InputError, match="made this turn's one attack"):
        PROCEDURES["autopower.attack"].odds(
            {"firer": attacker, "target": "Two Face", "cards": "1"})


def test_attack_odds_hand_computed() -> None:
    odds = PROCEDURES["autopower.attack"].odds(
        {"firer": "Booster Gold", "target": "Two Face at Speed 6", "cards": "3, 6"})
    assert odds.need == 12 and odds.probability("miss") == Fraction(35, 36)
    assert odds.summary == ("Fighting 9, Booster Gold Intelligence −3, Two Face Speed +6 → "
                            "need 12+ · 1/36 · 2.8%")
    assert odds.expected == (("damage", Fraction(8, 36)),)
    assert odds.chart is not None and odds.chart.success == frozenset({12})
    assert [m.value for m in odds.modifiers] == [9, -3, 6]


def test_attack_at_to_hit_13_cannot_hit() -> None:
    odds = PROCEDURES["autopower.attack"].odds(
        {"firer": "Longshot", "target": "Bishop at Speed 10", "cards": "3"})
    assert odds.need == 3 + 10 - 2 and odds.probability("miss") == Fraction(11, 12)
    hopeless = PROCEDURES["autopower.attack"].odds(
        {"firer": "Longshot", "target": "Bishop at Speed 10", "cards": "3, 3"})
    assert hopeless.need == 14 and hopeless.probability("miss") == 1
    assert "cannot hit" in hopeless.summary


def test_kill_needs_damage_above_armor() -> None:
    target = car("Target", 3, 3, 8)
    equal = run("autopower.attack", [6, 6], firer=car("Gunner", 3, 4, 3, 0), target=target,
                cards="8")
    assert sheet_of(equal, "target").total_damage == 8
    assert not sheet_of(equal, "target").killed
    assert "8 ≤ Armor 8 → survives" in equal.explain()
    worn = sheet_of(equal, "target")
    more = run("autopower.attack", [6, 6], firer=car("Gunner", 3, 4, 3, 0), target=worn,
               cards="1")
    assert sheet_of(more, "target").killed
    assert "damage 8 + 1 = 9 > Armor 8 → killed" in more.explain()
    with pytest.raises(InputError, match="Target is already killed"):
        PROCEDURES["autopower.attack"].odds(
            {"firer": "Booster Gold", "target": sheet_of(more, "target"), "cards": "1"})


def test_armor_lifts_a_damaged_car_out_of_danger() -> None:
    worn = car("Worn", 3, 3, 8, damage_taken=(8,))
    armored = sheet_of(run("autopower.armor", [], vehicle=worn, cards="4"), "vehicle")
    hit = run("autopower.attack", [6, 6], firer=car("Gunner", 3, 4, 3, 0), target=armored,
              cards="4")
    assert not sheet_of(hit, "target").killed


def test_ap_d9_switched_off_counts_the_card_total() -> None:
    resolution = run("autopower.attack", [6, 6], firer="Booster Gold",
                     target="Two Face at Speed 6", cards="3, 6", ap_d9_capped_damage=False)
    assert resolution.values["damage"] == 9
    assert "counts the card total 9 (AP-D9 switched off)" in resolution.explain()


def test_ap_d10_defender_iq_cards() -> None:
    values: dict[str, Any] = {"firer": "Booster Gold", "target": "Two Face at Speed 6",
                              "cards": "3, 6", "iq_cards": "4", "defender_iq_cards": "2"}
    with pytest.raises(InputError, match="defender plays no IQ cards"):
        PROCEDURES["autopower.attack"].odds(values)
    values["ap_d10_defender_iq_cards"] = True
    assert PROCEDURES["autopower.attack"].odds(values).need == 10
    resolution = run("autopower.attack", [5, 5], **values)
    assert sheet_of(resolution, "target").hand_size == 6


def test_ap_d22_iq_cards_off() -> None:
    with pytest.raises(InputError, match="IQ cards are not used in this game"):
        PROCEDURES["autopower.attack"].odds(
            {"firer": "Booster Gold", "target": "Two Face", "cards": "3", "iq_cards": "4",
             "iq_cards_in_use": False})


def test_ap_d27_raw_speed_of_the_target() -> None:
    values: dict[str, Any] = {"firer": "Booster Gold",
                              "target": "Martian Manhunter at Armor 18, Speed 6", "cards": "3"}
    assert PROCEDURES["autopower.attack"].odds(values).need == 3 - 3 + 6
    values["ap_d27_speed_after_armor_penalty"] = False
    assert PROCEDURES["autopower.attack"].odds(values).need == 3 - 3 + 7


def test_ap_d28_an_attack_needs_a_card() -> None:
    with pytest.raises(InputError, match="at least one Fighting card"):
        PROCEDURES["autopower.attack"].odds({"firer": "Booster Gold", "target": "Two Face"})


def test_control_penalty_raises_the_to_hit_and_forbids_attacks() -> None:
    shaken = replace(new_sheet(Car("Booster Gold", 4, 4, 4, 3)),
                     penalty_this_turn=ControlPenalty.MINUS_6)
    odds = PROCEDURES["autopower.attack"].odds(
        {"firer": shaken, "target": "Two Face at Speed 6", "cards": "3, 6", "iq_cards": "4"})
    assert odds.need == 14 and "control penalty +6" in odds.summary
    stopped = replace(shaken, penalty_this_turn=ControlPenalty.NO_ATTACK)
    for procedure_id in ("autopower.attack", "autopower.laser", "autopower.ram"):
        with pytest.raises(InputError, match="may not attack this turn"):
            PROCEDURES[procedure_id].odds(
                {PROCEDURES[procedure_id].inputs[0].name: stopped, "target": "Two Face",
                 "cards": "3"}, VARIANTS_ON)


def test_control_variant_names_the_next_roll() -> None:
    resolution = run("autopower.attack", [6, 6], firer="Booster Gold",
                     target=car("Big", 3, 3, 20, 1, energy_in_play=(2,)), cards="3",
                     control_rolls=True)
    assert resolution.values["control_target"] == 3 + 2 - 1
    assert "now rolls for control (autopower.control, damage 3)" in resolution.explain()


def test_laser_uses_energy_cards_and_the_fighting_cap() -> None:
    values: dict[str, Any] = {"firer": "Booster Gold", "target": "Nightwing at Speed 4",
                              "cards": "5, 6"}
    resolution = run("autopower.laser", [6, 6], **values)
    explained = resolution.explain()
    assert "fires a laser with Energy 5 + 6 = 11" in explained
    assert "min(11, 2 × F4 = 8) = 8" in explained
    assert resolution.values["to_hit"] == 11 - 3 + 4 and resolution.success is True
    assert resolution.values["damage"] == 8
    uncapped = run("autopower.laser", [6, 6], ap_d14_laser_damage_cap=False, **values)
    assert uncapped.values["damage"] == 11
    with pytest.raises(InputError, match="at least one Energy card"):
        PROCEDURES["autopower.laser"].odds({"firer": "Booster Gold", "target": "Two Face"},
                                           VARIANTS_ON)


# --- control ------------------------------------------------------------------------------
def test_control_roll_shortfalls() -> None:
    bishop = "Bishop at Speed 10"
    kept = run("autopower.control", [5, 4], vehicle=bishop, damage=8)
    assert kept.success is True
    assert sheet_of(kept, "vehicle").next_turn_penalty is ControlPenalty.NONE
    minus_three = run("autopower.control", [4, 4], vehicle=bishop, damage=8)
    assert sheet_of(minus_three, "vehicle").next_turn_penalty is ControlPenalty.MINUS_3
    assert "8 < 9, short by 1 → attacks at −3 next turn" in minus_three.explain()
    minus_six = run("autopower.control", [2, 1], vehicle=bishop, damage=8)
    assert sheet_of(minus_six, "vehicle").next_turn_penalty is ControlPenalty.MINUS_6
    lost = run("autopower.control", [1, 1], vehicle=bishop, damage=8)
    assert sheet_of(lost, "vehicle").next_turn_penalty is ControlPenalty.NO_ATTACK
    # the penalties are numbers in ``values`` (they were the strings "-3", "-6")
    assert [r.values["penalty"] for r in (kept, minus_three, minus_six, lost)] == \
        [0, -3, -6, "no_attack"]
    saved = run("autopower.control", [4, 4], vehicle=bishop, damage=8, iq_cards="1")
    assert saved.success is True and "4 + 4 = 8 + IQ 1 = 9 ≥ 9" in saved.explain()
    assert sheet_of(saved, "vehicle").hand_size == 6


def test_control_keeps_the_worse_pending_penalty() -> None:
    shaken = replace(catalog()["Bishop at Speed 10"], next_turn_penalty=ControlPenalty.NO_ATTACK)
    resolution = run("autopower.control", [4, 4], vehicle=shaken, damage=8)
    assert sheet_of(resolution, "vehicle").next_turn_penalty is ControlPenalty.NO_ATTACK


def test_control_target_two_or_less_needs_no_roll_and_ap_d15() -> None:
    calm = car("Calm", 3, 3, 9, 5)
    values: dict[str, Any] = {"vehicle": calm, "damage": 4}
    assert PROCEDURES["autopower.control"].dice_needed(values, CONTROL_ON) == ()
    odds = PROCEDURES["autopower.control"].odds(values, CONTROL_ON)
    assert odds.probability("in control") == 1
    assert "kept without a roll" in run("autopower.control", [], **values).explain()
    values["ap_d15_natural_two_fails_control"] = True
    strict = PROCEDURES["autopower.control"].odds(values, CONTROL_ON)
    assert strict.probability("in control") == Fraction(35, 36)
    assert strict.probability("attacks at −3 next turn") == Fraction(1, 36)
    lost = run("autopower.control", [1, 1], **values)
    assert "a natural 2 loses control (AP-D15 switched on)" in lost.explain()


# --- ram -----------------------------------------------------------------------------------
def test_ram_iq_cards_from_both_sides_and_ap_d13() -> None:
    values: dict[str, Any] = {"rammer": "Darkseid at Speed 9", "target": "Nightwing at Speed 4",
                              "cards": "5, 7", "iq_cards": "1", "defender_iq_cards": "6, 4"}
    odds = PROCEDURES["autopower.ram"].odds(values, VARIANTS_ON)
    assert odds.need == -1 - 1 + 10
    assert odds.probability("miss") == Fraction(21, 36)
    values["ap_d13_ram_subtracts_intelligence"] = True
    # Darkseid I2 (stand-in)
    assert PROCEDURES["autopower.ram"].odds(values, VARIANTS_ON).need == 8 - 2
    resolution = run("autopower.ram", [2, 3], **values)
    assert resolution.success is False
    assert sheet_of(resolution, "target").hand_size == 5
    assert sheet_of(resolution, "rammer").hand_size == 4


def test_ram_control_rolls_for_both_cars_ap_d25() -> None:
    rammer = car("Rammer", 4, 3, 30, 1, energy_in_play=(2,), strength_in_play=(5,))
    victim = car("Victim", 4, 3, 30, 2, energy_in_play=(3,))
    values: dict[str, Any] = {"rammer": rammer, "target": victim, "cards": "4",
                              "control_rolls": True}
    both = run("autopower.ram", [6, 6], **values)
    assert both.values["control_targets"] == {"Victim": 4 + 3 - 2, "Rammer": 4 + 2 - 1}
    one = run("autopower.ram", [6, 6], ap_d25_both_cars_control=False, **values)
    assert one.values["control_targets"] == {"Victim": 5}


def test_ram_odds_label_both_kills() -> None:
    odds = PROCEDURES["autopower.ram"].odds(
        {"rammer": "Darkseid at Speed 9", "target": "Nightwing at Speed 4", "cards": "5, 7"},
        VARIANTS_ON)
    assert odds.outcomes[0].label == ("hit: 12 damage to both cars, kills Nightwing and "
                                      "Darkseid")
    assert odds.expected == (("damage to each car", Fraction(35 * 12, 36)),)


# --- turn order, draw, victory ---------------------------------------------------------------
def test_draw_order_down_the_stats() -> None:
    a = car("A", 3, 5, 4, 2)
    b = car("B", 3, 4, 9, 9)
    c = car("C", 4, 1, 1, 0)
    resolution = run("autopower.draw_order", [], car_a=a, car_b=b, car_c=c)
    assert resolution.values["order"] == ["C", "A", "B"]
    odds = PROCEDURES["autopower.draw_order"].odds({"car_a": a, "car_b": b, "car_c": c})
    assert [o.probability for o in odds.outcomes] == [0, 0, 1]
    own = run("autopower.draw_order", [], car_a=a, car_b=b, one_big_deck=False)
    assert own.outcome == "own decks: no draw order"


def test_full_tie_rolls_off_and_again_while_tied() -> None:
    values = {"car_a": "Black Cat", "car_b": "Longshot"}
    odds = PROCEDURES["autopower.draw_order"].odds(values)
    assert [o.probability for o in odds.outcomes] == [Fraction(1, 2), Fraction(1, 2)]
    assert len(PROCEDURES["autopower.draw_order"].dice_needed(values)) == 2
    resolution = run("autopower.draw_order", [3, 3, 4, 2, 1, 2, 6, 6], **values)
    assert resolution.values["order"] == ["Longshot", "Black Cat"]
    assert "tie again on 6: they roll again" in resolution.explain()
    with pytest.raises(NotEnoughDiceError):
        PROCEDURES["autopower.draw_order"].resolve(values, EnteredDice([3, 3, 4, 2]))


def test_first_player_by_speed_then_stats() -> None:
    resolution = run("autopower.first_player", [], car_a="Nightwing at Speed 4",
                     car_b="Darkseid at Speed 9", car_c="Two Face at Speed 6")
    assert resolution.values["order"] == ["Darkseid", "Two Face", "Nightwing"]
    assert "kept whatever happens to speeds" in resolution.explain()
    tied = run("autopower.first_player", [], car_a=car("Slow", 4, 5, 1, 1),
               car_b=car("Quick", 4, 4, 9, 9))
    assert tied.values["order"] == ["Slow", "Quick"]


def test_draw_refills_and_starts_the_turn() -> None:
    spent = car("Booster Gold", 4, 4, 4, 3, hand_size=2, attacked_this_turn=True,
                next_turn_penalty=ControlPenalty.MINUS_3)
    resolution = run("autopower.draw", [], vehicle=spent)
    sheet = sheet_of(resolution, "vehicle")
    assert sheet.hand_size == 7 and resolution.values["drawn"] == 5
    assert sheet.penalty_this_turn is ControlPenalty.MINUS_3
    assert sheet.next_turn_penalty is ControlPenalty.NONE and not sheet.attacked_this_turn
    assert "last control failure in force this turn: attacks at −3" in \
        resolution.explain()
    attack = PROCEDURES["autopower.attack"].odds(
        {"firer": sheet, "target": "Two Face at Speed 6", "cards": "3, 6", "iq_cards": "4"})
    assert attack.need == 11


@pytest.mark.parametrize(("hand", "iq", "drawn"), [(2, 3, 3), (6, 3, 1), (2, 0, 1), (7, 5, 0)])
def test_drawing_on_skills(hand: int, iq: int, drawn: int) -> None:
    resolution = run("autopower.draw", [], vehicle=car("X", 3, 3, 3, iq, hand_size=hand),
                     drawing_on_skills=True)
    assert resolution.values["drawn"] == drawn
    assert f"max(1, I{iq})" in resolution.explain()
    odds = PROCEDURES["autopower.draw"].odds(
        {"vehicle": car("X", 3, 3, 3, iq, hand_size=hand), "drawing_on_skills": True})
    assert odds.outcomes[0].probability == 1


def test_victory_and_the_double_kill_draw() -> None:
    dead = car("Dead", 3, 3, 1, killed=True, damage_taken=(5,))
    assert run("autopower.victory", [], car_a=dead, car_b="Bishop").outcome == \
        "Bishop wins: the last car not killed"
    assert run("autopower.victory", [], car_a=dead, car_b=dead).outcome.startswith("draw")
    assert "goes on" in run("autopower.victory", [], car_a="Rhino", car_b="Bishop").outcome


def test_killed_cars_take_no_turns() -> None:
    dead = car("Dead", 3, 3, 1, killed=True, damage_taken=(5,))
    for procedure_id, values in (
            ("autopower.draw", {"vehicle": dead}), ("autopower.accelerate", {"vehicle": dead}),
            ("autopower.armor", {"vehicle": dead}),
            ("autopower.control", {"vehicle": dead, "damage": 1}),
            ("autopower.attack", {"firer": dead, "target": "Rhino", "cards": "1"})):
        with pytest.raises(InputError, match="is killed"):
            PROCEDURES[procedure_id].odds(values, CONTROL_ON)


# --- command-line style values ------------------------------------------------------------
def test_values_parse_from_text_like_the_command_line() -> None:
    procedure = PROCEDURES["autopower.attack"]
    values = procedure.parse({"firer": "booster gold", "target": "Two Face at Speed 6",
                              "cards": "3,6", "iq_cards": "4", "control_rolls": "yes"})
    assert values["firer"].name == "Booster Gold" and values["control_rolls"] is True
    resolution = procedure.resolve(values, EnteredDice([4, 4]))
    assert resolution.to_json()["effects"][1]["sheet"]["damage_taken"] == [8]
    with pytest.raises(InputError, match="not a valid CarSheet"):
        procedure.parse({"firer": '{"vehicle": 1}', "target": "Rhino", "cards": "1"})
    with pytest.raises(InputError, match="no catalog vehicle named 'Galactus'"):
        procedure.parse({"firer": "Galactus", "target": "Rhino", "cards": "1"})


def test_sheet_json_goes_through_a_sheet_input() -> None:
    sheet = catalog()["Bishop at Speed 10"]
    values = PROCEDURES["autopower.control"].parse(
        {"vehicle": json.dumps(sheet.to_json()), "damage": "8"}, CONTROL_ON)
    assert values["vehicle"] == sheet

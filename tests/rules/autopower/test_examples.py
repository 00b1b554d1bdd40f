"""Every worked example of the text (digest §4, AP-E1 … AP-E10) with its exact numbers."""

from dataclasses import replace
from fractions import Fraction

from carwars_desktop.dice import EnteredDice
from carwars_desktop.rules.autopower import RULESET, Car, new_sheet, sample_cars, sheet_catalog
from carwars_desktop.rules.autopower.armor import play_armor
from carwars_desktop.rules.autopower.combat import plan_attack
from carwars_desktop.rules.autopower.control import control_target, plan_control
from carwars_desktop.rules.autopower.odds import p_attack_hit
from carwars_desktop.rules.autopower.ram import plan_ram
from carwars_desktop.rules.autopower.speed import plan_speed, speed_outcomes

PROCEDURES = {p.id: p for p in RULESET.procedures}
RAMMING_ON = {"AP-ramming": True}
CONTROL_ON = {"AP-control-rolls": True}
"""§2.8: autopower.control is offered only with the Control Rolls variant on."""
"""The examples' ram is the §2.9 variant: played under house rules with it switched on."""


def test_ap_e1_longshot_declares_up_to_energy() -> None:
    longshot = new_sheet(sample_cars()["Longshot"])
    assert longshot.car.energy == 3
    plan = plan_speed(longshot, declared=3)
    assert plan.sheet.raw_speed == 3 and not plan.sheet.pushing
    assert speed_outcomes(plan)[0].probability == 1
    resolution = PROCEDURES["autopower.accelerate"].resolve(
        {"vehicle": "Longshot", "speed": 2}, EnteredDice([]))
    assert resolution.values["speed"] == 2 and resolution.dice == ()
    assert "declares Speed 2 (0–E3)" in resolution.explain()


def test_ap_e2_longshot_plays_energy_1_and_2_for_speed_6_without_a_roll() -> None:
    resolution = PROCEDURES["autopower.accelerate"].resolve(
        {"vehicle": "Longshot", "play": "1, 2"}, EnteredDice([]))
    assert resolution.values["raw_speed"] == 6 and resolution.values["speed"] == 6
    assert resolution.success is None and resolution.dice == ()
    explained = resolution.explain()
    assert "rawSpeed = E3 + 1 + 2 = 6" in explained
    assert "rawSpeed 6 ≤ 2 × E3 = 6: safe, no roll" in explained
    sheet = resolution.effects[0].sheet
    assert sheet.energy_in_play == (1, 2) and sheet.hand_size == 5


def test_ap_e3_black_cat_discards_and_pushes_with_energy_5() -> None:
    values = {"vehicle": "Black Cat at Speed 6", "discard": "all", "play": "5"}
    procedure = PROCEDURES["autopower.accelerate"]
    odds = procedure.odds(values)
    assert odds.need == 8
    assert odds.summary == "push at 8: need 8+ · 5/12 · 41.7%"
    assert odds.probability("push holds at 8 (Speed 8)") == Fraction(15, 36)
    assert odds.probability("falls back to 3 (Speed 3)") == Fraction(21, 36)
    success = procedure.resolve(values, EnteredDice([4, 4]))
    assert success.success is True and success.values["speed"] == 8
    assert "8 ≤ 3 × E3 = 9 → target 8" in success.explain()
    failure = procedure.resolve(values, EnteredDice([3, 4]))
    assert failure.success is False
    sheet = failure.effects[0].sheet
    assert sheet.energy_in_play == () and sheet.raw_speed == 3 and sheet.speed == 3
    assert "discards Energy 5 (newest, AP-D7) → no Energy card left: rawSpeed = E = 3" \
        in failure.explain()


def test_ap_e4_rhino_at_8_needs_10() -> None:
    rhino = new_sheet(sample_cars()["Rhino"])
    assert rhino.car.energy == 2
    plan = plan_speed(rhino, play=(6,))
    assert plan.stages[0].raw_speed == 8 and plan.stages[0].target == 10
    odds = PROCEDURES["autopower.accelerate"].odds({"vehicle": "Rhino", "play": "6"})
    assert odds.need == 10
    assert odds.probability("push holds at 8 (Speed 8)") == Fraction(1, 6)


def test_ap_e5_martian_manhunter_armor_18_speed_6() -> None:
    manhunter = new_sheet(sample_cars()["Martian Manhunter"])
    assert (manhunter.car.energy, manhunter.car.strength) == (4, 7)
    assert manhunter.armor_cap == 40
    moving = plan_speed(manhunter, play=(3,)).sheet
    assert moving.raw_speed == 7 and not moving.pushing
    armored, steps = play_armor(moving, (5, 6))
    assert armored.added_armor == 11 and armored.armor == 18
    assert armored.speed_penalty == 1 and armored.speed == 6
    assert "rawSpeed 4 + 3 = 7, − 1 for armor → Speed 6" in steps[-1].text
    example = sheet_catalog()["Martian Manhunter at Armor 18, Speed 6"]
    assert (example.armor, example.speed) == (18, 6)


def test_ap_e6_to_e8_booster_gold_9_6_12_8_damage_8() -> None:
    cars = sample_cars()
    booster = new_sheet(cars["Booster Gold"])
    two_face = sheet_catalog()["Two Face at Speed 6"]
    assert (booster.car.fighting, booster.car.iq, two_face.speed) == (4, 3, 6)
    plan = plan_attack(booster, two_face, (3, 6))
    assert plan.base == 9 and plan.damage == 8
    running = [plan.base]
    for modifier in plan.modifiers:
        running.append(running[-1] + modifier.value)
    assert running == [9, 6, 12]
    with_iq = plan_attack(booster, two_face, (3, 6), (4,))
    assert with_iq.to_hit == 8
    assert p_attack_hit(8) == Fraction(15, 36) == Fraction(5, 12)
    resolution = PROCEDURES["autopower.attack"].resolve(
        {"firer": "Booster Gold", "target": "Two Face at Speed 6", "cards": "3, 6",
         "iq_cards": "4"}, EnteredDice([6, 2]))
    explained = resolution.explain()
    for line in ("fires Fighting 3 + 6 = 9: base to-hit 9",
                 "min(9, 2 × F4 = 8) = 8",
                 "to-hit 9 − 3 (Booster Gold Intelligence) = 6",
                 "to-hit 6 + 6 (Two Face Speed) = 12",
                 "to-hit 12 − 4 (IQ cards 4) = 8",
                 "need 8+ · 5/12 · 41.7%",
                 "rolled 6 + 2 = 8 ≥ 8 → hit"):
        assert line in explained
    assert resolution.values["damage"] == 8
    assert resolution.effects[1].sheet.damage_taken == (8,)


def test_ap_e9_bishop_control_target_9() -> None:
    bishop = sheet_catalog()["Bishop at Speed 10"]
    assert (bishop.car.energy, bishop.energy_in_play, bishop.speed, bishop.car.iq) == \
        (6, (4,), 10, 3)
    assert control_target(8, bishop.energy_in_play, bishop.car.iq) == 9
    plan = plan_control(bishop, 8)
    assert plan.target == 9 and "(base E6 not added)" in plan.steps[0].text
    odds = PROCEDURES["autopower.control"].odds({"vehicle": "Bishop at Speed 10", "damage": 8},
                                                CONTROL_ON)
    assert odds.need == 9 and odds.probability("in control") == Fraction(10, 36)
    with_iq = PROCEDURES["autopower.control"].odds(
        {"vehicle": "Bishop at Speed 10", "damage": 8, "iq_cards": "3"}, CONTROL_ON)
    assert with_iq.need == 6 and with_iq.probability("in control") == Fraction(26, 36)


def test_ap_e10_darkseid_ram_to_hit_minus_1_both_take_12() -> None:
    examples = sheet_catalog()
    darkseid, nightwing = examples["Darkseid at Speed 9"], examples["Nightwing at Speed 4"]
    assert (darkseid.car.strength, darkseid.speed) == (8, 9)
    assert (nightwing.car.strength, nightwing.speed) == (4, 4)
    plan = plan_ram(darkseid, nightwing, (5, 7))
    assert plan.to_hit == -1 and plan.damage == 12
    assert all("Intelligence" not in m.label for m in plan.modifiers)
    assert p_attack_hit(plan.to_hit) == Fraction(35, 36)
    # Nightwing's own S4 plays no part: a tougher Nightwing leaves the to-hit alone.
    tougher = replace(nightwing, car=replace(nightwing.car, strength=9))
    assert plan_ram(darkseid, tougher, (5, 7)).to_hit == -1
    resolution = PROCEDURES["autopower.ram"].resolve(
        {"rammer": "Darkseid at Speed 9", "target": "Nightwing at Speed 4", "cards": "5, 7"},
        EnteredDice([1, 2]), RAMMING_ON)
    assert resolution.success is True
    assert "to-hit 7 − 8 (Darkseid base Strength) = −1" in resolution.explain()
    sheets = {e.input_name: e.sheet for e in resolution.effects}
    assert sheets["target"].damage_taken == (12,) and sheets["rammer"].damage_taken == (12,)
    assert sheets["target"].killed


def test_natural_two_misses_even_the_darkseid_ram() -> None:
    resolution = PROCEDURES["autopower.ram"].resolve(
        {"rammer": "Darkseid at Speed 9", "target": "Nightwing at Speed 4", "cards": "5, 7"},
        EnteredDice([1, 1]), RAMMING_ON)
    assert resolution.success is False
    assert "a natural 2 always misses" in resolution.explain()


def test_stand_in_stats_are_said_in_the_notes() -> None:
    cars = sample_cars()
    assert set(cars) == {"Longshot", "Black Cat", "Rhino", "Martian Manhunter", "Booster Gold",
                         "Two Face", "Bishop", "Darkseid", "Nightwing"}
    assert "gives Energy 4, Strength 7" in cars["Martian Manhunter"].notes
    assert "stand-ins to edit from the card: Fighting 4, Intelligence 2" in \
        cars["Martian Manhunter"].notes
    assert "gives no stats" in cars["Two Face"].notes
    assert cars["Bishop"] == Car("Bishop", 6, 4, 4, 3, cars["Bishop"].notes)

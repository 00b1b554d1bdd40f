"""mini.fire: MCW-E6 with its exact numbers, every restriction, odds against hand counts."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from carwars_desktop.dice import EnteredDice
from carwars_desktop.procedures import InputError
from carwars_desktop.rules.mini_car_wars import MiniDesign, MiniSheet, PersonKit, stock_sheet
from carwars_desktop.rules.mini_car_wars.errors import WeaponChoiceError
from carwars_desktop.rules.mini_car_wars.firing import find_weapon
from carwars_desktop.rules.mini_car_wars.model import CrewState, Side
from carwars_desktop.rules.mini_car_wars.procedures import DAMAGE, FIRE


def fire(dice: list[int], **values: object) -> tuple[str, list[str], list[MiniSheet]]:
    resolution = FIRE.resolve(values, EnteredDice(dice))
    return (resolution.outcome, [s.text for s in resolution.steps],
            [e.sheet for e in resolution.effects])


def test_e6_combat_example(roadie: MiniSheet, carter: MiniSheet) -> None:
    """MCW-E6: Roadie needs 9 and hits with 11 for 2; the gunner's 7 misses; Carter's
    lasers need 7, hit with 8 and 7 for 11 and 17; Roadie dies, 5 fly out the right."""
    outcome, steps, (roadie, carter_hit) = fire([5, 6, 2], firer=roadie, target=carter,
                                                weapon="MG L", side="F", range="5")
    assert steps[0] == ("MG (L) (driver) at Carter's front: MG 7, range 5\" −1, front −1 → "
                        "need 9+ · 5/18 · 27.8%")
    assert steps[1] == "MG (L): rolled 11 → hit"
    assert outcome == "hit: 2 damage to Carter's front" and carter_hit.armor.front == 28
    outcome, steps, (roadie,) = fire([3, 4], firer=roadie, target=carter_hit, weapon="MG B",
                                     person="gunner", side="F", range="5")
    assert outcome == "miss" and steps[1] == "MG (B): rolled 7 → miss"
    again, steps, effects = fire([], firer=roadie, target=carter_hit, weapon="MG L",
                                 person="gunner", side="F", range="5")
    assert again.startswith("not allowed") and "already fired" in steps[0] and effects == []
    outcome, steps, (carter_after, roadie_after) = fire(
        [4, 4, 3, 4, 3, 4, 4, 6, 6, 5, 2], firer=carter_hit, target=roadie, weapon="1",
        linked=True, side="L", range="5")
    assert steps[0].endswith("Laser 6, range 5\" −1 → need 7+ · 7/12 · 58.3%")
    assert steps[1:5] == ["Laser (F) #1: rolled 8 → hit", "Laser (F) #2: rolled 7 → hit",
                          "Laser (F) #1 damage 3d6: 3 4 4 = 11",
                          "Laser (F) #2 damage 3d6: 6 6 5 = 17"]
    assert outcome == "2 of 2 hit: 11 + 17 damage to Roadie's left"
    assert roadie_after.armor.left == 0 and roadie_after.driver.state is CrewState.DEAD
    assert roadie_after.uncontrolled and roadie_after.gunner is not None
    assert not roadie_after.gunner.is_down
    assert any("5 fly out of the car (MCW-D9)" in s for s in steps)
    assert all(w.fired for w in carter_after.weapons) and carter_after.driver.fired


def test_held_damage_is_applied_afterwards(roadie: MiniSheet, carter: MiniSheet) -> None:
    """§2.2: damage held until all fire is resolved, then applied with mini.damage."""
    resolution = FIRE.resolve({"firer": carter, "target": roadie, "weapon": "1", "linked": True,
                               "side": "L", "range": "5", "hold_damage": True},
                              EnteredDice([4, 4, 3, 4, 3, 4, 4, 6, 6, 5]))
    assert resolution.values["damage"] == (11, 17) and len(resolution.effects) == 1
    assert "apply it with mini.damage" in resolution.steps[-1].text
    target = roadie
    for damage, dice in ((11, []), (17, [2])):
        applied = DAMAGE.resolve({"vehicle": target, "side": "L", "damage": damage},
                                 EnteredDice(dice))
        target = applied.effects[0].sheet
    assert target.driver.is_dead and target.armor.left == 0


def test_natural_two_misses_whatever_the_modifiers() -> None:
    kart = stock_sheet("Killer Kart")
    outcome, steps, _ = fire([1, 1], firer=kart, target=kart, side="R", range="0.5")
    assert outcome == "miss" and steps[1] == "MG (F): rolled 2 → natural 2 always misses"
    assert "need 2+ · 35/36" in steps[0]


def test_turret_shot_destroys_turret_weapon() -> None:
    rocket = replace(stock_sheet("Rocket Special"), armor=stock_sheet("Rocket Special")
                     .armor.with_side(Side.TOP, 2))
    outcome, steps, (_, target) = fire([6, 6, 1, 2], firer=stock_sheet("Shogun 220"),
                                       target=rocket, side="T", range="3")
    assert "turret (top) −2" in steps[0] and target.armor.top == 0
    assert target.weapons[1].destroyed and "1 more pass over the car" in steps[-1]


def test_targeting_computer_of_the_firing_person() -> None:
    design = MiniDesign.stock_design("killer_kart", driver=PersonKit(0, 1, False))
    kart = MiniSheet.from_design(design)
    odds = FIRE.odds({"firer": kart, "target": stock_sheet("Courier"), "side": "L",
                      "range": "2"})
    assert [(m.label, m.value) for m in odds.modifiers] == [
        ('range 2"', 0), ("neither moving", 2), ("targeting computer", 2)]
    assert odds.need == 3


@pytest.mark.parametrize(("change", "reason"), [
    ({"weapon": "MG R"}, "MG (R) is destroyed"),
    ({"smoke": 1, "weapon": "1"}, "a laser cannot fire through smoke"),
])
def test_refusals(roadie: MiniSheet, carter: MiniSheet, change: dict[str, object],
                  reason: str) -> None:
    firer = carter if change.get("smoke") else roadie
    target = roadie if firer is carter else carter
    values = {"firer": firer, "target": target, "side": "L", "range": "5", **change}
    outcome, steps, effects = fire([], **values)
    assert outcome.startswith("not allowed") and reason in steps[0] and effects == []
    odds = FIRE.odds(values)
    assert odds.outcomes[0].label == "not allowed" and odds.outcomes[0].probability == 1


def test_heavy_rocket_fires_once_per_game() -> None:
    courier_a = replace(stock_sheet("Courier (a)"), speed=40)
    target = stock_sheet("Killer Kart")
    _, _, (after, _) = fire([6, 6, 1, 1, 1, 5], firer=courier_a, target=target,
                            weapon="HR", person="gunner", side="L", range="2")
    hr = after.weapons[3]
    assert hr.label == "HR (B)" and hr.shots_left == 0 and hr.fired
    next_turn = after.started_turn(40, False)
    outcome, steps, _ = fire([], firer=next_turn, target=target, weapon="HR", side="L",
                             range="2")
    assert "HR (B): the HR fires only once per game" in steps[0]


def test_unconscious_person_cannot_fire(roadie: MiniSheet, carter: MiniSheet) -> None:
    knocked = replace(roadie, driver=replace(roadie.driver, hits=2))
    _, steps, _ = fire([], firer=knocked, target=carter, weapon="RL", side="F", range="3")
    assert steps[0] == "the driver is unconscious"


def test_smokescreen_needs_no_roll_and_no_target() -> None:
    sherman = stock_sheet("Mini Sherman")
    resolution = FIRE.resolve({"firer": sherman, "weapon": "Smokescreen B"}, EnteredDice([]))
    assert resolution.outcome == "smoke cloud placed behind Mini Sherman"
    assert resolution.dice == () and "lasts 60 turns (MCW-A4)" in resolution.steps[1].text
    (change,) = resolution.effects
    assert change.sheet.weapons[2].fired and change.sheet.driver.fired
    assert FIRE.dice_needed({"firer": sherman, "weapon": "3"}) == ()


def test_smokescreen_asks_only_firer_crew_and_weapon() -> None:
    """§2.13 step 1, MCW-D16: a smokescreen aims at no one. Its target, side, range, smoke
    and hold inputs are unused: left blank (as a form leaves them) they are not refused,
    and whatever is given there is not kept in the log; every other weapon needs them."""
    sherman = stock_sheet("Mini Sherman")
    blank = {"firer": sherman, "weapon": "3", "person": "driver", "target": None,
             "side": None, "range": None, "smoke": None, "hold_damage": None}
    assert FIRE.unused(blank) == {"target", "side", "range", "smoke", "hold_damage"}
    resolution = FIRE.resolve(blank, EnteredDice([]))
    assert resolution.outcome == "smoke cloud placed behind Mini Sherman"
    assert resolution.values == {"smoke_turns": 60}
    assert {name: resolution.inputs[name] for name in ("target", "side", "range")} == {
        "target": None, "side": None, "range": None}
    aimed = FIRE.resolve({**blank, "target": stock_sheet("Courier"), "side": "F",
                          "range": "3"}, EnteredDice([]))
    assert aimed.inputs["side"] is None and aimed.inputs["target"] is None
    assert FIRE.unused({**blank, "weapon": "1"}) == frozenset()
    with pytest.raises(InputError, match="side: None is not one of"):
        FIRE.bind({**blank, "weapon": "1", "target": stock_sheet("Courier")})


def test_linked_pair_counts_as_one_trigger_and_single_weapon_may_fire_alone() -> None:
    sherman = replace(stock_sheet("Mini Sherman"), speed=30)
    kart = stock_sheet("Killer Kart")
    _, _, (after, *_) = fire([3, 3], firer=sherman, target=kart, weapon="1", side="L",
                             range="2")
    assert after.weapons[0].fired and not after.weapons[1].fired and after.driver.fired


@pytest.mark.parametrize(("values", "message"), [
    ({"weapon": "9"}, "has no weapon 9"),
    ({"weapon": "flamer F"}, "name a weapon by number"),
    ({"weapon": "RL", "linked": True}, "is not linked"),
    ({"person": "gunner", "firer": "Killer Kart"}, "has no gunner"),
    ({"side": "T"}, "has no turret"),
    ({"target": None}, "a target vehicle is needed"),
    ({"range": "-2"}, "range cannot be negative"),
])
def test_bad_fire_inputs_are_input_errors(values: dict[str, object], message: str) -> None:
    base: dict[str, object] = {"firer": "Courier", "target": "Killer Kart", "range": "2",
                               **values}
    with pytest.raises(InputError, match=message):
        FIRE.odds(base)


def test_weapon_names() -> None:
    courier = stock_sheet("Courier")
    assert [find_weapon(courier, t) for t in ("MG L", "mg back", "rocket launcher", "2")] == [
        2, 3, 0, 1]
    with pytest.raises(WeaponChoiceError, match="no laser"):
        find_weapon(courier, "laser")


def test_dice_needed_in_order(carter: MiniSheet, roadie: MiniSheet) -> None:
    needs = [str(n) for n in FIRE.dice_needed({"firer": carter, "target": roadie,
                                               "linked": True, "side": "L", "range": "5"})]
    assert needs == [
        "2d6 to hit (Laser (F) #1)", "2d6 to hit (Laser (F) #2)",
        "3d6 damage (Laser (F) #1) (if it hits)", "3d6 damage (Laser (F) #2) (if it hits)",
        "1d6 interior location (Laser (F) #1) (if its damage gets past the armor)",
        "1d6 interior location (Laser (F) #2) (if its damage gets past the armor)"]


def test_odds_single_mg_against_a_kart_front() -> None:
    """Need 9 (front −1, subcompact −1): miss 26/36; armor holds 10/36·5/6; a 6 strips it."""
    kart = replace(stock_sheet("Killer Kart"), speed=50)
    odds = FIRE.odds({"firer": kart, "target": kart, "side": "F", "range": "2"})
    assert odds.summary == "need 9+ · 5/18 · 27.8%"
    assert {o.label: o.probability for o in odds.outcomes} == {
        "miss": Fraction(13, 18), "front armor gone (its weapons destroyed)": Fraction(5, 108),
        "front armor damaged": Fraction(25, 108)}
    assert dict(odds.expected)["damage"] == Fraction(35, 36)
    assert odds.chart is not None and odds.chart.success == frozenset({9, 10, 11, 12})


def test_odds_mg_into_a_cycle_side() -> None:
    """Shogun 100's right side is bare: every hit rolls the interior (gunner missing)."""
    kart = replace(stock_sheet("Killer Kart"), speed=50)
    bike = replace(stock_sheet("Shogun 100"), speed=50)
    odds = FIRE.odds({"firer": kart, "target": bike, "side": "R", "range": "2"})
    assert odds.need == 9
    assert {o.label: o.probability for o in odds.outcomes} == {
        "miss": Fraction(13, 18), "driver killed": Fraction(5, 81),
        "driver unconscious": Fraction(5, 324), "power plant destroyed": Fraction(25, 324),
        "driver wounded (control roll)": Fraction(5, 324),
        "power plant damaged": Fraction(5, 324), "no effect": Fraction(5, 54)}


def test_odds_e6_linked_lasers(roadie: MiniSheet, carter: MiniSheet) -> None:
    odds = FIRE.odds({"firer": carter, "target": roadie, "linked": True, "side": "L",
                      "range": "5"})
    assert odds.summary == "need 7+ · 7/12 · 58.3% each (2 linked shots, rolled separately)"
    assert odds.probability("miss") == Fraction(15, 36) ** 2
    assert sum(o.probability for o in odds.outcomes) == 1
    expected = dict(odds.expected)
    assert expected["hits"] == Fraction(7, 6) and expected["damage"] == Fraction(49, 4)

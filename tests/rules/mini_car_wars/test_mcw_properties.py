"""Hypothesis properties: damage conserved, armor never negative, the dead stay dead,
odds sum to 1, P(hit) never above 35/36 (issue #3)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from carwars_desktop.dice import dice_sum
from carwars_desktop.rules.mini_car_wars import (
    CrewMember,
    MiniDesign,
    MiniSheet,
    PersonKit,
    apply_damage,
    catalog,
    sheet_catalog,
)
from carwars_desktop.rules.mini_car_wars.damage import needs_interior_roll
from carwars_desktop.rules.mini_car_wars.model import SIDES, Armor, Side
from carwars_desktop.rules.mini_car_wars.outcomes import Attempt, damage_odds
from carwars_desktop.rules.mini_car_wars.procedures import FIRE
from carwars_desktop.rules.mini_car_wars.to_hit import hit_ways, p_hit

SHEETS = list(sheet_catalog().values())


@st.composite
def sheets(draw: st.DrawFn) -> MiniSheet:
    sheet = draw(st.sampled_from(SHEETS))
    cycle = sheet.is_cycle

    def armor() -> int:
        return draw(st.integers(0, 45))

    arrangement = Armor(armor(), 0 if cycle else armor(), 0 if cycle else armor(), armor(),
                        armor() if sheet.turret else 0)

    def person(member: CrewMember) -> CrewMember:
        wears = draw(st.booleans())
        return replace(member, hits=draw(st.integers(0, 3)), wears_body_armor=wears,
                       body_armor=draw(st.integers(0, 3)) if wears else 0)

    gunner = None if sheet.gunner is None else person(sheet.gunner)
    return replace(sheet, armor=arrangement, power_plant=draw(st.integers(0, sheet.power_plant)),
                   driver=person(sheet.driver), gunner=gunner,
                   speed=draw(st.sampled_from(range(0, 101, 10))))


@st.composite
def hits(draw: st.DrawFn) -> tuple[MiniSheet, int, Side, int]:
    sheet = draw(sheets())
    side = draw(st.sampled_from([s for s in SIDES if sheet.can_be_targeted(s)]))
    return sheet, draw(st.integers(0, 80)), side, draw(st.integers(1, 6))


@given(hits())
def test_damage_is_conserved(hit: tuple[MiniSheet, int, Side, int]) -> None:
    sheet, damage, side, roll = hit
    _, report = apply_damage(sheet, damage, side, roll)
    assert report.absorbed + report.lost == report.dealt == damage
    assert min(report.armor_absorbed, report.opposite_absorbed, report.driver_absorbed,
               report.gunner_absorbed, report.plant_absorbed, report.lost) >= 0


@given(hits())
def test_armor_never_negative_and_never_grows(hit: tuple[MiniSheet, int, Side, int]) -> None:
    sheet, damage, side, roll = hit
    new, _ = apply_damage(sheet, damage, side, roll)
    for each in SIDES:
        assert 0 <= new.armor.get(each) <= sheet.armor.get(each)
    assert 0 <= new.power_plant <= sheet.power_plant


@given(hits(), st.lists(st.tuples(st.integers(0, 40), st.integers(1, 6)), max_size=4))
def test_dead_crew_stay_dead(hit: tuple[MiniSheet, int, Side, int],
                             more: list[tuple[int, int]]) -> None:
    sheet, damage, side, roll = hit
    for amount, interior in [(damage, roll), *more]:
        new, _ = apply_damage(sheet, amount, side, interior)
        for before, after in zip(sheet.crew, new.crew, strict=True):
            assert after.hits >= before.hits and after.body_armor <= before.body_armor
            if before.is_dead:
                assert after.is_dead and after == before
        sheet = new


@given(hits())
def test_interior_roll_needed_exactly_when_damage_gets_past_the_armor(
        hit: tuple[MiniSheet, int, Side, int]) -> None:
    sheet, damage, side, roll = hit
    _, report = apply_damage(sheet, damage, side, roll)
    assert (report.interior_roll is not None) == needs_interior_roll(sheet, damage, side)
    assert (report.interior_roll is not None) == (side is not Side.TOP
                                                  and damage > sheet.armor.get(side))


@st.composite
def shots(draw: st.DrawFn) -> dict[str, object]:
    firer, target = draw(sheets()), draw(sheets())
    weapon = draw(st.integers(1, len(firer.weapons)))
    index = weapon - 1
    linked = bool(firer.link_partners(index)) and draw(st.booleans())
    side = draw(st.sampled_from([s.value for s in SIDES if target.can_be_targeted(s)]))
    range_text = draw(st.sampled_from(["0", "0.5", "1", "3.99", "4", "7.5", "12", "40"]))
    return {"firer": firer, "target": target, "weapon": str(weapon), "linked": linked,
            "side": side, "range": range_text, "smoke": draw(st.integers(0, 3)),
            "mcw_d13_cycle_front_rear": draw(st.booleans()),
            "mcw_d14_turret_only_minus_two": draw(st.booleans())}


@settings(max_examples=60, deadline=None)
@given(shots())
def test_fire_odds_sum_to_one_and_never_exceed_35_in_36(values: dict[str, object]) -> None:
    odds = FIRE.odds(values)
    assert sum(o.probability for o in odds.outcomes) == 1
    assert all(o.probability > 0 for o in odds.outcomes)
    if odds.need is not None:
        shots_fired = 2 if values["linked"] else 1
        assert odds.probability("miss") >= Fraction(1, 36) ** shots_fired
        assert dict(odds.expected)["hits"] <= shots_fired * Fraction(35, 36)


@given(st.integers(-50, 50))
def test_p_hit_never_exceeds_35_in_36(need: int) -> None:
    assert 0 <= p_hit(need) <= Fraction(35, 36)
    assert p_hit(need) == Fraction(hit_ways(need), 36)


def test_odds_engine_agrees_with_apply_damage_by_full_enumeration() -> None:
    """Two linked MG hits (1d6 each, need 7) on a Courier with a bare left side: the
    exact odds' expected interior damage equals brute force through apply_damage."""
    courier = sheet_catalog()["Courier"]
    bare = replace(courier, armor=courier.armor.with_side(Side.LEFT, 0))
    attempt = Attempt(hit_ways(7), 36, dice_sum(1, 6))
    odds = damage_odds(bare, Side.LEFT, [attempt, attempt])
    total = Fraction(0)
    weight_sum = Fraction(0)
    outcomes = [(False, 0, 0, Fraction(15, 36))] + [
        (True, d, r, Fraction(21, 36) / 36) for d, r in product(range(1, 7), range(1, 7))]
    for first, second in product(outcomes, repeat=2):
        sheet, weight = bare, first[3] * second[3]
        for hit, damage, roll, _ in (first, second):
            if hit:
                sheet, _ = apply_damage(sheet, damage, Side.LEFT, roll)
        taken = sum(p.hits - q.hits + q.body_armor - p.body_armor
                    for p, q in zip(sheet.crew, bare.crew, strict=True))
        total += weight * (taken + bare.power_plant - sheet.power_plant)
        weight_sum += weight
    assert weight_sum == 1
    assert dict(odds.expected)["interior damage"] == total


@given(hits())
def test_damaged_sheets_round_trip_through_json(hit: tuple[MiniSheet, int, Side, int]) -> None:
    sheet, damage, side, roll = hit
    new, _ = apply_damage(sheet, damage, side, roll)
    assert MiniSheet.from_json(new.to_json()) == new


@given(st.sampled_from(list(catalog().values())), st.integers(0, 2), st.integers(0, 2),
       st.booleans(), st.lists(st.integers(-5, 60), min_size=5, max_size=5))
def test_designs_round_trip_and_never_raise_on_validation(
        design: MiniDesign, tcs: int, hrtcs: int, body: bool, armor: list[int]) -> None:
    draft = replace(design, driver=PersonKit(tcs, hrtcs, body), armor=Armor(*armor))
    assert MiniDesign.from_json(draft.to_json()) == draft
    problems = draft.problems(budget=10_000)
    assert all(p.message and p.rule.startswith("Mini Car Wars §") for p in problems)
    assert (draft.cost() > 10_000) == any(p.code == "over-budget" for p in problems)

"""Effects tagged armor breached / crew hurt / wrecked: the odds agree with resolved effects."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from fractions import Fraction

import pytest

from carwars_desktop.dice import EnteredDice
from carwars_desktop.procedures import EffectCategory
from carwars_desktop.rules import find_procedure, find_ruleset
from carwars_desktop.rules.mini_car_wars.model import Side
from carwars_desktop.rules.mini_car_wars.sheet import MiniSheet

DAMAGE = find_procedure("mini.damage")


def _sheet(name: str) -> MiniSheet:
    ruleset = find_ruleset("mini_car_wars")
    sheet = ruleset.sheet_for_design(ruleset.catalog()[name])
    assert isinstance(sheet, MiniSheet)
    return sheet


@pytest.mark.parametrize("name", ["Courier", "Killer Kart"])
@pytest.mark.parametrize("damage", [1, 5, 8, 14, 25, 40])
@pytest.mark.parametrize("side", ["F", "L", "T"])
def test_damage_odds_of_each_category_match_every_roll(name: str, damage: int,
                                                       side: str) -> None:
    sheet = _sheet(name)
    if side == "T":
        sheet = replace(sheet, turret=True)
    values = DAMAGE.bind({"vehicle": sheet, "side": side, "damage": damage})
    needs_roll = bool(DAMAGE.dice_needed(values)) and Side(side) is not Side.TOP
    faces = range(1, 7) if needs_roll else [None]
    counts: Counter[EffectCategory] = Counter()
    for face in faces:
        resolution = DAMAGE.resolve(values, EnteredDice([] if face is None else [face]))
        (effect,) = resolution.effects
        counts.update(effect.categories)
    total = len(faces)
    odds = DAMAGE.odds(values)
    assert [e.subject for e in odds.effects] == [sheet.name] * 3
    assert {e.category: e.probability for e in odds.effects} == {
        category: Fraction(counts[category], total) for category in EffectCategory}


def test_a_collision_tags_both_vehicles() -> None:
    mover = replace(_sheet("Courier"), speed=60)
    other = replace(_sheet("Killer Kart"), speed=50)
    procedure = find_procedure("mini.collision")
    values = procedure.bind({"mover": mover, "other": other})
    odds = procedure.odds(values)
    assert [(e.subject, e.category.value) for e in odds.effects] == [
        (n, c) for n in ("Courier", "Killer Kart") for c in ("armor breached", "crew hurt",
                                                            "wrecked")]
    assert all(0 <= e.probability <= 1 for e in odds.effects)
    assert odds.to_json()["effects"][0]["subject"] == "Courier"
    resolution = procedure.resolve(values, EnteredDice([6] * 22 + [1, 1]))
    other_effect = resolution.effects[1]
    assert EffectCategory.ARMOR_BREACHED in other_effect.categories
    assert resolution.to_json()["effects"][1]["categories"] == sorted(
        c.value for c in other_effect.categories)

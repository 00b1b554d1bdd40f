"""Golden cases of every Mini Car Wars table (digest §1.3–§1.5, §2.3–§2.4, §2.15, §3)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from carwars_desktop.rules.mini_car_wars.design import configure
from carwars_desktop.rules.mini_car_wars.model import (
    Armor,
    CollisionKind,
    Component,
    ControlResult,
    Mount,
    Side,
    Size,
    WeaponType,
)
from carwars_desktop.rules.mini_car_wars.reference import reference_tables
from carwars_desktop.rules.mini_car_wars.tables import (
    ACCESSORIES,
    COLLISIONS,
    CONTROL_TABLE,
    INTERIOR_LOCATION,
    PACK_ATTACK,
    ROAD_DUEL,
    STOCK,
    TO_HIT,
    WEAPONS,
)
from carwars_desktop.rules.mini_car_wars.to_hit import hit_ways, p_hit


@pytest.mark.parametrize(("kind", "to_hit", "dice", "shots"), [
    (WeaponType.MG, 7, 1, None), (WeaponType.RL, 8, 2, None), (WeaponType.LASER, 6, 3, None),
    (WeaponType.SMOKESCREEN, None, 0, None), (WeaponType.HR, 9, 3, 1),
])
def test_weapons_chart(kind: WeaponType, to_hit: int | None, dice: int, shots: int | None) -> None:
    spec = WEAPONS[kind]
    assert (spec.to_hit, spec.damage_dice, spec.shots) == (to_hit, dice, shots)
    assert spec.fires_through_smoke is (kind is not WeaponType.LASER)
    assert spec.makes_smoke is (kind is WeaponType.SMOKESCREEN)


def test_to_hit_modifier_values() -> None:
    assert (TO_HIT.point_blank, TO_HIT.small_body, TO_HIT.front_or_rear, TO_HIT.cycle,
            TO_HIT.turret, TO_HIT.firer_stationary, TO_HIT.target_stationary,
            TO_HIT.smoke_cloud, TO_HIT.natural_miss) == (4, -1, -1, -2, -2, 1, 1, -2, 2)
    assert TO_HIT.small_body_sizes == {Size.SUBCOMPACT, Size.COMPACT}


@pytest.mark.parametrize(("need", "ways"), [
    (-5, 35), (3, 35), (4, 33), (5, 30), (6, 26), (7, 21), (8, 15), (9, 10), (10, 6),
    (11, 3), (12, 1), (13, 0), (20, 0),
])
def test_hit_probability_table(need: int, ways: int) -> None:
    """§3.3: natural 2 always misses, so even need ≤ 3 is 35/36."""
    assert hit_ways(need) == ways
    assert p_hit(need) == Fraction(ways, 36)


@pytest.mark.parametrize(("low", "high", "result"), [
    (2, 10, ControlResult.NO_EFFECT), (11, 11, ControlResult.FISHTAIL),
    (12, 12, ControlResult.SKID), (13, 13, ControlResult.FISHTAIL_AND_SKID),
    (14, None, ControlResult.CRASH_AND_BURN),
])
def test_control_table(low: int, high: int | None, result: ControlResult) -> None:
    assert any((b.low, b.high, b.result) == (low, high, result) for b in CONTROL_TABLE)


def test_interior_location() -> None:
    assert dict((c, f) for f, c in INTERIOR_LOCATION) == {
        Component.DRIVER: {1, 2}, Component.GUNNER: {3, 4}, Component.POWER_PLANT: {5, 6}}


def test_accessories() -> None:
    assert [(a.name, a.cost, a.to_hit_bonus, a.boxes) for a in ACCESSORIES] == [
        ("Targeting Computer", 1000, 1, 0), ("Hi-Res Targeting Computer", 4000, 2, 0),
        ("Body Armor", 250, 0, 3)]


def test_collision_rules() -> None:
    assert COLLISIONS[CollisionKind.HEAD_ON].struck_side is Side.FRONT
    assert COLLISIONS[CollisionKind.SAME_DIRECTION].struck_side is Side.BACK
    assert COLLISIONS[CollisionKind.T_BONE].struck_side is None


STOCK_GOLDEN = {
    "killer_kart": (Size.SUBCOMPACT, 8, Armor(6, 4, 4, 4, 0), 18, False, 3750),
    "mini_sherman": (Size.COMPACT, 10, Armor(35, 25, 25, 33, 0), 118, False, 7500),
    "rocket_special": (Size.MID_SIZE, 12, Armor(40, 35, 35, 35, 30), 175, True, 12250),
    "courier": (Size.LUXURY, 12, Armor(30, 20, 20, 25, 0), 95, True, 13000),
    "shogun_100": (Size.CYCLE, 2, Armor(6, 0, 0, 6, 0), 12, False, 3000),
    "shogun_220": (Size.CYCLE, 3, Armor(20, 0, 0, 20, 0), 40, False, 4000),
    "firelight_deluxe": (Size.CYCLE, 5, Armor(6, 0, 0, 6, 0), 12, False, 11250),
}


@pytest.mark.parametrize("key", list(STOCK_GOLDEN))
def test_stock_car_list(key: str) -> None:
    car = STOCK[key]
    size, plant, armor, total, gunner, cost = STOCK_GOLDEN[key]
    assert (car.size, car.power_plant, car.armor, car.armor.total, car.gunner, car.cost) == (
        size, plant, armor, total, gunner, cost)


def test_stock_weapons() -> None:
    def fits(key: str) -> list[str]:
        return [str(f) for f in STOCK[key].weapons]
    assert fits("killer_kart") == ["MG (F)"]
    assert fits("mini_sherman") == ["MG (F) linked", "MG (F) linked", "Smokescreen (B)"]
    assert fits("rocket_special") == ["RL (F)", "MG (Turret)"]
    assert fits("courier") == ["RL (F)", "MG (R)", "MG (L)", "MG (B)"]
    assert fits("firelight_deluxe") == ["Laser (F)"]
    assert STOCK["rocket_special"].turret and not STOCK["courier"].turret


DERIVED = {
    ("mini_sherman", "a"): (False, ["RL (F)", "Smokescreen (B)"], 143, 6000),
    ("mini_sherman", "b"): (False, ["MG (F)", "HR (F)", "Smokescreen (B)"], 134, 6250),
    ("rocket_special", "a"): (False, ["Laser (Turret)"], 175, 16500),
    ("rocket_special", "b"): (False, ["RL (F)", "HR (F)", "HR (F)", "HR (B)"], 200, 10750),
    ("courier", "a"): (True, ["RL (F)", "MG (R)", "MG (L)", "HR (B)", "Smokescreen (B)"], 95,
                       12050),
    ("courier", "b"): (False, ["Laser (F) linked", "Laser (F) linked"], 95, 23200),
    ("firelight_deluxe", "opt"): (False, ["MG (F)", "HR (F)", "HR (F)"], 29, 5250),
}


@pytest.mark.parametrize(("key", "option"), list(DERIVED))
def test_derived_configurations(key: str, option: str) -> None:
    """§1.5 "Derived configurations", computed from the printed options."""
    car = STOCK[key]
    spec = car.option(option)
    assert spec is not None
    config = configure(car, spec)
    gunner, weapons, armor, cost = DERIVED[(key, option)]
    assert (config.gunner, [str(w) for w in config.weapons], config.armor_points, config.cost) \
        == (gunner, weapons, armor, cost)


def test_only_three_vehicles_lack_options() -> None:
    assert sorted(k for k, car in STOCK.items() if not car.options) == [
        "killer_kart", "shogun_100", "shogun_220"]


def test_rocket_special_b_keeps_its_empty_turret() -> None:
    """MCW-D28: the turret stays (top targetable); the alternative removes it."""
    from carwars_desktop.rules.mini_car_wars.decisions import MiniRules
    car = STOCK["rocket_special"]
    spec = car.option("b")
    assert configure(car, spec).turret
    assert not configure(car, spec, MiniRules(d28_empty_turret_targetable=False)).turret
    assert not any(w.mount is Mount.TURRET for w in configure(car, spec).weapons)


def test_mini_sherman_b_link_is_a_decision() -> None:
    """MCW-D19: unlinked by default; the alternative links the HR with the remaining MG."""
    from carwars_desktop.rules.mini_car_wars.decisions import MiniRules
    car = STOCK["mini_sherman"]
    spec = car.option("b")
    linked = configure(car, spec, MiniRules(d19_sherman_b_linked=True)).weapons
    assert [str(w) for w in linked[:2]] == ["MG (F) linked", "HR (F) linked"]


def test_scenarios() -> None:
    assert (ROAD_DUEL.start_speed, ROAD_DUEL.gap_dice, ROAD_DUEL.suggested_budgets) == (
        60, 2, (10_000, 15_000))
    car, cycles = PACK_ATTACK.sides
    assert (car.budget, car.min_vehicles, car.max_vehicles, car.cycles) == (17_000, 1, 1, False)
    assert (cycles.budget, cycles.min_vehicles, cycles.cycles) == (25_000, 5, True)
    assert (PACK_ATTACK.start_speed, PACK_ATTACK.lead, PACK_ATTACK.winning_lead_over) == (
        80, 12, 30)


def test_reference_views_are_built_from_the_data() -> None:
    tables = {t.id: t for t in reference_tables()}
    assert len(tables) == 15
    for table in tables.values():
        assert table.rows and all(len(row) == len(table.columns) for row in table.rows)
    assert ("Courier", "Luxury", "12", "30", "20", "20", "25", "0", "95", "driver + gunner",
            "RL (F); MG (R); MG (L); MG (B)", "$13,000") in tables["stock"].rows
    assert ("9", "10/36", "5/18", "27.8%") in tables["hit_probability"].rows
    assert ("12", "Skid", tables["control"].rows[2][2]) == tables["control"].rows[2]
    assert ("100", "80, 90, 100") in tables["speeds"].rows
    assert ("0", "0, 10, 10R") in tables["speeds"].rows
    assert ("20R", "0, 10R, 20R") in tables["speeds"].rows
    assert ("30", "1–3") in tables["schedule"].rows
    assert ("Courier (a)", "driver + gunner",
            "RL (F); MG (R); MG (L); HR (B); Smokescreen (B)", "95", "$12,050") \
        in tables["configurations"].rows

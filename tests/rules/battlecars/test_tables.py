"""Golden cases of every Battlecars table: each number stated in the rulebook (digest §3)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from carwars_desktop.rules.battlecars import tables as t
from carwars_desktop.rules.battlecars.collision import crash_damage
from carwars_desktop.rules.battlecars.options import CounterSizes, Options
from carwars_desktop.rules.battlecars.reference import reference_tables
from carwars_desktop.rules.battlecars.skid import drift_distribution, facing_modifier
from carwars_desktop.rules.battlecars.terms import (
    Facing,
    ObstacleKind,
    ObstacleSize,
    Section,
    Surface,
    Weapon,
)

R, G = Surface.ROAD, Surface.GRASS


def test_acceleration_table() -> None:
    # "On Road 2, On Grass 1, On Road (with Supercharger) 3, On Grass (with Supercharger) 2"
    assert [t.ACCELERATION[(s, c)] for c in (False, True) for s in (R, G)] == [2, 1, 3, 2]


def test_deceleration_table() -> None:
    # "On Road 3, On Grass 2, On Road (with Power Brakes) 4, On Grass (with Power Brakes) 3"
    assert [t.DECELERATION[(s, b)] for b in (False, True) for s in (R, G)] == [3, 2, 4, 3]


def test_reverse_maximum() -> None:
    assert t.REVERSE_MAX == {R: 3, G: 2}


@pytest.mark.parametrize(("angle", "row"), [(45, (8, 4, 9, 6)), (90, (4, 2, 6, 3)),
                                            (135, (2, 1, 3, 2))])
def test_safe_cornering_speeds(angle: int, row: tuple[int, int, int, int]) -> None:
    got = tuple(t.SAFE_SPEED[(angle, s, a)] for a in (False, True) for s in (R, G))
    assert got == row


def test_speed_difference_floors() -> None:
    assert t.MARKER_SD == {Weapon.OIL: 5, Weapon.SMOKE: 3, Weapon.SPIKES: 2}


def test_drift_table() -> None:
    distances = [None if r.distance is None else r.distance.modifier for r in t.DRIFT]
    assert distances == [None, -7, -6, -5, -4, -3, -2, -1]
    assert [r.tyre_damage for r in t.DRIFT] == [0, 0, 0, 0, 1, 1, 2, 2]
    assert [r.sd for r in t.DRIFT] == list(range(1, 9))


@pytest.mark.parametrize("sd", range(2, 9))
def test_drift_formula_and_any_drift_odds(sd: int) -> None:
    # digest §3.4: distance = max(0, 1d8 − (9 − k)), P(any drift) = (k − 1)/8
    row = t.DRIFT[sd - 1]
    assert row.distance is not None and row.distance.modifier == -(9 - sd)
    assert drift_distribution(row).p_ge(1) == Fraction(sd - 1, 8)


def test_drift_sd_1_never_drifts() -> None:
    assert drift_distribution(t.DRIFT[0]).p_eq(0) == 1


@pytest.mark.parametrize(("speed", "modifier"), [(0, 0), (3, 0), (4, 1), (5, 2), (6, 2), (7, 3),
                                                 (9, 3), (12, 3)])
def test_final_facing_modifiers(speed: int, modifier: int) -> None:
    assert facing_modifier(speed) == modifier


def test_final_facing_fallback_covers_1_to_11() -> None:
    assert sorted(t.FINAL_FACING_FALLBACK) == list(range(1, 12))
    assert {1, 2, 3, 4} == t.CONTINUE_FACINGS


CRASH_ROWS = [
    (1, 1, -2), (2, 1, -1), (3, 1, 0), (4, 1, 1), (5, 1, 2), (6, 1, 3), (7, 1, 4), (8, 2, 0),
    (9, 2, 1), (10, 2, 2), (11, 2, 3), (12, 2, 4), (13, 3, 0), (14, 3, 1), (15, 3, 2),
    (16, 3, 3), (17, 3, 4), (18, 4, 0),
]


@pytest.mark.parametrize(("rv", "dice", "modifier"), CRASH_ROWS)
def test_crash_ram_damage_table(rv: int, dice: int, modifier: int) -> None:
    roll, stun = crash_damage(rv)
    assert roll is not None and (roll.count, roll.modifier) == (dice, modifier)
    assert stun is (rv >= 14)  # "* = Driver Stunned" on 14–18


@pytest.mark.parametrize("rv", range(3, 19))
def test_crash_table_matches_formula(rv: int) -> None:
    roll, _ = crash_damage(rv)
    assert roll is not None
    assert (roll.count, roll.modifier) == ((rv + 2) // 5, (rv + 2) % 5)


def test_crash_table_edges_bc_d18() -> None:
    assert crash_damage(0) == (None, False)
    roll, stun = crash_damage(19)
    assert roll is not None and (roll.count, roll.modifier, stun) == (4, 1, True)
    capped, _ = crash_damage(19, Options(bc_d18_extend_table=False))
    assert capped is not None and (capped.count, capped.modifier) == (4, 0)


def test_one_die_tables() -> None:
    section = [Section.FRONT] * 2 + [Section.CENTRE] * 4 + [Section.REAR] * 2
    assert [t.SIDE_RAM_AREA[f] for f in range(1, 9)] == section
    assert [t.MINE_SECTION[f] for f in range(1, 9)] == section
    assert [t.TURRET_DETONATION[f] for f in range(1, 9)] == [
        "left", "front-left", "front", "front-right", "right", "rear-right", "rear",
        "rear-left"]
    assert {5, 6, 7, 8} == t.SMOKE_REMOVED_ON
    assert {7, 8} == t.AMMUNITION_DETONATES_ON


def test_missile_table() -> None:
    rows = {w: (r.to_hit and (r.to_hit.count, r.to_hit.modifier),
                (r.damage.count, r.damage.modifier), r.max_range)
            for w, r in t.MISSILE_TABLE.items()}
    assert rows == {Weapon.MG: ((1, 0), (1, -2), None), Weapon.SHELL: ((1, 3), (1, 0), None),
                    Weapon.ROCKET: ((2, 0), (2, 0), None), Weapon.FLAME: (None, (1, 3), 3)}
    assert {w for w, r in t.MISSILE_TABLE.items() if r.explodes_fuel_tank} == {
        Weapon.FLAME, Weapon.ROCKET, Weapon.SHELL}
    assert {w for w, r in t.MISSILE_TABLE.items() if r.detonates_ammunition} == {
        Weapon.ROCKET, Weapon.SHELL}


def test_counter_sizes_stated_and_bc_d37() -> None:
    sizes = CounterSizes()
    assert sizes.size(Weapon.ROCKET) == 4 and sizes.size(Weapon.SHELL) == 2
    assert sizes.size(Weapon.MG) == 1
    assert all(sizes.size(w) == 2 for w in (Weapon.FLAME, Weapon.SMOKE, Weapon.OIL,
                                            Weapon.SPIKES, Weapon.MINES))
    assert CounterSizes(mg=2).size(Weapon.MG) == 2


def test_loading_facings() -> None:
    front_rear = {Facing.FRONT, Facing.REAR}
    assert t.POD_FACINGS_ALLOWED[Weapon.ROCKET] == front_rear
    assert t.POD_FACINGS_ALLOWED[Weapon.SHELL] == front_rear
    assert t.POD_FACINGS_ALLOWED[Weapon.MG] == set(Facing)
    assert t.POD_FACINGS_ALLOWED[Weapon.FLAME] == set(Facing)
    for passive in (Weapon.SMOKE, Weapon.OIL, Weapon.SPIKES, Weapon.MINES):
        assert Facing.FRONT not in t.POD_FACINGS_ALLOWED[passive]
    assert {Weapon.MG} == t.TURRET_WEAPONS


def test_obstacle_capacity() -> None:
    for kind in (ObstacleKind.BUILDING, ObstacleKind.TREE):
        assert [t.OBSTACLE_CAPACITY[(kind, s)] for s in ObstacleSize] == [4, 8, 16]
    assert t.OBSTACLE_CAPACITY[(ObstacleKind.WRECK, None)] == 2


def test_stated_constants() -> None:
    assert (t.DRIVER_BOXES, t.STANDARD_POD_BOXES, t.STUN_RV) == (3, 8, 14)
    assert (t.TARGETS_PER_TURN, t.TARGETS_PER_TURN_WITH_GUNNERY_COMPUTER) == (2, 3)
    assert (t.GUNNERY_COMPUTER_TO_HIT, t.SMOKE_TO_HIT) == (1, -4)
    assert (t.FUEL_TANK_EXPLODES_ON, t.FUEL_TANK_MISSILE_PENALTY) == (7, 2)
    assert (t.PEDESTRIAN_BOXES, t.PEDESTRIAN_MG_ROUNDS, t.PEDESTRIAN_MAX_SPEED) == (3, 3, 2)
    assert (t.ARENA_ENTRY_SPEED, t.CRASH_OBSTACLE_DAMAGE) == (3, 1)
    assert (t.TYRE_DESTROYED_SPEED_LOSS, t.ENGINE_BOX_SPEED_LOSS) == (2, 1)
    assert (t.MARKER_TYRE_DAMAGE.modifier, t.MINE_INTERIOR_DAMAGE.modifier) == (-3, -2)


def test_mission_plots() -> None:
    goals = {car: [m.goal for m in plots] for car, plots in t.MISSIONS.items()}
    assert goals == {
        1: ["Kill the driver of car 2", "Kill the driver of car 3", "Kill the driver of car 4",
            "Kill any other driver"],
        2: ["Kill the driver of car 1", "Kill the driver of car 3", "Kill the driver of car 4",
            "Immobilise two cars"],
        3: ["Kill the driver of car 1", "Kill the driver of car 2", "Kill the driver of car 4",
            "Immobilise two cars"],
        4: ["Kill the driver of car 1", "Kill the driver of car 3", "Kill the driver of car 3",
            "Kill at least one driver"],
    }
    for plots in t.MISSIONS.values():
        assert [m.faces for m in plots] == [(1, 2), (3, 4), (5, 6), (7, 8)]


def test_reference_tables_are_built_from_the_data() -> None:
    tables = {table.id: table for table in reference_tables()}
    assert len(tables) == len(reference_tables())
    assert all(table.id.startswith("battlecars.") for table in tables.values())
    crash = tables["battlecars.crash_damage"]
    assert crash.rows[13] == ("14", "3 Dice + 1", "*")
    assert crash.rows[0] == ("1", "1 Die − 2", "")
    assert crash.rows[17] == ("18", "4 Dice", "*")
    drift = tables["battlecars.drift"]
    assert drift.rows[0][1:3] == ("0", "1 Die − 7")
    to_hit = tables["battlecars.to_hit"]
    rocket = next(row for row in to_hit.rows if row[0] == "Rocket")
    assert rocket[1:4] == ("1", "1", "1")
    assert (rocket[4], rocket[5], rocket[17], rocket[18]) == ("63/64", "61/64", "1/64", "0")
    for table in tables.values():
        assert all(len(row) == len(table.columns) for row in table.rows), table.id

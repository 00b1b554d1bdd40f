"""Golden cases of every table of the digest (§1.1 divisions, §3.1–§3.4)."""

from fractions import Fraction

import pytest

from carwars_desktop.rules.autopower import RULESET
from carwars_desktop.rules.autopower.car import division_for
from carwars_desktop.rules.autopower.odds import attack_hits, p_at_least, p_attack_hit
from carwars_desktop.rules.autopower.sheet import push_target
from carwars_desktop.rules.autopower.tables import ControlPenalty, control_band

TABLES = {table.id: table for table in RULESET.tables}


@pytest.mark.parametrize(("total", "division"), [
    (0, 15), (15, 15), (16, 20), (20, 20), (21, 25), (25, 25), (26, None), (40, None)])
def test_divisions(total: int, division: int | None) -> None:
    assert division_for(total) == division


# §3.1, row by row: (E, speed) → target; None = safe, ≥ 13 = impossible.
PUSH_GOLDEN = [
    (1, 1, None), (1, 2, None), (1, 3, 3), (1, 4, 6), (1, 5, 7), (1, 10, 12), (1, 11, 13),
    (2, 4, None), (2, 5, 5), (2, 6, 6), (2, 7, 9), (2, 8, 10), (2, 9, 11), (2, 10, 12),
    (2, 11, 13),
    (3, 6, None), (3, 7, 7), (3, 9, 9), (3, 10, 12), (3, 11, 13),
    (4, 8, None), (4, 9, 9), (4, 12, 12), (4, 13, 15),
    (5, 10, None), (5, 11, 11), (5, 12, 12), (5, 13, 13), (5, 15, 15), (5, 16, 18),
    (6, 12, None), (6, 13, 13), (7, 15, 15),
]


@pytest.mark.parametrize(("energy", "speed", "target"), PUSH_GOLDEN)
def test_push_targets(energy: int, speed: int, target: int | None) -> None:
    assert push_target(speed, energy) == target


def test_push_table_view_matches_the_digest() -> None:
    rows = TABLES["autopower.push_targets"].rows
    assert rows[0] == ("1", "0–1", "≤ 2", "3", "4–10 → target 6–12; ≥ 11 → impossible")
    assert rows[1] == ("2", "0–2", "≤ 4", "5–6", "7–10 → target 9–12; ≥ 11 → impossible")
    assert rows[2] == ("3", "0–3", "≤ 6", "7–9", "10 → target 12; ≥ 11 → impossible")
    assert rows[3] == ("4", "0–4", "≤ 8", "9–12", "≥ 13 → impossible")
    assert rows[4] == ("5", "0–5", "≤ 10", "11–12 (13–15 → impossible)", "≥ 16 → impossible")
    assert all((push_target(2 * e + 1, e) or 0) >= 13 for e in range(6, 12))


# §3.3: the digest's hit chances, natural 2 missing.
HIT_GOLDEN = {
    -5: Fraction(35, 36), 3: Fraction(35, 36), 4: Fraction(11, 12), 5: Fraction(5, 6),
    6: Fraction(13, 18), 7: Fraction(7, 12), 8: Fraction(5, 12), 9: Fraction(5, 18),
    10: Fraction(1, 6), 11: Fraction(1, 12), 12: Fraction(1, 36), 13: Fraction(0),
    20: Fraction(0),
}


@pytest.mark.parametrize(("to_hit", "p"), HIT_GOLDEN.items())
def test_attack_hit_chances(to_hit: int, p: Fraction) -> None:
    assert p_attack_hit(to_hit) == p


def test_natural_two_always_misses_and_twelve_hits_at_twelve() -> None:
    assert not attack_hits(2, -10)
    assert attack_hits(3, -10)
    assert attack_hits(12, 12) and not attack_hits(12, 13)


# §3.4: push and control, no natural-2 rule.
ROLL_GOLDEN = {
    0: Fraction(1), 2: Fraction(1), 3: Fraction(35, 36), 4: Fraction(11, 12),
    5: Fraction(5, 6), 6: Fraction(13, 18), 7: Fraction(7, 12), 8: Fraction(5, 12),
    9: Fraction(5, 18), 10: Fraction(1, 6), 11: Fraction(1, 12), 12: Fraction(1, 36),
    13: Fraction(0),
}


@pytest.mark.parametrize(("target", "p"), ROLL_GOLDEN.items())
def test_push_and_control_chances(target: int, p: Fraction) -> None:
    assert p_at_least(target) == p


def test_odds_views_are_the_digest_tables() -> None:
    attack = {row[0]: row[1] for row in TABLES["autopower.attack_odds"].rows}
    assert attack["≤ 3"] == "35/36" and attack["8"] == "5/12" and attack["≥ 13"] == "0"
    roll = {row[0]: row[1] for row in TABLES["autopower.roll_odds"].rows}
    assert roll["≤ 2"] == "1" and roll["3"] == "35/36" and roll["12"] == "1/36"


@pytest.mark.parametrize(("shortfall", "penalty"), [
    (-10, ControlPenalty.NONE), (0, ControlPenalty.NONE), (1, ControlPenalty.MINUS_3),
    (3, ControlPenalty.MINUS_3), (4, ControlPenalty.MINUS_6), (6, ControlPenalty.MINUS_6),
    (7, ControlPenalty.NO_ATTACK), (30, ControlPenalty.NO_ATTACK)])
def test_control_failure_table(shortfall: int, penalty: ControlPenalty) -> None:
    assert control_band(shortfall).penalty is penalty


def test_control_penalties_add_to_the_to_hit() -> None:
    assert [p.to_hit for p in ControlPenalty] == [0, 3, 6, 0]
    assert ControlPenalty.NO_ATTACK.forbids_attack_and_push
    view = TABLES["autopower.control_failure"].rows
    assert [row[0] for row in view] == ["≤ 0", "1–3", "4–6", "≥ 7"]


def test_division_view() -> None:
    assert TABLES["autopower.divisions"].rows[1] == ("16–20", "Division 20")

"""Missile formulas: to hit ≥ range, damage minus range (digest §2.11, §3.7)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from carwars_desktop.rules.battlecars.missiles import ToHit, damage_distribution, effective_range
from carwars_desktop.rules.battlecars.options import Options, RangeReading
from carwars_desktop.rules.battlecars.terms import Weapon

F = Fraction
MG_ROW = [1, 1, F(7, 8), F(3, 4), F(5, 8), F(1, 2), F(3, 8), F(1, 4), F(1, 8), 0, 0, 0]
SHELL_ROW = [1, 1, 1, 1, 1, F(7, 8), F(3, 4), F(5, 8), F(1, 2), F(3, 8), F(1, 4), F(1, 8), 0]
ROCKET_64 = [64, 64, 64, 63, 61, 58, 54, 49, 43, 36, 28, 21, 15, 10, 6, 3, 1, 0, 0]


@pytest.mark.parametrize("range_", range(len(MG_ROW)))
def test_mg_to_hit_table(range_: int) -> None:
    assert ToHit(Weapon.MG, range_).p_hit() == MG_ROW[range_]


@pytest.mark.parametrize("range_", range(len(SHELL_ROW)))
def test_shell_to_hit_table(range_: int) -> None:
    assert ToHit(Weapon.SHELL, range_).p_hit() == SHELL_ROW[range_]


@pytest.mark.parametrize("range_", range(len(ROCKET_64)))
def test_rocket_to_hit_table(range_: int) -> None:
    assert ToHit(Weapon.ROCKET, range_).p_hit() == F(ROCKET_64[range_], 64)


@pytest.mark.parametrize("range_", range(4))
def test_flame_hits_automatically_within_3(range_: int) -> None:
    flame = ToHit(Weapon.FLAME, range_, gunnery_computer=True, smoke=True)
    assert flame.automatic and flame.p_hit() == 1 and flame.modifiers() == ()
    assert not ToHit(Weapon.FLAME, 4).possible() and ToHit(Weapon.FLAME, 4).p_hit() == 0


@pytest.mark.parametrize("weapon", [Weapon.MG, Weapon.SHELL, Weapon.ROCKET])
@pytest.mark.parametrize("range_", range(1, 16))
def test_gunnery_computer_shifts_one_step(weapon: Weapon, range_: int) -> None:
    assert ToHit(weapon, range_, gunnery_computer=True).p_hit() == ToHit(weapon,
                                                                         range_ - 1).p_hit()


@pytest.mark.parametrize("weapon", [Weapon.MG, Weapon.SHELL, Weapon.ROCKET])
@pytest.mark.parametrize("range_", range(0, 14))
def test_smoke_shifts_four_steps(weapon: Weapon, range_: int) -> None:
    assert ToHit(weapon, range_, smoke=True).p_hit() == ToHit(weapon, range_ + 4).p_hit()


def test_bc_d4_best_totals() -> None:
    # a hit is possible up to MG 8, Shell 11, Rocket 16 (+1 GC, −4 smoke)
    assert ToHit(Weapon.MG, 8).possible() and not ToHit(Weapon.MG, 9).possible()
    assert ToHit(Weapon.SHELL, 11).possible() and not ToHit(Weapon.SHELL, 12).possible()
    assert ToHit(Weapon.ROCKET, 16).possible() and not ToHit(Weapon.ROCKET, 17).possible()
    assert ToHit(Weapon.ROCKET, 17, gunnery_computer=True).possible()
    assert not ToHit(Weapon.ROCKET, 13, smoke=True).possible()


def test_to_hit_summary_reads_like_the_table() -> None:
    text = ToHit(Weapon.MG, 3, gunnery_computer=True, smoke=True).summary()
    assert text == ("MG 1d8, Gunnery Computer +1, line of fire obscured by Smoke -4 vs range 3 "
                    "→ need 6+ on 1d8 · 3/8 · 37.5%")
    assert ToHit(Weapon.ROCKET, 9).summary() == \
        "Rocket 2d8 vs range 9 → need 9+ on 2d8 · 9/16 · 56.2%"


@pytest.mark.parametrize(("weapon", "range_", "minimum", "maximum", "p_zero"), [
    (Weapon.MG, 0, 0, 6, F(2, 8)),         # 1d8 − 2 − R
    (Weapon.MG, 2, 0, 4, F(4, 8)),
    (Weapon.FLAME, 3, 1, 8, F(0)),         # 1d8 + 3 − R
    (Weapon.FLAME, 0, 4, 11, F(0)),
    (Weapon.SHELL, 3, 0, 5, F(3, 8)),      # 1d8 − R (not the 1d8 + 3 to-hit roll)
    (Weapon.ROCKET, 4, 0, 12, F(6, 64)),   # 2d8 − R: totals 2, 3, 4 → 1 + 2 + 3 ways
])
def test_damage_formulas(weapon: Weapon, range_: int, minimum: int, maximum: int,
                         p_zero: Fraction) -> None:
    damage = damage_distribution(weapon, range_)
    assert (damage.minimum, damage.maximum) == (minimum, maximum)
    assert damage.p_eq(0) == p_zero
    assert sum(damage.probabilities().values()) == 1


def test_bc_d2_range_reading() -> None:
    assert effective_range(0) == 0 and effective_range(2) == 2
    steps = Options(bc_d2_range=RangeReading.STEPS)
    assert effective_range(0, steps) == 1 and effective_range(2, steps) == 3
    # adjacent MG hits either way; the damage differs: d8 − 2 against d8 − 3
    assert damage_distribution(Weapon.MG, effective_range(0)).mean() == F(21, 8)
    assert damage_distribution(Weapon.MG, effective_range(0, steps)).mean() == F(15, 8)

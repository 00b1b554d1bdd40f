"""Shared Mini Car Wars fixtures: the vehicles of the worked examples (digest §4)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from carwars_desktop.rules.mini_car_wars import MiniSheet, stock_sheet
from carwars_desktop.rules.mini_car_wars.model import Side


def damaged_courier(speed: int = 40) -> MiniSheet:
    """MCW-E2: the stock Courier after a brief combat (right armor and MG gone, F −6, PP −3)."""
    courier = stock_sheet("Courier")
    weapons = list(courier.weapons)
    weapons[1] = replace(weapons[1], destroyed=True)  # MG (R)
    armor = courier.armor.with_side(Side.RIGHT, 0).with_side(Side.FRONT, 24)
    return replace(courier, name="Roadie", armor=armor, weapons=tuple(weapons),
                   power_plant=9, speed=speed)


@pytest.fixture
def roadie() -> MiniSheet:
    """J.W. Roadie's damaged Courier at 40 mph (MCW-E4, E6)."""
    return damaged_courier(40)


@pytest.fixture
def carter() -> MiniSheet:
    """"Killer" Carter's Courier (b) at 60 mph (MCW-E6)."""
    return replace(stock_sheet("Courier (b)"), name="Carter", speed=60)

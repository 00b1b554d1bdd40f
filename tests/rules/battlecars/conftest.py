"""Shared fixtures for the Battlecars tests: the invented TEST-1 card (digest Appendix A)."""

from __future__ import annotations

import pytest

from carwars_desktop.rules.battlecars import CarSheet, example_card
from carwars_desktop.rules.battlecars.catalog import example_car_name


@pytest.fixture
def car() -> CarSheet:
    """Car 1 on the TEST-1 example card, fresh from the catalog."""
    return CarSheet.fresh(example_card(), example_car_name(1))


@pytest.fixture
def other() -> CarSheet:
    """Car 2 on the TEST-1 example card."""
    return CarSheet.fresh(example_card(), example_car_name(2))

"""Passive weapons: dropping markers and driving onto them (digest §2.4 step 4, §2.12)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from carwars_desktop.dice import EnteredDice
from carwars_desktop.procedures import InputError
from carwars_desktop.rules.battlecars import CarSheet
from carwars_desktop.rules.battlecars.procedures.passives import DROP, PASSIVE
from carwars_desktop.rules.battlecars.terms import Weapon


def test_drop_a_marker(car: CarSheet) -> None:
    resolution = DROP.resolve({"vehicle": car, "mount": "Pod C", "weapon": "oil"}, EnteredDice([]))
    sheet = resolution.effects[0].sheet
    assert sheet.load("Pod C") == (Weapon.SMOKE, Weapon.SPIKES, Weapon.MINES)
    assert sheet.drops_this_turn == ("Pod C",)
    assert resolution.steps[0].text == (f"{car.name} drops Oil from Pod C onto the nearest "
                                        "point along its barrel line")


@pytest.mark.parametrize(("values", "message"), [
    ({"mount": "Pod A", "weapon": "oil"}, "Pod A holds no Oil.*fires out of the front"),
    ({"mount": "Turret", "weapon": "oil"}, "passives are dropped from pods"),
    ({"mount": "Pod C", "weapon": "oil", "point_blocked": True}, "unoccupied point"),
    ({"mount": "Pod C", "weapon": "oil", "point_has_marker": True,
      "bc_d27_marker_occupies": True}, "BC-D27 alternative"),
    ({"mount": "Pod X", "weapon": "oil"}, "has no 'Pod X'"),
])
def test_drop_refusals(car: CarSheet, values: dict[str, object], message: str) -> None:
    with pytest.raises(InputError, match=message):
        DROP.resolve({"vehicle": car} | values, EnteredDice([]))


def test_one_drop_per_pod_per_turn_and_markers_may_share_a_point(car: CarSheet) -> None:
    dropped = replace(car, drops_this_turn=("Pod C",))
    with pytest.raises(InputError, match="already dropped a round this Turn"):
        DROP.resolve({"vehicle": dropped, "mount": "Pod C", "weapon": "oil"}, EnteredDice([]))
    shared = DROP.resolve({"vehicle": car, "mount": "Pod C", "weapon": "smoke",
                           "point_has_marker": True}, EnteredDice([]))
    assert shared.success is True   # BC-D27: a marker does not make a point occupied


def test_spikes_then_skid(car: CarSheet) -> None:
    values = {"vehicle": replace(car, speed=4), "spikes": True}
    resolution = PASSIVE.resolve(values, EnteredDice([5, 3, 8, 1, 5, 1]))
    texts = [s.text for s in resolution.steps]
    assert texts[0] == ("Spikes: Tyre FL takes 1d8-3: rolled 5 → 2, 2 covered (no carry-over "
                        "between tyres)")
    assert "Spikes: Tyre FR takes 1d8-3: rolled 3 → 0, 0 covered (no carry-over between tyres)" \
        in texts
    assert "Tyre FL destroyed; Tyre RL destroyed; max speed 9 → 5" in texts
    assert "SD from Spikes: max(2, speed 4) = 4" in texts
    sheet = resolution.effects[0].sheet
    assert sheet.destroyed("Tyre FL") and sheet.hits("Tyre RR") == 0
    assert [d.purpose for d in PASSIVE.dice_needed(values)] == [
        "spikes damage per working tyre", "drift", "final facing"]


def test_mines_ignore_armour(car: CarSheet) -> None:
    values = {"vehicle": replace(car, speed=3), "mines": True}
    # tyres 1, 1, 1, 1 (no damage); section die 7 → rear; location 5 → Fuel Tank; 1d8 − 2 = 6
    # → 3 on the tank, 3 carried: location 3 → Engine
    resolution = PASSIVE.resolve(values, EnteredDice([1, 1, 1, 1, 7, 5, 8, 3]))
    sheet = resolution.effects[0].sheet
    assert sheet.armour_left(sheet.card.armour[-1].block) == 6
    assert sheet.hits("Fuel Tank") == 3 and sheet.hits("Engine") == 3
    texts = [s.text for s in resolution.steps]
    assert "Mines, interior ignoring armour: section die 7 → rear" in texts
    assert "hit location → Fuel Tank; damage 1d8-2: rolled 8 → 6" in texts
    assert resolution.outcome == "Mines: no skid test"
    assert dict(PASSIVE.odds(values).expected)["mine interior damage"] == Fraction(21, 8)


def test_mines_destroy_counters_without_detonation(car: CarSheet) -> None:
    values = {"vehicle": car, "mines": True}
    resolution = PASSIVE.resolve(values, EnteredDice([1, 1, 1, 1, 8, 7, 3]))
    texts = [s.text for s in resolution.steps]
    assert "counters hit by the mine are destroyed without a roll: Shell" in texts


def test_bc_d42_order_and_the_greatest_sd(car: CarSheet) -> None:
    values = {"vehicle": replace(car, speed=2), "mines": True, "spikes": True, "oil": True,
              "smoke": True}
    needs = [d.purpose for d in PASSIVE.dice_needed(values)]
    assert needs[:2] == ["mine damage per working tyre", "mine section"]
    assert needs[-3:] == ["spikes damage per working tyre", "drift", "final facing"]
    dice = [1] * 4 + [3, 1, 1] + [1] * 4 + [4, 1]
    resolution = PASSIVE.resolve(values, EnteredDice(dice))
    assert resolution.values["sd"] == 5
    assert "several on one point: the greatest, SD 5" in [s.text for s in resolution.steps]


def test_bc_d14_no_skid_while_drifting(car: CarSheet) -> None:
    values = {"vehicle": replace(car, speed=6), "oil": True, "drifting": True}
    resolution = PASSIVE.resolve(values, EnteredDice([]))
    assert resolution.outcome == "Oil: no skid test"
    assert PASSIVE.odds(values).outcomes[0].label == "no skid test"


def test_oil_skid_odds(car: CarSheet) -> None:
    odds = PASSIVE.odds({"vehicle": replace(car, speed=3), "oil": True})   # SD 5, speed 3
    assert odds.probability("continues") == Fraction(1, 2)
    assert dict(odds.expected)["P(any drift)"] == Fraction(4, 8)


def test_a_marker_is_required(car: CarSheet) -> None:
    with pytest.raises(InputError, match="tick at least one marker"):
        PASSIVE.resolve({"vehicle": car}, EnteredDice([]))

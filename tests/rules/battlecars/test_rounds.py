"""The Game Round: order of play, Turns, end of Round and smoke (digest §2.1–§2.2, §2.16)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from carwars_desktop.dice import EnteredDice
from carwars_desktop.procedures import InputError
from carwars_desktop.rules.battlecars import CarSheet
from carwars_desktop.rules.battlecars.procedures.rounds import (
    END_ROUND,
    ENTRY_ORDER,
    SMOKE_DISPERSAL,
    START_TURN,
)
from carwars_desktop.rules.battlecars.rounds import play_order


@pytest.mark.parametrize(("face", "removed"), [(1, 0), (4, 0), (5, 1), (8, 1)])
def test_smoke_removed_on_5_to_8(face: int, removed: int) -> None:
    resolution = SMOKE_DISPERSAL.resolve({"markers": 1}, EnteredDice([face]))
    assert resolution.values["removed"] == removed


def test_smoke_dispersal_of_several_markers() -> None:
    resolution = SMOKE_DISPERSAL.resolve({"markers": 3}, EnteredDice([2, 7, 5]))
    assert resolution.steps[0].text == ("3 Smoke markers: 2 stays, 7 removed, 5 removed → "
                                        "2 removed, 1 remain")
    assert resolution.steps[0].rule == "Battlecars §2.2 step 4"
    odds = SMOKE_DISPERSAL.odds({"markers": 3})
    assert [o.probability for o in odds.outcomes] == [Fraction(1, 8), Fraction(3, 8),
                                                      Fraction(3, 8), Fraction(1, 8)]
    assert "1/2 · 50.0%" in odds.summary


def test_end_of_round_clears_stun_and_tallies(car: CarSheet, other: CarSheet) -> None:
    stunned = replace(car, stunned=True, targets_this_turn=("x",), speed=0)
    resolution = END_ROUND.resolve({"smoke_markers": 1, "car1": stunned, "car3": other},
                                   EnteredDice([6]))
    assert [e.input_name for e in resolution.effects] == ["car1", "car3"]
    assert not resolution.effects[0].sheet.stunned
    assert resolution.effects[0].sheet.targets_this_turn == ()
    assert resolution.outcome == "Round over: 1 Smoke marker(s) removed"
    assert f"{car.name}: the stun ends with the Round" in [s.text for s in resolution.steps]


def test_entry_order_with_a_tie() -> None:
    values = {"players": "Ann, Bob, Cy", "scenario": "arena"}
    resolution = ENTRY_ORDER.resolve(values, EnteredDice([7, 7, 2, 3, 5]))
    texts = [s.text for s in resolution.steps]
    assert texts[0] == "rolled Ann 7, Bob 7, Cy 2 → tie at 7 between Ann, Bob: they roll again"
    assert texts[1] == "rolled Ann 3, Bob 5 → Bob is highest"
    assert resolution.values["order"] == ("Bob", "Cy", "Ann")
    assert resolution.outcome == "Bob enters the arena first: Bob, Cy, Ann"
    assert ENTRY_ORDER.odds(values).probability("Cy first") == Fraction(1, 3)


def test_play_passes_to_the_left() -> None:
    assert play_order(("a", "b", "c", "d"), 2) == ("c", "d", "a", "b")


def test_entry_order_needs_2_to_4_players() -> None:
    with pytest.raises(InputError, match="2–4 different players"):
        ENTRY_ORDER.resolve({"players": "solo"}, EnteredDice([]))


def test_start_turn_resets_tallies(car: CarSheet) -> None:
    busy = replace(car, speed=4, targets_this_turn=("x", "y"), drops_this_turn=("Pod C",))
    resolution = START_TURN.resolve({"vehicle": busy}, EnteredDice([]))
    sheet = resolution.effects[0].sheet
    assert sheet.targets_this_turn == () and sheet.drops_this_turn == ()
    assert resolution.outcome == "move 4"


def test_start_turn_of_a_stunned_driver(car: CarSheet) -> None:
    resolution = START_TURN.resolve({"vehicle": replace(car, stunned=True)}, EnteredDice([]))
    assert "does not move or fire this Turn" in resolution.steps[-1].text


def test_dead_driver_skids_at_the_start_of_the_turn(car: CarSheet) -> None:
    dead = replace(car.with_hits("Driver", 3), speed=6)
    values = {"vehicle": dead}
    assert [d.purpose for d in START_TURN.dice_needed(values)] == ["drift", "final facing"]
    resolution = START_TURN.resolve(values, EnteredDice([8, 1]))   # SD 6: drift 5
    assert resolution.effects[0].sheet.speed == 0
    assert any("BC-D30" in s.rule for s in resolution.steps)
    assert START_TURN.odds(values).probability("stops") == 1

"""AUTOpower §2.3 step 4 at the Table: a car attacks at most once a turn, in its own Combat
phase. The rules core refuses an attack at any other moment of play (every path asks it:
the dialog, the F-keys, the quick line, the Resolver at the Table)."""

from __future__ import annotations

import pytest

from carwars_desktop.rules.autopower.phases import phases
from carwars_desktop.rules.autopower.play import RULES
from carwars_desktop.rules.clock import Clock

CLOCK = phases(["Longshot", "Rhino"])


def _at(phase: str) -> Clock:
    return Clock(1, CLOCK.index(phase), CLOCK, "Turn")


@pytest.mark.parametrize(("procedure", "attacker"), [
    ("autopower.attack", "firer"), ("autopower.laser", "firer"), ("autopower.ram", "rammer")])
def test_an_attack_only_in_its_cars_own_combat_phase(procedure: str, attacker: str) -> None:
    names = {attacker: "Rhino", "target": "Longshot"}
    assert RULES.table_problems(procedure, names, {}, _at("Rhino: combat"), ()) == ()
    for phase in ("Rhino: draw", "Rhino: accelerate", "Rhino: armor", "Longshot: combat"):
        now, step = phase.split(": ")
        assert RULES.table_problems(procedure, names, {}, _at(phase), ()) == (
            f"Rhino attacks only in its own Combat phase: it is {now}'s {step} phase "
            "(AUTOpower §2.3 step 4)",)


def test_other_rolls_and_a_clock_without_turn_order_are_not_judged() -> None:
    names = {"vehicle": "Rhino"}
    assert RULES.table_problems("autopower.control", names, {}, _at("Longshot: draw"), ()) == ()
    assert RULES.table_problems("autopower.attack", {"firer": "Rhino", "target": "Longshot"},
                                {}, Clock(1, 0, phases([]), "Turn"), ()) == ()

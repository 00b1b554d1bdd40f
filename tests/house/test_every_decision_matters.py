"""Every decision of the three digests that has an alternative (today's inputs named after a
decision) is switchable in a profile, and for each a case exists where the alternative
changes a resolution or the odds (issue 14)."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from carwars_desktop.dice import EnteredDice, SeededDice
from carwars_desktop.procedures import InputError, Procedure, RulesRefusal, decision_of
from carwars_desktop.rules import all_procedures, find_ruleset
from carwars_desktop.rules.battlecars import PedestrianSheet
from carwars_desktop.rules.battlecars.catalog import obstacle_catalog
from carwars_desktop.rules.battlecars.terms import Block
from carwars_desktop.rules.kernel.decisions import Decision
from carwars_desktop.rules.mini_car_wars.catalog import stock_sheet
from carwars_desktop.rules.mini_car_wars.model import Side, Size

_spec = importlib.util.spec_from_file_location(
    "conformance_cases", Path(__file__).parents[1] / "rules" / "test_conformance.py")
assert _spec is not None and _spec.loader is not None
_conformance = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = _conformance
_spec.loader.exec_module(_conformance)

SEEDS = range(1, 13)


def _decisions() -> Iterator[tuple[str, Decision]]:
    """The decisions procedures take as inputs, and those they require to be offered (the
    AUTOpower ram and laser variants)."""
    for procedure in all_procedures():
        ids = [decision_of(spec) for spec in procedure.decision_inputs]
        ids += [requirement.decision for requirement in procedure.requires]
        for decision_id in ids:
            yield procedure.ruleset, find_ruleset(procedure.ruleset).decisions.get(decision_id)


DECISIONS = sorted({(rid, d.id): d for rid, d in _decisions()}.items())


def _face(procedure: Procedure, values: Mapping[str, Any], house: Mapping[str, Any]) -> Any:
    """What a GM sees of a roll under ``house``: the odds and the seeded resolutions."""
    try:
        odds = procedure.odds(values, house).to_json()
    except RulesRefusal as refused:
        return ("refused", refused.refusal.text())
    except InputError as error:
        return ("bad", str(error))
    resolutions = []
    for seed in SEEDS:
        # Seeded dice, and the same after a 5, 5 (a failed control roll: a skid).
        dice = SeededDice(seed) if seed % 2 else EnteredDice([5, 5], SeededDice(seed))
        try:
            resolution = procedure.resolve(values, dice, house)
        except (InputError, ValueError) as error:
            resolutions.append(("error", str(error)))
            continue
        resolutions.append((resolution.outcome, [s.text for s in resolution.steps],
                            [e.to_json() for e in resolution.effects]))
    return odds, resolutions


def _extra() -> dict[str, list[tuple[str, dict[str, Any]]]]:
    """Hand-picked cases (from the decisions' own tests) the catalog samples do not reach."""
    car, other = _conformance._car, _conformance._other
    last_move = replace(stock_sheet("Courier"), speed=60, phases_used=3, maneuvers=1)
    courier, bike = (replace(stock_sheet("Courier"), speed=40),
                     replace(stock_sheet("Shogun 100"), speed=20))
    cycle_hit = {"mover": courier, "other": bike, "kind": "t-bone", "other_side": "R"}
    walker = PedestrianSheet("Bob")
    roadie = replace(stock_sheet("Courier"), name="Roadie", speed=40, power_plant=9,
                     armor=stock_sheet("Courier").armor.with_side(Side.RIGHT, 0)
                     .with_side(Side.FRONT, 24))
    crippled = replace(car(9).with_hits("Engine", 4).with_hits("Tyre FL", 2), speed=9)
    booster = {"firer": "Booster Gold", "target": "Two Face at Speed 6", "cards": "3, 6"}
    return {
        "MCW-D2": [("mini.maneuver", {"vehicle": replace(roadie, phases_used=3, maneuvers=1),
                                      "maneuver": "swerve"})],
        "MCW-D3": [("mini.maneuver", {"vehicle": last_move, "maneuver": "swerve"}),
                   ("mini.maneuver", {"vehicle": last_move, "maneuver": "pivot"})],
        "MCW-D6a": [("mini.collision", cycle_hit)],
        "MCW-D6b": [("mini.collision", cycle_hit)],
        "MCW-D13": [("mini.fire", {"firer": "Courier", "target": "Shogun 100", "side": "F",
                                   "range": "3"})],
        "MCW-D14": [("mini.fire", {"firer": stock_sheet("Shogun 220"),
                                   "target": replace(stock_sheet("Rocket Special"),
                                                     size=Size.COMPACT),
                                   "side": "T", "range": "3"})],
        "MCW-A4": [("mini.fire", {"firer": "Mini Sherman", "weapon": "Smokescreen B"})],
        "MCW-off-road": [("mini.hazard", {"hazard": "off-road", "vehicle": "Courier"})],
        "AP-iq-cards": [("autopower.attack", {**booster, "iq_cards": "4"})],
        "AP-D9": [("autopower.attack", booster)],
        "AP-D10": [("autopower.attack", {**booster, "iq_cards": "4",
                                         "defender_iq_cards": "2"})],
        "AP-D15": [("autopower.control", {"vehicle": ap_car("Calm", 3, 3, 9, 5), "damage": 4})],
        "AP-D17": [("autopower.accelerate", {"vehicle": "Black Cat", "play": "5",
                                             "opening": True})],
        "AP-D25": [("autopower.ram", {"rammer": ap_car("Rammer", 4, 3, 30, 1,
                                                       energy_in_play=(2,),
                                                       strength_in_play=(5,)),
                                      "target": ap_car("Victim", 4, 3, 30, 2,
                                                       energy_in_play=(3,)),
                                      "cards": "4", "control_rolls": True})],
        "AP-D27": [("autopower.attack", {"firer": "Booster Gold", "cards": "3",
                                         "target": "Martian Manhunter at Armor 18, Speed 6"})],
        "BC-D4": [("battlecars.fire", {"firer": car(), "mount": "Turret", "target": other(),
                                       "area": "front", "points_between": 5,
                                       "next_target": walker, "next_points_between": 10})],
        "BC-D10": [("battlecars.skid", {"vehicle": car(12), "speed": 12, "corner_excess": 12})],
        "BC-D12": [("battlecars.skid", {"vehicle": car(6), "oil": True, "clear_points": 3,
                                        "intended_corner": "90"})],
        "BC-D18": [("battlecars.crash", {"vehicle": car(9), "speed": 25,
                                         "obstacle": obstacle_catalog()["wreck"]})],
        "BC-D19": [("battlecars.fire", {"firer": car(), "mount": "Pod A", "area": "rear",
                                        "target": other().with_hits("Fire Extinguisher", 2)
                                        .with_armour_hits(Block.REAR, 6),
                                        "bearing": "behind", "points_between": 0})],
        "BC-D25": [("battlecars.speed", {"vehicle": crippled, "speed": 3})],
        "BC-D27": [("battlecars.drop", {"vehicle": car(), "mount": "Pod C", "weapon": "oil",
                                        "point_has_marker": True})],
        "BC-D34": [("battlecars.mission", {"car": 4})],
        "BC-D48": [("battlecars.speed", {"vehicle": car(), "speed": 3,
                                         "direction": "reverse"})],
    }


def ap_car(name: str, e: int, f: int, s: int, i: int, **state: Any) -> Any:
    from carwars_desktop.rules.autopower import Car, new_sheet

    return replace(new_sheet(Car(name, e, f, s, i)), **state)


def _uses(procedure: Procedure, decision_id: str) -> bool:
    return any(decision_of(spec) == decision_id for spec in procedure.inputs) or \
        any(r.decision == decision_id for r in procedure.requires)


def _base(procedure: Procedure, decision_id: str) -> dict[str, Any]:
    """The defaults, but with the variants the procedure requires on (save the one tested)."""
    return {r.decision: r.value for r in procedure.requires if r.decision != decision_id}


def _cases_for(decision_id: str) -> Iterator[tuple[Procedure, Mapping[str, Any]]]:
    for case in _conformance.CASES:
        if _uses(case.procedure, decision_id):
            values = {k: v for k, v in case.values.items()
                      if not any(s.name == k and decision_of(s) for s in case.procedure.inputs)}
            yield case.procedure, values
    for procedure_id, values in _extra().get(decision_id, []):
        yield next(p for p in all_procedures() if p.id == procedure_id), values


@pytest.mark.parametrize(("ruleset_id", "decision_id"), [key for key, _ in DECISIONS],
                         ids=[key[1] for key, _ in DECISIONS])
def test_the_alternative_changes_a_resolution_or_the_odds(ruleset_id: str,
                                                          decision_id: str) -> None:
    decisions = find_ruleset(ruleset_id).decisions
    assert decisions is not None
    decision = decisions.get(decision_id)
    default = decisions.default(decision_id)
    alternatives = [c for c in decision.choices if c != default]
    assert alternatives, f"{decision_id} has no alternative"
    for alternative in alternatives:
        for procedure, values in _cases_for(decision_id):
            base = _base(procedure, decision_id)
            if _face(procedure, values, base) != _face(procedure, values,
                                                       {**base, decision_id: alternative}):
                break
        else:
            pytest.fail(f"{decision_id}={decision.text(alternative)} changed nothing")


def test_there_are_decisions_of_all_three_digests() -> None:
    prefixes = {decision_id.split("-")[0] for _, decision_id in (k for k, _ in DECISIONS)}
    assert prefixes == {"MCW", "BC", "AP"}
    assert len(DECISIONS) >= 35
    assert {"AP-ramming", "AP-lasers"} <= {decision_id for _, decision_id in
                                           (k for k, _ in DECISIONS)}

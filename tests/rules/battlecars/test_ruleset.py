"""The Battlecars ruleset as the app sees it: registry, catalog, procedures, command line."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from carwars_desktop.cli import resolve_main
from carwars_desktop.dice import EnteredDice, SeededDice
from carwars_desktop.rules import find_procedure, find_ruleset
from carwars_desktop.rules.battlecars import RULESET, CarSheet, PedestrianSheet, example_card
from carwars_desktop.rules.battlecars.catalog import (
    EXAMPLE_CARD_NAME,
    example_car_name,
    obstacle_catalog,
)

CAR1, CAR2 = example_car_name(1), example_car_name(2)


def test_ruleset_identity() -> None:
    assert find_ruleset("battlecars") is RULESET
    assert (RULESET.id, RULESET.title, RULESET.dice, RULESET.digest) == (
        "battlecars", "Battlecars", "d8", "battlecars.md")
    ids = [p.id for p in RULESET.procedures]
    assert len(ids) == len(set(ids)) == 23
    assert all(i.startswith("battlecars.") and p.ruleset == "battlecars"
               for i, p in zip(ids, RULESET.procedures, strict=True))
    for expected in ("speed", "corner", "skid", "ram", "crash", "fire", "passive", "fuel_tank",
                     "detonation", "smoke_dispersal", "entry_order", "mission"):
        assert find_procedure(f"battlecars.{expected}").id == f"battlecars.{expected}"
    assert all(p.rule.startswith(("Battlecars §", "BC-")) for p in RULESET.procedures)
    json.dumps([p.describe() for p in RULESET.procedures])


def test_catalog_designs_and_sheets() -> None:
    designs = RULESET.catalog()
    assert list(designs) == [EXAMPLE_CARD_NAME]
    card = designs[EXAMPLE_CARD_NAME]
    assert card.problems() == ()
    assert RULESET.design_from_json(card.to_json()) == card
    sheet = RULESET.sheet_for_design(card)
    assert isinstance(sheet, CarSheet) and sheet.speed == 0
    assert RULESET.sheet_from_json(sheet.to_json()) == sheet
    walker = PedestrianSheet("Ann", 1)
    assert RULESET.sheet_from_json(walker.to_json()) == walker
    tree = obstacle_catalog()["large tree"]
    assert RULESET.sheet_from_json(tree.to_json()) == tree


def test_tables_are_browsable() -> None:
    ids = {t.id for t in RULESET.tables}
    assert {"battlecars.drift", "battlecars.crash_damage", "battlecars.acceleration",
            "battlecars.safe_speeds", "battlecars.to_hit", "battlecars.missions"} <= ids


def _car(speed: int = 0, **changes: Any) -> CarSheet:
    return replace(CarSheet.fresh(example_card(), CAR1), speed=speed, **changes)


def _other(speed: int = 0) -> CarSheet:
    return replace(CarSheet.fresh(example_card(), CAR2), speed=speed)


SAMPLES: dict[str, dict[str, Any]] = {
    "battlecars.entry_order": {"players": "a, b, c"},
    "battlecars.speed": {"vehicle": _car(3), "speed": 5},
    "battlecars.start_turn": {"vehicle": _car(4).with_hits("Driver", 3)},
    "battlecars.three_point_turn": {"vehicle": _car()},
    "battlecars.corner": {"vehicle": _car(9), "angle": "135", "clear_points": 1},
    "battlecars.skid": {"vehicle": _car(6), "oil": True, "clear_points": 3},
    "battlecars.passive": {"vehicle": _car(4), "mines": True, "spikes": True, "smoke": True},
    "battlecars.drop": {"vehicle": _car(), "mount": "Pod C", "weapon": "mines"},
    "battlecars.fire": {"firer": _car(), "mount": "Pod D", "target": _other(),
                        "area": "rear", "bearing": "behind", "points_between": 2},
    "battlecars.damage": {"vehicle": _car(), "area": "rear", "amount": 14, "line": "from-rear",
                          "source": "shell"},
    "battlecars.fuel_tank": {"vehicle": _car().with_hits("Fire Extinguisher", 2),
                             "trigger": "rocket"},
    "battlecars.detonation": {"vehicle": _car().with_hits("Gunnery Computer", 2),
                              "mount": "Pod D", "weapon": "shell", "rounds": 3},
    "battlecars.crash": {"vehicle": _car(9), "obstacle": obstacle_catalog()["wreck"]},
    "battlecars.ram": {"rammer": _car(7), "target": _other(8), "approach": "front"},
    "battlecars.leave_car": {"vehicle": _car(), "pedestrian": PedestrianSheet("Ann")},
    "battlecars.commandeer": {"vehicle": _car(occupied=False), "pedestrian": PedestrianSheet("Bo")},
    "battlecars.run_over": {"pedestrian": PedestrianSheet("Ann")},
    "battlecars.pedestrian_speed": {"pedestrian": PedestrianSheet("Ann"), "speed": 1},
    "battlecars.end_round": {"smoke_markers": 2, "car1": _car()},
    "battlecars.smoke_dispersal": {"markers": 4},
    "battlecars.mission": {"car": 2},
    "battlecars.rearm": {"vehicle": _car()},
    "battlecars.winner": {"car1": _car(), "car2": _other()},
}


def test_every_procedure_has_a_sample() -> None:
    assert set(SAMPLES) == {p.id for p in RULESET.procedures}


@pytest.mark.parametrize("procedure_id", sorted(SAMPLES))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_procedure_resolves_explains_and_has_exact_odds(procedure_id: str,
                                                              seed: int) -> None:
    procedure = find_procedure(procedure_id)
    values = SAMPLES[procedure_id]
    odds = procedure.odds(values)
    assert sum(o.probability for o in odds.outcomes) == 1
    assert odds.summary
    procedure.dice_needed(values)
    dice = SeededDice(seed)
    resolution = procedure.resolve(values, dice)
    assert resolution.steps and resolution.outcome
    assert all(step.text and step.rule for step in resolution.steps)
    json.dumps(resolution.to_json())
    json.dumps(odds.to_json())
    replay = procedure.resolve(values, EnteredDice(dice.values()))
    assert replay.outcome == resolution.outcome and replay.steps == resolution.steps


def test_parse_command_line_texts() -> None:
    values = find_procedure("battlecars.fire").parse({
        "firer": CAR1, "mount": "Pod A", "target": CAR2, "area": "front",
        "points_between": "3", "smoke": "yes"})
    assert values["firer"].name == CAR1 and values["smoke"] is True
    obstacle = find_procedure("battlecars.fire").parse({
        "firer": CAR1, "mount": "Turret", "target": "small tree"})
    assert obstacle["target"].capacity == 4


def test_the_resolve_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    status = resolve_main(["battlecars.fire", "--set", f"firer={CAR1}", "--set", "mount=Pod A",
                           "--set", f"target={CAR2}", "--set", "area=front",
                           "--set", "points_between=3", "--dice", "5,4,6,6,3", "--json"])
    assert status == 0
    document = json.loads(capsys.readouterr().out)
    assert document["outcome"] == f"hit {CAR2}: 9 damage"
    assert [e["input"] for e in document["effects"]] == ["firer", "target"]
    assert document["odds"]["outcomes"][0]["label"] == "hit: no damage"
    refused = resolve_main(["battlecars.fire", "--set", f"firer={CAR1}", "--set", "mount=Pod C",
                            "--set", f"target={CAR2}", "--set", "area=front"])
    assert refused == 3  # the rules refuse it (a refusal), not bad input
    assert "Pod C holds no missile round" in capsys.readouterr().err

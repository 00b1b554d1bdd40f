"""The Battlecars ruleset as the app sees it: registry, catalog, procedures, command line."""

from __future__ import annotations

import json

import pytest

from carwars_desktop.cli import resolve_main
from carwars_desktop.rules import find_procedure, find_ruleset
from carwars_desktop.rules.battlecars import RULESET, CarSheet, PedestrianSheet
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


# Every procedure resolving, explained, with exact odds: tests/rules/test_conformance.py.


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

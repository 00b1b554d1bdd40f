"""The AUTOpower ruleset value: registry wiring, ids, catalog, purity of the package."""

import ast
from pathlib import Path
from typing import Any

import pytest

from carwars_desktop.dice import EnteredDice
from carwars_desktop.rules import autopower
from carwars_desktop.rules.autopower import (
    RULESET,
    Car,
    CarSheet,
    Options,
    example_sheets,
    procedures_for,
    sample_cars,
)
from carwars_desktop.rules.registry import find_ruleset

PACKAGE = Path(autopower.__file__).parent

# One resolvable set of values per procedure, with the dice they use.
EXAMPLES: dict[str, tuple[dict[str, Any], list[int]]] = {
    "autopower.draw_order": ({"car_a": "Bishop", "car_b": "Rhino"}, []),
    "autopower.first_player": ({"car_a": "Bishop", "car_b": "Rhino"}, []),
    "autopower.draw": ({"car": "Bishop"}, []),
    "autopower.accelerate": ({"car": "Black Cat", "play": "5"}, [4, 4]),
    "autopower.push": ({"car": "Darkseid at Speed 9"}, [5, 4]),
    "autopower.armor": ({"car": "Bishop", "cards": "5"}, []),
    "autopower.attack": ({"attacker": "Booster Gold", "target": "Two Face", "cards": "3"}, [3, 4]),
    "autopower.control": ({"car": "Bishop at Speed 10", "damage": 8}, [6, 3]),
    "autopower.ram": ({"attacker": "Darkseid", "target": "Nightwing", "cards": "5"}, [3, 4]),
    "autopower.laser": ({"attacker": "Booster Gold", "target": "Two Face", "cards": "3"}, [3, 4]),
    "autopower.victory": ({"car_a": "Bishop", "car_b": "Rhino"}, []),
}


def test_ruleset_value() -> None:
    assert (RULESET.id, RULESET.title, RULESET.dice, RULESET.digest) == \
        ("autopower", "AUTOpower", "2d6", "autopower.md")
    assert find_ruleset("autopower") is RULESET


def test_procedure_ids_titles_and_rules() -> None:
    ids = [p.id for p in RULESET.procedures]
    assert len(set(ids)) == len(ids) == len(EXAMPLES)
    assert set(ids) == set(EXAMPLES)
    for procedure in RULESET.procedures:
        assert procedure.ruleset == "autopower" and procedure.rule.startswith("AUTOpower §")
        assert procedure.title and procedure.summary
        assert procedure.describe()["inputs"]


@pytest.mark.parametrize("procedure_id", sorted(EXAMPLES))
def test_every_procedure_resolves_and_explains_itself(procedure_id: str) -> None:
    procedure = next(p for p in RULESET.procedures if p.id == procedure_id)
    values, dice = EXAMPLES[procedure_id]
    needs = procedure.dice_needed(values)
    assert sum(n.count for n in needs) >= len(dice)
    odds = procedure.odds(values)
    assert sum(o.probability for o in odds.outcomes) == 1 and odds.summary
    resolution = procedure.resolve(values, EnteredDice(dice))
    assert [d.value for d in resolution.dice] == dice
    assert resolution.steps and resolution.outcome
    assert all(step.rule.startswith("AUTOpower §") for step in resolution.steps)
    resolution.to_json()
    for effect in resolution.effects:
        assert isinstance(effect.sheet, CarSheet) and effect.summary
        assert CarSheet.from_json(effect.to_json()["sheet"]) == effect.sheet


def test_catalog_designs_and_sheets() -> None:
    cars = RULESET.catalog()
    assert cars == sample_cars()
    for name, car in cars.items():
        assert isinstance(car, Car) and car.name == name
        assert RULESET.design_from_json(car.to_json()) == car
        sheet = RULESET.sheet_for_design(car)
        assert RULESET.sheet_from_json(sheet.to_json()) == sheet
        assert car.problems(division=20) == ()
    assert set(example_sheets()) >= {"Two Face at Speed 6", "Darkseid at Speed 9"}


def test_variant_procedures_follow_the_pre_game_options() -> None:
    basic = {p.id for p in procedures_for(Options())}
    assert "autopower.ram" not in basic and "autopower.attack" in basic
    everything = {p.id for p in procedures_for(Options(control_rolls=True, ramming=True,
                                                        lasers=True))}
    assert everything == {p.id for p in RULESET.procedures}


def test_reference_tables_have_ids_and_rules() -> None:
    for table in RULESET.tables:
        assert table.id.startswith("autopower.") and table.rule.startswith("AUTOpower §")
        assert all(len(row) == len(table.columns) for row in table.rows)


ALLOWED = ("carwars_desktop.dice", "carwars_desktop.procedures", "carwars_desktop.rules.ruleset",
           "carwars_desktop.rules.play", "carwars_desktop.rules.clock",
           "carwars_desktop.rules.autopower")
STDLIB = {"__future__", "collections", "dataclasses", "enum", "fractions", "re", "typing"}


def test_the_package_is_pure_python() -> None:
    files = sorted(PACKAGE.rglob("*.py"))
    assert len(files) > 20
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                assert name.split(".")[0] in STDLIB or name.startswith(ALLOWED), \
                    f"{path.name} imports {name}"

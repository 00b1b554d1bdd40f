"""The AUTOpower ruleset value: registry wiring, ids, catalog, purity of the package."""

import ast
from pathlib import Path
from typing import Any

from carwars_desktop.rules import autopower
from carwars_desktop.rules.autopower import (
    RULESET,
    Car,
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
    "autopower.draw": ({"vehicle": "Bishop"}, []),
    "autopower.accelerate": ({"vehicle": "Black Cat", "play": "5"}, [4, 4]),
    "autopower.push": ({"vehicle": "Darkseid at Speed 9"}, [5, 4]),
    "autopower.armor": ({"vehicle": "Bishop", "cards": "5"}, []),
    "autopower.attack": ({"firer": "Booster Gold", "target": "Two Face", "cards": "3"}, [3, 4]),
    "autopower.control": ({"vehicle": "Bishop at Speed 10", "damage": 8}, [6, 3]),
    "autopower.ram": ({"rammer": "Darkseid", "target": "Nightwing", "cards": "5"}, [3, 4]),
    "autopower.laser": ({"firer": "Booster Gold", "target": "Two Face", "cards": "3"}, [3, 4]),
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


# Every procedure resolving with its example dice: tests/rules/test_conformance.py.


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
           "carwars_desktop.rules.kernel", "carwars_desktop.rules.builtin",
           "carwars_desktop.rules.table_input", "carwars_desktop.rules.autopower")
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

"""The ruleset value: registry, procedures scripted as on the command line, catalog."""

from __future__ import annotations

import json

from carwars_desktop.dice import EnteredDice
from carwars_desktop.rules.mini_car_wars import RULESET, MiniDesign, MiniSheet
from carwars_desktop.rules.mini_car_wars.model import Armor
from carwars_desktop.rules.registry import all_procedures, find_procedure, find_ruleset


def test_registry_finds_the_ruleset() -> None:
    ruleset = find_ruleset("mini_car_wars")
    assert ruleset is RULESET
    assert (ruleset.id, ruleset.title, ruleset.dice, ruleset.digest) == (
        "mini_car_wars", "Mini Car Wars", "d6", "mini-car-wars.md")
    assert find_procedure("mini.fire").title == "Fire (to hit, damage, allocation)"


def test_procedure_ids_and_rules() -> None:
    ids = [p.id for p in RULESET.procedures]
    assert len(set(ids)) == len(ids) == 11
    assert {"mini.speed", "mini.schedule", "mini.maneuver", "mini.control", "mini.fire",
            "mini.damage", "mini.collision", "mini.hazard", "mini.road_duel_setup"} <= set(ids)
    for procedure in RULESET.procedures:
        assert procedure.ruleset == "mini_car_wars" and procedure.rule.startswith("Mini Car Wars")
        assert procedure.describe()["inputs"]
    assert set(ids) <= {p.id for p in all_procedures("mini_car_wars")}


def test_scripted_exchange_of_fire_from_text() -> None:
    """As `resolve mini.fire --set firer="Courier (b)" ...`: text in, JSON sheets out."""
    values = RULESET.procedures[7].parse({"firer": "Courier (b)", "target": "Courier",
                                          "linked": "yes", "side": "L", "range": "5"})
    resolution = find_procedure("mini.fire").resolve(values, EnteredDice([6, 6, 6, 6, 6, 6, 6, 6,
                                                                          6, 6, 6, 6, 6]))
    data = json.loads(json.dumps(resolution.to_json()))
    target = MiniSheet.from_json(data["effects"][1]["sheet"])
    # 18 + 18 at the left (20): 2 armor, 16 inside; interior 6 → power plant 12; 4 → R 20 → 16.
    assert target.armor == Armor(30, 16, 0, 25, 0) and target.power_plant_destroyed
    again = RULESET.procedures[7].parse({"firer": json.dumps(data["effects"][0]["sheet"]),
                                         "target": json.dumps(data["effects"][1]["sheet"]),
                                         "weapon": "1", "side": "L", "range": "5"})
    assert find_procedure("mini.fire").resolve(again, EnteredDice([])).outcome.startswith(
        "not allowed")


# Every procedure resolving with seeded dice: tests/rules/test_conformance.py.


def test_designs_and_sheets_through_the_ruleset() -> None:
    designs = RULESET.catalog()
    courier = designs["Courier (a)"]
    assert isinstance(courier, MiniDesign)
    assert RULESET.design_from_json(courier.to_json()) == courier
    sheet = RULESET.sheet_for_design(courier)
    assert RULESET.sheet_from_json(sheet.to_json()) == sheet
    assert [t.id for t in RULESET.tables][:3] == ["weapons", "to_hit_modifiers",
                                                  "hit_probability"]

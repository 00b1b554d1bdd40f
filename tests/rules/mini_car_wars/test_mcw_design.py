"""The vehicle designer: cost, armor arrangement, validation, JSON (digest §1.4–§1.5)."""

from __future__ import annotations

import pytest

from carwars_desktop.rules.mini_car_wars import MiniDesign, PersonKit, catalog, purchase_problems
from carwars_desktop.rules.mini_car_wars.decisions import MiniRules
from carwars_desktop.rules.mini_car_wars.errors import DesignFormatError, UnknownVehicleError
from carwars_desktop.rules.mini_car_wars.model import Armor, Side
from carwars_desktop.rules.mini_car_wars.tables import PACK_ATTACK, ROAD_DUEL


def codes(design: MiniDesign, **kwargs: object) -> list[str]:
    return [p.code for p in design.problems(**kwargs)]  # type: ignore[arg-type]


def test_e1_courier_specification_and_option_costs() -> None:
    """MCW-E1: the stock Courier; option (a) $12,050; option (b) $23,200."""
    courier = catalog()["Courier"]
    config = courier.configuration()
    assert courier.armor == Armor(30, 20, 20, 25, 0)
    assert config.size.value == "Luxury" and config.stock.power_plant == 12 and config.gunner
    assert [str(w) for w in config.weapons] == ["RL (F)", "MG (R)", "MG (L)", "MG (B)"]
    assert courier.cost() == 13_000
    assert catalog()["Courier (a)"].cost() == 12_050
    assert catalog()["Courier (b)"].cost() == 23_200


def test_catalog_designs_are_all_legal() -> None:
    designs = catalog()
    assert len(designs) == 14
    for name, design in designs.items():
        assert design.name == name
        assert design.problems() == (), name


def test_cost_formula_with_accessories() -> None:
    """cost = stock + option delta + 1,000 × TC + 4,000 × HRTC + 250 × body armor."""
    design = MiniDesign.stock_design("courier", "a", driver=PersonKit(1, 0, True),
                                     gunner=PersonKit(0, 1, True))
    assert design.cost() == 13_000 - 950 + 1_000 + 4_000 + 250 + 250


def test_rearranging_keeps_the_total_and_stays_legal() -> None:
    design = catalog()["Courier"].rearranged(Side.RIGHT, Side.FRONT, 15)
    assert design.armor == Armor(45, 5, 20, 25, 0)
    assert design.problems() == ()


def test_option_armor_is_placed_by_the_player() -> None:
    """Mini Sherman (a) adds 25 points anywhere (MCW-D18): unplaced points are a problem."""
    draft = MiniDesign("Tank", "mini_sherman", "a", Armor(35, 25, 25, 33, 0))
    (problem,) = draft.problems()
    assert problem.code == "armor-total" and problem.field == "armor"
    assert "118 armor points placed, 143 available (stock 118 + option 25)" in problem.message
    assert "25 points still to place" in problem.message and "§1.5" in problem.rule
    placed = draft.with_armor(Armor(35, 25, 25, 58, 0))
    assert placed.problems() == ()


def test_cycles_carry_armor_only_front_and_back() -> None:
    """Firelight Deluxe (opt): 12 + 17 = 29 points, on F/B only."""
    design = MiniDesign("Bike", "firelight_deluxe", "opt", Armor(10, 2, 0, 17, 0))
    found = design.problems()
    assert [p.code for p in found] == ["cycle-armor"]
    assert found[0].field == "armor.R"
    assert MiniDesign("Bike", "firelight_deluxe", "opt", Armor(12, 0, 0, 17, 0)).problems() == ()


def test_every_problem_is_returned_at_once() -> None:
    """An illegal design stays a draft: all its problems, each with rule and field."""
    draft = MiniDesign(" ", "courier", "b", Armor(30, -5, 20, 25, 0),
                       driver=PersonKit(1, 1, False), gunner=PersonKit(0, 0, True))
    found = draft.problems(budget=20_000)
    assert [p.code for p in found] == ["name-missing", "negative-armor", "armor-total",
                                       "no-gunner", "computers", "over-budget"]
    assert all(p.rule.startswith("Mini Car Wars §") and p.message for p in found)
    assert found[-1].message == "Costs $28,450, over the $20,000 budget by $8,450."
    assert "MCW-D22" in found[4].rule


def test_unknown_option_is_a_problem_not_an_error() -> None:
    found = MiniDesign("Kart", "killer_kart", "a", Armor(6, 4, 4, 4, 0)).problems()
    assert [(p.code, p.field) for p in found] == [("unknown-option", "option")]
    assert "Killer Kart has no option 'a' (options: none)" in found[0].message


def test_stacked_computers_allowed_under_the_d22_alternative() -> None:
    design = MiniDesign.stock_design("killer_kart", driver=PersonKit(1, 1, False))
    assert codes(design) == ["computers"]
    assert design.problems(rules=MiniRules(d22_one_computer_per_person=False)) == ()


def test_unknown_stock_vehicle_is_refused() -> None:
    with pytest.raises(UnknownVehicleError, match="no stock vehicle 'tank'"):
        MiniDesign("X", "tank", None, Armor())
    with pytest.raises(UnknownVehicleError, match="has no option 'c'"):
        MiniDesign.stock_design("courier", "c")


def test_design_json_round_trip() -> None:
    for design in catalog().values():
        assert MiniDesign.from_json(design.to_json()) == design
        assert MiniDesign.from_json(design.to_json()).to_json() == design.to_json()
    kitted = MiniDesign.stock_design("courier", driver=PersonKit(0, 1, True))
    assert MiniDesign.from_json(kitted.to_json()) == kitted


@pytest.mark.parametrize(("change", "message"), [
    ({"armor": {"F": 30, "R": 20, "L": 20, "B": 25}}, "design.armor: missing T"),
    ({"armor": {"F": "30", "R": 20, "L": 20, "B": 25, "T": 0}}, "expected a whole number"),
    ({"stock": "tank"}, "no stock vehicle 'tank'"),
    ({"ruleset": "battlecars"}, "not a Mini Car Wars design"),
    ({"extra": 1}, "unknown field extra"),
    ({"driver": {"targeting_computers": 0, "hi_res_computers": 0, "body_armor": "yes"}},
     "expected true or false"),
    ({"option": 3}, "design.option: expected text"),
])
def test_malformed_design_json_is_refused(change: dict[str, object], message: str) -> None:
    data = {**catalog()["Courier"].to_json(), **change}
    with pytest.raises(DesignFormatError, match=message):
        MiniDesign.from_json(data)


def test_road_duel_purchase_needs_one_car_within_the_budget() -> None:
    courier = catalog()["Courier"]
    assert purchase_problems([courier], ROAD_DUEL, budget=15_000) == ()
    found = purchase_problems([courier], ROAD_DUEL, budget=10_000)
    assert [p.code for p in found] == ["over-budget"]
    assert [p.code for p in purchase_problems([courier], ROAD_DUEL)] == ["budget-missing"]
    bike = catalog()["Shogun 100"]
    assert [p.code for p in purchase_problems([courier, bike], ROAD_DUEL, budget=40_000)] == [
        "vehicle-count", "vehicle-kind"]


def test_pack_attack_purchases() -> None:
    """One car for $17,000 against at least 5 cycles for $25,000 (MCW-D26: extras allowed)."""
    designs = catalog()
    rocket = designs["Rocket Special"].renamed("Lone")
    assert purchase_problems([rocket], PACK_ATTACK, side=0) == ()
    cycles = [designs["Shogun 220"]] * 5
    assert purchase_problems(cycles, PACK_ATTACK, side=1) == ()
    too_few = purchase_problems(cycles[:4], PACK_ATTACK, side=1)
    assert [p.message for p in too_few] == [
        "Pack Attack, cycles: at least 5 cycles needed, 4 bought."]
    pricey = [designs["Shogun 220"]] * 4 + [designs["Firelight Deluxe"]]
    assert [p.code for p in purchase_problems(pricey, PACK_ATTACK, side=1)] == ["over-budget"]
    kitted = MiniDesign.stock_design("shogun_100", driver=PersonKit(0, 0, True))
    stock_only = MiniRules(d26_pack_attack_extras=False)
    assert [p.code for p in purchase_problems([kitted] * 5, PACK_ATTACK, 1,
                                              rules=stock_only)] == ["stock-only"] * 5


def test_free_budget_purchase() -> None:
    designs = catalog()
    fleet = [designs["Courier"], designs["Rocket Special"], designs["Killer Kart"]]
    assert purchase_problems(fleet, budget=40_000) == ()
    assert [p.code for p in purchase_problems(fleet, budget=25_000)] == ["over-budget"]

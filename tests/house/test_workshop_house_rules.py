"""The Workshop's validation under the session's house rules (MCW-D22, MCW-D26, the budget,
AP-D2 divisions), through each design kind's ``problems_under`` / ``purchase_under``."""

from __future__ import annotations

from carwars_desktop.rules import find_ruleset
from carwars_desktop.rules.autopower import Car
from carwars_desktop.rules.mini_car_wars import MiniDesign, PersonKit
from carwars_desktop.rules.mini_car_wars.catalog import catalog


def _codes(problems: tuple) -> list[str]:  # type: ignore[type-arg]
    return [p.code for p in problems]


def test_mcw_d22_two_computers_for_one_person() -> None:
    ruleset = find_ruleset("mini_car_wars")
    design = MiniDesign.stock_design("killer_kart", driver=PersonKit(1, 1, False))
    kind = ruleset.vehicle
    assert _codes(kind.problems_under(design, ruleset.house_options({}))) == ["computers"]
    stacked = ruleset.house_options({"MCW-D22": False})
    assert kind.problems_under(design, stacked) == ()


def test_mcw_d26_pack_attack_extras_and_the_house_budget() -> None:
    ruleset = find_ruleset("mini_car_wars")
    kind = ruleset.vehicle
    kitted = MiniDesign.stock_design("shogun_100", driver=PersonKit(0, 0, True))
    defaults = ruleset.house_options({})
    assert kind.purchase_under([kitted] * 5, "pack_attack", 1, None, defaults) == ()
    stock_only = ruleset.house_options({"MCW-D26": False})
    assert _codes(kind.purchase_under([kitted] * 5, "pack_attack", 1, None,
                                      stock_only)) == ["stock-only"] * 5
    fleet = [catalog()["Courier"], catalog()["Rocket Special"], catalog()["Killer Kart"]]
    assert _codes(kind.purchase_under(fleet, None, 0, None, defaults)) == []
    assert _codes(kind.purchase_under(fleet, None, 0, None,
                                      ruleset.house_options({"MCW-budget": 20_000}))) == [
        "over-budget"]


def test_ap_d2_a_division_is_an_upper_limit_or_the_class() -> None:
    ruleset = find_ruleset("autopower")
    small = Car("Small", 3, 3, 3, 3)  # total 12: Division 15 is its own
    kind = ruleset.vehicle
    in_twenty = ruleset.house_options({"AP-division": 20})
    assert kind.problems_under(small, in_twenty) == ()
    exact = ruleset.house_options({"AP-division": 20, "AP-D2": False})
    assert _codes(kind.problems_under(small, exact)) == ["division-class"]

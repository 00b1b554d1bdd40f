"""A design illegal under the session's house rules plays at full strength, but never
without a word (#28 §2): every shot it fires or takes says why it is illegal, whatever
the path (one shot, the fire batch), with the verdict :func:`summarize_design` gives."""

from __future__ import annotations

from carwars_desktop.library.summary import summarize_design
from carwars_desktop.rules import find_procedure, find_ruleset
from carwars_desktop.rules.mini_car_wars import MiniDesign, PersonKit
from carwars_desktop.rules.mini_car_wars.play.table import BATCH
from carwars_desktop.services import Services, typed_dice
from carwars_desktop.services.fire_batch import FireBatch
from carwars_desktop.session.house_rules import HouseRules
from carwars_desktop.session.setup import Entry, prepare

MINI_BATCH = BATCH
WARNING = "Killer Kart is illegal under this session's house rules: The driver has 2 computers"


def _two_computers() -> MiniDesign:
    return MiniDesign.stock_design("killer_kart", driver=PersonKit(1, 1, False))


def _start(services: Services, house: HouseRules | None = None) -> None:
    ruleset = find_ruleset("mini_car_wars")
    courier = ruleset.catalog()["Courier"].to_json()
    entries = [Entry("Ann", "Killer Kart", _two_computers().to_json()),
               Entry("Bo", "Courier", courier)]
    options = ruleset.house_options(house.values if house else {})
    services.table.open(services.table.start("mini_car_wars", "Night", "",
                                             prepare(ruleset, entries, options=options),
                                             house_rules=house))


def _fire(services: Services, firer: str, target: str) -> list[str]:
    table = services.table
    game = table.running()
    procedure = find_procedure("mini.fire")
    inputs = procedure.bind({"weapon": "1", "side": "F", "range": "2",
                             "firer": game.sheet(firer), "target": game.sheet(target)})
    pending = table.resolve(procedure, inputs, typed_dice("1 1"),
                            bindings={"firer": firer, "target": target})
    steps = [str(s) for s in pending.resolution.steps]
    pending.discard()
    return steps


def test_the_verdict_is_the_libraries(services: Services) -> None:
    _start(services)
    game = services.table.running()
    ruleset = find_ruleset("mini_car_wars")
    expected = summarize_design("mini_car_wars", "vehicle", _two_computers(),
                                ruleset.house_options({})).problems
    assert expected and game.design_problems("v1") == expected
    assert game.design_problems("v2") == ()
    assert game.illegal_lines("v1")[0].startswith(WARNING)


def test_a_shot_fired_or_taken_by_an_illegal_design_says_so(services: Services) -> None:
    _start(services)
    fired = _fire(services, "v1", "v2")
    assert fired[0].startswith(WARNING) and "MCW-D22" in fired[0]
    taken = _fire(services, "v2", "v1")
    assert taken[0].startswith(WARNING)
    assert sum(WARNING in s for s in fired + taken) == 2  # once per shot, first


def test_the_fire_batch_says_so_too(services: Services) -> None:
    _start(services)
    batch = FireBatch(MINI_BATCH)
    batch.declare({"weapon": "1", "side": "F", "range": "2"}, {"firer": "v1", "target": "v2"},
                  "11")  # a miss: the Killer Kart's sheet does not change
    pending = batch.resolve(services.table)
    assert str(pending.resolution.steps[0]).startswith(WARNING)
    pending.apply()
    [event] = [e for e in services.table.running().store.page(0, 10)]  # type: ignore[attr-defined]
    assert event.event.steps[0].startswith(WARNING)


def test_a_house_rule_that_allows_it_plays_without_a_word(services: Services) -> None:
    _start(services, HouseRules("Stacking", {"MCW-D22": False}))
    assert services.table.running().design_problems("v1") == ()
    assert not any("illegal" in s for s in _fire(services, "v1", "v2"))

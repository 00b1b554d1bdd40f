"""Each ruleset's public facts and turn order (``PlayRules.public`` / ``turn_order``):
what the players may know of a sheet with open and with secret sheets, and who moves
now and next."""

from __future__ import annotations

from dataclasses import replace

from carwars_desktop.rules import find_ruleset
from carwars_desktop.rules.battlecars.terms import Block
from carwars_desktop.rules.clock import Clock
from carwars_desktop.rules.mini_car_wars.sheet import MiniSheet
from carwars_desktop.rules.play import PlayRules, TurnOrder, no_public_facts
from carwars_desktop.session.setup import Entry, prepare


def _table(ruleset_id: str, designs: list[str]) -> tuple[PlayRules, dict, Clock]:  # type: ignore[type-arg]
    ruleset = find_ruleset(ruleset_id)
    catalog = ruleset.catalog()
    setup = prepare(ruleset, [Entry(f"P{n}", f"Car {n}", catalog[d].to_json())
                              for n, d in enumerate(designs, start=1)])
    vehicles = {v.key: (v.name, setup.sheets[v.key]) for v in setup.vehicles}
    return ruleset.play(), vehicles, setup.clock


def test_a_ruleset_without_public_facts_shows_nothing_of_its_sheets() -> None:
    rules = PlayRules("x", status=lambda s: (), boxes=lambda s: {}, damage_points=lambda s: 0,
                      gauges=lambda s: (), out_of_play=lambda s: False)
    assert rules.public is no_public_facts and rules.public(object(), True) == ()  # type: ignore[arg-type]
    assert rules.turn_order(Clock(1, 0, ("one",)), {}) == TurnOrder()


def test_mini_car_wars_open_and_secret_sheets() -> None:
    from carwars_desktop.rules.mini_car_wars.play.marks import set_armor, set_weapon

    rules, vehicles, _clock = _table("mini_car_wars", ["Courier"])
    sheet = set_armor(vehicles["v1"][1], "L", 5).sheet
    sheet = set_weapon(sheet, 0, destroyed=True).sheet
    open_facts = {f.label: f for f in rules.public(sheet, True)}
    assert open_facts["left armor"].value == "5" and open_facts["front armor"].value == "30"
    assert open_facts["RL (F)"].lost and open_facts["RL (F)"].value == "lost"
    assert open_facts["driver"].value == "unhurt" and open_facts["speed (mph)"].value == "0"
    secret = {f.label: f.value for f in rules.public(sheet, False)}
    assert open_facts["power plant"].value == "12/12 DP" and not open_facts["power plant"].number
    assert secret == {"speed (mph)": "0"}  # §2.15/§9(c): not the hits (armor left follows)


def test_mini_car_wars_a_weapon_that_fired_this_turn_is_shown_fired_not_ready() -> None:
    """The compact sheets, the players' display and the seat link all show ``public``:
    it says what the big sheet says (``WeaponState.status``)."""
    from carwars_desktop.rules.mini_car_wars.play.marks import set_weapon

    rules, vehicles, _clock = _table("mini_car_wars", ["Courier"])
    sheet = vehicles["v1"][1]
    assert {f.label: f.value for f in rules.public(sheet, True)}["RL (F)"] == "ready"
    fired = set_weapon(sheet, 0, fired=True).sheet
    fact = {f.label: f for f in rules.public(fired, True)}["RL (F)"]
    assert fact.value == "fired" and not fact.lost
    both = set_weapon(fired, 0, destroyed=True).sheet
    assert {f.label: f.value for f in rules.public(both, True)}["RL (F)"] == "lost"


def test_mini_car_wars_a_weapon_with_no_shots_left_reads_no_shots_not_ready() -> None:
    """A spent weapon (MCW-D15: its last shot fired, a new turn begun) cannot fire again:
    every sheet says so, as the fire procedure refuses it."""
    from carwars_desktop.rules.mini_car_wars.play.marks import set_weapon

    rules, vehicles, _clock = _table("mini_car_wars", ["Courier"])
    courier = vehicles["v1"][1]
    assert isinstance(courier, MiniSheet)
    sheet = courier.with_weapon(0, replace(courier.weapons[0], shots_left=0))
    fact = {f.label: f for f in rules.public(sheet, True)}["RL (F)"]
    assert fact.value == "no shots" and not fact.lost
    fired_last = set_weapon(sheet, 0, fired=True).sheet
    assert {f.label: f.value for f in rules.public(fired_last, True)}["RL (F)"] == "no shots"
    reloaded = set_weapon(sheet, 0, shots_left=2).sheet
    assert {f.label: f.value for f in rules.public(reloaded, True)}["RL (F)"] == "ready"


def test_mini_car_wars_who_moves_now_and_next() -> None:
    from carwars_desktop.rules.mini_car_wars.play.clock import start_turn

    rules, vehicles, clock = _table("mini_car_wars", ["Courier", "Killer Kart", "Courier (b)"])

    names = {k: name for k, (name, _s) in vehicles.items()}
    step = start_turn({k: s for k, (_n, s) in vehicles.items()},
                      {"v1": "10", "v2": "10", "v3": "0"}, names)
    moving = {k: (names[k], step.sheets.get(k, s)) for k, (_n, s) in vehicles.items()}
    # At 10 mph both move in phase 1, in seating order; the stopped one never moves (§2.4).
    assert rules.turn_order(clock, moving) == TurnOrder(("v1",), ("v2",))
    moved = {**moving, "v1": (names["v1"], replace(moving["v1"][1], phases_used=1))}
    assert rules.turn_order(clock, moved) == TurnOrder(("v2",), ())
    assert rules.turn_order(clock.advanced(), moving) == TurnOrder((), ())


def test_battlecars_blocks_destroyed_components_and_turns() -> None:
    rules, vehicles, clock = _table("battlecars", ["TEST-1 (example card, not official)"] * 2)
    sheet = vehicles["v1"][1]
    tyre = next(c for c in sheet.card.components if c.kind.value == "tyre")
    broken = sheet.with_hits(tyre.name, tyre.boxes).with_armour_hits(Block.FRONT, 2)
    facts = {f.label: f for f in rules.public(broken, True)}
    assert facts["front"].value == "4" and facts[tyre.label].lost
    assert {f.label: f.value for f in rules.public(broken, False)} == {
        "speed": "0", "hits taken": str(2 + tyre.boxes)}
    assert rules.turn_order(clock, vehicles) == TurnOrder((), ("v1",))  # secret speeds
    assert rules.turn_order(clock.advanced(), vehicles) == TurnOrder(("v1",), ("v2",))


def test_autopower_armor_damage_and_turns() -> None:
    rules, vehicles, clock = _table("autopower", ["Longshot", "Black Cat"])
    facts = [f.label for f in rules.public(vehicles["v1"][1], True)]
    assert facts == ["speed", "armor", "damage"]
    assert [f.label for f in rules.public(vehicles["v1"][1], False)] == ["speed", "damage"]
    assert rules.turn_order(clock, vehicles) == TurnOrder(("v1",), ("v2",))

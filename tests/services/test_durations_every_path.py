"""One place turns a result into sheet changes and durations (#28 §1): a duration-making
roll gets the same duration whether it is applied alone (the Table's dialog, the Resolver,
the quick line: each resolves and applies through the Table service) or as a shot of the
fire batch."""

from __future__ import annotations

from typing import Any

from carwars_desktop.rules import find_procedure, find_ruleset
from carwars_desktop.rules.mini_car_wars.play.table import BATCH
from carwars_desktop.services import Services, typed_dice
from carwars_desktop.services.fire_batch import FireBatch
from carwars_desktop.session.setup import Entry, prepare

MINI_BATCH = BATCH


def _mini(services: Services) -> None:
    ruleset = find_ruleset("mini_car_wars")
    catalog = ruleset.catalog()
    entries = [Entry(player, name, catalog[name].to_json())
               for player, name in (("Ann", "Mini Sherman"), ("Bo", "Courier"),
                                    ("Cy", "Courier"), ("Di", "Killer Kart"))]
    services.table.open(services.table.start("mini_car_wars", "Night", "",
                                             prepare(ruleset, entries)))


def _lasting(services: Services) -> list[tuple[Any, ...]]:
    game = services.table.running()
    return [(d.vehicle, d.label, d.left, d.rule)
            for d in game.ruleset.play().durations(game.clock, game.vehicles_view())]


SMOKE = {"weapon": "smokescreen", "side": "B", "range": "1"}


def test_a_smokescreen_lasts_60_turns_alone_and_through_the_fire_batch(
        services: Services) -> None:
    _mini(services)
    table = services.table
    game = table.running()
    procedure = find_procedure("mini.fire")
    inputs = procedure.bind({**SMOKE, "firer": game.sheet("v1"), "target": game.sheet("v2")})
    table.resolve(procedure, inputs, typed_dice(""),
                  bindings={"firer": "v1", "target": "v2"}).apply()
    alone = _lasting(services)
    assert [(vehicle, left) for vehicle, _label, left, _rule in alone] == [
        ("v1", "60 turns left (gone at turn 61)")]
    table.undo()
    assert _lasting(services) == []

    batch = FireBatch(MINI_BATCH)
    batch.declare(SMOKE, {"firer": "v1", "target": "v2"}, "")
    batch.declare({"weapon": "1", "side": "F", "range": "2"}, {"firer": "v2", "target": "v3"},
                  "11")  # another shot in the same phase (a miss) changes nothing of it
    pending = batch.resolve(table)
    pending.apply()
    assert _lasting(services) == alone
    [event] = [e for e in table.running().store.page(0, 10) if not e.undone]  # type: ignore[attr-defined]
    assert any("60 turns left" in step for step in event.event.steps)
    table.undo()  # the batch's one event takes its duration back with it
    assert _lasting(services) == []


BLANK_SMOKE = {"weapon": "3", "person": "driver", "side": None, "range": "", "smoke": 0,
               "hold_damage": False}
"""A Mini Sherman's smokescreen as the Table's fire dialog declares it: no target, the
range and side left blank (§2.13: it aims at no one)."""


def test_a_smokescreen_with_only_its_firer_and_weapon_lasts_60_turns_on_every_path(
        services: Services) -> None:
    """The dialog, the quick line and the Resolver resolve through the Table service; the
    fire batch declares the shot with the form's values. Each gets the 60 turns."""
    services.table.open(services.table.start("mini_car_wars", "Night", "", prepare(
        find_ruleset("mini_car_wars"), [
            Entry(player, name, find_ruleset("mini_car_wars").catalog()[name].to_json())
            for player, name in (("Ann", "Mini Sherman"), ("Bo", "Courier"))])))
    table = services.table
    game = table.running()
    procedure = find_procedure("mini.fire")
    pending = table.resolve(procedure, {**BLANK_SMOKE, "firer": game.sheet("v1")},
                            typed_dice(""), bindings={"firer": "v1"})
    assert pending.resolution.outcome == "smoke cloud placed behind Mini Sherman"
    assert pending.resolution.inputs["side"] is None
    pending.apply()
    alone = _lasting(services)
    assert [(vehicle, left) for vehicle, _label, left, _rule in alone] == [
        ("v1", "60 turns left (gone at turn 61)")]
    table.undo()

    batch = FireBatch(MINI_BATCH)
    batch.declare(BLANK_SMOKE, {"firer": "v1"}, "")
    assert batch.dice_hint(batch.shots[0], game) == "no dice"
    assert batch.odds(batch.shots[0], game).summary == (
        "smokescreen: no to-hit roll, a cloud is placed")
    batch.resolve(table).apply()
    assert _lasting(services) == alone

"""Battlecars return fire (§2.9 step 2, BC-D26) is judged whatever the path: a shot
resolved alone through the Table service, and each shot of the fire batch (its earlier
shots counted as fired)."""

from __future__ import annotations

import pytest

from carwars_desktop.rules import find_procedure, find_ruleset
from carwars_desktop.rules.battlecars import EXAMPLE_CARD_NAME
from carwars_desktop.rules.battlecars.play.table import BATCH
from carwars_desktop.services import Services, typed_dice
from carwars_desktop.services.fire_batch import FireBatch
from carwars_desktop.services.table import ResolveError
from carwars_desktop.session.setup import Entry, prepare

SHOT = {"mount": "Pod D", "area": "front", "points_between": 2}


def _battlecars(services: Services) -> None:
    ruleset = find_ruleset("battlecars")
    card = ruleset.catalog()[EXAMPLE_CARD_NAME].to_json()
    entries = [Entry(player, name, card)
               for player, name in (("Ann", "Interceptor"), ("Bo", "Wasp"), ("Cy", "Hammer"))]
    table = services.table
    table.open(table.start("battlecars", "Night", "street", prepare(ruleset, entries, "street")))
    game = table.running()
    table.set_clock(game.clock.advanced(), "Interceptor's turn")
    assert game.clock.phase_name == "Interceptor's turn"


def test_return_fire_is_refused_alone_and_in_the_batch(services: Services) -> None:
    _battlecars(services)
    table = services.table
    game = table.running()
    procedure = find_procedure("battlecars.fire")

    def inputs(firer: str, target: str, mode: str) -> dict[str, object]:
        return procedure.bind({**SHOT, "mode": mode, "firer": game.sheet(firer),
                               "target": game.sheet(target)})

    with pytest.raises(ResolveError, match="Interceptor has not fired at Wasp") as refused:
        table.resolve(procedure, inputs("v2", "v1", "return-fire"), typed_dice("7 6"),
                      bindings={"firer": "v2", "target": "v1"})
    assert refused.value.refused

    batch = FireBatch(BATCH)
    batch.declare({**SHOT, "mode": "own-turn"}, {"firer": "v1", "target": "v2"}, "7 6")
    batch.declare({**SHOT, "mode": "return-fire"}, {"firer": "v2", "target": "v1"}, "7 6")
    batch.declare({**SHOT, "mode": "return-fire"}, {"firer": "v2", "target": "v1"}, "7 6")
    with pytest.raises(ResolveError, match=r"shot 3 .*Wasp has already returned fire"):
        batch.resolve(table)
    batch.shots.pop()
    applied = batch.resolve(table).apply()  # the attack, then the one round of return fire
    # Each hit's damage has its firer as dealer (the event binds only the sheets changed).
    assert applied is not None and applied.event is not None
    assert applied.event.event.dealers == {"v1": ("v2",), "v2": ("v1",)}
    with pytest.raises(ResolveError, match="Wasp has already returned fire at Interceptor"):
        table.resolve(procedure, inputs("v2", "v1", "return-fire"), typed_dice("7 6"),
                      bindings={"firer": "v2", "target": "v1"})
    table.undo()  # undone, the return fire may be fired again (and the attack with it)
    with pytest.raises(ResolveError, match="Interceptor has not fired at Wasp"):
        table.resolve(procedure, inputs("v2", "v1", "return-fire"), typed_dice("7 6"),
                      bindings={"firer": "v2", "target": "v1"})

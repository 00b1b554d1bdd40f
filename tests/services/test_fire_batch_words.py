"""A fire batch that holds each shot's damage until every shot has fired (Mini Car Wars
§2.2) applies that damage itself: its outcome says so (each hit read "(held)" though the
damage was on the target's sheet)."""

from __future__ import annotations

from carwars_desktop.rules import find_ruleset
from carwars_desktop.rules.builtin import MINI_CAR_WARS
from carwars_desktop.rules.mini_car_wars.play.table import BATCH
from carwars_desktop.services import Services
from carwars_desktop.services.fire_batch import APPLIED_AFTER, FireBatch
from carwars_desktop.session.setup import Entry, prepare


def test_a_held_hit_is_said_applied_once_every_shot_had_fired(services: Services) -> None:
    ruleset = find_ruleset(MINI_CAR_WARS.id)
    catalog = ruleset.catalog()
    table = services.table
    table.open(table.start(MINI_CAR_WARS.id, "Batch night", "", prepare(ruleset, [
        Entry("Ann", "Rocket Special", catalog["Rocket Special"].to_json()),
        Entry("Bob", "Courier", catalog["Courier"].to_json())])))
    before = {key: table.running().sheet(key).to_json() for key in ("v1", "v2")}
    batch = FireBatch(BATCH)
    shot = {"weapon": "1", "side": "F", "range": "5"}
    batch.declare(shot, {"firer": "v1", "target": "v2"}, "2 3")  # a miss
    batch.declare(shot, {"firer": "v2", "target": "v1"}, "6 6 6 6")  # a hit
    pending = batch.resolve(table)
    outcome = pending.resolution.outcome
    assert "(held)" not in outcome
    assert outcome.startswith("fire batch of 2: 1. miss; 2. hit: ")
    assert outcome.endswith(APPLIED_AFTER)
    pending.apply()
    [stored] = [e for e in table.running().store.page(0, 10) if not e.undone]  # type: ignore[attr-defined]
    assert stored.event.summary == outcome
    # What it says happened: the hit's damage is on the Rocket Special's sheet.
    assert table.running().sheet("v1").to_json()["armor"] != before["v1"]["armor"]
    assert table.running().sheet("v2").to_json()["armor"] == before["v2"]["armor"]  # missed

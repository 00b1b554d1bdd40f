"""The players' view (no Qt): what each ruleset shows, what the session's visibility
hides from it (never present in its JSON), and settings that persist and undo."""

from __future__ import annotations

import json
from typing import Any

import pytest

from carwars_desktop.rules import find_procedure, find_ruleset
from carwars_desktop.services import Services, typed_dice
from carwars_desktop.services.players_view import own_sheets, players_view, recent_events
from carwars_desktop.session import EventKind
from carwars_desktop.session.setup import Entry, prepare
from carwars_desktop.session.visibility import Visibility
from carwars_desktop.storage import Database

CARS = {"mini_car_wars": ["Courier (b)", "Courier", "Killer Kart"]}


def _start(services: Services, ruleset_id: str) -> int:
    ruleset = find_ruleset(ruleset_id)
    catalog = ruleset.catalog()
    names = CARS.get(ruleset_id) or [next(iter(catalog))] * 3
    labels = ["Red Baron", "Blue Thunder", "Ambusher"]
    entries = [Entry(f"Player {n}", label, catalog[name].to_json())
               for n, (name, label) in enumerate(zip(names, labels, strict=True), start=1)]
    session_id = services.table.start(ruleset_id, "Test night", "", prepare(ruleset, entries))
    services.table.open(session_id)
    return session_id


def _json(services: Services) -> tuple[dict[str, Any], str]:
    game = services.table.game
    assert game is not None
    view = players_view(game, services.table.title, recent_events(game.store),
                        services.table.roll)
    data = view.to_json()
    return data, json.dumps(data, ensure_ascii=False)


@pytest.mark.parametrize("ruleset_id", ["mini_car_wars", "battlecars", "autopower"])
def test_secret_sheets_and_a_hidden_vehicle_leave_nothing_in_the_view(
        services: Services, ruleset_id: str) -> None:
    _start(services, ruleset_id)
    data, _text = _json(services)
    labels = {f["label"] for v in data["vehicles"] for f in v["facts"]}
    assert any(label.startswith("speed") for label in labels) and len(labels) > 1
    assert [v["name"] for v in data["vehicles"]] == ["Red Baron", "Blue Thunder", "Ambusher"]
    open_labels = labels
    services.table.set_visibility(Visibility(sheets_open=False,
                                             hidden_vehicles=frozenset({"v3"})))
    data, text = _json(services)
    assert [v["name"] for v in data["vehicles"]] == ["Red Baron", "Blue Thunder"]
    assert "Ambusher" not in text  # nowhere: not the cards, the clock, the log
    secret_labels = {f["label"] for v in data["vehicles"] for f in v["facts"]}
    assert any(label.startswith("speed") for label in secret_labels)
    assert not any("armor" in label or "armour" in label for label in secret_labels)
    assert secret_labels < open_labels | {"front hits", "right hits", "left hits",
                                          "back hits", "top hits", "hits taken"}
    assert not any(f["label"] == "armor" for v in data["vehicles"] for f in v["facts"])
    assert data["sheets_open"] is False


def test_mini_car_wars_public_facts_and_hidden_odds(services: Services) -> None:
    _start(services, "mini_car_wars")
    table = services.table
    procedure = find_procedure("mini.fire")
    game = table.running()
    values = procedure.bind({"firer": game.sheet("v1"), "target": game.sheet("v2"),
                             "side": "L", "range": "5"})
    pending = table.resolve(procedure, values, typed_dice("4 4 5 6 6"),
                            bindings={"firer": "v1", "target": "v2"})
    data, text = _json(services)
    roll = data["roll"]
    assert roll["state"] == "shown" and roll["need"] == 5 and roll["odds"] == "5/6 · 83.3%"
    assert roll["parties"] == [["Firing vehicle", "Red Baron"], ["Target vehicle",
                                                                  "Blue Thunder"]]
    assert roll["dice"] == [] and roll["outcome"] == ""  # the dice wait for Apply
    table.set_visibility(Visibility(odds_shown=False))
    data, text = _json(services)
    assert data["roll"]["need"] is None and data["roll"]["modifiers"] == []
    assert "83.3" not in text and "5/6" not in text and "need" not in data["roll"]["title"]
    pending.apply()
    data, text = _json(services)
    assert data["roll"]["state"] == "applied" and data["roll"]["dice"] == [4, 4, 5, 6, 6]
    assert "17 damage" in data["roll"]["outcome"]
    target = data["vehicles"][1]
    assert {"label": "left armor", "value": "3", "number": True, "lost": False,
            "spent": False} in target["facts"]
    assert data["log"][-1] == "hit: 17 damage to Blue Thunder's left"
    weapons = [f for f in data["vehicles"][0]["facts"] if f["value"] in ("ready", "fired")]
    assert [f["value"] for f in weapons][:1] == ["fired"]  # as the big sheet says
    assert [f["spent"] for f in weapons][:1] == [True]  # (its own mark, never "ready"'s)
    table.set_visibility(Visibility(sheets_open=False, odds_shown=False))
    data, _text = _json(services)
    facts = {f["label"]: f["value"] for f in data["vehicles"][1]["facts"]}
    # MCW §2.15 (§9(c) of the original): only the speed, revealed each turn; not the hits
    # per side, from which the stock design's armor left follows (#28 §4).
    assert facts == {"speed (mph)": "0"}


def test_a_hand_mark_with_secret_sheets_says_only_who_was_marked(services: Services) -> None:
    _start(services, "mini_car_wars")
    table = services.table
    game = table.running()
    from carwars_desktop.rules.mini_car_wars.play.marks import set_armor

    mark = set_armor(game.sheet("v2"), "L", 9)
    table.mark("v2", mark.sheet, f"Blue Thunder: {mark.summary}")
    assert "9" in _json(services)[0]["log"][-1]
    table.set_visibility(Visibility(sheets_open=False))
    data, text = _json(services)
    assert data["log"] == ["Blue Thunder: the GM marked the sheet"]
    assert "→ 9" not in text


def test_settings_persist_with_the_session_and_undo(services: Services,
                                                    database: Database) -> None:
    session_id = _start(services, "battlecars")
    table = services.table
    secret = Visibility(sheets_open=False, odds_shown=False, hidden_vehicles=frozenset({"v3"}))
    changes = table.set_visibility(secret)
    assert changes is not None and changes.settings and changes.event is not None
    assert changes.event.event.kind is EventKind.SETTINGS
    assert table.set_visibility(secret) is None  # nothing to change: no event
    table.open(session_id)  # as after a restart: read from the session row
    assert Visibility.of(table.running().settings) == secret
    assert database.game_sessions.load(session_id).settings == {"visibility": {
        "sheets_open": False, "odds_shown": False, "hidden_vehicles": ["v3"]}}
    undone = table.undo()
    assert undone.settings and Visibility.of(table.running().settings) == Visibility()
    table.open(session_id)
    assert Visibility.of(table.running().settings) == Visibility()
    table.redo()
    table.open(session_id)
    assert Visibility.of(table.running().settings) == secret


def test_a_roll_against_a_hidden_vehicle_is_not_shown(services: Services) -> None:
    _start(services, "mini_car_wars")
    table = services.table
    table.set_visibility(Visibility(hidden_vehicles=frozenset({"v2"})))
    procedure = find_procedure("mini.fire")
    game = table.running()
    values = procedure.bind({"firer": game.sheet("v1"), "target": game.sheet("v2"),
                             "side": "L", "range": "5"})
    table.resolve(procedure, values, typed_dice("4 4 5 6 6"),
                  bindings={"firer": "v1", "target": "v2"}).apply()
    data, text = _json(services)
    assert data["roll"] is None and data["log"] == []
    assert "Blue Thunder" not in text and [v["key"] for v in data["vehicles"]] == ["v1", "v3"]


@pytest.mark.parametrize("ruleset_id", ["mini_car_wars", "battlecars", "autopower"])
def test_each_vehicle_s_own_sheet_is_whole_even_when_sheets_are_secret(
        services: Services, ruleset_id: str) -> None:
    _start(services, ruleset_id)
    game = services.table.game
    assert game is not None
    shown = {v.key: v.facts for v in players_view(game).vehicles}
    assert {key: view.facts for key, view in own_sheets(game).items()
            if view is not None} == shown  # open sheets: the same as the display
    services.table.set_visibility(Visibility(sheets_open=False,
                                             hidden_vehicles=frozenset({"v3"})))
    public = {v.key: v.facts for v in players_view(game).vehicles}
    own = own_sheets(game)
    assert own["v3"] is None  # hidden: not even to its own seat
    for key in ("v1", "v2"):
        view = own[key]
        assert view is not None and view.facts == shown[key]  # the whole sheet
        assert public[key] != view.facts  # the others see less of it


def test_secret_mini_car_wars_sheets_tell_only_what_the_table_sees(
        services: Services) -> None:
    """MCW §2.15 (the original's §9(c)): with secret sheets the players "find out the hard
    way": a vehicle's speed (revealed each turn) and a wreck, never its hits per side
    (a stock design's armor left follows from them) nor its wounds."""
    from carwars_desktop.rules.mini_car_wars.play.marks import set_armor, set_crew, wreck

    _start(services, "mini_car_wars")
    table = services.table
    game = table.game
    assert game is not None
    marked = set_armor(game.sheet("v2"), "L", 3).sheet
    marked = set_crew(marked, "driver", 1).sheet
    table.mark("v2", marked, "left armor 20 → 3, driver wounded")
    data, _text = _json(services)
    card = data["vehicles"][1]
    assert "driver wounded" in [s["word"] for s in card["status"]]  # open sheets
    table.set_visibility(Visibility(sheets_open=False))
    data, text = _json(services)
    card = data["vehicles"][1]
    assert {f["label"]: f["value"] for f in card["facts"]} == {"speed (mph)": "0"}
    assert [s["word"] for s in card["status"]] == ["in play"]
    assert "hits" not in text and "wounded" not in text
    table.mark("v2", wreck(marked).sheet, "wrecked")  # a wreck: everybody sees it
    data, _text = _json(services)
    assert [s["word"] for s in data["vehicles"][1]["status"]] == ["wrecked"]

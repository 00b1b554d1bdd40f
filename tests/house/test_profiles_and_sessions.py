"""House-rule profiles (saved, built in, exchanged) and sessions played under them (issue 14)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from carwars_desktop.cli import resolve_main
from carwars_desktop.library.profiles import (
    ExchangedProfile,
    ProfileFileError,
    dumps_profiles,
    read_profiles,
)
from carwars_desktop.rules import find_procedure, find_ruleset
from carwars_desktop.services import Services, typed_dice
from carwars_desktop.services.house_rules import (
    HouseRulesService,
    Profile,
    ProfileRefused,
    profile_for_session,
)
from carwars_desktop.session.house_rules import DIGEST_DEFAULTS, HouseRules
from carwars_desktop.session.setup import Entry, prepare
from carwars_desktop.session.visibility import Visibility
from carwars_desktop.storage import Database

MCW = "mini_car_wars"
FIRE_AT_THE_CYCLE = {"side": "F", "range": "3"}


def _start(services: Services, rules: HouseRules | None) -> int:
    ruleset = find_ruleset(MCW)
    catalog = ruleset.catalog()
    entries = [Entry(f"Player {n}", name, catalog[name].to_json())
               for n, name in enumerate(("Courier", "Shogun 100"), start=1)]
    session_id = services.table.start(MCW, "Club night", "", prepare(ruleset, entries),
                                      house_rules=rules)
    services.table.open(session_id)
    return session_id


def _fire(services: Services) -> Any:
    game = services.table.running()
    return services.table.resolve(find_procedure("mini.fire"),
                                  {"firer": game.sheet("v1"), "target": game.sheet("v2"),
                                   **FIRE_AT_THE_CYCLE}, typed_dice("4 4", roll=True),
                                  bindings={"firer": "v1", "target": "v2"})


# --- profiles --------------------------------------------------------------------------
def test_create_copy_rename_delete_and_the_built_in_stays(database: Database) -> None:
    service = HouseRulesService(database)
    assert [p.name for p in service.profiles(MCW)] == [DIGEST_DEFAULTS]
    club = service.create(MCW, "Friday club", {"MCW-D13": False})
    assert club.rules == {"MCW-D13": False} and not club.built_in
    copy = service.copy(club, "Saturday")
    service.rename(copy, "Saturday club")
    service.save(service.find(MCW, "Saturday club"), {"MCW-D13": False, "MCW-D6a": "up"})
    assert service.find(MCW, "saturday CLUB").rules == {"MCW-D13": False, "MCW-D6a": "up"}
    assert [p.name for p in service.profiles(MCW)] == [DIGEST_DEFAULTS, "Friday club",
                                                       "Saturday club"]
    assert service.profiles("battlecars")[1:] == []
    built_in = service.find(MCW, DIGEST_DEFAULTS)
    for refused in (lambda: service.save(built_in, {"MCW-D13": False}),
                    lambda: service.rename(built_in, "Mine"),
                    lambda: service.delete(built_in)):
        with pytest.raises(ProfileRefused, match="built in"):
            refused()
    with pytest.raises(ProfileRefused, match="exists already"):
        service.create(MCW, "friday  club", {})
    with pytest.raises(ProfileRefused, match="built-in profile"):
        service.create(MCW, DIGEST_DEFAULTS, {})
    service.delete(service.find(MCW, "Friday club"))
    assert [p.name for p in service.profiles(MCW)] == [DIGEST_DEFAULTS, "Saturday club"]
    assert service.copy(built_in, "From the digest").rules == {}


@pytest.mark.parametrize(("rules", "reason"), [
    ({"MCW-D99": False}, "unknown decision 'MCW-D99'"),
    ({"MCW-D13": "maybe"}, "MCW-D13: 'maybe' is not one of its choices"),
    ({"MCW-D6a": "sideways"}, "not one of its choices"),
    ({"BC-D16": False}, "unknown decision 'BC-D16'"),
])
def test_bad_values_are_refused_and_nothing_is_written(database: Database,
                                                       rules: dict[str, Any],
                                                       reason: str) -> None:
    service = HouseRulesService(database)
    with pytest.raises(ProfileRefused, match=reason):
        service.create(MCW, "Bad", rules)
    assert [p.name for p in service.profiles(MCW)] == [DIGEST_DEFAULTS]


def test_export_import_round_trip(database: Database) -> None:
    service = HouseRulesService(database)
    club = service.create(MCW, "Friday club", {"MCW-D13": False, "MCW-budget": 15000})
    arena = service.create("battlecars", "Arena nights", {"BC-D16": False})
    text = service.export([club, arena])
    document = json.loads(text)
    assert document["format"] == "carwars-desktop/house-rules" and document["version"] == 1
    added = service.import_text(text)  # the names are taken: kept both
    assert [(p.name, p.rules) for p in added] == [
        ("Friday club (2)", {"MCW-D13": False, "MCW-budget": 15000}),
        ("Arena nights (2)", {"BC-D16": False})]
    assert read_profiles(text) == [ExchangedProfile(MCW, "Friday club", club.rules),
                                   ExchangedProfile("battlecars", "Arena nights", arena.rules)]


def _file(profile: dict[str, Any], **top: Any) -> str:
    return json.dumps({"format": "carwars-desktop/house-rules", "version": 1,
                       "profiles": [profile], **top})


@pytest.mark.parametrize(("text", "reason"), [
    (_file({"ruleset": MCW, "name": "X", "rules": {"MCW-D77": True}}),
     "unknown decision 'MCW-D77'"),
    (_file({"ruleset": MCW, "name": "X", "rules": {"MCW-D13": 3}}), "not one of its choices"),
    (_file({"ruleset": MCW, "name": "X", "rules": {}}, version=2),
     "newer Carwars Desktop \\(format version 2\\)"),
    (_file({"ruleset": "chess", "name": "X", "rules": {}}), "unknown ruleset 'chess'"),
    (json.dumps({"format": "carwars-desktop/designs", "version": 1, "designs": []}),
     "not a house-rules file"),
    ("{", "not a house-rules file"),
])
def test_bad_profile_files_are_refused_with_the_reason(database: Database, text: str,
                                                        reason: str) -> None:
    with pytest.raises(ProfileFileError, match=reason):
        read_profiles(text)
    service = HouseRulesService(database)
    with pytest.raises(ProfileRefused, match=reason):
        service.import_text(text)
    assert [p.name for p in service.profiles(MCW)] == [DIGEST_DEFAULTS]


def test_a_profile_of_another_ruleset_is_refused_at_new_session() -> None:
    arena = Profile("battlecars", "Arena nights", {"BC-D16": False}, 3)
    with pytest.raises(ProfileRefused, match="is a Battlecars profile, not Mini Car Wars's"):
        profile_for_session(find_ruleset(MCW), arena)


# --- sessions ----------------------------------------------------------------------------
def test_a_session_under_a_profile_resolves_the_same_roll_differently(
        services: Services, database: Database) -> None:
    _start(services, None)
    default = _fire(services)
    profile = HouseRulesService(database).create(MCW, "No cycle front", {"MCW-D13": False})
    _start(services, profile.house_rules())
    house = _fire(services)
    assert default.odds.need == house.odds.need + 1  # no front −1 on the cycle
    assert default.resolution.outcome != house.resolution.outcome
    assert house.resolution.inputs["mcw_d13_cycle_front_rear"] is False


def test_the_session_keeps_its_copy_when_the_saved_profile_changes(
        services: Services, database: Database) -> None:
    service = HouseRulesService(database)
    profile = service.create(MCW, "Club", {"MCW-D13": False, "MCW-open-sheets": False})
    session_id = _start(services, profile.house_rules())
    service.save(profile, {"MCW-D13": True})
    services.table.open(session_id)
    rules = services.table.house_rules()
    assert rules.profile == "Club" and rules.values["MCW-D13"] is False
    # The pre-game question "do players see each other's sheets" sets the players' display.
    assert Visibility.of(services.table.running().settings).sheets_open is False


def test_a_mid_session_change_is_an_undoable_event(services: Services) -> None:
    _start(services, None)
    before = _fire(services).odds.need
    changes = services.table.change_house_rules(HouseRules("Tonight", {"MCW-D13": False}))
    assert changes is not None and changes.event is not None
    assert changes.event.event.summary == "house rules: profile Tonight; MCW-D13 off"
    assert _fire(services).odds.need == before - 1
    services.table.undo()
    rules = services.table.house_rules()
    assert rules.profile == DIGEST_DEFAULTS and rules.departures(find_ruleset(MCW)) == []
    assert _fire(services).odds.need == before
    services.table.redo()
    assert services.table.house_rules().values["MCW-D13"] is False
    assert _fire(services).odds.need == before - 1
    assert services.table.change_house_rules(services.table.house_rules()) is None


def test_the_clock_moves_use_the_session_house_rules() -> None:
    from dataclasses import replace

    from carwars_desktop.rules.battlecars import CarSheet, example_card
    from carwars_desktop.rules.battlecars.catalog import example_car_name
    from carwars_desktop.rules.battlecars.play.clock import TurnError, set_speeds
    from carwars_desktop.rules.mini_car_wars.catalog import stock_sheet
    from carwars_desktop.rules.mini_car_wars.play.clock import finish_phase

    # BC-D48 off: the reveal of the speeds lets a stopped car back away at 3.
    car = CarSheet.fresh(example_card(), example_car_name(1)).with_hits(
        "Super-Charger", 2).with_hits("Power Brakes", 2).with_hits("Auto-Steer", 2)
    choice = {"c1": (3, "reverse", "road")}
    with pytest.raises(TurnError):
        set_speeds({"c1": car}, choice, {"c1": "Car 1"})
    moved = set_speeds({"c1": car}, choice, {"c1": "Car 1"}, {"BC-D48": False})
    assert moved.sheets["c1"].speed == 3
    # The automatic straight-on move asks mini.maneuver under the session's rules too.
    sheet = replace(stock_sheet("Courier"), speed=40, phases_used=0)
    with pytest.raises(ValueError, match="mcw_d2_skid_carries_over: expected yes or no"):
        finish_phase({"v1": sheet}, 1, {"v1": "Courier"}, {"MCW-D2": "sometimes"})


# --- command line ------------------------------------------------------------------------
def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any], str]:
    status = resolve_main(["mini.fire", "--set", "firer=Courier", "--set", "target=Shogun 100",
                           "--set", "side=F", "--set", "range=3", "--dice", "4,4",
                           "--seed", "1", "--json", *args])
    out, err = capsys.readouterr()
    return status, json.loads(out) if out else {}, err


def test_the_command_line_resolves_under_house_rules(capsys: pytest.CaptureFixture[str],
                                                     tmp_path: Path,
                                                     sqlite_url: str) -> None:
    status, default, _ = _cli(capsys)
    assert status == 0
    status, option, _ = _cli(capsys, "--option", "MCW-D13=off")
    assert status == 0 and option["odds"]["need"] == default["odds"]["need"] - 1
    assert option["outcome"] != default["outcome"]
    path = tmp_path / "club.house-rules.json"
    path.write_text(dumps_profiles([ExchangedProfile(MCW, "Club", {"MCW-D13": False})]))
    _, from_file, _ = _cli(capsys, "--rules", f"@{path}")
    assert from_file["odds"] == option["odds"]
    from carwars_desktop.storage import open_database

    with open_database(sqlite_url) as database:
        HouseRulesService(database).create(MCW, "Club", {"MCW-D13": False})
    _, by_name, _ = _cli(capsys, "--rules", "Club", "--db", sqlite_url)
    assert by_name["odds"] == option["odds"]
    _, back, _ = _cli(capsys, "--rules", "Club", "--db", sqlite_url, "--option", "MCW-D13=on")
    assert back["odds"] == default["odds"]


@pytest.mark.parametrize(("args", "reason"), [
    (["--option", "MCW-D99=off"], "unknown decision 'MCW-D99'"),
    (["--option", "MCW-D13=perhaps"], "'perhaps' is not on or off"),
    (["--option", "BC-D16=off"], "unknown decision 'BC-D16'"),
    (["--option", "MCW-D13"], "expected DECISION=VALUE"),
])
def test_bad_options_on_the_command_line(capsys: pytest.CaptureFixture[str], args: list[str],
                                         reason: str) -> None:
    status, _, err = _cli(capsys, *args)
    assert status == 2 and reason in err


def test_list_json_names_the_decisions_apart_from_the_inputs(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert resolve_main(["--list", "--ruleset", MCW, "--json"]) == 0
    listed = {p["id"]: p for p in json.loads(capsys.readouterr().out)}
    fire = listed["mini.fire"]
    assert "mcw_d13_cycle_front_rear" not in {i["name"] for i in fire["inputs"]}
    assert {"decision": "MCW-D13", "name": "mcw_d13_cycle_front_rear"}.items() <= \
        next(d for d in fire["decisions"] if d["decision"] == "MCW-D13").items()

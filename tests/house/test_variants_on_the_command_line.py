"""The AUTOpower control roll, ram and laser variants on the command line and in the quick
entry: off (the digest's defaults) the roll is refused and the message names ``--option``;
on, it resolves."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from carwars_desktop.cli import EXIT_REFUSED, resolve_main
from carwars_desktop.library.profiles import ExchangedProfile, dumps_profiles
from carwars_desktop.rules.autopower.play.table import QUICK
from carwars_desktop.services.house_rules import HouseRulesService
from carwars_desktop.services.quick_entry import QuickEntryError, parse
from carwars_desktop.storage import open_database

AP = "autopower"
RAM = ["autopower.ram", "--set", "rammer=Darkseid at Speed 9", "--set",
       "target=Nightwing at Speed 4", "--set", "cards=5, 7", "--dice", "1,2", "--json"]
LASER = ["autopower.laser", "--set", "firer=Booster Gold", "--set",
         "target=Nightwing at Speed 4", "--set", "cards=5, 6", "--dice", "6,6", "--json"]
CONTROL = ["autopower.control", "--set", "vehicle=Bishop at Speed 10", "--set", "damage=8",
           "--dice", "4,4", "--json"]


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = resolve_main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize(("args", "option", "label"), [
    (RAM, "AP-ramming=on", "Ramming variant (§2.9)"),
    (LASER, "AP-lasers=on", "Lasers variant (§2.10)"),
    (CONTROL, "AP-control-rolls=on", "Control roll variant (§2.8)"),
])
def test_off_the_roll_is_refused_and_names_the_option(capsys: pytest.CaptureFixture[str],
                                                      args: list[str], option: str,
                                                      label: str) -> None:
    for extra in ([], ["--odds"], ["--option", f"{option.split('=')[0]}=off"]):
        dice = ("--dice", "1,2", "6,6", "4,4")
        given = [a for a in args if a not in dice] if extra == ["--odds"] else args
        status, out, err = _run(capsys, *given, *extra)
        assert status == EXIT_REFUSED and out == ""
        assert err.startswith(f"carwars-desktop resolve: not allowed: {args[0]} is not "
                              f"offered: {label} is off in these house rules; switch it on "
                              f"with --option {option}  [AUTOpower §2.")
        assert err.count("\n") == 1


def test_on_the_ram_resolves_as_ever(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(capsys, *RAM, "--option", "AP-ramming=on")
    assert status == 0
    document = json.loads(out)
    assert document["values"]["to_hit"] == -1 and document["values"]["damage"] == 12
    assert document["odds"]["need"] == -1 and document["success"] is True
    status, out, _ = _run(capsys, *LASER, "--option", "AP-lasers=on")
    assert status == 0 and json.loads(out)["values"]["damage"] == 8


def test_on_the_control_roll_resolves_as_ever(capsys: pytest.CaptureFixture[str]) -> None:
    """AP-E9: Bishop, 8 damage, target 9; 4 + 4 is short by 1 (§2.8)."""
    status, out, _ = _run(capsys, *CONTROL, "--option", "AP-control-rolls=on")
    assert status == 0
    document = json.loads(out)
    assert document["values"]["target"] == 9 and document["values"]["penalty"] == -3


def test_a_profile_with_the_variant_on_offers_it(capsys: pytest.CaptureFixture[str],
                                                 tmp_path: Path, sqlite_url: str) -> None:
    path = tmp_path / "club.house-rules.json"
    path.write_text(dumps_profiles([ExchangedProfile(AP, "Rams", {"AP-ramming": True})]))
    status, out, _ = _run(capsys, *RAM, "--rules", f"@{path}")
    assert status == 0 and json.loads(out)["values"]["damage"] == 12
    status, _, err = _run(capsys, *LASER, "--rules", f"@{path}")
    assert status == EXIT_REFUSED and "--option AP-lasers=on" in err
    with open_database(sqlite_url) as database:
        HouseRulesService(database).create(AP, "Rams", {"AP-ramming": True})
    status, out, _ = _run(capsys, *RAM, "--rules", "Rams", "--db", sqlite_url)
    assert status == 0
    status, _, err = _run(capsys, *RAM, "--rules", "Rams", "--db", sqlite_url,
                          "--option", "AP-ramming=off")
    assert status == EXIT_REFUSED and "--option AP-ramming=on" in err


def test_list_marks_what_is_offered_under_the_rules(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(capsys, "--list", "--ruleset", AP, "--json")
    assert status == 0
    listed = {p["id"]: p for p in json.loads(out)}
    assert listed["autopower.ram"]["offered"] is False
    assert listed["autopower.ram"]["not_offered"] == ("Ramming variant (§2.9) is off in these "
                                                      "house rules")
    assert listed["autopower.ram"]["requires"] == [
        {"decision": "AP-ramming", "label": "Ramming variant (§2.9)", "value": True}]
    assert listed["autopower.laser"]["offered"] is False
    assert listed["autopower.control"]["offered"] is False  # §2.8, the Control Rolls variant
    assert listed["autopower.control"]["not_offered"] == ("Control roll variant (§2.8) is off "
                                                          "in these house rules")
    assert all(p["offered"] and p["not_offered"] is None for i, p in listed.items()
               if i not in ("autopower.ram", "autopower.laser", "autopower.control"))
    status, out, _ = _run(capsys, "--list", "--ruleset", AP, "--json", "--option",
                          "AP-ramming=on")
    listed = {p["id"]: p for p in json.loads(out)}
    assert listed["autopower.ram"]["offered"] is True
    assert listed["autopower.laser"]["offered"] is False
    status, out, _ = _run(capsys, "--list", "--ruleset", AP)
    ram_line = next(line for line in out.splitlines() if line.startswith("autopower.ram "))
    assert ram_line.endswith("[not offered: Ramming variant (§2.9) is off in these house "
                             "rules]")
    status, out, _ = _run(capsys, "--list", "--json")
    assert status == 0
    assert {p["id"]: p["offered"] for p in json.loads(out)}["autopower.laser"] is False


def test_list_with_house_rules_needs_the_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = _run(capsys, "--list", "--option", "AP-ramming=on")
    assert status == 2 and "name the ruleset too (--ruleset autopower)" in err
    status, _, err = _run(capsys, "--list", "--ruleset", AP, "--option", "MCW-D13=off")
    assert status == 2 and "unknown decision 'MCW-D13'" in err


def test_the_quick_entry_refuses_a_variant_that_is_off() -> None:
    with pytest.raises(QuickEntryError) as caught:
        parse("1 ram 2 5 3", QUICK, 2, house={})
    error = caught.value
    assert str(error) == ("'ram': Ramming variant (§2.9) is off in this session's house "
                          "rules: switch it on with Change house rules… in the Resolver's "
                          "House rules panel")
    assert error.pointer() == "  ^^^"
    with pytest.raises(QuickEntryError, match="Lasers variant"):
        parse("2 laser 1", QUICK, 2, house={"AP-ramming": True})
    assert parse("1 ram 2 5 3", QUICK, 2, house={"AP-ramming": True}).procedure_id == \
        "autopower.ram"
    assert parse("1 attack 2 5", QUICK, 2, house={}).procedure_id == "autopower.attack"

"""The command line at its edges: one line and exit status 2, never a traceback (issue 34 §1)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from carwars_desktop.app import main
from carwars_desktop.library.profiles import ExchangedProfile, dumps_profiles

DOC = Path(__file__).resolve().parents[1] / "docs" / "command-line.md"
MCW = "mini_car_wars"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        status = main(list(args))
    except SystemExit as exit_:  # argparse's usage errors
        status = int(exit_.code or 0)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def one_line(err: str, prog: str) -> str:
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"{prog}: "), err
    assert "Traceback" not in err
    return lines[0]


@pytest.fixture
def junk(tmp_path: Path) -> Path:
    path = tmp_path / "junk.db"
    path.write_text("not a database\n")
    return path


@pytest.mark.parametrize("where", ["missing", "junk", "url", "postgres"])
@pytest.mark.parametrize("how", ["--db", "env"])
def test_a_database_that_cannot_be_opened_is_one_line(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        junk: Path, where: str, how: str) -> None:
    url = {"missing": str(tmp_path / "missing-folder" / "x.db"), "junk": str(junk),
           "url": "nosuchdriver://x", "postgres": "postgresql+psycopg://x@127.0.0.1:1/db"}[where]
    for command in (["resolve", "mini.fire", "--rules", "Friday"], ["design", "check", "Courier"],
                    ["design", "list"]):
        if how == "env":
            monkeypatch.setenv("CARWARS_DB", url)
            args = command
        else:
            args = [*command, "--db", url]
        status, out, err = run(capsys, *args)
        assert status == 2, (args, err)
        one_line(err, f"carwars-desktop {command[0]}")
        assert out == ""


def test_design_check_a_name_too_long_for_a_file(capsys: pytest.CaptureFixture[str],
                                                  tmp_path: Path) -> None:
    status, _, err = run(capsys, "design", "check", "a" * 300, "--db", str(tmp_path / "l.db"))
    assert status == 2
    assert "no design called 'aaaa" in one_line(err, "carwars-desktop design")
    assert len(err) < 200


@pytest.mark.parametrize("args", [["resolve", "--list"], ["resolve", "--list", "--json"]])
def test_a_closed_pipe_ends_quietly(args: list[str]) -> None:
    command = [sys.executable, "-c", "import sys; from carwars_desktop.app import main; "
               "sys.exit(main(sys.argv[1:]))", *args]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as process:
        assert process.stdout is not None and process.stderr is not None
        process.stdout.readline()
        process.stdout.close()  # as `| head -1` does
        err = process.stderr.read()
        status = process.wait(timeout=60)
    assert err == b""
    assert status == 0


@pytest.mark.parametrize(("args", "prog", "says"), [
    (["resolve", "--bogus"], "carwars-desktop resolve", "unrecognized arguments: --bogus"),
    (["resolve", "dice.roll", "--seed", "x"], "carwars-desktop resolve", "invalid int"),
    (["design", "frobnicate"], "carwars-desktop design", "invalid choice"),
    (["design", "check"], "carwars-desktop design check", "required: source"),
    (["--bogus"], "carwars-desktop", "unrecognized arguments"),
])
def test_a_usage_error_is_one_line(capsys: pytest.CaptureFixture[str], args: list[str],
                                   prog: str, says: str) -> None:
    status, _, err = run(capsys, *args)
    assert status == 2
    line = one_line(err, prog)
    assert says in line and line.endswith(f"(see {prog} --help)")


@pytest.mark.parametrize(("args", "says"), [
    (["resolve", "dice.roll", "--list"], "--list lists every procedure"),
    (["resolve", "mini.fire", "--ruleset", MCW], "--ruleset is for --list"),
    (["resolve", "mini.fire", "--option", "MCW-D13=off", "--option", "mcw-d13=on"],
     "--option MCW-D13 given twice"),
    (["design", "check", "Courier", "--side", "1"], "--side is the side of a --scenario"),
])
def test_what_was_silently_accepted_is_refused(capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch,
                                               tmp_path: Path, args: list[str],
                                               says: str) -> None:
    monkeypatch.setenv("CARWARS_DB", str(tmp_path / "l.db"))
    status, out, err = run(capsys, *args)
    assert status == 2 and out == ""
    assert says in one_line(err, f"carwars-desktop {args[0]}")


def test_list_with_another_rulesets_profile_prints_nothing(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "bc.house-rules.json"
    path.write_text(dumps_profiles([ExchangedProfile("battlecars", "Club", {})]))
    status, out, err = run(capsys, "resolve", "--list", "--ruleset", "autopower",
                           "--rules", f"@{path}")
    assert status == 2 and out == ""
    assert "no AUTOpower profile" in one_line(err, "carwars-desktop resolve")


def test_a_profile_file_reads_off_as_the_docs_write_it(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "club.house-rules.json"
    document = json.loads(dumps_profiles([ExchangedProfile(MCW, "Club", {"MCW-D13": False})]))
    document["profiles"][0]["rules"] = {"MCW-D13": "off"}
    path.write_text(json.dumps(document))
    shot = ["resolve", "mini.fire", "--set", "firer=Courier", "--set", "target=Shogun 100",
            "--set", "side=F", "--set", "range=3", "--odds", "--json"]
    status, out, err = run(capsys, *shot, "--rules", f"@{path}")
    assert status == 0, err
    status, expected, _ = run(capsys, *shot, "--option", "MCW-D13=off")
    assert status == 0 and json.loads(out)["odds"] == json.loads(expected)["odds"]


def _synopsis_lines() -> list[str]:
    blocks = re.findall(r"```sh\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)
    return [line.strip() for block in blocks for line in block.splitlines()
            if line.startswith("carwars-desktop")]


def _start_a_session(db: str) -> None:
    from carwars_desktop.rules import find_ruleset
    from carwars_desktop.services import Services
    from carwars_desktop.session.setup import Entry, prepare
    from carwars_desktop.storage import open_database
    from carwars_desktop.storage.engine import sqlite_url_for_path

    ruleset = find_ruleset(MCW)
    courier = ruleset.catalog()["Courier"].to_json()
    with open_database(sqlite_url_for_path(db)) as database:
        services = Services()
        services.table.database = database
        services.table.start(MCW, "Synopsis night", "", prepare(
            ruleset, [Entry("Ann", "Courier", courier), Entry("Bob", "Courier", courier)]))


def test_every_synopsis_line_runs_as_printed(capsys: pytest.CaptureFixture[str],
                                             tmp_path: Path) -> None:
    db = str(tmp_path / "library.sqlite3")
    exported = str(tmp_path / "courier.carwars.json")
    concrete = {  # each synopsis line, with its placeholders filled in
        "carwars-desktop resolve --list [--ruleset mini_car_wars] [--json]":
            ["resolve", "--list", "--ruleset", MCW, "--json"],
        "carwars-desktop resolve ID --set NAME=VALUE … [--dice 5,4,…] [--seed N] [--json]":
            ["resolve", "dice.roll", "--set", "expression=2d6", "--dice", "5", "--seed", "1",
             "--json"],
        "carwars-desktop resolve ID --set NAME=VALUE … --odds [--json]":
            ["resolve", "dice.roll", "--set", "expression=2d6", "--odds", "--json"],
        "[--rules PROFILE|@file.json] [--option DECISION=VALUE …] [--db URL]":
            ["resolve", "mini.fire", "--set", "firer=Courier", "--set", "target=Courier",
             "--odds", "--rules", "The digest's defaults", "--option", "MCW-D13=off",
             "--db", db],
        "carwars-desktop [--db URL] design check FILE|NAME [--ruleset ID] [--kind KIND]":
            ["--db", db, "design", "check", "Courier", "--ruleset", MCW, "--kind", "vehicle"],
        "[--rules PROFILE|@file.json] [--option DECISION=VALUE …]":
            ["design", "check", "Courier", "--rules", "The digest's defaults", "--option",
             "MCW-D22=off", "--db", db],
        "carwars-desktop [--db URL] design list [--ruleset ID] [--json]":
            ["--db", db, "design", "list", "--ruleset", MCW, "--json"],
        "carwars-desktop [--db URL] design export NAME [--ruleset ID] [--kind KIND] [-o FILE]":
            ["--db", db, "design", "export", "Courier", "--ruleset", MCW, "--kind", "vehicle",
             "-o", exported],
        "carwars-desktop [--db URL] design import FILE":
            ["--db", db, "design", "import", exported],
        "carwars-desktop [--db URL] report SESSION [--html FILE] [--pdf FILE] [--gm-copy]":
            ["--db", db, "report", "Synopsis night", "--html", str(tmp_path / "r.html"),
             "--gm-copy"],  # (the PDF is the GUI tests': it needs a Qt application)
        "carwars-desktop [--db URL] ledger [--ruleset ID] [--since YYYY-MM-DD] "
        "[--until YYYY-MM-DD] [--profile NAME] [--by player|design] [--json|--csv]":
            ["--db", db, "ledger", "--ruleset", MCW, "--since", "2026-01-01", "--until",
             "2099-12-31", "--profile", "The digest's defaults", "--by", "design", "--csv"],
    }
    _start_a_session(db)
    lines = _synopsis_lines()
    lines.insert(lines.index(next(line for line in lines if "--odds [--json]" in line)) + 1,
                 "[--rules PROFILE|@file.json] [--option DECISION=VALUE …] [--db URL]")
    lines.insert(lines.index(next(line for line in lines if "design check" in line)) + 1,
                 "[--rules PROFILE|@file.json] [--option DECISION=VALUE …]")
    assert sorted(concrete) == sorted(lines)
    for line in lines:
        status, _, err = run(capsys, *concrete[line])
        assert status == 0, (line, err)
    for after in (["design", "list", "--db", db], ["design", "check", "Courier", "--db", db]):
        status, _, err = run(capsys, *after)
        assert status == 0, err


def test_a_name_always_reaches_its_design(capsys: pytest.CaptureFixture[str],
                                          tmp_path: Path) -> None:
    from carwars_desktop.storage import open_database
    from carwars_desktop.storage.engine import sqlite_url_for_path

    db = str(tmp_path / "library.sqlite3")
    exported = str(tmp_path / "courier.carwars.json")
    assert run(capsys, "design", "export", "Courier", "--db", db, "-o", exported)[0] == 0
    status, out, _ = run(capsys, "design", "import", exported, "--db", db)
    assert status == 0 and "Courier (2)" in out  # the catalog's name is taken: keep both
    status, out, _ = run(capsys, "design", "check", "catalog:Courier", "--db", db, "--json")
    assert status == 0 and json.loads(out)["designs"][0]["name"] == "Courier"
    with open_database(sqlite_url_for_path(db)) as database:
        (copy,) = [r for r in database.library.all(MCW) if r.name == "Courier (2)"]
        with database.engine.begin() as connection:  # two designs called Courier (old data:
            connection.exec_driver_sql(  # a rename to a taken name is refused now)
                "UPDATE designs SET name = 'Courier' WHERE id = ?", (copy.id,))
    status, out, err = run(capsys, "design", "check", "Courier", "--db", db)
    assert status == 2 and out == ""
    line = one_line(err, "carwars-desktop design")
    assert f"'Courier' names 2 designs: catalog:Courier; Courier (library design #{copy.id})" \
        in line
    status, out, _ = run(capsys, "design", "check", "catalog:Courier", "--db", db, "--json")
    assert status == 0 and json.loads(out)["designs"][0]["source"] != f"library design #{copy.id}"


def test_design_check_takes_house_rules_as_resolve_does(capsys: pytest.CaptureFixture[str],
                                                        tmp_path: Path) -> None:
    db = str(tmp_path / "library.sqlite3")
    assert run(capsys, "design", "check", "Darkseid", "--db", db)[0] == 0
    status, out, _ = run(capsys, "design", "check", "Darkseid", "--db", db,
                         "--option", "AP-division=15", "--json")
    assert status == 3
    (design,) = json.loads(out)["designs"]
    assert not design["legal"] and [p["rule"] for p in design["problems"]] == \
        ["AUTOpower §1.1, AP-D2"]
    path = tmp_path / "d15.house-rules.json"
    path.write_text(dumps_profiles([ExchangedProfile("autopower", "D15",
                                                     {"AP-division": 15})]))
    assert run(capsys, "design", "check", "Darkseid", "--db", db, "--rules", f"@{path}")[0] == 3
    status, _, err = run(capsys, "design", "check", "Darkseid", "--db", db,
                         "--option", "MCW-D13=off")
    assert status == 2 and "unknown decision 'MCW-D13'" in one_line(err, "carwars-desktop design")


def test_every_key_of_a_damage_report_is_documented(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "resolve", "mini.damage", "--set", "vehicle=Courier",
                         "--set", "damage=9", "--json")
    assert status == 0
    report = json.loads(out)["values"]["report"]
    text = DOC.read_text(encoding="utf-8")
    said = text[text.index("`report`/`reports` (`mini.damage`, `mini.fire`)"):]
    said = said[:said.index("- **Battlecars**")]
    assert sorted(key for key in report if f"`{key}`" not in said) == []


def test_an_automatically_failed_push_is_in_stages(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "resolve", "autopower.push", "--set", "vehicle=Rhino",
                         "--set", "vehicle.energy_in_play=[5,4]", "--dice", "6,6", "--json")
    assert status == 0
    stages = json.loads(out)["values"]["stages"]
    assert stages == [
        {"energy_in_play": [5, 4], "raw_speed": 11, "target": 13, "natural": None,
         "result": "auto_failed"},
        {"energy_in_play": [5], "raw_speed": 7, "target": 9, "natural": 12, "result": "held"}]


def test_dice_left_over_are_refused_as_the_resolver_refuses_them(
        capsys: pytest.CaptureFixture[str]) -> None:
    from carwars_desktop.dice import EnteredDice
    from carwars_desktop.rules import find_procedure
    from carwars_desktop.services.table import ResolveError, resolve_dice

    for extra in (["--dice", "3,4,6"], ["--dice", "3,4,6", "--json"]):
        status, out, err = run(capsys, "resolve", "dice.roll", "--set", "expression=2d6",
                               *extra)
        assert status == 2 and out == ""
        line = one_line(err, "carwars-desktop resolve")
        assert line.endswith("1 typed die was not needed: 6 (die 3 of 3 typed; the roll "
                             "took 2). Nothing was resolved.")
    with pytest.raises(ResolveError) as service:  # the Resolver's function, word for word
        resolve_dice(find_procedure("dice.roll"), {"expression": "2d6"}, EnteredDice([3, 4, 6]))
    assert line == f"carwars-desktop resolve: {service.value}"
    status, out, err = run(capsys, "resolve", "dice.roll", "--set", "expression=1d6",
                           "--dice", "3,4,6")
    assert status == 2 and "2 typed dice were not needed: 4 6 (dice 2–3 of 3 typed; the roll " \
        "took 1)" in one_line(err, "carwars-desktop resolve")
    status, out, _ = run(capsys, "resolve", "dice.roll", "--set", "expression=2d6",
                         "--dice", "3,4", "--json")
    assert status == 0 and json.loads(out)["unused_dice"] == []


def test_design_export_reaches_the_catalog_and_lists_candidates(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from carwars_desktop.storage import open_database
    from carwars_desktop.storage.engine import sqlite_url_for_path

    db = str(tmp_path / "library.sqlite3")
    exported = tmp_path / "courier.carwars.json"
    assert run(capsys, "design", "export", "Courier", "--db", db, "-o", str(exported))[0] == 0
    assert run(capsys, "design", "import", str(exported), "--db", db)[0] == 0
    with open_database(sqlite_url_for_path(db)) as database:
        (copy,) = [r for r in database.library.all(MCW) if r.name == "Courier (2)"]
        catalog_id = next(r.id for r in database.library.all(MCW)
                          if r.is_catalog and r.name == "Courier")
        with database.engine.begin() as connection:  # a name two designs share (old data)
            connection.exec_driver_sql("UPDATE designs SET name = 'Courier' WHERE id = ?",
                                       (copy.id,))
    status, out, err = run(capsys, "design", "export", "Courier", "--db", db)
    assert status == 2 and out == ""
    assert f"'Courier' names 2 designs: catalog:Courier; Courier (library design #{copy.id})" \
        in one_line(err, "carwars-desktop design")
    status, out, _ = run(capsys, "design", "export", "catalog:Courier", "--db", db)
    assert status == 0
    with open_database(sqlite_url_for_path(db)) as database:
        (expected,) = database.library.exported([catalog_id])
    assert json.loads(out)["designs"][0]["design"] == expected.data
    status, out, err = run(capsys, "design", "export", "Corier", "--db", db)
    assert status == 2 and out == ""
    line = one_line(err, "carwars-desktop design")
    assert line.startswith("carwars-desktop design: no design called 'Corier'; the closest: "
                           f"catalog:Courier, Courier (library design #{copy.id}), ")
    status, _, err = run(capsys, "design", "export", "catalog:Corier", "--db", db)
    assert "; the closest: catalog:Courier, catalog:Courier (" in one_line(
        err, "carwars-desktop design")
    status, _, err = run(capsys, "design", "check", "Black Kat", "--db", db)
    assert status == 2 and "no design called 'Black Kat'; the closest: Black Cat" in err

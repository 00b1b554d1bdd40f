"""``carwars-desktop design``: check, list, export and import, with the documented exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from carwars_desktop.app import main
from carwars_desktop.library import dumps_designs, make_exchanged
from carwars_desktop.rules.autopower import Car
from carwars_desktop.rules.mini_car_wars import MiniDesign


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["design", *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "library.sqlite3")


def test_check_a_catalog_design_by_name(capsys: pytest.CaptureFixture[str], db: str) -> None:
    status, out, _ = run(capsys, "--db", db, "check", "Courier", "--json")
    assert status == 0
    (design,) = json.loads(out)["designs"]
    assert (design["ruleset"], design["kind"], design["name"]) == ("mini_car_wars", "vehicle",
                                                                   "Courier")
    assert design["cost"] == 13_000 and design["cost_text"] == "$13,000"
    assert design["class_text"] == "Luxury" and design["legal"] and design["problems"] == []


def test_an_autopower_car_reports_its_total_and_division(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "cars.carwars.json"
    big = Car("Big", 9, 9, 9, 9)
    path.write_text(dumps_designs([make_exchanged("autopower", "vehicle", big.to_json())]),
                    encoding="utf-8")
    status, out, _ = run(capsys, "check", str(path), "--json")
    (design,) = json.loads(out)["designs"]
    assert (design["cost"], design["class"], design["class_text"]) == (36, None, "no division")
    assert status == (0 if design["legal"] else 3)


def test_an_illegal_design_lists_every_problem_and_exits_3(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    courier = MiniDesign.stock_design("courier")
    bad = courier.to_json()
    bad["armor"] = {side: 999 for side in bad["armor"]}
    path = tmp_path / "bad.carwars.json"
    path.write_text(dumps_designs([make_exchanged("mini_car_wars", "vehicle", bad)]),
                    encoding="utf-8")
    status, out, _ = run(capsys, "check", str(path))
    assert status == 3
    assert "⚠ draft" in out and out.count("⚠") >= 2 and "[Mini Car Wars" in out


def test_a_purchase_against_a_scenario_and_budget(capsys: pytest.CaptureFixture[str],
                                                  db: str) -> None:
    status, out, _ = run(capsys, "--db", db, "check", "Courier", "--scenario", "road-duel",
                         "--budget", "10000", "--json")
    assert status == 3
    purchase = json.loads(out)["purchase"]
    assert purchase["total"] == 13_000
    assert [p["code"] for p in purchase["problems"]] == ["over-budget"]
    assert "over the $10,000 budget by $3,000" in purchase["problems"][0]["message"]
    status, out, _ = run(capsys, "--db", db, "check", "Courier", "--scenario", "road-duel",
                         "--budget", "15000")
    assert status == 0 and "✔ fits" in out
    # Pack Attack's cycle side wants five cycles: one car is the wrong kind and count.
    status, out, _ = run(capsys, "--db", db, "check", "Courier", "--scenario", "pack-attack",
                         "--side", "1", "--json")
    codes = {p["code"] for p in json.loads(out)["purchase"]["problems"]}
    assert status == 3 and {"vehicle-count", "vehicle-kind"} <= codes


@pytest.mark.parametrize(("args", "message"), [
    (["check", "No Such Car"], "no design called 'No Such Car'"),
    (["check", "Courier", "--scenario", "derby"], "has no scenario 'derby'"),
    (["check", "Black Cat", "--budget", "100"], "have no purchase rules"),
    (["check", "Courier", "--scenario", "pack-attack", "--side", "5"], "has no side 5"),
    (["export", "No Such Car"], "no design called 'No Such Car'"),
])
def test_bad_input_exits_2_with_one_line(capsys: pytest.CaptureFixture[str], db: str,
                                         args: list[str], message: str) -> None:
    status, out, err = run(capsys, "--db", db, *args)
    assert status == 2 and out == ""
    assert message in err and err.count("\n") == 1


def test_a_malformed_file_is_refused_with_the_reason(capsys: pytest.CaptureFixture[str],
                                                     tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text('{"format": "something else"}', encoding="utf-8")
    status, _, err = run(capsys, "check", str(path))
    assert status == 2 and "not a Carwars Desktop design file" in err


def test_export_import_and_list_round_trip(capsys: pytest.CaptureFixture[str], db: str,
                                           tmp_path: Path) -> None:
    exported = tmp_path / "courier.carwars.json"
    assert run(capsys, "--db", db, "export", "Courier", "-o", str(exported))[0] == 0
    for _ in range(2):
        status, out, _ = run(capsys, "--db", db, "import", str(exported))
        assert status == 0
    assert "Courier (3)" in out  # each copy keeps both: the catalog's name is taken too
    status, out, _ = run(capsys, "--db", db, "list", "--ruleset", "mini_car_wars", "--json")
    listed = json.loads(out)
    mine = sorted(e["name"] for e in listed if not e["catalog"])
    assert status == 0 and mine == ["Courier (2)", "Courier (3)"]
    assert all(e["ruleset"] == "mini_car_wars" for e in listed)
    status, out, _ = run(capsys, "--db", db, "check", "Courier (2)", "--json")
    assert status == 0 and json.loads(out)["designs"][0]["source"].startswith("library")

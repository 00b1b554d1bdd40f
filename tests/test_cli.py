"""The ``resolve`` command line, generated from the procedure declarations."""

from __future__ import annotations

import json

import pytest

from carwars_desktop.app import main
from carwars_desktop.rules import all_procedures


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["resolve", *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_list_json_describes_every_procedure(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "--list", "--json")
    assert status == 0
    listed = json.loads(out)
    assert [p["id"] for p in listed] == [p.id for p in all_procedures()]
    roll = next(p for p in listed if p["id"] == "dice.roll")
    assert roll["ruleset"] == "generic"
    assert {"name", "type", "default", "help"} <= set(roll["inputs"][0])
    assert {p["ruleset"] for p in listed} >= {"generic"}


def test_resolve_with_entered_dice_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "dice.roll", "--set", "expression=2d6+1", "--set", "target=8",
                         "--dice", "5,4", "--json")
    assert status == 0
    document = json.loads(out)
    assert document["outcome"] == "10: success (needed 8+)"
    assert [d["value"] for d in document["dice"]] == [5, 4]
    assert document["odds"]["summary"] == "need 8+ · 7/12 · 58.3%"
    assert sum(float(o["percent"]) for o in document["odds"]["outcomes"]) == pytest.approx(100)


def test_missing_dice_rolled_from_seed(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "dice.roll", "--set", "expression=3d6", "--dice", "6",
                         "--seed", "7", "--json")
    assert status == 0
    dice = json.loads(out)["dice"]
    assert [d["entered"] for d in dice] == [True, False, False]
    status2, out2, _ = run(capsys, "dice.roll", "--set", "expression=3d6", "--dice", "6",
                           "--seed", "7", "--json")
    assert json.loads(out2)["dice"] == dice


def test_plain_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "dice.roll", "--set", "expression=2d6", "--set", "target=9",
                         "--dice", "6 6")
    assert status == 0
    assert "odds: need 9+ · 5/18 · 27.8%" in out
    assert "→ 12: success (needed 9+)" in out


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (["no.such"], "unknown procedure 'no.such'"),
        (["dice.roll", "--set", "expression=2d6"], "needs another d6"),
        (["dice.roll", "--set", "expression=2d6", "--dice", "5,7"], "cannot show 7"),
        (["dice.roll", "--set", "colour=red", "--dice", "1,1"], "has no input 'colour'"),
        (["dice.roll", "--set", "target=lots", "--dice", "1,1"], "'lots' is not a whole number"),
        (["dice.roll", "--set", "expression", "--dice", "1,1"], "write NAME=VALUE"),
        (["dice.roll", "--dice", "five"], "'five' is not a die value"),
        ([], "name a procedure id"),
        (["dice.roll", "--dice", "5 ²"], "'²' is not a die value"),
                (["mini.fire", "--set", "target=" + '{"a":' * 50_000 + "1" + "}" * 50_000],
         "nested too deeply"),
    ],
)
def test_bad_input_exits_with_one_line(capsys: pytest.CaptureFixture[str], args: list[str],
                                       reason: str) -> None:
    status, out, err = run(capsys, *args)
    assert status == 2
    assert out == ""
    assert reason in err
    assert err.count("\n") == 1


def test_a_refusal_found_while_checking_exits_3(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "mini.fire", "--set", "firer=Courier", "--set",
                           "target=Courier", "--set", "side=T", "--dice", "6,6")
    assert status == 3 and out == ""
    assert err.startswith("carwars-desktop resolve: not allowed: side: Courier has no turret")
    assert err.rstrip().endswith("[Mini Car Wars §2.9]") and err.count("\n") == 1


def test_a_refused_resolution_exits_3_and_is_printed(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "mini.speed", "--set", "vehicle=Courier",
                           "--set", "speed=70", "--json")
    assert status == 3 and err == ""
    document = json.loads(out)
    assert document["outcome"] == "70 mph is not allowed" and document["effects"] == []
    assert document["refusal"]["rule"].startswith("Mini Car Wars §") and document["dice"] == []
    # the reason is a sentence (it was the fragment "not one of them")
    assert document["refusal"]["reason"] == \
        "70 mph is not one of the legal new speeds from 0 mph"
    status, out, _ = run(capsys, "mini.speed", "--set", "vehicle=Courier", "--set", "speed=70")
    assert status == 3 and "→ 70 mph is not allowed  [Mini Car Wars §" in out


def test_an_old_input_name_is_still_accepted(capsys: pytest.CaptureFixture[str]) -> None:
    new = run(capsys, "mini.speed", "--set", "vehicle=Courier", "--set", "speed=10", "--json")
    old = run(capsys, "mini.speed", "--set", "vehicle=Courier", "--set", "new_speed=10",
              "--json")
    assert new[0] == old[0] == 0 and json.loads(new[1]) == json.loads(old[1])
    assert json.loads(old[1])["inputs"]["speed"] == 10


def test_odds_without_dice_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("mini.fire", "--set", "firer=Courier", "--set", "target=Killer Kart", "--odds")
    status, out, err = run(capsys, *args)
    assert status == 0 and err == ""
    assert "odds: need 8+ · 5/12 · 41.7%" in out
    assert "  modifier neither moving +2  [Mini Car Wars §3.2 MCW-D12]" in out
    assert "  P(success) 5/12 · 41.7%" in out
    assert "  outcome miss: 7/12 · 58.3%" in out
    assert "  expected damage: 35/12 (≈ 2.92)" in out
    assert "       8 █████████████████    5/36 · 13.9% ✔" in out
    status, out, _ = run(capsys, *args, "--json")
    document = json.loads(out)
    assert status == 0 and document["procedure"] == "mini.fire"
    assert document["p_success"] == {"fraction": "5/12", "percent": 41.67}
    assert document["odds"]["need"] == 8
    assert document["inputs"]["firer"]["name"] == "Courier"
    assert "dice" not in document


def test_odds_refuses_dice(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "dice.roll", "--set", "expression=2d6", "--odds", "--seed", "1")
    assert status == 2 and "--odds throws no dice" in err


def test_odds_of_a_refused_input_exit_3(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "mini.fire", "--set", "firer=Courier", "--set", "target=Courier",
                         "--set", "side=T", "--odds")
    assert status == 3 and "not allowed" in err


def test_set_a_sheet_fact(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "mini.fire", "--set", "firer.speed=50", "--set", "firer=Courier",
                         "--set", "target=Killer Kart", "--set", "target.speed=30", "--odds",
                         "--json")
    document = json.loads(out)
    assert status == 0 and document["inputs"]["firer"]["speed"] == 50
    assert "neither moving" not in {m["label"] for m in document["odds"]["modifiers"]}
    assert document["odds"]["need"] == 10


def test_the_not_moving_default_is_explained(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "mini.fire", "--set", "firer=Courier", "--set",
                         "target=Killer Kart", "--set", "target.speed=20", "--dice", "3,4")
    assert status == 0
    assert "firer not moving (+1): Courier is at 0 mph on its sheet" in out
    assert "target not moving" not in out


@pytest.mark.parametrize(("pair", "reason"), [
    ("firer.sped=50", "MiniSheet has no key 'sped' (keys: armor,"),
    ("target.speed=5", "give the sheet first (--set target=NAME)"),
    ("side.x=1", "only a record-sheet input has keys (side is a choice)"),
    ("firer.speed=fast", "firer: not a valid MiniSheet"),
])
def test_bad_sheet_facts_exit_2(capsys: pytest.CaptureFixture[str], pair: str,
                                reason: str) -> None:
    status, _, err = run(capsys, "mini.fire", "--set", "firer=Courier", "--set", pair, "--odds")
    assert status == 2 and reason in err

"""Every decision the engines read is switchable in a profile (issue 34 §2): a walk of each
ruleset's engine code for the options fields it reads, against its declared decisions."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

from carwars_desktop.rules import find_ruleset

PACKAGE = Path(__file__).parents[2] / "carwars_desktop" / "rules"
RULESETS = {"mini_car_wars": "mini_car_wars", "battlecars": "battlecars",
            "autopower": "autopower"}


def _reads(package: Path, fields: set[str]) -> dict[str, list[str]]:
    """Each options field read as an attribute (``rules.d15_shots``) → where."""
    found: dict[str, list[str]] = {}
    for path in sorted(package.rglob("*.py")):
        if path.name in {"decisions.py", "options.py"}:
            continue  # the declarations themselves
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in fields \
                    and isinstance(node.ctx, ast.Load):
                found.setdefault(node.attr, []).append(f"{path.name}:{node.lineno}")
    return found


@pytest.mark.parametrize("ruleset_id", sorted(RULESETS))
def test_every_decision_the_engine_reads_is_in_the_profile(ruleset_id: str) -> None:
    ruleset = find_ruleset(ruleset_id)
    assert ruleset.options_type is not None and ruleset.decisions is not None
    fields = {f.name for f in dataclasses.fields(ruleset.options_type)}
    reads = _reads(PACKAGE / RULESETS[ruleset_id], fields)
    assert reads, "the walk finds the engine's decision reads"
    declared = {decision.field for decision in ruleset.decisions.decisions}
    missing = {field: where for field, where in reads.items() if field not in declared}
    assert missing == {}


def test_mcw_d15_d19_d28_reach_the_sheets_a_session_starts_with() -> None:
    from carwars_desktop.rules.mini_car_wars import MiniDesign, MiniSheet
    from carwars_desktop.session.setup import Entry, prepare

    ruleset = find_ruleset("mini_car_wars")
    for decision_id in ("MCW-D15", "MCW-D19", "MCW-D28", "MCW-A4"):
        assert ruleset.decisions is not None and ruleset.decisions.get(decision_id)
    entries = [Entry("Ann", "Sherman", MiniDesign.stock_design("mini_sherman", option="b")
                     .to_json()),
               Entry("Bob", "Rocket", MiniDesign.stock_design("rocket_special", option="b")
                     .to_json())]
    house = ruleset.house_options({"MCW-D15": 10, "MCW-D19": True, "MCW-D28": False})
    plain, ruled = prepare(ruleset, entries), prepare(ruleset, entries, "", house)
    sherman, rocket = (ruled.sheets[key] for key in ("v1", "v2"))
    assert isinstance(sherman, MiniSheet) and isinstance(rocket, MiniSheet)
    assert {w.shots_left for w in sherman.weapons if w.kind.value != "HR"} == {10}
    assert plain.sheets["v1"] != sherman and plain.sheets["v2"] != rocket

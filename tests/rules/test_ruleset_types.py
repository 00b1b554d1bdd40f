"""mypy checks a plug-in's hooks: ``Ruleset``, ``DesignKind`` and the GUI's ``RulesetUI`` are
generic in the ruleset's design, sheet and options types, so a hook of the wrong type is
refused."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mypy")

REPO = Path(__file__).resolve().parents[2]

WRONG_HOOKS = '''
from dataclasses import replace

from carwars_desktop.rules import DesignKind, Ruleset
from carwars_desktop.rules.battlecars import Card
from carwars_desktop.rules.builtin import MINI_CAR_WARS
from carwars_desktop.rules.mini_car_wars import RULESET, MiniDesign, MiniRules, MiniSheet
from carwars_desktop.rules.ruleset import Problem


def sheet_for(design: Card) -> MiniSheet:
    raise NotImplementedError


def house(design: MiniDesign, options: int) -> tuple[Problem, ...]:
    return ()


WRONG_SHEET: Ruleset[MiniDesign, MiniSheet, MiniRules] = replace(
    RULESET, sheet_for_design=sheet_for)
WRONG_OPTIONS: DesignKind[MiniDesign, MiniRules] = DesignKind(
    MINI_CAR_WARS, "vehicle", "Vehicle", "New", MiniDesign, MiniDesign.from_json,
    lambda name: MiniDesign.from_json({}), house_problems=house)
'''


def _mypy(path: Path, cache: Path) -> str:
    done = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(cache),
                           "--no-error-summary", "--hide-error-context", str(path)],
                          capture_output=True, text=True, cwd=REPO, timeout=600)
    return "\n".join(line for line in done.stdout.splitlines() if ": error:" in line)


def test_a_hook_of_the_wrong_type_is_refused_by_mypy(tmp_path: Path) -> None:
    (tmp_path / "wrong_hooks.py").write_text(WRONG_HOOKS, encoding="utf-8")
    out = _mypy(tmp_path / "wrong_hooks.py", tmp_path / "cache")
    assert 'Argument "sheet_for_design" to "replace" of "Ruleset[MiniDesign, MiniSheet, ' \
           'MiniRules]" has incompatible type "Callable[[Card], MiniSheet]"' in out
    assert 'Argument "house_problems" to "DesignKind" has incompatible type' in out
    assert "expected \"Callable[[MiniDesign, MiniRules], tuple[Problem, ...]] | None\"" in out


def test_the_test_only_ruleset_s_hooks_are_checked_and_pass(tmp_path: Path) -> None:
    assert _mypy(REPO / "tests" / "plugin" / "tiny_dice" / "__init__.py",
                 tmp_path / "cache") == ""


def test_each_rulesets_sheet_reader_refuses_another_rulesets_sheet() -> None:
    # rules/play.sheet_reader: the one check behind car_sheet and mini_sheet
    from carwars_desktop.rules import find_ruleset
    from carwars_desktop.rules.autopower.play import car_sheet as autopower_sheet
    from carwars_desktop.rules.battlecars.play import car_sheet as battlecars_sheet
    from carwars_desktop.rules.mini_car_wars.play import mini_sheet

    sheets = {}
    for ruleset_id in ("mini_car_wars", "battlecars", "autopower"):
        ruleset = find_ruleset(ruleset_id)
        design = next(iter(ruleset.catalog().values()))
        sheets[ruleset_id] = ruleset.sheet_for_design(design)
    readers = {"mini_car_wars": (mini_sheet, "a Mini Car Wars sheet"),
               "battlecars": (battlecars_sheet, "a Battlecars car sheet"),
               "autopower": (autopower_sheet, "an AUTOpower car sheet")}
    for ruleset_id, (reader, what) in readers.items():
        assert reader(sheets[ruleset_id]) is sheets[ruleset_id]
        for other_id, other in sheets.items():
            if other_id != ruleset_id:
                with pytest.raises(TypeError, match=f"expected {what}, got "):
                    reader(other)

"""A ruleset is one package: found through the ``carwars_desktop.rulesets`` entry-point group
(the built-ins too), its id and title written once in its entry, and everything of it
(kinds, procedures, play rules, screens) taking them from there."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from carwars_desktop.rules import RULESET_IDS, all_rulesets, rediscover, registry, ruleset_ids
from carwars_desktop.rules.builtin import BUILT_IN

REPO = Path(__file__).resolve().parents[2]
PLUGIN = REPO / "tests" / "plugin"


def test_the_built_ins_are_registered_through_the_entry_point_group() -> None:
    installed = registry.installed_entries()  # read from the app's dist-info
    assert set(BUILT_IN) <= set(installed)
    assert ruleset_ids()[:3] == RULESET_IDS == ("mini_car_wars", "battlecars", "autopower")


def test_without_the_app_s_metadata_the_built_ins_are_still_found(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # A bundle or a checkout without its dist-info: no entry point at all.
    monkeypatch.setattr(registry, "entry_points", lambda group: ())
    rediscover()
    try:
        assert registry.installed_entries() == ()
        assert ruleset_ids() == RULESET_IDS
        assert [ruleset.title for ruleset in all_rulesets()] == [
            "Mini Car Wars", "Battlecars", "AUTOpower"]
    finally:
        monkeypatch.undo()
        rediscover()


def test_an_entry_point_taking_a_built_in_prefix_is_left_out(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    points = (EntryPoint("mini_car_wars", "carwars_desktop.rules.builtin:MINI_CAR_WARS",
                         registry.ENTRY_POINT_GROUP),
              EntryPoint("tiny_dice", "tiny_dice:ENTRY", registry.ENTRY_POINT_GROUP))
    monkeypatch.syspath_prepend(str(PLUGIN))
    monkeypatch.setattr(registry, "entry_points", lambda group: points)
    import tiny_dice

    monkeypatch.setattr(tiny_dice, "ENTRY",
                        type(tiny_dice.ENTRY)("tiny_dice", "Tiny", "tiny_dice", "mini"))
    rediscover()
    try:
        with caplog.at_level("ERROR"):
            assert ruleset_ids() == RULESET_IDS
        assert "ruleset 'tiny_dice' left out: the procedure prefix 'mini' is mini_car_wars's" \
            in caplog.text
    finally:
        monkeypatch.undo()
        rediscover()
        sys.modules.pop("tiny_dice", None)


def test_a_package_installed_with_its_dist_info_appears_with_no_edit_of_the_app(
        tmp_path: Path) -> None:
    # What pip leaves: the package's code on the path and a dist-info naming its entry.
    info = tmp_path / "tiny_dice_derby-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: tiny-dice-derby\n"
                                   "Version: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(
        "[carwars_desktop.rulesets]\ntiny_dice = tiny_dice:ENTRY\n", encoding="utf-8")
    script = (
        "import json\n"
        "from carwars_desktop.rules import find_procedure, find_ruleset, ruleset_ids\n"
        "from carwars_desktop.library import design_kind\n"
        "ruleset = find_ruleset('tiny_dice')\n"
        "print(json.dumps({'ids': ruleset_ids(), 'title': ruleset.title,\n"
        "    'kind': design_kind('tiny_dice').ruleset_title,\n"
        "    'procedure': find_procedure('tiny.shot').ruleset}))\n")
    path = os.pathsep.join([str(tmp_path), str(PLUGIN), os.environ.get("PYTHONPATH", "")])
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": path}, timeout=120, check=True)
    assert json.loads(done.stdout) == {
        "ids": [*RULESET_IDS, "tiny_dice"], "title": "Tiny Dice Derby",
        "kind": "Tiny Dice Derby", "procedure": "tiny_dice"}


def test_everything_of_a_ruleset_takes_its_id_from_its_entry() -> None:
    for ruleset in all_rulesets():
        entry = registry.ruleset_entry(ruleset.id)
        assert ruleset.entry is entry
        assert all(kind.ruleset is entry for kind in ruleset.kinds)
        assert {procedure.ruleset for procedure in ruleset.procedures} == {entry.id}
        assert all(p.id.startswith(f"{entry.procedure_prefix}.") for p in ruleset.procedures)
        assert ruleset.play().ruleset_id == entry.id


def _literals(path: Path) -> list[tuple[int, str]]:
    """The string constants of a module, its docstrings left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {id(node.value) for node in ast.walk(tree)
                  if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)}
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and id(node) not in docstrings]


def test_each_built_in_id_and_title_is_written_once() -> None:
    # The entry's own procedure prefixes ("battlecars", "autopower") are not ids.
    words = {word for entry in BUILT_IN for word in (entry.id, entry.title)}
    found = [f"{path.relative_to(REPO)}:{line}: {value!r}"
             for path in sorted((REPO / "carwars_desktop").rglob("*.py"))
             if path.name != "builtin.py"
             for line, value in _literals(path) if value in words]
    assert found == []
    in_entries = [value for _line, value in _literals(REPO / "carwars_desktop" / "rules"
                                                      / "builtin.py") if value in words]
    assert sorted(in_entries) == sorted([*(e.id for e in BUILT_IN), "battlecars", "autopower",
                                         *(e.title for e in BUILT_IN)])

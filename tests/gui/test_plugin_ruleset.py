"""A ruleset is one plug-in: Tiny Dice Derby, defined only under ``tests/plugin/``,
registers itself and works in the Library, the Workshop, the Table, the Resolver and
on the command line, with no edit anywhere else."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings

from carwars_desktop.app import main as cli_main
from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.resolver_workspace import ResolverWorkspace
from carwars_desktop.gui.rulesets import NoScreensError, has_screens, ruleset_ui
from carwars_desktop.gui.workshop.library_workspace import LibraryWorkspace
from carwars_desktop.gui.workshop.workshop_workspace import WorkshopWorkspace
from carwars_desktop.library import UnknownKindError, design_kind
from carwars_desktop.rules import (
    RULESET_IDS,
    UnknownRulesetError,
    find_procedure,
    find_ruleset,
    rediscover,
    register_ruleset,
    ruleset_ids,
    ruleset_title,
    unregister_ruleset,
)
from carwars_desktop.session.setup import Entry, prepare

PLUGIN = Path(__file__).resolve().parents[1] / "plugin"
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def tiny(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.syspath_prepend(str(PLUGIN))
    from tiny_dice import ENTRY

    register_ruleset(ENTRY)
    yield "tiny_dice"
    unregister_ruleset("tiny_dice")
    ruleset_ui.cache_clear()
    for module in ("tiny_dice", "tiny_dice_ui"):
        sys.modules.pop(module, None)


@pytest.fixture
def tiny_window(tiny: str, qtbot, settings: QSettings,  # type: ignore[no-untyped-def]
                sqlite_url: str) -> Iterator[MainWindow]:
    window = MainWindow(db_url_hint=sqlite_url, interactive=False, settings=settings)
    qtbot.addWidget(window)
    window.show()
    assert window.finish_startup()
    yield window
    window.shutdown()


def _workspace(window: MainWindow, kind: type) -> object:
    workspace = next(w for w in window.workspaces if isinstance(w, kind))
    window._rail.setCurrentRow(window.workspaces.index(workspace))
    return workspace


def test_the_plug_in_is_in_the_library_workshop_table_and_resolver(
        tiny_window: MainWindow) -> None:
    window = tiny_window
    # The Library: its catalog was installed at first start, under its own name.
    library = _workspace(window, LibraryWorkspace)
    assert isinstance(library, LibraryWorkspace)
    rulesets = [library.ruleset_box.itemData(i) for i in range(library.ruleset_box.count())]
    assert "tiny_dice" in rulesets
    library.ruleset_box.setCurrentIndex(rulesets.index("tiny_dice"))
    assert window.database is not None
    entries = window.database.library.entries("tiny_dice")
    assert sorted(e.name for e in entries) == ["Blue Racer", "Red Racer"]
    red = next(e for e in entries if e.name == "Red Racer")
    texts = [library.model.index(row, column).data()
             for row in range(library.model.rowCount())
             for column in range(library.model.columnCount())]
    assert "Red Racer" in texts and "Tiny Dice Derby" in texts and "armor 3" in texts

    # The Workshop: its own editor opens the design; an edit is validated by its engine.
    workshop = _workspace(window, WorkshopWorkspace)
    assert isinstance(workshop, WorkshopWorkspace)
    assert workshop.open_design(red.id)
    editor = workshop.editor_stack.currentWidget()
    assert type(editor).__name__ == "RacerEditor"
    assert editor.armor.value() == 3  # type: ignore[attr-defined]
    assert workshop.new_design("tiny_dice")  # a catalog design is read-only: a new one
    assert workshop.design is not None and workshop.design.name == "New racer"
    editor = workshop.editor_stack.currentWidget()
    editor.armor.setValue(9)  # type: ignore[attr-defined]
    assert workshop.design.armor == 9  # type: ignore[attr-defined]
    problems = workshop.problems.model
    assert [problems.problem(r).message for r in range(problems.rowCount())] == [
        "armor must be 1–6, not 9"]

    # The Table: a session with its sheets and its clock.
    ruleset = find_ruleset("tiny_dice")
    catalog = ruleset.catalog()
    table = window.table
    window._rail.setCurrentRow(window.workspaces.index(table))
    setup = prepare(ruleset, [Entry("Ann", "Red Racer", catalog["Red Racer"].to_json()),
                              Entry("Bo", "Blue Racer", catalog["Blue Racer"].to_json())])
    table.start_session("tiny_dice", "Derby night", "", setup)
    assert {type(w).__name__ for w in table.play.sheets.values()} == {"RacerSheetWidget"}
    assert type(table.play.clock).__name__ == "ShotsClock"
    assert table.play.sheets["v2"].armor_left.text() == "armor 4 of 4"  # type: ignore[attr-defined]

    # The Resolver: its procedure, the session's vehicles, typed dice, applied to the sheet.
    resolver = _workspace(window, ResolverWorkspace)
    assert isinstance(resolver, ResolverWorkspace)
    resolver.select_procedure("tiny.shot")
    assert resolver.form.bindings() == {"firer": "v1", "target": "v2"}
    assert resolver.need_label.text() == "need 4+ · 1/2"
    resolver.dice_edit.setText("5")
    resolver.resolve_entered()
    assert resolver.resolution is not None and resolver.resolution.success
    resolver.apply_button.click()
    game = window.game_context.service.game
    assert game is not None and game.sheet("v2").hits == 1  # type: ignore[attr-defined]
    assert table.play.sheets["v2"].armor_left.text() == "armor 3 of 4"  # type: ignore[attr-defined]


def test_the_plug_in_resolves_on_the_command_line(
        tiny: str, capsys: pytest.CaptureFixture[str]) -> None:
    status = cli_main(["resolve", "tiny.shot", "--set", "firer=Red Racer",
                       "--set", "target=Blue Racer", "--dice", "6", "--json"])
    document = json.loads(capsys.readouterr().out)
    assert status == 0
    assert document["outcome"] == "hit (6 ≥ 4)"
    assert document["effects"][0]["sheet"] == {"name": "Blue Racer", "armor": 4, "hits": 1}


def test_an_unknown_ruleset_is_refused_and_nothing_falls_through() -> None:
    with pytest.raises(UnknownRulesetError, match="no screens for the ruleset 'nope'"):
        ruleset_ui("nope")
    with pytest.raises(UnknownRulesetError, match="unknown ruleset 'nope'"):
        find_ruleset("nope")
    with pytest.raises(UnknownKindError):
        design_kind("nope")
    with pytest.raises(UnknownKindError, match="has no design kind 'deck'"):
        design_kind("mini_car_wars", "deck")


RULESET_ID = re.compile(
    r"""(==|!=|\bin\s*[(\[{]|\bcase)\s*['"](mini_car_wars|battlecars|autopower)['"]"""
    r"""|['"](mini_car_wars|battlecars|autopower)['"]\s*(==|!=|\bin\b)""")
REGISTRIES = {"carwars_desktop/rules/registry.py", "carwars_desktop/gui/rulesets.py"}


def test_no_code_branches_on_a_ruleset_id_outside_the_two_registries() -> None:
    found = [f"{path.relative_to(REPO)}:{number}: {line.strip()}"
             for path in sorted((REPO / "carwars_desktop").rglob("*.py"))
             if path.relative_to(REPO).as_posix() not in REGISTRIES
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if RULESET_ID.search(line)]
    assert found == []


def test_the_plug_in_prints_its_own_page(tiny: str, qtbot) -> None:  # type: ignore[no-untyped-def]
    from carwars_desktop.gui.workshop.printing import page_images

    ruleset = find_ruleset("tiny_dice")
    racer = ruleset.catalog()["Red Racer"]
    assert len(page_images([("tiny_dice", "vehicle", racer)])) == 1
    sheet = ruleset.sheet_for_design(racer)  # a sheet is not a design: refused, not drawn
    with pytest.raises(TypeError, match="expected a Tiny Dice Derby racer"):
        page_images([("tiny_dice", "vehicle", sheet)])  # type: ignore[list-item]


def test_the_plug_in_prints_a_session_without_a_painter_of_its_own(tiny: str, qtbot) -> None:  # type: ignore[no-untyped-def]
    from carwars_desktop.gui.workshop.printing.live import SheetToPrint
    from carwars_desktop.gui.workshop.printing.page import DrawnBox
    from carwars_desktop.gui.workshop.printing.session import SessionPrint, session_images

    ruleset = find_ruleset("tiny_dice")
    ui = ruleset_ui("tiny_dice")
    assert ui.sheet_layouts == (1,)
    rules = ruleset.play()
    sheet = ruleset.sheet_for_design(ruleset.catalog()["Red Racer"])
    hit = type(sheet)(sheet.name, sheet.armor, 2)  # type: ignore[call-arg, attr-defined]
    job = SessionPrint("Derby night", "as it stands", "none",
                       (("tiny_dice", SheetToPrint("Red Racer", "Ann", hit, rules)),))
    drawn: list[DrawnBox] = []
    assert len(session_images(job, 400, drawn)) == 1
    assert [box.crossed for box in drawn] == [True, True, False]


def install_as_a_package(site: Path, entry_point: str = "tiny_dice = tiny_dice:ENTRY") -> Path:
    """Tiny Dice Derby as pip leaves an installed package: its code on ``sys.path`` and a
    ``*.dist-info`` whose ``entry_points.txt`` names its entry (nothing of the app edited)."""
    info = site / "tiny_dice_derby-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: tiny-dice-derby\n"
                                   "Version: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(
        f"[carwars_desktop.rulesets]\n{entry_point}\n", encoding="utf-8")
    return info


@pytest.fixture
def installed_tiny(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    import importlib

    install_as_a_package(tmp_path / "site")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.syspath_prepend(str(PLUGIN))
    importlib.invalidate_caches()
    rediscover()
    yield "tiny_dice"
    monkeypatch.undo()
    importlib.invalidate_caches()
    rediscover()
    ruleset_ui.cache_clear()
    for module in ("tiny_dice", "tiny_dice_ui"):
        sys.modules.pop(module, None)


def test_an_installed_package_appears_in_the_app_s_ruleset_lists(
        installed_tiny: str, qtbot, settings: QSettings,  # type: ignore[no-untyped-def]
        sqlite_url: str) -> None:
    # Found through its entry point alone: no register_ruleset, no edit of the app.
    assert ruleset_ids() == (*RULESET_IDS, "tiny_dice")
    assert ruleset_title("tiny_dice") == "Tiny Dice Derby"
    assert find_procedure("tiny.shot").ruleset == "tiny_dice"
    window = MainWindow(db_url_hint=sqlite_url, interactive=False, settings=settings)
    qtbot.addWidget(window)
    window.show()
    assert window.finish_startup()
    try:
        box = window._ruleset_box
        assert [box.itemText(i) for i in range(box.count())] == [
            "Mini Car Wars", "Battlecars", "AUTOpower", "Tiny Dice Derby"]
        library = _workspace(window, LibraryWorkspace)
        assert isinstance(library, LibraryWorkspace)
        assert "tiny_dice" in [library.ruleset_box.itemData(i)
                               for i in range(library.ruleset_box.count())]
        assert window.database is not None
        assert sorted(e.name for e in window.database.library.entries("tiny_dice")) == [
            "Blue Racer", "Red Racer"]
        assert type(ruleset_ui("tiny_dice").editor("vehicle")).__name__ == "RacerEditor"
    finally:
        window.shutdown()


def test_an_installed_ruleset_whose_entry_point_is_broken_is_left_out(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    import importlib

    install_as_a_package(tmp_path / "site", "tiny_dice = no_such_module:ENTRY\n"
                                            "other_name = tiny_dice:ENTRY")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.syspath_prepend(str(PLUGIN))
    importlib.invalidate_caches()
    rediscover()
    try:
        with caplog.at_level("ERROR"):
            assert ruleset_ids() == RULESET_IDS
        assert "'tiny_dice' (no_such_module:ENTRY) does not load" in caplog.text
        assert "'other_name' names 'tiny_dice:ENTRY', not a RulesetEntry" in caplog.text
    finally:
        monkeypatch.undo()
        importlib.invalidate_caches()
        rediscover()
        sys.modules.pop("tiny_dice", None)


@pytest.fixture
def tiny_without_screens(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.syspath_prepend(str(PLUGIN))
    from tiny_dice import ENTRY

    register_ruleset(replace(ENTRY, screens=""))
    yield "tiny_dice"
    unregister_ruleset("tiny_dice")
    ruleset_ui.cache_clear()
    for module in ("tiny_dice", "tiny_dice_ui"):
        sys.modules.pop(module, None)


def test_a_ruleset_without_screens_is_refused_before_a_lease_is_taken(
        tiny_without_screens: str, qtbot, settings: QSettings,  # type: ignore[no-untyped-def]
        sqlite_url: str) -> None:
    window = MainWindow(db_url_hint=sqlite_url, interactive=False, settings=settings)
    qtbot.addWidget(window)
    window.show()
    assert window.finish_startup()
    try:
        ruleset = find_ruleset("tiny_dice")  # its rules load: only its screens are missing
        catalog = ruleset.catalog()
        setup = prepare(ruleset, [Entry("Ann", "Red Racer", catalog["Red Racer"].to_json()),
                                  Entry("Bo", "Blue Racer", catalog["Blue Racer"].to_json())])
        table = window.table
        assert window.database is not None
        before = window.database.game_sessions.all()
        with pytest.raises(NoScreensError, match="Tiny Dice Derby .tiny_dice. is installed "
                                                 "without screens"):
            table.start_session("tiny_dice", "Derby night", "", setup)
        assert window.database.game_sessions.all() == before  # nothing written
        # A session of it in the database (another copy of the app started it): the Table
        # says why it does not open and takes no lease.
        session_id = table.context.service.start("tiny_dice", "Derby night", "", setup)
        assert table.open_session(session_id) is False
        assert "is installed without screens" in table.sessions_page.message.text()
        assert table.lease is None and table.context.service.session_id != session_id
        assert window.database.game_sessions.lease(session_id) is None
        assert not has_screens("tiny_dice") and has_screens("mini_car_wars")
        with pytest.raises(NoScreensError):
            ruleset_ui("tiny_dice")
    finally:
        window.shutdown()

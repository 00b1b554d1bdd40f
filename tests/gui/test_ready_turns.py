"""The turn the database becomes ready after the first screen does only what the GM's
first key needs: the first screen's workspaces get the database (and the game shown is
resumed). The other workspaces are built, get it and load on later turns, one per turn;
the GM's first key right after ready is answered at once. Counted, never timed."""

from __future__ import annotations

import sqlite3
from collections import Counter
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QAbstractEventDispatcher, QSettings, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QWidget

from carwars_desktop.gui.dice_workspace import DiceWorkspace
from carwars_desktop.gui.distribution_chart import DRAWING
from carwars_desktop.gui.main_window import WORKSPACE_TITLES, MainWindow
from carwars_desktop.gui.resolver_workspace import LOADING, ResolverWorkspace
from carwars_desktop.gui.workshop import LibraryWorkspace
from carwars_desktop.gui.workspace import Workspace
from carwars_desktop.rules.registry import find_ruleset
from carwars_desktop.services.table import TableService
from carwars_desktop.session.setup import Entry, prepare
from carwars_desktop.storage import open_database


def _existing(url: str) -> None:
    with open_database(url) as database:
        database.library.install_catalog()


def _game_running(url: str) -> None:
    ruleset = find_ruleset("mini_car_wars")
    catalog = ruleset.catalog()
    setup = prepare(ruleset, [Entry("Ann", "Courier", catalog["Courier"].to_json()),
                              Entry("Bo", "Killer Kart", catalog["Killer Kart"].to_json())],
                    "road_duel")
    with open_database(url) as database:
        database.library.install_catalog()
        TableService(database=database).start("mini_car_wars", "Club night", "Road Duel", setup)


class Turns:
    """What each turn of the event loop did: a turn begins when the event dispatcher wakes."""

    def __init__(self) -> None:
        self.turn = 0
        self.done: list[tuple[int, str, str]] = []  # (turn, what, workspace title)
        dispatcher = QAbstractEventDispatcher.instance()
        assert dispatcher is not None
        dispatcher.awake.connect(self._next)
        self._dispatcher = dispatcher

    def _next(self) -> None:
        self.turn += 1

    def note(self, what: str, title: str) -> None:
        self.done.append((self.turn, what, title))

    def stop(self) -> None:
        self._dispatcher.awake.disconnect(self._next)

    def in_turn(self, turn: int, what: str) -> list[str]:
        return [title for t, w, title in self.done if t == turn and w == what]

    def per_turn(self, what: str, after: int) -> Counter[int]:
        """How many of ``what`` each turn after turn ``after`` did."""
        return Counter(t for t, w, _ in self.done if w == what and t > after)


@pytest.fixture
def turns(monkeypatch: pytest.MonkeyPatch) -> Any:
    turns = Turns()

    def built(self: Workspace, *args: Any, **kwargs: Any) -> None:
        turns.note("built", type(self).title)
        QWidget.__init__(self, *args, **kwargs)

    monkeypatch.setattr(Workspace, "__init__", built, raising=False)
    original_attach = MainWindow._attach
    original_load = MainWindow._load

    def attach(self: MainWindow, workspace: Workspace) -> None:
        if self.database is not None and workspace not in self._attached:
            turns.note("attached", workspace.title)
        original_attach(self, workspace)

    def load(self: MainWindow, workspace: Workspace) -> None:
        if workspace in self._unloaded:
            turns.note("loaded", workspace.title)
        original_load(self, workspace)

    monkeypatch.setattr(MainWindow, "_attach", attach)
    monkeypatch.setattr(MainWindow, "_load", load)
    yield turns
    turns.stop()


def _window(qtbot, url: str, tmp_path: Path) -> MainWindow:  # type: ignore[no-untyped-def]
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(db_url_hint=url, interactive=False, settings=settings)
    qtbot.addWidget(window)
    window.show()
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    assert window.finish_startup(defer_hidden=True)
    assert window.opening
    return window


def _ready_turn(qtbot, window: MainWindow, turns: Turns) -> int:  # type: ignore[no-untyped-def]
    ready: list[int] = []
    window.database_ready.connect(lambda opened: ready.append(turns.turn))
    qtbot.waitUntil(lambda: bool(ready), timeout=60_000)
    return ready[0]


@pytest.mark.parametrize("start", ["library", "game"])
def test_the_ready_turn_builds_nothing_and_later_turns_build_one_workspace_each(
        qtbot, sqlite_url: str, tmp_path: Path, turns: Turns,  # type: ignore[no-untyped-def]
        start: str) -> None:
    (_existing if start == "library" else _game_running)(sqlite_url)
    window = _window(qtbot, sqlite_url, tmp_path)
    first_screen = ["Library", "Workshop"] if start == "library" else ["Table"]
    assert sorted(title for _, what, title in turns.done if what == "built") == \
        sorted(first_screen)
    ready = _ready_turn(qtbot, window, turns)
    assert turns.in_turn(ready, "built") == []
    assert sorted(turns.in_turn(ready, "attached")) == sorted(first_screen)
    assert turns.in_turn(ready, "loaded") == first_screen[:1]  # the one on screen
    qtbot.waitUntil(window.everything_built, timeout=60_000)
    built = [title for _, what, title in turns.done if what == "built"]
    assert sorted(built) == sorted(WORKSPACE_TITLES)  # each once
    assert max(turns.per_turn("built", ready).values()) == 1  # never two in one turn
    assert max(turns.per_turn("loaded", ready).values()) == 1
    attached = [title for _, what, title in turns.done if what == "attached"]
    assert sorted(attached) == sorted(WORKSPACE_TITLES)  # each got the database once
    # a turn attaches only what it built, or what was built the turn before (the
    # Workshop, built on its own turn before the Library it goes with)
    assert max(turns.per_turn("attached", ready).values()) <= 2
    window.shutdown()


def test_the_first_key_right_after_ready_is_answered_without_building_the_rest(
        qtbot, sqlite_url: str, tmp_path: Path, turns: Turns) -> None:  # type: ignore[no-untyped-def]
    _game_running(sqlite_url)
    window = _window(qtbot, sqlite_url, tmp_path)
    table = window.table
    sheets = list(table.play.sheets)
    answered: list[tuple[str | None, int, bool]] = []

    def key_at_once(opened: bool) -> None:  # in the ready turn itself, right after it
        assert opened and not window.opening
        before = len(turns.done)
        QTest.keyClick(table.play.grid, Qt.Key.Key_2)  # select the second vehicle
        answered.append((table.keys.selected, len(turns.done) - before,
                         window.everything_built()))

    window.database_ready.connect(key_at_once)
    qtbot.waitUntil(lambda: bool(answered), timeout=60_000)
    selected, work_for_the_key, all_built = answered[0]
    assert selected == sheets[1]  # the key was handled
    assert work_for_the_key == 0  # nothing built or attached for it: no waiting
    assert not all_built and window.workspaces == []  # the rest comes after
    qtbot.waitUntil(window.everything_built, timeout=60_000)
    window.shutdown()


@pytest.mark.parametrize("title", ["Dice", "Resolver"])
def test_a_workspace_key_right_after_ready_builds_that_one_alone_and_loads_it_next(
        qtbot, sqlite_url: str, tmp_path: Path, turns: Turns,  # type: ignore[no-untyped-def]
        title: str) -> None:
    """Ctrl+5 (Ctrl+4) in the ready turn: the Dice (the Resolver) are built and shown in
    it, alone (the workspaces above them on the rail come on later turns); their heavy
    parts (the chart, the Resolver's procedures) from the next turn on, saying meanwhile
    that they are coming."""
    _existing(sqlite_url)
    window = _window(qtbot, sqlite_url, tmp_path)
    row = WORKSPACE_TITLES.index(title)
    shown: list[tuple[str, int, str, str]] = []

    def switch_at_once(opened: bool) -> None:
        QTest.keyClick(window, getattr(Qt.Key, f"Key_{row + 1}"),
                       Qt.KeyboardModifier.ControlModifier)
        workspace = window.current_workspace()
        assert isinstance(workspace, DiceWorkspace | ResolverWorkspace)
        procedure = workspace.procedure_title.text() if isinstance(
            workspace, ResolverWorkspace) else ""
        shown.append((workspace.title, turns.turn, workspace.chart._legend.text(), procedure))

    window.database_ready.connect(switch_at_once)
    qtbot.waitUntil(lambda: bool(shown), timeout=60_000)
    [(shown_title, ready, legend, procedure)] = shown
    workspace = window.workspace_at(row)
    assert shown_title == title and window._stack.currentWidget() is workspace
    assert turns.in_turn(ready, "built") == [title]  # alone
    assert turns.in_turn(ready, "attached") == ["Library", "Workshop", title]
    assert turns.in_turn(ready, "loaded") == ["Library"]  # the first screen's only
    assert legend == DRAWING  # the brief state until its heavy parts are loaded
    assert procedure == (LOADING if title == "Resolver" else "")
    library = window.workspaces[0]
    assert isinstance(library, LibraryWorkspace) and library.new_button.isEnabled()
    qtbot.waitUntil(window.everything_built, timeout=60_000)
    assert [t > ready for t, what, loaded in turns.done
            if what == "loaded" and loaded == title] == [True]
    # the others after, each once, in the rail's order (one per turn: the test above)
    assert [built for t, what, built in turns.done if what == "built" and t > ready] == [
        t for t in ("Table", "Resolver", "Dice", "Ledger") if t != title]
    assert [w.title for w in window.workspaces] == list(WORKSPACE_TITLES)
    assert window.workspaces[row] is workspace and window._stack.currentWidget() is workspace
    assert window._rail.currentRow() == row
    if isinstance(workspace, ResolverWorkspace):  # its procedures, once loaded
        assert workspace.procedure_model.rowCount() > 0
        assert workspace.procedure is not None and workspace.procedure_title.text() != LOADING
    window.shutdown()


def test_a_game_started_meanwhile_is_resumed_when_the_table_is_built(
        qtbot, sqlite_url: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The Library's list was the first screen (no game running); another copy started a
    game before the database opened and left it: the Table, built after ready, resumes it
    as any start does, and shows it while the GM is still on the first screen."""
    _existing(sqlite_url)
    window = _window(qtbot, sqlite_url, tmp_path)
    path = Path(sqlite_url.removeprefix("sqlite:///"))
    _game_running(sqlite_url)  # (its lease released as that copy closed)
    with closing(sqlite3.connect(path)) as connection:
        assert connection.execute("SELECT count(*) FROM game_sessions").fetchone() == (1,)
    qtbot.waitUntil(window.everything_built, timeout=60_000)
    assert window.services.table.game is not None
    assert window._rail.currentRow() == WORKSPACE_TITLES.index("Table")
    window.shutdown()


def test_a_library_built_behind_the_game_is_read_on_a_worker(
        qtbot, sqlite_url: str, tmp_path: Path,  # type: ignore[no-untyped-def]
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The Library built after ready, behind the game's Table, reads and sorts its list on
    a worker (``refresh_later``), never in a turn of the GUI thread (``refresh``)."""
    _game_running(sqlite_url)
    read: list[str] = []
    at_once, later = LibraryWorkspace.refresh, LibraryWorkspace.refresh_later
    monkeypatch.setattr(LibraryWorkspace, "refresh",
                        lambda self: (read.append("GUI thread"), at_once(self))[1])
    monkeypatch.setattr(LibraryWorkspace, "refresh_later",
                        lambda self: (read.append("worker"), later(self))[1])
    window = _window(qtbot, sqlite_url, tmp_path)
    qtbot.waitUntil(window.everything_built, timeout=60_000)
    library = window.workspaces[0]
    assert isinstance(library, LibraryWorkspace) and not library.isVisible()
    assert window.database is not None
    count = window.database.library.count()
    library.ruleset_box.setCurrentIndex(0)  # all rulesets
    qtbot.waitUntil(lambda: library.model.rowCount() == count)
    assert read == ["worker"]
    window.shutdown()

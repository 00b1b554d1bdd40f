"""Keyboard shortcuts are declared once (gui/shortcuts.py): no key taken twice in one
context, and every shortcut the window builds takes its keys from that table."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence, QShortcut

from carwars_desktop.gui import shortcuts
from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.shortcuts import (
    BY_ID,
    CONTEXTS,
    EXCLUSIVE,
    GLOBAL,
    SHORTCUTS,
    TABLE_DIALOG,
    Shortcut,
    conflicts,
    declared,
)
from carwars_desktop.gui.workspace import Workspace
from carwars_desktop.rules import find_procedure, find_ruleset
from carwars_desktop.session import Game, MemoryEventStore
from carwars_desktop.session.setup import Entry, prepare

GUI = Path(__file__).resolve().parents[2] / "carwars_desktop" / "gui"


def _text(sequence: QKeySequence) -> str:
    return sequence.toString(QKeySequence.SequenceFormat.PortableText)


def test_no_key_is_taken_twice_in_one_context(qapp) -> None:  # type: ignore[no-untyped-def]
    assert conflicts() == []
    assert len(BY_ID) == len(SHORTCUTS)  # ids are unique
    assert {s.context for s in SHORTCUTS} <= set(CONTEXTS)
    assert all(s.sequences() for s in SHORTCUTS if s.standard is None)  # Quit: the platform's


def test_the_check_finds_a_clash(qapp, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    same_context = Shortcut("library.again", ("Ctrl+F",), "library", "clash")
    with_global = Shortcut("dice.again", ("Ctrl+1",), "dice", "clash with a global key")
    in_a_dialog = Shortcut("dialog.again", ("Ctrl+1",), TABLE_DIALOG, "a window of its own")
    monkeypatch.setattr(shortcuts, "SHORTCUTS",
                        (*SHORTCUTS, same_context, with_global, in_a_dialog))
    assert conflicts() == ["Ctrl+F is library.search and library.again in library",
                           "Ctrl+1 is global.library and dice.again in dice"]


def test_a_key_shared_by_contexts_is_shared_by_pages_never_shown_together(
        window: MainWindow) -> None:
    by_key: dict[str, set[str]] = {}
    for item in SHORTCUTS:
        for sequence in item.sequences():
            by_key.setdefault(_text(sequence), set()).add(item.context)
    shared = {key: contexts for key, contexts in by_key.items() if len(contexts) > 1}
    assert shared["Ctrl+P"] == {"library", "workshop", "table"}
    owners = {w.shortcut_context: w for w in window.workspaces}
    for key, contexts in shared.items():
        assert GLOBAL not in contexts, key
        in_window = contexts - {TABLE_DIALOG}
        assert in_window <= EXCLUSIVE, key
        pages = {window._stack.indexOf(owners[c]) for c in in_window}
        assert len(pages) == len(in_window) and -1 not in pages, key  # one page each
    shown = [w for w in window.workspaces if w.isVisible()]
    assert len(shown) == 1  # the stack shows one workspace at a time


def _keys(item: QShortcut | QAction) -> list[str]:
    sequences = item.keys() if isinstance(item, QShortcut) else item.shortcuts()
    return [_text(s) for s in sequences]


def test_every_shortcut_of_the_window_comes_from_the_table(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    ruleset = find_ruleset("mini_car_wars")
    catalog = ruleset.catalog()
    setup = prepare(ruleset, [Entry("A", "Courier", catalog["Courier"].to_json()),
                              Entry("B", "Killer Kart", catalog["Killer Kart"].to_json())])
    game = Game(ruleset, setup.vehicles, setup.sheets, setup.clock, MemoryEventStore())
    from carwars_desktop.gui.table.procedure_dialog import ProcedureDialog

    dialog = ProcedureDialog(find_procedure("mini.fire"), game, {"firer": "v1"})
    qtbot.addWidget(dialog)
    found = [(item, window) for item in window.findChildren(QShortcut)]
    found += [(item, window) for item in window.findChildren(QAction)
              if item.shortcuts() or item.objectName() in BY_ID]
    found += [(item, dialog) for item in dialog.findChildren(QShortcut)]
    replay = _replay_view(ruleset, setup)
    qtbot.addWidget(replay)
    found += [(item, replay) for item in replay.findChildren(QShortcut)]
    seen: set[str] = set()
    for item, _root in found:
        assert item.objectName() in BY_ID, (item.objectName(), _keys(item))
        spec = declared(item.objectName())
        assert _keys(item) == [_text(s) for s in spec.sequences()], spec.id
        parent = item.parent()
        if isinstance(item, QShortcut) and isinstance(parent, Workspace):
            assert spec.context == parent.shortcut_context, spec.id
            assert item.context() == Qt.ShortcutContext.WidgetWithChildrenShortcut
        seen.add(spec.id)
    assert seen == set(BY_ID)  # and nothing declared is left unused


def test_no_key_is_written_outside_the_table() -> None:
    pattern = re.compile(r"QKeySequence\(\s*[\"'f]|\.setShortcuts?\(|QShortcut\(\s*QKeySequence"
                         r"|_shortcut\(\s*\"(?:Ctrl|Alt|Shift|F\d|Del|Esc)")
    offenders = [f"{path.relative_to(GUI)}:{n}: {line.strip()}"
                 for path in sorted(GUI.rglob("*.py")) if path.name != "shortcuts.py"
                 for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                 if pattern.search(line)]
    assert offenders == []


def _replay_view(ruleset: Any, setup: Any) -> Any:
    """The replay window of a session of no event (its keys are the replay's)."""
    from datetime import UTC, datetime

    from carwars_desktop.gui.replay_view import ReplayView
    from carwars_desktop.services.replay import ReplaySession
    from carwars_desktop.session.replay import ListPages, Replay
    from carwars_desktop.storage.session_records import SessionInfo

    now = datetime(2026, 12, 3, tzinfo=UTC)
    info = SessionInfo(1, ruleset.id, "Keys", "", "finished", now, now, now, 2, 0)
    replay = Replay({v.key: setup.sheets[v.key].to_json() for v in setup.vehicles},
                    ListPages(()), setup.clock.to_json())
    return ReplayView(ReplaySession(info, ruleset, tuple(setup.vehicles), replay))

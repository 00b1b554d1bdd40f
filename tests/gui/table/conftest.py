"""Helpers for the Table's tests: a window with a session started through the Table."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from PySide6.QtCore import Qt

from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.table import TableWorkspace
from carwars_desktop.rules import find_ruleset
from carwars_desktop.session.house_rules import HouseRules
from carwars_desktop.session.setup import Entry, prepare

StartSession = Callable[..., TableWorkspace]


@pytest.fixture
def start_session(window: MainWindow) -> StartSession:
    """``start_session(ruleset, [(player, catalog name[, name in play]), …], scenario)``:
    a session started at the window's Table, which is shown (under ``house_rules``: the
    digest's defaults when not given)."""

    def start(ruleset_id: str, players: Sequence[tuple[str, ...]], scenario: str = "",
              name: str = "Test night",
              house_rules: HouseRules | None = None) -> TableWorkspace:
        ruleset = find_ruleset(ruleset_id)
        catalog = ruleset.catalog()
        entries = [Entry(p[0], p[2] if len(p) > 2 else p[1], catalog[p[1]].to_json())
                   for p in players]
        table = window.table
        window._rail.setCurrentRow(window.workspaces.index(table))
        table.start_session(ruleset_id, name, scenario, prepare(ruleset, entries, scenario),
                            house_rules)
        return table

    return start


def _state(table: TableWorkspace) -> str:
    """Every sheet and the clock, as JSON: what 'exact state' means for undo and redo."""
    game = table.context.service.game
    assert game is not None
    return json.dumps({"sheets": {v.key: game.sheet(v.key).to_json() for v in game.vehicles},
                       "clock": game.clock.to_json()}, sort_keys=True)


def _press(qtbot: Any, table: TableWorkspace, keys: str) -> None:
    """A workspace shortcut as the GM presses it (``Ctrl+Z``, ``Ctrl+Shift+Z``)."""
    modifiers = Qt.KeyboardModifier.NoModifier
    *mods, key = keys.split("+")
    for mod in mods:
        modifiers |= {"Ctrl": Qt.KeyboardModifier.ControlModifier,
                      "Shift": Qt.KeyboardModifier.ShiftModifier}[mod]
    target = table.play.grid
    target.setFocus()
    named = {".": "Period"}.get(key, key)
    qtbot.keyClick(target, getattr(Qt.Key, f"Key_{named}"), modifiers)


@pytest.fixture
def state() -> Callable[[TableWorkspace], str]:
    return _state


@pytest.fixture
def press(qtbot: Any) -> Callable[[TableWorkspace, str], None]:
    return lambda table, keys: _press(qtbot, table, keys)

"""The user guide's keyboard table says what ``gui/shortcuts.py`` declares: one row per
place a key works (it listed "everywhere" and "Library" twice, the second pair after a
blank line that broke the table), every declared key in its place's row, and the
workspaces' keys as many as there are workspaces (it said Ctrl+1…5 with six)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from PySide6.QtGui import QKeySequence

from carwars_desktop.gui.shortcuts import (
    DICE,
    GLOBAL,
    LIBRARY,
    REPLAY,
    RESOLVER,
    SHORTCUTS,
    TABLE,
    TABLE_DIALOG,
    WORKSHOP,
    Shortcut,
)

GUIDE = Path(__file__).resolve().parent.parent / "docs" / "user-guide.md"
ROWS = {"everywhere": GLOBAL, "Library": LIBRARY, "Workshop": WORKSHOP, "Table": TABLE,
        "Replay": REPLAY, "Table dialog": TABLE_DIALOG, "Resolver": RESOLVER, "Dice": DICE}
"""The guide's row names → the contexts of the shortcuts."""
SPELLED = {"Escape": "Esc", "PgDown": "PgDn", "Right": "←/→",
           "Left": "←/→", "Shift+Right": "Shift+←/→", "Shift+Left": "Shift+←/→"}
"""A key as the guide spells it (the arrows of both ways together)."""
ON_LINUX = {QKeySequence.StandardKey.Quit: "Ctrl+Q", QKeySequence.StandardKey.Copy: "Ctrl+C"}
"""The standard keys the guide names, as on Linux (a platform without bindings of its
own, as the tests' offscreen one, has none for them)."""


def _table() -> list[tuple[str, str]]:
    """The rows (where, keys) of the guide's Keyboard section, in order."""
    text = GUIDE.read_text(encoding="utf-8")
    section = text.split("\n## Keyboard\n", 1)[1].split("\n## ", 1)[0]
    lines = section.strip().splitlines()
    start = next(n for n, line in enumerate(lines) if line.startswith("| where |"))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break  # the table ends at its first line that is no row
        where, keys = (cell.strip() for cell in line.strip().strip("|").split("|", 1))
        rows.append((where, keys.rstrip("|").strip()))
    return rows


def _first_key(shortcut: Shortcut) -> str:
    sequences = shortcut.sequences()
    if not sequences and shortcut.standard is not None:  # no platform binding (offscreen)
        return ON_LINUX[shortcut.standard]
    key = sequences[0].toString(QKeySequence.SequenceFormat.PortableText)
    return SPELLED.get(key, key.replace("Return", "Enter"))


def _spelled(shortcut: Shortcut, workspaces: int) -> str:
    """How the guide names ``shortcut``'s key (a run of numbered keys as one range)."""
    number = re.fullmatch(r"(global\.\w+|table\.select_|table\.fire_)(\d*)", shortcut.id)
    key = _first_key(shortcut)
    if shortcut.context == GLOBAL and re.fullmatch(r"Ctrl\+\d", key):
        return f"Ctrl+1…{workspaces}"
    if number and number.group(1) == "table.select_":
        return "1…9"
    if number and number.group(1) == "table.fire_":
        return "F1…F9"
    return key


def _tokens(keys: str) -> set[str]:
    words = set(re.split(r"\s+|·", keys)) - {""}
    return words | {part for word in words for part in word.split("/") if part}


def test_the_keyboard_table_has_one_row_per_place() -> None:
    rows = [where for where, _ in _table()]
    assert len(rows) == len(set(rows)), rows
    assert set(rows) == set(ROWS)


def test_every_declared_key_is_in_its_places_row(qapp: Any) -> None:  # (standard keys)
    rows = dict(_table())
    workspaces = sum(1 for s in SHORTCUTS if s.context == GLOBAL
                     and re.fullmatch(r"Ctrl\+\d", _first_key(s)))
    assert workspaces == 6
    missing = []
    for shortcut in SHORTCUTS:
        where = next(name for name, context in ROWS.items() if context == shortcut.context)
        spelled = _spelled(shortcut, workspaces)
        if spelled not in _tokens(rows[where]):
            missing.append(f"{shortcut.id}: {spelled} not in the {where} row")
    assert missing == []
    assert "Ctrl+1…5" not in GUIDE.read_text(encoding="utf-8")

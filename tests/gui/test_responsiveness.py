"""The window never freezes: a watchdog on the GUI thread counts stalls over 100 ms while
the GM types a large dice expression, imports a big design file and opens a finished
session with many events. Stalls are counted, not seconds (see tests/gui/watchdog.py);
each case is sized so the old code (all of it on the GUI thread) stalled."""

from __future__ import annotations

from typing import Any

from carwars_desktop.gui.dice_workspace import DiceWorkspace
from carwars_desktop.gui.main_window import MainWindow

from .watchdog import watching


def _workspace(window: MainWindow, kind: type[Any]) -> Any:
    return next(w for w in window.workspaces if isinstance(w, kind))


def test_typing_a_large_dice_expression_never_freezes_the_window(
        window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    dice = _workspace(window, DiceWorkspace)
    window._rail.setCurrentRow(window.workspaces.index(dice))
    dice.expression_edit.clear()
    qtbot.wait(20)
    with watching() as dog:
        for character in "60d100":
            qtbot.keyClicks(dice.expression_edit, character)
            qtbot.wait(1)
        qtbot.waitUntil(lambda: not dice.odds_pending, timeout=60_000)
        qtbot.wait(20)
    assert dog.stalls == []
    assert dice.odds_status.text().startswith("60d100: 5,941 outcomes, computed in ")
    assert dice.summary.text().startswith("60d100: 60–6000, mean 3030.00")
    assert len(dice.chart.bars) == 5941

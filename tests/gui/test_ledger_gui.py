"""The Ledger workspace (Ctrl+6, issue 36 §3): the club's table per player and per design,
filtered by ruleset and dates, sorted by a column's heading, exported as CSV as shown;
a session another copy of the app finishes appears (the change bus, told by the poll)."""

from __future__ import annotations

import csv
import random
from pathlib import Path

from PySide6.QtCore import Qt

from carwars_desktop.gui.ledger_workspace import LedgerWorkspace
from carwars_desktop.gui.main_window import WORKSPACE_TITLES, MainWindow
from carwars_desktop.services import Services
from carwars_desktop.services.ledger import LedgerFilter, LedgerService
from carwars_desktop.storage import open_database
from tests.services.club_history import Totals, play_session


def _play(url: str, numbers: range, totals: Totals, seed: int = 11) -> None:
    with open_database(url) as database:
        services = Services()
        services.table.database = database
        rng = random.Random(seed)
        for number in numbers:
            play_session(services, number, rng, totals)


def _ledger(window: MainWindow) -> LedgerWorkspace:
    window._rail.setCurrentRow(WORKSPACE_TITLES.index("Ledger"))
    workspace = window.current_workspace()
    assert isinstance(workspace, LedgerWorkspace)
    return workspace


def test_ledger_tab_filters_sorts_and_exports(qtbot, window: MainWindow,  # type: ignore[no-untyped-def]
                                              tmp_path: Path) -> None:
    assert window.database is not None
    url = window.database.url
    totals = Totals()
    _play(url, range(6), totals)
    ledger = _ledger(window)
    qtbot.waitUntil(lambda: ledger.isVisible() and ledger.table.rowCount() > 0)
    names = {row[0] for row in ledger.shown_rows()}
    assert names == set(totals.players)
    games = {row[0]: int(row[1]) for row in ledger.shown_rows()}
    assert games == {p: c["games"] for p, c in totals.players.items()}
    # sorted by a heading: Damage dealt, most first
    column = [ledger.table.horizontalHeaderItem(c).text()
              for c in range(ledger.table.columnCount())].index("Damage dealt")
    ledger.table.sortByColumn(column, Qt.SortOrder.DescendingOrder)
    dealt = [int(row[column]) for row in ledger.shown_rows()]
    assert dealt == sorted(dealt, reverse=True) and dealt[0] > dealt[-1]
    # filtered: one ruleset
    ledger.ruleset_box.setCurrentIndex(ledger.ruleset_box.findData("autopower"))
    expected = LedgerService(window.database).ledger(LedgerFilter("autopower"))
    assert sum(int(row[1]) for row in ledger.shown_rows()) == \
        sum(r.games for r in expected.players) == 4
    assert "2 finished sessions" in ledger.summary.text()
    # and a date range that holds none
    ledger.until_check.setChecked(True)
    ledger.until_edit.setDate(ledger.until_edit.date().fromString("2025-12-31", "yyyy-MM-dd"))
    assert ledger.table.rowCount() == 0
    ledger.until_check.setChecked(False)
    ledger.rows_box.setCurrentIndex(ledger.rows_box.findData("design"))
    assert ledger.table.horizontalHeaderItem(1).text() == "Ruleset"
    # exported as shown
    target = tmp_path / "ledger.csv"
    ledger.ask_path = lambda _parent, _suggested: str(target)
    assert ledger.export() == target
    with target.open(encoding="utf-8") as file:
        rows = list(csv.reader(file))
    assert rows[0][:3] == ["Design", "Ruleset", "Games"]
    assert rows[1:] == [[cell.replace("−", "-").lstrip("+") for cell in row]
                        for row in ledger.shown_rows()]


def test_ledger_tab_shows_what_another_copy_finished(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    assert window.database is not None
    url = window.database.url
    totals = Totals()
    _play(url, range(2), totals)
    ledger = _ledger(window)
    qtbot.waitUntil(lambda: ledger.isVisible() and "2 finished sessions"
                    in ledger.summary.text())
    _play(url, range(2, 4), totals, seed=12)  # another copy of the app, same database
    assert ledger.poll()  # (the timer's look, at once)
    qtbot.waitUntil(lambda: "4 finished sessions" in ledger.summary.text())
    games = {row[0]: int(row[1]) for row in ledger.shown_rows()}
    assert games == {p: c["games"] for p, c in totals.players.items()}


def test_ledger_tab_first_lists_by_name(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    assert window.database is not None
    _play(window.database.url, range(3), Totals())
    ledger = _ledger(window)
    qtbot.waitUntil(lambda: ledger.isVisible() and ledger.table.rowCount() > 0)
    names = [row[0] for row in ledger.shown_rows()]
    assert names == sorted(names, key=str.casefold)

"""No turn of the GUI thread does more than one piece of a screen's work: a session is read
on a worker and its sheets built one per turn; a finished session's charts are read on a
worker and drawn one per turn; pyqtgraph is imported on a worker before the first chart.
Asserted by structure (where the work ran, how much of it one turn did, that the window
answered meanwhile), never by time: benchmarks/turns.py prints the milliseconds."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtCore import QTimer

from carwars_desktop.dice import parse
from carwars_desktop.gui import plotting
from carwars_desktop.gui.distribution_chart import DistributionChart
from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.plugins.mini_car_wars.sheet import MiniSheetWidget
from carwars_desktop.gui.table import charts as charts_module
from carwars_desktop.gui.table.charts import SessionCharts
from carwars_desktop.rules import find_ruleset
from carwars_desktop.services.table import TableService
from carwars_desktop.session.setup import Entry, prepare

from .offload import Jobs, on_gui_thread, watch
from .test_responsiveness import _finished_session


class Turns:
    """Counts the turns of the event loop (a zero timer fires once per turn, nested loops
    included) and notes in which turn each watched call came."""

    def __init__(self) -> None:
        self.count = 0
        self.calls: list[int] = []
        self._timer = QTimer()
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._turned)
        self._timer.start()

    def _turned(self) -> None:
        self.count += 1

    def note(self, *_args: Any, **_kwargs: Any) -> int:
        assert on_gui_thread()
        self.calls.append(self.count)
        return 1

    def stop(self) -> None:
        self._timer.stop()


@pytest.fixture
def turns() -> Iterator[Turns]:
    counter = Turns()
    yield counter
    counter.stop()


def test_opening_a_session_reads_it_on_a_worker_and_builds_one_sheet_per_turn(
        window: MainWindow, monkeypatch, turns: Turns) -> None:  # type: ignore[no-untyped-def]
    ruleset = find_ruleset("mini_car_wars")
    catalog = ruleset.catalog()
    table = window.table
    window._rail.setCurrentRow(window.workspaces.index(table))
    session_id = table.start_session("mini_car_wars", "Four cars", "", prepare(ruleset, [
        Entry(player, name, catalog[name].to_json()) for player, name in (
            ("Ann", "Courier"), ("Bo", "Killer Kart"), ("Cy", "Mini Sherman"),
            ("Di", "Rocket Special"))]))
    table.show_sessions()
    jobs = Jobs(monkeypatch)
    read = watch(monkeypatch, TableService, "read")
    watch(monkeypatch, MiniSheetWidget, "__init__", turns.note)
    assert table.open_session(session_id)
    assert table.pages.currentWidget() is table.play and len(table.play.sheets) == 4
    # Read once, on a worker, while the window answered; then the four sheets built,
    # each in a turn of its own.
    assert (read.on_gui, read.on_workers) == ([], [1])
    jobs.assert_answered()
    assert len(turns.calls) == 4 and len(set(turns.calls)) == 4, turns.calls
    assert not table.opening


def test_short_session_charts_are_read_on_a_worker_and_drawn_one_per_turn(
        window: MainWindow, qtbot, monkeypatch, turns: Turns) -> None:  # type: ignore[no-untyped-def]
    table = window.table
    window._rail.setCurrentRow(window.workspaces.index(table))
    short = _finished_session(window, 200)  # at most SYNC_CHART_EVENTS: no progress shown
    for time in ("first", "again"):  # aggregated and kept, then the kept aggregates
        table.show_sessions()
        jobs = Jobs(monkeypatch)
        history = watch(monkeypatch, TableService, "history")
        drawn = watch(monkeypatch, SessionCharts, "_plot", turns.note)
        turns.calls.clear()
        assert table.open_session(short)
        table.play.tabs.setCurrentIndex(1)
        charts = table.play.charts
        qtbot.waitUntil(lambda c=charts: "200 events over" in c.summary.text()
                        and not c.drawing, timeout=60_000)
        assert (history.on_gui, len(history.on_workers)) == ([], 1), time
        assert len(drawn.calls) == 4 and len(set(turns.calls)) == 4, (time, turns.calls)
        jobs.assert_answered()
        monkeypatch.undo()


def test_a_gauge_chart_gets_its_curves_a_few_vehicles_a_turn_hidden_until_whole(
        window: MainWindow, qtbot, monkeypatch, turns: Turns) -> None:  # type: ignore[no-untyped-def]
    """Twelve vehicles' curves were the longest turn of the charts: a gauge chart is drawn
    in pieces (here one vehicle a piece), each in a turn of its own, and is shown only
    once its last piece is drawn (painted once, whole)."""
    monkeypatch.setattr(charts_module, "CURVES_PER_STEP", 1)
    table = window.table
    window._rail.setCurrentRow(window.workspaces.index(table))
    session_id = _finished_session(window, 20)  # two vehicles
    charts = table.play.charts
    hidden_before: list[bool] = []

    def piece(self: SessionCharts, _history: object, _number: int, label: str,
              *_rest: object) -> int:
        plot = self.plots.get(f"gauge:{label}")
        hidden_before.append(plot is None or plot.isHidden())
        return turns.note()

    pieces = watch(monkeypatch, SessionCharts, "_gauge", piece)
    assert table.open_session(session_id)
    table.play.tabs.setCurrentIndex(1)
    qtbot.waitUntil(lambda: "20 events over" in charts.summary.text() and not charts.drawing,
                    timeout=60_000)
    # Two gauges of two vehicles: four pieces, on the GUI thread, each in its own turn.
    assert len(pieces.calls) == 4 and not pieces.on_workers
    assert len(set(turns.calls)) == 4, turns.calls
    assert hidden_before == [True, True, True, True]
    gauges = [plot for key, plot in charts.plots.items() if key.startswith("gauge:")]
    assert len(gauges) == 2
    for plot in gauges:
        assert not plot.isHidden() and len(plot.listDataItems()) == 2


def test_preparing_pyqtgraph_makes_no_qt_class_in_the_turn_that_asks(
        qtbot, monkeypatch, turns: Turns) -> None:  # type: ignore[no-untyped-def]
    """A session opening or a workspace shown asks for pyqtgraph: the Qt classes its
    import reads are made from the next turn on, a chunk a turn, never in the asking one."""
    monkeypatch.setattr(plotting, "_import", plotting._Import())
    monkeypatch.setattr(plotting, "imported_already", lambda: False)  # as in a new process
    real = plotting.qt_classes
    chunks: list[tuple[int, int]] = []

    def noted() -> Iterator[int]:
        for made in real():
            chunks.append((turns.count, made))
            yield made

    monkeypatch.setattr(plotting, "qt_classes", noted)
    plotting.prepare()
    assert plotting._import.started and chunks == []  # none in the asking turn
    qtbot.waitUntil(plotting.ready, timeout=60_000)
    assert chunks
    assert len({turn for turn, _ in chunks}) == len(chunks)  # one chunk a turn
    assert all(made <= plotting.CHUNK for _, made in chunks)


def test_the_first_chart_waits_for_pyqtgraph_imported_on_a_worker(
        qtbot, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(plotting, "_import", plotting._Import())
    monkeypatch.setattr(plotting, "imported_already", lambda: False)  # as in a new process
    jobs = Jobs(monkeypatch)
    imported = watch(monkeypatch, plotting, "import_pyqtgraph")
    chart = DistributionChart()
    qtbot.addWidget(chart)
    # Given while hidden (the Dice behind the first screen): the import begins at once.
    chart.show_distribution(parse("2d6").distribution(), frozenset(range(7, 13)))
    assert chart.waiting and plotting._import.started
    chart.show()
    qtbot.waitUntil(lambda: not chart.waiting, timeout=60_000)
    assert chart._plot is not None and len(chart.bars) == 11
    assert (imported.on_gui, imported.on_workers) == ([], [1])
    jobs.assert_answered()
    assert plotting.ready()


def test_the_qt_classes_pyqtgraph_reads_are_made_on_the_gui_thread_first(
        qtbot, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """PySide6 makes a module's classes on their first use; pyqtgraph's import reads
    every one of them. Made on the worker while the GUI thread used Qt, that crashed the
    process now and then: when the worker's import begins, none is left to make."""
    import importlib

    monkeypatch.setattr(plotting, "_import", plotting._Import())
    monkeypatch.setattr(plotting, "imported_already", lambda: False)  # as in a new process
    left: list[set[str]] = []
    real = plotting.import_pyqtgraph

    def importing(job):  # type: ignore[no-untyped-def]
        for name in ("QtCore", "QtGui", "QtWidgets", "QtSvg", "QtOpenGLWidgets", "QtTest"):
            module = importlib.import_module(f"PySide6.{name}")
            left.append(set(dir(module)) - set(vars(module)))
        real(job)

    monkeypatch.setattr(plotting, "import_pyqtgraph", importing)
    plotting.prepare()
    qtbot.waitUntil(plotting.ready, timeout=60_000)
    assert len(left) == 6 and all(not names for names in left), left


def test_a_session_asked_for_while_another_opens_is_opened_after_it(
        window: MainWindow) -> None:
    """Opening runs its turns in a local event loop: a request that comes meanwhile (a
    club connection back asks to reopen) waits, then is opened; nothing is left half
    built."""
    table = window.table
    window._rail.setCurrentRow(window.workspaces.index(table))
    first, second = _finished_session(window, 10), _finished_session(window, 12)
    answers: list[bool] = []
    QTimer.singleShot(0, lambda: answers.append(table.open_session(second)))
    assert table.open_session(first)  # the second, asked for meanwhile, opened after it
    assert answers == [False]
    assert table.session_id == second and window.services.table.session_id == second
    assert table.play.game is window.services.table.game
    assert not table.opening

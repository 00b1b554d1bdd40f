"""A finished session's charts: gauges over the turns, damage dealt and taken, luck.

No turn of the event loop does more than one chart's work: the aggregates are read
(or the events replayed) on a worker thread (:meth:`SessionCharts.draw`), pyqtgraph
and numpy are imported on one (``gui/plotting.py``), then the summary and the four
charts are drawn one per turn, a gauge chart's curves a few vehicles a turn
(:data:`CURVES_PER_STEP`). Every series has its own marker shape and the legends
name them: colour is never the only key. A gauge chart's legend (one entry per vehicle,
twelve at most) stands under its axes, outside the curves, in as many columns as the
chart's width holds (fitted again whenever the chart is resized):
inside the plot, ten of twelve vehicles' entries fitted and the last were cut off.
The damage chart has a row per vehicle, its name on the left axis (names under vertical
bars ran into each other); the luck chart runs from roll 0 and 0 successes, on whole
numbers.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QBrush, QFontMetrics
from PySide6.QtWidgets import QGridLayout, QLabel, QSizePolicy, QVBoxLayout, QWidget

from carwars_desktop.gui import plotting
from carwars_desktop.gui.background import Job, LatestOnly
from carwars_desktop.gui.theme import chart_colours, style_plot
from carwars_desktop.session.history import Luck, SessionHistory

SYMBOLS = ("o", "s", "t", "d", "+", "x", "star", "h", "p", "t1", "t2", "t3")


STEP_PAUSE_MS = 20
"""Between two charts drawn stepwise (see :meth:`SessionCharts.show_history`)."""

CURVES_PER_STEP = 4
"""Vehicles whose curves a gauge chart gets in one step: twelve vehicles' curves (each
with its markers) were the longest turn of the charts, so a gauge is drawn in pieces,
hidden until its last piece (it is painted once, whole)."""

LEGEND_ROW = 4
"""The row of a plot's layout (pyqtgraph's PlotItem: title, top axis, view, bottom axis)
under which a gauge chart's legend stands."""
LEGEND_GAP = 8
"""Pixels between two columns of a legend under a chart."""

DAMAGE = ("damage", "damage taken ■ and dealt ▨", 1, 0)
LUCK = ("luck", "luck: hits against the odds", 1, 1)
"""(key, title, row, column) of two of the plots."""

Charts = tuple[SessionHistory, Luck]
Reader = Callable[[Job], Charts]
"""Reads a session's charts (its kept aggregates, or its events replayed): Qt-free, run
on a worker thread."""


class SessionCharts(QWidget):
    """Shows a :class:`SessionHistory` and a :class:`Luck` (see the module docstring)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._grid = QGridLayout(self)
        self._grid.setColumnStretch(0, 1)
        self._grid.setColumnStretch(1, 1)
        self._grid.setRowStretch(0, 1)
        self._grid.setRowStretch(1, 1)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self._grid.addWidget(self.summary, 2, 0, 1, 2)
        # Each chart's place from the start: a chart drawn later fills its own and moves
        # (and repaints) none of the others.
        self._cells: dict[tuple[int, int], QVBoxLayout] = {}
        for row in range(2):
            for column in range(2):
                cell = QWidget()
                cell.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
                cell.setMinimumSize(280, 200)
                layout = QVBoxLayout(cell)
                layout.setContentsMargins(0, 0, 0, 0)
                self._cells[row, column] = layout
                self._grid.addWidget(cell, row, column)
        self.plots: dict[str, Any] = {}
        self._gauges: list[Any] = []
        """The plots whose legend stands under them (fitted to their width)."""
        self.drawing = False
        """A drawing is under way (read on a worker, or some charts still to come)."""
        self._reader: LatestOnly[Charts] = LatestOnly(self)
        self._generation = 0
        """Moves on at each :meth:`reset`: a drawing begun for another session stops."""

    def draw(self, read: Reader, on_error: Callable[[BaseException], None]) -> None:
        """Read the charts with ``read`` on a worker thread, then draw them one per turn
        (once pyqtgraph is imported); ``on_error`` gets what ``read`` raised."""
        self.reset()
        plotting.prepare()
        self.summary.setText("Drawing the charts…")
        self.drawing = True
        generation = self._generation

        def failed(error: BaseException) -> None:
            if generation == self._generation:
                self.drawing = False
                self.summary.setText("")
                on_error(error)

        def read_done(charts: Charts) -> None:
            plotting.when_ready(self, partial(self._read, generation, charts))

        self._reader.submit(read, read_done, failed)

    def begin(self) -> Callable[[], bool]:
        """A drawing is under way from now, before :meth:`draw` (what it needs first is
        asked on a worker); the call returned says whether it is still this one (no
        :meth:`reset` since: another session shown)."""
        self.reset()
        self.summary.setText("Drawing the charts…")
        self.drawing = True
        generation = self._generation
        return lambda: generation == self._generation

    def _read(self, generation: int, charts: Charts) -> None:
        if generation == self._generation:
            self.show_history(*charts, stepwise=True)

    def reset(self) -> None:
        """Blank until the next :meth:`show_history`: each plot is hidden (its place kept)
        until drawn again, so a session's tab never shows another session's charts, and a
        stepwise drawing paints one plot per turn of the loop, not all four at once."""
        self._generation += 1
        self._reader.supersede()
        self.drawing = False
        for plot in self.plots.values():
            plot.hide()
        self.summary.setText("")

    def _make(self, key: str, title: str, row: int, column: int) -> Any:
        """The plot widget of ``key`` in its place, made (hidden) if it is not yet."""
        pg: Any = plotting.pyqtgraph()

        colours = chart_colours()  # the theme in use now (light or dark)
        pg.setConfigOptions(antialias=True, background=colours.background,
                            foreground=colours.foreground)
        plot = self.plots.get(key)
        if plot is None:
            plot = pg.PlotWidget(title=title)
            plot.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
            plot.setMinimumSize(280, 200)
            plot.setMouseEnabled(x=False, y=False)
            plot.hideButtons()
            plot.setMenuEnabled(False)
            plot.showGrid(x=True, y=True, alpha=0.2)
            policy = plot.sizePolicy()
            policy.setRetainSizeWhenHidden(True)  # a hidden plot keeps its place (reset)
            plot.setSizePolicy(policy)
            self.plots[key] = plot
            plot.hide()
            self._cells[row, column].addWidget(plot)
        return plot

    def _plot(self, key: str, title: str, row: int, column: int, show: bool = True,
              legend_below: bool = False, legend_at: tuple[int, int] = (-10, 10)) -> Any:
        """The plot of ``key`` cleared and styled for a new drawing; ``show``: shown now,
        else left hidden (the caller shows it once drawn whole); ``legend_below``: its
        legend under its axes, in columns (a gauge's: one entry per vehicle), else in its
        corner ``legend_at`` (pyqtgraph's offset: negative from the right; a few entries)."""
        pg: Any = plotting.pyqtgraph()

        plot = self._make(key, title, row, column)
        colours = chart_colours()
        plot.clear()
        if plot.plotItem.legend is None:
            if legend_below:  # laid out in the plot's own layout, not anchored over it
                self._gauges.append(plot)
                plot.installEventFilter(self)
                legend = pg.LegendItem(horSpacing=4, verSpacing=-6, frame=False,
                                       labelTextSize="8pt")
                plot.plotItem.layout.addItem(legend, LEGEND_ROW, 0, 1, 3)
                plot.plotItem.legend = legend  # (the curves named join it)
            else:
                plot.addLegend(offset=legend_at)
        else:
            plot.plotItem.legend.clear()
        style_plot(plot, colours)
        if show:
            plot.show()
        return plot

    @staticmethod
    def _whole_ticks(axis: Any) -> None:
        """Ticks on whole numbers only (turns, rolls, boxes, points), as many as the axis's
        length holds: pyqtgraph's own spacing, its fractional levels left out (a fixed
        spacing crowded twelve labels onto a short axis; the default showed 0.5, 1.5)."""
        if getattr(axis, "whole_ticks", False):
            return
        own = axis.tickSpacing

        def spacing(low: float, high: float, size: float) -> list[tuple[float, float]]:
            levels = [(step, offset) for step, offset in own(low, high, size) if step >= 1]
            return levels or [(1.0, 0.0)]

        axis.tickSpacing = spacing
        axis.whole_ticks = True

    def show_history(self, history: SessionHistory, luck: Luck, stepwise: bool = False) -> None:
        """Draw the four charts and the summary; ``stepwise``: one chart per turn of the
        event loop (the window answers between them), else all at once."""
        # The summary first: its new height moves the grid's rows once, before any plot is
        # drawn (set last, it made all four plots repaint together in one turn).
        # A plot widget made the first time is a step of its own (its making is as much
        # work as its drawing).
        steps: list[Callable[[], Any]] = [partial(self._summary, history, luck)]
        vehicles = len(history.vehicles)
        for number, label in enumerate(history.gauge_labels[:2]):
            steps += self._unmade(f"gauge:{label}", f"{label} over the turns", 0, number)
            steps += [partial(self._gauge, history, number, label, first,
                              first + CURVES_PER_STEP)
                      for first in range(0, max(vehicles, 1), CURVES_PER_STEP)]
        steps += self._unmade(*DAMAGE)
        steps.append(partial(self._damage, history))
        steps += self._unmade(*LUCK)
        steps.append(partial(self._luck, history, luck))
        if not stepwise:
            for step in steps:
                step()
            return
        self._generation += 1  # a drawing still under way stops
        generation = self._generation

        def next_step() -> None:
            if generation != self._generation:
                return  # another session's (or none) is shown now
            if steps:
                steps.pop(0)()
                # A pause longer than one repaint: the chart just drawn is painted in its
                # own turn of the loop, not together with the next one's work.
                QTimer.singleShot(STEP_PAUSE_MS, self, next_step)
            else:
                self.drawing = False

        self.drawing = True
        next_step()

    def _unmade(self, key: str, title: str, row: int, column: int) -> list[Callable[[], Any]]:
        """The step that makes the plot widget of ``key``, if it is not made yet."""
        return [] if key in self.plots else [partial(self._make, key, title, row, column)]

    def _gauge(self, history: SessionHistory, number: int, label: str, first: int = 0,
               stop: int | None = None) -> None:
        """The curves of the vehicles ``first`` to ``stop`` (every one by default) on the
        gauge chart of ``label``: the first piece clears and labels the chart, the last
        shows it."""
        pg: Any = plotting.pyqtgraph()

        colours = chart_colours()
        series = colours.series
        vehicles = list(history.vehicles.values())
        stop = len(vehicles) if stop is None else min(stop, len(vehicles))
        key = f"gauge:{label}"
        if first == 0:
            plot = self._plot(key, f"{label} over the turns", 0, number, show=False,
                              legend_below=True)
            plot.setLabel("bottom", "turn (0 = start)")
            plot.setLabel("left", label)
            self._whole_ticks(plot.getAxis("bottom"))
            values = [value for v in vehicles for _, value in v.series(label,
                                                                       history.last_turn)]
            self._whole_ticks(plot.getAxis("left"))  # boxes or points (a flat line of
            if values:  # 12 DP read 11.6 to 12.4): every point inside, off the edges
                low, high = min(values), max(values)
                room = max(1.5, (high - low) * 0.05)  # (a flat line: the whole numbers round it)
                plot.setYRange(low - room, high + room, padding=0)
        else:
            plot = self.plots[key]
        for index in range(first, stop):
            vehicle = vehicles[index]
            points = vehicle.series(label, history.last_turn)
            colour = series[index % len(series)]
            plot.plot([p[0] for p in points], [p[1] for p in points], name=vehicle.name,
                      pen=pg.mkPen(colour, width=2), symbol=SYMBOLS[index % len(SYMBOLS)],
                      symbolBrush=colour, symbolSize=8)
        if stop >= len(vehicles):
            self._fit_legend(plot)
            plot.show()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        """A gauge chart resized (the window, the docks beside the charts): its legend
        fitted to its new width."""
        if event.type() == QEvent.Type.Resize and watched in self._gauges:
            self._fit_legend(watched)
        return False

    @staticmethod
    def _fit_legend(plot: Any) -> None:
        """``plot``'s legend under it in as many columns as its width holds."""
        legend = plot.plotItem.legend
        if legend is None or not legend.items:
            return
        spacing = legend.layout.horizontalSpacing()
        widest = max(sample.minimumWidth() + spacing + label.minimumWidth()
                     for sample, label in legend.items) + LEGEND_GAP
        room = plot.width() - 2 * plot.plotItem.layout.contentsRect().x() - LEGEND_GAP
        columns = max(1, min(len(legend.items), int(room // widest)))
        if columns != legend.columnCount:
            legend.setColumnCount(columns)
        for column in range(columns):  # the columns as wide as the widest entry
            legend.layout.setColumnMinimumWidth(2 * column + 1, widest - LEGEND_GAP
                                                - legend.items[0][0].minimumWidth())


    def _damage(self, history: SessionHistory) -> None:
        """One row per vehicle, its name on the left axis (the first on top), its damage
        taken and dealt as two bars across: twelve names under vertical bars ran into each
        other and the last one was dropped."""
        pg: Any = plotting.pyqtgraph()

        colours = chart_colours()
        ink = colours.ink
        plot = self._plot(*DAMAGE, legend_below=True)
        vehicles = list(history.vehicles.values())
        # Room for every name on its own line (twelve ran into each other in a short
        # window): the chart's place grows with the vehicles, the charts above give way.
        line = QFontMetrics(plot.getAxis("left").font()).height() + 2
        cell = self._cells[DAMAGE[2], DAMAGE[3]].parentWidget()
        if cell is not None:
            cell.setMinimumHeight(max(200, line * len(vehicles) + 130))
        rows = list(range(len(vehicles)))
        taken = pg.BarGraphItem(x0=0, y=[y - 0.18 for y in rows],
                                width=[v.taken for v in vehicles], height=0.34,
                                brush=QBrush(ink), pen=pg.mkPen(colours.foreground),
                                name="■ taken")
        dealt = pg.BarGraphItem(x0=0, y=[y + 0.18 for y in rows],
                                width=[float(v.dealt) for v in vehicles], height=0.34,
                                brush=QBrush(ink, Qt.BrushStyle.BDiagPattern),
                                pen=pg.mkPen(colours.foreground), name="▨ dealt")
        plot.addItem(taken)
        plot.addItem(dealt)
        plot.invertY(True)  # the first vehicle on top, as in the summary
        plot.getAxis("left").setTicks([[(y, v.name) for y, v in zip(rows, vehicles,
                                                                     strict=True)]])
        plot.getAxis("bottom").setTicks(None)
        plot.setLabel("bottom", "damage points")
        top = max([v.taken for v in vehicles] + [float(v.dealt) for v in vehicles] + [1])
        self._whole_ticks(plot.getAxis("bottom"))
        plot.setXRange(0, top * 1.05, padding=0)
        plot.setYRange(-0.6, max(len(vehicles), 1) - 0.4, padding=0)
        self._fit_legend(plot)
        plot.show()

    def _luck(self, history: SessionHistory, luck: Luck) -> None:
        """Successes thrown and expected against the rolls, from the start (0 rolls, 0
        successes) to the last roll, on whole numbers: with one roll the axes ran from
        roll -1 to 3 and from 0.85 to 1 successes, in fractions."""
        pg: Any = plotting.pyqtgraph()

        colours = chart_colours()
        series, ink = colours.series, colours.ink
        plot = self._plot(*LUCK, legend_at=(10, 10))  # top left: the curves rise to the right
        rolls = list(range(luck.rolls + 1))
        plot.plot(rolls, [0, *luck.thrown], name="● successes thrown",
                  pen=pg.mkPen(series[0], width=2), symbol="o", symbolSize=6,
                  symbolBrush=series[0])
        plot.plot(rolls, [0.0, *(float(e) for e in luck.expected)],
                  name="– – expected (exact odds)",
                  pen=pg.mkPen(ink, width=2, style=Qt.PenStyle.DashLine))
        plot.setLabel("bottom", "roll")
        plot.setLabel("left", "successes so far")
        last = max(luck.rolls, 1)
        top = max([*luck.thrown, *(float(e) for e in luck.expected), 1.0])
        self._whole_ticks(plot.getAxis("bottom"))
        self._whole_ticks(plot.getAxis("left"))
        # A little room round the ranges: the first and last marks whole, and the axes'
        # 0s drawn (a label that would stand past its axis's end is left out).
        plot.setXRange(0, last, padding=0.02)
        plot.setYRange(0, top * 1.1, padding=0.05)

    def _summary(self, history: SessionHistory, luck: Luck) -> None:
        vehicles = list(history.vehicles.values())
        lines = [f"{v.name}: took {v.taken}, dealt {float(v.dealt):g}" for v in vehicles]
        if history.unattributed:
            lines.append(f"{history.unattributed} damage with no dealer named (hand marks, "
                         "collisions, hazards)")
        events, turns = history.events, history.last_turn
        self.summary.setText(f"{events} event{'' if events == 1 else 's'} over {turns} "
                             f"turn{'' if turns == 1 else 's'} · "
                             + " · ".join(lines) + f"<br>Luck: {luck.summary()}")

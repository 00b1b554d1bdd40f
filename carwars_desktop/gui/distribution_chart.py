"""A bar chart of an exact distribution, success region shaded and named.

pyqtgraph (and numpy) are imported on a worker thread (``gui/plotting.py``): a chart
given its distribution while hidden (the Dice and Resolver workspaces behind the first
screen) keeps it, starts that import, and draws it when it is shown, once pyqtgraph is
imported (the legend says "drawing the chart…" until then).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QShowEvent
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from carwars_desktop.dice import Distribution
from carwars_desktop.gui import plotting
from carwars_desktop.gui.theme import chart_colours, style_plot

VISIBLE_FRACTION = 1e-4
"""Bars lower than this share of the tallest are not drawn (under a pixel on any screen):
100d100's 9,901 totals draw as about 2,500 bars."""

MAX_BARS = 150
"""More bars than this are drawn as two filled step outlines (one per region): the same
picture, painted at once instead of bar by bar."""

DRAWING = "drawing the chart…"
"""The legend while the chart waits for its distribution or for pyqtgraph."""

Bar = tuple[int, float, bool]
"""(total, probability in %, in the success region)."""


def chart_bars(distribution: Distribution, success: frozenset[int]) -> list[Bar]:
    """The bars of ``distribution``; pure, so a worker thread can compute them."""
    total = distribution.total
    ways = distribution.ways
    return [(v, ways[v] / total * 100, v in success) for v in distribution.values()]


class DistributionChart(QWidget):
    """Probability (%) per total; success bars filled blue, the others outlined grey."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._legend = QLabel()
        self._legend.setObjectName("chart-legend")
        self._layout.addWidget(self._legend)
        self._plot: Any = None
        self._marker: Any = None
        self.bars: list[tuple[int, float, bool]] = []
        self._pending: tuple[int | None, str] | None = None
        """(marker, x label) of a distribution not drawn yet (the chart was hidden, or
        pyqtgraph is still being imported)."""
        self._legend_text = ""

    @property
    def waiting(self) -> bool:
        """A distribution is given and not drawn yet."""
        return self._pending is not None

    def _ensure_plot(self) -> Any:
        if self._plot is None:
            pg: Any = plotting.pyqtgraph()

            colours = chart_colours()
            pg.setConfigOptions(antialias=True, background=colours.background,
                                foreground=colours.foreground)
            self._plot = pg.PlotWidget()
            self._plot.setMinimumHeight(220)
            self._plot.setMouseEnabled(x=False, y=False)
            self._plot.hideButtons()
            self._plot.setMenuEnabled(False)
            self._plot.setLabel("left", "probability", units="%")
            # 100d100's bars are under 1.4 %: never "m%" with ticks 10–140.
            self._plot.getAxis("left").enableAutoSIPrefix(False)
            self._plot.showGrid(y=True, alpha=0.25)
            self._layout.insertWidget(0, self._plot, 1)
        return self._plot

    def show_distribution(self, distribution: Distribution, success: frozenset[int],
                          marker: int | None = None, x_label: str = "total",
                          success_label: str = "success") -> None:
        self.show_bars(chart_bars(distribution, success), bool(success), marker, x_label,
                       success_label)

    def show_bars(self, bars: list[Bar], has_success: bool, marker: int | None = None,
                  x_label: str = "total", success_label: str = "success") -> None:
        """Show bars made by :func:`chart_bars` (drawn now if visible, else when shown)."""
        self.bars = bars
        self._legend_text = f"■ filled: {success_label}    □ outlined: not" \
            if has_success else ""
        self._legend.setText(self._legend_text)
        self._pending = (marker, x_label)
        if self.isVisible():
            self._draw_when_ready()
        else:
            plotting.prepare()  # ahead of need: it is drawn when shown

    def show_coming(self) -> None:
        """A distribution will be given on a later turn: the legend says it is being
        drawn (when none is shown or waiting already; :meth:`clear` or
        :meth:`show_bars` ends it)."""
        if not self.bars and self._pending is None:
            self._legend.setText(DRAWING)

    def clear(self) -> None:
        """No distribution (the form is not valid yet): nothing left from the last one."""
        self.bars = []
        self._pending = None
        self._legend_text = ""
        self._legend.setText("")
        if self._plot is not None:
            self._plot.clear()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt's name)
        super().showEvent(event)
        if self._pending is not None:
            self._draw_when_ready()

    def _draw_when_ready(self) -> None:
        """Draw now if pyqtgraph is imported, else once the worker has imported it."""
        if not plotting.ready() and self._plot is None:
            self._legend.setText(DRAWING)
        plotting.when_ready(self, self._draw)

    def _draw(self) -> None:
        if self._pending is None or not self.isVisible():
            return  # drawn already, cleared, or hidden again (drawn when next shown)
        pg: Any = plotting.pyqtgraph()

        self._legend.setText(self._legend_text)
        marker, x_label = self._pending
        self._pending = None
        values = [v for v, _, _ in self.bars]
        top = max(h for _, h, _ in self.bars)
        drawn = [bar for bar in self.bars if bar[1] >= top * VISIBLE_FRACTION]
        plot = self._ensure_plot()
        plot.clear()
        colours = chart_colours()  # the theme in use now (light or dark)
        style_plot(plot, colours)
        # Colour never carries the meaning alone: success bars are filled,
        # the others are outlines only, and the legend says which is which.
        success_pen = pg.mkPen(colours.success.darker(130), width=1)
        failure_pen = pg.mkPen(colours.failure.darker(150) if colours.background.lightness() > 128
                               else colours.failure, width=1.5)
        success_brush, failure_brush = QBrush(colours.success), QBrush(colours.failure_fill)
        if len(drawn) <= MAX_BARS:
            plot.addItem(pg.BarGraphItem(
                x=[v for v, _, _ in drawn],
                height=[h for _, h, _ in drawn],
                width=0.75,
                brushes=[success_brush if ok else failure_brush for _, _, ok in drawn],
                pens=[success_pen if ok else failure_pen for _, _, ok in drawn],
            ))
        else:  # too many bars to tell apart: the same regions as two filled step outlines
            edges = [v - 0.5 for v, _, _ in drawn] + [drawn[-1][0] + 0.5]
            for wanted, pen, brush in ((True, success_pen, success_brush),
                                       (False, failure_pen, failure_brush)):
                heights = [h if ok is wanted else 0.0 for _, h, ok in drawn]
                if any(heights):
                    plot.addItem(pg.PlotDataItem(edges, heights, stepMode="center",
                                                 fillLevel=0, pen=pen, brush=brush))
        plot.setLabel("bottom", x_label)
        if marker is not None:
            self._marker = pg.InfiniteLine(pos=marker, angle=90,
                                           pen=pg.mkPen((200, 60, 20), width=2,
                                                        style=Qt.PenStyle.DashLine))
            plot.addItem(self._marker)
        plot.setXRange(values[0] - 0.6, values[-1] + 0.6, padding=0)
        plot.setYRange(0, top * 1.1, padding=0)

"""A bar chart of an exact distribution, success region shaded and named.

pyqtgraph (and numpy) are imported on the first :meth:`show_distribution`,
which the workspaces call after the window's first paint.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from carwars_desktop.dice import Distribution
from carwars_desktop.gui.theme import chart_colours, style_plot


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

    def _ensure_plot(self) -> Any:
        if self._plot is None:
            import pyqtgraph as pg

            colours = chart_colours()
            pg.setConfigOptions(antialias=True, background=colours.background,
                                foreground=colours.foreground)
            self._plot = pg.PlotWidget()
            self._plot.setMinimumHeight(220)
            self._plot.setMouseEnabled(x=False, y=False)
            self._plot.hideButtons()
            self._plot.setMenuEnabled(False)
            self._plot.setLabel("left", "probability", units="%")
            self._plot.showGrid(y=True, alpha=0.25)
            self._layout.insertWidget(0, self._plot, 1)
        return self._plot

    def show_distribution(self, distribution: Distribution, success: frozenset[int],
                          marker: int | None = None, x_label: str = "total",
                          success_label: str = "success") -> None:
        import pyqtgraph as pg

        plot = self._ensure_plot()
        plot.clear()
        colours = chart_colours()  # the theme in use now (light or dark)
        style_plot(plot, colours)
        values = distribution.values()
        probabilities = distribution.probabilities()
        self.bars = [(v, float(probabilities[v]) * 100, v in success) for v in values]
        # Colour never carries the meaning alone: success bars are filled,
        # the others are outlines only, and the legend says which is which.
        success_pen = pg.mkPen(colours.success.darker(130), width=1)
        failure_pen = pg.mkPen(colours.failure.darker(150) if colours.background.lightness() > 128
                               else colours.failure, width=1.5)
        bars = pg.BarGraphItem(
            x=[v for v, _, _ in self.bars],
            height=[h for _, h, _ in self.bars],
            width=0.75,
            brushes=[QBrush(colours.success) if ok else QBrush(colours.failure_fill)
                     for _, _, ok in self.bars],
            pens=[success_pen if ok else failure_pen for _, _, ok in self.bars],
        )
        plot.addItem(bars)
        plot.setLabel("bottom", x_label)
        if marker is not None:
            self._marker = pg.InfiniteLine(pos=marker, angle=90,
                                           pen=pg.mkPen((200, 60, 20), width=2,
                                                        style=Qt.PenStyle.DashLine))
            plot.addItem(self._marker)
        plot.setXRange(values[0] - 0.6, values[-1] + 0.6, padding=0)
        top = max(h for _, h, _ in self.bars)
        plot.setYRange(0, top * 1.1, padding=0)
        if success:
            self._legend.setText(f"■ filled: {success_label}    □ outlined: not")
        else:
            self._legend.setText("")

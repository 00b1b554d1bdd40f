"""A bar chart of an exact distribution, success region shaded and named.

pyqtgraph (and numpy) are imported when a chart is first drawn: a chart given its
distribution while hidden (the Dice and Resolver workspaces behind the first screen)
keeps it and draws it when it is shown.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QShowEvent
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from carwars_desktop.dice import Distribution

SUCCESS_COLOR = QColor(30, 110, 190)
FAILURE_COLOR = QColor(150, 150, 150)
FAILURE_BACKGROUND = QColor(240, 240, 240)


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
        """(marker, x label) of a distribution not drawn yet (the chart was hidden)."""

    def _ensure_plot(self) -> Any:
        if self._plot is None:
            import pyqtgraph as pg

            pg.setConfigOptions(antialias=True, background="w", foreground="k")
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
        values = distribution.values()
        probabilities = distribution.probabilities()
        self.bars = [(v, float(probabilities[v]) * 100, v in success) for v in values]
        self._legend.setText(f"■ filled: {success_label}    □ outlined: not" if success else "")
        self._pending = (marker, x_label)
        if self.isVisible():
            self._draw()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt's name)
        super().showEvent(event)
        if self._pending is not None:
            self._draw()

    def _draw(self) -> None:
        import pyqtgraph as pg

        assert self._pending is not None
        marker, x_label = self._pending
        self._pending = None
        values = [v for v, _, _ in self.bars]
        plot = self._ensure_plot()
        plot.clear()
        # Colour never carries the meaning alone: success bars are filled,
        # the others are outlines only, and the legend says which is which.
        success_pen = pg.mkPen(SUCCESS_COLOR.darker(130), width=1)
        failure_pen = pg.mkPen(FAILURE_COLOR.darker(150), width=1.5)
        bars = pg.BarGraphItem(
            x=[v for v, _, _ in self.bars],
            height=[h for _, h, _ in self.bars],
            width=0.75,
            brushes=[QBrush(SUCCESS_COLOR) if ok else QBrush(FAILURE_BACKGROUND)
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

"""A gauge chart names every vehicle in its legend, each entry where it can be seen: under
the chart's axes, outside its curves, in as many columns as the chart's width holds (with
twelve vehicles the legend inside the plot showed ten and cut off the last two)."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QRectF

from carwars_desktop.gui.table.charts import SessionCharts
from carwars_desktop.session.history import Luck, SessionHistory, VehicleHistory

NAMES = ("Courier", "Killer Kart", "Mini Sherman", "Rocket Special", "Courier (a)",
         "Mini Sherman (b)", "Rocket Special (b)", "Courier (b)", "Mini Sherman (a)",
         "Rocket Special (a)", "Courier #2", "Killer Kart #2")
SIZES = {"1366x768": (840, 610), "1920x1080": (1390, 930)}
"""The Charts tab's size in a main window of that size (the Table's docks beside it)."""


def _history() -> SessionHistory:
    vehicles = {f"v{n}": VehicleHistory(f"v{n}", name, {
        "armor": {0: 20 + n, 1: 18 + n, 2: 11 + n}, "DP": {0: 12, 2: 12 - n % 4}},
        taken=n, dealt=n % 3)
        for n, name in enumerate(NAMES, start=1)}
    return SessionHistory(vehicles, ("armor", "DP"), last_turn=2, events=40)


def _outside(plot: Any) -> list[str]:
    """The legend entries of ``plot`` not wholly inside what the plot shows, or over its
    curves ("" each: none)."""
    shown = QRectF(plot.viewport().rect())
    curves = plot.mapFromScene(plot.plotItem.vb.sceneBoundingRect()).boundingRect()
    wrong = []
    for sample, label in plot.plotItem.legend.items:
        for part in (sample, label):
            rect = QRectF(plot.mapFromScene(part.sceneBoundingRect()).boundingRect())
            if rect.isEmpty() or not shown.contains(rect) or rect.intersects(QRectF(curves)):
                wrong.append(label.text)
    return wrong


def _wrong(charts: SessionCharts) -> dict[str, list[str]]:
    gauges = {key: plot for key, plot in charts.plots.items() if key.startswith("gauge:")}
    return {key: _outside(plot) for key, plot in gauges.items() if _outside(plot)}


@pytest.mark.parametrize("first, then", [("1366x768", "1920x1080"), ("1920x1080", "1366x768")])
def test_every_vehicle_of_twelve_is_in_a_gauge_legend_and_seen(
        qtbot, first: str, then: str) -> None:  # type: ignore[no-untyped-def]
    charts = SessionCharts()
    qtbot.addWidget(charts)
    charts.resize(*SIZES[first])
    charts.show()
    charts.show_history(_history(), Luck((), ()))
    assert {key for key in charts.plots if key.startswith("gauge:")} == {"gauge:armor",
                                                                          "gauge:DP"}
    for key in ("gauge:armor", "gauge:DP"):
        legend = charts.plots[key].plotItem.legend
        assert [label.text for _, label in legend.items] == list(NAMES)  # one per vehicle
    qtbot.waitUntil(lambda: not _wrong(charts))  # laid out: each entry seen, off the curves
    columns = {key: charts.plots[key].plotItem.legend.columnCount
               for key in ("gauge:armor", "gauge:DP")}
    assert all(count > 1 for count in columns.values())  # in columns, not twelve rows
    charts.resize(*SIZES[then])  # the window resized: the legends fitted again
    qtbot.waitUntil(lambda: not _wrong(charts))
    wider = SIZES[then][0] > SIZES[first][0]
    for key, count in columns.items():
        now = charts.plots[key].plotItem.legend.columnCount
        assert now > count if wider else now < count
    assert not _wrong(charts)

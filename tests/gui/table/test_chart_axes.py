"""How the damage and luck charts are drawn: every vehicle's name on the damage chart,
none over another (twelve names under vertical bars ran into each other and the last was
dropped), and the luck chart from roll 0 to the last roll and from 0 successes, on whole
numbers (with one roll its axes ran from roll -1 to 3 and 0.85 to 1 successes, in
fractions)."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QPainter, QPicture

from carwars_desktop.gui.table.charts import SessionCharts
from carwars_desktop.session.history import Luck, SessionHistory, VehicleHistory

NAMES = ("Courier", "Courier (a)", *(f"Courier #{n}" for n in range(2, 12)))
"""The twelve vehicles of an evening's session (names as the Table makes them)."""
SIZES = {"1366x768": (840, 610), "1920x1080": (1390, 930), "1280x720": (760, 540)}
"""The Charts tab's size in a main window of that size (the Table's docks beside it; the
last one a window left unmaximised, where twelve names once ran into each other)."""


def _history(names: tuple[str, ...] = NAMES) -> SessionHistory:
    vehicles = {f"v{n}": VehicleHistory(f"v{n}", name, {"armor": {0: 95, 2: 95 - n}},
                                        taken=n, dealt=Fraction(n % 3))
                for n, name in enumerate(names)}
    return SessionHistory(vehicles, ("armor",), last_turn=2, events=14)


def _texts(axis: Any) -> list[tuple[QRectF, str]]:
    """The tick labels ``axis`` draws, each with its place (as its own painting finds
    them: a label that would stand outside the axis is not drawn)."""
    picture = QPicture()
    painter = QPainter(picture)
    try:
        if axis.style["tickFont"]:
            painter.setFont(axis.style["tickFont"])
        _, _, texts = axis.generateDrawSpecs(painter)
    finally:
        painter.end()
    return [(QRectF(rect), text) for rect, _, text in texts]


def _overlapping(texts: list[tuple[QRectF, str]]) -> list[tuple[str, str]]:
    return [(a, b) for (first, a), (second, b) in itertools.combinations(texts, 2)
            if first.intersects(second)]


def _charts(qtbot: Any, size: str, history: SessionHistory, luck: Luck) -> SessionCharts:
    charts = SessionCharts()
    qtbot.addWidget(charts)
    charts.resize(*SIZES[size])
    charts.show()
    charts.show_history(history, luck)
    return charts


@pytest.mark.parametrize("size", sorted(SIZES))
def test_every_vehicle_of_twelve_is_named_on_the_damage_chart_none_over_another(
        qtbot: Any, size: str) -> None:
    charts = _charts(qtbot, size, _history(), Luck((), ()))
    plot = charts.plots["damage"]
    names = plot.getAxis("left")

    def laid_out() -> bool:
        texts = _texts(names)
        return [text for _, text in texts] == list(NAMES) and not _overlapping(texts)

    qtbot.waitUntil(laid_out)  # each name drawn, in the vehicles' order, none overlapping
    texts = _texts(names)
    assert len(texts) == len(NAMES)
    assert not _overlapping(texts)
    # Each name stands by its own vehicle's bars: the first vehicle on top.
    tops = [rect.top() for rect, _ in texts]
    assert tops == sorted(tops)
    # The bars' legend stands under the axes, off the bars.
    view = plot.mapFromScene(plot.plotItem.vb.sceneBoundingRect()).boundingRect()
    for sample, label in plot.plotItem.legend.items:
        for part in (sample, label):
            rect = plot.mapFromScene(part.sceneBoundingRect()).boundingRect()
            assert not rect.intersects(view), label.text


@pytest.mark.parametrize("rolls", [1, 3, 40])
def test_the_luck_chart_runs_from_roll_0_and_0_successes_on_whole_numbers(
        qtbot: Any, rolls: int) -> None:
    thrown = tuple(min(n, (2 * n) // 3 + 1) for n in range(1, rolls + 1))
    expected = tuple(Fraction(5 * n, 6) for n in range(1, rolls + 1))
    charts = _charts(qtbot, "1366x768", _history(NAMES[:2]), Luck(thrown, expected))
    plot = charts.plots["luck"]
    (x_low, x_high), (y_low, y_high) = plot.plotItem.vb.viewRange()
    assert -0.05 * rolls < x_low <= 0 and rolls <= x_high < rolls * 1.05  # roll 0 to the last
    top = max(thrown[-1], float(expected[-1]))
    assert -0.1 * top < y_low <= 0 and top <= y_high <= top * 1.25  # from 0 to the top
    for name in ("bottom", "left"):  # whole rolls, whole successes
        qtbot.waitUntil(lambda name=name: bool(_texts(plot.getAxis(name))))
        labels = [text for _, text in _texts(plot.getAxis(name))]
        assert all(label.lstrip("-").isdigit() for label in labels), (name, labels)
        assert len(labels) >= 2, (name, labels)  # a scale, not one lone tick
    # The curves start at no roll, no success.
    for curve in plot.plotItem.listDataItems():
        xs, ys = curve.getData()
        assert (xs[0], ys[0]) == (0, 0)
        assert len(xs) == rolls + 1


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_gauge_charts_count_in_whole_numbers(qtbot: Any, size: str) -> None:
    """A gauge is boxes or points: its axis read 11.6, 11.8 … 12.4 round a flat line."""
    vehicles = {f"v{n}": VehicleHistory(f"v{n}", name, {"armor": {0: 95, 2: 95 - 2 * n},
                                                        "DP": {0: 12, 2: 12}})
                for n, name in enumerate(NAMES)}
    history = SessionHistory(vehicles, ("armor", "DP"), last_turn=2, events=14)
    charts = _charts(qtbot, size, history, Luck((), ()))
    for key, (low, high) in (("gauge:armor", (95 - 2 * 11, 95)), ("gauge:DP", (12, 12))):
        plot = charts.plots[key]
        bottom, top = plot.plotItem.vb.viewRange()[1]
        assert bottom < low and top > high  # every point inside, off the edges
        axis = plot.getAxis("left")
        qtbot.waitUntil(lambda axis=axis: len(_texts(axis)) >= 2)
        labels = [text for _, text in _texts(axis)]
        assert all(label.isdigit() for label in labels), (key, labels)
        assert str(high) in labels or key == "gauge:armor"


def test_the_summary_counts_in_words_that_agree(qtbot: Any) -> None:
    """It read "14 events over 1 turns" and "1 successes in 1 rolls"."""
    history = _history(NAMES[:2])
    one = SessionHistory(history.vehicles, history.gauge_labels, last_turn=1, events=1)
    charts = _charts(qtbot, "1366x768", one, Luck((1,), (Fraction(5, 6),)))
    text = charts.summary.text()
    assert text.startswith("1 event over 1 turn · ")
    assert "Luck: 1 success in 1 roll, 0.8 expected" in text
    charts.show_history(history, Luck((1, 1), (Fraction(5, 6), Fraction(5, 3))))
    text = charts.summary.text()
    assert text.startswith("14 events over 2 turns · ")
    assert "Luck: 1 success in 2 rolls" in text

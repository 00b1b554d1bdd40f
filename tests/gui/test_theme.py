"""Light and dark themes: status words, errors, notes and charts take the theme's colours."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

from carwars_desktop.dice import dice_sum
from carwars_desktop.gui import theme
from carwars_desktop.gui.distribution_chart import DistributionChart
from carwars_desktop.gui.table.charts import SessionCharts
from carwars_desktop.gui.table.sheet_frame import flags_html
from carwars_desktop.rules.play import Level, StatusFlag

ROLES = (QPalette.ColorRole.Window, QPalette.ColorRole.Base)


@pytest.fixture(params=["light", "dark"])
def scheme(request: pytest.FixtureRequest, qapp: QApplication) -> Iterator[str]:
    """The application in the system's light palette, then in a dark one."""
    original = QApplication.palette()
    if request.param == "dark":
        QApplication.setPalette(theme.dark_palette())
    yield request.param
    QApplication.setPalette(original)


def test_the_palette_in_use_is_told_apart(scheme: str) -> None:
    assert theme.is_dark() is (scheme == "dark")


def test_status_words_errors_and_notes_read_well_on_the_theme(scheme: str) -> None:
    palette = QApplication.palette()
    colours = [theme.level_colour(level) for level in Level]
    colours += [theme.error_colour(), theme.muted_colour(), theme.chart_colours().success]
    for colour in colours:
        for role in ROLES:
            assert theme.contrast(colour, palette.color(role)) >= 4.5, (scheme, colour, role)


def test_flags_keep_shape_and_word_in_the_theme_colour(scheme: str) -> None:
    html = flags_html((StatusFlag("driver killed", "☠", Level.DANGER),
                       StatusFlag("attacked this turn", "●", Level.INFO)))
    assert "☠&nbsp;driver killed" in html and "●&nbsp;attacked this turn" in html
    danger = "#ff8a80" if scheme == "dark" else "#a11919"
    info = "#8ab4f8" if scheme == "dark" else "#1d4f91"
    assert f"color:{danger}" in html and f"color:{info}" in html


def test_charts_follow_the_theme(scheme: str, qtbot) -> None:  # type: ignore[no-untyped-def]
    base = QApplication.palette().color(QPalette.ColorRole.Base)
    text = QApplication.palette().color(QPalette.ColorRole.Text)
    chart = DistributionChart()
    qtbot.addWidget(chart)
    chart.show()  # a chart is drawn when it is on screen
    chart.show_distribution(dice_sum(2, 6), frozenset(range(7, 13)))
    qtbot.waitUntil(lambda: chart._plot is not None)  # drawn once pyqtgraph is imported
    plot = chart._plot
    assert plot.backgroundBrush().color() == base
    assert plot.getAxis("left").pen().color() == text
    assert plot.getAxis("bottom").textPen().color() == text
    charts = SessionCharts()
    qtbot.addWidget(charts)
    history_plot = charts._plot("luck", "luck", 0, 0)
    assert history_plot.backgroundBrush().color() == base
    series = theme.chart_colours().series
    assert all(theme.contrast(colour, base) >= 2.0 for colour in series[:10]), scheme


def test_a_chart_made_in_one_theme_follows_a_switch(qapp: QApplication, qtbot) -> None:  # type: ignore[no-untyped-def]
    original = QApplication.palette()
    chart = DistributionChart()
    qtbot.addWidget(chart)
    chart.show()  # a chart is drawn when it is on screen
    try:
        chart.show_distribution(dice_sum(1, 6), frozenset({6}))
        qtbot.waitUntil(lambda: chart._plot is not None)  # drawn once pyqtgraph is imported
        assert chart._plot.backgroundBrush().color() == original.color(QPalette.ColorRole.Base)
        QApplication.setPalette(theme.dark_palette())
        chart.show_distribution(dice_sum(1, 6), frozenset({6}))
        assert chart._plot.backgroundBrush().color() == QColor(30, 30, 32)
    finally:
        QApplication.setPalette(original)


def test_the_workspace_rail_follows_a_theme_switch_while_running(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    """The rail (it has its own style sheet) takes the dark palette's colours when the
    theme switches with the window open, and the light ones back."""
    original = QApplication.palette()
    rail = window._rail

    def background() -> QColor:
        image = rail.grab().toImage()  # below the last row: the rail's empty background
        return image.pixelColor(image.width() // 2, image.height() - 4)

    try:
        assert background() == original.color(QPalette.ColorRole.Base)
        QApplication.setPalette(theme.dark_palette())
        qtbot.waitUntil(lambda: background() == QColor(30, 30, 32))
        assert rail.palette().color(QPalette.ColorRole.Text) == QColor(230, 230, 230)
        QApplication.setPalette(original)
        qtbot.waitUntil(lambda: background() == original.color(QPalette.ColorRole.Base))
    finally:
        QApplication.setPalette(original)

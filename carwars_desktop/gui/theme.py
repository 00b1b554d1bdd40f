"""The program's own colours, following the system theme (light or dark).

Qt's palette colours the widgets; the few colours the program adds (status words,
errors, muted notes, charts) come from here, as a light/dark pair chosen by the
palette in use, so that a dark system theme never leaves dark red on dark grey or
a white chart in a dark window. Colour never carries a meaning alone: each status
keeps its shape and its word (see :func:`carwars_desktop.gui.table.sheet_frame.flags_html`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtGui import QColor, QGuiApplication, QPalette, QPen

from carwars_desktop.rules.play import Level

# (on a light background, on a dark one): each pair reads at WCAG AA (4.5:1) or better
# on the Window and Base colours of common light and dark palettes.
_LEVELS: dict[Level, tuple[str, str]] = {
    Level.INFO: ("#1d4f91", "#8ab4f8"),
    Level.WARNING: ("#8a5300", "#f2b64c"),
    Level.DANGER: ("#a11919", "#ff8a80"),
}
_SUCCESS = ("#1e6ebe", "#5aa9f0")
_SERIES_LIGHT = ((31, 119, 180), (214, 39, 40), (44, 160, 44), (148, 103, 189), (140, 86, 75),
                 (23, 190, 207), (188, 189, 34), (127, 127, 127), (227, 119, 194),
                 (255, 127, 14), (0, 0, 0), (100, 100, 220))


def palette() -> QPalette:
    return QGuiApplication.palette()


def is_dark(colours: QPalette | None = None) -> bool:
    """The palette draws light text on a dark window."""
    colours = colours or palette()
    window = colours.color(QPalette.ColorRole.Window)
    text = colours.color(QPalette.ColorRole.WindowText)
    return window.lightnessF() < text.lightnessF()


def _pick(pair: tuple[str, str], colours: QPalette | None = None) -> str:
    return pair[1] if is_dark(colours) else pair[0]


def level_colour(level: Level, colours: QPalette | None = None) -> str:
    """The colour of a status word of this level (``#rrggbb``)."""
    return _pick(_LEVELS[level], colours)


def error_colour(colours: QPalette | None = None) -> str:
    """The colour of an error message."""
    return level_colour(Level.DANGER, colours)


def muted_colour(colours: QPalette | None = None) -> str:
    """Secondary text (a rule cited, a phase already played): between text and window."""
    colours = colours or palette()
    text = colours.color(QPalette.ColorRole.WindowText)
    window = colours.color(QPalette.ColorRole.Window)
    mixed = QColor.fromRgbF(0.62 * text.redF() + 0.38 * window.redF(),
                            0.62 * text.greenF() + 0.38 * window.greenF(),
                            0.62 * text.blueF() + 0.38 * window.blueF())
    return mixed.name()


@dataclass(frozen=True)
class ChartColours:
    """What a chart is drawn with."""

    background: QColor
    foreground: QColor
    success: QColor
    failure: QColor
    failure_fill: QColor
    series: tuple[QColor, ...]
    ink: QColor
    """Grey bars and lines that are not a series (damage bars, the expected line)."""


def chart_colours(colours: QPalette | None = None) -> ChartColours:
    colours = colours or palette()
    dark = is_dark(colours)
    background = colours.color(QPalette.ColorRole.Base)
    foreground = colours.color(QPalette.ColorRole.Text)
    failure = QColor(150, 150, 150) if not dark else QColor(170, 170, 170)
    failure_fill = background.darker(106) if not dark else background.lighter(160)
    series = tuple(QColor(*rgb) for rgb in _SERIES_LIGHT)
    if dark:
        # The same hues, lighter; black becomes the text colour.
        series = tuple(foreground if c == QColor(0, 0, 0) else c.lighter(135) for c in series)
    ink = QColor(200, 200, 200) if dark else QColor(70, 70, 70)
    return ChartColours(background, foreground, QColor(_pick(_SUCCESS, colours)), failure,
                        failure_fill, series, ink)


def style_plot(plot: Any, colours: ChartColours | None = None) -> None:
    """Give a pyqtgraph PlotWidget the theme's background, axes and title colours."""
    colours = colours or chart_colours()
    plot.setBackground(colours.background)
    for name in ("left", "bottom"):
        axis = plot.getAxis(name)
        axis.setPen(QPen(colours.foreground))
        axis.setTextPen(QPen(colours.foreground))
    title = plot.plotItem.titleLabel
    if title is not None and title.text:
        plot.setTitle(title.text, color=colours.foreground)
    legend = plot.plotItem.legend
    if legend is not None:
        legend.setLabelTextColor(colours.foreground)


def contrast(first: QColor | str, second: QColor | str) -> float:
    """The WCAG contrast ratio of two colours (1 to 21)."""

    def luminance(colour: QColor) -> float:
        def channel(value: float) -> float:
            return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4

        r, g, b = channel(colour.redF()), channel(colour.greenF()), channel(colour.blueF())
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    a, b = sorted((luminance(QColor(first)), luminance(QColor(second))), reverse=True)
    return (a + 0.05) / (b + 0.05)


def dark_palette() -> QPalette:
    """A dark palette (as a dark system theme gives), for screenshots and tests."""
    p = QPalette()
    window, base, text = QColor(45, 45, 48), QColor(30, 30, 32), QColor(230, 230, 230)
    for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive):
        p.setColor(group, QPalette.ColorRole.Window, window)
        p.setColor(group, QPalette.ColorRole.WindowText, text)
        p.setColor(group, QPalette.ColorRole.Base, base)
        p.setColor(group, QPalette.ColorRole.AlternateBase, QColor(40, 40, 43))
        p.setColor(group, QPalette.ColorRole.Text, text)
        p.setColor(group, QPalette.ColorRole.Button, QColor(55, 55, 58))
        p.setColor(group, QPalette.ColorRole.ButtonText, text)
        p.setColor(group, QPalette.ColorRole.ToolTipBase, QColor(60, 60, 64))
        p.setColor(group, QPalette.ColorRole.ToolTipText, text)
        p.setColor(group, QPalette.ColorRole.PlaceholderText, QColor(150, 150, 150))
        p.setColor(group, QPalette.ColorRole.Highlight, QColor(42, 110, 187))
        p.setColor(group, QPalette.ColorRole.HighlightedText, QColor(255, 255, 255))
        p.setColor(group, QPalette.ColorRole.Link, QColor(138, 180, 248))
        p.setColor(group, QPalette.ColorRole.Light, QColor(80, 80, 84))
        p.setColor(group, QPalette.ColorRole.Midlight, QColor(65, 65, 68))
        p.setColor(group, QPalette.ColorRole.Mid, QColor(95, 95, 100))
        p.setColor(group, QPalette.ColorRole.Dark, QColor(140, 140, 145))
        p.setColor(group, QPalette.ColorRole.Shadow, QColor(0, 0, 0))
        p.setColor(group, QPalette.ColorRole.BrightText, QColor(255, 120, 120))
    disabled = QColor(125, 125, 125)
    for role in (QPalette.ColorRole.WindowText, QPalette.ColorRole.Text,
                 QPalette.ColorRole.ButtonText):
        p.setColor(QPalette.ColorGroup.Disabled, role, disabled)
    for role in (QPalette.ColorRole.Window, QPalette.ColorRole.Base, QPalette.ColorRole.Button):
        p.setColor(QPalette.ColorGroup.Disabled, role, p.color(QPalette.ColorGroup.Active, role))
    return p

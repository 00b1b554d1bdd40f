"""The main window's size, place and docks, kept between runs (QSettings).

The first window fits the screen it opens on (a 1366×768 laptop gets a window no taller
than its available area); a remembered geometry is used only while it still fits a
screen, so a window saved on a big monitor comes back inside a smaller one.
"""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QRect, QSettings, QSize
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QMainWindow

GEOMETRY_KEY = "window/geometry"
TABLE_DOCKS_KEY = "window/table-docks"
PREFERRED = QSize(1280, 800)
FRAME = QSize(16, 48)
"""Room for the window manager's frame and title bar around the client area."""


def available() -> QRect:
    screen = QGuiApplication.primaryScreen()
    return screen.availableGeometry() if screen is not None else QRect(0, 0, 1280, 800)


def fits_a_screen(rect: QRect) -> bool:
    """``rect`` lies wholly inside the available area of some screen."""
    return any(screen.availableGeometry().contains(rect)
               for screen in QGuiApplication.screens())


def fit_to_screen(window: QMainWindow, area: QRect | None = None) -> None:
    """The preferred size, shrunk to fit ``area`` (the primary screen's available area), and
    centred in it."""
    area = area if area is not None else available()
    room = area.size() - FRAME
    size = QSize(min(PREFERRED.width(), room.width()), min(PREFERRED.height(), room.height()))
    window.resize(size)
    left = area.x() + max(0, (area.width() - size.width() - FRAME.width()) // 2)
    top = area.y() + max(0, (area.height() - size.height() - FRAME.height()) // 2)
    window.move(left, top)


def restore(window: QMainWindow, settings: QSettings) -> bool:
    """The remembered geometry if there is one and it fits a screen (else the first-run size);
    True when the remembered one was used."""
    saved = settings.value(GEOMETRY_KEY)
    restored = (isinstance(saved, QByteArray) and not saved.isEmpty()
                and window.restoreGeometry(saved))
    if restored and (window.isMaximized() or window.isFullScreen()
                     or fits_a_screen(window.geometry())):
        return True
    fit_to_screen(window)
    return False


def save(window: QMainWindow, settings: QSettings, table_docks: QByteArray | None) -> None:
    settings.setValue(GEOMETRY_KEY, window.saveGeometry())
    if table_docks is not None:
        settings.setValue(TABLE_DOCKS_KEY, table_docks)
    settings.sync()


def restore_docks(view: QMainWindow, settings: QSettings) -> bool:
    """The Table's docks (Clock, session log) as they were left."""
    saved = settings.value(TABLE_DOCKS_KEY)
    return isinstance(saved, QByteArray) and not saved.isEmpty() and view.restoreState(saved)

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings

from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.storage import Database, open_database


@pytest.fixture
def settings(tmp_path: Path) -> QSettings:
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def database(sqlite_url: str) -> Iterator[Database]:
    database = open_database(sqlite_url)
    yield database
    database.close()


@pytest.fixture
def window(qtbot, settings: QSettings, sqlite_url: str) -> Iterator[MainWindow]:  # type: ignore[no-untyped-def]
    window = MainWindow(db_url_hint=sqlite_url, interactive=False, settings=settings)
    qtbot.addWidget(window)
    window.show()
    assert window.finish_startup()
    yield window
    window.shutdown()


@pytest.fixture(autouse=True)
def _collect_qt_garbage() -> Iterator[None]:
    """Collect each GUI test's garbage on the main thread when it ends.

    A window a test closed can stay in a reference cycle; left to the cyclic collector, it
    may be freed later on whatever thread allocates, a worker included (the import and odds
    workers of gui/background.py), and Qt aborts when widgets die off the GUI thread.
    """
    yield
    import gc

    gc.collect()

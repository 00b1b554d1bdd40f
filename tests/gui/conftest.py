from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings
from sqlalchemy import event

from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.storage import Database


@pytest.fixture
def settings(tmp_path: Path) -> QSettings:
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def window(qtbot, settings: QSettings, sqlite_url: str) -> Iterator[MainWindow]:  # type: ignore[no-untyped-def]
    window = MainWindow(db_url_hint=sqlite_url, interactive=False, settings=settings)
    qtbot.addWidget(window)
    window.show()
    assert window.finish_startup()
    yield window
    window.shutdown()


class ReadOnlySwitch:
    """Turns the open database read-only mid-evening (as when a share's permissions
    change or a disk is remounted read-only) and writable again.

    Every new SQLite connection gets ``PRAGMA query_only``, so each write fails with
    SQLite's own "attempt to write a readonly database"; reads go on working.
    """

    def __init__(self, database: Database) -> None:
        self.engine = database.engine

    @staticmethod
    def _query_only(dbapi_connection: Any, _record: object) -> None:
        dbapi_connection.execute("PRAGMA query_only = ON")

    def read_only(self) -> None:
        event.listen(self.engine, "connect", self._query_only)
        self.engine.dispose()

    def writable(self) -> None:
        event.remove(self.engine, "connect", self._query_only)
        self.engine.dispose()


@pytest.fixture
def switch(window: MainWindow) -> ReadOnlySwitch:
    assert window.database is not None
    return ReadOnlySwitch(window.database)


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
    # What survives (modules, caches, the QApplication) is moved out of later collections,
    # so that the next test's collection scans only what that test made: a full scan of
    # everything took 150–250 ms a test. Frozen objects are never collected, so never off
    # the GUI thread either (the app freezes its start-up objects alike: gui/background.py).
    gc.freeze()

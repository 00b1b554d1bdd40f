"""File › Back up database…, and the word given when an upgrade made a backup first."""

from __future__ import annotations

import shutil
from pathlib import Path

from PySide6.QtCore import QSettings

from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.storage import open_database

FIXTURE = Path(__file__).parents[1] / "fixtures" / "databases" / "schema_0002.sqlite3"


def test_back_up_database_from_the_file_menu(window: MainWindow, tmp_path: Path) -> None:
    titles = [a.text() for a in window.menuBar().actions()[0].menu().actions()]  # type: ignore[union-attr]
    assert "&Back up database…" in titles
    target = tmp_path / "tonight.sqlite3"
    assert window.back_up_database(str(target))
    assert f"Backed up to {target}" in window.statusBar().currentMessage()
    assert window.database is not None
    with open_database(str(target)) as copy:
        assert copy.library.count() == window.database.library.count() > 0
    assert not window.back_up_database(str(target))  # never over an existing file
    assert "Not backed up" in window.statusBar().currentMessage()


def test_an_upgrade_says_where_its_backup_is(qtbot, tmp_path: Path,  # type: ignore[no-untyped-def]
                                             settings: QSettings) -> None:
    path = tmp_path / "carwars.sqlite3"
    shutil.copyfile(FIXTURE, path)
    window = MainWindow(db_url_hint=str(path), interactive=False, settings=settings)
    qtbot.addWidget(window)
    window.show()
    assert window.finish_startup()
    try:
        message = window.statusBar().currentMessage()
        assert "a copy was made" in message and "carwars.sqlite3.bak-0002" in message
    finally:
        window.shutdown()

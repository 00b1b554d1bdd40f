from __future__ import annotations

import hashlib
from pathlib import Path

from PySide6.QtCore import QSettings

from carwars_desktop.gui.database_open import Choice
from carwars_desktop.gui.main_window import MainWindow

from .loop import settle


def test_rail_rulesets_and_database_label(window: MainWindow, sqlite_url: str) -> None:
    assert [w.title for w in window.workspaces] == ["Library", "Workshop", "Table", "Resolver",
                                                    "Dice", "Ledger"]
    assert window.ruleset() == "mini_car_wars"
    assert window.database is not None
    assert window._db_label.text().endswith("carwars.sqlite3")


def test_ruleset_choice_is_remembered(qtbot, settings: QSettings, sqlite_url: str) -> None:  # type: ignore[no-untyped-def]
    first = MainWindow(db_url_hint=sqlite_url, interactive=False, settings=settings)
    qtbot.addWidget(first)
    seen: list[str] = []
    first.ruleset_changed.connect(seen.append)
    first.build_workspaces()
    first.set_ruleset("battlecars")
    assert seen == ["battlecars"]
    assert all(w._ruleset == "battlecars" for w in first.workspaces)  # type: ignore[attr-defined]
    second = MainWindow(db_url_hint=sqlite_url, interactive=False, settings=settings)
    qtbot.addWidget(second)
    assert second.ruleset() == "battlecars"


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_bad_database_under_smoke_fails_and_keeps_file(qtbot, settings: QSettings,  # type: ignore[no-untyped-def]
                                                       tmp_path: Path, capsys) -> None:
    bad = tmp_path / "notes.sqlite3"
    bad.write_text("these are my notes, not a database\n" * 20)
    before = _digest(bad)
    window = MainWindow(db_url_hint=str(bad), interactive=False, settings=settings)
    qtbot.addWidget(window)
    assert window.finish_startup() is False
    assert _digest(bad) == before
    assert [p.name for p in tmp_path.iterdir()] == ["notes.sqlite3"]
    assert "is not a Carwars Desktop database" in capsys.readouterr().err


def test_bad_database_offers_a_new_one(qtbot, settings: QSettings, tmp_path: Path,  # type: ignore[no-untyped-def]
                                       monkeypatch) -> None:
    bad = tmp_path / "broken.sqlite3"
    bad.write_bytes(b"\x00garbage" * 100)
    before = _digest(bad)
    asked: list[str] = []

    def ask(self: MainWindow, error: Exception) -> tuple[Choice, str]:
        asked.append(str(error))
        return Choice.START_NEW, str(tmp_path / "fresh.sqlite3")

    monkeypatch.setattr("carwars_desktop.gui.main_window.ask_with_dialog", ask)
    window = MainWindow(db_url_hint=str(bad), interactive=True, settings=settings)
    qtbot.addWidget(window)
    assert window.finish_startup() is True
    assert len(asked) == 1
    assert _digest(bad) == before
    assert window._db_label.text().endswith("fresh.sqlite3")
    window.shutdown()


def test_workspace_shortcuts(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtCore import Qt

    for number, workspace in enumerate(window.workspaces, start=1):
        qtbot.keyClick(window, Qt.Key(Qt.Key.Key_0.value + number),
                       Qt.KeyboardModifier.ControlModifier)
        assert window.current_workspace() is workspace


def test_the_window_fits_a_1366_pixel_laptop_screen(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    """No workspace forces the window wider than the first window (1280 wide, which a
    1366×768 laptop shows whole with its frame): the Library's twelve buttons at the
    style's least width once made it 1,323 at least (1,409 under a window manager)."""
    from carwars_desktop.gui.workshop import LibraryWorkspace

    library = window.workspaces[0]
    assert isinstance(library, LibraryWorkspace) and window.database is not None
    window.database.library.install_catalog()
    library.refresh()
    library.restore_button.setVisible(True)  # shown when there are deleted designs
    for row in range(len(window.workspaces)):
        window._rail.setCurrentRow(row)
        settle()
    widest = {w.title: w.minimumSizeHint().width() for w in window.workspaces}
    assert window.minimumSizeHint().width() <= 1200, widest

"""Offline, every Library action says so (issue 31 §4): refused with the reason, in the one
banner's words, never silently with a traceback; Retry does it once the server answers."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QFrame

from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.workshop import LibraryWorkspace, WorkshopWorkspace
from carwars_desktop.gui.workshop.exchange_actions import Clash
from carwars_desktop.library import ExchangedDesign
from carwars_desktop.storage.club import ClubConnection

BANNERS = ("write-banner", "club-offline-banner")


@pytest.fixture
def club_window(qtbot: Any, tmp_path: Path, club: ClubConnection,
                club_password: str) -> Iterator[MainWindow]:
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(db_url_hint=club.url(club_password), interactive=False,
                        settings=settings)
    qtbot.addWidget(window)
    window.show()
    assert window.finish_startup()
    yield window
    window.shutdown()


def _library(window: MainWindow) -> LibraryWorkspace:
    library = next(w for w in window.workspaces if isinstance(w, LibraryWorkspace))
    library.confirm = lambda *_args: True  # type: ignore[method-assign]
    library.warn = lambda *_args: None  # type: ignore[method-assign]
    return library


def _actions(library: LibraryWorkspace, tmp_path: Path) -> dict[str, Callable[[], object]]:
    return {
        "copy to my designs": library.duplicate_selected,
        "rename": lambda: library.rename_selected("Offline name"),
        "tag": lambda: library.tag_selected("night, club"),
        "delete": lambda: library.delete_selected(confirmed=True),
        "restore": library.restore_last_deleted,
        "open": library.open_selected,
        "new design": library.new_design,
        "import": lambda: library.import_designs(str(tmp_path / "designs.cwd.json")),
        "export": lambda: library.export_selected(str(tmp_path / "out.cwd.json")),
        "PDF": lambda: library.export_pdf(str(tmp_path / "sheets.pdf")),
        "print": library.print_selected,
        "refresh": library.refresh,
    }


def test_each_library_action_offline_is_refused_in_words(
        qtbot: Any, tmp_path: Path, club_window: MainWindow, club_server: Any) -> None:
    window = club_window
    library = _library(window)
    window._rail.setCurrentRow(window.workspaces.index(library))
    own = library.service.duplicate(window.database.library.entries()[0].id,  # type: ignore[union-attr]
                                    initiator=None).record
    gone = library.service.duplicate(own.id, initiator=None).record
    library.refresh()
    library.select_ids([gone.id])
    assert library.delete_selected(confirmed=True)  # (Restore has one to restore)
    library.select_ids([own.id])
    assert library.selected_ids() == [own.id]
    assert library.export_selected(str(tmp_path / "designs.cwd.json"))  # one to import
    try:
        club_server.stop()
        for name, action in _actions(library, tmp_path).items():
            library.message.clear()
            result = action()  # never raises (pytest-qt fails on an uncaught one too)
            assert not result, name
            said = library.message.text()
            assert "not answering" in said, (name, said)
            assert "psycopg" not in said and "127.0.0.1" not in said, (name, said)
            assert "connection failed" not in said.lower(), (name, said)
            shown = [f for f in window.findChildren(QFrame)
                     if f.objectName() in BANNERS and f.isVisible()]
            assert shown == [window.offline_banner], name
            assert "The club server is not answering" in window.offline_banner.label.text()
            assert "library changes are refused" in window.offline_banner.label.text()
        # The Workshop's "Copy to my designs" on an open catalog design, too.
        workshop = next(w for w in window.workspaces if isinstance(w, WorkshopWorkspace))
        assert not workshop.copy_to_mine() or workshop.record is None
        club_server.start()
        asked: list[str] = []

        def ask(_parent: object, design: ExchangedDesign, _remaining: int
                ) -> tuple[Clash, bool]:
            asked.append(design.name)  # (a modal question would wait for no one)
            return Clash.KEEP_BOTH, True

        library.ask_clash = ask
        window.offline_banner.retry_button.click()  # the refused actions run again
        qtbot.waitUntil(lambda: not window.offline_banner.isVisible(), timeout=10_000)
        names = {e.name for e in window.database.library.entries()}  # type: ignore[union-attr]
        # Retry runs every refused action again, in order, each on the design selected
        # when it was refused, whatever the earlier retries selected: the copy is made, the
        # design renamed and tagged is that one (deleted, then restored), the new design
        # is made.
        assert "New vehicle" in names
        assert f"{own.name} (copy)" in names
        kept = window.database.library.get(own.id)  # type: ignore[union-attr]
        assert kept is not None and kept.name == "Offline name"
        assert kept.tags == ("night", "club")
    finally:
        club_server.start_if_stopped()


def test_retry_acts_on_the_designs_chosen_not_on_the_selection_then(
        qtbot: Any, tmp_path: Path, club_window: MainWindow, club_server: Any) -> None:
    """Offline, the GM renames, copies and deletes design A (each refused), then selects
    design B; once the server answers, Retry renames, copies and deletes A, B untouched."""
    window = club_window
    library = _library(window)
    window._rail.setCurrentRow(window.workspaces.index(library))
    database = window.database
    assert database is not None
    catalog = database.library.entries()[0].id
    a = library.service.rename(library.service.duplicate(catalog, initiator=None).record.id,
                               "Design A", initiator=None).record
    b = library.service.rename(library.service.duplicate(catalog, initiator=None).record.id,
                               "Design B", initiator=None).record
    library.refresh()
    try:
        club_server.stop()
        library.select_ids([a.id])
        assert not library.rename_selected("Renamed A")
        assert not library.duplicate_selected()
        assert not library.delete_selected(confirmed=True)
        assert window.offline_banner.isVisible()
        library.select_ids([b.id])
        assert library.selected_ids() == [b.id]
        club_server.start()
        window.offline_banner.retry_button.click()
        qtbot.waitUntil(lambda: not window.offline_banner.isVisible(), timeout=10_000)
    finally:
        club_server.start_if_stopped()
    live = {e.id: e.name for e in database.library.entries()}
    deleted = {e.id: e.name for e in database.library.entries(deleted=True)}
    assert deleted == {a.id: "Renamed A"}  # A renamed, then deleted
    assert live[b.id] == "Design B"  # B untouched
    assert "Renamed A (copy)" in live.values()  # the copy is A's
    assert not any(name.startswith("Design B (") for name in live.values())


def test_the_preview_is_read_off_the_gui_thread_and_says_when_the_server_is_away(
        qtbot: Any, club_window: MainWindow, club_server: Any) -> None:
    window = club_window
    library = _library(window)
    window._rail.setCurrentRow(window.workspaces.index(library))
    qtbot.waitUntil(lambda: library.model.rowCount() > 1)
    first, second = library.model.entries_at([0, 1])
    library.select_ids([first.id])
    qtbot.waitUntil(lambda: library.preview.pages > 0)
    assert first.name in library.detail.text()
    try:
        club_server.stop()
        library.select_ids([second.id])
        qtbot.waitUntil(lambda: "not answering" in library.preview._message, timeout=10_000)
        assert library.preview.pages == 0
        assert second.name in library.detail.text()
        assert window.offline_banner.isVisible()
        club_server.start()
        window.offline_banner.retry_button.click()  # read again
        qtbot.waitUntil(lambda: library.preview.pages > 0, timeout=10_000)
        assert "revision" in library.detail.text() or "read-only" in library.detail.text()
    finally:
        club_server.start_if_stopped()

"""The offline queue's window with a file on this laptop open: there is no club server and
nothing is ever queued, and it says so (it read "every entry reached the club server")."""

from __future__ import annotations

from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.queue_view import NO_SERVER


def test_a_local_file_has_no_club_server_and_no_queue(window: MainWindow) -> None:
    assert not window.club_link.has_server
    view = window.show_queue()
    text = view.heading.text()
    assert text == NO_SERVER
    assert "No club server" in text and "file on this laptop" in text
    assert "reached the club server" not in text
    assert view.list.count() == 0
    assert not view.apply_button.isEnabled() and not view.drop_button.isEnabled()
    view.close()

"""Test connection and Connect run off the GUI thread: a club server that accepts the
connection and never answers (up to the connect timeout) does not freeze the window.
The connection is tried on a worker, which the test sees, and the window answers a
posted event meanwhile (tests/gui/offload.py); nothing is timed."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings

from carwars_desktop.gui.club_connect import ClubSettings, ConnectDialog
from carwars_desktop.storage.credentials import PasswordStore

from .offload import Jobs, watch


@pytest.fixture
def silent_server() -> Iterator[int]:
    """A loopback port that completes the TCP handshake (the backlog) and never speaks."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(4)
    try:
        yield listener.getsockname()[1]
    finally:
        listener.close()


def test_a_server_that_never_answers_does_not_freeze_the_window(
        qtbot: Any, tmp_path: Path, silent_server: int, monkeypatch: pytest.MonkeyPatch) -> None:
    from carwars_desktop.storage import club

    monkeypatch.setattr(club, "CONNECT_TIMEOUT_S", 2)  # libpq waits at least 2 s
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    dialog = ConnectDialog(ClubSettings(settings), PasswordStore())
    qtbot.addWidget(dialog)
    dialog.host_edit.setText("127.0.0.1")
    dialog.port_box.setValue(silent_server)
    dialog.database_edit.setText("club")
    dialog.user_edit.setText("gm")
    dialog.password_edit.setText("secret")
    dialog.tls_box.setChecked(False)
    jobs = Jobs(monkeypatch)
    checked = watch(monkeypatch, club, "check_connection")
    assert not dialog.test_connection()  # the connect timeout, the loop turning
    # The old code waited on the GUI thread: no turn of the loop at all.
    assert (checked.on_gui, checked.on_workers) == ([], [1])
    jobs.assert_answered()
    assert dialog.result_label.text().startswith("⚠ ")
    assert dialog.database is None

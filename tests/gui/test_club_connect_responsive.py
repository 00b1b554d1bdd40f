"""Test connection and Connect run off the GUI thread: a club server that accepts the
connection and never answers (up to the connect timeout) does not freeze the window."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings, QTimer

from carwars_desktop.gui.club_connect import ClubSettings, ConnectDialog
from carwars_desktop.storage.credentials import PasswordStore

from .watchdog import watching


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
        qtbot: Any, tmp_path: Path, silent_server: int) -> None:
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    dialog = ConnectDialog(ClubSettings(settings), PasswordStore())
    qtbot.addWidget(dialog)
    dialog.host_edit.setText("127.0.0.1")
    dialog.port_box.setValue(silent_server)
    dialog.database_edit.setText("club")
    dialog.user_edit.setText("gm")
    dialog.password_edit.setText("secret")
    dialog.tls_box.setChecked(False)
    turns = []
    ticker = QTimer()
    ticker.setInterval(10)
    ticker.timeout.connect(lambda: turns.append(1))
    ticker.start()
    with watching() as dog:
        assert not dialog.test_connection()  # the 5 s connect timeout, the loop turning
    ticker.stop()
    assert dog.stalls == []
    assert turns  # the old code waited on the GUI thread: no turn of the loop at all
    assert dialog.result_label.text().startswith("⚠ ")
    assert dialog.database is None

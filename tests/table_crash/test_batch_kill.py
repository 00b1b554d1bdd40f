"""A declared fire batch survives a kill (#28 §1): a real child process declares two
shots with their dice at the Table and is killed with SIGKILL while the batch waits; the
app started again on the same database shows the batch as it was (the same shots, dice
and phase), and applying it leaves no declaration behind."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings

from carwars_desktop.storage.engine import sqlite_url_for_path

PLAYER = Path(__file__).with_name("batch_player.py")


def _declare_and_kill(url: str, settings: Path) -> dict[str, Any]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    child = subprocess.Popen([sys.executable, str(PLAYER), url, str(settings)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=env)
    assert child.stdout is not None and child.stderr is not None
    try:
        line = child.stdout.readline()
        assert line.startswith("declared "), child.stderr.read() if child.poll() else line
        child.send_signal(signal.SIGKILL)  # mid-batch: declared, shown, not applied
        child.wait(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait(timeout=60)
        child.stdout.close()
        child.stderr.close()
    assert child.returncode == -signal.SIGKILL
    shown: dict[str, Any] = json.loads(line.split(" ", 1)[1])
    return shown


@pytest.mark.slow  # crash recovery: the app started in a process of its own, killed, reopened
@pytest.mark.posix_signals
def test_a_declared_batch_is_shown_again_after_a_kill(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from carwars_desktop.gui.main_window import MainWindow
    from carwars_desktop.gui.table.batch_dialog import BatchDialog
    from carwars_desktop.rules.mini_car_wars import MiniSheet

    url = sqlite_url_for_path(tmp_path / "carwars.sqlite3")
    settings = tmp_path / "settings.ini"
    shown = _declare_and_kill(url, settings)
    assert [s["dice"] for s in shown["shots"]] == ["543", "6 6 2 2"]
    assert "2 shot(s) declared" in shown["message"]

    window = MainWindow(db_url_hint=url, interactive=False,
                        settings=QSettings(str(settings), QSettings.Format.IniFormat))
    qtbot.addWidget(window)
    window.show()
    try:
        assert window.finish_startup()
        table = window.table
        if table.session_id != shown["session"]:
            assert table.open_session(shown["session"])
        service = table.context.service
        qtbot.waitUntil(lambda: service.game is not None and not service.read_only,
                        timeout=20000)
        game = table.context.service.game
        assert game is not None
        assert (game.clock.turn, game.clock.phase_name) == (shown["turn"], shown["phase"])
        batch = table.keys.batch
        assert batch is not None
        assert [{"label": s.label, "dice": s.dice} for s in batch.shots] == shown["shots"]
        assert "declared before the app stopped" in table.play.message.text()
        dialog = table.keys.show_batch()  # B
        assert isinstance(dialog, BatchDialog) and dialog.isVisible()
        assert [e.text() for e in dialog.dice_edits] == ["543", "6 6 2 2"]
        assert [label.text().split("</b>")[0].split(". ", 1)[1] for label in dialog.labels] \
            == [s["label"] for s in shown["shots"]]
        assert all("need" in label.text() for label in dialog.labels)
        dialog.apply()
        assert dialog.error.text() == ""
        courier = game.sheet("v2")
        assert isinstance(courier, MiniSheet) and courier.armor.front < 30
        assert window.database is not None and table.session_id is not None
        events = window.database.game_sessions.events(table.session_id)
        assert events.declared_shots() == []  # gone with the batch's event
        last = events.last_active()
        assert last is not None and last.event.ends_batch
        assert not batch.shots
    finally:
        window.shutdown()

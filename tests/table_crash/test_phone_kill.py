"""The phones' requests survive a kill (issue 33): a real child process shares a session,
two phones send secret speeds over HTTP, the GM accepts Ann's (in, not revealed) and the
child is killed with SIGKILL while Bo's waits. The app started again on the same database
shows the queue as it was, the speed in, shares again on the same port with the same links
(tests/gui/test_phone_share_resume.py), and a retry of Bo's request after the restart is
answered "again" and queued never twice."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import IO, Any

import pytest
from PySide6.QtCore import QSettings

from carwars_desktop.storage.engine import sqlite_url_for_path

PLAYER = Path(__file__).with_name("phone_player.py")
WAIT_MS = 20_000


def _line(stream: IO[str], word: str, child: subprocess.Popen[str]) -> Any:
    line = stream.readline()
    assert line.startswith(word + " "), (line, child.stderr.read() if child.poll() and
                                         child.stderr else "")
    return json.loads(line.split(" ", 1)[1])


def _speed(key: str) -> dict[str, Any]:
    return {"key": key, "kind": "speed", "turn": 1, "phase": 0,
            "values": {"speed": 10, "reverse": False}}


@pytest.mark.posix_signals
def test_phone_request_queue_and_speeds_in_survive_a_sigkill(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from carwars_desktop.gui.main_window import MainWindow
    from carwars_desktop.services.phone_requests import RequestState
    from carwars_desktop.services.share_network import LOOPBACK
    from tests.gui.test_phone_request_writes import _page, _post

    url = sqlite_url_for_path(tmp_path / "carwars.sqlite3")
    settings = tmp_path / "settings.ini"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    child = subprocess.Popen([sys.executable, str(PLAYER), url, str(settings)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=env)
    assert child.stdout is not None and child.stderr is not None
    try:
        seats = _line(child.stdout, "seats", child)
        assert _post(seats["v1"], _speed("kill-ann-01"), _page(seats["v1"]))[0] == 202
        assert _line(child.stdout, "queue", child) == [["v1", "kill-ann-01", "in"]]
        assert _post(seats["v2"], _speed("kill-bo-001"), _page(seats["v2"]))[0] == 202
        shown = _line(child.stdout, "queue", child)
        assert shown == [["v1", "kill-ann-01", "in"], ["v2", "kill-bo-001", "waiting"]]
        child.send_signal(signal.SIGKILL)  # Bo's waits, Ann's is in: nothing revealed
        child.wait(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait(timeout=60)
        child.stdout.close()
        child.stderr.close()
    assert child.returncode == -signal.SIGKILL

    window = MainWindow(db_url_hint=url, interactive=False,
                        settings=QSettings(str(settings), QSettings.Format.IniFormat))
    qtbot.addWidget(window)
    window.show()
    try:
        assert window.finish_startup()
        table = window.table
        if table.session_id != seats["session"]:
            assert table.open_session(seats["session"])
        service = table.context.service
        qtbot.waitUntil(lambda: service.game is not None and not service.read_only,
                        timeout=WAIT_MS)
        desk = window.phone_sharing.desk
        qtbot.waitUntil(lambda: len(desk.requests) == 2, timeout=WAIT_MS)
        assert [[r.seat, r.key, r.state.value] for r in desk.requests] == shown
        assert desk.speeds_in() == (1, 3) and desk.waiting_for() == ["Bo", "Cy"]
        queue = window.phone_queue
        assert queue.texts() == ["Bo's phone: a secret speed (allowed by the rules)"]
        assert queue.speeds.text().startswith("1 of 3 speeds in")
        # Sharing resumes by itself: the same port, the same links (the phones reconnect).
        sharing = window.phone_sharing
        qtbot.waitUntil(lambda: sharing.sharing, timeout=WAIT_MS)
        links = {key: link for key, _name, link in sharing.seats()}
        assert links == {key: link for key, link in seats.items() if key != "session"}
        assert all(link.startswith(f"http://{LOOPBACK}:") for link in links.values())
        status, body = _post(links["v2"], _speed("kill-bo-001"), _page(links["v2"]))
        assert status == 200 and json.loads(body)["again"]  # a retry after the restart
        assert _post(links["v3"], _speed("kill-cy-001"), _page(links["v3"]))[0] == 202
        qtbot.waitUntil(lambda: len(desk.requests) == 3, timeout=WAIT_MS)  # Cy's only
        assert [r.key for r in desk.requests] == ["kill-ann-01", "kill-bo-001", "kill-cy-001"]
        assert desk.requests[0].state is RequestState.IN
    finally:
        window.shutdown()

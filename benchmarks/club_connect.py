"""File > Connect to a club database, against a server that never answers.

    .venv/bin/python benchmarks/club_connect.py [--quick]

Offscreen, in this process: a loopback port that completes the TCP handshake and never
speaks; the Connect dialog's Test connection tried on it (it waits for the connect
timeout, 5 s). The watchdog (benchmarks/gui_watchdog.py) reports the most the GUI thread
itself worked in one turn meanwhile, with pass or FAIL against the 100 ms goal
(tests/gui/test_club_connect_responsive.py asserts instead that the connection is tried
on a worker). Nothing is asserted. ``--quick``: the same, the connect timeout at libpq's
least (2 s), so that ./dev test keeps the benchmark working.
"""

from __future__ import annotations

import argparse
import os
import socket
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
_HOME = tempfile.mkdtemp(prefix="carwars-bench-club-")
os.environ["XDG_CONFIG_HOME"] = str(Path(_HOME) / "config")
os.environ["XDG_DATA_HOME"] = str(Path(_HOME) / "data")
sys.path.insert(0, str(Path(__file__).resolve().parent))

from gui_watchdog import watching  # noqa: E402
from PySide6.QtCore import QSettings  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from carwars_desktop.gui.club_connect import ClubSettings, ConnectDialog  # noqa: E402
from carwars_desktop.storage import club  # noqa: E402
from carwars_desktop.storage.credentials import PasswordStore  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="libpq's least connect timeout")
    arguments = parser.parse_args()
    if arguments.quick:
        club.CONNECT_TIMEOUT_S = 2
    app = QApplication(sys.argv[:1])
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(4)
    try:
        settings = QSettings(str(Path(_HOME) / "settings.ini"), QSettings.Format.IniFormat)
        dialog = ConnectDialog(ClubSettings(settings), PasswordStore())
        dialog.host_edit.setText("127.0.0.1")
        dialog.port_box.setValue(listener.getsockname()[1])
        dialog.database_edit.setText("club")
        dialog.user_edit.setText("gm")
        dialog.password_edit.setText("secret")
        dialog.tls_box.setChecked(False)
        dialog.show()
        app.processEvents()
        with watching() as dog:
            started = time.perf_counter()
            dialog.test_connection()
            took = time.perf_counter() - started
        print(f"Test connection to a server that never answers (connect timeout "
              f"{club.CONNECT_TIMEOUT_S} s): {took:.1f} s, {dialog.result_label.text()!r}")
        print(f"  {dog.verdict()}")
        dialog.close()
    finally:
        listener.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

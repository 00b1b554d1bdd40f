"""A child process for the evening tests: the real window on the database at argv[1]
(settings at argv[2]) resumes the running session argv[3] as the app does at start-up,
presses the keys of the JSON list argv[4] at the Table, prints ``shown`` and what its
window shows, and waits, as a GM's app would, to be killed."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402


def main() -> None:
    url, settings_path, session, keys = sys.argv[1:5]
    app = QApplication(sys.argv[:1])
    from harness import Keys, shown_state, wait_until

    from carwars_desktop.gui.main_window import MainWindow

    window = MainWindow(db_url_hint=url, interactive=False,
                        settings=QSettings(settings_path, QSettings.Format.IniFormat))
    window.show()
    assert window.finish_startup()
    table = window.table
    wait_until(lambda: table.context.service.game is not None and not table.opening
               and not table.context.service.read_only)
    assert table.session_id == int(session), "the last running session is resumed"
    window.activateWindow()
    wait_until(lambda: QApplication.activeWindow() is window)
    table.focus_default()
    Keys().press(*json.loads(keys))
    print("shown", json.dumps(shown_state(window)), flush=True)
    app.exec()  # waits for the kill


if __name__ == "__main__":
    here = Path(__file__).resolve().parent
    sys.path.insert(0, str(here))
    sys.path.insert(0, str(here.parents[2]))
    main()

"""A child process for ``test_phone_kill.py``: the real window on the database at argv[1],
a Mini Car Wars session of three started at the Table and shared on loopback. It prints
``seats {...}`` (each seat's link), then after each change of the GM's queue ``queue
[...]`` (each request's seat, key and state); the GM accepts what Ann's phone sends
(Enter in the queue), nothing else. It waits, as a GM's app would, to be killed."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402


def main() -> None:
    url, settings_path = sys.argv[1], sys.argv[2]
    app = QApplication(sys.argv[:1])
    from carwars_desktop.gui.main_window import MainWindow
    from carwars_desktop.rules import find_ruleset
    from carwars_desktop.services.share_network import LOOPBACK, Interface
    from carwars_desktop.session.setup import Entry, prepare

    window = MainWindow(db_url_hint=url, interactive=False,
                        settings=QSettings(settings_path, QSettings.Format.IniFormat))
    window.show()
    assert window.finish_startup()
    ruleset = find_ruleset("mini_car_wars")
    catalog = ruleset.catalog()
    entries = [Entry(player, name, catalog["Courier"].to_json())
               for player, name in (("Ann", "Red"), ("Bo", "Blue"), ("Cy", "Green"))]
    table = window.table
    table.start_session("mini_car_wars", "Phone night", "", prepare(ruleset, entries, ""))
    sharing = window.phone_sharing
    sharing.interfaces_of = lambda _allow: [Interface(LOOPBACK, LOOPBACK, True)]
    sharing.port = 0
    sharing.start(LOOPBACK)
    queue = window.phone_queue

    def changed() -> None:
        for row in range(queue.list.count()):
            queue.list.setCurrentRow(row)
            request = queue.selected()
            if request is not None and request.seat == "v1":
                queue.accept_selected()  # the GM's Enter
                return  # (the queue changed: this runs again)
        print("queue", json.dumps([[r.seat, r.key, r.state.value]
                                   for r in sharing.desk.requests]), flush=True)

    sharing.requests_changed.connect(changed)
    print("seats", json.dumps({"session": table.session_id,
                               **{key: link for key, _name, link in sharing.seats()}}),
          flush=True)
    app.exec()  # waits for the kill


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    main()

"""A child process for ``test_batch_kill.py``: the real window on the database at argv[1],
a Mini Car Wars session started at the Table, two shots declared into the phase's fire
batch through the Table's dialogs (the second one's dice typed in the batch window); it
prints ``declared`` once both are on screen and then waits, as a GM's app would, to be
killed."""

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
    from carwars_desktop.gui.table.procedure_dialog import ProcedureDialog
    from carwars_desktop.rules import find_ruleset
    from carwars_desktop.session.setup import Entry, prepare

    window = MainWindow(db_url_hint=url, interactive=False,
                        settings=QSettings(settings_path, QSettings.Format.IniFormat))
    window.show()
    assert window.finish_startup()
    ruleset = find_ruleset("mini_car_wars")
    catalog = ruleset.catalog()
    entries = [Entry("Ann", "Killer Kart", catalog["Killer Kart"].to_json()),
               Entry("Bo", "Courier", catalog["Courier"].to_json())]
    table = window.table
    table.start_session("mini_car_wars", "Batch night", "", prepare(ruleset, entries, ""))
    table.keys.select(1)
    dialog = table.keys.act("fire")  # 1 F: the Killer Kart's MG at the Courier
    assert isinstance(dialog, ProcedureDialog)
    for name, value in (("weapon", "1"), ("target", "v2"), ("range", "3"), ("side", "F")):
        dialog.form.set_value(name, value)  # typed in this order (#28 §3)
    dialog.dice_edit.setText("543")
    dialog.apply_default()  # Ctrl+Enter: into the batch (MCW fire is simultaneous)
    table.keys.select(2)
    dialog = table.keys.act("fire")  # 2 F: the Courier's rocket launcher at the Kart
    assert isinstance(dialog, ProcedureDialog)
    for name, value in (("weapon", "1"), ("target", "v1"), ("range", "2"), ("side", "F")):
        dialog.form.set_value(name, value)
    dialog.apply_default()
    batch = table.keys.show_batch()  # B, and the second shot's dice typed there
    assert batch is not None
    batch.dice_edits[1].setText("6 6 2 2")
    game = table.context.service.game
    assert game is not None and table.keys.batch is not None
    shown = [{"label": s.label, "dice": s.dice} for s in table.keys.batch.shots]
    print("declared", json.dumps({"session": table.session_id, "shots": shown,
                                  "turn": game.clock.turn, "phase": game.clock.phase_name,
                                  "message": table.play.message.text()}), flush=True)
    app.exec()  # waits for the kill


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    main()

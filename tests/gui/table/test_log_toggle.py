"""Ctrl+L (the Table's "show or hide the session log") brings the log to the front when
it is shown but behind the phones' requests in their tab group, instead of hiding it."""

from __future__ import annotations

from typing import Any

from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.rules.builtin import MINI_CAR_WARS


def test_ctrl_l_brings_a_log_hidden_behind_the_phones_panel_to_the_front(
        qtbot: Any, window: MainWindow, start_session: Any) -> None:
    table = start_session(MINI_CAR_WARS.id, [("Ann", "Courier"), ("Bob", "Killer Kart"),
                                              ("Cy", "Courier"), ("Di", "Killer Kart")])
    log, phones = table.play.log_dock, window.phone_queue
    qtbot.waitUntil(log.isVisible)
    phones.show()  # sharing started: its panel comes to the front of the tab group
    phones.raise_()
    qtbot.waitUntil(lambda: log.visibleRegion().isEmpty())
    table.toggle_log()
    qtbot.waitUntil(lambda: not log.visibleRegion().isEmpty())
    assert log.isVisible() and table.play.log_action.isChecked()
    table.toggle_log()  # in front: Ctrl+L hides it, as before
    qtbot.waitUntil(lambda: not log.isVisible())
    table.toggle_log()
    qtbot.waitUntil(lambda: log.isVisible() and not log.visibleRegion().isEmpty())

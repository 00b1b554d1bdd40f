"""A design illegal under the session's house rules plays, and the GM's sheets say so
(#28 §2): the big sheet says why, the compact sheet flags it; a house-rules change that
allows it takes the warning away (and undoing that change puts it back)."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QApplication

from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.table import TableWorkspace
from carwars_desktop.rules import find_ruleset
from carwars_desktop.rules.mini_car_wars import MiniDesign, PersonKit
from carwars_desktop.session.house_rules import HouseRules
from carwars_desktop.session.setup import Entry, prepare

from ..readable import unreadable

WHY = "⚠ Killer Kart is illegal under this session's house rules: The driver has 2 computers"


def _start(window: MainWindow) -> TableWorkspace:
    ruleset = find_ruleset("mini_car_wars")
    catalog = ruleset.catalog()
    kart = MiniDesign.stock_design("killer_kart", driver=PersonKit(1, 1, False))
    entries = [Entry("Ann", "Killer Kart", kart.to_json())] + [
        Entry(player, "Courier", catalog["Courier"].to_json()) for player in ("Bo", "Cy", "Di")]
    table = window.table
    window._rail.setCurrentRow(window.workspaces.index(table))
    table.start_session("mini_car_wars", "Night", "", prepare(ruleset, entries), None)
    return table


def test_the_gms_sheets_show_an_illegal_design(window: MainWindow, qtbot: Any) -> None:
    window.show()
    qtbot.waitExposed(window)
    window.resize(1366, 720)
    table = _start(window)
    play = table.play
    kart, courier = play.sheets["v1"], play.sheets["v2"]
    assert kart.illegal_text().startswith(WHY) and "MCW-D22" in kart.illegal_text()
    assert courier.illegal_text() == ""
    grid = play.grid
    qtbot.waitUntil(lambda: grid.compact)
    cards = {card.key: card for card in grid.cards}
    assert cards["v1"].illegal.isVisibleTo(cards["v1"])
    assert "illegal" in cards["v1"].illegal.text()
    assert "MCW-D22" in cards["v1"].illegal.toolTip()
    assert not cards["v2"].illegal.isVisibleTo(cards["v2"])
    QApplication.processEvents()
    assert unreadable(kart) == [] and unreadable(cards["v1"]) == []  # whole, at 1366×768

    table.context.service.change_house_rules(HouseRules("Stacking", {"MCW-D22": False}))
    assert kart.illegal_text() == ""
    assert not cards["v1"].illegal.isVisibleTo(cards["v1"])
    table.context.service.undo()
    assert kart.illegal_text().startswith(WHY)
    assert cards["v1"].illegal.isVisibleTo(cards["v1"])

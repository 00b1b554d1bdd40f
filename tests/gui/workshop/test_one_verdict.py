"""One verdict per design (issue 34 §2): the Workshop's header and its problem panel say
the same thing under the running session's house rules."""

from __future__ import annotations

from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.table.new_session import NewSessionDialog
from carwars_desktop.gui.table.workspace import TableWorkspace
from carwars_desktop.rules import find_ruleset
from carwars_desktop.rules.mini_car_wars import MiniDesign, PersonKit
from carwars_desktop.services.house_rules import HouseRulesService
from carwars_desktop.session.house_rules import HouseRules
from carwars_desktop.storage import NewDesign

MCW = "mini_car_wars"
AP = "autopower"


def _start(window: MainWindow, qtbot, ruleset_id: str, rules: HouseRules | None,  # type: ignore[no-untyped-def]
           players: dict[str, str]) -> None:
    assert window.database is not None
    dialog = NewSessionDialog(window.database, ruleset_id)
    qtbot.addWidget(dialog)
    for row, (player, vehicle) in enumerate(players.items()):
        dialog.set_player(row, player, vehicle)
    dialog.accept()
    assert dialog.result_setup is not None and dialog.result_rules is not None
    table = next(w for w in window.workspaces if isinstance(w, TableWorkspace))
    table.start_session(ruleset_id, "Club night", "", dialog.result_setup,
                        rules or dialog.result_rules)


def _panel_problems(window: MainWindow) -> int:
    return window.workshop.problems.model.counts()[0]


def test_header_and_panel_agree_under_mcw_d22_off(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    assert window.database is not None
    stacked = MiniDesign.stock_design("killer_kart", name="Two computers",
                                      driver=PersonKit(1, 1, False))
    design_id = window.services.library.add(NewDesign(MCW, stacked.to_json())).record.id
    window.workshop.open_design(design_id)
    assert window.workshop.state_label.text() == "⚠ draft · 1 problem"
    assert _panel_problems(window) == 1
    HouseRulesService(window.database).create(MCW, "Stacking", {"MCW-D22": False})
    _start(window, qtbot, MCW, HouseRules("Stacking", {"MCW-D22": False}),
           {"Ann": "Courier", "Bob": "Shogun 100"})
    assert _panel_problems(window) == 0  # the open design follows the session at once
    assert window.workshop.state_label.text() == "✔ legal"
    window.workshop.open_design(design_id)
    assert _panel_problems(window) == 0
    assert window.workshop.state_label.text() == "✔ legal"
    assert window.workshop.verdict().legal


def test_header_and_panel_agree_in_a_division_15_session(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    darkseid = find_ruleset(AP).catalog()["Darkseid"]
    design_id = window.services.library.add(NewDesign(AP, darkseid.to_json())).record.id
    window.workshop.open_design(design_id)
    assert window.workshop.state_label.text() == "✔ legal"
    assert _panel_problems(window) == 0
    _start(window, qtbot, AP, HouseRules("Division 15", {"AP-division": 15}),
           {"Ann": "Darkseid", "Bob": "Darkseid"})
    window.workshop.open_design(design_id)
    assert _panel_problems(window) == 1
    assert window.workshop.state_label.text() == "⚠ draft · 1 problem"

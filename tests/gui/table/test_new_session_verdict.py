"""New Session judges the vehicles under the house rules chosen (issue 34 §2): the verdict
the Workshop and ``design check`` give."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox

from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.table.new_session import NewSessionDialog
from carwars_desktop.rules.mini_car_wars import MiniDesign, PersonKit
from carwars_desktop.services.house_rules import HouseRulesService
from carwars_desktop.storage import NewDesign


def _labels(dialog: NewSessionDialog) -> list[str]:
    combo = dialog.players.cellWidget(0, 1)
    assert isinstance(combo, QComboBox)
    assert [combo.itemText(i) for i in range(combo.count())] == [c.label for c in dialog.choices]
    return [combo.itemText(i) for i in range(combo.count())]


def test_new_session_judges_designs_under_the_profile_chosen(
        window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    assert window.database is not None
    stacked = MiniDesign.stock_design("killer_kart", name="Two computers",
                                      driver=PersonKit(1, 1, False))
    window.services.library.add(NewDesign("mini_car_wars", stacked.to_json()))
    HouseRulesService(window.database).create("mini_car_wars", "Stacking", {"MCW-D22": False})
    HouseRulesService(window.database).create("autopower", "Division 15", {"AP-division": 15})
    dialog = NewSessionDialog(window.database, "mini_car_wars")
    qtbot.addWidget(dialog)
    assert "Two computers (library — has problems)" in _labels(dialog)
    dialog.choose_profile("Stacking")
    assert "Two computers (library)" in _labels(dialog)
    dialog.ruleset_box.setCurrentIndex(dialog.ruleset_box.findData("autopower"))
    assert "Darkseid (rules)" in _labels(dialog)
    dialog.choose_profile("Division 15")
    assert "Darkseid (rules — has problems)" in _labels(dialog)


def test_new_session_refuses_a_car_above_the_duels_division(
        window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    """AUTOpower §2.2 step 1 / AP-D2: a Division 15 duel does not start with Darkseid
    (total 18); the dialog stays open and says why, as for an illegal Battlecars card."""
    assert window.database is not None
    HouseRulesService(window.database).create("autopower", "Division 15", {"AP-division": 15})
    dialog = NewSessionDialog(window.database, "autopower")
    qtbot.addWidget(dialog)
    dialog.choose_profile("Division 15")
    dialog.set_player(0, "Ann", "Darkseid")
    dialog.set_player(1, "Bo", "Darkseid")
    dialog.accept()
    assert dialog.result() != NewSessionDialog.DialogCode.Accepted
    assert "Darkseid cannot enter play: Total 18 is above 15" in dialog.error.text()

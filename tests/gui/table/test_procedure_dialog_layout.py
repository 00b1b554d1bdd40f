"""A Table dialog keeps its fields in place while the odds and the errors change."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication, QComboBox

from carwars_desktop.gui.table.procedure_dialog import ProcedureDialog
from carwars_desktop.rules import find_procedure, find_ruleset
from carwars_desktop.session import Clock, Game, MemoryEventStore, VehicleInPlay


def _battlecars_game() -> Game:
    ruleset = find_ruleset("battlecars")
    card = next(iter(ruleset.catalog().values()))
    vehicles = []
    for n in (1, 2):
        design = card.to_json()
        design["name"] = f"Car {n}"
        vehicles.append(VehicleInPlay(f"v{n}", design["name"], "", design))
    sheets = {v.key: ruleset.sheet_for_design(ruleset.design_from_json(v.design))
              for v in vehicles}
    return Game(ruleset, vehicles, sheets, Clock.start("battlecars", ["Car 1", "Car 2"]),
                MemoryEventStore())


def test_battlecars_fire_fields_stay_put_when_an_area_is_chosen(qtbot) -> None:  # type: ignore[no-untyped-def]
    dialog = ProcedureDialog(find_procedure("battlecars.fire"), _battlecars_game(),
                             {"firer": "v1"})
    qtbot.addWidget(dialog)
    dialog.show()

    def places() -> dict[str, tuple[bool, bool, int, int]]:
        QApplication.processEvents()  # the layout is redone on the next turn of the loop
        return {name: (editor.isVisible(), editor.isEnabled(),
                       editor.mapTo(dialog, editor.rect().topLeft()).y(), editor.height())
                for name, editor in dialog.form.editors.items()}

    mount, area = dialog.form.editors["mount"], dialog.form.editors["area"]
    assert isinstance(mount, QComboBox) and isinstance(area, QComboBox)
    before = places()
    error_before = dialog.error.text()
    mount.setCurrentIndex(1)
    area.setCurrentIndex(area.findData("left-front"))  # refused from ahead: an error line
    assert dialog.error.text() and dialog.error.text() != error_before
    assert places() == before
    area.setCurrentIndex(area.findData("front"))  # fits: the long odds line instead
    assert dialog.error.text() == "" and dialog.odds_label.text()
    assert places() == before

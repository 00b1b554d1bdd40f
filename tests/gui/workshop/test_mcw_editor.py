"""The Mini Car Wars editor driven like a GM: stock, option, accessories, armor, budget."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.plugins.mini_car_wars.editor import MiniEditor
from carwars_desktop.gui.workshop import WorkshopWorkspace
from carwars_desktop.rules.mini_car_wars import MiniDesign
from carwars_desktop.rules.mini_car_wars.model import Role, Side
from carwars_desktop.storage import open_database


def _problems(workshop: WorkshopWorkspace) -> list[str]:
    model = workshop.problems.model
    return [model.problem(row).code for row in range(model.rowCount())]


def _new_mini(workshop: WorkshopWorkspace) -> MiniEditor:
    assert workshop.new_design("mini_car_wars")
    editor = workshop.editor
    assert isinstance(editor, MiniEditor)
    return editor


def _choose(box, data) -> None:  # type: ignore[no-untyped-def]
    box.setCurrentIndex(box.findData(data))
    box.activated.emit(box.currentIndex())


def test_stock_option_and_accessories_update_the_cost(workshop: WorkshopWorkspace) -> None:
    editor = _new_mini(workshop)
    assert editor.cost_labels["total"].text() == "<b>$3,750</b>"
    _choose(editor.stock_box, "courier")
    assert editor.cost_labels["total"].text() == "<b>$13,000</b>"
    assert "RL (F)" in editor.facts.text() and "driver and gunner" in editor.facts.text()
    _choose(editor.option_box, "a")
    assert editor.cost_labels["option"].text() == "−$950"
    assert "smokescreen" in editor.option_text.text()
    _choose(editor.option_box, "b")
    assert editor.cost_labels["option"].text() == "+$10,200"
    _choose(editor.option_box, "a")
    editor.kit[(Role.DRIVER, "targeting_computers")].setValue(1)
    editor.body_armor[Role.GUNNER].setChecked(True)
    assert editor.cost_labels["driver"].text() == "$1,000"
    assert editor.cost_labels["total"].text() == "<b>$13,300</b>"
    assert workshop.state_label.text() == "✔ legal"
    editor.kit[(Role.DRIVER, "hi_res_computers")].setValue(1)
    assert _problems(workshop) == ["computers"]
    assert workshop.state_label.text() == "⚠ draft · 1 problem"


def test_armor_points_move_between_sides(workshop: WorkshopWorkspace, qtbot) -> None:  # type: ignore[no-untyped-def]
    editor = _new_mini(workshop)
    _choose(editor.stock_box, "courier")
    front = editor.armor.spin(Side.FRONT)
    front.setFocus()
    qtbot.keyClick(front, Qt.Key.Key_Left, Qt.KeyboardModifier.AltModifier)
    design = workshop.design
    assert isinstance(design, MiniDesign)
    assert (design.armor.front, design.armor.left, design.armor.total) == (25, 25, 95)
    editor.armor.sides[Side.LEFT].dropped.emit(Side.BACK, Side.LEFT, True)
    assert workshop.design.armor.back == 24  # type: ignore[attr-defined]
    assert workshop.design.armor.left == 26  # type: ignore[attr-defined]
    assert "✔ all placed" in editor.armor.placed.text()
    assert editor.armor.sides[Side.LEFT].strip.count == 26
    front.setValue(20)
    assert _problems(workshop) == ["armor-total"]
    assert "⚠ 5 still to place" in editor.armor.placed.text()


def test_a_problem_click_focuses_its_field(workshop: WorkshopWorkspace, window: MainWindow) -> None:
    editor = _new_mini(workshop)
    editor.armor.spin(Side.RIGHT).setValue(0)
    workshop.name_edit.setText("")
    workshop._name_edited("")
    assert set(_problems(workshop)) == {"name-missing", "armor-total"}
    window.activateWindow()
    for row in range(workshop.problems.model.rowCount()):
        workshop.problems.view.clicked.emit(workshop.problems.model.index(row, 0))
        focused = QApplication.focusWidget()
        if workshop.problems.model.problem(row).code == "name-missing":
            assert focused is workshop.name_edit
        else:
            assert focused is editor.armor.spin(Side.FRONT)


def test_a_budget_warns_without_making_the_design_illegal(workshop: WorkshopWorkspace) -> None:
    editor = _new_mini(workshop)
    _choose(editor.stock_box, "courier")
    editor.budget_menu.setCurrentIndex(editor.budget_menu.findData(10_000))
    editor.budget_menu.activated.emit(editor.budget_menu.currentIndex())
    assert editor.budget.value() == 10_000
    assert editor.cost_labels["left"].text() == "−$3,000 ⚠ over budget"
    model = workshop.problems.model
    assert model.counts() == (0, 1) and model.problem(0).code == "over-budget"
    assert workshop.state_label.text() == "✔ legal"
    editor.budget.setValue(15_000)
    assert model.counts() == (0, 0)


def test_save_reopen_and_undo(workshop: WorkshopWorkspace, window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    editor = _new_mini(workshop)
    record_id = workshop.record.id  # type: ignore[union-attr]
    qtbot.keyClicks(workshop.name_edit, "Kart Mk II")
    _choose(editor.stock_box, "shogun_220")
    editor.armor.spin(Side.FRONT).setValue(25)
    assert _problems(workshop) == ["armor-total"]
    assert workshop.save()
    assert "a draft: 1 problem" in workshop.message.text()
    workshop.close_design()
    assert workshop.open_design(record_id)
    design = workshop.design
    assert isinstance(design, MiniDesign)
    assert (design.name, design.stock, design.armor.front) == ("Kart Mk II", "shogun_220", 25)
    assert workshop.record.revision == 2 and not workshop.record.legal  # type: ignore[union-attr]
    assert workshop.editor is editor and editor.armor.spin(Side.FRONT).value() == 25
    # Undo works from inside a field too: Ctrl+Z is the design's, not the spin box's.
    editor.armor.spin(Side.FRONT).setValue(20)
    editor.armor.spin(Side.FRONT).setFocus()
    qtbot.keyClick(editor.armor.spin(Side.FRONT), Qt.Key.Key_Z,
                   Qt.KeyboardModifier.ControlModifier)
    assert workshop.design.armor.front == 25  # type: ignore[attr-defined]
    assert editor.armor.spin(Side.FRONT).value() == 25
    qtbot.keyClick(editor.armor.spin(Side.FRONT), Qt.Key.Key_Z,
                   Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert workshop.design.armor.front == 20  # type: ignore[attr-defined]
    workshop.undo()
    assert "Undone: Front armor 20" in workshop.message.text()


def test_typing_a_name_is_one_undo_step(workshop: WorkshopWorkspace, qtbot) -> None:  # type: ignore[no-untyped-def]
    _new_mini(workshop)
    workshop.name_edit.selectAll()
    qtbot.keyClicks(workshop.name_edit, "Rust Bucket")
    assert workshop.design.name == "Rust Bucket"  # type: ignore[union-attr]
    assert workshop.undo_stack.count() == 1
    qtbot.keyClick(workshop.name_edit, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert workshop.design.name == "New vehicle"  # type: ignore[union-attr]
    assert workshop.name_edit.text() == "New vehicle"


def test_every_edit_is_committed_before_it_is_shown(workshop: WorkshopWorkspace,
                                                    window: MainWindow) -> None:
    editor = _new_mini(workshop)
    record_id = workshop.record.id  # type: ignore[union-attr]
    _choose(editor.stock_box, "rocket_special")
    editor.armor.spin(Side.TOP).setValue(10)
    assert window.database is not None
    with open_database(window.database.url) as other:  # another connection: what is on disk
        stored = other.library.get(record_id)
    assert stored.working is not None
    assert MiniDesign.from_json(stored.working) == workshop.design
    assert stored.data["stock"] == "killer_kart"  # the saved revision is untouched
    workshop.close_design()
    assert workshop.open_design(record_id)
    assert "unsaved changes from last time restored" in workshop.message.text()
    assert workshop.design == MiniDesign.from_json(stored.working)

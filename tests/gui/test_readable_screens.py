"""Every screen at the edges reads whole on the table's laptop (1366×768) and wider: no
label, button or combo box cut, no literal "&", no sideways scrolling (tests/gui/readable.py
says how each is measured)."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt

from carwars_desktop.gui.elided_combo import ElidedComboBox
from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.plugins.mini_car_wars.editor import MiniEditor
from carwars_desktop.gui.workshop import WorkshopWorkspace
from carwars_desktop.rules import find_ruleset
from carwars_desktop.rules.mini_car_wars.tables import STOCK_CARS

from .readable import unreadable

RULESETS = ("mini_car_wars", "battlecars", "autopower")


def at_width(window: MainWindow, qtbot: Any, width: int, height: int = 768) -> None:
    """The window maximized on a ``width``-pixel screen (less a panel's 48 px)."""
    window.show()
    qtbot.waitExposed(window)
    window.resize(width, height - 48)
    qtbot.waitUntil(lambda: window.width() == width)


def _workshop(window: MainWindow) -> WorkshopWorkspace:
    workshop = window.workshop
    window._rail.setCurrentRow(window.workspaces.index(workshop))
    return workshop


@pytest.mark.parametrize("width", [1366, 1600, 1920])
def test_the_mini_car_wars_editor_reads_whole_with_every_stock_car_and_option(
        window: MainWindow, qtbot: Any, width: int) -> None:
    """The armor panel's RIGHT box was cut and the editor scrolled sideways (up to 1600 px)
    behind an option list as wide as its longest option; a cycle's "(none on a cycle)"
    widened its sides past the view."""
    at_width(window, qtbot, width)
    workshop = _workshop(window)
    assert workshop.new_design("mini_car_wars")
    editor = workshop.editor
    assert isinstance(editor, MiniEditor)
    for car in STOCK_CARS:
        box = editor.stock_box
        box.setCurrentIndex(box.findData(car.key))
        box.activated.emit(box.currentIndex())
        for option in [None, *car.options]:
            options = editor.option_box
            options.setCurrentIndex(options.findData(None if option is None else option.key))
            options.activated.emit(options.currentIndex())
            qtbot.wait(1)
            assert unreadable(window) == [], (car.name, option and option.key)


def test_a_long_option_is_elided_in_its_list_and_whole_in_the_tooltip(
        window: MainWindow, qtbot: Any) -> None:
    at_width(window, qtbot, 1366)
    workshop = _workshop(window)
    assert workshop.new_design("mini_car_wars")
    editor = workshop.editor
    assert isinstance(editor, MiniEditor)
    editor.stock_box.setCurrentIndex(editor.stock_box.findData("courier"))
    editor.stock_box.activated.emit(editor.stock_box.currentIndex())
    options = editor.option_box
    options.setCurrentIndex(options.findData("b"))
    options.activated.emit(options.currentIndex())
    assert isinstance(options, ElidedComboBox) and options.is_elided()
    assert options.shown_text().startswith("(b) +$10,200 — Remove the RL")
    assert options.shown_text().endswith("…")
    whole = options.elided_tooltip()
    assert whole is not None and whole.startswith(options.currentText())
    assert "firing forward" in whole


def test_a_combo_box_that_fits_is_drawn_whole(qtbot: Any) -> None:
    combo = ElidedComboBox()
    qtbot.addWidget(combo)
    combo.addItems(["Courier", "A name far too long for a combo box this narrow, surely"])
    combo.setFixedWidth(160)
    combo.show()
    assert combo.shown_text() == "Courier" and combo.elided_tooltip() is None
    combo.setCurrentIndex(1)
    assert combo.is_elided() and combo.shown_text().endswith("…")
    assert combo.fontMetrics().horizontalAdvance(combo.shown_text()) < 160
    assert unreadable(combo.parentWidget() or combo) == []
    combo.setEditable(True)  # an editable one shows its line edit: not elided
    assert not combo.is_elided()


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_the_house_rule_profile_editor_reads_whole(window: MainWindow, qtbot: Any,
                                                   ruleset_id: str) -> None:
    """The switches' long labels widened the editor past its dialog: cut at the right,
    behind a sideways scroll bar."""
    from carwars_desktop.gui.house_rules import HouseRulesEditor, ProfilesDialog, SwitchLabel

    assert window.database is not None
    dialog = ProfilesDialog(window.database, find_ruleset(ruleset_id))
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    assert unreadable(dialog) == []
    # The words of a switch flip it, as a check box's own text would.
    editor = HouseRulesEditor(find_ruleset(ruleset_id).decisions)
    qtbot.addWidget(editor)
    editor.show()
    words = editor.findChildren(SwitchLabel)[0]
    box = words.box
    # Beside its words (not across the form's label column) and named by them.
    assert 0 <= words.x() - box.geometry().right() < 20
    assert box.accessibleName() and words.text().startswith(box.accessibleName())
    before = box.isChecked()
    qtbot.mouseClick(words, Qt.MouseButton.LeftButton, pos=QPoint(4, 4))
    assert box.isChecked() is not before


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_new_session_reads_whole(window: MainWindow, qtbot: Any, ruleset_id: str) -> None:
    """"&House rules:" showed its ampersand (a row of widgets has no buddy of its own), and
    a long catalog name was cut in the players' vehicle column without an ellipsis."""
    from carwars_desktop.gui.table.new_session import NewSessionDialog

    dialog = NewSessionDialog(window.database, ruleset_id)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    assert unreadable(dialog) == []


@pytest.mark.parametrize("expression", ["100d6", "100d100"])
def test_the_dice_workspace_never_grows_past_the_screen(window: MainWindow, qtbot: Any,
                                                        expression: str) -> None:
    """Exact fractions of up to 201 digits made a maximized 1366-px window 1,791 px wide
    (100d6) and 3,567 px (100d100): cut in the middle now, whole in the tooltip and on
    copy; the chart's axis reads in percent, never "m%"."""
    from PySide6.QtGui import QGuiApplication

    from carwars_desktop.gui.dice_workspace import LONGEST_SHOWN, DiceWorkspace

    at_width(window, qtbot, 1366)
    dice = next(w for w in window.workspaces if isinstance(w, DiceWorkspace))
    window._rail.setCurrentRow(window.workspaces.index(dice))
    dice.expression_edit.setText(expression)
    dice.target_spin.setValue(350)
    qtbot.waitUntil(lambda: not dice.odds_pending, timeout=60_000)
    qtbot.wait(10)
    assert window.width() == 1366
    for label in (dice.p_eq, dice.p_ge, dice.p_le):
        assert len(label.text()) <= LONGEST_SHOWN and "…" in label.text()
        assert label.text().endswith("%") and label.toolTip().endswith(label.text()[-6:])
        assert "…" not in label.toolTip() and len(label.toolTip()) > LONGEST_SHOWN
    dice.p_ge.actions()[0].trigger()
    assert QGuiApplication.clipboard().text() == dice.p_ge.toolTip()
    assert unreadable(window) == []
    axis = dice.chart._ensure_plot().getAxis("left")
    assert not axis.autoSIPrefix and axis.labelUnitPrefix == ""


def test_another_design_opens_at_its_top(window: MainWindow, qtbot: Any) -> None:
    """The Workshop kept the previous design's scroll position."""
    at_width(window, qtbot, 1366)
    workshop = _workshop(window)
    assert window.database is not None
    window.database.library.install_catalog()
    entries = {e.name: e.id for e in window.database.library.entries()}
    assert workshop.open_design(entries["Courier"])
    bar = workshop.editor_scroll.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0)
    bar.setValue(bar.maximum())
    assert workshop.open_design(entries["Killer Kart"])
    assert bar.value() == 0


def test_the_library_preview_follows_a_ruleset_switch(window: MainWindow, qtbot: Any) -> None:
    """The preview kept showing the previous ruleset's design after the switch."""
    from carwars_desktop.gui.workshop import LibraryWorkspace

    library = window.workspaces[0]
    assert isinstance(library, LibraryWorkspace) and window.database is not None
    window.database.library.install_catalog()
    library.refresh()
    window.set_ruleset("mini_car_wars")
    courier = next(e.id for e in library.library.entries() if e.name == "Courier")
    library.select_ids([courier])
    qtbot.waitUntil(lambda: library.preview.pages > 0)
    window.set_ruleset("battlecars")
    qtbot.waitUntil(lambda: "Courier" not in library.detail.text(), timeout=2000)
    assert courier not in library.selected_ids()

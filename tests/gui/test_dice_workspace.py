from __future__ import annotations

from PySide6.QtCore import QSettings, Qt

from carwars_desktop.dice import SeededDice, parse
from carwars_desktop.gui.dice_history_model import DiceHistoryModel
from carwars_desktop.gui.dice_workspace import DiceWorkspace, split_dice
from carwars_desktop.gui.main_window import MainWindow


def _dice(window: MainWindow) -> DiceWorkspace:
    return next(w for w in window.workspaces if isinstance(w, DiceWorkspace))


def test_exact_odds_shown_for_k(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    dice = _dice(window)
    dice.expression_edit.setText("2d6")
    dice.target_spin.setValue(7)
    assert dice.p_eq.text() == "1/6 · 16.7%"
    assert dice.p_ge.text() == "7/12 · 58.3%"
    assert dice.p_le.text() == "7/12 · 58.3%"
    dice.target_spin.setValue(3)
    dice.natural_two.setChecked(True)
    assert dice.p_ge.text() == "35/36 · 97.2%"
    assert "natural 2 misses" in dice.p_ge_caption.text()


def test_chart_marks_success_region(window: MainWindow) -> None:
    dice = _dice(window)
    dice.expression_edit.setText("2d6")
    dice.target_spin.setValue(8)
    bars = dice.chart.bars
    assert [v for v, _, _ in bars] == list(range(2, 13))
    assert [v for v, _, ok in bars if ok] == [8, 9, 10, 11, 12]
    assert "≥ 8" in dice.chart._legend.text()


def test_bad_expression_is_explained(window: MainWindow) -> None:
    dice = _dice(window)
    dice.expression_edit.setText("3x6")
    assert "unexpected 'x'" in dice.expression_error.text()
    dice.expression_edit.setText("1d8+3")
    assert dice.expression_error.text() == ""
    assert dice.summary.text().startswith("1d8+3: 4–11")


def test_entered_dice_recorded_and_listed(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    dice = _dice(window)
    dice.expression_edit.setText("2d6+1")
    dice.target_spin.setValue(8)
    qtbot.keyClicks(dice.dice_edit, "5 4")
    qtbot.keyClick(dice.dice_edit, Qt.Key.Key_Return)
    assert dice.dice_error.text() == ""
    assert "10: success (needed 8+)" in dice.result_label.text()
    model = dice.history_model
    assert model.rowCount() == 1
    assert model.index(0, 2).data() == "2d6+1"
    assert model.index(0, 3).data() == "5 4"
    assert model.index(0, 4).data() == "10"
    assert model.index(0, 6).data() == "typed"
    assert window.database is not None
    assert window.database.dice_history.recent(5)[0].total == 10


def test_die_out_of_range_refused_and_kept(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    dice = _dice(window)
    dice.expression_edit.setText("2d6")
    qtbot.keyClicks(dice.dice_edit, "5 7")
    qtbot.keyClick(dice.dice_edit, Qt.Key.Key_Return)
    assert "cannot show 7" in dice.dice_error.text()
    assert dice.dice_edit.text() == "5 7"
    assert dice.history_model.rowCount() == 0


def test_roll_with_seed_replays(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    dice = _dice(window)
    dice.expression_edit.setText("3d8")
    dice.seed_edit.setText("42")
    qtbot.mouseClick(dice.roll_button, Qt.MouseButton.LeftButton)
    expected = SeededDice(42).roll(8, 3)
    model = dice.history_model
    assert model.index(0, 3).data() == " ".join(map(str, expected))
    assert model.index(0, 6).data() == "seed 42"
    assert "seed 42" in dice.result_label.text()
    window._rail.setCurrentRow(window.workspaces.index(dice))
    window.activateWindow()
    dice.dice_edit.setFocus()
    qtbot.keyClick(dice.dice_edit, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)
    assert model.rowCount() == 2
    assert model.record(0).seed is not None


def test_history_survives_restart(qtbot, settings: QSettings, sqlite_url: str) -> None:  # type: ignore[no-untyped-def]
    first = MainWindow(db_url_hint=sqlite_url, interactive=False, settings=settings)
    qtbot.addWidget(first)
    assert first.finish_startup()
    dice = _dice(first)
    dice.dice_edit.setText("6 6")
    dice.record_entered()
    first.shutdown()
    second = MainWindow(db_url_hint=sqlite_url, interactive=False, settings=settings)
    qtbot.addWidget(second)
    assert second.finish_startup()
    model = _dice(second).history_model
    qtbot.waitUntil(lambda: model.rowCount() == 1)  # read on a worker
    assert model.index(0, 3).data() == "6 6"
    second.shutdown()


def test_split_dice() -> None:
    assert split_dice("5 4", parse("2d6")) == [5, 4]
    assert split_dice("5,4", parse("2d6")) == [5, 4]
    assert split_dice("54", parse("2d6")) == [5, 4]
    assert split_dice("12", parse("1d20")) == [12]


def test_history_model(qtmodeltester, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    dice = _dice(window)
    for text in ("1 1", "6 5", "3 4"):
        dice.dice_edit.setText(text)
        dice.record_entered()
    model = dice.history_model
    assert isinstance(model, DiceHistoryModel)
    assert model.rowCount() == 3
    qtmodeltester.check(model)

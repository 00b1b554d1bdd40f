"""A small Resolver for one procedure, opened from the Table with its inputs filled in.

The form, the odds and the explanation come from the procedure's declaration;
the GM types the dice thrown (Enter) or rolls them in the app (Ctrl+R), reads
the result, and applies it (Ctrl+Enter).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from carwars_desktop.dice import DiceError, EnteredDice, SeededDice
from carwars_desktop.gui.procedure_form import ProcedureForm
from carwars_desktop.gui.resolver_workspace import parse_dice
from carwars_desktop.procedures import InputError, Odds, Procedure, Resolution
from carwars_desktop.session import Game, GameError


def explanation_html(resolution: Resolution, seed: int | None = None) -> str:
    dice = " ".join(f"{d.value}" + ("" if d.entered else "*") for d in resolution.dice)
    rows = "".join(f"<li>{step.text} <span style='color:#555'>[{step.rule}]</span></li>"
                   for step in resolution.steps)
    effects = "".join(f"<li>{e.summary}</li>" for e in resolution.effects)
    seed_text = f" (* rolled with seed {seed})" if seed is not None else ""
    return (f"<p><b>{resolution.outcome}</b></p><p>Dice: {dice or 'none'}{seed_text}</p>"
            f"<ol>{rows}</ol>" + (f"<p>Effects:</p><ul>{effects}</ul>" if effects else ""))


class ProcedureDialog(QDialog):
    """One procedure: form, exact odds, dice, result; :attr:`accepted_result` on Apply."""

    accepted_result = Signal(object, object)
    """(the :class:`Resolution`, the bindings of its sheet inputs to vehicle keys)."""

    def __init__(self, procedure: Procedure, game: Game, presets: Mapping[str, Any],
                 note: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.procedure = procedure
        self.setWindowTitle(procedure.title)
        self.resolution: Resolution | None = None
        self.odds: Odds | None = None
        title = QLabel(f"{procedure.title}\n{procedure.rule}")
        font = QFont(title.font())
        font.setBold(True)
        title.setFont(font)
        self.note = QLabel(note)
        self.note.setWordWrap(True)
        self.note.setVisible(bool(note))
        self.form = ProcedureForm()
        self.form.set_procedure(procedure, game)
        for name, value in presets.items():
            self.form.set_value(name, value)
        self.odds_label = QLabel()
        self.odds_label.setWordWrap(True)
        odds_font = QFont(self.odds_label.font())
        odds_font.setBold(True)
        self.odds_label.setFont(odds_font)
        self.dice_hint = QLabel()
        self.dice_hint.setWordWrap(True)
        self.dice_edit = QLineEdit()
        self.dice_edit.setAccessibleName("Dice thrown")
        self.dice_edit.setPlaceholderText("type the dice thrown, in order, then Enter")
        self.roll_button = QPushButton("&Roll")
        self.roll_button.setToolTip("Roll in the app the dice not typed (Ctrl+R)")
        self.error = QLabel()
        self.error.setObjectName("error")
        self.error.setWordWrap(True)
        self.result_view = QTextBrowser()
        self.result_view.setMinimumHeight(120)
        self.apply_button = QPushButton("&Apply")
        self.apply_button.setToolTip("Write the result to the sheets as one event (Ctrl+Enter)")
        self.apply_button.setDefault(False)
        self.apply_button.setAutoDefault(False)
        self.apply_button.setEnabled(False)
        cancel = QPushButton("Cancel")
        cancel.setAutoDefault(False)

        dice_row = QHBoxLayout()
        dice_label = QLabel("D&ice:")
        dice_label.setBuddy(self.dice_edit)
        dice_row.addWidget(dice_label)
        dice_row.addWidget(self.dice_edit, 1)
        dice_row.addWidget(self.roll_button)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(cancel)
        buttons.addWidget(self.apply_button)
        layout = QVBoxLayout(self)
        layout.addWidget(title)
        layout.addWidget(self.note)
        layout.addWidget(self.form)
        layout.addWidget(self.odds_label)
        layout.addWidget(self.dice_hint)
        layout.addLayout(dice_row)
        layout.addWidget(self.error)
        layout.addWidget(self.result_view, 1)
        layout.addLayout(buttons)
        self.resize(520, 560)

        self.form.changed.connect(self.refresh)
        self.dice_edit.returnPressed.connect(self.resolve_entered)
        self.roll_button.clicked.connect(self.roll)
        self.apply_button.clicked.connect(self.apply)
        cancel.clicked.connect(self.reject)
        QShortcut(QKeySequence("Ctrl+R"), self, self.roll)
        QShortcut(QKeySequence("Ctrl+Return"), self, self.apply)
        QShortcut(QKeySequence("Ctrl+Enter"), self, self.apply)
        self.refresh()
        self.dice_edit.setFocus()

    def _values(self) -> dict[str, Any] | None:
        try:
            values = self.procedure.bind(self.form.values())
        except (InputError, DiceError) as error:
            self.error.setText(f"⚠ {error}")
            return None
        self.error.setText("")
        return values

    def refresh(self) -> None:
        self.resolution = None
        self.apply_button.setEnabled(False)
        self.result_view.setHtml("")
        values = self._values()
        if values is None:
            self.odds_label.setText("")
            self.dice_hint.setText("")
            return
        self.odds = self.procedure.odds(values)
        self.odds_label.setText(self.odds.summary)
        needs = self.procedure.dice_needed(values)
        self.dice_hint.setText("Dice, in order: " + " → ".join(str(n) for n in needs)
                               if needs else "No dice: press Enter to resolve.")

    def resolve_entered(self) -> None:
        try:
            self._resolve(EnteredDice(parse_dice(self.dice_edit.text())))
        except DiceError as error:
            self.error.setText(f"⚠ {error}")

    def roll(self) -> None:
        try:
            seeded = SeededDice()
            self._resolve(EnteredDice(parse_dice(self.dice_edit.text()), seeded), seeded.seed)
        except DiceError as error:
            self.error.setText(f"⚠ {error}")

    def _resolve(self, dice: EnteredDice, seed: int | None = None) -> None:
        values = self._values()
        if values is None:
            return
        try:
            resolution = self.procedure.resolve(values, dice)
        except (InputError, DiceError, GameError) as error:
            self.error.setText(f"⚠ {error}")
            return
        if dice.unused():
            self.error.setText(f"⚠ {len(dice.unused())} typed dice were not needed: "
                               f"{' '.join(map(str, dice.unused()))}. Nothing was resolved.")
            return
        self.error.setText("")
        self.resolution = resolution
        self.result_view.setHtml(explanation_html(resolution, seed))
        self.apply_button.setEnabled(True)
        self.apply_button.setFocus(Qt.FocusReason.OtherFocusReason)

    def apply(self) -> None:
        if self.resolution is None or not self.apply_button.isEnabled():
            return
        self.accepted_result.emit(self.resolution, self.form.bindings())
        self.accept()

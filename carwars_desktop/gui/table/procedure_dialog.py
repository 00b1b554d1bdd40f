"""A small Resolver for one procedure, opened from the Table with its inputs filled in.

The form, the odds and the explanation come from the procedure's declaration;
the GM types the dice thrown (Enter) or rolls them in the app (Ctrl+R), reads
the result, and applies it (Ctrl+Enter).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from carwars_desktop.dice import DiceError
from carwars_desktop.gui.procedure_form import ProcedureForm
from carwars_desktop.gui.resolving import dice_hint, explanation_html
from carwars_desktop.gui.shortcuts import shortcut
from carwars_desktop.procedures import InputError, Odds, Procedure, Resolution
from carwars_desktop.services import PendingResolution, ResolveError, TableService, typed_dice
from carwars_desktop.session import Game


class ProcedureDialog(QDialog):
    """One procedure: form, exact odds, dice, result; :attr:`accepted_result` on Apply.

    The Table service resolves (``table``; one of its own when none is given, for a
    dialog shown alone): :attr:`pending` is the result on screen.
    """

    accepted_result = Signal(object)
    """The :class:`~carwars_desktop.services.PendingResolution` the GM chose to apply."""

    def __init__(self, procedure: Procedure, game: Game, presets: Mapping[str, Any],
                 note: str = "", parent: QWidget | None = None,
                 table: TableService | None = None) -> None:
        super().__init__(parent)
        self.procedure = procedure
        self.table = table if table is not None else TableService()
        self.setWindowTitle(procedure.title)
        self.pending: PendingResolution | None = None
        self.odds: Odds | None = None
        title = QLabel(f"{procedure.title}\n{procedure.rule}")
        font = QFont(title.font())
        font.setBold(True)
        title.setFont(font)
        self.note = QLabel(note)
        self.note.setWordWrap(True)
        self.note.setVisible(bool(note))
        self.form = ProcedureForm()
        self.form.house = game.house  # the session's house rules: no decision is asked here
        self.form.set_procedure(procedure, game)
        for name, value in presets.items():
            self.form.set_value(name, value)
        self.form.separate_vehicles(fixed=presets)
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
        # The form scrolls rather than being squeezed: its fields keep their places while
        # the odds and the error lines below change length (the next click lands where
        # the GM aimed it).
        form_scroll = QScrollArea()
        form_scroll.setWidgetResizable(True)
        form_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        form_scroll.setWidget(self.form)
        layout.addWidget(form_scroll, 2)
        layout.addWidget(self.odds_label)
        layout.addWidget(self.dice_hint)
        layout.addLayout(dice_row)
        layout.addWidget(self.error)
        layout.addWidget(self.result_view, 1)
        layout.addLayout(buttons)
        self.resize(560, 700)

        self.form.changed.connect(self.refresh)
        self.dice_edit.returnPressed.connect(self.resolve_entered)
        self.roll_button.clicked.connect(self.roll)
        self.apply_button.clicked.connect(self.apply)
        cancel.clicked.connect(self.reject)
        shortcut("dialog.roll", self, self.roll)
        shortcut("dialog.apply", self, self.apply)
        shortcut("dialog.apply_enter", self, self.apply)
        self.refresh()
        self.dice_edit.setFocus()

    @property
    def resolution(self) -> Resolution | None:
        return self.pending.resolution if self.pending is not None else None

    def _values(self) -> dict[str, Any] | None:
        problem = self.form.same_vehicle_problem()
        if problem is not None:
            self.error.setText(f"⚠ {problem}")
            return None
        try:
            values = self.form.bound()
        except (InputError, DiceError) as error:
            self.error.setText(f"⚠ {error}")
            return None
        self.error.setText("")
        return values

    def refresh(self) -> None:
        self.pending = None  # the inputs changed: that result no longer stands
        self.apply_button.setEnabled(False)
        self.result_view.setHtml("")
        values = self._values()
        if values is None:
            self.odds_label.setText("")
            self.dice_hint.setText("")
            return
        self.odds = self.procedure.odds(values)
        self.odds_label.setText(self.odds.summary)
        self.dice_hint.setText(dice_hint(self.procedure, values))

    def resolve_entered(self) -> None:
        self._resolve(roll=False)

    def roll(self) -> None:
        self._resolve(roll=True)

    def _resolve(self, roll: bool) -> None:
        values = self._values()
        if values is None:
            return
        try:
            pending = self.table.resolve(self.procedure, values,
                                         typed_dice(self.dice_edit.text(), roll),
                                         bindings=self.form.bindings(), odds=self.odds,
                                         initiator=self)
        except ResolveError as error:
            self.error.setText(f"⚠ {error}")
            return
        self.error.setText("")
        self.pending = pending
        self.result_view.setHtml(explanation_html(pending.resolution, pending.seed,
                                                  effect_names=False))
        self.apply_button.setEnabled(True)
        self.apply_button.setFocus(Qt.FocusReason.OtherFocusReason)

    def apply(self) -> None:
        if self.pending is None or not self.apply_button.isEnabled():
            return
        self.accepted_result.emit(self.pending)
        self.accept()

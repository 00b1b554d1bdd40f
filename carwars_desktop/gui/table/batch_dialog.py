"""The phase's fire batch on screen: every declared shot with its odds and its dice,
resolved together and applied as one event (Ctrl+Enter). Enter moves to the next
shot's dice; it never rolls."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from carwars_desktop.dice import DiceError
from carwars_desktop.gui.change_signal import ChangeSignal
from carwars_desktop.gui.resolving import explanation_html
from carwars_desktop.gui.shortcuts import shortcut
from carwars_desktop.gui.small_widgets import error_label
from carwars_desktop.gui.table.keyboard import batch_write_errors
from carwars_desktop.gui.table.workspace import TableWorkspace
from carwars_desktop.procedures import InputError
from carwars_desktop.services import (
    Changes,
    Discarded,
    PendingResolution,
    PendingState,
    ResolveError,
)
from carwars_desktop.services.fire_batch import DeclaredShot, FireBatch


class BatchDialog(QDialog):
    """See the module docstring."""

    def __init__(self, table: TableWorkspace, batch: FireBatch,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent or table)
        self.table = table
        self.batch = batch
        self.setWindowTitle("The phase's fire batch")
        intro = QLabel("Every shot declared this phase, resolved together: the damage is "
                       "applied after everyone has fired, as one event (one Undo). Type each "
                       "shot's dice; Ctrl+Enter applies the batch.")
        intro.setWordWrap(True)
        self.rows = QGridLayout()
        self.dice_edits: list[QLineEdit] = []
        self.error = error_label()
        self.result_view = QTextBrowser()
        self.result_view.setMinimumHeight(120)
        self.apply_button = QPushButton("&Apply the batch")
        self.apply_button.setAutoDefault(False)
        close = QPushButton("Close (the batch waits)")
        close.setAutoDefault(False)
        clear = QPushButton("Empty the batch")
        clear.setAutoDefault(False)
        buttons = QHBoxLayout()
        buttons.addWidget(clear)
        buttons.addStretch(1)
        buttons.addWidget(close)
        buttons.addWidget(self.apply_button)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(self.rows)
        layout.addWidget(self.error)
        layout.addWidget(self.result_view, 1)
        layout.addLayout(buttons)
        self.resize(620, 520)
        self.apply_button.clicked.connect(self.apply)
        close.clicked.connect(self.reject)
        clear.clicked.connect(self.empty)
        shortcut("dialog.apply", self, self.apply)
        shortcut("dialog.apply_enter", self, self.apply)
        self._showing = False
        """The dialog shows the batch's result (Apply applies it)."""
        # A roll made elsewhere discards the result shown here (the Table service's one
        # slot): the dialog says so and no longer shows it.
        ChangeSignal(table.context.service.bus, self).changed.connect(self._heard)
        self.fill()

    def fill(self) -> None:
        while self.rows.count():
            item = self.rows.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        self.dice_edits = []
        self.labels: list[QLabel] = []
        game = self.table.context.service.game
        if game is None:
            return
        if not self.batch.shots:
            self.rows.addWidget(QLabel("No shot declared yet: F at the Table (Ctrl+Enter in "
                                       "its dialog adds the shot here)."), 0, 0)
        for row, shot in enumerate(self.batch.shots):
            try:
                odds = self.batch.odds(shot, game).summary
                hint = self.batch.dice_hint(shot, game)
            except (InputError, DiceError, ValueError) as error:
                odds, hint = f"⚠ {error}", ""
            when = _declared_when(shot, game.clock.turn, game.clock.phase_name)
            label = QLabel(f"<b>{row + 1}. {shot.label}</b>{when}<br>{odds}<br>"
                           f"<small>{hint}</small>")
            label.setWordWrap(True)
            edit = QLineEdit(shot.dice)
            edit.setAccessibleName(f"Dice of shot {row + 1}")
            edit.setPlaceholderText("dice, e.g. 543")
            edit.textChanged.connect(lambda text, s=shot: self._typed(s, text))
            edit.returnPressed.connect(lambda r=row: self._next(r))
            self.labels.append(label)
            self.rows.addWidget(label, row, 0)
            self.rows.addWidget(edit, row, 1)
            self.dice_edits.append(edit)
        if self.dice_edits:
            first = next((e for e in self.dice_edits if not e.text()), self.dice_edits[0])
            first.setFocus()

    def _typed(self, shot: DeclaredShot, text: str) -> None:
        """The dice typed for ``shot``, committed with every change (a kill keeps them)."""

        self._forget(Discarded.INPUT_CHANGED)
        try:
            self.batch.set_dice(shot, text)
        except batch_write_errors() as error:
            self.error.setText(f"⚠ the dice of {shot.label} were not saved: {error}")
            return
        self.error.setText("")

    @property
    def pending(self) -> PendingResolution | None:
        """The batch's result on screen (the Table service's slot), not yet applied."""
        return self.table.context.service.shown_by(self)

    def _heard(self, changes: Changes) -> None:
        if not self._showing or not changes.discarded_for(self):
            return
        self._showing = False
        self.result_view.setHtml("")
        self.error.setText("⚠ Discarded: a new roll elsewhere (it stays in the log). Enter "
                           "on the last dice shows the batch again; Ctrl+Enter applies it.")

    def _forget(self, reason: str) -> None:
        """The batch's result on screen no longer stands (``reason``: why, for the log)."""
        self._showing = False
        self.table.hub.runner.discard(self, reason)
        self.result_view.setHtml("")

    def _next(self, row: int) -> None:
        """Enter: the next shot's dice, after the last a preview of the whole batch."""
        if row + 1 < len(self.dice_edits):
            self.dice_edits[row + 1].setFocus(Qt.FocusReason.TabFocusReason)
        else:
            self.resolve()

    def resolve(self) -> PendingResolution | None:
        self._showing = False
        self.result_view.setHtml("")
        # (a result shown before is discarded by the service: a new roll replaces it)
        op = self.table.hub.runner.ops(
            lambda: self.batch.resolve(self.table.context.service, initiator=self))
        op.refused((ResolveError, ValueError), lambda error: self.error.setText(f"⚠ {error}"))
        return op.value if op.success(self._show).run() else None

    def _show(self, pending: PendingResolution) -> None:
        self.error.setText("")
        self.result_view.setHtml(explanation_html(pending.resolution, None,
                                                  effect_names=False))
        self._showing = True

    def apply(self) -> None:
        pending = self.pending or self.resolve()
        if pending is None:
            return
        self.table.hub.runner.finish(pending, None)
        if pending.state is PendingState.APPLIED:
            self.batch.resolved()  # (its event forgot the declaration in its transaction)
            self.accept()

    def empty(self) -> None:
        self._forget(Discarded.BATCH_EMPTIED)
        try:
            self.batch.clear()
        except batch_write_errors() as error:
            self.error.setText(f"⚠ the batch was not emptied: {error}")
            return
        self.fill()

    def reject(self) -> None:
        self._forget(Discarded.WINDOW_CLOSED)
        super().reject()


def _declared_when(shot: DeclaredShot, turn: int, phase: str) -> str:
    """Said only when the shot was declared in another turn or phase than the clock's."""
    if shot.turn is None or (shot.turn, shot.phase) == (turn, phase):
        return ""
    return f" <small>(declared in turn {shot.turn}, {shot.phase})</small>"

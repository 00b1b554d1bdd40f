"""A small Resolver for one procedure, opened from the Table with its inputs filled in.

The form, the odds and the explanation come from the procedure's declaration;
the GM types the dice thrown or rolls them in the app (Ctrl+R, or Roll), reads
the result, and applies it (Ctrl+Enter).

Enter never rolls: in a field of the form it moves to the dice entry; in the dice
entry it resolves the dice typed (compact ``543`` when every die is single-digit);
Ctrl+Enter there resolves and applies at once.

Opened from the Table's keys, a procedure's fields are typed in one fixed order
(``order``, the :class:`~carwars_desktop.gui.rulesets.KeyAction`'s), whatever the
number of vehicles: the first field focused is the first of that order, each list
takes one key (a vehicle's number, a weapon's number, a side's letter) and moves on to
the next field, a letter ends a number (``5 f``: the range, then the side), the last
field moves on to the dice. A field of the order the Table did not fill from the GM's
own choices (a pair remembered this turn) starts empty: the dice are not resolved
until it is typed. A field the move does not use (a smokescreen's target, range and side:
it aims at no one, Mini Car Wars §2.13) is greyed out, skipped and never asked. Without an
order the first field is the first of ``ask``, else the dice entry.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from contextlib import suppress
from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QFont, QKeyEvent
from PySide6.QtWidgets import (
    QComboBox,
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
from carwars_desktop.gui.operation import Ops
from carwars_desktop.gui.procedure_form import ProcedureForm
from carwars_desktop.gui.resolving import REFUSED_HINT, dice_hint, explanation_html, refused_odds
from carwars_desktop.gui.shortcuts import matches, shortcut
from carwars_desktop.gui.small_widgets import dice_entry, dice_row, error_label
from carwars_desktop.procedures import (
    REFUSED,
    InputError,
    Odds,
    Procedure,
    Resolution,
    SheetInput,
    TextInput,
)
from carwars_desktop.services import (
    Discarded,
    PendingResolution,
    ResolveError,
    TableService,
    procedure_sides,
    typed_dice,
)
from carwars_desktop.session import Game


class ProcedureDialog(QDialog):
    """One procedure: form, exact odds, dice, result; :attr:`accepted_result` on Apply.

    The Table service resolves (``table``; one of its own when none is given, for a
    dialog shown alone) and keeps the result on screen (:attr:`pending` asks it for the
    dialog's own); ``ops`` runs its operations (the runner's: a refused write goes to the
    Table's banner with Retry; alone, to the dialog's error line).
    """

    accepted_result = Signal(object)
    """The :class:`~carwars_desktop.services.PendingResolution` the GM chose to apply."""
    batched = Signal(object, object, str)
    """(the form's raw values, its vehicle bindings, the dice typed): the shot goes to the
    phase's fire batch instead (only when the dialog offers a batch)."""

    def __init__(self, procedure: Procedure, game: Game, presets: Mapping[str, Any],
                 note: str = "", parent: QWidget | None = None,
                 table: TableService | None = None, ask: Collection[str] = (),
                 batch: bool = False, batch_default: bool = False,
                 ops: Ops | None = None, order: Sequence[str] = ()) -> None:
        super().__init__(parent)
        self.procedure = procedure
        self.game = game
        self.table = table if table is not None else TableService()
        self.ops = ops if ops is not None else Ops(
            lambda text, _retry: self.error.setText(f"⚠ {text}"), self.table.bus)
        self.setWindowTitle(procedure.title)
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
        self._choose_needed(presets)
        self.order = [name for name in order if name in self.form.editors]
        """The fields the GM types, in this order (see the module docstring)."""
        # Fields of the order the Table did not fill from the GM's choices: empty.
        self.form.keep_blank([name for name in self.order if name not in presets])
        self._typed: dict[str, str] = {}
        """The letters typed so far in each list of the order (``l`` then ``f``)."""
        self.odds_label = QLabel()
        self.odds_label.setWordWrap(True)
        odds_font = QFont(self.odds_label.font())
        odds_font.setBold(True)
        self.odds_label.setFont(odds_font)
        self.dice_hint, self.dice_edit, self.roll_button = dice_entry(
            "type the dice thrown, in order, then Enter")
        # Never the button Enter presses: Enter asks for the dice, it never throws them.
        self.roll_button.setAutoDefault(False)
        self.roll_button.setDefault(False)
        self.error = error_label()
        self.result_view = QTextBrowser()
        self.result_view.setMinimumHeight(120)
        self.apply_button = QPushButton("&Apply")
        self.apply_button.setToolTip("Write the result to the sheets as one event (Ctrl+Enter)")
        self.apply_button.setDefault(False)
        self.apply_button.setAutoDefault(False)
        self.apply_button.setEnabled(False)
        cancel = QPushButton("Cancel")
        cancel.setAutoDefault(False)
        self.batch = batch
        self.batch_refusal = ""
        """Why the shot just sent to the batch was not kept (set by its receiver)."""
        self.batch_default = batch and batch_default
        self.batch_button = QPushButton("Add to the phase's &batch")
        self.batch_button.setAutoDefault(False)
        self.batch_button.setVisible(batch)
        self.batch_button.setToolTip(
            "Fire is simultaneous: resolved and applied with the phase's other shots, as one "
            "event (" + ("Ctrl+Enter; Ctrl+Shift+Enter applies this shot alone now)"
                         if self.batch_default else "Ctrl+B)"))

        dice_line = dice_row(self.dice_edit, self.roll_button)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(cancel)
        buttons.addWidget(self.batch_button)
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
        layout.addLayout(dice_line)
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
        shortcut("dialog.apply", self, self.apply_default)
        shortcut("dialog.apply_enter", self, self.apply_default)
        shortcut("dialog.apply_now", self, self.apply)
        shortcut("dialog.batch", self, self.add_to_batch)
        self.batch_button.clicked.connect(self.add_to_batch)
        if self.batch_default:
            self.apply_button.setText("&Apply alone now")
            self.apply_button.setToolTip("This shot alone, now (Ctrl+Shift+Enter)")
        for name in self.order:
            editor = self.form.editors[name]
            # Its focus frame, whatever the style draws (a list's frame is faint).
            kind = next((base.__name__ for base in type(editor).__mro__
                         if base.__module__.startswith("PySide6")), "QWidget")
            editor.setStyleSheet(f"{kind}:focus {{ border: 2px solid palette(highlight); }}")
        self.refresh()
        self.first_field = self._first_field(presets, ask)
        # Tab's reason: a line edit selects its text, so the value typed replaces it.
        (self.first_field or self.dice_edit).setFocus(Qt.FocusReason.TabFocusReason)
        self.dice_edit.installEventFilter(self)
        for editor in self.form.editors.values():
            editor.installEventFilter(self)
            for child in editor.findChildren(QWidget):
                child.installEventFilter(self)

    def _choose_needed(self, presets: Mapping[str, Any]) -> None:
        """An optional list read from the vehicles (Battlecars' pod) left on "—" while the
        rules cannot resolve without it takes its first entry (the GM sees it, and the
        list is one key away)."""
        for spec in self.procedure.inputs:
            editor = self.form.editors.get(spec.name)
            if spec.name in presets or not isinstance(spec, TextInput) or \
                    spec.choices_from is None or not spec.optional or \
                    not isinstance(editor, QComboBox) or editor.currentData() is not None:
                continue
            before = self._refusal()
            if before is None or editor.count() < 2:
                continue
            editor.setCurrentIndex(1)
            if self._refusal() == before:
                editor.setCurrentIndex(0)  # it was not what the rules wanted

    def _refusal(self) -> str | None:
        try:
            self.procedure.bind(self.form.values(), self.form.house)
        except (InputError, DiceError, ValueError) as error:
            return str(error)
        return None

    @property
    def unchosen(self) -> set[str]:
        """Fields of the order still empty: nothing the GM chose is in them yet (a field
        the move does not use is never asked: a smokescreen's target, side and range)."""
        return self.form.blank - self.form.unused()

    def recall(self, name: str, value: Any) -> None:
        """A value the GM chose before (remembered this turn for the pair) fills ``name``."""
        self.form.set_value(name, value)

    def _advance(self, name: str) -> QWidget:
        """The field after ``name`` in the order (the dice after the last) takes the focus."""
        unused = self.form.unused()
        later = [n for n in self.order[self.order.index(name) + 1:] if n not in unused] \
            if name in self.order else []
        widget = self.form.editors[later[0]] if later else self.dice_edit
        widget.setFocus(Qt.FocusReason.TabFocusReason)
        if isinstance(widget, QLineEdit):
            widget.selectAll()
        return widget

    def _typed_in_order(self, watched: QObject, event: QKeyEvent) -> bool:
        """A key in a field of the order: a list takes its choice and moves on; a letter
        in a text field ends it and goes to the next field. True when the key was taken."""
        name = next((n for n in self.order if self.form.editors[n] is watched), None)
        text = event.text()
        if name is None or len(text) != 1 or not text.isprintable() or text.isspace() or \
                event.modifiers() & ~(Qt.KeyboardModifier.ShiftModifier
                                      | Qt.KeyboardModifier.KeypadModifier):
            return False
        editor = self.form.editors[name]
        if isinstance(editor, QLineEdit):
            if not text.isalpha() or self.order[-1] == name:
                return False
            following = self._advance(name)
            return self._typed_in_order(following, event) or True
        if not isinstance(editor, QComboBox):
            return False
        popup = editor.view()
        if popup is not None and popup.isVisible():
            return False
        vehicle = self._vehicle_list(editor)
        if vehicle is not None:
            if not text.isdigit() or not 1 <= int(text) <= len(self.game.vehicles):
                self.error.setText(f"⚠ {self.procedure.input(vehicle).label}: type a vehicle's "
                                   f"number (1–{len(self.game.vehicles)})")
                return True
            try:
                self.form.choose(vehicle, self.game.vehicles[int(text) - 1].key)
            except ValueError:
                self.error.setText(f"⚠ vehicle {text} cannot be chosen here")
                return True
            self._chosen_by_key(name)
            return True
        typed = self._typed.get(name, "") + text.lower()
        found = _matching(editor, typed)
        if not found and typed != text.lower():
            typed, found = text.lower(), _matching(editor, text.lower())
        if not found:
            self.error.setText(f"⚠ {self.procedure.input(name).label}: nothing here for "
                               f"{text!r}")
            return True
        self._typed[name] = typed
        editor.setCurrentIndex(found[0])
        if len(found) == 1 or editor.itemData(found[0]) is not None and \
                str(editor.itemData(found[0])).lower() == typed:
            self._typed.pop(name, None)
            self._chosen_by_key(name)
        return True  # (several start so: the next letter says which; Enter takes this one)

    def _chosen_by_key(self, name: str) -> None:
        self._advance(name)

    def _first_field(self, presets: Mapping[str, Any], ask: Collection[str]) -> QWidget | None:
        """The first field of the order; without one, the first field without a sensible
        preset: a vehicle input the form chose among several (a target when three or more
        vehicles are in play), or an input in ``ask``; None when every field has one (the
        dice are next)."""
        if self.order:
            unused = self.form.unused()
            asked = [name for name in self.order if name not in unused]
            return self.form.editors[asked[0]] if asked else None
        vehicles = len(self.game.vehicles)
        bindings = self.form.bindings()
        for spec in self.procedure.inputs:
            if spec.name in presets:
                continue
            # A vehicle the form chose among more than one other (a target of three cars).
            unsure_vehicle = (isinstance(spec, SheetInput) and spec.name in bindings
                              and vehicles - len(presets.keys() & bindings.keys()) > 1)
            if unsure_vehicle or spec.name in ask:
                return self.form.editors.get(spec.name)
        return None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        """Enter in a field of the form moves to the dice entry (it never rolls); the
        dialog's keys work from its fields even when its window shortcuts are not reached
        (the window not active yet)."""
        if event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent) and \
                self._typed_in_order(watched, event):
            return True
        if event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            modifiers = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
            for action_id, slot in (("dialog.apply_now", self.apply),
                                    ("dialog.apply", self.apply_default),
                                    ("dialog.apply_enter", self.apply_default),
                                    ("dialog.batch", self.add_to_batch),
                                    ("dialog.roll", self.roll)):
                if matches(action_id, event.key(), modifiers):
                    slot()
                    return True
        if event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent) \
                and Qt.Key.Key_1 <= event.key() <= Qt.Key.Key_9 and not event.modifiers() \
                and self._vehicle_list(watched) is not None:
            # A number in a vehicle list chooses that vehicle, as the sheets are numbered.
            name = self._vehicle_list(watched)
            number = event.key() - Qt.Key.Key_1
            if name is not None and number < len(self.game.vehicles):
                with suppress(ValueError):  # (a vehicle this list does not take)
                    self.form.choose(name, self.game.vehicles[number].key)
            return True
        if event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent) \
                and watched is not self.dice_edit \
                and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) \
                and not event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            popup = getattr(watched, "view", None)
            if callable(popup) and popup().isVisible():
                return False  # a combo's open list takes Enter as its choice
            self.dice_edit.setFocus(Qt.FocusReason.TabFocusReason)
            self.dice_edit.selectAll()
            return True
        return super().eventFilter(watched, event)

    def _vehicle_list(self, widget: QObject) -> str | None:
        """The vehicle input whose list ``widget`` is, or None."""
        for spec in self.procedure.inputs:
            if isinstance(spec, SheetInput) and self.form.editors.get(spec.name) is widget:
                return spec.name
        return None

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt's name)
        """Enter anywhere else in the dialog asks for the dice too (QDialog would press
        its default button)."""
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) \
                and not event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            if self.focusWidget() is not self.dice_edit:
                self.dice_edit.setFocus(Qt.FocusReason.TabFocusReason)
            event.accept()
            return
        super().keyPressEvent(event)

    @property
    def pending(self) -> PendingResolution | None:
        """The dialog's result on screen (the Table service's slot), not yet applied."""
        return self.table.shown_by(self)

    @property
    def resolution(self) -> Resolution | None:
        pending = self.pending
        return pending.resolution if pending is not None else None

    def _discard(self, reason: str) -> bool:
        """The dialog's result on screen no longer stands: discarded, saying why."""
        return self.ops(lambda: self.table.discard_shown(reason, owner=self)).run()

    def _values(self) -> dict[str, Any] | None:
        if self.unchosen:
            missing = [self.procedure.input(n).label.split(" (")[0].lower()
                       for n in self.order if n in self.unchosen]
            self.error.setText("To type: " + ", ".join(missing)
                               + " (in this order; each one key, Enter goes to the dice)")
            return None
        return self.form.checked_values(self.error)

    def refresh(self) -> None:
        # The inputs changed: a result shown no longer stands. It is discarded (its roll
        # stays in the log as discarded; the players' display stops showing it).
        self._discard(Discarded.INPUT_CHANGED)
        self.apply_button.setEnabled(False)
        self.result_view.setHtml("")
        values = self._values()
        if values is None:
            self.odds_label.setText("")
            self.dice_hint.setText("")
            self.table.prepared_gone(self)
            return
        bindings = self.form.bindings()
        refused = self.table.table_problems(self.procedure, values, bindings)
        # What the moment of play refuses (an AUTOpower attack outside its car's Combat
        # phase, §2.3) is shown as the rules' refusal: no dice are asked for it.
        self.odds = refused_odds("; ".join(refused)) if refused else \
            self.procedure.odds(values)
        self.odds_label.setText(self.odds.summary)
        self.dice_hint.setText(REFUSED_HINT if self._refused() else
                               dice_hint(self.procedure, values))
        # The players see the need and the odds while the form is filled (#28 §4).
        self.table.preparing(self.procedure.id, bindings, self.odds, initiator=self)

    def done(self, result: int) -> None:
        """Closed (applied, added to the batch or cancelled): the roll it prepared is no
        longer in progress; cancelled, its result on screen is discarded."""
        if result == QDialog.DialogCode.Rejected:
            self.ops(lambda: self.table.closed(self)).run()
        else:
            self.table.prepared_gone(self)
        super().done(result)

    def resolve_entered(self) -> None:
        self._resolve(roll=False)

    def roll(self) -> None:
        self._resolve(roll=True)

    def _refused(self) -> bool:
        """The rules refuse the inputs as they stand (the odds' one outcome)."""
        return self.odds is not None and [o.label for o in self.odds.outcomes] == [REFUSED]

    def _resolve(self, roll: bool) -> None:
        values = self._values()
        if values is None:
            return
        if self._refused() and (roll or self.dice_edit.text().strip()):
            # Dice for a move the rules refuse: the reason, not a word about the dice.
            assert self.odds is not None
            self.error.setText(f"⚠ {self.odds.summary}: nothing was resolved.")
            return
        typed = self.dice_edit.text()

        def resolve() -> PendingResolution:
            # (a result shown before is discarded by the service: a new roll replaces it)
            dice = typed_dice(typed, roll, procedure_sides(self.procedure, values,
                                                           self.form.house))
            return self.table.resolve(self.procedure, values, dice,
                                      bindings=self.form.bindings(), odds=self.odds,
                                      initiator=self)

        self.ops(resolve).refused(ResolveError, lambda error: self.error.setText(
            f"⚠ {error}")).success(self._show).run()

    def _show(self, pending: PendingResolution) -> None:
        self.error.setText("")
        self.result_view.setHtml(explanation_html(pending.resolution, pending.seed,
                                                  effect_names=False))
        self.apply_button.setEnabled(True)
        self.apply_button.setFocus(Qt.FocusReason.OtherFocusReason)

    def apply_default(self) -> None:
        """Ctrl+Enter: the batch where fire is a batch by default, else apply."""
        if self.batch_default:
            self.add_to_batch()
        else:
            self.apply()

    def add_to_batch(self) -> None:
        """The shot, with the dice typed (if any), goes to the phase's batch."""
        if not self.batch or self._values() is None:
            return
        # A result shown: its roll stays in the log; the batch resolves again.
        if self.pending is not None and not self._discard(Discarded.INTO_THE_BATCH):
            return
        self.batch_refusal = ""
        self.batched.emit(self.form.values(), self.form.bindings(), self.dice_edit.text())
        if self.batch_refusal:  # (not kept: the shot stays here, nothing typed is lost)
            self.error.setText(f"⚠ {self.batch_refusal}")
            return
        self.accept()

    def apply(self) -> None:
        """Apply the result shown; with none yet, resolve the dice typed first (Ctrl+Enter
        straight from the dice entry). Never rolls."""
        if self.pending is None:
            self.resolve_entered()
        pending = self.pending
        if pending is None or not self.apply_button.isEnabled():
            return
        self.accepted_result.emit(pending)
        self.accept()


def _matching(combo: QComboBox, typed: str) -> list[int]:
    """The rows of ``combo`` that ``typed`` names: its value, the start of its label, or
    the initials of a compound label (``lf``: left-front)."""
    rows = []
    for row in range(combo.count()):
        data, label = combo.itemData(row), combo.itemText(row).lower()
        if data is None:
            continue
        initials = "".join(part[:1] for part in label.replace("-", " ").split())
        if str(data).lower() == typed:
            return [row]
        if label.startswith(typed) or (len(typed) > 1 and initials.startswith(typed)):
            rows.append(row)
    return rows

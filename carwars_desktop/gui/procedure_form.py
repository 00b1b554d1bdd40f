"""A form generated from a procedure's declared inputs (the Resolver adds no rules)."""

from __future__ import annotations

import re
from collections.abc import Collection
from functools import partial
from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QWidget,
)

from carwars_desktop.dice import DiceError
from carwars_desktop.gui.elided_combo import ElidedComboBox
from carwars_desktop.gui.vehicle_order import acting_order
from carwars_desktop.procedures import (
    BoolInput,
    ChoiceInput,
    Input,
    InputError,
    IntInput,
    Procedure,
    SheetInput,
    TextInput,
)
from carwars_desktop.session import Game

NONE_TEXT = "—"
# A rules decision of a digest ("MCW-D2: …", "BC-D16 …", "AP-D13: …").
_DECISION = re.compile(r"^[A-Z]+-D\d+\b")


def checkbox_text(spec: BoolInput) -> str:
    """A checkbox's label; a digest decision says its default plainly, on or off alike."""
    if _DECISION.match(spec.label):
        return f"{spec.label} (digest default: {'on' if spec.default else 'off'})"
    return spec.label


def _combo() -> QComboBox:
    combo = ElidedComboBox()
    combo.let_shrink(8)
    # A long vehicle name may not fit the field: the tooltip always has it whole.
    combo.currentTextChanged.connect(combo.setToolTip)
    return combo


UNUSED_TIP = "not used by this move"
"""The tooltip of a field greyed out because the move does not use it."""


class ProcedureForm(QWidget):
    """One editor per input; sheet inputs list the vehicles in play (or the catalog)."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._layout = QFormLayout(self)
        self._layout.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        # Labels above their fields: long rule labels never squeeze the values.
        self._layout.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        self.procedure: Procedure | None = None
        self.editors: dict[str, QWidget] = {}
        self._game: Game | None = None
        self._catalogs: dict[str, dict[str, Any]] = {}
        self._held: dict[str, Any] = {}
        """Each vehicle input's vehicle now (its vehicle before a change, to swap with)."""
        self._before: dict[str, Any] = {}
        """Each vehicle input's vehicle before its last change (a choice by the GM swaps)."""
        self.blank: set[str] = set()
        """Inputs shown empty until a value is set (by the GM or :meth:`set_value`): a list's
        first entry is not the GM's choice (see :meth:`keep_blank`)."""
        self.house: dict[str, Any] = {}
        """The house rules the form's procedure is resolved under (its decision inputs are
        not asked: they come from here, shown in the House rules panel)."""
        self.changed.connect(self.show_unused)  # (first: before the form's users read it)

    def _swap(self, name: str) -> None:
        """A vehicle input changed: remember its vehicle before (to swap with). When the
        first vehicle input (the firer) took the vehicle another input holds (the target),
        that one takes the firer's old vehicle. Another input set to the firer's vehicle
        is swapped only when the GM chose it (:meth:`_chosen`); set from code, it is
        flagged ("same vehicle")."""
        combos = self._sheet_combos()
        combo = combos.get(name)
        if combo is None:
            return
        new, old = combo.currentData(), self._held.get(name)
        self._held[name] = new
        self._before[name] = old
        if new is None or name != next(iter(combos)):
            return
        self._take_over(name, new, old)

    def _take_over(self, name: str, new: Any, old: Any) -> bool:
        """Inputs other than ``name`` holding ``new`` take ``old`` instead; True if any did."""
        swapped = False
        for other, other_combo in self._sheet_combos().items():
            if other != name and other_combo.currentData() == new:
                index = other_combo.findData(old)
                if index >= 0:
                    other_combo.blockSignals(True)
                    other_combo.setCurrentIndex(index)
                    other_combo.blockSignals(False)
                    self._held[other] = old
                    swapped = True
        return swapped

    def _chosen(self, name: str) -> None:
        """The GM chose a vehicle in ``name``'s list (after its change was handled): if
        another input holds it, that one takes this input's vehicle before, whichever of
        firer and target was changed."""
        combo = self._sheet_combos().get(name)
        old = self._before.pop(name, None)
        if combo is None or combo.currentData() is None or old is None:
            return
        if self._take_over(name, combo.currentData(), old):
            self._refresh_sheet_choices()
            self.changed.emit()

    def choose(self, name: str, value: Any) -> None:
        """The GM chose ``value`` for ``name`` (a number key in a vehicle list): as
        :meth:`set_value`, and a vehicle input swaps like a choice in its list."""
        self.set_value(name, value)
        if name in self._sheet_combos():
            self._chosen(name)

    def set_procedure(self, procedure: Procedure | None, game: Game | None) -> None:
        while self._layout.rowCount():
            self._layout.removeRow(0)
        self.editors = {}
        self._catalogs = {}
        self._held = {}
        self._before = {}
        self.procedure = procedure
        self._game = game
        if procedure is None:
            return
        for spec in procedure.asked:
            editor = self._editor(spec)
            editor.setAccessibleName(spec.label)
            if spec.help:
                editor.setToolTip(spec.help)
            self.editors[spec.name] = editor
            editor.blockSignals(True)
            if isinstance(editor, QCheckBox):
                # A long rule label wraps beside its box instead of widening the form.
                row = QWidget()
                line = QHBoxLayout(row)
                line.setContentsMargins(0, 0, 0, 0)
                line.addWidget(editor, 0, Qt.AlignmentFlag.AlignTop)
                text = QLabel(checkbox_text(spec) if isinstance(spec, BoolInput)
                              else spec.label)
                text.setWordWrap(True)
                text.setBuddy(editor)
                line.addWidget(text, 1)
                self._layout.addRow(row)
                continue
            label = QLabel(spec.label)
            label.setBuddy(editor)
            self._layout.addRow(label, editor)
        for editor in self.editors.values():
            editor.blockSignals(False)
        self._refresh_sheet_choices()
        self.choose_needed_vehicles()
        self.show_unused()

    def unused(self) -> frozenset[str]:
        """The inputs the move as the form stands does not use (a smokescreen's target,
        side and range, Mini Car Wars §2.13): not asked, whatever they show."""
        if self.procedure is None:
            return frozenset()
        return self.procedure.unused(self.values(), self.house)

    def show_unused(self) -> None:
        """Each editor the move does not use is greyed out (and skipped by Tab); the
        others are enabled."""
        unused = self.unused()
        for name, editor in self.editors.items():
            editor.setEnabled(name not in unused)
            label = self._layout.labelForField(editor)
            if label is not None:  # (its label greyed out with it)
                label.setEnabled(name not in unused)
            if name in unused:
                editor.setToolTip(UNUSED_TIP)
            elif editor.toolTip() == UNUSED_TIP and self.procedure is not None:
                editor.setToolTip(self.procedure.input(name).help)

    def _taken(self, name: str, filled: object) -> None:
        """An editor got a value: it is no longer blank (first, before :attr:`changed`)."""
        if filled not in (-1, ""):
            self.blank.discard(name)

    def keep_blank(self, names: Collection[str]) -> None:
        """Show ``names`` (lists and text fields) empty until they are given a value."""
        for name in names:
            editor = self.editors.get(name)
            if not isinstance(editor, QComboBox | QLineEdit):
                continue
            self.blank.add(name)
            editor.blockSignals(True)
            if isinstance(editor, QComboBox):
                editor.setCurrentIndex(-1)
            else:
                editor.setText("")
            editor.blockSignals(False)
            if name in self._held:
                self._held[name] = None

    def _editor(self, spec: Input) -> QWidget:
        taken = partial(self._taken, spec.name)
        if isinstance(spec, IntInput):
            spin = QSpinBox()
            low = spec.minimum - 1 if spec.optional else spec.minimum
            spin.setRange(low, spec.maximum)
            if spec.optional:
                spin.setSpecialValueText(NONE_TEXT)
            spin.setValue(spec.default if spec.default is not None else low)
            spin.valueChanged.connect(self.changed)
            return spin
        if isinstance(spec, ChoiceInput):
            combo = _combo()
            if spec.optional:
                combo.addItem(NONE_TEXT, None)
            for choice in spec.choices:
                combo.addItem(choice.replace("_", " "), choice)
            if spec.default is not None:
                combo.setCurrentIndex(combo.findData(spec.default))
            combo.currentIndexChanged.connect(taken)
            combo.currentIndexChanged.connect(self.changed)
            return combo
        if isinstance(spec, BoolInput):
            box = QCheckBox()
            box.setChecked(spec.default)
            box.toggled.connect(self.changed)
            return box
        if isinstance(spec, TextInput) and spec.choices_from is not None:
            # Filled from the chosen vehicles (see _refresh_sheet_choices).
            listed = _combo()
            listed.currentIndexChanged.connect(taken)
            listed.currentIndexChanged.connect(self.changed)
            return listed
        if isinstance(spec, TextInput):
            edit = QLineEdit(spec.default or "")
            edit.textChanged.connect(taken)
            edit.textChanged.connect(self.changed)
            return edit
        combo = _combo()
        self._fill_sheets(spec, combo)
        self._held[spec.name] = combo.currentData()
        # Firer and target stay apart: choosing the other's vehicle swaps them. Then the
        # lists that depend on this vehicle, then the odds. (``activated`` comes only from
        # the GM's choice, after the change.)
        combo.currentIndexChanged.connect(taken)
        combo.currentIndexChanged.connect(lambda _index, name=spec.name: self._swap(name))
        combo.currentIndexChanged.connect(self._refresh_sheet_choices)
        combo.currentIndexChanged.connect(self.changed)
        combo.activated.connect(lambda _index, name=spec.name: self._chosen(name))
        return combo

    def _refresh_sheet_choices(self) -> None:
        """Refill each list read from the chosen vehicles (the firer's weapons, say)."""
        if self.procedure is None:
            return
        for spec in self.procedure.asked:
            editor = self.editors.get(spec.name)
            if not (isinstance(spec, TextInput) and spec.choices_from is not None
                    and isinstance(editor, QComboBox)):
                continue
            try:
                choices = list(spec.choices_from(self.values()))
            except (ValueError, KeyError, TypeError):
                choices = []
            if not choices and spec.default is not None:
                choices = [(spec.default, spec.default)]
            current = editor.currentData()
            editor.blockSignals(True)
            editor.clear()
            if spec.optional:
                editor.addItem(NONE_TEXT, None)
            for value, label in choices:
                editor.addItem(label, value)
            index = editor.findData(current) if current is not None else -1
            if index < 0:
                index = editor.findData(spec.default) if spec.default is not None else -1
            # (a blank list stays blank: its first entry is not the GM's choice)
            editor.setCurrentIndex(-1 if spec.name in self.blank else max(index, 0))
            editor.blockSignals(False)

    def _fill_sheets(self, spec: SheetInput, combo: QComboBox) -> None:
        if spec.optional:
            combo.addItem(NONE_TEXT, None)
        game = self._game
        if game is not None:
            for vehicle in game.vehicles:
                if isinstance(game.sheet(vehicle.key), spec.sheet_type):
                    label = f"{vehicle.name} ({vehicle.player})" if vehicle.player else vehicle.name
                    combo.addItem(label, f"game:{vehicle.key}")
        if combo.count() <= (1 if spec.optional else 0):
            catalog = dict(spec.catalog())
            self._catalogs[spec.name] = catalog
            for name in catalog:
                combo.addItem(name, f"catalog:{name}")
        # Each successive vehicle input starts on a different vehicle (firer ≠ target),
        # the ones that can act first in the clock's order; an optional one starts on "—"
        # (see choose_needed_vehicles).
        if not spec.optional:
            taken = sum(1 for s in self._sheet_specs() if s.name in self.editors)
            index = min(taken, combo.count() - 1)
            if game is not None and spec.name not in self._catalogs:
                order = [key for key in acting_order(game)
                         if combo.findData(f"game:{key}") >= 0]
                if taken < len(order):
                    index = combo.findData(f"game:{order[taken]}")
            combo.setCurrentIndex(index)

    def choose_needed_vehicles(self) -> None:
        """Give an optional vehicle input a vehicle when the form cannot resolve without one.

        (Mini Car Wars fire takes no target only for a smokescreen; Battlecars fire takes
        a "next target" only after a miss.)
        """
        procedure = self.procedure
        if procedure is None:
            return
        used = {str(combo.currentData()) for combo in self._sheet_combos().values()}
        for spec in self._sheet_specs():
            combo = self._sheet_combos()[spec.name]
            if not spec.optional or combo.currentData() is not None:
                continue
            try:
                procedure.bind(self.values(), self.house)
                return
            except (InputError, ValueError):
                pass
            for index in self._offer_order(combo):
                if str(combo.itemData(index)) not in used:
                    combo.setCurrentIndex(index)
                    break
            try:
                procedure.bind(self.values(), self.house)
            except (InputError, ValueError):
                combo.setCurrentIndex(0)

    def _offer_order(self, combo: QComboBox) -> list[int]:
        """The rows of an optional vehicle list past "—", vehicles that can act first."""
        rows = list(range(1, combo.count()))
        if self._game is None:
            return rows
        wanted = [combo.findData(f"game:{key}") for key in acting_order(self._game)]
        first = [row for row in wanted if row > 0]
        return first + [row for row in rows if row not in first]

    def separate_vehicles(self, fixed: Collection[str] = ()) -> None:
        """Move a vehicle input off a vehicle another input already holds.

        ``fixed`` names inputs set on purpose (a Table dialog's presets); the others give
        way to them (the second car's attack targets the first car, not itself).
        """
        combos = self._sheet_combos()
        order = [name for name in combos if name in fixed] + \
            [name for name in combos if name not in fixed]
        held: set[str] = set()
        for name in order:
            combo = combos[name]
            data = combo.currentData()
            if data is None or str(data) not in held:
                if data is not None:
                    held.add(str(data))
                continue
            for index in range(combo.count()):
                candidate = combo.itemData(index)
                if candidate is not None and str(candidate) not in held:
                    combo.setCurrentIndex(index)
                    held.add(str(candidate))
                    break

    def same_vehicle_problem(self) -> str | None:
        """Why the form cannot resolve when two inputs hold one vehicle in play, or None."""
        bound = self.bindings()
        keys = list(bound.values())
        names = [name for name, key in bound.items() if keys.count(key) > 1]
        if not names:
            return None
        return f"{' and '.join(names)} are the same vehicle: choose another for one of them"

    def _sheet_combos(self) -> dict[str, QComboBox]:
        return {name: editor for name, editor in self.editors.items()
                if isinstance(editor, QComboBox) and any(s.name == name
                                                         for s in self._sheet_specs())}

    def _sheet_specs(self) -> list[SheetInput]:
        if self.procedure is None:
            return []
        return [s for s in self.procedure.inputs if isinstance(s, SheetInput)]

    # --- values --------------------------------------------------------
    def values(self) -> dict[str, Any]:
        """The raw values of the form (checked by the procedure's ``bind``, its decisions
        from :attr:`house`)."""
        values: dict[str, Any] = {}
        if self.procedure is None:
            return values
        for spec in self.procedure.asked:
            editor = self.editors[spec.name]
            if isinstance(spec, IntInput) and isinstance(editor, QSpinBox):
                value = editor.value()
                values[spec.name] = None if spec.optional and value < spec.minimum else value
            elif isinstance(spec, BoolInput) and isinstance(editor, QCheckBox):
                values[spec.name] = editor.isChecked()
            elif isinstance(spec, TextInput) and isinstance(editor, QLineEdit):
                values[spec.name] = editor.text()
            elif isinstance(spec, TextInput | ChoiceInput) and isinstance(editor, QComboBox):
                values[spec.name] = editor.currentData()
            elif isinstance(spec, SheetInput) and isinstance(editor, QComboBox):
                values[spec.name] = self._sheet_value(spec, editor.currentData())
        return values

    def _sheet_value(self, spec: SheetInput, data: Any) -> Any:
        if not data:
            return None
        source, _, key = str(data).partition(":")
        if source == "game" and self._game is not None:
            return self._game.sheet(key)
        return self._catalogs[spec.name][key]

    def bound(self) -> dict[str, Any]:
        """The form's values bound under its house rules (``InputError`` when they don't fit)."""
        if self.procedure is None:
            raise InputError("no procedure chosen")
        return self.procedure.bind(self.values(), self.house)

    def checked_values(self, error: QLabel) -> dict[str, Any] | None:
        """The form's bound values, ``error`` cleared; or None, with why not in ``error``
        (two inputs hold one vehicle, or the values do not fit the procedure)."""
        problem = self.same_vehicle_problem()
        if problem is None:
            try:
                values = self.bound()
            except (InputError, DiceError) as exc:
                problem = str(exc)
            else:
                error.setText("")
                return values
        error.setText(f"⚠ {problem}")
        return None

    def bindings(self) -> dict[str, str]:
        """Sheet input name → key of the vehicle in play it was filled from."""
        result: dict[str, str] = {}
        for spec in self._sheet_specs():
            editor = self.editors.get(spec.name)
            if isinstance(editor, QComboBox):
                source, _, key = str(editor.currentData() or "").partition(":")
                if source == "game":
                    result[spec.name] = key
        return result

    def snapshot(self) -> dict[str, Any]:
        """The editors' raw state, to put back after the form is rebuilt."""
        state: dict[str, Any] = {}
        for name, editor in self.editors.items():
            if isinstance(editor, QSpinBox):
                state[name] = editor.value()
            elif isinstance(editor, QCheckBox):
                state[name] = editor.isChecked()
            elif isinstance(editor, QLineEdit):
                state[name] = editor.text()
            elif isinstance(editor, QComboBox):
                state[name] = editor.currentData()
        return state

    def restore(self, state: dict[str, Any]) -> None:
        """Put back a :meth:`snapshot` (entries that no longer fit are left as they are)."""
        for name, value in state.items():
            editor = self.editors.get(name)
            if isinstance(editor, QSpinBox):
                editor.setValue(value)
            elif isinstance(editor, QCheckBox):
                editor.setChecked(value)
            elif isinstance(editor, QLineEdit):
                editor.setText(value)
            elif isinstance(editor, QComboBox):
                index = editor.findData(value)
                if index >= 0:
                    editor.setCurrentIndex(index)

    def set_value(self, name: str, value: Any) -> None:
        """Set an editor from a plain value (tests, and the keyboard path)."""
        editor = self.editors[name]
        if isinstance(editor, QSpinBox):
            editor.setValue(int(value))
        elif isinstance(editor, QCheckBox):
            editor.setChecked(bool(value))
        elif isinstance(editor, QLineEdit):
            editor.setText(str(value))
        elif isinstance(editor, QComboBox):
            for index in range(editor.count()):
                data = editor.itemData(index)
                if data == value or (isinstance(data, str) and data.partition(":")[2] == value):
                    editor.setCurrentIndex(index)
                    return
            raise ValueError(f"{name}: no choice {value!r}")

    def focus_first(self) -> None:
        """Focus the first field once the new editors are shown (they show on the next turn)."""
        if self.procedure is not None and self.procedure.asked:
            editor = self.editors[self.procedure.asked[0].name]
            QTimer.singleShot(0, editor, editor.setFocus)

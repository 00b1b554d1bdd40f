"""What every design editor offers the Workshop: show a design, report edits, find a field.

An editor never changes a design in place: each change makes a new design value
(through the engine's own methods) and is reported with :attr:`DesignEditor.edited`;
the Workshop commits it and hands it back through :meth:`DesignEditor.show_design`.
"""

from __future__ import annotations

from typing import Any, TypeVar

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QSpinBox,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from carwars_desktop.library import DesignSummary, summarize_design
from carwars_desktop.rules import Design, Problem

DesignT = TypeVar("DesignT", bound=Design)


def two_columns(editor: QWidget, left: tuple[QWidget, ...], right: tuple[QWidget, ...],
                stretches: tuple[int, int]) -> None:
    """An editor's page: the ``left`` boxes over the ``right`` ones, each column topped up
    with space, side by side in the ``stretches`` ratio, edge to edge."""
    layout = QHBoxLayout(editor)
    layout.setContentsMargins(0, 0, 0, 0)
    for boxes, stretch in ((left, stretches[0]), (right, stretches[1])):
        column = QVBoxLayout()
        for box in boxes:
            column.addWidget(box)
        column.addStretch(1)
        layout.addLayout(column, stretch)


class DesignEditor(QWidget):
    """Base of the per-ruleset editors."""

    ruleset_id = ""
    kind = "vehicle"
    edited = Signal(object, str, str)
    """(the new design, what changed for the undo menu, merge key: same key → one undo step)"""
    recheck = Signal()
    """Something outside the design that its warnings depend on changed (a budget)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._design: Design | None = None
        self._read_only = False

    # --- for the editors to extend -------------------------------------------------------
    def show_design(self, design: Design) -> None:
        """Show ``design`` in the fields without reporting edits (editors extend this)."""
        self._design = design

    def focus_field(self, field: str) -> bool:
        """Put the keyboard focus on the field a problem names; False if the editor has none
        (editors extend this with their fields)."""
        return False

    def extra_warnings(self, design: Design) -> tuple[Problem, ...]:
        """Warnings only this editor knows of (a budget typed here); none by default."""
        return ()

    # --- shared --------------------------------------------------------------------------
    def design(self) -> Design:
        if self._design is None:
            raise RuntimeError("no design is open in this editor")
        return self._design

    def design_as(self, kind: type[DesignT]) -> DesignT:
        """The open design as the ruleset's own type (a bug if it is another)."""
        design = self.design()
        assert isinstance(design, kind)
        return design

    def summary(self, design: Design, options: Any = None) -> DesignSummary:
        """The design's summary, its verdict under the house rules ``options`` (``None``:
        the digest's defaults); worked out once per design and rules shown (opening one
        asks three times, and a 90,000-card deck's checks are not free)."""
        last: tuple[Design, Any, DesignSummary] | None = getattr(self, "_last_summary", None)
        if last is not None and last[0] is design and last[1] == options:
            return last[2]
        summary = summarize_design(self.ruleset_id, self.kind, design, options)
        self._last_summary = (design, options, summary)
        return summary

    def remember_summary(self, design: Design, summary: DesignSummary,
                         options: Any = None) -> None:
        """``summary`` is the design's under ``options`` (worked out on a worker):
        :meth:`summary` returns it."""
        self._last_summary = (design, options, summary)

    def set_read_only(self, read_only: bool) -> None:
        self._read_only = read_only
        for child in self.findChildren(QWidget):
            if child.property("design-input"):
                child.setEnabled(not read_only)

    @property
    def read_only(self) -> bool:
        return self._read_only

    def propose(self, design: Design, label: str, key: str = "") -> None:
        """Report an edit (ignored when read-only or when nothing changed)."""
        if self._read_only or design == self._design:
            return
        self.edited.emit(design, label, key)


def mark_input(widget: QWidget) -> QWidget:
    """Mark a widget as a design input (disabled when the design is read-only)."""
    widget.setProperty("design-input", True)
    return widget


def show_spin_value(spin: QSpinBox, value: int) -> None:
    """Show ``value`` (kept within the spin box's range) without reporting an edit."""
    if spin.value() != value:
        spin.blockSignals(True)
        spin.setValue(max(spin.minimum(), min(spin.maximum(), value)))
        spin.blockSignals(False)


def focus(widget: QWidget | None) -> bool:
    """Put the keyboard focus on the widget of a field a problem names; False if none."""
    if widget is None:
        return False
    widget.setFocus(Qt.FocusReason.OtherFocusReason)
    return True


def editable_table(table: QTableView, stretch: int) -> None:
    """An editor's table edited where it stands (a double click, F2 or typing), its columns
    sized by hand but for ``stretch``, which takes the room left."""
    table.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked
                          | QAbstractItemView.EditTrigger.EditKeyPressed
                          | QAbstractItemView.EditTrigger.AnyKeyPressed)
    header = table.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    header.setSectionResizeMode(stretch, QHeaderView.ResizeMode.Stretch)

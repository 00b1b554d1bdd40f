"""The sheets of the vehicles in play: every full sheet side by side when they all fit;
else the selected vehicle's full sheet beside a grid of compact sheets of every vehicle
(reflowing with the width), so a 4-vehicle session fits a 1366×768 laptop at once.

A compact sheet is the ruleset's own summary (its public facts, statuses and durations);
clicking one (or :meth:`SheetGrid.select`) makes its vehicle the large one.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QMouseEvent, QResizeEvent
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QLabel,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from carwars_desktop.gui.table.sheet_frame import SheetFrame, flags_html, illegal_label
from carwars_desktop.gui.theme import level_colour
from carwars_desktop.rules.play import Level

SPACING = 8
SLACK = 16
"""Room for a label that grows in play (a weapon marked fired)."""
CARD_WIDTH = 220
MIN_CARD_WIDTH = 180


def needed_width(widget: QWidget) -> int:
    """The width ``widget``'s content needs now (its size hints, whatever width it is
    given). A label's new text reaches the hints of the widgets around it only as their
    posted layout requests are delivered, one level at a time (until then a layout's
    cached hints are those of the old text): its layouts, and those of the widgets inside
    it, are activated first, deepest first, so the hints are fresh when it is measured."""
    widget.ensurePolished()

    def depth(child: QWidget) -> int:
        level = 0
        parent: QWidget | None = child
        while parent is not None and parent is not widget:
            level, parent = level + 1, parent.parentWidget()
        return level

    holders = [child for child in (widget, *widget.findChildren(QWidget))
               if child.layout() is not None and (child is widget or not child.isWindow())]
    for child in sorted(holders, key=depth, reverse=True):
        layout = child.layout()
        if layout is not None:
            layout.activate()
    return max(widget.sizeHint().width(), widget.minimumSizeHint().width())


class CompactSheet(QFrame):
    """One vehicle at a glance: name, player, statuses, durations and the ruleset's public
    facts (armor left, weapons, crew…) of its full sheet."""

    chosen = Signal(str)

    def __init__(self, frame: SheetFrame, number: int = 0,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.frame = frame
        self.key = frame.vehicle.key
        self.number = number
        """The vehicle's number at the Table (keys 1–9 select the first nine; the quick
        line takes every one), 0 when it has none."""
        self.setObjectName("compact-sheet")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self._width = CARD_WIDTH
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setAccessibleName(f"Compact sheet of {frame.vehicle.name}")
        self.setToolTip("Click to show this vehicle's full sheet")
        self.title = QLabel()
        self.title.setTextFormat(Qt.TextFormat.RichText)
        self.title.setWordWrap(True)
        self.status = QLabel()
        self.status.setTextFormat(Qt.TextFormat.RichText)
        self.status.setWordWrap(True)
        self.illegal = illegal_label()
        self.durations = QLabel()
        self.durations.setWordWrap(True)
        self.facts = QLabel()
        self.facts.setTextFormat(Qt.TextFormat.RichText)
        self.facts.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.setSpacing(2)
        for label in (self.title, self.status, self.illegal, self.durations, self.facts):
            layout.addWidget(label)
        self.refresh(False)

    def refresh(self, selected: bool) -> None:
        frame = self.frame
        vehicle = frame.vehicle
        player = f" <span style='font-weight:normal'>{vehicle.player}</span>" \
            if vehicle.player else ""
        marker = "▶ " if selected else ""
        number = f"[{self.number}] " if self.number >= 1 else ""
        self.title.setText(f"<b>{marker}{number}{vehicle.name}</b>{player}")
        self.setProperty("selected", selected)
        self.setLineWidth(3 if selected else 1)
        sheet = frame.sheet
        if sheet is None:
            return
        self.status.setText(flags_html(frame.rules.status(sheet)))
        # Its design illegal under the session's house rules: one short line (the full
        # sheet and the tooltip say why).
        illegal = frame.illegal_text()
        self.illegal.setText("⚠ illegal under the house rules" if illegal else "")
        self.illegal.setToolTip(illegal)
        self.illegal.setVisible(bool(illegal))
        durations = frame.durations_text()
        self.durations.setText(durations)
        self.durations.setVisible(bool(durations))
        lost = level_colour(Level.DANGER)
        parts = []
        for fact in frame.rules.public(sheet, True):
            text = f"{fact.label} <b>{fact.value}</b>"
            if fact.spent:  # (fired this turn, no shots: the full sheet's "● fired")
                text = f"● {text}"
            if fact.lost:
                text = f"<span style='color:{lost}'>✖ <s>{fact.label}</s> {fact.value}</span>"
            parts.append(text)
        self.facts.setText(" · ".join(parts))
        self.set_width(self._width)

    def set_width(self, width: int) -> None:
        """A fixed width, and the height its wrapped lines need at that width (nothing
        clipped)."""
        self._width = width
        self.setFixedWidth(width)
        layout = self.layout()
        if layout is not None:
            self.setFixedHeight(layout.totalHeightForWidth(width)
                                if layout.hasHeightForWidth() else layout.sizeHint().height())

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt's name)
        if event.button() == Qt.MouseButton.LeftButton:
            self.chosen.emit(self.key)
        super().mousePressEvent(event)


class SheetGrid(QScrollArea):
    """See the module docstring."""

    selected_changed = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWidgetResizable(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self._inner = QWidget()
        self._row = QGridLayout(self._inner)
        self._row.setSpacing(SPACING)
        self._row.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self._full = QWidget()
        self._grid = QGridLayout(self._full)
        self._grid.setContentsMargins(0, 0, 0, 0)
        self._grid.setSpacing(SPACING)
        self._grid.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self._cards_box = QWidget()
        self._cards = QGridLayout(self._cards_box)
        self._cards.setContentsMargins(0, 0, 0, 0)
        self._cards.setSpacing(SPACING)
        self._cards.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self._row.addWidget(self._full, 0, 0, Qt.AlignmentFlag.AlignTop)
        self._row.addWidget(self._cards_box, 0, 1, Qt.AlignmentFlag.AlignTop)
        self._row.setColumnStretch(2, 1)  # the cards stay beside the sheet, the rest is room
        self._row.setRowStretch(2, 1)
        self.setWidget(self._inner)
        self.sheets: list[SheetFrame] = []
        self.cards: list[CompactSheet] = []
        self.selected: str | None = None
        self.compact = False
        """True when the selected sheet is shown large beside compact sheets of all."""
        self._shape: tuple[bool, int, str | None, bool, int] | None = None
        self._needs: dict[str, int] = {}
        """Each full sheet's needed width (:func:`needed_width`) when last measured."""

    # --- filling ---------------------------------------------------------------------
    def set_sheets(self, sheets: Sequence[SheetFrame]) -> None:
        for widget in (*self.sheets, *self.cards):
            self._grid.removeWidget(widget)
            self._cards.removeWidget(widget)
            widget.hide()
            widget.deleteLater()
        self.sheets = list(sheets)
        self.cards = []
        self._needs = {}
        for number, sheet in enumerate(self.sheets, start=1):
            card = CompactSheet(sheet, number)
            card.chosen.connect(self.select)
            self.cards.append(card)
        self.selected = self.sheets[0].vehicle.key if self.sheets else None
        self._shape = None
        self._fit_widths()
        self._arrange()

    def _fit_widths(self, keys: Sequence[str] = ()) -> None:
        """Every full sheet as wide as the widest needs now, plus :data:`SLACK` ("✖ MG
        destroyed" must not clip a row of boxes): a function of the labels alone, so an
        unchanged sheet keeps its width event after event. Only the sheets of ``keys`` are
        measured again (all when none is given); the others keep their last measure."""
        if not self.sheets:
            return
        for sheet in self.sheets:
            if not keys or sheet.vehicle.key in keys or sheet.vehicle.key not in self._needs:
                self._needs[sheet.vehicle.key] = needed_width(sheet)
        widest = max(self._needs[sheet.vehicle.key] for sheet in self.sheets) + SLACK
        for sheet in self.sheets:
            if sheet.minimumWidth() != widest or sheet.maximumWidth() != widest:
                sheet.setFixedWidth(widest)

    def refresh(self, keys: Sequence[str] = ()) -> None:
        """Sheets of ``keys`` were redrawn (or their durations changed): the compact sheets
        follow, and the widths grow when a label did."""
        self._fit_widths(keys)
        if self.compact:  # the durations of any vehicle may have changed
            for card in self.cards:
                card.refresh(card.key == self.selected)
        self._arrange()

    def select(self, key: str) -> None:
        """Show ``key``'s full sheet large (the compact layout), and tell who listens."""
        if key not in {sheet.vehicle.key for sheet in self.sheets}:
            return
        changed = key != self.selected
        self.selected = key
        for card in self.cards:
            card.refresh(card.key == key)
        self._shape = None
        self._arrange()
        if changed:
            self.selected_changed.emit(key)

    def visible_sheets(self) -> list[SheetFrame]:
        """The full sheets on screen now (all, or only the selected one when compact)."""
        return [sheet for sheet in self.sheets if not sheet.isHidden()]

    # --- layout ----------------------------------------------------------------------
    def _all_fit(self, widest: int) -> tuple[bool, int]:
        width = self.viewport().width() - SPACING
        height = self.viewport().height() - SPACING
        columns = max(1, min(len(self.sheets), width // (widest + SPACING)))
        rows = -(-len(self.sheets) // columns)
        tallest = max(sheet.sizeHint().height() for sheet in self.sheets)
        fits = len(self.sheets) <= 1 or rows * (tallest + SPACING) <= height
        return fits, columns

    def _arrange(self) -> None:
        if not self.sheets:
            return
        widest = self.sheets[0].width()
        fits, columns = self._all_fit(widest)
        compact = not fits
        above = False
        card_width = CARD_WIDTH
        if compact:
            room = self.viewport().width() - widest - 3 * SPACING
            columns = min(len(self.cards), room // (CARD_WIDTH + SPACING))
            if columns < 1:  # too wide a sheet to have them beside: a row of them above
                above = True
                room = self.viewport().width() - 2 * SPACING
                columns = max(1, min(len(self.cards), room // (MIN_CARD_WIDTH + SPACING)))
                card_width = max(MIN_CARD_WIDTH, room // columns - SPACING)
        shape = (compact, columns, self.selected if compact else None, above, card_width)
        if shape == self._shape:
            return
        self._shape = shape
        self.compact = compact
        for widget in (*self.sheets, *self.cards):
            self._grid.removeWidget(widget)
            self._cards.removeWidget(widget)
        if not compact:
            self._row.removeWidget(self._full)
            self._row.removeWidget(self._cards_box)
            self._row.addWidget(self._full, 0, 0, Qt.AlignmentFlag.AlignTop)
            self._row.addWidget(self._cards_box, 0, 1, Qt.AlignmentFlag.AlignTop)
            for index, sheet in enumerate(self.sheets):
                self._grid.addWidget(sheet, index // columns, index % columns,
                                     Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
                sheet.show()
            for card in self.cards:
                card.hide()
            self._cards_box.hide()
            return
        for sheet in self.sheets:
            if sheet.vehicle.key == self.selected:
                self._grid.addWidget(sheet, 0, 0, Qt.AlignmentFlag.AlignTop)
                sheet.show()
            else:
                sheet.hide()
        self._row.removeWidget(self._full)
        self._row.removeWidget(self._cards_box)
        self._row.addWidget(self._full, 1 if above else 0, 0, Qt.AlignmentFlag.AlignTop)
        self._row.addWidget(self._cards_box, 0, 0 if above else 1, Qt.AlignmentFlag.AlignTop)
        for index, card in enumerate(self.cards):
            card.refresh(card.key == self.selected)
            card.set_width(card_width)
            self._cards.addWidget(card, index // columns, index % columns,
                                  Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
            card.show()
        self._cards_box.show()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._arrange()

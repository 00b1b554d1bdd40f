"""The AUTOpower deck editor: a deck list (count × card with its numbered icons) and the
counts per icon and value, with the engine's 60-card minimum and multi-icon warning."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QEvent, QItemSelectionModel, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from carwars_desktop.gui.plugins.autopower.deck_models import DeckCountsModel, DeckLinesModel
from carwars_desktop.gui.small_widgets import error_label
from carwars_desktop.gui.workshop.editor import DesignEditor, editable_table, mark_input
from carwars_desktop.library import unique_name
from carwars_desktop.rules import Design
from carwars_desktop.rules.autopower import Deck, Icon, IconValue, PowerCard
from carwars_desktop.rules.autopower.deck_lines import (
    MAX_COPIES,
    DeckLine,
    deck_from_lines,
    deck_lines,
)
from carwars_desktop.rules.autopower.tables import MAX_CARD_VALUE, MINIMUM_DECK
from carwars_desktop.rules.builtin import AUTOPOWER

NEW_CARD = PowerCard("New card", (IconValue(Icon.ENERGY, 1),))


class DeckEditor(DesignEditor):
    ruleset_id = AUTOPOWER.id
    kind = "deck"

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.lines_model = DeckLinesModel(self._cell_edited)
        self.table = QTableView()
        self.table.setModel(self.lines_model)
        self.table.setAccessibleName("Deck list")
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        editable_table(self.table, 1)
        for column in (0, 2, 3, 4, 5):
            self.table.setColumnWidth(column, 80)
        self.table.setMinimumHeight(220)
        self.table.verticalHeader().setDefaultSectionSize(self.table.fontMetrics().height() + 8)
        self.add_button = QPushButton("&Add card")
        self.add_button.setToolTip("A new line at the end (Insert)")
        self.copy_button = QPushButton("D&uplicate line")
        self.remove_button = QPushButton("&Remove line")
        self.remove_button.setToolTip("Remove the selected line (Delete)")
        buttons = QHBoxLayout()
        for button in (self.add_button, self.copy_button, self.remove_button):
            buttons.addWidget(mark_input(button))
        buttons.addStretch(1)
        self.totals = QLabel()
        self.totals.setWordWrap(True)
        self.error = error_label()
        list_box = QGroupBox("Deck list — type a count, a title, or an icon's value (blank: "
                             "the card has no such icon)")
        list_layout = QVBoxLayout(list_box)
        list_layout.addWidget(mark_input(self.table), 1)
        list_layout.addLayout(buttons)
        list_layout.addWidget(self.totals)
        list_layout.addWidget(self.error)

        self.counts_model = DeckCountsModel(range(1, MAX_CARD_VALUE + 1))
        self.counts = QTableView()
        self.counts.setModel(self.counts_model)
        self.counts.setAccessibleName("Cards per icon and value")
        self.counts.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.counts.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        rows = self.counts.verticalHeader()
        rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        rows.setDefaultSectionSize(self.counts.fontMetrics().height() + 8)
        self.counts.setFixedHeight(self.counts.horizontalHeader().sizeHint().height()
                                   + len(Icon) * rows.defaultSectionSize()
                                   + 2 * self.counts.frameWidth() + 2)
        counts_box = QGroupBox("Cards per icon and value (a multi-icon card counts under each "
                               "of its icons)")
        QVBoxLayout(counts_box).addWidget(self.counts)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(list_box, 1)
        layout.addWidget(counts_box)

        self.add_button.clicked.connect(self.add_line)
        self.copy_button.clicked.connect(self.duplicate_line)
        self.remove_button.clicked.connect(self.remove_line)
        self.table.installEventFilter(self)

    def deck(self) -> Deck:
        return self.design_as(Deck)

    def show_design(self, design: Design) -> None:
        assert isinstance(design, Deck)
        super().show_design(design)
        row = self.table.currentIndex().row()
        column = max(0, self.table.currentIndex().column())
        lines = deck_lines(design)
        if lines != self.lines_model.lines:
            self.lines_model.set_lines(lines)
            if lines:
                self._select(min(max(row, 0), len(lines) - 1), column)
        self.counts_model.set_deck(design)
        cards = len(design.cards)
        multi = design.multi_icon_count
        share = f" ({100 * multi // cards}%)" if cards else ""
        need = "" if cards >= MINIMUM_DECK else f" — {MINIMUM_DECK - cards} more to reach " \
                                                 f"{MINIMUM_DECK}"
        self.totals.setText(f"<b>{cards} cards</b> in {len(lines)} lines{need} · "
                            f"{multi} multi-icon card{'s' if multi != 1 else ''}{share}")

    def _select(self, row: int, column: int) -> None:
        index = self.lines_model.index(row, column)
        self.table.selectionModel().setCurrentIndex(
            index, QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows)

    # --- editing ---------------------------------------------------------------------------
    def _propose_lines(self, lines: list[DeckLine], label: str, key: str = "") -> None:
        self.error.setText("")
        self.propose(deck_from_lines(self.deck().name, lines), label, key)

    def _cell_edited(self, row: int, column: int, text: str) -> str | None:
        lines = list(self.lines_model.lines)
        line = lines[row]
        text = text.strip()
        if column == 0:
            if not text.isdigit() or int(text) > MAX_COPIES:
                return self._refuse(f"A count is a whole number 0–{MAX_COPIES}, not {text!r} "
                                    "(0 removes the line).")
            lines[row] = replace(line, count=int(text))
            self._propose_lines(lines, f"Count of {line.card.title}")
            return None
        if column == 1:
            lines[row] = replace(line, card=replace(line.card, title=text))
            self._propose_lines(lines, "Card title")
            return None
        icon = list(Icon)[column - 2]
        if text and not text.lstrip("-").isdigit():
            return self._refuse(f"{icon.label}: type a value such as 5, or leave it blank; "
                                f"{text!r} is not a number.")
        values = {i: DeckLinesModel.icon_value(line, i) for i in Icon}
        values[icon] = int(text) if text else None
        icons = tuple(IconValue(i, v) for i, v in values.items() if v is not None)
        lines[row] = replace(line, card=replace(line.card, icons=icons))
        self._propose_lines(lines, f"{icon.label} of {line.card.title}")
        return None

    def _refuse(self, message: str) -> str:
        self.error.setText(f"⚠ {message}")
        return message

    def add_line(self) -> None:
        if self.read_only:
            return
        titles = {line.card.title for line in self.lines_model.lines}
        title = unique_name(NEW_CARD.title, titles)
        lines = [*self.lines_model.lines, DeckLine(1, replace(NEW_CARD, title=title))]
        self._propose_lines(lines, "Add a card")
        self._select(len(self.lines_model.lines) - 1, 1)
        self.table.setFocus()

    def duplicate_line(self) -> None:
        row = self.table.currentIndex().row()
        if self.read_only or row < 0:
            return
        lines = list(self.lines_model.lines)
        line = lines[row]
        titles = {other.card.title for other in lines}
        lines.insert(row + 1, DeckLine(line.count, replace(
            line.card, title=unique_name(line.card.title, titles))))
        self._propose_lines(lines, f"Duplicate {line.card.title}")

    def remove_line(self) -> None:
        row = self.table.currentIndex().row()
        if self.read_only or row < 0:
            return
        lines = list(self.lines_model.lines)
        removed = lines.pop(row)
        self._propose_lines(lines, f"Remove {removed.card.title}")

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        if (watched is self.table and isinstance(event, QKeyEvent)
                and event.type() == QEvent.Type.KeyPress
                and self.table.state() != QAbstractItemView.State.EditingState):
            if event.key() == Qt.Key.Key_Delete:
                self.remove_line()
                return True
            if event.key() == Qt.Key.Key_Insert:
                self.add_line()
                return True
        return False

    def focus_field(self, field: str) -> bool:
        if field == "cards":
            self.table.setFocus(Qt.FocusReason.OtherFocusReason)
            return True
        if field.startswith("cards[") and field.endswith("]"):
            card = int(field[6:-1])
            first = 0
            for row, line in enumerate(self.lines_model.lines):
                if first <= card < first + max(line.count, 0):
                    self._select(row, 1)
                    self.table.setFocus(Qt.FocusReason.OtherFocusReason)
                    return True
                first += max(line.count, 0)
        return False

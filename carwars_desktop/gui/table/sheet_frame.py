"""The frame every live record sheet sits in: name, player, status at a glance, mark menu.

Subclasses (one per ruleset) fill :attr:`SheetFrame.body` and extend
:meth:`SheetFrame.set_sheet` to draw the rest. A mark is requested as a function returning the
engine-made :class:`~carwars_desktop.rules.play.Mark`; the Table commits it and
redraws from the change, so the screen never runs ahead of the database.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QAction, QFont, QFontDatabase
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QMenu,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from carwars_desktop.gui.elided_label import ElidedLabel
from carwars_desktop.gui.theme import level_colour
from carwars_desktop.rules import RecordSheet, find_procedure
from carwars_desktop.rules.durations import ShownDuration
from carwars_desktop.rules.play import Level, Mark, PlayRules, StatusFlag
from carwars_desktop.services.house_rules import not_offered_in_session
from carwars_desktop.session import VehicleInPlay

MarkFactory = Callable[[], Mark]
Explain = Callable[[str, str], str]

def numbers_font(base: QFont | None = None) -> QFont:
    """Tabular figures for numbers that line up (a fixed-pitch font)."""
    font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
    if base is not None:
        font.setPointSizeF(base.pointSizeF())
    return font


def number_label(text: str = "", width: int = 3) -> QLabel:
    """A right-aligned number in tabular figures, ``width`` digits wide."""
    label = QLabel(text)
    label.setFont(numbers_font(label.font()))
    label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    label.setMinimumWidth(label.fontMetrics().horizontalAdvance("0" * width) + 4)
    return label


def flags_html(flags: tuple[StatusFlag, ...]) -> str:
    """Each status as its symbol and word, tinted by level (never by colour alone)."""
    if not flags:
        return "<span>✓ in play</span>"
    return " &nbsp;".join(
        f"<span style='color:{level_colour(f.level)}; font-weight:600'>"
        f"{f.symbol}&nbsp;{f.word}</span>" for f in flags)


NAME_CHARS = 26
"""How many characters of a vehicle's name (with its number key) a sheet widens for."""
PLAYER_CHARS = 14
"""How many characters of a player's name a sheet widens for."""


def illegal_label() -> QLabel:
    """A sheet's warning line, hidden until a design breaks the rules in play."""
    label = QLabel()
    label.setObjectName("illegal")
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setStyleSheet(f"color: {level_colour(Level.WARNING)}; font-weight: 600;")
    label.setVisible(False)
    return label


class NameLabel(ElidedLabel):
    """A name in a sheet's header: it asks for room for ``chars`` characters at most, and
    a longer name shown in less ends in "…" (the whole name in its tooltip)."""

    def __init__(self, text: str, chars: int, parent: QWidget | None = None) -> None:
        super().__init__(parent=parent)
        self._chars = chars
        self.setText(text)

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        hint = super().sizeHint()
        room = self.fontMetrics().averageCharWidth() * self._chars
        return QSize(min(hint.width(), room), hint.height())


class SheetFrame(QFrame):
    """A vehicle's sheet: subclasses build the body and draw the sheet."""

    mark_requested = Signal(str, object)
    """(vehicle key, a :data:`MarkFactory`)."""
    procedure_requested = Signal(str, object)
    """(procedure id, preset input values: sheet inputs as vehicle keys)."""

    def __init__(self, vehicle: VehicleInPlay, rules: PlayRules, explain: Explain,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.vehicle = vehicle
        self.rules = rules
        self._explain = explain
        self.sheet: RecordSheet | None = None
        self.read_only = False
        self.house: Callable[[], Mapping[str, Any] | None] = lambda: None
        """The session's house rules now (the Table sets it): a procedure they do not offer
        (a variant left off) is greyed in the marks menu, with the reason."""
        self._procedure_actions: list[tuple[QAction, str]] = []
        self.setObjectName("record-sheet")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.setAccessibleName(f"Record sheet of {vehicle.name}")

        # A long name never widens the sheet (a large sheet wider than the Table's room
        # has its right side cut off at 1366×768): beyond a few words it ends in "…".
        self.title: QLabel = NameLabel(vehicle.name, NAME_CHARS)
        title_font = QFont(self.title.font())
        title_font.setBold(True)
        title_font.setPointSizeF(title_font.pointSizeF() * 1.15)
        self.title.setFont(title_font)
        self.player: QLabel = NameLabel(vehicle.player, PLAYER_CHARS)
        self.player.setObjectName("player")
        self.marks_button = QToolButton()
        self.marks_button.setText("Mark ▾")
        self.marks_button.setToolTip("Mark the sheet by hand: each mark is an undoable event")
        self.marks_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.marks_menu = QMenu(self)
        self.marks_menu.setToolTipsVisible(True)
        self.marks_menu.aboutToShow.connect(self.offer_procedures)
        self.marks_button.setMenu(self.marks_menu)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setTextFormat(Qt.TextFormat.RichText)
        self.status.setObjectName("status")
        self.illegal = illegal_label()
        self.durations = QLabel()
        self.durations.setObjectName("durations")
        self.durations.setWordWrap(True)
        self.durations.setVisible(False)

        header = QHBoxLayout()
        header.addWidget(self.title, 1)  # (the room the sheet has beyond its names)
        header.addWidget(self.player)
        header.addWidget(self.marks_button)
        self.body = QVBoxLayout()
        self.body.setSpacing(4)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(8, 6, 8, 6)
        outer.setSpacing(4)
        outer.addLayout(header)
        outer.addWidget(self.status)
        outer.addWidget(self.illegal)
        outer.addWidget(self.durations)
        outer.addLayout(self.body)

    # --- for subclasses ------------------------------------------------------
    def explain(self, box: str) -> str:
        return self._explain(self.vehicle.key, box)

    def request_mark(self, factory: MarkFactory) -> None:
        if not self.read_only:
            self.mark_requested.emit(self.vehicle.key, factory)

    def request_procedure(self, procedure_id: str, presets: Mapping[str, Any]) -> None:
        if not self.read_only:
            self.procedure_requested.emit(procedure_id, dict(presets))

    def add_procedure(self, menu: QMenu, title: str, procedure_id: str,
                      presets: Mapping[str, Any]) -> QAction:
        """A menu item opening ``procedure_id``: its title only, the id in its tooltip."""
        menu.setToolTipsVisible(True)
        action = menu.addAction(title, lambda: self.request_procedure(procedure_id, presets))
        action.setToolTip(procedure_id)
        self._procedure_actions.append((action, procedure_id))
        return action

    def offer_procedures(self) -> None:
        """Grey the menu items of the procedures the session's house rules do not offer
        (the AUTOpower control roll with its variant off, §2.8), the reason in the tooltip;
        run each time the menu opens (the house rules may have changed)."""

        house = self.house()
        for action, procedure_id in self._procedure_actions:
            refused = not_offered_in_session(find_procedure(procedure_id), house)
            action.setEnabled(not refused)
            action.setToolTip(f"{refused} ({procedure_id})" if refused else procedure_id)

    def set_sheet(self, sheet: RecordSheet, read_only: bool = False) -> None:
        self.sheet = sheet
        self.read_only = read_only
        self.marks_button.setEnabled(not read_only)
        flags = self.rules.status(sheet)
        self.status.setText(flags_html(flags))
        self.status.setToolTip("\n".join(f"{f}: {f.detail}" for f in flags if f.detail))
        self.setProperty("out", self.rules.out_of_play(sheet))

    def set_durations(self, durations: Sequence[ShownDuration]) -> None:
        """What runs on this vehicle and what is left of it (the clock ends it, not a mark)."""
        self.durations.setText("\n".join(str(d) for d in durations))
        self.durations.setToolTip("\n".join(f"{d.label}: {d.rule}" for d in durations))
        self.durations.setVisible(bool(durations))

    def set_illegal(self, lines: Sequence[str]) -> None:
        """Why its design is illegal under the session's house rules (it plays at full
        strength: the GM's sheets say so, #28 §2); nothing when it is legal."""
        self.illegal.setText("\n".join(f"⚠ {line}" for line in lines))
        self.illegal.setVisible(bool(lines))

    def illegal_text(self) -> str:
        return self.illegal.text() if self.illegal.isVisibleTo(self) else ""

    def durations_text(self) -> str:
        return self.durations.text() if self.durations.isVisibleTo(self) else ""

    def status_text(self) -> str:
        """The statuses as plain words (tests, accessibility)."""
        return self.status.text() if self.sheet is None else ", ".join(
            str(f) for f in self.rules.status(self.sheet))

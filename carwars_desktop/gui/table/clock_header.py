"""The clock's big line: turn (round) and phase, and the phases of the turn as a row."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtGui import QFont
from PySide6.QtWidgets import QLabel, QPushButton, QVBoxLayout, QWidget

from carwars_desktop.gui.small_widgets import wrapped_label
from carwars_desktop.gui.table.actions import TableActions
from carwars_desktop.gui.theme import muted_colour
from carwars_desktop.session import Clock, Game


def next_phase_button(clicked: Callable[[], object],
                      tip: str = "Ctrl+.") -> QPushButton:
    """A clock panel's Next button (its text follows the clock; Ctrl+. presses it)."""
    button = QPushButton()
    button.setToolTip(tip)
    button.clicked.connect(clicked)
    return button


def panel_column(panel: QWidget, *widgets: QWidget) -> QVBoxLayout:
    """A clock panel's one column: ``widgets`` top to bottom, the rest of it empty."""
    layout = QVBoxLayout(panel)
    for widget in widgets:
        layout.addWidget(widget)
    layout.addStretch(1)
    return layout


class ClockHeader(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.turn = QLabel()
        font = QFont(self.turn.font())
        font.setPointSizeF(font.pointSizeF() * 1.6)
        font.setBold(True)
        self.turn.setFont(font)
        self.phase = QLabel()
        phase_font = QFont(self.phase.font())
        phase_font.setPointSizeF(phase_font.pointSizeF() * 1.2)
        self.phase.setFont(phase_font)
        self.row = QLabel()
        self.row.setWordWrap(True)
        self.row.setAccessibleName("Phases of the turn")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.turn)
        layout.addWidget(self.phase)
        layout.addWidget(self.row)

    def show_clock(self, clock: Clock, phase_text: str, labels: Sequence[str],
                   current: int | None = None) -> None:
        """``labels``: a short label per phase; the ``current`` one (default: the clock's)
        is marked ▶ and bold, those before it ✓."""
        self.turn.setText(f"{clock.word.capitalize()} {clock.turn}")
        self.phase.setText(phase_text)
        at = clock.phase if current is None else current
        cells = []
        for index, label in enumerate(labels):
            if index == at:
                cells.append(f"<b>▶{label}</b>")
            elif index < at:
                cells.append(f"<span style='color:{muted_colour()}'>✓{label}</span>")
            else:
                cells.append(label)
        self.row.setText(" · ".join(cells))


class ClockPanel(QWidget):
    """What every ruleset's clock panel starts from: the session's actions, the game it
    shows and whether it is read-only, the big clock header and the vehicles' names."""

    def __init__(self, actions: TableActions, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.hub = actions
        self.game: Game | None = None
        self.read_only = False
        self.header = ClockHeader()

    def _names(self) -> dict[str, str]:
        """Each vehicle's name by its key."""
        assert self.game is not None
        return {v.key: v.name for v in self.game.vehicles}

    def _order_controls(self, text: str, tip: str,
                        clicked: Callable[[], object]) -> tuple[QLabel, QPushButton]:
        """The order of play as a line and the button that settles it."""
        button = QPushButton(text)
        button.setToolTip(tip)
        button.clicked.connect(clicked)
        return wrapped_label(), button

"""The players' display: a second window for the table's TV or second monitor.

It draws a :class:`~carwars_desktop.services.players_view.PlayersView` — the only
place that decides what the players may see — large (vehicle names 40 px, numbers
56 px on a 1920×1080 screen with up to six vehicles; more are drawn smaller until all
fit), high contrast, with a shape or a word beside every
colour, in the light or dark theme of the system palette. It listens to the change
bus (no polling) and redraws only the vehicle cards whose view changed. It never
takes the keyboard focus from the GM's window, holds nothing that changes the game,
and remembers the screen it was on (and full screen) for the next time.
"""

from __future__ import annotations

import math
from html import escape
from typing import Any

from PySide6.QtCore import QEvent, QSettings, QSize, Qt, QTimer, Signal
from PySide6.QtGui import (
    QCloseEvent,
    QColor,
    QFont,
    QFontMetricsF,
    QGuiApplication,
    QPainter,
    QPaintEvent,
    QPalette,
    QResizeEvent,
    QScreen,
    QShowEvent,
)
from PySide6.QtWidgets import (
    QApplication,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLayout,
    QMenuBar,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from carwars_desktop.gui.change_signal import ChangeSignal
from carwars_desktop.gui.elided_label import ElidedLabel, FittedLabel
from carwars_desktop.gui.shortcuts import key_text
from carwars_desktop.services import Changes, RollNotice, RollState, Services
from carwars_desktop.services.players_view import (
    PlayersView,
    RollView,
    VehicleView,
    follow_events,
    players_view,
    recent_events,
)
from carwars_desktop.session import Changes as GameChanges
from carwars_desktop.session import StoredEvent

SCREEN_KEY = "players_display/screen"
FULL_SCREEN_KEY = "players_display/full_screen"

NAME_PX = 40
NUMBER_PX = 56
TEXT_PX = 26
SMALL_PX = 22
FACTS_PER_ROW = 3


def columns_for(count: int) -> int:
    """Cards per row: 2 side by side up to four vehicles, 3 up to nine, then 4."""
    return count if count <= 2 else 2 if count <= 4 else 3 if count <= 9 else 4


FIT_WIDTH, FIT_HEIGHT = 1920, 1080
"""The window size at which the cards are drawn full size (a 1920×1080 TV; a 4K one at
200 % is the same): :meth:`PlayerDisplay.start_scale` follows the window's size."""
MIN_SCALE = 0.3
FIT_STEP = 0.92
"""Each try of :meth:`PlayerDisplay._fit` draws the text this much smaller."""
MAX_SCALE = 2.5


def scale_for(count: int) -> float:
    """How large the cards are drawn first (1: names 40 px, numbers 56 px): full size up
    to six vehicles, smaller beyond as the room per card shrinks; :meth:`PlayerDisplay.rebuild`
    then sizes them to the window and goes smaller still while anything does not fit."""
    return 1.0 if count <= 6 else 0.78 if count <= 9 else 0.7 if count <= 12 else 0.6

"""Events kept for the log lines (some may be hidden from the players)."""
TURN_MARKS = {"now": "▶ MOVES NOW", "next": "▷ next"}


def _font(pixels: int, bold: bool = False) -> QFont:
    font = QFont(QApplication.font())
    font.setPixelSize(pixels)
    font.setBold(bold)
    return font


BASE_PX = "base_px"
"""The property holding a label's full-size font (pixels): :meth:`PlayerDisplay._fit`
draws it at that size times the display's scale."""


def _label(text: str = "", pixels: int = TEXT_PX, bold: bool = False,
           name: str = "", scale: float = 1.0, elide: bool = False) -> QLabel:
    label: QLabel = ElidedLabel(text) if elide else QLabel(text)
    label.setProperty(BASE_PX, pixels)
    label.setFont(_font(max(1, round(pixels * scale)), bold))
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    if name:
        label.setObjectName(name)
    return label


MIN_LINES = 3
"""Lines a :class:`LinesLabel` always keeps room for (as many as it has, up to these):
the display's text is drawn smaller rather than the last events squeezed out (once
sharing started, its QR code took the room and "Last events" showed none)."""


class LinesLabel(FittedLabel):
    """Lines, newest last, of which it shows the newest that fit its height, each elided
    to its width: never taller than its room (the whole in :attr:`lines`), never shorter
    than :data:`MIN_LINES` of them."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.lines: list[str] = []
        self.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)

    def set_lines(self, lines: list[str]) -> None:
        self.lines = list(lines)
        self._keep_room()
        self.refit()

    def _keep_room(self) -> None:
        """The minimum height of :data:`MIN_LINES` lines in the font of now (an explicit
        minimum: a layout heeds it whatever the size policy)."""
        margins = self.contentsMargins()
        rows = min(MIN_LINES, len(self.lines))
        self.setMinimumHeight(self.line_px() * rows + margins.top()
                              + margins.bottom() if rows else 0)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt's name)
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._keep_room()

    def line_px(self) -> int:
        """The height a line takes as drawn: its font's line spacing rounded up (the
        whole pixels of ``fontMetrics()`` round down, and the last line of three was cut
        at its foot)."""
        return max(1, math.ceil(QFontMetricsF(self.font()).lineSpacing()))

    def refit(self) -> None:
        metrics = self.fontMetrics()
        room = self.contentsRect()
        fit = max(0, room.height() // self.line_px())
        # (From the start when all fit: a negative start counted from the end, and a room
        # for seven lines showed the last two of five.)
        shown = self.lines[max(0, len(self.lines) - fit):] if fit else []
        super().setText("\n".join(metrics.elidedText(line, Qt.TextElideMode.ElideRight,
                                                      max(0, room.width()))
                                   for line in shown))

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        metrics = self.fontMetrics()
        return QSize(metrics.horizontalAdvance("M") * 20,
                     metrics.lineSpacing() * max(1, len(self.lines)))

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        return QSize(0, 0)


MIN_MODULE = 4
"""The smallest QR module drawn (pixels): smaller, a phone's camera may not read it."""


class QrCode(QWidget):
    """A QR code drawn at the largest whole number of pixels per module that fits, never
    under :data:`MIN_MODULE` (its minimum size), with its 4-module quiet zone."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.matrix: tuple[tuple[bool, ...], ...] = ()
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

    def set_text(self, text: str) -> None:
        """The code of ``text`` (segno, error correction M as :func:`phone_share.qr_png`),
        or nothing when empty."""
        if text:
            import segno

            rows = segno.make_qr(text, error="m").matrix
            self.matrix = tuple(tuple(bool(m) for m in row) for row in rows)
        else:
            self.matrix = ()
        self.updateGeometry()
        self.update()

    def modules(self) -> int:
        """Modules across, with the quiet zone."""
        return len(self.matrix) + 8 if self.matrix else 0

    def module_px(self) -> int:
        """The pixels per module it paints at its present size."""
        count = self.modules()
        return min(self.width(), self.height()) // count if count else 0

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        side = self.modules() * MIN_MODULE
        return QSize(side, side)

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        side = self.modules() * 2 * MIN_MODULE
        return QSize(side, side)

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 (Qt's name)
        module = self.module_px()
        if not module:
            return
        side = module * self.modules()
        left, top = (self.width() - side) // 2, (self.height() - side) // 2
        painter = QPainter(self)
        painter.fillRect(left, top, side, side, QColor("#ffffff"))
        for y, row in enumerate(self.matrix):
            for x, dark in enumerate(row):
                if dark:
                    painter.fillRect(left + (x + 4) * module, top + (y + 4) * module,
                                     module, module, QColor("#000000"))
        painter.end()


class Theme:
    """High-contrast colours from the system palette: black on white, or white on black."""

    def __init__(self, palette: QPalette, scale: float = 1.0) -> None:
        self.scale = scale
        """The cards' sizes against the full ones (1: names 40 px, numbers 56 px)."""
        self.dark = palette.color(QPalette.ColorRole.Window).lightness() < 128
        self.background = QColor("#000000" if self.dark else "#ffffff")
        self.text = QColor("#ffffff" if self.dark else "#000000")
        self.muted = QColor("#d0d0d0" if self.dark else "#303030")
        self.levels = ({"info": "#8fd3ff", "warning": "#ffd34d", "danger": "#ff7a7a"}
                       if self.dark else
                       {"info": "#0a4a94", "warning": "#7a4b00", "danger": "#a3001b"})
        self.accent = "#ffd34d" if self.dark else "#0a4a94"

    def style(self, frame: float = 1.0) -> str:
        """The style sheet; ``frame`` widens the frames (borders, corners) on a large TV."""
        bg, fg, muted = self.background.name(), self.text.name(), self.muted.name()
        thin, thick, corner = (round(px * frame) for px in (3, 6, 10))
        return (f"PlayerDisplay, QWidget#players-body {{ background: {bg}; color: {fg}; }}"
                f" QLabel {{ color: {fg}; background: transparent; }}"
                f" QLabel[muted='true'] {{ color: {muted}; }}"
                f" QFrame#vehicle-card {{ border: {thin}px solid {muted};"
                f" border-radius: {corner}px; }}"
                f" QFrame#vehicle-card[turn='now'] {{ border: {thick}px solid {self.accent}; }}"
                f" QFrame#vehicle-card[out='true'] {{ border: {thin}px dashed {muted}; }}"
                f" QFrame#roll-panel, QFrame#log-panel {{ border: {thin}px solid {muted};"
                f" border-radius: {corner}px; }}"
                f" QMenuBar {{ background: {bg}; color: {fg}; }}")


class VehicleCard(QFrame):
    """One vehicle: name, player, turn mark, status (symbol and word), public facts."""

    def __init__(self, theme: Theme, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("vehicle-card")
        self.theme = theme
        self.view: VehicleView | None = None
        self.redraws = 0
        self.values: list[QLabel] = []
        self.words: QLabel | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 12, 16, 12)
        layout.setSpacing(4)
        top = QHBoxLayout()
        scale = theme.scale
        self.name = _label("", NAME_PX, bold=True, name="vehicle-name", scale=scale,
                           elide=True)
        self.turn = _label("", TEXT_PX, bold=True, name="vehicle-turn", scale=scale)
        top.addWidget(self.name, 1)
        top.addWidget(self.turn)
        layout.addLayout(top)
        self.player = _label("", SMALL_PX, name="vehicle-player", scale=scale, elide=True)
        self.player.setProperty("muted", True)
        layout.addWidget(self.player)
        self.status = _label("", TEXT_PX, bold=True, name="vehicle-status", scale=scale)
        self.status.setWordWrap(True)
        layout.addWidget(self.status)
        self.facts = QGridLayout()
        self.facts.setHorizontalSpacing(18)
        self.facts.setVerticalSpacing(0)
        layout.addLayout(self.facts)
        layout.addStretch(1)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)

    def show_view(self, view: VehicleView) -> bool:
        """Draw ``view``; False (nothing drawn) when it is the one shown."""
        if view == self.view:
            return False
        before, self.view = self.view, view
        self.redraws += 1
        self.name.setText(view.name)
        self.player.setText(view.player)
        self.turn.setText(TURN_MARKS.get(view.turn, ""))
        self.status.setText("   ".join(f"{s.symbol} {s.word}" for s in view.status))
        worst = max((LEVELS.index(s.level) for s in view.status if s.level in LEVELS),
                    default=0)
        self._set_style(self.status, f"color: {self.theme.levels[LEVELS[worst]]};")
        self._set_style(self.turn, f"color: {self.theme.accent};")
        if before is None or (before.turn, before.out) != (view.turn, view.out):
            self.setProperty("turn", view.turn)
            self.setProperty("out", "true" if view.out else "false")
            self.style().unpolish(self)
            self.style().polish(self)
        if before is not None and _shape(before) == _shape(view):
            self._update_facts(view)  # the same boxes: only their texts change
        else:
            self._show_facts(view)
        return True

    @staticmethod
    def _set_style(label: QLabel, style: str) -> None:
        if label.styleSheet() != style:
            label.setStyleSheet(style)

    def _show_facts(self, view: VehicleView) -> None:
        while self.facts.count():
            item = self.facts.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.setParent(None)  # out of the window at once, not at the next loop
                widget.deleteLater()
        self.values = []
        self.words = None
        numbers = [f for f in view.facts if f.number]
        for index, fact in enumerate(numbers):
            row, column = divmod(index, FACTS_PER_ROW)
            caption = _label(fact.label, SMALL_PX, name="fact-label", scale=self.theme.scale,
                             elide=True)
            caption.setProperty("muted", True)
            value = _label("", NUMBER_PX, bold=True, name="fact-value",
                           scale=self.theme.scale)
            value.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.values.append(value)
            self.facts.addWidget(caption, row * 2, column)
            self.facts.addWidget(value, row * 2 + 1, column)
        first = (len(numbers) + FACTS_PER_ROW - 1) // FACTS_PER_ROW * 2
        if any(not f.number for f in view.facts):
            self.words = _label("", TEXT_PX, name="fact-words", scale=self.theme.scale)
            self.words.setTextFormat(Qt.TextFormat.RichText)
            self.words.setWordWrap(True)
            self.facts.addWidget(self.words, first, 0, 1, FACTS_PER_ROW)
        self._update_facts(view)

    def _update_facts(self, view: VehicleView) -> None:
        numbers = [f for f in view.facts if f.number]
        for label, fact in zip(self.values, numbers, strict=True):
            label.setText(f"✖{fact.value}" if fact.lost else fact.value)
        if self.words is not None:
            # Lost things struck through with a ✖, spent ones (fired this turn, no shots)
            # with a ●, the rest with a ✔: never colour alone.
            self.words.setText("   ".join(
                f"{LOST_MARK} <s>{escape(f.label)}</s> {escape(f.value)}" if f.lost
                else f"{SPENT_MARK} {escape(f.label)} {escape(f.value)}" if f.spent
                else f"{READY_MARK} {escape(f.label)} {escape(f.value)}"
                for f in view.facts if not f.number))


LEVELS = ("info", "warning", "danger")
LOST_MARK = "✖"
"""A fact gone for good (a destroyed weapon)."""
SPENT_MARK = "●"
"""A fact used up for now (a weapon fired this turn, or with no shots left), as the
Table's full sheet marks it ("● fired")."""
READY_MARK = "✔"
"""A fact that stands (a weapon ready, a crew member well)."""


def _shape(view: VehicleView) -> tuple[tuple[str, bool], ...]:
    """The fact boxes a card draws (their labels and kinds), whatever their values."""
    return tuple((f.label, f.number) for f in view.facts)


class RollPanel(QFrame):
    """The roll in progress: procedure, who against whom, modifiers, need N+ and the exact
    odds; once applied, the dice and the result."""

    def __init__(self, theme: Theme, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("roll-panel")
        self.theme = theme
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 12, 16, 12)
        self.title = _label("", NAME_PX, bold=True, name="roll-title")
        self.title.setWordWrap(True)
        self.parties = _label("", TEXT_PX, name="roll-parties")
        self.parties.setWordWrap(True)
        self.modifiers = _label("", SMALL_PX, name="roll-modifiers")
        self.modifiers.setWordWrap(True)
        self.need = _label("", NUMBER_PX, bold=True, name="roll-need")
        self.odds = _label("", NAME_PX, bold=True, name="roll-odds")
        self.dice = _label("", NUMBER_PX, bold=True, name="roll-dice")
        self.outcome = _label("", TEXT_PX, bold=True, name="roll-outcome")
        self.outcome.setWordWrap(True)
        for widget in (self.title, self.parties, self.modifiers, self.need, self.odds,
                       self.dice, self.outcome):
            layout.addWidget(widget)
        layout.addStretch(1)
        self.show_roll(None)

    def show_roll(self, roll: RollView | None) -> None:
        if roll is None:
            self.title.setText("No roll in progress")
            for label in (self.parties, self.modifiers, self.need, self.odds, self.dice,
                          self.outcome):
                label.setText("")
            return
        self.title.setText(roll.title)
        self.parties.setText("\n".join(f"{label}: {name}" for label, name in roll.parties))
        self.modifiers.setText("\n".join(f"{value:+d}  {label}"
                                         for label, value in roll.modifiers))
        self.need.setText(f"need {roll.need}+" if roll.need is not None else "")
        self.odds.setText(roll.odds)
        self.dice.setText("dice " + " ".join(str(d) for d in roll.dice) if roll.dice else "")
        if roll.outcome:
            mark = "" if roll.success is None else "✔ " if roll.success else "✘ "
            self.outcome.setText(mark + roll.outcome)
            colour = self.theme.levels["info" if roll.success else "danger"] \
                if roll.success is not None else ""
            self.outcome.setStyleSheet(f"color: {colour};")
        else:
            self.outcome.setText("… the GM prepares the roll: waiting for the dice"
                                 if roll.state == "preparing"
                                 else "… waiting for the dice to be applied")
            self.outcome.setStyleSheet("")


class PlayerDisplay(QWidget):
    """The second window (see the module docstring)."""

    redrawn = Signal(object)
    """The vehicle keys just redrawn (the benchmark and tests listen)."""
    replayed_changed = Signal(object)
    """A replayed moment is shown (its ``PlayersView``) or the live table again (None):
    the phones follow it (``gui/phone_share.py``)."""

    def __init__(self, services: Services, settings: QSettings | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.services = services
        self._settings = settings if settings is not None else QSettings()
        # Qt adds the application's name ("… — Carwars Desktop"): named here, it showed
        # twice.
        self.setWindowTitle("Players' display")
        self.setWindowFlag(Qt.WindowType.WindowDoesNotAcceptFocus, True)
        self.setAttribute(Qt.WidgetAttribute.WA_ShowWithoutActivating, True)
        # Closing the GM's window quits the app even while the display is open.
        self.setAttribute(Qt.WidgetAttribute.WA_QuitOnClose, False)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.theme = Theme(QGuiApplication.palette())
        self._frame = 1.0
        """How much wider than full size the frames are drawn (:meth:`_apply_frame`)."""
        self._new_frames = False
        """Cards built since the frames were last sized."""
        self.view: PlayersView | None = None
        self._roll: RollNotice | None = services.table.roll
        self._events: list[StoredEvent] = []
        self.cards: dict[str, VehicleCard] = {}
        self.replayed: PlayersView | None = None
        """A replayed moment shown instead of the live table (:meth:`show_replayed`)."""

        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        # The window keeps the size the GM (or full screen) gave it: its content is fitted
        # to it (:meth:`_fit`), never the window grown to its content.
        outer.setSizeConstraint(QLayout.SizeConstraint.SetNoConstraint)
        self.menu_bar = QMenuBar(self)
        self.menu_bar.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.menu_bar.setFont(_font(SMALL_PX))
        self.screen_menu = self.menu_bar.addMenu("&Screen")
        self.screen_menu.aboutToShow.connect(self._fill_screen_menu)
        outer.setMenuBar(self.menu_bar)
        body = QWidget()
        body.setObjectName("players-body")
        outer.addWidget(body)
        layout = QVBoxLayout(body)
        layout.setContentsMargins(20, 8, 20, 8)
        header = QHBoxLayout()
        self.title = _label("", NAME_PX, bold=True, name="display-title", elide=True)
        self.clock = _label("", NUMBER_PX, bold=True, name="display-clock")
        header.addWidget(self.title, 1)
        header.addWidget(self.clock)
        layout.addLayout(header)
        self.turns = _label("", NAME_PX, name="display-turns", elide=True)
        layout.addWidget(self.turns)
        self.waiting = _label("", NAME_PX, bold=True, name="display-waiting", elide=True)
        self.waiting.setVisible(False)
        layout.addWidget(self.waiting)
        self.visibility = _label("", SMALL_PX, name="display-visibility", elide=True)
        self.visibility.setProperty("muted", True)
        layout.addWidget(self.visibility)
        row = QHBoxLayout()
        self.grid = QGridLayout()
        self.grid.setSpacing(16)
        grid_box = QWidget()
        grid_box.setLayout(self.grid)
        row.addWidget(grid_box, 3)
        side = QVBoxLayout()
        self.roll = RollPanel(self.theme)
        side.addWidget(self.roll, 3)
        log_panel = QFrame()
        log_panel.setObjectName("log-panel")
        log_layout = QVBoxLayout(log_panel)
        log_layout.setContentsMargins(16, 12, 16, 12)
        log_layout.addWidget(_label("Last events", TEXT_PX, bold=True, elide=True))
        self.log = LinesLabel()
        self.log.setObjectName("display-log")
        self.log.setFont(_font(SMALL_PX))
        self.log.setProperty(BASE_PX, SMALL_PX)
        log_layout.addWidget(self.log, 1)
        side.addWidget(log_panel, 2)
        self.share_panel = QFrame()
        self.share_panel.setObjectName("log-panel")
        share_layout = QVBoxLayout(self.share_panel)
        share_layout.setContentsMargins(16, 12, 16, 12)
        share_layout.addWidget(_label("Follow on your phone", TEXT_PX, bold=True, elide=True))
        self.share_qr = QrCode()
        self.share_qr.setObjectName("display-share-qr")
        share_layout.addWidget(self.share_qr, 1)
        self.share_link = _label("", SMALL_PX, name="display-share-link")
        self.share_link.setWordWrap(True)
        share_layout.addWidget(self.share_link)
        self.share_panel.setVisible(False)
        side.addWidget(self.share_panel, 2)
        side_box = QWidget()
        side_box.setLayout(side)
        row.addWidget(side_box, 1)
        layout.addLayout(row, 1)
        self._fit_timer = QTimer(self)
        self._fit_timer.setSingleShot(True)
        self._fit_timer.setInterval(0)
        self._fit_timer.timeout.connect(self._fit)
        self._apply_theme()

        self._signal = ChangeSignal(services.bus, self)
        self._signal.changed.connect(self._on_changes)
        self.rebuild()

    # --- drawing -----------------------------------------------------------------------
    def _view(self) -> PlayersView:
        if self.replayed is not None:
            return self.replayed
        table = self.services.table
        return players_view(table.game, table.title, self._events, self._roll)

    def show_replayed(self, view: PlayersView | None) -> None:
        """Show a replayed moment (the replay's players' view of event N) instead of the
        live table, until given None: the table's game again."""
        self.replayed = view
        self.rebuild()
        self.replayed_changed.emit(view)

    def _read_events(self) -> None:
        """The last events, read once when a session opens (then kept from the bus)."""
        game = self.services.table.game
        self._events = recent_events(game.store) if game is not None and hasattr(
            game.store, "page") else []

    def _heard_event(self, changes: GameChanges) -> None:
        """Keep the last events in step with an event, an undo or a redo (no query)."""
        self._events = follow_events(self._events, changes)

    def rebuild(self) -> None:
        """Draw everything afresh (a session opened or closed, the visibility changed)."""
        self._read_events()
        view = self._view()
        self._show_rest(view)
        self._build_cards(view)
        self.refit()
        self.redrawn.emit(frozenset(self.cards))

    def refit(self) -> None:
        """Fit the content to the window again once the events waiting are handled (many
        changes, one fit)."""
        if self.isVisible():
            self._fit_timer.start()

    def start_scale(self) -> float:
        """The cards' size to try first: full size (:func:`scale_for`) on a 1920×1080
        window, in proportion on a smaller or larger one (a 4K TV at 100 %: twice)."""
        count = len(self.view.vehicles) if self.view is not None else 0
        ratio = min(self.width() / FIT_WIDTH, self.height() / FIT_HEIGHT)
        return max(MIN_SCALE, min(MAX_SCALE, round(scale_for(count) * ratio, 3)))

    def _fit(self) -> None:
        """The largest text, from :meth:`start_scale` down, with which everything shows
        whole in the window as it is (never grown): no label cut or squeezed under the
        height its wrapped lines need, the QR code at :data:`MIN_MODULE` pixels or more.
        Only a shown window measures its wrapped lines right: a hidden one is fitted when
        it is shown."""
        self._fit_timer.stop()
        if not self.isVisible() or self.layout() is None or self.view is None:
            return
        start = self.start_scale()
        self._apply_frame(max(1.0, start))
        scale, previous = start, self.theme.scale
        if MIN_SCALE <= previous < start:
            # Most changes leave the fit as it was: try the last scale and one step up
            # before going down from the start.
            self._apply_scale(min(start, round(previous / FIT_STEP, 3)))
            if self.misfits():
                self._apply_scale(previous)
                if not self.misfits():
                    return
                scale = previous
        while True:
            self._apply_scale(scale)
            if scale <= MIN_SCALE or not self.misfits():
                break
            scale = max(MIN_SCALE, round(scale * FIT_STEP, 3))

    def _apply_frame(self, frame: float) -> None:
        """Frames, margins and gaps ``frame`` times their full size (wider on a large TV
        only: on a small one the text gives way, they stay)."""
        if frame == self._frame and not self._new_frames:
            return
        self._frame, self._new_frames = frame, False
        self.setStyleSheet(self.theme.style(frame))
        for panel in self.findChildren(QFrame):
            layout = panel.layout()
            if panel.objectName() in ("vehicle-card", "roll-panel", "log-panel") and layout:
                layout.setContentsMargins(*(round(px * frame) for px in (16, 12, 16, 12)))
        self.grid.setSpacing(round(16 * frame))
        self.menu_bar.setFont(_font(round(SMALL_PX * frame)))

    def _apply_scale(self, scale: float) -> None:
        """Every label's font at its full size (:data:`BASE_PX`) times ``scale``, then the
        layout settled at the window's size."""
        self.theme.scale = scale
        for label in self.findChildren(QLabel):
            base = label.property(BASE_PX)
            if not base:
                continue
            pixels = max(1, round(int(base) * scale))
            font = label.font()
            if font.pixelSize() != pixels:
                font.setPixelSize(pixels)
                label.setFont(font)
        layout = self.layout()
        for _ in range(3):  # a layout that changes posts its parents' requests in turn
            QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
            if layout is not None:
                layout.activate()

    def misfits(self) -> list[str]:
        """What does not show whole at the present size (empty when everything fits)."""
        problems: list[str] = []
        layout = self.layout()
        if layout is not None:
            needed = layout.totalMinimumSize()
            if needed.width() > self.width() or needed.height() > self.height():
                problems.append(f"needs {needed.width()}×{needed.height()} px")
        for label in self.findChildren(QLabel):
            if not label.isVisibleTo(self) or not label.text() or isinstance(
                    label, (ElidedLabel, LinesLabel)):
                continue
            room = label.contentsRect()
            if label.wordWrap():
                if label.heightForWidth(label.width()) > label.height() + 1:
                    problems.append(f"{label.objectName()}: wrapped lines squeezed")
                elif label.minimumSizeHint().width() > label.width() + 1:
                    problems.append(f"{label.objectName()}: a word too wide")
            else:
                hint = label.sizeHint()
                if hint.width() > room.width() + 1 or hint.height() > room.height() + 1:
                    problems.append(f"{label.objectName()}: cut")
        if self.share_qr.isVisibleTo(self) and self.share_qr.module_px() < MIN_MODULE:
            problems.append(f"QR modules {self.share_qr.module_px()} px")
        return problems

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt's name)
        super().showEvent(event)
        self.refit()  # once the shown window has its real widths

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        self.refit()

    def _build_cards(self, view: PlayersView) -> None:
        for card in self.cards.values():
            card.setParent(None)  # out of the window at once, not at the next loop
            card.deleteLater()
        self.cards = {}
        self._new_frames = True
        columns = columns_for(len(view.vehicles))
        for column in range(self.grid.columnCount()):
            self.grid.setColumnStretch(column, 0)
        for column in range(columns):  # cards of one width, whatever their names' lengths
            self.grid.setColumnStretch(column, 1)
        for index, vehicle in enumerate(view.vehicles):
            card = VehicleCard(self.theme)
            self.cards[vehicle.key] = card
            self.grid.addWidget(card, *divmod(index, columns))
            card.show_view(vehicle)

    def _show_rest(self, view: PlayersView) -> None:
        self.view = view
        self.title.setText(view.title)
        clock = view.clock
        self.clock.setText("" if clock is None else clock.title)
        if clock is not None and (clock.now or clock.next):
            parts = []
            if clock.now:
                parts.append("▶ Now: " + ", ".join(clock.now))
            if clock.next:
                parts.append("▷ Next: " + ", ".join(clock.next))
            self.turns.setText("     ".join(parts))
        else:
            self.turns.setText("")
        self.turns.setVisible(bool(self.turns.text()))
        notes = [] if view.sheets_open else ["record sheets secret"]
        if not view.odds_shown:
            notes.append("odds hidden")
        self.visibility.setText(" · ".join(notes))
        self.visibility.setVisible(bool(notes))
        self.roll.show_roll(view.roll)
        self.log.set_lines([f"• {line}" for line in view.log])

    def _on_changes(self, changes: Changes) -> None:
        if self.replayed is not None:  # the replay shows a moment of its own: the table's
            if changes.game is not None:  # events are still followed for afterwards
                self._heard_event(changes.game)
            return
        if changes.roll is not None:
            self._roll = changes.roll if changes.roll.state is not RollState.DISCARDED else None
        if changes.session:
            self._roll = None
            self.rebuild()
            return
        game = changes.game
        if game is not None and game.settings:
            self.rebuild()
            return
        if game is None and changes.roll is None:
            return
        if game is not None:
            self._heard_event(game)
        view = self._view()
        redrawn = set()
        for vehicle in view.vehicles:
            card = self.cards.get(vehicle.key)
            if card is None:
                continue
            # The sheets that changed, and any whose turn mark moved with the clock.
            if (vehicle.key in changes.vehicles or card.view is None
                    or card.view.turn != vehicle.turn) and card.show_view(vehicle):
                redrawn.add(vehicle.key)
        self._show_rest(view)
        self.refit()
        self.redrawn.emit(frozenset(redrawn))

    def show_sharing(self, url: str) -> None:
        """The phones' page link and its QR code (Share to players' devices), or
        nothing when ``url`` is empty. The window keeps its size: the rest is drawn
        smaller to make room (:meth:`_fit`)."""
        self.share_panel.setVisible(bool(url))
        # A link breaks after its slashes only (a zero-width space): never cut at the side.
        self.share_link.setText(url.replace("/", "/\u200b"))
        self.share_qr.set_text(url)
        self.refit()

    def show_waiting(self, names: list[str]) -> None:
        """"Secret speeds: waiting for: Bob, Di" while a secret choice is open (never the
        values: the reveal is the event that follows), nothing otherwise."""
        text = f"Secret speeds — waiting for: {', '.join(names)}" if names else ""
        if text != self.waiting.property("waiting-for"):
            self.waiting.setProperty("waiting-for", text)
            self.waiting.setText(text)
            self.waiting.setVisible(bool(text))
            self.refit()

    def texts(self) -> list[str]:
        """The text of every label shown, whole (what a test checks for hidden values)."""
        return [label.full_text if isinstance(label, ElidedLabel)
                else "\n".join(label.lines) if isinstance(label, LinesLabel)
                else label.text().replace("\u200b", "")
                for label in self.findChildren(QLabel)]

    # --- theme ---------------------------------------------------------------------------
    def _apply_theme(self) -> None:
        self.theme = Theme(QGuiApplication.palette(), self.theme.scale)
        self.roll.theme = self.theme
        for card in getattr(self, "cards", {}).values():
            card.theme = self.theme
        self.setStyleSheet(self.theme.style(self._frame))

    def event(self, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.ApplicationPaletteChange, QEvent.Type.PaletteChange,
                            QEvent.Type.ThemeChange) and hasattr(self, "roll"):
            self._follow_palette()
        return super().event(event)

    def _follow_palette(self) -> None:
        """The system switched between light and dark: redraw in the other colours."""
        if Theme(QGuiApplication.palette()).dark == self.theme.dark:
            return
        self._apply_theme()
        for card in self.cards.values():
            view, card.view = card.view, None
            if view is not None:
                card.show_view(view)
        if self.view is not None:
            self.roll.show_roll(self.view.roll)

    # --- screens -------------------------------------------------------------------------
    def _fill_screen_menu(self) -> None:
        self.screen_menu.clear()
        current = self.screen()
        for screen in QGuiApplication.screens():
            action = self.screen_menu.addAction(
                f"{screen.name()} ({screen.size().width()}×{screen.size().height()})")
            action.setCheckable(True)
            action.setChecked(screen is current)
            action.triggered.connect(lambda _checked=False, s=screen: self.move_to(s))
        self.screen_menu.addSeparator()
        keys = key_text("global.player_display_full_screen")
        full = self.screen_menu.addAction(f"Full screen\t{keys}")
        full.setCheckable(True)
        full.setChecked(self.isFullScreen())
        full.triggered.connect(self.toggle_full_screen)
        self.screen_menu.addAction("Close the display").triggered.connect(self.close)

    def move_to(self, screen: QScreen) -> None:
        """Show the display on ``screen`` (kept for next time)."""
        full = self.isFullScreen()
        if full:
            self.showNormal()
        self.setScreen(screen)
        area = screen.availableGeometry()
        self.setGeometry(area.adjusted(40, 40, -40, -40))
        if full:
            self.showFullScreen()
        self._remember()

    def toggle_full_screen(self) -> None:
        if self.isFullScreen():
            self.showNormal()
        else:
            self.showFullScreen()
        self._remember()

    def _remember(self) -> None:
        screen = self.screen()
        if screen is not None:
            self._settings.setValue(SCREEN_KEY, screen.name())
        self._settings.setValue(FULL_SCREEN_KEY, self.isFullScreen())
        self._settings.sync()

    def saved_screen(self) -> QScreen | None:
        name = str(self._settings.value(SCREEN_KEY, ""))
        return next((s for s in QGuiApplication.screens() if s.name() == name), None)

    def open(self) -> None:
        """Show on the screen it was on last time (full screen if it was), without
        taking the focus."""
        screen = self.saved_screen()
        if screen is not None:
            self.setScreen(screen)
            self.setGeometry(screen.availableGeometry().adjusted(40, 40, -40, -40))
        elif not self.isVisible():
            self.resize(1280, 720)
        if _truthy(self._settings.value(FULL_SCREEN_KEY, False)):
            self.showFullScreen()
        else:
            self.show()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt's name)
        self._remember()
        super().closeEvent(event)


def _truthy(value: Any) -> bool:
    return value is True or str(value).lower() == "true"


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

from html import escape
from typing import Any

from PySide6.QtCore import QEvent, QSettings, Qt, QTimer, Signal
from PySide6.QtGui import (
    QCloseEvent,
    QColor,
    QFont,
    QGuiApplication,
    QPalette,
    QPixmap,
    QScreen,
    QShowEvent,
)
from PySide6.QtWidgets import (
    QApplication,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QMenuBar,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from carwars_desktop.gui.change_signal import ChangeSignal
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
"""The screen every card must fit (a 1920×1080 TV; a 4K one at 200 % is the same)."""
MIN_SCALE = 0.5


def scale_for(count: int) -> float:
    """How large the cards are drawn first (1: names 40 px, numbers 56 px): full size up
    to six vehicles, smaller beyond as the room per card shrinks; :meth:`PlayerDisplay.rebuild`
    goes smaller still while the cards do not fit :data:`FIT_WIDTH` × :data:`FIT_HEIGHT`."""
    return 1.0 if count <= 6 else 0.78 if count <= 9 else 0.7 if count <= 12 else 0.6

"""Events kept for the log lines (some may be hidden from the players)."""
TURN_MARKS = {"now": "▶ MOVES NOW", "next": "▷ next"}


def _font(pixels: int, bold: bool = False) -> QFont:
    font = QFont(QApplication.font())
    font.setPixelSize(pixels)
    font.setBold(bold)
    return font


def _label(text: str = "", pixels: int = TEXT_PX, bold: bool = False,
           name: str = "") -> QLabel:
    label = QLabel(text)
    label.setFont(_font(pixels, bold))
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    if name:
        label.setObjectName(name)
    return label


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

    def style(self) -> str:
        bg, fg, muted = self.background.name(), self.text.name(), self.muted.name()
        return (f"PlayerDisplay, QWidget#players-body {{ background: {bg}; color: {fg}; }}"
                f" QLabel {{ color: {fg}; background: transparent; }}"
                f" QLabel[muted='true'] {{ color: {muted}; }}"
                f" QFrame#vehicle-card {{ border: 3px solid {muted}; border-radius: 10px; }}"
                f" QFrame#vehicle-card[turn='now'] {{ border: 6px solid {self.accent}; }}"
                f" QFrame#vehicle-card[out='true'] {{ border: 3px dashed {muted}; }}"
                f" QFrame#roll-panel, QFrame#log-panel {{ border: 3px solid {muted};"
                f" border-radius: 10px; }}"
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
        self.name = _label("", self._px(NAME_PX), bold=True, name="vehicle-name")
        self.turn = _label("", self._px(TEXT_PX), bold=True, name="vehicle-turn")
        top.addWidget(self.name, 1)
        top.addWidget(self.turn)
        layout.addLayout(top)
        self.player = _label("", self._px(SMALL_PX), name="vehicle-player")
        self.player.setProperty("muted", True)
        layout.addWidget(self.player)
        self.status = _label("", self._px(TEXT_PX), bold=True, name="vehicle-status")
        self.status.setWordWrap(True)
        layout.addWidget(self.status)
        self.facts = QGridLayout()
        self.facts.setHorizontalSpacing(18)
        self.facts.setVerticalSpacing(0)
        layout.addLayout(self.facts)
        layout.addStretch(1)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)

    def _px(self, pixels: int) -> int:
        return round(pixels * self.theme.scale)

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
            caption = _label(fact.label, self._px(SMALL_PX), name="fact-label")
            caption.setProperty("muted", True)
            value = _label("", self._px(NUMBER_PX), bold=True, name="fact-value")
            value.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.values.append(value)
            self.facts.addWidget(caption, row * 2, column)
            self.facts.addWidget(value, row * 2 + 1, column)
        first = (len(numbers) + FACTS_PER_ROW - 1) // FACTS_PER_ROW * 2
        if any(not f.number for f in view.facts):
            self.words = _label("", self._px(TEXT_PX), name="fact-words")
            self.words.setTextFormat(Qt.TextFormat.RichText)
            self.words.setWordWrap(True)
            self.facts.addWidget(self.words, first, 0, 1, FACTS_PER_ROW)
        self._update_facts(view)

    def _update_facts(self, view: VehicleView) -> None:
        numbers = [f for f in view.facts if f.number]
        for label, fact in zip(self.values, numbers, strict=True):
            label.setText(f"✖{fact.value}" if fact.lost else fact.value)
        if self.words is not None:
            # Lost things struck through with a ✖, the rest with a ✔: never colour alone.
            self.words.setText("   ".join(
                f"✖ <s>{escape(f.label)}</s> {escape(f.value)}" if f.lost
                else f"✔ {escape(f.label)} {escape(f.value)}"
                for f in view.facts if not f.number))


LEVELS = ("info", "warning", "danger")


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

    def __init__(self, services: Services, settings: QSettings | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.services = services
        self._settings = settings if settings is not None else QSettings()
        self.setWindowTitle("Carwars Desktop — players' display")
        self.setWindowFlag(Qt.WindowType.WindowDoesNotAcceptFocus, True)
        self.setAttribute(Qt.WidgetAttribute.WA_ShowWithoutActivating, True)
        # Closing the GM's window quits the app even while the display is open.
        self.setAttribute(Qt.WidgetAttribute.WA_QuitOnClose, False)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.theme = Theme(QGuiApplication.palette())
        self.view: PlayersView | None = None
        self._roll: RollNotice | None = services.table.roll
        self._events: list[StoredEvent] = []
        self.cards: dict[str, VehicleCard] = {}
        self.replayed: PlayersView | None = None
        """A replayed moment shown instead of the live table (:meth:`show_replayed`)."""

        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
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
        self.title = _label("", NAME_PX, bold=True, name="display-title")
        self.clock = _label("", NUMBER_PX, bold=True, name="display-clock")
        header.addWidget(self.title, 1)
        header.addWidget(self.clock)
        layout.addLayout(header)
        self.turns = _label("", NAME_PX, name="display-turns")
        layout.addWidget(self.turns)
        self.visibility = _label("", SMALL_PX, name="display-visibility")
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
        log_layout.addWidget(_label("Last events", TEXT_PX, bold=True))
        self.log = _label("", SMALL_PX, name="display-log")
        self.log.setWordWrap(True)
        log_layout.addWidget(self.log)
        log_layout.addStretch(1)
        side.addWidget(log_panel, 2)
        self.share_panel = QFrame()
        self.share_panel.setObjectName("log-panel")
        share_layout = QVBoxLayout(self.share_panel)
        share_layout.setContentsMargins(16, 12, 16, 12)
        share_layout.addWidget(_label("Follow on your phone", TEXT_PX, bold=True))
        self.share_qr = QLabel()
        self.share_qr.setObjectName("display-share-qr")
        self.share_qr.setAlignment(Qt.AlignmentFlag.AlignCenter)
        share_layout.addWidget(self.share_qr)
        self.share_link = _label("", SMALL_PX, name="display-share-link")
        self.share_link.setWordWrap(True)
        share_layout.addWidget(self.share_link)
        self.share_panel.setVisible(False)
        side.addWidget(self.share_panel, 2)
        side_box = QWidget()
        side_box.setLayout(side)
        side_box.setMinimumWidth(420)
        row.addWidget(side_box, 1)
        layout.addLayout(row, 1)
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
        self._build_cards(view, scale_for(len(view.vehicles)))
        if self.isVisible():
            QTimer.singleShot(0, self._fit)
        self.redrawn.emit(frozenset(self.cards))

    def _fit(self) -> None:
        """Smaller cards until all of them fit the reference TV (dense cards, many
        vehicles). Only a shown window measures its wrapped lines right: a hidden one
        is fitted when it is shown."""
        layout = self.layout()
        if not self.isVisible() or layout is None or self.view is None:
            return
        scale = self.theme.scale
        while True:
            QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
            layout.activate()
            needed = self.minimumSizeHint()
            if (needed.width() <= FIT_WIDTH and needed.height() <= FIT_HEIGHT) \
                    or scale <= MIN_SCALE:
                break
            scale = max(MIN_SCALE, round(scale - 0.08, 2))
            self._build_cards(self.view, scale)
        if not self.isFullScreen() and not self.isMaximized() and (
                self.width() > FIT_WIDTH or self.height() > FIT_HEIGHT):
            self.resize(min(self.width(), max(FIT_WIDTH, needed.width())),
                        min(self.height(), max(FIT_HEIGHT, needed.height())))

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt's name)
        super().showEvent(event)
        QTimer.singleShot(0, self._fit)  # once the shown window has its real widths

    def _build_cards(self, view: PlayersView, scale: float) -> None:
        for card in self.cards.values():
            card.setParent(None)  # out of the window at once, not at the next loop
            card.deleteLater()
        self.cards = {}
        self.theme.scale = scale
        columns = columns_for(len(view.vehicles))
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
        self.log.setText("\n".join(f"• {line}" for line in view.log))

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
        self.redrawn.emit(frozenset(redrawn))

    def show_sharing(self, url: str, qr_png: bytes) -> None:
        """The phones' page link and its QR code (Share to players' devices), or
        nothing when ``url`` is empty."""
        self.share_panel.setVisible(bool(url))
        self.share_link.setText(url)
        if url:
            pixmap = QPixmap()
            pixmap.loadFromData(qr_png, "PNG")
            self.share_qr.setPixmap(pixmap)
        else:
            self.share_qr.clear()

    def texts(self) -> list[str]:
        """The text of every label shown (what a test checks for hidden values)."""
        return [label.text() for label in self.findChildren(QLabel)]

    # --- theme ---------------------------------------------------------------------------
    def _apply_theme(self) -> None:
        self.theme = Theme(QGuiApplication.palette(), self.theme.scale)
        self.roll.theme = self.theme
        for card in getattr(self, "cards", {}).values():
            card.theme = self.theme
        self.setStyleSheet(self.theme.style())

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


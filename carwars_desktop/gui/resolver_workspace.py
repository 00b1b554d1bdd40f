"""The Resolver: pick a procedure, see the modifier stack and exact odds, throw, apply.

Forms, odds and explanations all come from the procedure declarations of the
rules engines: nothing here knows a rule. The Table service resolves; its pending
result's Apply writes it to the running session as one undoable event, Discard
leaves only the roll in the log (both logged with the exact P(success)).
"""

from __future__ import annotations

import re
from typing import Any

from PySide6.QtCore import QSettings, QSortFilterProxyModel, Qt, QTimer
from PySide6.QtGui import QFont, QHideEvent, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListView,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTableView,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from carwars_desktop.gui.change_signal import ChangeSignal
from carwars_desktop.gui.distribution_chart import DistributionChart
from carwars_desktop.gui.elided_combo import ElidedComboBox
from carwars_desktop.gui.game_context import GameContext
from carwars_desktop.gui.house_rules import HouseRulesDialog, HouseRulesPanel, saved_profiles
from carwars_desktop.gui.operation import Ops, Retry
from carwars_desktop.gui.outcome_table import fill_outcome_table
from carwars_desktop.gui.procedure_form import ProcedureForm
from carwars_desktop.gui.reference_model import ProcedureListModel, ReferenceTableModel
from carwars_desktop.gui.resolving import REFUSED_HINT, dice_hint, explanation_html, refused_odds
from carwars_desktop.gui.shortcuts import RESOLVER
from carwars_desktop.gui.small_widgets import dice_entry, dice_row, error_label
from carwars_desktop.gui.theme import level_colour
from carwars_desktop.gui.workspace import Workspace
from carwars_desktop.gui.write_banner import WriteBanner
from carwars_desktop.procedures import Odds, Procedure, Resolution
from carwars_desktop.rules import all_procedures, find_ruleset
from carwars_desktop.rules.play import Level
from carwars_desktop.services import (
    Changes,
    Discarded,
    PendingResolution,
    PendingState,
    ResolveError,
    procedure_sides,
    typed_dice,
)
from carwars_desktop.session import GameError, StaleSessionError
from carwars_desktop.session.house_rules import HouseRules

LOADING = "Loading the ruleset's procedures…"
"""Where the procedure's title goes, in the turn the GM switched to the Resolver before
its procedures were loaded (they are on the next one)."""

LEFT_WIDTH = 470
"""The width of the search, list and form column (the splitter moves it)."""

FOLLOW_MS = 150
"""How long the typing in the procedure search pauses before the form follows the
procedure highlighted."""


def _right(text: str) -> QTableWidgetItem:
    item = QTableWidgetItem(text)
    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    return item


class ResolverWorkspace(Workspace):
    title = "Resolver"
    shortcut_context = RESOLVER

    def __init__(self, context: GameContext, parent: QWidget | None = None,
                 settings: QSettings | None = None) -> None:
        super().__init__(parent)
        self.context = context
        # Where the last procedure of each ruleset is remembered (None: not remembered).
        self._settings = settings
        # The procedure and form state the result on screen was resolved from.
        self._result_inputs: tuple[str, dict[str, Any]] | None = None
        # The form the players were last told of (procedure id, its inputs): None when
        # no roll of the Resolver's is announced.
        self._announced: tuple[str, str] | None = None
        self._rebuilding = False
        self._ruleset = ""
        self._loaded = False
        self.procedure: Procedure | None = None
        self.odds: Odds | None = None

        # Procedure search and list.
        self.search = QLineEdit()
        self.search.setPlaceholderText("Find a procedure (Ctrl+K): to hit, control, ram…")
        self.search.setAccessibleName("Procedure search")
        self.procedure_model = ProcedureListModel()
        self.filter_model = QSortFilterProxyModel()
        self.filter_model.setSourceModel(self.procedure_model)
        self.filter_model.setFilterRole(Qt.ItemDataRole.UserRole)
        self.filter_model.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.procedure_list = QListView()
        self.procedure_list.setModel(self.filter_model)
        self.procedure_list.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.procedure_list.setMinimumHeight(150)
        self.procedure_list.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.procedure_list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # The form follows the procedure highlighted as the GM types in the search (once
        # the typing pauses: one form built for "fire", not four); when it cannot (a
        # roll on screen not applied, a procedure not offered, nothing found) this says
        # so, never leaving another procedure's form looking current.
        self.highlight_note = QLabel()
        self.highlight_note.setObjectName("highlight-note")
        self.highlight_note.setWordWrap(True)
        self.highlight_note.setVisible(False)
        self._follow = QTimer(self)
        self._follow.setSingleShot(True)
        self._follow.setInterval(FOLLOW_MS)
        self._follow.timeout.connect(self._follow_highlight)

        # The generated form.
        self.procedure_title = QLabel()
        self.procedure_title.setWordWrap(True)
        title_font = QFont(self.procedure_title.font())
        title_font.setPointSizeF(title_font.pointSizeF() * 1.2)
        title_font.setBold(True)
        self.procedure_title.setFont(title_font)
        self.form = ProcedureForm()
        form_scroll = QScrollArea()
        form_scroll.setWidgetResizable(True)
        form_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        form_scroll.setWidget(self.form)
        self.form_error = error_label()
        self.house_panel = HouseRulesPanel()
        self.house_panel.change_requested.connect(self.change_house_rules)
        self._own_house: dict[str, HouseRules] = {}
        """The house rules of the Resolver's rolls per ruleset when no session runs."""

        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.addWidget(self.search)
        left_layout.addWidget(self.procedure_list, 2)
        left_layout.addWidget(self.highlight_note)
        left_layout.addWidget(self.procedure_title)
        left_layout.addWidget(form_scroll, 3)
        left_layout.addWidget(self.house_panel)
        left_layout.addWidget(self.form_error)

        # The modifier stack and the exact odds.
        self.need_label = QLabel()
        self._need_font = QFont(self.need_label.font())
        self._need_font.setBold(True)
        self._need_base_size = self._need_font.pointSizeF()
        self.need_label.setWordWrap(True)
        self.modifier_table = QTableWidget(0, 3)
        self.modifier_table.setHorizontalHeaderLabels(["Modifier", "", "Rule"])
        self.outcome_table = QTableWidget(0, 3)
        self.outcome_table.setHorizontalHeaderLabels(["Outcome", "Exact", "%"])
        for table in (self.modifier_table, self.outcome_table):
            table.verticalHeader().hide()
            table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
            table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
            table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
            table.horizontalHeader().setSectionResizeMode(
                1, QHeaderView.ResizeMode.ResizeToContents)
            table.horizontalHeader().setSectionResizeMode(
                2, QHeaderView.ResizeMode.ResizeToContents)
        self.expected_label = QLabel()
        self.expected_label.setWordWrap(True)
        odds_box = QGroupBox("Before the dice")
        odds_layout = QVBoxLayout(odds_box)
        odds_layout.addWidget(self.modifier_table, 2)
        odds_layout.addWidget(self.need_label)
        odds_layout.addWidget(self.outcome_table, 2)
        odds_layout.addWidget(self.expected_label)

        # The chart and the reference tables share the right-hand side.
        self.chart = DistributionChart()
        self.reference_choice = ElidedComboBox()
        self.reference_choice.setAccessibleName("Reference table")
        self.reference_model = ReferenceTableModel()
        self.reference_view = QTableView()
        self.reference_view.setModel(self.reference_model)
        self.reference_view.verticalHeader().hide()
        self.reference_view.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents)
        self.reference_view.horizontalHeader().setStretchLastSection(True)
        self.reference_note = QLabel()
        self.reference_note.setWordWrap(True)
        reference = QWidget()
        reference_layout = QVBoxLayout(reference)
        reference_layout.addWidget(self.reference_choice)
        reference_layout.addWidget(self.reference_view, 1)
        reference_layout.addWidget(self.reference_note)
        self.side_tabs = QTabWidget()
        self.side_tabs.addTab(self.chart, "Distribution")
        self.side_tabs.addTab(reference, "Reference tables")

        # Dice entry, result, apply.
        self.dice_hint, self.dice_edit, self.roll_button = dice_entry(
            "type the dice thrown, in order, then Enter (Ctrl+D)")
        self.dice_error = error_label()
        self.result_view = QTextBrowser()
        self.result_view.setMinimumHeight(110)
        self.apply_button = QPushButton("&Apply to the sheets")
        self.apply_button.setToolTip("Write the effects to the Table as one event (Ctrl+Enter)")
        self.discard_button = QPushButton("&Discard")
        self.discard_button.setToolTip("Keep only the roll in the log (Esc)")
        self.status_label = QLabel()
        self.status_label.setWordWrap(True)

        dice_line = dice_row(self.dice_edit, self.roll_button)
        buttons = QHBoxLayout()
        buttons.addWidget(self.status_label, 1)
        buttons.addWidget(self.discard_button)
        buttons.addWidget(self.apply_button)
        bottom = QWidget()
        bottom_layout = QGridLayout(bottom)
        bottom_layout.setContentsMargins(0, 0, 0, 0)
        bottom_layout.addWidget(self.dice_hint, 0, 0)
        bottom_layout.addLayout(dice_line, 1, 0)
        bottom_layout.addWidget(self.dice_error, 2, 0)
        bottom_layout.addWidget(self.result_view, 3, 0)
        bottom_layout.addLayout(buttons, 4, 0)

        upper = QSplitter()
        upper.addWidget(odds_box)
        upper.addWidget(self.side_tabs)
        upper.setSizes([400, 480])
        right = QSplitter(Qt.Orientation.Vertical)
        right.addWidget(upper)
        right.addWidget(bottom)
        right.setSizes([480, 300])
        main = QSplitter()
        main.addWidget(left)
        main.addWidget(right)
        # The form's column keeps its width as the window narrows (at 1366 a twelve-vehicle
        # evening's names show whole in its boxes: "Mini Sherman (a) 10 (P10)"); the odds
        # and the chart take what is left, and all that a wider window adds.
        main.setStretchFactor(0, 0)
        main.setStretchFactor(1, 1)
        main.setSizes([LEFT_WIDTH, 880])
        self.banner = WriteBanner()
        self.ops = Ops(self.banner.show_message, context.service.bus)
        """How the Resolver's operations run (a refused write: the banner, with Retry)."""
        layout = QVBoxLayout(self)
        layout.addWidget(self.banner)
        layout.addWidget(main)

        self.search.textChanged.connect(self._filter)
        self.search.returnPressed.connect(self._choose_highlighted)
        self.procedure_list.activated.connect(lambda index: self._choose(index.row()))
        self.procedure_list.clicked.connect(lambda index: self._choose(index.row()))
        self.procedure_list.selectionModel().currentChanged.connect(
            lambda *_: self._follow.start())
        self.form.changed.connect(self._refresh_odds)
        self.form.changed.connect(self._clear_stale_result)
        self.form.changed.connect(self._announce)  # (after a stale result is discarded)
        self.dice_edit.returnPressed.connect(self.resolve_entered)
        self.roll_button.clicked.connect(self.roll)
        self.apply_button.clicked.connect(self.apply)
        self.discard_button.clicked.connect(lambda: self.discard())
        self.reference_choice.currentIndexChanged.connect(self._show_reference)
        self._shortcut("resolver.search", self._focus_search)
        self._shortcut("resolver.dice", self.dice_edit.setFocus)
        self._shortcut("resolver.roll", self.roll)
        self._shortcut("resolver.apply", self.apply)
        self._shortcut("resolver.discard", self.discard)
        self._stale = False
        self.context.game_changed.connect(self._game_changed)
        # A roll made elsewhere (a Table dialog, the quick line) discards the result on
        # screen: the one slot of the Table service.
        ChangeSignal(context.service.bus, self).changed.connect(self._heard)
        self.context.changed.connect(lambda _changes: self._game_changed())
        self._set_result(None)

    @property
    def pending(self) -> PendingResolution | None:
        """The Resolver's result on screen (the Table service's slot), waiting for Apply
        or Discard."""
        return self.context.service.shown_by(self)

    @property
    def resolution(self) -> Resolution | None:
        """The result on screen waiting for Apply or Discard."""
        pending = self.pending
        return pending.resolution if pending is not None else None

    def _heard(self, changes: Changes) -> None:
        if not changes.discarded_for(self):
            return
        if self.apply_button.isEnabled() or self.discard_button.isEnabled():
            self._set_result(None)
            self.status_label.setText("Discarded: the roll stays in the log.")

    def _game_changed(self) -> None:
        """Sheets changed: rebuild the form now if it is on screen, else when it is shown."""
        if self.isVisible():
            self._reload_form()
        else:
            self._stale = True

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802
        super().showEvent(event)
        if self._stale:
            self._stale = False
            self._reload_form()
        # Nothing announced on arrival: the players go on seeing what the Table showed
        # (a result it has just applied) until the GM works in this form.

    def hideEvent(self, event: QHideEvent) -> None:  # noqa: N802
        # Another workspace on screen: the form it filled is no longer a roll in progress.
        super().hideEvent(event)
        self._withdraw()

    # --- Workspace hooks -----------------------------------------------
    def set_ruleset(self, ruleset_id: str) -> None:
        self._ruleset = ruleset_id
        if self._loaded:
            self._load_ruleset()

    def load_deferred(self) -> None:
        self._loaded = True
        self._load_ruleset()

    def show_loading(self) -> None:
        if not self._loaded:
            self.procedure_title.setText(LOADING)
            self.chart.show_coming()

    def _load_ruleset(self) -> None:
        procedures = all_procedures(self._ruleset)
        self.procedure_model.set_procedures(procedures)
        ruleset = find_ruleset(self._ruleset)
        self.reference_choice.blockSignals(True)
        self.reference_choice.clear()
        for table in ruleset.tables:
            self.reference_choice.addItem(f"{table.title} ({table.rule})", table.id)
        self.reference_choice.blockSignals(False)
        self._show_reference()
        self._offer()
        first_own = next((i for i, p in enumerate(procedures) if p.ruleset == self._ruleset
                          and self.procedure_model.offered(i)), 0)
        remembered = self._remembered_procedure()
        if any(p.id == remembered for i, p in enumerate(procedures)
               if self.procedure_model.offered(i)):
            self.select_procedure(remembered)
        else:
            self.select_procedure(procedures[first_own].id if procedures else None)

    def _settings_key(self) -> str:
        return f"resolver/last_procedure/{self._ruleset}"

    def _remembered_procedure(self) -> str | None:
        if self._settings is None:
            return None
        value = self._settings.value(self._settings_key())
        return str(value) if value else None

    def _remember_procedure(self) -> None:
        if self._settings is None or self.procedure is None:
            return
        self._settings.setValue(self._settings_key(), self.procedure.id)
        self._settings.sync()

    # --- choosing ------------------------------------------------------
    def _focus_search(self) -> None:
        self.search.setFocus()
        self.search.selectAll()

    def _filter(self, text: str) -> None:
        words = [re.escape(w) for w in text.split()]
        self.filter_model.setFilterRegularExpression("".join(f"(?=.*{w})" for w in words))
        if self.filter_model.rowCount():
            self.procedure_list.setCurrentIndex(self.filter_model.index(0, 0))
        self._follow.start()

    def _follow_highlight(self) -> None:
        """The form of the procedure highlighted, unless that would lose a roll not yet
        applied or the procedure is not offered: then the note says what Enter does and
        which procedure the form below still is (the players are told of neither: their
        display shows a procedure once the GM chooses it)."""
        shown = self.procedure
        still = f"The form below is still {shown.title}." if shown is not None else ""
        if not self.filter_model.rowCount():
            self._note(f"No procedure matches “{self.search.text().strip()}”. {still}")
            return
        index = self.procedure_list.currentIndex()
        if not index.isValid():
            self._note("")
            return
        source = self.filter_model.mapToSource(index)
        procedure = self.procedure_model.procedure(source.row())
        if procedure is shown:
            self._note("")
            return
        reason = self.procedure_model.not_offered(procedure)
        if reason:
            self._note(f"{procedure.title} is not offered: {reason}. {still}")
        elif self.pending is not None:
            self._note(f"Enter opens {procedure.title} (the roll on screen, not applied, is "
                       f"then discarded). {still}")
        else:
            self._note("")
            self.select_procedure(procedure.id)
            self._withdraw()  # (the players are told of it once the GM chooses it)

    def _note(self, text: str) -> None:
        self.highlight_note.setText(f"▸ {text.strip()}" if text.strip() else "")
        self.highlight_note.setStyleSheet(f"color: {level_colour(Level.WARNING)};")
        self.highlight_note.setVisible(bool(text.strip()))

    def _choose_highlighted(self) -> None:
        self._follow.stop()
        index = self.procedure_list.currentIndex()
        if not index.isValid() and self.filter_model.rowCount():
            index = self.filter_model.index(0, 0)
        if index.isValid():
            self._choose(index.row())
            self.form.focus_first()

    def _choose(self, proxy_row: int) -> None:
        self._follow.stop()
        source = self.filter_model.mapToSource(self.filter_model.index(proxy_row, 0))
        procedure = self.procedure_model.procedure(source.row())
        reason = self.procedure_model.not_offered(procedure)
        if reason:  # greyed in the list: say why instead of opening it
            self.form_error.setText(f"⚠ {procedure.title} is not offered: {reason}. "
                                    "Change house rules… switches it on.")
            return
        self.select_procedure(procedure.id)
        self._note("")
        self._announce()  # the GM chose it: the players see its odds

    def select_procedure(self, procedure_id: str | None) -> None:
        previous = self.procedure
        self.procedure = None
        if procedure_id is not None:
            for row in range(self.procedure_model.rowCount()):
                candidate = self.procedure_model.procedure(row)
                if candidate.id == procedure_id:
                    self.procedure = candidate
                    proxy = self.filter_model.mapFromSource(self.procedure_model.index(row, 0))
                    if proxy.isValid():
                        self.procedure_list.setCurrentIndex(proxy)
                    break
            else:
                raise ValueError(f"no procedure {procedure_id!r} in {self._ruleset}")
        self._reload_form()
        if self.procedure is not previous:
            # Another procedure: the result on screen (even an applied one) is not its own.
            self._clear_stale_result()
            self._remember_procedure()

    def _reload_form(self) -> None:
        if self.pending is not None:
            # The sheets it was computed from changed: it can no longer be applied, and
            # like any discarded roll it stays in the log.
            self.discard(Discarded.INPUT_CHANGED)
        self._offer()  # (the house rules may have changed: a variant switched on or off)
        procedure = self.procedure
        if procedure is None:
            self.procedure_title.setText("")
            self.form.set_procedure(None, None)
            self._refresh_odds()
            return
        self.procedure_title.setText(f"{procedure.title}\n{procedure.rule}")
        self.procedure_title.setToolTip(procedure.summary)
        keep = self.form.snapshot() if self.form.procedure is procedure else {}
        self.form.house = dict(self.house_rules().values)
        self.house_panel.show_rules(find_ruleset(self._ruleset), self.house_rules(),
                                    self.context.service.playing(self._ruleset) is not None)
        # The rebuilt form passes through its defaults: judge the result on the state restored.
        self._rebuilding = True
        try:
            self.form.set_procedure(procedure, self.context.service.playing(self._ruleset))
            self.form.restore(keep)
        finally:
            self._rebuilding = False
        self._refresh_odds()
        self._clear_stale_result()

    # --- house rules ---------------------------------------------------
    def _offer(self) -> None:
        """The list greys the procedures the house rules in force do not offer."""
        in_session = self.context.service.playing(self._ruleset) is not None
        self.procedure_model.set_house(
            self.house_rules().values,
            "this session's house rules" if in_session else "these house rules")

    def house_rules(self) -> HouseRules:
        """What the Resolver's rolls are resolved under: the running session's house rules,
        else the ones chosen here for this ruleset (the digest's defaults at first)."""
        game = self.context.service.playing(self._ruleset)
        if game is not None:
            return HouseRules.of(game.settings)
        return self._own_house.get(self._ruleset, HouseRules())

    def change_house_rules(self) -> None:
        """Open the house-rules dialog; OK plays on under them (an event in a session)."""
        ruleset = find_ruleset(self._ruleset)
        if ruleset.decisions is None:
            return
        dialog = HouseRulesDialog(ruleset, self.house_rules(),
                                  saved_profiles(self.context.database, ruleset.id), self)
        if dialog.exec() == HouseRulesDialog.DialogCode.Accepted:
            self.set_house_rules(dialog.rules())

    def set_house_rules(self, rules: HouseRules) -> None:
        """Play on under ``rules``: a settings event in a running session, else the
        Resolver's own for this ruleset."""
        if self.context.service.playing(self._ruleset) is not None:
            self.context.service.change_house_rules(rules, initiator=self)
        else:
            self._own_house[self._ruleset] = rules
        self._reload_form()
        self._announce()

    # --- odds ----------------------------------------------------------
    def _bound_values(self) -> dict[str, Any] | None:
        if self.procedure is None:
            return None
        reason = self.procedure_model.not_offered(self.procedure)
        if reason:  # a variant switched off (undone, another profile): nothing to roll
            self.form_error.setText(f"⚠ {self.procedure.title} is not offered: {reason}. "
                                    "Change house rules… switches it on.")
            return None
        return self.form.checked_values(self.form_error)

    def _refresh_odds(self) -> None:
        values = self._bound_values()
        self.odds = None
        self.modifier_table.setRowCount(0)
        self.outcome_table.setRowCount(0)
        if values is None or self.procedure is None:
            self.need_label.setText("")
            self.expected_label.setText("")
            self.dice_hint.setText("")
            self.chart.clear()  # never another procedure's (another ruleset's) chart
            return
        refused = self.context.service.table_problems(self.procedure, values,
                                                      self.form.bindings())
        # What the moment of play refuses (AUTOpower §2.3: an attack only in its car's
        # Combat phase) is the rules' refusal here too: no dice are asked for it.
        odds = refused_odds("; ".join(refused)) if refused else self.procedure.odds(values)
        self.odds = odds
        for modifier in odds.modifiers:
            row = self.modifier_table.rowCount()
            self.modifier_table.insertRow(row)
            self.modifier_table.setItem(row, 0, QTableWidgetItem(modifier.label))
            self.modifier_table.setItem(row, 1, _right(f"{modifier.value:+d}"))
            self.modifier_table.setItem(row, 2, QTableWidgetItem(modifier.rule))
        # A short headline ("need 9+ · 10/36 · 27.8%") is shown large; a long one (every
        # outcome of a Battlecars shot) at the normal size so it does not crowd the stack.
        self._need_font.setPointSizeF(self._need_base_size * (1.4 if len(odds.summary) < 60
                                                              else 1.0))
        self.need_label.setFont(self._need_font)
        self.need_label.setText(odds.summary)
        fill_outcome_table(self.outcome_table, odds.outcomes, odds.effects)
        self.expected_label.setText(" · ".join(f"expected {name}: {float(value):.2f}"
                                               for name, value in odds.expected))
        self.dice_hint.setText(REFUSED_HINT if refused else dice_hint(self.procedure, values))
        if odds.chart is None:
            self.chart.clear()
        elif self._loaded:
            self.chart.show_distribution(odds.chart.distribution, odds.chart.success,
                                         x_label=odds.chart.x_label,
                                         success_label=odds.chart.title)

    # --- the players' display ------------------------------------------
    def _announce(self) -> None:
        """In a running session of its ruleset, the players see the need and the exact
        odds of the form while the GM fills it, before any die is typed (#28 §4), as with
        the Table's dialog: told again each time an input changes, not when the form is
        only redrawn (after Apply the players go on seeing the result applied). A result
        on screen is not replaced; an invalid form or none withdraws it."""
        if self._rebuilding or self.pending is not None:
            return  # (a form passing through its defaults; a result the players see)
        procedure = self.procedure
        if procedure is None or self.odds is None or not self.isVisible() \
                or self.context.service.playing(self._ruleset) is None:
            self._withdraw()
            return
        announced = (procedure.id, repr(sorted(self.form.snapshot().items())))
        if announced == self._announced:
            return
        self._announced = announced
        self.context.service.preparing(procedure.id, self.form.bindings(), self.odds,
                                       initiator=self)

    def _withdraw(self) -> None:
        """The roll the Resolver announced is no longer in progress."""
        if self._announced is not None:
            self._announced = None
            self.context.service.prepared_gone(self)

    # --- resolving -----------------------------------------------------
    def resolve_entered(self) -> None:
        """Resolve with the dice typed (Enter)."""
        self._resolve(roll=False)

    def roll(self) -> None:
        """Roll in the app whatever the typed dice do not cover; the seed is shown."""
        self._resolve(roll=True)

    def _resolve(self, roll: bool) -> None:
        if self.procedure is None:
            return
        values = self._bound_values()
        if values is None:
            self.dice_error.setText(f"⚠ Fix the form first: {self.form_error.text().lstrip('⚠ ')}")
            return
        if self.pending is not None and not self.dice_edit.text().strip():
            # Enter again on an empty entry: the GM means the result on screen.
            self.status_label.setText("The result waits: Ctrl+Enter applies it, Esc "
                                      "discards it, or type the next dice.")
            return
        procedure, typed = self.procedure, self.dice_edit.text()

        def resolve() -> PendingResolution:
            # (a result shown before is discarded by the service: a new roll replaces it)
            return self.context.service.resolve(
                procedure, values,
                typed_dice(typed, roll, procedure_sides(procedure, values, self.form.house)),
                bindings=self.form.bindings(), odds=self.odds, ruleset_id=self._ruleset,
                house=self.form.house, initiator=self)

        def shown(pending: PendingResolution) -> None:
            self.dice_error.setText("")
            self._result_inputs = (procedure.id, self.form.snapshot())
            self._set_result(pending)
            self.dice_edit.clear()

        self.ops(resolve).refused(ResolveError, lambda error: self.dice_error.setText(
            f"⚠ {error}")).success(shown).run()

    def _set_result(self, pending: PendingResolution | None) -> None:
        can_apply = pending is not None and pending.can_apply()
        self.apply_button.setEnabled(can_apply)
        self.discard_button.setEnabled(pending is not None)
        if pending is None:
            self._result_inputs = None
            self.result_view.setHtml("")
            self.status_label.setText("")
            return
        resolution = pending.resolution
        self.result_view.setHtml(explanation_html(resolution, pending.seed))
        if resolution.effects and not can_apply:
            self.status_label.setText("Start or resume a session at the Table to apply results "
                                      "to its sheets.")
        else:
            self.status_label.setText("")

    def _clear_stale_result(self) -> None:
        """Drop the result on screen once the procedure or an input differs from its own.

        A pending result is discarded (its roll stays in the log); an applied one is only
        taken off the screen. A redraw that rebuilds the same form keeps it.
        """
        shown = self._result_inputs
        if shown is None or self._rebuilding:
            return
        if self.procedure is not None and shown == (self.procedure.id, self.form.snapshot()):
            return
        self._result_inputs = None
        if self.resolution is not None:
            self.discard(Discarded.INPUT_CHANGED)
        else:
            self.result_view.setHtml("")
            self.status_label.setText("")

    def apply(self) -> None:
        pending = self.pending
        if pending is None or not self.apply_button.isEnabled():
            return

        def not_applied(error: object) -> None:
            self.status_label.setText(f"⚠ Not applied: {error}")

        def applied(_changes: object = None) -> None:
            self.status_label.setText(f"Applied: {pending.resolution.outcome}")
            self.apply_button.setEnabled(False)
            self.discard_button.setEnabled(False)

        def only_the_log(text: str) -> tuple[str, Retry] | None:
            if pending.state is not PendingState.APPLIED:
                return None
            applied()
            return (f"{text} (the result was applied; only its line in the roll log is "
                    "missing)", self.ops(pending.retry_log).run)

        # (the Table reloads a stale session and says so)
        (self.ops(lambda: pending.apply(initiator=self))
         .refused((GameError, StaleSessionError), not_applied)
         .failed(not_applied).partly(only_the_log).success(applied).run())

    def discard(self, reason: str = Discarded.BY_THE_GM) -> None:
        if self.pending is None:
            return

        def discarded(_done: bool) -> None:
            self._set_result(None)
            self.status_label.setText("Discarded: the roll stays in the log.")

        (self.ops(lambda: self.context.service.discard_shown(reason, owner=self,
                                                             initiator=self))
         .failed(lambda _text: self.status_label.setText(
             "⚠ Not discarded: the roll could not be logged."))
         .success(discarded).run())

    # --- reference -----------------------------------------------------
    def _show_reference(self) -> None:
        table_id = self.reference_choice.currentData()
        table = None
        if table_id is not None:
            table = next(t for t in find_ruleset(self._ruleset).tables if t.id == table_id)
        self.reference_model.set_table(table)
        self.reference_note.setText(table.note if table else "")

"""The Dice workspace: any expression's exact distribution, entered or rolled dice, history.

Rolls go through the generic ``dice.roll`` procedure, exactly like the Resolver
and the ``resolve`` command line, and each is committed to the database before
it is shown in the history.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from fractions import Fraction

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QFont, QGuiApplication, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from carwars_desktop.dice import (
    DiceError,
    DiceExpression,
    Distribution,
    EnteredDice,
    SeededDice,
    parse,
    parse_dice_values,
)
from carwars_desktop.gui.background import LatestOnly
from carwars_desktop.gui.change_signal import ChangeSignal
from carwars_desktop.gui.dice_history_model import DiceHistoryModel
from carwars_desktop.gui.distribution_chart import Bar, DistributionChart, chart_bars
from carwars_desktop.gui.operation import Ops
from carwars_desktop.gui.shortcuts import DICE, set_action_keys
from carwars_desktop.gui.small_widgets import error_label
from carwars_desktop.gui.workspace import Workspace
from carwars_desktop.gui.write_banner import WriteBanner, write_failure
from carwars_desktop.procedures import InputError, Odds, Resolution, odds_text
from carwars_desktop.procedures.dice_roll import DICE_ROLL
from carwars_desktop.services import ChangeBus, Changes
from carwars_desktop.storage import Database, DiceRollRecord, InvalidDiceRollError, NewDiceRoll

HISTORY_LIMIT = 500
SYNC_OUTCOMES = 200
"""Expressions with at most this many totals (30d8 has 211) get their odds at once, on
the GUI thread (a few milliseconds); larger ones on a worker thread, the newest keystroke
winning. The parser's own limits (100 dice of at most 100 sides, so 100d100's 9,901
totals at worst) cap the work a worker may be given."""


def outcome_count(expression: DiceExpression) -> int:
    """How many different totals ``expression`` can make."""
    return sum(g.count * (g.sides - 1) for g in expression.groups) + 1


@dataclass(frozen=True)
class ExactOdds:
    """What the odds panel shows for one expression and target, computed anywhere."""

    expression: DiceExpression
    values: dict[str, object]
    distribution: Distribution
    odds: Odds
    bars: list[Bar]
    seconds: float


def exact_odds(expression: DiceExpression, values: dict[str, object]) -> ExactOdds:
    """The distribution, the odds and the chart's bars: everything that takes time."""
    start = time.perf_counter()
    distribution = expression.distribution()
    odds = DICE_ROLL.odds(values)
    chart = odds.chart
    bars = [] if chart is None else chart_bars(chart.distribution, chart.success)
    return ExactOdds(expression, values, distribution, odds, bars, time.perf_counter() - start)


def split_dice(text: str, expression: DiceExpression) -> list[int]:
    """``'5 4'``, ``'5,4'`` or, for dice under ten sides, ``'54'`` → ``[5, 4]``."""
    faces = expression.faces()
    values = parse_dice_values(text, faces)
    if len(values) != len(faces):
        raise DiceError(f"{expression} needs {len(faces)} {'die' if len(faces) == 1 else 'dice'}"
                        f" ({', '.join(f'd{s}' for s in faces)}); {len(values)} typed")
    return values


LONGEST_SHOWN = 40
"""Exact odds longer than this many characters (100d6's fractions have up to 78 digits,
100d100's 201) are cut in the middle, whole in the tooltip and on copy: the window never
grows past the screen."""


def _cut(digits: str, longest: int) -> str:
    if len(digits) <= longest:
        return digits
    half = (longest - 1) // 2
    return f"{digits[:half]}…{digits[-half:]}"


def elide_middle(text: str, longest: int = LONGEST_SHOWN) -> str:
    """``text`` whole, or ``'n/d · p%'`` with ``n`` and ``d`` each cut in their middle (the
    fraction's shape and the percentage stay in view)."""
    if len(text) <= longest:
        return text
    fraction, dot, rest = text.partition(" · ")
    numerator, slash, denominator = fraction.partition("/")
    room = max(7, (longest - len(dot + rest) - len(slash)) // (2 if slash else 1))
    return _cut(numerator, room) + slash + _cut(denominator, room) + dot + rest


def big_number(n: int) -> str:
    """``1,296``; past 15 digits ``1.000e+200`` (100d100's throws)."""
    return f"{n:,}" if n < 10**15 else f"{n:.3e}"


def _copy_exact(label: QLabel) -> None:
    """The label's exact value (its tooltip when cut) to the clipboard."""
    QGuiApplication.clipboard().setText(label.toolTip() or label.text())


def _tabular(label: QLabel) -> QLabel:
    font = QFont(label.font())
    font.setStyleHint(QFont.StyleHint.Monospace)
    font.setFamilies(["DejaVu Sans Mono", "Menlo", "Consolas", "monospace"])
    label.setFont(font)
    label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    copy = QAction("Copy exact value", label)
    set_action_keys(copy, "dice.copy_exact")
    copy.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
    copy.triggered.connect(lambda: _copy_exact(label))
    label.addAction(copy)
    label.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
    label.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
    return label


def _show_exact(label: QLabel, text: str) -> None:
    shown = elide_middle(text)
    label.setText(shown)
    label.setToolTip("" if shown == text else text)


class DiceWorkspace(Workspace):
    title = "Dice"
    shortcut_context = DICE

    def __init__(self, parent: QWidget | None = None, bus: ChangeBus | None = None) -> None:
        super().__init__(parent)
        self._ruleset = ""
        self._history_stale = False
        """A roll made elsewhere (the Table, the Resolver) since the history was read."""
        self._database: Database | None = None
        self._expression: DiceExpression | None = parse("2d6")
        self._loaded = False
        self.last_resolution: Resolution | None = None

        self.expression_edit = QLineEdit("2d6")
        self.expression_edit.setAccessibleName("Dice expression")
        self.expression_edit.setPlaceholderText("2d6, 1d8+3, 3d6-2 …")
        self.target_spin = QSpinBox()
        self.target_spin.setAccessibleName("k")
        self.target_spin.setRange(-1000, 1000)
        self.target_spin.setValue(7)
        self.natural_two = QCheckBox("Natural 2 always misses")
        self.natural_two.setToolTip("For 2d6 rolls (Mini Car Wars to-hit, AUTOpower attacks)")
        self.expression_error = error_label()

        form = QFormLayout()
        form.addRow("&Expression", self.expression_edit)
        form.addRow("&k (target)", self.target_spin)
        form.addRow("", self.natural_two)
        form.addRow("", self.expression_error)

        self.p_eq = _tabular(QLabel())
        self.p_ge = _tabular(QLabel())
        self.p_le = _tabular(QLabel())
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.odds_status = QLabel()
        self.odds_status.setObjectName("odds-status")
        self.odds_status.setWordWrap(True)
        self.p_ge_caption = QLabel()
        probabilities = QGroupBox("Exact odds")
        grid = QGridLayout(probabilities)
        self.p_eq_caption = QLabel()
        self.p_le_caption = QLabel()
        for row, (caption, value) in enumerate(((self.p_eq_caption, self.p_eq),
                                                (self.p_ge_caption, self.p_ge),
                                                (self.p_le_caption, self.p_le))):
            grid.addWidget(caption, row, 0)
            grid.addWidget(value, row, 1)
        grid.addWidget(self.summary, 3, 0, 1, 2)
        grid.addWidget(self.odds_status, 4, 0, 1, 2)
        self._odds_worker: LatestOnly[ExactOdds] = LatestOnly(self)
        self._history_reads: LatestOnly[list[DiceRollRecord]] = LatestOnly(self)
        """The recent rolls read for :attr:`history_model`, on a worker (the newest asked)."""

        self.chart = DistributionChart()

        self.dice_edit = QLineEdit()
        self.dice_edit.setAccessibleName("Dice thrown")
        self.dice_edit.setPlaceholderText("e.g. 5 4, then Enter")
        self.enter_button = QPushButton("Record ⏎")
        self.roll_button = QPushButton("&Roll")
        self.roll_button.setToolTip("Roll in the app (Ctrl+R); the seed is shown to replay it")
        self.seed_edit = QLineEdit()
        self.seed_edit.setAccessibleName("Seed")
        self.seed_edit.setPlaceholderText("new seed")
        self.seed_edit.setMaximumWidth(120)
        self.result_label = QLabel("Enter the dice the players threw, or press Roll.")
        self.result_label.setObjectName("result")
        self.result_label.setWordWrap(True)
        self.result_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.dice_error = error_label()

        dice_label = QLabel("&Dice:")
        dice_label.setBuddy(self.dice_edit)
        seed_label = QLabel("S&eed:")
        seed_label.setBuddy(self.seed_edit)
        entry = QHBoxLayout()
        entry.addWidget(dice_label)
        entry.addWidget(self.dice_edit, 1)
        entry.addWidget(self.enter_button)
        entry.addSpacing(16)
        entry.addWidget(self.roll_button)
        entry.addWidget(seed_label)
        entry.addWidget(self.seed_edit)

        left = QWidget()
        left_layout = QVBoxLayout(left)
        top = QHBoxLayout()
        top.addLayout(form, 1)
        top.addWidget(probabilities, 1)
        left_layout.addLayout(top)
        left_layout.addWidget(self.chart, 1)
        left_layout.addLayout(entry)
        left_layout.addWidget(self.dice_error)
        left_layout.addWidget(self.result_label)

        self.history_model = DiceHistoryModel()
        self.history_view = QTableView()
        self.history_view.setModel(self.history_model)
        self.history_view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.history_view.verticalHeader().hide()
        self.history_view.setWordWrap(False)
        self.history_view.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents)
        self.history_view.horizontalHeader().setStretchLastSection(True)
        history = QGroupBox("History")
        history_layout = QVBoxLayout(history)
        history_layout.addWidget(self.history_view)

        splitter = QSplitter()
        splitter.addWidget(left)
        splitter.addWidget(history)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        splitter.setSizes([700, 460])
        self.banner = WriteBanner()
        self.ops = Ops(self.banner.show_message, bus)
        """How the workspace's writes run (a refused write: the banner, with Retry)."""
        if bus is not None:
            # The rolls of the Table and the Resolver land in the history too (their dice
            # are written when a result is shown, applied or discarded): heard on the bus.
            ChangeSignal(bus, self).changed.connect(self._heard)
        layout = QVBoxLayout(self)
        layout.addWidget(self.banner)
        layout.addWidget(splitter)

        self.expression_edit.textChanged.connect(self._refresh_odds)
        self.target_spin.valueChanged.connect(self._refresh_odds)
        self.natural_two.toggled.connect(self._refresh_odds)
        self.dice_edit.returnPressed.connect(self.record_entered)
        self.enter_button.clicked.connect(self.record_entered)
        self.roll_button.clicked.connect(self.roll)
        self._shortcut("dice.roll", self.roll)
        self._set_ready(False)
        self._refresh_odds()

    # --- Workspace hooks -----------------------------------------------
    def set_ruleset(self, ruleset_id: str) -> None:
        self._ruleset = ruleset_id

    def attach_database(self, database: Database) -> None:
        self._database = database
        self._read_history()
        self._set_ready(True)

    def load_deferred(self) -> None:
        self._loaded = True
        self.chart.clear()  # (the brief state of show_loading: drawn now, or never)
        self._refresh_odds()

    def show_loading(self) -> None:
        self.chart.show_coming()

    def _heard(self, changes: Changes) -> None:
        """A change on the bus that wrote dice (a roll shown, applied or discarded, rolls
        settled when a session opened): the history is read again, now when it is on
        screen, else when it is shown."""
        if changes.roll is None and not changes.resolution_logged and not changes.session:
            return
        if self.isVisible():
            self._read_history()
        else:
            self._history_stale = True

    def _read_history(self) -> None:
        """Read the recent rolls on a worker (a club server's round trip never holds the
        window) and show them once read; a refused read goes to the banner (Retry)."""
        self._history_stale = False
        database = self._database
        if database is None:
            return

        def shown(records: list[DiceRollRecord]) -> None:
            if self._database is database:
                self.history_model.reset(records)

        def refused(error: BaseException) -> None:
            text = write_failure(error)
            if text is None:
                raise error
            if self._database is database:
                self._history_stale = True  # read again when shown, or on Retry
                self.banner.show_message(f"The recent rolls were not read: {text}",
                                         self._history_again)

        self._history_reads.submit(lambda _job: database.dice_history.recent(HISTORY_LIMIT),
                                   shown, refused)

    @property
    def reading_history(self) -> bool:
        """The recent rolls are being read (shown once read)."""
        return self._history_reads.busy

    def _history_again(self) -> bool:
        self._read_history()
        return True

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt's name)
        super().showEvent(event)
        if self._history_stale:
            self._read_history()

    def _set_ready(self, ready: bool) -> None:
        for widget in (self.dice_edit, self.enter_button, self.roll_button, self.seed_edit):
            widget.setEnabled(ready)

    # --- odds ----------------------------------------------------------
    def _values(self) -> dict[str, object]:
        return {"expression": self.expression_edit.text(), "target": self.target_spin.value(),
                "natural_two_misses": self.natural_two.isChecked() and self._is_2d6()}

    def _is_2d6(self) -> bool:
        e = self._expression
        return e is not None and len(e.groups) == 1 and e.groups[0].count == 2 \
            and e.groups[0].sides == 6 and e.groups[0].sign > 0

    def _refresh_odds(self) -> None:
        try:
            self._expression = parse(self.expression_edit.text())
        except DiceError as error:
            self._expression = None
            self._odds_worker.supersede()
            self.odds_status.setText("")
            self.expression_error.setText(f"⚠ {error}")
            return
        self.expression_error.setText("")
        expression = self._expression
        self.natural_two.setEnabled(self._is_2d6())
        values = self._values()
        outcomes = outcome_count(expression)
        if outcomes <= SYNC_OUTCOMES:
            self._odds_worker.supersede()
            self.odds_status.setText("")
            self._show_odds(exact_odds(expression, values))
            return
        self.odds_status.setText(f"Computing the exact odds of {expression} "
                                 f"({outcomes:,} outcomes)…")
        for label in (self.p_eq, self.p_ge, self.p_le):
            _show_exact(label, "…")
        self._odds_worker.submit(lambda _job: exact_odds(expression, values),
                                 self._odds_computed, self._odds_failed)

    def _odds_computed(self, result: ExactOdds) -> None:
        outcomes = len(result.distribution.values())
        self.odds_status.setText(f"{result.expression}: {outcomes:,} outcomes, computed in "
                                 f"{result.seconds:.1f} s")
        self._show_odds(result)

    def _odds_failed(self, error: BaseException) -> None:
        self.odds_status.setText(f"⚠ the odds could not be computed: {error}")

    @property
    def odds_pending(self) -> bool:
        """Whether exact odds are being computed on a worker thread."""
        return self._odds_worker.busy

    def _show_odds(self, result: ExactOdds) -> None:
        expression, distribution, odds = result.expression, result.distribution, result.odds
        k = int(str(result.values["target"]))
        p_success = odds.probability("success")
        total = distribution.total
        self.p_eq_caption.setText(f"P(= {k})")
        self.p_le_caption.setText(f"P(≤ {k})")
        natural = result.values["natural_two_misses"]
        self.p_ge_caption.setText(f"P(≥ {k})" + (", natural 2 misses" if natural else ""))
        _show_exact(self.p_eq, odds_text(distribution.p_eq(k)))
        _show_exact(self.p_ge, odds_text(p_success))
        _show_exact(self.p_le, odds_text(distribution.p_le(k)))
        mean = distribution.mean()
        self.summary.setText(f"{expression}: {distribution.minimum}–{distribution.maximum}, "
                             f"mean {_decimal(mean)}, {big_number(total)} equally likely throws")
        if self._loaded and odds.chart is not None:
            self.chart.show_bars(result.bars, bool(odds.chart.success), marker=k,
                                 success_label=f"≥ {k}")

    # --- rolling -------------------------------------------------------
    def record_entered(self) -> None:
        """Resolve the dice typed in the entry (Enter)."""
        if self._expression is None:
            self.dice_error.setText("⚠ Fix the expression first.")
            return
        try:
            values = split_dice(self.dice_edit.text(), self._expression)
            resolution = DICE_ROLL.resolve(self._values(), EnteredDice(values))
        except (DiceError, InputError) as error:
            self.dice_error.setText(f"⚠ {error}")
            return
        self._keep(resolution, seed=None)
        self.dice_edit.clear()

    def roll(self) -> None:
        """Roll in the app from the typed seed, or a fresh one."""
        if self._expression is None or self._database is None:
            return
        seed_text = self.seed_edit.text().strip()
        if seed_text and not re.fullmatch(r"[0-9]{1,18}", seed_text):
            self.dice_error.setText(f"⚠ A seed is a whole number from 0 to 18 digits long, "
                                    f"not {seed_text[:24]!r}.")
            return
        dice = SeededDice(int(seed_text) if seed_text else None)
        try:
            resolution = DICE_ROLL.resolve(self._values(), dice)
        except (DiceError, InputError) as error:
            self.dice_error.setText(f"⚠ {error}")
            return
        self._keep(resolution, seed=dice.seed)
        self.seed_edit.clear()

    def _keep(self, resolution: Resolution, seed: int | None) -> bool:
        """Store the roll, then show it; a refused write shows the banner (Retry keeps it)."""

        assert self._database is not None
        history = self._database.dice_history
        values = resolution.values
        try:
            roll = NewDiceRoll(
                ruleset_id=self._ruleset,
                expression=resolution.inputs["expression"],
                target=resolution.inputs["target"],
                natural_two_misses=resolution.inputs["natural_two_misses"],
                dice_values=tuple(d.value for d in resolution.dice),
                sides=tuple(d.sides for d in resolution.dice),
                natural=values["natural"],
                total=values["total"],
                success=resolution.success,
                seed=seed,
                entered=seed is None,
            )
        except InvalidDiceRollError as error:
            self.dice_error.setText(f"⚠ Not kept in the history: {error}")
            return False

        def not_kept(_text: str) -> None:
            self.dice_error.setText("⚠ Not kept: the roll was not saved (see above).")
            self.result_label.setText("")

        return self.ops(lambda: history.add(roll)).failed(not_kept).success(
            lambda record: self._shown(record, resolution, seed)).run()

    def _shown(self, record: DiceRollRecord, resolution: Resolution, seed: int | None) -> None:
        """The roll kept (committed): now it may be shown."""
        if self._history_reads.busy:  # a read begun before it would not have it
            self._read_history()
        self.history_model.prepend(record)
        self.history_view.scrollToTop()
        self.last_resolution = resolution
        self.dice_error.setText("")
        how = "entered" if seed is None else f"rolled with seed {seed}"
        steps = "<br>".join(step.text for step in resolution.steps)
        self.result_label.setText(f"<b>{resolution.outcome}</b> ({how})<br>{steps}")


def _decimal(value: Fraction) -> str:
    return f"{float(value):.2f}"

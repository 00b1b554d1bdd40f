"""The Resolver's outcome table, made readable: short odds, grouped by vehicle, names elided.

The engines give exact outcome odds. A collision's are the product of both
vehicles' effects ("Courier: driver killed · Killer Kart: front armor gone"):
up to 14 × 14 rows of 17-digit fractions. Here such a table is regrouped under
each vehicle, with the odds of each of its own effects (summed over the other
vehicle's); fractions too long to read are shown as "≈ 1 in 136" (the exact
value stays in the tooltip), and odds under 0.1 % as "< 0.1%" rather than a
misleading "0.0%". Nothing here knows a rule: only the label shape
"name: effect · name: effect" that combined outcomes share.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QTableWidget, QTableWidgetItem

from carwars_desktop.procedures import Outcome

READABLE_DENOMINATOR = 10_000
"""Exact fractions up to this denominator are shown whole (1296 = 6⁴ fits)."""

PART = " · "
NAME = ": "


def percent_text(p: Fraction) -> str:
    """``27.8%``; never a misleading ``0.0%`` or ``100.0%`` for odds that are not."""
    if p == 0:
        return "0%"
    if p == 1:
        return "100%"
    if p < Fraction(1, 1000):
        return "< 0.1%"
    if p > Fraction(999, 1000):
        return "> 99.9%"
    return f"{float(p) * 100:.1f}%"


def _one_in(n: int) -> str:
    return f"{n:,}" if n < 1_000_000 else f"{float(n):.2g}"


def exact_text(p: Fraction) -> str:
    """The reduced fraction when short (``5/18``), else a readable approximation."""
    if p.denominator <= READABLE_DENOMINATOR:
        return str(p.numerator) if p.denominator == 1 else f"{p.numerator}/{p.denominator}"
    if p < Fraction(1, 4):
        return f"≈ 1 in {_one_in(round(1 / p))}"
    near = p.limit_denominator(12)
    return f"≈ {near.numerator}/{near.denominator}"


@dataclass(frozen=True)
class OutcomeRow:
    """One line of the table: a vehicle's heading or an outcome with its odds."""

    label: str
    probability: Fraction | None = None
    heading: bool = False

    @property
    def exact(self) -> str:
        return "" if self.probability is None else exact_text(self.probability)

    @property
    def percent(self) -> str:
        return "" if self.probability is None else percent_text(self.probability)

    @property
    def tooltip(self) -> str:
        if self.probability is None:
            return self.label
        p = self.probability
        return f"{self.label}\nexactly {p.numerator}/{p.denominator} = {float(p) * 100:.6g}%"


def _parts(label: str) -> list[tuple[str, str]] | None:
    """``"A: x · B: y"`` → ``[("A", "x"), ("B", "y")]``; None for any other shape."""
    parts = []
    for part in label.split(PART):
        name, separator, effect = part.partition(NAME)
        if not separator or not name or not effect:
            return None
        parts.append((name, effect))
    return parts


def outcome_rows(outcomes: Sequence[Outcome]) -> list[OutcomeRow]:
    """The rows to show: one per outcome, or combined outcomes regrouped by vehicle."""
    split = [_parts(o.label) for o in outcomes]
    names = {tuple(name for name, _ in parts) for parts in split if parts is not None}
    combined = (len(outcomes) > 1 and len(names) == 1 and None not in split
                and len(next(iter(names))) >= 2)
    if not combined:
        return [OutcomeRow(o.label, o.probability) for o in outcomes]
    rows: list[OutcomeRow] = []
    for position, name in enumerate(next(iter(names))):
        effects: dict[str, Fraction] = {}  # the engine's order (worst first) is kept
        for outcome, parts in zip(outcomes, split, strict=True):
            assert parts is not None
            effect = parts[position][1]
            effects[effect] = effects.get(effect, Fraction(0)) + outcome.probability
        rows.append(OutcomeRow(name, heading=True))
        rows += [OutcomeRow(effect, p) for effect, p in effects.items()]
    return rows


def _right(text: str) -> QTableWidgetItem:
    item = QTableWidgetItem(text)
    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    return item


def fill_outcome_table(table: QTableWidget, outcomes: Sequence[Outcome]) -> None:
    """Fill a three-column table (outcome, exact, %); long labels elide in the middle."""
    table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
    table.setWordWrap(False)
    # "Odds", not "Exact": a long fraction is shown rounded (the tooltip has it exactly).
    table.setHorizontalHeaderLabels(["Outcome", "Odds", "%"])
    # One line of text a row: a collision's two vehicles fit without scrolling.
    table.verticalHeader().setDefaultSectionSize(table.fontMetrics().height() + 6)
    rows = outcome_rows(outcomes)
    table.setRowCount(len(rows))
    for index, row in enumerate(rows):
        label = QTableWidgetItem(row.label if row.heading else
                                 ("    " + row.label if any(r.heading for r in rows)
                                  else row.label))
        if row.heading:
            font = QFont(label.font())
            font.setBold(True)
            label.setFont(font)
        items = (label, _right(row.exact), _right(row.percent))
        for column, item in enumerate(items):
            item.setToolTip(row.tooltip)
            table.setItem(index, column, item)

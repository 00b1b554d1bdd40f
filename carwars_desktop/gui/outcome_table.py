"""The Resolver's outcome table, made readable: short odds, grouped by vehicle, names elided.

The engines give exact outcome odds. A collision's are the product of both
vehicles' effects ("Courier: driver killed · Killer Kart: front armor gone"):
up to 14 × 14 rows of 17-digit fractions. Here such a table is regrouped under
each vehicle, with the odds of each of its own effects (summed over the other
vehicle's); fractions too long to read are shown as "≈ 1 in 136" (the exact
value stays in the tooltip), and odds under 0.1 % as "< 0.1%" rather than a
misleading "0.0%". Each vehicle's section opens with what a game master asks
first, its chances of "armor breached", "crew hurt" and "wrecked" in all, read
from the effect categories the engines tag their odds with (``Odds.effects``).
Nothing here knows a rule: only the label shape "name: effect · name: effect"
that combined outcomes share, and those tags.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QTableWidget, QTableWidgetItem

from carwars_desktop.procedures import EffectCategory, EffectOdds, Outcome, percent

READABLE_DENOMINATOR = 10_000
"""Exact fractions up to this denominator are shown whole (1296 = 6⁴ fits)."""

PART = " · "
NAME = ": "


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
    summary: bool = False
    """A vehicle's chance of an effect category in all (over every outcome), not an outcome."""

    @property
    def exact(self) -> str:
        return "" if self.probability is None else exact_text(self.probability)

    @property
    def percent(self) -> str:
        return "" if self.probability is None else percent(self.probability)

    @property
    def tooltip(self) -> str:
        if self.probability is None:
            return self.label
        p = self.probability
        text = f"{self.label}\nexactly {p.numerator}/{p.denominator} = {float(p) * 100:.6g}%"
        return text + ("\n(in all, whatever else happens: not one of the outcomes below)"
                       if self.summary else "")


def _parts(label: str) -> list[tuple[str, str]] | None:
    """``"A: x · B: y"`` → ``[("A", "x"), ("B", "y")]``; None for any other shape."""
    parts = []
    for part in label.split(PART):
        name, separator, effect = part.partition(NAME)
        if not separator or not name or not effect:
            return None
        parts.append((name, effect))
    return parts


SUMMARY_SUFFIX = " (in all)"


def summary_rows(effects: Sequence[EffectOdds], subject: str) -> list[OutcomeRow]:
    """``subject``'s chances of each effect category, in the categories' order."""
    found = {e.category: e.probability for e in effects if e.subject == subject}
    return [OutcomeRow(category.value + SUMMARY_SUFFIX, found[category], summary=True)
            for category in EffectCategory if category in found]


def outcome_rows(outcomes: Sequence[Outcome],
                 effects: Sequence[EffectOdds] = ()) -> list[OutcomeRow]:
    """The rows to show: one per outcome, or combined outcomes regrouped by vehicle, each
    vehicle's section opening with its effect categories' odds (from ``effects``)."""
    split = [_parts(o.label) for o in outcomes]
    names = {tuple(name for name, _ in parts) for parts in split if parts is not None}
    combined = (len(outcomes) > 1 and len(names) == 1 and None not in split
                and len(next(iter(names))) >= 2)
    if not combined:
        return [OutcomeRow(o.label, o.probability) for o in outcomes]
    rows: list[OutcomeRow] = []
    for position, name in enumerate(next(iter(names))):
        effects_of: dict[str, Fraction] = {}  # the engine's order (worst first) is kept
        for outcome, parts in zip(outcomes, split, strict=True):
            assert parts is not None
            effect = parts[position][1]
            effects_of[effect] = effects_of.get(effect, Fraction(0)) + outcome.probability
        rows.append(OutcomeRow(name, heading=True))
        rows += summary_rows(effects, name)
        rows += [OutcomeRow(effect, p) for effect, p in effects_of.items()]
    return rows


def _right(text: str) -> QTableWidgetItem:
    item = QTableWidgetItem(text)
    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    return item


def fill_outcome_table(table: QTableWidget, outcomes: Sequence[Outcome],
                       effects: Sequence[EffectOdds] = ()) -> None:
    """Fill a three-column table (outcome, exact, %); long labels elide in the middle."""
    table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
    table.setWordWrap(False)
    # "Odds", not "Exact": a long fraction is shown rounded (the tooltip has it exactly).
    table.setHorizontalHeaderLabels(["Outcome", "Odds", "%"])
    # One line of text a row: a collision's two vehicles fit without scrolling.
    table.verticalHeader().setDefaultSectionSize(table.fontMetrics().height() + 6)
    rows = outcome_rows(outcomes, effects)
    table.setRowCount(len(rows))
    for index, row in enumerate(rows):
        label = QTableWidgetItem(row.label if row.heading else
                                 ("    " + row.label if any(r.heading for r in rows)
                                  else row.label))
        if row.heading or row.summary:
            font = QFont(label.font())
            font.setBold(row.heading)
            font.setItalic(row.summary)
            label.setFont(font)
        items = (label, _right(row.exact), _right(row.percent))
        for column, item in enumerate(items):
            item.setToolTip(row.tooltip)
            table.setItem(index, column, item)

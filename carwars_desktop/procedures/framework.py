"""Declared procedures: every die roll and table of the rules, as data plus two functions.

A :class:`Procedure` has an id (``mini.fire``), a title, typed inputs, a rule
reference, ``resolve(inputs, dice) -> Resolution`` (explained steps, outcome,
effects on record sheets) and ``odds(inputs) -> Odds`` (exact, before any die
is thrown). The Resolver's forms, the session log and the ``resolve`` command
line are all generated from these declarations.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from carwars_desktop.dice import DiceSource, DieRoll, Distribution
from carwars_desktop.procedures.inputs import Input, InputError


def percent(p: Fraction) -> str:
    """``Fraction(5, 18)`` → ``'27.8%'`` (one decimal, exact input)."""
    return f"{float(p) * 100:.1f}%"


def odds_text(p: Fraction, total: int | None = None) -> str:
    """``'10/36 · 27.8%'`` over ``total`` outcomes when exact, else ``'5/18 · 27.8%'``."""
    if total is not None and (p * total).denominator == 1:
        return f"{int(p * total)}/{total} · {percent(p)}"
    return f"{p.numerator}/{p.denominator} · {percent(p)}"


@dataclass(frozen=True)
class Step:
    """One line of an explanation, citing the rule it applies (``MCW §2.10``)."""

    text: str
    rule: str = ""

    def to_json(self) -> dict[str, str]:
        return {"text": self.text, "rule": self.rule}

    def __str__(self) -> str:
        return f"{self.text}  [{self.rule}]" if self.rule else self.text


@dataclass(frozen=True)
class Modifier:
    """One line of a modifier stack shown before the dice are thrown."""

    label: str
    value: int
    rule: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"label": self.label, "value": self.value, "rule": self.rule}


@dataclass(frozen=True)
class SheetChange:
    """An effect: the input sheet ``input_name`` becomes ``sheet``."""

    input_name: str
    sheet: Any
    summary: str

    def to_json(self) -> dict[str, Any]:
        return {"input": self.input_name, "summary": self.summary, "sheet": self.sheet.to_json()}


@dataclass(frozen=True)
class Result:
    """What a procedure's resolve function returns; the framework adds the rest."""

    outcome: str
    steps: Sequence[Step]
    success: bool | None = None
    effects: Sequence[SheetChange] = ()
    values: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Resolution:
    """A resolved procedure: inputs, every die used, the explained steps, the effects."""

    procedure_id: str
    inputs: Mapping[str, Any]
    dice: tuple[DieRoll, ...]
    steps: tuple[Step, ...]
    outcome: str
    success: bool | None
    effects: tuple[SheetChange, ...]
    values: Mapping[str, Any]

    def explain(self) -> str:
        return "\n".join(str(step) for step in self.steps)

    def to_json(self) -> dict[str, Any]:
        return {
            "procedure": self.procedure_id,
            "inputs": dict(self.inputs),
            "dice": [d.to_json() for d in self.dice],
            "steps": [s.to_json() for s in self.steps],
            "outcome": self.outcome,
            "success": self.success,
            "values": {k: _jsonable(v) for k, v in self.values.items()},
            "effects": [e.to_json() for e in self.effects],
        }


@dataclass(frozen=True)
class Outcome:
    """One of a procedure's mutually exclusive outcomes with its exact probability."""

    label: str
    probability: Fraction

    def to_json(self) -> dict[str, Any]:
        return {"label": self.label, "probability": str(self.probability),
                "percent": round(float(self.probability) * 100, 2)}


@dataclass(frozen=True)
class Chart:
    """The distribution of a procedure's main roll, with the values that succeed."""

    title: str
    distribution: Distribution
    success: frozenset[int] = frozenset()
    x_label: str = "total"

    def to_json(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "x_label": self.x_label,
            "bars": [{"value": v, "probability": str(p), "success": v in self.success}
                     for v, p in self.distribution.probabilities().items()],
        }


@dataclass(frozen=True)
class Odds:
    """Everything known before a die is thrown: modifiers, need, exact outcome odds."""

    outcomes: tuple[Outcome, ...]
    summary: str
    modifiers: tuple[Modifier, ...] = ()
    need: int | None = None
    chart: Chart | None = None
    expected: tuple[tuple[str, Fraction], ...] = ()

    def probability(self, label: str) -> Fraction:
        return sum((o.probability for o in self.outcomes if o.label == label), Fraction(0))

    def p_success(self) -> Fraction | None:
        """P(success) of the main roll: the chart's success region, if it has one."""
        if self.chart is None or not self.chart.success:
            return None
        success = self.chart.success
        return self.chart.distribution.p_where(lambda value: value in success)

    def to_json(self) -> dict[str, Any]:
        return {
            "summary": self.summary,
            "need": self.need,
            "modifiers": [m.to_json() for m in self.modifiers],
            "outcomes": [o.to_json() for o in self.outcomes],
            "expected": {k: str(v) for k, v in self.expected},
            "chart": self.chart.to_json() if self.chart else None,
        }


@dataclass(frozen=True)
class DiceNeed:
    """One throw a procedure asks for, in order: ``2d6`` for ``to hit``, if ``when``."""

    purpose: str
    count: int
    sides: int
    when: str = ""

    def __str__(self) -> str:
        text = f"{self.count}d{self.sides} {self.purpose}"
        return f"{text} ({self.when})" if self.when else text


Values = Mapping[str, Any]


@dataclass(frozen=True)
class Procedure:
    """A declared procedure of one ruleset (or ``generic``).

    Args:
        id: stable id such as ``mini.fire``; stored in session logs, never renamed.
        title: what the GM searches for.
        ruleset: ``generic``, ``mini_car_wars``, ``battlecars`` or ``autopower``.
        rule: the digest section it implements (``MCW §2.10``).
        inputs: the typed inputs, in form order.
        resolve_fn: ``(values, dice) -> Result``; values are checked and defaulted.
        odds_fn: ``values -> Odds``, exact.
        dice_fn: ``values -> [DiceNeed]``, the throws in the order they are taken.
        check_fn: cross-input checks; raises :class:`InputError`.
    """

    id: str
    title: str
    ruleset: str
    rule: str
    inputs: tuple[Input, ...]
    resolve_fn: Callable[[Values, DiceSource], Result]
    odds_fn: Callable[[Values], Odds]
    dice_fn: Callable[[Values], Sequence[DiceNeed]] = lambda values: ()
    check_fn: Callable[[Values], None] | None = None
    summary: str = ""

    def input(self, name: str) -> Input:
        for spec in self.inputs:
            if spec.name == name:
                return spec
        raise InputError(f"{self.id} has no input {name!r} (inputs: {self.input_names()})")

    def input_names(self) -> str:
        return ", ".join(spec.name for spec in self.inputs)

    def bind(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        """Check every value, fill defaults, refuse unknown names."""
        unknown = set(raw) - {spec.name for spec in self.inputs}
        if unknown:
            raise InputError(
                f"{self.id} has no input {', '.join(sorted(unknown))} "
                f"(inputs: {self.input_names()})"
            )
        values: dict[str, Any] = {}
        for spec in self.inputs:
            value = raw.get(spec.name, spec.default)
            values[spec.name] = spec.check(value)
        if self.check_fn is not None:
            self.check_fn(values)
        return values

    def parse(self, texts: Mapping[str, str]) -> dict[str, Any]:
        """Parse ``NAME=VALUE`` texts (CLI or form) into checked values."""
        raw: dict[str, Any] = {}
        for name, text in texts.items():
            raw[name] = self.input(name).parse(text)
        return self.bind(raw)

    def resolve(self, raw: Mapping[str, Any], dice: DiceSource) -> Resolution:
        values = self.bind(raw)
        result = self.resolve_fn(values, dice)
        return Resolution(
            procedure_id=self.id,
            inputs={spec.name: spec.to_json(values[spec.name]) for spec in self.inputs},
            dice=tuple(dice.used),
            steps=tuple(result.steps),
            outcome=result.outcome,
            success=result.success,
            effects=tuple(result.effects),
            values=dict(result.values),
        )

    def odds(self, raw: Mapping[str, Any]) -> Odds:
        return self.odds_fn(self.bind(raw))

    def dice_needed(self, raw: Mapping[str, Any]) -> tuple[DiceNeed, ...]:
        return tuple(self.dice_fn(self.bind(raw)))

    def describe(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "ruleset": self.ruleset,
            "title": self.title,
            "rule": self.rule,
            "summary": self.summary,
            "inputs": [spec.describe() for spec in self.inputs],
        }


def _jsonable(value: Any) -> Any:
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, tuple | list):
        return [_jsonable(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if hasattr(value, "to_json"):
        return value.to_json()
    return value

"""Declared procedures: every die roll and table of the rules, as data plus two functions.

A :class:`Procedure` has an id (``mini.fire``), a title, typed inputs, a rule
reference, ``resolve(inputs, dice) -> Resolution`` (explained steps, outcome,
effects on record sheets) and ``odds(inputs) -> Odds`` (exact, before any die
is thrown). The Resolver's forms, the session log and the ``resolve`` command
line are all generated from these declarations.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Any, TypeVar, cast

from carwars_desktop.dice import DiceSource, DieRoll, Distribution
from carwars_desktop.procedures.citation import check_citation
from carwars_desktop.procedures.inputs import Input, InputError, decision_of

T = TypeVar("T")


def percent(p: Fraction) -> str:
    """``Fraction(5, 18)`` → ``'27.8%'`` (one decimal); never a misleading ``'0.0%'`` or
    ``'100.0%'`` for odds that are not: ``'< 0.1%'``, ``'> 99.9%'``; ``'0%'`` and ``'100%'``
    when exactly so."""
    if p == 0:
        return "0%"
    if p == 1:
        return "100%"
    if p < Fraction(1, 1000):
        return "< 0.1%"
    if p > Fraction(999, 1000):
        return "> 99.9%"
    return f"{float(p) * 100:.1f}%"


def odds_text(p: Fraction) -> str:
    """The reduced fraction and the percentage: ``'5/18 · 27.8%'``, ``'1 · 100%'``,
    ``'1/2048 · < 0.1%'``."""
    return f"{p} · {percent(p)}"


@dataclass(frozen=True)
class Step:
    """One line of an explanation, citing the rule it applies (``MCW §2.10``)."""

    text: str
    rule: str = ""

    def __post_init__(self) -> None:
        check_citation("Step", self.rule)

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

    def __post_init__(self) -> None:
        check_citation("Modifier", self.rule)

    def to_json(self) -> dict[str, Any]:
        return {"label": self.label, "value": self.value, "rule": self.rule}


@dataclass(frozen=True)
class SheetChange:
    """An effect: the input sheet ``input_name`` becomes ``sheet``."""

    input_name: str
    sheet: Any
    summary: str
    categories: frozenset[EffectCategory] = frozenset()
    """What the change did to the vehicle, as tags (armor breached, crew hurt, wrecked)."""

    def to_json(self) -> dict[str, Any]:
        return {"input": self.input_name, "summary": self.summary, "sheet": self.sheet.to_json(),
                "categories": sorted(c.value for c in self.categories)}


class EffectCategory(StrEnum):
    """What a game master asks of a hit or a crash, per vehicle: the engines tag their
    effects and odds with these, so that a summary never reads their wording.

    ``armor breached``: the armor of the side struck is gone (or was, and damage went
    past it); ``crew hurt``: a crew member took a wound or worse; ``wrecked``: the vehicle
    is out of the fight for good (driver killed, power plant destroyed, car destroyed).
    """

    ARMOR_BREACHED = "armor breached"
    CREW_HURT = "crew hurt"
    WRECKED = "wrecked"


@dataclass(frozen=True)
class EffectOdds:
    """The exact chance that ``subject`` (a vehicle's name) suffers an effect of ``category``.

    Not exclusive like outcomes: a shot that kills the driver also breached the armor.
    """

    subject: str
    category: EffectCategory
    probability: Fraction

    def to_json(self) -> dict[str, Any]:
        return {"subject": self.subject, "category": self.category.value,
                "probability": str(self.probability),
                "percent": round(float(self.probability) * 100, 2)}


@dataclass(frozen=True)
class Refusal:
    """The rules do not allow this (a weapon already fired, a speed out of reach).

    Not bad input: the values are well formed, the rules refuse them. A refusal
    takes no dice and has no effects; the GUI, the session log and the command line
    (exit status 3) all show :meth:`text`.

    Args:
        reason: why, in a phrase (``already fired this turn``).
        rule: the rule that refuses it (a :class:`Citation`).
        outcome: the outcome line when it is not ``not allowed: <reason>``
            (``70 mph is not allowed``).
    """

    reason: str
    rule: str = ""
    outcome: str = ""

    def __post_init__(self) -> None:
        check_citation("Refusal", self.rule)

    @property
    def headline(self) -> str:
        return self.outcome or f"not allowed: {self.reason}"

    def text(self) -> str:
        """``'not allowed: already fired this turn  [Mini Car Wars §2.9]'``."""
        return f"{self.headline}  [{self.rule}]" if self.rule else self.headline

    def step(self) -> Step:
        return Step(self.reason, self.rule)

    def to_json(self) -> dict[str, str]:
        return {"reason": self.reason, "rule": str(self.rule), "outcome": self.headline}

    def __str__(self) -> str:
        return self.text()


class RulesRefusal(InputError):  # noqa: N818 (a refusal, not an error of the program)
    """Raised (by a check or a plan) when the rules refuse the inputs: carries a :class:`Refusal`.

    It is an :class:`InputError` for the callers that only ask "can this be resolved?";
    callers that tell the two apart (the command line: exit 3, not 2) catch it first.
    """

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.text())
        self.refusal = refusal


@dataclass(frozen=True)
class Result:
    """What a procedure's resolve function returns; the framework adds the rest.

    A result with a ``refusal`` is a refused procedure: its outcome and (unless
    given) its one step come from the refusal, and it may have no effects.
    """

    outcome: str = ""
    steps: Sequence[Step] = ()
    success: bool | None = None
    effects: Sequence[SheetChange] = ()
    values: Mapping[str, Any] = field(default_factory=dict)
    refusal: Refusal | None = None
    label: str = ""
    """The label of the :class:`Outcome` of the procedure's odds this result is, when the
    outcome line says more (``hit: 9 damage to car 2`` is the outcome ``hit``)."""

    @staticmethod
    def refused(refusal: Refusal) -> Result:
        return Result(outcome=refusal.headline, steps=[refusal.step()], success=False,
                      refusal=refusal)


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
    refusal: Refusal | None = None
    label: str = ""
    """The odds outcome this resolution is (its outcome line when the procedure gives none)."""

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
            "refusal": None if self.refusal is None else self.refusal.to_json(),
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
    effects: tuple[EffectOdds, ...] = ()
    """Per vehicle, the chance of each :class:`EffectCategory` (over all outcomes)."""
    success: Fraction | None = None
    """P(success) when it is not the chart's success region: the chart shows one roll of
    several (a skid's final facing, reached only when the drift meets no obstruction)."""

    def probability(self, label: str) -> Fraction:
        return sum((o.probability for o in self.outcomes if o.label == label), Fraction(0))

    def p_success(self) -> Fraction | None:
        """P(success): :attr:`success` when given, else the chart's success region, if any."""
        if self.success is not None:
            return self.success
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
            "effects": [e.to_json() for e in self.effects],
        }


@dataclass(frozen=True)
class DiceNeed:
    """One throw a procedure asks for, in order: ``2d6`` for ``to hit``, if ``when``."""

    purpose: str
    count: int
    sides: int
    when: str = ""
    repeat: bool = False
    """The throw may be taken again (``per interior hit``, ``again while tied``): any number
    of times, at least once unless ``when`` makes it conditional."""

    def __str__(self) -> str:
        text = f"{self.count}d{self.sides} {self.purpose}"
        return f"{text} ({self.when})" if self.when else text


Values = Mapping[str, Any]

House = Mapping[str, Any]
"""The session's house rules as context: decision id (``MCW-D13``) → its JSON value.

A procedure's decision inputs take their values from it (the digest's default for a
decision it does not name); a decision given among the inputs themselves (a stored log's,
``--set``) still wins.
"""


@dataclass(frozen=True)
class Requirement:
    """A house-rule decision a procedure needs (a variant switched on) to be offered.

    Args:
        decision: the decision id (``AP-ramming``).
        label: what the decision is called (``Ramming variant (§2.9)``).
        value: the value it needs (``True``: switched on).
        default: the digest's default, taken when the house rules do not name it.
    """

    decision: str
    label: str
    value: Any = True
    default: Any = False

    def met(self, house: House | None) -> bool:
        return bool((house or {}).get(self.decision, self.default) == self.value)

    def words(self) -> str:
        """How it is switched on: ``AP-ramming=on``."""
        value = ("on" if self.value else "off") if isinstance(self.value, bool) else self.value
        return f"{self.decision}={value}"

    def to_json(self) -> dict[str, Any]:
        return {"decision": self.decision, "label": self.label, "value": self.value}


class Bound(dict[str, Any]):
    """Checked and defaulted input values, with the procedure's plan of them (if it has one)."""

    plan: Any = None
    planned: bool = False
    owner: str = ""
    """The id of the procedure that bound them."""


def plan_of(values: Values, compute: Callable[[Values], T]) -> T:
    """The plan computed once when ``values`` were bound; ``compute`` when called directly."""
    if isinstance(values, Bound) and values.planned:
        return cast(T, values.plan)
    return compute(values)


_PLAN_CACHE_SIZE = 16

REFUSED = "not allowed"
"""The odds outcome of a refusal."""


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
        check_fn: cross-input checks; raises :class:`InputError` (bad input) or
            :class:`RulesRefusal` (the rules refuse it).
        plan_fn: ``values -> plan``, the work that check, resolve, odds and dice all
            need (the weapons fired, the cards played): computed once per bound values
            (kept for the last few) and read back with :func:`plan_of`.
        aliases: old input name → current name; accepted by :meth:`bind` and
            :meth:`parse` so that ``--set oldname=…`` and stored logs still work.
        requires: the house-rule decisions it needs (a variant switched on): under house
            rules that do not meet them it is not offered (:meth:`offered`) and
            :meth:`bind` refuses it (a :class:`RulesRefusal`).
        unused_fn: ``values -> names``, the inputs a move with these values does not use
            (a smokescreen aims at no one: no target, range or side). It is given the
            inputs that check (others missing) and never raises; see :meth:`unused`.
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
    plan_fn: Callable[[Values], Any] | None = None
    aliases: Mapping[str, str] = field(default_factory=dict)
    requires: tuple[Requirement, ...] = ()
    unused_fn: Callable[[Mapping[str, Any]], Collection[str]] | None = None
    _plans: dict[Any, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        check_citation(f"procedure {self.id}", self.rule)
        names = {spec.name for spec in self.inputs}
        for old, new in self.aliases.items():
            if new not in names or old in names:
                raise ValueError(f"{self.id}: alias {old!r} → {new!r} does not name an input")

    def canonical(self, name: str) -> str:
        """The current name of an input given by its current or old name."""
        return self.aliases.get(name, name)

    def canonical_values(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        """``raw`` with old input names replaced by the current ones (a stored log's inputs)."""
        renamed: dict[str, Any] = {}
        for name, value in raw.items():
            current = self.canonical(name)
            if current in renamed:
                raise InputError(f"{self.id}: {current} given twice (also as {name})")
            renamed[current] = value
        return renamed

    def input(self, name: str) -> Input:
        name = self.canonical(name)
        for spec in self.inputs:
            if spec.name == name:
                return spec
        raise InputError(f"{self.id} has no input {name!r} (inputs: {self.input_names()})")

    def input_names(self) -> str:
        return ", ".join(spec.name for spec in self.inputs)

    @property
    def asked(self) -> tuple[Input, ...]:
        """The inputs asked per roll (its decisions come from the session's house rules)."""
        return tuple(spec for spec in self.inputs if not decision_of(spec))

    @property
    def decision_inputs(self) -> tuple[Input, ...]:
        """The inputs that are house-rule decisions (filled from the context)."""
        return tuple(spec for spec in self.inputs if decision_of(spec))

    # --- offered under house rules ----------------------------------------------------
    def unmet(self, house: House | None) -> tuple[Requirement, ...]:
        """The requirements ``house`` does not meet (a variant left off)."""
        return tuple(r for r in self.requires if not r.met(house))

    def offered(self, house: House | None) -> bool:
        """Whether the procedure is offered under the house rules ``house`` (None or empty:
        the digest's defaults): every decision it requires has the value it needs."""
        return not self.unmet(house)

    def not_offered(self, house: House | None, where: str = "these house rules") -> str:
        """Why it is not offered under ``house`` (``Ramming variant (§2.9) is off in these
        house rules``); empty when it is."""
        unmet = self.unmet(house)
        if not unmet:
            return ""
        return "; ".join(f"{r.label} is {'off' if r.value is True else 'not ' + str(r.value)}"
                         f" in {where}" for r in unmet)

    def refusal_under(self, house: House | None) -> Refusal | None:
        """The refusal of a roll under ``house`` when the procedure is not offered."""
        unmet = self.unmet(house)
        if not unmet:
            return None
        switch = ", ".join(r.words() for r in unmet)
        return Refusal(f"{self.id} is not offered: {self.not_offered(house)} "
                       f"(switch it on: {switch})", self.rule)

    def bind(self, raw: Mapping[str, Any], house: House | None = None) -> dict[str, Any]:
        """Check every value, fill defaults, refuse unknown names; plan, then cross-check.

        ``house`` is the session's house rules: each decision input not in ``raw`` takes
        its value from there, else the digest's default. A procedure whose
        :attr:`requires` ``house`` does not meet is refused (:class:`RulesRefusal`).
        """
        if isinstance(raw, Bound) and raw.planned and raw.owner == self.id and not house:
            return raw
        refusal = self.refusal_under(house)
        if refusal is not None:
            raise RulesRefusal(refusal)
        raw = self.canonical_values(raw)
        unknown = set(raw) - {spec.name for spec in self.inputs}
        if unknown:
            raise InputError(
                f"{self.id} has no input {', '.join(sorted(unknown))} "
                f"(inputs: {self.input_names()})"
            )
        values = Bound()
        checked, problems = self._checked(raw, house)
        unused = self._unused(checked)
        for spec in self.inputs:
            if spec.name in unused:
                values[spec.name] = None  # not used by this move: never asked, never kept
            elif spec.name in problems:
                raise problems[spec.name]
            else:
                values[spec.name] = checked[spec.name]
        if self.plan_fn is not None:
            values.plan = self._plan(values, self.plan_fn)
        values.planned, values.owner = True, self.id
        if self.check_fn is not None:
            self.check_fn(values)
        return values

    def _checked(self, raw: Mapping[str, Any], house: House | None
                 ) -> tuple[dict[str, Any], dict[str, InputError]]:
        """Each input's checked value (given, from ``house``, else its default), and the
        problem of each that does not check."""
        checked: dict[str, Any] = {}
        problems: dict[str, InputError] = {}
        for spec in self.inputs:
            if spec.name in raw:
                value = raw[spec.name]
            elif house and decision_of(spec) in house:
                value = house[decision_of(spec)]
            else:
                value = spec.default
            try:
                checked[spec.name] = spec.check(value)
            except InputError as error:
                problems[spec.name] = error
        return checked, problems

    def _unused(self, checked: Mapping[str, Any]) -> frozenset[str]:
        if self.unused_fn is None:
            return frozenset()
        return frozenset(self.unused_fn(checked)) & {spec.name for spec in self.inputs}

    def unused(self, raw: Mapping[str, Any], house: House | None = None) -> frozenset[str]:
        """The inputs a move with the values ``raw`` does not use (empty when the procedure
        uses them all, or when ``raw`` does not say yet): a form need not ask them, and
        :meth:`bind` keeps ``None`` for them whatever is given. Never raises."""
        try:
            checked, _problems = self._checked(self.canonical_values(raw), house)
        except InputError:
            return frozenset()
        return self._unused(checked)

    def _plan(self, values: Bound, plan_fn: Callable[[Values], Any]) -> Any:
        try:
            key: Any = tuple(values.items())
            hash(key)
        except TypeError:
            return plan_fn(values)
        if key in self._plans:
            return self._plans[key]
        plan = plan_fn(values)
        if len(self._plans) >= _PLAN_CACHE_SIZE:
            self._plans.pop(next(iter(self._plans)))
        self._plans[key] = plan
        return plan

    def parse(self, texts: Mapping[str, str], house: House | None = None) -> dict[str, Any]:
        """Parse ``NAME=VALUE`` texts (CLI or form) into checked values."""
        raw: dict[str, Any] = {}
        for name, text in self.canonical_values(texts).items():
            raw[name] = self.input(name).parse(text)
        return self.bind(raw, house)

    def resolve(self, raw: Mapping[str, Any], dice: DiceSource,
                house: House | None = None) -> Resolution:
        values = self.bind(raw, house)
        result = self.resolve_fn(values, dice)
        refusal = result.refusal
        if refusal is not None and result.effects:
            raise TypeError(f"{self.id}: a refusal has no effects ({refusal.reason})")
        return Resolution(
            procedure_id=self.id,
            inputs={spec.name: spec.to_json(values[spec.name]) for spec in self.inputs},
            dice=tuple(dice.used),
            steps=tuple(result.steps) or ((refusal.step(),) if refusal else ()),
            outcome=result.outcome or (refusal.headline if refusal else ""),
            success=False if refusal is not None else result.success,
            effects=tuple(result.effects),
            values=dict(result.values),
            refusal=refusal,
            label=result.label or (REFUSED if refusal else "") or result.outcome,
        )

    def odds(self, raw: Mapping[str, Any], house: House | None = None) -> Odds:
        return self.odds_fn(self.bind(raw, house))

    def dice_needed(self, raw: Mapping[str, Any],
                    house: House | None = None) -> tuple[DiceNeed, ...]:
        return tuple(self.dice_fn(self.bind(raw, house)))

    def describe(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "ruleset": self.ruleset,
            "title": self.title,
            "rule": self.rule,
            "summary": self.summary,
            "inputs": [spec.describe() for spec in self.asked],
            "decisions": [spec.describe() for spec in self.decision_inputs],
            "requires": [r.to_json() for r in self.requires],
            "aliases": dict(self.aliases),
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

"""House rules, declared once: each ruleset's decisions as data.

A :class:`Decision` describes one switch of a ruleset's options type (``MiniRules``,
Battlecars ``Options``, AUTOpower ``Options``): its id (``MCW-D13``), label, help, the
digest's default (the options type's own default) and its alternatives. A
:class:`DecisionSet` turns house-rule values (decision id → JSON value) into the options
value the engines take, into a procedure's decision inputs, into command-line text and
into the session log's words. The Resolver's panel, the house-rules editor, the
New Session dialog, the command line and the log are all generated from it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from enum import Enum
from typing import Any, Generic, TypeVar

from carwars_desktop.procedures import BoolInput, ChoiceInput, Input, IntInput, Requirement

OptionsT = TypeVar("OptionsT")

Values = Mapping[str, Any]
"""House-rule values: decision id → JSON value (``{"MCW-D13": false}``)."""


class DecisionError(ValueError):
    """House-rule values that do not fit a ruleset's decisions (the message says why)."""


_ON = {"on", "true", "yes", "1", "y"}
_OFF = {"off", "false", "no", "0", "n"}


@dataclass(frozen=True)
class Decision:
    """One decision of a digest (or one pre-game question of the rules).

    Args:
        id: stable id (``MCW-D13``, ``AP-D7``, ``AP-division``); never renamed.
        field: the options type's field it sets.
        label: what a form calls it (``MCW-D13: front/rear −1 also on cycles``).
        help: one line on the alternative.
        choices: the JSON values allowed (``(True, False)`` for a switch).
        input_name: the procedure input named after it (``""``: no procedure asks it;
            the Workshop or the session set-up applies it).
        pregame: asked in the New Session dialog with the ruleset's pre-game questions.
        rule: the digest section.
        words: how a choice reads (``None`` → ``not fixed``); others read as themselves.
    """

    id: str
    field: str
    label: str
    help: str = ""
    choices: tuple[Any, ...] = (True, False)
    input_name: str = ""
    pregame: bool = False
    rule: str = ""
    words: Mapping[Any, str] | None = None

    @property
    def switch(self) -> bool:
        return self.choices == (True, False)

    def text(self, value: Any) -> str:
        """``on``/``off`` for a switch, else the choice's word."""
        if self.switch:
            return "on" if value else "off"
        if self.words is not None and value in self.words:
            return self.words[value]
        return "none" if value is None else str(value)

    def check(self, value: Any) -> Any:
        if isinstance(value, str) and value not in self.choices:
            try:
                return self.parse(value)  # as the docs and --option write it: "off", "20"
            except DecisionError:
                pass  # refused below, with the choices
        if isinstance(value, bool) != isinstance(self.choices[0], bool) or \
                value not in self.choices:
            allowed = ", ".join(self.text(c) for c in self.choices)
            raise DecisionError(f"{self.id}: {value!r} is not one of its choices ({allowed})")
        return value

    def parse(self, text: str) -> Any:
        """The value of ``text`` (``off``, ``nearest``, ``20``); :class:`DecisionError`."""
        lowered = text.strip().lower()
        if self.switch:
            if lowered in _ON:
                return True
            if lowered in _OFF:
                return False
            raise DecisionError(f"{self.id}: {text!r} is not on or off")
        for choice in self.choices:
            if lowered in {self.text(choice).lower(), str(choice).lower()}:
                return choice
        allowed = ", ".join(self.text(c) for c in self.choices)
        raise DecisionError(f"{self.id}: {text!r} is not one of {allowed}")

    def to_json(self, default: Any) -> dict[str, Any]:
        return {"id": self.id, "label": self.label, "help": self.help, "default": default,
                "choices": list(self.choices), "input": self.input_name or None,
                "pregame": self.pregame, "rule": self.rule}


@dataclass(frozen=True)
class DecisionMaker:
    """Declares one ruleset's decisions of one kind, as its table lists them: the id is
    ``prefix`` + the key (``BC-D`` + ``2``), the digest section ``rule``, and the procedure
    input ``input_prefix`` + the field unless ``input_name`` names another (``""``: none).

    ``_d = DecisionMaker("BC-D", bc("§5"))`` then ``_d(2, "bc_d2_range", "BC-D2 …", "…")``.
    """

    prefix: str
    rule: str
    input_prefix: str = ""
    pregame: bool = False

    def __call__(self, key: int | str, field: str, label: str, help: str = "",
                 input_name: str | None = None, choices: tuple[Any, ...] = (True, False),
                 words: Mapping[Any, str] | None = None) -> Decision:
        name = f"{self.input_prefix}{field}" if input_name is None else input_name
        return Decision(f"{self.prefix}{key}", field, label, help, choices, name,
                        self.pregame, self.rule, words)


@dataclass(frozen=True)
class DecisionSet(Generic[OptionsT]):
    """A ruleset's decisions over its options type ``OptionsT`` (a frozen dataclass)."""

    options_type: type[OptionsT]
    decisions: tuple[Decision, ...]

    def __post_init__(self) -> None:
        names = {f.name for f in fields(self.options_type)}  # type: ignore[arg-type]
        seen: set[str] = set()
        for decision in self.decisions:
            if decision.field not in names:
                raise ValueError(f"{decision.id}: {self.options_type.__name__} has no field "
                                 f"{decision.field!r}")
            if decision.id in seen:
                raise ValueError(f"decision {decision.id} declared twice")
            seen.add(decision.id)
            if self.default(decision.id) not in decision.choices:
                raise ValueError(f"{decision.id}: its default is not one of its choices")

    # --- looking up ------------------------------------------------------------
    def __iter__(self) -> Any:
        return iter(self.decisions)

    def get(self, decision_id: str) -> Decision:
        for decision in self.decisions:
            if decision.id.lower() == decision_id.strip().lower():
                return decision
        known = ", ".join(d.id for d in self.decisions)
        raise DecisionError(f"unknown decision {decision_id!r} (known: {known})")

    def for_input(self, input_name: str) -> Decision | None:
        for decision in self.decisions:
            if decision.input_name and decision.input_name == input_name:
                return decision
        return None

    @property
    def pregame(self) -> tuple[Decision, ...]:
        return tuple(d for d in self.decisions if d.pregame)

    @property
    def digest(self) -> tuple[Decision, ...]:
        """The digest's decisions (not the pre-game questions)."""
        return tuple(d for d in self.decisions if not d.pregame)

    # --- values ----------------------------------------------------------------
    def default(self, decision_id: str) -> Any:
        decision = next(d for d in self.decisions if d.id == decision_id)
        return _json(getattr(self.options_type(), decision.field))

    def defaults(self) -> dict[str, Any]:
        """The digest's defaults: every decision id → its default."""
        return {d.id: self.default(d.id) for d in self.decisions}

    def check(self, values: Values) -> dict[str, Any]:
        """``values`` checked (unknown ids and values outside the choices refused),
        with the defaults for the decisions it does not name."""
        if not isinstance(values, Mapping):
            raise DecisionError(f"house rules must be an object, not {values!r}")
        checked = self.defaults()
        for key, value in values.items():
            decision = self.get(str(key))
            checked[decision.id] = decision.check(value)
        return checked

    def options(self, values: Values | None = None) -> OptionsT:
        """The options value the engines take, for ``values`` (defaults elsewhere)."""
        chosen = self.check(values or {})
        base = self.options_type()
        changes = {d.field: _field(getattr(base, d.field), chosen[d.id])
                   for d in self.decisions if chosen[d.id] != self.default(d.id)}
        return replace(base, **changes)  # type: ignore[type-var]

    def values_of(self, options: OptionsT) -> dict[str, Any]:
        """The house-rule values of an options value."""
        return {d.id: _json(getattr(options, d.field)) for d in self.decisions}

    def from_inputs(self, values: Mapping[str, Any]) -> OptionsT:
        """The options of a procedure's bound inputs (those named after a decision);
        the digest's defaults for the rest. The one mapper every procedure uses."""
        chosen: dict[str, Any] = {}
        for decision in self.decisions:
            if decision.input_name and decision.input_name in values:
                chosen[decision.id] = values[decision.input_name]
        return self.options(chosen)

    def parse(self, items: Iterable[str]) -> dict[str, Any]:
        """``MCW-D13=off`` texts (the command line's ``--option``) as values."""
        parsed: dict[str, Any] = {}
        for item in items:
            key, sep, text = item.partition("=")
            if not sep:
                raise DecisionError(f"--option {item!r}: expected DECISION=VALUE")
            decision = self.get(key)
            if decision.id in parsed:
                raise DecisionError(f"--option {decision.id} given twice")
            parsed[decision.id] = decision.parse(text)
        return parsed

    def changes(self, before: Values, after: Values) -> list[str]:
        """What differs, in words: ``['MCW-D13 off', 'MCW-D6 nearest']``."""
        old, new = self.check(before), self.check(after)
        return [f"{d.id} {d.text(new[d.id])}" for d in self.decisions if old[d.id] != new[d.id]]

    def departures(self, values: Values) -> list[str]:
        """The decisions that are not the digest's default, in words."""
        return self.changes(self.defaults(), values)

    # --- forms -----------------------------------------------------------------
    def input(self, decision_id: str, label: str = "", help: str = "") -> Input:
        """The procedure input of a decision (its value comes from the house rules)."""
        decision = self.get(decision_id)
        if not decision.input_name:
            raise ValueError(f"{decision.id} is not a procedure input")
        default = self.default(decision.id)
        text, more = label or decision.label, help or decision.help
        if decision.switch:
            return BoolInput(decision.input_name, text, default, help=more,
                             decision=decision.id)
        if all(isinstance(c, int) and not isinstance(c, bool) for c in decision.choices):
            return IntInput(decision.input_name, text, default, min(decision.choices),
                            max(decision.choices), help=more, decision=decision.id)
        return ChoiceInput(decision.input_name, text, tuple(str(c) for c in decision.choices),
                           default, help=more, decision=decision.id)

    def requirement(self, decision_id: str, value: Any = True) -> Requirement:
        """What a procedure that needs ``decision_id`` at ``value`` declares
        (:attr:`Procedure.requires`): off under house rules without it, it is not offered."""
        decision = self.get(decision_id)
        return Requirement(decision.id, decision.label, decision.check(value),
                           self.default(decision.id))

    def describe(self) -> list[dict[str, Any]]:
        return [d.to_json(self.default(d.id)) for d in self.decisions]


def _json(value: Any) -> Any:
    return value.value if isinstance(value, Enum) else value


def _field(template: Any, value: Any) -> Any:
    """``value`` as the options field's type (an enum member where the default is one)."""
    return type(template)(value) if isinstance(template, Enum) else value


def house_inputs(decisions: Sequence[Decision], values: Values) -> dict[str, Any]:
    """Input name → value of the decisions that are procedure inputs."""
    return {d.input_name: values[d.id] for d in decisions if d.input_name and d.id in values}

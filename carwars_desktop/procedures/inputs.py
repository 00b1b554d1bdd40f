"""Typed inputs of a procedure: what the GUI builds a form from and the CLI parses.

Every input knows its name, label, default, allowed values and help text; it
parses text (``--set NAME=VALUE`` or a line edit) and checks Python values.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol


class InputError(ValueError):
    """An input value that is missing, of the wrong type or out of range."""


class Sheet(Protocol):
    """What the framework needs of a record sheet (each ruleset has its own type)."""

    @property
    def name(self) -> str: ...

    def to_json(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class IntInput:
    """A whole number in ``minimum..maximum``; ``optional`` allows ``None``."""

    name: str
    label: str
    default: int | None
    minimum: int
    maximum: int
    help: str = ""
    optional: bool = False
    decision: str = ""
    """The house-rule decision this input is (``MCW-D13``): filled from the session's
    options, not asked per roll."""
    kind: str = field(default="int", init=False)

    def check(self, value: Any) -> int | None:
        if value is None:
            if self.optional:
                return None
            raise InputError(f"{self.name}: a whole number {self.minimum}–{self.maximum} is needed")
        if isinstance(value, bool) or not isinstance(value, int):
            raise InputError(f"{self.name}: expected a whole number, got {value!r}")
        if not self.minimum <= value <= self.maximum:
            raise InputError(
                f"{self.name}: {value} is out of range ({self.minimum}–{self.maximum})"
            )
        return value

    def parse(self, text: str) -> int | None:
        text = text.strip().replace("−", "-")
        if text == "" and self.optional:
            return None
        try:
            return self.check(int(text))
        except ValueError as error:
            if isinstance(error, InputError):
                raise
            raise InputError(f"{self.name}: {text!r} is not a whole number") from None

    def to_json(self, value: Any) -> Any:
        return value

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "label": self.label, "type": "int", "default": self.default,
                "range": [self.minimum, self.maximum], "optional": self.optional,
                "help": self.help, **_decision(self.decision)}


@dataclass(frozen=True)
class ChoiceInput:
    """One of a fixed set of choices, each a short stable key."""

    name: str
    label: str
    choices: tuple[str, ...]
    default: str | None
    help: str = ""
    optional: bool = False
    decision: str = ""
    """The house-rule decision this input is (``MCW-D13``): filled from the session's
    options, not asked per roll."""
    kind: str = field(default="choice", init=False)

    def check(self, value: Any) -> str | None:
        if value is None and self.optional:
            return None
        if value not in self.choices:
            raise InputError(
                f"{self.name}: {value!r} is not one of {', '.join(self.choices)}"
            )
        return str(value)

    def parse(self, text: str) -> str | None:
        text = text.strip()
        if text == "" and self.optional:
            return None
        for choice in self.choices:
            if choice.lower() == text.lower():
                return choice
        return self.check(text)

    def to_json(self, value: Any) -> Any:
        return value

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "label": self.label, "type": "choice", "default": self.default,
                "choices": list(self.choices), "optional": self.optional, "help": self.help,
                **_decision(self.decision)}


def _decision(decision: str) -> dict[str, str]:
    return {"decision": decision} if decision else {}


_TRUE = {"1", "true", "yes", "on", "y"}
_FALSE = {"0", "false", "no", "off", "n"}


@dataclass(frozen=True)
class BoolInput:
    """A yes/no switch (a rule option, a condition of the shot)."""

    name: str
    label: str
    default: bool
    help: str = ""
    optional: bool = False
    decision: str = ""
    """The house-rule decision this input is (``MCW-D13``): filled from the session's
    options, not asked per roll."""
    kind: str = field(default="bool", init=False)

    def check(self, value: Any) -> bool:
        if not isinstance(value, bool):
            raise InputError(f"{self.name}: expected yes or no, got {value!r}")
        return value

    def parse(self, text: str) -> bool:
        lowered = text.strip().lower()
        if lowered in _TRUE:
            return True
        if lowered in _FALSE:
            return False
        raise InputError(f"{self.name}: {text!r} is not yes/no (use true or false)")

    def to_json(self, value: Any) -> Any:
        return value

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "label": self.label, "type": "bool", "default": self.default,
                "help": self.help, **_decision(self.decision)}


@dataclass(frozen=True)
class TextInput:
    """Free text checked by ``validate`` (which raises ``ValueError`` with the reason).

    ``choices_from`` lists the values that make sense given the other inputs (the
    firer's weapons, say) as ``(value, label)`` pairs: a form offers them as a list,
    while any text the procedure accepts stays valid (the command line).
    """

    name: str
    label: str
    default: str | None
    help: str = ""
    validate: Callable[[str], object] | None = None
    optional: bool = False
    choices_from: Callable[[Mapping[str, Any]], Sequence[tuple[str, str]]] | None = None
    kind: str = field(default="text", init=False)

    def check(self, value: Any) -> str | None:
        if value is None and self.optional:
            return None
        if not isinstance(value, str):
            raise InputError(f"{self.name}: expected text, got {value!r}")
        if self.validate is not None:
            try:
                self.validate(value)
            except ValueError as error:
                raise InputError(f"{self.name}: {error}") from None
        return value

    def parse(self, text: str) -> str | None:
        return self.check(text)

    def to_json(self, value: Any) -> Any:
        return value

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "label": self.label, "type": "text", "default": self.default,
                "optional": self.optional, "help": self.help}


@dataclass(frozen=True)
class SheetInput:
    """A vehicle's live record sheet of one ruleset.

    ``load`` builds a sheet from its JSON form; ``catalog`` gives the sheets a
    name can refer to (the ruleset's stock vehicles, fresh from the factory).
    On the command line the value is a catalog name, inline JSON, or
    ``@file.json`` (read by the CLI).
    """

    name: str
    label: str
    sheet_type: type
    load: Callable[[Mapping[str, Any]], Any]
    catalog: Callable[[], Mapping[str, Any]]
    help: str = ""
    optional: bool = False
    default: None = None
    kind: str = field(default="sheet", init=False)

    def check(self, value: Any) -> Any:
        if value is None:
            if self.optional:
                return None
            raise InputError(f"{self.name}: a {self.sheet_type.__name__} is needed")
        if isinstance(value, Mapping):
            return self.load_json(value)
        if isinstance(value, str):
            return self.parse(value)
        if not isinstance(value, self.sheet_type):
            raise InputError(
                f"{self.name}: expected a {self.sheet_type.__name__}, got {type(value).__name__}"
            )
        return value

    def load_json(self, data: Mapping[str, Any]) -> Any:
        try:
            return self.load(data)
        except (ValueError, KeyError, TypeError) as error:
            raise InputError(
                f"{self.name}: not a valid {self.sheet_type.__name__}: {error}"
            ) from None

    def parse(self, text: str) -> Any:
        text = text.strip()
        if text == "" and self.optional:
            return None
        if text.startswith("{"):
            try:
                data = json.loads(text)
            except json.JSONDecodeError as error:
                raise InputError(f"{self.name}: bad JSON: {error}") from None
            except RecursionError:
                raise InputError(f"{self.name}: the JSON is nested too deeply") from None
            if not isinstance(data, dict):
                raise InputError(f"{self.name}: the JSON must be an object")
            return self.load_json(data)
        catalog = self.catalog()
        for key, sheet in catalog.items():
            if key.lower() == text.lower():
                return sheet
        raise InputError(
            f"{self.name}: no catalog vehicle named {text!r} "
            f"(known: {', '.join(sorted(catalog)) or 'none'}; or give @file.json)"
        )

    def to_json(self, value: Any) -> Any:
        return None if value is None else value.to_json()

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "label": self.label, "type": "sheet",
                "sheet_type": self.sheet_type.__name__, "default": None,
                "choices": sorted(self.catalog()), "optional": self.optional, "help": self.help}


Input = IntInput | ChoiceInput | BoolInput | TextInput | SheetInput


def decision_of(spec: Input) -> str:
    """The house-rule decision an input stands for (``""``: an input asked per roll)."""
    return getattr(spec, "decision", "") or ""

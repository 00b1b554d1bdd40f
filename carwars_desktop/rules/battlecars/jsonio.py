"""Strict readers for the JSON forms of cards and sheets: refuse, never guess."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Any, TypeVar

E = TypeVar("E", bound=StrEnum)


class Reader:
    """Reads one JSON object, raising ``error`` (a ``ValueError`` subclass) with the path."""

    def __init__(self, data: Any, where: str, error: type[ValueError]) -> None:
        if not isinstance(data, Mapping):
            raise error(f"{where}: expected a JSON object, got {type(data).__name__}")
        self.data: Mapping[str, Any] = data
        self.where = where
        self.error = error

    def fail(self, message: str) -> ValueError:
        return self.error(f"{self.where}: {message}")

    def keys(self, required: Sequence[str], optional: Sequence[str] = ()) -> None:
        missing = [k for k in required if k not in self.data]
        if missing:
            raise self.fail(f"missing {', '.join(missing)}")
        unknown = sorted(set(self.data) - set(required) - set(optional))
        if unknown:
            raise self.fail(f"unknown field {', '.join(unknown)}")

    def integer(self, key: str, minimum: int | None = None, maximum: int | None = None,
            default: int | None = None) -> int:
        value = self.data.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(f"{key} must be a whole number, not {value!r}")
        if minimum is not None and value < minimum:
            raise self.fail(f"{key} must be at least {minimum}, not {value}")
        if maximum is not None and value > maximum:
            raise self.fail(f"{key} must be at most {maximum}, not {value}")
        return value

    def text(self, key: str, default: str | None = None) -> str:
        value = self.data.get(key, default)
        if not isinstance(value, str):
            raise self.fail(f"{key} must be text, not {value!r}")
        return value

    def flag(self, key: str, default: bool | None = None) -> bool:
        value = self.data.get(key, default)
        if not isinstance(value, bool):
            raise self.fail(f"{key} must be true or false, not {value!r}")
        return value

    def enum(self, key: str, kind: type[E], default: E | None = None) -> E:
        value = self.data.get(key, default)
        return enum_value(value, kind, f"{self.where}.{key}", self.error)

    def optional_enum(self, key: str, kind: type[E]) -> E | None:
        value = self.data.get(key)
        if value is None:
            return None
        return enum_value(value, kind, f"{self.where}.{key}", self.error)

    def obj(self, key: str, default: Mapping[str, Any] | None = None) -> Mapping[str, Any]:
        value = self.data.get(key, default)
        if not isinstance(value, Mapping):
            raise self.fail(f"{key} must be a JSON object, not {value!r}")
        return value

    def items(self, key: str, default: Sequence[Any] | None = None) -> Sequence[Any]:
        value = self.data.get(key, default)
        if not isinstance(value, list):
            raise self.fail(f"{key} must be a list, not {value!r}")
        return value

    def sub(self, key: str, default: Mapping[str, Any] | None = None) -> Reader:
        return Reader(self.obj(key, default), f"{self.where}.{key}", self.error)


def enum_value(value: Any, kind: type[E], where: str, error: type[ValueError]) -> E:
    try:
        return kind(value)
    except ValueError:
        allowed = ", ".join(member.value for member in kind)
        raise error(f"{where}: {value!r} is not one of {allowed}") from None

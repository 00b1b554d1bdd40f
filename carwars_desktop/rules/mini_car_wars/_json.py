"""Strict readers for JSON objects: every malformed value is refused with its path."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def expect_object(
    data: object, where: str, error: type[ValueError], required: frozenset[str],
    optional: frozenset[str] = frozenset(),
) -> Mapping[str, Any]:
    """``data`` as a mapping with exactly the ``required`` keys (plus any ``optional``)."""
    if not isinstance(data, Mapping):
        raise error(f"{where}: expected a JSON object, got {type(data).__name__}")
    keys = set(data)
    missing = required - keys
    if missing:
        raise error(f"{where}: missing {', '.join(sorted(missing))}")
    unknown = keys - required - optional
    if unknown:
        raise error(f"{where}: unknown field {', '.join(sorted(str(k) for k in unknown))}")
    return data


def get_int(data: Mapping[str, Any], key: str, where: str, error: type[ValueError],
            minimum: int | None = None, maximum: int | None = None) -> int:
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise error(f"{where}.{key}: expected a whole number, got {value!r}")
    if minimum is not None and value < minimum:
        raise error(f"{where}.{key}: {value} is below {minimum}")
    if maximum is not None and value > maximum:
        raise error(f"{where}.{key}: {value} is above {maximum}")
    return value


def get_optional_int(data: Mapping[str, Any], key: str, where: str,
                     error: type[ValueError], minimum: int | None = None) -> int | None:
    if data[key] is None:
        return None
    return get_int(data, key, where, error, minimum)


def get_bool(data: Mapping[str, Any], key: str, where: str, error: type[ValueError]) -> bool:
    value = data[key]
    if not isinstance(value, bool):
        raise error(f"{where}.{key}: expected true or false, got {value!r}")
    return value


def get_str(data: Mapping[str, Any], key: str, where: str, error: type[ValueError]) -> str:
    value = data[key]
    if not isinstance(value, str):
        raise error(f"{where}.{key}: expected text, got {value!r}")
    return value


def get_optional_str(data: Mapping[str, Any], key: str, where: str,
                     error: type[ValueError]) -> str | None:
    if data[key] is None:
        return None
    return get_str(data, key, where, error)

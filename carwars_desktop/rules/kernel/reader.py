"""The one strict reader of sheet and design JSON, shared by every ruleset: refuse, never guess.

A :class:`Reader` wraps one JSON object with the path it sits at (``design.armor``)
and the ``ValueError`` subclass its ruleset raises. Every value is decoded strictly
by msgspec (``True`` is not a whole number, ``"3"`` is not one either), imported
lazily so that start-up does not pay for it; the message names the path and the
offending value, because msgspec's own (``Expected `int`, got `str```) would not
say which field of which sheet.

Each ruleset keeps the wording its users (and its tests) know, as data: :data:`PATH`
says ``design.armor.F: expected a whole number, got '30'``; :data:`FIELD` says
``card: speed_track_max must be a whole number, not '9'``. Both give the path, the
expectation and the value.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, TypeVar

E = TypeVar("E", bound=Enum)


@dataclass(frozen=True)
class Wording:
    """How a ruleset words a refused value: format strings over ``where``, ``key``,
    ``what`` (``a whole number``), ``value``, ``minimum``, ``maximum`` and ``allowed``."""

    wrong: str
    below: str
    above: str
    choice: str


PATH = Wording(
    wrong="{where}.{key}: expected {what}, got {value!r}",
    below="{where}.{key}: {value} is below {minimum}",
    above="{where}.{key}: {value} is above {maximum}",
    choice="{where}.{key}: {value!r} is not one of {allowed}",
)
"""``design.armor.F: expected a whole number, got '30'`` (Mini Car Wars)."""

FIELD = Wording(
    wrong="{where}: {key} must be {what}, not {value!r}",
    below="{where}: {key} must be at least {minimum}, not {value}",
    above="{where}: {key} must be at most {maximum}, not {value}",
    choice="{where}.{key}: {value!r} is not one of {allowed}",
)
"""``card: speed_track_max must be a whole number, not '9'`` (Battlecars, AUTOpower)."""

NAMED = Wording(
    wrong="{where} {key} must be {what}, not {value!r}",
    below="{where} {key} must be at least {minimum}, not {value}",
    above="{where} {key} must be at most {maximum}, not {value}",
    choice="{where} {key} must be one of {allowed}, not {value!r}",
)
"""``car name must be text, not 5``; with an empty ``where``, ``division must be a whole
number, not 'x'`` (AUTOpower's cars, decks and options)."""


_MISSING = object()


_PLAIN = {int: int, str: str, bool: bool, float: float}
"""A value of exactly one of these types conforms to it: no msgspec call needed."""
_msgspec: Any = None


def conforms(value: Any, kind: Any) -> bool:
    """``value`` is exactly of the JSON type ``kind`` (``int``, ``list[int]``…), strictly.

    The plain cases (a value of exactly the type asked, a list of exactly ``int``) are
    answered without msgspec, which a 20,000-design import asks millions of times;
    anything else goes to msgspec, so the answer is the same.
    """
    global _msgspec  # noqa: PLW0603 (imported lazily, once: start-up does not need it)
    plain = type(value)
    if _PLAIN.get(plain) is kind:
        return True
    if kind == list[int] and plain in (list, tuple) and all(type(v) is int for v in value):
        return True
    if _msgspec is None:
        import msgspec

        _msgspec = msgspec
    msgspec = _msgspec
    try:
        msgspec.convert(value, kind, strict=True)
    except msgspec.ValidationError:
        return False
    return True


class Reader:
    """Reads one JSON object, raising ``error`` (a ``ValueError`` subclass) with the path."""

    def __init__(self, data: Any, where: str, error: type[ValueError],
                 wording: Wording = FIELD, not_object: str = "") -> None:
        """``not_object`` words a value that is no object (``{data!r}`` is the value)."""
        if not isinstance(data, Mapping):
            raise error(not_object.format(data=data) if not_object else
                        f"{where}: expected a JSON object, got {type(data).__name__}")
        self.data: Mapping[str, Any] = data
        self.where = where
        self.error = error
        self.wording = wording

    # --- messages ------------------------------------------------------------
    def fail(self, message: str) -> ValueError:
        return self.error(f"{self.where}: {message}")

    def _say(self, template: str, **parts: Any) -> ValueError:
        # an empty ``where`` (options) leaves no leading space
        return self.error(template.format(where=self.where, **parts).lstrip())

    def _wrong(self, key: str, what: str, value: Any) -> ValueError:
        return self._say(self.wording.wrong, key=key, what=what, value=value)

    def _below(self, key: str, value: int, minimum: int) -> ValueError:
        return self._say(self.wording.below, key=key, value=value, minimum=minimum)

    def _above(self, key: str, value: int, maximum: int) -> ValueError:
        return self._say(self.wording.above, key=key, value=value, maximum=maximum)

    def _enum(self, key: str, value: Any, kind: type[E]) -> E:
        try:
            return kind(value)
        except ValueError:
            allowed = ", ".join(str(member.value) for member in kind)
            raise self._say(self.wording.choice, key=key, value=value,
                            allowed=allowed) from None

    # --- structure -------------------------------------------------------------
    def keys(self, required: Collection[str], optional: Collection[str] = ()) -> None:
        """Exactly the ``required`` keys (plus any ``optional``); sets are reported sorted."""
        present = self.data.keys()
        if isinstance(required, set | frozenset):
            if present >= required and (len(present) == len(required)
                                        or not (present - required).difference(optional)):
                return  # the usual case, answered by set operations; the refusals below
        elif all(k in present for k in required) and not (present - set(required)).difference(
                optional):
            return
        order = sorted(required) if isinstance(required, set | frozenset) else list(required)
        missing = [k for k in order if k not in self.data]
        if missing:
            raise self.fail(f"missing {', '.join(missing)}")
        unknown = sorted(str(k) for k in set(self.data) - set(required) - set(optional))
        if unknown:
            raise self.fail(f"unknown field {', '.join(unknown)}")

    def _get(self, key: str, default: Any) -> Any:
        value = self.data.get(key, _MISSING)
        if value is _MISSING:
            if default is _MISSING:
                raise self.fail(f"missing {key}")
            return default
        return value

    # --- values ----------------------------------------------------------------
    def integer(self, key: str, minimum: int | None = None, maximum: int | None = None,
                default: Any = _MISSING) -> int:
        value = self._get(key, default)
        if not conforms(value, int):
            raise self._wrong(key, "a whole number", value)
        if minimum is not None and value < minimum:
            raise self._below(key, value, minimum)
        if maximum is not None and value > maximum:
            raise self._above(key, value, maximum)
        return int(value)

    def optional_integer(self, key: str, minimum: int | None = None,
                         maximum: int | None = None) -> int | None:
        if self._get(key, None) is None:
            return None
        return self.integer(key, minimum, maximum)

    def integers(self, key: str, default: Any = _MISSING) -> tuple[int, ...]:
        """A list of whole numbers."""
        value = self._get(key, default)
        if not conforms(value, list[int]):
            raise self._wrong(key, "a list of whole numbers", value)
        return tuple(value)

    def text(self, key: str, default: Any = _MISSING) -> str:
        value = self._get(key, default)
        if not conforms(value, str):
            raise self._wrong(key, "text", value)
        return str(value)

    def optional_text(self, key: str) -> str | None:
        if self._get(key, None) is None:
            return None
        return self.text(key)

    def flag(self, key: str, default: Any = _MISSING) -> bool:
        value = self._get(key, default)
        if not conforms(value, bool):
            raise self._wrong(key, "true or false", value)
        return bool(value)

    def enum(self, key: str, kind: type[E], default: Any = _MISSING) -> E:
        return self._enum(key, self._get(key, default), kind)

    def optional_enum(self, key: str, kind: type[E]) -> E | None:
        value = self.data.get(key)
        if value is None:
            return None
        return self._enum(key, value, kind)

    def obj(self, key: str, default: Any = _MISSING) -> Mapping[str, Any]:
        value = self._get(key, default)
        if not isinstance(value, Mapping):
            raise self._wrong(key, "a JSON object", value)
        return value

    def items(self, key: str, default: Any = _MISSING) -> Sequence[Any]:
        value = self._get(key, default)
        if not isinstance(value, list):
            raise self._wrong(key, "a list", value)
        return value

    def sub(self, key: str, default: Any = _MISSING) -> Reader:
        """The object at ``key``, read with the same error and wording."""
        return Reader(self.obj(key, default), f"{self.where}.{key}", self.error, self.wording)


def enum_value(value: Any, kind: type[E], where: str, error: type[ValueError]) -> E:
    """``value`` as a member of ``kind``, or ``error`` naming ``where`` and the members."""
    try:
        return kind(value)
    except ValueError:
        allowed = ", ".join(str(member.value) for member in kind)
        raise error(f"{where}: {value!r} is not one of {allowed}") from None

"""A hashable key for read JSON data: equal for two values exactly when their JSON texts
are, so that a design repeating one value many times (a 90,000-card deck of a few dozen
distinct cards) reads each distinct value once."""

from __future__ import annotations

from typing import Any

_codec: tuple[Any, Any] | None = None


def json_key(value: object) -> object:
    """The value's JSON text (bytes, from msgspec: a small object in about a
    microsecond), or the ``repr`` of a value that text would not tell apart from another
    (it is not plain JSON: a tuple, a number as a key, NaN…; reading the text back does
    not give it). The two kinds of key (bytes, str) never compare equal."""
    global _codec  # noqa: PLW0603 (imported lazily, once: start-up does not need it)
    if _codec is None:
        import msgspec

        _codec = msgspec.json.Encoder().encode, msgspec.json.Decoder().decode
    encode, decode = _codec
    try:
        text: bytes = encode(value)
    except (TypeError, ValueError, OverflowError):
        return repr(value)
    # Read back equal, it is plain JSON (equality tells a list from a tuple, "1" from 1
    # as a key, a string from bytes, NaN from null; the text tells 1, 1.0 and true apart).
    return text if decode(text) == value else repr(value)

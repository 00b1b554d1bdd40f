"""JSON of a design that repeats a few values many times (a 90,000-card deck of a few
dozen distinct cards): :func:`json_key` tells read values apart by their text, so that
each distinct one is read once; :func:`fresh_copies` writes each distinct one once and
still gives every place its own objects."""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from typing import Any

_codec: tuple[Any, Any] | None = None


def json_key(value: object, read: dict[bytes, object] | None = None) -> object:
    """The value's JSON text (bytes, from msgspec: a small object in about a
    microsecond), or the ``repr`` of a value that text would not tell apart from another
    (it is not plain JSON: a tuple, a number as a key, NaN…; reading the text back does
    not give it). The two kinds of key (bytes, str) never compare equal. ``read``: the
    texts already read back, and what they gave (kept by the caller across the values
    of one document, so that each distinct text is read back once)."""
    if _codec is None:
        _codec_ready()
    assert _codec is not None
    encode, decode = _codec
    try:
        text: bytes = encode(value)
    except (TypeError, ValueError, OverflowError):
        return repr(value)
    # Read back equal, it is plain JSON (equality tells a list from a tuple, "1" from 1
    # as a key, a string from bytes, NaN from null; the text tells 1, 1.0 and true apart).
    if read is None:
        back = decode(text)
    else:
        back = read.get(text, _UNREAD)
        if back is _UNREAD:
            back = read[text] = decode(text)
    return text if back == value else repr(value)


_UNREAD = object()


def fresh_copies(forms: Sequence[object], order: Iterable[int]) -> list[Any]:
    """``[deepcopy(forms[i]) for i in order]``: every copy its own objects (changing one
    changes no other), made in one pass of msgspec's decoder, a copy in C of each
    distinct form's text written once. A form its text would not give back (NaN, a
    tuple, a number as a key…) is copied by :func:`copy.deepcopy` instead, all of them
    then."""
    _codec_ready()
    assert _codec is not None
    encode, decode = _codec
    try:
        texts: list[bytes] = [encode(form) for form in forms]
    except (TypeError, ValueError, OverflowError):
        texts = []
    if len(texts) != len(forms) or any(decode(text) != form
                                       for text, form in zip(texts, forms, strict=True)):
        return [copy.deepcopy(forms[i]) for i in order]
    copies: list[Any] = decode(b"[" + b",".join(map(texts.__getitem__, order)) + b"]")
    return copies


def _codec_ready() -> None:
    global _codec  # noqa: PLW0603 (imported lazily, once: start-up does not need it)
    if _codec is None:
        import msgspec

        _codec = msgspec.json.Encoder().encode, msgspec.json.Decoder().decode

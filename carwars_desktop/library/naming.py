"""Names and tags of library designs: cleaning, limits, and names that do not clash."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Iterable

NAME_MAX = 200
"""The longest design name the library keeps (the database column's size)."""
TAG_MAX = 40
TAGS_MAX = 20


class InvalidNameError(ValueError):
    """A name or tag the library cannot keep (the message says why)."""

_UNSTORABLE = re.compile(r"[\x00-\x1f\x7f\ud800-\udfff]")
"""Control characters and (lone) surrogates: a database cannot keep them in a name."""


def _has_unstorable(text: str) -> bool:
    return _UNSTORABLE.search(text) is not None


def clean_name(name: str) -> str:
    """``name`` with outer spaces removed; refused when empty, too long or unprintable."""
    cleaned = unicodedata.normalize("NFC", name).strip()
    if not cleaned:
        raise InvalidNameError("a design needs a name")
    if len(cleaned) > NAME_MAX:
        raise InvalidNameError(f"a name has at most {NAME_MAX} characters, not {len(cleaned)}")
    if _has_unstorable(cleaned):
        raise InvalidNameError(f"the name {cleaned[:40]!r} holds control characters")
    return cleaned


def clean_tags(tags: Iterable[str]) -> tuple[str, ...]:
    """Tags trimmed, lower-cased, without duplicates, in the order given."""
    result: list[str] = []
    for raw in tags:
        tag = unicodedata.normalize("NFC", raw).strip().casefold()
        if not tag or tag in result:
            continue
        if len(tag) > TAG_MAX:
            raise InvalidNameError(f"a tag has at most {TAG_MAX} characters: {tag[:20]!r}…")
        if _has_unstorable(tag) or "," in tag:
            raise InvalidNameError(f"the tag {tag[:40]!r} holds a comma or control characters")
        result.append(tag)
    if len(result) > TAGS_MAX:
        raise InvalidNameError(f"a design has at most {TAGS_MAX} tags, not {len(result)}")
    return tuple(result)


def parse_tags(text: str) -> tuple[str, ...]:
    """``"club, road duel , club"`` → ``("club", "road duel")``."""
    return clean_tags(text.split(","))


def tags_text(tags: Iterable[str]) -> str:
    return ", ".join(tags)


_NUMBERED = re.compile(r"^(?P<base>.*?) \((?:copy|\d+)\)$")


def unique_name(name: str, taken: Collection[str]) -> str:
    """``name`` itself if free, else ``name (2)``, ``name (3)``…, within :data:`NAME_MAX`."""
    if name not in taken:
        return name
    match = _NUMBERED.match(name)
    base = match.group("base") if match else name
    number = 2
    while True:
        suffix = f" ({number})"
        candidate = base[:NAME_MAX - len(suffix)] + suffix
        if candidate not in taken:
            return candidate
        number += 1


class UniqueNames:
    """Names handed out one after another, none clashing with the others or ``taken``.

    The same names :func:`unique_name` gives against everything taken so far, but each
    base name remembers the number it reached: importing 1,000 copies of a design into
    a library with 5,000 of them tries each number once (linear), where asking
    :func:`unique_name` afresh every time tries them all again (quadratic).
    """

    def __init__(self, taken: Iterable[str] = ()) -> None:
        self._taken = set(taken)
        self._next: dict[str, int] = {}

    def __contains__(self, name: object) -> bool:
        return name in self._taken

    def take(self, name: str) -> str:
        """``name`` if free, else the first free ``name (n)``; either is taken from now on."""
        if name not in self._taken:
            self._taken.add(name)
            return name
        match = _NUMBERED.match(name)
        base = match.group("base") if match else name
        # Every number below the one reached was taken, and names are never given back.
        number = self._next.get(base, 2)
        while True:
            suffix = f" ({number})"
            candidate = base[:NAME_MAX - len(suffix)] + suffix
            if candidate not in self._taken:
                break
            number += 1
        self._next[base] = number + 1
        self._taken.add(candidate)
        return candidate


def copy_name(name: str, taken: Collection[str]) -> str:
    """The name of a duplicate: ``Courier (copy)``, then ``Courier (2)``…"""
    suffix = " (copy)"
    candidate = name[:NAME_MAX - len(suffix)] + suffix
    return candidate if candidate not in taken else unique_name(candidate, taken)

"""Search-as-you-type over names and tags: every word typed must appear in one of them.

The library list precomputes one folded text per design (:func:`haystack`) so that
a keystroke costs one substring test per word per design.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache

_SEPARATOR = "\x1f"


@lru_cache(maxsize=1 << 16)
def fold(text: str) -> str:
    """Case- and accent-insensitive form: ``"Rocket Spécial"`` → ``"rocket special"``.

    Remembered for the last 65,536 texts: the library's sort compares the same names
    many times (a row placed by binary search folds each name it passes)."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def haystack(name: str, tags: Iterable[str]) -> str:
    """What a query is matched against: the name and every tag, folded."""
    return _SEPARATOR.join(fold(part) for part in (name, *tags))


def query_words(query: str) -> tuple[str, ...]:
    return tuple(word for word in fold(query).split() if word)


def matcher(query: str) -> Callable[[str], bool]:
    """A test of one haystack: true when every word of ``query`` occurs in it."""
    words = query_words(query)
    if not words:
        return lambda _text: True
    if len(words) == 1:
        word = words[0]
        return lambda text: word in text
    return lambda text: all(word in text for word in words)


def matching_rows(query: str, haystacks: Sequence[str],
                  among: Iterable[int] | None = None) -> list[int]:
    """The indices (of ``among``, default all) whose haystack matches ``query``."""
    test = matcher(query)
    rows = range(len(haystacks)) if among is None else among
    return [row for row in rows if test(haystacks[row])]

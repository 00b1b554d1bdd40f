"""Every symbol the program shows is in a font Qt has (no missing-glyph boxes).

The symbols are read from the string literals of the program's source (the status
marks, arrows, ticks and dashes of the GUI, the session and the rules engines) and
checked against the fonts Qt finds: on a machine set up by ``./dev`` only DejaVu
(fonts-dejavu-core), where "ⓘ" and "⛔" used to draw as boxes.
"""

from __future__ import annotations

import io
import tokenize
import unicodedata
from functools import cache
from pathlib import Path

from PySide6.QtGui import QFont, QFontDatabase, QRawFont
from PySide6.QtWidgets import QApplication

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ROOT / "carwars_desktop"
STRING_TOKENS = {tokenize.STRING} | (
    {tokenize.FSTRING_MIDDLE} if hasattr(tokenize, "FSTRING_MIDDLE") else set())


@cache
def ui_symbols() -> dict[str, str]:
    """Each non-ASCII character of the program's string literals → a file that uses it."""
    found: dict[str, str] = {}
    for path in sorted(SOURCES.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type not in STRING_TOKENS:
                continue
            for char in token.string:
                if ord(char) > 127 and not char.isspace():
                    found.setdefault(char, str(path.relative_to(ROOT)))
    return found


@cache
def _fonts() -> tuple[QRawFont, ...]:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    families = [app.font().family(), *QFontDatabase.families()]
    return tuple(QRawFont.fromFont(QFont(family)) for family in families)


def drawable(char: str) -> bool:
    """The application font or a font Qt falls back to has a glyph for ``char``."""
    return any(font.supportsCharacter(ord(char)) for font in _fonts())


def test_the_scan_finds_the_symbols(qapp) -> None:  # type: ignore[no-untyped-def]
    symbols = ui_symbols()
    for expected in "⚠☠✖▶§→":
        assert expected in symbols
    assert not drawable("\U0010fffd")  # a private-use code point no font has: the check bites


def test_every_symbol_shown_has_a_glyph(qapp) -> None:  # type: ignore[no-untyped-def]
    missing = {f"{char} U+{ord(char):04X} {unicodedata.name(char, '?')} ({where})"
               for char, where in ui_symbols().items() if not drawable(char)}
    assert not missing, "no installed font draws: " + "; ".join(sorted(missing))

"""The design exchange file: one design or many, as versioned JSON (``docs/design-format.md``).

Reading is all-or-nothing: :func:`read_designs` returns every design of a file or
raises :class:`ExchangeError` saying why the file was refused, so a caller that
writes only after a successful read writes nothing for a bad file.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from carwars_desktop.library.kinds import DesignDataError, UnknownKindError, design_kind
from carwars_desktop.library.naming import InvalidNameError, clean_name, clean_tags

FORMAT = "carwars-desktop/designs"
"""The value of the file's ``format`` field."""
VERSION = 1
"""The format version this app writes and the newest it reads."""
MAX_BYTES = 32 * 1024 * 1024
"""Files above 32 MiB are refused unread, and Export refuses to write one (a 90,000-card
AUTOpower deck, the largest the Workshop is measured with, is 18.9 to 24.4 MiB by its
cards)."""
MAX_DESIGNS = 20_000
MAX_DEPTH = 24
"""Objects and lists nested deeper than this are refused (no design needs more than 6)."""
MAX_NUMBER = 1_000_000_000
"""Whole numbers beyond ±10⁹ are refused (no design needs them; databases overflow)."""
SUFFIX = ".carwars.json"

_TOP_REQUIRED = frozenset({"format", "version", "designs"})
_TOP_OPTIONAL = frozenset({"exported_at", "app"})
_ITEM_REQUIRED = frozenset({"ruleset", "kind", "design"})
_ITEM_OPTIONAL = frozenset({"tags"})


class ExchangeError(ValueError):
    """A design file that is refused; the message is the reason, ready to show."""


def check_version(version: int, newest: int, made: str, kind: str) -> None:
    """Refuse a ``kind`` version (of a file, of a code) this app cannot read: a newer
    one than ``newest`` (``made``: how the refusal says it came to be), or one below 1."""
    if version > newest:
        raise ExchangeError(f"{made} by a newer Carwars Desktop ({kind} version {version}); "
                            f"this version reads up to version {newest}: update the app to "
                            "import it")
    if version < 1:
        raise ExchangeError(f"{kind} version {version} does not exist (the first is 1)")


@dataclass(frozen=True)
class ExchangedDesign:
    """One design of an exchange file: its ruleset, kind, tags and engine JSON.

    ``data`` is the design as its engine writes it (``to_json``), so equal designs
    compare equal after a round trip.
    """

    ruleset_id: str
    kind: str
    name: str
    data: Mapping[str, Any]
    tags: tuple[str, ...] = field(default=())
    loaded: tuple[Mapping[str, Any], object] | None = field(default=None, compare=False,
                                                             repr=False)
    """(``data``, the engine's design read from it) when the file was read, so that an
    import reads each design once; see :attr:`design`."""

    @property
    def design(self) -> object | None:
        """The engine's design read from ``data`` (``None``: not read, or ``data`` replaced
        since, as ``dataclasses.replace`` does)."""
        if self.loaded is None or self.loaded[0] is not self.data:
            return None
        return self.loaded[1]


def make_exchanged(ruleset_id: str, kind: str, data: Mapping[str, Any],
                   tags: Sequence[str] = ()) -> ExchangedDesign:
    """An exchanged design checked and normalized by its engine (refusals as ExchangeError)."""
    try:
        design = design_kind(ruleset_id, kind).load(data)
        name = clean_name(design.name)
        clean = clean_tags(tags)
    except (DesignDataError, UnknownKindError, InvalidNameError) as error:
        raise ExchangeError(str(error)) from error
    data = design.to_json()
    return ExchangedDesign(ruleset_id, kind, name, data, clean, (data, design))


def dumps_designs(designs: Sequence[ExchangedDesign], exported_at: datetime | None = None,
                  app: str = "") -> str:
    """The text of an exchange file holding ``designs`` (at least one)."""
    if not designs:
        raise ExchangeError("nothing to export: choose at least one design")
    if len(designs) > MAX_DESIGNS:
        raise ExchangeError(f"{len(designs):,} designs are more than a design file holds "
                            f"({MAX_DESIGNS:,}): export them in several files")
    when = (exported_at or datetime.now(UTC)).astimezone(UTC).replace(microsecond=0)
    document: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": when.isoformat().replace("+00:00", "Z"),
    }
    if app:
        document["app"] = app
    document["designs"] = [
        {"ruleset": d.ruleset_id, "kind": d.kind, "tags": list(d.tags), "design": dict(d.data)}
        for d in designs
    ]
    text = _encode(document) + "\n"
    size = len(text.encode("utf-8"))
    if size > MAX_BYTES:
        raise ExchangeError(
            f"the file would be {size / 1024 / 1024:.1f} MiB; design files are at most "
            f"{MAX_BYTES // 1024 // 1024} MiB: export fewer designs at a time"
            + (" (this design alone is too large to export)" if len(designs) == 1 else ""))
    return text


def _encode(document: dict[str, Any]) -> str:
    """``json.dumps(document, ensure_ascii=False, indent=2)``, joined a piece at a time.

    The encoder makes millions of small pieces for a large export; joining them all in
    one call held the interpreter (off the GUI thread too, which then waits) for a tenth
    of a second, a few thousand at a time it never does."""
    parts: list[str] = []
    pending: list[str] = []
    for piece in json.JSONEncoder(ensure_ascii=False, indent=2).iterencode(document):
        pending.append(piece)
        if len(pending) == 4096:
            parts.append("".join(pending))
            pending.clear()
    parts.append("".join(pending))
    return "".join(parts)


def read_designs(content: bytes | str,
                 progress: Callable[[int, int], None] | None = None,
                 subject: str = "the file") -> tuple[ExchangedDesign, ...]:
    """Every design of an exchange file, or :class:`ExchangeError` with the reason.

    ``progress(done, total)`` is called every 500 designs checked (a worker's report).
    ``subject``: what the reason calls the content (“the text” when it was pasted).
    """
    try:
        document = _parse(content)
        designs = _top(document)
        result = []
        for number, raw in enumerate(designs, 1):
            result.append(_item(raw, number))
            if progress is not None and number % 500 == 0:
                progress(number, len(designs))
    except ExchangeError as error:
        reason = str(error)
        if subject == _FILE or not reason.startswith(_FILE):
            raise
        raise ExchangeError(subject + reason.removeprefix(_FILE)) from None
    return tuple(result)


_FILE = "the file"
"""How every reason about the content as a whole begins (see ``subject`` above)."""


# --- parsing -------------------------------------------------------------------------------


def _refuse_constant(name: str) -> Any:
    raise ExchangeError(f"the file holds {name}, which is not a number in JSON")


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise ExchangeError(f"the field {key[:40]!r} is given twice in one object")
        result[key] = value
    return result


def _parse(content: bytes | str) -> Any:
    size = len(content.encode("utf-8", "surrogatepass") if isinstance(content, str) else content)
    if size > MAX_BYTES:
        raise ExchangeError(f"the file is {size / 1024 / 1024:.1f} MiB; design files are at "
                            f"most {MAX_BYTES // 1024 // 1024} MiB")
    if isinstance(content, bytes):
        try:
            text = content.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            raise ExchangeError(f"the file is not UTF-8 text (byte {error.start}): is it a "
                                "design file?") from None
    else:
        text = content
    if not text.strip():
        raise ExchangeError("the file is empty")
    try:
        document = json.loads(text, parse_constant=_refuse_constant,
                              object_pairs_hook=_no_duplicates)
    except json.JSONDecodeError as error:
        raise ExchangeError(f"the file is not valid JSON: {error.msg} at line {error.lineno}, "
                            f"column {error.colno}") from None
    except RecursionError:
        raise ExchangeError(f"the file nests lists or objects more than {MAX_DEPTH} deep") \
            from None
    except ValueError as error:  # e.g. an integer of thousands of digits
        if isinstance(error, ExchangeError):
            raise
        raise ExchangeError(f"the file holds a value JSON cannot give: {error}") from None
    if "\\u" in text or not _encodable(text):
        _check_values(document)  # an escape may have made a NUL or a lone surrogate
    elif isinstance(document, dict | list):
        _check_structure(document, 1)
    return document


def _encodable(text: str) -> bool:
    """Whether ``text`` holds no surrogate (only those cannot be written as UTF-8)."""
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _check_structure(value: dict[str, Any] | list[Any], depth: int) -> None:
    """:func:`_check_values` for a document whose text can hold no NUL and no surrogate
    (no ``\\u`` escape in it, none in the text itself): nesting and numbers only."""
    if depth > MAX_DEPTH:
        raise ExchangeError(f"the file nests lists or objects more than {MAX_DEPTH} deep")
    items: Iterable[Any] = value.values() if type(value) is dict else value
    for item in items:
        kind = type(item)
        if kind is dict or kind is list:
            _check_structure(item, depth + 1)
        elif kind is int:
            if item > MAX_NUMBER or item < -MAX_NUMBER:
                raise ExchangeError(f"the number {str(item)[:20]}… is too large for a design "
                                    f"(at most {MAX_NUMBER:,})")
        elif kind is float and not math.isfinite(item):
            raise ExchangeError("the file holds a number that is not finite")


def _check_values(document: Any) -> None:
    """Refuse deep nesting, huge or non-finite numbers and unstorable text anywhere."""
    stack: list[tuple[Any, int]] = [(document, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict | list) and depth > MAX_DEPTH:
            raise ExchangeError(f"the file nests lists or objects more than {MAX_DEPTH} deep")
        if isinstance(value, dict):
            for key, item in value.items():
                _check_text(key)
                stack.append((item, depth + 1))
        elif isinstance(value, list):
            stack.extend((item, depth + 1) for item in value)
        elif isinstance(value, str):
            _check_text(value)
        elif isinstance(value, bool) or value is None:
            continue
        elif isinstance(value, int):
            if abs(value) > MAX_NUMBER:
                raise ExchangeError(f"the number {str(value)[:20]}… is too large for a design "
                                    f"(at most {MAX_NUMBER:,})")
        elif isinstance(value, float) and not math.isfinite(value):
            raise ExchangeError("the file holds a number that is not finite")


def _check_text(text: str) -> None:
    if "\x00" in text:
        raise ExchangeError("the file holds a NUL character in its text")
    if not _encodable(text):
        raise ExchangeError("the file holds a broken (surrogate) character in its text")


def _top(document: Any) -> list[Any]:
    if not isinstance(document, dict):
        raise ExchangeError(f"a design file is a JSON object, not {_what(document)}")
    if document.get("format") != FORMAT:
        raise ExchangeError(f"not a Carwars Desktop design file (format "
                            f"{_short(document.get('format'))}, expected {FORMAT!r})")
    version = document.get("version")
    if isinstance(version, bool) or not isinstance(version, int):
        raise ExchangeError(f"the format version must be a whole number, not {_short(version)}")
    check_version(version, VERSION, "the file was written", "format")
    _keys(document, _TOP_REQUIRED, _TOP_OPTIONAL, "the file")
    for key in _TOP_OPTIONAL & set(document):
        if not isinstance(document[key], str):
            raise ExchangeError(f"the file's {key} must be text, not {_short(document[key])}")
    designs = document["designs"]
    if not isinstance(designs, list):
        raise ExchangeError(f"designs must be a list, not {_what(designs)}")
    if not designs:
        raise ExchangeError("the file holds no designs")
    if len(designs) > MAX_DESIGNS:
        raise ExchangeError(f"the file holds {len(designs):,} designs; at most "
                            f"{MAX_DESIGNS:,} are read at once")
    return designs


def _item(raw: Any, number: int) -> ExchangedDesign:
    where = f"design {number}"
    if not isinstance(raw, dict):
        raise ExchangeError(f"{where} is {_what(raw)}, not an object")
    _keys(raw, _ITEM_REQUIRED, _ITEM_OPTIONAL, where)
    ruleset, kind, data = raw["ruleset"], raw["kind"], raw["design"]
    tags = raw.get("tags", [])
    if not isinstance(ruleset, str) or not isinstance(kind, str):
        raise ExchangeError(f"{where}: ruleset and kind must be text")
    if not isinstance(data, dict):
        raise ExchangeError(f"{where}: design must be an object, not {_what(data)}")
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        raise ExchangeError(f"{where}: tags must be a list of texts")
    label = data.get("name")
    if isinstance(label, str) and label.strip():
        where = f"{where} ({label.strip()[:60]!r})"
    try:
        return make_exchanged(ruleset, kind, data, tags)
    except ExchangeError as error:
        raise ExchangeError(f"{where}: {error}") from None


def _keys(data: Mapping[str, Any], required: frozenset[str], optional: frozenset[str],
          where: str) -> None:
    missing = required - set(data)
    if missing:
        raise ExchangeError(f"{where} lacks {', '.join(sorted(missing))}")
    unknown = set(data) - required - optional
    if unknown:
        names = ", ".join(sorted(repr(k[:40]) for k in unknown)[:5])
        raise ExchangeError(f"{where} has unknown field{'s' if len(unknown) > 1 else ''} "
                            f"{names}")


def _what(value: Any) -> str:
    names = {dict: "an object", list: "a list", str: "a text", bool: "true/false",
             int: "a number", float: "a number", type(None): "null"}
    return names.get(type(value), type(value).__name__)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "…"

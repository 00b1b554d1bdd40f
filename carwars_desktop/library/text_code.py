"""A design in one line of text: ``CWD1:<payload>.<checksum>``, to paste in a chat or show as a
QR code.

The payload is the exchange format (:mod:`carwars_desktop.library.exchange`) as compact JSON,
compressed with zlib and encoded base64url without padding; the checksum is the CRC-32 of the
payload's characters, eight hex digits. ``1`` after ``CWD`` is the code's version.

Reading is as strict as reading a file, and all-or-nothing: a bad checksum, an unknown
version, an over-long text, a payload that does not unpack (or unpacks to too much) or
malformed designs are refused with :class:`ExchangeError` saying why, so a caller that writes
only after a successful read writes nothing.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import zlib
from collections.abc import Callable, Sequence

from carwars_desktop.library.exchange import (
    FORMAT,
    VERSION,
    ExchangedDesign,
    ExchangeError,
    check_version,
    read_designs,
)

PREFIX = "CWD"
CODE_VERSION = 1
"""The code version this app writes and the newest it reads."""
MAX_CODE_CHARS = 200_000
"""Longer pasted text is refused unread (one design takes a few hundred characters)."""
MAX_UNPACKED = 4 * 1024 * 1024
"""A payload that unpacks to more than 4 MiB of JSON is refused (a zip bomb)."""
QR_MAX_BYTES = 2_331
"""What one QR code holds at error correction level M (version 40, byte mode)."""

_HEAD = re.compile(r"^CWD(\d{1,6}):", re.IGNORECASE)
_PAYLOAD = re.compile(r"^[A-Za-z0-9_-]+$")
_CHECKSUM = re.compile(r"^[0-9a-fA-F]{8}$")
_WHITESPACE = re.compile(r"\s+")


def _checksum(payload: str) -> str:
    return f"{zlib.crc32(payload.encode('ascii')) & 0xFFFFFFFF:08x}"


def _compact_document(designs: Sequence[ExchangedDesign]) -> str:
    """The exchange document without its informative fields, as compact JSON."""
    if not designs:
        raise ExchangeError("nothing to share: choose at least one design")
    document = {
        "format": FORMAT,
        "version": VERSION,
        "designs": [{"ruleset": d.ruleset_id, "kind": d.kind,
                     **({"tags": list(d.tags)} if d.tags else {}), "design": dict(d.data)}
                    for d in designs],
    }
    return json.dumps(document, ensure_ascii=False, separators=(",", ":"), sort_keys=False)


def encode_designs(designs: Sequence[ExchangedDesign]) -> str:
    """The text code of ``designs`` (at least one): ``CWD1:…``.

    Raises:
        ExchangeError: the code would be more than :func:`decode_designs` reads (the
            reason says to export a file instead).
    """
    document = _compact_document(designs).encode("utf-8")
    if len(document) > MAX_UNPACKED:
        raise _too_large(designs, f"{len(document) / 1024 / 1024:.1f} MiB of designs, more "
                         f"than a design code holds ({MAX_UNPACKED // 1024 // 1024} MiB)")
    packed = zlib.compress(document, 9)
    payload = base64.urlsafe_b64encode(packed).decode("ascii").rstrip("=")
    code = f"{PREFIX}{CODE_VERSION}:{payload}.{_checksum(payload)}"
    if len(code) > MAX_CODE_CHARS:
        raise _too_large(designs, f"a code of {len(code):,} characters, more than a design "
                         f"code holds ({MAX_CODE_CHARS:,})")
    return code


def _too_large(designs: Sequence[ExchangedDesign], what: str) -> ExchangeError:
    many = f"{len(designs):,} designs make" if len(designs) != 1 else "this design makes"
    return ExchangeError(f"{many} {what}: export a file instead (Export…)")


def looks_like_code(text: str) -> bool:
    """Whether ``text`` is meant as a text code (it starts ``CWD<n>:``), good or bad."""
    return _HEAD.match(text.lstrip()[:16]) is not None


def check_code_length(length: int) -> None:
    """Refuse, unread, a text of ``length`` characters too long to be a design code."""
    if length > MAX_CODE_CHARS:
        raise ExchangeError(f"the text is {length:,} characters long; a design code is at "
                            f"most {MAX_CODE_CHARS:,}")


def decode_designs(text: str,
                   progress: Callable[[int, int], None] | None = None,
                   ) -> tuple[ExchangedDesign, ...]:
    """Every design of a text code, or :class:`ExchangeError` with the reason.

    White space anywhere in the code is ignored (chat programs wrap long lines);
    ``progress`` is called as the designs are checked (as :func:`read_designs` does).
    """
    check_code_length(len(text))
    code = _WHITESPACE.sub("", text)
    if not code:
        raise ExchangeError("the text is empty: paste a design code (CWD1:…)")
    head = _HEAD.match(code)
    if head is None:
        raise ExchangeError(f"not a design code: it should start with {PREFIX}{CODE_VERSION}:")
    version = int(head.group(1))
    check_version(version, CODE_VERSION, "the code was made", "code")
    body = code[head.end():]
    payload, dot, checksum = body.rpartition(".")
    if not dot or not payload:
        raise ExchangeError("the code is cut short: its checksum (after the last dot) is "
                            "missing; copy all of it")
    if not _CHECKSUM.match(checksum):
        raise ExchangeError(f"the code's checksum {checksum[:12]!r} is not eight hex digits: "
                            "the code is cut short or mistyped")
    if not _PAYLOAD.match(payload):
        bad = next(c for c in payload if not (c.isascii() and (c.isalnum() or c in "-_")))
        raise ExchangeError(f"the code holds the character {bad!r}, which no design code has: "
                            "it was changed on the way")
    if _checksum(payload) != checksum.lower():
        raise ExchangeError("the checksum does not match: the code was cut short or changed "
                            "on the way; copy it again")
    try:
        packed = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
    except (binascii.Error, ValueError):
        raise ExchangeError("the code is not valid base64url text") from None
    inflater = zlib.decompressobj()
    try:
        unpacked = inflater.decompress(packed, MAX_UNPACKED)
    except zlib.error as error:
        raise ExchangeError(f"the code does not unpack: {error}") from None
    if inflater.unconsumed_tail:
        raise ExchangeError(f"the code unpacks to more than {MAX_UNPACKED // 1024 // 1024} MiB; "
                            "no design is that large")
    if not inflater.eof:
        raise ExchangeError("the code does not unpack: its compressed data is incomplete")
    if inflater.unused_data:
        raise ExchangeError("the code holds data after its compressed designs")
    return read_designs(unpacked, progress, subject="the text")


def read_designs_or_code(content: bytes | str,
                         progress: Callable[[int, int], None] | None = None,
                         subject: str = "the file") -> tuple[ExchangedDesign, ...]:
    """The designs of a design file's content or of a text code (either may be pasted:
    ``subject`` “the text”, what the reason calls a design file's content)."""
    if isinstance(content, bytes):
        head = content[:32].removeprefix(b"\xef\xbb\xbf").lstrip().decode("ascii", "replace")
        if looks_like_code(head):
            check_code_length(len(content))
            try:
                return decode_designs(content.decode("utf-8-sig"), progress)
            except UnicodeDecodeError:
                raise ExchangeError("the code is not UTF-8 text") from None
        return read_designs(content, progress, subject)
    if looks_like_code(content.lstrip("\ufeff")):
        return decode_designs(content.lstrip("\ufeff"), progress)
    return read_designs(content, progress, subject)


def qr_fits(code: str) -> bool:
    """Whether the code fits one QR code at error correction level M."""
    return len(code.encode("ascii")) <= QR_MAX_BYTES

"""The design text code (``CWD1:…``): round trips, what a QR code carries, hostile strings."""

from __future__ import annotations

import base64
import json
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from carwars_desktop.library import ExchangedDesign, ExchangeError, make_exchanged, read_designs
from carwars_desktop.library.exchange import dumps_designs
from carwars_desktop.library.templates import new_design
from carwars_desktop.library.text_code import (
    MAX_CODE_CHARS,
    MAX_UNPACKED,
    decode_designs,
    encode_designs,
    looks_like_code,
    qr_fits,
    read_designs_or_code,
)
from carwars_desktop.rules import find_ruleset, ruleset_ids


def _catalog() -> list[ExchangedDesign]:
    designs = []
    for ruleset_id in ruleset_ids():
        for design in find_ruleset(ruleset_id).catalog().values():
            designs.append(make_exchanged(ruleset_id, "vehicle", design.to_json(), ["club"]))
    return designs


def _code_of(document: object) -> str:
    """A well-formed code around any payload (a right checksum over hostile content)."""
    raw = document if isinstance(document, bytes) else json.dumps(document).encode()
    payload = base64.urlsafe_b64encode(zlib.compress(raw)).decode().rstrip("=")
    return f"CWD1:{payload}.{zlib.crc32(payload.encode()):08x}"


def test_every_catalog_design_round_trips_alone_and_together() -> None:
    designs = _catalog()
    assert len(designs) >= 6
    for design in designs:
        code = encode_designs([design])
        assert code.startswith("CWD1:") and looks_like_code(code)
        assert decode_designs(code) == (design,)
        assert code.isascii() and not any(c.isspace() for c in code)
    assert decode_designs(encode_designs(designs)) == tuple(designs)


def test_a_deck_and_a_draft_round_trip() -> None:
    deck = make_exchanged("autopower", "deck", new_design("autopower", "deck").to_json())
    draft = make_exchanged("mini_car_wars", "vehicle",
                           new_design("mini_car_wars", "vehicle").to_json(), ["half done"])
    assert decode_designs(encode_designs([deck, draft])) == (deck, draft)


def test_the_code_is_compact_and_one_design_fits_a_qr_code() -> None:
    for design in _catalog():
        code = encode_designs([design])
        as_file = dumps_designs([design])
        assert len(code) < len(as_file)
        assert qr_fits(code), (design.name, len(code))


def test_the_qr_payload_is_the_code_and_segno_holds_it() -> None:
    import segno

    for design in _catalog():
        code = encode_designs([design])
        qr = segno.make_qr(code, error="m")
        # The QR's data is the code itself, byte for byte: a phone's camera reads the text.
        assert qr.mode == "byte"
        assert decode_designs(code) == (design,)
        assert int(qr.version) in range(1, 41)


def test_chat_wrapping_and_spaces_are_ignored() -> None:
    design = _catalog()[0]
    code = encode_designs([design])
    wrapped = "  " + "\n".join(code[i:i + 37] for i in range(0, len(code), 37)) + " \n"
    assert decode_designs(wrapped) == (design,)
    assert read_designs_or_code(wrapped) == (design,)
    assert read_designs_or_code(wrapped.encode()) == (design,)
    assert read_designs_or_code("\ufeff" + code) == (design,)
    assert read_designs_or_code(b"\xef\xbb\xbf" + code.encode()) == (design,)


def test_files_still_read_through_the_same_door() -> None:
    designs = _catalog()[:2]
    text = dumps_designs(designs)
    assert read_designs_or_code(text) == tuple(designs)
    assert read_designs_or_code(text.encode()) == tuple(designs)


def _refused(text: str | bytes, *words: str) -> None:
    with pytest.raises(ExchangeError) as caught:
        if isinstance(text, bytes):
            read_designs_or_code(text)
        else:
            decode_designs(text)
    message = str(caught.value)
    for word in words:
        assert word in message, message


def test_hostile_codes_are_refused_with_the_reason() -> None:
    code = encode_designs([_catalog()[0]])
    payload, _, checksum = code[5:].rpartition(".")
    flipped = payload[:10] + ("A" if payload[10] != "A" else "B") + payload[11:]
    _refused(f"CWD1:{flipped}.{checksum}", "checksum does not match")
    _refused(code[:-3], "checksum", "eight hex digits")
    _refused(code[:40], "checksum")
    _refused(f"CWD1:{payload}", "checksum")
    _refused("CWD2:" + code[5:], "newer Carwars Desktop", "version 2")
    _refused("CWD0:" + code[5:], "does not exist")
    _refused("CWD999999:" + code[5:], "newer")
    _refused("", "empty")
    _refused("   \n ", "empty")
    _refused("hello there", "not a design code")
    _refused("CWD1:" + "A" * MAX_CODE_CHARS, "characters long")
    _refused(b"CWD1:" + b"A" * MAX_CODE_CHARS, "characters long")
    _refused(f"CWD1:{payload[:20]}*{payload[20:]}.{checksum}", "character '*'")
    _refused(f"CWD1:ab=c.{zlib.crc32(b'ab=c'):08x}", "character '='")
    _refused(f"CWD1:.{checksum}", "cut short")
    _refused(b"CWD1:\xff\xfe", "UTF-8")


def test_well_formed_codes_with_hostile_content_are_refused() -> None:
    junk = base64.urlsafe_b64encode(b"not zlib at all").decode().rstrip("=")
    _refused(f"CWD1:{junk}.{zlib.crc32(junk.encode()):08x}", "does not unpack")
    cut = base64.urlsafe_b64encode(zlib.compress(b'{"format": 1}' * 50)[:20]).decode()
    cut = cut.rstrip("=")
    _refused(f"CWD1:{cut}.{zlib.crc32(cut.encode()):08x}", "incomplete")
    trailing = base64.urlsafe_b64encode(zlib.compress(b"{}") + b"extra").decode().rstrip("=")
    _refused(f"CWD1:{trailing}.{zlib.crc32(trailing.encode()):08x}", "after its compressed")
    _refused(_code_of(b" " * (MAX_UNPACKED + 10)), "unpacks to more than")
    _refused(_code_of({"format": "carwars-desktop/designs", "version": 9, "designs": []}),
             "newer Carwars Desktop")
    _refused(_code_of({"format": "something else", "version": 1, "designs": []}),
             "not a Carwars Desktop design file")
    _refused(_code_of(b"[" * 5000 + b"]" * 5000), "nests")
    _refused(_code_of({"format": "carwars-desktop/designs", "version": 1, "designs": [
        {"ruleset": "mini_car_wars", "kind": "vehicle", "design": {"name": "x"}}]}),
        "design 1")
    _refused(_code_of({"format": "carwars-desktop/designs", "version": 1, "designs": [
        {"ruleset": "chess", "kind": "vehicle", "design": {"name": "x"}}]}), "chess")
    _refused(_code_of(b"\xff\xfe not text"), "UTF-8")


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_any_text_is_read_or_refused_never_crashes(text: str) -> None:
    try:
        designs = read_designs_or_code("CWD1:" + text)
    except ExchangeError:
        return
    assert designs  # only a real code gives designs


@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=0), st.sampled_from("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef-_0"))
def test_one_changed_character_is_caught(position: int, replacement: str) -> None:
    design = _catalog()[1]
    code = encode_designs([design])
    index = 5 + position % (len(code) - 5)
    if code[index] == replacement:
        return
    changed = code[:index] + replacement + code[index + 1:]
    try:
        result = decode_designs(changed)
    except ExchangeError:
        return
    # A change in the checksum's letter case is the same checksum.
    assert result == (design,) and changed.lower() == code.lower()


def test_the_file_reader_is_unchanged_for_codes() -> None:
    with pytest.raises(ExchangeError, match="not valid JSON"):
        read_designs(encode_designs([_catalog()[0]]))


def test_a_pasted_code_or_text_is_called_the_text_in_its_refusal() -> None:
    """A file's reasons say “the file…”; the same reasons for a code or a pasted text
    say “the text…”."""
    empty = {"format": "carwars-desktop/designs", "version": 1, "designs": []}
    for code, reason in [(_code_of(empty), "the text holds no designs"),
                         (_code_of(b"[" * 5000 + b"]" * 5000), "the text nests"),
                         (_code_of(b"\xff\xfe not text"), "the text is not UTF-8"),
                         (_code_of(b"{oops"), "the text is not valid JSON")]:
        with pytest.raises(ExchangeError) as caught:
            read_designs_or_code(code, subject="the text")
        assert str(caught.value).startswith(reason) and "the file" not in str(caught.value)
    with pytest.raises(ExchangeError, match="^the text is not valid JSON"):
        read_designs_or_code('{"format": ', subject="the text")
    with pytest.raises(ExchangeError, match="^the file is not valid JSON"):
        read_designs_or_code(b'{"format": ')
    with pytest.raises(ExchangeError, match="^the text holds no designs"):
        decode_designs(_code_of(empty))


_NAMES = st.text(st.characters(codec="utf-8", categories=("L", "N")), min_size=1,
                 max_size=200)


@settings(max_examples=40, deadline=None)
@given(names=st.lists(_NAMES, min_size=1, max_size=120), limit=st.integers(2_000, 40_000))
def test_a_code_copied_as_text_is_read_back_or_refused_first(
        names: list[str], limit: int) -> None:
    """At any limit (here made small so that each is reached): what Copy as text makes,
    Paste reads back; what it would not read, Copy refuses first, saying to export."""
    from unittest import mock

    from carwars_desktop.library import text_code

    base = _catalog()[0]
    designs = [make_exchanged(base.ruleset_id, "vehicle", {**base.data, "name": name})
               for name in names]
    for unpacked, chars in ((limit, text_code.MAX_CODE_CHARS), (MAX_UNPACKED, limit // 4)):
        with mock.patch.object(text_code, "MAX_UNPACKED", unpacked), \
                mock.patch.object(text_code, "MAX_CODE_CHARS", chars):
            try:
                code = encode_designs(designs)
            except ExchangeError as error:
                assert "export a file instead" in str(error)
                continue
            assert decode_designs(code) == tuple(designs)
            assert read_designs_or_code(code, subject="the text") == tuple(designs)


def test_at_the_real_limit_copy_refuses_what_paste_would_refuse() -> None:
    """The audit's case: the catalog's designs many times over, up to the 4 MiB a code
    unpacks to. Just under the limit reads back; just over, Copy refuses."""
    from carwars_desktop.library.text_code import _compact_document

    designs = _catalog()

    def first(count: int) -> list[ExchangedDesign]:
        return (designs * (count // len(designs) + 1))[:count]

    def size(count: int) -> int:
        return len(_compact_document(first(count)).encode())

    count = int(MAX_UNPACKED / (size(len(designs) * 10) / (len(designs) * 10)))
    while size(count) > MAX_UNPACKED:
        count -= 1
    while size(count + 1) <= MAX_UNPACKED:
        count += 1
    assert count > 5_000  # the catalog's designs: 10,162 of them fill 4 MiB
    fits = first(count)
    assert decode_designs(encode_designs(fits)) == tuple(fits)
    over = first(count + 1)
    with pytest.raises(ExchangeError, match="export a file instead"):
        encode_designs(over)

"""Hand a design to a friend through the Library: copy as text, paste (or import a file holding
the code), the QR code; a hostile paste is refused with the reason and writes nothing."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QGuiApplication, QImage

from carwars_desktop.gui.workshop import LibraryWorkspace
from carwars_desktop.gui.workshop.share_actions import PasteDesignDialog, QrDialog, qr_png
from carwars_desktop.library import ExchangedDesign
from carwars_desktop.library.text_code import decode_designs, encode_designs


def _mine(library: LibraryWorkspace) -> list[tuple[str, str]]:
    return sorted((e.ruleset_id, e.name) for e in library.library.entries() if not e.is_catalog)


def _select_catalog(library: LibraryWorkspace, *names: str) -> list[int]:
    ids = [e.id for e in library.library.entries() if e.name in names]
    library.search.clear()
    library.select_ids(ids)
    return library.selected_ids()  # in the list's order


def _paste_through_the_dialog(library: LibraryWorkspace, qtbot) -> list[str]:  # type: ignore[no-untyped-def]
    """The paste hook answered by the real dialog, driven as the GM would (no exec loop)."""
    verdicts: list[str] = []

    def ask(text: str) -> tuple[ExchangedDesign, ...] | None:
        dialog = PasteDesignDialog(text)
        qtbot.addWidget(dialog)
        verdicts.append(dialog.verdict.text())
        return dialog.designs if dialog.import_button.isEnabled() else None

    library.share_button.ask_paste = ask
    return verdicts


def test_copy_as_text_then_paste_gives_the_design_back(library: LibraryWorkspace,
                                                       qtbot) -> None:  # type: ignore[no-untyped-def]
    ids = _select_catalog(library, "Courier", "Killer Kart")
    assert library.share_button.copy_action.isEnabled()
    code = library.share_button.copy_as_text()
    assert code is not None and code.startswith("CWD1:")
    assert QGuiApplication.clipboard().text() == code
    assert "Copied 2 designs as text" in library.message.text()
    assert [d.name for d in decode_designs(code)] == [
        d.name for d in library.library.exported(ids)]

    verdicts = _paste_through_the_dialog(library, qtbot)
    before = _mine(library)
    assert library.share_button.paste_design() == 2  # the clipboard's code is offered
    assert verdicts == ["✔ 2 designs: Courier (Mini Car Wars vehicle), Killer Kart (Mini Car "
                        "Wars vehicle)"]
    # the catalog's names are taken: the copies take free ones (as on the command line)
    assert _mine(library) == sorted(before + [("mini_car_wars", "Courier (2)"),
                                              ("mini_car_wars", "Killer Kart (2)")])
    assert "Imported 2 designs" in library.message.text()
    pasted = library.library.exported(library.selected_ids())
    catalog = library.library.exported(ids)
    assert [{**d.data, "name": d.name} for d in pasted] == [
        {**d.data, "name": f"{d.name} (2)"} for d in catalog]


def test_a_hostile_paste_is_refused_with_the_reason_and_writes_nothing(
        library: LibraryWorkspace, qtbot) -> None:  # type: ignore[no-untyped-def]
    _select_catalog(library, "Courier")
    code = library.share_button.copy_as_text()
    assert code is not None
    verdicts = _paste_through_the_dialog(library, qtbot)
    before = _mine(library)
    tampered = code[:20] + ("x" if code[20] != "x" else "y") + code[21:]
    for text in (tampered, code[:30], "CWD7:" + code[5:], "CWD1:" + "A" * 300_000):
        assert library.share_button.paste_design(text) == 0
    assert _mine(library) == before
    assert all(v.startswith("⚠ Refused:") and v.endswith("Nothing will be written.")
               for v in verdicts)
    assert "checksum does not match" in verdicts[0]
    assert "newer Carwars Desktop" in verdicts[2]
    assert "characters long" in verdicts[3]


def test_the_paste_dialog_reads_as_it_is_typed(qtbot) -> None:  # type: ignore[no-untyped-def]
    dialog = PasteDesignDialog()
    qtbot.addWidget(dialog)
    assert not dialog.import_button.isEnabled() and dialog.verdict.text() == "Nothing pasted yet."
    dialog.edit.setPlainText("CWD1:abc")
    assert not dialog.import_button.isEnabled() and "Refused" in dialog.verdict.text()


def test_the_import_dialog_accepts_a_file_holding_a_code(library: LibraryWorkspace,
                                                         tmp_path: Path) -> None:
    _select_catalog(library, "Mini Sherman")
    code = library.share_button.copy_as_text()
    assert code is not None
    path = tmp_path / "from chat.txt"
    path.write_text(f"{code}\n", encoding="utf-8")
    before = _mine(library)
    assert library.import_designs(str(path)) == 1
    assert _mine(library) == sorted(before + [("mini_car_wars", "Mini Sherman (2)")])
    path.write_text(code[:-2], encoding="utf-8")
    assert library.import_designs(str(path)) == 0
    assert "was not imported" in library.warnings[-1]  # type: ignore[attr-defined]


def test_show_qr_draws_the_code(library: LibraryWorkspace, qtbot) -> None:  # type: ignore[no-untyped-def]
    _select_catalog(library, "Courier")
    dialog = library.share_button.show_qr()
    assert isinstance(dialog, QrDialog) and dialog.isVisible()
    pixmap = dialog.picture.pixmap()
    assert not pixmap.isNull() and pixmap.width() == pixmap.height() > 100
    assert decode_designs(dialog.code)[0].name == "Courier"
    dialog.close()


def test_the_qr_image_is_a_qr_code_of_the_code() -> None:
    import segno

    code = encode_designs(list(_some_designs()))
    image = QImage.fromData(qr_png(code, scale=1))
    qr = segno.make_qr(code, error="m", mode="byte")
    matrix = qr.matrix
    size = len(matrix) + 8  # a 4-module quiet zone each side
    assert image.width() == image.height() == size
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            assert (image.pixelColor(x + 4, y + 4).lightness() < 128) == bool(dark)


def _some_designs() -> list[ExchangedDesign]:
    from carwars_desktop.library import make_exchanged
    from carwars_desktop.rules import find_ruleset

    catalog = find_ruleset("battlecars").catalog()
    return [make_exchanged("battlecars", "vehicle", d.to_json()) for d in catalog.values()]


def test_a_qr_reader_reads_the_designs_back(qtbot) -> None:  # type: ignore[no-untyped-def]
    import numpy as np
    import zxingcpp

    designs = _some_designs()
    code = encode_designs(designs)
    image = QImage.fromData(qr_png(code, scale=4)).convertToFormat(QImage.Format.Format_Grayscale8)
    pixels = np.frombuffer(image.constBits(), np.uint8).reshape(
        image.height(), image.bytesPerLine())[:, :image.width()].copy()
    (result,) = zxingcpp.read_barcodes(pixels)
    assert result.text == code
    assert decode_designs(result.text) == tuple(designs)


def test_an_over_long_paste_is_refused_by_its_length_before_it_enters_the_box(
        qtbot) -> None:  # type: ignore[no-untyped-def]
    """A 250,014-character line in the box froze the window for seconds while it was laid
    out: such a text never goes in, the refusal says why."""
    text = "CWD1:" + "A" * 250_009
    dialog = PasteDesignDialog(text)
    qtbot.addWidget(dialog)
    assert dialog.edit.document().characterCount() == 1  # empty: only the end of block
    assert "250,014 characters long" in dialog.verdict.text()
    assert not dialog.import_button.isEnabled()

    dialog = PasteDesignDialog()
    qtbot.addWidget(dialog)
    dialog.edit.setPlainText("CWD1:")
    QGuiApplication.clipboard().setText(text)
    dialog.edit.paste()
    assert dialog.edit.toPlainText() == "CWD1:"
    assert dialog.verdict.text().startswith("⚠ Refused: the text is 250,019 characters long")
    assert not dialog.import_button.isEnabled()

"""Hand a design to a friend through the Library: copy as text, paste (or import a file holding
the code), the QR code; a hostile paste is refused with the reason and writes nothing; a paste
is read, planned and written on workers, as a file's import is."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QGuiApplication, QImage

from carwars_desktop.gui.workshop import LibraryWorkspace
from carwars_desktop.gui.workshop.share_actions import PasteDesignDialog, QrDialog, qr_png
from carwars_desktop.library import ExchangedDesign
from carwars_desktop.library.text_code import decode_designs, encode_designs

from ..offload import Jobs, watch

CHECKING = "Checking…"


def _mine(library: LibraryWorkspace) -> list[tuple[str, str]]:
    return sorted((e.ruleset_id, e.name) for e in library.library.entries() if not e.is_catalog)


def _select_catalog(library: LibraryWorkspace, *names: str) -> list[int]:
    ids = [e.id for e in library.library.entries() if e.name in names]
    library.search.clear()
    library.select_ids(ids)
    return library.selected_ids()  # in the list's order


def _checked(dialog: PasteDesignDialog, qtbot) -> str:  # type: ignore[no-untyped-def]
    """The dialog's verdict once its text has been read (on a worker: “Checking…” till then)."""
    qtbot.waitUntil(lambda: dialog.verdict.text() != CHECKING, timeout=120_000)
    return dialog.verdict.text()


def _paste_through_the_dialog(library: LibraryWorkspace, qtbot,  # type: ignore[no-untyped-def]
                              first: list[str] | None = None) -> list[str]:
    """The paste hook answered by the real dialog, driven as the GM would (no exec loop):
    the verdicts once checked (and in ``first`` the verdict shown as the dialog opened)."""
    verdicts: list[str] = []

    def ask(text: str) -> tuple[ExchangedDesign, ...] | None:
        dialog = PasteDesignDialog(text)
        qtbot.addWidget(dialog)
        if first is not None:
            first.append(dialog.verdict.text())
        verdicts.append(_checked(dialog, qtbot))
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
    assert not dialog.import_button.isEnabled()
    assert "Refused" in _checked(dialog, qtbot) and not dialog.import_button.isEnabled()


def test_the_paste_dialog_checks_on_a_worker_and_a_newer_text_supersedes_the_check(
        qtbot, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from carwars_desktop.gui.workshop import share_actions

    many = encode_designs(_many_designs(3000))
    one = encode_designs(_some_designs()[:1])
    read = watch(monkeypatch, share_actions, "read_designs_or_code",
                 lambda content, *_a, **_k: len(content))
    dialog = PasteDesignDialog()
    qtbot.addWidget(dialog)
    dialog.edit.setPlainText(many)
    assert dialog.verdict.text() == CHECKING and not dialog.import_button.isEnabled()
    assert dialog.checking
    dialog.edit.setPlainText(one)  # typed over before the first check ended
    assert dialog.verdict.text() == CHECKING and not dialog.import_button.isEnabled()
    assert _checked(dialog, qtbot).startswith("✔ ") and dialog.import_button.isEnabled()
    assert not dialog.checking
    assert [d.name for d in dialog.designs] == [_some_designs()[0].name]
    # Both texts were read on workers (the older one dropped, or skipped unread).
    assert read.on_gui == [] and read.on_workers[-1] == len(one)
    assert set(read.on_workers) <= {len(many), len(one)}
    dialog.edit.setPlainText("CWD1:" + one[5:-1] + ("0" if one[-1] != "0" else "1"))
    assert _checked(dialog, qtbot).startswith("⚠ Refused: the checksum does not match")
    assert dialog.designs == () and not dialog.import_button.isEnabled()
    dialog.edit.setPlainText("  ")
    assert dialog.verdict.text() == "Nothing pasted yet." and not dialog.checking


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


def _many_designs(count: int) -> list[ExchangedDesign]:
    from carwars_desktop.library import make_exchanged
    from carwars_desktop.rules.mini_car_wars import MiniDesign

    design = MiniDesign.stock_design("courier", "b", name="Courier").to_json()
    return [make_exchanged("mini_car_wars", "vehicle", {**design, "name": f"Pasted {n:05d}"})
            for n in range(count)]


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


def test_pasting_thousands_of_designs_never_freezes_the_window(
        library: LibraryWorkspace, qtbot, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Paste design spent seconds reading and importing 10,000 designs on the GUI thread,
    while a file of the same designs was imported on workers: both take the same path."""
    from carwars_desktop.gui.workshop import exchange_actions, library_workspace, share_actions
    from carwars_desktop.library.text_code import _compact_document

    designs = _many_designs(6000)
    code = encode_designs(designs)
    assert len(_compact_document(designs).encode()) > 2_000_000  # 2 MB of designs
    jobs = Jobs(monkeypatch)
    read = watch(monkeypatch, share_actions, "read_designs_or_code",
                 lambda content, *_a, **_k: len(content))
    planned = watch(monkeypatch, exchange_actions.ImportPlan, "advance",
                    lambda plan, *_a, **_k: plan.left)
    written = watch(monkeypatch, type(library.service.store), "import_designs",
                    lambda _store, choices, *_: len(choices))
    listed = watch(monkeypatch, library_workspace, "prepare_contents",
                   lambda entries, *_: len(entries))
    first: list[str] = []
    verdicts = _paste_through_the_dialog(library, qtbot, first)
    before = _mine(library)
    assert library.share_button.paste_design(code) == 6000
    assert first == [CHECKING]
    shown = ", ".join(f"{d.name} (Mini Car Wars vehicle)" for d in designs[:4])
    assert verdicts == [f"✔ 6000 designs: {shown}…"]
    library.wait_for_rows()
    assert len(library.selected_ids()) == 6000
    assert _mine(library) == sorted(before + [("mini_car_wars", d.name) for d in designs])
    # Reading the text, planning and writing the 6,000 designs, and the list read again
    # and sorted: all on workers, while the window answered; the GUI thread did none.
    assert (read.on_gui, read.on_workers) == ([], [len(code)])
    assert (planned.on_gui, planned.on_workers) == ([], [6000])
    assert (written.on_gui, written.on_workers) == ([], [6000])
    assert listed.on_gui == [] and listed.on_workers and min(listed.on_workers) >= 6000
    jobs.assert_answered()


def test_pasting_thousands_of_clashing_designs_plans_on_workers_after_each_answer(
        library: LibraryWorkspace, qtbot, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """2,000 pasted designs whose names are all taken, answered "keep both", then "keep
    both, the same for all" at the second question: the planning before, between and
    after the questions ran on workers (the GUI thread planned the 1,998 others itself
    before, the window frozen)."""
    from carwars_desktop.gui.workshop import exchange_actions
    from carwars_desktop.gui.workshop.exchange_actions import Clash
    from carwars_desktop.library.naming import UniqueNames

    designs = _many_designs(2000)
    code = encode_designs(designs)
    _paste_through_the_dialog(library, qtbot)
    assert library.share_button.paste_design(code) == 2000
    library.wait_for_rows()
    asked: list[tuple[str, int]] = []
    answers = [(Clash.KEEP_BOTH, False), (Clash.KEEP_BOTH, True)]

    def ask(_parent: object, incoming: ExchangedDesign, remaining: int) -> tuple[Clash, bool]:
        asked.append((incoming.name, remaining))
        return answers.pop(0)

    library.ask_clash = ask
    jobs = Jobs(monkeypatch)
    named = watch(monkeypatch, UniqueNames, "take")
    own = watch(monkeypatch, type(library.service), "own_names")
    planned = watch(monkeypatch, exchange_actions.ImportPlan, "advance",
                    lambda plan, *_a, **_k: plan.left)
    assert library.share_button.paste_design(code) == 2000
    library.wait_for_rows()
    assert asked == [("Pasted 00000", 1999), ("Pasted 00001", 1998)]
    names = library.library.own_names("mini_car_wars")
    assert all(f"{d.name} (2)" in names and d.name in names for d in designs)
    assert (named.on_gui, len(named.on_workers)) == ([], 2000)
    assert own.on_gui == [] and own.on_workers
    assert (planned.on_gui, planned.on_workers) == ([], [2000, 2000, 1999])
    jobs.assert_answered()

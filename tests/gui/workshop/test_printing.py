"""Record sheets on paper: PDF pages per design, page images, and the print preview."""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtGui import QColor

from carwars_desktop.gui.workshop import LibraryWorkspace
from carwars_desktop.gui.workshop.printing import page_images, show_print_preview, write_pdf
from carwars_desktop.library.templates import new_design
from carwars_desktop.rules.autopower import sample_cars
from carwars_desktop.rules.battlecars import example_card
from carwars_desktop.rules.mini_car_wars import MiniDesign, PersonKit


def _pdf_pages(path: Path) -> list[tuple[float, float]]:
    """(width, height) in points of each page of a PDF written by Qt."""
    data = path.read_bytes()
    assert data.startswith(b"%PDF-")
    boxes = re.findall(rb"/Type /Page\b.*?/MediaBox \[\s*([\d.]+) ([\d.]+) ([\d.]+) ([\d.]+)",
                       data, re.S)
    return [(float(b[2]) - float(b[0]), float(b[3]) - float(b[1])) for b in boxes]


COURIER = MiniDesign.stock_design("courier", "a", name="Night Courier",
                                  driver=PersonKit(1, 0, True))


def test_one_page_per_sheet_on_a4(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    items = [("mini_car_wars", "vehicle", COURIER),
             ("autopower", "vehicle", sample_cars()["Bishop"]),
             ("battlecars", "vehicle", example_card()),
             ("autopower", "deck", new_design("autopower", "deck"))]
    path = tmp_path / "sheets.pdf"
    assert write_pdf(str(path), items) == 4
    pages = _pdf_pages(path)
    assert len(pages) == 4
    for width, height in pages:  # A4 portrait: 595 × 842 points
        assert abs(width - 595.3) < 1.5 and abs(height - 841.9) < 1.5


def test_each_sheet_alone(tmp_path: Path) -> None:
    for number, item in enumerate([("mini_car_wars", "vehicle", COURIER),
                                   ("battlecars", "vehicle", example_card())]):
        path = tmp_path / f"{number}.pdf"
        assert write_pdf(str(path), [item]) == len(_pdf_pages(path)) == 1


def test_a_draft_sheet_says_why(tmp_path: Path) -> None:
    draft = COURIER.with_armor(COURIER.armor.with_side(COURIER.armor.items()[0][0], 0))
    legal_image = page_images([("mini_car_wars", "vehicle", COURIER)], 600)[0]
    draft_image = page_images([("mini_car_wars", "vehicle", draft)], 600)[0]
    assert legal_image != draft_image


def test_page_images_are_drawn(qtbot) -> None:  # type: ignore[no-untyped-def]
    (image,) = page_images([("autopower", "vehicle", sample_cars()["Darkseid"])], 400)
    assert image.width() == 400 and image.height() > 500
    white = QColor("white").rgb()
    inked = sum(1 for y in range(0, image.height(), 7) for x in range(0, image.width(), 7)
                if image.pixel(x, y) != white)
    assert inked > 200


def test_the_print_preview_shows_the_pages(qtbot) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtPrintSupport import QPrintPreviewWidget

    dialog = show_print_preview([("mini_car_wars", "vehicle", COURIER),
                                 ("battlecars", "vehicle", example_card())])
    qtbot.addWidget(dialog)
    preview = dialog.findChild(QPrintPreviewWidget)
    assert preview is not None
    qtbot.waitUntil(lambda: preview.pageCount() == 2)
    dialog.close()


def test_pdf_of_the_selected_designs(library: LibraryWorkspace, tmp_path: Path) -> None:
    library.ruleset_box.setCurrentIndex(library.ruleset_box.findData("autopower"))
    library.view.selectAll()
    path = tmp_path / "cars.pdf"
    assert library.export_pdf(str(path)) == 9
    assert len(_pdf_pages(path)) == 9
    assert "9 sheets (9 pages)" in library.message.text()


def test_a_long_footer_never_runs_over_the_page_number(qtbot) -> None:  # type: ignore[no-untyped-def]
    """A session's footer names its house rules: a long list ran on under "page 1"."""
    from datetime import date

    from PySide6.QtGui import QFontMetricsF

    from carwars_desktop.gui.workshop.printing.page import SMALL, WIDTH, ImageTarget, PageFlow, font

    rules = ", ".join(f"house rule number {n} changed from the digest's default" for n in range(9))
    target = ImageTarget(600)
    flow = PageFlow(target, f"Club night · as it stands, Turn 3 · house rules: {rules}")
    target.finish()
    words, number = flow.footer_line()
    metrics = QFontMetricsF(font(SMALL - 3))
    assert number == "page 1" and "…" in words
    assert words.startswith("Carwars Desktop · Club night")
    assert words.endswith(f"printed {date.today():%d %b %Y}")
    assert metrics.horizontalAdvance(words) + metrics.horizontalAdvance(f"  {number}") <= WIDTH
    short_target = ImageTarget(600)
    short = PageFlow(short_target, "Club night")
    short_target.finish()
    assert "…" not in short.footer_line()[0] and "Club night · printed" in short.footer_line()[0]


def test_a_two_digit_stat_stays_inside_its_box(qtbot) -> None:  # type: ignore[no-untyped-def]
    """A hero card's "15" was drawn over the sides of its stat box (190-unit figures)."""
    from PySide6.QtGui import QColor

    from carwars_desktop.gui.workshop.printing.page import WIDTH
    from carwars_desktop.rules.autopower import Car

    image = page_images([("autopower", "vehicle", Car("Titan", 15, 12, 10, 8))], width=1200)[0]
    scale = image.width() / WIDTH
    cell = (WIDTH * 0.62 - 80) / 4  # the card's four stat boxes (print_sheets.paint_car)
    for index in range(3):  # 15, 12, 10
        left, right = (40 + index * cell + 10) * scale, (40 + (index + 1) * cell - 10) * scale

        def dark(x: float, y: int) -> bool:
            return QColor(image.pixel(int(x), y)).value() < 110

        rows = [y for y in range(image.height() // 2) if dark(left, y)]
        runs: list[list[int]] = []
        for y in rows:
            if runs and y == runs[-1][-1] + 1:
                runs[-1].append(y)
            else:
                runs.append([y])
        border = max(runs, key=len)  # the box's left side: its longest dark line
        assert len(border) > 100
        inside = [*range(int(left) + 3, int(left) + 9), *range(int(right) - 8, int(right) - 2)]
        ink = [(x, y) for y in border[5:-5] for x in inside if dark(x, y)]
        assert ink == [], index


def test_a_long_name_and_player_keep_the_sheet_title_on_one_line(qtbot) -> None:  # type: ignore[no-untyped-def]
    """A Battlecars card's name and player wrapped to two lines (2 sheets to a page
    showed "… (from the box) ·" over "Annabelle"): one line, in a smaller type."""
    from carwars_desktop.gui.workshop.printing.live import SheetToPrint
    from carwars_desktop.gui.workshop.printing.session import measure
    from carwars_desktop.rules import find_ruleset
    from carwars_desktop.rules.battlecars import EXAMPLE_CARD_NAME

    ruleset = find_ruleset("battlecars")
    sheet = ruleset.sheet_for_design(ruleset.catalog()[EXAMPLE_CARD_NAME])
    short = SheetToPrint("Wasp", "Bo", sheet, ruleset.play(), when="as it stands, round 2")
    long = SheetToPrint("The Red Baron Interceptor (from the box)", "Annabelle", sheet,
                        ruleset.play(), when="as it stands, round 2")
    assert measure("battlecars", long) <= measure("battlecars", short)  # no second line

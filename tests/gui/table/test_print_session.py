"""Print the session: the sheets as they stand (crossed boxes counted on the PDF's rendered
page), blank, one vehicle or all, several to a page, A4 and Letter."""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

import pytest
from PySide6.QtCore import QMarginsF, QPointF
from PySide6.QtGui import QImage, QPageLayout, QPageSize

from carwars_desktop.gui.table import TableWorkspace
from carwars_desktop.gui.table.print_session import PrintChoice, PrintSessionDialog, session_job
from carwars_desktop.gui.workshop.printing.page import DrawnBox
from carwars_desktop.gui.workshop.printing.session import (
    MARGIN_MM,
    PAPERS,
    RESOLUTION,
    SessionPrint,
    best_grid,
    places,
    session_images,
    write_session_pdf,
)
from carwars_desktop.rules.battlecars import EXAMPLE_CARD_NAME
from carwars_desktop.rules.battlecars.terms import Block
from carwars_desktop.rules.mini_car_wars.model import Role, Side

RENDER_DPI = 150


def _pdf_pages(path: Path) -> list[tuple[float, float]]:
    data = path.read_bytes()
    assert data.startswith(b"%PDF-")
    boxes = re.findall(rb"/Type /Page\b.*?/MediaBox \[\s*([\d.]+) ([\d.]+) ([\d.]+) ([\d.]+)",
                       data, re.S)
    return [(float(b[2]) - float(b[0]), float(b[3]) - float(b[1])) for b in boxes]


def _render(pdf: Path, page: int = 1) -> QImage:
    """The PDF's page as pdftoppm draws it (poppler: not the app's own renderer)."""
    assert shutil.which("pdftoppm"), "pdftoppm (poppler-utils) is installed by ./dev"
    stem = pdf.with_suffix("")
    subprocess.run(["pdftoppm", "-png", "-r", str(RENDER_DPI), "-f", str(page), "-l", str(page),
                    "-singlefile", str(pdf), str(stem)], check=True)
    image = QImage(str(stem) + ".png")
    assert not image.isNull()
    return image


def _inked(image: QImage, point: QPointF) -> bool:
    """Whether there is ink at ``point`` (the darkest of the 3 × 3 pixels around it)."""
    x, y = round(point.x()), round(point.y())
    darkest = min(image.pixelColor(x + dx, y + dy).lightness()
                  for dx in (-1, 0, 1) for dy in (-1, 0, 1))
    return darkest < 150


def _marked_on_page(pdf: Path, drawn: Sequence[DrawnBox], paper: str) -> tuple[int, int]:
    """(boxes whose middle is inked, plain boxes looked at) on the PDF's first page.

    The boxes' places come from the drawing (device pixels of the printable area); whether
    each is marked is read off the rendered page.
    """
    image = _render(pdf)
    layout = QPageLayout(QPageSize(PAPERS[paper]), QPageLayout.Orientation.Portrait,
                         QMarginsF(MARGIN_MM, MARGIN_MM, MARGIN_MM, MARGIN_MM),
                         QPageLayout.Unit.Millimeter)
    origin = layout.paintRectPixels(RESOLUTION).topLeft()
    scale = RENDER_DPI / RESOLUTION
    marked = looked = 0
    for box in drawn:
        if box.label:  # a loaded counter has its letter in the middle
            continue
        centre = (box.rect.center() + QPointF(origin)) * scale
        looked += 1
        marked += _inked(image, centre)
    return marked, looked


def _crossed(job: SessionPrint) -> int:
    return sum(1 for _ruleset, item in job.sheets for state in item.states().values()
               if state == "x" and not item.blank)


def _mini_session(start_session) -> TableWorkspace:  # type: ignore[no-untyped-def]
    table = start_session("mini_car_wars", [("Ann", "Killer Kart", "Kart"),
                                            ("Bo", "Courier"), ("Cy", "Mini Sherman")])
    kart = table.play.sheets["v1"]
    kart.mark_armor(Side.FRONT, 2)  # type: ignore[attr-defined]
    kart.mark_armor(Side.LEFT, 1)  # type: ignore[attr-defined]
    kart.mark_crew(Role.DRIVER, 1)  # type: ignore[attr-defined]
    kart.mark_power_plant(5)  # type: ignore[attr-defined]
    kart.mark_speed("30")  # type: ignore[attr-defined]
    table.play.sheets["v2"].mark_armor(Side.BACK, 20)  # type: ignore[attr-defined]
    return table


@pytest.mark.pdftoppm
def test_the_crossed_boxes_of_the_sheets_as_they_stand_are_on_the_pdf(
        start_session, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    table = _mini_session(start_session)
    game = table.context.service.game
    assert game is not None
    job = session_job(game, "Test night", PrintChoice(per_page=4))
    # Killer Kart: F 6→2 (4), L 4→1 (3), driver 1, PP 8→5 (3); Courier: B 25→20 (5).
    assert _crossed(job) == 4 + 3 + 1 + 3 + 5
    for paper in ("A4", "Letter"):
        drawn: list[DrawnBox] = []
        pdf = tmp_path / f"mid-{paper}.pdf"
        assert write_session_pdf(str(pdf), job, paper, drawn) == 1
        assert sum(1 for box in drawn if box.crossed) == _crossed(job)
        marked, looked = _marked_on_page(pdf, drawn, paper)
        assert looked == len(drawn) > 100
        assert marked == _crossed(job)
        # The drawing's boxes are the play rules' own, crossed as the Table shows them.
        states = {item.name: item.states() for _r, item in job.sheets}
        assert {b.id for b in drawn if b.crossed} == {
            key for item_states in states.values() for key, s in item_states.items()
            if s == "x"}

    blank = session_job(game, "Test night", PrintChoice(blank=True, per_page=4))
    drawn = []
    pdf = tmp_path / "blank.pdf"
    assert write_session_pdf(str(pdf), blank, "A4", drawn) == 1
    assert not any(box.crossed for box in drawn)
    marked, looked = _marked_on_page(pdf, drawn, "A4")
    assert (marked, looked) == (0, len(drawn))


def test_layouts_papers_and_one_vehicle(start_session, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    table = _mini_session(start_session)
    game = table.context.service.game
    assert game is not None
    pages = {}
    for per_page in (1, 2, 4):
        for paper, size in (("A4", (595.3, 841.9)), ("Letter", (612.0, 792.0))):
            pdf = tmp_path / f"{per_page}-{paper}.pdf"
            job = session_job(game, "Test night", PrintChoice(per_page=per_page))
            pages[per_page] = write_session_pdf(str(pdf), job, paper)
            assert len(_pdf_pages(pdf)) == pages[per_page]
            for width, height in _pdf_pages(pdf):
                assert abs(width - size[0]) < 1.5 and abs(height - size[1]) < 1.5
    assert pages == {1: 3, 2: 2, 4: 1}
    one = session_job(game, "Test night", PrintChoice(vehicle="v2"))
    assert [item.name for _r, item in one.sheets] == ["Courier"]
    drawn: list[DrawnBox] = []
    assert write_session_pdf(str(tmp_path / "one.pdf"), one, "A4", drawn) == 1
    assert {b.id.split(":")[0] for b in drawn} >= {"armor", "driver", "gunner", "pp"}
    assert sum(b.crossed for b in drawn) == 5


def test_the_footer_says_the_session_turn_and_house_rules(start_session) -> None:  # type: ignore[no-untyped-def]
    table = _mini_session(start_session)
    game = table.context.service.game
    assert game is not None
    job = session_job(game, "Test night", PrintChoice())
    assert job.footer.startswith("Test night · as it stands, Turn 1")
    assert "house rules:" in job.footer
    assert all(item.when.startswith("as it stands") for _r, item in job.sheets)


def test_cycles_share_a_place_and_shared_pages_have_places() -> None:
    two, four = places(2, 1900, 2700), places(4, 1900, 2700)
    assert len(two) == 2 and two[0].width() == 1900 and two[1].top() > two[0].bottom()
    assert len(four) == 4 and four[1].left() > four[0].right()
    # Wide sheets (a car from above with its speed track) stack; tall ones go side by side.
    assert best_grid(4, 1900, 2700, [900.0, 850.0]) == (4, 1)
    assert best_grid(4, 1900, 2700, [4000.0]) == (2, 2)
    assert best_grid(2, 1900, 2700, [900.0]) == (2, 1)


def test_the_print_dialog_from_the_table(start_session, tmp_path: Path, press) -> None:  # type: ignore[no-untyped-def]
    table = start_session("battlecars", [("Ann", EXAMPLE_CARD_NAME, "Interceptor"),
                                         ("Bo", EXAMPLE_CARD_NAME, "Wasp")], "street")
    table.play.sheets["v1"].mark_armour(Block.FRONT, 2)  # type: ignore[attr-defined]
    table.play.sheets["v2"].mark_component("Driver", 1)  # type: ignore[attr-defined]
    assert table.play.print_action.isVisible()
    press(table, "Ctrl+Shift+P")
    dialog = table.print_dialog
    assert isinstance(dialog, PrintSessionDialog) and dialog.isVisible()
    layouts = [dialog.layout_box.itemData(i) for i in range(dialog.layout_box.count())]
    assert layouts == [1, 2]
    dialog.layout_box.setCurrentIndex(1)
    dialog.paper_box.setCurrentText("Letter")
    path = tmp_path / "cards.pdf"
    assert dialog.save_pdf(str(path)) == 1
    assert _pdf_pages(path) == [(612.0, 792.0)] or all(
        abs(w - 612) < 1.5 and abs(h - 792) < 1.5 for w, h in _pdf_pages(path))
    assert "Saved 1 page" in dialog.message.text()
    dialog.vehicle_box.setCurrentIndex(2)
    dialog.blank_button.setChecked(True)
    job = dialog.job()
    assert [item.name for _r, item in job.sheets] == ["Wasp"] and job.sheets[0][1].blank
    drawn: list[DrawnBox] = []
    assert session_images(job, 600, drawn)
    assert drawn and not any(box.crossed for box in drawn)
    preview = dialog.show_preview()
    assert preview.isVisible()
    preview.close()
    dialog.close()


def test_autopower_sheets_print_as_they_stand(start_session, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    table = start_session("autopower", [("Ann", "Bishop"), ("Bo", "Rhino")])
    game = table.context.service.game
    assert game is not None
    job = session_job(game, "Test night", PrintChoice(per_page=2))
    assert write_session_pdf(str(tmp_path / "ap.pdf"), job, "A4") == 1
    assert len(session_images(job, 500)) == 1


@pytest.mark.parametrize("per_page", [1, 2, 4])
def test_a_page_image_per_page(start_session, per_page: int) -> None:  # type: ignore[no-untyped-def]
    table = _mini_session(start_session)
    game = table.context.service.game
    assert game is not None
    images = session_images(session_job(game, "Test night", PrintChoice(per_page=per_page)),
                            400)
    assert len(images) == {1: 3, 2: 2, 4: 1}[per_page]


def test_blank_sheets_follow_the_sessions_house_rules(start_session) -> None:  # type: ignore[no-untyped-def]
    """MCW-D15 (shots), D19 (Mini Sherman (b)'s link) and D28 (Rocket Special (b)'s empty
    turret) are set on the sheets when the session starts: a blank printed sheet is that
    sheet, not the digest's."""
    from carwars_desktop.rules.mini_car_wars.sheet import MiniSheet
    from carwars_desktop.rules.mini_car_wars.tables import WeaponType
    from carwars_desktop.session.house_rules import HouseRules

    house = HouseRules("Club", {"MCW-D15": 10, "MCW-D19": True, "MCW-D28": False})
    table = start_session("mini_car_wars", [("Ann", "Courier"), ("Bo", "Mini Sherman (b)"),
                                            ("Cy", "Rocket Special (b)")], house_rules=house)
    game = table.context.service.game
    assert game is not None
    blank = {item.name: item.sheet for _r, item in
             session_job(game, "Test night", PrintChoice(blank=True)).sheets}
    assert all(isinstance(sheet, MiniSheet) for sheet in blank.values())
    courier, sherman, rocket = (blank[n] for n in ("Courier", "Mini Sherman (b)",
                                                   "Rocket Special (b)"))
    assert {w.shots_left for w in courier.weapons  # type: ignore[attr-defined]
            if w.kind is not WeaponType.HR} == {10}
    links = {w.kind: w.link for w in sherman.weapons}  # type: ignore[attr-defined]
    assert links[WeaponType.MG] is not None and links[WeaponType.MG] == links[WeaponType.HR]
    assert not rocket.turret  # type: ignore[attr-defined]
    plain = {item.name: item.sheet for _r, item in session_job(
        start_session("mini_car_wars", [("Ann", "Courier"), ("Bo", "Mini Sherman (b)"),
                                        ("Cy", "Rocket Special (b)")]).context.service.game,
        "Test night", PrintChoice(blank=True)).sheets}
    assert plain["Rocket Special (b)"].turret  # type: ignore[attr-defined]
    assert {w.link for w in plain["Mini Sherman (b)"].weapons} == {None}  # type: ignore[attr-defined]

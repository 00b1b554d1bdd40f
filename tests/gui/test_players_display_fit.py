"""The players' display fits the TV it is on (issue 33 §4): at 1280×720, 1366×768,
1920×1080 and 3840×2160, with 2, 4 and 8 vehicles, a roll in progress and then its result,
everything shows whole without scrolling (``readable.unreadable``), the window never
grows (sharing makes room, and Stop sharing leaves the size it had), and the QR code is
painted with modules of 4 pixels or more and decodes from a screenshot. And (#28) at
1100×700 and 1366×768 its roll panel shows every text whole, a roll in progress (the need,
the odds and the modifiers, before any die) and a result shown after Apply, Mini Car Wars
and Battlecars, four vehicles in play."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from itertools import cycle, islice
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PySide6.QtCore import QSettings
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication, QScrollArea

from carwars_desktop.gui.players_display import MIN_MODULE, LinesLabel, PlayerDisplay
from carwars_desktop.rules import find_procedure, find_ruleset
from carwars_desktop.rules.battlecars import EXAMPLE_CARD_NAME
from carwars_desktop.services import Services, typed_dice
from carwars_desktop.session.setup import Entry, prepare
from carwars_desktop.storage import Database

from .readable import unreadable

SIZES = [(1280, 720), (1366, 768), (1920, 1080), (3840, 2160)]
URL = "http://192.168.178.123:8765/p/Xq3V9kTzP0aLmN7bC2dE4fGh"
NAMES = ["Red Baron", "Blue Thunder", "Ambusher", "Lady Luck", "Iron Maiden",
         "Night Rider", "Grey Ghost", "Mad Max's Interceptor of the Long Road"]
SHOTS = os.environ.get("CARWARS_TEST_SCREENSHOTS", "")
"""A folder to save each layout's screenshot in (to look at them), or nothing."""


@pytest.fixture
def services(database: Database) -> Services:
    services = Services()
    services.table.database = database
    return services


def _start(services: Services, ruleset_id: str, count: int) -> None:
    ruleset = find_ruleset(ruleset_id)
    catalog = ruleset.catalog()
    first = ["Courier (b)", "Courier", "Killer Kart"] if "Courier" in catalog else []
    designs = list(islice(cycle(first + [d for d in catalog if d not in first]), count))
    entries = [Entry(f"Player {n} with a long name", name, catalog[design].to_json())
               for n, (design, name) in enumerate(zip(designs, NAMES, strict=False), start=1)]
    session_id = services.table.start(ruleset_id, "Friday night at the club — the long game",
                                      "", prepare(ruleset, entries))
    services.table.open(session_id)


def _roll(services: Services, ruleset_id: str):  # type: ignore[no-untyped-def]
    """A roll shown with its need and odds, waiting for its dice to be applied."""
    table = services.table
    game = table.running()
    if ruleset_id == "autopower":
        attack = find_procedure("autopower.attack")
        values = attack.bind({"attacker": game.sheet("v1"), "target": game.sheet("v2"),
                              "cards": "4"})
        return table.resolve(attack, values, typed_dice("6 5"),
                             bindings={"attacker": "v1", "target": "v2"})
    procedure = find_procedure("mini.fire")
    values = procedure.bind({"firer": game.sheet("v1"), "target": game.sheet("v2"),
                             "side": "L", "range": "5"})
    return table.resolve(procedure, values, typed_dice("4 4 5 6 6"),
                         bindings={"firer": "v1", "target": "v2"})


def _prepare(services: Services) -> None:
    """A roll the GM is preparing (Battlecars: its fire needs a turn of its clock)."""
    table = services.table
    procedure = find_procedure("battlecars.fire")
    table.preparing(procedure.id, {"firer": "v1", "target": "v2"}, None)


def _display(qtbot, services: Services, settings: QSettings,  # type: ignore[no-untyped-def]
             size: tuple[int, int]) -> PlayerDisplay:
    display = PlayerDisplay(services, settings)
    qtbot.addWidget(display)
    display.resize(*size)
    display.show()
    qtbot.waitExposed(display)
    return display


def _settled(qtbot, display: PlayerDisplay) -> None:  # type: ignore[no-untyped-def]
    qtbot.waitUntil(lambda: not display._fit_timer.isActive())


def _check(qtbot, display: PlayerDisplay, size: tuple[int, int], name: str) -> None:  # type: ignore[no-untyped-def]
    _settled(qtbot, display)
    assert (display.width(), display.height()) == size  # never grown past its screen
    assert display.misfits() == []
    assert unreadable(display) == []
    assert not display.findChildren(QScrollArea)  # nothing scrolls
    for card in display.cards.values():  # every card wholly inside the window
        corner = card.mapTo(display, card.rect().bottomRight())
        assert corner.x() < display.width() and corner.y() < display.height()
    if SHOTS:
        display.grab().save(os.path.join(SHOTS, f"{name}.png"))


def _decoded(display: PlayerDisplay) -> list[str]:
    import zxingcpp

    qr = display.share_qr
    image = qr.grab().toImage().convertToFormat(QImage.Format.Format_Grayscale8)
    pixels = np.frombuffer(image.constBits(), np.uint8).reshape(
        image.height(), image.bytesPerLine())[:, :image.width()].copy()
    return [str(result.text) for result in zxingcpp.read_barcodes(pixels)]


CASES = [("mini_car_wars", count) for count in (2, 4, 8)] + [
    ("battlecars", 4), ("autopower", 4)]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize(("ruleset_id", "count"), CASES)
def test_the_display_fits_its_screen_with_a_roll_its_result_and_the_qr_code(
        qtbot, services: Services, settings: QSettings, ruleset_id: str, count: int,  # type: ignore[no-untyped-def]
        size: tuple[int, int]) -> None:
    _start(services, ruleset_id, count)
    display = _display(qtbot, services, settings, size)
    name = f"{ruleset_id}-{count}-{size[0]}x{size[1]}"
    _check(qtbot, display, size, name + "-start")
    if ruleset_id == "battlecars":
        _prepare(services)
        _check(qtbot, display, size, name + "-preparing")
    else:
        pending = _roll(services, ruleset_id)
        _check(qtbot, display, size, name + "-roll")
        pending.apply()
        assert display.roll.outcome.text()
        _check(qtbot, display, size, name + "-result")
    display.show_sharing(URL)
    _check(qtbot, display, size, name + "-shared")
    assert display.share_qr.module_px() >= MIN_MODULE
    assert _decoded(display) == [URL]
    display.show_sharing("")
    _check(qtbot, display, size, name + "-stopped")


def test_sharing_never_grows_the_window_and_stop_leaves_its_size(
        qtbot, services: Services, settings: QSettings) -> None:  # type: ignore[no-untyped-def]
    """It grew from 1435×875 to 1520×1181 when sharing started (the QR code's 328 px)."""
    _start(services, "mini_car_wars", 3)
    display = _display(qtbot, services, settings, (1435, 875))
    _roll(services, "mini_car_wars")
    _settled(qtbot, display)
    display.show_sharing(URL)
    _settled(qtbot, display)
    assert display.size().toTuple() == (1435, 875)
    assert display.misfits() == [] and unreadable(display) == []
    assert display.share_qr.module_px() >= MIN_MODULE and _decoded(display) == [URL]
    display.show_sharing("")
    _settled(qtbot, display)
    assert display.size().toTuple() == (1435, 875) and not display.share_panel.isVisible()


def test_full_screen_on_a_1600_by_1000_screen_shows_the_whole_qr_code(
        qtbot, services: Services, settings: QSettings) -> None:  # type: ignore[no-untyped-def]
    """In full screen on 1600×1000 the QR code was cut off at the bottom: it did not decode."""
    _start(services, "mini_car_wars", 3)
    display = _display(qtbot, services, settings, (1600, 1000))
    _roll(services, "mini_car_wars")
    display.show_sharing(URL)
    _check(qtbot, display, (1600, 1000), "full-screen-1600x1000")
    qr = display.share_qr
    bottom = qr.mapTo(display, qr.rect().bottomRight())
    assert bottom.y() < display.height() and bottom.x() < display.width()
    assert qr.module_px() >= MIN_MODULE and _decoded(display) == [URL]


SCREEN_SCRIPT = """
import json, sys
sys.path.insert(0, {here!r})
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication
app = QApplication([])
from carwars_desktop.gui.players_display import PlayerDisplay
from carwars_desktop.rules import find_procedure, find_ruleset
from carwars_desktop.services import Services, typed_dice
from carwars_desktop.session.setup import Entry, prepare
from carwars_desktop.storage import open_database
from readable import unreadable
import zxingcpp, numpy as np
from PySide6.QtGui import QImage

services = Services()
services.table.database = open_database({db!r})
ruleset = find_ruleset("mini_car_wars")
catalog = ruleset.catalog()
designs = ["Courier (b)", "Courier", "Killer Kart", "Courier", "Killer Kart", "Courier"]
entries = [Entry(f"Player {{n}}", name, catalog[d].to_json()) for n, (d, name) in
           enumerate(zip(designs[:{count}], {names!r}), start=1)]
table = services.table
table.open(table.start("mini_car_wars", "Friday night", "", prepare(ruleset, entries)))
game = table.running()
fire = find_procedure("mini.fire")
values = fire.bind({{"firer": game.sheet("v1"), "target": game.sheet("v2"), "side": "L",
                    "range": "5"}})
table.resolve(fire, values, typed_dice("4 4 5 6 6"), bindings={{"firer": "v1", "target": "v2"}})
display = PlayerDisplay(services, QSettings({ini!r}, QSettings.Format.IniFormat))
display.showFullScreen()
display.show_sharing({url!r})
for _ in range(50):
    app.processEvents()
while display._fit_timer.isActive():
    app.processEvents()
image = display.grab().toImage().convertToFormat(QImage.Format.Format_Grayscale8)
pixels = np.frombuffer(image.constBits(), np.uint8).reshape(
    image.height(), image.bytesPerLine())[:, :image.width()].copy()
qr = display.share_qr
corner = qr.mapTo(display, qr.rect().bottomRight())
print(json.dumps({{"size": [display.width(), display.height()],
                  "ratio": display.devicePixelRatioF(),
                  "misfits": display.misfits(), "unreadable": unreadable(display),
                  "module": qr.module_px(), "qr_inside": corner.x() < display.width()
                  and corner.y() < display.height(),
                  "decoded": [r.text for r in zxingcpp.read_barcodes(pixels)]}}))
"""


@pytest.mark.parametrize(("width", "height", "factor", "count"), [
    (1600, 1000, "1", 3), (1280, 720, "1", 6), (3840, 2160, "2", 4), (3840, 2160, "1", 6)],
    ids=["1600x1000", "1280x720", "3840x2160-at-200%", "3840x2160"])
def test_full_screen_on_a_screen_of_that_size_fits_and_its_qr_code_decodes(
        tmp_path: Path, width: int, height: int, factor: str, count: int) -> None:
    """F11 on a screen of its own (the offscreen platform configured to that size, and to
    200 % scaling): a whole screenshot of the display decodes to the link."""
    config = tmp_path / "screen.json"
    config.write_text(json.dumps({"screens": [{
        "name": "TV", "x": 0, "y": 0, "width": width, "height": height,
        "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]}))
    script = SCREEN_SCRIPT.format(
        here=str(Path(__file__).parent), db=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        ini=str(tmp_path / "s.ini"), url=URL, count=count, names=NAMES)
    env = {**os.environ, "QT_QPA_PLATFORM": f"offscreen:configfile={config}",
           "QT_SCALE_FACTOR": factor}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=180, env=env)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    scale = int(factor)
    assert result["size"] == [width // scale, height // scale]
    assert result["ratio"] == scale
    assert result["misfits"] == [] and result["unreadable"] == []
    assert result["module"] >= MIN_MODULE and result["qr_inside"]
    assert result["decoded"] == [URL]


# --- the roll panel whole at 1100×700 and 1366×768 (#28) ---------------------------------
# Its roll panel with a roll in progress (the need, the odds and the modifiers, before any
# die) and with a result shown after Apply, Mini Car Wars and Battlecars, four vehicles.

# ruleset → (four catalog vehicles, its scenario, its fire procedure, a shot, dice that hit)
ROLL_PANEL_CASES: dict[str, tuple[list[str], str, str, dict[str, Any], str]] = {
    "mini_car_wars": (["Courier (b)", "Courier", "Killer Kart", "Mini Sherman"], "",
                      "mini.fire", {"side": "L", "range": "5"}, "4 4 5 6 6"),
    "battlecars": ([EXAMPLE_CARD_NAME] * 4, "street", "battlecars.fire",
                   {"mount": "Pod D", "area": "front", "points_between": 2}, ""),
}


def _start_four(services: Services, ruleset_id: str) -> None:
    names, scenario = ROLL_PANEL_CASES[ruleset_id][:2]
    ruleset = find_ruleset(ruleset_id)
    catalog = ruleset.catalog()
    entries = [Entry(f"Player {n}", f"Car {n}" if len(set(names)) == 1 else name,
                     catalog[name].to_json()) for n, name in enumerate(names, start=1)]
    services.table.open(services.table.start(ruleset_id, "Friday night at the club",
                                             scenario, prepare(ruleset, entries, scenario)))


@pytest.mark.parametrize("size", [(1100, 700), (1366, 768)])
@pytest.mark.parametrize("ruleset_id", ["mini_car_wars", "battlecars"])
def test_the_roll_panel_is_whole(qtbot: Any, services: Services, settings: QSettings,
                                 ruleset_id: str, size: tuple[int, int]) -> None:
    _start_four(services, ruleset_id)
    display = PlayerDisplay(services, settings)
    qtbot.addWidget(display)
    display.resize(*size)
    display.show()
    qtbot.waitExposed(display)
    qtbot.waitUntil(lambda: display.size().toTuple() == size)
    _names, _scenario, procedure_id, shot, dice = ROLL_PANEL_CASES[ruleset_id]
    table = services.table
    game = table.running()
    fire = find_procedure(procedure_id)
    values = fire.bind({**shot, "firer": game.sheet("v1"), "target": game.sheet("v2")})
    table.preparing(fire.id, {"firer": "v1", "target": "v2"}, fire.odds(values))
    qtbot.waitUntil(lambda: "prepares" in display.roll.outcome.text())
    QApplication.processEvents()
    assert unreadable(display) == [], "roll in progress"
    pending = table.resolve(fire, values, typed_dice(dice, roll=not dice),
                            bindings={"firer": "v1", "target": "v2"})
    pending.apply()
    qtbot.waitUntil(lambda: bool(display.roll.dice.text()))
    QApplication.processEvents()
    assert unreadable(display) == [], "result shown"


MIN_EVENT_ROWS = 3
"""Rows of "Last events" always shown (when there are as many events)."""


@pytest.mark.parametrize("size", [(1366, 768), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("count", [4, 8])
def test_sharing_leaves_a_few_rows_of_last_events(
        qtbot: Any, services: Services, settings: QSettings, count: int,
        size: tuple[int, int]) -> None:
    """Once sharing started, "Last events" showed its header and no event: the QR code
    took the side column's room."""
    _start(services, "mini_car_wars", count)
    display = _display(qtbot, services, settings, size)
    _roll(services, "mini_car_wars").apply()
    for name in NAMES[:count]:
        services.table.note(f"{name}: phase 1: straight")
    _settled(qtbot, display)
    assert len(display.log.lines) >= MIN_EVENT_ROWS
    display.show_sharing(URL)
    _settled(qtbot, display)
    shown = display.log.text().splitlines()
    assert len(shown) >= MIN_EVENT_ROWS, shown
    assert shown == display.log.lines[-len(shown):] or all(  # the newest, maybe elided
        line.endswith("…") or line == whole
        for line, whole in zip(shown, display.log.lines[-len(shown):], strict=True))
    assert display.size().toTuple() == size  # never grown
    assert display.misfits() == [] and unreadable(display) == []
    assert display.share_qr.module_px() >= MIN_MODULE and _decoded(display) == [URL]
    if SHOTS:
        display.grab().save(os.path.join(SHOTS, f"events-shared-{count}-{size[0]}.png"))



def test_the_last_events_show_every_line_that_fits(qtbot: Any) -> None:
    """Room for seven lines showed the last two of five (a start counted from the end)."""
    lines = [f"• event {n}" for n in range(1, 6)]
    label = LinesLabel()
    qtbot.addWidget(label)
    label.set_lines(lines)
    label.resize(400, label.line_px() * 7)
    label.show()
    qtbot.waitUntil(lambda: label.text().splitlines() == lines)
    more = [f"• event {n}" for n in range(1, 11)]
    label.set_lines(more)
    assert label.text().splitlines() == more[-7:]  # the newest that fit
    label.resize(400, label.line_px())
    qtbot.waitUntil(lambda: label.height() == label.line_px() * 3)  # room for three kept
    assert label.text().splitlines() == more[-3:]

"""Screenshots of the real app for the user guide and for review.

Run under a virtual screen: ``xvfb-run -s "-screen 0 1400x900x24" .venv/bin/python
docs/make_screenshots.py [OUT_DIR] [--dark]``. Each workspace is shown with sample data
in a throwaway database and grabbed from the screen as a PNG. ``--dark`` gives the
application a dark palette (as a dark system theme does) and names each file
``…-dark.png``; the printed record sheets (paper) are made in the light run only.

``--layout=NAME`` shows only the Table maximized with a 4-vehicle session of each ruleset,
saved as ``table-4-<ruleset>-NAME.png`` (issue #13). Run it under a window manager so the
window is really maximized, at each screen the Table must fit (without one, the window takes
the screen's whole available area, as maximized)::

    xvfb-run -a -s "-screen 0 1366x768x24" sh -c "openbox & sleep 1; \
        .venv/bin/python docs/make_screenshots.py docs/images --layout=1366x768"
    # the same at 1920x1080, and at 2732x1536 with QT_SCALE_FACTOR=2 --layout=scale2
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import QApplication

from carwars_desktop.dice import EnteredDice
from carwars_desktop.gui.application import create_application
from carwars_desktop.gui.dice_workspace import DiceWorkspace
from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.plugins.autopower.car_editor import CarEditor
from carwars_desktop.gui.plugins.autopower.clock_panel import AutopowerClockPanel
from carwars_desktop.gui.plugins.autopower.sheet import AutopowerSheetWidget
from carwars_desktop.gui.plugins.battlecars.clock_panel import BattlecarsClockPanel
from carwars_desktop.gui.plugins.battlecars.editor import CardEditor
from carwars_desktop.gui.plugins.battlecars.sheet import BattlecarsSheetWidget
from carwars_desktop.gui.plugins.mini_car_wars.clock_panel import MiniClockPanel
from carwars_desktop.gui.plugins.mini_car_wars.editor import MiniEditor
from carwars_desktop.gui.plugins.mini_car_wars.sheet import MiniSheetWidget
from carwars_desktop.gui.resolver_workspace import ResolverWorkspace
from carwars_desktop.gui.table import TableWorkspace
from carwars_desktop.gui.theme import dark_palette
from carwars_desktop.gui.workshop import LibraryWorkspace
from carwars_desktop.gui.workshop.library_model import CHANGED
from carwars_desktop.library import parse_tags
from carwars_desktop.rules import find_procedure, find_ruleset
from carwars_desktop.rules.autopower import Deck, Icon, IconValue, PowerCard
from carwars_desktop.rules.autopower.kinds import DECK
from carwars_desktop.rules.battlecars import EXAMPLE_CARD_NAME
from carwars_desktop.rules.battlecars.terms import Weapon
from carwars_desktop.rules.mini_car_wars import MiniDesign
from carwars_desktop.rules.mini_car_wars.model import Role, Side
from carwars_desktop.session.setup import Entry, prepare
from carwars_desktop.storage import NewDesign

SUFFIX = ""
"""Added to every file name ("-dark" for the dark run)."""


def themed(path: Path) -> Path:
    return path.with_name(f"{path.stem}{SUFFIX}{path.suffix}")


def save(pixmap: QPixmap, path: Path) -> None:
    path = themed(path)
    pixmap.save(str(path))
    print(path)


def settle(app: QApplication) -> None:
    for _ in range(20):
        app.processEvents()
    charts_drawn(app)


def charts_drawn(app: QApplication, seconds: float = 20.0) -> None:
    """Wait until every chart shown is drawn (pyqtgraph is imported on a worker: a grab
    taken before showed "drawing the chart…" instead of the chart)."""
    from carwars_desktop.gui import plotting
    from carwars_desktop.gui.distribution_chart import DistributionChart
    from carwars_desktop.gui.table.charts import SessionCharts

    def waiting() -> bool:
        shown = [chart for widget in app.topLevelWidgets()
                 for kind in (DistributionChart, SessionCharts)
                 for chart in widget.findChildren(kind) if chart.isVisible()]
        return bool(shown) and not plotting.ready() or any(
            chart.waiting if isinstance(chart, DistributionChart) else chart.drawing
            for chart in shown)

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and waiting():
        app.processEvents()
        time.sleep(0.01)
    for _ in range(20):  # what the last callbacks drew, painted
        app.processEvents()


def grab(app: QApplication, window: MainWindow, path: Path) -> None:
    settle(app)
    screen = window.screen()
    pixmap = screen.grabWindow(0, window.x(), window.y(),
                               window.frameGeometry().width(), window.frameGeometry().height())
    save(pixmap, path)


def main() -> int:
    global SUFFIX
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    out = Path(args[0] if args else "docs/images")
    out.mkdir(parents=True, exist_ok=True)
    app = create_application()
    if "--dark" in sys.argv[1:]:
        SUFFIX = "-dark"
        app.setStyle("Fusion")
        app.setPalette(dark_palette())
    layout = next((a.removeprefix("--layout=") for a in sys.argv[1:]
                   if a.startswith("--layout=")), None)
    if layout is not None:
        return layout_screens(app, out, layout)
    folder = Path(tempfile.mkdtemp(prefix="carwars-shots-"))
    settings = QSettings(str(folder / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(db_url_hint=str(folder / "shots.sqlite3"), interactive=False,
                        settings=settings)
    window.resize(1280, 800)
    window.move(0, 0)
    window.show()
    settle(app)
    if not window.finish_startup():
        return 1
    only = next((a.removeprefix("--only=") for a in sys.argv[1:]
                 if a.startswith("--only=")), None)
    if only in ("ledger", "report"):  # one screen alone (the others take minutes)
        (ledger_screen if only == "ledger" else report_screen)(app, window, out)
        window.shutdown()
        return 0
    dice = next(w for w in window.workspaces if isinstance(w, DiceWorkspace))
    dice.expression_edit.setText("2d6")
    dice.target_spin.setValue(8)
    dice.natural_two.setChecked(True)
    for typed in ("5 4", "1 1", "6 3"):
        dice.dice_edit.setText(typed)
        dice.record_entered()
    dice.expression_edit.setText("2d6+1")
    dice.seed_edit.setText("1987")
    dice.roll()
    dice.expression_edit.setText("2d6")
    dice.dice_edit.setText("6 2")
    dice.record_entered()
    window._rail.setCurrentRow(window.workspaces.index(dice))
    grab(app, window, out / "dice.png")
    resolver_screen(app, window, out)
    table_mini_screens(app, window, out)
    resolver_collision_screen(app, window, out)
    table_autopower_screen(app, window, out)
    table_battlecars_screen(app, window, out)
    table_sessions_screens(app, window, out)
    replay_screen(app, window, out)
    ledger_screen(app, window, out)
    report_screen(app, window, out)
    library_screen(app, window, out)
    workshop_mini_screen(app, window, out)
    workshop_battlecars_screen(app, window, out)
    workshop_autopower_screens(app, window, out)
    workshop_print_screens(app, window, out)
    resolver_rulesets_screens(app, window, out)
    about_screen(app, window, out)
    window.shutdown()
    return 0


def resolver_screen(app: QApplication, window: MainWindow, out: Path) -> None:
    resolver = next(w for w in window.workspaces if isinstance(w, ResolverWorkspace))
    window._rail.setCurrentRow(window.workspaces.index(resolver))
    window.set_ruleset("mini_car_wars")
    resolver.select_procedure("mini.fire")
    resolver.form.set_value("firer", "Courier (b)")
    resolver.form.set_value("target", "Courier")
    resolver.form.set_value("side", "L")
    resolver.form.set_value("range", "5")
    settle(app)
    resolver.dice_edit.setText("4 4 5 6 6")
    resolver.resolve_entered()
    grab(app, window, out / "resolver.png")
    resolver.side_tabs.setCurrentIndex(1)
    grab(app, window, out / "resolver-reference.png")
    resolver.side_tabs.setCurrentIndex(0)


def _table(window: MainWindow) -> TableWorkspace:
    table = window.table
    window._rail.setCurrentRow(window.workspaces.index(table))
    return table


def _start(table: TableWorkspace, ruleset_id: str, name: str, scenario_key: str,
           scenario: str, players: list[tuple[str, str]],
           names: list[str] | None = None) -> None:
    ruleset = find_ruleset(ruleset_id)
    catalog = ruleset.catalog()
    called = names or [v for _, v in players]
    setup = prepare(ruleset, [Entry(p, n, catalog[v].to_json())
                              for (p, v), n in zip(players, called, strict=True)],
                    scenario_key)
    table.start_session(ruleset_id, name, scenario, setup)


def _resolve(table: TableWorkspace, procedure_id: str, values: dict[str, object],
             dice: list[int]) -> None:
    """Resolve with the dice the players threw and apply it, as the Resolver would."""
    game = table.context.service.game
    assert game is not None
    procedure = find_procedure(procedure_id)
    raw = {k: game.sheet(v) if k in _SHEET_KEYS and isinstance(v, str) else v
           for k, v in values.items()}
    bindings = {k: str(v) for k, v in values.items() if k in _SHEET_KEYS}
    pending = table.context.service.resolve(procedure, raw, EnteredDice(dice),
                                            bindings=bindings)
    table.hub.runner.finish(pending, None)


_SHEET_KEYS = {"firer", "target", "vehicle", "car", "attacker", "mover", "other",
               "next_target"}


def table_mini_screens(app: QApplication, window: MainWindow, out: Path) -> None:
    table = _table(window)
    _start(table, "mini_car_wars", "Friday night duel", "road_duel", "Road Duel",
           [("Ann", "Courier"), ("Bo", "Rocket Special"), ("Cy", "Mini Sherman"),
            ("Di", "Killer Kart")])
    play = table.play
    _resolve(table, "mini.fire", {"firer": "v2", "target": "v1", "weapon": "1", "side": "F",
                                  "range": "4"}, [5, 5, 6, 5])
    _resolve(table, "mini.fire", {"firer": "v1", "target": "v4", "weapon": "1", "side": "F",
                                  "range": "3"}, [6, 6, 6, 5, 6])
    sheet = play.sheets["v3"]
    assert isinstance(sheet, MiniSheetWidget)
    sheet.mark_armor(Side.LEFT, 14)
    sheet.mark_crew(Role.DRIVER, 1)
    play.sheets["v1"].mark_weapon(2, fired=True)  # type: ignore[attr-defined]
    clock = play.clock
    assert isinstance(clock, MiniClockPanel)
    clock.move_vehicle("v2", "straight")
    clock.move_vehicle("v1", "drift")
    clock.next_phase()
    clock.move_vehicle("v1", "swerve")
    settle(app)
    runner = table.hub.runner
    if runner.dialog is not None:
        runner.dialog.dice_edit.setText("3 4")
        runner.dialog.resolve_entered()
        grab(app, window, out / "table-control-roll.png")
        runner.dialog.apply()
    grab(app, window, out / "table-mini.png")
    for _ in range(8):
        clock.next_phase()
    clock.next_phase()
    clock.speed_edits["v2"].setCurrentText("90")
    clock.start_turn()
    grab(app, window, out / "table-mini-speeds.png")
    clock.speed_edits["v2"].setCurrentText("60")
    clock.start_turn()


def resolver_collision_screen(app: QApplication, window: MainWindow, out: Path) -> None:
    """The Resolver on a crash between two cars of the Mini Car Wars session at the Table."""
    resolver = next(w for w in window.workspaces if isinstance(w, ResolverWorkspace))
    window._rail.setCurrentRow(window.workspaces.index(resolver))
    window.set_ruleset("mini_car_wars")
    resolver.select_procedure("mini.collision")
    resolver.form.set_value("mover", "v2")
    resolver.form.set_value("other", "v4")
    settle(app)
    grab(app, window, out / "resolver-collision.png")


def table_autopower_screen(app: QApplication, window: MainWindow, out: Path) -> None:
    table = _table(window)
    _start(table, "autopower", "Heroes on wheels", "", "",
           [("Ann", "Longshot"), ("Bo", "Martian Manhunter"), ("Cy", "Bishop")])
    clock = table.play.clock
    assert isinstance(clock, AutopowerClockPanel)
    _resolve(table, "autopower.draw", {"car": "v1"}, [])
    clock.next_phase()
    _resolve(table, "autopower.accelerate", {"car": "v1", "play": "2, 3"}, [5, 6])
    clock.next_phase()
    clock.next_phase()
    _resolve(table, "autopower.attack", {"attacker": "v1", "target": "v3", "cards": "4"},
             [6, 5])
    clock.next_phase()
    _resolve(table, "autopower.draw", {"car": "v2"}, [])
    clock.next_phase()
    clock.next_phase()
    _resolve(table, "autopower.armor", {"car": "v2", "cards": "5, 6"}, [])
    clock.next_phase()
    grab(app, window, out / "table-autopower.png")


def table_battlecars_screen(app: QApplication, window: MainWindow, out: Path) -> None:
    table = _table(window)
    card = EXAMPLE_CARD_NAME
    _start(table, "battlecars", "Saturday street fight", "street", "Street combat",
           [("Ann", card), ("Bo", card), ("Cy", card)], ["Interceptor", "Wasp", "Hammer"])
    clock = table.play.clock
    assert isinstance(clock, BattlecarsClockPanel)
    for key, speed in (("v1", 2), ("v2", 3), ("v3", 1)):
        clock.speed_rows[key].speed.setValue(speed)
    clock.reveal_speeds()
    _resolve(table, "battlecars.fire", {"firer": "v1", "mount": "Pod A", "target": "v2",
                                        "area": "front", "points_between": 2},
             [7, 6, 8, 5, 3])
    _resolve(table, "battlecars.damage", {"car": "v3", "area": "left-rear", "amount": 9,
                                          "source": "collision"}, [3, 4, 2])
    sheet = table.play.sheets["v2"]
    assert isinstance(sheet, BattlecarsSheetWidget)
    sheet.mark_stunned(True)
    clock.next_phase()
    clock.next_phase()
    grab(app, window, out / "table-battlecars.png")
    clock.next_phase()
    settle(app)
    runner = table.hub.runner
    if runner.dialog is not None:
        runner.dialog.form.set_value("smoke_markers", 3)
        runner.dialog.dice_edit.setText("2 6 7")
        runner.dialog.resolve_entered()
        grab(app, window, out / "table-battlecars-end-round.png")
        runner.dialog.apply()
    grab(app, window, out / "table-battlecars-speeds.png")


def table_sessions_screens(app: QApplication, window: MainWindow, out: Path) -> None:
    table = _table(window)
    table.finish_session(confirm=False)
    grab(app, window, out / "table-charts.png")
    table.show_sessions()
    grab(app, window, out / "table-sessions.png")
    table.new_session()
    dialog = table.new_dialog
    assert dialog is not None
    dialog.ruleset_box.setCurrentIndex(dialog.ruleset_box.findData("mini_car_wars"))
    dialog.scenario_box.setCurrentIndex(1)
    dialog.set_player(0, "Ann", "Courier")
    dialog.set_player(1, "Bo", "Mini Sherman")
    settle(app)
    save(dialog.grab(), out / "table-new-session.png")
    dialog.reject()


def _tests_module(name: str) -> ModuleType:
    """A module of tests/services (its scripted sessions), loaded by its path."""
    import importlib.util

    path = Path(__file__).resolve().parents[1] / "tests" / "services" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # (its dataclasses look their module up)
    spec.loader.exec_module(module)
    return module


def report_screen(app: QApplication, window: MainWindow, out: Path) -> None:
    """The battle report of the tests' scripted duel (the stored report's session), its
    first page as the print pipeline lays it out (the HTML a browser shows is the same)."""
    from PySide6.QtGui import QColor, QImage, QPainter

    from carwars_desktop.gui.workshop.printing.report import report_document
    from carwars_desktop.services import Services
    from carwars_desktop.services.report import session_report

    services = Services()
    services.table.database = window.database
    assert window.database is not None
    services.library.attach(window.database)
    session_id = _tests_module("report_script").play_scripted_session(services)
    document = report_document(session_report(window.database, session_id))
    document.setTextWidth(900)
    height = min(int(document.size().height()) + 20, 1300)
    image = QImage(940, height, QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.translate(20, 10)
    document.drawContents(painter)
    painter.end()
    save(QPixmap.fromImage(image), out / "report.png")


def ledger_screen(app: QApplication, window: MainWindow, out: Path) -> None:
    """The Ledger after a season of club nights (the tests' generated club history: three
    rulesets, eight players, seeded dice), sorted by wins."""
    import random

    from PySide6.QtCore import Qt

    from carwars_desktop.gui.ledger_workspace import LedgerWorkspace
    from carwars_desktop.services import Services

    history = _tests_module("club_history")
    services = Services()
    services.table.database = window.database
    rng, totals = random.Random(36), history.Totals()
    for number in range(18):
        history.play_session(services, number, rng, totals)
    window._rail.setCurrentRow(5)
    ledger = window.current_workspace()
    assert isinstance(ledger, LedgerWorkspace)
    ledger.refresh()
    while ledger.counting.busy or ledger.table.columnCount() == 0:  # counted on a worker
        app.processEvents()
        time.sleep(0.02)
    wins = [ledger.table.horizontalHeaderItem(c).text()
            for c in range(ledger.table.columnCount())].index("Wins")
    ledger.table.sortByColumn(wins, Qt.SortOrder.DescendingOrder)
    grab(app, window, out / "ledger.png")


def replay_screen(app: QApplication, window: MainWindow, out: Path) -> None:
    """File › Replay session… on the Friday night duel, at its second shot."""
    from carwars_desktop.gui.replay_view import ReplayPicker, ReplayView

    picker = window.replay_session()
    assert isinstance(picker, ReplayPicker)
    found = next(i for i in range(picker.sessions.count())
                 if "Friday night duel" in picker.sessions.itemText(i))
    picker.sessions.setCurrentIndex(found)
    view = picker.open_view()
    assert isinstance(view, ReplayView)
    view.resize(1280, 800)
    view.go(view.replay.main_line[2])
    settle(app)
    save(view.grab(), out / "replay.png")
    view.close()


def _library(window: MainWindow) -> LibraryWorkspace:
    library = next(w for w in window.workspaces if isinstance(w, LibraryWorkspace))
    window._rail.setCurrentRow(window.workspaces.index(library))
    return library


def _own_copy(library: LibraryWorkspace, ruleset_id: str, catalog_name: str,
              name: str, tags: str = "") -> int:
    entry = next(e for e in library.library.entries(ruleset_id)
                 if e.catalog_name == catalog_name)
    copy = library.library.duplicate(entry.id)
    if name != copy.name:
        library.library.rename(copy.id, name)
    if tags:
        library.library.set_tags(copy.id, parse_tags(tags))
    return copy.id


def _sample_deck() -> Deck:
    def card(title: str, *icons: tuple[Icon, int]) -> PowerCard:
        return PowerCard(title, tuple(IconValue(icon, value) for icon, value in icons))

    lines = [(4, card("Energy 3", (Icon.ENERGY, 3))), (4, card("Energy 5", (Icon.ENERGY, 5))),
             (3, card("Energy 7", (Icon.ENERGY, 7))), (5, card("Fighting 4", (Icon.FIGHTING, 4))),
             (4, card("Fighting 6", (Icon.FIGHTING, 6))), (5, card("Strength 3",
                                                                  (Icon.STRENGTH, 3))),
             (4, card("Strength 6", (Icon.STRENGTH, 6))), (3, card("IQ 4",
                                                                   (Icon.INTELLIGENCE, 4))),
             (6, card("Training", (Icon.ENERGY, 2), (Icon.FIGHTING, 2))),
             (5, card("Teamwork", (Icon.STRENGTH, 4), (Icon.FIGHTING, 3))),
             (4, card("Ally: Nightwing", (Icon.ENERGY, 4), (Icon.INTELLIGENCE, 3))),
             (6, card("Energy 2", (Icon.ENERGY, 2))), (5, card("Fighting 2",
                                                               (Icon.FIGHTING, 2)))]
    return Deck("Club deck", tuple(c for n, c in lines for _ in range(n)))


def library_screen(app: QApplication, window: MainWindow, out: Path) -> None:
    library = _library(window)
    window.set_ruleset("mini_car_wars")
    night = _own_copy(library, "mini_car_wars", "Courier (a)", "Night Courier", "road duel, club")
    _own_copy(library, "mini_car_wars", "Rocket Special (b)", "Hammer", "pack attack")
    _own_copy(library, "mini_car_wars", "Shogun 220", "Pack rider 1", "pack attack, cycles")
    draft = _own_copy(library, "mini_car_wars", "Killer Kart", "Kart with extra armor")
    kart = MiniDesign.stock_design("killer_kart", name="Kart with extra armor")
    library.library.save(draft, kart.with_armor(kart.armor.with_side(Side.FRONT, 12)).to_json())
    library.library.add(NewDesign("autopower", _sample_deck().to_json(), DECK, ("club",)))
    library.ruleset_box.setCurrentIndex(0)
    library.refresh()
    library.view.sortByColumn(CHANGED, Qt.SortOrder.DescendingOrder)
    library.select_ids([night])
    library._show_preview()
    grab(app, window, out / "library.png")
    library.search.setText("pack")
    library.select_ids([library.model.entry(0).id])
    library._show_preview()
    grab(app, window, out / "library-search.png")
    library.search.clear()
    share_qr_screen(app, library, out)


def share_qr_screen(app: QApplication, library: LibraryWorkspace, out: Path) -> None:
    """Share ▾ › Show QR code… of the catalog's Courier: the code a phone's camera reads."""
    courier = next(e for e in library.library.entries("mini_car_wars")
                   if e.is_catalog and e.name == "Courier")
    library.select_ids([courier.id])
    dialog = library.share_button.show_qr()
    assert dialog is not None
    settle(app)
    save(dialog.grab(), out / "share-qr.png")
    dialog.close()


def workshop_mini_screen(app: QApplication, window: MainWindow, out: Path) -> None:
    library = _library(window)
    design_id = library.library.own_names("mini_car_wars")["Night Courier"]
    workshop = window.workshop
    workshop.open_design(design_id)
    editor = workshop.editor
    assert isinstance(editor, MiniEditor)
    editor.kit[(Role.DRIVER, "targeting_computers")].setValue(1)
    editor.body_armor[Role.GUNNER].setChecked(True)
    editor.move_points(Side.FRONT, Side.LEFT, 5)
    editor.armor.spin(Side.BACK).setValue(20)
    editor.budget.setValue(15_000)
    grab(app, window, out / "workshop-mini.png")
    workshop.undo()
    workshop.save()


def workshop_battlecars_screen(app: QApplication, window: MainWindow, out: Path) -> None:
    library = _library(window)
    card_id = _own_copy(library, "battlecars", EXAMPLE_CARD_NAME, "Red Baron (from the box)")
    workshop = window.workshop
    workshop.open_design(card_id)
    editor = workshop.editor
    assert isinstance(editor, CardEditor)
    editor.load.select("Pod B")
    editor.load.unload_requested.emit("Pod B")
    grab(app, window, out / "workshop-battlecars.png")
    editor.load.select("Pod A")
    editor.load.unload_requested.emit("Pod A")
    editor.load.load_requested.emit("Pod A", Weapon.SHELL)
    editor.load.load_requested.emit("Pod A", Weapon.SHELL)
    bar = workshop.editor_scroll.verticalScrollBar()
    bar.setValue(bar.maximum())
    grab(app, window, out / "workshop-battlecars-load.png")


def workshop_autopower_screens(app: QApplication, window: MainWindow, out: Path) -> None:
    library = _library(window)
    car_id = _own_copy(library, "autopower", "Bishop", "Bishop (my card)", "heroes")
    workshop = window.workshop
    workshop.open_design(car_id)
    editor = workshop.editor
    assert isinstance(editor, CarEditor)
    editor.stats["fighting"].setValue(5)
    editor.notes.setPlainText("Entered from the 1996 OverPower card: Energy 6, Fighting 5, "
                              "Strength 4, Intelligence 3.")
    workshop.save()
    grab(app, window, out / "workshop-autopower-car.png")
    deck_id = next(e.id for e in library.library.entries("autopower") if e.kind == DECK)
    workshop.open_design(deck_id)
    grab(app, window, out / "workshop-autopower-deck.png")


def workshop_print_screens(app: QApplication, window: MainWindow, out: Path) -> None:
    library = _library(window)
    workshop = window.workshop
    workshop.open_design(library.library.own_names("mini_car_wars")["Night Courier"])
    workshop.show_revisions()
    dialog = workshop.revisions_dialog
    dialog.move(40, 40)
    settle(app)
    dialog.list.setCurrentRow(1)
    grab(app, dialog, out / "workshop-revisions.png")  # type: ignore[arg-type]
    dialog.reject()
    workshop.print_preview()
    preview = workshop.preview_dialog
    preview.move(40, 0)
    preview.resize(1100, 880)
    settle(app)
    grab(app, preview, out / "print-preview.png")  # type: ignore[arg-type]
    preview.close()
    if not SUFFIX:
        workshop.export_pdf(str(out / "record-sheets.pdf"))


def resolver_rulesets_screens(app: QApplication, window: MainWindow, out: Path) -> None:
    """The Resolver on a Battlecars missile and an AUTOpower attack (the rulesets' pages)."""
    resolver = next(w for w in window.workspaces if isinstance(w, ResolverWorkspace))
    window._rail.setCurrentRow(window.workspaces.index(resolver))
    window.set_ruleset("battlecars")
    resolver.select_procedure("battlecars.fire")
    resolver.form.set_value("firer", "car 1 (TEST-1 example, not official)")
    resolver.form.set_value("mount", "Pod A")
    resolver.form.set_value("target", "car 2 (TEST-1 example, not official)")
    resolver.form.set_value("area", "front")
    resolver.form.set_value("points_between", "4")
    settle(app)
    resolver.dice_edit.setText("4 3 6 8 2 1")
    resolver.resolve_entered()
    grab(app, window, out / "resolver-battlecars.png")
    window.set_ruleset("autopower")
    resolver.select_procedure("autopower.attack")
    resolver.form.set_value("firer", "Booster Gold")
    resolver.form.set_value("target", "Nightwing at Speed 4")
    resolver.form.set_value("cards", "3, 6")
    settle(app)
    resolver.dice_edit.setText("5 6")
    resolver.resolve_entered()
    grab(app, window, out / "resolver-autopower.png")
    window.set_ruleset("mini_car_wars")


def about_screen(app: QApplication, window: MainWindow, out: Path) -> None:
    """Help > About: every component with its version and license."""
    from PySide6.QtWidgets import QMessageBox

    box = QMessageBox(window)
    box.setWindowTitle("About Carwars Desktop")
    box.setIconPixmap(app.windowIcon().pixmap(64, 64))
    box.setText(MainWindow.about_html())
    box.show()
    settle(app)
    save(box.grab(), out / "about.png")
    box.close()




# --- the Table at the table's screens (issue #13) -------------------------------------------
FOUR = {
    "mini_car_wars": ("Four-car Road Duel", "road_duel", "Road Duel",
                      [("Ann", "Courier"), ("Bo", "Rocket Special"), ("Cy", "Mini Sherman"),
                       ("Di", "Killer Kart")], None),
    "battlecars": ("Four-car street fight", "street", "Street combat",
                   [(p, EXAMPLE_CARD_NAME) for p in ("Ann", "Bo", "Cy", "Di")],
                   ["Interceptor", "Wasp", "Hammer", "Street Hawk"]),
    "autopower": ("Four heroes", "", "",
                  [("Ann", "Longshot"), ("Bo", "Martian Manhunter"), ("Cy", "Bishop"),
                   ("Di", "Rhino")], None),
}


def _four_car_play(table: TableWorkspace, ruleset_id: str) -> None:
    """A few events of each game: weapons marked destroyed (long labels), a smoke cloud or
    marker, a stun, a control penalty, so the durations and the widest labels show."""
    play = table.play
    if ruleset_id == "mini_car_wars":
        _resolve(table, "mini.fire", {"firer": "v3", "weapon": "smokescreen"}, [])
        _resolve(table, "mini.fire", {"firer": "v2", "target": "v1", "weapon": "1",
                                      "side": "F", "range": "4"}, [5, 5, 6, 5])
        for key in ("v1", "v4"):
            sheet = play.sheets[key]
            assert isinstance(sheet, MiniSheetWidget)
            sheet.mark_weapon(0, destroyed=True)
    elif ruleset_id == "battlecars":
        clock = play.clock
        assert isinstance(clock, BattlecarsClockPanel)
        for index, key in enumerate(("v1", "v2", "v3", "v4")):
            clock.speed_rows[key].speed.setValue(1 + index % 3)
        clock.reveal_speeds()
        _resolve(table, "battlecars.drop", {"vehicle": "v1", "mount": "Pod C",
                                            "weapon": Weapon.SMOKE.value}, [])
        _resolve(table, "battlecars.fire", {"firer": "v1", "mount": "Pod A", "target": "v2",
                                            "area": "front", "points_between": 2},
                 [7, 6, 8, 5, 3])
        sheet = play.sheets["v2"]
        assert isinstance(sheet, BattlecarsSheetWidget)
        sheet.mark_stunned(True)
    else:
        _resolve(table, "autopower.draw", {"car": "v1"}, [])
        sheet = play.sheets["v2"]
        assert isinstance(sheet, AutopowerSheetWidget)
        sheet.mark_penalty("next_turn", "-3")


def layout_screens(app: QApplication, out: Path, name: str) -> int:
    """``--layout=NAME``: the window maximized on this screen with a 4-vehicle session of each
    ruleset, saved as ``table-4-<ruleset>-NAME.png``."""
    folder = Path(tempfile.mkdtemp(prefix="carwars-layout-"))
    settings = QSettings(str(folder / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(db_url_hint=str(folder / "shots.sqlite3"), interactive=False,
                        settings=settings)
    window.showMaximized()
    settle(app)
    screen = window.screen().availableGeometry()
    if window.size() != screen.size():  # no window manager to maximize it: as one would
        window.setGeometry(screen)
        settle(app)
    if not window.finish_startup():
        return 1
    for ruleset_id, (title, key, scenario, players, names) in FOUR.items():
        window.set_ruleset(ruleset_id)
        table = _table(window)
        _start(table, ruleset_id, title, key, scenario, players, names)
        try:
            _four_car_play(table, ruleset_id)
        except (ValueError, TypeError, KeyError) as error:  # a screenshot without the events
            print(f"{ruleset_id}: {error}", file=sys.stderr)
        settle(app)
        short = {"mini_car_wars": "mini", "battlecars": "battlecars", "autopower": "autopower"}
        grab(app, window, out / f"table-4-{short[ruleset_id]}-{name}.png")
        table.finish_session(confirm=False)
    window.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())

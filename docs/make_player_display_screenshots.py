"""Screenshots of what the players see: the players' display at 1920×1080, one per
ruleset, the Share to players' devices window and the phones page (offscreen).

    QT_QPA_PLATFORM=offscreen .venv/bin/python docs/make_player_display_screenshots.py

Each display shows a session of four vehicles after a few events, with a roll in progress
(need N+ and the exact odds before the dice); the Mini Car Wars one is also drawn
with secret record sheets and hidden odds (``players-display-mini-secret.png``), the
Battlecars one also in a dark system theme (``players-display-battlecars-dark.png``).

``share-phones.png`` is the Share window with sharing started on 127.0.0.1 (this
computer only: nothing listens on a network), ``phones-page.png`` the page a phone
opens from it, in Debian's headless Chromium (``/usr/bin/chromium`` and
``chromedriver``, driven by selenium from the test extra) 412 pixels wide, as a phone,
with Blue Thunder picked and a roll in progress.

The phones' requests (:func:`requests`): ``phones-speed.png`` a Battlecars seat's page
while the secret speeds are chosen (one sent, the others awaited), ``phones-shot.png`` a
Mini Car Wars seat's page with its declared shot (the need and exact odds, the dice to
type), ``phones-queue.png`` the GM's queue beside the sheets with both kinds waiting.
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

HERE = Path(__file__).resolve().parent / "images"


CARS = ["Red Baron", "Blue Thunder", "Green Hornet", "Black Widow"]


def session(services: Any, ruleset_id: str, names: list[str],
            shown_names: list[str] | None = None) -> None:
    from carwars_desktop.rules import find_ruleset
    from carwars_desktop.session.setup import Entry, prepare

    ruleset = find_ruleset(ruleset_id)
    catalog = ruleset.catalog()
    players = ["Ann", "Bo", "Cy", "Di"]
    shown = shown_names or names
    entries = [Entry(player, label, catalog[name].to_json())
               for player, name, label in zip(players, names, shown, strict=False)]
    scenario = ""
    session_id = services.table.start(ruleset_id, "Friday night", scenario,
                                      prepare(ruleset, entries, scenario))
    services.table.open(session_id)


def roll(services: Any, procedure_id: str, inputs: dict[str, Any], dice: str,
         bindings: dict[str, str], apply: bool) -> None:
    from carwars_desktop.rules import find_procedure
    from carwars_desktop.services import typed_dice

    procedure = find_procedure(procedure_id)
    game = services.table.running()
    values = procedure.bind({**inputs, **{name: game.sheet(key)
                                          for name, key in bindings.items()}})
    pending = services.table.resolve(procedure, values, typed_dice(dice, roll=True),
                                     bindings=bindings)
    if apply:
        pending.apply()


def mini(services: Any) -> None:
    session(services, "mini_car_wars", ["Courier (b)", "Courier", "Killer Kart",
                                        "Mini Sherman"])
    roll(services, "mini.fire", {"side": "L", "range": "5"}, "4 4 5 6 6",
         {"firer": "v1", "target": "v2"}, apply=True)
    roll(services, "mini.fire", {"side": "F", "range": "3"}, "",
         {"firer": "v3", "target": "v4"}, apply=False)


def battlecars(services: Any) -> None:
    from carwars_desktop.rules import find_ruleset

    card = next(iter(find_ruleset("battlecars").catalog()))
    session(services, "battlecars", [card] * 4, CARS)
    roll(services, "battlecars.damage", {"area": "front", "amount": 3}, "",
         {"vehicle": "v2"}, apply=True)
    roll(services, "battlecars.skid", {"speed": 5, "corner_excess": 1}, "",
         {"vehicle": "v3"}, apply=False)


def autopower(services: Any) -> None:
    from carwars_desktop.rules import find_ruleset

    names = list(find_ruleset("autopower").catalog())[:4]
    session(services, "autopower", names)
    roll(services, "autopower.attack", {"cards": "5 3"}, "", {"firer": "v1", "target": "v2"},
         apply=True)
    roll(services, "autopower.attack", {"cards": "5 3"}, "", {"firer": "v3", "target": "v4"},
         apply=False)


def dark_palette() -> Any:
    from PySide6.QtGui import QColor, QGuiApplication, QPalette

    palette = QPalette(QGuiApplication.palette())
    palette.setColor(QPalette.ColorRole.Window, QColor("#202020"))
    palette.setColor(QPalette.ColorRole.WindowText, QColor("#f0f0f0"))
    return palette


def shoot(name: str, build: Callable[[Any], None],
          after: Callable[[Any], None] | None = None, dark: bool = False) -> Path:
    from carwars_desktop.gui.players_display import PlayerDisplay
    from carwars_desktop.services import Services
    from carwars_desktop.storage import open_database

    folder = Path(tempfile.mkdtemp())
    database = open_database(f"sqlite:///{folder / 'shots.sqlite3'}")
    services = Services()
    services.table.database = database
    build(services)
    if after is not None:
        after(services)
    original = QApplication.palette()
    if dark:
        QApplication.setPalette(dark_palette())
    settings = QSettings(str(folder / "display.ini"), QSettings.Format.IniFormat)
    display = PlayerDisplay(services, settings)
    display.resize(1920, 1080)
    display.show()
    QApplication.processEvents()
    path = HERE / f"players-display-{name}.png"
    display.grab().save(str(path))
    display.close()
    database.close()
    QApplication.setPalette(original)
    return path


PHONE_WIDTH, PHONE_HEIGHT = 412, 1400
"""The phones page's viewport, CSS pixels: a common phone's width, the height of two
screens (the own vehicle, the roll in progress and the first of the others)."""

PHONE_CARS = [("Courier (b)", "Red Baron"), ("Courier", "Blue Thunder"),
              ("Killer Kart", "Ambusher")]


def phones_session(services: Any) -> None:
    from carwars_desktop.rules import find_ruleset
    from carwars_desktop.session.setup import Entry, prepare

    ruleset = find_ruleset("mini_car_wars")
    catalog = ruleset.catalog()
    entries = [Entry(f"Player {n}", name, catalog[design].to_json())
               for n, (design, name) in enumerate(PHONE_CARS, start=1)]
    session_id = services.table.start("mini_car_wars", "Friday night", "",
                                      prepare(ruleset, entries))
    services.table.open(session_id)
    # Blue Thunder fires at Red Baron: the need and the odds before the dice.
    roll(services, "mini.fire", {"side": "F", "range": "5"}, "",
         {"firer": "v2", "target": "v1"}, apply=False)


def loopback(_allow_public: bool) -> list[Any]:
    from carwars_desktop.services.share_network import LOOPBACK, Interface

    return [Interface(LOOPBACK, f"{LOOPBACK} (this computer only)", True)]


def wait_until(condition: Callable[[], object], what: str, seconds: float = 20.0) -> None:
    import time

    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise RuntimeError(f"gave up waiting for {what}")
        QApplication.processEvents()
        time.sleep(0.02)


def phones() -> list[Path]:
    """The Share window on 127.0.0.1, and the phones page it serves, in Chromium."""
    from carwars_desktop.gui.phone_share import PhoneSharing
    from carwars_desktop.gui.share_dialog import ShareDialog
    from carwars_desktop.services import Services
    from carwars_desktop.storage import open_database

    folder = Path(tempfile.mkdtemp())
    database = open_database(f"sqlite:///{folder / 'phones.sqlite3'}")
    services = Services()
    services.table.database = database
    phones_session(services)
    sharing = PhoneSharing(services, choices=loopback)
    dialog = ShareDialog(sharing)
    dialog.show()
    dialog.start()
    wait_until(lambda: sharing.sharing, "sharing to start")
    QApplication.processEvents()
    shots = [HERE / "share-phones.png", HERE / "phones-page.png"]
    dialog.grab().save(str(shots[0]))
    try:
        phone_page(sharing.url, shots[1])
    finally:
        dialog.close()
        sharing.end()
        database.close()
    return shots


def phone_page(url: str, path: Path) -> None:
    import shutil

    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.support.ui import WebDriverWait

    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    profile = tempfile.mkdtemp(prefix="carwars-chromium-")
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu",
                     "--disable-dev-shm-usage", "--no-first-run", "--disable-extensions",
                     "--disable-background-networking", "--disable-sync",
                     "--hide-scrollbars", "--window-size=412,1400",
                     f"--user-data-dir={profile}"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"),
                              options=options)
    try:
        driver.set_page_load_timeout(30)
        # A phone's viewport (headless Chromium's window size includes no browser
        # frame, but its page is laid out wider than the window otherwise).
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": PHONE_WIDTH, "height": PHONE_HEIGHT, "deviceScaleFactor": 1,
            "mobile": True})
        driver.get(url)

        def text(element_id: str) -> str:
            return str(driver.execute_script(
                "const e = document.getElementById(arguments[0]);"
                " return e ? e.innerText : '';", element_id))

        wait = WebDriverWait(driver, 20, poll_frequency=0.05)
        wait.until(lambda _d: text("connection") == "live")
        wait.until(lambda d: d.execute_script(  # pick Blue Thunder, as a player would
            "for (const b of document.querySelectorAll('#choices button'))"
            " if (b.textContent.startsWith('Blue Thunder')) { b.click(); return true; }"
            " return false;"))
        wait.until(lambda _d: text("mine-name") == "Blue Thunder"
                   and text("roll-need").startswith("need"))
        driver.save_screenshot(str(path))
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def _phone_driver() -> Any:
    """Headless Chromium with a phone's viewport (see :func:`phone_page`)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu",
                     "--disable-dev-shm-usage", "--no-first-run", "--disable-extensions",
                     "--disable-background-networking", "--disable-sync",
                     "--hide-scrollbars", "--window-size=412,1000",
                     f"--user-data-dir={tempfile.mkdtemp(prefix='carwars-chromium-')}"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"),
                              options=options)
    driver.set_page_load_timeout(30)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": PHONE_WIDTH, "height": 1000, "deviceScaleFactor": 1, "mobile": True})
    return driver


def _request_session(services: Any, ruleset_id: str, designs: list[str]) -> None:
    from carwars_desktop.rules import find_ruleset
    from carwars_desktop.session.setup import Entry, prepare

    ruleset = find_ruleset(ruleset_id)
    catalog = ruleset.catalog()
    entries = [Entry(player, name, catalog[design].to_json())
               for player, name, design in zip(["Bob", "Di", "Al", "Cy"], CARS, designs,
                                               strict=False)]
    services.table.open(services.table.start(ruleset_id, "Friday night", "",
                                             prepare(ruleset, entries)))


def requests() -> list[Path]:
    """A Battlecars seat choosing its secret speed, a Mini Car Wars seat with its declared
    shot, and the GM's queue of both (127.0.0.1 only)."""
    from selenium.webdriver.support.ui import WebDriverWait

    from carwars_desktop.gui.phone_share import PhoneSharing
    from carwars_desktop.gui.table.phone_queue import PhoneQueue
    from carwars_desktop.rules import find_ruleset
    from carwars_desktop.services import Services
    from carwars_desktop.storage import open_database

    folder = Path(tempfile.mkdtemp())
    shots = [HERE / "phones-speed.png", HERE / "phones-shot.png", HERE / "phones-queue.png"]
    driver = _phone_driver()

    def text(element_id: str) -> str:
        return str(driver.execute_script(
            "const e = document.getElementById(arguments[0]);"
            " return e && !e.hidden ? e.innerText : '';", element_id))

    wait = WebDriverWait(driver, 20, poll_frequency=0.05)
    try:
        for number, (ruleset_id, designs) in enumerate(
                (("battlecars", ["Killer Kart"] * 4), ("mini_car_wars", [
                    "Courier (b)", "Courier", "Killer Kart", "Courier"]))):
            database = open_database(f"sqlite:///{folder / f'requests-{number}.sqlite3'}")
            services = Services()
            services.table.database = database
            catalog = list(find_ruleset(ruleset_id).catalog())
            _request_session(services, ruleset_id, [d if d in catalog else catalog[0]
                                                    for d in designs])
            sharing = PhoneSharing(services, choices=loopback)
            sharing.start()
            seats = {key: url for key, _name, url in sharing.seats()}
            if ruleset_id == "mini_car_wars":  # the speeds are in: phase 2, fire
                game = services.table.running()
                services.table.set_clock(game.clock.advanced(), "phase 2")
            driver.get(seats["v1"])
            wait.until(lambda _d: text("connection") == "live" and text("send"))
            if ruleset_id == "battlecars":
                driver.execute_script("document.querySelectorAll('#speeds button')[2].click();")
                wait_until(lambda s=sharing: s.desk.waiting(), "the speed to arrive")
                sharing.accept(sharing.desk.waiting()[0])
                wait.until(lambda _d: text("sent").startswith("in: "))
            else:
                driver.execute_script(
                    "document.getElementById('shot-target').value = 'v2';"
                    "document.getElementById('shot-side').value = 'L';"
                    "document.getElementById('shot-range').value = '5';"
                    "document.getElementById('shot-send').click();")
                wait.until(lambda d: QApplication.processEvents() or d.execute_script(
                    "return document.querySelectorAll('#shots .shot').length === 1;"))
            driver.execute_script("document.getElementById('send').scrollIntoView();"
                                  "window.scrollBy(0, -150);")
            driver.save_screenshot(str(shots[number]))
            if ruleset_id == "mini_car_wars":
                queue = PhoneQueue(sharing, lambda _request: None)
                # A second seat's shot waits beside the first.
                driver.get(seats["v2"])
                wait.until(lambda _d: text("connection") == "live" and text("send"))
                driver.execute_script(
                    "document.getElementById('shot-target').value = 'v3';"
                    "document.getElementById('shot-range').value = '3';"
                    "document.getElementById('shot-send').click();")
                wait_until(lambda s=sharing: len(s.desk.waiting()) == 2, "both shots")
                queue.resize(520, 420)
                queue.show()
                QApplication.processEvents()
                queue.grab().save(str(shots[2]))
                queue.close()
            sharing.end()
            database.close()
    finally:
        driver.quit()
    return shots


def secret(services: Any) -> None:
    from carwars_desktop.session.visibility import Visibility

    services.table.set_visibility(Visibility(sheets_open=False, odds_shown=False))


def main() -> None:
    app = QApplication.instance() or QApplication(sys.argv)
    for name, build, after, dark in (("mini", mini, None, False),
                                     ("mini-secret", mini, secret, False),
                                     ("battlecars", battlecars, None, False),
                                     ("battlecars-dark", battlecars, None, True),
                                     ("autopower", autopower, None, False)):
        print(shoot(name, build, after, dark))
    for path in phones():
        print(path)
    for path in requests():
        print(path)
    del app


if __name__ == "__main__":
    main()

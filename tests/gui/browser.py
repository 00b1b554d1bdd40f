"""Headless Chromium for the phones page's tests: Debian's ``chromium`` and
``chromium-driver`` (installed by ``./dev test``), driven by selenium. Nothing is
downloaded: the driver and the browser are the system's."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

BROWSERS = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")
DRIVERS = ("/usr/bin/chromedriver",)


def _first(paths: tuple[str, ...], name: str) -> str:
    for path in paths:
        if Path(path).exists():
            return path
    found = shutil.which(name)
    if found is None:
        raise RuntimeError(f"{name} is missing: ./dev test installs Debian's chromium and "
                           "chromium-driver")
    return found


def chromium() -> webdriver.Chrome:
    """A fresh headless Chromium with its own profile (localStorage starts empty)."""
    options = webdriver.ChromeOptions()
    options.binary_location = _first(BROWSERS, "chromium")
    profile = tempfile.mkdtemp(prefix="carwars-chromium-")
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu",
                     "--disable-dev-shm-usage", "--no-first-run", "--disable-extensions",
                     "--disable-background-networking", "--disable-sync",
                     "--window-size=412,915", f"--user-data-dir={profile}"):
        options.add_argument(argument)
    service = Service(executable_path=_first(DRIVERS, "chromedriver"))
    driver = webdriver.Chrome(service=service, options=options)
    driver.set_page_load_timeout(30)
    return driver

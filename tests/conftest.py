"""Test set-up shared by every test: offscreen Qt, isolated settings and data folders."""

from __future__ import annotations

import atexit
import os
import shutil
import signal
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

os.environ["QT_QPA_PLATFORM"] = "offscreen"


def _memory_folder_present() -> bool:
    shm = Path("/dev/shm")
    return shm.is_dir() and os.access(shm, os.W_OK | os.X_OK)


def _memory_folder() -> str | None:
    """A RAM-backed folder for the tests' files (Linux's /dev/shm), or None.

    The app commits with ``synchronous=FULL``: on a disk each commit waits for an fsync
    (7 ms each on this machine's disk, 0.2 ms in RAM), and the suite commits tens of
    thousands of times. What a test checks of a file (its bytes, locks, permissions, a
    kill of the process that writes it) is the same in RAM; only a power cut differs,
    and no test makes one. An explicit PYTEST_DEBUG_TEMPROOT (as a pytest-xdist worker
    inherits it) is the folder; an explicit TMPDIR is kept (None).
    """
    if os.environ.get("PYTEST_DEBUG_TEMPROOT"):
        return os.environ["PYTEST_DEBUG_TEMPROOT"]
    if os.environ.get("TMPDIR"):
        return None
    return "/dev/shm" if _memory_folder_present() else None


GIVEN_TEMP_ROOT = os.environ.get("PYTEST_DEBUG_TEMPROOT") or os.environ.get("TMPDIR")
"""The folder the caller gave for the tests' files (a pytest-xdist worker inherits the
memory folder its controller chose), or None: then they are in memory where there is some."""
# tmp_path (pytest's numbered folders, the last three runs kept) and the folders below.
_MEMORY = _memory_folder()
if _MEMORY is not None:
    os.environ["PYTEST_DEBUG_TEMPROOT"] = _MEMORY
# Settings (QSettings) and the default database (platformdirs) must never touch
# the real user's folders: point XDG at a throwaway folder for the whole run
# (removed when the process ends).
_HOME = tempfile.mkdtemp(prefix="carwars-tests-", dir=_MEMORY)
atexit.register(shutil.rmtree, _HOME, True)
os.environ["XDG_CONFIG_HOME"] = str(Path(_HOME) / "config")
os.environ["XDG_DATA_HOME"] = str(Path(_HOME) / "data")
os.environ.pop("CARWARS_DB", None)

# Property tests have no deadline: a slow or busy machine (a CI runner, two cores shared
# by several jobs) must not fail an example for the time it took. A test's own
# @settings(max_examples=…) keeps this profile's deadline.
settings.register_profile("carwars", deadline=None)
settings.load_profile("carwars")


# --- capabilities: what a test needs of the system beyond Python and Qt --------------------
# A test that needs one carries its marker (registered in pyproject.toml), or uses a fixture
# that needs it (FIXTURE_NEEDS). Where the capability is absent the test is skipped with
# the reason, shown in the summary (``-ra``); nothing is left out silently.
# CARWARS_TEST_HIDE_CAPABILITIES=all (or a comma list of names) makes the checks answer
# "absent": the suite runs as it would on Windows or macOS.
HIDE_ENV = "CARWARS_TEST_HIDE_CAPABILITIES"


def postgres_bin() -> Path | None:
    """The folder of PostgreSQL's server programs (initdb, pg_ctl), or None."""
    override = os.environ.get("CARWARS_PG_BIN")
    candidates = [Path(override)] if override else sorted(
        Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parent.name), reverse=True)
    for candidate in candidates:
        if (candidate / "pg_ctl").is_file():
            return candidate
    found = shutil.which("pg_ctl")
    return Path(found).parent if found else None


def _is_root() -> bool:
    return os.name == "posix" and os.geteuid() == 0


LOOPBACK_ALIASES = tuple(f"127.0.0.{n}" for n in range(2, 10))
"""Loopback addresses besides 127.0.0.1 that phones' tests connect from (Linux routes the
whole 127/8 to loopback; macOS and Windows have 127.0.0.1 only, unless aliases are added)."""


def _binds(address: str) -> bool:
    import socket

    with socket.socket() as probe:
        try:
            probe.bind((address, 0))
        except OSError:
            return False
    return True


def _has_module(name: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(name) is not None


CHROMIUMS = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")
CHROMEDRIVERS = ("/usr/bin/chromedriver",)

CAPABILITIES: dict[str, tuple[str, Callable[[], bool]]] = {
    "postgres_server": (
        "PostgreSQL's server programs (initdb, pg_ctl) on a POSIX system, as root with "
        "runuser, to start a private server",
        lambda: os.name == "posix" and postgres_bin() is not None
        and (not _is_root() or shutil.which("runuser") is not None)),
    "chromium": (
        "headless Chromium and its driver at /usr/bin (Debian's chromium, chromium-driver)",
        lambda: any(map(os.path.exists, CHROMIUMS))
        and any(map(os.path.exists, CHROMEDRIVERS))),
    "pdftoppm": ("poppler's pdftoppm, to draw a PDF's page",
                 lambda: shutil.which("pdftoppm") is not None),
    "pdftotext": ("poppler's pdftotext, to read a PDF's text",
                  lambda: shutil.which("pdftotext") is not None),
    "posix_permissions": (
        "POSIX file permissions (chmod makes a file or folder read-only) and, as root, "
        "util-linux's setpriv to give up the override",
        lambda: os.name == "posix" and (not _is_root() or shutil.which("setpriv") is not None)),
    "posix_signals": ("POSIX signals (SIGKILL, SIGSTOP, SIGCONT) to kill or stop a process",
                      lambda: os.name == "posix" and all(
                          hasattr(signal, name) for name in ("SIGKILL", "SIGSTOP", "SIGCONT"))),
    "procfs": ("Linux's /proc, to see a process's state (a zombie counts as ended)",
               lambda: sys.platform.startswith("linux") and Path("/proc/self/status").exists()),
    "bash": ("bash on a POSIX system, for the Linux packaging scripts",
             lambda: os.name == "posix" and shutil.which("bash") is not None),
    "memory_folder": ("a RAM-backed folder for the tests' files (Linux's /dev/shm, "
                      "writable)", lambda: _memory_folder_present()),
    "loopback_aliases": ("loopback addresses besides 127.0.0.1 (127.0.0.2 to 127.0.0.9, "
                         "as Linux has), to connect from several addresses",
                         lambda: all(map(_binds, LOOPBACK_ALIASES))),
    "posix_rlimits": ("POSIX resource limits (Python's resource module), to lower the "
                      "open-file limit", lambda: _has_module("resource")),
}
FIXTURE_NEEDS = {"club_server": "postgres_server", "tls_club_server": "postgres_server",
                 "browser": "chromium",
                 "read_only_file": "posix_permissions", "shared_folder": "posix_permissions"}
_present: dict[str, bool] = {}


def _hidden(name: str) -> bool:
    hidden = {h.strip() for h in os.environ.get(HIDE_ENV, "").split(",") if h.strip()}
    return "all" in hidden or name in hidden


def capability_present(name: str) -> bool:
    """Whether the system has the capability (hidden ones answer False)."""
    if _hidden(name):
        return False
    if name not in _present:
        _present[name] = CAPABILITIES[name][1]()
    return _present[name]


@pytest.fixture(scope="session")
def postgres_bin_dir() -> Path:
    """PostgreSQL's server programs (the tests that use it are marked postgres_server)."""
    found = postgres_bin()
    if found is None:
        raise RuntimeError("PostgreSQL is not installed (./dev installs it)")
    return found


@pytest.hookimpl(tryfirst=True)  # before -m selects: `-m "not chromium"` sees the marks
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if hasattr(config, "workerinput"):  # a pytest-xdist worker (each sorts alike)
        # On several workers the long tests start first (the rest in their order), so that
        # no worker is left with one at the end while the others have nothing to do.
        items.sort(key=lambda item: item.get_closest_marker("slow") is None)
    for item in items:
        fixtures = getattr(item, "fixturenames", ())
        for fixture, capability in FIXTURE_NEEDS.items():
            if fixture in fixtures and capability not in {m.name for m in item.iter_markers()}:
                item.add_marker(getattr(pytest.mark, capability))
        for name in dict.fromkeys(m.name for m in item.iter_markers()):
            if name in CAPABILITIES and not capability_present(name):
                why = f"hidden by {HIDE_ENV}" if _hidden(name) else "absent here"
                item.add_marker(pytest.mark.skip(
                    reason=f"needs {name}: {CAPABILITIES[name][0]} ({why})"))
                break
        group = shared_group(item) if item.config.pluginmanager.hasplugin("xdist") else None
        if group is not None and item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(group))


# --- parallel runs: ./dev test runs pytest-xdist's workers with --dist loadgroup ------------
# A fixture made once per process is made once per worker that runs one of its tests: the
# tests that share one that is expensive run on one worker (one xdist_group), the others
# go one by one to whichever worker is free.
SESSION_GROUPS = {"club_server": "club-server", "tls_club_server": "club-server"}
"""Session fixtures worth one worker: a private PostgreSQL server each (seconds to start)."""


def shared_group(item: pytest.Item) -> str | None:
    """The group of the tests that share ``item``'s expensive fixture, or None.

    A fixture of the session in :data:`SESSION_GROUPS`, or any fixture of a module's,
    package's or class's scope defined under tests/ (a wheel built, icons drawn…): its
    tests stay together, so it is made once.
    """
    fixtures = getattr(item, "fixturenames", ())
    for name, group in SESSION_GROUPS.items():
        if name in fixtures:
            return group
    info = getattr(item, "_fixtureinfo", None)
    for definitions in getattr(info, "name2fixturedefs", {}).values():
        definition = definitions[-1]
        if definition.scope in ("module", "package", "class") and definition.baseid:
            return f"{definition.baseid}::{definition.argname}"
    return None


def pytest_report_header() -> list[str]:
    absent = [name for name in CAPABILITIES if not capability_present(name)]
    postgres = ("storage tests on SQLite and PostgreSQL" if os.environ.get(
        "CARWARS_TEST_POSTGRES_URL") else "storage tests on SQLite only "
        "(CARWARS_TEST_POSTGRES_URL unset: tests/postgres_server.sh start prints one)")
    return [f"capabilities absent (their tests skipped): {', '.join(absent) or 'none'}",
            postgres]


@pytest.fixture
def sqlite_url(tmp_path: Path) -> Iterator[str]:
    """A fresh SQLite database file URL in the test's own folder."""
    yield f"sqlite:///{tmp_path / 'carwars.sqlite3'}"


# --- the application layer on a real database, no Qt (tests/services, tests/house) ----------
@pytest.fixture
def database(sqlite_url: str) -> Iterator[Any]:
    """A real database (SQLite in the test's folder), closed after the test."""
    from carwars_desktop.storage import open_database

    database = open_database(sqlite_url)
    yield database
    database.close()


@pytest.fixture
def services(database: Any) -> Any:
    """The Qt-free application layer on :func:`database`."""
    from carwars_desktop.services import Services

    services = Services()
    services.table.database = database
    services.library.attach(database)
    return services


@pytest.fixture
def heard(services: Any) -> list[Any]:
    """Every change the bus published (after the fixtures set up)."""
    changes: list[Any] = []
    services.bus.subscribe(changes.append)
    return changes

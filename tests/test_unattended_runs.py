"""``--smoke``: start, open the database, build every workspace, exit; ``--self-check``: the
same, then the phones page served once on loopback. Each run is a process of its own,
as CI and a user's script start it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from carwars_desktop.app import main

RUN = """
import atexit, sys
{before}
def said():
    loaded = sorted(name for name in ("aiohttp", "carwars_desktop.services.phone_server")
                    if name in sys.modules)
    print("modules " + ",".join(loaded), file=sys.stderr, flush=True)
atexit.register(said)
from carwars_desktop.app import main
sys.exit(main(sys.argv[1:]))
"""


def _run(tmp_path: Path, *args: str, before: str = "") -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", CARWARS_TRACE_STARTUP="1",
               XDG_DATA_HOME=str(tmp_path / "data"), XDG_CONFIG_HOME=str(tmp_path / "config"))
    env.pop("CARWARS_DB", None)
    return subprocess.run([sys.executable, "-c", RUN.format(before=before), *args],
                          env=env, capture_output=True, text=True, timeout=180)


def _milestones(stderr: str) -> list[str]:
    return [line.split()[1] for line in stderr.splitlines()
            if line.startswith("carwars-startup ")]


def _modules(stderr: str) -> str:
    return next(line for line in stderr.splitlines() if line.startswith("modules ")
                ).removeprefix("modules ")


def test_smoke_opens_the_database_builds_every_workspace_and_not_the_phones_page(
        tmp_path: Path) -> None:
    database = tmp_path / "club.sqlite3"
    for start in ("first", "again"):  # made and migrated; then listed from the file first
        result = _run(tmp_path, "--smoke", "--db", str(database))
        assert result.returncode == 0, (start, result.stderr)
        assert _milestones(result.stderr) == ["window-idle", "first-screen", "ready", "built",
                                              "longest-turn"], start
        assert _modules(result.stderr) == "", start  # aiohttp is the self-check's alone
    assert database.is_file()


def test_self_check_also_serves_the_phones_page(tmp_path: Path) -> None:
    result = _run(tmp_path, "--self-check", "--db", str(tmp_path / "club.sqlite3"))
    assert result.returncode == 0, result.stderr
    assert "built" in _milestones(result.stderr)
    assert _modules(result.stderr) == "aiohttp,carwars_desktop.services.phone_server"


def test_self_check_fails_with_the_reason_when_the_phones_page_is_not_served(
        tmp_path: Path) -> None:
    broken = ("import carwars_desktop.services.phone_server as server\n"
              "def refuse(self):\n"
              "    raise OSError('no socket for you')\n"
              "server.PhoneServer.start = refuse\n")
    result = _run(tmp_path, "--self-check", "--db", str(tmp_path / "club.sqlite3"),
                  before=broken)
    assert result.returncode == 4
    assert "the phones page failed: no socket for you" in result.stderr
    smoke = _run(tmp_path, "--smoke", "--db", str(tmp_path / "club.sqlite3"), before=broken)
    assert smoke.returncode == 0, smoke.stderr  # --smoke does not serve the page


def test_smoke_with_a_bad_database_fails_before_building_anything(tmp_path: Path) -> None:
    bad = tmp_path / "notes.sqlite3"
    bad.write_text("my notes\n" * 100)
    result = _run(tmp_path, "--smoke", "--db", str(bad))
    assert result.returncode == 2
    assert "built" not in _milestones(result.stderr)
    assert bad.read_text() == "my notes\n" * 100


def test_smoke_and_self_check_are_one_or_the_other(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--smoke", "--self-check"])
    assert exited.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err

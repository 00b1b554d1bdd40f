"""The wheel a plain ``pip install .`` makes: its entry point starts with ``--smoke`` and
``--self-check``.

The package is built and installed into a folder of its own (dependencies come
from the test environment), so data folders found only in a checkout would fail here.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
# Builds and installs a wheel (half a minute): left out of `./dev test -m "not slow"`.
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    folder = tmp_path_factory.mktemp("installed")
    wheels = folder / "wheels"
    site = folder / "site"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels),
                    str(REPO)], check=True, capture_output=True)
    (wheel,) = wheels.glob("carwars_desktop-*.whl")
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target",
                    str(site), str(wheel)], check=True, capture_output=True)
    yield site


def _environment(site: Path, home: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(PYTHONPATH=str(site), QT_QPA_PLATFORM="offscreen",
               XDG_DATA_HOME=str(home / "data"), XDG_CONFIG_HOME=str(home / "config"))
    env.pop("CARWARS_DB", None)
    return env


def _stderr_lines(stderr: str) -> list[str]:
    # The offscreen platform plugin's own notice is not the app's output.
    return [line for line in stderr.splitlines()
            if line and "propagateSizeHints" not in line]


def test_wheel_ships_the_data_folders(installed: Path) -> None:
    bundled = installed / "carwars_desktop" / "_bundled"
    assert (bundled / "database" / "env.py").is_file()
    assert list((bundled / "database" / "versions").glob("0001_*.py"))
    assert (bundled / "resources" / "icons" / "carwars.svg").is_file()


def test_entry_point_smoke_creates_default_database(installed: Path, tmp_path: Path) -> None:
    script = installed / "bin" / "carwars-desktop"
    assert script.is_file()
    result = subprocess.run([sys.executable, str(script), "--smoke"], cwd=tmp_path,
                            env=_environment(installed, tmp_path), capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert _stderr_lines(result.stderr) == []
    assert (tmp_path / "data" / "carwars-desktop" / "carwars.sqlite3").is_file()


def test_entry_point_self_check_serves_the_phones_page_from_the_wheel(
        installed: Path, tmp_path: Path) -> None:
    """``--self-check``: as ``--smoke``, then the phones page (aiohttp and the page's files
    in the wheel) served on loopback and read back."""
    script = installed / "bin" / "carwars-desktop"
    result = subprocess.run([sys.executable, str(script), "--self-check"], cwd=tmp_path,
                            env=_environment(installed, tmp_path), capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert _stderr_lines(result.stderr) == []


def test_installed_module_is_the_wheel_not_the_checkout(installed: Path, tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-c",
         "import carwars_desktop.resources as r; print(r.database_dir())"],
        cwd=tmp_path, env=_environment(installed, tmp_path), capture_output=True, text=True,
        check=True)
    assert result.stdout.strip().startswith(str(installed))


def test_version_and_bad_database_exit_codes(installed: Path, tmp_path: Path) -> None:
    env = _environment(installed, tmp_path)
    version = subprocess.run([sys.executable, "-m", "carwars_desktop", "--version"], cwd=tmp_path,
                             env=env, capture_output=True, text=True, timeout=60)
    assert version.returncode == 0
    assert version.stdout.startswith("carwars-desktop ")
    bad = tmp_path / "bad.sqlite3"
    bad.write_text("not a database")
    smoke = subprocess.run([sys.executable, "-m", "carwars_desktop", "--smoke", "--db", str(bad)],
                           cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert smoke.returncode != 0
    assert "is not a Carwars Desktop database" in smoke.stderr
    assert bad.read_text() == "not a database"

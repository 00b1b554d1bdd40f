"""Find the app's data folders the same way in a checkout, a wheel and a bundle.

The repository keeps ``ui/``, ``resources/`` and ``database/`` at its top level.
A wheel ships them as ``carwars_desktop/_bundled/<name>`` (see pyproject's
``force-include``) and the PyInstaller spec copies them to the same place, so
the first lookup wins in an installed app and the second in a checkout.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path


class MissingResourceError(FileNotFoundError):
    """A data folder the app needs is not where an install puts it."""


def resource_path(name: str) -> Path:
    """The folder ``ui``, ``resources`` or ``database`` as a filesystem path."""
    bundled = Path(str(files("carwars_desktop"))) / "_bundled" / name
    if bundled.is_dir():
        return bundled
    checkout = Path(__file__).resolve().parents[1] / name
    if checkout.is_dir():
        return checkout
    raise MissingResourceError(f"{name}/ is missing: looked in {bundled} and {checkout}")


def database_dir() -> Path:
    """Alembic's script folder (env.py and versions/)."""
    return resource_path("database")


def resources_dir() -> Path:
    """Icons, style sheets and other files the GUI loads."""
    return resource_path("resources")


def read_text(relative: str) -> str:
    """A text file under ``resources/``, e.g. ``style/app.qss``."""
    return (resources_dir() / relative).read_text(encoding="utf-8")

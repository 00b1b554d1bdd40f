"""Alembic, driven from code: no ``alembic.ini``, no logging set-up, no printing.

The scripts live in ``database/`` (``carwars_desktop/_bundled/database`` once
installed); :func:`carwars_desktop.resources.database_dir` finds them.

A developer adds a migration with, for example::

    python -c "from carwars_desktop.storage.migrations import new_revision; \
new_revision('0002', 'sessions', 'sqlite:////tmp/dev.sqlite3')"
"""

from __future__ import annotations

import io
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import Connection

from carwars_desktop.resources import database_dir
from carwars_desktop.storage.errors import MigrationHeadsError


def alembic_config(
    connection: Connection | None = None,
    script_location: Path | None = None,
    url: str | None = None,
) -> Config:
    """An Alembic config built in code; env.py uses ``connection`` when given."""
    config = Config(stdout=io.StringIO())
    config.set_main_option("script_location", str(script_location or database_dir()))
    config.set_main_option("file_template", "%%(rev)s_%%(slug)s")
    if url is not None:
        config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def script_directory(script_location: Path | None = None) -> ScriptDirectory:
    return ScriptDirectory.from_config(alembic_config(script_location=script_location))


def single_head(script: ScriptDirectory | None = None) -> str:
    """The one head revision of the shipped migrations; raise if there are several or none."""
    script = script or script_directory()
    heads = script.get_heads()
    if len(heads) != 1:
        raise MigrationHeadsError(
            "This installation of Carwars Desktop is damaged: its database migrations have "
            f"{len(heads)} heads ({', '.join(sorted(heads)) or 'none'}) instead of one."
        )
    return heads[0]


def known_revisions(script: ScriptDirectory | None = None) -> frozenset[str]:
    script = script or script_directory()
    return frozenset(rev.revision for rev in script.walk_revisions())


def upgrade_to_head(connection: Connection) -> None:
    """Apply every missing migration over ``connection``, inside its transaction."""
    command.upgrade(alembic_config(connection), "head")


def new_revision(rev_id: str, message: str, dev_url: str, autogenerate: bool = True) -> None:
    """Write ``database/versions/<rev_id>_<message>.py`` (a development helper).

    With ``autogenerate`` the differences between the ORM models and the database at
    ``dev_url`` (which must be at head) are written into the new script.
    """
    command.revision(
        alembic_config(url=dev_url),
        message=message,
        rev_id=rev_id,
        autogenerate=autogenerate,
    )

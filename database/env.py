"""Alembic environment for Carwars Desktop.

The app runs migrations in code (``carwars_desktop.storage.migrations``) and hands
its own connection over in ``config.attributes["connection"]``; the migration then
runs inside that connection's transaction. Without a connection (a developer's
``new_revision``), an engine is made from the ``sqlalchemy.url`` option.

Logging is left alone on purpose (no ``fileConfig``): this runs inside the app.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

from carwars_desktop.storage.engine import create_engine_for
from carwars_desktop.storage.models import Base

config = context.config
target_metadata = Base.metadata


def _configure(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )


def run_migrations_offline() -> None:
    url = config.get_main_option("sqlalchemy.url")
    context.configure(
        url=url,
        target_metadata=target_metadata,
        literal_binds=True,
        dialect_opts={"paramstyle": "named"},
        render_as_batch=url is not None and url.startswith("sqlite"),
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _configure(connection)
        with context.begin_transaction():
            context.run_migrations()
        return
    url = config.get_main_option("sqlalchemy.url")
    if not url:
        raise RuntimeError("no connection in config.attributes and no sqlalchemy.url option")
    engine = create_engine_for(url)
    try:
        with engine.connect() as own_connection:
            _configure(own_connection)
            with context.begin_transaction():
                context.run_migrations()
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()

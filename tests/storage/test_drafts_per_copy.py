"""Drafts are per copy (issue 31 §4): two copies editing one design, on SQLite and PostgreSQL.

A copy's unsaved Workshop edits belong to it (its installation id and user): another copy
neither sees them as its own ("from last time"), nor replaces them with its edits, nor
drops them by saving. A draft made before migration 0010 (owner unknown: ``legacy``) is
every copy's until one edits it (then it is that copy's), saves or discards it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import text

from carwars_desktop.rules.mini_car_wars import MiniDesign
from carwars_desktop.storage import Database, NewDesign, open_database
from carwars_desktop.storage.engine import create_engine_for
from carwars_desktop.storage.installation import draft_owner
from carwars_desktop.storage.library import DesignConflictError
from carwars_desktop.storage.migrations import alembic_config


def _courier(name: str, variant: str = "a") -> dict[str, object]:
    return MiniDesign.stock_design("courier", variant, name=name).to_json()


@pytest.fixture
def copies(database_url: str) -> Iterator[tuple[Database, Database]]:
    """Copies A and B of the app (two engines) on one database."""
    with ExitStack() as stack:
        a = stack.enter_context(open_database(database_url))
        b = stack.enter_context(open_database(database_url))
        a.library.owner = "a0a0a0a0a0a0a0a0a0a0a0a0/ann"
        b.library.owner = "b1b1b1b1b1b1b1b1b1b1b1b1/bo"
        yield a, b


def test_neither_copys_unsaved_edits_are_touched_by_the_other(
        copies: tuple[Database, Database]) -> None:
    a, b = copies
    record = a.library.add(NewDesign("mini_car_wars", _courier("Courier")))
    a.library.set_working(record.id, _courier("Ann's edit", "b"), expected_revision=1)
    # B does not get A's draft as "from last time".
    assert b.library.get(record.id).working is None
    assert not b.library.entries(ids=[record.id])[0].unsaved
    assert b.library.all()[0].working is None
    # B's unsaved edit does not replace A's.
    b.library.set_working(record.id, _courier("Bo's edit"), expected_revision=1)
    assert a.library.get(record.id).working == _courier("Ann's edit", "b")
    assert b.library.get(record.id).working == _courier("Bo's edit")
    # B's save does not drop A's draft: A still has it, and its list says so.
    saved = b.library.save(record.id, _courier("Bo's edit"), expected_revision=1)
    assert saved.working is None and b.library.get(record.id).working is None
    assert a.library.get(record.id).working == _courier("Ann's edit", "b")
    assert a.library.entries(ids=[record.id])[0].unsaved
    assert a.library.data_size(record.id) > b.library.data_size(record.id)
    # A's next edit meets B's save (the conflict, never a silent overwrite), its draft kept.
    with pytest.raises(DesignConflictError):
        a.library.set_working(record.id, _courier("Ann again"), expected_revision=1)
    assert a.library.get(record.id).working == _courier("Ann's edit", "b")
    # A renames: every copy's draft takes the name; A discards: B is untouched.
    b.library.set_working(record.id, _courier("Bo's second", "b"), expected_revision=2)
    renamed = a.library.rename(record.id, "Highway Star")
    assert renamed.working is not None and renamed.working["name"] == "Highway Star"
    assert b.library.get(record.id).working["name"] == "Highway Star"  # type: ignore[index]
    a.library.set_working(record.id, None)
    assert a.library.get(record.id).working is None
    assert b.library.get(record.id).working is not None
    # Purged, the design takes every copy's draft with it.
    b.library.delete(record.id)
    assert b.library.purge([record.id]) == 1
    with a.engine.connect() as connection:
        assert connection.execute(text("SELECT count(*) FROM design_drafts")).scalar() == 0


def test_a_draft_from_before_0010_is_every_copys_until_one_edits_it(
        database_url: str) -> None:
    with open_database(database_url) as database:
        record = database.library.add(NewDesign("mini_car_wars", _courier("Courier")))
    engine = create_engine_for(database_url)
    try:
        with engine.begin() as connection:  # back before 0010: one shared draft a design
            command.downgrade(alembic_config(connection), "0010-1")  # to just before 0010
            connection.execute(text("UPDATE designs SET working_data = :data"),
                               {"data": json.dumps(_courier("Old draft"))})
    finally:
        engine.dispose()
    with ExitStack() as stack:
        a = stack.enter_context(open_database(database_url))  # upgraded to the head
        b = stack.enter_context(open_database(database_url))
        a.library.owner, b.library.owner = "copy-a/ann", "copy-b/bo"
        assert a.library.get(record.id).working == _courier("Old draft")
        assert b.library.get(record.id).working == _courier("Old draft")
        assert b.library.entries()[0].unsaved
        a.library.set_working(record.id, _courier("Ann took it"))
        assert a.library.get(record.id).working == _courier("Ann took it")
        assert b.library.get(record.id).working is None
        with a.engine.connect() as connection:
            assert connection.execute(text(
                "SELECT count(*) FROM designs WHERE working_data IS NOT NULL")).scalar() == 0


def test_the_default_owner_is_this_installation_and_user(tmp_path: Path) -> None:
    first = draft_owner(tmp_path / "installation-id")
    assert first == draft_owner(tmp_path / "installation-id")
    assert first != draft_owner(tmp_path / "elsewhere" / "installation-id")

"""The library service: every operation returns (and publishes) the ids it added, changed
and removed; the trash restores until it is emptied."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from carwars_desktop.library import catalog_entries, make_exchanged
from carwars_desktop.rules import find_ruleset
from carwars_desktop.services import Changes, DesignChanges, LibraryService, Services
from carwars_desktop.storage import (
    Database,
    DesignNotFoundError,
    ImportChoice,
    InvalidDesignError,
)

ME = "the Library"


def _catalog_id(library: LibraryService, name: str) -> int:
    return next(e.id for e in library.entries("mini_car_wars") if e.name == name)


def _published(heard: list[Changes]) -> list[DesignChanges]:
    return [c.designs for c in heard if c.designs]


def test_attach_installs_the_catalog_once(services: Services, database: Database) -> None:
    assert len(services.library.entries()) == len(catalog_entries())
    assert LibraryService().attach(database) == 0


def test_new_duplicate_rename_tag_save_report_their_ids(services: Services,
                                                        heard: list[Changes]) -> None:
    library = services.library
    new = library.new_design("mini_car_wars", "vehicle", initiator=ME)
    assert new.changes == DesignChanges.of(added=[new.record.id])
    again = library.new_design("mini_car_wars", "vehicle")
    assert again.record.name == f"{new.record.name} 2"  # a free name

    copy = library.duplicate(_catalog_id(library, "Courier"), initiator=ME)
    assert copy.changes.added == {copy.record.id} and not copy.record.is_catalog
    renamed = library.rename(copy.record.id, "Hammer", initiator=ME)
    assert renamed.changes == DesignChanges.of(changed=[copy.record.id])
    assert renamed.record.name == "Hammer" and renamed.record.revision == 2
    tagged = library.set_tags([copy.record.id, new.record.id], ["duel"], initiator=ME)
    assert tagged.changes == DesignChanges.of(changed=[copy.record.id, new.record.id])
    data = dict(renamed.record.data)
    working = library.set_working(copy.record.id, {**data, "name": "Hammer II"})
    assert working.changes.changed == {copy.record.id} and working.records == ()
    saved = library.save(copy.record.id, {**data, "name": "Hammer II"}, initiator=ME)
    assert saved.record.revision == 3 and saved.changes.changed == {copy.record.id}
    back = library.go_back(copy.record.id, 2)
    assert back.record.name == "Hammer" and back.changes.changed == {copy.record.id}

    assert _published(heard) == [new.changes, again.changes, copy.changes, renamed.changes,
                                 tagged.changes, working.changes, saved.changes, back.changes]
    assert [c.initiator for c in heard if c.designs][:4] == [ME, None, ME, ME]


def test_a_refusal_midway_publishes_what_was_done(services: Services,
                                                  heard: list[Changes]) -> None:
    library = services.library
    courier = _catalog_id(library, "Courier")
    with pytest.raises(DesignNotFoundError):
        library.set_tags([courier, 99999], ["smoke"])
    assert _published(heard) == [DesignChanges.of(changed=[courier])]
    assert library.get(courier).tags == ("smoke",)
    with pytest.raises(InvalidDesignError):
        library.rename(library.duplicate(courier).record.id, "   ")


def test_delete_restore_and_the_trash(services: Services, database: Database,
                                      heard: list[Changes]) -> None:
    library = services.library
    ids = [library.duplicate(_catalog_id(library, name)).record.id
           for name in ("Courier", "Killer Kart")]
    heard.clear()
    deleted = library.delete(ids, initiator=ME)
    assert deleted.changes == DesignChanges.of(removed=ids)
    assert library.trash.last == ids and library.trash.this_run == ids
    assert {e.id for e in library.entries(deleted=True)} == set(ids)
    restored = library.restore_last_deleted(initiator=ME)
    assert restored is not None and restored.changes == DesignChanges.of(added=ids)
    assert library.trash.last == [] and library.restore_last_deleted() is None
    assert library.entries(deleted=True) == []

    library.delete([ids[0]])
    library.delete([ids[1]])
    assert library.trash.last == [ids[1]]
    assert library.restore([ids[1]]).changes.added == {ids[1]}
    assert library.trash.this_run == [ids[0]]
    heard.clear()
    assert library.empty_trash(initiator=ME) == 1
    assert _published(heard) == [DesignChanges.of(removed=[ids[0]])]
    with pytest.raises(DesignNotFoundError):
        library.get(ids[0])
    assert library.get(ids[1]).deleted_at is None
    assert library.empty_trash() == 0


def test_old_leftovers_of_the_trash_go_at_start(services: Services,
                                                database: Database) -> None:
    library = services.library
    copy = library.duplicate(_catalog_id(library, "Courier")).record.id
    library.delete([copy])
    fresh = LibraryService()
    fresh.attach(database)  # deleted a moment ago: kept
    assert [e.id for e in fresh.entries(deleted=True)] == [copy]
    fresh.attach(database, now=datetime.now(UTC) + timedelta(days=2))
    assert fresh.entries(deleted=True) == []


def test_import_adds_and_replaces(services: Services, heard: list[Changes]) -> None:
    library = services.library
    mine = library.duplicate(_catalog_id(library, "Courier")).record
    design = find_ruleset("mini_car_wars").catalog()["Killer Kart"].to_json()
    incoming = make_exchanged("mini_car_wars", "vehicle", {**design, "name": mine.name})
    other = make_exchanged("mini_car_wars", "vehicle", {**design, "name": "Night"})
    heard.clear()
    result = library.import_designs([ImportChoice(incoming, replace_id=mine.id),
                                     ImportChoice(other)], initiator=ME)
    night = result.records[1].id
    assert result.changes == DesignChanges.of(added=[night], changed=[mine.id])
    assert _published(heard) == [result.changes]
    assert library.get(mine.id).revision == 2


def test_entries_by_id(services: Services) -> None:
    library = services.library
    courier = _catalog_id(library, "Courier")
    assert [e.id for e in library.entries(ids=[courier, 99999])] == [courier]
    assert library.entries(ids=[]) == []
    assert library.entries(deleted=True, ids=[courier]) == []

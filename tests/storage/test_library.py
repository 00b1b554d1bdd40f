"""The vehicle library on SQLite and PostgreSQL: designs, revisions, catalog, trash, import."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from carwars_desktop.library import (
    CatalogEntry,
    catalog_entries,
    dumps_designs,
    make_exchanged,
    read_designs,
)
from carwars_desktop.rules.autopower import Car, Deck, Icon, IconValue, PowerCard
from carwars_desktop.rules.autopower.kinds import DECK
from carwars_desktop.rules.mini_car_wars import MiniDesign, PersonKit
from carwars_desktop.storage import (
    CatalogDesignError,
    DesignNotFoundError,
    ImportChoice,
    InvalidDesignError,
    NewDesign,
    open_database,
)
from carwars_desktop.storage.library import LibraryWriteError


def _courier(name: str = "Road Warrior") -> dict[str, object]:
    return MiniDesign.stock_design("courier", "a", name=name).to_json()


def _illegal_courier(name: str = "Overloaded") -> dict[str, object]:
    design = MiniDesign.stock_design("courier", name=name, driver=PersonKit(2, 0, True))
    return design.to_json()


def test_a_design_is_kept_with_its_summary_and_first_revision(database_url: str) -> None:
    with open_database(database_url) as database:
        record = database.library.add(NewDesign("mini_car_wars", _courier(),
                                                tags=("Club", " road duel ", "club")))
    with open_database(database_url) as database:
        again = database.library.get(record.id)
    assert again == record
    assert (again.name, again.kind, again.tags) == ("Road Warrior", "vehicle",
                                                    ("club", "road duel"))
    assert (again.cost, again.class_value, again.legal, again.problem_count) == (
        12_050, 4, True, 0)
    assert again.catalog_name is None and again.deleted_at is None
    assert again.data == _courier() and again.working is None and again.revision == 1
    assert again.created_at.tzinfo is not None


def test_an_illegal_design_is_kept_as_a_draft(database_url: str) -> None:
    with open_database(database_url) as database:
        record = database.library.add(NewDesign("mini_car_wars", _illegal_courier()))
        entry = database.library.entries()[0]
    assert not record.legal and record.problem_count == 1
    assert (entry.legal, entry.problem_count, entry.unsaved) == (False, 1, False)


def test_saving_keeps_every_revision_and_going_back_adds_one(database_url: str) -> None:
    with open_database(database_url) as database:
        library = database.library
        first = library.add(NewDesign("mini_car_wars", _courier()))
        library.set_working(first.id, _illegal_courier("Road Warrior"))
        assert library.get(first.id).working == _illegal_courier("Road Warrior")
        assert library.entries()[0].unsaved
        second = library.save(first.id, _illegal_courier("Road Warrior"))
        assert (second.revision, second.legal, second.working) == (2, False, None)
        assert [r.number for r in library.revisions(first.id)] == [2, 1]
        assert library.revision(first.id, 1).data == _courier()
        back = library.go_back(first.id, 1)
        assert (back.revision, back.legal, back.data) == (3, True, _courier())
        assert [r.number for r in library.revisions(first.id)] == [3, 2, 1]
        with pytest.raises(DesignNotFoundError):
            library.revision(first.id, 9)


def test_unsaved_edits_equal_to_the_saved_design_are_no_edits(database_url: str) -> None:
    with open_database(database_url) as database:
        record = database.library.add(NewDesign("mini_car_wars", _courier()))
        database.library.set_working(record.id, _courier())
        assert database.library.get(record.id).working is None
        database.library.set_working(record.id, _courier("Other"))
        database.library.set_working(record.id, None)
        assert database.library.get(record.id).working is None


def test_rename_tags_and_duplicate(database_url: str) -> None:
    with open_database(database_url) as database:
        library = database.library
        record = library.add(NewDesign("mini_car_wars", _courier()))
        library.set_working(record.id, _illegal_courier("Road Warrior"))
        renamed = library.rename(record.id, "  Night Courier ")
        assert (renamed.name, renamed.data["name"], renamed.revision) == (
            "Night Courier", "Night Courier", 2)
        assert renamed.working is not None and renamed.working["name"] == "Night Courier"
        tagged = library.set_tags(record.id, ["Convoy", "convoy", "duel"])
        assert tagged.tags == ("convoy", "duel")
        copy = library.duplicate(record.id)
        second = library.duplicate(record.id)
        assert (copy.name, second.name) == ("Night Courier (copy)", "Night Courier (2)")
        assert copy.data["name"] == "Night Courier (copy)" and copy.tags == ("convoy", "duel")
        assert copy.revision == 1 and copy.working is None
        with pytest.raises(InvalidDesignError, match="needs a name"):
            library.rename(record.id, "   ")
        with pytest.raises(InvalidDesignError, match="control characters"):
            library.rename(record.id, "bad\x00name")


def test_the_catalog_is_installed_once_read_only_and_copyable(database_url: str) -> None:
    with open_database(database_url) as database:
        library = database.library
        assert library.install_catalog() == len(catalog_entries())
        assert library.install_catalog() == 0
        entries = library.entries()
        assert len(entries) == len(catalog_entries())
        assert {e.ruleset_id for e in entries} == {"mini_car_wars", "battlecars", "autopower"}
        courier = next(e for e in entries if e.catalog_name == "Courier (b)")
        assert (courier.cost, courier.legal) == (23_200, True)
        for change in (lambda: library.save(courier.id, _courier()),
                       lambda: library.rename(courier.id, "Mine"),
                       lambda: library.delete(courier.id),
                       lambda: library.set_working(courier.id, _courier())):
            with pytest.raises(CatalogDesignError, match="copy it"):
                change()
        assert library.set_tags(courier.id, ["laser"]).tags == ("laser",)
        mine = library.duplicate(courier.id)
        # Issue 20: a copy of a catalog design is named apart from it (no two identical rows).
        assert (mine.name, mine.catalog_name, mine.tags) == ("Courier (b) (copy)", None,
                                                             ("laser",))
        assert library.duplicate(courier.id).name == "Courier (b) (2)"
        assert library.own_names("mini_car_wars") == {"Courier (b) (copy)": mine.id,
                                                       "Courier (b) (2)": mine.id + 1}
        names = [e.name for e in library.entries("mini_car_wars")]
        assert len(names) == len(set(names))


def test_a_changed_catalog_entry_is_updated_and_keeps_its_tags(database_url: str) -> None:
    card = Car("Longshot", 3, 4, 4, 2, "old notes")
    with open_database(database_url) as database:
        library = database.library
        library.install_catalog([CatalogEntry("autopower", "vehicle", "Longshot", card.to_json())])
        entry = library.entries()[0]
        library.set_tags(entry.id, ["favourite"])
        newer = replace(card, notes="new notes")
        assert library.install_catalog(
            [CatalogEntry("autopower", "vehicle", "Longshot", newer.to_json())]) == 0
        record = library.get(entry.id)
    assert record.data["notes"] == "new notes" and record.tags == ("favourite",)
    assert record.revision == 2


def test_delete_restore_and_purge(database_url: str) -> None:
    with open_database(database_url) as database:
        library = database.library
        kept = library.add(NewDesign("mini_car_wars", _courier("Kept")))
        gone = library.add(NewDesign("mini_car_wars", _courier("Gone")))
        back = library.add(NewDesign("mini_car_wars", _courier("Back")))
        for record in (gone, back):
            assert library.delete(record.id).deleted_at is not None
        assert [e.name for e in library.entries()] == ["Kept"]
        assert sorted(e.name for e in library.entries(deleted=True)) == ["Back", "Gone"]
        assert [r.name for r in library.all()] == ["Kept"]
        assert library.restore(back.id).deleted_at is None
        with pytest.raises(DesignNotFoundError, match="restore it first"):
            library.save(gone.id, _courier("Gone"))
        assert library.purge([kept.id]) == 0
        assert library.purge(deleted_before=datetime.now(UTC) - timedelta(days=1)) == 0
        assert library.purge([gone.id]) == 1
        assert library.purge() == 0
        assert sorted(r.name for r in library.all()) == ["Back", "Kept"]
        with pytest.raises(DesignNotFoundError):
            library.get(gone.id)


def test_all_lists_vehicles_for_the_table_and_decks_on_request(database_url: str) -> None:
    deck = Deck("Club deck", (PowerCard("Energy 5", (IconValue(Icon.ENERGY, 5),)),) * 3)
    with open_database(database_url) as database:
        library = database.library
        library.add(NewDesign("autopower", Car("Zoom", 5, 5, 5, 2).to_json()))
        library.add(NewDesign("autopower", deck.to_json(), kind=DECK))
        library.add(NewDesign("mini_car_wars", _courier()))
        assert [r.name for r in library.all()] == ["Road Warrior", "Zoom"]
        assert [r.name for r in library.all("autopower")] == ["Zoom"]
        assert [r.name for r in library.all("autopower", kind=None)] == ["Club deck", "Zoom"]
        record = library.all("autopower", kind=DECK)[0]
    assert (record.legal, record.problem_count, record.cost) == (False, 1, None)
    assert Deck.from_json(record.data) == deck


def test_a_design_the_engine_refuses_is_not_kept(database_url: str) -> None:
    with open_database(database_url) as database:
        library = database.library
        with pytest.raises(InvalidDesignError, match="not a valid Mini Car Wars vehicle"):
            library.add(NewDesign("mini_car_wars", {"name": "x"}))
        with pytest.raises(InvalidDesignError, match="no design kind"):
            library.add(NewDesign("battlecars", {"name": "x"}, kind=DECK))
        with pytest.raises(InvalidDesignError, match="needs a name"):
            library.add(NewDesign("mini_car_wars", _courier(" ")))
        assert library.count() == 0


def test_import_adds_and_replaces_in_one_transaction(database_url: str) -> None:
    with open_database(database_url) as database:
        library = database.library
        existing = library.add(NewDesign("mini_car_wars", _courier("Clash")))
        clash = make_exchanged("mini_car_wars", "vehicle", _illegal_courier("Clash"), ["new"])
        fresh = make_exchanged("autopower", "vehicle", Car("Fresh", 4, 4, 4).to_json())
        bad = replace(fresh, data={"name": "broken"})
        with pytest.raises(InvalidDesignError):
            library.import_designs([ImportChoice(fresh), ImportChoice(bad)])
        assert library.count() == 1
        records = library.import_designs([ImportChoice(clash, replace_id=existing.id),
                                          ImportChoice(clash, name="Clash (2)"),
                                          ImportChoice(fresh)])
        assert [(r.name, r.revision) for r in records] == [("Clash", 2), ("Clash (2)", 1),
                                                           ("Fresh", 1)]
        assert records[0].id == existing.id and records[0].tags == ("new",)
        assert not records[0].legal
        assert library.count() == 3


def test_export_then_import_gives_equal_designs(database_url: str) -> None:
    with open_database(database_url) as database:
        library = database.library
        library.install_catalog()
        ids = [e.id for e in library.entries()]
        text = dumps_designs(library.exported(ids))
    with open_database(database_url) as other:
        designs = read_designs(text)
        records = other.library.import_designs([ImportChoice(d) for d in designs])
        assert [(r.ruleset_id, r.name, r.data) for r in records] == [
            (d.ruleset_id, d.name, dict(d.data)) for d in designs]
        assert other.library.exported([r.id for r in records]) == list(designs)


def test_unicode_names_survive_both_databases(database_url: str) -> None:
    name = "Fünf Ösen 🚗 — «Courier»"
    with open_database(database_url) as database:
        record = database.library.add(NewDesign("mini_car_wars", _courier(name)))
        assert database.library.get(record.id).name == name
        assert database.library.own_names("mini_car_wars") == {name: record.id}


def test_a_rename_to_a_name_another_design_has_is_refused(database_url: str) -> None:
    from carwars_desktop.storage import DesignNameTakenError

    with open_database(database_url) as database:
        library = database.library
        library.install_catalog()
        mine = library.add(NewDesign("mini_car_wars", _courier("Night Courier")))
        other = library.add(NewDesign("mini_car_wars", _courier("Day Courier")))
        library.add(NewDesign("mini_car_wars", _courier("Day Courier (2)")))
        for taken, free in (("Day Courier", "Day Courier (3)"), ("day courier", "day courier (3)"),
                            ("Courier", "Courier (2)")):  # another's, case-blind, the catalog's
            with pytest.raises(DesignNameTakenError) as refused:
                library.rename(mine.id, taken)
            assert (refused.value.name, refused.value.free) == (taken, free)
            assert str(refused.value) == (f"another design is already called “{taken}”: "
                                          f"choose another name, such as “{free}”")
        after = library.get(mine.id)
        assert (after.name, after.revision) == ("Night Courier", 1)  # nothing changed
        assert library.rename(mine.id, "NIGHT COURIER").name == "NIGHT COURIER"  # its own
        library.delete(other.id)
        assert library.rename(mine.id, "Day Courier").name == "Day Courier"  # in the trash
        car = library.add(NewDesign("autopower", Car("Zoom", 5, 5, 5, 2).to_json()))
        assert library.rename(car.id, "Day Courier").name == "Day Courier"  # another ruleset


def test_a_duplicate_takes_a_name_no_design_has(database_url: str) -> None:
    with open_database(database_url) as database:
        library = database.library
        library.install_catalog()
        courier = next(r for r in library.all("mini_car_wars") if r.name == "Courier")
        library.add(NewDesign("mini_car_wars", _courier("courier (copy)")))
        copy = library.duplicate(courier.id)
        assert copy.name == "Courier (2)"  # "courier (copy)" is taken, whatever its case
        names = [r.name.casefold() for r in library.all("mini_car_wars")]
        assert len(names) == len(set(names))


def test_two_writers_racing_never_share_a_name(database_url: str) -> None:
    """Two copies of the app duplicate one design and rename designs to one name at once:
    every name stays unique, and the loser of a rename is told."""
    import threading

    from carwars_desktop.storage import DesignNameTakenError

    rounds = 12
    with open_database(database_url) as setup:
        source = setup.library.add(NewDesign("mini_car_wars", _courier("Racer"))).id
        pairs = [(setup.library.add(NewDesign("mini_car_wars", _courier(f"A{n}"))).id,
                  setup.library.add(NewDesign("mini_car_wars", _courier(f"B{n}"))).id)
                 for n in range(rounds)]
    barrier = threading.Barrier(2)
    outcomes: dict[int, list[str]] = {0: [], 1: []}
    errors: list[BaseException] = []

    def retried(write: Callable[[], object]) -> None:
        # The other writer held the lock past the short busy timeout (a loaded machine):
        # nothing was changed, and the GM's Retry runs the same write again, as here.
        for _ in range(50):
            try:
                write()
                return
            except LibraryWriteError as error:
                if "locked" not in str(error):
                    raise
        write()

    def writer(which: int) -> None:
        try:
            with open_database(database_url) as database:
                for n, pair in enumerate(pairs):
                    barrier.wait(timeout=60)
                    retried(lambda: database.library.duplicate(source))
                    barrier.wait(timeout=60)
                    try:
                        name, design = f"Winner {n}", pair[which]
                        retried(lambda: database.library.rename(design, name))  # noqa: B023
                        outcomes[which].append("renamed")
                    except DesignNameTakenError as refused:
                        assert refused.free == f"Winner {n} (2)"
                        outcomes[which].append("refused")
        except BaseException as error:  # noqa: BLE001 (reported below)
            errors.append(error)
            barrier.abort()

    threads = [threading.Thread(target=writer, args=(n,)) for n in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert errors == []
    with open_database(database_url) as database:
        names = [r.name.casefold() for r in database.library.all("mini_car_wars")]
    assert len(names) == len(set(names)), sorted(n for n in names if names.count(n) > 1)
    assert sum(n.startswith("racer") for n in names) == 1 + 2 * rounds
    for n in range(rounds):  # one rename won each round, the other was told
        assert sorted([outcomes[0][n], outcomes[1][n]]) == ["refused", "renamed"]

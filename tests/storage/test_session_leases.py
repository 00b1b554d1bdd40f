"""One writer per session: leases, and compare-and-append on the session's version."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import update

from carwars_desktop.session import Event, EventKind, SheetUpdate, StaleSessionError, VehicleInPlay
from carwars_desktop.storage import Database, NewVehicle, open_database
from carwars_desktop.storage.game_sessions import LEASE_TIMEOUT, SessionHeldError
from carwars_desktop.storage.models import GameSessionRow


def _session(database: Database) -> int:
    return database.game_sessions.create(
        "mini_car_wars", "Club night", "",
        [NewVehicle(VehicleInPlay("v1", "Ace", "Ann", {}), {"marks": []})], {"turn": 1})


def _mark(before: list[str], mark: str) -> tuple[Event, dict[str, dict[str, list[str]]]]:
    after = {"marks": [*before, mark]}
    return (Event(EventKind.MARK, mark, updates=(SheetUpdate("v1", {"marks": before}, after),)),
            {"v1": after})


def test_a_stale_writer_never_overwrites_a_newer_sheet(database_url: str) -> None:
    with open_database(database_url) as database:
        session_id = _session(database)
        sessions = database.game_sessions
        first, second = sessions.events(session_id), sessions.events(session_id)
        first.append(*_mark([], "A-1"), {"turn": 1})
        with pytest.raises(StaleSessionError) as caught:  # read at version 0, now 1
            second.append(*_mark([], "B-1"), {"turn": 1})
        assert not caught.value.taken_over and "reloaded" in str(caught.value)
        loaded = sessions.load(session_id)
        assert loaded.sheets["v1"] == {"marks": ["A-1"]} and loaded.info.version == 1
        assert sessions.events(session_id).count() == 1
        reloaded = sessions.events(session_id, version=loaded.info.version)
        reloaded.append(*_mark(["A-1"], "B-1"), {"turn": 1})
        assert sessions.load(session_id).sheets["v1"] == {"marks": ["A-1", "B-1"]}


def test_a_held_session_is_refused_then_taken_over(database_url: str) -> None:
    with open_database(database_url) as database:
        session_id = _session(database)
        sessions = database.game_sessions
        lease = sessions.acquire(session_id, holder=("gm", "CLUB-PC"))
        store = sessions.events(session_id, lease)
        store.append(*_mark([], "A-1"), {"turn": 1})
        with pytest.raises(SessionHeldError) as held:
            sessions.acquire(session_id, holder=("gm2", "LAPTOP-2"))
        assert held.value.lease.describe().startswith("open on CLUB-PC by gm since ")
        info = sessions.last_running()
        assert info is not None and info.lease is not None and info.lease.host == "CLUB-PC"
        with pytest.raises(StaleSessionError):  # no lease: it cannot write a held session
            sessions.events(session_id).append(*_mark(["A-1"], "X"), {"turn": 1})
        theirs = sessions.acquire(session_id, take_over=True, holder=("gm2", "LAPTOP-2"))
        with pytest.raises(StaleSessionError) as caught:
            store.append(*_mark(["A-1"], "A-2"), {"turn": 1})
        assert caught.value.taken_over and "LAPTOP-2" in str(caught.value)
        assert not sessions.renew(lease) and sessions.renew(theirs)
        sessions.events(session_id, theirs).append(*_mark(["A-1"], "B-1"), {"turn": 1})
        assert sessions.load(session_id).sheets["v1"] == {"marks": ["A-1", "B-1"]}
        sessions.release(theirs)
        assert sessions.lease(session_id) is None


def test_an_abandoned_lease_is_taken_without_asking(database_url: str) -> None:
    with open_database(database_url) as database:
        session_id = _session(database)
        sessions = database.game_sessions
        lease = sessions.acquire(session_id, holder=("gm", "CLUB-PC"))
        with database.sessions.begin() as session:  # its copy stopped renewing it
            row = session.get(GameSessionRow, session_id)
            assert row is not None and row.lease_renewed_at is not None
            session.execute(update(GameSessionRow).where(GameSessionRow.id == session_id)
                            .values(lease_renewed_at=row.lease_renewed_at - LEASE_TIMEOUT
                                    - timedelta(seconds=1)))
        assert sessions.lease(session_id) is None
        mine = sessions.acquire(session_id, holder=("gm2", "LAPTOP-2"))
        assert mine.token != lease.token


def test_finishing_needs_the_lease_and_ends_it(database_url: str) -> None:
    with open_database(database_url) as database:
        session_id = _session(database)
        sessions = database.game_sessions
        lease = sessions.acquire(session_id)
        sessions.acquire(session_id, take_over=True, holder=("gm2", "LAPTOP-2"))
        with pytest.raises(StaleSessionError):
            sessions.finish(session_id, lease)
        assert sessions.load(session_id).info.running
        sessions.finish(session_id)
        info = sessions.load(session_id).info
        assert not info.running and info.lease is None

"""One writer per session: leases, and compare-and-append on the session's version."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import event, update
from sqlalchemy.exc import OperationalError

from carwars_desktop.session import Event, EventKind, SheetUpdate, StaleSessionError, VehicleInPlay
from carwars_desktop.storage import Database, NewVehicle, game_sessions, open_database
from carwars_desktop.storage.errors import WriteFailedError
from carwars_desktop.storage.game_sessions import LEASE_TIMEOUT, SessionHeldError
from carwars_desktop.storage.installation import installation_id
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


def test_taking_a_session_looks_again_when_its_lease_seemed_let_go_meanwhile(
        database_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The update found the session held; the row read after it showed no lease (its
    holder let go in between: two copies at once on PostgreSQL). That is not "not
    running": the copy tries again, and is told who holds it if someone still does."""
    with open_database(database_url) as database:
        session_id = _session(database)
        sessions = database.game_sessions
        sessions.acquire(session_id, holder=("gm", "CLUB-PC"))
        real = game_sessions._lease_info
        looks: list[int] = []

        def let_go_once(row: GameSessionRow, now: Any) -> Any:
            looks.append(1)
            return None if len(looks) == 1 else real(row, now)

        monkeypatch.setattr(game_sessions, "_lease_info", let_go_once)
        with pytest.raises(SessionHeldError) as held:
            sessions.acquire(session_id, holder=("gm2", "LAPTOP-2"))
        assert held.value.lease.host == "CLUB-PC" and len(looks) == 2


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


# --- an own lease is resumed (issue 15, the club laptop that closed offline) ------------
def _set_token(database: Database, session_id: int, token: str) -> None:
    with database.sessions.begin() as session:
        session.execute(update(GameSessionRow).where(GameSessionRow.id == session_id)
                        .values(lease_token=token))


def _ended_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_an_own_lease_let_go_without_writing_it_is_resumed(database_url: str) -> None:
    # The copy closed while its release could not be written (the club server was away):
    # the lease is still recorded, renewed a moment ago, but nobody plays it any more.
    with open_database(database_url) as database:
        session_id = _session(database)
        sessions = database.game_sessions
        lease = sessions.acquire(session_id)
        assert lease.token.startswith(installation_id() + ".") and len(lease.token) <= 64
        assert sessions.lease(session_id) is not None  # held while this copy plays it
        with pytest.raises(SessionHeldError):  # another window of this process is refused
            sessions.acquire(session_id)
        _release_refused(database, lease)
        assert sessions.load(session_id).info.version == 0  # nothing was written
        info = sessions.last_running()
        assert info is not None and info.lease is None  # its own: free to resume
        resumed = sessions.acquire(session_id)
        assert resumed.token != lease.token and sessions.renew(resumed)
        assert not sessions.renew(lease)
        store = sessions.events(session_id, resumed)
        store.append(*_mark([], "A-1"), {"turn": 1})
        assert sessions.load(session_id).sheets["v1"] == {"marks": ["A-1"]}


def _release_refused(database: Database, lease: Any) -> None:
    """``release`` as it goes when the server is away: the write raises, nothing changes."""
    def refuse(*_args: object, **_kwargs: object) -> None:
        raise OperationalError("UPDATE game_sessions", {}, Exception("server closed"))

    listener = (database.engine, "before_cursor_execute", refuse)
    event.listen(*listener)
    try:
        with pytest.raises(WriteFailedError):
            database.game_sessions.release(lease)
    finally:
        event.remove(*listener)
    with database.sessions() as session:
        row = session.get(GameSessionRow, lease.session_id)
        assert row is not None and row.lease_token == lease.token  # still recorded


def test_an_own_lease_whose_process_ended_is_resumed(database_url: str) -> None:
    with open_database(database_url) as database:
        session_id = _session(database)
        sessions = database.game_sessions
        sessions.acquire(session_id)
        _set_token(database, session_id, f"{installation_id()}.{'0' * 24}-{_ended_pid()}")
        assert sessions.lease(session_id) is None
        sessions.acquire(session_id)


def test_an_own_lease_whose_process_runs_is_refused(database_url: str) -> None:
    # Two copies of the app on one laptop: the second never resumes the first's game.
    with open_database(database_url) as database, \
            subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"]) as other:
        try:
            session_id = _session(database)
            sessions = database.game_sessions
            sessions.acquire(session_id)
            _set_token(database, session_id, f"{installation_id()}.{'0' * 24}-{other.pid}")
            assert sessions.lease(session_id) is not None
            with pytest.raises(SessionHeldError):
                sessions.acquire(session_id)
        finally:
            other.kill()


def test_another_installations_lease_is_never_resumed(database_url: str) -> None:
    # Another laptop with the same machine name: its process ids mean nothing here.
    with open_database(database_url) as database:
        session_id = _session(database)
        sessions = database.game_sessions
        sessions.acquire(session_id)
        _set_token(database, session_id, f"{'f' * 24}.{'0' * 24}-{_ended_pid()}")
        assert sessions.lease(session_id) is not None
        with pytest.raises(SessionHeldError):
            sessions.acquire(session_id)
        _set_token(database, session_id, f"{'f' * 24}.{'0' * 24}-{os.getpid()}")
        with pytest.raises(SessionHeldError):
            sessions.acquire(session_id)


def test_an_own_lease_whose_process_id_went_to_another_process_is_resumed(
        database_url: str) -> None:
    # After a reboot the laptop's new processes reuse ids: a running process with the
    # lease's id but another start time (Linux: /proc) is not the copy that took it.
    with open_database(database_url) as database, \
            subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"]) as other:
        try:
            session_id = _session(database)
            sessions = database.game_sessions
            lease = sessions.acquire(session_id)
            assert lease.token.count("-") == 2 and len(lease.token) <= 64
            _set_token(database, session_id, f"{installation_id()}.{'0' * 16}-{other.pid}-1")
            assert sessions.lease(session_id) is None  # that id now runs something else
            sessions.acquire(session_id)
            started = lease.token.rpartition("-")[2]
            _set_token(database, session_id, f"{installation_id()}.{'0' * 16}-{os.getpid()}"
                                             f"-{started}")
            assert sessions.lease(session_id) is None  # this process, which let it go
        finally:
            other.kill()

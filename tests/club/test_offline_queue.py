"""The club server goes away mid-session: entries wait on the laptop, in order, then land."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from carwars_desktop.session import Event, EventKind, SheetUpdate, VehicleInPlay
from carwars_desktop.storage import NewVehicle
from carwars_desktop.storage.club import ClubConnection, is_connection_lost, open_club_database
from carwars_desktop.storage.offline_queue import OfflineQueue, QueuedEventStore, QueueState

CLOCK = {"turn": 1, "phase": 0, "phases": ["phase 1"], "word": "turn"}


def _mark(n: int, who: str = "Courier") -> Event:
    return Event(EventKind.MARK, f"{who}: hit {n}", ("step",),
                 (SheetUpdate("v1", {"hits": n - 1}, {"hits": n}),))


def _session(club: ClubConnection, password: str) -> int:
    with open_club_database(club, password) as database:
        return database.game_sessions.create(
            "mini_car_wars", "Club night", "Road Duel",
            [NewVehicle(VehicleInPlay("v1", "Courier", "Ann", {}), {"hits": 0})], CLOCK)


def _server_events(club: ClubConnection, password: str, session_id: int) -> list[Any]:
    with open_club_database(club, password) as database:
        events = database.game_sessions.events(session_id)
        loaded = database.game_sessions.load(session_id)
        return [[(e.seq, e.event.summary, e.undone) for e in events.page(0, 100)],
                loaded.sheets["v1"]]


def test_three_marks_made_while_the_server_is_down_land_in_order(
        club: ClubConnection, club_password: str, club_server: Any, tmp_path: Path) -> None:
    session_id = _session(club, club_password)
    queue_path = tmp_path / "offline-queue.sqlite3"
    states: list[QueueState] = []
    database = open_club_database(club, club_password)
    try:
        store = QueuedEventStore(database.game_sessions.events(session_id),
                                 OfflineQueue(queue_path), club.key, is_connection_lost,
                                 states.append)
        assert store.append(_mark(1), {"v1": {"hits": 1}}, CLOCK).seq == 1  # online
        assert not store.offline
        club_server.stop()
        shown = [store.append(_mark(n), {"v1": {"hits": n}}, CLOCK) for n in (2, 3, 4)]
        assert [s.seq for s in shown] == [2, 3, 4]
        assert store.offline and states[-1] == QueueState(True, 3)
        assert OfflineQueue(queue_path).count(club.key) == 3  # on the laptop's disk
        last = store.last_active()
        assert last is not None and last.event.summary == "Courier: hit 4"
        assert store.count() == 4 and store.page(3, 1)[0].event.summary == "Courier: hit 4"
        assert store.replay().still_offline
        club_server.start()
        result = store.replay()
        assert (result.sent, result.pending, result.conflict) == (3, 0, None)
        assert not store.offline and states[-1] == QueueState(False, 0)
        assert OfflineQueue(queue_path).count() == 0
        assert store.append(_mark(5), {"v1": {"hits": 5}}, CLOCK).seq == 5  # online again
    finally:
        club_server.start_if_stopped()
        database.close()
    events, sheet = _server_events(club, club_password, session_id)
    assert events == [(n, f"Courier: hit {n}", False) for n in (1, 2, 3, 4, 5)]
    assert sheet == {"hits": 5}


def test_undo_while_offline_is_queued_too(club: ClubConnection, club_password: str,
                                          club_server: Any, tmp_path: Path) -> None:
    session_id = _session(club, club_password)
    with open_club_database(club, club_password) as database:
        store = QueuedEventStore(database.game_sessions.events(session_id),
                                 OfflineQueue(tmp_path / "q.sqlite3"), club.key,
                                 is_connection_lost)
        store.append(_mark(1), {"v1": {"hits": 1}}, CLOCK)
        club_server.stop()
        try:
            store.append(_mark(2), {"v1": {"hits": 2}}, CLOCK)
            store.mark_undone(2, {"v1": {"hits": 1}}, CLOCK)
            first = store.first_undone()
            assert first is not None and first.seq == 2
            last = store.last_active()
            assert last is not None and last.seq == 1
            # A new entry after the undo: the undone mark stays in the history (#28 §1).
            stored = store.append(_mark(7), {"v1": {"hits": 7}}, CLOCK)
            assert stored.seq == 3 and store.first_undone() is None
            assert [(e.seq, e.undone, e.abandoned) for e in store.page(0, 10)] == [
                (1, False, False), (2, True, True), (3, False, False)]
        finally:
            club_server.start()
        assert store.replay().sent == 3
    events, sheet = _server_events(club, club_password, session_id)
    assert events == [(1, "Courier: hit 1", False), (2, "Courier: hit 2", True),
                      (3, "Courier: hit 7", False)]
    assert sheet == {"hits": 7}


def test_a_write_from_another_client_in_between_is_reported_not_overwritten(
        club: ClubConnection, club_password: str, club_server: Any, tmp_path: Path) -> None:
    session_id = _session(club, club_password)
    queue_path = tmp_path / "offline-queue.sqlite3"
    database = open_club_database(club, club_password)
    try:
        store = QueuedEventStore(database.game_sessions.events(session_id),
                                 OfflineQueue(queue_path), club.key, is_connection_lost)
        store.append(_mark(1), {"v1": {"hits": 1}}, CLOCK)
        club_server.stop()
        for n in (2, 3):
            store.append(_mark(n), {"v1": {"hits": n}}, CLOCK)
        club_server.start()
        with open_club_database(club, club_password) as other:  # the other GM's laptop
            other.game_sessions.events(session_id).append(
                _mark(9, "Kart"), {"v1": {"hits": 9}}, CLOCK)
        result = store.replay()
        assert result.sent == 0 and result.pending == 2
        assert result.conflict is not None
        assert "Another client wrote to this session" in result.conflict
        assert "#2 Kart: hit 9" in result.conflict and "2 queued entries" in result.conflict
        assert store.state().conflict == result.conflict
        assert store.replay().conflict is not None  # retrying never writes over theirs
        events, sheet = _server_events(club, club_password, session_id)
        assert events == [(1, "Courier: hit 1", False), (2, "Kart: hit 9", False)]
        assert sheet == {"hits": 9}
        assert OfflineQueue(queue_path).count(club.key) == 2
        assert store.set_aside() == 2
        assert not store.offline and OfflineQueue(queue_path).count() == 0
    finally:
        club_server.start_if_stopped()
        database.close()


def test_the_queue_outlives_the_app(club: ClubConnection, club_password: str,
                                    club_server: Any, tmp_path: Path) -> None:
    """Entries queued, the app closed while offline: the next start sends them."""
    session_id = _session(club, club_password)
    queue_path = tmp_path / "offline-queue.sqlite3"
    with open_club_database(club, club_password) as database:
        store = QueuedEventStore(database.game_sessions.events(session_id),
                                 OfflineQueue(queue_path), club.key, is_connection_lost)
        store.append(_mark(1), {"v1": {"hits": 1}}, CLOCK)
        club_server.stop()
        try:
            store.append(_mark(2), {"v1": {"hits": 2}}, CLOCK)
        finally:
            club_server.start()
    with open_club_database(club, club_password) as database:
        again = QueuedEventStore(database.game_sessions.events(session_id),
                                 OfflineQueue(queue_path), club.key, is_connection_lost)
        assert again.offline and again.state().pending == 1
        assert again.replay().sent == 1
    events, _ = _server_events(club, club_password, session_id)
    assert [e[1] for e in events] == ["Courier: hit 1", "Courier: hit 2"]


def test_a_replayed_event_keeps_the_time_it_was_made_at_the_table(
        club: ClubConnection, club_password: str, club_server: Any, tmp_path: Path) -> None:
    """#31 §4: the server records when the GM made the entry, not when the queue replayed it."""
    session_id = _session(club, club_password)
    queue_path = tmp_path / "offline-queue.sqlite3"
    made_at = datetime(2026, 11, 20, 20, 15, 30, 123456, tzinfo=UTC)
    with open_club_database(club, club_password) as database:
        store = QueuedEventStore(database.game_sessions.events(session_id),
                                 OfflineQueue(queue_path), club.key, is_connection_lost)
        store.append(_mark(1), {"v1": {"hits": 1}}, CLOCK)
        club_server.stop()
        try:
            store.append(_mark(2), {"v1": {"hits": 2}}, CLOCK)
        finally:
            club_server.start()
        # The entry was made an hour before the server came back.
        with sqlite3.connect(queue_path) as raw:
            assert raw.execute("UPDATE entries SET created_at = ?",
                               (made_at.isoformat(),)).rowcount == 1
        store = QueuedEventStore(database.game_sessions.events(session_id),
                                 OfflineQueue(queue_path), club.key, is_connection_lost)
        assert store.replay().sent == 1
    with open_club_database(club, club_password) as database:
        [_, stored] = database.game_sessions.events(session_id).page(0, 10)
    assert stored.event.summary == "Courier: hit 2"
    assert stored.created_at == made_at


def test_a_roll_applied_offline_is_settled_with_its_event_when_it_is_sent(
        club: ClubConnection, club_password: str, club_server: Any, tmp_path: Path) -> None:
    """Issue 29 §3: online, the event and its roll-log line settled are one transaction on
    the server; offline, the roll waits in the queue with its event and is written with it
    when the queue is replayed, even after a restart read its line as discarded."""
    from carwars_desktop.session import RollLine, RollRecord

    session_id = _session(club, club_password)
    queue_path = tmp_path / "offline-queue.sqlite3"
    line = RollLine("mini_car_wars", "mini.fire", {"dice": [], "steps": []}, "hit", True,
                    "5/6")
    database = open_club_database(club, club_password)
    try:
        sessions = database.game_sessions
        store = QueuedEventStore(sessions.events(session_id), OfflineQueue(queue_path),
                                 club.key, is_connection_lost)
        online = sessions.log_resolution(session_id, "mini_car_wars", "mini.fire", {}, "hit",
                                         True, "5/6", applied=False, pending=True)
        stored = store.append(_mark(1), {"v1": {"hits": 1}}, CLOCK,
                              roll=RollRecord(line, online))
        assert stored.roll_kept and stored.roll_log_id == online
        assert [r.state for r in sessions.roll_log(session_id)] == ["applied"]
        offline = sessions.log_resolution(session_id, "mini_car_wars", "mini.fire", {}, "hit",
                                          True, "5/6", applied=False, pending=True)
        club_server.stop()
        stored = store.append(_mark(2), {"v1": {"hits": 2}}, CLOCK,
                              roll=RollRecord(line, offline, parts=(line,)))
        assert stored.roll_kept and store.offline
        [entry] = OfflineQueue(queue_path).entries(club.key, session_id)
        assert entry.roll == RollRecord(line, offline, parts=(line,))
    finally:
        club_server.start_if_stopped()
        database.close()
    # The laptop restarts: the shown line reads as discarded, then the queue is sent.
    database = open_club_database(club, club_password)
    try:
        sessions = database.game_sessions
        assert sessions.settle_pending(session_id) == 1
        store = QueuedEventStore(sessions.events(session_id), OfflineQueue(queue_path),
                                 club.key, is_connection_lost)
        assert store.replay().sent == 1
        assert [(r.state, r.note) for r in sessions.roll_log(session_id)] == [
            ("applied", ""), ("applied", ""), ("applied", "")]
    finally:
        database.close()


def test_a_queue_file_of_the_previous_version_gains_the_roll_column(tmp_path: Path) -> None:
    path = tmp_path / "offline-queue.sqlite3"
    with sqlite3.connect(path) as old:
        old.execute("CREATE TABLE entries (id INTEGER PRIMARY KEY AUTOINCREMENT, target TEXT"
                    " NOT NULL, session_id INTEGER NOT NULL, op TEXT NOT NULL, seq INTEGER NOT"
                    " NULL, expected_last INTEGER NOT NULL, body TEXT, sheets TEXT NOT NULL,"
                    " clock TEXT NOT NULL, created_at TEXT NOT NULL, state TEXT NOT NULL"
                    " DEFAULT 'queued', conflict TEXT)")
        old.execute("INSERT INTO entries (target, session_id, op, seq, expected_last, body,"
                    " sheets, clock, created_at) VALUES ('club', 1, 'append', 1, 0, ?, '{}',"
                    " ?, ?)", (json.dumps(_mark(1).to_json()), json.dumps(CLOCK),
                               datetime(2026, 12, 1, tzinfo=UTC).isoformat()))
    old.close()
    [entry] = OfflineQueue(path).entries("club", 1)
    assert entry.roll is None and entry.event is not None

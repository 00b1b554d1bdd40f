"""Issue 31: the queued entries after a conflict are listed, applied again on top, or dropped.

On SQLite and PostgreSQL: "the server" is a database two clients write; the laptop's one
loses it (its store raises a dropped connection) while the other appends.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from carwars_desktop.rules.builtin import MINI_CAR_WARS
from carwars_desktop.session import Event, EventKind, SheetUpdate, VehicleInPlay
from carwars_desktop.storage import Database, NewVehicle, open_database
from carwars_desktop.storage.offline_queue import (
    CANNOT_GO_ON_TOP,
    OfflineQueue,
    QueuedEventStore,
    QueueEntryError,
    entry_words,
)

CLOCK = {"turn": 1, "phase": 0, "phases": ["phase 1"], "word": "turn"}
START = {"hits": 0, "armor": {"left": 0, "front": 0}}


class LostError(ConnectionError):
    """The laptop's connection to the server dropped."""


class Away:
    """The laptop's view of the server's events: every call fails while ``down``."""

    def __init__(self, events: Any) -> None:
        self.events = events
        self.session_id = events.session_id
        self.down = False

    def __getattr__(self, name: str) -> Any:
        found = getattr(self.events, name)
        if not callable(found):
            return found

        def call(*args: Any, **kwargs: Any) -> Any:
            if self.down:
                raise LostError("the server is not answering")
            return found(*args, **kwargs)

        return call


def mark(summary: str, before: dict[str, Any], after: dict[str, Any]) -> Event:
    return Event(EventKind.MARK, summary, ("step",), (SheetUpdate("v1", before, after),))


@pytest.fixture
def database(database_url: str) -> Iterator[Database]:
    database = open_database(database_url)
    yield database
    database.close()


class Table:
    """One session on the server; the laptop's queued store on it; the other client."""

    def __init__(self, database: Database, queue_path: Path, leased: bool = False) -> None:
        self.database = database
        self.session_id = database.game_sessions.create(
            MINI_CAR_WARS.id, "Club night", "Road Duel",
            [NewVehicle(VehicleInPlay("v1", "Courier", "Ann", {}), START)], CLOCK)
        self.lease = database.game_sessions.acquire(self.session_id) if leased else None
        self.server = Away(database.game_sessions.events(self.session_id, self.lease))
        self.queue = OfflineQueue(queue_path)
        self.store = QueuedEventStore(self.server, self.queue, "club", lambda e: isinstance(
            e, LostError))  # type: ignore[arg-type]

    def conflict(self, take_over: bool = False) -> Any:
        """The laptop marks the left armour and a hit while away; the other client marks
        the front armour meanwhile (``take_over``: taking the session over, its lease
        returned); the laptop comes back."""
        one = {"hits": 1, "armor": {"left": 0, "front": 0}}
        self.store.append(mark("Courier: hit 1", START, one), {"v1": one}, CLOCK)
        self.server.down = True
        left = {"hits": 1, "armor": {"left": 2, "front": 0}}
        self.store.append(mark("Courier: left armour 2", one, left), {"v1": left}, CLOCK)
        two = {"hits": 2, "armor": {"left": 2, "front": 0}}
        self.store.append(mark("Courier: hit 2", left, two), {"v1": two}, CLOCK)
        assert self.store.replay().still_offline
        theirs = {"hits": 1, "armor": {"left": 0, "front": 3}}
        other_lease = self.database.game_sessions.acquire(
            self.session_id, take_over=True, holder=("Bo", "bo-laptop")) if take_over else None
        self.database.game_sessions.events(self.session_id, other_lease).append(
            mark("Courier: front armour 3", one, theirs), {"v1": theirs}, CLOCK)
        self.server.down = False
        result = self.store.replay()
        assert result.sent == 0 and result.pending == 2 and result.conflict is not None
        return other_lease

    def events(self) -> list[tuple[int, str, bool]]:
        return [(e.seq, e.event.summary, e.undone) for e in
                self.database.game_sessions.events(self.session_id).page(0, 100)]

    def sheet(self) -> dict[str, Any]:
        return dict(self.database.game_sessions.load(self.session_id).sheets["v1"])


def test_the_conflicted_entry_is_listed_with_its_reason_the_next_waits_behind_it(
        database: Database, tmp_path: Path) -> None:
    table = Table(database, tmp_path / "queue.sqlite3")
    table.conflict()
    first, second = table.queue.entries("club")
    assert [entry_words(e) for e in (first, second)] == ["Courier: left armour 2",
                                                         "Courier: hit 2"]
    assert first.session_id == second.session_id == table.session_id
    assert first.conflict is not None
    assert "Another client wrote to this session" in first.conflict
    assert "#2 Courier: front armour 3" in first.conflict
    assert second.conflict is None  # it waits behind the conflicted one
    assert [e.id for e in table.store.entries()] == [first.id, second.id]
    with pytest.raises(QueueEntryError, match="Only the conflicted entry"):
        table.store.apply_again_on_top(second.id)
    with pytest.raises(QueueEntryError):
        table.store.drop(second.id)
    assert table.store.replay().conflict is not None  # never written over theirs
    assert table.events() == [(1, "Courier: hit 1", False),
                              (2, "Courier: front armour 3", False)]


def test_apply_again_on_top_keeps_theirs_and_the_table_time(
        database: Database, tmp_path: Path) -> None:
    table = Table(database, tmp_path / "queue.sqlite3")
    table.conflict()
    first, second = table.queue.entries("club")
    result = table.store.apply_again_on_top(first.id)
    assert (result.sent, result.pending, result.conflict) == (2, 0, None)
    assert table.events() == [(1, "Courier: hit 1", False),
                              (2, "Courier: front armour 3", False),
                              (3, "Courier: left armour 2", False),
                              (4, "Courier: hit 2", False)]
    # What each changed, over theirs: the front armour they marked stays.
    assert table.sheet() == {"hits": 2, "armor": {"left": 2, "front": 3}}
    stored = database.game_sessions.events(table.session_id).page(2, 2)
    assert [e.created_at.astimezone(UTC) for e in stored] == [
        first.created_at.astimezone(UTC), second.created_at.astimezone(UTC)]
    assert all(e.created_at < datetime.now(UTC) for e in stored)
    # Undoing it would put their sheet back, not the laptop's.
    assert stored[0].event.updates[0].before == {"hits": 1, "armor": {"left": 0, "front": 3}}
    assert table.queue.entries("club") == [] and not table.store.offline
    assert table.store.state().conflict is None


def test_drop_removes_one_entry_and_the_rest_goes_on_top(
        database: Database, tmp_path: Path) -> None:
    table = Table(database, tmp_path / "queue.sqlite3")
    table.conflict()
    first, _ = table.queue.entries("club")
    result = table.store.drop(first.id)
    assert (result.sent, result.pending, result.conflict) == (1, 0, None)
    assert table.events() == [(1, "Courier: hit 1", False),
                              (2, "Courier: front armour 3", False),
                              (3, "Courier: hit 2", False)]
    assert table.sheet() == {"hits": 2, "armor": {"left": 0, "front": 3}}
    assert table.queue.count() == 0


def test_an_undo_behind_it_stops_the_replay_until_dropped(
        database: Database, tmp_path: Path) -> None:
    table = Table(database, tmp_path / "queue.sqlite3")
    table.conflict()
    two = {"hits": 2, "armor": {"left": 2, "front": 0}}
    table.server.down = True
    table.store.mark_undone(3, {"v1": {"hits": 1, "armor": {"left": 2, "front": 0}}}, CLOCK)
    table.server.down = False
    first, _, undo = table.queue.entries("club")
    assert entry_words(undo, table.queue.entries("club")) == "Undo of entry #3 (Courier: hit 2)"
    result = table.store.apply_again_on_top(first.id)
    assert (result.sent, result.pending, result.conflict) == (2, 1, CANNOT_GO_ON_TOP)
    [left] = table.queue.entries("club")
    assert left.id == undo.id and left.conflict == CANNOT_GO_ON_TOP
    # Read again (the session reopened, the app restarted): it still waits for a decision.
    again = QueuedEventStore(table.server, table.queue, "club",  # type: ignore[arg-type]
                             lambda e: isinstance(e, LostError))
    assert again.replay().conflict == CANNOT_GO_ON_TOP
    table.store = again
    assert table.store.drop(undo.id).pending == 0
    assert [e[1] for e in table.events()] == ["Courier: hit 1", "Courier: front armour 3",
                                             "Courier: left armour 2", "Courier: hit 2"]
    assert table.sheet() == {**two, "armor": {"left": 2, "front": 3}}


def test_a_session_another_copy_holds_now_stays_theirs_until_it_lets_go(
        database: Database, tmp_path: Path) -> None:
    table = Table(database, tmp_path / "queue.sqlite3", leased=True)
    sessions = database.game_sessions
    theirs = table.conflict(take_over=True)
    first, second = table.queue.entries("club")
    result = table.store.apply_again_on_top(first.id)
    assert (result.sent, result.pending) == (0, 2)
    assert result.conflict is not None and "took this session over" in result.conflict
    assert [e.id for e in table.queue.entries("club")] == [first.id, second.id]
    assert len(table.events()) == 2  # nothing written over theirs
    sessions.release(theirs)  # the other GM closes the session
    assert table.store.apply_again_on_top(first.id).sent == 2
    info = sessions.lease(table.session_id)
    assert info is not None and table.lease is not None
    assert sessions.renew(table.lease)  # taken back, under the laptop's own lease
    assert [e[1] for e in table.events()][2:] == ["Courier: left armour 2", "Courier: hit 2"]

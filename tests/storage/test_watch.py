"""What other connections write is seen (issue 31): a second engine on the same database,
and ``carwars-desktop design import`` run as another process on the same SQLite file
(PRAGMA data_version), or on PostgreSQL through the triggers' NOTIFY (revision 0013)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from carwars_desktop.rules import find_ruleset
from carwars_desktop.rules.builtin import MINI_CAR_WARS
from carwars_desktop.storage import Database, NewDesign, open_database
from carwars_desktop.storage.watch import Seen, Watcher, watcher_for

CLOCK = {"turn": 1, "phase": 0, "phases": ["phase 1"], "word": "turn"}


def _courier(name: str) -> NewDesign:
    data = find_ruleset(MINI_CAR_WARS.id).catalog()["Courier"].to_json()
    data["name"] = name
    return NewDesign(MINI_CAR_WARS.id, data)


def _seen(watcher: Watcher, wanted: Callable[[Seen], bool]) -> Seen:
    """What the watcher tells, once it tells what is wanted (a notification may take a
    moment to cross the server): asked again a bounded number of times."""
    import time

    seen = Seen()
    for _ in range(200):
        seen = watcher.poll()
        if seen and wanted(seen):
            return seen
        time.sleep(0.02)
    raise AssertionError(f"never seen; last: {seen}")


def _writes_of_a_second_engine_are_seen(url: str) -> None:
    with open_database(url) as mine, open_database(url) as theirs:
        watcher = watcher_for(mine.engine)
        assert watcher is not None
        try:
            assert not watcher.poll()  # nothing yet
            added = theirs.library.add(_courier("Rover"))
            assert _seen(watcher, lambda s: added.id in s.designs).sessions == frozenset()
            assert not watcher.poll()  # told once
            theirs.library.rename(added.id, "Rover Mk II")
            assert added.id in _seen(watcher, lambda s: added.id in s.designs).designs
            theirs.library.set_tags(added.id, ["club"])  # no new revision, still a change
            _seen(watcher, lambda s: added.id in s.designs)
            theirs.library.delete(added.id)
            _seen(watcher, lambda s: added.id in s.designs)
            session_id = theirs.game_sessions.create(MINI_CAR_WARS.id, "Club night", "",
                                                     [], CLOCK)
            seen = _seen(watcher, lambda s: session_id in s.sessions)
            assert seen.sessions_listed and not seen.designs
            lease = theirs.game_sessions.acquire(session_id)  # its row, not the list, changes
            assert not _seen(watcher, lambda s: session_id in s.sessions).sessions_listed
            theirs.game_sessions.finish(session_id, lease)
            assert _seen(watcher, lambda s: session_id in s.sessions).sessions_listed
            theirs.game_sessions.delete(session_id)
            assert _seen(watcher, lambda s: session_id in s.sessions).sessions_listed
        finally:
            watcher.close()


def test_a_second_engine_is_seen(database_url: str) -> None:
    """SQLite: data_version and a diff by id; PostgreSQL: the triggers' NOTIFY."""
    _writes_of_a_second_engine_are_seen(database_url)


def _design_import(tmp_path: Path, db: str) -> None:
    """``carwars-desktop design export`` then ``import``, each as a process of its own."""
    exported = tmp_path / "courier.carwars.json"
    for arguments in (["design", "export", "Courier", "-o", str(exported)],
                      ["design", "import", str(exported)]):
        done = subprocess.run([sys.executable, "-m", "carwars_desktop", *arguments,
                               "--db", db], capture_output=True, text=True, timeout=120,
                              check=False)
        assert done.returncode == 0, done.stderr


def _command_line_import_is_seen(database: Database, tmp_path: Path, db: str) -> None:
    watcher = watcher_for(database.engine)
    assert watcher is not None
    try:
        assert not watcher.poll()
        before = {e.id for e in database.library.entries()}
        _design_import(tmp_path, db)
        after = {e.id for e in database.library.entries()}
        assert after - before
        assert after - before <= _seen(watcher, lambda s: bool(after - before & s.designs)
                                       ).designs
    finally:
        watcher.close()


def test_a_command_line_import_is_seen(database_url: str, tmp_path: Path) -> None:
    with open_database(database_url) as database:
        _command_line_import_is_seen(database, tmp_path, database_url)


def test_a_database_in_memory_has_nobody_else_to_watch() -> None:
    with open_database("sqlite://") as database:
        assert watcher_for(database.engine) is None

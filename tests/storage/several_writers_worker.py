"""One of the two copies of the app in the several-writers tests (run as a script).

    python several_writers_worker.py events URL SESSION_ID NAME COUNT
    python several_writers_worker.py designs URL DESIGN_ID NAME COUNT

Opens the database, says "ready", waits for a line on stdin (so both start together,
once both are open), then makes COUNT attempts
through the real storage API and prints one JSON report: what was acknowledged,
what it was told, and every uncaught error.
"""

from __future__ import annotations

import json
import sys
import traceback
from typing import Any

from carwars_desktop.session import Event, EventKind, SheetUpdate, StaleSessionError
from carwars_desktop.storage import open_database
from carwars_desktop.storage.errors import WriteFailedError
from carwars_desktop.storage.game_sessions import Lease, SessionEvents, SessionHeldError
from carwars_desktop.storage.library import DesignConflictError

TAKE_OVER_AFTER = 20
"""Refusals in a row before this copy takes the session over (the GM gets impatient)."""


def events(url: str, session_id: int, name: str, count: int) -> dict[str, Any]:
    acked: list[str] = []
    told: dict[str, int] = {"held": 0, "taken_over": 0, "stale": 0, "write_failed": 0}
    uncaught: list[str] = []
    with open_database(url) as database:
        sessions = database.game_sessions
        lease: Lease | None = None
        store: SessionEvents | None = None
        sheet: dict[str, Any] = {}
        refused = 0
        print("ready", flush=True)
        sys.stdin.readline()
        for number in range(count):
            try:
                if lease is None:
                    try:
                        lease = sessions.acquire(session_id, take_over=refused >= TAKE_OVER_AFTER,
                                                 holder=(name, f"HOST-{name}"))
                    except SessionHeldError:
                        told["held"] += 1
                        refused += 1
                        continue
                    refused = 0
                    store = None
                if store is None:
                    loaded = sessions.load(session_id)
                    sheet = dict(loaded.sheets["v1"])
                    store = sessions.events(session_id, lease, loaded.info.version)
                mark = f"{name}-{number}"
                after = {"marks": [*sheet["marks"], mark]}
                event = Event(EventKind.MARK, f"mark {mark}",
                              updates=(SheetUpdate("v1", sheet, after),))
                store.append(event, {"v1": after}, {"turn": 1})
                sheet = after
                acked.append(mark)
            except StaleSessionError as error:
                told["taken_over" if error.taken_over else "stale"] += 1
                if error.taken_over:
                    lease = None
                store = None
            except WriteFailedError:
                told["write_failed"] += 1
                store = None
            except Exception:
                uncaught.append(traceback.format_exc())
                store = None
        if lease is not None:
            sessions.release(lease)
    return {"acked": acked, "told": told, "uncaught": uncaught}


def designs(url: str, design_id: int, name: str, count: int) -> dict[str, Any]:
    saves: list[dict[str, Any]] = []
    conflicts = 0
    write_failed = 0
    uncaught: list[str] = []
    with open_database(url) as database:
        library = database.library
        record = library.get(design_id)
        base, data = record.revision, dict(record.data)
        print("ready", flush=True)
        sys.stdin.readline()
        for number in range(count):
            data = {**data, "notes": f"{name}-{number}"}
            try:
                saved = library.save(design_id, data, expected_revision=base)
                saves.append({"number": saved.revision, "from": base,
                              "notes": saved.data["notes"]})
                base = saved.revision
            except DesignConflictError as conflict:
                conflicts += 1  # told: take theirs, make the edit again on it
                base, data = conflict.theirs.revision, dict(conflict.theirs.data)
            except WriteFailedError:
                write_failed += 1
                fresh = library.get(design_id)
                base, data = fresh.revision, dict(fresh.data)
            except Exception:
                uncaught.append(traceback.format_exc())
    return {"saves": saves, "conflicts": conflicts, "write_failed": write_failed,
            "uncaught": uncaught}


def main() -> None:
    kind, url, target, name, count = sys.argv[1:6]
    work = events if kind == "events" else designs
    print(json.dumps(work(url, int(target), name, int(count))), flush=True)


if __name__ == "__main__":
    main()

"""The replay's step: the state after any event of a long session (goal: under 50 ms).

    .venv/bin/python benchmarks/replay.py [--events 100000] [--steps 300] [--quick]

A 4-vehicle Mini Car Wars session of ``--events`` events (real sheets: hand marks
that mark a car crashed and burned and clear it, the clock moved every 20 events, a run
of 3 undone events every 1,000 events, as an undo and a new event leave them) is indexed
for replay once (:class:`~carwars_desktop.session.replay.Replay`, a snapshot every K
events), then the state is rebuilt at ``--steps`` random positions and after each of the
keys' moves from random positions (→, ←, PgDn, PgUp, End, Home: where the key lands,
then its state). Each step's median and worst time are printed with pass or FAIL against
the goal, next to the baseline measured in the same run: the same state rebuilt from
event 0 without snapshots (the last event's, the longest), with the ratio.
``--quick``: 2,000 events, 50 steps (./dev test keeps the benchmark working).
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import time
from collections.abc import Callable
from datetime import UTC, datetime

from carwars_desktop.session import Event, EventKind, SheetUpdate, StoredEvent
from carwars_desktop.session.replay import SNAPSHOT_EVERY, Replay

GOAL_MS = 50.0
VEHICLES = 4


def session(events: int) -> tuple[dict[str, dict[str, object]], list[StoredEvent],
                                  dict[str, object]]:
    """The first sheets, the stored events and the last clock of a long session."""
    from carwars_desktop.rules import find_ruleset
    from carwars_desktop.rules.mini_car_wars import MiniSheet
    from carwars_desktop.session.setup import Entry, prepare

    ruleset = find_ruleset("mini_car_wars")
    catalog = ruleset.catalog()
    names = list(catalog)
    start = prepare(ruleset, [Entry(f"Player {n + 1}", names[n % len(names)],
                                    catalog[names[n % len(names)]].to_json())
                              for n in range(VEHICLES)])
    keys = [v.key for v in start.vehicles]
    plain = {k: start.sheets[k].to_json() for k in keys}
    crossed = {}
    for key in keys:
        sheet = start.sheets[key]
        assert isinstance(sheet, MiniSheet)
        crossed[key] = sheet.crashed_and_burned().to_json()
    clock = start.clock
    when = datetime(2026, 11, 27, 19, 30, tzinfo=UTC)
    current = dict(plain)
    stored: list[StoredEvent] = []
    seq = 0
    while seq < events:
        seq += 1
        undone = seq % 1000 in (501, 502, 503)
        if seq % 20 == 0 and not undone:
            after = clock.advanced()
            event = Event(EventKind.CLOCK, f"on to {after}", clock_before=clock.to_json(),
                          clock_after=after.to_json(), turn=clock.turn,
                          phase=clock.phase_name)
            clock = after
        else:
            key = keys[seq % VEHICLES]
            before = current[key]
            after_sheet = plain[key] if before is crossed[key] else crossed[key]
            event = Event(EventKind.MARK, f"mark {seq}",
                          updates=(SheetUpdate(key, before, after_sheet),),
                          turn=clock.turn, phase=clock.phase_name)
            if not undone:
                current[key] = after_sheet
        stored.append(StoredEvent(seq, event, when, undone, undone))
    return plain, stored, clock.to_json()


class JsonPages:
    """The events kept as the database keeps them (each one's JSON text), parsed again
    page by page as they are read (what the session's pages cost, without SQL)."""

    def __init__(self, events: list[StoredEvent]) -> None:
        self.bodies = [(e.seq, json.dumps(e.event.to_json()), e.created_at, e.undone)
                       for e in events]
        self.reads = 0

    def count(self, include_undone: bool = False) -> int:
        return len(self.bodies) if include_undone else sum(
            1 for b in self.bodies if not b[3])

    def page(self, offset: int, limit: int) -> list[StoredEvent]:
        self.reads += 1
        return [StoredEvent(seq, Event.from_json(json.loads(body)), when, undone, undone)
                for seq, body, when, undone in self.bodies[offset:offset + limit]]


def timed(action: Callable[[], object]) -> float:
    started = time.perf_counter()
    action()
    return (time.perf_counter() - started) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    events, steps = (2_000, 50) if args.quick else (args.events, args.steps)
    first, stored, clock = session(events)
    pages = JsonPages(stored)
    del stored  # kept as the database keeps them, as JSON text, only
    gc.collect()
    holder: list[Replay] = []
    built_ms = timed(lambda: holder.append(Replay(first, pages, clock)))
    replay = holder[0]
    last = len(replay) - 1
    print(f"replay of {events:,} events ({len(replay.main_line) - 1:,} in force), "
          f"a snapshot every {SNAPSHOT_EVERY} events")
    print(f"  indexed once (one pass over every event)   {built_ms:9.1f} ms")
    baseline = statistics.median(timed(lambda: replay.rebuild_from_start(last))
                                 for _ in range(3))
    print(f"  baseline: rebuilt from event 0 (event {last:,})  {baseline:9.1f} ms")
    rng = random.Random(36)
    positions = [rng.randrange(len(replay)) for _ in range(steps)]
    moves: dict[str, Callable[[int], int]] = {
        "→": replay.next_event, "←": replay.previous_event, "PgDn": replay.next_turn,
        "PgUp": replay.previous_turn, "End": lambda _at: replay.last, "Home": lambda _at: 0}
    worst_all = 0.0
    cases: list[tuple[str, list[int], Callable[[int], int]]] = [
        ("random step", positions, lambda p: p)]
    cases += [(f"key {k}", [rng.randrange(len(replay)) for _ in range(20)], move)
              for k, move in moves.items()]
    for label, targets, move in cases:
        # the key's move (where it lands) and the state there
        times = [timed(lambda p=p, m=move: replay.state(m(p))) for p in targets]
        assert all(replay.state(p) == replay.rebuild_from_start(p) for p in targets[:2])
        median, worst = statistics.median(times), max(times)
        worst_all = max(worst_all, worst)
        print(f"  {label:<14} median {median:7.3f} ms  worst {worst:7.3f} ms  "
              f"({baseline / max(median, 1e-6):,.0f}× faster than the baseline)")
    verdict = "pass" if worst_all < GOAL_MS else "FAIL"
    print(f"step at {events:,} events: worst {worst_all:.3f} ms, goal < {GOAL_MS:.0f} ms: "
          f"{verdict}")


if __name__ == "__main__":
    main()

"""Replay (issue 36 §1), Qt-free: scripted sessions of each ruleset, played through the
services with fixed dice, rebuild at every step to exactly the states the live game
showed; undone branches; snapshots; "what were the odds?" from the events' rolls."""

from __future__ import annotations

from fractions import Fraction

import pytest

from carwars_desktop.dice.distribution import dice_sum
from carwars_desktop.services import Services
from carwars_desktop.services.replay import NO_ODDS, open_replay, percentile, roll_odds
from carwars_desktop.session import Event, EventKind, SheetUpdate, StoredEvent
from carwars_desktop.session.replay import ListPages, Replay
from carwars_desktop.storage import Database

from .replay_script import SCRIPTS


@pytest.mark.parametrize("ruleset_id", sorted(SCRIPTS))
@pytest.mark.parametrize("every", [1, 2, 64])
def test_replay_rebuilds_every_step_as_the_game_showed_it(
        services: Services, database: Database, ruleset_id: str, every: int) -> None:
    played = SCRIPTS[ruleset_id](services)
    services.table.finish()
    services.table.close()
    before = database.game_sessions.version(played.session_id)
    replay = open_replay(database, played.session_id, snapshot_every=every).replay
    assert database.game_sessions.version(played.session_id) == before  # nothing written
    assert played.undone, "each script undoes an event"
    seqs = {p.seq: p.index for p in replay.positions}
    assert [replay.positions[i].seq for i in replay.main_line] == [0, *played.main_line]
    for seq, shown in played.shown.items():
        position = seqs[seq]
        assert replay.state(position).to_json() == shown, f"after event {seq}"
        assert replay.rebuild_from_start(position).to_json() == shown
        assert replay.positions[position].main == (seq not in played.undone)
    assert set(played.shown) == {0, *played.main_line, *played.undone}


def test_replay_of_an_undo_and_a_new_event_shows_the_branch(services: Services,
                                                            database: Database) -> None:
    played = SCRIPTS["mini_car_wars"](services)  # a running session: replayed read-only
    replay = open_replay(database, played.session_id).replay
    first, second = played.undone  # the two shots undone, then another shot
    branch = [replay.positions[seqs] for seqs in (first, second)]
    assert [p.main for p in branch] == [False, False]
    assert branch[1].parent == branch[0].index  # the second followed the first
    base = branch[0].base
    assert replay.positions[base].main and replay.positions[base].seq == first - 1
    # → skips the branch; the stepping into it (every event) shows it applied
    assert replay.next_event(base) == second + 1
    assert replay.next_any(base) == branch[0].index
    assert replay.previous_event(branch[1].index) == base
    assert replay.state(branch[1].index).to_json() == played.shown[second]
    assert replay.state(second + 1).to_json() == played.shown[second + 1]


def _mark(seq: int, key: str, before: int, after: int, undone: bool = False) -> StoredEvent:
    from datetime import UTC, datetime

    event = Event(EventKind.MARK, f"{key} {after}",
                  updates=(SheetUpdate(key, {"n": before}, {"n": after}),))
    return StoredEvent(seq, event, datetime(2026, 1, 1, tzinfo=UTC), undone, undone)


def test_replay_of_a_branch_undone_before_the_next_follows_its_before() -> None:
    """1, 2, 3 played; 3 undone; 4 played (3 abandoned); 4 undone, 2 undone; 5 played:
    event 4 followed event 2, not the undone 3 (its "before" says so)."""
    events = [_mark(1, "a", 0, 1), _mark(2, "a", 1, 2, True), _mark(3, "a", 2, 3, True),
              _mark(4, "a", 2, 4, True), _mark(5, "a", 1, 5)]
    replay = Replay({"a": {"n": 0}}, ListPages(events), {"turn": 1})
    assert [replay.state(i).sheets["a"]["n"] for i in range(6)] == [0, 1, 2, 3, 4, 5]
    assert replay.positions[4].parent == 2 and replay.positions[3].parent == 2
    assert replay.main_line == [0, 1, 5]


def test_replay_steps_apply_at_most_k_events(monkeypatch: pytest.MonkeyPatch) -> None:
    import carwars_desktop.session.replay as module

    events = [_mark(n, "a", n - 1, n) for n in range(1, 1001)]
    replay = Replay({"a": {"n": 0}}, ListPages(events), {"turn": 1}, snapshot_every=50)
    applied = 0
    real = module.apply

    def counting(state: module.ReplayState, stored: StoredEvent) -> module.ReplayState:
        nonlocal applied
        applied += 1
        return real(state, stored)

    monkeypatch.setattr(module, "apply", counting)
    for index in (0, 1, 49, 50, 51, 777, 1000):
        applied = 0
        assert replay.state(index).sheets["a"] == {"n": index}
        assert applied < 50
    applied = 0
    replay.rebuild_from_start(1000)
    assert applied == 1000


def test_replay_turn_keys_land_on_the_first_event_of_a_turn(services: Services,
                                                             database: Database) -> None:
    played = SCRIPTS["mini_car_wars"](services)
    replay = open_replay(database, played.session_id).replay
    turns = [replay.positions[i].turn for i in replay.main_line]
    marks = replay.turn_starts()
    assert [turns[r] for r in marks] == sorted(set(turns))
    turn_two = replay.main_line[marks[1]]
    assert replay.next_turn(0) == turn_two
    assert replay.previous_turn(turn_two) == 0
    assert replay.previous_turn(replay.next_event(turn_two)) == turn_two
    assert replay.next_turn(replay.last) == replay.last


def test_replay_tells_the_odds_of_each_roll(services: Services, database: Database) -> None:
    played = SCRIPTS["mini_car_wars"](services)
    replay = open_replay(database, played.session_id).replay
    first = replay.stored(1)
    assert first is not None
    (odds,) = roll_odds(first)
    assert odds.need == 8 and odds.p_success == Fraction(5, 12) and odds.success
    assert odds.throw.startswith("10 on 2d6")
    # 10 on 2d6: 30/36 throws lower, 3/36 the same
    assert odds.percentile == Fraction(30, 36) + Fraction(3, 72)
    assert "need 8+, P(success) = 5/12 (41.7%)" in odds.words()
    assert "88th percentile" in odds.words()
    miss = replay.stored(2)
    assert miss is not None and roll_odds(miss)[0].success is False
    note = next(e for e in (replay.stored(p.index) for p in replay.positions[1:])
                if e is not None and e.event.kind is EventKind.NOTE)
    assert roll_odds(note) == ()


def test_replay_says_when_an_old_roll_kept_no_odds() -> None:
    from datetime import UTC, datetime

    old = StoredEvent(1, Event(EventKind.RESOLUTION, "hit", procedure_id="mini.fire",
                               dice=({"sides": 6, "value": 3, "purpose": "to hit",
                                      "entered": True},)),
                      datetime(2026, 1, 1, tzinfo=UTC))
    (odds,) = roll_odds(old)
    assert not odds.kept and NO_ODDS in odds.words()
    # a roll kept before its throw was: the event's first dice of one purpose
    kept = StoredEvent(1, Event(EventKind.RESOLUTION, "hit", procedure_id="mini.fire",
                                dice=({"sides": 6, "value": 3, "purpose": "to hit",
                                       "entered": True},
                                      {"sides": 6, "value": 4, "purpose": "to hit",
                                       "entered": True},
                                      {"sides": 6, "value": 6, "purpose": "damage",
                                       "entered": True}),
                                rolls=({"procedure": "mini.fire", "need": 8,
                                        "p_success": "5/12", "success": False},)),
                       datetime(2026, 1, 1, tzinfo=UTC))
    (odds,) = roll_odds(kept)
    assert odds.throw == "7 on 2d6 (to hit)"
    assert odds.percentile == percentile(dice_sum(2, 6), 7) == Fraction(1, 2)


def test_replay_takes_the_first_clock_from_the_first_event_that_moved_it() -> None:
    """The session keeps no first clock: it is the "before" of the first clock move, even
    an undone one; the events before it and the main line past it had that clock."""
    from datetime import UTC, datetime

    start, later = {"turn": 1, "phase": 0}, {"turn": 2, "phase": 0}
    moved = StoredEvent(2, Event(EventKind.CLOCK, "on", clock_before=start,
                                 clock_after=later), datetime(2026, 1, 1, tzinfo=UTC),
                        True, True)
    events = [_mark(1, "a", 0, 1), moved, _mark(3, "a", 1, 3)]
    replay = Replay({"a": {"n": 0}}, ListPages(events), {"turn": 9, "phase": 9},
                    snapshot_every=1)
    assert [dict(replay.state(i).clock) for i in range(4)] == [start, start, later, start]
    assert [p.turn for p in replay.positions] == [1, 1, 2, 1]
    assert replay.positions[2].undone and not replay.positions[2].main

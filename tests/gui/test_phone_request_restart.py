"""The phones' requests survive a restart (issue 33): the GM's queue, the secret speeds
already in and the idempotency keys are kept in the database (``phone_requests``) and
committed before a phone learns its request was received; an app started again on the
same database shows the queue as it was, a retry of a key received before is answered
"again" and never queued twice, and a phone's shot in the fire batch keeps its "from
Bob's phone" label."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from carwars_desktop.gui.phone_share import PhoneSharing
from carwars_desktop.services import Services
from carwars_desktop.services.phone_requests import PhoneStore, RequestState
from carwars_desktop.services.share_network import LOOPBACK
from carwars_desktop.storage import Database
from tests.gui.test_phone_request_writes import (
    WAIT_MS,
    _page,
    _post,
    _seats,
    _speed,
    _start,
    free_port,
    loopback,
)


def _services(database: Database) -> Services:
    services = Services()
    services.table.database = database
    return services


@pytest.fixture
def first(qtbot, database: Database) -> Iterator[tuple[Services, PhoneSharing]]:  # type: ignore[no-untyped-def]
    services = _services(database)
    sharing = PhoneSharing(services, choices=loopback, port=free_port())
    yield services, sharing
    sharing.end()


def _kept(database: Database, session_id: int) -> list[tuple[str, str, str]]:
    """(seat, key, state) of the requests the database keeps for ``session_id``."""
    events = database.game_sessions.events(session_id)
    assert isinstance(events, PhoneStore)
    return [(r.seat, r.key, r.state) for r in events.phone_requests() if r.seat]


def test_phone_request_queue_speeds_in_and_keys_survive_a_restart(
        qtbot, database: Database, first: tuple[Services, PhoneSharing]) -> None:  # type: ignore[no-untyped-def]
    services, sharing = first
    _start(services)
    session_id = services.table.session_id
    assert session_id is not None
    sharing.start(LOOPBACK)
    seats = _seats(sharing)
    assert _post(seats["v1"], _speed("keep-v1-01", speed=10), _page(seats["v1"]))[0] == 202
    assert _post(seats["v2"], _speed("keep-v2-01", speed=10), _page(seats["v2"]))[0] == 202
    qtbot.waitUntil(lambda: len(sharing.desk.waiting()) == 2, timeout=WAIT_MS)
    # Committed by the time the queue (and the phone's view) shows them.
    assert _kept(database, session_id) == [("v1", "keep-v1-01", "waiting"),
                                           ("v2", "keep-v2-01", "waiting")]
    sharing.accept(next(r for r in sharing.desk.waiting() if r.seat == "v1"))
    assert sharing.desk.speeds_in() == (1, 3)
    assert ("v1", "keep-v1-01", "in") in _kept(database, session_id)
    before = [(r.seat, r.key, r.kind, r.state, r.summary) for r in sharing.desk.requests]

    # The app stops (nothing listens for the links) and starts again on the database: the
    # session's sharing resumes with the same links (tests/gui/test_phone_share_resume.py).
    sharing.end()
    services.table.close()
    again = _services(database)
    restarted = PhoneSharing(again, choices=loopback, port=free_port())
    try:
        again.table.open(session_id)
        desk = restarted.desk
        assert [(r.seat, r.key, r.kind, r.state, r.summary) for r in desk.requests] == before
        assert [r.seat for r in desk.waiting()] == ["v2"]
        assert desk.speeds_in() == (1, 3)
        assert desk.waiting_for() == ["Di", "Al"]
        assert restarted.sharing and _seats(restarted) == seats  # the same links and queue
        assert [r.seat for r in desk.waiting()] == ["v2"]
        seat = _seats(restarted)["v2"]
        status, body = _post(seat, _speed("keep-v2-01", speed=10), _page(seat))
        assert status == 200 and json.loads(body)["again"]
        # A new request after the retry arrives: the retry, sent first, never did.
        assert _post(_seats(restarted)["v3"], _speed("keep-v3-01", speed=10),
                     _page(_seats(restarted)["v3"]))[0] == 202
        qtbot.waitUntil(lambda: len(desk.waiting()) == 2, timeout=WAIT_MS)
        assert [(r.seat, r.key) for r in desk.requests] == [
            ("v1", "keep-v1-01"), ("v2", "keep-v2-01"), ("v3", "keep-v3-01")]
        restarted.accept(desk.waiting()[0])
        restarted.accept(desk.waiting()[0])  # the last two in: revealed together
        assert all(r.state is RequestState.ACCEPTED for r in desk.requests)
        assert desk.speeds_in() == (0, 0)
        game = again.table.running()
        assert game.can_undo() and "from Bob's, Di's, Al's phones" in str(
            game.store.last_active().event.summary)  # type: ignore[union-attr]
    finally:
        restarted.end()


def test_phone_request_shot_keeps_its_phone_label_in_the_batch_after_a_restart(
        qtbot, window) -> None:  # type: ignore[no-untyped-def]
    from carwars_desktop.services.fire_batch import FireBatch
    from carwars_desktop.services.phone_server import PhoneMessage
    from tests.gui.test_phone_request_browser import _mcw

    window.build_workspaces()
    _mcw(window, qtbot)
    desk = window.phone_sharing.desk
    game = window.services.table.running()
    turn, phase = game.clock.turn, game.clock.phase
    shot = desk.receive(PhoneMessage("v1", "token", "shot-0001", {
        "kind": "shot", "turn": turn, "phase": phase,
        "values": {"weapon": "1", "target": "v2", "side": "L", "range": "5"}}))
    assert shot is not None and shot.state is RequestState.WAITING, shot and shot.reason
    window.phone_sharing.accept(shot)
    batch = window.table.keys.batch
    assert batch is not None and batch.shots[0].label.endswith("from Bob's phone")
    session_id = window.services.table.session_id
    database = window.database
    assert database is not None and session_id is not None
    events = database.game_sessions.events(session_id)
    assert [s.label for s in events.declared_shots()] == [batch.shots[0].label]
    restored = FireBatch.restored(batch.rules, events)  # as a restarted app reads it
    assert [s.label for s in restored.shots] == [batch.shots[0].label]
    # The dice Bob types after a restart still go with his shot in the batch.
    window._phone_shots.clear()  # (what a restarted window holds of it: nothing)
    assert desk.receive(PhoneMessage("v1", "token", "dice-0001", {
        "kind": "dice", "turn": turn, "phase": phase,
        "values": {"shot": "shot-0001", "dice": "44566"}})) is not None
    assert batch.shots[0].dice == "44566"
    assert [s.dice for s in events.declared_shots()] == ["44566"]

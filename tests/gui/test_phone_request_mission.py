"""Battlecars' secret mission from the phones (issue 33 §1; digest §2.19, §3.10): rolled
or typed on a seat's phone, it is shown there and to the GM only — never on the TV, the
common link or another seat's phone — until the player declares it done and the GM
accepts; then it is one ordinary event in the log and everybody sees it."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from carwars_desktop.gui.phone_share import PhoneSharing
from carwars_desktop.rules.battlecars.scenarios import mission_for
from carwars_desktop.services import Services
from carwars_desktop.services.phone_requests import RequestState
from carwars_desktop.services.phone_server import PhoneMessage
from carwars_desktop.storage import Database
from tests.gui.test_phone_request_writes import _start, free_port, loopback


@pytest.fixture
def sharing(qtbot, services: Services) -> Iterator[PhoneSharing]:  # type: ignore[no-untyped-def]
    sharing = PhoneSharing(services, choices=loopback, port=free_port())
    yield sharing
    sharing.end()


def _mission(key: str, dice: str, kind: str = "mission") -> dict[str, object]:
    return {"kind": kind, "turn": 1, "phase": 0, "values": {"dice": dice}}


def _everything_public(sharing: PhoneSharing, services: Services) -> str:
    """All the TV and the other phones are given: the common view, every seat's."""
    from carwars_desktop.services.players_feed import PlayersFeed

    feed = PlayersFeed(services.table)
    desk = sharing.desk
    return json.dumps({"public": {**feed.snapshot(), "missions": desk.missions_done()},
                       "v2": desk.phone_state("v2"), "v3": desk.phone_state("v3")})


def test_phone_request_battlecars_secret_mission_hidden_until_done(
        qtbot, services: Services, sharing: PhoneSharing, database: Database) -> None:  # type: ignore[no-untyped-def]
    _start(services, "battlecars")
    desk = sharing.desk
    goal = mission_for(1, 3).goal  # car 1 (Bob's, first in the session) rolls a 3
    assert goal == "Kill the driver of car 3"
    refused = desk.receive(PhoneMessage("v1", "t", "mission-bad", _mission("", "9")))
    assert refused is not None and refused.state is RequestState.REFUSED
    assert "die" in refused.reason or "d8" in refused.reason or "9" in refused.reason
    request = desk.receive(PhoneMessage("v1", "t", "mission-001", _mission("", "3")))
    assert request is not None and request.state is RequestState.WAITING, request.reason
    assert desk.phone_state("v1")["mission"]["goal"] == goal  # on Bob's phone
    assert goal not in _everything_public(sharing, services)
    sharing.accept(request)
    assert request.state is RequestState.IN
    game = services.table.running()
    log = game.store.last_active()  # type: ignore[union-attr]
    assert log is not None and goal not in log.event.summary
    assert "secret mission is rolled" in log.event.summary
    assert goal not in _everything_public(sharing, services)
    assert desk.phone_state("v1")["mission"]["state"] == "in"
    again = desk.receive(PhoneMessage("v1", "t", "mission-002", _mission("", "7")))
    assert again is not None and again.reason == "your secret mission is rolled already"
    # Di has no mission in: she cannot declare one done; the clock moving keeps Bob's.
    di = desk.receive(PhoneMessage("v2", "t", "done-di-01", _mission("", "", "mission_done")))
    assert di is not None and di.state is RequestState.REFUSED
    sharing.stop()  # a revoked link leaves a mission in as it was
    assert request.state is RequestState.IN
    done = desk.receive(PhoneMessage("v1", "t", "done-bob-1", _mission("", "",
                                                                       "mission_done")))
    assert done is not None and done.state is RequestState.WAITING, done.reason
    assert goal not in _everything_public(sharing, services)  # the GM checks it first
    sharing.accept(done)
    assert request.state is RequestState.ACCEPTED
    log = game.store.last_active()  # type: ignore[union-attr]
    assert log is not None and f"mission accomplished: {goal}" in log.event.summary
    assert "from Bob's phone" in log.event.summary
    assert desk.missions_done() == [{"player": "Bob", "goal": goal}]
    assert goal in _everything_public(sharing, services)
    assert desk.phone_state("v1")["mission"]["state"] == "done"

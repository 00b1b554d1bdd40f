"""What a phone may send (issue 33 §3, the write side), on loopback: only a seat link,
only for its own vehicle, with its page's token, from the page's own origin, a small body,
a few a second; a revoked link's requests are refused, queued or not; a retry never
declares twice. Each refusal reaches neither the GM's queue nor the game. And the secret
speeds (§1): accepted, they are applied together as one undoable event."""

from __future__ import annotations

import json
import re
import socket
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from carwars_desktop.gui.phone_share import PhoneSharing
from carwars_desktop.rules import find_procedure, find_ruleset
from carwars_desktop.services import Services, typed_dice
from carwars_desktop.services.phone_requests import RequestState
from carwars_desktop.services.phone_server import (
    PAGE_HEADER,
    REQUEST_BODY,
    SEAT_RATE,
    PhoneMessage,
)
from carwars_desktop.services.share_network import LOOPBACK, Interface
from carwars_desktop.session.setup import Entry, prepare
from carwars_desktop.storage import Database

WAIT_MS = 20_000


def loopback(_allow_public: bool) -> list[Interface]:
    return [Interface(LOOPBACK, f"{LOOPBACK} (this computer only)", True)]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((LOOPBACK, 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def services(database: Database) -> Services:
    services = Services()
    services.table.database = database
    return services


@pytest.fixture
def sharing(qtbot, services: Services) -> Iterator[PhoneSharing]:  # type: ignore[no-untyped-def]
    sharing = PhoneSharing(services, choices=loopback, port=free_port())
    yield sharing
    sharing.end()


def _start(services: Services, ruleset_id: str = "mini_car_wars") -> None:
    ruleset = find_ruleset(ruleset_id)
    catalog = ruleset.catalog()
    designs = (list(catalog) * 3)[:3]
    entries = [Entry(player, name, catalog[design].to_json())
               for player, name, design in zip(["Bob", "Di", "Al"],
                                               ["Red Baron", "Blue Thunder", "Ambusher"],
                                               designs, strict=True)]
    services.table.open(services.table.start(ruleset_id, "Test night", "",
                                             prepare(ruleset, entries)))


def _seats(sharing: PhoneSharing) -> dict[str, str]:
    return {key: url for key, _name, url in sharing.seats()}


def _page(url: str) -> str:
    """The page token the page at ``url`` came with ("" when none)."""
    with urllib.request.urlopen(url + "/", timeout=10) as response:
        found = re.search(rb'<meta name="carwars-page" content="([^"]*)">', response.read())
    assert found is not None
    return found.group(1).decode()


def _origin(url: str) -> str:
    return url.split("/s/")[0]


def _post(url: str, body: dict[str, Any] | bytes, page: str = "", origin: str | None = None,
          ) -> tuple[int, str]:
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    headers = {"Content-Type": "application/json", PAGE_HEADER: page,
               "Origin": _origin(url) if origin is None else origin}
    request = urllib.request.Request(url + "/request", data=data, method="POST",
                                     headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def _speed(key: str, speed: int = 10, turn: int = 1, phase: int = 0) -> dict[str, Any]:
    return {"key": key, "kind": "speed", "turn": turn, "phase": phase,
            "values": {"speed": speed, "reverse": False}}


def _nothing_reached(services: Services, sharing: PhoneSharing, qtbot) -> None:  # type: ignore[no-untyped-def]
    qtbot.wait(300)  # anything passed on would have arrived by now (the queue is checked)
    assert sharing.desk.requests == []
    assert not services.table.running().can_undo()  # no event at all


def test_phone_request_from_the_common_link_or_another_seat_is_refused(
        qtbot, services: Services, sharing: PhoneSharing) -> None:  # type: ignore[no-untyped-def]
    _start(services)
    common = sharing.start(LOOPBACK)
    seats = _seats(sharing)
    assert _page(common) == ""  # the common link's page has no page token
    page_v1, page_v2 = _page(seats["v1"]), _page(seats["v2"])
    assert page_v1 and page_v2 and page_v1 != page_v2
    assert _page(seats["v1"]) != page_v1  # one per page served
    # The common link, with a seat's page token or none: read-only.
    assert _post(common, _speed("common-1"), page_v1)[0] == 403
    assert _post(common, _speed("common-2"))[0] == 403
    # Another seat's token with this page's token, and the other way round.
    assert _post(seats["v2"], _speed("other-01"), page_v1)[0] == 403
    assert _post(seats["v1"], _speed("other-02"), page_v2)[0] == 403
    # No page token, a made-up one.
    assert _post(seats["v1"], _speed("nopage-1"))[0] == 403
    assert _post(seats["v1"], _speed("madeup-1"), "abc.0123456789abcdef0123456789abcdef")[0] \
        == 403
    # GET and PUT on the request: 405.
    assert urllib_status(seats["v1"] + "/request", "GET") == 405
    assert urllib_status(seats["v1"] + "/request", "PUT") == 405
    _nothing_reached(services, sharing, qtbot)
    # A seat sends for its own vehicle only: a body naming another seat changes nothing.
    status, _text = _post(seats["v1"], {**_speed("mine-001"), "seat": "v2"}, page_v1)
    assert status == 202
    qtbot.waitUntil(lambda: len(sharing.desk.requests) == 1, timeout=WAIT_MS)
    assert sharing.desk.requests[0].seat == "v1"


def urllib_status(url: str, method: str) -> int:
    request = urllib.request.Request(url, data=b"{}" if method != "GET" else None,
                                     method=method)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return error.code


def test_phone_request_forged_origin_oversized_body_and_flood_are_refused(
        qtbot, services: Services, sharing: PhoneSharing, capfd) -> None:  # type: ignore[no-untyped-def]
    _start(services)
    sharing.start(LOOPBACK)
    seat = _seats(sharing)["v1"]
    page = _page(seat)
    port = seat.split(":")[2].split("/")[0]
    for origin in ("http://evil.example", "null", "", f"http://localhost:{port}",
                   f"https://{LOOPBACK}:{port}", f"http://{LOOPBACK}:{int(port) + 1}"):
        assert _post(seat, _speed("forged-1"), page, origin)[0] == 403, origin
    big = json.dumps({**_speed("big-0001"), "pad": "x" * REQUEST_BODY}).encode()
    assert _post(seat, big, page)[0] == 413
    assert _post(seat, b"not json", page)[0] == 400
    assert _post(seat, {"kind": "speed"}, page)[0] == 400  # no idempotency key
    _nothing_reached(services, sharing, qtbot)
    # A flood: a few a second pass, the rest get 429 and reach nothing.
    statuses = [_post(seat, _speed(f"flood-{n:04d}"), page)[0] for n in range(3 * SEAT_RATE)]
    passed = statuses.count(202)
    assert 1 <= passed <= SEAT_RATE and statuses.count(429) == len(statuses) - passed
    qtbot.waitUntil(lambda: len(sharing.desk.requests) == passed, timeout=WAIT_MS)
    qtbot.wait(200)
    assert len(sharing.desk.requests) == passed
    err = capfd.readouterr().err
    assert ": 403 " in err and ": 413 " in err and ": 429 " in err
    assert "Traceback" not in err and seat.split("/s/")[1] not in err


def test_phone_request_of_a_revoked_link_is_refused_queued_or_not(
        qtbot, services: Services, sharing: PhoneSharing) -> None:  # type: ignore[no-untyped-def]
    _start(services)
    sharing.start(LOOPBACK)
    old = _seats(sharing)
    page = _page(old["v1"])
    assert _post(old["v1"], _speed("queued-1"), page)[0] == 202
    qtbot.waitUntil(lambda: len(sharing.desk.waiting()) == 1, timeout=WAIT_MS)
    queued = sharing.desk.waiting()[0]
    old_token = queued.token
    sharing.new_link()
    assert queued.state is RequestState.REFUSED and "revoked" in queued.reason
    assert sharing.desk.waiting() == []
    # The old link's future requests: 404 (with its old page token too).
    assert _post(old["v1"], _speed("after-01"), page)[0] == 404
    # One on its way when the link was revoked is dropped on arrival.
    server = sharing.server
    assert server is not None and server._receiver is not None
    server._receiver._queue.append(PhoneMessage("v1", old_token, "inflight", _speed("x")))
    assert server.take_requests() == []
    # The new link works; Stop sharing refuses what it had queued.
    new = _seats(sharing)
    assert _post(new["v1"], _speed("new-0001"), _page(new["v1"]))[0] == 202
    qtbot.waitUntil(lambda: len(sharing.desk.waiting()) == 1, timeout=WAIT_MS)
    waiting = sharing.desk.waiting()[0]
    sharing.stop()
    assert waiting.state is RequestState.REFUSED
    assert not services.table.running().can_undo()


def test_phone_request_retry_with_the_same_key_never_declares_twice(
        qtbot, services: Services, sharing: PhoneSharing) -> None:  # type: ignore[no-untyped-def]
    _start(services)
    sharing.start(LOOPBACK)
    seat = _seats(sharing)["v1"]
    page = _page(seat)
    first = _post(seat, _speed("retry-001"), page)
    again = _post(seat, _speed("retry-001"), _page(seat))  # reloaded page, same request
    assert first[0] == 202 and again[0] == 200 and json.loads(again[1])["again"]
    qtbot.waitUntil(lambda: len(sharing.desk.requests) == 1, timeout=WAIT_MS)
    # Had the server passed it on twice, the desk still queues it once.
    request = sharing.desk.requests[0]
    assert sharing.desk.receive(PhoneMessage("v1", request.token, "retry-001",
                                             _speed("retry-001"))) is None
    assert len(sharing.desk.requests) == 1


def test_phone_request_for_a_passed_turn_or_an_illegal_speed_is_refused_with_a_reason(
        qtbot, services: Services, sharing: PhoneSharing) -> None:  # type: ignore[no-untyped-def]
    _start(services)
    sharing.start(LOOPBACK)
    seat = _seats(sharing)["v1"]
    page = _page(seat)
    assert _post(seat, _speed("late-0001", turn=0), page)[0] == 202
    assert _post(seat, _speed("fast-0001", speed=90), page)[0] == 202
    qtbot.waitUntil(lambda: len(sharing.desk.requests) == 2, timeout=WAIT_MS)
    late, fast = sharing.desk.requests
    assert late.state is RequestState.REFUSED and "turn 0" in late.reason
    assert "turn 1" in late.reason
    assert fast.state is RequestState.REFUSED and "90 mph" in fast.reason
    phone = sharing.desk.phone_state("v1")
    assert [r["reason"] for r in phone["requests"]] == [late.reason, fast.reason]
    assert sharing.desk.waiting() == []
    assert not services.table.running().can_undo()


@pytest.mark.parametrize("ruleset_id", ["mini_car_wars", "battlecars"])
def test_phone_request_secret_speeds_are_applied_together_as_one_event(
        qtbot, services: Services, sharing: PhoneSharing, ruleset_id: str) -> None:  # type: ignore[no-untyped-def]
    _start(services, ruleset_id)
    sharing.start(LOOPBACK)
    seats = _seats(sharing)
    desk = sharing.desk
    game = services.table.running()
    assert desk.waiting_for() == ["Bob", "Di", "Al"] and desk.speeds_in() == (0, 3)
    chosen = {}
    for n, key in enumerate(["v1", "v2", "v3"]):
        choices = desk.phone_state(key)["speeds"]
        assert choices == [c.to_json() for c in desk.speed_choices(key)] and choices
        chosen[key] = choices[-1]
        body = {"key": f"speed-{key}-01", "kind": "speed", "turn": 1, "phase": 0,
                "values": chosen[key]["values"]}
        assert _post(seats[key], body, _page(seats[key]))[0] == 202
        qtbot.waitUntil(lambda: len(desk.waiting()) == 1, timeout=WAIT_MS)
        if n < 2:
            sharing.accept(desk.waiting()[0])
            assert desk.speeds_in() == (n + 1, 3)
            assert not game.can_undo()  # in, not applied
    assert desk.waiting_for() == ["Al"]
    speeds_before = {key: game.sheet(key).speed for key in seats}  # type: ignore[attr-defined]
    sharing.accept(desk.waiting()[0])  # the last one in: all are applied at once
    assert all(r.state is RequestState.ACCEPTED for r in desk.requests)
    assert {key: game.sheet(key).speed for key in seats} == {  # type: ignore[attr-defined]
        key: chosen[key]["values"]["speed"] for key in seats}
    assert desk.waiting_for() == [] and desk.speeds_in() == (0, 0)
    if ruleset_id == "battlecars":  # as the Clock's own reveal: the first car's turn begins
        assert (game.clock.turn, game.clock.phase_name) == (1, "Red Baron's turn")
    summary = game.store.page(0, 5)[-1].event.summary  # type: ignore[attr-defined]
    assert "from Bob's, Di's, Al's phones" in summary
    services.table.undo()  # one event: one undo puts every speed back
    assert {key: game.sheet(key).speed for key in seats} == speeds_before  # type: ignore[attr-defined]
    assert not game.can_undo()
    assert desk.speeds_open() and desk.waiting_for() == ["Bob", "Di", "Al"]  # choose again


def test_phone_request_e_opens_it_in_the_normal_dialog_and_enter_accepts_nothing_else(
        qtbot, window, settings) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtCore import Qt

    sharing = window.phone_sharing
    sharing.interfaces_of = loopback
    sharing.port = free_port()
    window.build_workspaces()
    window.table.open_session(window.services.table.start(
        "mini_car_wars", "Test night", "", prepare(find_ruleset("mini_car_wars"), [
            Entry("Bob", "Red Baron", find_ruleset("mini_car_wars").catalog()["Courier"]
                  .to_json())])))
    qtbot.waitUntil(lambda: window.table.keys.batch is not None)
    sharing.start(LOOPBACK)
    seat = _seats(sharing)["v1"]
    assert _post(seat, _speed("edit-0001", speed=10), _page(seat))[0] == 202
    queue = window.phone_queue
    qtbot.waitUntil(lambda: queue.list.count() == 1, timeout=WAIT_MS)
    assert queue.texts() == ["Bob's phone: a secret speed (allowed by the rules)"]
    queue.list.setFocus()
    qtbot.keyClick(queue.list, Qt.Key.Key_E)
    dialog = window.table.hub.runner.dialog
    assert dialog is not None and dialog.procedure.id == "mini.speed"
    values = dialog._values()
    assert values is not None and values["speed"] == 10
    assert queue.list.count() == 0  # out of the queue: the dialog's result is the event
    assert not window.services.table.running().can_undo()  # nothing applied yet
    dialog.reject()


def test_phone_request_waiting_when_the_phase_passes_is_refused_saying_so(
        qtbot, services: Services, sharing: PhoneSharing) -> None:  # type: ignore[no-untyped-def]
    _start(services)
    sharing.start(LOOPBACK)
    seat = _seats(sharing)["v1"]
    assert _post(seat, _speed("wait-0001"), _page(seat))[0] == 202
    qtbot.waitUntil(lambda: len(sharing.desk.waiting()) == 1, timeout=WAIT_MS)
    request = sharing.desk.waiting()[0]
    game = services.table.running()
    services.table.set_clock(game.clock.advanced(), "phase 2")
    qtbot.waitUntil(lambda: request.state is RequestState.REFUSED, timeout=WAIT_MS)
    assert "that was for turn 1, phase 1; the table is at turn 1, phase 2" in request.reason
    assert sharing.desk.phone_state("v1")["requests"][-1]["reason"] == request.reason
    assert [e.event.summary for e in game.store.page(0, 9)] == ["phase 2"]  # type: ignore[attr-defined]


def test_phone_request_waiting_when_the_session_ends_is_refused_saying_so(
        qtbot, services: Services, sharing: PhoneSharing) -> None:  # type: ignore[no-untyped-def]
    """#33 §3: the session ending revokes the links; what waits is refused, in words,
    and is kept refused in the database (a session closed unfinished keeps its queue)."""
    _start(services)
    sharing.start(LOOPBACK)
    seats = _seats(sharing)
    assert _post(seats["v1"], _speed("before-end"), _page(seats["v1"]))[0] == 202
    qtbot.waitUntil(lambda: len(sharing.desk.waiting()) == 1, timeout=WAIT_MS)
    waiting = sharing.desk.waiting()[0]
    assert services.table.finish() is not None
    assert waiting.state is RequestState.REFUSED and waiting.reason == "the session ended"
    assert sharing.server is None  # nothing more is taken


def test_phone_request_speed_after_the_clocks_s_and_a_move_is_refused_and_nobody_awaited(
        qtbot, window) -> None:  # type: ignore[no-untyped-def]
    """The evening's report (Mini Car Wars §2.3): Courier 0→10 with S at the Table, its
    phase-1 move; the TV, the GM's panel and the phone stop saying "waiting for", and the
    20 its phone sends then is refused citing the rule (the car stays at 10, moved)."""
    sharing = window.phone_sharing
    sharing.interfaces_of = loopback
    sharing.port = free_port()
    window.build_workspaces()
    ruleset = find_ruleset("mini_car_wars")
    courier = ruleset.catalog()["Courier"].to_json()
    players = ["Ann", "Bob", "Cyd", "Dee"]
    window.table.open_session(window.services.table.start(
        "mini_car_wars", "Evening", "", prepare(ruleset, [
            Entry(p, "Courier" if p == "Ann" else f"{p}'s car", courier) for p in players])))
    table = window.table
    qtbot.waitUntil(lambda: table.keys.batch is not None)
    display = window.open_player_display()
    sharing.start(LOOPBACK)
    queue = window.phone_queue
    everyone = "Secret speeds — waiting for: Ann, Bob, Cyd, Dee"

    def tv() -> str:
        return str(display.waiting.property("waiting-for") or "") \
            if display.waiting.isVisibleTo(display) else ""

    qtbot.waitUntil(lambda: tv() == everyone, timeout=WAIT_MS)
    assert queue.speeds.text() == "0 of 4 speeds in — waiting for: Ann, Bob, Cyd, Dee"
    assert "speeds" in sharing.desk.phone_state("v1")
    game = window.services.table.running()

    table.keys.select(1)
    dialog = table.keys.act("speed")  # S: the speed of the selected vehicle
    assert dialog is not None and dialog.procedure.id == "mini.speed"
    dialog.form.set_value("speed", 10)
    dialog.apply()
    qtbot.waitUntil(lambda: game.sheet("v1").speed == 10, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: tv() == "", timeout=WAIT_MS)
    assert queue.speeds.text() == "No secret choice open."
    assert "speeds" not in sharing.desk.phone_state("v1")
    maneuver = find_procedure("mini.maneuver")
    window.services.table.resolve(
        maneuver, maneuver.bind({"vehicle": game.sheet("v1"), "maneuver": "straight"}),
        typed_dice(""), bindings={"vehicle": "v1"}).apply()  # its phase-1 move
    assert game.sheet("v1").phases_used == 1

    seat = _seats(sharing)["v1"]
    assert _post(seat, _speed("late-0020", speed=20), _page(seat))[0] == 202
    qtbot.waitUntil(lambda: len(sharing.desk.requests) == 1, timeout=WAIT_MS)
    late = sharing.desk.requests[0]
    assert late.state is RequestState.REFUSED and "(Mini Car Wars §2.2 §2.3)" in late.reason
    assert queue.list.count() == 0 and queue.speeds.text() == "No secret choice open."
    sharing.reveal()
    assert (game.sheet("v1").speed, game.sheet("v1").phases_used) == (10, 1)
    assert tv() == "" and sharing.desk.waiting_for() == []

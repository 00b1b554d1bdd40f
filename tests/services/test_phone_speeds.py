"""The phones' secret speeds are open only while the turn's speeds are still to be set
(Mini Car Wars §2.2–§2.3: a vehicle changes speed once, at the start of the turn, by
+10 at most; Battlecars §2.2 step 1): a speed set at the Clock (the S key, the speed
dialog) or a vehicle's move this turn closes them — the phones stop offering them, nobody
is "waited for", a speed that arrives after is refused citing the rule, and one accepted
but not revealed yet is never applied on top of the turn's speed."""

from __future__ import annotations

from typing import Any

from carwars_desktop.rules import find_procedure, find_ruleset
from carwars_desktop.rules.battlecars import EXAMPLE_CARD_NAME
from carwars_desktop.rules.builtin import BATTLECARS, MINI_CAR_WARS
from carwars_desktop.rules.mini_car_wars.play.clock import start_turn
from carwars_desktop.services import Services, typed_dice
from carwars_desktop.services.phone_requests import PhoneDesk, PhoneRequest, RequestState
from carwars_desktop.services.phone_server import PhoneMessage
from carwars_desktop.session.setup import Entry, prepare

PLAYERS = ("Ann", "Bob", "Cyd", "Dee")
SEATS = ("v1", "v2", "v3", "v4")


def _start(services: Services, ruleset_id: str) -> PhoneDesk:
    ruleset = find_ruleset(ruleset_id)
    catalog = ruleset.catalog()
    design = "Courier" if ruleset_id == MINI_CAR_WARS.id else EXAMPLE_CARD_NAME
    entries = [Entry(player, f"{player}'s car", catalog[design].to_json())
               for player in PLAYERS]
    table = services.table
    table.open(table.start(ruleset_id, "Evening", "", prepare(ruleset, entries)))
    return PhoneDesk(table)


def _send(desk: PhoneDesk, seat: str, key: str, speed: int, turn: int = 1,
          values: dict[str, Any] | None = None) -> PhoneRequest:
    """A seat's phone sends a speed (a Mini Car Wars one, or ``values`` as offered)."""
    request = desk.receive(PhoneMessage(seat, "token", key, {
        "kind": "speed", "turn": turn, "phase": 0,
        "values": values or {"speed": speed, "reverse": False}}))
    assert request is not None
    return request


def _set_at_the_clock(services: Services, procedure_id: str, seat: str,
                      **inputs: Any) -> None:
    """What S (the speed of the selected vehicle) does at the Table: the speed procedure
    on that vehicle, applied as one ordinary event."""
    table = services.table
    procedure = find_procedure(procedure_id)
    values = procedure.bind({"vehicle": table.running().sheet(seat), **inputs})
    table.resolve(procedure, values, typed_dice(""), bindings={"vehicle": seat}).apply()


def _move(services: Services, seat: str) -> None:
    table = services.table
    procedure = find_procedure("mini.maneuver")
    values = procedure.bind({"vehicle": table.running().sheet(seat), "maneuver": "straight"})
    table.resolve(procedure, values, typed_dice(""), bindings={"vehicle": seat}).apply()


def _closed(desk: PhoneDesk) -> None:
    """Nothing is offered or awaited: the phones, the players' display and the GM's panel
    (which all read these) say no "waiting for"."""
    assert not desk.speeds_open()
    assert desk.waiting_for() == [] and desk.speeds_in() == (0, 0)
    assert all("speeds" not in desk.phone_state(seat) for seat in SEATS)


def test_a_speed_set_at_the_clock_then_a_move_close_the_phones_speeds(
        services: Services) -> None:
    """The evening's report: Courier 0→10 with S, its phase-1 move, then 20 from its
    phone, accepted and revealed: refused, the car stays at 10 having moved."""
    desk = _start(services, MINI_CAR_WARS.id)
    game = services.table.running()
    assert desk.speeds_open() and desk.waiting_for() == list(PLAYERS)
    assert [c["label"] for c in desk.phone_state("v1")["speeds"]] == [
        "0 mph", "10 mph", "10 mph reverse"]

    _set_at_the_clock(services, "mini.speed", "v1", speed=10, reverse=False)
    _closed(desk)
    _move(services, "v1")
    _closed(desk)
    sheet: Any = game.sheet("v1")
    assert (sheet.speed, sheet.phases_used) == (10, 1)

    late = _send(desk, "v1", "late-20", 20)
    assert late.state is RequestState.REFUSED
    assert late.reason == ("this turn's speeds are set already: a vehicle changes speed "
                           "once, at the start of the turn, by +10 at most "
                           "(Mini Car Wars §2.2 §2.3)")
    assert desk.phone_state("v1")["requests"][-1]["reason"] == late.reason
    desk.accept(late)  # refused: accepting it does nothing
    assert desk.reveal() is None
    sheet = game.sheet("v1")
    assert (sheet.speed, sheet.phases_used) == (10, 1)
    assert desk.waiting() == [] and desk.speeds_in() == (0, 0)

    services.table.undo()  # the move undone: the speed set at the Clock still stands
    _closed(desk)
    services.table.undo()  # the speed undone too: the turn's speeds are to be set again
    assert desk.speeds_open() and desk.waiting_for() == list(PLAYERS)
    assert _send(desk, "v1", "again-10", 10).state is RequestState.WAITING


def test_a_speed_in_but_not_revealed_is_never_applied_on_top_of_the_clocks(
        services: Services) -> None:
    desk = _start(services, MINI_CAR_WARS.id)
    game = services.table.running()
    bob = _send(desk, "v2", "bob-10", 10)
    desk.accept(bob)
    assert bob.state is RequestState.IN and desk.speeds_in() == (1, 4)
    dee = _send(desk, "v4", "dee-10", 10)
    assert dee.state is RequestState.WAITING

    _set_at_the_clock(services, "mini.speed", "v2", speed=10, reverse=False)
    assert desk.reveal() is None  # "Reveal the speeds in": nothing applied twice
    assert bob.state is RequestState.REFUSED and "§2.3" in bob.reason
    desk.accept(dee)  # checked again as the game stands: too late
    assert dee.state is RequestState.REFUSED and "§2.3" in dee.reason
    assert game.sheet("v2").speed == 10 and game.sheet("v4").speed == 0  # type: ignore[attr-defined]
    _closed(desk)
    events = [e.event for e in game.store.page(0, 9)]  # type: ignore[attr-defined]
    assert [e.procedure_id for e in events] == ["mini.speed"]  # the Clock's own, alone


def test_a_request_waiting_when_the_clock_sets_a_speed_is_refused_by_expire(
        services: Services) -> None:
    """The Table tells the desk of every change (:meth:`PhoneDesk.expire`): what waits or
    is in for a turn whose speeds were set at the Clock is refused, saying why."""
    desk = _start(services, MINI_CAR_WARS.id)
    waiting = _send(desk, "v3", "cyd-10", 10)
    _set_at_the_clock(services, "mini.speed", "v1", speed=0, reverse=False)
    assert desk.expire()
    assert waiting.state is RequestState.REFUSED and "at the start of the turn" in waiting.reason


def _next_turn_at_the_clock(services: Services, speed: str) -> None:
    """The Clock's end-of-turn form: every vehicle's new speed ``speed``, one event."""
    table = services.table
    game = table.running()
    sheets: Any = {v.key: game.sheet(v.key) for v in game.vehicles}
    names = {v.key: v.name for v in game.vehicles}
    started = start_turn(sheets, {key: speed for key in sheets}, names, game.house)
    clock = game.clock
    for _ in range(len(clock.phases)):
        clock = clock.advanced()
    table.set_clock(clock, f"Turn {clock.turn} begins: new speeds", started.sheets,
                    started.steps)
    assert (game.clock.turn, game.clock.phase) == (2, 0)


def test_a_move_alone_closes_the_turns_speeds(services: Services) -> None:
    """Turn 2 started at the Clock's end of turn with every speed kept (10, set in turn
    1): the phones may still choose in its first phase until a vehicle moves."""
    desk = _start(services, MINI_CAR_WARS.id)
    for seat in SEATS:
        _set_at_the_clock(services, "mini.speed", seat, speed=10, reverse=False)
    _next_turn_at_the_clock(services, "10")
    assert desk.speeds_open() and desk.waiting_for() == list(PLAYERS)
    _move(services, "v1")
    _closed(desk)
    late = _send(desk, "v1", "late-t2", 20, turn=2)
    assert late.state is RequestState.REFUSED and "Mini Car Wars §2.2 §2.3" in late.reason


def test_speeds_entered_at_the_clocks_end_of_turn_are_the_turns_speeds(
        services: Services) -> None:
    """Turn 2 started at the Clock's end of turn with new speeds (0 → 10): those are the
    turn's speed change (§2.3: once, +10 at most), so a phone's 20 never goes on top."""
    desk = _start(services, MINI_CAR_WARS.id)
    _next_turn_at_the_clock(services, "10")
    _closed(desk)
    late = _send(desk, "v1", "late-t2b", 20, turn=2)
    assert late.state is RequestState.REFUSED and "Mini Car Wars §2.2 §2.3" in late.reason
    assert services.table.running().sheet("v1").speed == 10  # type: ignore[attr-defined]
    services.table.undo()  # the new turn undone: turn 1's choice, before any move
    assert services.table.running().clock.turn == 1


def test_the_normal_secret_speeds_still_reveal_together_once(services: Services) -> None:
    desk = _start(services, MINI_CAR_WARS.id)
    game = services.table.running()
    requests = [_send(desk, seat, f"{seat}-10", 10) for seat in SEATS]
    for n, request in enumerate(requests):
        assert desk.waiting_for() == list(PLAYERS[n:])
        desk.accept(request)
    assert all(r.state is RequestState.ACCEPTED for r in requests)
    assert all(game.sheet(seat).speed == 10 for seat in SEATS)  # type: ignore[attr-defined]
    _closed(desk)
    again = _send(desk, "v1", "v1-again", 20)  # after the reveal: the same rule
    assert again.state is RequestState.REFUSED and "§2.3" in again.reason
    assert game.sheet("v1").speed == 10  # type: ignore[attr-defined]
    services.table.undo()  # the reveal undone: chosen again
    assert desk.speeds_open() and desk.waiting_for() == list(PLAYERS)


def test_battlecars_speed_set_at_the_clock_closes_the_rounds_speeds(
        services: Services) -> None:
    desk = _start(services, BATTLECARS.id)
    game = services.table.running()
    assert desk.speeds_open() and desk.waiting_for() == list(PLAYERS)
    choice = next(c for c in desk.speed_choices("v1") if c.values["speed"] > 0)
    bob = _send(desk, "v2", "bob-1", 0, values=dict(choice.values))
    desk.accept(bob)
    assert bob.state is RequestState.IN
    _set_at_the_clock(services, "battlecars.speed", "v1", **dict(choice.values))
    _closed(desk)
    assert game.sheet("v1").speed == choice.values["speed"]  # type: ignore[attr-defined]
    assert desk.reveal() is None and bob.state is RequestState.REFUSED
    assert bob.reason == ("this round's speeds are set already: every speed is set once, "
                          "at the start of the round (Battlecars §2.2 step 1)")
    assert game.sheet("v2").speed == 0  # type: ignore[attr-defined]


def test_a_refused_speed_logged_at_the_table_sets_nothing_and_leaves_them_open(
        services: Services) -> None:
    desk = _start(services, MINI_CAR_WARS.id)
    game = services.table.running()
    _set_at_the_clock(services, "mini.speed", "v1", speed=30, reverse=False)  # 0 → 30: no
    events = [e.event for e in game.store.page(0, 9)]  # type: ignore[attr-defined]
    assert [(e.procedure_id, e.updates) for e in events] == [("mini.speed", ())]
    assert desk.speeds_open() and desk.waiting_for() == list(PLAYERS)
    assert _send(desk, "v1", "ok-10", 10).state is RequestState.WAITING

"""Battlecars shots declared from the phones (issue 33 §1; digest §2.9, BC-D26): in its
own Turn a car's phone declares a shot with the fire procedure's own fields, sees its need
and exact odds, types its dice; the GM accepts and the shot is fired as one ordinary
event logged "from Bob's phone". Outside its Turn a phone may only return fire, one round
at its attacker, once it was fired at; anything else is refused with §2.9's reason."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from carwars_desktop.gui.phone_share import PhoneSharing
from carwars_desktop.rules.battlecars.play.return_fire import turn_of
from carwars_desktop.services import Services
from carwars_desktop.services.phone_requests import RequestState
from carwars_desktop.services.phone_server import PhoneMessage
from tests.gui.test_phone_request_writes import _start, free_port, loopback


@pytest.fixture
def sharing(qtbot, services: Services) -> Iterator[PhoneSharing]:  # type: ignore[no-untyped-def]
    sharing = PhoneSharing(services, choices=loopback, port=free_port())
    yield sharing
    sharing.end()


def _shot(key: str, game, target: str, mount: str, **extra: object) -> dict[str, object]:  # type: ignore[no-untyped-def]
    return {"kind": "shot", "turn": game.clock.turn, "phase": game.clock.phase,
            "values": {"target": target, "mount": mount, "area": "front",
                       "bearing": "ahead", "points_between": 2, **extra}}


def _dice(game, shot: str, dice: str) -> dict[str, object]:  # type: ignore[no-untyped-def]
    return {"kind": "dice", "turn": game.clock.turn, "phase": game.clock.phase,
            "values": {"shot": shot, "dice": dice}}


def test_phone_request_battlecars_shot_own_turn_and_return_fire(
        qtbot, services: Services, sharing: PhoneSharing) -> None:  # type: ignore[no-untyped-def]
    _start(services, "battlecars")
    desk = sharing.desk
    table = services.table
    game = table.running()
    assert desk.shot_options("v1") is None  # the speeds phase: nobody fires
    table.set_clock(game.clock.advanced(), "the first car's Turn")
    moving = turn_of(game.clock)
    assert moving == "Red Baron"
    options = desk.shot_options("v1")
    assert options is not None and options["mode"] == "own-turn"
    mount = options["mounts"][0]["value"]
    theirs = desk.shot_options("v2")
    assert theirs is not None and theirs["mode"] == "return-fire"
    # Di cannot fire first outside her Turn: return fire only when fired at (§2.9).
    early = desk.receive(PhoneMessage("v2", "t", "di-shot-01",
                                      _shot("", game, "v1", theirs["mounts"][0]["value"])))
    assert early is not None and early.state is RequestState.REFUSED
    assert "has not fired at" in early.reason
    wrong = desk.receive(PhoneMessage("v1", "t", "bob-bad-01", _shot("", game, "v2", "Nope")))
    assert wrong is not None and wrong.state is RequestState.REFUSED
    shot = desk.receive(PhoneMessage("v1", "t", "bob-shot-1", _shot("", game, "v2", mount)))
    assert shot is not None and shot.state is RequestState.WAITING, shot.reason
    assert "need" in shot.odds and "%" in shot.odds and shot.values["dice_needed"]
    state = desk.phone_state("v1")
    assert state["shots"][0]["odds"] == shot.odds  # the phone shows it before the dice
    events = game.store.count()  # type: ignore[attr-defined]
    sharing.accept(shot)
    assert shot.state is RequestState.ACCEPTED
    assert game.store.count() == events  # type: ignore[attr-defined]  # waits for the dice
    bad = desk.receive(PhoneMessage("v1", "t", "bob-dice-1", _dice(game, "bob-shot-1", "x")))
    assert bad is not None and bad.state is RequestState.REFUSED
    dice = desk.receive(PhoneMessage("v1", "t", "bob-dice-2",
                                     _dice(game, "bob-shot-1", "8811")))
    assert dice is not None and dice.state is RequestState.ACCEPTED, dice.reason
    last = game.store.last_active()  # type: ignore[attr-defined]
    assert last is not None and "from Bob's phone" in last.event.summary
    assert game.can_undo()
    # Now Di may return fire: one round, only at her attacker.
    at_other = desk.receive(PhoneMessage("v2", "t", "di-shot-02", _shot(
        "", game, "v3", theirs["mounts"][0]["value"])))
    assert at_other is not None and at_other.state is RequestState.REFUSED
    assert "only at its attacker" in at_other.reason
    back = desk.receive(PhoneMessage("v2", "t", "di-shot-03", _shot(
        "", game, "v1", theirs["mounts"][0]["value"])))
    assert back is not None and back.state is RequestState.WAITING, back.reason
    assert "return-fire" in back.summary

"""AUTOpower from the phones (issue 33 §1; digest §2.6, §2.8): the active player's phone
asks for an attack with the Fighting (and IQ) cards played — typed values, the session
tracking the hand's size, not its faces — sees the need and exact odds, and once the GM
accepts, the dice typed there roll it as one event "from Bob's phone"; a control roll is
asked for only when one is due, with its IQ cards. Out of turn, or cards the hand does not
hold, are refused with the rules' reason."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from carwars_desktop.gui.phone_share import PhoneSharing
from carwars_desktop.rules import find_procedure, find_ruleset
from carwars_desktop.rules.builtin import AUTOPOWER
from carwars_desktop.services import Services
from carwars_desktop.services.phone_requests import RequestState
from carwars_desktop.services.phone_server import PhoneMessage
from carwars_desktop.session.house_rules import HouseRules
from carwars_desktop.session.setup import Entry, prepare
from tests.gui.test_phone_request_writes import _start, free_port, loopback


@pytest.fixture
def sharing(qtbot, services: Services) -> Iterator[PhoneSharing]:  # type: ignore[no-untyped-def]
    sharing = PhoneSharing(services, choices=loopback, port=free_port())
    yield sharing
    sharing.end()


def _ask(game, kind: str, **values: object) -> dict[str, object]:  # type: ignore[no-untyped-def]
    return {"kind": kind, "turn": game.clock.turn, "phase": game.clock.phase,
            "values": values}


def test_phone_request_autopower_attack_with_typed_cards_and_dice(
        qtbot, services: Services, sharing: PhoneSharing) -> None:  # type: ignore[no-untyped-def]
    _start(services, "autopower")
    desk = sharing.desk
    table = services.table
    game = table.running()
    assert desk.roll_options("v1") is not None
    while game.clock.phase_name.rpartition(": ")[2] != "combat":
        table.set_clock(game.clock.advanced(), "on to the combat phase")
    active = game.clock.phase_name.rpartition(": ")[0]
    seat = next(v.key for v in game.vehicles if v.name == active)
    other = next(v.key for v in game.vehicles if v.key != seat)
    idle = desk.receive(PhoneMessage(other, "t", "idle-atk-1", _ask(
        game, "attack", target=seat, cards="3")))
    assert idle is not None and idle.state is RequestState.REFUSED
    assert "only the active player attacks" in idle.reason
    too_many = desk.receive(PhoneMessage(seat, "t", "many-atk-1", _ask(
        game, "attack", target=other, cards="1, 1, 1, 1, 1, 1, 1, 1")))
    assert too_many is not None and too_many.state is RequestState.REFUSED
    # The Control Rolls variant (§2.8) is off under the digest's defaults: the phone shows
    # no control-roll button, and a control roll asked for all the same is refused.
    assert desk.roll_options(seat)["kinds"] == ["attack"]  # type: ignore[index]
    off = desk.receive(PhoneMessage(seat, "t", "ctl-off-01", _ask(game, "control")))
    assert off is not None and off.state is RequestState.REFUSED
    assert "Control roll variant (§2.8) is off in this session's house rules" in off.reason
    attack = desk.receive(PhoneMessage(seat, "t", "bob-atk-01", _ask(
        game, "attack", target=other, cards="3, 4", iq_cards="2")))
    assert attack is not None and attack.state is RequestState.WAITING, attack.reason
    odds = find_procedure("autopower.attack").odds(
        {"firer": game.sheet(seat), "target": game.sheet(other), "cards": "3, 4",
         "iq_cards": "2"}, game.house)
    assert f"need {odds.need}+" in attack.odds
    assert desk.phone_state(seat)["shots"][0]["odds"] == attack.odds
    events = game.store.count()  # type: ignore[attr-defined]
    sharing.accept(attack)
    assert attack.state is RequestState.ACCEPTED
    assert game.store.count() == events  # type: ignore[attr-defined]  # the dice first
    dice = desk.receive(PhoneMessage(seat, "t", "bob-dice-1", _ask(
        game, "dice", shot="bob-atk-01", dice="66")))
    assert dice is not None and dice.state is RequestState.ACCEPTED, dice.reason
    last = game.store.last_active()  # type: ignore[attr-defined]
    assert last is not None and f"(from {desk.player_of(seat)}'s phone)" in last.event.summary
    assert game.can_undo()


def test_phone_request_autopower_control_roll_with_the_variant_on(
        qtbot, services: Services, sharing: PhoneSharing) -> None:  # type: ignore[no-untyped-def]
    ruleset = find_ruleset(AUTOPOWER.id)
    catalog = ruleset.catalog()
    entries = [Entry(player, name, catalog[design].to_json()) for player, name, design
               in zip(["Bob", "Di"], ["Red Baron", "Blue Thunder"], list(catalog)[:2],
                      strict=True)]
    services.table.open(services.table.start(
        AUTOPOWER.id, "Control night", "", prepare(ruleset, entries),
        house_rules=HouseRules(values={"AP-control-rolls": True})))
    desk = sharing.desk
    game = services.table.running()
    assert desk.roll_options("v1")["kinds"] == ["attack", "control"]  # type: ignore[index]
    none_due = desk.receive(PhoneMessage("v1", "t", "ctl-none-1", _ask(game, "control")))
    assert none_due is not None and none_due.state is RequestState.REFUSED
    assert "no control roll is due" in none_due.reason


def test_phone_request_autopower_vehicles_chosen_secretly_revealed_together(
        qtbot, services: Services, sharing: PhoneSharing) -> None:  # type: ignore[no-untyped-def]
    from carwars_desktop.rules.autopower import CarSheet

    _start(services, "autopower")
    desk = sharing.desk
    game = services.table.running()
    cards = list(desk.vehicle_choices())
    assert len(cards) >= 2 and desk.phone_state("v1")["vehicles"]
    assert desk.waiting_for() == ["Bob", "Di", "Al"]
    bad = desk.receive(PhoneMessage("v1", "t", "card-bad-1", _ask(game, "vehicle",
                                                                 card="Nobody")))
    assert bad is not None and bad.state is RequestState.REFUSED
    chosen = {"v1": cards[0], "v2": cards[1], "v3": cards[0]}
    requests = []
    for seat, card in chosen.items():
        request = desk.receive(PhoneMessage(seat, "t", f"card-{seat}-01",
                                            _ask(game, "vehicle", card=card)))
        assert request is not None and request.state is RequestState.WAITING, request.reason
        requests.append(request)
    # Each phone shows its own card only, the others' never (the TV: whose is awaited).
    for seat in ("v1", "v2", "v3"):
        assert desk.phone_state(seat)["vehicle_sent"] == chosen[seat]
    others = json.dumps(desk.phone_state("v2"))
    assert "card-v1-01" not in others and "card-v3-01" not in others
    sharing.accept(requests[0])
    sharing.accept(requests[1])
    assert desk.waiting_for() == ["Al"]
    assert not game.can_undo()  # nothing revealed yet
    assert all(isinstance(game.sheet(k), CarSheet) for k in chosen)
    before = {k: game.sheet(k).to_json() for k in chosen}  # type: ignore[attr-defined]
    sharing.accept(requests[2])  # the last one in: revealed together, one event
    last = game.store.last_active()  # type: ignore[attr-defined]
    assert last is not None and last.event.summary.startswith("Vehicles revealed: ")
    assert all(card in last.event.summary for card in chosen.values())
    assert all(game.sheet(k).car.name == card  # type: ignore[attr-defined]
               for k, card in chosen.items())
    assert before != {k: game.sheet(k).to_json() for k in chosen}  # type: ignore[attr-defined]
    assert desk.waiting_for() == [] and not desk.vehicles_open()
    services.table.undo()
    assert desk.vehicles_open()  # undone: chosen again

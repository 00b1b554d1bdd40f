"""The players see the need and the exact odds while the GM fills the form, before any
die is typed (#28 §4); hidden odds and hidden vehicles still never reach them."""

from __future__ import annotations

from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.table.procedure_dialog import ProcedureDialog
from carwars_desktop.services.players_feed import PlayersFeed
from carwars_desktop.services.players_view import players_view
from carwars_desktop.session.visibility import Visibility


def test_the_need_and_odds_reach_the_players_before_the_dice(  # type: ignore[no-untyped-def]
        window: MainWindow, start_session, qtbot) -> None:
    table = start_session("mini_car_wars", [("Ann", "Killer Kart"), ("Bo", "Courier")])
    service = table.context.service
    feed = PlayersFeed(service)
    service.bus.subscribe(feed.heard)
    game = table.context.service.game
    assert game is not None
    table.keys.select(1)
    dialog = table.keys.act("fire")
    assert isinstance(dialog, ProcedureDialog)
    for name, value in (("weapon", "1"), ("target", "v2"), ("side", "F")):
        dialog.form.set_value(name, value)  # the fields the GM types (#28 §3)
    dialog.form.set_value("range", "3")
    assert dialog.dice_edit.text() == "" and dialog.pending is None  # no die typed yet
    odds = dialog.odds
    assert odds is not None and odds.need is not None
    roll = players_view(game, roll=service.roll).roll
    assert roll is not None and roll.state == "preparing"
    assert roll.need == odds.need and roll.odds and roll.odds in odds.summary
    assert {name for _label, name in roll.parties} == {"Killer Kart", "Courier"}
    assert feed.snapshot()["roll"]["need"] == odds.need  # the phones' page too
    dialog.form.set_value("range", "6")  # the form changes: the players follow it
    changed = players_view(game, roll=service.roll).roll
    assert changed is not None and dialog.odds is not None and changed.need == dialog.odds.need
    # Hidden odds stay hidden; a hidden vehicle hides the whole roll.
    service.set_visibility(Visibility(odds_shown=False))
    dialog.form.set_value("range", "5")
    hidden = players_view(game, roll=service.roll).roll
    assert hidden is not None and hidden.need is None and hidden.odds == ""
    assert hidden.modifiers == () and feed.snapshot()["roll"]["odds"] == ""
    service.set_visibility(Visibility(hidden_vehicles=frozenset({"v2"})))
    dialog.form.set_value("range", "4")
    assert players_view(game, roll=service.roll).roll is None
    assert feed.snapshot()["roll"] is None
    service.set_visibility(Visibility())
    dialog.form.set_value("range", "3")
    assert players_view(game, roll=service.roll).roll is not None
    dialog.reject()  # closed without a roll: nothing in progress any more
    assert players_view(game, roll=service.roll).roll is None
    assert feed.snapshot()["roll"] is None

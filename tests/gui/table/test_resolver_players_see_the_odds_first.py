"""The Resolver bound to a running session tells the players' display the need and the
exact odds while the GM fills its form, before any die is typed (#28 §4), as the Table's
dialog does; its result applied stays what they see until the GM changes the form, and
another workspace on screen withdraws the roll in progress."""

from __future__ import annotations

from typing import Any

from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.resolver_workspace import ResolverWorkspace
from carwars_desktop.services.players_feed import PlayersFeed
from carwars_desktop.services.players_view import players_view


def _resolver(window: MainWindow) -> ResolverWorkspace:
    resolver = next(w for w in window.workspaces if isinstance(w, ResolverWorkspace))
    window._rail.setCurrentRow(window.workspaces.index(resolver))
    return resolver


def test_the_resolvers_form_reaches_the_players_before_the_dice(
        window: MainWindow, start_session: Any, qtbot: Any) -> None:
    window.show()
    qtbot.waitExposed(window)
    table = start_session("mini_car_wars", [("Ann", "Killer Kart"), ("Bo", "Courier")])
    service = table.context.service
    feed = PlayersFeed(service)
    service.bus.subscribe(feed.heard)
    game = table.context.service.game
    assert game is not None
    resolver = _resolver(window)
    qtbot.waitUntil(resolver.isVisible)
    resolver.select_procedure("mini.fire")
    resolver.form.set_value("side", "F")
    resolver.form.set_value("range", "3")
    odds = resolver.odds
    assert odds is not None and odds.need is not None and resolver.dice_edit.text() == ""
    roll = players_view(game, roll=service.roll).roll
    assert roll is not None and roll.state == "preparing"
    assert roll.need == odds.need and roll.odds and roll.odds in odds.summary
    assert {name for _label, name in roll.parties} == {"Killer Kart", "Courier"}
    assert feed.snapshot()["roll"]["need"] == odds.need  # the phones' page too
    resolver.form.set_value("range", "6")  # the form changes: the players follow it
    changed = players_view(game, roll=service.roll).roll
    assert changed is not None and resolver.odds is not None
    assert changed.state == "preparing" and changed.need == resolver.odds.need
    # Resolved, then applied: the players see the result, not the form redrawn after it.
    resolver.dice_edit.setText("1 1")
    resolver.resolve_entered()
    assert players_view(game, roll=service.roll).roll.state == "shown"  # type: ignore[union-attr]
    resolver.apply()
    applied = players_view(game, roll=service.roll).roll
    assert applied is not None and applied.state == "applied"
    resolver.form.set_value("range", "2")  # the next roll
    again = players_view(game, roll=service.roll).roll
    assert again is not None and again.state == "preparing"
    # The Table on screen: the Resolver's form is no longer a roll in progress.
    window._rail.setCurrentRow(window.workspaces.index(window.table))
    qtbot.waitUntil(lambda: not resolver.isVisible())
    assert players_view(game, roll=service.roll).roll is None
    assert feed.snapshot()["roll"] is None


def test_without_a_session_the_resolver_announces_nothing(
        window: MainWindow, qtbot: Any) -> None:
    window.show()
    qtbot.waitExposed(window)
    resolver = _resolver(window)
    qtbot.waitUntil(resolver.isVisible)
    resolver.select_procedure("mini.fire")
    resolver.form.set_value("firer", "Courier (b)")
    resolver.form.set_value("target", "Courier")
    resolver.form.set_value("range", "3")
    assert resolver.odds is not None and resolver.context.service.roll is None

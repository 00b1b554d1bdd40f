"""AUTOpower designs as the library keeps them: cars (hero cards) and decks of power cards.

A car's cost is its stat total E + F + S + I and its class the division it enters
(15, 20, 25; none above 25, AP-D2); a deck has neither (its warnings, such as the
multi-icon share, never make it illegal).
"""

from __future__ import annotations

from carwars_desktop.rules.autopower.car import Car
from carwars_desktop.rules.autopower.deck import Deck
from carwars_desktop.rules.autopower.options import Options
from carwars_desktop.rules.builtin import AUTOPOWER
from carwars_desktop.rules.ruleset import VEHICLE, DesignFigures, DesignKind, Problem

DECK = "deck"


def _car_figures(car: Car) -> DesignFigures:
    return DesignFigures(car.total, car.car_class)


def _deck_figures(deck: Deck) -> DesignFigures:
    return DesignFigures(warnings=tuple(deck.warnings()))


def total_text(total: int | None) -> str:
    return "—" if total is None else f"total {total}"


def division_text(division: int | None) -> str:
    return "no division" if division is None else f"Division {division}"


def entry_problems(car: Car, options: Options | None) -> tuple[Problem, ...]:
    """What keeps ``car`` out of a duel under ``options`` (§2.2 step 1: each player
    chooses a car that fits the division; AP-D2: total ≤ N enters Division N).

    Every problem of the car under the duel's division is refused, as a Battlecars card
    with problems is; a car above 25 in a duel of no fixed division is the digest's
    "allowed only by agreement" (§1.1), shown but not refused.
    """
    chosen = options if options is not None else Options()
    return tuple(p for p in car.problems_for(chosen) if p.code != "division-none")


def _new_car(name: str) -> Car:
    return Car(name, 0, 0, 0, 0)


def _new_deck(name: str) -> Deck:
    return Deck(name, ())


CAR_KIND: DesignKind[Car, Options] = DesignKind(
    ruleset=AUTOPOWER, kind=VEHICLE, title="Car",
    default_name="New car", design_type=Car, reader=Car.from_json, new=_new_car,
    figures=_car_figures, cost_text=total_text, class_text=division_text,
    house_problems=lambda car, options: car.problems_for(options),
    entry_problems=entry_problems,
)
DECK_KIND: DesignKind[Deck, Options] = DesignKind(
    ruleset=AUTOPOWER, kind=DECK, title="Deck",
    default_name="New deck", design_type=Deck, reader=Deck.from_json, new=_new_deck,
    figures=_deck_figures,
)

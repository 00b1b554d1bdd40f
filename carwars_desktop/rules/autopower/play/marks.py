"""The GM's hand marks on an AUTOpower car, each made with the engine's own functions.

Damage goes through the engine's kill check (``take_damage``); Strength cards
through ``play_armor`` (the 10E cap); anything else is set on the sheet, whose
constructor refuses a state the rules cannot reach.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from carwars_desktop.rules.autopower import CarSheet, ControlPenalty
from carwars_desktop.rules.autopower.armor import play_armor
from carwars_desktop.rules.autopower.damage import take_damage
from carwars_desktop.rules.autopower.errors import AutopowerError
from carwars_desktop.rules.autopower.play import car_sheet, status
from carwars_desktop.rules.play import Mark, MarkError, status_changes
from carwars_desktop.rules.ruleset import RecordSheet


def _mark(before: CarSheet, after: CarSheet, summary: str, steps: list[str]) -> Mark:
    if after == before:
        raise MarkError("that mark changes nothing on the sheet")
    return Mark(after, summary, tuple(steps + status_changes(status(before), status(after))))


def _changed(sheet: CarSheet, **changes: Any) -> CarSheet:
    try:
        return replace(sheet, **changes)
    except AutopowerError as error:
        raise MarkError(str(error)) from None


def add_damage(record: RecordSheet, amount: int) -> Mark:
    sheet = car_sheet(record)
    if amount <= 0:
        raise MarkError("damage to mark must be 1 or more")
    try:
        after, step = take_damage(sheet, amount)
    except AutopowerError as error:
        raise MarkError(str(error)) from None
    return _mark(sheet, after, f"{amount} damage marked", [str(step)])


def set_hand(record: RecordSheet, cards: int) -> Mark:
    sheet = car_sheet(record)
    after = _changed(sheet, hand_size=cards)
    return _mark(sheet, after, f"hand {sheet.hand_size} → {cards} cards", [])


def play_strength(record: RecordSheet, value: int) -> Mark:
    sheet = car_sheet(record)
    try:
        after, steps = play_armor(sheet, (value,))
    except AutopowerError as error:
        raise MarkError(str(error)) from None
    return _mark(sheet, after, f"Strength {value} played as armor", [str(s) for s in steps])


def remove_card(record: RecordSheet, pile: str, index: int) -> Mark:
    """Correction: take an Energy or Strength card out of play (it does not go back to hand)."""
    sheet = car_sheet(record)
    cards = sheet.energy_in_play if pile == "energy" else sheet.strength_in_play
    if not 0 <= index < len(cards):
        raise MarkError(f"no {pile} card {index + 1} in play")
    left = cards[:index] + cards[index + 1:]
    after = _changed(sheet, **{f"{pile}_in_play": left})
    return _mark(sheet, after, f"correction: {pile.capitalize()} {cards[index]} taken out of "
                               "play", [f"{after.speed_text()}; {after.armor_text()}"])


def set_declared_speed(record: RecordSheet, speed: int) -> Mark:
    sheet = car_sheet(record)
    if sheet.energy_in_play:
        raise MarkError("with Energy cards in play the speed is E + cards (AP-D5)")
    after = _changed(sheet, declared_speed=speed)
    return _mark(sheet, after, f"declared speed {sheet.declared_speed} → {speed}", [])


def set_penalty(record: RecordSheet, which: str, penalty: str) -> Mark:
    """``which`` is ``this_turn`` or ``next_turn``; ``penalty`` a :class:`ControlPenalty` value."""
    sheet = car_sheet(record)
    value = ControlPenalty(penalty)
    field = "penalty_this_turn" if which == "this_turn" else "next_turn_penalty"
    after = _changed(sheet, **{field: value})
    when = "this turn" if which == "this_turn" else "next turn"
    return _mark(sheet, after, f"control {when}: {value.label}", [])


def kill(record: RecordSheet) -> Mark:
    sheet = car_sheet(record)
    if sheet.killed:
        raise MarkError(f"{sheet.name} is already killed")
    return _mark(sheet, _changed(sheet, killed=True), "killed (GM's ruling)", [])

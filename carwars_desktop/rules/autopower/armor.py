"""Armor: Strength cards played beside the car (digest §2.5, AP-D8, AP-D23)."""

from __future__ import annotations

from dataclasses import replace

from carwars_desktop.procedures import Step
from carwars_desktop.rules.autopower.cards import cards_text
from carwars_desktop.rules.autopower.errors import IllegalPlayError
from carwars_desktop.rules.autopower.sheet import CarSheet
from carwars_desktop.rules.autopower.tables import ARMOR_POINTS_PER_SPEED, rule


def play_armor(sheet: CarSheet, cards: tuple[int, ...]) -> tuple[CarSheet, list[Step]]:
    """Play Strength cards from the hand as armor; they stay for good (AP-D23).

    Raises:
        IllegalPlayError: a killed car, more cards than the hand holds, or a card that
            would take the added armor over 10 × E (it cannot be played, §2.5 step 2).
    """
    car = sheet.car
    if sheet.killed:
        raise IllegalPlayError(f"{car.name} is killed and takes no more turns (§2.7)")
    if len(cards) > sheet.hand_size:
        raise IllegalPlayError(
            f"{car.name} holds {sheet.hand_size} cards and cannot play {len(cards)}")
    added = sheet.added_armor
    for value in cards:
        if added + value > sheet.armor_cap:
            raise IllegalPlayError(
                f"Strength {value} would bring {car.name}'s added armor to {added + value}, over "
                f"the cap 10 × E{car.energy} = {sheet.armor_cap}: it cannot be played (§2.5)")
        added += value
    changed = replace(sheet.spend_cards(len(cards)),
                      strength_in_play=sheet.strength_in_play + cards)
    steps: list[Step] = []
    if cards:
        steps.append(Step(f"{car.name} plays Strength {cards_text(cards)} beside the car; they "
                          "stay for good", rule("2.5", "AP-D23")))
    else:
        steps.append(Step(f"{car.name} plays no Strength card", rule("2.5")))
    steps.append(Step(f"added armor {cards_text(changed.strength_in_play)} = "
                      f"{changed.added_armor} ≤ cap 10 × E{car.energy} = {changed.armor_cap}",
                      rule("2.5", "AP-D8")))
    steps.append(Step(changed.armor_text(), rule("2.5")))
    steps.append(Step(f"speed penalty ⌊{changed.added_armor}/{ARMOR_POINTS_PER_SPEED}⌋ = "
                      f"{changed.speed_penalty}: {changed.speed_text()}", rule("2.5", "AP-D27")))
    return changed, steps

"""The Table's quick-entry line: a small grammar read into a procedure and its presets.

``2 mg 1 f 5`` is "vehicle 2 fires its MG at vehicle 1's front at 5 inches";
``7 f`` is "7 points of damage to the front of the selected vehicle" (``1 7 f`` names
the vehicle). The grammar (the user guide has it with examples)::

    line    := (shot | damage) [":" DICE]
    shot    := VEHICLE WEAPON [VEHICLE [SIDE] [NUMBER…]]   (FLAG words anywhere after
               the target: Battlecars ``ret`` return fire, ``own`` own Turn; Mini Car
               Wars ``g``/``gunner``, ``d``/``driver``: who fires; a weapon that aims
               at no one, a Mini Car Wars smokescreen, takes no target: ``4 smoke``)
    damage  := [VEHICLE] AMOUNT SIDE
    VEHICLE := the number on the vehicle's sheet (1, 2, …)
    WEAPON  := a word naming the firer's weapon (mg, rl, rocket…) or the attack itself
               (AUTOpower: attack, laser, ram)
    SIDE    := a side or armour area of the ruleset (f, b, l, r, t; lf, rc…)
    NUMBER  := the range (inches, points between) or, in AUTOpower, the cards played
    DICE    := the dice thrown, single-digit dice with or without spaces (``543``)

Every word is checked; an error names the word that is wrong and where it is
(:class:`QuickEntryError`), so the line can point at it. Each ruleset's words
(:class:`~carwars_desktop.rules.table_input.QuickRules`) come with its rules
(``rules/<id>/play/table.py``); nothing here depends on Qt.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from carwars_desktop.rules import find_procedure
from carwars_desktop.rules.table_input import QuickRules
from carwars_desktop.services.house_rules import not_offered_in_session

_NUMBER = re.compile(r"^[0-9]+(\.[0-9]+)?$|^[0-9]+/[0-9]+$")  # ASCII digits only
_DIGITS = re.compile(r"^[0-9]+$")


@dataclass(frozen=True)
class Word:
    """One word of the line and where it is (``start`` to ``end``, characters)."""

    text: str
    start: int
    end: int


class QuickEntryError(ValueError):
    """A line that does not read: ``word`` is the one that is wrong (None: the line ends
    too early), ``start``/``end`` where it is."""

    def __init__(self, message: str, word: Word | None = None, line: str = "") -> None:
        super().__init__(message)
        self.word = word
        self.line = line
        self.start = word.start if word is not None else len(line)
        self.end = word.end if word is not None else len(line)

    def pointer(self) -> str:
        """A caret line under the wrong word (``      ^^``)."""
        return " " * self.start + "^" * max(1, self.end - self.start)


def words(line: str) -> list[Word]:
    """The words of ``line``, with their places. A number and a word need no space
    between them (``1mg2f5`` reads as ``1 mg 2 f 5``); two numbers do (``5 3``)."""
    return [Word(m.group(), m.start(), m.end())
            for m in re.finditer(r"[0-9][0-9./]*|[^\s0-9]+", line)]


@dataclass(frozen=True)
class QuickCommand:
    """A line read: the procedure, the vehicles by number, the other presets, the dice.

    ``vehicles`` maps each vehicle input to its number on the sheets (1 = first);
    ``weapon`` is the weapon word still to match against the firer's sheet (see
    :func:`presets`); ``dice`` the dice typed after ``:`` (empty: asked next).
    """

    procedure_id: str
    vehicles: Mapping[str, int]
    values: Mapping[str, Any]
    weapon: Word | None = None
    dice: str = ""
    kind: str = "shot"
    """``shot`` or ``damage``."""


def _vehicle(word: Word, count: int, line: str) -> int:
    if not _DIGITS.match(word.text):
        raise QuickEntryError(f"{word.text!r} is not a vehicle number (1–{count})", word, line)
    number = int(word.text)
    if not 1 <= number <= count:
        raise QuickEntryError(f"there is no vehicle {number}: the vehicles are 1–{count}",
                              word, line)
    return number


def _side(word: Word, rules: QuickRules, line: str) -> str:
    value = rules.sides.get(word.text.lower())
    if value is None:
        known = ", ".join(sorted(rules.sides))
        raise QuickEntryError(f"{word.text!r} is not a side (one of: {known})", word, line)
    return value


def parse(line: str, rules: QuickRules, count: int, selected: int | None = None,
          house: Mapping[str, Any] | None = None) -> QuickCommand:
    """Read ``line`` for a game of ``count`` vehicles (``selected``: the vehicle a damage
    line without a vehicle number is for) under the session's house rules ``house`` (a
    procedure they do not offer, such as a ram with the Ramming variant off, is refused
    at its word). Raises :class:`QuickEntryError`."""
    command = _read(line, rules, count, selected)
    refused = not_offered_in_session(find_procedure(command.procedure_id), house)
    if refused:
        found = words(line.partition(":")[0])
        word = found[1] if command.kind == "shot" else found[0]
        raise QuickEntryError(f"{word.text!r}: {refused}", word, line)
    return command


def _read(line: str, rules: QuickRules, count: int, selected: int | None) -> QuickCommand:
    text, _, dice = line.partition(":")
    if dice.strip() and not re.fullmatch(r"[0-9\s,]+", dice):
        where = len(text) + 1 + (len(dice) - len(dice.lstrip()))
        bad = Word(dice.strip(), where, where + len(dice.strip()))
        raise QuickEntryError("after ':' type only the dice, e.g. 543", bad, line)
    found = words(text)
    if not found:
        raise QuickEntryError("type a shot (2 mg 1 f 5) or damage (7 f)", None, line)
    is_number = [_NUMBER.match(w.text) is not None for w in found]
    # damage: [VEHICLE] AMOUNT SIDE — the last word a side, every other one a number.
    # (Two numbers then a word can only be damage; a number and a side too.)
    last_side = found[-1].text.lower() in rules.sides
    if rules.side_input and all(is_number[:-1]) and not is_number[-1] and \
            (len(found) == 3 or (len(found) == 2 and last_side)):
        return _damage(found, rules, count, selected, line, dice.strip())
    return _shot(found, is_number, rules, count, line, dice.strip())


def _damage(found: list[Word], rules: QuickRules, count: int, selected: int | None,
            line: str, dice: str) -> QuickCommand:
    if not rules.damage:
        raise QuickEntryError("this ruleset has no damage line: use the Mark menu", found[0],
                              line)
    if len(found) == 3:
        vehicle = _vehicle(found[0], count, line)
    elif selected is None:
        raise QuickEntryError("select a vehicle first (its number key), or name it: 1 7 f",
                              found[0], line)
    else:
        vehicle = selected
    amount_word = found[-2]
    if not _DIGITS.match(amount_word.text) or int(amount_word.text) < 1:
        raise QuickEntryError(f"{amount_word.text!r} is not an amount of damage (1 or more)",
                              amount_word, line)
    values = {rules.damage_amount: int(amount_word.text),
              rules.damage_side: _side(found[-1], rules, line)}
    return QuickCommand(rules.damage, {rules.damage_vehicle: vehicle}, values, None, dice,
                        "damage")


def _shot(found: list[Word], is_number: list[bool], rules: QuickRules, count: int,
          line: str, dice: str) -> QuickCommand:
    firer = _vehicle(found[0], count, line)
    if len(found) < 2:
        raise QuickEntryError("name the weapon next (mg, rl…), then the target's number",
                              None, line)
    weapon = found[1]
    if is_number[1]:
        raise QuickEntryError(f"{weapon.text!r}: a weapon is a word (mg, rl…); for damage "
                              "type the amount and the side (7 f)", weapon, line)
    if rules.procedures and not rules.weapon_input and \
            weapon.text.lower() not in rules.procedures:
        raise QuickEntryError(f"{weapon.text!r} is not an attack here (one of: "
                              f"{', '.join(rules.procedures)})", weapon, line)
    procedure, firer_input, target_input = rules.procedures.get(
        weapon.text.lower(), (rules.shot, rules.firer, rules.target))
    if len(found) == 2 and rules.weapon_input and weapon.text.lower() not in rules.procedures:
        # The firer's weapon alone: whether it needs a target is the sheet's to say (a
        # smokescreen aims at no one); see :func:`missing_target`.
        return QuickCommand(procedure, {firer_input: firer}, {}, weapon, dice, "shot")
    if len(found) < 3:
        raise QuickEntryError(NAME_THE_TARGET, None, line)
    target = _vehicle(found[2], count, line)
    if target == firer:
        raise QuickEntryError(f"vehicle {firer} cannot be its own target", found[2], line)
    values: dict[str, Any] = {}
    numbers: list[str] = []
    flagged: set[str] = set()
    for word, number in zip(found[3:], is_number[3:], strict=True):
        flag = rules.flags.get(word.text.lower())
        if flag is not None:
            if flag[0] in flagged:
                raise QuickEntryError(f"{word.text!r}: {flag[0]} is already given", word, line)
            flagged.add(flag[0])
            values[flag[0]] = flag[1]
        elif number:
            if not rules.number_input:
                raise QuickEntryError(f"{word.text!r}: this ruleset takes no range here",
                                      word, line)
            if numbers and not rules.many_numbers:
                raise QuickEntryError(f"{word.text!r}: one range only", word, line)
            numbers.append(word.text)
        elif numbers:
            raise QuickEntryError(f"{word.text!r}: the side comes before the range", word,
                                  line)
        elif rules.side_input and rules.side_input not in values:
            values[rules.side_input] = _side(word, rules, line)
        else:
            raise QuickEntryError(f"{word.text!r} is not understood here", word, line)
    if numbers:
        values[rules.number_input] = ", ".join(numbers) if rules.many_numbers else numbers[0]
    matched = None if weapon.text.lower() in rules.procedures else weapon
    return QuickCommand(procedure, {firer_input: firer, target_input: target}, values,
                        matched, dice, "shot")


NAME_THE_TARGET = "name the target by its number next"


def missing_target(command: QuickCommand, rules: QuickRules, unused: Collection[str],
                   line: str = "") -> QuickEntryError | None:
    """The error of a shot line that names no target when its weapon needs one (``unused``:
    the inputs the procedure says the move does not use); None when it is fine."""
    if command.kind != "shot" or rules.target in command.vehicles or rules.target in unused:
        return None
    return QuickEntryError(NAME_THE_TARGET, None, line)


def match_choice(word: Word, choices: Sequence[tuple[str, str]], rules: QuickRules,
                 line: str = "") -> str:
    """The value of the one choice whose label names ``word`` (``mg`` → ``1: MG (F)``);
    the first of several that are still usable (a label without "destroyed", "spent",
    "empty", "fired this turn"). Raises :class:`QuickEntryError` when none does."""
    wanted = rules.weapon_words.get(word.text.lower(), word.text.lower())
    pattern = re.compile(rf"(?<![a-z]){re.escape(wanted)}(?![a-z])", re.IGNORECASE)
    named = [(value, label) for value, label in choices if pattern.search(label)]
    if not named:
        listed = "; ".join(label for _, label in choices) or "none"
        raise QuickEntryError(f"{word.text!r} is not one of the firer's weapons ({listed})",
                              word, line)
    usable = [v for v, label in named
              if not re.search(r"destroyed|spent|empty|fired", label, re.IGNORECASE)]
    return (usable or [named[0][0]])[0]


def presets(command: QuickCommand, keys: Sequence[str], rules: QuickRules,
            choices: Callable[[str, Mapping[str, str]], Sequence[tuple[str, str]]],
            line: str = "") -> dict[str, Any]:
    """The presets of ``command`` for a dialog: vehicle inputs as vehicle keys (``keys`` in
    sheet order), the weapon word matched in ``choices(input, vehicle presets)``."""
    result: dict[str, Any] = {name: keys[number - 1]
                              for name, number in command.vehicles.items()}
    result.update(command.values)
    if command.weapon is not None and rules.weapon_input:
        result[rules.weapon_input] = match_choice(
            command.weapon, choices(rules.weapon_input, dict(result)), rules, line)
    return result

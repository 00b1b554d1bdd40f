"""What a ruleset tells the Table about typing at it, Qt-free: its one-key actions, the
quick-entry line's words, how the phase's fire resolves as one batch.

Each ruleset declares its own in ``rules/<id>/play/table.py``; the Table's screens
(``gui/table``) and the services (:mod:`~carwars_desktop.services.quick_entry`,
:mod:`~carwars_desktop.services.fire_batch`) read them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

FIRE = "fire"
DAMAGE = "damage"
CONTROL = "control"
COLLISION = "collision"
CRASH = "crash"
LASER = "laser"
SPEED = "speed"
ACTION_KINDS = (FIRE, DAMAGE, CONTROL, COLLISION, CRASH, LASER, SPEED)
"""The Table's one-key actions on the selected vehicle (``table.<kind>`` in
:mod:`carwars_desktop.gui.shortcuts`)."""


@dataclass(frozen=True)
class KeyAction:
    """One key at the Table: a procedure opened with the selected vehicle preset.

    Args:
        kind: one of :data:`ACTION_KINDS` (its key is ``table.<kind>``).
        procedure_id: the procedure opened.
        vehicle_input: the sheet input the selected vehicle fills.
        target_input: the other vehicle of a pair (fire, ram), remembered with
            ``remembered`` for the turn, per pair.
        remembered: inputs kept per vehicle → target pair for the turn (range, side).
        ask: inputs with no sensible default: the dialog's first field unless remembered.
        batch: the phase's fire is one batch by default (Mini Car Wars §8).
        order: the fields the GM types, always in this order whatever the number of
            vehicles (each one key or a number; a field the Table did not fill from the
            GM's own choices starts empty); default: the target, then ``ask``.
    """

    kind: str
    procedure_id: str
    vehicle_input: str
    target_input: str = ""
    remembered: tuple[str, ...] = ()
    ask: tuple[str, ...] = ()
    batch: bool = False
    order: tuple[str, ...] = ()

    def typing_order(self) -> tuple[str, ...]:
        """The fields typed, in order (see ``order``)."""
        if self.order:
            return self.order
        return ((self.target_input,) if self.target_input else ()) + self.ask


@dataclass(frozen=True)
class QuickRules:
    """How one ruleset reads the quick line.

    Args:
        shot: the fire procedure; ``firer``/``target`` its vehicle inputs.
        weapon_input: the input the weapon word picks (a list read from the firer's sheet:
            the word is matched against its labels).
        side_input: the input a SIDE fills ("" when the ruleset has no sides).
        sides: the SIDE words → the input's value.
        number_input: the input the NUMBERs fill ("" when none).
        many_numbers: all NUMBERs go to ``number_input`` (AUTOpower's cards, ", "-joined).
        weapon_words: synonyms → the word matched in the labels (``rk`` → ``rocket``).
        procedures: WEAPON words that are procedures of their own (AUTOpower's laser,
            ram), with their firer and target inputs.
        damage: the damage procedure ("" when none), its vehicle, amount and side inputs.
        flags: FLAG words → the input they set and its value (Battlecars ``ret``: return
            fire, §2.9 step 2; Mini Car Wars ``gunner``: the gunner fires).
    """

    shot: str
    firer: str
    target: str
    weapon_input: str = ""
    side_input: str = ""
    sides: Mapping[str, str] = field(default_factory=dict)
    number_input: str = ""
    many_numbers: bool = False
    weapon_words: Mapping[str, str] = field(default_factory=dict)
    procedures: Mapping[str, tuple[str, str, str]] = field(default_factory=dict)
    damage: str = ""
    damage_vehicle: str = ""
    damage_amount: str = ""
    damage_side: str = ""
    flags: Mapping[str, tuple[str, str]] = field(default_factory=dict)


@dataclass(frozen=True)
class BatchRules:
    """How a ruleset's fire batch resolves.

    Args:
        fire: the fire procedure.
        hold_input: its "hold the damage" input ("" when it has none: the shots then
            resolve one after the other).
        damage: the damage procedure that allocates a held damage; ``damage_vehicle``,
            ``damage_side``, ``damage_amount`` its inputs.
        target_input, side_input: the fire procedure's target and side inputs.
        held_damage: the name of the resolution value listing the held damages.
        held_mark: what a shot's outcome ends in when its damage is held; the batch, which
            applies that damage once every shot has fired, says so instead.
    """

    fire: str
    hold_input: str = ""
    damage: str = ""
    damage_vehicle: str = ""
    damage_side: str = ""
    damage_amount: str = ""
    target_input: str = "target"
    side_input: str = ""
    held_damage: str = "damage"
    held_mark: str = ""

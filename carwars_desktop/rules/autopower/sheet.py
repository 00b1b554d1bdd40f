"""The live state of one car in play (digest §1.2): an immutable value.

Every change (a push, armor, damage, a control failure) makes a new sheet, so a
session can keep snapshots and undo. A sheet that the rules cannot reach
(armor over the 10E cap, a declared speed above E…) cannot be built.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from carwars_desktop.rules.autopower.car import Car
from carwars_desktop.rules.autopower.cards import cards_text
from carwars_desktop.rules.autopower.errors import CarFormatError, SheetFormatError, SheetStateError
from carwars_desktop.rules.autopower.tables import (
    ARMOR_CAP_FACTOR,
    ARMOR_POINTS_PER_SPEED,
    HAND_SIZE,
    MAX_CARD_VALUE,
    PUSH_SURCHARGE,
    SAFE_SPEED_FACTOR,
    SURCHARGE_SPEED_FACTOR,
    ControlPenalty,
)
from carwars_desktop.rules.kernel.reader import FIELD, Reader

SHEET_FIELDS: tuple[str, ...] = (
    "car", "hand_size", "declared_speed", "energy_in_play", "strength_in_play", "damage_taken",
    "killed", "next_turn_penalty", "penalty_this_turn", "attacked_this_turn",
)


_WORDING = replace(FIELD, choice="{where}: {key} must be one of {allowed}, not {value!r}")


_WORDING = replace(FIELD, choice="{where}: {key} must be one of {allowed}, not {value!r}")


def push_target(raw_speed: int, energy: int) -> int | None:
    """§2.4 step 5 / §3.1: the push roll's target, or ``None`` when the speed is safe.

    Safe up to 2E; above it the target is the speed, +2 above 3E (strictly).
    """
    if raw_speed <= SAFE_SPEED_FACTOR * energy:
        return None
    if raw_speed > SURCHARGE_SPEED_FACTOR * energy:
        return raw_speed + PUSH_SURCHARGE
    return raw_speed


@dataclass(frozen=True)
class CarSheet:
    """One car in play: its hero card, the cards beside it, damage and control state.

    Attributes:
        car: the hero card (base E, F, S, I).
        hand_size: cards in hand (draws refill it to seven, AP-D26).
        declared_speed: the speed 0..E declared while no Energy card is in play (§2.4).
        energy_in_play: Energy cards played for speed, oldest first (AP-D6).
        strength_in_play: Strength cards played as armor, oldest first (AP-D23).
        damage_taken: the damage of each successful attack or ram pile (AP-D9).
        killed: set by a kill check, never cleared (§2.7).
        next_turn_penalty: from a control failure, for the car's next own turn (AP-D12).
        penalty_this_turn: the control penalty in force during the current own turn.
        attacked_this_turn: the turn's one attack is spent (§2.3 step 4).
        control_due: with the Control Rolls variant, the damage of the hit whose control
            roll (§2.8, ``autopower.control``) is still to be made; ``None``: none is due.
    """

    car: Car
    hand_size: int = HAND_SIZE
    declared_speed: int = 0
    energy_in_play: tuple[int, ...] = ()
    strength_in_play: tuple[int, ...] = ()
    damage_taken: tuple[int, ...] = ()
    killed: bool = False
    next_turn_penalty: ControlPenalty = ControlPenalty.NONE
    penalty_this_turn: ControlPenalty = ControlPenalty.NONE
    attacked_this_turn: bool = False
    control_due: int | None = None

    def __post_init__(self) -> None:
        car = self.car
        for stat in ("energy", "fighting", "strength"):
            if getattr(car, stat) < 0:
                raise SheetStateError(f"{car.name}: {stat} {getattr(car, stat)} is below 0")
        if car.iq < 0:
            raise SheetStateError(f"{car.name}: intelligence {car.iq} is below 0")
        if self.hand_size < 0:
            raise SheetStateError(f"{car.name}: a hand of {self.hand_size} cards")
        if not 0 <= self.declared_speed <= car.energy:
            raise SheetStateError(
                f"{car.name}: declared speed {self.declared_speed} is outside 0–{car.energy} "
                "(only speeds up to Energy are declared, §2.4)")
        for what, cards in (("Energy", self.energy_in_play), ("Strength", self.strength_in_play)):
            for value in cards:
                if not 1 <= value <= MAX_CARD_VALUE:
                    raise SheetStateError(f"{car.name}: {what} card {value} is not a card value")
        if self.control_due is not None and self.control_due < 0:
            raise SheetStateError(f"{car.name}: a control roll due for {self.control_due} "
                                  "damage")
        if any(amount < 0 for amount in self.damage_taken):
            raise SheetStateError(f"{car.name}: negative damage in {self.damage_taken}")
        if self.added_armor > self.armor_cap:
            raise SheetStateError(
                f"{car.name}: Strength cards {cards_text(self.strength_in_play)} = "
                f"{self.added_armor} exceed the cap 10 × E{car.energy} = {self.armor_cap} (§2.5)")
        if not self.killed and self.total_damage > self.armor:
            raise SheetStateError(
                f"{car.name}: damage {self.total_damage} exceeds Armor {self.armor}, so the car "
                "is killed (§2.7)")

    # --- derived values (§1.2, §3.5) ----------------------------------------
    @property
    def name(self) -> str:
        return self.car.name

    @property
    def raw_speed(self) -> int:
        """E + the Energy cards in play, or the declared speed without any (AP-D5)."""
        if self.energy_in_play:
            return self.car.energy + sum(self.energy_in_play)
        return self.declared_speed

    @property
    def safe_speed(self) -> int:
        return SAFE_SPEED_FACTOR * self.car.energy

    @property
    def pushing(self) -> bool:
        """rawSpeed > 2E: a push roll is due in each of the car's accelerate phases."""
        return self.raw_speed > self.safe_speed

    @property
    def push_target(self) -> int | None:
        return push_target(self.raw_speed, self.car.energy)

    @property
    def added_armor(self) -> int:
        return sum(self.strength_in_play)

    @property
    def armor_cap(self) -> int:
        return ARMOR_CAP_FACTOR * self.car.energy

    @property
    def armor(self) -> int:
        """S + the Strength cards in play (§2.5 step 3)."""
        return self.car.strength + self.added_armor

    @property
    def speed_penalty(self) -> int:
        """⌊added armor / 10⌋ (§2.5 step 4)."""
        return self.added_armor // ARMOR_POINTS_PER_SPEED

    @property
    def speed(self) -> int:
        """max(0, rawSpeed − armor penalty): the Speed opponents see (AP-D27)."""
        return max(0, self.raw_speed - self.speed_penalty)

    def seen_speed(self, after_armor_penalty: bool = True) -> int:
        """The speed used against this car: Speed (AP-D27) or, if switched off, rawSpeed."""
        return self.speed if after_armor_penalty else self.raw_speed

    @property
    def total_damage(self) -> int:
        return sum(self.damage_taken)

    def speed_text(self) -> str:
        """``'rawSpeed 4 + 3 = 7, − 1 for armor → Speed 6'`` or ``'Speed 3 (declared)'``."""
        if self.energy_in_play:
            raw = f"{self.car.energy} + {cards_text(self.energy_in_play)} = {self.raw_speed}"
        else:
            raw = f"{self.declared_speed} (declared)"
        if self.speed_penalty:
            return f"rawSpeed {raw}, − {self.speed_penalty} for armor → Speed {self.speed}"
        return f"Speed {raw}"

    def armor_text(self) -> str:
        if not self.strength_in_play:
            return f"Armor {self.armor}"
        return f"Armor {self.car.strength} + {cards_text(self.strength_in_play)} = {self.armor}"

    # --- changes -------------------------------------------------------------
    def spend_cards(self, count: int) -> CarSheet:
        """The sheet after ``count`` cards leave the hand."""
        if count > self.hand_size:
            raise SheetStateError(
                f"{self.name} holds {self.hand_size} cards and cannot play {count}")
        return replace(self, hand_size=self.hand_size - count)

    def to_json(self) -> dict[str, Any]:
        return {
            "car": self.car.to_json(),
            "hand_size": self.hand_size,
            "declared_speed": self.declared_speed,
            "energy_in_play": list(self.energy_in_play),
            "strength_in_play": list(self.strength_in_play),
            "damage_taken": list(self.damage_taken),
            "killed": self.killed,
            "next_turn_penalty": self.next_turn_penalty.value,
            "penalty_this_turn": self.penalty_this_turn.value,
            "attacked_this_turn": self.attacked_this_turn,
        } | ({} if self.control_due is None else {"control_due": self.control_due})

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> CarSheet:
        """Load a sheet; malformed data or an unreachable state raises a ValueError subclass
        (:class:`SheetFormatError`, :class:`SheetStateError`) saying why."""
        if not isinstance(data, Mapping):
            raise SheetFormatError(f"a car sheet must be an object, not {data!r}")
        read = Reader(data, "car sheet", SheetFormatError, _WORDING)
        read.keys(frozenset(SHEET_FIELDS), ("control_due",))
        try:
            car = Car.from_json(data["car"])
        except CarFormatError as error:
            raise SheetFormatError(f"car sheet: {error}") from None
        return CarSheet(
            car=car,
            hand_size=read.integer("hand_size"),
            declared_speed=read.integer("declared_speed"),
            energy_in_play=read.integers("energy_in_play"),
            strength_in_play=read.integers("strength_in_play"),
            damage_taken=read.integers("damage_taken"),
            killed=read.flag("killed"),
            next_turn_penalty=read.enum("next_turn_penalty", ControlPenalty),
            penalty_this_turn=read.enum("penalty_this_turn", ControlPenalty),
            attacked_this_turn=read.flag("attacked_this_turn"),
            control_due=read.optional_integer("control_due", 0),
        )


def new_sheet(car: Car) -> CarSheet:
    """The car entering play after the setup draw of seven (§2.2 step 2), no cards beside it,
    declaring its free top speed E.

    Raises:
        SheetStateError: a car with a negative stat cannot enter play.
    """
    return CarSheet(car=car, hand_size=HAND_SIZE, declared_speed=max(0, car.energy))

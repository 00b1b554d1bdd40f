"""AUTOpower's numbers and tables, once, as data (digest `autopower.md` §1–§3).

Everything else (the procedures, the reference views for browsing) reads them
from here.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from carwars_desktop.dice import Distribution, dice_sum
from carwars_desktop.rules.builtin import AUTOPOWER
from carwars_desktop.rules.kernel.citation import Citation, Citer

ap = Citer(AUTOPOWER.title, separator=", ")
"""AUTOpower's rule citations (``ap("§2.6", "AP-D9")`` → ``AUTOpower §2.6, AP-D9``)."""


def rule(section: str, *decisions: str) -> Citation:
    """A rule citation: ``rule("2.6", "AP-D9")`` → ``'AUTOpower §2.6, AP-D9'``.

    A further section number among ``decisions`` (``rule("2.6", "2.7", "AP-D9")``) stays
    part of the section, as it has always been written.
    """
    more = [d for d in decisions if not d.startswith("AP-")]
    cited = tuple(d for d in decisions if d.startswith("AP-"))
    return ap(", ".join((f"§{section}", *more)), *cited)


# --- dice (§0) -----------------------------------------------------------
DICE_COUNT = 2
"""AP-D1: "two dice" are read as 2d6, summed."""
DICE_SIDES = 6
DICE_OUTCOMES = DICE_SIDES**DICE_COUNT
"""36: every probability of the game is a whole number of 36ths."""
NATURAL_MISS = 2
"""An attack roll of a natural 2 always misses (§0, §2.6 step 6)."""
NEVER = DICE_COUNT * DICE_SIDES + 1
"""13: a target this high (or higher) cannot be rolled."""


def two_dice() -> Distribution:
    """The distribution of every roll of the game (AP-D1)."""
    return dice_sum(DICE_COUNT, DICE_SIDES)


# --- divisions (§1.1, AP-D2) ----------------------------------------------
DIVISIONS: tuple[int, ...] = (15, 20, 25)
"""A car with E + F + S + I ≤ N may enter division N (AP-D2); its class is the smallest such N."""


# --- speed and armor (§1.2, §2.4, §2.5) --------------------------------------
SAFE_SPEED_FACTOR = 2
"""rawSpeed ≤ 2E is safe: no push roll (§2.4 step 4)."""
SURCHARGE_SPEED_FACTOR = 3
"""rawSpeed > 3E adds the surcharge to the push target (§2.4 step 5)."""
PUSH_SURCHARGE = 2
ARMOR_CAP_FACTOR = 10
"""The Strength cards in play (added armor) total at most 10E (§2.5 step 2, AP-D8)."""
ARMOR_POINTS_PER_SPEED = 10
"""Each ten full points of added armor cost 1 Speed (§2.5 step 4)."""

# --- combat (§2.6, §2.10) -----------------------------------------------------
DAMAGE_CAP_FACTOR = 2
"""A standard (and AP-D14 laser) attack does at most 2F damage (§2.6 step 2)."""

# --- cards and drawing (§1.3, §2.3, §2.11) --------------------------------------
HAND_SIZE = 7
"""Drawing refills the hand to seven; the first draw at setup is seven (§2.2, §2.3)."""
SKILL_DRAW_MINIMUM = 1
"""Drawing on Skills draws max(1, I) cards (§2.11, AP-D21)."""
MINIMUM_DECK = 60
"""At least 60 cards with a numbered icon (§1.3 step 1)."""
MULTI_ICON_SHARE = Fraction(1, 3)
"""Multi-icon cards are recommended for up to a third of the deck (§1.3 step 2)."""
MAX_CARD_VALUE = 20
"""A sanity bound on a typed card value (OverPower icons are single digits); not a rule."""


# --- control rolls (§2.8, AP-D12) ------------------------------------------------
class ControlPenalty(Enum):
    """What a failed control roll does to the car's next own turn (§2.8, AP-D12)."""

    NONE = "none"
    MINUS_3 = "-3"
    MINUS_6 = "-6"
    NO_ATTACK = "no_attack"

    @property
    def to_hit(self) -> int:
        """What it adds to the to-hit of any attack that turn (0 when none)."""
        return CONTROL_TO_HIT[self]

    @property
    def forbids_attack_and_push(self) -> bool:
        return self is ControlPenalty.NO_ATTACK

    @property
    def label(self) -> str:
        return CONTROL_LABELS[self]

    @property
    def next_turn_label(self) -> str:
        """``'attacks at −3 next turn'`` (``'in control'`` when none)."""
        return self.label if self is ControlPenalty.NONE else f"{self.label} next turn"

    @property
    def severity(self) -> int:
        """Order of harm, to keep the worse of two penalties."""
        return list(ControlPenalty).index(self)


CONTROL_TO_HIT: dict[ControlPenalty, int] = {
    ControlPenalty.NONE: 0,
    ControlPenalty.MINUS_3: 3,
    ControlPenalty.MINUS_6: 6,
    ControlPenalty.NO_ATTACK: 0,
}

CONTROL_LABELS: dict[ControlPenalty, str] = {
    ControlPenalty.NONE: "in control",
    ControlPenalty.MINUS_3: "attacks at −3",
    ControlPenalty.MINUS_6: "attacks at −6",
    ControlPenalty.NO_ATTACK: "no attack and no push",
}


@dataclass(frozen=True)
class ControlBand:
    """One row of the control failure table: shortfalls ``low..high`` (``None``: open)."""

    low: int | None
    high: int | None
    penalty: ControlPenalty
    effect: str

    def contains(self, shortfall: int) -> bool:
        return (self.low is None or shortfall >= self.low) and (
            self.high is None or shortfall <= self.high
        )


CONTROL_FAILURE: tuple[ControlBand, ...] = (
    ControlBand(None, 0, ControlPenalty.NONE, "In control. No effect."),
    ControlBand(1, 3, ControlPenalty.MINUS_3, "Any attack is at −3: add 3 to its to-hit."),
    ControlBand(4, 6, ControlPenalty.MINUS_6, "Any attack is at −6: add 6 to its to-hit."),
    ControlBand(7, None, ControlPenalty.NO_ATTACK,
                "It may not attack, and it may not push: rawSpeed must be brought to ≤ 2E."),
)
"""§2.8: shortfall s = target − (2d6 + IQ cards) → effect on the car's next own turn."""


def control_band(shortfall: int) -> ControlBand:
    """The row of :data:`CONTROL_FAILURE` for a shortfall."""
    for band in CONTROL_FAILURE:
        if band.contains(shortfall):
            return band
    raise AssertionError(f"the control table covers every shortfall, not {shortfall}")

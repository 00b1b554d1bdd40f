"""Dice: expressions, exact distributions, entered or rolled dice. Pure Python."""

from carwars_desktop.dice.distribution import Distribution, dice_sum, die
from carwars_desktop.dice.errors import (
    DiceError,
    DiceExpressionError,
    DiceValueError,
    NotEnoughDiceError,
)
from carwars_desktop.dice.expression import DiceExpression, DiceGroup, parse
from carwars_desktop.dice.source import (
    DiceSource,
    DieRoll,
    EnteredDice,
    SeededDice,
    parse_dice_values,
)

__all__ = [
    "DiceError",
    "DiceExpression",
    "DiceExpressionError",
    "DiceGroup",
    "DiceSource",
    "DiceValueError",
    "DieRoll",
    "Distribution",
    "EnteredDice",
    "NotEnoughDiceError",
    "SeededDice",
    "dice_sum",
    "die",
    "parse",
    "parse_dice_values",
]

"""The errors of the dice layer: each says exactly what was wrong."""


class DiceError(ValueError):
    """Base class of every dice error."""


class DiceExpressionError(DiceError):
    """A dice expression such as ``3x6`` or ``2d0`` that cannot be read."""


class DiceValueError(DiceError):
    """An entered die value that the die cannot show (a d6 showing 7)."""


class NotEnoughDiceError(DiceError):
    """A resolution needed more dice than were entered and no RNG was given."""

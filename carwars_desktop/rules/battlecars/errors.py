"""Battlecars errors: each a ``ValueError`` subclass that says exactly why."""


class BattlecarsError(ValueError):
    """Base class of every Battlecars error."""


class CardError(BattlecarsError):
    """A Battlecar card (design) whose JSON cannot be read."""


class SheetError(BattlecarsError):
    """A record sheet (car, pedestrian or obstacle) whose JSON cannot be read or is impossible."""


class IllegalActionError(BattlecarsError):
    """An action the rules forbid (firing while stunned, an empty pod, a wrong mount...)."""

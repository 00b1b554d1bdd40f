"""The errors of the AUTOpower rules: each says exactly what was wrong and why."""


class AutopowerError(ValueError):
    """Base class of every AUTOpower error."""


class CardListError(AutopowerError):
    """A list of card values that cannot be read ("3, 6" is fine; "3, x" is not)."""


class CardIconError(AutopowerError):
    """A power card played as an icon it does not carry."""


class CarFormatError(AutopowerError):
    """A car (hero card) whose JSON form is malformed."""


class DeckFormatError(AutopowerError):
    """A deck whose JSON form is malformed."""


class OptionsFormatError(AutopowerError):
    """Game options whose JSON form is malformed."""


class SheetFormatError(AutopowerError):
    """A live car sheet whose JSON form is malformed."""


class SheetStateError(AutopowerError):
    """A live car state that the rules cannot reach (armor over the cap, a card not in play…)."""


class UnknownDivisionError(AutopowerError):
    """A division other than 15, 20 or 25."""


class IllegalPlayError(AutopowerError):
    """A play the rules forbid: a second attack in a turn, armor over the cap, a killed car
    acting, IQ cards in a game without them…"""

"""The errors of the Mini Car Wars rules core: each says exactly what was wrong."""


class MiniCarWarsError(ValueError):
    """Base class of every Mini Car Wars input error."""


class DesignFormatError(MiniCarWarsError):
    """A design's JSON (or constructor data) that cannot be a Mini Car Wars design."""


class SheetFormatError(MiniCarWarsError):
    """A record sheet's JSON (or constructor data) that cannot be a live record sheet."""


class UnknownVehicleError(MiniCarWarsError):
    """A stock vehicle or option key that the Stock Car List does not have."""


class IllegalTargetError(MiniCarWarsError):
    """A side that cannot be hit (the top of a car without a turret)."""


class DamageInputError(MiniCarWarsError):
    """Negative damage, or an interior roll missing or outside 1–6."""


class RangeFormatError(MiniCarWarsError):
    """A range that is not a non-negative number of inches."""


class WeaponChoiceError(MiniCarWarsError):
    """A weapon reference (number or 'MG L') that names no weapon on the sheet."""


class SpeedListError(MiniCarWarsError):
    """A list of speeds for the movement schedule that cannot be read."""

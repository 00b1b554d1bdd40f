"""A car is an OverPower hero (or villain) card: Energy, Fighting, Strength, Intelligence.

Digest §1.1: E is the Speed Rating, F the Weapons Rating, S the Armor Rating, I
the human element. The class is the total; the divisions are 15, 20 and 25.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from carwars_desktop.rules.autopower.errors import CarFormatError, UnknownDivisionError
from carwars_desktop.rules.autopower.options import Options
from carwars_desktop.rules.autopower.tables import DIVISIONS, rule
from carwars_desktop.rules.kernel.reader import NAMED, Reader
from carwars_desktop.rules.ruleset import Problem

STATS: tuple[str, ...] = ("energy", "fighting", "strength", "intelligence")


def check_division(division: int) -> int:
    if division not in DIVISIONS:
        raise UnknownDivisionError(
            f"the divisions are {', '.join(map(str, DIVISIONS))}, not {division}")
    return division


def division_for(total: int) -> int | None:
    """The smallest division a total fits (AP-D2), or ``None`` above 25."""
    for division in DIVISIONS:
        if total <= division:
            return division
    return None


@dataclass(frozen=True)
class Car:
    """A hero card used as a car. ``intelligence=None``: the card prints no Intelligence."""

    name: str
    energy: int
    fighting: int
    strength: int
    intelligence: int | None = None
    notes: str = ""

    @property
    def iq(self) -> int:
        """The Intelligence that counts: the card's, or 0 when it has none (AP-D3)."""
        return 0 if self.intelligence is None else self.intelligence

    @property
    def total(self) -> int:
        """E + F + S + I: what the class is read from (§1.1)."""
        return self.energy + self.fighting + self.strength + self.iq

    @property
    def car_class(self) -> int | None:
        """The car's own division: the smallest that fits (AP-D2); ``None`` above 25."""
        return division_for(self.total)

    def stats_text(self) -> str:
        return f"E{self.energy} F{self.fighting} S{self.strength} I{self.iq}"

    def problems(self, division: int | None = None,
                 upper_limit: bool = True) -> tuple[Problem, ...]:
        """Every problem of the card as a car, all at once; never raises on a bad card.

        Args:
            division: the duel's division; ``None`` checks only that some division fits.
            upper_limit: AP-D2 (default): total ≤ N enters division N; ``False``: the
                car's class must be exactly N.

        Raises:
            UnknownDivisionError: ``division`` is not 15, 20 or 25 (a bad argument, not a
                bad car).
        """
        if division is not None:
            check_division(division)
        found: list[Problem] = []
        if not self.name.strip():
            found.append(Problem("name-missing", "The car needs a name (its hero card).",
                                 rule("1.1"), "name"))
        for stat in STATS:
            value = getattr(self, stat)
            if value is not None and value < 0:
                found.append(Problem("stat-negative",
                                     f"{stat.capitalize()} {value} is below 0.",
                                     rule("1.1"), stat))
        total = self.total
        if division is None:
            if self.car_class is None:
                found.append(Problem(
                    "division-none",
                    f"Total {total} is above 25: the car fits no division (play it only by "
                    "agreement).", rule("1.1", "AP-D2"), "total"))
        elif upper_limit and total > division:
            found.append(Problem(
                "division-over",
                f"Total {total} is above {division}: the car cannot enter Division {division}.",
                rule("1.1", "AP-D2"), "total"))
        elif not upper_limit and self.car_class != division:
            found.append(Problem(
                "division-class",
                f"Total {total} puts the car in "
                f"{'no division' if self.car_class is None else f'Division {self.car_class}'}"
                f", not Division {division}.", rule("1.1", "AP-D2"), "total"))
        return tuple(found)

    def problems_for(self, options: Options) -> tuple[Problem, ...]:
        """The car's problems in a game with these pre-game choices (its division, AP-D2)."""
        return self.problems(options.division, options.ap_d2_division_is_upper_limit)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "energy": self.energy, "fighting": self.fighting,
                "strength": self.strength, "intelligence": self.intelligence,
                "notes": self.notes}

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Car:
        """Load a car; malformed data raises :class:`CarFormatError` saying why.

        ``intelligence`` may be ``null`` (a card without Intelligence, AP-D3); ``notes``
        may be left out. Out-of-range stats load (a draft) and show in :meth:`problems`.
        """
        car = Reader(data, "car", CarFormatError, NAMED,
                     not_object="a car must be an object, not {data!r}")
        car.keys({"name", "energy", "fighting", "strength"}, {"intelligence", "notes"})
        name, notes = car.text("name"), car.text("notes", "")
        stats = Reader(data, f"car {name!r}", CarFormatError)

        def stat(key: str) -> int:
            return stats.integer(key)

        intelligence = stats.optional_integer("intelligence")
        return Car(name, stat("energy"), stat("fighting"), stat("strength"), intelligence, notes)

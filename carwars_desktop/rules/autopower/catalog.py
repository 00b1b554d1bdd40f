"""The sample cars of the text (digest §4) and the situations of its worked examples.

The article gives only some stats of each hero. The others are stand-ins
(Energy, Fighting and Strength 4, Intelligence 2), said so in each car's notes:
edit them from the real card.
"""

from __future__ import annotations

from dataclasses import replace

from carwars_desktop.rules.autopower.car import Car
from carwars_desktop.rules.autopower.sheet import CarSheet, new_sheet

STAND_IN = {"energy": 4, "fighting": 4, "strength": 4, "intelligence": 2}
"""Values for the stats the text does not give (not from any card)."""


def _sample(name: str, example: str, **given: int) -> Car:
    stats = {**STAND_IN, **given}
    said = ", ".join(f"{stat.capitalize()} {value}" for stat, value in given.items())
    missing = [stat for stat in STAND_IN if stat not in given]
    notes = f"The text ({example}) gives {said or 'no stats'}."
    if missing:
        stand_ins = ", ".join(f"{stat.capitalize()} {STAND_IN[stat]}" for stat in missing)
        notes += f" Not in the text, stand-ins to edit from the card: {stand_ins}."
    return Car(name, stats["energy"], stats["fighting"], stats["strength"],
               stats["intelligence"], notes)


def sample_cars() -> dict[str, Car]:
    """The heroes of the text's examples, by name (fresh values each call)."""
    cars = (
        _sample("Longshot", "AP-E1, AP-E2", energy=3),
        _sample("Black Cat", "AP-E3", energy=3),
        _sample("Rhino", "AP-E4", energy=2),
        _sample("Martian Manhunter", "AP-E5", energy=4, strength=7),
        _sample("Booster Gold", "AP-E6 to AP-E8", fighting=4, intelligence=3),
        _sample("Two Face", "AP-E7: a current Speed of 6, no stats"),
        _sample("Bishop", "AP-E9", energy=6, intelligence=3),
        _sample("Darkseid", "AP-E10: also Speed 9", strength=8),
        _sample("Nightwing", "AP-E10: also Speed 4", strength=4),
    )
    return {car.name: car for car in cars}


def example_sheets() -> dict[str, CarSheet]:
    """The cars in the situations of the worked examples (Energy totals split as noted)."""
    cars = sample_cars()

    def at(name: str, energy: tuple[int, ...] = (), strength: tuple[int, ...] = (),
           declared: int | None = None) -> CarSheet:
        sheet = new_sheet(cars[name])
        if declared is not None:
            sheet = replace(sheet, declared_speed=declared)
        return replace(sheet, energy_in_play=energy, strength_in_play=strength)

    return {
        "Longshot at Speed 6": at("Longshot", (1, 2)),
        "Black Cat at Speed 6": at("Black Cat", (1, 2)),
        "Martian Manhunter at Armor 18, Speed 6": at("Martian Manhunter", (3,), (5, 6)),
        "Two Face at Speed 6": at("Two Face", (2,)),
        "Bishop at Speed 10": at("Bishop", (4,)),
        "Darkseid at Speed 9": at("Darkseid", (5,)),
        "Nightwing at Speed 4": at("Nightwing", declared=4),
    }


def sheet_catalog() -> dict[str, CarSheet]:
    """Every name a sheet input accepts: each sample car fresh, then the example situations."""
    sheets = {name: new_sheet(car) for name, car in sample_cars().items()}
    sheets.update(example_sheets())
    return sheets

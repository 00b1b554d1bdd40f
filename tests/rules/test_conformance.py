"""Every ruleset × every procedure × the catalog vehicles keeps the framework's promises.

- the odds sum to exactly 1;
- over every throw of the dice (when a procedure's dice space has at most 10^5 outcomes):
  the exact probability of each odds outcome and P(success) are what resolving gives;
- the dice a resolution takes are the dice ``dice_needed`` declares, in order;
- a refusal takes no dice and has no effects;
- every sheet and every resolution round-trips through JSON.

This suite holds the per-ruleset "every procedure resolves" tests that were in each
ruleset's test_ruleset.py (their samples are the first case of each procedure here).
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from carwars_desktop.dice import DiceSource, DieRoll, EnteredDice, SeededDice
from carwars_desktop.procedures import (
    Citation,
    DiceNeed,
    InputError,
    Procedure,
    Resolution,
    RulesRefusal,
    SheetInput,
)
from carwars_desktop.rules import all_procedures
from carwars_desktop.rules.autopower import RULESET as AUTOPOWER
from carwars_desktop.rules.battlecars import RULESET as BATTLECARS
from carwars_desktop.rules.battlecars import CarSheet, PedestrianSheet, example_card
from carwars_desktop.rules.battlecars.catalog import example_car_name, obstacle_catalog
from carwars_desktop.rules.mini_car_wars import RULESET as MINI_CAR_WARS
from carwars_desktop.rules.ruleset import Ruleset

RULESETS: dict[str, Ruleset] = {r.id: r for r in (MINI_CAR_WARS, BATTLECARS, AUTOPOWER)}
CAR1, CAR2 = example_car_name(1), example_car_name(2)
MAX_OUTCOMES = 10**5
"""A procedure whose dice space is larger is checked on seeded throws instead."""
EXHAUSTIVE_VEHICLES = 1
"""Catalog vehicles (besides the sample) resolved over every throw, per procedure; the
others are resolved on seeded throws (all the checks but the odds' exactness): a
Mini Car Wars shot over every throw takes seconds."""
SEEDS = range(1, 9)
UNNAMED_OUTCOMES: frozenset[str] = frozenset()
"""Procedures whose results do not yet name their odds outcome (none now). Every other
procedure's results name theirs, so over every throw each outcome's probability agrees
exactly with ``odds()``."""


def house_for(procedure: Procedure) -> dict[str, Any]:
    """House rules under which ``procedure`` is offered: the variants it requires switched
    on (the digest's defaults otherwise; AUTOpower's ram and laser are off by default)."""
    return {r.decision: r.value for r in procedure.requires}


def _car(speed: int = 0, **changes: Any) -> CarSheet:
    return replace(CarSheet.fresh(example_card(), CAR1), speed=speed, **changes)


def _other(speed: int = 0) -> CarSheet:
    return replace(CarSheet.fresh(example_card(), CAR2), speed=speed)


# One resolvable set of values per procedure (with, for some, the dice of a worked example).
SAMPLES: dict[str, dict[str, Any]] = {
    "dice.roll": {"expression": "2d6+1", "target": 8},
    # Mini Car Wars
    "mini.road_duel_setup": {"car_a": "Courier", "car_b": "Killer Kart"},
    "mini.pack_attack_setup": {"car": "Courier",
                               **{f"cycle_{n}": "Shogun 100" for n in range(1, 6)}},
    "mini.speed": {"vehicle": "Courier", "speed": 10},
    "mini.schedule": {"speeds": "A=40, B=40, C=20", "roll_ties": True},
    "mini.maneuver": {"vehicle": "Courier"},
    "mini.control": {"vehicle": "Courier"},
    "mini.hazard": {"hazard": "new section"},
    "mini.fire": {"firer": "Courier", "target": "Killer Kart", "side": "R", "range": "3"},
    "mini.damage": {"vehicle": "Killer Kart", "side": "L", "dice": 3},
    "mini.collision": {"mover": "Courier", "kind": "fixed-object"},
    "mini.victory": {"side_a": "Courier", "side_b": "Killer Kart"},
    # Battlecars
    "battlecars.entry_order": {"players": "a, b, c"},
    "battlecars.speed": {"vehicle": _car(3), "speed": 5},
    "battlecars.start_turn": {"vehicle": _car(4).with_hits("Driver", 3)},
    "battlecars.three_point_turn": {"vehicle": _car()},
    "battlecars.corner": {"vehicle": _car(9), "angle": "135", "clear_points": 1},
    "battlecars.skid": {"vehicle": _car(6), "oil": True, "clear_points": 3},
    "battlecars.passive": {"vehicle": _car(4), "mines": True, "spikes": True, "smoke": True},
    "battlecars.drop": {"vehicle": _car(), "mount": "Pod C", "weapon": "mines"},
    "battlecars.fire": {"firer": _car(), "mount": "Pod D", "target": _other(),
                        "area": "rear", "bearing": "behind", "points_between": 2},
    "battlecars.damage": {"vehicle": _car(), "area": "rear", "amount": 14, "line": "from-rear",
                          "source": "shell"},
    "battlecars.fuel_tank": {"vehicle": _car().with_hits("Fire Extinguisher", 2),
                             "trigger": "rocket"},
    "battlecars.detonation": {"vehicle": _car().with_hits("Gunnery Computer", 2),
                              "mount": "Pod D", "weapon": "shell", "rounds": 3},
    "battlecars.crash": {"vehicle": _car(9), "obstacle": obstacle_catalog()["wreck"]},
    "battlecars.ram": {"rammer": _car(7), "target": _other(8), "approach": "front"},
    "battlecars.leave_car": {"vehicle": _car(), "pedestrian": PedestrianSheet("Ann")},
    "battlecars.commandeer": {"vehicle": _car(occupied=False),
                              "pedestrian": PedestrianSheet("Bo")},
    "battlecars.run_over": {"pedestrian": PedestrianSheet("Ann")},
    "battlecars.pedestrian_speed": {"pedestrian": PedestrianSheet("Ann"), "speed": 1},
    "battlecars.end_round": {"smoke_markers": 2, "car1": _car()},
    "battlecars.smoke_dispersal": {"markers": 4},
    "battlecars.mission": {"car": 2},
    "battlecars.rearm": {"vehicle": _car()},
    "battlecars.winner": {"car1": _car(), "car2": _other()},
    # AUTOpower
    "autopower.draw_order": {"car_a": "Bishop", "car_b": "Rhino"},
    "autopower.first_player": {"car_a": "Bishop", "car_b": "Rhino"},
    "autopower.draw": {"vehicle": "Bishop"},
    "autopower.accelerate": {"vehicle": "Black Cat", "play": "5"},
    "autopower.push": {"vehicle": "Darkseid at Speed 9"},
    "autopower.armor": {"vehicle": "Bishop", "cards": "5"},
    "autopower.attack": {"firer": "Booster Gold", "target": "Two Face", "cards": "3"},
    "autopower.control": {"vehicle": "Bishop at Speed 10", "damage": 8},
    "autopower.ram": {"rammer": "Darkseid", "target": "Nightwing", "cards": "5"},
    "autopower.laser": {"firer": "Booster Gold", "target": "Two Face", "cards": "3"},
    "autopower.victory": {"car_a": "Bishop", "car_b": "Rhino"},
}

EXAMPLE_DICE: dict[str, list[int]] = {
    "autopower.accelerate": [4, 4], "autopower.push": [5, 4], "autopower.attack": [3, 4],
    "autopower.control": [6, 3], "autopower.ram": [3, 4], "autopower.laser": [3, 4],
}
"""The dice of AUTOpower's worked examples: every one is used, in order."""

RULE_PREFIX = {"mini_car_wars": ("Mini Car Wars",), "battlecars": ("Battlecars §", "BC-"),
               "autopower": ("AUTOpower §",), "generic": ("Dice",)}


# --- the cases: each procedure with its sample, then with each catalog vehicle ------------
@dataclass(frozen=True)
class Case:
    procedure: Procedure
    values: Mapping[str, Any]
    vehicle: str
    exhaustive: bool = True

    @property
    def id(self) -> str:
        return f"{self.procedure.id}[{self.vehicle}]"

    @property
    def house(self) -> dict[str, Any]:
        return house_for(self.procedure)


def _catalog_sheets(ruleset: Ruleset) -> list[Any]:
    return [ruleset.sheet_for_design(design) for design in ruleset.catalog().values()]


def _binds(procedure: Procedure, values: Mapping[str, Any]) -> bool:
    """The values are well formed (a refusal of the rules is well formed, and a case)."""
    try:
        procedure.bind(values, house_for(procedure))
    except RulesRefusal:
        return True
    except InputError:
        return False
    return True


def _cases() -> Iterator[Case]:
    for procedure in all_procedures():
        sample = SAMPLES[procedure.id]
        yield Case(procedure, sample, "sample")
        ruleset = RULESETS.get(procedure.ruleset)
        if ruleset is None:
            continue
        sheets = _catalog_sheets(ruleset)
        slots = [spec.name for spec in procedure.inputs if isinstance(spec, SheetInput)
                 and spec.name in sample and isinstance(sheets[0], spec.sheet_type)]
        if not slots:
            continue
        for index, sheet in enumerate(sheets):
            # The acting vehicle is each catalog vehicle in turn; a second one (a target)
            # is the next vehicle of the catalog: n cases, not n² pairs.
            values = dict(sample)
            for offset, slot in enumerate(slots[:2]):
                values[slot] = sheets[(index + offset) % len(sheets)]
            if _binds(procedure, values):
                # (A vehicle the procedure cannot take, a car as a Pack Attack cycle, is none.)
                yield Case(procedure, values, sheet.name, index < EXHAUSTIVE_VEHICLES)


CASES = list(_cases())


def test_every_procedure_of_every_ruleset_has_a_sample() -> None:
    assert set(SAMPLES) == {p.id for p in all_procedures()}
    for ruleset in RULESETS.values():
        assert {p.id for p in ruleset.procedures} <= set(SAMPLES)
    assert len(CASES) > 2 * len(SAMPLES)


# --- every throw of the dice ---------------------------------------------------------------
class _MoreDiceError(Exception):
    def __init__(self, sides: int) -> None:
        self.sides = sides


class _Path(DiceSource):
    """The given faces, then :class:`_MoreDiceError` for the next die (to try its faces)."""

    def __init__(self, faces: tuple[int, ...]) -> None:
        super().__init__()
        self.faces = faces

    def _next(self, sides: int, purpose: str) -> int:
        if len(self.used) == len(self.faces):
            raise _MoreDiceError(sides)
        value = self.faces[len(self.used)]
        if value > sides:
            raise _MoreDiceError(sides)
        self.used.append(DieRoll(sides, value, purpose, entered=True))
        return value


def every_throw(procedure: Procedure, values: Mapping[str, Any],
                limit: int = MAX_OUTCOMES) -> list[tuple[Resolution, Fraction]] | None:
    """Each resolution over every throw of the dice with its exact probability, or ``None``
    when there are more than ``limit`` throws (or the dice may be re-thrown without end)."""
    found: list[tuple[Resolution, Fraction]] = []
    pending: list[tuple[int, ...]] = [()]
    while pending:
        faces = pending.pop()
        if len(faces) > 64:
            return None
        try:
            resolution = procedure.resolve(values, _Path(faces), house_for(procedure))
        except _MoreDiceError as more:
            pending.extend(faces + (face,) for face in range(more.sides, 0, -1))
            continue
        probability = Fraction(1)
        for die in resolution.dice:
            probability /= die.sides
        found.append((resolution, probability))
        if len(found) > limit:
            return None
    return found


def throws_up_to(procedure: Procedure, values: Mapping[str, Any], faces: int
                 ) -> tuple[dict[str, Fraction], Fraction]:
    """Every throw of at most ``faces`` dice: (P of each label resolved within them, P of the
    throws that go on beyond them, a re-roll)."""
    found: dict[str, Fraction] = defaultdict(Fraction)
    beyond = Fraction(0)
    pending: list[tuple[int, ...]] = [()]
    while pending:
        taken = pending.pop()
        path = _Path(taken)
        try:
            resolution = procedure.resolve(values, path, house_for(procedure))
        except _MoreDiceError as more:
            if len(taken) == faces:
                beyond += _chance(path.used)
            else:
                pending.extend(taken + (face,) for face in range(more.sides, 0, -1))
            continue
        found[resolution.label] += _chance(resolution.dice)
    return found, beyond


def _chance(dice: Sequence[DieRoll]) -> Fraction:
    chance = Fraction(1)
    for die in dice:
        chance /= die.sides
    return chance


# The roll-offs that re-roll ties: (procedure, values, dice in one round). With two
# contenders a tie re-rolls the very same two, so the throws after a tie are the first round
# again and P(label) = P(label within one round) / (1 − P(tie)) exactly; with three, the
# throws are enumerated two rounds deep and each label's odds lie within what they leave.
RE_ROLLS = [
    ("battlecars.entry_order", {"players": "a, b"}, 2, True),
    ("battlecars.entry_order", {"players": "a, b", "scenario": "arena"}, 2, True),
    ("battlecars.entry_order", {"players": "a, b, c"}, 5, False),
    ("autopower.draw_order", {"car_a": "Bishop", "car_b": "Bishop"}, 4, True),
    ("autopower.first_player", {"car_a": "Bishop", "car_b": "Bishop"}, 4, True),
    ("autopower.first_player", {"car_a": "Bishop", "car_b": "Rhino"}, 4, True),
]


@pytest.mark.parametrize(("procedure_id", "sample", "faces", "restarts"), RE_ROLLS,
                         ids=lambda value: value if isinstance(value, str) else "")
def test_re_rolled_orders_agree_with_their_odds_over_every_throw(
        procedure_id: str, sample: dict[str, Any], faces: int, restarts: bool) -> None:
    procedure = next(p for p in all_procedures() if p.id == procedure_id)
    values = procedure.bind(sample)
    odds = {o.label: o.probability for o in procedure.odds(values).outcomes}
    found, beyond = throws_up_to(procedure, values, faces)
    assert set(found) <= set(odds) and sum(found.values()) + beyond == 1
    if restarts:
        assert {label: p / (1 - beyond) for label, p in found.items()} == {
            label: p for label, p in odds.items() if p}
    else:
        assert 0 < beyond < Fraction(1, 10)
        assert all(found[label] <= p <= found[label] + beyond for label, p in odds.items())


def _purpose(taken: str, declared: str) -> bool:
    """A die's purpose is the declared one, perhaps with a detail (``to hit (need 4+)``,
    ``smoke marker 2``, ``hit location (rear)``)."""
    return taken == declared or taken.startswith((declared + " ", declared + ":"))


def follows(needs: Sequence[DiceNeed], dice: Sequence[DieRoll]) -> bool:
    """``dice`` are the throws ``needs`` declare, in order: each need taken whole (``count``
    dice of its sides and purpose), a conditional one possibly not at all; a run of repeated
    needs any number of times, in rounds (a re-roll among the tied: any of them, in order)."""
    at = 0

    def take(need: DiceNeed) -> bool:
        nonlocal at
        if at + need.count <= len(dice) and all(
                die.sides == need.sides and _purpose(die.purpose, need.purpose)
                for die in dice[at:at + need.count]):
            at += need.count
            return True
        return False

    index = 0
    while index < len(needs):
        need = needs[index]
        if not need.repeat:
            if not take(need) and not need.when:
                return False
            index += 1
            continue
        group = []
        while index < len(needs) and needs[index].repeat:
            group.append(needs[index])
            index += 1
        progress = True
        while progress:
            progress = False
            for member in group:
                while take(member):
                    progress = True
    return at == len(dice)


def _throws(case: Case) -> tuple[list[tuple[Resolution, Fraction]], bool]:
    """(every throw, True) when the dice space is small enough, else (seeded throws, False)."""
    exhaustive = None
    if case.exhaustive:
        space = dice_space(case.procedure.dice_needed(case.values, case.house))
        if space is not None and space <= MAX_OUTCOMES:
            exhaustive = every_throw(case.procedure, case.values)
        elif space is None:
            exhaustive = every_throw(case.procedure, case.values, REPEATED_LIMIT)
    if exhaustive is not None:
        return exhaustive, True
    seeded = [(case.procedure.resolve(case.values, SeededDice(seed), case.house), Fraction(0))
              for seed in SEEDS]
    return seeded, False


REPEATED_LIMIT = 1000
"""Throws tried when a procedure declares repeated dice (a hit location per interior hit):
its space is not known in advance, so it is enumerated only when that small."""


def dice_space(needs: Sequence[DiceNeed]) -> int | None:
    """The number of throws the declared dice allow, or ``None`` when some may repeat."""
    if any(need.repeat for need in needs):
        return None
    space = 1
    for need in needs:
        space *= need.sides ** need.count
    return space


def _bound(case: Case) -> Mapping[str, Any] | None:
    """The bound values, or ``None`` when the rules refuse them (a raised refusal)."""
    try:
        return case.procedure.bind(case.values, case.house)
    except RulesRefusal as refused:
        assert refused.refusal.reason and str(refused) == refused.refusal.text()
        with pytest.raises(RulesRefusal):
            case.procedure.odds(case.values, case.house)
        return None


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.id)
def test_odds_resolve_dice_refusals_and_json_agree(case: Case) -> None:
    procedure = case.procedure
    values = _bound(case)
    if values is None:
        return
    odds = procedure.odds(values)
    assert sum(o.probability for o in odds.outcomes) == 1 and odds.summary
    assert json.loads(json.dumps(odds.to_json())) == odds.to_json()
    needs = procedure.dice_needed(values)
    throws, exhaustive = _throws(case)
    labels: dict[str, Fraction] = defaultdict(Fraction)
    p_success = Fraction(0)
    reports_success = False
    for resolution, probability in throws:
        assert follows(needs, resolution.dice), (
            f"{[f'{d.sides}:{d.purpose}' for d in resolution.dice]} not as declared "
            f"{[str(n) for n in needs]}")
        assert resolution.steps and resolution.outcome
        assert all(step.text and step.rule.startswith(RULE_PREFIX[procedure.ruleset])
                   and isinstance(step.rule, Citation) for step in resolution.steps)
        if resolution.refusal is not None:
            assert resolution.effects == () and resolution.dice == ()
            assert resolution.success is False and resolution.label == "not allowed"
        labels[resolution.label] += probability
        if resolution.success:
            p_success += probability
        reports_success = reports_success or resolution.success is not None
        _round_trips(procedure, resolution)
    odds_labels = {o.label: o.probability for o in odds.outcomes}
    named = procedure.id not in UNNAMED_OUTCOMES
    if named:
        assert set(labels) <= set(odds_labels), f"{sorted(labels)} not in {sorted(odds_labels)}"
    if not exhaustive:
        return
    assert sum(labels.values()) == 1
    expected = odds.p_success()
    if expected is not None and reports_success:
        assert p_success == expected
    if named:
        assert {k: v for k, v in odds_labels.items() if v} == dict(labels)


def _round_trips(procedure: Procedure, resolution: Resolution) -> None:
    document = resolution.to_json()
    assert json.loads(json.dumps(document)) == document
    ruleset = RULESETS.get(procedure.ruleset)
    if ruleset is None:
        return
    for effect in resolution.effects:
        assert effect.summary
        assert ruleset.sheet_from_json(effect.to_json()["sheet"]) == effect.sheet
    for spec in procedure.inputs:
        if isinstance(spec, SheetInput) and document["inputs"][spec.name] is not None:
            sheet = ruleset.sheet_from_json(document["inputs"][spec.name])
            assert sheet.to_json() == document["inputs"][spec.name]


# --- the cases the per-ruleset files had ---------------------------------------------------
@pytest.mark.parametrize("procedure_id", sorted(EXAMPLE_DICE))
def test_autopower_examples_use_exactly_their_dice(procedure_id: str) -> None:
    procedure = next(p for p in AUTOPOWER.procedures if p.id == procedure_id)
    values, dice = SAMPLES[procedure_id], EXAMPLE_DICE[procedure_id]
    house = house_for(procedure)
    assert sum(n.count for n in procedure.dice_needed(values, house)) >= len(dice)
    resolution = procedure.resolve(values, EnteredDice(dice), house)
    assert [d.value for d in resolution.dice] == dice
    for effect in resolution.effects:
        assert isinstance(effect.sheet, type(AUTOPOWER.sheet_from_json(effect.sheet.to_json())))


@pytest.mark.parametrize("procedure_id", sorted(p.id for p in BATTLECARS.procedures))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_battlecars_seeded_resolutions_replay_from_their_dice(procedure_id: str,
                                                              seed: int) -> None:
    procedure = next(p for p in BATTLECARS.procedures if p.id == procedure_id)
    values = SAMPLES[procedure_id]
    dice = SeededDice(seed)
    resolution = procedure.resolve(values, dice)
    replay = procedure.resolve(values, EnteredDice(dice.values()))
    assert replay.outcome == resolution.outcome and replay.steps == resolution.steps


def test_mini_car_wars_every_procedure_resolves_with_seeded_dice() -> None:
    for procedure in MINI_CAR_WARS.procedures:
        values = SAMPLES[procedure.id]
        resolution = procedure.resolve(values, SeededDice(7))
        assert resolution.steps and all(step.rule for step in resolution.steps), procedure.id
        assert sum(o.probability for o in procedure.odds(values).outcomes) == 1


def test_an_enumeration_is_exact_on_a_known_roll() -> None:
    roll = next(p for p in all_procedures() if p.id == "dice.roll")
    throws = every_throw(roll, {"expression": "2d6", "target": 9})
    assert throws is not None and len(throws) == 36
    assert sum(p for r, p in throws if r.success) == Fraction(10, 36)
    assert every_throw(roll, {"expression": "7d6"}, limit=1000) is None


def test_follows_reads_conditional_and_repeated_needs() -> None:
    def die(purpose: str) -> DieRoll:
        return DieRoll(6, 3, purpose, entered=True)
    needs = [DiceNeed("to hit", 2, 6), DiceNeed("damage", 1, 6, "if it hits"),
             DiceNeed("location", 1, 6, "per hit", repeat=True)]
    assert follows(needs, [die("to hit"), die("to hit")])
    assert follows(needs, [die("to hit")] * 2 + [die("damage")] + [die("location")] * 3)
    assert not follows(needs, [die("to hit")])
    assert not follows(needs, [die("to hit")] * 2 + [die("damage")] * 2)
    assert not follows(needs, [die("damage"), die("to hit"), die("to hit")])


def test_a_bad_input_is_not_a_refusal() -> None:
    fire = next(p for p in all_procedures() if p.id == "mini.fire")
    with pytest.raises(InputError) as bad:
        fire.bind({"firer": "Courier", "weapon": "laser X"})
    assert not isinstance(bad.value, RulesRefusal)
    with pytest.raises(RulesRefusal) as refused:
        fire.bind({"firer": "Courier", "target": "Courier", "side": "T"})
    assert refused.value.refusal.rule == "Mini Car Wars §2.9"


# --- values: every procedure's names documented; the numbers explained are in the JSON ----
DOC = Path(__file__).resolve().parents[2] / "docs" / "command-line.md"


def documented_values() -> dict[str, tuple[frozenset[str], frozenset[str]]]:
    """``docs/command-line.md``'s values table: procedure → (always there, sometimes there)."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## Values:", 1)[1].split("\n## ", 1)[0]
    table: dict[str, tuple[frozenset[str], frozenset[str]]] = {}
    for procedure_id, cell in re.findall(r"^\| `([\w.]+)` \| (.*) \|$", section, re.MULTILINE):
        names = re.findall(r"`(\w+\??)`", cell)
        table[procedure_id] = (frozenset(n for n in names if not n.endswith("?")),
                               frozenset(n[:-1] for n in names if n.endswith("?")))
    return table


def test_every_value_name_is_documented_and_the_sample_has_them() -> None:
    documented = documented_values()
    assert set(documented) == {p.id for p in all_procedures()}
    for procedure in all_procedures():
        always, sometimes = documented[procedure.id]
        sample = procedure.resolve(SAMPLES[procedure.id], SeededDice(1), house_for(procedure))
        assert always <= set(sample.to_json()["values"]), procedure.id
    for case in CASES:
        always, sometimes = documented[case.procedure.id]
        for seed in SEEDS[:3]:
            try:
                resolution = case.procedure.resolve(case.values, SeededDice(seed), case.house)
            except InputError:
                continue
            assert set(resolution.values) <= always | sometimes, case.id


NUMBER = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)(?![\w.])")
NOT_A_VALUE = re.compile(
    r"\d+/\d+ · \d+(?:\.\d+)?%"  # the odds of the roll, in "odds"
    r"|\d+(?:\.\d+)?%"
    r"|\b(?:car|Car|Pod|Tyre|TEST|v)[ -]?\w*\d+\b"  # names: car 1, Pod A, TEST-1, v2
    r"|§[\d.–-]+|\b[A-Z]+-D\d+"  # citations
    r"|\d+d\d+|\bE\d+|\bI\d+|\d+\"")  # notation: 2d6, E4 / I3 (a card's stats), 3" range
EXPLAINED = (
    "dice.roll", "mini.road_duel_setup", "mini.pack_attack_setup", "mini.speed",
    "mini.maneuver", "mini.control", "mini.hazard", "mini.fire", "mini.damage",
    "mini.collision", "mini.victory", "battlecars.entry_order", "battlecars.speed",
    "battlecars.three_point_turn", "battlecars.drop", "battlecars.fuel_tank",
    "battlecars.detonation", "battlecars.leave_car", "battlecars.commandeer",
    "battlecars.run_over", "battlecars.pedestrian_speed", "battlecars.end_round",
    "battlecars.smoke_dispersal", "battlecars.mission", "battlecars.winner",
    "autopower.draw_order", "autopower.first_player", "autopower.draw",
    "autopower.accelerate", "autopower.push", "autopower.armor", "autopower.attack",
    "autopower.control", "autopower.laser", "autopower.victory", "mini.schedule",
    "battlecars.rearm", "autopower.ram", "battlecars.start_turn", "battlecars.corner",
    "battlecars.skid", "battlecars.damage", "battlecars.crash", "battlecars.ram",
    "battlecars.fire", "battlecars.passive")
"""Procedures whose sample explanation states no number that is not in its JSON ``values``
(or its ``dice``): the list grows as procedures are completed."""


def _numbers(value: Any, found: set[str]) -> set[str]:
    if isinstance(value, Mapping):
        for item in value.values():
            _numbers(item, found)
    elif isinstance(value, list | tuple):
        for item in value:
            _numbers(item, found)
    elif isinstance(value, bool):
        pass
    elif isinstance(value, int | float):
        found.add(str(value))
        found.add(str(abs(value)))  # "to-hit 9 − 4": the text's sign is not part of the number
    elif isinstance(value, str):
        found.update(re.findall(r"\d+(?:\.\d+)?", value))
    return found


@pytest.mark.parametrize("procedure_id", EXPLAINED)
def test_every_number_explained_is_in_the_values(procedure_id: str) -> None:
    procedure = next(p for p in all_procedures() if p.id == procedure_id)
    document = procedure.resolve(SAMPLES[procedure_id], SeededDice(1),
                                 house_for(procedure)).to_json()
    known = _numbers(document["values"], set()) | {str(d["value"]) for d in document["dice"]}
    for step in document["steps"]:
        stated = NUMBER.findall(NOT_A_VALUE.sub(" ", step["text"]))
        assert [n for n in stated if n not in known] == [], step["text"]

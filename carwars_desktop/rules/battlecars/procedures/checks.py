"""Procedures: record damage, fuel-tank explosion, ammunition detonation (§2.13–§2.15)."""

from __future__ import annotations

from fractions import Fraction

from carwars_desktop.dice import DiceSource, die
from carwars_desktop.procedures import (
    Chart,
    ChoiceInput,
    DiceNeed,
    EffectCategory,
    InputError,
    IntInput,
    Odds,
    Outcome,
    Procedure,
    Result,
    SheetChange,
    Step,
    TextInput,
    Values,
    odds_text,
    percent,
)
from carwars_desktop.rules.battlecars.chance import DicePicker, successes
from carwars_desktop.rules.battlecars.damage import RULE_RECORD, record_damage
from carwars_desktop.rules.battlecars.explosions import (
    RULE_AMMO,
    RULE_FUEL,
    FuelCheck,
    ammunition_check,
    fuel_tank_of,
    p_any_detonation,
    roll_fuel_check,
)
from carwars_desktop.rules.battlecars.fire import after_hit_checks
from carwars_desktop.rules.battlecars.options import options_from
from carwars_desktop.rules.battlecars.outcomes import car_hit_odds
from carwars_desktop.rules.battlecars.procedures.common import (
    RULESET,
    area_input,
    car_input,
    decisions,
    odds_line,
    refuse,
)
from carwars_desktop.rules.battlecars.sheet import CarSheet
from carwars_desktop.rules.battlecars.tables import (
    AMMUNITION_DETONATES_ON,
    DIE,
    FUEL_TANK_EXPLODES_ON,
    FUEL_TANK_MISSILE_PENALTY,
)
from carwars_desktop.rules.battlecars.terms import MISSILES, Block, Kind, Line, Source, Weapon


# --- record damage ------------------------------------------------------------------------
def _damage_resolve(values: Values, dice: DiceSource) -> Result:
    sheet: CarSheet = values["vehicle"]
    options = options_from(values)
    area = Block(values["area"])
    amount = values["amount"]
    source = Source(values["source"])
    after, report = record_damage(sheet, area, amount, Line(values["line"]), source,
                                  DicePicker(dice), options)
    steps: list[Step] = list(report.steps)
    after, fired, summary, label = after_hit_checks(sheet, after, report, dice, options,
                                                    steps)
    return Result(f"{amount} damage on {area.label}: {report.armour} armour, "
                  f"{report.components} interior, {report.lost} lost{summary}", steps, None,
                  [SheetChange("vehicle", after, f"{amount} damage on {area.label}{summary}")],
                  {"armour": report.armour, "components": report.components,
                   "lost": report.lost, "fired_off": [f.describe() for f in fired],
                   "fired_off_items": [f.to_json() for f in fired],
                   "damage_record": report.to_json()},
                  label=label)


def _damage_odds(values: Values) -> Odds:
    odds = dict(car_hit_odds(values["vehicle"], Block(values["area"]), values["amount"],
                             Line(values["line"]), Source(values["source"]),
                             options_from(values)))
    return Odds(outcomes=tuple(Outcome(k, p) for k, p in odds.items()),
                summary=f"{values['amount']} damage on {values['area']}: " + odds_line(odds))


DAMAGE = Procedure(
    id="battlecars.damage",
    aliases={"car": "vehicle"},
    title="Record damage (armour, hit location, pass-through)",
    ruleset=RULESET,
    rule=RULE_RECORD.more("· §2.14 · §2.15"),
    summary="Put damage on an armour block; once breached roll the section's d8 Hit Location "
            "Table, re-roll destroyed components, carry surplus on and pass it through a "
            "destroyed section; then the fuel-tank and ammunition checks.",
    inputs=(car_input(), area_input("area", "Area", optional=False),
            IntInput("amount", "Damage", 1, 0, 60),
            ChoiceInput("line", "Direction of the damage", tuple(ln.value for ln in Line),
                        Line.FROM_FRONT.value,
                        help="from-front / from-rear: pass-through along the car (BC-D23); "
                             "right-angle: a destroyed section stops it"),
            ChoiceInput("source", "Caused by", tuple(s.value for s in Source),
                        Source.COLLISION.value,
                        help="rocket/shell/flame trigger the fuel-tank and ammunition checks"))
    + decisions("bc_d19_count_after_hit", "bc_d22_interior_only", "bc_d24_stack_reductions",
                "bc_d49_fuel_first"),
    resolve_fn=_damage_resolve,
    odds_fn=_damage_odds,
    dice_fn=lambda values: [DiceNeed("hit location", 1, DIE, "per interior hit, again for a "
                                                            "destroyed component", repeat=True)],
)


# --- fuel tank ----------------------------------------------------------------------------
TRIGGERS = (Weapon.FLAME.value, Weapon.ROCKET.value, Weapon.SHELL.value)


def _fuel(values: Values) -> FuelCheck:
    sheet: CarSheet = values["vehicle"]
    tank = fuel_tank_of(sheet)
    if tank is None:
        raise InputError(f"{sheet.name} has no fuel tank")
    trigger = Weapon(values["trigger"])
    penalty = 0 if trigger is Weapon.FLAME else FUEL_TANK_MISSILE_PENALTY
    return FuelCheck(f"{trigger.label} triggers the check", sheet.hits(tank), penalty,
                     sheet.working(Kind.FIRE_EXTINGUISHER))


def _fuel_check(values: Values) -> None:
    sheet: CarSheet = values["vehicle"]
    refuse([f"{sheet.name} has already exploded"] if sheet.exploded else [])
    _fuel(values)


def _fuel_resolve(values: Values, dice: DiceSource) -> Result:
    sheet: CarSheet = values["vehicle"]
    check = _fuel(values)
    taken = len(dice.used)
    after, exploded, step = roll_fuel_check(sheet, check, dice)
    wreck = frozenset({EffectCategory.CREW_HURT, EffectCategory.WRECKED})
    effects = [SheetChange("vehicle", after, "fuel tank exploded: car destroyed, driver "
                                         "killed", wreck)] if exploded else []
    outcome = "explodes" if exploded else ("no check (Fire Extinguisher)" if check.extinguisher
                                           else "no explosion")
    face = dice.used[taken].value if len(dice.used) > taken else None
    return Result(f"fuel tank: {outcome}", [step], exploded, effects,
                  {"damage": check.damage, "penalty": check.penalty,
                   "need": FUEL_TANK_EXPLODES_ON, "need_face": None if check.extinguisher
                   else max(check.need, 1), "roll": face,
                   "total": None if face is None else face + check.damage - check.penalty,
                   "extinguisher": check.extinguisher, "exploded": exploded},
                  label="explodes" if exploded else "no explosion")


def _fuel_odds(values: Values) -> Odds:
    check = _fuel(values)
    p = check.p_explode()
    distribution = die(DIE) + (check.damage - check.penalty)
    return Odds(outcomes=(Outcome("explodes", p), Outcome("no explosion", 1 - p)),
                summary=check.describe() + f" · {percent(p)}",  # describe() has the 4/8
                need=None if check.extinguisher else 7,
                chart=None if check.extinguisher else Chart(
                    "fuel-tank check", distribution,
                    frozenset(v for v in distribution.values() if v >= 7)))


FUEL_TANK = Procedure(
    id="battlecars.fuel_tank",
    aliases={"car": "vehicle"},
    title="Fuel tank explosion check",
    ruleset=RULESET,
    rule=RULE_FUEL,
    summary="1d8 + 1 per damage point on the fuel tank (− 2 for a Rocket or Shell) ≥ 7 "
            "explodes: the car is destroyed and the driver killed. None with a working Fire "
            "Extinguisher.",
    inputs=(car_input(), ChoiceInput("trigger", "Hit by", TRIGGERS, Weapon.FLAME.value,
                                     help="the weapon whose hit triggered the check")),
    resolve_fn=_fuel_resolve,
    odds_fn=_fuel_odds,
    dice_fn=lambda values: [] if _fuel(values).extinguisher else [DiceNeed("fuel tank", 1, DIE)],
    check_fn=_fuel_check,
)


# --- ammunition detonation ----------------------------------------------------------------
def _rounds(values: Values) -> tuple[tuple[str, Weapon], ...]:
    count: int = values["rounds"]
    return ((str(values["mount"]), Weapon(values["weapon"])),) * count


def _detonation_check(values: Values) -> None:
    sheet: CarSheet = values["vehicle"]
    try:
        component = sheet.card.component(values["mount"])
    except KeyError:
        raise InputError(f"{sheet.name} has no {values['mount']!r}") from None
    refuse([] if component.kind.is_mount else [f"{component.name} is not a pod or turret"])


def _rolls_made(values: Values) -> bool:
    sheet: CarSheet = values["vehicle"]
    return (Source(values["hit_by"]).detonates_ammunition
            and not sheet.working(Kind.GUNNERY_COMPUTER))


def _detonation_resolve(values: Values, dice: DiceSource) -> Result:
    sheet: CarSheet = values["vehicle"]
    fired, steps = ammunition_check(sheet, _rounds(values), Source(values["hit_by"]), dice)
    all_steps = list(steps) + [Step(f.describe(), RULE_AMMO.more("step 4")) for f in fired]
    return Result(f"{len(fired)} of {values['rounds']} round(s) detonate", all_steps,
                  bool(fired), values={"fired_off": [f.describe() for f in fired],
                                        "fired_off_items": [f.to_json() for f in fired]},
                  label=f"{len(fired)} detonate")


def _detonation_odds(values: Values) -> Odds:
    rounds = values["rounds"]
    if not _rolls_made(values):
        return Odds((Outcome("0 detonate", Fraction(1)),),
                    "no detonation roll: a working Gunnery Computer, or not hit by a Rocket or "
                    "Shell (BC-D21)")
    p = Fraction(len(AMMUNITION_DETONATES_ON), DIE)
    distribution = successes(rounds, len(AMMUNITION_DETONATES_ON))
    return Odds(outcomes=tuple(Outcome(f"{k} detonate", q)
                               for k, q in distribution.probabilities().items()),
                summary=f"{rounds} round(s), each 7–8 ({odds_text(p)}) · at least one "
                        f"{odds_text(p_any_detonation(rounds))}",
                chart=Chart("rounds detonating", distribution, x_label="rounds"),
                expected=(("rounds detonating", distribution.mean()),))


def _detonation_dice(values: Values) -> list[DiceNeed]:
    if not _rolls_made(values):
        return []
    needs = [DiceNeed("ammunition", 1, DIE, "per round hit", repeat=True)]
    sheet: CarSheet = values["vehicle"]
    if sheet.card.component(values["mount"]).kind is Kind.TURRET:
        needs.append(DiceNeed("turret detonation direction", 1, DIE, "after each 7–8",
                              repeat=True))
    return needs


DETONATION = Procedure(
    id="battlecars.detonation",
    aliases={"car": "vehicle"},
    title="Ammunition detonation",
    ruleset=RULESET,
    rule=RULE_AMMO,
    summary="Missile rounds hit by a Rocket or Shell detonate on 7–8 unless a Gunnery Computer "
            "works, and fire off: out of the pod's side or end, or a turret's 1d8 direction.",
    inputs=(car_input(), TextInput("mount", "Pod or turret", "Turret"),
            ChoiceInput("weapon", "Rounds hit", tuple(w.value for w in MISSILES),
                        Weapon.MG.value),
            IntInput("rounds", "Number of rounds hit", 1, 1, 8),
            ChoiceInput("hit_by", "Hit by", tuple(s.value for s in Source), Source.ROCKET.value,
                        help="only Rocket or Shell hits can detonate rounds (BC-D21)")),
    resolve_fn=_detonation_resolve,
    odds_fn=_detonation_odds,
    dice_fn=_detonation_dice,
    check_fn=_detonation_check,
)

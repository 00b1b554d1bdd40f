"""To-hit computation: modifiers, need and exact hit odds (Mini Car Wars §2.10, §3.2, §3.3).

Decisions: MCW-D11 (range edge to edge), MCW-D12 (not moving = speed 0),
MCW-D13 (front/rear −1 also on cycles), MCW-D14 (turret: only −2).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from carwars_desktop.dice import dice_sum
from carwars_desktop.procedures import Modifier
from carwars_desktop.rules.kernel.formatting import signed
from carwars_desktop.rules.mini_car_wars.cite import mcw
from carwars_desktop.rules.mini_car_wars.decisions import DEFAULT_RULES, MiniRules
from carwars_desktop.rules.mini_car_wars.errors import RangeFormatError
from carwars_desktop.rules.mini_car_wars.model import Side, Size, WeaponType
from carwars_desktop.rules.mini_car_wars.tables import TO_HIT, WEAPONS

MODIFIERS_RULE = mcw("§3.2")
TO_HIT_RULE = mcw("§2.10")
TWO_D6_WAYS = 36


def parse_inches(text: str) -> Fraction:
    """A range in inches: ``5``, ``7.99``, ``0.75`` or ``3/4`` (never negative)."""
    cleaned = text.strip().replace('"', "").replace("in", "").strip()
    try:
        value = Fraction(cleaned)
    except (ValueError, ZeroDivisionError):
        raise RangeFormatError(f"{text!r} is not a number of inches (e.g. 5, 7.5, 3/4)") from None
    if value < 0:
        raise RangeFormatError(f"range cannot be negative ({text})")
    return value


def inches_text(value: Fraction) -> str:
    """``Fraction(5)`` → ``5"``; ``Fraction(3, 4)`` → ``0.75"``."""
    if value.denominator == 1:
        return f'{value.numerator}"'
    return f'{float(value):g}"'


def range_modifier(range_inches: Fraction) -> int:
    """+4 point-blank (< 1"), else −1 per full 4" (§3.2, MCW-D11: edge to edge)."""
    if range_inches < TO_HIT.point_blank_under:
        return TO_HIT.point_blank
    return TO_HIT.long_range_per_step * int(range_inches // TO_HIT.long_range_step)


@dataclass(frozen=True)
class Shot:
    """Everything the to-hit roll depends on (§2.10 inputs)."""

    weapon: WeaponType
    range_inches: Fraction
    target_size: Size
    target_side: Side
    firer_speed: int
    target_speed: int
    smoke_clouds: int = 0
    computer_bonus: int = 0


def modifiers(shot: Shot, rules: MiniRules = DEFAULT_RULES) -> tuple[Modifier, ...]:
    """The cumulative modifier stack of §3.2 for ``shot`` (the range line always shown)."""
    stack: list[Modifier] = []
    if shot.range_inches < TO_HIT.point_blank_under:
        stack.append(Modifier(f"point-blank, range {inches_text(shot.range_inches)}",
                              TO_HIT.point_blank, MODIFIERS_RULE))
    else:
        stack.append(Modifier(f"range {inches_text(shot.range_inches)}",
                              range_modifier(shot.range_inches),
                              MODIFIERS_RULE.more("", "MCW-D11")))
    turret = shot.target_side is Side.TOP
    cycle = shot.target_size.is_cycle
    if turret:
        stack.append(Modifier("turret (top)", TO_HIT.turret, MODIFIERS_RULE.more("", "MCW-D14")))
    if shot.target_size in TO_HIT.small_body_sizes and (
            not turret or not rules.d14_turret_only_minus_two):
        # A house rule that changes a step says so where it does (issue 28 §2).
        off = " (house rule MCW-D14 off)" if turret else ""
        stack.append(Modifier(f"{shot.target_size.value.lower()} body{off}", TO_HIT.small_body,
                              MODIFIERS_RULE.more("", "MCW-D14") if turret else MODIFIERS_RULE))
    if shot.target_side.is_front_or_rear and (not cycle or rules.d13_cycle_front_rear):
        stack.append(Modifier(shot.target_side.label, TO_HIT.front_or_rear,
                              MODIFIERS_RULE.more("", "MCW-D13") if cycle else MODIFIERS_RULE))
    elif shot.target_side.is_front_or_rear:
        stack.append(Modifier(f"{shot.target_side.label}: no −1 on a cycle (house rule MCW-D13 "
                              "off)", 0, MODIFIERS_RULE.more("", "MCW-D13")))
    if cycle:
        stack.append(Modifier("cycle", TO_HIT.cycle, MODIFIERS_RULE))
    firer_still, target_still = shot.firer_speed == 0, shot.target_speed == 0
    if firer_still and target_still:
        stack.append(Modifier("neither moving", TO_HIT.firer_stationary + TO_HIT.target_stationary,
                              MODIFIERS_RULE.more("", "MCW-D12")))
    elif firer_still:
        stack.append(Modifier("firer not moving", TO_HIT.firer_stationary,
                              MODIFIERS_RULE.more("", "MCW-D12")))
    elif target_still:
        stack.append(Modifier("target not moving", TO_HIT.target_stationary,
                              MODIFIERS_RULE.more("", "MCW-D12")))
    if shot.smoke_clouds:
        stack.append(Modifier(f"{shot.smoke_clouds} smoke cloud"
                              f"{'s' if shot.smoke_clouds > 1 else ''}",
                              TO_HIT.smoke_cloud * shot.smoke_clouds, mcw("§2.13")))
    if shot.computer_bonus:
        stack.append(Modifier("targeting computer", shot.computer_bonus, mcw("§1.4")))
    return tuple(stack)


def base_to_hit(weapon: WeaponType) -> int:
    number = WEAPONS[weapon].to_hit
    if number is None:
        raise ValueError(f"{WEAPONS[weapon].name} makes no to-hit roll")
    return number


def need(shot: Shot, rules: MiniRules = DEFAULT_RULES) -> int:
    """``need = to-hit number − total modifier`` (§2.10 step 5)."""
    return base_to_hit(shot.weapon) - sum(m.value for m in modifiers(shot, rules))


@cache
def hit_ways(need_value: int) -> int:
    """Ways out of 36 that 2d6 hits ``need_value``+, a natural 2 always missing (§3.3)."""
    return sum(w for n, w in dice_sum(2, 6).ways.items() if is_hit(n, need_value))


def p_hit(need_value: int) -> Fraction:
    return Fraction(hit_ways(need_value), TWO_D6_WAYS)


def is_hit(natural: int, need_value: int) -> bool:
    """A natural 2 misses whatever the modifiers; otherwise hit when ``natural ≥ need``."""
    return natural != TO_HIT.natural_miss and natural >= need_value


def modifier_text(stack: tuple[Modifier, ...]) -> str:
    """``range 5" −1, front −1`` (values with a real minus sign)."""
    return ", ".join(f"{m.label} {signed(m.value)}" for m in stack)



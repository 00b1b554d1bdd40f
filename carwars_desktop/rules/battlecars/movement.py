"""Speed selection, reversing, three-point turns and cornering (digest §2.3–§2.4, §3.1–§3.2)."""

from __future__ import annotations

from dataclasses import dataclass

from carwars_desktop.procedures import Step
from carwars_desktop.rules.battlecars.cite import bc
from carwars_desktop.rules.battlecars.options import DEFAULT_OPTIONS, Options
from carwars_desktop.rules.battlecars.sheet import CarSheet
from carwars_desktop.rules.battlecars.tables import REVERSE_MAX
from carwars_desktop.rules.battlecars.terms import Direction, Kind, Surface

RULE_SPEED = bc("§2.3")
RULE_CORNER = bc("§2.4")


@dataclass(frozen=True)
class SpeedRange:
    """The speeds a car may choose this Round in ``direction``, with the reasons."""

    direction: Direction
    low: int
    high: int
    steps: tuple[Step, ...]
    refusal: str | None = None
    """Why no speed in this direction may be chosen at all (direction change, dead driver)."""

    def allows(self, speed: int) -> bool:
        return self.refusal is None and self.low <= speed <= self.high

    def __str__(self) -> str:
        if self.refusal is not None:
            return f"{self.direction.value}: not allowed ({self.refusal})"
        return f"{self.direction.value} {self.low}–{self.high}"


def speed_range(sheet: CarSheet, direction: Direction, surface: Surface,
                options: Options = DEFAULT_OPTIONS) -> SpeedRange:
    """§2.3: acceleration, deceleration, max speed and reverse limits for the new speed."""
    previous = sheet.speed
    steps: list[Step] = []
    if sheet.driver_dead or not sheet.occupied:
        why = "the driver is dead" if sheet.occupied else "nobody is driving"
        steps.append(Step(f"{why}: the car keeps its speed {previous} until it skids or stops",
                          bc("§2.3 step 6 · §2.16")))
        return SpeedRange(sheet.direction, previous, previous, tuple(steps))
    if sheet.stunned:
        steps.append(Step(f"the driver is stunned: the car keeps its speed {previous}",
                          bc("§2.3 step 6", "BC-D46")))
        return SpeedRange(sheet.direction, previous, previous, tuple(steps))
    accel = sheet.max_acceleration(surface)
    decel = sheet.max_deceleration(surface)
    extras = []
    if sheet.working(Kind.SUPER_CHARGER):
        extras.append("Super-Charger +1 acceleration")
    if sheet.working(Kind.POWER_BRAKES):
        extras.append("Power Brakes +1 deceleration")
    steps.append(Step(f"on {surface.value}: max acceleration {accel}, max deceleration {decel}"
                      + (f" ({', '.join(extras)})" if extras else ""), RULE_SPEED))
    base = previous
    if direction is not sheet.direction and previous > 0:
        if options.bc_d44_previous_speed_zero:
            refusal = (f"the car moved {sheet.direction.value} at speed {previous}: it must be at "
                       "speed 0 before moving the other way")
            steps.append(Step(refusal, bc("§2.3 step 4", "BC-D44")))
            return SpeedRange(direction, 0, 0, tuple(steps), refusal)
        if previous > decel:
            refusal = (f"the car cannot stop from speed {previous} this Round "
                       f"(max deceleration {decel})")
            steps.append(Step(refusal, bc("§2.3 step 4", "BC-D44 (alternative)")))
            return SpeedRange(direction, 0, 0, tuple(steps), refusal)
        steps.append(Step(f"the car stops from speed {previous} and changes direction",
                          bc("", "BC-D44 (alternative)")))
        base = 0
    elif direction is not sheet.direction:
        steps.append(Step("the car is at speed 0: it may change direction",
                          bc("§2.3 step 4", "BC-D44")))
    top = sheet.max_speed(options)
    cap_text = f"max speed {top}"
    if direction is Direction.REVERSE:
        reverse = REVERSE_MAX[surface]
        if reverse < top:
            top = reverse
            cap_text = f"reverse max {reverse} on {surface.value}"
        if not options.bc_d48_reverse_limits:
            steps.append(Step(f"reverse: any speed 0–{top} ({cap_text})",
                              bc("§2.3 step 4", "BC-D48 (alternative)")))
            return SpeedRange(direction, 0, top, tuple(steps))
    low = max(0, base - decel)
    high = min(base + accel, top)
    if high < low:
        if options.bc_d25_cap_at_max_speed:
            steps.append(Step(f"speed {base} is above the {cap_text}: it drops to {top} even "
                              f"beyond the deceleration limit", bc("§2.3 step 3", "BC-D25")))
            low = high = top
        else:
            steps.append(Step(f"speed {base} is above the {cap_text}, but the deceleration "
                              f"limit holds: the car slows to {low}",
                              bc("", "BC-D25 (alternative)")))
            high = low
    else:
        steps.append(Step(f"from {base}: {low}–{high} ({cap_text})", RULE_SPEED.more("", "BC-D48")
                          if direction is Direction.REVERSE else RULE_SPEED))
    return SpeedRange(direction, low, high, tuple(steps))


def three_point_turn(sheet: CarSheet) -> str | None:
    """§2.3 step 5: why a three-point turn is not allowed now, or ``None``."""
    blocked = sheet.cannot_act()
    if blocked is not None:
        return blocked
    if sheet.speed != 0:
        return f"{sheet.name} is moving at speed {sheet.speed}: a three-point turn needs speed 0"
    return None


@dataclass(frozen=True)
class CornerCheck:
    angle: int
    surface: Surface
    speed: int
    safe: int
    auto_steer: bool

    @property
    def speed_difference(self) -> int:
        """Speed − safe speed: the SD of the skid test when positive (§3.2)."""
        return self.speed - self.safe

    @property
    def skids(self) -> bool:
        return self.speed > self.safe

    def step(self) -> Step:
        steer = "with Auto-Steer" if self.auto_steer else "no Auto-Steer"
        verdict = (f"speed {self.speed} > {self.safe} → skid test, SD {self.speed_difference}"
                   if self.skids else f"speed {self.speed} ≤ {self.safe} → safe")
        return Step(f"{self.angle}° corner on {self.surface.value}, {steer}: safe speed "
                    f"{self.safe}; {verdict}", RULE_CORNER)


def corner_check(sheet: CarSheet, angle: int, surface: Surface, speed: int) -> CornerCheck:
    """§2.4 step 3: compare this turn's speed with the safe speed at the corner point."""
    return CornerCheck(angle, surface, speed, sheet.safe_speed(angle, surface),
                       sheet.working(Kind.AUTO_STEER))

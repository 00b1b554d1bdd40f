"""When a car may fire at the Table: its own Turn, or return fire (Battlecars §2.9).

Outside its Turn a car "may fire only when fired at: one missile round, only at the
attacker" (§2.9 step 2); BC-D26: the return fire resolves at once after the attack and
does not count against the car's own-Turn targets. The Table knows whose Turn it is
(the clock's phase) and what was fired in it (the results applied in the phase), so the
fire dialog and the quick line default to return fire outside the firer's Turn, and a
shot §2.9 does not allow is refused with its reason.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from carwars_desktop.rules.battlecars.cite import bc
from carwars_desktop.rules.battlecars.fire import FireMode
from carwars_desktop.rules.battlecars.play.clock import car_of
from carwars_desktop.rules.clock import Clock
from carwars_desktop.rules.play import Done
from carwars_desktop.rules.ruleset import RecordSheet

FIRE = "battlecars.fire"
RULE = bc("§2.9 step 2", "BC-D26")


def turn_of(clock: Clock) -> str | None:
    """The car whose Turn it is (``None`` in the speeds phase)."""
    return car_of(clock.phase_name)


def table_defaults(procedure_id: str, vehicles: Mapping[str, tuple[str, RecordSheet]],
                   clock: Clock) -> Mapping[str, Any]:
    """A shot fired by a car outside its own Turn is return fire, at the car whose Turn
    it is (§2.9 step 2); in its own Turn it is an own-Turn shot (§2.9 step 1)."""
    firer = vehicles["firer"][0] if "firer" in vehicles else None
    moving = turn_of(clock)
    if procedure_id != FIRE or firer is None or moving is None:
        return {}
    if firer == moving:
        return {"mode": FireMode.OWN_TURN.value}
    return {"mode": FireMode.RETURN_FIRE.value}


def _fired(done: Done, firer: str, target: str, mode: FireMode) -> bool:
    return (done.procedure_id == FIRE and done.names.get("firer") == firer
            and done.names.get("target") == target
            and str(done.inputs.get("mode", FireMode.OWN_TURN.value)) == mode.value)


def table_problems(procedure_id: str, names: Mapping[str, str], inputs: Mapping[str, Any],
                   clock: Clock, done: Sequence[Done]) -> tuple[str, ...]:
    """What §2.9 refuses of a shot between two cars in play at this moment of play.

    Own-Turn fire only in the firer's Turn; return fire only in another car's Turn, at that
    car, after it fired at the returning car, and once (§2.9 step 2, BC-D26). A detonated
    round firing off (§2.14) and a shot in the speeds phase are not judged here.
    """
    firer, target = names.get("firer"), names.get("target")
    moving = turn_of(clock)
    if procedure_id != FIRE or firer is None or target is None or moving is None:
        return ()
    mode = str(inputs.get("mode", FireMode.OWN_TURN.value))
    if mode == FireMode.OWN_TURN.value and firer != moving:
        return (f"it is {moving}'s Turn: outside its own Turn {firer} may only return fire, "
                f"one round at its attacker ({RULE})",)
    if mode != FireMode.RETURN_FIRE.value:
        return ()
    if firer == moving:
        return (f"it is {firer}'s own Turn: return fire is fired outside it (§2.9 step 1)",)
    if target != moving:
        return (f"{firer} may return fire only at its attacker, {moving}, not at {target} "
                f"({RULE})",)
    if not any(_fired(d, moving, firer, FireMode.OWN_TURN) for d in done):
        return (f"{moving} has not fired at {firer} this Turn: a car fires outside its Turn "
                f"only when fired at ({RULE})",)
    if any(_fired(d, firer, moving, FireMode.RETURN_FIRE) for d in done):
        return (f"{firer} has already returned fire at {moving} this Turn: one missile round "
                f"({RULE})",)
    return ()

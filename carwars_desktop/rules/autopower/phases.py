"""The AUTOpower turn: each car in order draws, accelerates, arms and fights (AP §2.3)."""

from __future__ import annotations

from collections.abc import Sequence

STEPS = ("draw", "accelerate", "armor", "combat")


def phases(vehicle_names: Sequence[str]) -> tuple[str, ...]:
    return tuple(f"{name}: {step}" for name in vehicle_names for step in STEPS) or STEPS

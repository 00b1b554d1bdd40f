"""The Battlecars round: the secret speeds, then each car's turn in order (BC §2.2)."""

from __future__ import annotations

from collections.abc import Sequence

SPEEDS = "secret speeds"
TURN_WORD = "round"


def phases(vehicle_names: Sequence[str]) -> tuple[str, ...]:
    return (SPEEDS, *(f"{name}'s turn" for name in vehicle_names))

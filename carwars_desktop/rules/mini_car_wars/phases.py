"""The Mini Car Wars turn: one second in ten phases (MCW §2.2)."""

from __future__ import annotations

from collections.abc import Sequence

PHASES = tuple(f"phase {n}" for n in range(1, 11))


def phases(vehicle_names: Sequence[str]) -> tuple[str, ...]:
    """Phases 1–10, whoever is in play."""
    return PHASES

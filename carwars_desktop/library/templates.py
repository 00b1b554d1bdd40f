"""Fresh designs for "New", and renaming: the starting points the Workshop offers.

A new design is deliberately incomplete where the player must choose (a new
Battlecars card has only its driver): the validation lists what is missing.
Each ruleset's kind says how to start one (:attr:`DesignKind.new`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from carwars_desktop.library.kinds import VEHICLE, design_kind
from carwars_desktop.rules import Design


def new_design(ruleset_id: str, kind: str = VEHICLE, name: str | None = None) -> Design:
    """A new design of ``ruleset_id``/``kind`` called ``name`` (default: ``New vehicle``…)."""
    design_kind_ = design_kind(ruleset_id, kind)
    design: Design = design_kind_.new(name if name is not None else design_kind_.default_name)
    return design


def renamed(design: Design, name: str) -> Design:
    """The same design with another name (every engine's design has a ``name`` field)."""
    result: Any = replace(design, name=name)  # type: ignore[type-var]
    if not isinstance(result, type(design)):
        raise TypeError(f"renaming a {type(design).__name__} gave a {type(result).__name__}")
    return result

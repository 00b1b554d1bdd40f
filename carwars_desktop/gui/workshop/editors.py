"""Which editor edits which kind of design (built on first use)."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from carwars_desktop.gui.workshop.editor import DesignEditor
from carwars_desktop.library import DECK, design_kind


def make_editor(ruleset_id: str, kind: str, parent: QWidget | None = None) -> DesignEditor:
    """A new editor for ``ruleset_id``/``kind`` designs."""
    design_kind(ruleset_id, kind)
    if ruleset_id == "mini_car_wars":
        from carwars_desktop.gui.workshop.mcw_editor import MiniEditor

        return MiniEditor(parent)
    if ruleset_id == "battlecars":
        from carwars_desktop.gui.workshop.bc_editor import CardEditor

        return CardEditor(parent)
    if kind == DECK:
        from carwars_desktop.gui.workshop.ap_deck_editor import DeckEditor

        return DeckEditor(parent)
    from carwars_desktop.gui.workshop.ap_car_editor import CarEditor

    return CarEditor(parent)

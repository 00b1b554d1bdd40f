"""Rule citations: each ruleset cites through one :class:`Citer` (``mcw("§2.10")``)."""

from carwars_desktop.procedures.citation import Citation, Citer

__all__ = ["Citation", "Citer"]

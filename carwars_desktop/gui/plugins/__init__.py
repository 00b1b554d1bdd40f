"""One UI module per ruleset, each defining ``UI`` (a
:class:`~carwars_desktop.gui.rulesets.RulesetUI`).

The factories import their widgets when first called, so a ruleset's screens load
with its first design or session, not at start-up.
"""

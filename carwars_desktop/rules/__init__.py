"""The rules core: one package per rule system, pure Python (no Qt, no SQLAlchemy)."""

from carwars_desktop.rules.registry import (
    RULESET_IDS,
    UnknownProcedureError,
    UnknownRulesetError,
    all_procedures,
    all_rulesets,
    find_procedure,
    find_ruleset,
    ruleset_title,
)
from carwars_desktop.rules.ruleset import Design, Problem, RecordSheet, ReferenceTable, Ruleset

__all__ = [
    "RULESET_IDS",
    "Design",
    "Problem",
    "RecordSheet",
    "ReferenceTable",
    "Ruleset",
    "UnknownProcedureError",
    "UnknownRulesetError",
    "all_procedures",
    "all_rulesets",
    "find_procedure",
    "find_ruleset",
    "ruleset_title",
]

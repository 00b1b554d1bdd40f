"""``resolve --rules PROFILE --option MCW-D13=off``: the house rules of a command-line roll.

``--rules`` names a saved profile of the procedure's ruleset (in the app's database:
``--db URL`` / ``$CARWARS_DB``), the built-in "The digest's defaults", or
``@file.json``, a house-rules file; each ``--option DECISION=VALUE`` then changes one
decision. A decision of another ruleset, an unknown id or a value outside its choices
is bad input (exit status 2). See docs/command-line.md.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from carwars_desktop.procedures import InputError, Procedure
from carwars_desktop.rules import find_ruleset
from carwars_desktop.rules.kernel.decisions import DecisionError
from carwars_desktop.services.house_rules import (
    HouseRulesService,
    ProfileRefused,
    load_profile_file,
)
from carwars_desktop.session.house_rules import DIGEST_DEFAULTS


def not_offered_message(procedure: Procedure, house: dict[str, Any]) -> str:
    """Why ``procedure`` is refused under these house rules and the ``--option`` that
    switches it on (empty when it is offered)."""
    unmet = procedure.unmet(house)
    if not unmet:
        return ""
    switches = " ".join(f"--option {r.words()}" for r in unmet)
    return (f"not allowed: {procedure.id} is not offered: {procedure.not_offered(house)}; "
            f"switch it on with {switches}  [{procedure.rule}]")


def house_from_args(procedure: Procedure, rules: str | None, options: Sequence[str],
                    db: str | None = None) -> dict[str, Any]:
    """Decision id → value for the roll (empty: the digest's defaults); ``InputError``."""
    try:
        find_ruleset(procedure.ruleset)
    except LookupError:  # a generic procedure (dice.roll): no ruleset, no house rules
        if rules or options:
            raise InputError(f"{procedure.id} takes no house rules") from None
        return {}
    return ruleset_house(procedure.ruleset, rules, options, db)


def ruleset_house(ruleset_id: str, rules: str | None, options: Sequence[str],
                  db: str | None = None) -> dict[str, Any]:
    """Decision id → value of the house rules ``--rules``/``--option`` give for a ruleset
    (every decision; the digest's defaults where they say nothing); ``InputError``."""

    ruleset = find_ruleset(ruleset_id)
    if ruleset.decisions is None:
        if rules or options:
            raise InputError(f"{ruleset.title} has no house rules")
        return {}
    values: dict[str, Any] = {}
    try:
        if rules and rules.startswith("@"):
            values.update(load_profile_file(Path(rules[1:]), ruleset).rules)
        elif rules and " ".join(rules.split()).casefold() != DIGEST_DEFAULTS.casefold():
            from carwars_desktop.storage import open_database, resolve_url

            with open_database(resolve_url(db, os.environ)) as database:
                values.update(HouseRulesService(database).find(ruleset.id, rules).rules)
        values.update(ruleset.decisions.parse(options))
        return ruleset.decisions.check(values)
    except (ProfileRefused, DecisionError) as error:
        raise InputError(str(error)) from None

"""The §2.8 control roll, §2.9 ram and §2.10 laser variants (digest §2.1 step 4): off, their
procedures are not offered and every way of rolling them is refused; on, they resolve exactly
as before."""

from __future__ import annotations

from typing import Any

import pytest

from carwars_desktop.dice import EnteredDice
from carwars_desktop.procedures import Procedure, Requirement, RulesRefusal
from carwars_desktop.rules.autopower import RULESET, Options, procedures_for
from carwars_desktop.rules.autopower.options import DECISIONS
from carwars_desktop.rules.kernel.decisions import DecisionError

PROCEDURES = {p.id: p for p in RULESET.procedures}
RAM, LASER = PROCEDURES["autopower.ram"], PROCEDURES["autopower.laser"]
CONTROL = PROCEDURES["autopower.control"]
SAMPLES: dict[str, dict[str, Any]] = {
    "autopower.ram": {"rammer": "Darkseid at Speed 9", "target": "Nightwing at Speed 4",
                      "cards": "5, 7"},
    "autopower.laser": {"firer": "Booster Gold", "target": "Nightwing at Speed 4",
                        "cards": "5, 6"},
    "autopower.control": {"vehicle": "Bishop at Speed 10", "damage": 8},
}
VARIANT = {"autopower.control": ("AP-control-rolls", "Control roll variant (§2.8)",
                                  "AUTOpower §2.8"),
           "autopower.ram": ("AP-ramming", "Ramming variant (§2.9)", "AUTOpower §2.9"),
           "autopower.laser": ("AP-lasers", "Lasers variant (§2.10)", "AUTOpower §2.10")}


def test_control_ram_and_laser_require_their_variant_and_nothing_else_does() -> None:
    assert CONTROL.requires == (Requirement("AP-control-rolls", "Control roll variant (§2.8)",
                                            True, False),)
    assert DECISIONS.defaults()["AP-control-rolls"] is False
    assert RAM.requires == (Requirement("AP-ramming", "Ramming variant (§2.9)", True, False),)
    assert LASER.requires == (Requirement("AP-lasers", "Lasers variant (§2.10)", True, False),)
    assert {p.id for p in RULESET.procedures if p.requires} == set(VARIANT)
    assert DECISIONS.defaults()["AP-ramming"] is False and DECISIONS.defaults()["AP-lasers"] \
        is False


@pytest.mark.parametrize("procedure_id", sorted(VARIANT))
@pytest.mark.parametrize("house", [None, {}, {"AP-ramming": False, "AP-lasers": False,
                                              "AP-control-rolls": False},
                                   DECISIONS.defaults()], ids=["none", "empty", "off",
                                                               "defaults"])
def test_off_the_procedure_is_not_offered_and_refused(procedure_id: str,
                                                      house: dict[str, Any] | None) -> None:
    procedure = PROCEDURES[procedure_id]
    decision, label, rule = VARIANT[procedure_id]
    assert not procedure.offered(house)
    assert procedure.not_offered(house) == f"{label} is off in these house rules"
    assert procedure.not_offered(house, "this session's house rules") == \
        f"{label} is off in this session's house rules"
    values = SAMPLES[procedure_id]
    calls = [lambda: procedure.bind(values, house), lambda: procedure.odds(values, house),
             lambda: procedure.dice_needed(values, house),
             lambda: procedure.parse({k: str(v) for k, v in values.items()}, house),
             lambda: procedure.resolve(values, EnteredDice([6, 6]), house)]
    for call in calls:
        with pytest.raises(RulesRefusal) as refused:
            call()
        refusal = refused.value.refusal
        assert refusal.rule == rule
        assert refusal.reason == (f"{procedure_id} is not offered: {label} is off in these "
                                  f"house rules (switch it on: {decision}=on)")


@pytest.mark.parametrize("procedure_id", sorted(VARIANT))
def test_on_it_is_offered_and_resolves_as_the_variant_says(procedure_id: str) -> None:
    procedure = PROCEDURES[procedure_id]
    decision = VARIANT[procedure_id][0]
    house = {**DECISIONS.defaults(), decision: True}
    assert procedure.offered(house) and procedure.not_offered(house) == ""
    assert procedure.refusal_under(house) is None
    resolution = procedure.resolve(SAMPLES[procedure_id], EnteredDice([6, 6]), house)
    assert resolution.refusal is None and resolution.success is True
    # The other variant does not switch this one on.
    other = next(d for d, _, _ in VARIANT.values() if d != decision)
    assert not procedure.offered({other: True})


def test_the_exact_numbers_do_not_depend_on_the_variant_switch() -> None:
    """Bound once under the variant, the same values resolve and give odds as ever (the
    Darkseid ram, AP-E10: to-hit −1, 12 damage to both cars, 35/36)."""
    values = RAM.bind(SAMPLES["autopower.ram"], {"AP-ramming": True})
    assert RAM.odds(values).need == -1
    assert RAM.odds(values).probability(RAM.odds(values).outcomes[0].label) * 36 == 35
    resolution = RAM.resolve(values, EnteredDice([1, 2]))
    assert resolution.values["damage"] == 12


def test_describe_names_what_a_procedure_requires() -> None:
    assert RAM.describe()["requires"] == [{"decision": "AP-ramming",
                                           "label": "Ramming variant (§2.9)", "value": True}]
    assert PROCEDURES["autopower.attack"].describe()["requires"] == []


def test_a_requirement_is_declared_from_the_decisions() -> None:
    assert DECISIONS.requirement("ap-RAMMING") == RAM.requires[0]
    assert DECISIONS.requirement("AP-division", 20) == Requirement(
        "AP-division", "Division of the duel (§2.1)", 20, None)
    with pytest.raises(DecisionError, match="unknown decision"):
        DECISIONS.requirement("AP-jumping")
    with pytest.raises(DecisionError, match="not one of its choices"):
        DECISIONS.requirement("AP-division", 30)
    needs_20 = Requirement("AP-division", "Division of the duel (§2.1)", 20, None)
    assert needs_20.words() == "AP-division=20" and RAM.requires[0].words() == "AP-ramming=on"
    assert needs_20.met({"AP-division": 20}) and not needs_20.met({})


def test_a_procedure_requiring_a_choice_says_which() -> None:
    needs_20 = Requirement("AP-division", "Division of the duel (§2.1)", 20, None)
    procedure = Procedure(RAM.id, RAM.title, RAM.ruleset, RAM.rule, RAM.inputs, RAM.resolve_fn,
                          RAM.odds_fn, requires=(needs_20,))
    assert procedure.not_offered({}) == "Division of the duel (§2.1) is not 20 in these " \
        "house rules"


def test_procedures_for_the_pre_game_options_agree_with_what_is_offered() -> None:
    for options in (Options(), Options(ramming=True), Options(lasers=True),
                    Options(ramming=True, lasers=True, control_rolls=True)):
        house = DECISIONS.values_of(options)
        listed = {p.id for p in procedures_for(options)}
        for procedure in (RAM, LASER, CONTROL):
            assert (procedure.id in listed) == procedure.offered(house)

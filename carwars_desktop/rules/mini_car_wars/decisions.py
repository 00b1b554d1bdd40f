"""The digest's decisions (MCW-Dn) that have a real alternative, as one settings value.

A decision is *not* a rule (Mini Car Wars digest §5.2): each field below is the
default we chose, and the procedures that depend on it expose it as a
``BoolInput``/``ChoiceInput`` named after the decision ID. Decisions with no
meaningful alternative are applied where they belong and cited there:
MCW-D1 (front-loaded phases, stated in the text), MCW-D4 (fishtail then skid:
same displacement either way), MCW-D7 (round averages up to 10 mph: speeds are
multiples of 10), MCW-D9 and MCW-D21 (confirmed by the combat example and by
"takes 3 hits before it becomes useless"), MCW-D10/D11/D24/D27/D29/D30 (table
geometry the GM measures), MCW-D12 (stationary = speed 0), MCW-D16 (smoke uses
the firer's shot), MCW-D17 (one option: the design holds a single option),
MCW-D23 (no recovery; "out" = crashed or every occupant down) and MCW-D25
(one debris roll per phase).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from carwars_desktop.rules.kernel.decisions import Decision, DecisionMaker, DecisionSet
from carwars_desktop.rules.mini_car_wars.cite import mcw


class Rounding(Enum):
    """How a cycle's third of collision damage is rounded (MCW-D6)."""

    DOWN = "down"
    NEAREST = "nearest"
    UP = "up"


@dataclass(frozen=True)
class MiniRules:
    """Configurable defaults of Mini Car Wars (digest §5.2).

    Attributes:
        d2_skid_carries_over: MCW-D2. A skid on the last move of a turn skips the
            first move of the next turn (default ``False``: nothing carries over).
        d3_skid_from_post_maneuver: MCW-D3. The skid's 1" starts where the maneuver
            ended (default) rather than at the phase-start position.
        d5_roll_only_when_wounded_conscious: MCW-D5. A wounded driver's control
            roll is made only when a hit leaves him wounded and conscious
            (default); otherwise on every hit that reaches his own boxes.
        d6_cycle_rounding: MCW-D6. The cycle's 1/3 of collision damage is rounded
            down (default), to nearest or up.
        d6_cycle_third_whichever_moved: MCW-D6. A cycle does 1/3 damage whichever
            vehicle moved (default); otherwise only when the cycle is the striker.
        d13_cycle_front_rear: MCW-D13. The −1 for front/rear also applies to cycles.
        d14_turret_only_minus_two: MCW-D14. A shot at a turret (top) takes only the
            −2, no size modifier (default); otherwise the body-size −1 applies too.
        d15_shots: MCW-D15. Shots per weapon for MG, RL, laser and smokescreen:
            ``None`` = unlimited (default); the HR always has one shot.
        d19_sherman_b_linked: MCW-D19. Mini Sherman (b)'s MG and HR stay linked
            (default ``False``: the link went with the removed MG).
        d20_bare_side_loses_weapons: MCW-D20. Weapons on a side with 0 armor are
            destroyed by the first damage reaching it (default).
        d22_one_computer_per_person: MCW-D22. At most one targeting computer per
            person (default); otherwise their bonuses stack.
        d26_pack_attack_extras: MCW-D26. Pack Attack players may buy options and
            accessories within their budgets (default).
        d28_empty_turret_targetable: MCW-D28. Rocket Special (b) keeps its empty
            turret, so its top can still be targeted (default).
        d31_fixed_object_stops: MCW-D31. Hitting a fixed object leaves the vehicle
            at 0 mph (default); otherwise the same-direction average with 0.
        smoke_turns: MCW-A4. A smoke cloud lasts 60 turns, as printed.
        budget: §2.15 scenario decision: the budget per player (``None``: the
            scenario's own).
        open_sheets: §2.15 scenario decision: the players see each other's record
            sheets (default) or they are secret.
        debris: §2.14 optional rule: debris-littered road sections are in use.
        off_road: §2.14 optional rule: leaving the road takes control rolls.
    """

    d2_skid_carries_over: bool = False
    d3_skid_from_post_maneuver: bool = True
    d5_roll_only_when_wounded_conscious: bool = True
    d6_cycle_rounding: Rounding = Rounding.DOWN
    d6_cycle_third_whichever_moved: bool = True
    d13_cycle_front_rear: bool = True
    d14_turret_only_minus_two: bool = True
    d15_shots: int | None = None
    d19_sherman_b_linked: bool = False
    d20_bare_side_loses_weapons: bool = True
    d22_one_computer_per_person: bool = True
    d26_pack_attack_extras: bool = True
    d28_empty_turret_targetable: bool = True
    d31_fixed_object_stops: bool = True
    smoke_turns: int = 60
    budget: int | None = None
    open_sheets: bool = True
    debris: bool = True
    off_road: bool = True


DEFAULT_RULES = MiniRules()

_MCW = mcw("§5.2")


_d = DecisionMaker("MCW-", _MCW, input_prefix="mcw_")


DECISIONS: DecisionSet[MiniRules] = DecisionSet(MiniRules, (
    _d("D2", "d2_skid_carries_over", "MCW-D2: skid on the last move skips next turn's "
       "first move", "off, the digest's default: nothing carries into the next turn"),
    _d("D3", "d3_skid_from_post_maneuver", "MCW-D3: skid starts where the maneuver ended",
       "off: from the phase-start position"),
    _d("D5", "d5_roll_only_when_wounded_conscious", "MCW-D5: wounded-driver control roll "
       "only when he is left wounded and conscious",
       "off: on every hit that reaches his boxes"),
    _d("D6a", "d6_cycle_rounding", "MCW-D6: rounding of a cycle's third",
       "down, nearest or up", choices=tuple(r.value for r in Rounding)),
    _d("D6b", "d6_cycle_third_whichever_moved", "MCW-D6: a cycle does a third "
       "whichever vehicle moved", "off: only when the cycle is the striker"),
    _d("D13", "d13_cycle_front_rear", "MCW-D13: front/rear −1 also on cycles",
       "off: cycles take no front/rear modifier"),
    _d("D14", "d14_turret_only_minus_two", "MCW-D14: a turret shot takes only the −2",
       "off: the body-size −1 applies too"),
    _d("D15", "d15_shots", "MCW-D15: shots per MG, RL, laser and smokescreen",
       "unlimited, the digest's default, or a fixed number (the HR has one); set on the "
       "sheets when the session starts", input_name="", choices=(None, 5, 10, 20),
       words={None: "unlimited"}),
    _d("D19", "d19_sherman_b_linked", "MCW-D19: Mini Sherman (b)'s MG and HR stay linked",
       "off, the digest's default: the link went with the removed MG (set when the "
       "session starts)", input_name=""),
    _d("D28", "d28_empty_turret_targetable", "MCW-D28: Rocket Special (b) keeps its empty "
       "turret", "off: no turret, its top cannot be targeted (set when the session starts)",
       input_name=""),
    _d("D20", "d20_bare_side_loses_weapons", "MCW-D20: weapons on a 0-armor side are lost "
       "to the first damage there", "off: they survive until hit"),
    _d("D22", "d22_one_computer_per_person", "MCW-D22: one targeting computer per person",
       "off: their bonuses stack (Workshop validation)", input_name=""),
    _d("D26", "d26_pack_attack_extras", "MCW-D26: Pack Attack players may buy options and "
       "accessories", "off: stock vehicles only (Workshop purchase check)", input_name=""),
    _d("D31", "d31_fixed_object_stops", "MCW-D31: hitting a fixed object stops the vehicle",
       "off: the same-direction average with 0"),
    Decision("MCW-A4", "smoke_turns", "MCW-A4: a smoke cloud lasts this many turns",
             "60 as printed (the whole game), or fewer", choices=(60, 6, 10, 20, 30),
             input_name="mcw_smoke_turns", rule=_MCW),
    Decision("MCW-budget", "budget", "Budget per player (§2.15)",
             "the scenario's own, or a fixed sum for the purchase check",
             choices=(None, 10_000, 15_000, 20_000, 40_000), pregame=True,
             rule=mcw("§2.15"), words={None: "the scenario's"}),
    Decision("MCW-open-sheets", "open_sheets", "Players see each other's record sheets "
             "(§2.15)", "off: record sheets are secret (the players' display)",
             pregame=True, rule=mcw("§2.15")),
    Decision("MCW-debris", "debris", "Debris sections in use (§2.14)",
             "off: new road sections are never debris-littered", input_name="mcw_debris",
             pregame=True, rule=mcw("§2.14")),
    Decision("MCW-off-road", "off_road", "Off-road control rolls in use (§2.14)",
             "off: leaving the road takes no control roll", input_name="mcw_off_road",
             pregame=True, rule=mcw("§2.14")),
))
"""Every Mini Car Wars house rule, declared once (forms, editor, command line, log)."""

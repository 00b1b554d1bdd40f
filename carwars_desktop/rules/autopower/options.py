"""Pre-game choices (§2.1) and the digest's decisions AP-Dn, as configurable defaults.

The procedures expose the fields that concern them as inputs of the same name,
so ``Options.from_values`` rebuilds the options from a procedure's values. The
decisions that are not switches here are fixed readings of the text; the
package docstring lists them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from enum import Enum
from typing import Any

from carwars_desktop.rules.autopower.errors import OptionsFormatError
from carwars_desktop.rules.autopower.tables import DIVISIONS, ap
from carwars_desktop.rules.kernel.decisions import (
    DecisionError,
    DecisionMaker,
    DecisionSet,
)
from carwars_desktop.rules.kernel.reader import NAMED, Reader


class DiscardChoice(Enum):
    """AP-D7: which Energy card the owner gives up on a failed push (or a no-push turn)."""

    NEWEST = "newest"
    OLDEST = "oldest"
    LARGEST = "largest"
    SMALLEST = "smallest"


@dataclass(frozen=True)
class Options:
    """What the players agree before the game, and the digest's decisions (defaults)."""

    iq_cards_in_use: bool = True
    """§2.1 step 1 / AP-D22: IQ cards may be played (base I counts either way)."""
    division: int | None = None
    """§2.1 step 2: the duel's division (15, 20 or 25); ``None`` when not fixed."""
    one_big_deck: bool = True
    """§2.1 step 3: one shared deck (the draw order matters) or constructed decks."""
    control_rolls: bool = False
    """§2.8 variant."""
    ramming: bool = False
    """§2.9 variant."""
    lasers: bool = False
    """§2.10 variant."""
    drawing_on_skills: bool = False
    """§2.11 variant."""
    ap_d2_division_is_upper_limit: bool = True
    """AP-D2: a car with total ≤ N enters division N (off: its class must equal N)."""
    ap_d7_discard: DiscardChoice = DiscardChoice.NEWEST
    """AP-D7: the owner's choice of the Energy card lost on a failed push."""
    ap_d9_capped_damage: bool = True
    """AP-D9: the kill check counts the capped damage (off: the Fighting card total)."""
    ap_d10_defender_iq_cards: bool = False
    """AP-D10: the defender may not play IQ cards against a standard attack (on: he may,
    raising the to-hit as in a ram)."""
    ap_d13_ram_subtracts_intelligence: bool = False
    """AP-D13: the rammer's base I is not subtracted from the ram to-hit (on: it is)."""
    ap_d14_laser_damage_cap: bool = True
    """AP-D14: laser damage is capped at 2F (off: no cap)."""
    ap_d15_natural_two_fails_control: bool = False
    """AP-D15: a natural 2 does not fail a control roll and a target ≤ 2 needs no roll
    (on: a natural 2 loses control whatever the IQ cards)."""
    ap_d17_opening_push_roll: bool = True
    """AP-D17: the opening speed needs a push roll like any other (off: no roll at setup)."""
    ap_d25_both_cars_control: bool = True
    """AP-D25: after a ram both cars make control rolls (off: only the target)."""
    ap_d27_speed_after_armor_penalty: bool = True
    """AP-D27: opponents see Speed after the armor penalty (off: rawSpeed)."""

    def __post_init__(self) -> None:
        if self.division is not None and self.division not in DIVISIONS:
            raise OptionsFormatError(
                f"division must be one of {', '.join(map(str, DIVISIONS))}, not {self.division}")

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        for spec in fields(self):
            value = getattr(self, spec.name)
            data[spec.name] = value.value if isinstance(value, Enum) else value
        return data

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Options:
        """Load options; unknown or mistyped fields raise :class:`OptionsFormatError`."""
        Reader(data, "", OptionsFormatError, NAMED,
               not_object="options must be an object, not {data!r}")
        known = {spec.name for spec in fields(Options)}
        unknown = set(data) - known
        if unknown:
            raise OptionsFormatError(f"unknown option {', '.join(sorted(unknown))}")
        return Options._from_fields(data)

    @staticmethod
    def _from_fields(data: Mapping[str, Any]) -> Options:
        """The options of a JSON object keyed by field name, each value checked."""
        read = Reader(data, "", OptionsFormatError, NAMED)
        chosen: dict[str, Any] = {}
        for spec in fields(Options):
            if spec.name not in data:
                continue
            if spec.name == "ap_d7_discard":
                chosen[spec.name] = read.enum(spec.name, DiscardChoice)
            elif spec.name == "division":
                chosen[spec.name] = read.optional_integer(spec.name)
            else:
                chosen[spec.name] = read.flag(spec.name)
        return Options(**chosen)

    @staticmethod
    def from_values(values: Mapping[str, Any]) -> Options:
        """The options named in ``values`` (a procedure's inputs), defaults for the rest."""
        try:
            return DECISIONS.from_inputs(values)
        except DecisionError as error:
            raise OptionsFormatError(str(error)) from None


_AP = ap("§5")
_PREGAME = ap("§2.1")


_d = DecisionMaker("AP-D", _AP)
_p = DecisionMaker("AP-", _PREGAME, pregame=True)


DECISIONS: DecisionSet[Options] = DecisionSet(Options, (
    _p("division", "division", "Division of the duel (§2.1)",
       "15, 20 or 25; the Workshop checks each car against it (AP-D2)", input_name="",
       choices=(None, *DIVISIONS), words={None: "not fixed"}),
    _p("iq-cards", "iq_cards_in_use", "IQ cards in use (§2.1)",
       "pre-game choice; when off no IQ card may be played, base I still counts (AP-D22)"),
    _p("one-big-deck", "one_big_deck", "One Big Deck (§2.1)",
       "with one shared deck the draw order matters; with own decks everybody draws at once"),
    _p("control-rolls", "control_rolls", "Control roll variant (§2.8)",
       "a car that takes damage then rolls for control; off: autopower.control is not offered"),
    _p("ramming", "ramming", "Ramming variant (§2.9)",
       "off: autopower.ram is not offered", input_name=""),
    _p("lasers", "lasers", "Lasers variant (§2.10)",
       "off: autopower.laser is not offered", input_name=""),
    _p("drawing-on-skills", "drawing_on_skills", "Drawing on Skills variant (§2.11)",
       "draw max(1, I) cards instead of refilling to seven"),
    _d(2, "ap_d2_division_is_upper_limit", "AP-D2: a division is an upper limit",
       "off: a car's class must equal the division (Workshop validation)", input_name=""),
    _d(7, "ap_d7_discard", "AP-D7: Energy card lost on a failed push",
       "the owner's choice: the newest (last played), oldest, largest or smallest card",
       choices=tuple(choice.value for choice in DiscardChoice)),
    _d(9, "ap_d9_capped_damage", "AP-D9: damage counts as capped",
       "the kill check adds the capped damage (off: the card total)"),
    _d(10, "ap_d10_defender_iq_cards", "AP-D10: defender may play IQ cards",
       "off: only rams let the defender play IQ cards; on: they raise the to-hit here too"),
    _d(13, "ap_d13_ram_subtracts_intelligence", "AP-D13: subtract rammer's base I",
       "off (as the Darkseid example): a ram's to-hit has no Intelligence term"),
    _d(14, "ap_d14_laser_damage_cap", "AP-D14: laser damage capped at 2F",
       "\"players still roll against their Fighting number\""),
    _d(15, "ap_d15_natural_two_fails_control", "AP-D15: natural 2 fails a control roll",
       "off: a natural 2 is special only in attacks, and a target ≤ 2 needs no roll"),
    _d(17, "ap_d17_opening_push_roll", "AP-D17: opening speed needs a push roll",
       "the setup plays use the normal accelerate rules"),
    _d(25, "ap_d25_both_cars_control", "AP-D25: both cars roll for control after a ram",
       "off: only the rammed car rolls"),
    _d(27, "ap_d27_speed_after_armor_penalty", "AP-D27: Speed after the armor penalty",
       "the speed opponents see; off: rawSpeed"),
))
"""Every AUTOpower house rule and pre-game choice, declared once."""

"""Reference views of AUTOpower's tables for browsing, built from :mod:`tables` and the
rules' own functions (never retyped)."""

from __future__ import annotations

from carwars_desktop.rules.autopower.odds import p_at_least, p_attack_hit
from carwars_desktop.rules.autopower.sheet import push_target
from carwars_desktop.rules.autopower.tables import (
    CONTROL_FAILURE,
    DIVISIONS,
    NATURAL_MISS,
    NEVER,
    SAFE_SPEED_FACTOR,
    SURCHARGE_SPEED_FACTOR,
    rule,
)
from carwars_desktop.rules.ruleset import ReferenceTable


def _fraction(p: object) -> str:
    return str(p)


def divisions_table() -> ReferenceTable:
    rows: list[tuple[str, ...]] = []
    low = 0
    for division in DIVISIONS:
        band = f"≤ {division}" if low == 0 else f"{low}–{division}"
        rows.append((band, f"Division {division}"))
        low = division + 1
    rows.append((f"> {DIVISIONS[-1]}", "No division; allowed only by agreement"))
    return ReferenceTable("autopower.divisions", "Divisions (class = E + F + S + I)",
                          rule("1.1", "AP-D2"), ("Total", "Class"), tuple(rows),
                          "A car may enter division N if its total ≤ N (AP-D2).")


def _span(first: int, last: int) -> str:
    return str(first) if first == last else f"{first}–{last}"


def push_row(energy: int) -> tuple[str, ...]:
    """One row of §3.1, from :func:`push_target` over the speeds 2E+1 … 3E+11."""
    safe = SAFE_SPEED_FACTOR * energy
    triple = SURCHARGE_SPEED_FACTOR * energy
    plain = [s for s in range(safe + 1, triple + 1)]
    plain_ok = [s for s in plain if (push_target(s, energy) or 0) < NEVER]
    plain_text = _span(plain_ok[0], plain_ok[-1]) if plain_ok else "—"
    if len(plain_ok) < len(plain):
        plain_text += f" ({_span(plain[len(plain_ok)], plain[-1])} → impossible)"
    surcharged = [s for s in range(triple + 1, triple + NEVER)
                  if (push_target(s, energy) or 0) < NEVER]
    if surcharged:
        surcharge_text = (f"{_span(surcharged[0], surcharged[-1])} → target "
                          f"{_span(surcharged[0] + 2, surcharged[-1] + 2)}; "
                          f"≥ {surcharged[-1] + 1} → impossible")
    else:
        surcharge_text = f"≥ {triple + 1} → impossible"
    return (str(energy), f"0–{energy}", f"≤ {safe}", plain_text, surcharge_text)


def push_table() -> ReferenceTable:
    rows = tuple(push_row(energy) for energy in range(1, 6))
    rows += (("≥ 6", "0–E", "≤ 2E", "> 12 → impossible", "—"),)
    return ReferenceTable("autopower.push_targets", "Push the engine: 2d6 ≥ target",
                          rule("3.1", "2.4"),
                          ("E", "Free (declare)", "Safe (no roll)", "Target = Speed",
                           "Target = Speed + 2"), rows,
                          "A target of 13 or more always fails.")


def control_table() -> ReferenceTable:
    rows: list[tuple[str, ...]] = []
    for band in CONTROL_FAILURE:
        if band.low is None:
            shortfall = f"≤ {band.high}"
        elif band.high is None:
            shortfall = f"≥ {band.low}"
        else:
            shortfall = f"{band.low}–{band.high}"
        rows.append((shortfall, band.effect))
    return ReferenceTable("autopower.control_failure", "Control failure (next own turn)",
                          rule("2.8", "AP-D12"), ("Shortfall", "Effect"), tuple(rows),
                          "Target = damage + Energy cards in play − I; roll 2d6 + IQ cards.")


def attack_odds_table() -> ReferenceTable:
    low, high = NATURAL_MISS + 1, NEVER
    rows = [(f"≤ {low}", _fraction(p_attack_hit(low)))]
    rows += [(str(h), _fraction(p_attack_hit(h))) for h in range(low + 1, high)]
    rows.append((f"≥ {high}", _fraction(p_attack_hit(high))))
    return ReferenceTable("autopower.attack_odds", "Attack hit chance (natural 2 misses)",
                          rule("3.3"), ("To-hit", "P(hit)"), tuple(rows))


def roll_odds_table() -> ReferenceTable:
    low, high = NATURAL_MISS, NEVER
    rows = [(f"≤ {low}", _fraction(p_at_least(low)))]
    rows += [(str(t), _fraction(p_at_least(t))) for t in range(low + 1, high)]
    rows.append((f"≥ {high}", _fraction(p_at_least(high))))
    return ReferenceTable("autopower.roll_odds", "Push and control success chance",
                          rule("3.4", "AP-D15"), ("Target", "P(success)"), tuple(rows))


def reference_tables() -> tuple[ReferenceTable, ...]:
    return (divisions_table(), push_table(), control_table(), attack_odds_table(),
            roll_odds_table())

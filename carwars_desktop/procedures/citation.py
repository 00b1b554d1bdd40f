"""A rule citation: which ruleset, which digest section, which decision.

A :class:`Citation` is a ``str`` whose text is exactly what screens, printed
pages and stored session logs have always shown (``Mini Car Wars §2.10``,
``Battlecars §2.3 step 4 · BC-D44``, ``AP-D12``), so everything that reads or
stores a rule as text keeps working, while code can ask for its parts. Each
ruleset builds its citations through one :class:`Citer` (``mcw("§2.10")``).
"""

from __future__ import annotations

from dataclasses import dataclass


class Citation(str):
    """The text of a citation, with its parts.

    Attributes:
        ruleset: the ruleset as cited (``Mini Car Wars``, ``Battlecars``, ``AUTOpower``).
        section: the digest section(s) (``§2.9–§2.11, §3.2``, ``§2.5 step 2``), or empty.
        decisions: the decision ids (``BC-D42``), or empty.
    """

    ruleset: str
    section: str
    decisions: tuple[str, ...]

    def __new__(cls, ruleset: str, section: str = "", decisions: tuple[str, ...] = (),
                separator: str = " · ") -> Citation:
        head = f"{ruleset} {section}" if section else ""
        text = separator.join(part for part in (head, *decisions) if part)
        if not text:
            raise ValueError("a citation names a section or a decision")
        citation = super().__new__(cls, text)
        citation.ruleset, citation.section, citation.decisions = ruleset, section, decisions
        return citation

    @property
    def decision(self) -> str:
        """The first decision id cited, or empty."""
        return self.decisions[0] if self.decisions else ""

    def __reduce__(self) -> tuple[type[str], tuple[str]]:
        return (str, (str(self),))


@dataclass(frozen=True)
class Citer:
    """One ruleset's way to cite: ``Citer("Battlecars")("§2.5 step 2", "BC-D42")``."""

    ruleset: str
    separator: str = " · "

    def __call__(self, section: str = "", *decisions: str) -> Citation:
        return Citation(self.ruleset, section, decisions, self.separator)

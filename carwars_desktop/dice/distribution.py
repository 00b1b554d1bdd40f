"""Exact probability distributions over integer outcomes.

Counts are kept as integers over a common total (the number of equally likely
elementary outcomes), so every probability is an exact :class:`Fraction`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import accumulate


@dataclass(frozen=True)
class Distribution:
    """A finite distribution: ``ways[v] / total`` is the probability of ``v``."""

    ways: Mapping[int, int]
    total: int

    @staticmethod
    def constant(value: int) -> Distribution:
        return Distribution({value: 1}, 1)

    @staticmethod
    def uniform(values: Iterable[int]) -> Distribution:
        ways: dict[int, int] = {}
        for v in values:
            ways[v] = ways.get(v, 0) + 1
        return Distribution(ways, sum(ways.values()))

    # --- queries -------------------------------------------------------
    def values(self) -> list[int]:
        """The outcomes that can happen, in increasing order."""
        return sorted(v for v, w in self.ways.items() if w)

    @property
    def minimum(self) -> int:
        return self.values()[0]

    @property
    def maximum(self) -> int:
        return self.values()[-1]

    def p_eq(self, k: int) -> Fraction:
        return Fraction(self.ways.get(k, 0), self.total)

    def p_ge(self, k: int) -> Fraction:
        return Fraction(sum(w for v, w in self.ways.items() if v >= k), self.total)

    def p_le(self, k: int) -> Fraction:
        return Fraction(sum(w for v, w in self.ways.items() if v <= k), self.total)

    def p_where(self, predicate: Callable[[int], bool]) -> Fraction:
        return Fraction(sum(w for v, w in self.ways.items() if predicate(v)), self.total)

    def probabilities(self) -> dict[int, Fraction]:
        return {v: Fraction(self.ways[v], self.total) for v in self.values()}

    def mean(self) -> Fraction:
        return Fraction(sum(v * w for v, w in self.ways.items()), self.total)

    # --- combination ---------------------------------------------------
    def __add__(self, other: Distribution | int) -> Distribution:
        if isinstance(other, int):
            return Distribution({v + other: w for v, w in self.ways.items()}, self.total)
        ways: dict[int, int] = {}
        for v1, w1 in self.ways.items():
            for v2, w2 in other.ways.items():
                ways[v1 + v2] = ways.get(v1 + v2, 0) + w1 * w2
        return Distribution(ways, self.total * other.total)

    def __neg__(self) -> Distribution:
        return Distribution({-v: w for v, w in self.ways.items()}, self.total)

    def map(self, fn: Callable[[int], int]) -> Distribution:
        """The distribution of ``fn(outcome)``: e.g. damage floored at 0."""
        ways: dict[int, int] = {}
        for v, w in self.ways.items():
            ways[fn(v)] = ways.get(fn(v), 0) + w
        return Distribution(ways, self.total)


@lru_cache(maxsize=64)
def die(sides: int) -> Distribution:
    """One fair die with faces 1..sides."""
    return Distribution.uniform(range(1, sides + 1))


@lru_cache(maxsize=256)
def dice_sum(count: int, sides: int) -> Distribution:
    """The sum of ``count`` dice of ``sides`` faces, adding one die at a time.

    Adding a fair die is a sliding window over the running counts (each new count is
    the sum of ``sides`` old ones, read off prefix sums), so ``count`` dice cost
    ``count × outcomes`` additions: 100d100 (9,901 outcomes) is a million, not the
    hundred million of convolving two halves.
    """
    if count == 0:
        return Distribution.constant(0)
    if count == 1:
        return die(sides)
    ways = [1] * sides  # ways[i]: the ways to throw dice + i
    for _ in range(count - 1):
        length = len(ways)
        prefix = [0, *accumulate(ways)]
        ways = [prefix[min(t + 1, length)] - prefix[max(0, t - sides + 1)]
                for t in range(length + sides - 1)]
    return Distribution({count + i: w for i, w in enumerate(ways)}, sides ** count)

"""The prefix plan both similarity joins follow: which token combinations index and probe each set.

:mod:`.simjoin` (the pure-Python sweep) and :mod:`.simjoin_numpy` (the numpy join)
find the same pairs because they derive their keys from this one plan.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable
from itertools import chain, combinations

__all__ = ["DEFAULT_WIDTH", "PrefixPlan", "SetKey", "at_least"]

#: A set as both joins keep it: a frozenset, or a sorted tuple of distinct members (a row of
#: :class:`~reviewtui.evalset.text.words.TokenRows`; see :mod:`.simjoin`). Declared here, the one
#: module both joins import.
SetKey = frozenset[Hashable] | tuple[Hashable, ...]

_EPS = 1e-9
#: The widest key combination tried unless a caller asks for another.
DEFAULT_WIDTH = 4


def at_least(value: float) -> int:
    """The least whole overlap that reaches ``value``, forgiving float rounding just under it."""
    return max(math.ceil(value - _EPS), 0)


class PrefixPlan:
    """Prefix lengths and key widths for each set size.

    The ℓ-prefix rule (Wang, Li and Feng, 2012): if |x ∩ y| ≥ α, the ℓ rarest common
    tokens lie within the first |x| − α + ℓ tokens of x and of y. So two sets that can
    reach the threshold share an ℓ-token *combination* of their prefixes. With
    ℓ = 1 that is plain prefix filtering; larger ℓ gives far more selective keys when
    every token is common (templated questions), at the cost of more keys per set.

    A set of size s is indexed under ℓ(s)-combinations of its first s − α_i + ℓ(s)
    tokens, where α_i = ⌈2t/(1+t)·s⌉ is the least overlap with any set at least as
    large that can still reach t. A set x probes with each ℓ used by the sizes it can
    pair with (⌈t·|x|⌉ … |x|), using its first |x| − ⌈t·|x|⌉ + ℓ tokens.

    Since α_i ≥ ⌈t·s⌉ and every size can pair with itself, each index key of a set is
    also one of its probe keys; the sweep in :mod:`.simjoin` relies on that.
    """

    MAX_KEYS = 40

    def __init__(self, threshold: float, largest: int, max_width: int = DEFAULT_WIDTH) -> None:
        self.threshold = threshold
        index_fraction = 2.0 * threshold / (1.0 + threshold)
        self.min_partner = [0] * (largest + 1)
        self.width = [1] * (largest + 1)
        self.index_prefix = [0] * (largest + 1)
        self.probe_overlap = [0] * (largest + 1)
        for size in range(1, largest + 1):
            overlap = at_least(threshold * size)
            self.min_partner[size] = max(overlap, 1)
            self.probe_overlap[size] = overlap
            # 2t/(1+t) >= t, so alpha >= overlap; max() makes it hold under float rounding too, which
            # keeps every index prefix within the probe prefix of the same width (see the sweep in :mod:`.simjoin`).
            alpha = max(at_least(index_fraction * size), overlap, 1)
            width = 1
            for candidate in range(2, max_width + 1):
                if candidate <= alpha and math.comb(size - alpha + candidate, candidate) <= self.MAX_KEYS:
                    width = candidate
            self.width[size] = width
            self.index_prefix[size] = min(size, size - alpha + width)
        # The key widths a probe of each size must try: those of every size it can pair with,
        # each with its prefix length. Which widths the sizes in a range use is read from a running
        # count per width, not from the range itself: one question of 100,000 distinct words made the
        # ranges' lengths add up to billions.
        sizes_of_width = {w: [0] * (largest + 1) for w in range(1, max(max_width, 1) + 1)}  # width -> sizes up to s using it
        for w, running in sizes_of_width.items():
            for size in range(1, largest + 1):
                running[size] = running[size - 1] + (self.width[size] == w)
        self.probe_plan: list[tuple[tuple[int, int], ...]] = [()] * (largest + 1)
        for size in range(1, largest + 1):
            low = self.min_partner[size]
            widths = [w for w, running in sizes_of_width.items() if running[size] > running[low - 1]]
            base = size - self.probe_overlap[size]
            self.probe_plan[size] = tuple((min(size, base + width), width) for width in widths)

    def index_keys(self, ranked: list[int], size: int) -> Iterable[Hashable]:
        return _keys(ranked, self.index_prefix[size], self.width[size])

    def probe_keys(self, ranked: list[int], size: int) -> Iterable[Hashable]:
        plan = self.probe_plan[size]
        if len(plan) == 1:
            return _keys(ranked, *plan[0])
        return list(chain.from_iterable(_keys(ranked, prefix, width) for prefix, width in plan))


def _keys(ranked: list[int], prefix: int, width: int) -> Iterable[tuple[int, ...]]:
    """The ``width``-combinations of the first ``prefix`` ranks."""
    return combinations(ranked[:prefix], width)

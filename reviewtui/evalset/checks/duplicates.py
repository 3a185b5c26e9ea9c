"""Near-duplicate questions: the order-dependent filter, and order-independent pairs and clusters.

:class:`DuplicateFilter` keeps the documented rule — a question goes when it
nearly repeats one *already kept* — so its result depends on the order of the
set. :func:`duplicate_pairs` and :func:`duplicate_clusters` report every pair and
every group whatever the order. All of them find pairs with the exact
similarity join of :mod:`simjoin`, never by comparing all pairs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import compress
from operator import attrgetter, not_
from typing import Any, Protocol

from reviewtui.evalset.checks.base import Filter, FilterPass, Rejection, shorten
from reviewtui.evalset.checks.registry import FILTER, Check, register
from reviewtui.evalset.checks.simgroups import SimilarGroups
from reviewtui.evalset.checks.simjoin import jaccard, similar_pairs
from reviewtui.evalset.jobs.cancel import ShouldStop, check_stop
from reviewtui.evalset.model.flag import Severity
from reviewtui.evalset.model.items import EvalItem, EvalSet
from reviewtui.evalset.text.words import word_set

__all__ = [
    "DuplicateFilter",
    "DuplicatePair",
    "PairsFound",
    "WordSets",
    "duplicate_clusters",
    "duplicate_pairs",
    "first_kept_duplicate",
]


class WordSets(Protocol):
    """A question's word set by its position (a list, a dict, a lazy view), as a frozenset or a row of
    word numbers (:class:`~reviewtui.evalset.text.words.TokenRows`): only its size and overlaps are read."""

    def __getitem__(self, position: int, /) -> frozenset[str] | tuple[int, ...]: ...


@dataclass(frozen=True, slots=True)
class DuplicatePair:
    """Two items whose questions overlap by at least the threshold; ``first`` comes earlier in the set."""

    first: str
    second: str
    similarity: float


def _pairs_of(items: Sequence[EvalItem], threshold: float, should_stop: ShouldStop | None) -> list[tuple[int, int]]:
    sets = [word_set(item.question) for item in items]
    pairs = similar_pairs(sets, threshold, should_stop=should_stop)
    check_stop(should_stop)
    return pairs


def duplicate_pairs(
    items: EvalSet | Sequence[EvalItem], threshold: float = 0.8, *, should_stop: ShouldStop | None = None
) -> list[DuplicatePair]:
    """Every pair of near-duplicate questions in the set, whatever their order (no pair is hidden
    because one of them was already removed, unlike :class:`DuplicateFilter`)."""
    seq = items.items if isinstance(items, EvalSet) else tuple(items)
    sets = [word_set(item.question) for item in seq]
    pairs = similar_pairs(sets, threshold, should_stop=should_stop)
    check_stop(should_stop)
    return [DuplicatePair(seq[i].id, seq[j].id, jaccard(sets[i], sets[j])) for i, j in pairs]


def duplicate_clusters(
    items: EvalSet | Sequence[EvalItem], threshold: float = 0.8, *, should_stop: ShouldStop | None = None
) -> list[tuple[str, ...]]:
    """Groups of items linked by near-duplicate pairs (connected components), in set order.

    Order-independent: the same set shuffled gives the same groups.
    """
    seq = items.items if isinstance(items, EvalSet) else tuple(items)
    parent = list(range(len(seq)))

    def root(k: int) -> int:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    for i, j in _pairs_of(seq, threshold, should_stop):
        ri, rj = root(i), root(j)
        if ri != rj:
            parent[max(ri, rj)] = min(ri, rj)
    members: dict[int, list[str]] = {}
    for position, item in enumerate(seq):
        members.setdefault(root(position), []).append(item.id)
    return [tuple(ids) for ids in members.values() if len(ids) > 1]


def first_kept_duplicate(pairs: Sequence[tuple[int, int]]) -> dict[int, int]:
    """The sequential rule: item j goes when it is a near-duplicate of an earlier item that was kept.

    Returns {rejected position: position of the earliest kept item it duplicates}.
    """
    earlier: dict[int, list[int]] = {}
    for i, j in pairs:
        earlier.setdefault(j, []).append(i)
    dropped: dict[int, int] = {}
    for j in sorted(earlier):
        for i in sorted(earlier[j]):
            if i not in dropped:
                dropped[j] = i
                break
    return dropped


_ID = attrgetter("id")


def _kept(items: Sequence[EvalItem], dropped: Mapping[int, int]) -> tuple[EvalItem, ...]:
    """The items whose positions ``dropped`` does not hold, in order (tested in C, position by position)."""
    return tuple(compress(items, map(not_, map(dropped.__contains__, range(len(items))))))


class DuplicateFilter(Filter):
    """Questions whose word sets overlap an *already kept* question by Jaccard ≥ ``threshold``.

    Order-dependent by definition: the earlier of two near-duplicates stays, and a
    question removed as a copy removes nothing further. Each rejection names the
    kept question it repeats; :func:`duplicate_pairs` and :func:`duplicate_clusters`
    report every pair regardless of order.
    """

    itemwise = False

    def __init__(self, threshold: float = 0.8, name: str = "near-duplicate") -> None:
        if not 0.0 < threshold <= 1.0:
            raise ValueError(f"DuplicateFilter threshold must be above 0 and at most 1, not {threshold!r}")
        self.threshold = threshold
        self.name = name

    def apply(self, items: Sequence[EvalItem], *, should_stop: ShouldStop | None = None) -> FilterPass:
        seq = tuple(items)
        sets = [word_set(item.question) for item in seq]
        pairs = similar_pairs(sets, self.threshold, should_stop=should_stop)
        check_stop(should_stop)
        return self.apply_pairs(seq, pairs, sets)

    def replay(
        self, items: Sequence[EvalItem], found: Any, *, itemised: bool = True, should_stop: ShouldStop | None = None
    ) -> FilterPass:
        """:meth:`apply` on ``items`` from what the join found on the whole set (``found``: :class:`PairsFound`).

        The rule runs on the groups (:meth:`~.simgroups.SimilarGroups.first_kept`), so replaying it
        costs the items and their linked groups, never the pairs among them. With ``itemised=False``
        (a count of survivors) no rejection is made, as :meth:`Filter.replay` makes none.
        """
        check_stop(should_stop)
        seq = tuple(items)
        where = list(map(found.position.__getitem__, map(_ID, seq)))  # read in C: the survivors of a large set
        local = dict(zip(where, range(len(where))))
        dropped = {local[j]: local[i] for j, i in found.groups.first_kept(where).items()}
        if not itemised:  # counted only (the scan's cautions): no Rejection, with its reason, per dropped item
            return FilterPass(_kept(seq, dropped), ())
        return self._passing(seq, dropped, _Renumbered(found.sets, where))

    def apply_pairs(
        self, items: Sequence[EvalItem], pairs: Sequence[tuple[int, int]], sets: WordSets
    ) -> FilterPass:
        """The sequential rule on pairs already found by the join (positions into ``items``)."""
        return self._passing(items, first_kept_duplicate(pairs), sets)

    def _passing(self, items: Sequence[EvalItem], dropped: Mapping[int, int], sets: WordSets) -> FilterPass:
        """The items kept and the rejections, given {dropped position: the kept position it repeats}."""
        kept = _kept(items, dropped)
        rejected = tuple(
            Rejection(
                items[j].id,
                self.name,
                f"repeats {items[i].id!r} ({jaccard(sets[i], sets[j]):.0%} of words shared), which stays: "
                f"{shorten(items[i].question)}",
                (items[i].id,),
            )
            for j, i in sorted(dropped.items())
        )
        return FilterPass(kept, rejected)


@dataclass(frozen=True)
class PairsFound:
    """What the join found on a whole set, for :meth:`DuplicateFilter.replay`.

    ``position``: item id -> index in the set; ``groups``: similar positions, as groups
    (:class:`~.simgroups.SimilarGroups`); ``sets``: the word set at a position (only those
    of items with a partner are read).
    """

    position: Mapping[str, int]
    groups: SimilarGroups
    sets: WordSets


class _Renumbered:
    """``sets[where[i]]`` for a batch's own positions: only the few in pairs are ever read."""

    def __init__(self, sets: WordSets, where: Sequence[int]) -> None:
        self._sets = sets
        self._where = where

    def __getitem__(self, i: int) -> frozenset[str] | tuple[int, ...]:
        return self._sets[self._where[i]]


register(
    Check(
        "near-duplicate",
        FILTER,
        Severity.LOW,
        "At least 80 % shared words: 11 % of real items, and on inspection nearly all were deliberate one-word "
        "variants (SQuAD v2 adversarial questions, SciFact claim pairs, templated legal questions about different "
        "contracts); the reason names the differing words. Pairs linked only because neither question has an ASCII "
        "content word for the audit to compare are LOW as well, and say so",
        order=4,
        make=lambda **_: DuplicateFilter(),
        module=__name__,
        # Right on none of 86 labelled word-overlap flags (deliberate variants); the pairs that also share
        # their answer or evidence are their own check (NEAR_DUPLICATE_SAME_GROUND) and keep their severity.
        review_severity=Severity.HINT,
    )
)

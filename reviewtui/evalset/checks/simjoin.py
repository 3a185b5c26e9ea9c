"""All pairs of token sets whose Jaccard similarity reaches a threshold, without comparing all pairs.

Comparing every pair of 100k questions is 5·10⁹ comparisons. This join finds
exactly the same pairs as that brute force, in about linear time on real text,
with the AllPairs method (Bayardo et al., 2007):

* Tokens get a global order, rarest first (as counted on a sample of the sets),
  and each set is written in it.
* Two sets with Jaccard ≥ t must share a token among the first few of each
  (the *prefix*): if they shared none there, their overlap would be too small.
  Only sets meeting in a prefix become candidates.
* Sets are visited from smallest to largest; a set much smaller than the current
  one cannot reach t (*length filter*), and a set is indexed under a shorter
  prefix than the one it probes with, because everything probing it later is at
  least as large.
* Keys are combinations of ℓ prefix tokens rather than single tokens (the ℓ-prefix
  rule of Wang, Li and Feng, 2012), which keeps candidates few even when every
  token is common, as in templated questions; ℓ is picked per join from trial
  runs on a sample (see :class:`~reviewtui.evalset.checks.simjoin_plan.PrefixPlan` and :func:`_choose_width`).
* Each candidate is then verified with the same expression brute force uses,
  ``len(a & b) / len(a | b) >= t``, so float rounding cannot make the two disagree
  (the filters keep a small safety margin and only ever admit more candidates).

Identical sets are grouped first, so a set repeated a thousand times costs one
probe. By convention two empty sets are identical (similarity 1.0), as in
goldensetauditor; an empty and a non-empty set have similarity 0.

A set may be given as a frozenset or as any other collection (made a frozenset first).
When ``sets`` is a :class:`~reviewtui.evalset.text.words.TokenRows`, its rows (tuples of
distinct word numbers in order, so that equal sets are equal tuples) are used as they are:
they cost a tenth of the memory of frozensets. Any other tuple is made a frozenset.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Hashable, Iterable, Sequence
from itertools import chain, combinations, count, groupby, repeat

from reviewtui.evalset.checks.simjoin_plan import DEFAULT_WIDTH, PrefixPlan, SetKey
from reviewtui.evalset.jobs.collector import gc_paused
from reviewtui.evalset.text.words import TokenRows

__all__ = ["jaccard", "similar_pairs"]

def jaccard(a: Collection[Hashable], b: Collection[Hashable]) -> float:
    """|a ∩ b| / |a ∪ b|, with two empty sets counting as identical."""
    sa = a if isinstance(a, (set, frozenset)) else set(a)
    sb = b if isinstance(b, (set, frozenset)) else set(b)
    if not sa and not sb:
        return 1.0
    inter = len(sa & sb)
    return inter / (len(sa) + len(sb) - inter)


def set_key(tokens: Collection[Hashable], rows: bool = False) -> SetKey:
    """The form the joins keep a set in: a frozenset as it is, a tuple as it is when it is a row
    (``rows``: it comes from a TokenRows), anything else made a frozenset."""
    kind = type(tokens)
    if kind is frozenset or (rows and kind is tuple):
        return tokens  # type: ignore[return-value]
    return frozenset(tokens)


@gc_paused()  # many small containers, no cycles
def similar_pairs(
    sets: Sequence[Collection[Hashable]],
    threshold: float,
    *,
    should_stop: Callable[[], bool] | None = None,
    vectorised: bool = False,
) -> list[tuple[int, int]]:
    """Every ``(i, j)`` with ``i < j`` and ``jaccard(sets[i], sets[j]) >= threshold``, sorted.

    ``threshold`` must be in (0, 1]. ``should_stop`` is polled now and then; when it
    returns True the join stops early and returns the pairs found so far.

    ``vectorised=True`` lets numpy make and match the keys from ``VECTOR_FROM`` distinct
    sets on (:mod:`.simjoin_numpy`; same pairs, about three times faster). It imports numpy,
    whose thread pool then stops :func:`~reviewtui.evalset.checks.scan.scan_flags` from forking
    in this process: ask for it only in a process that will not fork.
    """
    if not 0.0 < threshold <= 1.0:
        raise ValueError(f"a Jaccard threshold must be above 0 and at most 1, not {threshold!r}")
    first: dict[SetKey, int] = {}  # each distinct set -> where it first appears
    repeats: dict[int, list[int]] = {}  # first position -> every position holding the same set
    rows = isinstance(sets, TokenRows)  # only a TokenRows' tuples are known to be sorted and distinct
    for position, tokens in enumerate(sets):
        key = set_key(tokens, rows)
        seen = first.setdefault(key, position)
        if seen != position:
            repeats.setdefault(seen, [seen]).append(position)

    pairs: list[tuple[int, int]] = []
    for members in repeats.values():  # identical sets, empty ones included, are similarity 1.0
        pairs.extend(combinations(members, 2))

    distinct = [key for key in first if key]
    if len(distinct) > 1 and threshold < 1.0:
        for a, b in _join_distinct(distinct, threshold, should_stop, vectorised):
            pa, pb = first[distinct[a]], first[distinct[b]]
            for i in repeats.get(pa, (pa,)):
                for j in repeats.get(pb, (pb,)):
                    pairs.append((i, j) if i < j else (j, i))
    pairs.sort()
    return pairs


VECTOR_FROM = 10_000  # distinct sets; below this the sweep is as fast (numpy has a fixed cost per join)


def _join_distinct(
    distinct: list[SetKey],
    threshold: float,
    should_stop: Callable[[], bool] | None,
    vectorised: bool = False,
) -> Sequence[tuple[int, int]]:
    """The self-join on distinct, non-empty sets (indices into ``distinct``)."""
    if len(distinct) < 2 or threshold >= 1.0:  # distinct sets are never identical
        return []
    if vectorised and len(distinct) >= VECTOR_FROM:
        try:
            from reviewtui.evalset.checks import simjoin_numpy
        except ImportError:  # numpy missing or broken: the sweep finds the same pairs
            pass
        else:
            return simjoin_numpy.join_distinct(distinct, threshold, should_stop)
    rank_of = _rank_by_rarity(distinct)
    ranked = [sorted(map(rank_of, tokens)) for tokens in distinct]
    sizes = [len(tokens) for tokens in distinct]
    order = sorted(range(len(distinct)), key=sizes.__getitem__)
    width = _choose_width(ranked, sizes, threshold) if len(distinct) >= _SAMPLE_FROM else DEFAULT_WIDTH
    return _sweep(distinct, ranked, sizes, order, PrefixPlan(threshold, max(sizes), width), should_stop)


_RANK_SAMPLE_STEP = 16


def _rank_by_rarity(distinct: list[SetKey]) -> Callable[[Hashable], int]:
    """A distinct rank for every token, rarest first, from the token counts of every 16th set.

    Any fixed order of the tokens gives the same (exact) pairs; rarest first only
    makes prefixes selective. Counting a sample orders the common tokens well enough
    at a sixteenth of the cost of counting every token. Tokens the sample never saw
    are rare ones: they get negative ranks, handed out as they are first looked up,
    so they come first.
    """
    frequency = Counter(chain.from_iterable(distinct[::_RANK_SAMPLE_STEP]))
    seen = {token: r for r, token in enumerate(sorted(frequency, key=frequency.__getitem__))}
    return defaultdict(count(-1, -1).__next__, seen).__getitem__


_SAMPLE_FROM = 4000
_SAMPLE_SIZE = 2000
_CANDIDATE_COST = 10.0  # measured: verifying one candidate costs about as much as ten keys


def _choose_width(ranked: list[list[int]], sizes: list[int], threshold: float) -> int:
    """The key width with the lowest estimated cost, from trial joins on a fixed sample.

    Keys grow linearly with the number of sets and candidate pairs quadratically,
    so costs measured on the sample are scaled accordingly. Any width gives the
    same (exact) result; only the time differs: wide keys suit templated text where
    every word is common, narrow ones text with rare words. Widths below 3 are not
    tried: a sample rarely shows the candidate blow-up they can cause.
    """
    sample = sorted(random.Random(0).sample(range(len(ranked)), _SAMPLE_SIZE), key=sizes.__getitem__)
    scale = len(ranked) / _SAMPLE_SIZE
    largest = max(sizes)
    best_width, best_cost = DEFAULT_WIDTH, float("inf")
    for width in (5, 4, 3):
        plan = PrefixPlan(threshold, largest, width)
        cost = _trial_cost(ranked, sizes, sample, plan, scale, best_cost)
        if cost < best_cost:
            best_width, best_cost = width, cost
    return best_width


def _sweep(
    distinct: list[SetKey],
    ranked: list[list[int]],
    sizes: list[int],
    order: Sequence[int],
    plan: PrefixPlan,
    should_stop: Callable[[], bool] | None,
) -> list[tuple[int, int]]:
    """Probe then index each set, smallest first; the pairs that reach the threshold.

    Nearly every probe finds nothing (only near-duplicates share a key), so that
    path is kept short: one C-level intersection with the keys indexed so far,
    then the set's own keys added in one ``dict.update``. That is safe because a
    set's index keys are among its probe keys (see :class:`PrefixPlan`), so when the
    probe found none of them indexed, each one is new. A key held by one set maps
    to that set's number, and only a shared key gets a list: most keys are never
    shared, and half a million small lists cost more time than the probes.
    The per-size plan is looked up once per run of equal sizes, not once per set.
    """
    postings: dict[Hashable, int | list[int]] = {}  # key -> set number(s), by nondecreasing size
    starts: dict[Hashable, int] = {}  # per key: postings before this are too small for every later probe
    found: list[tuple[int, int]] = []
    known = postings.keys()
    add_new = postings.update
    threshold = plan.threshold
    done = 0
    for size, group in groupby(order, key=sizes.__getitem__):
        probe_plan = plan.probe_plan[size]
        probe_prefix, probe_width = probe_plan[0]
        one_width = len(probe_plan) == 1
        index_prefix, index_width = plan.index_prefix[size], plan.width[size]
        min_size = plan.min_partner[size]
        for k in group:
            if should_stop is not None and done % 2048 == 0 and should_stop():
                return found
            done += 1
            mine = ranked[k]
            if one_width:
                hits = known & combinations(mine[:probe_prefix], probe_width)
            else:
                hits = known & plan.probe_keys(mine, size)
            if not hits:
                add_new(zip(combinations(mine[:index_prefix], index_width), repeat(k)))
                continue
            x = distinct[k]
            if type(x) is not frozenset:  # a row: made a set once per probe that has candidates
                x = frozenset(x)
            for other in _candidates(hits, postings, starts, sizes, min_size):
                inter = len(x.intersection(distinct[other]))
                if inter / (size + sizes[other] - inter) >= threshold:
                    found.append((other, k) if other < k else (k, other))
            for key in combinations(mine[:index_prefix], index_width):
                _post(postings, key, k)
    return found


def _post(postings: dict[Hashable, int | list[int]], key: Hashable, k: int) -> None:
    """Add set ``k`` under ``key``: a lone number for a new key, a list once the key is shared."""
    held = postings.get(key)
    if held is None:
        postings[key] = k
    elif isinstance(held, int):
        postings[key] = [held, k]
    else:
        held.append(k)


def _candidates(
    hits: Iterable[Hashable],
    postings: dict[Hashable, int | list[int]],
    starts: dict[Hashable, int],
    sizes: list[int],
    min_size: int,
) -> set[int]:
    """The sets indexed under any of ``hits`` that are large enough to reach the threshold with the probe.

    Postings are in nondecreasing size and probes come in nondecreasing size, so the
    too-small head of a posting list stays too small: ``starts`` remembers where it ends.
    """
    candidates: set[int] = set()
    for key in hits:
        plist = postings[key]
        if isinstance(plist, int):
            if sizes[plist] >= min_size:
                candidates.add(plist)
            continue
        start = starts.get(key, 0)
        end = len(plist)
        if start < end and sizes[plist[start]] < min_size:
            start += 1
            while start < end and sizes[plist[start]] < min_size:
                start += 1
            starts[key] = start
        candidates.update(plist[start:] if start else plist)
    return candidates


def _trial_cost(ranked: list[list[int]], sizes: list[int], order: Sequence[int], plan: PrefixPlan, scale: float, budget: float) -> float:
    """The work a join would do, from a sample: keys made plus candidates found (scaled up by ``scale``).

    Verifies nothing, and gives up (infinite cost) as soon as the work exceeds ``budget``.
    """
    postings: dict[Hashable, int | list[int]] = {}
    starts: dict[Hashable, int] = {}
    known = postings.keys()
    keys = candidates_seen = 0
    for step, k in enumerate(order):
        size = sizes[k]
        mine = ranked[k]
        probes = list(plan.probe_keys(mine, size))
        keys += len(probes)
        hits = known & probes
        if hits:
            candidates_seen += len(_candidates(hits, postings, starts, sizes, plan.min_partner[size]))
        for key in plan.index_keys(mine, size):
            _post(postings, key, k)
            keys += 1
        if step % 64 == 0 and keys * scale + candidates_seen * scale * scale * _CANDIDATE_COST > budget:
            return float("inf")
    return keys * scale + candidates_seen * scale * scale * _CANDIDATE_COST

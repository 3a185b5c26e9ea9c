"""The exact similarity join of :mod:`simjoin`, with its keys made and matched by numpy.

Same method, same keys, same verification, so the same pairs: only the bookkeeping
moves out of Python. Instead of probing a dict one set at a time, the prefix keys
of every set of one size are hashed together as columns of a matrix, all keys are
sorted at once, and two sets become a candidate pair when they share a key. On 100k
questions that is about three times faster than the one-set-at-a-time sweep.

A key is a 64-bit hash of its tokens' ranks (a sum of per-rank random values), so
two different keys may collide; a collision only adds a candidate, and every
candidate is verified with the expression brute force uses.

Importing numpy starts OpenBLAS's thread pool, and a process running other threads
cannot fork safely (:func:`~reviewtui.evalset.jobs.fork.can_fork` then refuses). So
the scan uses this join only in its worker process, which never forks; in the
calling process :func:`~reviewtui.evalset.checks.simjoin.similar_pairs` keeps its own sweep
unless asked otherwise.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Callable, Hashable, Iterator, Sequence
from itertools import chain, combinations, repeat
from itertools import count as count_up
from typing import Any

import numpy as np

from reviewtui.evalset.checks.simjoin_plan import PrefixPlan, SetKey

__all__ = ["Pairs", "join_distinct"]

_ROLE_INDEX, _ROLE_PROBE = 0, 1  # the lowest bit of a packed key


def _mix(values: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser: distinct inputs give well-spread, distinct 64-bit outputs."""
    values = values ^ (values >> np.uint64(30))
    values *= np.uint64(0xBF58476D1CE4E5B9)
    values ^= values >> np.uint64(27)
    values *= np.uint64(0x94D049BB133111EB)
    return values ^ (values >> np.uint64(31))


_SLICE = 1 << 16  # tokens at a time where numpy would otherwise copy a whole array


def _ranked(distinct: Sequence[SetKey]) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """(sizes, every set's token ranks laid end to end, where each set starts, vocabulary size).

    A rank says how rare a token is (0: the rarest). Ranks count every token (not a sample,
    as the sweep does): a bincount costs nothing here. Ties are broken by first appearance
    (frozensets) or by word number (rows), so the order, and the result, never depend on
    hashing. Each set's ranks are in no particular order: :func:`_packed_keys` sorts them a
    block of same-size sets at a time.

    Rows (tuples from a TokenRows) already hold small word numbers, which serve as the ids as
    they are. The arrays here hold one entry per token of the whole set (a million at 100k
    questions) and set the peak of the process that runs the join: they are 32-bit, and made
    without a second copy.
    """
    count = len(distinct)
    sizes = np.fromiter(map(len, distinct), dtype=np.int64, count=count)
    total = int(sizes.sum())
    if count and type(distinct[0]) is tuple:  # rows: distinct, non-negative word numbers
        ids = np.fromiter(chain.from_iterable(distinct), dtype=np.int32, count=total)
        width = int(ids.max()) + 1 if total else 0
    else:
        vocabulary = dict(zip(dict.fromkeys(chain.from_iterable(distinct)), count_up()))
        ids = np.fromiter(map(vocabulary.__getitem__, chain.from_iterable(distinct)), dtype=np.int32, count=total)
        width = len(vocabulary)
        del vocabulary
    # Counted and ranked a slice at a time: numpy widens 32-bit indices to 64 bits first, and on
    # the whole array that copy alone would be twice the array.
    counts = np.zeros(width, dtype=np.int64)
    for start in range(0, total, _SLICE):
        counts += np.bincount(ids[start : start + _SLICE], minlength=width)
    rank_of = np.empty(width, dtype=np.int32)
    rank_of[np.argsort(counts, kind="stable")] = np.arange(width, dtype=np.int32)
    del counts
    for start in range(0, total, _SLICE):
        piece = ids[start : start + _SLICE]
        piece[:] = rank_of[piece]  # each id becomes its rank, in place
    starts = np.zeros(count + 1, dtype=np.int64)
    np.cumsum(sizes, out=starts[1:])
    return sizes, ids, starts, width


def _packed_keys(
    sizes: np.ndarray, ranks: np.ndarray, starts: np.ndarray, vocabulary: int, plan: PrefixPlan, should_stop: Callable[[], bool] | None
) -> tuple[np.ndarray, np.uint64] | None:
    """Every set's index keys and the probe keys that are not also its index keys, packed with their owner.

    A packed key is ``hash | owner << 1 | role`` with the hash's low bits cleared, so one
    sort brings equal keys together. None when ``should_stop`` asked to stop. The keys are
    written into one array made at its final size: building them in pieces and joining
    those held every key twice.
    """
    token_value = _mix(np.arange(1, vocabulary + 1, dtype=np.uint64))
    width_salt = _mix(np.arange(1, len(plan.width) + 2, dtype=np.uint64) + np.uint64(1 << 40))
    tag_bits = len(sizes).bit_length() + 1
    high = ~np.uint64((1 << tag_bits) - 1)
    per_size = np.bincount(sizes)
    combos: list[tuple[int, list[tuple[int, tuple[int, ...], bool]]]] = []  # size, its (width, combo, probe?) keys
    for size in np.flatnonzero(per_size).tolist():  # the sizes present (sets are never empty here)
        index_width = plan.width[size]
        index_combos = list(combinations(range(plan.index_prefix[size]), index_width))
        own = set(index_combos)
        made = [(index_width, combo, False) for combo in index_combos]
        for prefix, width in plan.probe_plan[size]:
            made += [(width, combo, True) for combo in combinations(range(prefix), width) if width != index_width or combo not in own]
        combos.append((size, made))
    keys = np.empty(sum(int(per_size[size]) * len(made) for size, made in combos), dtype=np.uint64)
    at = 0
    for size, made in combos:
        if should_stop is not None and should_stop():
            return None
        members = np.flatnonzero(sizes == size)
        rows = ranks[starts[members][:, None] + np.arange(size)]  # one row per set
        rows.sort(axis=1)  # rarest first
        values = token_value[rows]
        del rows
        tags = members.astype(np.uint64) << np.uint64(1)
        probe_tags = tags | np.uint64(_ROLE_PROBE)
        for width, combo, probe in made:
            part = keys[at : at + len(members)]
            np.bitwise_and(_combo_hash(values, combo, width_salt[width]), high, out=part)
            part |= probe_tags if probe else tags
            at += len(members)
    keys.sort()
    return keys, high


def _combo_hash(values: np.ndarray, combo: tuple[int, ...], salt: np.uint64) -> np.ndarray:
    total = values[:, combo[0]] + salt
    for column in combo[1:]:
        total += values[:, column]
    return total


def _candidate_codes(keys: np.ndarray, high: np.uint64, sizes: np.ndarray, plan: PrefixPlan) -> np.ndarray:
    """``a * n + b`` (a < b) for every two sets sharing a key, one of them as an index key, sizes compatible."""
    # Where a key's hash equals the next one's, found a slice at a time: the hashes of every key
    # at once would be a second copy of all the keys.
    in_run = np.zeros(len(keys), dtype=bool)
    for start in range(0, len(keys) - 1, _SLICE):
        hashes = keys[start : start + _SLICE + 1] & high
        shared = np.flatnonzero(hashes[1:] == hashes[:-1]) + start
        in_run[shared] = True
        in_run[shared + 1] = True
    rows = np.flatnonzero(in_run)  # every entry of a run of equal hashes, in order
    del in_run
    if not len(rows):
        return np.empty(0, dtype=np.int64)
    run_starts = np.flatnonzero(np.diff(keys[rows] & high) != 0) + 1
    firsts = np.concatenate(([0], run_starts))
    lengths = np.diff(np.concatenate((firsts, [len(rows)])))
    tags = keys[rows] & ~high
    owners = (tags >> np.uint64(1)).astype(np.int64)
    probes = (tags & np.uint64(_ROLE_PROBE)).astype(bool)

    min_partner = np.asarray(plan.min_partner, dtype=np.int64)

    def fitting(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """The codes of the pairs (a[k], b[k]) whose sizes are compatible."""
        low, high_owner = np.minimum(a, b), np.maximum(a, b)
        small, large = sizes[low], sizes[high_owner]
        small, large = np.minimum(small, large), np.maximum(small, large)
        fits = small >= min_partner[large]
        return low[fits] * len(sizes) + high_owner[fits]

    twos = firsts[lengths == 2]  # nearly every run: two entries, done without a Python loop
    left, right = owners[twos], owners[twos + 1]
    keep = (left != right) & ~(probes[twos] & probes[twos + 1])
    codes = [fitting(left[keep], right[keep])]
    del left, right, keep
    # The longer runs' pairs are made into codes a batch at a time: on a small vocabulary they are many, and
    # held as lists of Python ints, then as arrays made from those, they were the peak of the process.
    extra_left: list[int] = []
    extra_right: list[int] = []
    held = 0
    for first, length in zip(firsts[lengths > 2].tolist(), lengths[lengths > 2].tolist()):
        # A longer run: each set holding it as an index key pairs with every other set in the run.
        run = slice(first, first + length)
        indexed = set(owners[run][~probes[run]].tolist())
        everyone = set(owners[run].tolist())
        for a in indexed:
            for b in everyone:
                if a != b:
                    extra_left.append(a)
                    extra_right.append(b)
        if len(extra_left) >= _PAIRS_BATCH:
            codes.append(fitting(np.asarray(extra_left, dtype=np.int64), np.asarray(extra_right, dtype=np.int64)))
            extra_left.clear()
            extra_right.clear()
            held += len(codes[-1])
            if held >= _CODES_HELD:  # the same pair comes from many runs: its copies go as they pile up
                codes = [_unique_of(codes)]
                held = len(codes[0])
    codes.append(fitting(np.asarray(extra_left, dtype=np.int64), np.asarray(extra_right, dtype=np.int64)))
    del extra_left, extra_right
    return _unique_of(codes)


def _unique_of(parts: list[np.ndarray]) -> np.ndarray:
    """``np.unique`` of the arrays in ``parts`` together, sorted; ``parts`` is emptied.

    Made by a sort, in place, of their join: np.unique's own way held several times the array (about
    8 MB more for 200k codes), and a sorted copy beside the join, with the parts still held, was
    three times the codes at once, where a small vocabulary's codes are the peak of the process
    whose peak can be the audit command's.
    """
    values = np.concatenate(parts)  # a new array, this function's own to sort
    parts.clear()
    values.sort()
    if len(values) < 2:
        return values
    first = np.empty(len(values), dtype=bool)
    first[0] = True
    np.not_equal(values[1:], values[:-1], out=first[1:])
    return values[first]


_PAIRS_BATCH = 1 << 14  # pairs from the longer runs made into codes at a time
_CODES_HELD = 1 << 18  # codes held before their copies are dropped


_WIDTHS = (6, 5, 4, 3)
_SAMPLE_SIZE = 2000
_CANDIDATE_COST = 100.0  # measured at 100k: a candidate (found, then verified in Python) costs about 100 keys


def choose_width(distinct: Sequence[SetKey], threshold: float) -> int:
    """The key width with the lowest estimated cost, from trial joins on a fixed sample.

    Wide keys are cheap here and keep candidates few on templated text, but on a low
    threshold their number grows fast; the trial weighs the two (keys grow linearly
    with the number of sets, candidates quadratically). Any width gives the same pairs.
    """
    if len(distinct) <= _SAMPLE_SIZE:
        sample = list(distinct)
    else:
        rng = np.random.default_rng(0)
        sample = [distinct[k] for k in sorted(rng.choice(len(distinct), _SAMPLE_SIZE, replace=False).tolist())]
    scale = len(distinct) / len(sample)
    sizes, ranks, starts, vocabulary = _ranked(sample)
    largest = max(map(len, distinct))
    histogram = np.bincount(np.fromiter(map(len, distinct), dtype=np.int64, count=len(distinct))).tolist()
    plans = [PrefixPlan(threshold, largest, width) for width in _WIDTHS]
    best, best_cost = _WIDTHS[0], float("inf")
    for plan, width in sorted(zip(plans, _WIDTHS), key=lambda entry: _key_count(entry[0], histogram)):
        cost = float(_key_count(plan, histogram))
        if cost >= best_cost:
            continue  # its keys alone cost more than the best so far: no trial needed
        keys, high = _packed_keys(sizes, ranks, starts, vocabulary, plan, None)  # type: ignore[misc]
        cost += len(_candidate_codes(keys, high, sizes, plan)) * scale * scale * _CANDIDATE_COST
        if cost < best_cost:
            best, best_cost = width, cost
    return best


def _key_count(plan: PrefixPlan, histogram: list[int]) -> int:
    """How many keys :func:`_packed_keys` makes under ``plan`` for sets of these sizes (histogram[size] sets)."""
    total = 0
    for size, count in enumerate(histogram):
        if size == 0 or not count:
            continue
        index_width = plan.width[size]
        index_keys = math.comb(plan.index_prefix[size], index_width)
        probe_keys = sum(math.comb(prefix, width) for prefix, width in plan.probe_plan[size])
        shared = index_keys if any(width == index_width for _, width in plan.probe_plan[size]) else 0
        total += count * (index_keys + probe_keys - shared)
    return total


def join_distinct(
    distinct: Sequence[SetKey],
    threshold: float,
    should_stop: Callable[[], bool] | None = None,
) -> Sequence[tuple[int, int]]:
    """Pairs ``(a, b)``, ``a < b``, of distinct non-empty sets with Jaccard ≥ ``threshold`` (in order of ``a``, then ``b``).

    The pairs found so far are returned when ``should_stop`` asks to stop.
    """
    sizes, ranks, starts, vocabulary = _ranked(distinct)
    plan = PrefixPlan(threshold, int(sizes.max()), choose_width(distinct, threshold))
    packed = _packed_keys(sizes, ranks, starts, vocabulary, plan, should_stop)
    del ranks, starts  # one entry per token: not needed past the keys
    count = len(distinct)
    found = array("q")  # each pair as its candidate code: a tuple of two new ints each held several times as much
    if packed is None:
        return Pairs(found, count)
    codes = _candidate_codes(*packed, sizes, plan)
    del packed  # every key: freed before the candidates are verified
    a_now, x = -1, frozenset[Hashable]()
    # Read a batch at a time: the candidates made Python ints all at once (a list of them, where a small vocabulary
    # makes millions) were the peak of the process running the join.
    for start in range(0, len(codes), _BATCH):
        if should_stop is not None and should_stop():
            break
        for code in codes[start : start + _BATCH].tolist():
            a, b = divmod(code, count)
            if a != a_now:  # codes come in order, so each set a is made a frozenset (if a row) once for its run
                a_now, x = a, distinct[a] if type(distinct[a]) is frozenset else frozenset(distinct[a])
            y = distinct[b]
            inter = len(x.intersection(y))
            if inter / (len(x) + len(y) - inter) >= threshold:
                found.append(code)
    return Pairs(found, count)


class Pairs(Sequence[tuple[int, int]]):
    """Pairs ``(a, b)`` of indices below ``count``, kept as ``a * count + b``, made when read."""

    __slots__ = ("_codes", "_count")

    def __init__(self, codes: array, count: int) -> None:
        self._codes = codes
        self._count = count

    def __len__(self) -> int:
        return len(self._codes)

    def __getitem__(self, at: Any) -> Any:
        if isinstance(at, slice):
            return [divmod(code, self._count) for code in self._codes[at]]
        return divmod(self._codes[at], self._count)

    def __iter__(self) -> Iterator[tuple[int, int]]:
        return map(divmod, self._codes, repeat(self._count))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence):
            return NotImplemented
        return list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(list(self))


_BATCH = 4096  # candidates read as Python ints at a time; also how often a stop is looked for

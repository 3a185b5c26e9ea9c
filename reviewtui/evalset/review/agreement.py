"""How far several reviewers agree when they rate the same items.

The input is one mapping, item id -> {reviewer: label}: a label is any string
(a verdict such as ``"accepted"``, a reject reason code, a question type). A
reviewer who did not rate an item is simply absent from its row; a ``None``
label counts as absent too, so a row can be built straight from a journal that
knows the reviewer but has no verdict yet.

What is computed (:func:`agreement_report` computes all of it in one pass):

* **Percent agreement**: for each item rated by ``m >= 2`` reviewers, the
  share of its ``m(m-1)`` ordered pairs of ratings that carry the same label;
  averaged over those items, each item counting once (Fleiss 1971's
  ``P-bar``, with ``m`` allowed to differ between items).
* **Cohen's kappa** for every pair of reviewers, on the items both rated
  (Cohen 1960): ``(p_o - p_e) / (1 - p_e)`` with ``p_e`` the sum over labels
  of the product of the two reviewers' own label shares on those items.
* **Fleiss' kappa** (Fleiss 1971), in the form that allows a different number
  of raters per item: observed agreement as in percent agreement, and chance
  agreement ``sum_k pi_k**2`` where ``pi_k`` is the mean over items of the share
  of the item's ratings that are ``k``. This is the "generalized" Fleiss kappa
  of Gwet's *Handbook of Inter-Rater Reliability* (chapter on missing ratings;
  the same formula as ``fleiss.kappa.raw`` in his irrCAC package). When every
  item has the same number of raters it *is* Fleiss' 1971 kappa, term for
  term, so nothing is thrown away to make the counts equal.
* **Krippendorff's alpha**, nominal (Krippendorff, *Content Analysis*, and his
  "Computing Krippendorff's alpha-reliability", 2011): from the coincidence
  matrix, where an item with ``m`` ratings adds each of its ``m(m-1)`` ordered
  pairs with weight ``1/(m-1)``; ``alpha = (A_o - A_e) / (1 - A_e)`` with
  ``A_o`` the share of coinciding pairs and ``A_e = sum_c n_c(n_c-1) / (n(n-1))``.
* **Gwet's AC1** (Gwet 2008, "Computing inter-rater reliability and its
  variance in the presence of high agreement"; the multi-rater form with
  missing ratings from the Handbook): observed agreement as above, chance
  agreement ``sum_k pi_k(1 - pi_k) / (q - 1)`` with ``pi_k`` as for Fleiss and
  ``q`` the number of labels on the scale. Unlike the kappas it does not
  collapse when nearly every rating is the same label.
* **Per reviewer**: items rated, how often each label was used, and agreement
  with the consensus, the label most of the *other* reviewers of an item gave
  (a unique plurality; items where the others tie are left out and counted).

Which items count
    Items with fewer than two ratings cannot show agreement or disagreement, so
    every agreement statistic, chance terms included, uses only the items with
    at least two ratings. (Gwet's irrCAC also counts singly rated items in
    ``pi_k``; with an overlap plan, where most items have one reviewer, that
    would mix the prevalence of the whole set into a coefficient measured on
    the overlap, so it is not done here. Where every item has two or more
    ratings the two agree.) Singly rated items still count in the per-reviewer
    figures and in :attr:`AgreementReport.items`, and every label seen anywhere
    belongs to the scale that sets AC1's ``q``.

When a statistic is undefined
    A kappa or alpha is ``0/0`` when all the ratings it looks at carry one and
    the same label: there is no disagreement to expect by chance either. The
    reference implementations give NaN (scikit-learn, statsmodels) or raise
    (the ``krippendorff`` package); here the value is ``None``. The same holds
    when there is nothing to compare (no item with two ratings, a pair of
    reviewers with no item in common). AC1 stays defined with a single label:
    its chance term is ``sum_k pi_k(1 - pi_k) / (q - 1)``, which is 0 on any
    scale of two or more labels, so AC1 equals the observed agreement, 1; on a
    one-label scale it is taken as the same limit, 1 (irrCAC gets 1 as well,
    by nudging its chance term just under 1).

Intervals
    Every statistic comes with a percentile bootstrap interval over items:
    draw as many items as were compared, with replacement, recompute, repeat
    ``resamples`` times, and take the ``(1-confidence)/2`` and
    ``(1+confidence)/2`` quantiles. The four multi-rater statistics share one
    set of resamples of the compared items; each pair's kappa resamples the
    items that pair shares. Every statistic here depends on an item only
    through the multiset of its labels (for a pair, through the two labels),
    so items that look the same are interchangeable, and drawing ``n`` items
    with replacement is the same as one multinomial draw over the distinct
    patterns: a resample costs the number of distinct patterns, not the number
    of items. Resamples on which a statistic is undefined (all one label) are
    skipped, and :attr:`Estimate.resamples` says how many were used. The
    random streams are seeded from ``seed`` and, for a pair, from the two
    reviewer names, so a report is reproducible and one pair's interval does not
    move when another reviewer is added. numpy does the resampling and is
    imported only when intervals are asked for.
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Any, TypeVar

# The review app imports this module, and numpy takes a noticeable fraction of a
# second to import: every function that needs it imports it itself, so it is only
# loaded once an interval is asked for.
if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "AgreementReport",
    "Estimate",
    "PairAgreement",
    "Ratings",
    "ReviewerSummary",
    "agreement_report",
    "by_item",
    "cohens_kappa",
    "fleiss_kappa",
    "gwet_ac1",
    "krippendorff_alpha",
    "percent_agreement",
]

Ratings = Mapping[Any, Mapping[str, str | None]]
"""item id -> {reviewer: label}; a missing reviewer or a ``None`` label means "not rated"."""

_Item = TypeVar("_Item", bound=Hashable)

# Each resample chunk holds at most this many cells of draws, so a set whose
# items are nearly all different patterns (free-text labels) cannot ask numpy
# for resamples x items integers at once.
_CHUNK_CELLS = 1 << 21


@dataclass(frozen=True, slots=True)
class Estimate:
    """One statistic: its value and a bootstrap interval around it.

    ``value`` is ``None`` where the statistic is undefined (see the module's
    notes). ``low``/``high`` are ``None`` when no interval was asked for
    (``resamples=0``) or no resample gave a value; ``resamples`` is the number
    of resamples the interval was taken from.
    """

    value: float | None
    low: float | None = None
    high: float | None = None
    resamples: int = 0


@dataclass(frozen=True, slots=True)
class PairAgreement:
    """Two reviewers on the items both of them rated (``first < second``)."""

    first: str
    second: str
    items: int
    observed: Estimate
    """Share of the shared items on which the two gave the same label."""
    kappa: Estimate
    """Cohen's kappa on the shared items."""


@dataclass(frozen=True, slots=True)
class ReviewerSummary:
    """What one reviewer did, and how it compares with the others."""

    reviewer: str
    items: int
    """Items this reviewer rated, including those nobody else rated."""
    label_counts: Mapping[str, int]
    """How many of those items got each label; every label of the report's scale is a key."""
    shared_items: int
    """Items that at least one other reviewer rated as well."""
    consensus_items: int
    """Shared items on which the other reviewers had one most common label."""
    consensus_ties: int
    """Shared items left out because the other reviewers' top labels tied."""
    consensus_agreement: float | None
    """Share of ``consensus_items`` where this reviewer gave the consensus label; ``None`` if there are none."""

    def share(self, label: str) -> float | None:
        """How often this reviewer used ``label`` (for example a reject rate); ``None`` if they rated nothing."""
        if not self.items:
            return None
        return self.label_counts.get(label, 0) / self.items

    @property
    def label_shares(self) -> dict[str, float]:
        """Every label's share of this reviewer's ratings (empty if they rated nothing)."""
        if not self.items:
            return {}
        return {label: count / self.items for label, count in self.label_counts.items()}


@dataclass(frozen=True, slots=True)
class AgreementReport:
    """All the agreement statistics of one set of ratings."""

    reviewers: tuple[str, ...]
    """Every reviewer with at least one rating, sorted."""
    categories: tuple[str, ...]
    """The scale: every label seen, plus any given as ``categories``, sorted."""
    items: int
    """Items with at least one rating."""
    compared_items: int
    """Items with at least two ratings: the ones every agreement statistic uses."""
    raters_per_item: Mapping[int, int]
    """Number of ratings -> number of items with that many (items with none are not counted)."""
    percent_agreement: Estimate
    fleiss_kappa: Estimate
    krippendorff_alpha: Estimate
    gwet_ac1: Estimate
    pairs: tuple[PairAgreement, ...]
    """Every pair of reviewers, in sorted order, including pairs with no item in common."""
    per_reviewer: tuple[ReviewerSummary, ...]
    """One summary per reviewer, in the order of :attr:`reviewers`."""
    confidence: float
    seed: int

    def pair(self, first: str, second: str) -> PairAgreement:
        """The pair of these two reviewers, in either order."""
        low, high = sorted((first, second))
        for found in self.pairs:
            if found.first == low and found.second == high:
                return found
        raise KeyError((first, second))

    def reviewer(self, name: str) -> ReviewerSummary:
        """The summary of one reviewer."""
        for found in self.per_reviewer:
            if found.reviewer == name:
                return found
        raise KeyError(name)


def by_item(per_reviewer: Mapping[str, Mapping[_Item, str | None]]) -> dict[_Item, dict[str, str | None]]:
    """Turn reviewer -> {item: label} (one journal per reviewer) into the item -> {reviewer: label} this module reads."""
    rows: dict[_Item, dict[str, str | None]] = {}
    for reviewer, labels in per_reviewer.items():
        for item, label in labels.items():
            rows.setdefault(item, {})[reviewer] = label
    return rows


# --------------------------------------------------------------------------- tally


class _Tally:
    """Everything the statistics need, gathered in one pass over the ratings.

    ``patterns`` counts the compared items by the sorted tuple of their labels;
    ``pair_cells`` counts, per pair of reviewers, how often each (label, label)
    combination occurred; ``consensus`` counts (reviewer, pattern, own label)
    so that the consensus of the others is worked out once per distinct case.
    """

    __slots__ = ("categories", "consensus", "items", "label_uses", "pair_cells", "patterns", "raters_per_item", "reviewers")

    def __init__(self, ratings: Ratings, categories: Iterable[str] | None) -> None:
        # The loop only appends to lists and the counting happens once at the end,
        # in C: a Counter.update per item would cost more than the item's own work.
        uses: list[tuple[str, str]] = []
        sizes: list[int] = []
        keys: list[tuple[str, ...]] = []
        pairs: list[tuple[tuple[str, str], tuple[str, str]]] = []
        cases: list[tuple[str, tuple[str, ...], str]] = []
        for row in ratings.values():
            rated = [(reviewer, label) for reviewer, label in row.items() if label is not None]
            uses += rated
            sizes.append(len(rated))
            if len(rated) < 2:
                continue
            # Sorting by reviewer makes every pair come out as (lower name, higher name).
            rated.sort()
            key = tuple(sorted([label for _, label in rated]))
            keys.append(key)
            pairs += combinations(rated, 2)
            cases += [(reviewer, key, label) for reviewer, label in rated]
        patterns = Counter(keys)
        label_uses = Counter(uses)
        pair_uses = Counter(pairs)
        consensus = Counter(cases)
        raters = Counter(sizes)
        raters.pop(0, None)
        pair_cells: dict[tuple[str, str], Counter[tuple[str, str]]] = {}
        for ((first, first_label), (second, second_label)), count in pair_uses.items():
            cells = pair_cells.get((first, second))
            if cells is None:
                cells = pair_cells[(first, second)] = Counter()
            cells[(first_label, second_label)] += count
        scale = {label for _, label in label_uses}
        if categories is not None:
            scale.update(categories)
        self.categories = tuple(sorted(scale))
        self.reviewers = tuple(sorted({reviewer for reviewer, _ in label_uses}))
        self.patterns = patterns
        self.label_uses = label_uses
        self.pair_cells = pair_cells
        self.consensus = consensus
        self.raters_per_item = dict(sorted(raters.items()))
        self.items = sum(raters.values())


class _Patterns:
    """The compared items reduced to per-pattern numbers that the multi-rater statistics sum.

    For a pattern (the multiset of one item's labels, ``m`` of them, ``r_k`` of
    label ``k``): ``agreement`` is its share of agreeing ordered pairs
    ``sum r_k(r_k-1) / (m(m-1))``; ``coincidences`` is its weight on the
    diagonal of Krippendorff's coincidence matrix, ``sum r_k(r_k-1) / (m-1)``;
    ``counts`` holds ``r_k`` for each label that occurs on a compared item.
    Labels that occur nowhere here add nothing to any sum (only their number
    matters, to AC1's ``q``), so they get no column: the cost of a resample is
    patterns x labels used, which stays small for verdicts, reason codes and
    question types.
    """

    __slots__ = ("agreement", "coincidences", "counts", "keys", "weights")

    def __init__(self, patterns: Mapping[tuple[str, ...], int]) -> None:
        used = sorted({label for key in patterns for label in key})
        index = {label: position for position, label in enumerate(used)}
        self.keys = sorted(patterns)
        self.weights = [patterns[key] for key in self.keys]
        self.agreement: list[float] = []
        self.coincidences: list[float] = []
        self.counts: list[list[int]] = []
        for key in self.keys:
            raters = len(key)
            counts = [0] * len(used)
            for label in key:
                counts[index[label]] += 1
            agreeing = sum(count * (count - 1) for count in counts)
            self.agreement.append(agreeing / (raters * (raters - 1)))
            self.coincidences.append(agreeing / (raters - 1))
            self.counts.append(counts)


def _point_statistics(patterns: _Patterns, scale_size: int) -> tuple[float | None, float | None, float | None, float | None]:
    """Percent agreement, Fleiss' kappa, Krippendorff's alpha and Gwet's AC1 of the compared items."""
    n = sum(patterns.weights)
    if n == 0:
        return None, None, None, None
    width = len(patterns.counts[0])
    observed = math.fsum(w * a for w, a in zip(patterns.weights, patterns.agreement)) / n
    share_sums = [0.0] * width
    totals = [0] * width
    diagonal = 0.0
    for weight, counts, coincide in zip(patterns.weights, patterns.counts, patterns.coincidences):
        raters = sum(counts)
        for k, count in enumerate(counts):
            if count:
                share_sums[k] += weight * count / raters
                totals[k] += weight * count
        diagonal += weight * coincide
    shares = [total / n for total in share_sums]
    ac1 = _ac1(observed, shares, scale_size)
    if sum(1 for total in totals if total) < 2:
        # One label only: no disagreement is possible, by chance or otherwise.
        return observed, None, None, ac1
    chance = math.fsum(share * share for share in shares)
    fleiss = (observed - chance) / (1 - chance)
    values = sum(totals)
    expected = math.fsum(total * (total - 1) for total in totals) / (values * (values - 1))
    alpha = (diagonal / values - expected) / (1 - expected)
    return observed, fleiss, alpha, ac1


def _ac1(observed: float, shares: list[float], scale_size: int) -> float:
    if scale_size < 2:
        return observed
    chance = math.fsum(share * (1 - share) for share in shares) / (scale_size - 1)
    return (observed - chance) / (1 - chance)


def _pair_point(cells: Mapping[tuple[str, str], int]) -> tuple[int, float | None, float | None]:
    """Items, observed agreement and Cohen's kappa of one pair's (label, label) counts."""
    n = sum(cells.values())
    if n == 0:
        return 0, None, None
    agreeing = sum(count for (first, second), count in cells.items() if first == second)
    rows: Counter[str] = Counter()
    columns: Counter[str] = Counter()
    for (first, second), count in cells.items():
        rows[first] += count
        columns[second] += count
    # Kept in whole numbers: chance agreement is expected / n**2, and it is exactly
    # 1 (kappa undefined) only when both reviewers used one and the same label.
    expected = sum(count * columns[label] for label, count in rows.items())
    if expected == n * n:
        return n, 1.0, None
    return n, agreeing / n, (n * agreeing - expected) / (n * n - expected)


# --------------------------------------------------------------------------- point estimates


def percent_agreement(ratings: Ratings) -> float | None:
    """Mean share of agreeing pairs of ratings over the items rated at least twice; ``None`` if there are none."""
    tally = _Tally(ratings, None)
    if not tally.patterns:
        return None
    return _point_statistics(_Patterns(tally.patterns), len(tally.categories))[0]


def fleiss_kappa(ratings: Ratings) -> float | None:
    """Fleiss' kappa, generalised to items with different numbers of raters (see the module's notes)."""
    tally = _Tally(ratings, None)
    if not tally.patterns:
        return None
    return _point_statistics(_Patterns(tally.patterns), len(tally.categories))[1]


def krippendorff_alpha(ratings: Ratings) -> float | None:
    """Krippendorff's alpha for nominal labels; ``None`` if fewer than two labels occur among the compared items."""
    tally = _Tally(ratings, None)
    if not tally.patterns:
        return None
    return _point_statistics(_Patterns(tally.patterns), len(tally.categories))[2]


def gwet_ac1(ratings: Ratings, categories: Iterable[str] | None = None) -> float | None:
    """Gwet's AC1; ``categories`` adds labels of the scale nobody used (they change ``q``)."""
    tally = _Tally(ratings, categories)
    if not tally.patterns:
        return None
    return _point_statistics(_Patterns(tally.patterns), len(tally.categories))[3]


def cohens_kappa(ratings: Ratings, first: str, second: str) -> float | None:
    """Cohen's kappa of two reviewers on the items both rated; ``None`` if they share none or both used one same label."""
    cells: Counter[tuple[str, str]] = Counter()
    for row in ratings.values():
        one, other = row.get(first), row.get(second)
        if one is not None and other is not None:
            cells[(one, other)] += 1
    return _pair_point(cells)[2]


# --------------------------------------------------------------------------- bootstrap


def _stream(seed: int, *names: str) -> np.random.Generator:
    import numpy as np

    words = [seed & 0xFFFFFFFFFFFFFFFF]
    for name in names:
        words.append(int.from_bytes(hashlib.blake2b(name.encode("utf-8", "surrogatepass"), digest_size=8).digest(), "little"))
    return np.random.default_rng(words)


def _draws(rng: np.random.Generator, weights: list[int], resamples: int) -> Iterable[np.ndarray]:
    """Resample counts per pattern, in chunks of rows, as one bootstrap over items."""
    import numpy as np

    n = sum(weights)
    probabilities = np.asarray(weights, dtype=float) / n
    rows = max(1, _CHUNK_CELLS // max(1, len(weights)))
    done = 0
    while done < resamples:
        size = min(rows, resamples - done)
        yield rng.multinomial(n, probabilities, size=size)
        done += size


def _interval(value: float | None, samples: np.ndarray, confidence: float) -> Estimate:
    import numpy as np

    finite = samples[np.isfinite(samples)]
    if value is None or finite.size == 0:
        return Estimate(value, None, None, int(finite.size))
    tail = (1 - confidence) / 2
    low, high = np.quantile(finite, [tail, 1 - tail])
    return Estimate(value, float(low), float(high), int(finite.size))


def _multi_rater_samples(
    patterns: _Patterns, scale_size: int, resamples: int, seed: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    import numpy as np

    agreement = np.asarray(patterns.agreement)
    coincidences = np.asarray(patterns.coincidences)
    counts = np.asarray(patterns.counts, dtype=np.int64)
    raters = counts.sum(axis=1)
    shares = counts / raters[:, None]
    n = sum(patterns.weights)
    out: list[tuple[np.ndarray, ...]] = []
    for draws in _draws(_stream(seed, "multi-rater"), patterns.weights, resamples):
        observed = draws @ agreement / n
        pi = draws @ shares / n
        totals = draws @ counts
        labels_used = (totals > 0).sum(axis=1)
        values = totals.sum(axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            fleiss_chance = (pi * pi).sum(axis=1)
            fleiss = (observed - fleiss_chance) / (1 - fleiss_chance)
            expected = (totals * (totals - 1)).sum(axis=1) / (values * (values - 1.0))
            alpha = (draws @ coincidences / values - expected) / (1 - expected)
        single = labels_used < 2
        fleiss[single] = np.nan
        alpha[single] = np.nan
        if scale_size < 2:
            ac1 = observed.copy()
        else:
            ac1_chance = (pi * (1 - pi)).sum(axis=1) / (scale_size - 1)
            ac1 = (observed - ac1_chance) / (1 - ac1_chance)
        out.append((observed, fleiss, alpha, ac1))
    observed_all, fleiss_all, alpha_all, ac1_all = (np.concatenate(parts) for parts in zip(*out))
    return observed_all, fleiss_all, alpha_all, ac1_all


def _pair_samples(cells: Mapping[tuple[str, str], int], resamples: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    import numpy as np

    keys = sorted(cells)
    labels = sorted({label for key in keys for label in key})
    index = {label: position for position, label in enumerate(labels)}
    first = np.zeros((len(keys), len(labels)), dtype=np.int64)
    second = np.zeros((len(keys), len(labels)), dtype=np.int64)
    same = np.zeros(len(keys), dtype=np.int64)
    for row, (one, other) in enumerate(keys):
        first[row, index[one]] = 1
        second[row, index[other]] = 1
        same[row] = one == other
    n = sum(cells.values())
    observed_parts, kappa_parts = [], []
    for draws in _draws(rng, [cells[key] for key in keys], resamples):
        agreeing = draws @ same
        expected = ((draws @ first) * (draws @ second)).sum(axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            kappa = (n * agreeing - expected) / (n * n - expected).astype(float)
        kappa[expected == n * n] = np.nan
        observed_parts.append(agreeing / n)
        kappa_parts.append(kappa)
    return np.concatenate(observed_parts), np.concatenate(kappa_parts)


# --------------------------------------------------------------------------- the report


def agreement_report(
    ratings: Ratings,
    *,
    categories: Iterable[str] | None = None,
    resamples: int = 1000,
    seed: int = 0,
    confidence: float = 0.95,
) -> AgreementReport:
    """Every agreement statistic of ``ratings``, each with a bootstrap interval.

    ``categories`` names labels that belong to the scale even if nobody used
    them (they count in AC1's ``q`` and appear in each reviewer's label counts).
    ``resamples=0`` skips the intervals (and numpy). The same ratings, seed and
    number of resamples always give the same report.
    """
    if resamples < 0:
        raise ValueError("resamples cannot be negative")
    if not 0 < confidence < 1:
        raise ValueError("confidence must be between 0 and 1")
    tally = _Tally(ratings, categories)
    scale = tally.categories

    if tally.patterns:
        patterns = _Patterns(tally.patterns)
        points = _point_statistics(patterns, len(scale))
        if resamples:
            samples = _multi_rater_samples(patterns, len(scale), resamples, seed)
            multi = [_interval(value, sample, confidence) for value, sample in zip(points, samples)]
        else:
            multi = [Estimate(value) for value in points]
    else:
        multi = [Estimate(None)] * 4

    pairs = []
    for first, second in combinations(tally.reviewers, 2):
        cells = tally.pair_cells.get((first, second)) or Counter()
        items, observed, kappa = _pair_point(cells)
        if items and resamples:
            observed_samples, kappa_samples = _pair_samples(cells, resamples, _stream(seed, "pair", first, second))
            pairs.append(
                PairAgreement(
                    first,
                    second,
                    items,
                    _interval(observed, observed_samples, confidence),
                    _interval(kappa, kappa_samples, confidence),
                )
            )
        else:
            pairs.append(PairAgreement(first, second, items, Estimate(observed), Estimate(kappa)))

    return AgreementReport(
        reviewers=tally.reviewers,
        categories=scale,
        items=tally.items,
        compared_items=sum(tally.patterns.values()),
        raters_per_item=tally.raters_per_item,
        percent_agreement=multi[0],
        fleiss_kappa=multi[1],
        krippendorff_alpha=multi[2],
        gwet_ac1=multi[3],
        pairs=tuple(pairs),
        per_reviewer=_reviewer_summaries(tally),
        confidence=confidence,
        seed=seed,
    )


def _consensus_outcome(key: tuple[str, ...], own: str) -> bool | None:
    """Whether ``own`` is the unique most common label among the others of an item; ``None`` on a tie."""
    others = Counter(key)
    others[own] -= 1
    top = max(others.values())
    leaders = [label for label, count in others.items() if count == top]
    if len(leaders) > 1:
        return None
    return leaders[0] == own


def _reviewer_summaries(tally: _Tally) -> tuple[ReviewerSummary, ...]:
    counts: dict[str, dict[str, int]] = {reviewer: dict.fromkeys(tally.categories, 0) for reviewer in tally.reviewers}
    for (reviewer, label), count in tally.label_uses.items():
        counts[reviewer][label] = count
    shared: Counter[str] = Counter()
    agreed: Counter[str] = Counter()
    tied: Counter[str] = Counter()
    outcomes: dict[tuple[tuple[str, ...], str], bool | None] = {}
    for (reviewer, key, own), count in tally.consensus.items():
        shared[reviewer] += count
        case = (key, own)
        if case in outcomes:
            outcome = outcomes[case]
        else:
            outcome = outcomes[case] = _consensus_outcome(key, own)
        if outcome is None:
            tied[reviewer] += count
        elif outcome:
            agreed[reviewer] += count
    summaries = []
    for reviewer in tally.reviewers:
        compared = shared[reviewer] - tied[reviewer]
        summaries.append(
            ReviewerSummary(
                reviewer=reviewer,
                items=sum(counts[reviewer].values()),
                label_counts=counts[reviewer],
                shared_items=shared[reviewer],
                consensus_items=compared,
                consensus_ties=tied[reviewer],
                consensus_agreement=agreed[reviewer] / compared if compared else None,
            )
        )
    return tuple(summaries)

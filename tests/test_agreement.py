"""Agreement statistics between reviewers (``reviewtui.evalset.review.agreement``).

The coefficients are checked three ways: against the reference implementations
(the ``krippendorff`` package, statsmodels' Cohen and Fleiss kappas) on seeded
random ratings with missing values and skewed labels; against a second,
deliberately plain implementation in exact fractions written here from the
published formulas; and against worked examples whose values are known.
"""

from __future__ import annotations

import math
import random
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from itertools import combinations

import krippendorff
import numpy as np
import pytest
from statsmodels.stats.inter_rater import aggregate_raters
from statsmodels.stats.inter_rater import cohens_kappa as sm_cohens_kappa
from statsmodels.stats.inter_rater import fleiss_kappa as sm_fleiss_kappa

from reviewtui.evalset.review.agreement import (
    AgreementReport,
    Estimate,
    agreement_report,
    by_item,
    cohens_kappa,
    fleiss_kappa,
    gwet_ac1,
    krippendorff_alpha,
    percent_agreement,
)

TOLERANCE = 1e-9

# statsmodels warns while it computes NaN for the undefined kappas these tests compare against.
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning:statsmodels.stats.inter_rater")

# --------------------------------------------------------------------------- data


def random_ratings(
    seed: int, reviewers: int, items: int, labels: int, weights: list[int] | None = None, missing: float = 0.0
) -> dict[str, dict[str, str]]:
    """Seeded ratings: each reviewer rates each item with probability ``1 - missing``, labels drawn with ``weights``."""
    rng = random.Random(seed)
    names = [f"rev{r}" for r in range(reviewers)]
    scale = [f"label{k}" for k in range(labels)]
    weights = weights or [1] * labels
    rows: dict[str, dict[str, str]] = {}
    for item in range(items):
        # A per-item "true" label that most reviewers follow keeps the coefficients away from 0,
        # so that agreement of different strengths is exercised, not only chance.
        truth = rng.choices(scale, weights)[0]
        row = {}
        for name in names:
            if rng.random() < missing:
                continue
            row[name] = truth if rng.random() < 0.6 else rng.choices(scale, weights)[0]
        rows[f"item{item}"] = row
    return rows


# (seed, reviewers, items, labels, label weights, share missing)
DATASETS = [
    (1, 2, 60, 2, None, 0.0),
    (2, 2, 90, 3, [6, 2, 1], 0.3),
    (3, 3, 80, 3, [8, 1, 1], 0.2),
    (4, 5, 150, 4, [20, 3, 2, 1], 0.4),
    (5, 6, 100, 5, None, 0.5),
    (6, 4, 120, 2, [30, 1], 0.1),
    (7, 3, 40, 6, [1, 2, 3, 4, 5, 6], 0.0),
    (8, 7, 70, 4, [50, 1, 1, 1], 0.6),
]


def reliability_matrix(ratings: dict[str, dict[str, str]]) -> tuple[np.ndarray, list[str], list[str]]:
    """Reviewers x items with label codes, NaN where missing: the ``krippendorff`` package's input."""
    reviewers = sorted({name for row in ratings.values() for name in row})
    labels = sorted({label for row in ratings.values() for label in row.values()})
    code = {label: float(position) for position, label in enumerate(labels)}
    matrix = np.array([[code[row[name]] if name in row else np.nan for row in ratings.values()] for name in reviewers])
    return matrix, reviewers, labels


def contingency(ratings: dict[str, dict[str, str]], first: str, second: str, labels: list[str]) -> np.ndarray:
    table = np.zeros((len(labels), len(labels)))
    index = {label: position for position, label in enumerate(labels)}
    for row in ratings.values():
        if first in row and second in row:
            table[index[row[first]], index[row[second]]] += 1
    return table


# --------------------------------------------------------------------------- plain formulas, exact


def compared_rows(ratings: dict[str, dict[str, str]]) -> list[list[str]]:
    return [list(row.values()) for row in ratings.values() if len(row) >= 2]


def plain_observed(ratings: dict[str, dict[str, str]]) -> Fraction:
    """Mean over items with two or more ratings of the share of agreeing ordered pairs of raters."""
    shares = []
    for labels in compared_rows(ratings):
        m = len(labels)
        agreeing = sum(1 for i in range(m) for j in range(m) if i != j and labels[i] == labels[j])
        shares.append(Fraction(agreeing, m * (m - 1)))
    return sum(shares, Fraction(0)) / len(shares)


def plain_prevalence(ratings: dict[str, dict[str, str]], scale: list[str]) -> dict[str, Fraction]:
    """pi_k: the mean over the compared items of the share of each item's ratings that are k."""
    rows = compared_rows(ratings)
    return {k: sum((Fraction(labels.count(k), len(labels)) for labels in rows), Fraction(0)) / len(rows) for k in scale}


def plain_fleiss(ratings: dict[str, dict[str, str]]) -> Fraction:
    scale = sorted({label for labels in compared_rows(ratings) for label in labels})
    pa = plain_observed(ratings)
    pe = sum((p * p for p in plain_prevalence(ratings, scale).values()), Fraction(0))
    return (pa - pe) / (1 - pe)


def plain_ac1(ratings: dict[str, dict[str, str]], scale: list[str]) -> Fraction:
    pa = plain_observed(ratings)
    q = len(scale)
    pe = sum((p * (1 - p) for p in plain_prevalence(ratings, scale).values()), Fraction(0)) / (q - 1)
    return (pa - pe) / (1 - pe)


# --------------------------------------------------------------------------- against the references


@pytest.mark.parametrize("dataset", DATASETS, ids=lambda d: f"seed{d[0]}")
def test_krippendorff_alpha_matches_the_krippendorff_package(dataset):
    ratings = random_ratings(*dataset)
    matrix, _, _ = reliability_matrix(ratings)
    expected = krippendorff.alpha(reliability_data=matrix, level_of_measurement="nominal")
    assert krippendorff_alpha(ratings) == pytest.approx(expected, abs=TOLERANCE)
    assert agreement_report(ratings, resamples=0).krippendorff_alpha.value == pytest.approx(expected, abs=TOLERANCE)


@pytest.mark.parametrize("dataset", DATASETS, ids=lambda d: f"seed{d[0]}")
def test_cohens_kappa_of_every_pair_matches_statsmodels(dataset):
    ratings = random_ratings(*dataset)
    _, reviewers, labels = reliability_matrix(ratings)
    report = agreement_report(ratings, resamples=0)
    assert len(report.pairs) == len(reviewers) * (len(reviewers) - 1) // 2
    for first, second in combinations(reviewers, 2):
        table = contingency(ratings, first, second, labels)
        pair = report.pair(first, second)
        assert pair.items == table.sum()
        assert pair.observed.value == pytest.approx(np.trace(table) / table.sum(), abs=TOLERANCE)
        expected = sm_cohens_kappa(table)["kappa"]
        if math.isnan(expected):
            # Both used one same label (the skewed sets have such pairs): undefined, see the degenerate tests.
            assert pair.kappa.value is None and cohens_kappa(ratings, first, second) is None
            continue
        assert pair.kappa.value == pytest.approx(expected, abs=TOLERANCE)
        assert cohens_kappa(ratings, first, second) == pytest.approx(expected, abs=TOLERANCE)
        assert cohens_kappa(ratings, second, first) == pytest.approx(expected, abs=TOLERANCE)


@pytest.mark.parametrize("dataset", DATASETS, ids=lambda d: f"seed{d[0]}")
def test_fleiss_kappa_matches_statsmodels_where_every_item_has_every_rater(dataset):
    # statsmodels needs the same number of raters on every item: the same data without gaps.
    seed, reviewers, items, labels, weights, _ = dataset
    ratings = random_ratings(seed, reviewers, items, labels, weights, missing=0.0)
    names = sorted({name for row in ratings.values() for name in row})
    scale = sorted({label for row in ratings.values() for label in row.values()})
    codes = np.array([[scale.index(row[name]) for name in names] for row in ratings.values()])
    expected = sm_fleiss_kappa(aggregate_raters(codes)[0])
    assert fleiss_kappa(ratings) == pytest.approx(expected, abs=TOLERANCE)
    assert fleiss_kappa(ratings) == pytest.approx(float(plain_fleiss(ratings)), abs=TOLERANCE)


@pytest.mark.parametrize("dataset", DATASETS, ids=lambda d: f"seed{d[0]}")
def test_fleiss_ac1_and_percent_agreement_match_the_formulas_with_missing_ratings(dataset):
    ratings = random_ratings(*dataset)
    scale = sorted({label for row in ratings.values() for label in row.values()})
    report = agreement_report(ratings, resamples=0)
    assert report.percent_agreement.value == pytest.approx(float(plain_observed(ratings)), abs=TOLERANCE)
    assert report.fleiss_kappa.value == pytest.approx(float(plain_fleiss(ratings)), abs=TOLERANCE)
    assert report.gwet_ac1.value == pytest.approx(float(plain_ac1(ratings, scale)), abs=TOLERANCE)
    assert percent_agreement(ratings) == report.percent_agreement.value
    assert fleiss_kappa(ratings) == report.fleiss_kappa.value
    assert gwet_ac1(ratings) == report.gwet_ac1.value


def test_unused_categories_count_in_ac1_only():
    ratings = random_ratings(3, 3, 80, 3, [8, 1, 1], 0.2)
    scale = sorted({label for row in ratings.values() for label in row.values()})
    wider = agreement_report(ratings, categories=["never used"], resamples=0)
    plain = agreement_report(ratings, resamples=0)
    assert wider.gwet_ac1.value == pytest.approx(float(plain_ac1(ratings, [*scale, "never used"])), abs=TOLERANCE)
    assert wider.gwet_ac1.value != plain.gwet_ac1.value
    assert wider.fleiss_kappa == plain.fleiss_kappa
    assert wider.krippendorff_alpha == plain.krippendorff_alpha
    assert wider.per_reviewer[0].label_counts["never used"] == 0


# --------------------------------------------------------------------------- worked examples


def test_two_raters_with_high_prevalence_the_kappa_paradox_worked_by_hand():
    # 100 items, two raters, "yes"/"no": both yes 90, both no 2, A yes B no 5, A no B yes 3.
    cells = {("yes", "yes"): 90, ("no", "no"): 2, ("yes", "no"): 5, ("no", "yes"): 3}
    ratings = {}
    for (a, b), count in cells.items():
        for _ in range(count):
            ratings[len(ratings)] = {"A": a, "B": b}
    # Observed agreement 92/100. A said yes 95 times, B 93 times.
    # Cohen: p_e = .95*.93 + .05*.07 = .887, kappa = (.92 - .887) / (1 - .887) = .033/.113.
    # AC1: pi_yes = (.95 + .93)/2 = .94, p_e = 2 * .94 * .06 / (2 - 1) = .1128,
    #      AC1 = (.92 - .1128) / (1 - .1128) = .8072/.8872.
    # Fleiss (Scott's pi for two raters): p_e = .94**2 + .06**2 = .8872, (.92 - .8872)/(1 - .8872).
    report = agreement_report(ratings, resamples=0)
    assert report.percent_agreement.value == pytest.approx(0.92, abs=1e-12)
    assert report.pair("A", "B").kappa.value == pytest.approx(0.033 / 0.113, abs=1e-12)
    assert report.gwet_ac1.value == pytest.approx(0.8072 / 0.8872, abs=1e-12)
    assert report.fleiss_kappa.value == pytest.approx(0.0328 / 0.1128, abs=1e-12)
    # The point of AC1: a high-agreement set does not read as poor agreement.
    assert report.gwet_ac1.value > 0.9 > 0.3 > report.pair("A", "B").kappa.value


# Gwet, Handbook of Inter-Rater Reliability (4th ed., 2014), the 4 raters x 12 subjects example
# with missing ratings (irrCAC's ``raw_4raters`` / R's ``cac.raw4raters``).
GWET_4_RATERS = {
    "Rater1": [1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
    "Rater2": [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, None],
    "Rater3": [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, 3],
    "Rater4": [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None],
}


def test_the_handbook_example_with_missing_ratings():
    ratings = {
        unit: {rater: str(column[unit]) for rater, column in GWET_4_RATERS.items() if column[unit] is not None} for unit in range(12)
    }
    report = agreement_report(ratings, categories=["1", "2", "3", "4", "5"], resamples=0)
    assert report.items == 12
    assert report.compared_items == 11  # subject 12 has a single rating
    assert report.raters_per_item == {1: 1, 2: 1, 3: 2, 4: 8}

    # By hand, per compared subject: (ratings of each category) and share of agreeing pairs.
    #  1: 1,1,1     -> 1        5: 2,2,2,2 -> 1        9: 2,2,2,2 -> 1
    #  2: 2,2,3,2   -> 6/12     6: 1,2,3,4 -> 0       10: 5,5,5   -> 1
    #  3: 3,3,3,3   -> 1        7: 4,4,4,4 -> 1       11: 1,1     -> 1
    #  4: 3,3,3,3   -> 1        8: 1,1,2,1 -> 6/12
    pa = Fraction(9, 11)
    # pi_k = mean over the 11 subjects of the share of k among the subject's ratings.
    shares = [
        {"1": 1},
        {"2": Fraction(3, 4), "3": Fraction(1, 4)},
        {"3": 1},
        {"3": 1},
        {"2": 1},
        {"1": Fraction(1, 4), "2": Fraction(1, 4), "3": Fraction(1, 4), "4": Fraction(1, 4)},
        {"4": 1},
        {"1": Fraction(3, 4), "2": Fraction(1, 4)},
        {"2": 1},
        {"5": 1},
        {"1": 1},
    ]
    pi = {k: sum((Fraction(s.get(k, 0)) for s in shares), Fraction(0)) / 11 for k in "12345"}
    ac1_pe = sum((p * (1 - p) for p in pi.values()), Fraction(0)) / 4
    fleiss_pe = sum((p * p for p in pi.values()), Fraction(0))
    assert report.percent_agreement.value == pytest.approx(float(pa), abs=1e-12)
    assert report.gwet_ac1.value == pytest.approx(float((pa - ac1_pe) / (1 - ac1_pe)), abs=1e-12)
    assert report.fleiss_kappa.value == pytest.approx(float((pa - fleiss_pe) / (1 - fleiss_pe)), abs=1e-12)
    # The same numbers from Gwet's irrCAC (0.4.4) on the eleven compared subjects, and the
    # handbook's alpha, which by its definition ignores the unpairable twelfth subject anyway.
    # (Gwet's AC1 for all twelve subjects, 0.7754, also counts subject 12 in pi: see the module notes.)
    assert report.gwet_ac1.value == pytest.approx(0.775151708719, abs=1e-11)
    assert report.fleiss_kappa.value == pytest.approx(0.762483130904, abs=1e-11)
    assert report.krippendorff_alpha.value == pytest.approx(0.743421052632, abs=1e-11)


# --------------------------------------------------------------------------- bootstrap intervals


def all_estimates(report: AgreementReport) -> list[Estimate]:
    estimates = [report.percent_agreement, report.fleiss_kappa, report.krippendorff_alpha, report.gwet_ac1]
    for pair in report.pairs:
        estimates += [pair.observed, pair.kappa]
    return estimates


def width(estimate: Estimate) -> float:
    assert estimate.low is not None and estimate.high is not None
    return estimate.high - estimate.low


def test_intervals_are_reproducible_and_follow_the_seed():
    ratings = random_ratings(4, 5, 150, 4, [20, 3, 2, 1], 0.4)
    first = agreement_report(ratings, resamples=300, seed=7)
    assert agreement_report(ratings, resamples=300, seed=7) == first
    other = agreement_report(ratings, resamples=300, seed=8)
    assert other.krippendorff_alpha.value == first.krippendorff_alpha.value
    assert other.krippendorff_alpha.low != first.krippendorff_alpha.low
    assert other.pairs[0].kappa.low != first.pairs[0].kappa.low


def test_intervals_do_not_depend_on_the_order_of_items_or_reviewers():
    ratings = random_ratings(4, 5, 150, 4, [20, 3, 2, 1], 0.4)
    rng = random.Random(0)
    items = list(ratings.items())
    rng.shuffle(items)
    shuffled = {}
    for item, row in items:
        names = list(row)
        rng.shuffle(names)
        shuffled[item] = {name: row[name] for name in names}
    assert agreement_report(shuffled, resamples=200) == agreement_report(ratings, resamples=200)


def test_a_pairs_interval_does_not_move_when_another_reviewer_joins():
    ratings = random_ratings(3, 3, 80, 3, [8, 1, 1], 0.2)
    before = agreement_report(ratings, resamples=200).pair("rev0", "rev1")
    for position, row in enumerate(ratings.values()):
        if position % 3 == 0:
            row["newcomer"] = "label0"
    after = agreement_report(ratings, resamples=200).pair("rev0", "rev1")
    assert after == before


def test_intervals_contain_the_estimate():
    for dataset in DATASETS:
        report = agreement_report(random_ratings(*dataset), resamples=400)
        for estimate in all_estimates(report):
            if estimate.value is None:
                continue
            assert estimate.low is not None and estimate.high is not None
            assert estimate.low <= estimate.value <= estimate.high, (dataset, estimate)
            assert estimate.resamples > 0


def test_intervals_narrow_with_more_items():
    small = agreement_report(random_ratings(11, 4, 100, 3, [5, 2, 1], 0.2), resamples=400)
    large = agreement_report(random_ratings(11, 4, 2500, 3, [5, 2, 1], 0.2), resamples=400)
    # 25 times the items: about a fifth of the width; half is a safe bound.
    for name in ("percent_agreement", "fleiss_kappa", "krippendorff_alpha", "gwet_ac1"):
        assert width(getattr(large, name)) < 0.5 * width(getattr(small, name)), name
    assert width(large.pair("rev0", "rev1").kappa) < 0.5 * width(small.pair("rev0", "rev1").kappa)


def test_a_lower_confidence_gives_a_nested_interval():
    ratings = random_ratings(4, 5, 150, 4, [20, 3, 2, 1], 0.4)
    wide = agreement_report(ratings, resamples=300, confidence=0.95)
    narrow = agreement_report(ratings, resamples=300, confidence=0.5)
    for outer, inner in zip(all_estimates(wide), all_estimates(narrow)):
        if outer.value is not None:
            assert outer.low <= inner.low <= inner.high <= outer.high


def test_resampling_patterns_agrees_with_resampling_items_one_by_one():
    # The report draws resamples as counts of item patterns; drawing the items themselves
    # (slow, here) must give the same distribution, so the same interval up to resampling noise.
    ratings = random_ratings(12, 3, 150, 3, [4, 2, 1], 0.25)
    report = agreement_report(ratings, resamples=1000, seed=3)
    rows = [row for row in ratings.values() if len(row) >= 2]
    rng = random.Random(99)
    alphas, ac1s = [], []
    scale = sorted({label for row in rows for label in row.values()})
    for _ in range(500):
        drawn = {position: rows[rng.randrange(len(rows))] for position in range(len(rows))}
        alphas.append(krippendorff_alpha(drawn))
        ac1s.append(gwet_ac1(drawn, scale))
    for estimate, samples in ((report.krippendorff_alpha, alphas), (report.gwet_ac1, ac1s)):
        low, high = np.quantile(samples, [0.025, 0.975])
        assert estimate.low == pytest.approx(low, abs=0.03)
        assert estimate.high == pytest.approx(high, abs=0.03)


def test_no_intervals_without_resamples_and_numpy_stays_unloaded():
    report = agreement_report(random_ratings(1, 2, 60, 2), resamples=0)
    for estimate in all_estimates(report):
        assert estimate.low is None and estimate.high is None and estimate.resamples == 0
    code = (
        "import sys\n"
        "from reviewtui.evalset.review.agreement import agreement_report\n"
        "agreement_report({1: {'a': 'x', 'b': 'y'}, 2: {'a': 'x', 'b': 'x'}}, resamples=0)\n"
        "assert 'numpy' not in sys.modules, 'numpy was imported'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_arguments_are_checked():
    with pytest.raises(ValueError):
        agreement_report({}, resamples=-1)
    with pytest.raises(ValueError):
        agreement_report({}, confidence=1.0)


# --------------------------------------------------------------------------- degenerate cases


def test_everyone_always_giving_the_same_label():
    ratings = {item: {"ann": "accepted", "bob": "accepted", "cy": "accepted"} for item in range(30)}
    report = agreement_report(ratings, resamples=100)
    # Kappa and alpha are 0/0 here; statsmodels and scikit-learn give NaN, krippendorff raises.
    assert math.isnan(sm_cohens_kappa(np.array([[30.0]]))["kappa"])
    with pytest.raises(ValueError):
        krippendorff.alpha(reliability_data=np.zeros((3, 30)), level_of_measurement="nominal")
    assert report.fleiss_kappa == Estimate(None, None, None, 0)
    assert report.krippendorff_alpha == Estimate(None, None, None, 0)
    for pair in report.pairs:
        assert pair.kappa == Estimate(None, None, None, 0)
        assert pair.observed == Estimate(1.0, 1.0, 1.0, 100)
    assert report.percent_agreement == Estimate(1.0, 1.0, 1.0, 100)
    assert report.gwet_ac1 == Estimate(1.0, 1.0, 1.0, 100)
    # On a wider scale AC1 is still 1: its chance term is 0 whenever one label has every rating.
    assert agreement_report(ratings, categories=["accepted", "rejected", "edited"], resamples=0).gwet_ac1.value == 1.0
    assert krippendorff_alpha(ratings) is None
    assert fleiss_kappa(ratings) is None
    assert cohens_kappa(ratings, "ann", "bob") is None


def test_a_resample_with_a_single_label_is_left_out_of_the_interval():
    # One disagreement among 20 items: some resamples miss it and have nothing but "a".
    ratings = {item: {"ann": "a", "bob": "a"} for item in range(19)}
    ratings[19] = {"ann": "a", "bob": "b"}
    report = agreement_report(ratings, resamples=500)
    assert report.krippendorff_alpha.value is not None
    assert 0 < report.krippendorff_alpha.resamples < 500
    assert report.gwet_ac1.resamples == 500


def test_reviewers_with_no_item_in_common():
    ratings = {1: {"ann": "accepted"}, 2: {"ann": "rejected"}, 3: {"bob": "accepted"}}
    report = agreement_report(ratings, resamples=100)
    assert report.items == 3 and report.compared_items == 0
    assert report.raters_per_item == {1: 3}
    for estimate in (report.percent_agreement, report.fleiss_kappa, report.krippendorff_alpha, report.gwet_ac1):
        assert estimate == Estimate(None)
    pair = report.pair("bob", "ann")
    assert pair.items == 0 and pair.kappa == Estimate(None) and pair.observed == Estimate(None)
    assert cohens_kappa(ratings, "ann", "bob") is None
    ann = report.reviewer("ann")
    assert ann.items == 2 and ann.share("rejected") == 0.5 and ann.shared_items == 0
    assert ann.consensus_agreement is None


def test_nothing_rated():
    report = agreement_report({"q1": {}, "q2": {"ann": None}}, resamples=100)
    assert report.reviewers == () and report.items == 0 and report.pairs == () and report.per_reviewer == ()
    assert report.gwet_ac1 == Estimate(None)
    assert percent_agreement({}) is None and gwet_ac1({}) is None


def test_two_reviewers_who_never_agree():
    ratings = {item: {"ann": "accepted", "bob": "rejected"} for item in range(10)}
    report = agreement_report(ratings, resamples=50)
    # Each used one label, different ones: chance agreement is 0 and so is kappa.
    assert report.pair("ann", "bob").kappa.value == 0.0
    assert sm_cohens_kappa(np.array([[0.0, 10.0], [0.0, 0.0]]))["kappa"] == 0.0
    assert report.percent_agreement.value == 0.0
    assert report.gwet_ac1.value == pytest.approx(-1.0)
    assert report.krippendorff_alpha.value == pytest.approx(
        krippendorff.alpha(reliability_data=np.array([[0.0] * 10, [1.0] * 10]), level_of_measurement="nominal")
    )


def test_a_single_compared_item_gives_a_zero_width_interval():
    report = agreement_report({"q": {"ann": "a", "bob": "b", "cy": "a"}}, resamples=50)
    estimate = report.percent_agreement
    assert estimate.value == estimate.low == estimate.high == pytest.approx(1 / 3)
    assert estimate.resamples == 50


def test_unrated_and_singly_rated_items():
    ratings = {
        "q1": {"ann": "a", "bob": "a", "cy": None},
        "q2": {"ann": "b", "bob": "a"},
        "q3": {"cy": "b"},
        "q4": {"ann": None},
    }
    report = agreement_report(ratings, resamples=0)
    assert report.items == 3 and report.compared_items == 2
    assert report.raters_per_item == {1: 1, 2: 2}
    assert report.reviewers == ("ann", "bob", "cy")
    assert report.reviewer("cy").items == 1 and report.reviewer("cy").shared_items == 0
    assert report.percent_agreement.value == 0.5
    # q3's lone "b" is on the scale but not in the agreement statistics.
    assert report.categories == ("a", "b")
    assert report.gwet_ac1.value == pytest.approx(
        float(plain_ac1({"q1": {"ann": "a", "bob": "a"}, "q2": {"ann": "b", "bob": "a"}}, ["a", "b"]))
    )


# --------------------------------------------------------------------------- per reviewer


def test_reviewer_summaries_and_consensus():
    ratings = {
        "q1": {"ann": "accepted", "bob": "accepted", "cy": "accepted"},  # all agree
        "q2": {"ann": "rejected", "bob": "accepted", "cy": "accepted"},  # ann against the others
        "q3": {"ann": "accepted", "bob": "rejected", "cy": "edited"},  # ann's others tie
        "q4": {"ann": "rejected", "bob": "rejected"},
        "q5": {"ann": "skipped"},
    }
    report = agreement_report(ratings, resamples=0)
    ann = report.reviewer("ann")
    assert ann.items == 5
    assert ann.label_counts == {"accepted": 2, "edited": 0, "rejected": 2, "skipped": 1}
    assert ann.share("rejected") == 0.4
    assert ann.label_shares == {"accepted": 0.4, "edited": 0.0, "rejected": 0.4, "skipped": 0.2}
    assert ann.shared_items == 4
    # q3 is a tie among bob and cy; of q1, q2, q4 ann matches the others on q1 and q4.
    assert (ann.consensus_items, ann.consensus_ties) == (3, 1)
    assert ann.consensus_agreement == pytest.approx(2 / 3)
    bob = report.reviewer("bob")
    # bob's others: q1 {ann, cy: accepted} yes; q2 {rejected, accepted} tie; q3 {accepted, edited} tie; q4 {rejected} yes.
    assert (bob.consensus_items, bob.consensus_ties, bob.consensus_agreement) == (2, 2, 1.0)
    cy = report.reviewer("cy")
    # cy's others: q1 accepted (yes); q2 tie; q3 tie.
    assert (cy.items, cy.consensus_items, cy.consensus_ties, cy.consensus_agreement) == (3, 1, 2, 1.0)
    with pytest.raises(KeyError):
        report.reviewer("nobody")


def test_consensus_is_the_unique_plurality_of_the_others():
    ratings = {
        1: {"r1": "a", "r2": "a", "r3": "a", "r4": "b", "r5": "c"},
        2: {"r1": "b", "r2": "a", "r3": "a", "r4": "b", "r5": "c"},
    }
    report = agreement_report(ratings, resamples=0)
    # r1 on item 1: others a,a,b,c -> a, agrees. On item 2: others a,a,b,c -> a, disagrees.
    r1 = report.reviewer("r1")
    assert (r1.consensus_items, r1.consensus_agreement) == (2, 0.5)
    # r5 on item 2: others b,a,a,b -> tie.
    r5 = report.reviewer("r5")
    assert (r5.consensus_items, r5.consensus_ties, r5.consensus_agreement) == (1, 1, 0.0)


def test_by_item_turns_per_reviewer_journals_around():
    per_reviewer = {"ann": {"q1": "accepted", "q2": "rejected"}, "bob": {"q2": "rejected", "q3": None}}
    assert by_item(per_reviewer) == {"q1": {"ann": "accepted"}, "q2": {"ann": "rejected", "bob": "rejected"}, "q3": {"bob": None}}
    report = agreement_report(by_item(per_reviewer), resamples=0)
    assert report.pair("ann", "bob").observed.value == 1.0
    assert Counter(report.raters_per_item) == Counter({1: 1, 2: 1})

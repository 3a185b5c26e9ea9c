"""The similarity join returns exactly the pairs that comparing all pairs returns."""

from __future__ import annotations

import random
from contextlib import contextmanager
from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reviewtui.evalset.checks import simjoin
from reviewtui.evalset.checks.simjoin import jaccard, similar_pairs


def brute_force(sets, threshold):
    """The oracle: every pair, the plain formula, two empty sets counting as identical."""
    found = []
    for i, j in combinations(range(len(sets)), 2):
        a, b = set(sets[i]), set(sets[j])
        score = 1.0 if not a and not b else len(a & b) / len(a | b)
        if score >= threshold:
            found.append((i, j))
    return found


token_sets = st.lists(st.frozensets(st.integers(0, 12), max_size=9), max_size=40)
thresholds = st.one_of(
    st.sampled_from([1.0, 0.5, 0.8, 0.82, 0.72, 0.6, 2 / 3, 1 / 3, 0.25, 0.1, 0.01]),
    st.fractions(min_value=Fraction(1, 20), max_value=1).map(float),
    st.floats(min_value=0.001, max_value=1.0),
)


@contextmanager
def vector_from(count: int):
    """Use the numpy join from ``count`` distinct sets (hypothesis cannot take pytest's monkeypatch)."""
    original = simjoin.VECTOR_FROM
    simjoin.VECTOR_FROM = count
    try:
        yield
    finally:
        simjoin.VECTOR_FROM = original


def vector_pairs(sets, threshold):
    """The numpy join (simjoin_numpy), whatever the number of sets."""
    with vector_from(2):
        return similar_pairs(sets, threshold, vectorised=True)


joins = pytest.mark.parametrize("join", [similar_pairs, vector_pairs], ids=["sweep", "numpy"])


@joins
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sets=token_sets, threshold=thresholds)
def test_join_equals_brute_force(join, sets, threshold):
    assert join(sets, threshold) == brute_force(sets, threshold)


@joins
@settings(max_examples=120, deadline=None)
@given(
    base=st.lists(st.frozensets(st.sampled_from("abcdefghij"), max_size=6), min_size=1, max_size=8),
    picks=st.lists(st.integers(0, 7), max_size=30),
    threshold=thresholds,
)
def test_join_equals_brute_force_with_many_repeats(join, base, picks, threshold):
    sets = [base[p % len(base)] for p in picks]
    assert join(sets, threshold) == brute_force(sets, threshold)


@pytest.mark.parametrize("threshold", [0.3, 0.8, 0.82, 1.0])
def test_join_on_word_sets_of_random_sentences(threshold):
    rng = random.Random(7)
    vocab = [f"w{k}" for k in range(60)]
    sets = []
    for _ in range(400):
        if sets and rng.random() < 0.3:  # a paraphrase of an earlier one
            words = set(rng.choice(sets))
            if words and rng.random() < 0.7:
                words.discard(rng.choice(sorted(words)))
            words.add(rng.choice(vocab))
            sets.append(frozenset(words))
        else:
            sets.append(frozenset(rng.sample(vocab, rng.randint(0, 12))))
    assert similar_pairs(sets, threshold) == brute_force(sets, threshold)


def test_threshold_one_pairs_only_identical_sets():
    sets = [{"a", "b"}, {"a", "b"}, {"a", "b", "c"}, {"b", "a"}]
    assert similar_pairs(sets, 1.0) == [(0, 1), (0, 3), (1, 3)]


def test_empty_sets_match_each_other_and_nothing_else():
    sets = [set(), {"a"}, set(), {"a"}, frozenset()]
    assert similar_pairs(sets, 0.5) == [(0, 2), (0, 4), (1, 3), (2, 4)]
    assert jaccard(set(), set()) == 1.0 and jaccard(set(), {"a"}) == 0.0


def test_boundary_values_are_included():
    # 4 shared of 5 distinct is exactly 0.8; 9 of 11 is 0.818.. (< 0.82); 5 of 6 is 0.833..
    sets = [set("abcd"), set("abcde"), set("abcdefghi"), set("abcdefghijk"), set("abcde") | {"z"}]
    assert (0, 1) in similar_pairs(sets, 0.8)
    assert (2, 3) not in similar_pairs(sets, 0.82)
    assert (1, 4) in similar_pairs(sets, 0.82)
    assert similar_pairs(sets, 0.8) == brute_force(sets, 0.8)


@pytest.mark.parametrize("bad", [0.0, -0.1, 1.01])
def test_threshold_out_of_range_is_refused(bad):
    with pytest.raises(ValueError, match="threshold"):
        similar_pairs([{"a"}], bad)


def test_stop_request_ends_the_join_early():
    sets = [frozenset({f"t{k}", f"t{k + 1}"}) for k in range(5000)]
    assert similar_pairs(sets, 0.3, should_stop=lambda: True) == []
    assert similar_pairs(sets, 0.3) == [(k, k + 1) for k in range(4999)]


@pytest.mark.parametrize("width", [1, 2, 3, 4, 5, 6])
def test_every_key_width_gives_the_same_pairs(monkeypatch, width):
    from reviewtui.evalset.checks import simjoin

    monkeypatch.setattr(simjoin, "_SAMPLE_FROM", 0)
    monkeypatch.setattr(simjoin, "_choose_width", lambda *args: width)
    rng = random.Random(width)
    vocab = [f"w{k}" for k in range(25)]  # few, common words: the case wide keys are for
    sets = [frozenset(rng.sample(vocab, rng.randint(0, 14))) for _ in range(300)]
    sets += [frozenset(list(s)[:-1]) for s in sets[:60]]  # near-copies
    for threshold in (0.5, 0.8, 0.82, 0.9):
        assert similar_pairs(sets, threshold) == brute_force(sets, threshold)


@settings(max_examples=60, deadline=None)
@given(sets=token_sets, threshold=thresholds)
def test_width_chosen_from_a_sample_keeps_the_result_exact(sets, threshold):
    from reviewtui.evalset.checks import simjoin

    original = (simjoin._SAMPLE_FROM, simjoin._SAMPLE_SIZE)
    simjoin._SAMPLE_FROM, simjoin._SAMPLE_SIZE = 2, 2
    try:
        assert similar_pairs(sets, threshold) == brute_force(sets, threshold)
    finally:
        simjoin._SAMPLE_FROM, simjoin._SAMPLE_SIZE = original


def as_rows(sets):
    """The same sets as rows of word numbers, the form the scan keeps them in."""
    from reviewtui.evalset.text.words import TokenRows

    rows = TokenRows()
    for tokens in sets:
        rows.add(tokens)
    return rows


@joins
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sets=st.lists(st.frozensets(st.sampled_from("abcdefghijklm"), max_size=9), max_size=40), threshold=thresholds)
def test_rows_join_as_their_sets_do(join, sets, threshold):
    assert join(as_rows(sets), threshold) == join(sets, threshold) == brute_force(sets, threshold)


@joins
def test_rows_join_as_their_sets_do_at_scale(join):
    rng = random.Random(5)
    vocab = [f"w{k}" for k in range(30)]
    sets = [frozenset(rng.sample(vocab, rng.randint(0, 9))) for _ in range(3000)]
    for threshold in (0.8, 0.5):
        assert join(as_rows(sets), threshold) == join(sets, threshold)


def test_plain_tuples_are_sets_whatever_their_order_or_repeats():
    """Only a TokenRows' rows are taken as they are; any other tuple is the set of its members."""
    from reviewtui.evalset.checks.simgroups import similar_groups

    assert similar_pairs([("b", "a"), ("a", "b")], 1.0) == [(0, 1)]
    assert similar_pairs([("a", "a", "b", "c"), ("a", "b", "c")], 1.0) == [(0, 1)]
    assert similar_pairs([frozenset(), ()], 0.8) == [(0, 1)]
    assert similar_groups([frozenset({1, 2}), (2, 1)], 1.0).pairs() == [(0, 1)]
    sets = [("x", "y", "z", "x"), ("z", "y", "x"), ("w",)]
    assert similar_pairs(sets, 0.5) == brute_force(sets, 0.5)


@pytest.mark.parametrize("threshold", [0.5, 0.8])
def test_a_plan_for_one_very_large_set_costs_about_its_size(monkeypatch, threshold):
    # One question of 125,000 distinct words (a 1 MB question) is a plan for every size up to it.
    # Reading which key widths each size's partners use from the range of their sizes cost the sum
    # of those ranges, a minute at that size; what the plan walks over is counted here.
    from reviewtui.evalset.checks import simjoin_plan

    walked = {"n": 0}

    def counted_range(*args: int) -> range:
        r = range(*args)
        walked["n"] += len(r)
        return r

    monkeypatch.setattr(simjoin_plan, "range", counted_range, raising=False)
    largest = 5_000
    plan = simjoin_plan.PrefixPlan(threshold, largest)
    assert len(plan.probe_plan) == largest + 1
    assert walked["n"] <= 20 * largest

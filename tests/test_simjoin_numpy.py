"""The numpy join finds exactly the pairs that comparing all pairs finds, as the sweep does.

The property tests against brute force run on both joins in test_simjoin.py.
"""

from __future__ import annotations

import random
import subprocess
import sys
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

from reviewtui.evalset.checks import simjoin, simjoin_numpy
from reviewtui.evalset.checks.simgroups import similar_groups
from reviewtui.evalset.checks.simjoin import similar_pairs
from reviewtui.evalset.checks.simjoin_plan import PrefixPlan
from reviewtui.evalset.text.words import TokenRows, content_tokens, word_set
from tests.test_simjoin import brute_force, vector_from, vector_pairs

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from synth import generate_evalset  # noqa: E402


def templated_sets(count: int, seed: int) -> list[frozenset[str]]:
    """Few, common words and near-copies: every prefix token is common, the case wide keys are for."""
    rng = random.Random(seed)
    vocab = [f"w{k}" for k in range(25)]
    sets = [frozenset(rng.sample(vocab, rng.randint(0, 14))) for _ in range(count)]
    return sets + [frozenset(sorted(s)[:-1]) for s in sets[: count // 5]]


@pytest.mark.parametrize("width", [1, 2, 3, 4, 5, 6])
def test_every_key_width_gives_the_same_pairs(monkeypatch, width):
    monkeypatch.setattr(simjoin, "VECTOR_FROM", 2)
    monkeypatch.setattr(simjoin_numpy, "choose_width", lambda *args: width)
    sets = templated_sets(300, width)
    for threshold in (0.5, 0.8, 0.82, 0.9):
        assert similar_pairs(sets, threshold, vectorised=True) == brute_force(sets, threshold)


def test_colliding_keys_only_add_candidates(monkeypatch):
    """With every token hashed alike, every key of one width is the same: all pairs become candidates,
    and verification alone decides. The result must not change."""
    monkeypatch.setattr(simjoin, "VECTOR_FROM", 2)
    monkeypatch.setattr(simjoin_numpy, "_mix", lambda values: values * 0)
    sets = templated_sets(120, 3)
    for threshold in (0.3, 0.8):
        assert similar_pairs(sets, threshold, vectorised=True) == brute_force(sets, threshold)


def test_the_sweep_answers_when_numpy_cannot_be_imported(monkeypatch):
    monkeypatch.setitem(sys.modules, "reviewtui.evalset.checks.simjoin_numpy", None)  # import raises ImportError
    sets = templated_sets(200, 5)
    assert vector_pairs(sets, 0.8) == brute_force(sets, 0.8)


def test_stop_request_ends_the_vector_join_early():
    sets = [frozenset({f"t{k}", f"t{k + 1}"}) for k in range(5000)]
    with vector_from(2):
        assert similar_pairs(sets, 0.3, should_stop=lambda: True, vectorised=True) == []
        assert similar_pairs(sets, 0.3, vectorised=True) == [(k, k + 1) for k in range(4999)]


@pytest.mark.parametrize(("split", "threshold"), [(word_set, 0.8), (content_tokens, 0.82)])
def test_same_pairs_as_the_sweep_on_a_synthetic_set_at_full_size(split, threshold):
    """12k templated questions: above VECTOR_FROM, so the width comes from the sampled trial as in a real scan."""
    sets = [split(item.question) for item in generate_evalset(12_000, seed=3)]
    assert len(set(sets)) >= simjoin.VECTOR_FROM
    found = similar_pairs(sets, threshold, vectorised=True)
    assert found == similar_pairs(sets, threshold)
    assert len(found) > 100  # the set has near-copies: the comparison means something


def test_templated_questions_get_wide_keys():
    """Narrow keys make every pair of templated questions a candidate (30× slower at 100k)."""
    sets = [word_set(item.question) for item in generate_evalset(12_000, seed=3)]
    assert simjoin_numpy.choose_width(list(dict.fromkeys(sets)), 0.8) >= 5


def test_the_scans_child_joins_with_numpy_and_this_process_stays_free_to_fork(tmp_path):
    """numpy's thread pool would stop the next scan from forking: only the scan's child may import it."""
    log = tmp_path / "joins.log"
    script = f"""
import os, sys
sys.path.insert(0, {str(ROOT / "benchmarks")!r})
from synth import generate_evalset
from reviewtui.evalset.checks import scan as flags
from reviewtui.evalset.checks import simjoin
from reviewtui.evalset.jobs.fork import can_fork

real = simjoin._join_distinct
def spy(distinct, threshold, should_stop, vectorised=False):
    found = real(distinct, threshold, should_stop, vectorised)
    with open({str(log)!r}, "a") as out:
        out.write(f"{{os.getpid()}} {{vectorised}} {{'numpy' in sys.modules}}\\n")
    return found
simjoin._join_distinct = spy
simjoin.VECTOR_FROM = 2
flags.scan_flags(generate_evalset(3000, seed=1), workers=2)
print(os.getpid(), "numpy" in sys.modules, can_fork())
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    parent, parent_has_numpy, parent_can_fork = done.stdout.split()
    assert (parent_has_numpy, parent_can_fork) == ("False", "True")
    joins = [line.split() for line in log.read_text().splitlines()]
    assert len(joins) == 2  # the word join and the audit's
    assert all(pid != parent and vectorised == "True" and numpy == "True" for pid, vectorised, numpy in joins)


@pytest.mark.parametrize("threshold", [0.5, 0.8, 0.95])
def test_long_sets_of_many_sizes(threshold):
    """Passages rather than questions: hundreds of sizes, long prefixes, narrow keys."""
    rng = random.Random(11)
    vocab = [f"t{k}" for k in range(3000)]
    sets = [frozenset(rng.sample(vocab, rng.randint(20, 300))) for _ in range(100)]
    for s in list(sets[:40]):  # near copies: a few tokens dropped or swapped
        words = set(s)
        for _ in range(rng.randint(1, 8)):
            words.discard(rng.choice(sorted(words)))
        words.add(rng.choice(vocab))
        sets.append(frozenset(words))
    found = vector_pairs(sets, threshold)
    assert found == brute_force(sets, threshold)
    assert found  # the near copies are there to be found


# ---------------------------------------------------------------- rows, and what the join holds at once


def _rows_and_sets(
    count: int, seed: int, vocabulary: int = 3000, smallest: int = 1, copied: float = 0.25
) -> tuple[TokenRows, list[frozenset[str]]]:
    """The same sets twice: as rows of word numbers (as a scan keeps them) and as frozensets of words."""
    rng = random.Random(seed)
    words = [f"w{k}" for k in range(vocabulary)]
    sets = [frozenset(rng.sample(words, rng.randint(smallest, 16))) for _ in range(count)]
    sets += [frozenset(sorted(s)[1:]) | {rng.choice(words)} for s in sets[: int(count * copied)]]  # near copies
    rows = TokenRows()
    for s in sets:
        rows.add(s)
    return rows, sets


@pytest.mark.parametrize("width", [2, 4, 6])
def test_rows_of_word_numbers_give_the_pairs_their_words_give(monkeypatch, width):
    """Rows rank their word numbers as they are, frozensets are numbered first: the pairs are the same."""
    monkeypatch.setattr(simjoin_numpy, "choose_width", lambda *args: width)
    rows, sets = _rows_and_sets(1500, width, vocabulary=400)
    for threshold in (0.5, 0.82):
        expected = brute_force(sets, threshold)
        assert expected
        with vector_from(2):
            assert similar_pairs(rows, threshold, vectorised=True) == expected
        assert similar_groups(rows, threshold, vectorised=True).pairs() == expected


def _traced_peak(work):
    """(result, the most memory traced at once during ``work()`` above what was traced before it)."""
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        result = work()
        peak = tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()
    return result, peak


def test_the_joins_arrays_are_never_copied_whole(monkeypatch):
    """Every array with one entry per token or per key is made once: a copy of one of them (numpy
    widening 32-bit indices, a sort by owner, the keys joined from pieces, their hashes taken at
    once) set the peak of the process running the join on a large set."""
    monkeypatch.setattr(simjoin_numpy, "_SLICE", 4096)  # small slices, so that a whole copy stands out
    rows, _ = _rows_and_sets(60_000, 1, smallest=6, copied=0.01)  # few candidates: the keys are what is large
    distinct = list(dict.fromkeys(rows))
    (sizes, ranks, starts, width), peak = _traced_peak(lambda: simjoin_numpy._ranked(distinct))
    slices = 4 * 8 * simjoin_numpy._SLICE  # what working a slice at a time costs, whatever the size
    assert ranks.dtype == np.int32 and ranks.nbytes > 2 * slices  # large enough for a copy to show
    assert peak < 1.5 * ranks.nbytes + sizes.nbytes + starts.nbytes + slices, (peak, ranks.nbytes)

    plan = PrefixPlan(0.82, int(sizes.max()), 4)
    (keys, high), peak = _traced_peak(lambda: simjoin_numpy._packed_keys(sizes, ranks, starts, width, plan, None))
    assert peak < 1.6 * keys.nbytes + slices, (peak, keys.nbytes)

    codes, peak = _traced_peak(lambda: simjoin_numpy._candidate_codes(keys, high, sizes, plan))
    assert len(codes)  # the near copies are candidates
    assert peak < 0.5 * keys.nbytes + slices, (peak, keys.nbytes)

"""A group's head, reach and the duplicate rule read only what they need, and still say what the pairs say.

Checked against brute-force pairs on small sets made to share most of their words (templates
filled in with a word of their own), with repeats and empty sets; and the work they do counted
on a template set at two sizes, where every question is linked to every other.
"""

from __future__ import annotations

import tracemalloc
from array import array
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reviewtui.evalset.checks import simgroups
from reviewtui.evalset.checks.duplicates import first_kept_duplicate
from reviewtui.evalset.checks.simgroups import GroupMembers, SimilarGroups, similar_groups
from reviewtui.evalset.checks.simjoin import jaccard
from tests.test_simgroups import _components

# A few shared stems (some sharing words with each other) and words of their own: questions of one
# stem with one own word each are all alike, with two each some are and some are not.
STEMS = [("a", "b", "c", "d"), ("a", "b", "c", "e"), ("f", "g"), ("a",), ()]


@st.composite
def template_sets(draw: st.DrawFn) -> list[frozenset[str]]:
    n = draw(st.integers(0, 24))
    sets: list[frozenset[str]] = []
    for k in range(n):
        if sets and draw(st.integers(0, 5)) == 0:  # a repeat of an earlier question's words
            sets.append(sets[draw(st.integers(0, len(sets) - 1))])
            continue
        stem = STEMS[draw(st.integers(0, len(STEMS) - 1))]
        own = draw(st.integers(0, 3))  # words no other question has (unless a repeat copies them)
        shared = draw(st.sets(st.sampled_from(["x", "y"]), max_size=1))
        # Words a few questions share, as a number two templates both fill in.
        few = draw(st.sets(st.sampled_from(["n1", "n2", "n3", "n4", "n5", "n6"]), max_size=2))
        sets.append(frozenset(stem) | {f"own{k}.{i}" for i in range(own)} | shared | few)
    return sets


def _brute_pairs(sets: list[frozenset[str]], threshold: float) -> list[tuple[int, int]]:
    return [(i, j) for i, j in combinations(range(len(sets)), 2) if jaccard(sets[i], sets[j]) >= threshold]


def _check(groups: SimilarGroups, n: int, pairs: list[tuple[int, int]], order: list[int], sets: list[frozenset[str]]) -> None:
    partners: dict[int, list[int]] = {k: [] for k in range(n)}
    for i, j in pairs:
        partners[i].append(j)
        partners[j].append(i)
    assert groups.pairs() == pairs and groups.pair_count() == len(pairs)
    assert list(groups.involved()) == [k for k in range(n) if partners[k]]
    for k in range(n):
        expected = sorted(partners[k])
        g = groups.group_of[k]
        assert groups.partners(k) == expected and groups.partner_count(k) == len(expected)
        for limit in (0, 1, 2, 5):
            assert groups.partners(k, limit) == expected[:limit]
            assert groups.group_head(g, limit) == sorted([k, *expected])[:limit]
        # Leaving some of the group's own members out, as the flags do for copies of one question.
        own = [o for o in groups.members[g] if o % 2 == 0]
        mine = set(groups.members[g])
        assert groups.group_head(g, 3, own) == sorted(o for o in [k, *expected] if o not in mine or o % 2 == 0)[:3]
        assert groups.group_reach(g) == len(expected) + 1
    assert groups.first_kept() == first_kept_duplicate(pairs)
    _check_runs_and_clusters(groups, n, pairs, sets)
    # The rule on what earlier filters left, in the order given: a position goes when a partner was kept
    # before it, and names the earliest (by position) such partner.
    kept: set[int] = set()
    expected_dropped: dict[int, int] = {}
    for k in order:
        earlier = [o for o in partners[k] if o in kept]
        if earlier:
            expected_dropped[k] = min(earlier)
        else:
            kept.add(k)
    assert groups.first_kept(order) == expected_dropped
    survivors = sorted(order)
    local = {k: i for i, k in enumerate(survivors)}
    among = [(local[i], local[j]) for i, j in pairs if i in local and j in local]
    assert groups.first_kept(survivors) == {survivors[j]: survivors[i] for j, i in first_kept_duplicate(among).items()}


def _check_runs_and_clusters(groups: SimilarGroups, n: int, pairs: list[tuple[int, int]], sets: list[frozenset[str]]) -> None:
    """Clusters, pairs of different questions, and the runs the audit counts and names its closest pairs from."""
    assert groups.clusters() == _components(n, pairs)
    across = [(i, j) for i, j in pairs if sets[i] != sets[j]]
    # The same set counts as the same question here: only pairs of different sets are listed apart.
    assert groups.pairs_apart([frozenset(s) for s in sets]) == across
    # Ruling a group's own members out of the clusters, as the audit does for copies of one question.
    same = {g for g in range(len(groups.members)) if g % 2 == 0}
    within = {(i, j) for i, j in pairs if groups.group_of[i] == groups.group_of[j] and groups.group_of[i] in same}
    assert groups.clusters(keep_group=lambda g: g not in same) == _components(n, [p for p in pairs if p not in within])
    # The runs: every pair of different sets in exactly one, one similarity each, and in each cluster the
    # three closest pairs are among those the runs name (what the audit's finding shows).
    runs = list(groups.similar_runs(3))
    assert sum(count for _, count, _ in runs) == len(across)
    cluster_of = {k: c for c, members in enumerate(groups.clusters()) for k in members}
    offered: dict[int, list[tuple[float, int, int]]] = {}
    for g, count, first in runs:
        # A boosted pair's run adds no pair (its kins' run counts it) and is left out of that run's first pairs.
        # (all of a kin's pairs may be closer ones: its own run then names none).
        assert len(first) <= (min(3, count) if count else 3) and first == sorted(first) and (first or count)
        if not first:
            continue
        scores = {jaccard(sets[i], sets[j]) for i, j in first}
        assert len(scores) == 1 and all((i, j) in across for i, j in first)
        assert all(cluster_of[k] == cluster_of[groups.members[g][0]] for pair in first for k in pair)
        offered.setdefault(cluster_of[first[0][0]], []).extend((-jaccard(sets[i], sets[j]), i, j) for i, j in first)
    for c in offered:
        best = sorted((-jaccard(sets[i], sets[j]), i, j) for i, j in across if cluster_of[i] == c)[:3]
        assert sorted(offered[c])[:3] == best


@settings(max_examples=150, deadline=None)
@given(
    template_sets(), st.sampled_from([0.5, 0.6, 0.8, 0.82, 1.0]), st.sampled_from([1, 2, 3]), st.randoms(use_true_random=False)
)
def test_heads_reach_and_the_duplicate_rule_say_what_brute_force_pairs_say(sets, threshold, rare_most, rng):
    pairs = _brute_pairs(sets, threshold)
    order = rng.sample(range(len(sets)), rng.randint(0, len(sets)))  # the rule on what earlier filters left, in any order
    for kins in (True, False):  # gathered into kins or not, the groups say the same
        _check(similar_groups(sets, threshold, kins=kins, rare_most=rare_most, kin_smallest=2), len(sets), pairs, order, sets)


@settings(max_examples=80, deadline=None)
@given(template_sets(), st.sampled_from([0.5, 0.8]), st.randoms(use_true_random=False))
def test_groups_numbered_in_any_order_with_links_in_any_order_say_the_same(sets, threshold, rng):
    """The shortcuts rely on groups numbered by first appearance and links sorted; others are read in full."""
    found = similar_groups(sets, threshold, kins=False)
    count = len(found.members)
    renumber = list(range(count))
    rng.shuffle(renumber)
    group_of = array("l", (renumber[g] for g in found.group_of))
    links = [(renumber[g], renumber[h]) for g, h in found.links]
    links = [(h, g) if rng.random() < 0.5 else (g, h) for g, h in links]
    rng.shuffle(links)
    order = rng.sample(range(len(sets)), rng.randint(0, len(sets)))
    _check(SimilarGroups(group_of, links), len(sets), _brute_pairs(sets, threshold), order, sets)


def _template(n: int) -> list[frozenset[str]]:
    return [frozenset(f"what is the thing number {i} in the warehouse inventory list".split()) for i in range(n)]


def _work(n: int, monkeypatch) -> tuple[int, int]:
    """Streams opened by every group's head, and linked groups looked at by the duplicate rule, on a template of n."""
    groups = similar_groups(_template(n), 0.8)
    assert len(groups.all_links) == n * (n - 1) // 2  # every question is like every other
    opened = looked = 0
    push, first = simgroups.heappush, GroupMembers.first

    def counted_push(heap, item):
        nonlocal opened
        opened += 1
        push(heap, item)

    def counted_first(self, g):
        nonlocal looked
        looked += 1
        return first(self, g)

    monkeypatch.setattr(simgroups, "heappush", counted_push)
    monkeypatch.setattr(GroupMembers, "first", counted_first)
    heads = [groups.group_head(g, 32) for g in range(len(groups.members))]
    assert heads[-1] == list(range(32))
    looked = 0  # the table's own check of the numbering is made once, before
    dropped = groups.first_kept()
    assert dropped == dict.fromkeys(range(1, n), 0)
    return opened, looked


def test_on_a_template_the_heads_and_the_duplicate_rule_do_work_in_proportion_to_the_questions(monkeypatch):
    small, large = _work(300, monkeypatch), _work(600, monkeypatch)
    # Twice the questions, four times the links, about twice the work: each head opens at most 33 streams
    # and each question looks at one linked group (the first question, kept, looks at none: none is kept).
    for few, many in zip(small, large):
        assert many <= 2 * few + 40
    assert large[0] <= 33 * 600 and large[1] <= 600


def test_the_neighbour_table_of_sorted_links_takes_a_few_times_their_own_size():
    # Every question linked to every other, as a template filled in with a number makes: the table of
    # sorted links is built in arrays, not from a list of Python numbers per link (about 100 bytes a
    # link, six times the links themselves, which at millions of links was hundreds of megabytes at once).
    n = 400
    links = [(i, j) for i in range(n) for j in range(i + 1, n)]
    groups = SimilarGroups(array("q", range(n)), links)
    tracemalloc.start()
    try:
        groups.neighbours(0)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    link_bytes = 16 * len(links)
    assert peak < 4 * link_bytes
    assert groups.neighbours(0) == list(range(1, n)) and groups.neighbours(n - 1) == list(range(n - 1))
    assert groups.neighbours(7) == [*range(7), *range(8, n)]


@pytest.fixture
def joined(monkeypatch) -> list[int]:
    """How many sets each similarity join was asked to compare, in order."""
    sizes: list[int] = []
    join = simgroups.simjoin._join_distinct

    def counted(distinct, *args):
        sizes.append(len(distinct))
        return join(distinct, *args)

    monkeypatch.setattr(simgroups.simjoin, "_join_distinct", counted)
    return sizes


def test_a_template_filled_in_with_a_number_is_one_kin_and_the_join_sees_one_set(joined):
    """Above the size where a sample decides: 20,000 questions, every pair similar, held as one kin.

    Before kins the links were the pairs (200 million here; 8,000 questions took 64 s and 4.8 GB in
    the audit); the join now runs on one set of each kin, and what the groups hold grows with the questions.
    """
    n = 20_000
    assert n > simgroups._KIN_SAMPLE_FROM * 4
    groups = similar_groups(_template(n), 0.8)
    assert joined == [] and len(groups.kin_links) == 0  # one kin: nothing to join it with
    assert groups.kin_groups is not None and len(groups.kin_groups) == 1 and len(groups.links) == 0
    assert groups.pair_count() == n * (n - 1) // 2 and groups.partner_count(n - 1) == n - 1
    assert groups.group_head(n - 1, 5) == [0, 1, 2, 3, 4] and groups.partners(0, 3) == [1, 2, 3]
    assert groups.first_kept() == dict.fromkeys(range(1, n), 0)
    assert groups.clusters() == [list(range(n))]
    ((g, count, first),) = groups.similar_runs(3)
    assert (g, count, first) == (0, n * (n - 1) // 2, [(0, 1), (0, 2), (0, 3)])
    # Two templates and a question of neither: a kin each, linked where their sets are alike.
    words = "which form must a licensed contractor file with the county before digging a trench near".split()
    first = [frozenset([*words, f"site{i}"]) for i in range(n)]
    second = [frozenset([*words, "buried", f"site{i}"]) for i in range(n, 2 * n)]
    groups = similar_groups([*first, *second, frozenset({"unrelated"})], 0.8)
    assert joined == [3] and len(groups.kin_groups) == 3 and list(groups.kin_links) == [(0, 1)]
    assert jaccard(first[0], second[0]) >= 0.8  # 16 of 19 words
    assert groups.pair_count() == 2 * (n * (n - 1) // 2) + n * n


def test_real_questions_are_not_gathered_into_kins_unless_a_sample_finds_two_of_one():
    """Counting every token costs time: a set whose sample shows no kin is joined as it is."""
    import random

    rng = random.Random(3)
    words = [f"w{k}" for k in range(3000)]
    sets = [frozenset(rng.choices(words, k=8)) for _ in range(8000)]  # rare words galore, no template
    assert len(set(sets)) > simgroups._KIN_SAMPLE_FROM
    groups = similar_groups(sets, 0.8)
    assert groups.kin_groups is None
    assert groups == similar_groups(sets, 0.8, kins=False)


def test_templates_that_fill_in_the_same_numbers_are_kins_with_their_shared_numbers_looked_at_pair_by_pair(joined):
    """Two templates alike, filled in with the same numbers, and a third unlike them using them too: a number is
    held by three sets, not one, and is still set aside; the pairs sharing one are looked at one by one."""
    n = 10_000
    words = "which form must a licensed contractor file with the county before digging a trench near".split()
    first = [frozenset([*words, f"site{i}"]) for i in range(n)]
    second = [frozenset([*words, "buried", f"site{i}"]) for i in range(n)]
    third = [frozenset(["how", "many", "inspectors", "visit", f"site{i}"]) for i in range(n)]
    groups = similar_groups([*first, *second, *third], 0.8)
    # The third template's questions share too little to be alike (4 of 6 words): each its own kin.
    assert groups.kin_groups is not None and len(groups.kin_groups) == 2 + n and joined == [2 + n]
    assert list(groups.kin_links) == [(0, 1)] and len(groups.links) == 0
    assert list(groups.boosted) == [(i, n + i) for i in range(n)]  # the same number in both: 17 of 18 words
    assert groups.pair_count() == 2 * (n * (n - 1) // 2) + n * n
    assert groups.group_head(n, 3) == [0, 1, 2] and groups.group_reach(n) == 2 * n and groups.group_reach(2 * n) == 1
    runs = list(groups.similar_runs(3))
    assert runs[:2] == [(0, n * (n - 1) // 2, [(0, 1), (0, 2), (0, 3)]), (n, n * (n - 1) // 2, [(n, n + 1), (n, n + 2), (n, n + 3)])]
    # The two kins' run names its first pairs but the boosted ones, which come as runs of their own.
    assert runs[2] == (0, n * n, [(0, n + 1), (0, n + 2), (0, n + 3)]) and runs[3] == (0, 0, [(0, n)])
    assert len(runs) == 3 + n


def test_a_shared_rare_word_can_link_two_sets_their_kins_do_not_and_make_a_pair_of_one_kin_closer():
    """The two cases a rare word shared by a few sets makes, each checked against brute force."""
    sets = [
        frozenset("a b c d n1 own0".split()),  # a kin of three (a b c d and two rare words each, half alike) ...
        frozenset("a b c d n1 own1".split()),  # ... two of which share n1: closer than their kin's other pairs
        frozenset("a b c d own2 own3".split()),
        frozenset("a b c e n2".split()),  # a kin of three (a b c e and one rare word each) ...
        frozenset("a b c e own4".split()),
        frozenset("a b c d n2".split()),  # ... and a set that shares n2 with one of them: linked through it alone
        frozenset("a b c d own5".split()),  # (with this one, a kin of a b c d and one rare word, linked to the first)
        frozenset("a b c e own6".split()),
    ]
    groups = similar_groups(sets, 0.5, kins=True, rare_most=2, kin_smallest=2)
    assert groups.kin_groups is not None and [list(m) for m in groups.kin_groups] == [[0, 1, 2], [3, 4, 7], [5, 6]]
    assert list(groups.boosted) == [(0, 1)] and list(groups.links) == [(3, 5)] and list(groups.kin_links) == [(0, 2)]
    pairs = _brute_pairs(sets, 0.5)
    _check(groups, len(sets), pairs, list(range(len(sets)))[::-1], sets)
    runs = list(groups.similar_runs(3))
    assert runs[0] == (0, 3, [(0, 2), (1, 2)])  # the kin's pairs but the closer one, which is a run of its own
    assert (0, 0, [(0, 1)]) in runs and (3, 1, [(3, 5)]) in runs


def _lines_run_in_simgroups(work) -> int:
    """How many lines of simgroups' own code ``work()`` runs: its work, counted, not timed."""
    import sys

    counted = 0
    where = simgroups.__file__

    def on_line(frame, event, arg):
        nonlocal counted
        if event == "line":
            counted += 1
        return on_line

    def on_call(frame, event, arg):
        return on_line if frame.f_code.co_filename == where else None

    sys.settrace(on_call)
    try:
        work()
    finally:
        sys.settrace(None)
    return counted


def _copies_then_closer_pairs(copies: int, copied_alone: bool) -> list[frozenset[str]]:
    """A question asked ``copies`` times, then two more sharing a rare word with it and each other: every pair
    of different sets among them is a closer pair of a kin (``copied_alone``: the copies are a kin of their
    own, linked to the kin of the other two), with 40 questions of a kin of their own that keep the shared
    words common."""
    core = [f"c{k}" for k in range(20)]
    fillers = [frozenset([*core, "w", f"u{i}"]) for i in range(40)]
    first, second = frozenset([*core, "x", "p"]), frozenset([*core, "x", "q"])
    if copied_alone:
        return [frozenset([*core, "x"])] * copies + [first, second] + fillers
    return [first] * copies + [second, frozenset([*core, "x", "r"])] + fillers


def test_naming_the_first_pairs_of_a_run_never_walks_every_later_position_for_every_position():
    """Where a question asked thousands of times has only closer partners (pairs that share a rare word, which
    its kin's run leaves out), each copy finds no pair of that run: walking every later position for each
    copy was the square of the copies (a few seconds at 4,000, minutes at 40,000)."""
    for copied_alone in (False, True):
        sets = _copies_then_closer_pairs(30, copied_alone)
        groups = similar_groups(sets, 0.82, kins=True, kin_smallest=2)
        assert len(groups.boosted) == 3 and len(groups.links) == 0  # every pair of different sets among the three
        _check(groups, len(sets), _brute_pairs(sets, 0.82), list(range(len(sets))), sets)
        work = []
        for copies in (1000, 2000):
            groups = similar_groups(_copies_then_closer_pairs(copies, copied_alone), 0.82, kins=True, kin_smallest=2)
            runs: list = []
            work.append(_lines_run_in_simgroups(lambda groups=groups, runs=runs: runs.extend(groups.similar_runs(3))))
            assert sum(count for _, count, _ in runs) == groups.pair_count() - copies * (copies - 1) // 2
        assert work[1] <= 2 * work[0] + 2000, work


def _template_and_its_neighbours(n: int, modifiers: int) -> list[frozenset[str]]:
    """A template of 30 words filled in with n numbers (one kin), then a question for each two of ``modifiers``
    words: the template's words, those two and a number of the template's, each a kin of its own linked to the
    template's kin and closer to the question that shares its number."""
    words = [f"t{k}" for k in range(30)]
    sets = [frozenset([*words, f"unit{i}"]) for i in range(n)]
    pairs = combinations([f"m{k}" for k in range(modifiers)], 2)
    return sets + [frozenset([*words, a, b, f"unit{j}"]) for j, (a, b) in enumerate(pairs)]


def test_naming_the_first_pairs_of_linked_kins_with_closer_pairs_reads_their_first_positions_not_every_one():
    """A large kin linked to many small ones, each with a closer pair in it: reading the whole large kin for each
    link was the large kin's size times the links (7.8 s for 20,000 questions and 780 such links)."""
    # A word held by at most three sets is rare here, so that a few modifiers are common words.
    sets = _template_and_its_neighbours(25, 5)
    groups = similar_groups(sets, 0.82, kins=True, rare_most=3, kin_smallest=2)
    assert groups.kin_groups is not None and len(groups.kin_groups) == 11 and len(groups.boosted) == 10
    _check(groups, len(sets), _brute_pairs(sets, 0.82), list(range(len(sets)))[::-1], sets)
    work = []
    for n in (2000, 4000):
        groups = similar_groups(_template_and_its_neighbours(n, 16), 0.82, kins=True, rare_most=3, kin_smallest=2)
        assert len(groups.boosted) == 120 and len(groups.kin_links) == 120 + 120 * 119 // 2  # the others are alike too
        runs: list = []
        work.append(_lines_run_in_simgroups(lambda groups=groups, runs=runs: runs.extend(groups.similar_runs(3))))
        assert sum(count for _, count, _ in runs) == groups.pair_count()
        assert runs[1] == (0, n, [(1, n), (2, n), (3, n)])  # the template and the first other question, but their closer pair
    # What grows with the template is read a few times (its own kin's run, the tables), not once per link: 2,000
    # more questions read for each of the 120 links cost about 1,900 lines a question.
    assert work[1] - work[0] < 50 * 2000, work


def test_only_classes_of_kin_smallest_sets_or_more_are_gathered_and_the_answers_do_not_change():
    """A class of a few sets makes a few links; gathered, the pairs its rare words make cost more than it saves."""
    words = "which form must a licensed contractor file with the county before digging".split()

    def template(count: int, stem: str) -> list[frozenset[str]]:
        return [frozenset([*words, stem, f"{stem}{i}"]) for i in range(count)]

    for count, gathered in ((simgroups.KIN_SMALLEST - 1, False), (simgroups.KIN_SMALLEST, True)):
        # "trench" held by more than RARE_MOST sets, so that the smaller template's own word is not a rare one.
        others = [frozenset({"trench", "ditch", f"depth{i}"}) for i in range(simgroups.RARE_MOST)]
        sets = template(count, "trench") + template(40, "pipe") + others
        groups = similar_groups(sets, 0.8, kins=True)
        sizes = sorted(len(m) for m in groups.kin_groups) if groups.kin_groups is not None else []
        assert (count in sizes) == gathered and 40 in sizes  # the template of 40 is a kin either way
        assert groups.pairs() == _brute_pairs(sets, 0.8)


@settings(max_examples=150, deadline=None)
@given(
    template_sets(),
    st.sampled_from([0.5, 0.8, 0.82]),
    st.booleans(),
    st.integers(min_value=1, max_value=4),
    st.randoms(use_true_random=False),
)
def test_the_pairs_apart_are_counted_without_listing_them(sets, threshold, kins, kinds, rng):
    # The goldensetauditor profile lists every pair of different questions; it first counts them, so that a set
    # of templates (a billion pairs) is refused in words instead of filling the memory.
    groups = similar_groups(sets, threshold, kins=kins, kin_smallest=2)
    forms = [(" ".join(sorted(s)), rng.randrange(kinds)) for s in sets]  # equal sets may still differ in form
    assert groups.pair_count_apart(forms) == len(groups.pairs_apart(forms))
    assert groups.pair_count_apart(list(range(len(sets)))) == groups.pair_count()  # every form its own
    assert groups.pair_count_apart(["one"] * len(sets)) == 0


def test_a_templates_pairs_are_counted_in_a_pass_over_its_questions():
    groups = similar_groups(_template(20_000), 0.8)
    assert groups.pair_count_apart(list(range(20_000))) == 20_000 * 19_999 // 2
    forms = [k % 3 for k in range(20_000)]  # three forms: the pairs inside each are not counted
    sizes = [len(range(f, 20_000, 3)) for f in range(3)]
    assert groups.pair_count_apart(forms) == (20_000**2 - sum(n * n for n in sizes)) // 2

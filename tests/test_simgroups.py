"""SimilarGroups answers every question the checks ask of the pairs, without listing them: checked against the pairs."""

from __future__ import annotations

import random

import pytest

from reviewtui.evalset.checks.duplicates import first_kept_duplicate
from reviewtui.evalset.checks.simgroups import similar_groups
from reviewtui.evalset.checks.simjoin import similar_pairs


def _sets(seed: int, n: int, vocabulary: int, empty_share: float = 0.05) -> list[frozenset[str]]:
    rng = random.Random(seed)
    words = [f"w{k}" for k in range(vocabulary)]
    return [
        frozenset() if rng.random() < empty_share else frozenset(rng.choices(words, k=rng.randint(1, 6)))
        for _ in range(n)
    ]


def _components(n: int, pairs: list[tuple[int, int]]) -> list[list[int]]:
    parent = list(range(n))

    def root(k: int) -> int:
        while parent[k] != k:
            k = parent[k]
        return k

    for i, j in pairs:
        ri, rj = root(i), root(j)
        if ri != rj:
            parent[max(ri, rj)] = min(ri, rj)
    found: dict[int, list[int]] = {}
    for k in range(n):
        found.setdefault(root(k), []).append(k)
    return sorted((m for m in found.values() if len(m) > 1), key=lambda m: m[0])


CASES = [(seed, n, vocabulary) for seed in range(4) for n, vocabulary in ((60, 6), (300, 12), (400, 40))]


@pytest.mark.parametrize(("seed", "n", "vocabulary"), CASES)
@pytest.mark.parametrize("threshold", [0.5, 0.8])
def test_groups_say_what_the_pairs_say(seed, n, vocabulary, threshold):
    sets = _sets(seed, n, vocabulary)
    pairs = similar_pairs(sets, threshold)
    groups = similar_groups(sets, threshold)
    assert groups.pairs() == pairs and groups.pair_count() == len(pairs)
    partners: dict[int, list[int]] = {}
    for i, j in pairs:
        partners.setdefault(i, []).append(j)
        partners.setdefault(j, []).append(i)
    assert list(groups.involved()) == sorted(partners)
    for k in range(n):
        expected = sorted(partners.get(k, []))
        assert groups.partners(k) == expected and groups.partner_count(k) == len(expected)
        assert groups.partners(k, limit=3) == expected[:3]
        g = groups.group_of[k]  # a group's head serves every member: its partners are the head without itself
        assert [o for o in groups.group_head(g, 4) if o != k][:3] == expected[:3]
        assert groups.group_reach(g) == len(expected) + 1
    assert groups.first_kept() == first_kept_duplicate(pairs)
    rng = random.Random(seed)
    survivors = sorted(rng.sample(range(n), n // 2))  # the filter on what earlier filters left
    local = {k: i for i, k in enumerate(survivors)}
    among = [(local[i], local[j]) for i, j in pairs if i in local and j in local]
    assert groups.first_kept(survivors) == {survivors[j]: survivors[i] for j, i in first_kept_duplicate(among).items()}
    assert groups.clusters() == _components(n, pairs)


@pytest.mark.parametrize(("seed", "n", "vocabulary"), CASES)
def test_empty_sets_can_be_left_unpaired_and_a_group_can_be_ruled_out(seed, n, vocabulary):
    sets = _sets(seed, n, vocabulary, empty_share=0.2)
    groups = similar_groups(sets, 0.8, skip_empty=True)
    kept = [k for k, s in enumerate(sets) if s]
    expected = sorted((kept[i], kept[j]) for i, j in similar_pairs([sets[k] for k in kept], 0.8))
    assert groups.pairs() == expected and groups.empty == -1
    # A group whose members count as one (the same question asked twice) links nothing by itself.
    same = {g for g, m in enumerate(groups.members) if len(m) > 1 and g % 2 == 0}
    within = {(i, j) for g in same for i in groups.members[g] for j in groups.members[g] if i < j}
    assert groups.clusters(keep_group=lambda g: g not in same) == _components(n, [p for p in expected if p not in within])


def test_on_a_small_vocabulary_the_groups_grow_far_slower_than_the_pairs():
    """The point of the groups: from 10k to 40k questions drawn from 20 words the pairs grow sixteenfold, the groups do not."""
    words = [f"w{k}" for k in range(20)]
    sizes = {}
    for n in (10_000, 40_000):
        rng = random.Random(0)
        groups = similar_groups([frozenset(rng.choices(words, k=rng.randint(4, 7))) for _ in range(n)], 0.8)
        sizes[n] = (len(groups.members) + len(groups.links), groups.pair_count())
    (held_small, pairs_small), (held_large, pairs_large) = sizes[10_000], sizes[40_000]
    assert pairs_large / pairs_small > 12  # about the square of 4
    assert held_large / held_small < 6  # what the groups hold: no more than about linear


@pytest.mark.parametrize(("seed", "n", "vocabulary"), CASES[:6])
@pytest.mark.parametrize("skip_empty", [False, True])
def test_groups_sent_to_another_process_rebuild_their_members(seed, n, vocabulary, skip_empty):
    # The scan's child pickles its groups without their members (one small array each costs more to
    # send than to rebuild); the parent must see the same groups.
    import pickle

    sets = _sets(seed, n, vocabulary)
    sets[3:6] = [frozenset()] * 3  # empty sets: one group, or a group each with skip_empty
    groups = similar_groups(sets, 0.5, skip_empty=skip_empty)
    groups.involved()  # tables worked out before sending are not sent, and are rebuilt on use
    received = pickle.loads(pickle.dumps(groups, protocol=pickle.HIGHEST_PROTOCOL))
    assert "members" not in groups.__getstate__()
    assert received.members == groups.members and received.group_of == groups.group_of
    assert received.links == groups.links and received.empty == groups.empty
    assert received.pairs() == groups.pairs() and received.involved() == groups.involved()
    assert [received.partners(k) for k in range(n)] == [groups.partners(k) for k in range(n)]
    empty = pickle.loads(pickle.dumps(similar_groups([], 0.5)))
    assert empty.members == [] and empty.pairs() == []


@pytest.mark.parametrize(("seed", "n", "vocabulary"), CASES[:6])
@pytest.mark.parametrize("skip_empty", [False, True])
def test_rows_give_the_groups_their_sets_give(seed, n, vocabulary, skip_empty):
    from reviewtui.evalset.text.words import TokenRows

    sets = _sets(seed, n, vocabulary, empty_share=0.2)
    rows = TokenRows()
    for tokens in sets:
        rows.add(tokens)
    for threshold in (0.5, 0.8, 1.0):
        by_rows = similar_groups(rows, threshold, skip_empty=skip_empty)
        by_sets = similar_groups(sets, threshold, skip_empty=skip_empty)
        assert list(by_rows.group_of) == list(by_sets.group_of)
        assert by_rows.links == by_sets.links and by_rows.empty == by_sets.empty
        assert by_rows.pairs() == by_sets.pairs()


@pytest.mark.parametrize("seed", range(6))
def test_members_and_links_are_what_lists_of_them_would_be(seed):
    import pickle
    from array import array

    from reviewtui.evalset.checks.simgroups import GroupMembers, LinkList

    rng = random.Random(seed)
    n = rng.randrange(0, 300)
    first_seen: dict[int, int] = {}
    group_of = array("l", (first_seen.setdefault(rng.randrange(1 + n // 3), len(first_seen)) for _ in range(n)))
    naive = [array("l", (k for k in range(n) if group_of[k] == g)) for g in range(len(first_seen))]
    members = GroupMembers(group_of)
    assert len(members) == len(naive) and list(members) == naive and members == naive
    assert [members[g] for g in range(len(naive))] == naive and members[-1:] == naive[-1:]
    assert [members.size(g) for g in range(len(naive))] == [len(m) for m in naive]
    assert [members.first(g) for g in range(len(naive))] == [m[0] for m in naive]
    with pytest.raises(IndexError):
        members[len(naive)]
    pairs = sorted({tuple(sorted(rng.sample(range(len(naive)), 2))) for _ in range(20)}) if len(naive) > 1 else []
    links = LinkList(pairs)
    assert list(links) == pairs and links == pairs and len(links) == len(pairs)
    assert [links[i] for i in range(len(pairs))] == pairs and links[1:3] == pairs[1:3]
    assert pickle.loads(pickle.dumps(links)) == links


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("shuffled", [False, True])
def test_each_groups_neighbours_come_ascending_whatever_the_order_of_the_links(seed, shuffled):
    from array import array

    from reviewtui.evalset.checks.simgroups import SimilarGroups

    rng = random.Random(seed)
    count = rng.randrange(2, 60)
    group_of = array("l", range(count))
    links = sorted({tuple(sorted(rng.sample(range(count), 2))) for _ in range(rng.randrange(0, 3 * count))})
    if shuffled:
        rng.shuffle(links)
        links = [(h, g) if rng.random() < 0.3 else (g, h) for g, h in links]  # some written the other way round
    groups = SimilarGroups(group_of, links)
    expected = {g: sorted({h for pair in links if g in pair for h in pair if h != g}) for g in range(count)}
    assert [groups.neighbours(g) for g in range(count)] == [expected[g] for g in range(count)]
    assert groups.neighbours(-1) == [] and groups.neighbours(count) == []  # no such group: no neighbours
    assert list(groups.involved()) == [g for g in range(count) if expected[g]]


@pytest.mark.parametrize(("seed", "n", "vocabulary"), CASES)
def test_clusters_of_groups_without_kins_are_those_of_the_same_groups_each_a_kin_of_its_own(seed, n, vocabulary):
    # Where no group has a kin, the clusters are read from the groups with a link or a copy alone; spelled out as
    # kins of one group each, the same groups and links go the general way, and must give the same clusters.
    from array import array

    from reviewtui.evalset.checks.simgroups import SimilarGroups

    groups = similar_groups(_sets(seed, n, vocabulary), 0.5, kins=False)
    assert groups.kin_of is None
    each_its_own = SimilarGroups(groups.group_of, groups.links, groups.empty, kin_of=array("l", range(len(groups.members))))
    rng = random.Random(seed)
    ruled_out = set(rng.sample(range(len(groups.members)), len(groups.members) // 3))
    for keep in (lambda g: True, lambda g: g not in ruled_out):
        assert groups.clusters(keep) == each_its_own.clusters(keep)
    assert list(groups.members.shared()) == [g for g in range(len(groups.members)) if groups.members.size(g) > 1]

"""The tables a scan holds through its peak keep a position, a group or a count in four bytes where it fits
(issue #16: the 20-word audit's memory goal). Each still reads as before, and a set too large for four
bytes gets eight.
"""

from __future__ import annotations

import random
from array import array

import pytest

from reviewtui.evalset.checks import findings as findings_mod
from reviewtui.evalset.checks.findings import NearDuplicateFlags, PiecedFlag, _Pieces
from reviewtui.evalset.checks.simgroups import LinkList, SimilarGroups, index_kind, similar_groups
from reviewtui.evalset.model.flag import Flag, Severity
from reviewtui.evalset.model.items import EvalItem

_WORDS = "saddle glacier signal canyon timber velvet thunder lantern ember marble".split()


def _word_sets(n: int, seed: int = 5) -> list[frozenset[str]]:
    rng = random.Random(seed)
    return [frozenset(rng.sample(_WORDS, rng.randint(3, 5))) for _ in range(n)]


def test_numbers_below_two_thousand_million_take_four_bytes_and_larger_ones_eight():
    assert array(index_kind(2**31), [2**31 - 1]).itemsize == 4
    assert index_kind(2**31 + 1) == "q"
    assert array(index_kind(2**40), [2**40 - 1])[0] == 2**40 - 1
    wide = LinkList([(0, 2**40)], groups=2**41)
    assert list(wide) == [(0, 2**40)]
    with pytest.raises(OverflowError):  # four bytes would not hold it: a count given must be the truth
        LinkList([(0, 2**40)], groups=2**31)


def test_the_joins_positions_links_and_tables_are_four_bytes_a_number_and_read_as_before():
    sets = _word_sets(400)
    groups = similar_groups(sets, 0.6)
    assert len(groups.links) > 50  # enough links to mean something
    arrays = {
        "members": groups.members._packed(),
        "links": groups.links._packed(),
        "link table": groups._table().groups,
        "involved": (groups.involved(),),
    }
    for name, packed in arrays.items():
        assert all(part.itemsize == 4 for part in packed), name
    # Read as before: each group's members and partners as the sets say
    for g in range(len(groups.members)):
        assert list(groups.members[g]) == [k for k, s in enumerate(sets) if s == sets[groups.members[g][0]]]
    for g, h in groups.links:
        a, b = sets[groups.members[g][0]], sets[groups.members[h][0]]
        assert len(a & b) / len(a | b) >= 0.6
    # links given in any order are tabled the same way, in the links' own kind
    shuffled = list(groups.links)
    random.Random(1).shuffle(shuffled)
    again = SimilarGroups(groups.group_of, [(h, g) for g, h in shuffled])
    assert again._table().groups == groups._table().groups
    assert again._table().groups[1].itemsize == 4


def _items(n: int) -> list[EvalItem]:
    return [EvalItem(f"item-{k}", f"Question {k}?") for k in range(n)]


def test_a_kept_near_duplicate_flag_reads_back_whatever_its_severity_pieces_and_related_items():
    items = _items(60)
    flags = NearDuplicateFlags(items)
    expected: dict[int, Flag] = {}
    for k, severity in enumerate(Severity):
        reason = _Pieces("nearly the same question as ")
        reason.ids(list(range(10, 10 + k + 1)), total=k + 1)
        reason.text(f" (figure {k})")
        related = list(range(20, 20 + 4 * k))  # none for the first
        flags.add(k, severity, reason, related)
        pieces = tuple(f"item-{p}" if j % 2 else p for j, p in enumerate(reason.parts))
        expected[k] = PiecedFlag("near-duplicate", severity, pieces, tuple(f"item-{p}" for p in related))
    plain = _Pieces("counts as a duplicate only because neither has a word")  # one piece: a plain Flag
    flags.add(40, Severity.LOW, plain, [41, 42])
    for k, flag in expected.items():
        assert flags.flag(k) == flag and flags.severity(k) == flag.severity
    assert flags.flag(40) == Flag("near-duplicate", Severity.LOW, plain.parts[0], ("item-41", "item-42"))
    assert type(flags.flag(40)) is Flag and flags.flag(5) is None and 5 not in flags
    # One number per flag besides its pieces and related items
    assert len(flags._data) == sum(1 + (2 * k + 3) + 4 * k for k in range(len(Severity))) + (1 + 1 + 2)


def test_a_flag_too_large_for_its_header_is_refused_not_misread():
    flags = NearDuplicateFlags(_items(3))
    reason = _Pieces("x")
    for _ in range(findings_mod._MOST_PIECES // 2):
        reason.quoted(1)
    with pytest.raises(ValueError, match="more than is kept"):
        flags.add(0, Severity.LOW, reason, [1])
    assert 0 not in flags

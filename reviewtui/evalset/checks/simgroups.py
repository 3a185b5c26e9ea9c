"""Similar questions kept as groups of identical token sets and links between groups, never as item pairs.

The similarity join (:mod:`.simjoin`) already works on *distinct* token sets: a set
repeated a thousand times is probed once. Turning its result into item pairs undoes
that: two sets held by m and m' questions make m·m' pairs, and a group of m identical
sets makes m(m-1)/2. On a set whose questions come from a small vocabulary, 100k
questions give over a million such pairs and 1M questions over a hundred million, so
anything that stores pairs grows with the square of the set.

:class:`SimilarGroups` keeps what the join found at its own level: which group (distinct
set) each position holds, the positions of each group, and the links between groups
whose sets reach the threshold. That is linear in the number of questions plus the
number of linked distinct sets, which a fixed vocabulary bounds. Everything the checks
need is read from it without listing pairs: how many pairs there are, the partners of
one item (the first few, and how many in all), the order-dependent duplicate filter's
verdicts, and the connected clusters. :meth:`SimilarGroups.pairs` still lists every pair
for the callers whose documented result is a list of pairs.
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Callable, Collection, Hashable, Iterable, Iterator, Mapping, Sequence
from heapq import heappop, heappush, heapreplace
from itertools import accumulate, chain, combinations, compress, islice, repeat
from itertools import count as count_up
from operator import add, gt, le, lt, or_, sub
from random import Random
from typing import TypeVar, overload

from reviewtui.evalset.checks import simjoin
from reviewtui.evalset.checks.simjoin import jaccard, set_key
from reviewtui.evalset.checks.simjoin_plan import SetKey
from reviewtui.evalset.jobs.collector import gc_paused
from reviewtui.evalset.text.words import TokenRows

__all__ = ["SimilarGroups", "similar_groups"]

T = TypeVar("T")


def index_kind(bound: int) -> str:
    """The array type for numbers below ``bound`` (positions, groups, counts of them): four bytes where they fit.

    Where every question has partners, the tables of positions and links are held through the scan's
    peak, and eight bytes per number were twice what they needed below two thousand million.
    """
    return "i" if bound <= 2**31 else "q"


class _Packed(Sequence[T]):
    """A read-only sequence kept in flat arrays: indexing, slices, equality and repr, from ``_at`` and ``_packed``.

    Equal to another of its kind when its arrays are equal, and to any sequence of the same
    entries (a list of arrays, a list of pairs), as the lists it replaces were.
    """

    __slots__ = ()

    def _at(self, i: int) -> T:
        """Entry ``i``, in range."""
        raise NotImplementedError

    def _packed(self) -> tuple[array, ...]:
        """The arrays that hold every entry."""
        raise NotImplementedError

    @overload
    def __getitem__(self, i: int) -> T: ...
    @overload
    def __getitem__(self, i: slice) -> list[T]: ...
    def __getitem__(self, i: int | slice) -> T | list[T]:
        if isinstance(i, slice):
            return [self._at(j) for j in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(f"{type(self).__name__} index {i} out of range")
        return self._at(i)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, type(self)):
            return self._packed() == other._packed()
        if isinstance(other, Sequence):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({list(self)!r})"


class GroupMembers(_Packed[array]):
    """The positions of each group, ascending: ``members[g]``.

    Kept as one array of every position, grouped, and where each group starts in it: a
    set of 100k questions has nearly as many groups, and one small array per group cost
    ten times the memory. ``members[g]`` is a copy of that group's slice.
    """

    __slots__ = ("_order", "_starts")

    def __init__(self, group_of: Sequence[int]) -> None:
        count = max(group_of) + 1 if len(group_of) else 0
        kind = index_kind(len(group_of) + 1)  # positions, and where a group starts among them
        starts = array(kind, [0]) * (count + 1)
        for g in group_of:
            starts[g + 1] += 1
        for g in range(count):
            starts[g + 1] += starts[g]
        fill = array("q", starts)
        order = array(kind, [0]) * len(group_of)
        for position, g in enumerate(group_of):
            order[fill[g]] = position
            fill[g] += 1
        self._order, self._starts = order, starts

    def __len__(self) -> int:
        return len(self._starts) - 1

    def _at(self, g: int) -> array:
        starts = self._starts
        return self._order[starts[g] : starts[g + 1]]

    def _packed(self) -> tuple[array, ...]:
        return self._order, self._starts

    def __iter__(self) -> Iterator[array]:
        order, starts = self._order, self._starts
        for g in range(len(starts) - 1):
            yield order[starts[g] : starts[g + 1]]

    def size(self, g: int) -> int:
        """How many positions group ``g`` holds (without copying them)."""
        return self._starts[g + 1] - self._starts[g]

    def first(self, g: int) -> int:
        """The first position of group ``g``."""
        return self._order[self._starts[g]]

    def shared(self) -> Iterator[int]:
        """The groups of two positions or more, ascending (which they are is worked out in C, not a step per group:
        on a set of mostly distinct questions nearly every group holds one)."""
        starts = self._starts
        return compress(range(len(starts) - 1), map(gt, map(sub, islice(starts, 1, None), starts), repeat(1)))


class LinkList(_Packed[tuple[int, int]]):
    """Links between groups, ``(g, h)`` pairs in one flat array: a tuple each cost seven times as much.

    ``groups``: how many groups there are, where known (four bytes a number below 2**31 of them).
    """

    __slots__ = ("_flat",)

    def __init__(self, links: Iterable[tuple[int, int]] = (), groups: int | None = None) -> None:
        self._flat = array("q" if groups is None else index_kind(groups), chain.from_iterable(links))

    def __len__(self) -> int:
        return len(self._flat) // 2

    def _at(self, i: int) -> tuple[int, int]:
        return self._flat[2 * i], self._flat[2 * i + 1]

    def _packed(self) -> tuple[array, ...]:
        return (self._flat,)

    def __iter__(self) -> Iterator[tuple[int, int]]:
        flat = iter(self._flat)
        return zip(flat, flat)


class SimilarGroups:
    """Positions grouped by identical token set, groups gathered into kins, and the links the join found.

    ``group_of[k]``: the group of position k. ``members[g]``: the positions of group g,
    ascending, worked out from ``group_of``; groups are numbered in order of first appearance.
    ``empty``: the group of the empty set, or -1; two empty sets count as identical, as in
    :func:`.simjoin.jaccard`.

    A *kin* (see :func:`similar_groups`) is two or more groups whose sets are all similar to
    each other and met alike by every other set, but for the few tokens each shares with a few
    others. ``kin_of[g]``: the kin of group g (None: each group a kin of its own), kins numbered
    in order of first appearance. ``kin_links``: pairs of kins ``(c, d)``, ``c < d``, sorted, every
    pair of whose positions is similar. ``links``: pairs of groups ``(g, h)``, ``g < h``, sorted,
    similar besides those; without kins, every link. ``boosted``: pairs of groups linked through
    their kins that are more similar than the rest of their kins' pairs (they share a rare token),
    for the callers that name the closest pairs. :attr:`all_links` lists every link between groups.
    """

    def __init__(
        self,
        group_of: array,
        links: Iterable[tuple[int, int]] = (),
        empty: int = -1,
        *,
        kin_of: array | None = None,
        kin_links: Iterable[tuple[int, int]] = (),
        boosted: Iterable[tuple[int, int]] = (),
    ) -> None:
        self.group_of = group_of
        self.empty = empty
        self.members = GroupMembers(group_of)
        self.kin_of = kin_of
        groups = len(self.members)
        self.links = links if isinstance(links, LinkList) else LinkList(links, groups)
        self.kin_links = kin_links if isinstance(kin_links, LinkList) else LinkList(kin_links, groups)
        self.boosted = boosted if isinstance(boosted, LinkList) else LinkList(boosted, groups)
        # A kin's positions, and its groups; without kins each group is its own, and the groups' tables serve.
        self.kin_members = self.members if kin_of is None else GroupMembers(array("q", map(kin_of.__getitem__, group_of)))
        self.kin_groups: GroupMembers | None = None if kin_of is None else GroupMembers(kin_of)
        # Per kin, 1 where it holds two groups or more (read in the loops over every position).
        self._closes = b"" if self.kin_groups is None else bytes(self.kin_groups.size(c) > 1 for c in range(len(self.kin_groups)))
        self._tables: _Tables | None = None
        self._involved: array | None = None

    def __repr__(self) -> str:
        kins = "" if self.kin_groups is None else f", kins={len(self.kin_groups)}, kin links={len(self.kin_links)}"
        return f"SimilarGroups(groups={len(self.members)}{kins}, links={len(self.links)}, empty={self.empty})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SimilarGroups):
            return NotImplemented
        return self.__getstate__() == other.__getstate__()

    __hash__ = None  # type: ignore[assignment]

    def __getstate__(self) -> dict[str, object]:
        # Sent from the scan's child process. The members are rebuilt from ``group_of`` on arrival (a pass over
        # the positions), and the tables worked out on use are not sent.
        return {
            "group_of": self.group_of,
            "links": self.links,
            "empty": self.empty,
            "kin_of": self.kin_of,
            "kin_links": self.kin_links,
            "boosted": self.boosted,
        }

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__init__(  # type: ignore[misc]
            state["group_of"],
            state["links"],
            state["empty"],
            kin_of=state["kin_of"],
            kin_links=state["kin_links"],
            boosted=state["boosted"],
        )

    # ---- kins

    def kin(self, group: int) -> int:
        """The kin of ``group``."""
        return group if self.kin_of is None else self.kin_of[group]

    def _close(self, kin: int) -> bool:
        """Whether ``kin`` holds two groups or more (all similar to each other)."""
        return bool(self._closes) and self._closes[kin] == 1

    def _close_kins(self) -> list[int]:
        """The kins of two groups or more."""
        return [c for c, close in enumerate(self._closes) if close]

    def _groups_of_kin(self, kin: int) -> Sequence[int]:
        return [kin] if self.kin_groups is None else self.kin_groups[kin]

    @property
    def all_links(self) -> LinkList:
        """Every link between groups, ``(g, h)``, ``g < h``, sorted: kins' links spelled out as their groups'.

        Where a template filled in with a number is one kin, that is every pair of its questions;
        the checks read the kins instead.
        """
        if self.kin_groups is None:
            return self.links
        groups = self.kin_groups
        found = list(self.links)
        for c in self._close_kins():
            found.extend(combinations(groups[c], 2))  # ascending within a kin
        for c, d in self.kin_links:
            found.extend((g, h) if g < h else (h, g) for g in groups[c] for h in groups[d])
        found.sort()
        return LinkList(found, len(self.members))

    def _table(self) -> _Tables:
        if self._tables is None:
            self._tables = _Tables(self)
        return self._tables

    # ---- what the join found

    def neighbours(self, group: int) -> list[int]:
        """The groups linked to ``group``, ascending by group number (by first position, as groups are numbered by first appearance)."""
        if not 0 <= group < len(self.members):
            return []
        t = self._table()
        c = self.kin(group)
        found = t.linked_groups(group).tolist()
        if self.kin_groups is None:
            linked = t.linked_kins(c).tolist()
            return sorted(found + linked) if found and linked else found or linked
        if self._close(c):
            found.extend(g for g in self.kin_groups[c] if g != group)
        for d in t.linked_kins(c):
            found.extend(self.kin_groups[d])
        found.sort()
        return found

    def involved(self) -> array:
        """Positions that have at least one partner, ascending (worked out once)."""
        if self._involved is None:
            t = self._table()
            size = self.members.size
            # Marked, then read in order: a list of them, sorted, held an int object for nearly every question
            # where most have partners, at the peak of the scan that reads this.
            found = bytearray(len(self.group_of))
            starts = t.groups[0]
            if self.kin_groups is None:  # each group its own kin: those with copies or links
                # Which groups those are is worked out in C: a step per group was most of the time this took.
                groups = len(self.members)
                copies = map(gt, _sizes(self.members._packed()[1], groups), repeat(1))
                linked = map(gt, islice(starts, 1, groups + 1), islice(starts, 0, groups))
                for g in compress(range(groups), map(or_, copies, linked)):
                    for k in self.members[g]:
                        found[k] = 1
            else:
                for c in range(len(self.kin_members)):
                    if self._close(c) or len(t.linked_kins(c)):
                        for k in self.kin_members[c]:
                            found[k] = 1
                    else:
                        for g in self._groups_of_kin(c):
                            if size(g) > 1 or len(t.linked_groups(g)):
                                for k in self.members[g]:
                                    found[k] = 1
            self._involved = array(index_kind(len(found)), compress(range(len(found)), found))
        return self._involved

    def partner_count(self, position: int) -> int:
        return self.group_reach(self.group_of[position]) - 1

    def partners(self, position: int, limit: int | None = None) -> list[int]:
        """The positions similar to ``position`` in set order, at most ``limit`` of them."""
        g = self.group_of[position]
        own = [k for k in self.members[g] if k != position]
        return self.group_head(g, self.group_reach(g) if limit is None else limit, own)

    def group_head(self, group: int, limit: int, own: Sequence[int] | None = None) -> list[int]:
        """The first ``limit`` positions of ``group`` and of the groups linked to it together, in set order.

        Every member of a group has the same partners but itself, so the checks read this once
        per group: a member's first ``limit - 1`` partners are this list without the member.
        ``own``: the group's positions to take (ascending; default all of them), for a caller
        that leaves some of its members out.

        The group's kin comes as one stream; linked kins and linked groups come in order of
        their first positions, each opened only once its first position is the next one due:
        where every question is linked to every other, a head costs about ``limit`` steps, not
        one per linked group (merging them all, per group, was most of the time a scan took on such a set).
        """
        t = self._table()
        kin_order, kin_starts = self.kin_members._packed()
        order, member_starts = self.members._packed()
        c = self.kin(group)
        kins, groups = t.linked_kins(c), t.linked_groups(group)
        if not t.ascending:  # opened all at once: the order below cannot be relied on
            kins = array("q", sorted(kins, key=self.kin_members.first))
            groups = array("q", sorted(groups, key=self.members.first))
        # Streams as (next position, index in its source, end, source); positions are distinct, so the
        # tuples compare on their first entry alone. Sources: the kins' positions, the groups', a list made here.
        mine: Sequence[int] = ()
        if self._close(c) and own is not None:  # the kin's positions, this group's only where ``own`` has them
            keep, group_of = set(own), self.group_of
            picked: list[int] = []
            at, end = kin_starts[c], kin_starts[c + 1]
            while at < end and len(picked) < limit:
                position = kin_order[at]
                at += 1
                if group_of[position] != group or position in keep:
                    picked.append(position)
            mine, first = picked, (0, len(picked), 2)
        elif self._close(c):
            first = (kin_starts[c], kin_starts[c + 1], 0)
        elif own is not None:
            mine, first = own, (0, len(own), 2)
        else:
            first = (member_starts[group], member_starts[group + 1], 1)
        sources = (kin_order, order, mine)
        at, end, source = first
        heap: list[tuple[int, int, int, int]] = [(sources[source][at], at, end, source)] if at < end else []
        head: list[int] = []
        next_kin = next_group = 0
        none = len(order)  # past every position
        while len(head) < limit:
            kin_due = kin_order[kin_starts[kins[next_kin]]] if next_kin < len(kins) else none
            group_due = order[member_starts[groups[next_group]]] if next_group < len(groups) else none
            top = heap[0][0] if heap else none
            if kin_due < top and kin_due < group_due:  # the next linked kin starts before any open stream's next
                d = kins[next_kin]
                next_kin += 1
                heappush(heap, (kin_due, kin_starts[d], kin_starts[d + 1], 0))
                continue
            if group_due < top:
                h = groups[next_group]
                next_group += 1
                heappush(heap, (group_due, member_starts[h], member_starts[h + 1], 1))
                continue
            if not heap:
                break
            position, at, end, source = heap[0]
            head.append(position)
            at += 1
            if at < end:
                heapreplace(heap, (sources[source][at], at, end, source))
            else:
                heappop(heap)
        return head

    def group_reach(self, group: int) -> int:
        """How many positions ``group`` and the groups linked to it hold together (a member's partners, plus itself)."""
        if not 0 <= group < len(self.members):
            return 0
        return self._table().reach[group]

    def pair_count(self) -> int:
        """How many item pairs the groups stand for (what :meth:`pairs` would list)."""
        size, kin_size = self.members.size, self.kin_members.size
        inside = sum(size(g) * (size(g) - 1) // 2 for g in range(len(self.members)))
        for c in self._close_kins():  # every pair of its positions but those inside one group
            inside += (kin_size(c) ** 2 - sum(size(g) ** 2 for g in self._groups_of_kin(c))) // 2
        inside += sum(kin_size(c) * kin_size(d) for c, d in self.kin_links)
        return inside + sum(size(g) * size(h) for g, h in self.links)

    def pair_count_apart(self, forms: Sequence[Hashable] | Mapping[int, Hashable]) -> int:
        """How many pairs :meth:`pairs_apart` would list, without listing them: a pass over the positions.

        Like :meth:`pair_count`, counted per group, per kin and per link, each time all of its
        pairs less those of one form: for two runs of positions A and B that is
        ``|A|·|B| - Σ_f A_f·B_f`` (``A_f``: A's positions of form f), and inside one run
        ``(|A|² - Σ_f A_f²) / 2``. A list of every pair of a template's questions would not fit in
        memory; this count does not grow with the pairs.
        """
        of_group: dict[int, Counter[Hashable]] = {}
        of_kin: dict[int, Counter[Hashable]] = {}

        def group_forms(g: int) -> Counter[Hashable]:
            found = of_group.get(g)
            if found is None:
                found = of_group[g] = Counter(forms[k] for k in self.members[g])
            return found

        def kin_forms(c: int) -> Counter[Hashable]:
            found = of_kin.get(c)
            if found is None:
                found = of_kin[c] = Counter(forms[k] for k in self.kin_members[c])
            return found

        def within(counts: Counter[Hashable], size: int) -> int:  # twice the pairs of different forms in one run
            return size * size - sum(n * n for n in counts.values())

        def across(a: Counter[Hashable], b: Counter[Hashable], sizes: int) -> int:
            if len(a) > len(b):
                a, b = b, a
            return sizes - sum(n * b[f] for f, n in a.items() if f in b)

        size, kin_size = self.members.size, self.kin_members.size
        twice = sum(within(group_forms(g), size(g)) for g in range(len(self.members)) if size(g) > 1)
        total = twice // 2
        for c in self._close_kins():  # every pair of the kin's positions but those inside one of its groups
            inside = within(kin_forms(c), kin_size(c))
            inside -= sum(within(group_forms(g), size(g)) for g in self._groups_of_kin(c))
            total += inside // 2
        total += sum(across(kin_forms(c), kin_forms(d), kin_size(c) * kin_size(d)) for c, d in self.kin_links)
        total += sum(across(group_forms(g), group_forms(h), size(g) * size(h)) for g, h in self.links)
        return total

    def _pairs_across(self) -> Iterator[tuple[Sequence[int], Sequence[int]]]:
        """Every two runs of positions all of whose pairs are similar, across two groups: each pair of groups
        in a kin, linked kins, linked groups."""
        for c in self._close_kins():
            for g, h in combinations(self._groups_of_kin(c), 2):
                yield self.members[g], self.members[h]
        for c, d in self.kin_links:
            yield self.kin_members[c], self.kin_members[d]
        for g, h in self.links:
            yield self.members[g], self.members[h]

    def pairs(self) -> list[tuple[int, int]]:
        """Every similar pair of positions ``(i, j)``, ``i < j``, sorted: :func:`.simjoin.similar_pairs`' result."""
        found: list[tuple[int, int]] = []
        for m in self.members:
            if len(m) > 1:
                found.extend(combinations(m, 2))
        for these, those in self._pairs_across():
            for i in these:
                for j in those:
                    found.append((i, j) if i < j else (j, i))
        found.sort()
        return found

    def pairs_apart(self, forms: Sequence[Hashable] | Mapping[int, Hashable]) -> list[tuple[int, int]]:
        """:meth:`pairs` without the pairs whose ``forms`` are equal, never listing those.

        A question asked 20,000 times is one group of 200 million pairs, none of which a
        list of *different* similar questions wants: inside a group only members of different
        forms are paired.
        """
        found: list[tuple[int, int]] = []
        for m in self.members:
            if len(m) < 2:
                continue
            by_form: dict[Hashable, list[int]] = {}
            for k in m:
                by_form.setdefault(forms[k], []).append(k)
            if len(by_form) == 1:
                continue
            kinds = list(by_form.values())
            for a, first in enumerate(kinds):
                for second in kinds[a + 1 :]:
                    found.extend((i, j) if i < j else (j, i) for i in first for j in second)
        for these, those in self._pairs_across():
            for i in these:
                for j in those:
                    if forms[i] != forms[j]:
                        found.append((i, j) if i < j else (j, i))
        found.sort()
        return found

    def similar_runs(self, take: int) -> Iterator[tuple[int, int, list[tuple[int, int]]]]:
        """The pairs across groups in runs of one similarity: each run as a group in it, how many pairs it
        adds, and its first ``take`` pairs ``(i, j)``, ``i < j``, in order.

        A run is a kin's pairs of different groups, two linked kins, or two linked groups. A
        boosted pair of groups (more similar than the rest of its kin or linked kins) is a run
        of its own that adds no pairs (its kins' run counts them) and is left out of its kins'
        first pairs. Where a template filled in with a number makes every pair similar, that
        is one run, where the links between groups were every pair.
        """
        size, kin_size = self.members.size, self.kin_members.size
        group_of, kin = self.group_of, self.kin
        boosted: dict[tuple[int, int], set[tuple[int, int]]] = {}
        for g, h in self.boosted:
            c, d = kin(g), kin(h)
            boosted.setdefault((c, d) if c <= d else (d, c), set()).add((g, h))

        for c in self._close_kins():
            count = (kin_size(c) ** 2 - sum(size(g) ** 2 for g in self._groups_of_kin(c))) // 2
            pairs = boosted.get((c, c), set())
            first = _first_pairs(self.kin_members[c], group_of, take, pairs)
            yield self._groups_of_kin(c)[0], count, first
        order, starts = self.kin_members._packed()
        for c, d in self.kin_links:
            pairs = boosted.get((c, d), set())
            if pairs:  # the first pairs not boosted: walked in order, over the positions that can be among them
                merged = sorted(chain(self._leading(c, pairs, take), self._leading(d, pairs, take)))

                def in_first(g: int, c: int = c) -> bool:
                    return kin(g) == c

                first = _first_pairs(merged, group_of, take, pairs, in_first)
            else:
                first = _first_of_product(order[starts[c] : starts[c + 1]], order[starts[d] : starts[d + 1]], take)
            yield self._groups_of_kin(c)[0], kin_size(c) * kin_size(d), first
        group_order, group_starts = self.members._packed()
        for g, h in self.boosted:
            these, those = group_order[group_starts[g] : group_starts[g + 1]], group_order[group_starts[h] : group_starts[h + 1]]
            yield g, 0, _first_of_product(these, those, take)
        for g, h in self.links:
            these, those = group_order[group_starts[g] : group_starts[g + 1]], group_order[group_starts[h] : group_starts[h + 1]]
            yield g, size(g) * size(h), _first_of_product(these, those, take)

    def _leading(self, kin: int, boosted: set[tuple[int, int]], take: int) -> list[int]:
        """The positions of ``kin`` that can be in the first ``take`` pairs of its run with a linked kin, leaving out
        the ``boosted`` pairs of groups: the first ``take`` of each group in a boosted pair, and of the first
        ``take`` other groups.

        A later position of a group is beaten by ``take`` of its group's earlier ones with the same partner,
        and a position of a later group in no boosted pair by the first positions of ``take`` earlier such
        groups. Where a template filled in with a number is linked to many kins each closer to one of its
        questions, reading all of it for each link was its size times the links.
        """
        assert self.kin_groups is not None  # kins linked: kins were gathered
        order, starts = self.members._packed()
        closer = {g for pair in boosted for g in pair if self.kin(g) == kin}
        groups, kin_starts = self.kin_groups._packed()
        at, end = kin_starts[kin], kin_starts[kin + 1]
        picked: list[int] = []
        plain = 0
        # A kin's groups come by group number, which is by first position only where the table says so.
        while at < end and (plain < take or not self._table().ascending):
            g = groups[at]
            at += 1
            if g not in closer:
                picked.extend(order[starts[g] : min(starts[g] + take, starts[g + 1])])
                plain += 1
        for g in closer:
            picked.extend(order[starts[g] : min(starts[g] + take, starts[g + 1])])
        return picked

    # ---- what the checks read from it

    def first_kept(self, positions: Sequence[int] | None = None) -> dict[int, int]:
        """The order-dependent duplicate rule on ``positions`` (default: all), in their order.

        A position goes when it is similar to one kept before it; returns {dropped: the earliest
        kept position it is similar to}, as :func:`.duplicates.first_kept_duplicate` gives from
        the pairs among ``positions``. The earliest kept member of each group and kin is
        remembered, so each position costs one look per linked kin or group, never one per pair.
        """
        # A position with no partner is always kept, and no one looks it up: only the others are walked.
        involved = self.involved()
        if positions is None:
            order: Iterable[int] = involved
        else:
            with_partner = set(involved)
            order = [k for k in positions if k in with_partner]
        t = self._table()
        kin_first, group_first = self.kin_members.first, self.members.first
        ascending = t.ascending
        kin_of, closes = self.kin_of, self._closes
        kin_starts, kin_linked = t.kins if t.kins is not None else (None, None)
        group_starts, group_linked = t.groups
        kept_in_group: dict[int, int] = {}  # group -> its kept position (its later members go)
        kept_in_kin: dict[int, int] = {}  # kin -> its earliest kept position
        dropped: dict[int, int] = {}
        for k in order:
            g = self.group_of[k]
            c = g if kin_of is None else kin_of[g]
            # In a kin every kept position of it is a partner, and the earliest is the one kept first.
            earliest = kept_in_kin.get(c, -1) if closes and closes[c] else kept_in_group.get(g, -1)
            if kin_starts is not None and kin_linked is not None:
                earliest = _earliest_kept(earliest, kin_starts, kin_linked, c, kin_first, kept_in_kin, ascending)
            earliest = _earliest_kept(earliest, group_starts, group_linked, g, group_first, kept_in_group, ascending)
            if earliest >= 0:
                dropped[k] = earliest
            else:
                kept_in_group[g] = k
                if kept_in_kin.get(c, k) >= k:
                    kept_in_kin[c] = k
        return dropped

    def clusters(self, keep_group: Callable[[int], bool] = lambda g: True) -> list[list[int]]:
        """Connected groups of positions (two or more), each ascending, in order of their first position.

        ``keep_group(g)`` says whether group g's own members count as similar to each other
        (a caller may rule out a group whose members are the same question, say).
        """
        t = self._table()
        if self.kin_of is None and t.kins is None:
            return self._group_clusters(t, keep_group)
        kins = len(self.kin_members)
        # One node per kin whose positions are all linked beyond their own group (a kin of two groups or more,
        # or a linked one), and one per group of the other kins.
        connected = [self._close(c) or len(t.linked_kins(c)) > 0 for c in range(kins)]
        parent = list(range(kins + len(self.members)))

        def root(node: int) -> int:
            while parent[node] != node:
                parent[node] = parent[parent[node]]
                node = parent[node]
            return node

        def join(a: int, b: int) -> None:
            ra, rb = root(a), root(b)
            if ra != rb:
                parent[max(ra, rb)] = min(ra, rb)

        def node(g: int) -> int:
            c = self.kin(g)
            return c if connected[c] else kins + g

        for c, d in self.kin_links:
            join(c, d)
        for g, h in self.links:
            join(node(g), node(h))
        by_root: dict[int, list[int]] = {}
        found: list[list[int]] = []
        for c in range(kins):
            if connected[c]:
                by_root.setdefault(root(c), []).extend(self.kin_members[c])
                continue
            for g in self._groups_of_kin(c):
                if len(t.linked_groups(g)):
                    by_root.setdefault(root(kins + g), []).extend(self.members[g])
                elif self.members.size(g) > 1 and keep_group(g):
                    found.append(list(self.members[g]))
        found.extend(sorted(positions) for positions in by_root.values())
        found.sort(key=lambda positions: positions[0])
        return found

    def _group_clusters(self, t: _Tables, keep_group: Callable[[int], bool]) -> list[list[int]]:
        """:meth:`clusters` where no group is in a kin with another, nor any kin linked: the groups are the nodes.

        Only the groups with a link or a copy are read (in C, which those are), as :meth:`involved` reads them: on
        a set of mostly distinct questions, a step per group was most of the time the clusters took.
        """
        groups = len(self.members)
        parent = list(range(groups))

        def root(node: int) -> int:
            while parent[node] != node:
                parent[node] = parent[parent[node]]
                node = parent[node]
            return node

        for g, h in self.links:
            ra, rb = root(g), root(h)
            if ra != rb:
                parent[max(ra, rb)] = min(ra, rb)
        starts = t.groups[0]
        copies = map(gt, _sizes(self.members._packed()[1], groups), repeat(1))
        linked = map(gt, islice(starts, 1, groups + 1), islice(starts, 0, groups))
        by_root: dict[int, list[int]] = {}
        found: list[list[int]] = []
        members = self.members
        for g in compress(range(groups), map(or_, copies, linked)):
            if starts[g + 1] > starts[g]:
                by_root.setdefault(root(g), []).extend(members[g])
            elif keep_group(g):  # a group of copies, linked to no other
                found.append(list(members[g]))
        found.extend(sorted(positions) for positions in by_root.values())
        found.sort(key=lambda positions: positions[0])
        return found


def _earliest_kept(
    earliest: int, starts: array, linked: array, row: int, first: Callable[[int], int], kept: dict[int, int], ascending: bool
) -> int:
    """The earliest of ``earliest`` (-1: none) and the kept positions of the rows linked to ``row`` (kins or groups).

    Linked rows come by first position when ``ascending``, and a row's kept positions are at or
    after its first: once one starts after the earliest found, none of the rest can beat it.
    """
    for at in range(starts[row], starts[row + 1]):
        other_row = linked[at]
        if ascending and 0 <= earliest < first(other_row):
            break
        other = kept.get(other_row, -1)
        if other >= 0 and (earliest < 0 or other < earliest):
            earliest = other
    return earliest


class _Tables:
    """What the links say per kin and per group, worked out once: each one's linked kins (or groups) in one
    array, grouped, with where each starts (no table for kins where no kin is linked); how many positions
    each group reaches; and whether kins and groups are numbered in order of their first positions, which
    lets the heads and the duplicate rule stop early.

    On a set of many near-duplicates nearly every group has neighbours: a list per group, in a
    dict, cost five times as much as the links themselves.
    """

    __slots__ = ("ascending", "groups", "kins", "reach")

    def __init__(self, owner: SimilarGroups) -> None:
        self.kins = _link_table(len(owner.kin_members), owner.kin_links) if len(owner.kin_links) else None
        self.groups = _link_table(len(owner.members), owner.links)
        # Per group: its own positions (its kin's, in a kin of several), and those of its linked kins and groups.
        reach = _reach(self.groups, owner.members)
        _, member_starts = owner.members._packed()
        # Each row's own positions added, a run of arrays at a time (in C, not a step per group): each group's size
        # is the difference of its start and the next one's.
        reach = array("q", map(add, reach, _sizes(member_starts, len(owner.members))))
        if owner.kin_of is not None:
            kin_reach = _reach(self.kins, owner.kin_members) if self.kins is not None else None
            kin_size = owner.kin_members.size
            for g in range(len(owner.members)):
                c = owner.kin_of[g]
                if owner._close(c):
                    reach[g] += kin_size(c) - (member_starts[g + 1] - member_starts[g])
                if kin_reach is not None:
                    reach[g] += kin_reach[c]
        self.reach = reach
        # Checked rather than assumed, as a caller may number groups some other way (then all are read).
        self.ascending = _firsts_ascending(owner.members) and (owner.kin_of is None or _firsts_ascending(owner.kin_members))

    def linked_kins(self, kin: int) -> array:
        if self.kins is None:
            return _NONE
        starts, linked = self.kins
        return linked[starts[kin] : starts[kin + 1]]

    def linked_groups(self, group: int) -> array:
        starts, linked = self.groups
        return linked[starts[group] : starts[group + 1]]


_NONE = array("q")


def _reach(table: tuple[array, array], members: GroupMembers) -> array:
    """Per row of ``table``: how many positions its linked rows hold together."""
    starts, linked = table
    _, member_starts = members._packed()
    count = len(starts) - 1
    sizes = _sizes(member_starts, count)
    reach = array("q", bytes(8 * count))
    for r in _linked_rows(starts, count):  # most rows are linked to none: only the others are visited
        reach[r] = sum(map(sizes.__getitem__, linked[starts[r] : starts[r + 1]]))
    return reach


def _sizes(starts: array, count: int) -> array:
    """The sizes of the first ``count`` runs of a packed table whose runs begin at ``starts`` (one more than the
    runs: where the last ends), each the next start less its own, made in C rather than a step per run."""
    if len(starts) < count + 1:
        raise IndexError("array index out of range")
    return array("q", map(sub, islice(starts, 1, count + 1), islice(starts, 0, count)))


def _linked_rows(starts: array, count: int) -> Iterator[int]:
    """The rows among the first ``count`` of a table whose run (from ``starts[r]`` to ``starts[r + 1]``) is not empty."""
    return compress(range(count), map(gt, islice(starts, 1, count + 1), islice(starts, 0, count)))


def _firsts_ascending(members: GroupMembers) -> bool:
    """Whether each group's first position comes after the one before's (``members.first(g) < members.first(g + 1)``
    for every g), compared in C, stopping at the first that does not."""
    order, starts = members._packed()
    n = len(members)
    if n < 2:
        return True
    first = order.__getitem__
    return all(map(lt, map(first, islice(starts, 0, n - 1)), map(first, islice(starts, 1, n))))


def _link_table(count: int, links: LinkList) -> tuple[array, array]:
    """Each of ``count`` rows' linked rows in one array, ascending, and where each row's start."""
    flat = links._packed()[0]
    starts = array(index_kind(len(flat) + 1), [0]) * (count + 1)  # each link is in two rows: len(flat) in all
    lows, highs = flat[0::2], flat[1::2]
    if all(map(lt, lows, highs)) and all(map(le, zip(lows, highs), islice(zip(lows, highs), 1, None))):
        return starts, _sorted_links_table(count, starts, lows, highs)
    return starts, _any_links_table(count, starts, links)


def _sorted_links_table(count: int, starts: array, lows: array, highs: array) -> array:
    """The table from links sorted as documented, copied in runs rather than link by link.

    Sorted links hold each row's links to higher rows as one run (its own ``(g, h)``); its
    links from lower rows become one run once their lower ends are placed by higher end (in
    link order, which keeps each run ascending). On a set where every question is linked to
    every other there are millions of links, and the loop that placed both ends of each link
    and then sorted every row's run was most of the time the table took.
    """
    # Each row's links to higher rows and from lower ones, counted in C, then set in a table per row (a step per
    # row that has links, not per row: most rows of a large set have none).
    ups, downs = array("q", bytes(8 * count)), array("q", bytes(8 * count))
    for row, links in Counter(lows).items():
        ups[row] = links
    for row, links in Counter(highs).items():
        downs[row] = links
    kind = lows.typecode  # the links' own kind, so that runs of them are copied as they are
    # The lower ends grouped by higher end, each run ascending, placed one link at a time into an array:
    # sorting the link numbers by their higher end made two lists of Python numbers, about 100 bytes a
    # link (450 MB at once for the 4.5 million links of 3,000 questions linked to each other).
    fill = array("q", accumulate(downs, initial=0))
    by_high = array(kind, bytes(lows.itemsize * len(lows)))
    for low, high in zip(lows, highs):
        by_high[fill[high]] = low
        fill[high] += 1
    linked = array(kind)
    # Every row's start, from how many links each has, in C; then the runs of the rows that have links, in order
    # (most rows of a large set have none, and were each a step here).
    starts[1 : count + 1] = array(starts.typecode, accumulate(map(add, ups, downs)))
    from_above = from_below = 0
    for g in _linked_rows(starts, count):
        down, up = downs[g], ups[g]
        if down:
            linked.extend(by_high[from_below : from_below + down])
            from_below += down
        if up:
            linked.extend(highs[from_above : from_above + up])
            from_above += up
    return linked


def _any_links_table(count: int, starts: array, links: LinkList) -> array:
    """The table from links in any order or either way round: one at a time, then sorted."""
    for g, h in links:
        starts[g + 1] += 1
        starts[h + 1] += 1
    for g in range(count):
        starts[g + 1] += starts[g]
    fill = array("q", starts)
    linked = array(links._packed()[0].typecode, [0]) * starts[count]
    for g, h in links:
        linked[fill[g]] = h
        fill[g] += 1
        linked[fill[h]] = g
        fill[h] += 1
    for g in range(count):
        linked[starts[g] : starts[g + 1]] = array(linked.typecode, sorted(linked[starts[g] : starts[g + 1]]))
    return linked


def _first_of_product(these: Sequence[int], those: Sequence[int], take: int) -> list[tuple[int, int]]:
    """The first ``take`` pairs ``(i, j)``, ``i < j``, of one position from each run, in order.

    They are among those of each run's first ``take`` positions: a pair holding a later one is
    beaten by ``take`` pairs of the earlier ones with its partner.
    """
    return sorted((i, j) if i < j else (j, i) for i in these[:take] for j in those[:take])[:take]


def _first_pairs(
    positions: Sequence[int],
    group_of: Sequence[int],
    take: int,
    boosted: set[tuple[int, int]],
    on_side: Callable[[int], bool] | None = None,
) -> list[tuple[int, int]]:
    """The first ``take`` pairs ``(i, j)``, ``i < j``, of ``positions`` (ascending) from groups of different sides, in
    order, leaving out those whose groups (by ``group_of``) are a ``boosted`` pair.

    ``on_side``: whether a group is on one side, the rest of ``positions`` being the other (two linked
    kins); None: each group a side of its own (one kin).

    A position whose every later partner is in its own group or boosted with it gives no pair,
    and walking the rest of the positions for it found that out one position at a time: for a
    question asked thousands of times whose partners in the run are all closer ones, that was
    once per copy, the square of the copies. So each group's last position that can pair with
    it is worked out first (from its rival groups by last position, passing over only its
    boosted ones), and a position at or after it is passed over at once. Every position walked
    then gives a pair, so this costs about ``take`` walks of the positions.
    """
    last: dict[int, int] = {}
    for i in positions:  # ascending: each group's last position is the one written last
        last[group_of[i]] = i
    by_last = sorted(last, key=last.__getitem__, reverse=True)
    if on_side is None:
        rivals_of: Callable[[int], list[int]] = lambda g: by_last  # noqa: E731
    else:
        side = {g for g in by_last if on_side(g)}
        these = [g for g in by_last if g in side]
        those = [g for g in by_last if g not in side]
        rivals_of = lambda g: those if g in side else these  # noqa: E731
    closer: dict[int, set[int]] = {}
    for g, h in boosted:
        closer.setdefault(g, set()).add(h)
        closer.setdefault(h, set()).add(g)
    pairs_until: dict[int, int] = {}  # group -> its last partner's position, -1 when it has none

    def until(g: int) -> int:
        found = pairs_until.get(g)
        if found is None:
            passed = closer.get(g, ())
            found = next((last[h] for h in rivals_of(g) if h != g and h not in passed), -1)
            pairs_until[g] = found
        return found

    found: list[tuple[int, int]] = []
    for a in range(len(positions)):
        i = positions[a]
        g = group_of[i]
        if i >= until(g):
            continue
        mine = g if on_side is None else g in side
        passed = closer.get(g, ())
        for b in range(a + 1, len(positions)):
            j = positions[b]
            h = group_of[j]
            if (h if on_side is None else h in side) != mine and h not in passed:
                found.append((i, j))
                if len(found) == take:
                    return found
    return found


#: A token at most this many distinct sets hold is a *rare* one, set aside when kins are gathered (see
#: similar_groups): a template filled in with a number each of several other templates uses too holds
#: each number a few times. Each pair of sets sharing one costs a look, so this bounds that work.
RARE_MOST = 32
#: The fewest sets a kin gathers: a class of fewer makes few links (a few per set), and the pairs its rare
#: tokens make can cost more to look at than it saves (a set of pairs of paraphrases took half as long again).
KIN_SMALLEST = 16


@gc_paused()
def similar_groups(
    sets: Sequence[Collection[Hashable]],
    threshold: float,
    *,
    should_stop: Callable[[], bool] | None = None,
    vectorised: bool = False,
    skip_empty: bool = False,
    kins: bool | None = None,
    rare_most: int = RARE_MOST,
    kin_smallest: int = KIN_SMALLEST,
) -> SimilarGroups:
    """The join of :func:`.simjoin.similar_pairs`, kept as groups and links (see :class:`SimilarGroups`).

    ``skip_empty``: an empty set has no partner, not even another empty set.

    Kins: set aside the rare tokens of each set (held by at most ``rare_most`` distinct sets).
    Sets left with the same tokens, and as many set aside, are met alike by every set they
    share no rare token with, and are that alike to each other: where that reaches the
    threshold (a template filled in with a number, however many questions it makes), they
    are one kin. The join runs on one set of each kin, its rare tokens made its own, and the
    links are between kins; the few pairs that share a rare token are looked at one by one.
    Where every question of a template is similar to every other, the groups hold the
    questions, not the square of them. ``kins``: gather them (True), never (False), or when
    a sample of the sets has a kin (None); the answers are the same either way. Only kins of
    at least ``kin_smallest`` sets are gathered: a smaller one costs few links, and the pairs
    its rare tokens make to be looked at one by one can cost more than it saves.
    """
    if not 0.0 < threshold <= 1.0:
        raise ValueError(f"a Jaccard threshold must be above 0 and at most 1, not {threshold!r}")
    first: dict[SetKey, int] = {}
    group_of = array("l")
    groups = 0
    rows = isinstance(sets, TokenRows)  # only a TokenRows' tuples are known to be sorted and distinct
    for tokens in sets:
        key = set_key(tokens, rows)
        g = first.get(key)
        if g is None or (skip_empty and not key):
            g = groups
            groups += 1
            if key or not skip_empty:
                first[key] = g
        group_of.append(g)
    distinct = [key for key in first if key]
    group_ids = [first[key] for key in distinct]
    empty = first.get(frozenset(), first.get((), -1))  # the empty set, given as a frozenset or as a row
    del first
    plan = None
    if kins or (kins is None and _kins_likely(distinct, rows, threshold, rare_most, kin_smallest)):
        plan = _kin_plan(distinct, rows, threshold, rare_most, kin_smallest)
    if plan is None:
        # Each link as one number, g * groups + h, which sorts as the pair does: a tuple per link (and its sort's
        # list) held several times the memory, where a small vocabulary makes hundreds of thousands of links.
        links = array("q")
        if len(distinct) > 1 and threshold < 1.0:
            for a, b in simjoin._join_distinct(distinct, threshold, should_stop, vectorised):  # read at call time
                g, h = group_ids[a], group_ids[b]
                links.append(g * groups + h if g < h else h * groups + g)
        if any(map(lt, islice(links, 1, None), links)):  # the vectorised join gives them in order already
            links = array("q", sorted(links))
        return SimilarGroups(group_of, LinkList(map(divmod, links, repeat(groups)), groups), empty)
    unused = len(sets.numbers) if isinstance(sets, TokenRows) else -1
    return _with_kins(distinct, group_ids, group_of, empty, plan, threshold, should_stop, vectorised, unused)


def _with_kins(
    distinct: list[SetKey],
    group_ids: list[int],
    group_of: array,
    empty: int,
    plan: tuple[array, set[Hashable]],
    threshold: float,
    should_stop: Callable[[], bool] | None,
    vectorised: bool,
    unused: int,
) -> SimilarGroups:
    """:func:`similar_groups` with kins (``plan``: see :func:`_kin_plan`); ``unused``: the first word number no row
    holds (rows), or -1 (sets)."""
    same, rare = plan
    groups = len(group_of) and max(group_of) + 1
    at = array("l", [-1]) * groups  # group -> its distinct set
    for i, g in enumerate(group_ids):
        at[g] = i
    # Kins numbered by first appearance, as the groups are: each group in turn starts one or joins its first set's.
    kin_of = array("l", [-1]) * groups
    heads: list[int] = []  # per kin: the distinct index of its first set (-1: the empty set's group)
    sizes: list[int] = []  # per kin: how many sets
    for g in range(groups):
        i = at[g]
        if i >= 0 and same[i] != i:
            c = kin_of[group_ids[same[i]]]
            sizes[c] += 1
        else:
            c = len(heads)
            heads.append(i)
            sizes.append(1)
        kin_of[g] = c
    # What the join sees of each kin: its tokens but the rare ones, and as many tokens of its own instead.
    shown: list[SetKey] = []
    kin_ids: list[int] = []
    fresh = count_up(unused) if unused >= 0 else ((_OWN, k) for k in count_up())
    for c, i in enumerate(heads):
        if i < 0:
            continue
        key = distinct[i]
        if sizes[c] > 1:
            kept = [token for token in key if token not in rare]
            own = list(islice(fresh, len(key) - len(kept)))
            key = tuple(kept + own) if unused >= 0 else frozenset(kept + own)  # rows stay sorted: fresh numbers come last
        shown.append(key)
        kin_ids.append(c)
    kin_links: list[tuple[int, int]] = []
    if len(shown) > 1 and threshold < 1.0:
        for a, b in simjoin._join_distinct(shown, threshold, should_stop, vectorised):
            c, d = kin_ids[a], kin_ids[b]
            kin_links.append((c, d) if c < d else (d, c))
    kin_links.sort()
    # Pairs that share a rare token, a set of a kin in each: more alike than their kins say.
    in_kin = bytearray(len(distinct))
    wanted: set[Hashable] = set()
    for i in range(len(distinct)):
        if sizes[kin_of[group_ids[i]]] > 1:
            in_kin[i] = 1
            wanted.update(rare.intersection(distinct[i]))
    holders: dict[Hashable, list[int]] = {}
    for i, key in enumerate(distinct):
        for token in wanted.intersection(key):
            holders.setdefault(token, []).append(i)
    linked = set(kin_links)
    links: list[tuple[int, int]] = []
    boosted: list[tuple[int, int]] = []
    # Each set of a kin in turn, its partners gathered from the holders of its rare tokens and judged at once (a
    # pair of two kins' sets from the first of them): gathered into one set of pairs first, they were as many as
    # the pairs that share a rare token, up to rare_most / 2 per rare token of each set of a kin.
    for a, key in enumerate(distinct):
        if not in_kin[a]:
            continue
        partners: set[int] = set()
        for token in wanted.intersection(key):
            partners.update(holders[token])
        g = group_ids[a]
        c = kin_of[g]
        mine = key if type(key) is frozenset else frozenset(key)
        for b in partners:
            if b == a or (in_kin[b] and b < a):  # itself, or a pair judged from b
                continue
            h = group_ids[b]
            d = kin_of[h]
            pair = (g, h) if g < h else (h, g)
            if c == d or ((c, d) if c < d else (d, c)) in linked:
                boosted.append(pair)
                continue
            other = distinct[b]
            shared = len(mine.intersection(other))  # as jaccard() counts: a row's tokens are distinct
            if shared / (len(key) + len(other) - shared) >= threshold:
                links.append(pair)
    links.sort()
    boosted.sort()
    return SimilarGroups(group_of, links, empty, kin_of=kin_of, kin_links=kin_links, boosted=boosted)


_OWN = "\x00own"  # the tokens a kin's set is given instead of its rare ones, when sets are not rows

#: From this many distinct sets on, kins are gathered only when a sample of every _KIN_SAMPLE_STEP-th set
#: has one: counting every token of a set of real questions costs about a tenth of a second at 100k, and
#: real questions are nearly all kins of their own.
_KIN_SAMPLE_FROM = 4000
_KIN_SAMPLE_STEP = 16


def _kins_likely(distinct: list[SetKey], rows: bool, threshold: float, rare_most: int, kin_smallest: int) -> bool:
    """Whether a sample of ``distinct`` has a kin, as :func:`_kin_plan` finds kins, with rare meaning rare in the sample.

    One set in _KIN_SAMPLE_STEP, drawn at random (with a fixed seed): every 16th set would hold
    each number of templates laid out in blocks of a multiple of 16 once per template, as
    often as the whole does. A kin of a few dozen sets or more has several in the sample; a
    sample can find kins the whole does not have, which costs only the time to look.
    """
    if len(distinct) < _KIN_SAMPLE_FROM:
        return True
    picked = Random(len(distinct)).sample(range(len(distinct)), len(distinct) // _KIN_SAMPLE_STEP)
    sample = [distinct[i] for i in picked]
    smallest = max(2, kin_smallest // _KIN_SAMPLE_STEP)
    return _kin_plan(sample, rows, threshold, max(1, rare_most // _KIN_SAMPLE_STEP), smallest) is not None


def _kin_plan(
    distinct: list[SetKey], rows: bool, threshold: float, rare_most: int, kin_smallest: int = 2
) -> tuple[array, set[Hashable]] | None:
    """For each distinct set, the index of the first set of its kin (itself when first or alone), and the rare
    tokens; None when no set has a kin.

    A kin: ``kin_smallest`` sets or more with the same tokens once their rare ones are set aside,
    as many rare ones each, and alike enough without them to reach the threshold.
    """
    counted = Counter(chain.from_iterable(distinct))
    rare = {token for token, n in counted.items() if n <= rare_most}
    del counted
    if not rare:
        return None
    first_of: dict[tuple[SetKey, int], int] = {}
    found: list[tuple[int, int]] = []  # (set, first set of its class)
    apart = rare.isdisjoint
    for i, key in enumerate(distinct):
        if apart(key):  # no rare token: no other set is met alike
            continue
        core: SetKey = tuple([token for token in key if token not in rare]) if rows else frozenset(key) - rare
        shared, own = len(core), len(key) - len(core)
        # Two sets of the class share the core and nothing else (at least), as jaccard() would count it.
        if not shared or shared / ((shared + own) + (shared + own) - shared) < threshold:
            continue
        head = first_of.setdefault((core, own), i)
        if head != i:
            found.append((i, head))
    if kin_smallest > 2:  # the classes with enough sets to be kins
        sizes = Counter(head for _, head in found)
        found = [(i, head) for i, head in found if sizes[head] + 1 >= kin_smallest]
    if not found:
        return None
    same = array("l", range(len(distinct)))
    for i, head in found:
        same[i] = head
    return same, rare


def link_similarity(groups: SimilarGroups, sets: Sequence[Collection[Hashable]], g: int, h: int) -> float:
    """The Jaccard similarity of two linked groups (read from any member of each)."""
    return jaccard(sets[groups.members.first(g)], sets[groups.members.first(h)])

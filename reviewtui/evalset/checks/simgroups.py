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
from itertools import accumulate, chain, combinations, islice
from operator import le, lt
from typing import TypeVar, overload

from reviewtui.evalset.checks import simjoin
from reviewtui.evalset.checks.simjoin import jaccard, set_key
from reviewtui.evalset.checks.simjoin_plan import SetKey
from reviewtui.evalset.jobs.collector import gc_paused
from reviewtui.evalset.text.words import TokenRows

__all__ = ["SimilarGroups", "similar_groups"]

T = TypeVar("T")


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
        starts = array("q", bytes(8 * (count + 1)))  # "q": eight bytes everywhere ("l" is four on some platforms)
        for g in group_of:
            starts[g + 1] += 1
        for g in range(count):
            starts[g + 1] += starts[g]
        fill = array("q", starts)
        order = array("q", bytes(8 * len(group_of)))
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


class LinkList(_Packed[tuple[int, int]]):
    """Links between groups, ``(g, h)`` pairs in one flat array: a tuple each cost seven times as much."""

    __slots__ = ("_flat",)

    def __init__(self, links: Iterable[tuple[int, int]] = ()) -> None:
        self._flat = array("l", chain.from_iterable(links))

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
    """Positions grouped by identical token set, groups gathered into kins, and kins linked by the join.

    ``group_of[k]``: the group of position k. ``members[g]``: the positions of group g,
    ascending, worked out from ``group_of``; groups are numbered in order of first appearance.
    ``empty``: the group of the empty set, or -1; two empty sets count as identical, as in
    :func:`.simjoin.jaccard`.

    A *kin* is a run of groups that every other set meets alike (see :func:`similar_groups`):
    their sets differ only in tokens no other set holds, as many of them each. The join links
    kins, not groups, and a kin's own groups are either all similar to each other (``inside``)
    or none is. Without ``kin_of`` each group is a kin of its own and ``links`` are between
    groups, ``(g, h)``, ``g < h``, sorted; with it, ``links`` must be empty and ``kin_links``
    pairs kins the same way. Either way :attr:`links` reads the links between groups.
    """

    def __init__(
        self,
        group_of: array,
        links: Iterable[tuple[int, int]] = (),
        empty: int = -1,
        *,
        kin_of: array | None = None,
        kin_links: Iterable[tuple[int, int]] = (),
        inside: bytes | bytearray = b"",
    ) -> None:
        self.group_of = group_of
        self.empty = empty
        self.members = GroupMembers(group_of)
        if kin_of is None:
            kin_links = links
            inside = b""
        elif links:
            raise ValueError("links between groups are worked out from kin_links when the groups have kins")
        self.kin_of = kin_of
        self.kin_links = kin_links if isinstance(kin_links, LinkList) else LinkList(kin_links)
        self.inside = bytes(inside)
        # A kin's positions, and its groups; each group its own kin shares the groups' own tables.
        self.kin_members = self.members if kin_of is None else GroupMembers(array("q", map(kin_of.__getitem__, group_of)))
        self.kin_groups: GroupMembers | None = None if kin_of is None else GroupMembers(kin_of)
        self._neighbours: tuple[array, array] | None = None  # where each kin's linked kins start, and them all
        self._linked_reach: array | None = None  # per kin: how many positions its linked kins hold together
        self._ascending = True  # whether kins are numbered in order of their first positions (see _neighbour_table)
        self._involved: array | None = None

    def __repr__(self) -> str:
        kins = "" if self.kin_groups is None else f", kins={len(self.kin_groups)}"
        return f"SimilarGroups(groups={len(self.members)}{kins}, links={len(self.kin_links)}, empty={self.empty})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SimilarGroups):
            return NotImplemented
        return (self.group_of, self.kin_of, self.kin_links, self.inside, self.empty) == (
            other.group_of,
            other.kin_of,
            other.kin_links,
            other.inside,
            other.empty,
        )

    __hash__ = None  # type: ignore[assignment]

    def __getstate__(self) -> dict[str, object]:
        # Sent from the scan's child process. The members are rebuilt from ``group_of`` on arrival (a pass over
        # the positions), and the tables worked out on use are not sent.
        return {
            "group_of": self.group_of,
            "empty": self.empty,
            "kin_of": self.kin_of,
            "kin_links": self.kin_links,
            "inside": self.inside,
        }

    def __setstate__(self, state: dict[str, object]) -> None:
        kin_of, kin_links = state["kin_of"], state["kin_links"]
        if kin_of is None:  # each group its own kin: the kins' links are the groups'
            self.__init__(state["group_of"], kin_links, state["empty"])  # type: ignore[misc]
        else:
            self.__init__(state["group_of"], (), state["empty"], kin_of=kin_of, kin_links=kin_links, inside=state["inside"])  # type: ignore[misc]

    # ---- kins

    def kin(self, group: int) -> int:
        """The kin of ``group``."""
        return group if self.kin_of is None else self.kin_of[group]

    def _close_kin(self, kin: int) -> bool:
        """Whether ``kin`` holds two groups or more, all similar to each other."""
        return bool(self.inside) and self.inside[kin] == 1 and self.kin_groups is not None and self.kin_groups.size(kin) > 1

    def _groups_of_kin(self, kin: int) -> Sequence[int]:
        return [kin] if self.kin_groups is None else self.kin_groups[kin]

    @property
    def links(self) -> LinkList:
        """The links between groups, ``(g, h)``, ``g < h``, sorted: as many as the pairs of linked groups.

        Where groups have kins this lists what the kins stand for, which on a template filled in
        with a number is every pair of questions; the checks read the kins instead.
        """
        if self.kin_groups is None:
            return self.kin_links
        groups = self.kin_groups
        found: list[tuple[int, int]] = []
        for c in range(len(groups)):
            if self._close_kin(c):
                found.extend(combinations(groups[c], 2))  # ascending within a kin
        for c, d in self.kin_links:
            found.extend((g, h) if g < h else (h, g) for g in groups[c] for h in groups[d])
        found.sort()
        return LinkList(found)

    # ---- what the join found

    def neighbours(self, group: int) -> list[int]:
        """The groups linked to ``group``, ascending by group number (by first position, as groups are numbered by first appearance)."""
        if not 0 <= group < len(self.members):
            return []
        starts, linked = self._neighbours if self._neighbours is not None else self._neighbour_table()
        c = self.kin(group)
        if self.kin_groups is None:
            return linked[starts[c] : starts[c + 1]].tolist()
        found = [g for g in self.kin_groups[c] if g != group] if self._close_kin(c) else []
        for d in linked[starts[c] : starts[c + 1]]:
            found.extend(self.kin_groups[d])
        found.sort()
        return found

    def _neighbour_table(self) -> tuple[array, array]:
        """Every kin's linked kins in one array, grouped, and where each kin's start, as the members are.

        On a set of many near-duplicates nearly every kin has neighbours: a list per kin,
        in a dict, cost five times as much as the links themselves.
        """
        members = self.kin_members
        count = len(members)
        starts = array("q", bytes(8 * (count + 1)))
        flat = self.kin_links._packed()[0]
        lows, highs = flat[0::2], flat[1::2]
        if all(map(lt, lows, highs)) and all(map(le, zip(lows, highs), islice(zip(lows, highs), 1, None))):
            linked = self._sorted_links_table(count, starts, lows, highs)
        else:
            linked = self._any_links_table(count, starts)
        # From sorted links, each (c, d) with c < d as documented, each kin's slice comes out sorted:
        # the kins below it first (from links (c, kin), in order), then those above it (from
        # (kin, d)). Kins follow first appearance, so this is position order of their first members.
        self._neighbours = starts, linked
        # Made in the same pass, as the heads and the duplicate rule read it for every group: summing each
        # kin's neighbours per call walked every link twice more.
        _, member_starts = members._packed()
        sizes = array("q", (member_starts[c + 1] - member_starts[c] for c in range(count)))
        reach = array("q", bytes(8 * count))
        for c in range(count):
            if starts[c + 1] > starts[c]:
                reach[c] = sum(map(sizes.__getitem__, linked[starts[c] : starts[c + 1]]))
        self._linked_reach = reach
        # The heads and the duplicate rule stop reading a kin's neighbours once the rest start too late to
        # matter; that needs them in order of first position, which numbering by first appearance gives.
        # Checked rather than assumed, as a caller may number groups some other way (then they read them all).
        first = members.first
        self._ascending = all(first(c) < first(c + 1) for c in range(count - 1))
        return self._neighbours

    def _sorted_links_table(self, count: int, starts: array, lows: array, highs: array) -> array:
        """The neighbour table from links sorted as documented, copied in runs rather than link by link.

        Sorted links hold each kin's links to higher kins as one run (its own ``(c, d)``);
        its links from lower kins become one run once their lower ends are placed by higher
        end (in link order, which keeps each run ascending). On a set where every question is
        linked to every other there are millions of links, and the loop that placed both ends
        of each link and then sorted every kin's run was most of the time the table took.
        """
        above = Counter(lows)
        below = Counter(highs)
        kind = lows.typecode  # the links' own kind, so that runs of them are copied as they are
        # The lower ends grouped by higher end, each run ascending, placed one link at a time into an array:
        # sorting the link numbers by their higher end made two lists of Python numbers, about 100 bytes a
        # link (450 MB at once for the 4.5 million links of 3,000 questions linked to each other).
        fill = array("q", accumulate((below.get(h, 0) for h in range(count)), initial=0))
        by_high = array(kind, bytes(lows.itemsize * len(lows)))
        for low, high in zip(lows, highs):
            by_high[fill[high]] = low
            fill[high] += 1
        linked = array(kind)
        from_above = from_below = 0
        for g in range(count):
            down, up = below.get(g, 0), above.get(g, 0)
            starts[g + 1] = starts[g] + down + up
            if down:
                linked.extend(by_high[from_below : from_below + down])
                from_below += down
            if up:
                linked.extend(highs[from_above : from_above + up])
                from_above += up
        return linked

    def _any_links_table(self, count: int, starts: array) -> array:
        """The neighbour table from links in any order or either way round: one at a time, then sorted."""
        for g, h in self.kin_links:
            starts[g + 1] += 1
            starts[h + 1] += 1
        for g in range(count):
            starts[g + 1] += starts[g]
        fill = array("q", starts)
        linked = array("q", bytes(8 * starts[count]))
        for g, h in self.kin_links:
            linked[fill[g]] = h
            fill[g] += 1
            linked[fill[h]] = g
            fill[h] += 1
        for g in range(count):
            linked[starts[g] : starts[g + 1]] = array("q", sorted(linked[starts[g] : starts[g + 1]]))
        return linked

    def _connected(self, kin: int, starts: array) -> bool:
        """Whether every position of ``kin`` has a partner outside its own group (a linked kin, or a close one)."""
        return starts[kin + 1] > starts[kin] or self._close_kin(kin)

    def involved(self) -> array:
        """Positions that have at least one partner, ascending (worked out once)."""
        if self._involved is None:
            starts, _ = self._neighbours if self._neighbours is not None else self._neighbour_table()
            size = self.members.size
            found: list[int] = []
            for c in range(len(self.kin_members)):
                if self._connected(c, starts):
                    found.extend(self.kin_members[c])
                else:
                    for g in self._groups_of_kin(c):
                        if size(g) > 1:
                            found.extend(self.members[g])
            found.sort()
            # An array: a list would hold an int object for nearly every question where most have partners.
            self._involved = array("l", found)
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

        The group's close kin comes as one stream and linked kins in order of their first
        positions, each opened only once its first position is the next one due: where every
        question is linked to every other, a head costs about ``limit`` steps, not one per
        linked group (merging them all, per group, was most of the time a scan took on such a set).
        """
        starts, linked = self._neighbours if self._neighbours is not None else self._neighbour_table()
        kin_order, kin_starts = self.kin_members._packed()
        order, member_starts = self.members._packed()
        c = self.kin(group)
        lo, hi = starts[c], starts[c + 1]
        if not self._ascending:  # opened all at once: the order below cannot be relied on
            opened = sorted(linked[lo:hi], key=self.kin_members.first)
            linked, lo, hi = array("q", opened), 0, len(opened)
        # Streams as (next position, index in its source, end, source); positions are distinct, so the
        # tuples compare on their first entry alone. Sources: the kins' positions, the groups', a list made here.
        mine: Sequence[int] = ()
        if self._close_kin(c) and own is not None:  # the kin's positions, this group's only where ``own`` has them
            keep, group_of = set(own), self.group_of
            picked: list[int] = []
            at, end = kin_starts[c], kin_starts[c + 1]
            while at < end and len(picked) < limit:
                position = kin_order[at]
                at += 1
                if group_of[position] != group or position in keep:
                    picked.append(position)
            mine, first = picked, (0, len(picked), 2)
        elif self._close_kin(c):
            first = (kin_starts[c], kin_starts[c + 1], 0)
        elif own is not None:
            mine, first = own, (0, len(own), 2)
        else:
            first = (member_starts[group], member_starts[group + 1], 1)
        sources = (kin_order, order, mine)
        at, end, source = first
        heap: list[tuple[int, int, int, int]] = [(sources[source][at], at, end, source)] if at < end else []
        head: list[int] = []
        while len(head) < limit:
            if lo < hi:
                d = linked[lo]
                due = kin_order[kin_starts[d]]
                if not heap or due < heap[0][0]:  # the next linked kin starts before any open stream's next
                    lo += 1
                    heappush(heap, (due, kin_starts[d], kin_starts[d + 1], 0))
                    continue
            elif not heap:
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
        if self._linked_reach is None:
            self._neighbour_table()
        assert self._linked_reach is not None
        if not 0 <= group < len(self.members):
            return 0
        c = self.kin(group)
        own = self.kin_members.size(c) if self._close_kin(c) else self.members.size(group)
        return own + self._linked_reach[c]

    def pair_count(self) -> int:
        """How many item pairs the groups stand for (what :meth:`pairs` would list)."""
        size, kin_size = self.members.size, self.kin_members.size
        inside = sum(size(g) * (size(g) - 1) // 2 for g in range(len(self.members)))
        for c in range(len(self.kin_members)):
            if self._close_kin(c):  # every pair of its positions but those inside one group
                inside += (kin_size(c) ** 2 - sum(size(g) ** 2 for g in self._groups_of_kin(c))) // 2
        return inside + sum(kin_size(c) * kin_size(d) for c, d in self.kin_links)

    def _pairs_across(self) -> Iterator[tuple[array | list[int], array | list[int]]]:
        """Every two runs of positions all of whose pairs are similar, across two groups: linked kins, and
        each pair of groups in a close kin."""
        for c in range(len(self.kin_members)):
            if self._close_kin(c):
                for g, h in combinations(self._groups_of_kin(c), 2):
                    yield self.members[g], self.members[h]
        for c, d in self.kin_links:
            yield self.kin_members[c], self.kin_members[d]

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
        """The pairs across groups, in runs whose pairs all have one similarity: each run as a group in it,
        how many pairs it holds, and its first ``take`` pairs ``(i, j)``, ``i < j``, in order.

        A run is a link between two kins, or a close kin's pairs of different groups. Where a
        template filled in with a number makes every pair similar, that is one run, where
        the links between groups were every pair.
        """
        size, kin_size = self.members.size, self.kin_members.size
        group_of = self.group_of
        for c in range(len(self.kin_members)):
            if self._close_kin(c):
                count = (kin_size(c) ** 2 - sum(size(g) ** 2 for g in self._groups_of_kin(c))) // 2
                yield self._groups_of_kin(c)[0], count, _first_pairs_across(self.kin_members[c], group_of.__getitem__, take)
        order, starts = self.kin_members._packed()
        for c, d in self.kin_links:
            # The first ``take`` pairs of two runs are among those of their first ``take`` positions each: a
            # pair holding a later one is beaten by ``take`` pairs of the earlier ones with its partner.
            these = order[starts[c] : min(starts[c] + take, starts[c + 1])]
            those = order[starts[d] : min(starts[d] + take, starts[d + 1])]
            first = sorted((i, j) if i < j else (j, i) for i in these for j in those)[:take]
            yield self._groups_of_kin(c)[0], kin_size(c) * kin_size(d), first

    # ---- what the checks read from it

    def first_kept(self, positions: Sequence[int] | None = None) -> dict[int, int]:
        """The order-dependent duplicate rule on ``positions`` (default: all), in their order.

        A position goes when it is similar to one kept before it; returns {dropped: the earliest
        kept position it is similar to}, as :func:`.duplicates.first_kept_duplicate` gives from
        the pairs among ``positions``. The earliest kept member of each group and kin is
        remembered, so each position costs one look per linked kin, never one per pair.
        """
        # A position with no partner is always kept, and no one looks it up: only the others are walked.
        involved = self.involved()
        if positions is None:
            order: Iterable[int] = involved
        else:
            with_partner = set(involved)
            order = [k for k in positions if k in with_partner]
        starts, linked = self._neighbours if self._neighbours is not None else self._neighbour_table()
        first = self.kin_members.first
        ascending = self._ascending
        kept_in_group: dict[int, int] = {}  # group -> its kept position (its later members go)
        kept_in_kin: dict[int, int] = {}  # kin -> its earliest kept position
        dropped: dict[int, int] = {}
        for k in order:
            g = self.group_of[k]
            c = self.kin(g)
            # In a close kin every kept position of it is a partner, and the earliest is the one kept first.
            earliest = kept_in_kin.get(c, -1) if self._close_kin(c) else kept_in_group.get(g, -1)
            for at in range(starts[c], starts[c + 1]):
                d = linked[at]
                # A kin's kept positions are at or after its first, and the neighbours come by first
                # position: once one starts after the earliest found, none of the rest can beat it.
                if ascending and 0 <= earliest < first(d):
                    break
                other = kept_in_kin.get(d, -1)
                if other >= 0 and (earliest < 0 or other < earliest):
                    earliest = other
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
        starts, _ = self._neighbours if self._neighbours is not None else self._neighbour_table()
        parent = list(range(len(self.kin_members)))

        def root(c: int) -> int:
            while parent[c] != c:
                parent[c] = parent[parent[c]]
                c = parent[c]
            return c

        for c, d in self.kin_links:
            rc, rd = root(c), root(d)
            if rc != rd:
                parent[max(rc, rd)] = min(rc, rd)
        by_root: dict[int, list[int]] = {}
        found: list[list[int]] = []
        for c in range(len(self.kin_members)):
            if self._connected(c, starts):  # every position of it is linked beyond its own group
                by_root.setdefault(root(c), []).extend(self.kin_members[c])
                continue
            for g in self._groups_of_kin(c):
                if self.members.size(g) > 1 and keep_group(g):
                    found.append(list(self.members[g]))
        found.extend(sorted(positions) for positions in by_root.values())
        found.sort(key=lambda positions: positions[0])
        return found


def _first_pairs_across(positions: Sequence[int], side: Callable[[int], object], take: int) -> list[tuple[int, int]]:
    """The first ``take`` pairs ``(i, j)``, ``i < j``, of ``positions`` (ascending) whose ``side`` differs, in order.

    For each position in turn, the later ones of another side: a run of one side's positions is
    skipped at most once per pair taken, so this costs about ``take`` times the longest such run.
    """
    found: list[tuple[int, int]] = []
    for a, i in enumerate(positions):
        mine = side(i)
        for j in islice(positions, a + 1, None):
            if side(j) != mine:
                found.append((i, j))
                if len(found) == take:
                    return found
    return found


@gc_paused()
def similar_groups(
    sets: Sequence[Collection[Hashable]],
    threshold: float,
    *,
    should_stop: Callable[[], bool] | None = None,
    vectorised: bool = False,
    skip_empty: bool = False,
    kins: bool | None = None,
) -> SimilarGroups:
    """The join of :func:`.simjoin.similar_pairs`, kept as groups and links (see :class:`SimilarGroups`).

    ``skip_empty``: an empty set has no partner, not even another empty set.

    A token that only one distinct set holds never meets another set, so two sets that
    keep the same tokens once those are set aside, and set aside as many, are met alike by
    every other set, and are similar to each other or not all alike: a template filled in
    with a number is one such kin, however many questions it makes. The join then runs on
    one set of each kin, and the links are between kins: where every question of a template
    is similar to every other, the groups hold the questions, not the square of them.
    ``kins``: gather kins (True), never (False), or when a sample of the sets shows kins
    of two or more (None); the answers are the same either way.
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
    kin_of_distinct = _kins(distinct, rows) if kins is not False and (kins or _kins_likely(distinct, rows)) else None
    if kin_of_distinct is None:
        links: list[tuple[int, int]] = []
        if len(distinct) > 1 and threshold < 1.0:
            for a, b in simjoin._join_distinct(distinct, threshold, should_stop, vectorised):  # read at call time
                g, h = group_ids[a], group_ids[b]
                links.append((g, h) if g < h else (h, g))
        links.sort()
        return SimilarGroups(group_of, links, empty)

    # Kins numbered by their first group, so in order of first position as the groups are.
    kin_of = array("l", [-1]) * groups
    kins_made = 0
    heads: list[int] = []  # per kin: the distinct index of its first set
    inside = bytearray()
    for i, g in enumerate(group_ids):
        same = kin_of_distinct[i]
        if same == i:
            heads.append(i)
            inside.append(0)
            kin_of[g] = kins_made
            kins_made += 1
        else:
            c = kin_of[group_ids[same]]
            kin_of[g] = c
            if heads[c] == same and not inside[c]:  # the kin's second set: its sets are all alike or none
                inside[c] = 1 if jaccard(distinct[same], distinct[i]) >= threshold else 2
    for g in range(groups):  # the empty set's groups, each a kin of its own
        if kin_of[g] < 0:
            kin_of[g] = kins_made
            kins_made += 1
            inside.append(0)
    kin_links: list[tuple[int, int]] = []
    if len(heads) > 1 and threshold < 1.0:
        for a, b in simjoin._join_distinct([distinct[i] for i in heads], threshold, should_stop, vectorised):
            c, d = kin_of[group_ids[heads[a]]], kin_of[group_ids[heads[b]]]
            kin_links.append((c, d) if c < d else (d, c))
    kin_links.sort()
    return SimilarGroups(group_of, (), empty, kin_of=kin_of, kin_links=kin_links, inside=inside)


#: From this many distinct sets on, kins are gathered only when a sample of every _KIN_SAMPLE_STEP-th set
#: holds two of one kin: counting every token of a set of real questions costs about a tenth of a second
#: at 100k, and real questions are nearly all kins of their own.
_KIN_SAMPLE_FROM = 4000
_KIN_SAMPLE_STEP = 16


def _kins_likely(distinct: list[SetKey], rows: bool) -> bool:
    """Whether a sample of ``distinct`` holds two sets of one kin, as :func:`_kins` would gather them from the sample alone.

    A token the sample holds once may be held again outside it, so the sample sets aside more
    tokens than the whole would and finds kins the whole does not: only a cost. Two sets of a
    kin of the whole are a kin of the sample too (their shared tokens are in both, their own in
    one), so a kin of many sets is seen.
    """
    if len(distinct) < _KIN_SAMPLE_FROM:
        return True
    sample = distinct[::_KIN_SAMPLE_STEP]
    found = _kins(sample, rows)
    return found is not None


def _kins(distinct: list[SetKey], rows: bool) -> array | None:
    """For each distinct set, the index of the first set of its kin (itself when first); None when every set is a kin of its own.

    A kin: the same tokens held by two or more sets, and as many tokens held by this set alone.
    """
    counted = Counter(chain.from_iterable(distinct))
    once = {token for token, n in counted.items() if n == 1}
    del counted
    if not once:
        return None
    same = array("l", range(len(distinct)))
    seen: dict[tuple[SetKey, int], int] = {}
    merged = False
    apart = once.isdisjoint
    for i, key in enumerate(distinct):
        if apart(key):  # every token shared: no other set is met alike
            continue
        core: SetKey = tuple([token for token in key if token not in once]) if rows else frozenset(key) - once
        if not core:  # nothing shared: similar to nothing, a kin or not
            continue
        first = seen.setdefault((core, len(key) - len(core)), i)
        if first != i:
            same[i] = first
            merged = True
    return same if merged else None


def link_similarity(groups: SimilarGroups, sets: Sequence[Collection[Hashable]], g: int, h: int) -> float:
    """The Jaccard similarity of two linked groups (read from any member of each)."""
    return jaccard(sets[groups.members.first(g)], sets[groups.members.first(h)])

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
    """Positions grouped by identical token set, and the groups linked by the join (see the module notes).

    ``group_of[k]``: the group of position k. ``members[g]``: the positions of group g,
    ascending, worked out from ``group_of``; groups are numbered in order of first appearance.
    ``links``: pairs of groups ``(g, h)``, ``g < h``, whose sets reach the threshold, sorted.
    ``empty``: the group of the empty set, or -1; two empty sets count as identical, as in
    :func:`.simjoin.jaccard`.
    """

    def __init__(self, group_of: array, links: Iterable[tuple[int, int]] = (), empty: int = -1) -> None:
        self.group_of = group_of
        self.links = links if isinstance(links, LinkList) else LinkList(links)
        self.empty = empty
        self.members = GroupMembers(group_of)
        self._neighbours: tuple[array, array] | None = None  # where each group's neighbours start, and them all
        self._reach: array | None = None  # per group: its positions and its linked groups' together
        self._ascending = True  # whether groups are numbered in order of their first positions (see _neighbour_table)
        self._involved: array | None = None

    def __repr__(self) -> str:
        return f"SimilarGroups(groups={len(self.members)}, links={len(self.links)}, empty={self.empty})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SimilarGroups):
            return NotImplemented
        return (self.group_of, self.links, self.empty) == (other.group_of, other.links, other.empty)

    __hash__ = None  # type: ignore[assignment]

    def __getstate__(self) -> dict[str, object]:
        # Sent from the scan's child process. The members are rebuilt from ``group_of`` on arrival (a pass over
        # the positions), and the tables worked out on use are not sent.
        return {"group_of": self.group_of, "links": self.links, "empty": self.empty}

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__init__(state["group_of"], state["links"], state["empty"])  # type: ignore[misc]

    # ---- what the join found

    def neighbours(self, group: int) -> list[int]:
        """The groups linked to ``group``, ascending by group number (by first position, as groups are numbered by first appearance)."""
        starts, linked = self._neighbours if self._neighbours is not None else self._neighbour_table()
        return linked[starts[group] : starts[group + 1]].tolist() if 0 <= group < len(starts) - 1 else []

    def _neighbour_table(self) -> tuple[array, array]:
        """Every group's neighbours in one array, grouped, and where each group's start, as the members are.

        On a set of many near-duplicates nearly every group has neighbours: a list per group,
        in a dict, cost five times as much as the links themselves.
        """
        count = len(self.members)
        starts = array("q", bytes(8 * (count + 1)))
        flat = self.links._packed()[0]
        lows, highs = flat[0::2], flat[1::2]
        if all(map(lt, lows, highs)) and all(map(le, zip(lows, highs), islice(zip(lows, highs), 1, None))):
            linked = self._sorted_links_table(count, starts, lows, highs)
        else:
            linked = self._any_links_table(count, starts)
        # From sorted links, each (g, h) with g < h as documented, each group's slice comes out sorted:
        # the groups below it first (from links (g, group), in order), then those above it (from
        # (group, h)). Group ids follow first appearance, so this is position order of their first members.
        self._neighbours = starts, linked
        # Made in the same pass, as the heads and the duplicate rule read it for every group: summing each
        # group's neighbours per call walked every link twice more.
        _, member_starts = self.members._packed()
        sizes = array("q", (member_starts[g + 1] - member_starts[g] for g in range(count)))
        reach = array("q", sizes)
        for g in range(count):
            if starts[g + 1] > starts[g]:
                reach[g] += sum(map(sizes.__getitem__, linked[starts[g] : starts[g + 1]]))
        self._reach = reach
        # The heads and the duplicate rule stop reading a group's neighbours once the rest start too late to
        # matter; that needs them in order of first position, which numbering by first appearance gives.
        # Checked rather than assumed, as a caller may number groups some other way (then they read them all).
        first = self.members.first
        self._ascending = all(first(g) < first(g + 1) for g in range(count - 1))
        return self._neighbours

    def _sorted_links_table(self, count: int, starts: array, lows: array, highs: array) -> array:
        """The neighbour table from links sorted as documented, copied in runs rather than link by link.

        Sorted links hold each group's links to higher groups as one run (its own ``(g, h)``);
        its links from lower groups become one run once their lower ends are placed by higher
        end (in link order, which keeps each run ascending). On a set where every question is
        linked to every other there are millions of links, and the loop that placed both ends
        of each link and then sorted every group's run was most of the time the table took.
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
        for g, h in self.links:
            starts[g + 1] += 1
            starts[h + 1] += 1
        for g in range(count):
            starts[g + 1] += starts[g]
        fill = array("q", starts)
        linked = array("q", bytes(8 * starts[count]))
        for g, h in self.links:
            linked[fill[g]] = h
            fill[g] += 1
            linked[fill[h]] = g
            fill[h] += 1
        for g in range(count):
            linked[starts[g] : starts[g + 1]] = array("q", sorted(linked[starts[g] : starts[g + 1]]))
        return linked

    def involved(self) -> array:
        """Positions that have at least one partner, ascending (worked out once)."""
        if self._involved is None:
            starts, _ = self._neighbours if self._neighbours is not None else self._neighbour_table()
            size = self.members.size
            linked = [g for g in range(len(self.members)) if size(g) > 1 or starts[g + 1] > starts[g]]
            # An array: a list would hold an int object for nearly every question where most have partners.
            self._involved = array("l", sorted(k for g in linked for k in self.members[g]))
        return self._involved

    def partner_count(self, position: int) -> int:
        return self.group_reach(self.group_of[position]) - 1

    def partners(self, position: int, limit: int | None = None) -> list[int]:
        """The positions similar to ``position`` in set order, at most ``limit`` of them."""
        g = self.group_of[position]
        own = [k for k in self.members[g] if k != position]
        return self.group_head(g, self.group_reach(g) if limit is None else limit, own)

    def group_head(self, group: int, limit: int, own: Sequence[int] | None = None) -> list[int]:
        """The first ``limit`` positions of ``group`` and its linked groups together, in set order.

        Every member of a group has the same partners but itself, so the checks read this once
        per group: a member's first ``limit - 1`` partners are this list without the member.
        ``own``: the group's positions to take (ascending; default all of them), for a caller
        that leaves some of its members out.

        Linked groups come in order of their first positions, so a linked group is only opened
        once its first position is the next one due: where every question is linked to every
        other, a head costs about ``limit`` steps, not one per linked group (merging them all,
        per group, was most of the time a scan took on such a set).
        """
        starts, linked = self._neighbours if self._neighbours is not None else self._neighbour_table()
        order, member_starts = self.members._packed()
        mine = order[member_starts[group] : member_starts[group + 1]] if own is None else own
        lo, hi = (starts[group], starts[group + 1]) if 0 <= group < len(starts) - 1 else (0, 0)
        if not self._ascending:  # opened all at once: the order below cannot be relied on
            opened = sorted(linked[lo:hi], key=self.members.first)
            linked, lo, hi = array("q", opened), 0, len(opened)
        sources = (order, mine)
        # Streams as (next position, index in its source, end, source); positions are distinct, so the
        # tuples compare on their first entry alone.
        heap: list[tuple[int, int, int, int]] = [(mine[0], 0, len(mine), 1)] if len(mine) else []
        head: list[int] = []
        while len(head) < limit:
            if lo < hi:
                h = linked[lo]
                due = order[member_starts[h]]
                if not heap or due < heap[0][0]:  # the next linked group starts before any open stream's next
                    lo += 1
                    heappush(heap, (due, member_starts[h], member_starts[h + 1], 0))
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
        """How many positions ``group`` and its linked groups hold together (a member's partners, plus itself)."""
        if self._reach is None:
            self._neighbour_table()
        assert self._reach is not None
        return self._reach[group] if 0 <= group < len(self._reach) else 0

    def pair_count(self) -> int:
        """How many item pairs the groups stand for (what :meth:`pairs` would list)."""
        size = self.members.size
        inside = sum(size(g) * (size(g) - 1) // 2 for g in range(len(self.members)))
        return inside + sum(size(g) * size(h) for g, h in self.links)

    def pairs(self) -> list[tuple[int, int]]:
        """Every similar pair of positions ``(i, j)``, ``i < j``, sorted: :func:`.simjoin.similar_pairs`' result."""
        found: list[tuple[int, int]] = []
        for m in self.members:
            if len(m) > 1:
                found.extend(combinations(m, 2))
        for g, h in self.links:
            for i in self.members[g]:
                for j in self.members[h]:
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
        for g, h in self.links:
            for i in self.members[g]:
                for j in self.members[h]:
                    if forms[i] != forms[j]:
                        found.append((i, j) if i < j else (j, i))
        found.sort()
        return found

    # ---- what the checks read from it

    def first_kept(self, positions: Sequence[int] | None = None) -> dict[int, int]:
        """The order-dependent duplicate rule on ``positions`` (default: all), in their order.

        A position goes when it is similar to one kept before it; returns {dropped: the earliest
        kept position it is similar to}, as :func:`.duplicates.first_kept_duplicate` gives from
        the pairs among ``positions``. The earliest kept member of each group is remembered, so
        each position costs one look per linked group, never one per pair.
        """
        # A position with no partner is always kept, and no one looks it up: only the others are walked.
        involved = self.involved()
        if positions is None:
            order: Iterable[int] = involved
        else:
            with_partner = set(involved)
            order = [k for k in positions if k in with_partner]
        starts, linked = self._neighbours if self._neighbours is not None else self._neighbour_table()
        first = self.members.first
        ascending = self._ascending
        kept_in: dict[int, int] = {}  # group -> its first kept position
        dropped: dict[int, int] = {}
        for k in order:
            g = self.group_of[k]
            earliest = kept_in.get(g, -1)
            for at in range(starts[g], starts[g + 1]):
                h = linked[at]
                # A group's kept positions are at or after its first, and the neighbours come by first
                # position: once one starts after the earliest found, none of the rest can beat it.
                if ascending and 0 <= earliest < first(h):
                    break
                other = kept_in.get(h, -1)
                if other >= 0 and (earliest < 0 or other < earliest):
                    earliest = other
            if earliest >= 0:
                dropped[k] = earliest
            else:
                kept_in[g] = k
        return dropped

    def clusters(self, keep_group: Callable[[int], bool] = lambda g: True) -> list[list[int]]:
        """Connected groups of positions (two or more), each ascending, in order of their first position.

        ``keep_group(g)`` says whether group g's own members count as similar to each other
        (a caller may rule out a group whose members are the same question, say).
        """
        parent = list(range(len(self.members)))

        def root(g: int) -> int:
            while parent[g] != g:
                parent[g] = parent[parent[g]]
                g = parent[g]
            return g

        for g, h in self.links:
            rg, rh = root(g), root(h)
            if rg != rh:
                parent[max(rg, rh)] = min(rg, rh)
        by_root: dict[int, list[int]] = {}
        for g, m in enumerate(self.members):
            r = root(g)
            if r != g or self.neighbours(g) or (len(m) > 1 and keep_group(g)):
                by_root.setdefault(r, []).append(g)
        found = []
        for groups in by_root.values():
            if len(groups) == 1 and not (len(self.members[groups[0]]) > 1 and keep_group(groups[0])):
                continue
            found.append(sorted(k for g in groups for k in self.members[g]))
        found.sort(key=lambda positions: positions[0])
        return found


@gc_paused()
def similar_groups(
    sets: Sequence[Collection[Hashable]],
    threshold: float,
    *,
    should_stop: Callable[[], bool] | None = None,
    vectorised: bool = False,
    skip_empty: bool = False,
) -> SimilarGroups:
    """The join of :func:`.simjoin.similar_pairs`, kept as groups and links (see :class:`SimilarGroups`).

    ``skip_empty``: an empty set has no partner, not even another empty set.
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
    links: list[tuple[int, int]] = []
    if len(distinct) > 1 and threshold < 1.0:
        for a, b in simjoin._join_distinct(distinct, threshold, should_stop, vectorised):  # read at call time
            g, h = group_ids[a], group_ids[b]
            links.append((g, h) if g < h else (h, g))
    links.sort()
    empty = first.get(frozenset(), first.get((), -1))  # the empty set, given as a frozenset or as a row
    return SimilarGroups(group_of, links, empty)


def link_similarity(groups: SimilarGroups, sets: Sequence[Collection[Hashable]], g: int, h: int) -> float:
    """The Jaccard similarity of two linked groups (read from any member of each)."""
    return jaccard(sets[groups.members.first(g)], sets[groups.members.first(h)])

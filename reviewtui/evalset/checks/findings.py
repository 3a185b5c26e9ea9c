"""Turning near-duplicate pairs and audit findings into per-item flags with one-line reasons.

Each flag names the other items involved (``related_ids``) and, for duplicates,
what the order-dependent duplicate filter would do with this item, so a reviewer
can decide which copy to keep without looking anything up.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from functools import lru_cache
from itertools import compress
from typing import Protocol

from reviewtui.evalset.checks import audit as audit_mod
from reviewtui.evalset.checks.audit import AuditReport, Finding, QuestionForms
from reviewtui.evalset.checks.duplicates import WordSets
from reviewtui.evalset.checks.policy import EXACT_DUPLICATE, NEAR_DUPLICATE, NEAR_DUPLICATE_SAME_GROUND, SEVERITY
from reviewtui.evalset.checks.repeats import PARTNERS_SHOWN, Repeats, documents_of
from reviewtui.evalset.checks.review_filters import DROPPED, KEPT_ANOTHER_ANSWER, KEPT_OTHER_DOCUMENTS, REMOVED
from reviewtui.evalset.checks.simgroups import SimilarGroups, index_kind
from reviewtui.evalset.checks.simjoin import jaccard
from reviewtui.evalset.model.flag import Flag, Severity
from reviewtui.evalset.model.items import EvalItem, EvalSet
from reviewtui.evalset.text.words import in_quotes, symbols, symbols_apart, word_set

__all__ = [
    "FilterVerdicts", "NearDuplicateFlags", "NearDuplicateLinks", "PiecedFlag", "add_flag", "add_one", "at_severity",
    "DefaultVerdicts", "audit_flags", "filter_verdicts", "ids_text", "listed",
]


_REASON = Flag.__dict__["reason"]  # the slot a Flag keeps its reason in, read and set past PiecedFlag's property


class PiecedFlag(Flag):
    """A :class:`Flag` whose reason is kept in pieces and joined each time it is read.

    A near-duplicate reason names items by their ids, so each item's is its own string, and a set where
    every question has partners held one per item until the report was written. Its pieces are text
    shared by many reasons (kept once, see :class:`_Pieces`) and the items' own id strings, which the
    set holds anyway: ``pieces[0::2]`` are text, ``pieces[1::2]`` ids, shown as :func:`in_quotes` shows
    them. Reads, compares, hashes and pickles as the Flag of the joined reason (unpickled, it is one).
    """

    __slots__ = ()

    def __init__(
        self, check: str, severity: Severity, reason: tuple[str, ...] | str, related_ids: tuple[str, ...] = ()
    ) -> None:  # ``reason``: its pieces (a whole reason, as dataclasses.replace gives one, is kept whole)
        set_field = object.__setattr__
        set_field(self, "check", check)
        set_field(self, "severity", severity)
        _REASON.__set__(self, reason)
        set_field(self, "related_ids", related_ids)

    @property
    def pieces(self) -> tuple[str, ...] | str:
        return _REASON.__get__(self)

    @property
    def reason(self) -> str:  # the joined reason; a property in place of the slot, which holds the pieces
        pieces = _REASON.__get__(self)
        if type(pieces) is str:
            return pieces
        shown = [*pieces]
        shown[1::2] = map(in_quotes, pieces[1::2])
        return "".join(shown)

    def at_severity(self, severity: Severity) -> Flag:
        return PiecedFlag(self.check, severity, self.pieces, self.related_ids)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Flag):
            return NotImplemented
        return (self.check, self.severity, self.reason, self.related_ids) == (other.check, other.severity, other.reason, other.related_ids)

    __hash__ = Flag.__hash__

    def __repr__(self) -> str:
        return repr(Flag(self.check, self.severity, self.reason, self.related_ids))

    def __reduce__(self) -> tuple[object, ...]:
        return Flag, (self.check, self.severity, self.reason, self.related_ids)


def at_severity(flag: Flag, severity: Severity) -> Flag:
    """``flag`` weighed ``severity``, its reason kept as it is kept (a :class:`PiecedFlag`'s in pieces)."""
    if type(flag) is PiecedFlag:
        return flag.at_severity(severity)
    return Flag(flag.check, severity, flag.reason, flag.related_ids)


class _Pieces:
    """A reason being made as :class:`PiecedFlag` keeps it: text and items in turn, the items by position.

    Kept by a :class:`NearDuplicateFlags` as numbers: its texts once each there (most texts between
    the ids, a figure, what differs, what the filter does, recur from reason to reason), its items
    as positions, whose id strings the set holds.
    """

    __slots__ = ("parts",)

    def __init__(self, text: str = "") -> None:
        self.parts: list[str | int] = [text]

    def text(self, text: str) -> None:
        self.parts[-1] += text  # type: ignore[operator]  # the last part is always a text

    def quoted(self, position: int) -> None:
        self.parts.append(position)
        self.parts.append("")

    def ids(self, positions: Sequence[int], limit: int = 4, *, total: int | None = -1) -> None:
        """:func:`ids_text`, in pieces."""
        for k, position in enumerate(positions[:limit]):
            if k:
                self.text(", ")
            self.quoted(position)
        if total is None:
            self.text(f" and at least {len(positions) - limit:,} more" if len(positions) > limit else " and others")
            return
        count = len(positions) if total < 0 else total
        self.text(f" and {count - limit:,} more" if count > limit else "")


_SEVERITIES = tuple(Severity)  # by value: HINT is 0
# A kept flag's header: severity + _SEVERITY_SPAN * (pieces + _MOST_PIECES * related items), one number rather than
# three, since where every item has a partner each number kept per flag is held through the scan's peak. The bounds
# keep it below 2**31; a reason has about a dozen pieces and names PARTNERS_SHOWN items at most.
_SEVERITY_SPAN = 8
_MOST_PIECES = 1024
_MOST_RELATED = 2**31 // (_SEVERITY_SPAN * _MOST_PIECES)
assert len(_SEVERITIES) <= _SEVERITY_SPAN


class NearDuplicateFlags:
    """Each item's near-duplicate flag (one at most), kept as numbers and made when asked for (:meth:`flag`).

    Where every question has partners, each item's flag is its own (its reason and related ids name
    its partners): a flag object, its pieces and its ids held for every item until the report was
    written cost more than anything else the scan holds but the items. Kept here instead, per item:
    the severity, the reason's pieces (a number per distinct text, a position per item it names) and
    the related items' positions, in one flat table. A flag made from them is the :class:`PiecedFlag`
    (or, for a reason naming no item, the :class:`Flag`) that was made before, equal in every field.
    """

    __slots__ = ("_data", "_ids", "_items", "_start", "_text_of", "_texts")

    def __init__(self, items: Sequence[EvalItem]) -> None:
        self._items = items
        self._start = array("q" if len(items) >= 2**31 // 64 else "i", [-1]) * len(items)  # where its flag begins in _data
        # Per flag: a header (its severity, the number of pieces and the number of related items, packed into
        # one number: see _SEVERITY_SPAN), the pieces (texts and positions in turn), the related items' positions.
        self._data = array("i" if len(items) < 2**31 else "q")
        self._texts: list[str] = []
        self._text_of: dict[str, int] = {}
        # The items' ids by position, made when a flag is first read: an item's id read from the item itself (a
        # pydantic model's attribute) cost several times a list's entry, for every id of every flag.
        self._ids: list[str] | None = None

    def add(self, k: int, severity: Severity, reason: _Pieces, related: Sequence[int]) -> None:
        """The flag of the item at ``k``: ``reason``'s pieces, naming ``related`` (positions)."""
        data, text_of = self._data, self._text_of
        parts = reason.parts
        if len(parts) >= _MOST_PIECES or len(related) >= _MOST_RELATED:
            raise ValueError(f"a near-duplicate flag of {len(parts)} pieces naming {len(related)} items is more than is kept")
        self._start[k] = len(data)
        data.append(severity + _SEVERITY_SPAN * (len(parts) + _MOST_PIECES * len(related)))
        for j, part in enumerate(parts):
            if j % 2:
                data.append(part)  # type: ignore[arg-type]  # a position
                continue
            number = text_of.get(part)  # type: ignore[arg-type]
            if number is None:
                number = text_of[part] = len(self._texts)  # type: ignore[index]
                self._texts.append(part)  # type: ignore[arg-type]
            data.append(number)
        data.extend(related)

    def __contains__(self, k: object) -> bool:
        return type(k) is int and 0 <= k < len(self._start) and self._start[k] >= 0

    def starts(self) -> array:
        """Position -> where its flag is kept, below 0 where it has none: read as :meth:`__contains__` without a call."""
        return self._start

    def flag(self, k: int) -> Flag | None:
        """The near-duplicate flag of the item at ``k``, made anew; None if it has none."""
        start = self._start[k]
        if start < 0:
            return None
        data = self._data
        ids = self._ids
        if ids is None:
            ids = self._ids = [item.id for item in self._items]
        sizes, severity = divmod(data[start], _SEVERITY_SPAN)
        count, n = divmod(sizes, _MOST_PIECES)
        at = start + 1 + n
        related = tuple(map(ids.__getitem__, data[at : at + count]))
        texts = self._texts
        if n == 1:
            return Flag(NEAR_DUPLICATE, _SEVERITIES[severity], texts[data[start + 1]], related)
        pieces: list[str] = [""] * n
        pieces[0::2] = map(texts.__getitem__, data[start + 1 : at : 2])
        pieces[1::2] = map(ids.__getitem__, data[start + 2 : at : 2])
        return PiecedFlag(NEAR_DUPLICATE, _SEVERITIES[severity], tuple(pieces), related)

    def severity(self, k: int) -> Severity:
        """The severity of the flag of the item at ``k`` (which has one), without making the flag."""
        return _SEVERITIES[self._data[self._start[k]] % _SEVERITY_SPAN]

    def positions(self) -> Iterator[int]:
        """The positions of the items with a flag, ascending."""
        return (k for k, start in enumerate(self._start) if start >= 0)


def add_flag(flags: dict[str, list[Flag]], item_id: str, flag: Flag) -> None:
    bucket = flags.get(item_id)
    if bucket is None:
        flags[item_id] = [flag]
    else:
        bucket.append(flag)


def add_one(flags: dict[str, Flag | list[Flag]], item_id: str, flag: Flag) -> None:
    """:func:`add_flag` where an item's one flag is kept as it is, and a list is made for a second (see :func:`listed`)."""
    bucket = flags.get(item_id)
    if bucket is None:
        flags[item_id] = flag
    elif type(bucket) is list:
        bucket.append(flag)
    else:
        flags[item_id] = [bucket, flag]  # type: ignore[list-item]


def listed(flags: Flag | list[Flag] | None) -> list[Flag] | None:
    """What :func:`add_one` kept for an item, as a list."""
    return flags if flags is None or type(flags) is list else [flags]  # type: ignore[list-item]


def ids_text(ids: Iterable[str], limit: int = 4, *, total: int | None = -1) -> str:
    """The first ``limit`` ids and how many more. ``total``: how many there are in all when ``ids``
    is only the start of the list (None: unknown, at least as many as given; -1: ``ids`` is all)."""
    ids = list(ids)
    shown = ", ".join(in_quotes(i) for i in ids[:limit])
    if total is None:
        return shown + (f" and at least {len(ids) - limit:,} more" if len(ids) > limit else " and others")
    count = len(ids) if total < 0 else total
    return shown + (f" and {count - limit:,} more" if count > limit else "")


class ByPosition(Protocol):
    """Anything that gives a question's normalised form by its position (a list, a dict, a lazy view)."""

    def __getitem__(self, position: int, /) -> str: ...


#: What the documented, order-dependent duplicate filter does with an item, as a reason says it. It is named
#: by the command that runs it: ``reviewtui filter`` by default removes only repeats asked in the same words
#: with the same answer (see review_filters), so "the duplicate filter drops this one" read as a promise
#: about the default command that it did not keep.
DROPS = "`filter --profile goldensetauditor` drops this one and keeps"
KEEPS = "`filter --profile goldensetauditor` keeps this one"

#: How a partner was found: by the audit on content tokens, by the filter on words, or only as two
#: questions the audit could not read (no token at all).
CONTENT, WORDS, UNMEASURED = 2, 1, 0

#: Partners read per item, from each join. An item past this many is said to have "at least" so many:
#: reading them all would cost the square of the set on a small vocabulary, for a count nobody reads.
PARTNERS_READ = 24
#: Positions of a group's head read once for all its members: PARTNERS_READ partners for any member
#: with fewer than HEAD_READ - PARTNERS_READ copies of its own question among them.
HEAD_READ = PARTNERS_READ + 8
assert HEAD_READ < 256  # a head's length is kept in a byte (_HeadTable.size)


class _HeadTable:
    """The head of each group of one join, made on first need: its first HEAD_READ positions (its own
    members' and its linked groups'), how many positions it reaches in all, and whether those first
    positions hold each question once.

    Read for every member of a group, so kept until the flags are made, and kept in flat tables:
    where every question has partners there is a head for nearly every question, and a dict entry
    holding a tuple and an array for each cost several times the positions it held.
    """

    __slots__ = ("distinct", "flat", "reach", "size", "start")

    def __init__(self, groups: int, positions: int) -> None:
        self.start = array(index_kind(HEAD_READ * groups), [-1]) * groups  # where its head begins in ``flat``; -1: not yet
        self.size = bytearray(groups)  # its length: at most HEAD_READ (below 256, see there)
        self.reach = array(index_kind(2 * positions), [0]) * groups  # a position may be reached as a group's and a kin's
        self.distinct = bytearray(groups)
        self.flat = array(index_kind(positions))  # positions

    def head(self, groups: SimilarGroups, g: int, forms: ByPosition | Mapping[int, Hashable]) -> tuple[array, int, bool]:
        """Group ``g``'s head, its reach and whether the head holds each question once (by ``forms``)."""
        start = self.start[g]
        if start < 0:
            head = groups.group_head(g, HEAD_READ)
            start = self.start[g] = len(self.flat)
            self.flat.extend(head)
            self.size[g] = len(head)
            self.reach[g] = groups.group_reach(g)
            # The forms given (strings, or their numbers) tell the same questions apart, so this holds for either.
            self.distinct[g] = len({forms[o] for o in head}) == len(head)
        return self.flat[start : start + self.size[g]], self.reach[g], bool(self.distinct[g])


_DIFFERENCES_KEPT = 4096  # pairs of word groups whose difference is kept for the next items that ask
#: Word sets and token sets kept while the flags are made: the partners read again and again are few (a group's
#: first members), and more of them kept was memory at the scan's peak.
_KEPT_SETS = 1024


class NearDuplicateLinks:
    """One near-duplicate flag per item, naming the items it nearly repeats, from both joins' groups.

    Partners come from the filter's join (word overlap ≥ 0.8, ``words``) and from the audit's
    (content tokens ≥ 0.82, :meth:`add_audit_groups`), each kept as groups of identical token
    sets and links between them (:mod:`.simgroups`), never as a list of pairs. A pair both
    joins found is described by the audit's figure, the one its report prints. Two questions
    that are the same after trimming and case are left to the exact-duplicate and
    conflicting-answer flags. The scan builds this with the filter's groups and calls
    :meth:`prepare` while the audit is still running elsewhere. ``sets`` maps a position to
    its word set; ``normalised`` a position to its trimmed, lower-cased question.
    """

    def __init__(
        self,
        items: Sequence[EvalItem],
        sets: WordSets,  # only sizes and overlaps are read
        normalised: ByPosition,
        position: Mapping[str, int],
        words: SimilarGroups,
    ) -> None:
        self.items = items
        self.sets = sets
        # The word sets the reasons' figures read: a question's own about once, its first partner's again and
        # again (a group's first members are everyone's first partner), so a few are kept while the flags are
        # made and none after; a table that keeps each one made (the scan's) is read without filling it.
        self._word_set = lru_cache(maxsize=_KEPT_SETS)(getattr(sets, "uncached", sets.__getitem__))
        self.normalised = normalised
        self.position = position
        self.words = words
        self.audit: SimilarGroups | None = None
        self._tokens: Callable[[int], frozenset[str]] | None = None
        self._audit_weight: Severity | None = None
        #: the review profile's reading: two questions whose words are the same but whose symbols differ ("B+" and
        #: "B-") are a hint, not a duplicate; the goldensetauditor profile, like the tool, compares words only
        self.symbols_matter = False
        # Per position, the partner its reason details were worked out for (-1: none yet) and their shared
        # ground (an index into GROUNDS): worked out for the partner first found, and again should the audit's
        # join give the item another first partner. Flat tables, made on first need, rather than a dict entry
        # and a tuple per item: where every question has a partner, that is every item.
        self._firsts: array | None = None
        self._grounds = bytearray()
        # And what differs between the two, as a number per position into a list of the distinct texts: on a set
        # of 20 words, 41 texts for 100k items. A table by pair of word groups, which it was, held an entry and a
        # number per pair (70k of them there) while the flags were made; now only the last few pairs are kept.
        self._said = array("i")
        self._said_texts: list[str] = []
        self._said_number: dict[str, int] = {}
        self._heads: dict[int, _HeadTable] = {}  # join -> its groups' heads
        self._apart: dict[tuple[int, int, Hashable], tuple[list[int], bool]] = {}  # (join, group, form) -> partners, all?
        self._form: array | None = None  # while flags_into runs: position -> its question's form, numbered
        self._differences: dict[int, str] = {}  # word group pair (numbered, see _detail) -> what differs, the last few

    def add_audit_groups(
        self,
        groups: SimilarGroups | None,
        tokenise: Callable[[str], frozenset[str]],
        weight: Severity | None = None,
    ) -> None:
        """The audit's join; ``tokenise`` makes a question's content tokens as the audit made them.

        ``weight``: what a flag of a pair this join found weighs, when it is not the check's own (the
        goldensetauditor profile weighs it as the tool weighs the pair's finding); a pair only the
        filter's word join found keeps the check's own weight, since the tool reports no such pair.
        """
        self.audit = groups
        self._audit_weight = weight
        items = self.items

        # Read for each flagged item and its first partner: a partner is read again and again (a group's
        # first members are everyone's first partner), the item itself about once. Kept for every item,
        # the tokens of a set where every question has a partner held as much memory as its flags.
        @lru_cache(maxsize=_KEPT_SETS)
        def tokens(k: int) -> frozenset[str]:
            return tokenise(items[k].question)

        self._tokens = tokens

    def _partners(self, groups: SimilarGroups, k: int, forms: ByPosition | Mapping[int, Hashable]) -> tuple[list[int], bool]:
        """The first PARTNERS_READ partners of ``k`` in ``groups``, and whether those are all of them.

        Questions that are ``k``'s own question again (the same form in ``forms``) are not
        partners: they are exact duplicates, flagged as such. They share ``k``'s group, so they
        are left out before the first PARTNERS_READ are taken, however many copies there are.

        The head of each group (its first positions with its linked groups') is read once and
        shared by its members; a member's partners are that head without its own form. Only
        a member with so many copies in the head that too few others are left is read apart
        (once per group and form): on a set of many near-duplicates, reading each member's
        partners apart cost time and memory in proportion to the members, group by group.
        """
        g = groups.group_of[k]
        table = self._heads.get(id(groups))
        if table is None:
            table = self._heads[id(groups)] = _HeadTable(len(groups.members), len(groups.group_of))
        head, reach, distinct = table.head(groups, g, forms)
        mine = forms[k]
        if distinct and k in head:  # most members: the only one of their question in the head is themselves
            at = head.index(k)
            others = head[:at].tolist() + head[at + 1 :].tolist()
        else:
            others = [o for o in head if forms[o] != mine]
        if len(head) == reach:  # the whole reach was read: nothing beyond it
            return others[:PARTNERS_READ], len(others) <= PARTNERS_READ
        if len(others) > PARTNERS_READ:  # more than enough: the first of them, and there are more
            return others[:PARTNERS_READ], False
        return self._partners_apart(groups, g, mine, forms)

    def _partners_apart(
        self, groups: SimilarGroups, g: int, mine: Hashable, forms: ByPosition | Mapping[int, Hashable]
    ) -> tuple[list[int], bool]:
        """_partners for a question with many copies in its group's head: the group read without them."""
        key = (id(groups), g, mine)
        cached = self._apart.get(key)
        if cached is None:
            members = groups.members[g]
            own = [o for o in members if forms[o] != mine]
            head = groups.group_head(g, PARTNERS_READ, own)
            total = groups.group_reach(g) - (len(members) - len(own))
            cached = self._apart[key] = (head, total <= PARTNERS_READ)
        return cached

    def _others(self, k: int) -> tuple[dict[int, int], bool]:
        """Partner position -> how it was found (WORDS, CONTENT, or UNMEASURED when linked only as two
        questions without a token), in set order; and whether that is all of the partners."""
        forms: ByPosition | Mapping[int, Hashable] = self._form if self._form is not None else self.normalised
        word_partners, complete = self._partners(self.words, k, forms)
        found = dict.fromkeys(word_partners, WORDS)
        audit = self.audit
        if audit is not None:
            audit_partners, all_read = self._partners(audit, k, forms)
            complete = complete and all_read
            if audit.group_of[k] == audit.empty:  # linked only as two questions without a token: a measured word
                for o in audit_partners:  # overlap, where there is one, says more
                    found.setdefault(o, UNMEASURED)
            else:
                for o in audit_partners:  # the audit's figure, the one its report prints
                    found[o] = CONTENT
        return {o: found[o] for o in sorted(found)}, complete

    def _how(self, k: int, o: int, kind: int) -> str:
        """How the pair (k, o) was measured, as the reason says it (only the first partner's is ever shown)."""
        if kind == CONTENT and self._tokens is not None:
            return f"{jaccard(self._tokens(k), self._tokens(o)):.0%} of content words shared"
        if kind == WORDS:
            return self._words_shared(k, o)
        return ""

    def _words_shared(self, k: int, o: int) -> str:
        """How much of their words two questions share, as the documented duplicate filter measures and says it."""
        word_set = self._word_set
        return f"{jaccard(word_set(k), word_set(o)):.0%} of words shared"

    def involved(self) -> array:
        """Positions with a partner in either join, ascending."""
        if self.audit is None:
            return self.words.involved()
        found = bytearray(len(self.items))  # marked, not a set: an int object per question where most have partners
        for joined in (self.words, self.audit):
            for k in joined.involved():
                found[k] = 1
        return array(index_kind(len(found)), compress(range(len(found)), found))

    def _form_of(self) -> Callable[[int], Hashable]:
        """A question's form by position, made without being kept where the forms can (see QuestionForms.form)."""
        return getattr(self.normalised, "form", self.normalised.__getitem__)

    def _numbered_forms(self, involved: Sequence[int]) -> array:
        """The forms of ``involved`` numbered (equal forms, equal numbers), adding to those :meth:`prepare` numbered.

        A form is a copy of its question: they are numbered a join at a time, and only the strings of the
        positions not numbered yet are held while they are, instead of the form of every question at once.
        """
        form = self._form
        if form is None:
            return _numbered(self._form_of(), involved, size=len(self.items))
        missing = [k for k in involved if form[k] < 0]
        if not missing:
            return form
        form_of = self._form_of()
        wanted: dict[Hashable, list[int]] = {}
        for k in missing:
            wanted.setdefault(form_of(k), []).append(k)
        for k in self.words.involved():  # the positions numbered already: a form of theirs takes their number
            if not wanted:
                break
            same = wanted.pop(form_of(k), None)
            if same is not None:
                for o in same:
                    form[o] = form[k]
        number = max(form) + 1
        for same in wanted.values():
            for o in same:
                form[o] = number
            number += 1
        return form

    def prepare(self) -> None:
        """Work out each item's reason details against its first word partner (kept if it stays first)."""
        involved = self.words.involved()
        self._form = self._numbered_forms(involved)  # compared as numbers: see _numbered_forms
        for k in involved:
            partners = self._partners(self.words, k, self._form)[0]
            if partners:
                self._detail(k, partners[0])

    def _detail(self, k: int, first: int) -> tuple[str, str]:
        """What differs between ``k`` and its first partner, and the ground they share ("" if none)."""
        firsts = self._firsts
        if firsts is None:
            firsts = self._firsts = array("q" if len(self.items) >= 2**31 else "i", [-1]) * len(self.items)
            self._grounds = bytearray(len(self.items))
            self._said = array("i", [-1]) * len(self.items)
        said = self._said
        if firsts[k] != first:
            firsts[k] = first
            self._grounds[k] = shared_ground(self.items[k], self.items[first])
            said[k] = -1
        number = said[k]
        if number < 0:
            # The difference depends only on the two word sets: the pair of groups just seen is likely seen again.
            group_of = self.words.group_of
            pair = group_of[k] * len(self.words.members) + group_of[first]
            difference = self._differences.get(pair)
            if difference is None:
                if len(self._differences) >= _DIFFERENCES_KEPT:
                    self._differences.clear()
                # The words themselves, for the few pairs shown (the scan keeps word sets as numbers).
                mine, theirs = word_set(self.items[k].question), word_set(self.items[first].question)
                difference = _difference(mine, theirs)
                number = self._said_number.get(difference, -1)
                if number < 0:
                    number = self._said_number[difference] = len(self._said_texts)
                    self._said_texts.append(difference)
                difference = self._differences[pair] = self._said_texts[number]  # each text once
            else:
                number = self._said_number[difference]
            said[k] = number
        return self._said_texts[number], GROUNDS[self._grounds[k]]

    def _pair_detail(self, k: int, first: int, kind: int) -> tuple[str, str]:
        """:meth:`_detail`, the difference named from content words where the pair was measured on those."""
        difference, shared = self._detail(k, first)
        if kind == CONTENT and self._tokens is not None:
            # Measured on content words: the words that differ are named from those too (on PrivacyQA a
            # pair "89% of content words shared" was said to differ by 'this' and 'the').
            content = _difference(self._tokens(k), self._tokens(first))
            if content == SAME_WORDS and difference != SAME_WORDS:
                # The content words leave some words out (a one-digit number, say): where those are all that
                # tells the two apart ("thing number 1" and "thing number 2"), "the same words" was untrue.
                difference = "; they differ only in words not counted as content:" + difference[1:]
            else:
                difference = content
        return difference, shared

    def flags_into(
        self,
        flags: NearDuplicateFlags,
        dropped: Mapping[int, int],
        default: Mapping[int, int] | None = None,
        gone: Mapping[int, str] | None = None,
    ) -> None:
        """Add the flags; ``dropped``: what the order-dependent duplicate filter removes (see first_kept_duplicate);
        ``default``: what ``reviewtui filter`` removes by default, {position: the position it keeps instead} (the same
        words with other punctuation and a shared answer or quotes; None: the flags say only what the former does);
        ``gone``: {position: the documented chain's filter that removes it before its near-duplicate filter}, of those."""
        involved = self.involved()
        self._form = self._numbered_forms(involved)
        if isinstance(self.normalised, QuestionForms):
            # A cache of the forms, should anything have filled it: every form the flags compare is numbered now.
            self.normalised.clear()
        try:
            self._flags_into(flags, dropped, involved, default or {}, gone or {})
        finally:
            self._heads.clear()  # read once per scan; the groups themselves stay with the scan's result
            self._apart.clear()
            self._differences.clear()
            self._said, self._said_texts, self._said_number = array("i"), [], {}
            self._firsts = None
            self._form = None
            self._word_set.cache_clear()  # read only while the flags are made
            clear = getattr(self._tokens, "cache_clear", None)
            if clear is not None:
                clear()

    def _flags_into(
        self,
        flags: NearDuplicateFlags,
        dropped: Mapping[int, int],
        involved: Sequence[int],
        default: Mapping[int, int],
        gone: Mapping[int, str],
    ) -> None:
        items = self.items
        # The items the filter keeps over a near-duplicate of theirs (not over an exact copy: that is not a partner).
        form = self._form
        assert form is not None
        # Marked per position, not a set: where most items are someone's copy, a set held an int object per keeper.
        keepers = bytearray(len(items))
        for j, i in dropped.items():
            if form[j] != form[i]:
                keepers[i] = 1
        # Per position, made once: the documents as a number (equal numbers: the same documents), so the
        # partners of each item (up to PARTNERS_READ of them) are compared without reading their evidence again.
        documents: list[frozenset[str]] = []
        document = _numbered(lambda k: documents_of(items[k]), involved, documents, size=len(items))
        apart: dict[tuple[int, int], bool] = {}  # (documents, documents) -> asked of other documents?

        def elsewhere(a: int, b: int) -> bool:
            if a == b:
                return False
            found = apart.get((a, b))
            if found is None:
                x, y = documents[a], documents[b]
                found = apart[(a, b)] = bool(x) and bool(y) and x.isdisjoint(y)
            return found

        for k in involved:
            others, complete = self._others(k)
            if not others:
                continue
            ordered = list(others)
            # The audit's partners first, then the word join's, each in set order: the reason leads with a
            # pair the report's near-duplicates also name (cuad's q24 led with q19, by words, where the
            # report named q23, by content words).
            measured = [o for o in ordered if others[o] == CONTENT]
            if len(measured) != len(ordered):
                measured += [o for o in ordered if others[o] == WORDS]
            if not measured:
                # Only linked because neither question has any word the audit can compare.
                reason = _Pieces("counts as a duplicate of ")
                reason.ids(ordered, total=_total(len(ordered), complete))
                reason.text(" only because neither has a word the audit can compare (non-Latin script or only very common words)")
                flags.add(k, Severity.LOW, reason, ordered[:PARTNERS_SHOWN])
                continue
            mine = document[k]
            if documents[mine]:  # one question asked of several documents is not a duplicate (see asked_of_other_documents)
                # Decided once per distinct set of documents among the partners, not once per partner.
                far = {d for d in {document[o] for o in measured} if elsewhere(mine, d)}
                same_source = [o for o in measured if document[o] not in far] if far else measured
            else:
                same_source = measured
            if not same_source:
                # The same question put to another document (one question per privacy policy): not a duplicate.
                reason = _Pieces("worded like ")
                reason.ids(measured, total=_total(len(measured), complete))
                reason.text(
                    f", which {'is' if len(measured) == 1 and complete else 'are'} asked of other "
                    f"documents: the same question about different sources, not a duplicate"
                )
                if k in dropped:  # that filter does not look at documents: say what it will do all the same
                    kept = dropped[k]
                    reason.text(f"; {DROPS} ")
                    reason.quoted(kept)
                    reason.text(f" all the same ({self._words_shared(k, kept)})")
                flags.add(k, Severity.HINT, reason, measured[:PARTNERS_SHOWN])
                continue
            measured = same_source
            first = measured[0]
            difference, shared = self._pair_detail(k, first, others[first])
            marks = ""
            if difference == SAME_WORDS and self.symbols_matter:
                marks = symbols_apart(items[k].question, items[first].question)
                if marks:
                    # Another partner may ask it with the same symbols ("B-" beside "B+" and "b-"): the repeat
                    # the filter removes, which the flag must warn of, led by that partner.
                    mine = symbols(items[k].question)
                    alike = next((o for o in measured[1:] if symbols(items[o].question) == mine), None)
                    if alike is not None:
                        measured = [alike, *(o for o in measured if o != alike)]
                        first = alike
                        difference, shared = self._pair_detail(k, first, others[first])
                        marks = ""
            if marks:  # "B+" and "B-", "C#" and "C++": the same words, and not the same question
                difference = f"; the same words, but {marks}"
            reason = _Pieces("nearly the same question as ")
            reason.quoted(first)
            reason.text(f" ({self._how(k, first, others[first])}{difference})")
            rest = len(measured) - 1
            if not complete and not rest:  # the partners read were asked of other documents; those past them unread
                reason.text(" and perhaps others")
            elif not complete:
                reason.text(f" and at least {rest:,} other{'s' if rest != 1 else ''}")
            elif rest:
                reason.text(f" and {rest:,} other{'s' if rest > 1 else ''}")
            if shared:
                reason.text(f"; {shared}")
            kept_by_default = default.get(k)
            if kept_by_default is not None:  # `reviewtui filter` removes it too: a flag naming only the other filter hid that
                reason.text(f"; {FILTER} drops this one and keeps ")
                reason.quoted(kept_by_default)
                if k in gone:  # removed before that filter compares copies: it neither keeps nor drops it as one
                    reason.text(f"; {DOCUMENTED} removes it as {gone[k]}")
                elif k not in dropped:
                    reason.text(f"; {DOCUMENTED} keeps it")
                elif dropped[k] != kept_by_default:
                    reason.text(f"; {DOCUMENTED} keeps ")
                    reason.quoted(dropped[k])
                    reason.text(" instead")
            elif k in dropped:
                kept = dropped[k]
                reason.text(f"; {DROPS} ")
                reason.quoted(kept)
                if kept != first or others[first] != WORDS:
                    # The figure above is another measure, or of another pair: that filter's own, as it prints it.
                    reason.text(f" ({self._words_shared(k, kept)})")
            elif keepers[k]:
                reason.text(f"; {KEEPS}")
            severity = SEVERITY[NEAR_DUPLICATE_SAME_GROUND] if shared else SEVERITY[NEAR_DUPLICATE]
            if others[first] == CONTENT and self._audit_weight is not None:
                severity = max(severity, self._audit_weight)
            if marks:
                severity = Severity.HINT
            flags.add(k, severity, reason, measured[:PARTNERS_SHOWN])


def _numbered(
    value_of: Callable[[int], Hashable], positions: Iterable[int], distinct: list | None = None, *, size: int
) -> array:
    """Position -> a number per distinct value (equal values, equal numbers); ``distinct`` collects the values.

    An array over every position (``size`` of them), -1 where a position was not asked for: on a
    set where every question has a partner, a dict of them cost ten times as much.
    """
    numbers: dict[Hashable, int] = {}
    found = array(index_kind(size), [-1]) * size
    for k in positions:
        value = value_of(k)
        number = numbers.get(value)
        if number is None:
            number = numbers[value] = len(numbers)
            if distinct is not None:
                distinct.append(value)
        found[k] = number
    return found


def _total(read: int, complete: bool) -> int | None:
    """What ids_text says the list holds: exactly ``read``, or None for "at least" (not every partner was read)."""
    return read if complete else None


def asked_of_other_documents(a: EvalItem, b: EvalItem) -> bool:
    """Whether two items cite evidence, none of it from the same document: one question asked of two sources.

    A set may ask the same question of every document (PrivacyQA asks each privacy policy what
    data it shares); those are not duplicates, and their answers may rightly differ.
    """
    mine, theirs = documents_of(a), documents_of(b)
    return bool(mine) and bool(theirs) and mine.isdisjoint(theirs)


#: What two similar questions can share that makes them probably one question (see shared_ground).
GROUNDS = ("", "both expect the same answer", "both cite the same evidence")


def shared_ground(a: EvalItem, b: EvalItem) -> int:
    """Why two similar questions are probably one question, as an index into GROUNDS: the same
    expected answer (1), the same quotes (2), or neither (0)."""
    if a.answer is not None and b.answer is not None and a.answer.strip().lower() == b.answer.strip().lower():
        return 1
    quotes_a = {(anchor.source_id, anchor.quote.strip()) for anchor in a.anchors}
    if quotes_a and quotes_a == {(anchor.source_id, anchor.quote.strip()) for anchor in b.anchors}:
        return 2
    return 0


#: What _difference says of two questions with the same words.
SAME_WORDS = "; same words, in another order or form"


def _difference(mine: frozenset[str], theirs: frozenset[str], limit: int = 3) -> str:
    """"; here 'biology', there 'chemistry'": what a reviewer needs to judge a near-duplicate."""
    only_mine = sorted(mine - theirs)
    only_theirs = sorted(theirs - mine)
    if not only_mine and not only_theirs:
        return SAME_WORDS

    def show(words: list[str]) -> str:
        text = ", ".join(in_quotes(w) for w in words[:limit])
        return (text + ", …") if len(words) > limit else (text or "nothing")

    return f"; here {show(only_mine)}, there {show(only_theirs)}"


#: A weak-answer flag on an item without an answer in a set whose other items have one: it depends on the set.
NO_ANSWER_REASON = "no expected answer, unlike other items in the set"
#: The same in a set where no item has one (the goldensetauditor profile warns of each).
NO_ANSWER_IN_SET_REASON = "no expected answer (no item in the set has one)"


class FilterVerdicts(Mapping[str, str]):
    """What the (order-dependent) duplicate filter does to each item involved, as a clause for a reason,
    by item id: "drops this one and keeps 'q1'" for an item it drops, "keeps this one" for one it keeps
    over another.

    Made when asked: the audit's flags ask only of the items in its duplicate findings, and where most
    items are someone's later copy, a clause made ahead for each was a string per item held at the
    scan's peak.
    """

    __slots__ = ("_items", "_positions", "_dropped", "_kept")

    def __init__(self, items: Sequence[EvalItem], dropped: Mapping[int, int], positions: Mapping[str, int]) -> None:
        self._items = items
        self._positions = positions
        self._dropped = dropped
        self._kept = set(dropped.values())

    def _position(self, item_id: object) -> int | None:
        k = self._positions.get(item_id) if isinstance(item_id, str) else None
        return k if k is not None and (k in self._dropped or k in self._kept) else None

    def __contains__(self, item_id: object) -> bool:
        return self._position(item_id) is not None

    def __getitem__(self, item_id: str) -> str:
        k = self._position(item_id)
        if k is None:
            raise KeyError(item_id)
        kept = self._dropped.get(k)
        return f"; {KEEPS}" if kept is None else f"; {DROPS} {in_quotes(self._items[kept].id)}"

    def dropped_for(self, item_id: str) -> str | None:
        """The id of the item that filter keeps instead of ``item_id``, or None when it keeps ``item_id``."""
        k = self._position(item_id)
        kept = self._dropped.get(k) if k is not None else None
        return None if kept is None else self._items[kept].id

    def __iter__(self) -> Iterator[str]:
        items = self._items
        return (items[k].id for k in sorted(self._dropped.keys() | self._kept))

    def __len__(self) -> int:
        return len(self._dropped.keys() | self._kept)


#: What ``reviewtui filter`` does with a copy, by default (the review profile's chain), as a reason says it.
FILTER = "`reviewtui filter`"
#: The documented filter, where it does otherwise.
DOCUMENTED = "`filter --profile goldensetauditor`"


class DefaultVerdicts(Mapping[str, str]):
    """What ``reviewtui filter`` does by default with each copy of a repeated question the audit names, as a clause
    for its flag, and what ``filter --profile goldensetauditor`` does where that differs.

    ``default``: :func:`~reviewtui.evalset.checks.review_filters.judge_copies`; ``documented``: the
    documented chain's (:class:`FilterVerdicts`). The flags said only what the documented filter does ("drops
    this one and keeps 'q2'"), true of the default command too for a plain copy, but not of a copy it keeps: a
    BEIR query judged against other relevant documents, a copy expecting another answer.
    """

    __slots__ = ("_default", "_documented", "_removed_before")

    def __init__(
        self,
        default: Mapping[str, tuple[str, str]],
        documented: FilterVerdicts,
        removed_before: Callable[[str], str | None] | None = None,
    ) -> None:
        """``removed_before(item id)``: the documented chain's filter that removes the item before its near-duplicate
        filter compares copies (None: none does)."""
        self._default = default
        self._documented = documented
        self._removed_before = removed_before

    def __getitem__(self, item_id: str) -> str:
        verdict, other = self._default[item_id]
        instead = self._documented.dropped_for(item_id) if item_id in self._documented else None
        gone = self._removed_before(item_id) if self._removed_before is not None else None
        if gone is not None and (verdict != REMOVED or gone != other):
            # That filter removes it before it compares copies ("Qu'est-ce qu'un cookie ?" is 3 words by its spaces;
            # "this clause" dangles): "keeps it" was said of an item it removes.
            gone_said = f"; {DOCUMENTED} removes it as {gone}"
        else:
            gone_said = ""
        if verdict == DROPPED:
            said = f"; {FILTER} drops this one and keeps {in_quotes(other)}"
            if gone is not None:
                said += gone_said
            elif instead is None:
                said += f"; {DOCUMENTED} keeps it"
            elif instead != other:
                said += f"; {DOCUMENTED} keeps {in_quotes(instead)} instead"
            return said
        if verdict == REMOVED:
            said = f"; {FILTER} removes it as {other}"
        elif verdict == KEPT_ANOTHER_ANSWER:
            said = f"; {FILTER} keeps this one too: it expects another answer than {in_quotes(other)}"
        elif verdict == KEPT_OTHER_DOCUMENTS:
            said = (
                f"; {FILTER} keeps this one too: it is judged against other relevant documents than "
                f"{in_quotes(other)} (merge the two by hand)"
            )
        else:
            said = f"; {FILTER} keeps this one"
        if instead is not None:
            said += f"; {DOCUMENTED} drops it and keeps {in_quotes(instead)}"
        return said + gone_said

    def __contains__(self, item_id: object) -> bool:
        return item_id in self._default

    def __iter__(self) -> Iterator[str]:
        return iter(self._default)

    def __len__(self) -> int:
        return len(self._default)


def filter_verdicts(items: Sequence[EvalItem], dropped: Mapping[int, int], positions: Mapping[str, int]) -> FilterVerdicts:
    """What the (order-dependent) duplicate filter does to each item involved (see :class:`FilterVerdicts`)."""
    return FilterVerdicts(items, dropped, positions)


def audit_flags(
    flags: dict[str, list[Flag]], report: AuditReport, evalset: EvalSet, verdicts: Mapping[str, str], *, one_kept_bare: bool = False
) -> None:
    """Turn audit findings (other than near-duplicate pairs, handled above) into per-item flags.

    ``one_kept_bare``: an item's flags are added as :func:`add_one` adds them, its one flag not in a list of its
    own: on a set of short answers every item has one (a weak answer's), and a list each held more than the
    flags themselves while the scan's flags were merged.
    """
    add = add_one if one_kept_bare else add_flag
    made: dict[Flag, Flag] = {}  # one object per distinct flag: most repeat (a weak answer's reason on every item)
    alike: dict[tuple[object, ...], Flag | None] = {}  # a one-item finding's flag, by what decides it
    by_identity: dict[tuple[str, int, int], Flag | object | None] = {}  # the same, by the objects that say it
    findings = report.findings
    if not isinstance(findings, audit_mod.FindingTable):
        for finding in findings:
            _finding_flags(finding, flags, evalset, verdicts, add, made, alike, by_identity)
        return
    # Findings kept as numbers (see FindingTable): one that says what others say is made once, for its flag, which
    # those others then share, as the finding's flag would be found by identity below.
    items = evalset.items
    said_flag: dict[int, object] = {}
    for finding, said, position in findings.walk():
        if finding is not None:
            _finding_flags(finding, flags, evalset, verdicts, add, made, alike, by_identity)
            continue
        shared = said_flag.get(said, _UNSEEN)
        if shared is _UNSEEN:
            first = findings.made(said, position)
            shared = said_flag[said] = _shared_flag(first, evalset, made, alike, by_identity) if first.check in _ONE_ITEM else _OWN
        if isinstance(shared, Flag):
            item_id = items[position].id
            if one_kept_bare and item_id not in flags:  # add_one's first case, the most common, without the call
                flags[item_id] = shared
            else:
                add(flags, item_id, shared)
        elif shared is _OWN:
            _finding_flags(findings.made(said, position), flags, evalset, verdicts, add, made, alike, by_identity)


def _shared_flag(
    finding: Finding,
    evalset: EvalSet,
    made: dict[Flag, Flag],
    alike: dict[tuple[object, ...], Flag | None],
    by_identity: dict[tuple[str, int, int], Flag | object | None],
) -> Flag | object | None:
    """The flag a one-item finding shares with those saying the same (None: no flag; _OWN: a flag of its own)."""
    item_id = finding.item_ids[0]
    same = (finding.check, id(finding.detail), id(finding.evidence))
    shared = by_identity.get(same, _UNSEEN)
    if shared is _UNSEEN:
        if all(map(_scalar, finding.evidence.values())):
            # _flag_for also reads whether a weak answer's item has an answer at all; the audit says so
            # in the finding's detail ("the item has no expected answer"), which is part of the key.
            key = (finding.check, finding.detail, tuple(sorted(finding.evidence.items())))
            if key not in alike:
                first = _flag_for(finding, item_id, (), evalset)
                alike[key] = None if first is None else made.setdefault(first, first)
            shared = alike[key]
        else:
            shared = _OWN  # evidence holding more than plain values: each such finding's flag is its own
        by_identity[same] = shared
    return shared


def _finding_flags(
    finding: Finding,
    flags: dict[str, list[Flag]],
    evalset: EvalSet,
    verdicts: Mapping[str, str],
    add: Callable[..., None],
    made: dict[Flag, Flag],
    alike: dict[tuple[object, ...], Flag | None],
    by_identity: dict[tuple[str, int, int], Flag | object | None],
) -> None:
    """One finding's flags, added to ``flags`` (see audit_flags)."""
    if not finding.item_ids or finding.check == audit_mod.NEAR_DUPLICATES:
        return
    if finding.check in (audit_mod.CONFLICTING, audit_mod.EXACT_DUPLICATES):
        repeats = Repeats([evalset.get(item_id) for item_id in finding.item_ids], finding.item_ids)
        for k, item_id in enumerate(finding.item_ids):
            others, total, differ = repeats.partners(k)
            if not total:  # asked of other documents only: not a repeat, and different answers are expected
                continue
            shown = finding
            if finding.check == audit_mod.CONFLICTING and not differ:
                # those left, of the same document, expect the same answer: a plain repeat
                shown = replace(finding, check=audit_mod.EXACT_DUPLICATES)
            flag = _flag_for(shown, item_id, others, evalset, total)
            if flag is None:
                continue
            if item_id in verdicts:
                flag = Flag(flag.check, flag.severity, flag.reason + verdicts[item_id], flag.related_ids)
            add(flags, item_id, made.setdefault(flag, flag))
        return
    if len(finding.item_ids) == 1 and finding.check in _ONE_ITEM:
        # One finding per item (a weak answer on most items of a large set): where its evidence is plain
        # values, the flag depends only on what the finding says, so it is made once per distinct finding,
        # not once per item. The audit shares one detail string and one evidence dict among the findings
        # that say the same thing, so most are found by identity (the findings, alive in the report, keep
        # the ids valid), which also remembers whether the evidence is plain; the key by value is the
        # fallback for findings made elsewhere.
        shared = _shared_flag(finding, evalset, made, alike, by_identity)
        if isinstance(shared, Flag):
            add(flags, finding.item_ids[0], shared)
        if shared is not _OWN:
            return
    for item_id in finding.item_ids:
        others = tuple(i for i in finding.item_ids if i != item_id)
        flag = _flag_for(finding, item_id, others, evalset)
        if flag is not None:
            add(flags, item_id, made.setdefault(flag, flag))


#: In audit_flags: a finding not looked at yet, and one whose flag is made for it alone.
_UNSEEN, _OWN = object(), object()

#: Checks whose one-item findings give a flag that depends on nothing but the finding (see _flag_for).
_ONE_ITEM = frozenset({audit_mod.WEAK_ANSWER, audit_mod.AMBIGUOUS, audit_mod.OVER_EASY})


def _scalar(value: object) -> bool:
    return value is None or type(value) in (int, float, str, bool)


def _flag_for(finding: Finding, item_id: str, others: tuple[str, ...], evalset: EvalSet, total: int = -1) -> Flag | None:
    """``others``: the first of the related items; ``total``: how many there are in all (-1: ``others`` is all)."""
    check = finding.check
    evidence = finding.evidence
    if check == audit_mod.CONFLICTING:
        reason = f"asks the same question as {ids_text(others, total=total)} but expects a different answer; decide which is right"
        return Flag(check, SEVERITY[check], reason, others)
    if check == audit_mod.EXACT_DUPLICATES:
        item = evalset.get(item_id)
        # An empty answer is no answer, as the filter says it: "the same expected answer" on one copy of a pair and
        # "no expected answers" on the other told two stories of one pair.
        same = "with the same expected answer" if item is not None and (item.answer or "").strip() else "(no expected answers)"
        times = (len(others) if total < 0 else total) + 1
        reason = f"the same question as {ids_text(others, total=total)} {same}; it is counted {times:,} times"
        return Flag(EXACT_DUPLICATE, SEVERITY[EXACT_DUPLICATE], reason, others)
    if check == audit_mod.WEAK_ANSWER:
        item = evalset.get(item_id)
        if item is not None and item.answer is None:
            reason = NO_ANSWER_REASON if finding.detail != audit_mod.NO_ANSWER_IN_SET_DETAIL else NO_ANSWER_IN_SET_REASON
        else:
            count = evidence.get("meaningful_tokens", 0)
            reason = (
                f"the expected answer has {count} content word{'' if count == 1 else 's'} "
                f"(the audit wants {evidence.get('minimum')}); grading it is brittle"
            )
        return Flag(check, SEVERITY[check], reason)
    if check == audit_mod.AMBIGUOUS:
        return Flag(check, SEVERITY[check], finding.detail)
    if check == audit_mod.OVER_EASY:
        return Flag(check, SEVERITY[check], f"{finding.detail}: the answer may just repeat the question")
    if check == audit_mod.CATEGORY_COVERAGE:
        category = str(evidence.get("category"))
        count = evidence.get("count")
        reason = f"its category {category!r} has only {count} question{'' if count == 1 else 's'}; a per-category score would be noise"
        return Flag(check, SEVERITY[check], reason, others)
    return Flag(check, Severity.LOW, finding.detail, others)

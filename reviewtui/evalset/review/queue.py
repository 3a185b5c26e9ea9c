"""The review queue: one person deciding on every question of a set, one key at a time.

A :class:`ReviewQueue` holds the items under review, a cursor, one
:class:`Decision` per decided item and the undo/redo stacks. Every change goes
through two steps: a ``plan_*`` method checks the request and builds a small
action without touching anything, and :meth:`ReviewQueue.apply` carries it out.
The plain methods (``accept``, ``undo`` …) do both at once; a
:class:`~reviewtui.evalset.review.session.ReviewSession` writes the planned action to
its journal in between, and replaying a journal is just applying the same
actions again, so a resumed queue ends up in exactly the state it was left in.

Nothing done per key press scans the set: counts are kept as decisions come and
go, and the next undecided item is found through a :class:`PositionSet` over the
chosen order.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import functools
import getpass
import os
import time
from collections.abc import Callable, Collection, Container, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, NamedTuple, cast

from reviewtui.evalset.jobs.collector import gc_paused
from reviewtui.evalset.model.errors import InputError, ReviewError
from reviewtui.evalset.model.items import (
    EvalItem,
    EvalSet,
    FrozenDict,
    GoldAnchor,
    GoldSpan,
    is_marked_reviewed,
)
from reviewtui.evalset.model.review import REVIEW_KEY, ReviewRecord, keep_earlier, keep_replaced
from reviewtui.evalset.review.positions import PositionSet
from reviewtui.evalset.text.words import word_set

__all__ = [
    "IDLE_CAP_SECONDS",
    "Annotate",
    "Dismiss",
    "Change",
    "Decide",
    "Decision",
    "ItemEdit",
    "Move",
    "Redo",
    "RejectReason",
    "Reorder",
    "ReviewOrder",
    "ReviewQueue",
    "ReviewStats",
    "Undo",
    "Verdict",
    "changes_the_item",
    "default_reviewer",
    "format_duration",
    "iso_time",
    "pending",
    "review_summary",
    "stays_in_review",
]

IDLE_CAP_SECONDS = 300.0
"""Longest time one look at an item may count for; beyond it the reviewer was away."""
#: The most time one decision records (a journal refuses more: a year, replay.MAX_SECONDS).
_MOST_SECONDS = 365 * 24 * 3600.0

FINISHED_MESSAGE = "the review is finished: no question is open to decide on"


class Verdict(StrEnum):
    """What the reviewer decided about one item."""

    PENDING = "pending"
    ACCEPTED = "accepted"
    REJECTED = "rejected"
    EDITED = "edited"
    SKIPPED = "skipped"


DECIDED_VERDICTS = (Verdict.ACCEPTED, Verdict.REJECTED, Verdict.EDITED, Verdict.SKIPPED)


class RejectReason(StrEnum):
    """Why a question was thrown out: a short fixed vocabulary a generator can learn from."""

    UNANSWERABLE = "unanswerable"
    AMBIGUOUS = "ambiguous"
    WRONG_EVIDENCE = "wrong-evidence"
    DUPLICATE = "duplicate"
    GENERAL_KNOWLEDGE = "general-knowledge"
    OFF_TOPIC = "off-topic"
    WRONG_ANSWER = "wrong-answer"  # after the others, so their digits in the reason picker stay as they were
    OTHER = "other"

    @property
    def description(self) -> str:
        return _REASON_WORDS[self]

    @classmethod
    def parse(cls, value: str | RejectReason | None) -> RejectReason | None:
        """Accept an enum member, its code in any case, or with ``_`` for ``-``; None and "" mean no reason."""
        if value is None or isinstance(value, RejectReason):
            return value
        code = str(value).strip().lower().replace("_", "-").replace(" ", "-")
        if not code:
            return None
        try:
            return cls(code)
        except ValueError:
            known = ", ".join(r.value for r in cls)
            raise ReviewError(f"unknown reject reason {value!r}; use one of: {known}") from None


_REASON_WORDS = {
    RejectReason.UNANSWERABLE: "the evidence does not answer it",
    RejectReason.AMBIGUOUS: "it can be read, or answered, more than one way",
    RejectReason.WRONG_EVIDENCE: "the quote or span is not the evidence for it",
    RejectReason.DUPLICATE: "another question already asks this",
    RejectReason.GENERAL_KNOWLEDGE: "answerable without reading the corpus",
    RejectReason.OFF_TOPIC: "not about this corpus",
    RejectReason.WRONG_ANSWER: "the expected answer is wrong or incomplete",
    RejectReason.OTHER: "see the note",
}


@dataclass(frozen=True, slots=True)
class Decision:
    """One verdict on one item, with what was decided on and by whom.

    ``before`` is the item as it stands in the set; ``after`` is the item the
    verdict applies to (the edited copy for an edit, else ``before`` itself), so
    an export can show what a reviewer changed. ``seconds`` is how long the item
    was on screen before the decision, capped so a coffee break does not count.
    ``warnings`` names the high-severity checks still flagging the item when it was
    accepted or edited (see :attr:`ReviewQueue.open_warnings`), so that accepting past
    a serious warning stays visible in the export.
    """

    item_id: str
    verdict: Verdict
    note: str = ""
    reason: RejectReason | None = None
    before: EvalItem | None = field(default=None, repr=False)
    after: EvalItem | None = field(default=None, repr=False)
    decided_at: float = 0.0
    seconds: float = 0.0
    reviewer: str = ""
    warnings: tuple[str, ...] = ()
    #: every check (low or above) flagging the item when it was decided; those the reviewer has not
    #: dismissed are confirmed by a rejection or an edit and passed by an accept (see warning_tally)
    flagged: tuple[str, ...] = ()
    #: who wrote ``note`` when it is not ``reviewer`` (another reviewer's note on this decision); else ""
    note_by: str = ""
    #: whose decision this one took, when an adjudicator took a reviewer's with a digit; else ""
    taken_from: str = ""
    #: (author, note) of the notes another reviewer's note replaced on this item, oldest first: the decider's
    #: own words (why they rejected it) are kept when someone else writes a note on their decision
    earlier_notes: tuple[tuple[str, str], ...] = ()
    #: who made the edits the decided item carries, in the order they made them (this decision's reviewer too, when
    #: they edited it); () when it is the set's own item. Another reviewer's edit accepted as it stood was credited
    #: to whoever decided last (see :func:`editors_of`).
    editors: tuple[str, ...] = ()
    #: for an edit, the checks of ``flagged`` that still flag the edited item: the edit kept the item past them
    #: rather than fixing them (see warning_tally); None for other verdicts and for journals written before
    #: edits recorded it, whose edits count as fixing every warning
    unfixed: tuple[str, ...] | None = None
    #: for an accept or edit, (check, the items it names) of each warning about this item and others that it
    #: recorded: rejecting every one of those items settles it, before the decision or after (see settled_checks)
    pairs: tuple[tuple[str, tuple[str, ...]], ...] = ()
    #: made before the quality checks had finished (see ReviewQueue.warnings_unknown): ``warnings`` and ``flagged``
    #: are empty because nothing was known, not because nothing flagged the item
    unchecked: bool = False

    def notes_kept(self, writer: str, note: str) -> tuple[tuple[str, str], ...]:
        """``earlier_notes`` once ``writer`` puts ``note`` in place of this decision's: its note is kept with its
        author when that is someone else and the words change (a reviewer's own note they change is theirs to change)."""
        wrote = self.note_by or self.reviewer
        if self.note and wrote != writer and note != self.note:
            return (*self.earlier_notes, (wrote, self.note))
        return self.earlier_notes

    @property
    def changed(self) -> bool:
        """The decided item differs from the one in the set."""
        after, before = self.after, self.before
        # Most decisions keep the very item they were made on: no field-by-field comparison for those.
        return after is not None and before is not None and after is not before and after != before

    def changes(self) -> dict[str, tuple[Any, Any]]:
        """Field name -> (value in the set, value after review), for the fields that differ."""
        if not self.changed:
            return {}
        old = self.before.model_dump()  # type: ignore[union-attr]
        new = self.after.model_dump()  # type: ignore[union-attr]
        # Compared as JSON has them, as the export's ``original`` is: an edit replayed from a journal holds its meta
        # as JSON gave it back (a BEIR query's gold documents as lists, the set's as tuples), and the adjudicator
        # was shown "meta: {'gold_documents': [('3202143', 1)]} → {'gold_documents': [['3202143', 1]]}", a change
        # of the relevant documents nobody made, beside the type the reviewer did change.
        old_json = self.before.model_dump(mode="json")  # type: ignore[union-attr]
        new_json = self.after.model_dump(mode="json")  # type: ignore[union-attr]
        return {name: (old[name], new[name]) for name in old if old_json[name] != new_json.get(name)}

    def record(self) -> ReviewRecord:
        """This decision as an exported item records it (``meta["review"]``)."""
        data = self.record_meta()
        lists: dict[str, tuple[Any, ...]] = {
            name: tuple(data[name]) for name in ("open_warnings", "flagged", "earlier_notes", "edited_by", "unfixed") if name in data
        }
        return ReviewRecord(**{**data, **lists})

    def record_meta(self) -> dict[str, Any]:
        """:meth:`record` as the plain dict that goes under ``meta["review"]`` (what an export writes per item)."""
        original: dict[str, Any] = {}
        if self.changed:
            old = self.before.model_dump(mode="json")  # type: ignore[union-attr]
            new = self.after.model_dump(mode="json")  # type: ignore[union-attr]
            original = {name: old[name] for name in old if old[name] != new.get(name)}
        reason = self.reason
        meta: dict[str, Any] = {
            "verdict": self.verdict.value,
            "reason": reason.value if reason is not None else None,
            "note": self.note,
            "reviewer": self.reviewer,
            "decided_at": iso_time(self.decided_at),
            "seconds": self.seconds,
            "original": original,
            "open_warnings": list(self.warnings),
            "flagged": list(self.flagged),
        }
        if self.note_by:  # only then: the records of everyone else's notes stay as they were
            meta["note_by"] = self.note_by
        if self.taken_from:  # likewise: only an adjudicator's taken decision says whose it was
            meta["taken_from"] = self.taken_from
        if self.earlier_notes:  # likewise: only a decision someone else wrote a note on
            meta["earlier_notes"] = [{"by": by, "note": text} for by, text in self.earlier_notes]
        others = [name for name in self.editors if name != self.reviewer]
        if others:  # likewise: only an item someone else edited
            meta["edited_by"] = others
        if self.unfixed:  # likewise: only an edit that left warnings in place (the rest of flagged, it fixed)
            meta["unfixed"] = list(self.unfixed)
        if self.unchecked:  # likewise: only a decision made before the checks had said anything of its item
            meta["unchecked"] = True
        return meta

    def __str__(self) -> str:
        why = f" ({self.reason.value})" if self.reason else ""
        note = f": {self.note}" if self.note else ""
        return f"[{self.verdict.value}] {self.item_id}{why}{note}"


def _time_taken_back(change: Change, reviewer: str) -> float:
    """The time on screen ``reviewer``'s decision's undo takes away: the decision's own, less what it carried from
    the decision it replaced (which the undo brings back with it); 0 for another reviewer's decision."""
    taken = change.after
    if taken is None or taken.seconds <= 0 or taken.reviewer != reviewer:
        return 0.0
    before = change.before
    carried = before.seconds if before is not None and before.reviewer == taken.reviewer else 0.0
    return max(taken.seconds - carried, 0.0)


#: What a decision says of the warnings still flagging the item when it was made (an edit's, those it fixed).
_JUDGED = {Verdict.REJECTED: "confirmed", Verdict.EDITED: "confirmed", Verdict.ACCEPTED: "accepted"}


def tally_of(judgements: Iterable[tuple[str, str]]) -> dict[str, dict[str, int]]:
    """``(check, what)`` pairs counted per check, as :meth:`ReviewQueue.warning_tally` gives them."""
    tally: dict[str, dict[str, int]] = {}
    for check, what in judgements:
        counts = tally.get(check)
        if counts is None:
            counts = tally[check] = {"confirmed": 0, "dismissed": 0, "accepted": 0}
        counts[what] += 1
    return dict(sorted(tally.items()))


def _decision_maker() -> Callable[..., Decision]:
    """``Decision(...)`` with every field given in order, for a replay's thousands of decisions.

    A frozen dataclass's ``__init__`` sets each field through ``object.__setattr__`` looked up
    anew per field, several times the cost of calling each slot's own setter, and a replay makes
    one decision per journal record. Same object, same checks (there are none).
    """
    fields = [f.name for f in dataclasses.fields(Decision)]
    if fields != [
        "item_id", "verdict", "note", "reason", "before", "after", "decided_at", "seconds", "reviewer", "warnings",
        "flagged", "note_by", "taken_from", "earlier_notes", "editors", "unfixed", "pairs", "unchecked",
    ]:  # pragma: no cover - a new field must be added below too
        raise AssertionError(f"Decision's fields changed: {fields}")
    s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15, s16, s17 = (
        Decision.__dict__[name].__set__ for name in fields
    )
    new = object.__new__

    def make(
        item_id: str,
        verdict: Verdict,
        note: str,
        reason: RejectReason | None,
        before: EvalItem | None,
        after: EvalItem | None,
        decided_at: float,
        seconds: float,
        reviewer: str,
        warnings: tuple[str, ...],
        flagged: tuple[str, ...],
        note_by: str = "",
        taken_from: str = "",
        earlier_notes: tuple[tuple[str, str], ...] = (),
        editors: tuple[str, ...] = (),
        unfixed: tuple[str, ...] | None = None,
        pairs: tuple[tuple[str, tuple[str, ...]], ...] = (),
        unchecked: bool = False,
    ) -> Decision:
        made = new(Decision)
        s0(made, item_id)
        s1(made, verdict)
        s2(made, note)
        s3(made, reason)
        s4(made, before)
        s5(made, after)
        s6(made, decided_at)
        s7(made, seconds)
        s8(made, reviewer)
        s9(made, warnings)
        s10(made, flagged)
        s11(made, note_by)
        s12(made, taken_from)
        s13(made, earlier_notes)
        s14(made, editors)
        s15(made, unfixed)
        s16(made, pairs)
        s17(made, unchecked)
        return made

    return make


make_decision = _decision_maker()


def editors_of(
    replaced: Decision | None, original: EvalItem, after: EvalItem | None, reviewer: str, taken_from: str = ""
) -> tuple[str, ...]:
    """Who made the edits in ``after``, the item a decision by ``reviewer`` keeps, replacing ``replaced``.

    The edits the item already carried when the reviewer saw it (``replaced``'s) stay theirs; the reviewer is added
    when they changed it further. An adjudicator who took a reviewer's decision (``taken_from``) keeps that
    reviewer's edit. Identity is tried before equality: most decisions keep the very item they were shown.
    """
    if after is None or after is original:
        return ()
    shown = replaced.after if replaced is not None and replaced.after is not None else original
    if taken_from:
        return (taken_from,) if after != original else ()
    if after is shown:
        return replaced.editors if replaced is not None else ()
    if after == original:
        return ()
    earlier = replaced.editors if replaced is not None and shown is not original else ()
    if after == shown:
        return earlier
    if earlier and not _keeps_an_edit(original, shown, after):
        earlier = ()  # the reviewer undid or wrote over every change the item carried: those edits are gone
    return tuple(dict.fromkeys((*earlier, reviewer)))


def _why_rejected(replaced: Decision, verdict: Verdict, reviewer: str) -> bool:
    """Whether ``replaced``'s note is ``reviewer``'s reason for rejecting the item (a reject with a reason, its note
    their own), which a new ``verdict`` accepting the item keeps beside it rather than as its note."""
    return (
        replaced.verdict is Verdict.REJECTED
        and replaced.reason is not None
        and replaced.reviewer == reviewer
        and not replaced.note_by
        and verdict in (Verdict.ACCEPTED, Verdict.EDITED)
    )


def _keeps_an_edit(original: EvalItem, shown: EvalItem, after: EvalItem) -> bool:
    """Whether ``after`` keeps a change ``shown`` made to ``original``: a field ``shown`` changed, left as it was."""
    return any(
        getattr(shown, name) != getattr(original, name) and getattr(after, name) == getattr(shown, name)
        for name in type(original).model_fields
    )


class Change(NamedTuple):
    """One undoable step: the state of one item before and after it.

    An item's state is its decision (or None) and its draft note (a note typed
    before any decision). ``advances`` says whether redoing it moves the cursor
    on to the next undecided item (a decision) or leaves it on the item (a note).

    A named tuple rather than a frozen dataclass: it is as immutable, and a replay makes one
    per journal record, where a frozen dataclass's ``__init__`` (one ``object.__setattr__``
    per field) cost several times as much as the tuple.
    """

    item_id: str
    # The field keeps the name it had as a dataclass, and hides tuple.index (which nothing calls on a change).
    index: int  # type: ignore[assignment]
    before: Decision | None
    after: Decision | None
    note_before: str = ""
    note_after: str = ""
    advances: bool = True
    #: the item's dismissed warnings before and after, for a change of those (None: not changed)
    dismissed_before: frozenset[str] | None = None
    dismissed_after: frozenset[str] | None = None
    #: who wrote the draft note before and after ("": no draft, or not said)
    draft_by_before: str = ""
    draft_by_after: str = ""
    #: who dismissed a warning or took that back, for a change of those ("": not said)
    dismissed_by: str = ""
    #: whose word each dismissed warning is, before and after a change of those (check -> reviewer, "": not said)
    dismissers_before: Mapping[str, str] | None = None
    dismissers_after: Mapping[str, str] | None = None


def changes_the_item(change: Change) -> bool:
    """Whether undoing or redoing ``change`` changes the item as reviewed: an edit on one side of it and not
    the same one on the other (an edit back to the set's item is an accept, so undoing it brings the earlier
    edit back; a note or a dismissed warning on an edited item leaves the edit as it was)."""

    def as_edited(decision: Decision | None) -> EvalItem | None:
        return decision.after if decision is not None and decision.changed else None

    return as_edited(change.before) is not as_edited(change.after)


def _noted(now: Decision, made: Decision) -> bool:
    """Whether ``now`` is the decision ``made``, a note on it written or changed since (see ReviewQueue._apply_note)."""
    return now.decided_at == made.decided_at and now.reviewer == made.reviewer and now.verdict is made.verdict and now.after is made.after


# --- actions: what plan_* builds and apply() carries out ------------------------------


@dataclass(frozen=True, slots=True)
class ItemEdit:
    """One edit of the current item, as the reviewer asked for it; None leaves a field as it is.

    ``quote`` and ``grade`` change the anchor numbered ``anchor`` (0 is the first);
    ``anchor_edits`` maps more anchor numbers to ``(quote, grade)``, so that several
    anchors change in one decision (one undo). An empty string for ``answer`` or
    ``qtype`` clears it. ``new_anchor`` is a quote to add after the item's own: the way to give
    evidence to an item that has none (``quote`` can only change a quote the item has). ``copies`` maps an
    anchor number to the copy of its old words (counting from 0) its document holds it at, for an anchor that
    gives no occurrence and was placed at the copy its item's gold marks (found with ``evidence.resolve.
    copies_marked``): a correction of that quote keeps the copy, as it keeps an occurrence.
    """

    question: str | None = None
    quote: str | None = None
    qtype: str | None = None
    grade: int | None = None
    answer: str | None = None
    anchor: int = 0
    note: str = ""
    anchor_edits: Mapping[int, tuple[str | None, int | None]] | None = None
    new_anchor: GoldAnchor | None = None
    copies: Mapping[int, int] | None = None


@dataclass(frozen=True, slots=True)
class Decide:
    index: int
    decision: Decision


@dataclass(frozen=True, slots=True)
class Annotate:
    """A note on an item; ``by``: who wrote it (kept on a decision another reviewer made)."""

    index: int
    text: str
    by: str = ""


@dataclass(frozen=True, slots=True)
class Dismiss:
    """The reviewer's word on a warning: ``check`` is not a problem on this item (or, ``on=False``, it is after all);
    ``by``: whose word it is ("" in journals written before dismissals were signed)."""

    index: int
    check: str
    on: bool = True
    by: str = ""


@dataclass(frozen=True, slots=True)
class Undo:
    index: int


@dataclass(frozen=True, slots=True)
class Redo:
    index: int


@dataclass(frozen=True, slots=True)
class Move:
    index: int  # a queue index, or len(queue) for "past the end"


class ReviewOrder:
    """A review order worked out once, for a queue of ``size`` items: ``indices`` (queue indices) first, then the
    rest in set order.

    Making one walks the set (the app makes the flagged-first order's off the screen's thread, once per scan);
    applying it to the queue lays out the undecided positions a word at a time (see ``ReviewQueue._apply_order``),
    and a session names an order it has journaled before by that record, not item by item (``key``: a digest of
    ``indices``, the same for the same order however it was made). Never changed once made: the queue keeps
    ``order`` and ``rank`` as they are.
    """

    __slots__ = ("base", "indices", "ins", "key", "order", "out", "rank", "size")

    def __init__(self, indices: Sequence[int], size: int) -> None:
        """``indices``: distinct queue indices within ``0 .. size-1``, checked by the caller (see ``ReviewQueue.prepare_order``)."""
        from array import array
        from hashlib import blake2b

        import numpy as np

        chosen = np.asarray(indices, dtype=np.int64)
        rest = np.ones(size, dtype=bool)
        rest[chosen] = False
        order = np.concatenate((chosen, np.flatnonzero(rest).astype(np.int64)))
        rank = np.empty(size, dtype=np.int64)
        rank[order] = np.arange(size, dtype=np.int64)
        self.indices: tuple[int, ...] = indices if type(indices) is tuple else tuple(chosen.tolist())
        self.size = size
        self.key = blake2b(chosen.astype("<i8").tobytes(), digest_size=16).digest()
        # Arrays, not lists: indexed as fast, read as numpy arrays without a copy, an eighth of a list of ints' size.
        self.order = array("q", order.tobytes())
        self.rank = array("q", rank.tobytes())
        #: for an order made from another (see ReviewQueue.derive_order): that order, the indices taken out of it
        #: and the (place, index) put in, so that a journal holding ``base`` whole records only the difference
        self.base: ReviewOrder | None = None
        self.out: tuple[int, ...] = ()
        self.ins: tuple[tuple[int, int], ...] = ()

    def __len__(self) -> int:
        return len(self.indices)

    def __iter__(self) -> Iterator[int]:
        return iter(self.indices)

    def __repr__(self) -> str:
        return f"ReviewOrder({len(self.indices)} of {self.size} first)"


@dataclass(frozen=True, slots=True)
class Reorder:
    indices: tuple[int, ...] | None
    #: the order worked out already (see ReviewOrder), or None: the queue works it out from ``indices``
    prepared: ReviewOrder | None = field(default=None, compare=False)


Action = Decide | Annotate | Dismiss | Undo | Redo | Move | Reorder


@dataclass(frozen=True, slots=True)
class ReviewStats:
    """Progress figures the header of the app and ``reviewtui status`` show."""

    total: int
    decided: int
    counts: dict[str, int]
    seconds: float

    @property
    def left(self) -> int:
        return self.total - self.decided

    @property
    def fraction(self) -> float:
        return self.decided / self.total if self.total else 1.0

    @property
    def per_hour(self) -> float | None:
        """Decisions per hour of time on screen; None until there is a decision and a second of it."""
        if not self.decided or self.seconds < 1:
            return None
        return self.decided * 3600.0 / self.seconds

    @property
    def eta_seconds(self) -> float | None:
        """Time on screen the undecided items will take at the pace so far."""
        if not self.decided or self.seconds < 1:
            return None
        return self.left * self.seconds / self.decided


def default_reviewer() -> str:
    """Who is reviewing: $REVIEWTUI_REVIEWER, else the login name, else "unknown"."""
    name = os.environ.get("REVIEWTUI_REVIEWER", "").strip()
    if name:
        return name
    try:
        return getpass.getuser() or "unknown"
    except Exception:  # no login name on some containers and services
        return "unknown"


class ReviewQueue:
    """Items under review, a cursor over them, and the decisions made so far.

    ``position`` is a queue index, or ``len(queue)`` once the cursor has run
    past the last item (then ``current`` is None). After a decision the cursor
    goes to the next undecided item in the chosen order, wrapping round to the
    first undecided one before it; with none left the queue is done.
    """

    def __init__(
        self,
        items: Sequence[EvalItem] | Iterable[EvalItem],
        position: int = 0,
        decisions: Mapping[str, Decision] | None = None,
        history: Sequence[Decision] | None = None,
        *,
        reviewer: str | None = None,
        clock: Callable[[], float] | None = None,
        idle_cap: float = IDLE_CAP_SECONDS,
    ) -> None:
        # A list, so that a set still being read can grow it (see extend); ``items`` hands out a tuple.
        self._items: list[EvalItem] = list(items)
        self._items_view: tuple[EvalItem, ...] | None = items if isinstance(items, tuple) else None
        count = len(self._items)
        index: dict[str, int] = {}
        for at, item in enumerate(self._items):
            if index.setdefault(item.id, at) != at:
                raise InputError(f"the review queue was given item id {item.id!r} twice")
        self._index = index
        self._decisions: list[Decision | None] = [None] * count
        self._notes: dict[int, str] = {}
        self._draft_by: dict[int, str] = {}  # who wrote each draft note (where the journal says)
        #: index -> {warning a reviewer said is not a problem: whose word it is ("": a journal that does not say)}
        self._dismissed: dict[int, Mapping[str, str]] = {}
        #: item -> (reviewer, the time on screen of their decisions on it that undo took back), for their next one
        self._undone_seconds: dict[int, tuple[str, float]] = {}
        # (a ReviewOrder's arrays, never changed in place)
        self._order: Sequence[int] | None = None
        self._rank: Sequence[int] | None = None
        self._open = PositionSet.full(count)
        self._counts = dict.fromkeys(DECIDED_VERDICTS, 0)
        self._millis = 0
        self._undo: list[Change] = []
        self._redo: list[Change] = []
        self.reviewer = reviewer or default_reviewer()
        self._clock = clock or time.time
        self.idle_cap = float(idle_cap)
        #: item (as it will stand after the decision) -> the high-severity checks flagging it; set by
        #: whoever runs the checks. An accept or edit records them in its decision (``Decision.warnings``).
        self.open_warnings: Callable[[EvalItem], tuple[str, ...]] | None = None
        #: item -> every check (low or above) flagging it: a decision records those not dismissed (``flagged``)
        self.flagged_by: Callable[[EvalItem], tuple[str, ...]] | None = None
        #: whether the warnings of an item are not known yet (the quality checks still running): a decision made then
        #: records that it knew of none (Decision.unchecked), not that none flagged its item
        self.warnings_unknown: Callable[[EvalItem], bool] | None = None
        #: (the item as shown, the item as edited) -> the checks of ``flagged_by`` that the edit surely left in place
        #: (``Decision.unfixed``); without it, every check flagging the edited item
        self.left_by_edit: Callable[[EvalItem, EvalItem], tuple[str, ...]] | None = None
        #: item -> each pair warning on it that rejecting the items it names settles -> those ids (``Decision.pairs``)
        self.pairs_of: Callable[[EvalItem], Mapping[str, tuple[str, ...]]] | None = None
        if not 0 <= position <= count:
            raise ReviewError(f"position {position} is outside the queue (0..{count})")
        self._pos = position
        self._shown_at = self._clock()
        self._owed = -1  # an index whose decision still owes the cursor its move on (see decide_owing_move)
        self._load_history(decisions, history)

    @classmethod
    def from_evalset(
        cls,
        evalset: EvalSet,
        *,
        skip_reviewed: bool = True,
        include_ids: Iterable[str] = (),
        reviewer: str | None = None,
        clock: Callable[[], float] | None = None,
        idle_cap: float = IDLE_CAP_SECONDS,
        text_markers: bool = False,
    ) -> ReviewQueue:
        """A queue over a set; by default items already marked ``meta["reviewed"]`` stay out.

        ``include_ids`` keeps some reviewed items in anyway (a resumed review keeps
        the items its journal already decided on). The marker counts by its truth, as the
        reference page documents (a text "false" marks an item reviewed); ``text_markers``
        reads it as a review session does (:func:`stays_in_review`).
        """
        if skip_reviewed:
            keep = set(include_ids)
            if text_markers:
                items = tuple(i for i in evalset.items if stays_in_review(i, keep))
            else:
                items = tuple(i for i in evalset.items if not i.meta.get("reviewed") or i.id in keep)
        else:
            items = evalset.items
        return cls(items, reviewer=reviewer, clock=clock, idle_cap=idle_cap)

    def extend(self, items: Iterable[EvalItem]) -> None:
        """Add items at the end of the queue, undecided: the rest of a set still being read.

        Only in the set's own order (a custom order ranks every item, so it is
        refused). A duplicate id leaves the queue as it was. Costs O(len(queue) / 64)
        plus the new items, never a copy of the items already there.
        """
        if self._order is not None:
            raise ReviewError("items cannot be added while a custom review order is set")
        new = tuple(items)
        if not new:
            return
        start = len(self._items)
        index = self._index
        for at, item in enumerate(new, start):
            if index.setdefault(item.id, at) != at:
                for added in new[: at - start]:
                    del index[added.id]
                raise InputError(f"the review queue was given item id {item.id!r} twice")
        self._items.extend(new)
        self._items_view = None
        self._decisions.extend([None] * len(new))
        self._open.grow(len(self._items))

    # --- reading the state ------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._items)

    @property
    def items(self) -> tuple[EvalItem, ...]:
        """The items under review, as they stand in the set."""
        if self._items_view is None:
            self._items_view = tuple(self._items)
        return self._items_view

    @property
    def position(self) -> int:
        if self._owed >= 0:  # a replay left a move owing (see decide_owing_move): the cursor is where it ends
            self.settle_move()
        return self._pos

    @property
    def current(self) -> EvalItem | None:
        """The item under the cursor as it now stands (with any edit), or None past the end."""
        if self._owed >= 0:
            self.settle_move()
        if self._pos >= len(self._items):
            return None
        return self.shown(self._pos)

    @property
    def current_decision(self) -> Decision | None:
        if self._pos >= len(self._items):
            return None
        return self._decisions[self._pos]

    @property
    def is_done(self) -> bool:
        """Every item has a decision."""
        return len(self._open) == 0

    @property
    def decided(self) -> int:
        return len(self._items) - len(self._open)

    @property
    def left(self) -> int:
        return len(self._open)

    @property
    def seconds_spent(self) -> float:
        """Time on screen of all decisions standing now."""
        return self._millis / 1000.0

    @property
    def order(self) -> tuple[int, ...] | None:
        """The custom order (queue indices), or None for the set's own order. A copy of every index: a screen asks
        :attr:`ordered`."""
        return None if self._order is None else tuple(self._order)

    @property
    def ordered(self) -> bool:
        """Whether a custom order is set (see :meth:`set_order`)."""
        return self._order is not None

    def first_open(self, within: int | None = None) -> int | None:
        """The queue index of the first undecided item in the order on screen, among its first ``within`` places
        (default: all), or None. Costs a few word reads, however many items are decided before it."""
        found = self._open.first()
        if found < 0 or (within is not None and found >= within):
            return None
        return self._at_rank(found)

    def snapshot(self) -> ReviewQueue:
        """A copy of the review as it stands, which later steps on this queue leave as it is: what an export written
        while the review goes on reads. Each table is copied whole, a C copy of pointers (milliseconds at a million
        items); the items and decisions, never changed in place, are shared. Not while the set is still being read."""
        import copy

        made = copy.copy(self)
        made._items = self._items.copy()
        made._items_view = None
        made._decisions = self._decisions.copy()
        made._notes = self._notes.copy()
        made._draft_by = self._draft_by.copy()
        made._dismissed = self._dismissed.copy()
        made._undone_seconds = self._undone_seconds.copy()
        made._counts = self._counts.copy()
        made._undo = self._undo.copy()
        made._redo = self._redo.copy()
        made._open = self._open.copy()
        return made

    def ids_of(self, indices: Iterable[int]) -> list[str]:
        """The ids of the items at ``indices``, in their order."""
        from operator import attrgetter

        return list(map(attrgetter("id"), map(self._items.__getitem__, indices)))

    @property
    def last_change(self) -> Change | None:
        """What an undo would take back now (the top of the undo stack), or None."""
        return self._undo[-1] if self._undo else None

    @property
    def next_redo(self) -> Change | None:
        """What a redo would put back now, or None."""
        return self._redo[-1] if self._redo else None

    @property
    def history(self) -> tuple[Change, ...]:
        """The undo stack, oldest first."""
        return tuple(self._undo)

    @property
    def future(self) -> tuple[Change, ...]:
        """The redo stack; the next redo is the last entry."""
        return tuple(self._redo)

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    @property
    def depths(self) -> tuple[int, int]:
        """How many changes the undo and the redo stacks hold (without copying them, as history does)."""
        return len(self._undo), len(self._redo)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    @property
    def decisions(self) -> dict[str, Decision]:
        """Item id -> standing decision, in queue order. Builds a dict: not for every key press."""
        return {self._items[i].id: d for i, d in enumerate(self._decisions) if d is not None}

    @property
    def notes(self) -> dict[str, str]:
        """Draft notes on undecided items, by item id."""
        return {self._items[i].id: text for i, text in sorted(self._notes.items())}

    def draft_notes(self) -> dict[str, dict[str, str]]:
        """The notes on undecided items, item id -> the note and whose it is: what an export's header keeps of them."""
        return {
            self._items[i].id: {"note": text, "by": self._draft_by.get(i, "") or self.reviewer}
            for i, text in sorted(self._notes.items())
            if text
        }

    def index_of(self, item_id: str) -> int | None:
        return self._index.get(item_id)

    def item_at(self, index: int) -> EvalItem:
        """The item at a queue index as it stands in the set."""
        return self._items[index]

    def shown(self, index: int) -> EvalItem:
        """The item at a queue index as the reviewer now sees it (with any edit)."""
        decision = self._decisions[index]
        if decision is not None and decision.after is not None:
            return decision.after
        return self._items[index]

    def decision_for(self, index_or_id: int | str) -> Decision | None:
        return self._decisions[self._resolve(index_or_id)]

    def verdict_for(self, index_or_id: int | str) -> Verdict:
        decision = self.decision_for(index_or_id)
        return Verdict.PENDING if decision is None else decision.verdict

    def note_for(self, index_or_id: int | str) -> str:
        """The note shown for an item: its decision's note, else its draft note."""
        index = self._resolve(index_or_id)
        decision = self._decisions[index]
        return decision.note if decision is not None else self._notes.get(index, "")

    def index_at_rank(self, rank: int) -> int:
        """The queue index shown at ``rank`` (0-based) in the chosen order: the inverse of :meth:`rank_of`."""
        if not 0 <= rank < len(self._items):
            raise ReviewError(f"position {rank + 1} is outside the queue (1..{len(self._items)})")
        return self._at_rank(rank)

    def rank_of(self, index: int) -> int:
        """Where a queue index stands in the chosen order (0-based)."""
        return index if self._rank is None else self._rank[index]

    def recent(self, limit: int = 20) -> list[Decision]:
        """The latest decisions on the undo stack, newest first, each with the note it has now: a note
        written on a decision since (the same decision, its note replaced) shows in its place."""
        found: list[Decision] = []
        decisions = self._decisions
        for change in reversed(self._undo):
            if len(found) >= limit:
                break
            made = change.after
            if change.advances and made is not None:
                now = decisions[change.index]
                if now is not None and now is not made and _noted(now, made):
                    made = now
                found.append(made)
        return found

    def progress(self) -> str:
        return f"{self.decided} of {len(self._items)} · {self.left} left"

    def counts(self) -> dict[str, int]:
        return {verdict.value: self._counts[verdict] for verdict in (
            Verdict.ACCEPTED, Verdict.REJECTED, Verdict.EDITED, Verdict.SKIPPED)}

    def stats(self) -> ReviewStats:
        return ReviewStats(len(self._items), self.decided, self.counts(), self.seconds_spent)

    def rejections(self) -> list[Decision]:
        """The rejected decisions, in queue order: what a question generator should learn from."""
        return [d for d in self._decisions if d is not None and d.verdict is Verdict.REJECTED]

    def reason_counts(self) -> dict[str, int]:
        """How many rejections gave each reason code (most frequent first); "" for none given."""
        found: dict[str, int] = {}
        for decision in self.rejections():
            code = decision.reason.value if decision.reason else ""
            found[code] = found.get(code, 0) + 1
        return dict(sorted(found.items(), key=lambda kv: -kv[1]))

    @gc_paused()  # one new item per kept decision: nothing cyclic for the collector to find
    def result(self, original: EvalSet, *, records: bool = False) -> EvalSet:
        """The reviewed set as its next version.

        Rejected and skipped items are dropped; accepted and edited ones carry
        ``meta["reviewed"] = True`` and ``meta["verdict"]``; items with no decision
        (or outside this queue) pass through exactly as they were. With ``records``
        each decided item also carries its review under ``meta["review"]``
        (:meth:`Decision.record`), as an export writes it.
        """
        kept: list[EvalItem] = []
        index = self._index
        decisions = self._decisions
        accepted, edited = Verdict.ACCEPTED, Verdict.EDITED
        dismissed_at = self._dismissed
        for item in original.items:
            at = index.get(item.id)
            decision = None if at is None else decisions[at]
            if decision is None:
                kept.append(item)
                continue
            verdict = decision.verdict
            if verdict is accepted or verdict is edited:
                final = decision.after if decision.after is not None else item
                stamp = "accepted" if verdict is accepted else "edited"
                stamped = {"reviewed": True, "verdict": stamp}
                meta = {**final.meta, **stamped}
                if records:
                    record = meta[REVIEW_KEY] = keep_replaced(keep_earlier(decision.record_meta(), final.meta), final.meta, stamped)
                    if at in dismissed_at:  # few items: the rest need no look-up of who dismissed what
                        record.update(self.dismissal_record(item.id, decision.reviewer))
                    else:
                        record["dismissed"] = []
                    if record["open_warnings"] and (at in dismissed_at or decision.pairs):
                        record["open_warnings"] = list(self.passed_warnings(item.id, decision))
                kept.append(final.with_meta(FrozenDict(meta)))
        return original.replace(items=tuple(kept), version=original.version + 1)

    # --- one-keystroke operations -------------------------------------------------------

    def accept(self, note: str = "") -> Decision:
        return self.apply(self.plan_accept(note))

    def reject(self, note: str = "", reason: str | RejectReason | None = None) -> Decision:
        return self.apply(self.plan_reject(note, reason))

    def skip(self, note: str = "") -> Decision:
        return self.apply(self.plan_skip(note))

    def edit(
        self,
        *,
        question: str | None = None,
        quote: str | None = None,
        qtype: str | None = None,
        grade: int | None = None,
        answer: str | None = None,
        anchor: int = 0,
        note: str = "",
        anchor_edits: Mapping[int, tuple[str | None, int | None]] | None = None,
    ) -> EvalItem:
        """Edit the current item (see :class:`ItemEdit` for what each argument changes); counts as a decision."""
        # As the reference page has it: an edit counts under edited, one that changes nothing too.
        edit = ItemEdit(question, quote, qtype, grade, answer, anchor, note, anchor_edits)
        decision = self.apply(self.plan_edit(edit, unchanged_is_accept=False))
        return decision.after

    def mark(self, qtype: str, note: str = "") -> EvalItem:
        """Set the question type; counts as an edit."""
        return self.edit(qtype=qtype, note=note)

    def note(self, text: str) -> EvalItem:
        """Attach a note to the current item without deciding on it (undoable)."""
        return self.apply(self.plan_note(text))

    def undo(self) -> EvalItem | None:
        """Take back the latest change and put the cursor on its item; None when there is nothing to undo."""
        action = self.plan_undo()
        return None if action is None else self.apply(action)

    def redo(self) -> EvalItem | None:
        """Make again the change the latest undo took back; None when there is nothing to redo."""
        action = self.plan_redo()
        return None if action is None else self.apply(action)

    def next(self) -> EvalItem | None:
        """Move to the next item in order (decided or not); past the last one the queue shows nothing."""
        return self.apply(self.plan_next())

    def previous(self) -> EvalItem | None:
        """Move to the item before in order; from past the end, to the last one."""
        return self.apply(self.plan_previous())

    def goto(self, target: int | str) -> EvalItem | None:
        """Move to a queue index or an item id, decided or not, to look at it or change its decision."""
        return self.apply(self.plan_goto(target))

    def shown_for(self, seconds: float) -> None:
        """Count the item under the cursor as on screen for ``seconds`` already.

        For a question the reviewer saw before the queue was ready (a long review shows it while it
        opens): the time its decision records then covers that wait too. Never shortens what is counted.
        """
        self._shown_at = min(self._shown_at, self._clock() - max(0.0, seconds))

    def after_deciding(self) -> int:
        """The index the cursor moves to when the item under it is decided (``len(self)``: past the end).

        Nothing changes. A screen reads it to get the next item ready while the current one is read.
        """
        index = self.position
        return index if index >= len(self._items) else self._next_after(index)

    def next_undecided(self) -> EvalItem | None:
        """Move to the next undecided item after the cursor (wrapping); stays put when none is left."""
        return self.apply(self.plan_next_undecided())

    def set_order(self, indices: Sequence[int | str] | ReviewOrder | None) -> None:
        """Review in another order: the given items first (indices or ids), then the rest in set order.

        None goes back to the set's own order. The cursor stays where it is.
        """
        self.apply(self.plan_order(indices))

    # --- planning: check a request, build the action, change nothing --------------------

    def plan_accept(self, note: str = "") -> Decide:
        index = self._require_current()
        shown, original = self.shown(index), self._items[index]
        # Accepting an item whose edit still stands keeps the edit, so it stays "edited".
        verdict = Verdict.ACCEPTED if shown is original or shown == original else Verdict.EDITED
        return Decide(index, self._new_decision(index, verdict, note, None, shown))

    def plan_reject(self, note: str = "", reason: str | RejectReason | None = None) -> Decide:
        index = self._require_current()
        code = RejectReason.parse(reason)
        return Decide(index, self._new_decision(index, Verdict.REJECTED, note, code, self.shown(index)))

    def plan_adopt(self, decision: Decision, dismissed: Collection[str] = ()) -> Decide:
        """Decide the current item as another reviewer did (an adjudicator taking their version).

        Their verdict, reason and note, and for an edit their edited item; the new decision is this
        queue's reviewer's, made now. ``dismissed``: the warnings that reviewer said are not a problem on
        the item, which their decision did not keep the item past, and neither does the one that takes it.
        A skip is not taken: it settles nothing (an adjudicator's skip is no verdict for the adjudicated
        rule), and taking one made the item look decided in the adjudication while every export still
        left it open.
        """
        if decision.verdict is Verdict.SKIPPED:
            who = decision.reviewer or "that reviewer"
            raise ReviewError(
                f"{who} skipped it, and a skip settles nothing: decide it yourself (accept, reject, edit), "
                "or skip it to leave it open"
            )
        index = self._require_current()
        theirs = decision.after
        if theirs is None or theirs.id != self._items[index].id:
            theirs = self.shown(index)
        taken = decision.reviewer if decision.reviewer != self.reviewer else ""  # the record says whose it was
        own = self._own_note(index)
        previous = self._decisions[index]
        rejected_why: tuple[tuple[str, str], ...] = ()
        if own and previous is not None and previous.note == own and _why_rejected(previous, decision.verdict, self.reviewer):
            # The adjudicator's reason for rejecting is no note for the accept they take: kept beside it, as deciding
            # again keeps it (_new_decision), and the reviewer's own note comes with their decision.
            own, rejected_why = "", ((self.reviewer, previous.note),)
        if own:
            # The adjudicator's own note stays (the reviewer's is kept in their journal and their record):
            # taking a decision threw away what the adjudicator had written on the item.
            made = self._new_decision(index, decision.verdict, own, decision.reason, theirs)
        else:
            made = self._new_decision(index, decision.verdict, decision.note, decision.reason, theirs)
            wrote = decision.note_by or decision.reviewer  # their note stays theirs
            if decision.note and made.note == decision.note and wrote and wrote != self.reviewer:
                made = dataclasses.replace(made, note_by=wrote)
        # The notes the taken decision kept from others come with it.
        earlier = tuple(dict.fromkeys((*made.earlier_notes, *rejected_why, *decision.earlier_notes)))
        editors = editors_of(previous, self._items[index], made.after, self.reviewer, taken)
        if dismissed:
            # Their word on those warnings is in their journal and counted there: the adjudicator taking their accept
            # was recorded as accepting past a warning the reviewer had judged, and the warning counted twice.
            made = dataclasses.replace(
                made,
                warnings=tuple(c for c in made.warnings if c not in dismissed),
                flagged=tuple(c for c in made.flagged if c not in dismissed),
                unfixed=None if made.unfixed is None else tuple(c for c in made.unfixed if c not in dismissed),
            )
        return Decide(index, dataclasses.replace(made, taken_from=taken, earlier_notes=earlier, editors=editors))

    def _own_note(self, index: int) -> str:
        """The note this queue's reviewer wrote on the item at ``index``: a draft, or the note of their decision."""
        if self._draft_by.get(index, "") in ("", self.reviewer) and self._notes.get(index):
            return self._notes[index]
        previous = self._decisions[index]
        # Theirs only if they made that decision: another adjudicator may have worked in the same journal.
        if previous is not None and previous.note and previous.reviewer == self.reviewer and previous.note_by in ("", self.reviewer):
            return previous.note
        return ""

    def plan_skip(self, note: str = "") -> Decide:
        index = self._require_current()
        return Decide(index, self._new_decision(index, Verdict.SKIPPED, note, None, self.shown(index)))

    def plan_edit(self, edit: ItemEdit, *, unchanged_is_accept: bool = True) -> Decide:
        """Plan an edit of the current item as it now stands.

        An edit that leaves the item as the set has it is an accept (``unchanged_is_accept``, what a review
        session does, so that it agrees with a reviewer who accepted the item); the reference page's
        ``edit`` and ``mark`` count every edit under edited, and call this with False."""
        index = self._require_current()
        base = self.shown(index)
        changes: dict[str, Any] = {}
        if edit.question is not None:
            changes["question"] = edit.question
        if edit.answer is not None:
            changes["answer"] = edit.answer or None
        if edit.qtype is not None:
            changes["qtype"] = edit.qtype.strip() or None
        wanted: dict[int, tuple[str | None, int | None]] = dict(edit.anchor_edits or {})
        if edit.quote is not None or edit.grade is not None:
            wanted[edit.anchor] = (edit.quote, edit.grade)
        if wanted:
            changes["anchors"] = self._edited_anchors(base, wanted, self._items[index], edit.copies)
            # Against the set's own item: a quote edited back to its words gets its span back.
            gold = gold_of_kept_quotes(self._items[index], changes["anchors"])
            if gold != base.gold:
                changes["gold"] = gold
        if edit.new_anchor is not None:  # validated with the item, as every change is (base.replace)
            changes["anchors"] = (*changes.get("anchors", base.anchors), edit.new_anchor)
        edited = base.replace(**changes) if changes else base
        original = self._items[index]
        if unchanged_is_accept and edited == original:
            # Edited back to what the set has (an answer changed, then changed back): the item is accepted as it
            # is, as plan_accept decides of it. Recorded as an edit, it disagreed with a reviewer who accepted it.
            return Decide(index, self._new_decision(index, Verdict.ACCEPTED, edit.note, None, original))
        return Decide(index, self._new_decision(index, Verdict.EDITED, edit.note, None, edited))

    def plan_note(self, text: str) -> Annotate:
        return Annotate(self._require_current(), str(text), self.reviewer)

    def plan_dismiss(self, check: str) -> Dismiss:
        """Mark the current item's warning ``check`` as not a problem, or take that back if it was."""
        index = self._require_current()
        check = str(check)
        if not check:
            raise ReviewError("name the warning to dismiss")
        return Dismiss(index, check, check not in self._dismissed.get(index, {}), self.reviewer)

    def dismissed_for(self, index_or_id: int | str) -> frozenset[str]:
        """The warnings the reviewer said are not a problem on this item."""
        return frozenset(self._dismissed.get(self._resolve(index_or_id), ()))

    def dismissed_by_decider(self, index_or_id: int | str, decider: str) -> frozenset[str]:
        """The warnings on this item that ``decider`` (or a journal from before dismissals were signed) dismissed.

        What counts when a decision is read as accepting past a warning: another reviewer's word that a warning
        is not a problem, given after the decider accepted past it, erased the decider's act from the record.
        """
        said = self._dismissed.get(self._resolve(index_or_id), {})
        return frozenset(check for check, by in said.items() if by in ("", decider))

    def dismissed_by_others(self, index: int, reviewer: str) -> frozenset[str]:
        """The warnings on the item at ``index`` that someone other than ``reviewer`` has said are not a problem (signed
        dismissals only): settled for ``reviewer`` before they decide it (see _new_decision)."""
        said = self._dismissed.get(index)
        return frozenset(check for check, by in said.items() if by not in ("", reviewer)) if said else frozenset()

    def dismissers_for(self, index_or_id: int | str) -> Mapping[str, str]:
        """Each warning dismissed on this item and who dismissed it ("" where a journal from before
        dismissals were signed does not say)."""
        return dict(sorted(self._dismissed.get(self._resolve(index_or_id), {}).items()))

    def dismissal_record(self, index_or_id: int | str, decider: str) -> dict[str, Any]:
        """The ``dismissed`` field of the item's export record and, when anyone but ``decider`` (the
        reviewer whose decision the record is) dismissed one of those warnings, ``dismissed_by``."""
        said = self.dismissers_for(index_or_id)
        record: dict[str, Any] = {"dismissed": list(said)}
        others = {check: by for check, by in said.items() if by and by != decider}
        if others:
            record["dismissed_by"] = others
        return record

    def passed_warnings(self, index_or_id: int | str, decision: Decision) -> tuple[str, ...]:
        """The serious warnings ``decision`` (an accept or an edit of this item) kept the item past, as the review
        stands now: not one its decider has since said is not a problem, nor one the review has settled since."""
        if not decision.warnings:
            return ()
        gone = self.dismissed_by_decider(index_or_id, decision.reviewer) | self.settled_checks(decision)
        return tuple(check for check in decision.warnings if check not in gone) if gone else decision.warnings

    def is_rejected(self, item_id: str) -> bool:
        """Whether the item ``item_id`` is in this review and its decision is a reject."""
        at = self._index.get(item_id)
        found = None if at is None else self._decisions[at]
        return found is not None and found.verdict is Verdict.REJECTED

    def settled_checks(self, decision: Decision) -> frozenset[str]:
        """The pair warnings ``decision`` recorded that the review has settled since: every item each names is
        rejected now. Accepting one of two conflicting items and then rejecting the other left the first listed as
        accepted past the conflict, which rejecting the other first did not."""
        if not decision.pairs:
            return frozenset()
        rejected = self.is_rejected
        # a warning that names no item has nothing whose rejection settles it
        return frozenset(check for check, others in decision.pairs if others and all(map(rejected, others)))

    @property
    def dismissals(self) -> dict[str, frozenset[str]]:
        """Item id -> its dismissed warnings, for the items that have some."""
        return {self._items[i].id: frozenset(checks) for i, checks in sorted(self._dismissed.items()) if checks}

    def warning_tally(self) -> dict[str, dict[str, int]]:
        """Per check, what reviewers said of its warnings: precision measured in real use.

        ``confirmed``: items rejected while it flagged them, or edited so that it no longer does;
        ``dismissed``: flags the reviewer marked as not a problem; ``accepted``: items accepted, or
        edited and kept, while it still flagged them.
        """
        return tally_of((check, what) for _, check, what, _ in self.warning_judgements())

    def warning_judgements(self) -> Iterable[tuple[str, str, str, str]]:
        """Each word said on a warning, as ``(item id, check, what, whose)``: ``what`` as :meth:`warning_tally`
        counts it; ``whose`` the reviewer who said it ("" for a dismissal a journal did not sign). A decision
        an adjudicator took is the word of the reviewer it was taken from, so a team's journals read together
        count it once (see teamwork.warning_tally_of_team)."""
        items = self._items
        for index, said in self._dismissed.items():
            for check, by in said.items():
                yield items[index].id, check, "dismissed", by
        for index, decision in enumerate(self._decisions):
            if decision is None or not decision.flagged:
                continue
            what = _JUDGED.get(decision.verdict)
            if what is not None:
                dismissed = self._dismissed.get(index, {})  # counted above, by whoever said so: each flag once
                kept = decision.unfixed or ()
                whose = decision.taken_from or decision.reviewer
                settled = self.settled_checks(decision)  # as if the other item had been rejected first: not shown then
                for check in decision.flagged:
                    if check not in dismissed and check not in settled:
                        yield decision.item_id, check, "accepted" if check in kept else what, whose

    def plan_undo(self) -> Undo | None:
        return Undo(self._undo[-1].index) if self._undo else None

    def plan_redo(self) -> Redo | None:
        return Redo(self._redo[-1].index) if self._redo else None

    def plan_next(self) -> Move:
        count = len(self._items)
        if self._pos >= count:
            return Move(count)
        rank = self.rank_of(self._pos) + 1
        return Move(self._at_rank(rank) if rank < count else count)

    def plan_previous(self) -> Move:
        count = len(self._items)
        if count == 0:
            return Move(0)
        if self._pos >= count:
            return Move(self._at_rank(count - 1))
        rank = self.rank_of(self._pos)
        return Move(self._at_rank(rank - 1) if rank > 0 else self._pos)

    def plan_goto(self, target: int | str) -> Move:
        return Move(self._resolve(target))

    def plan_next_undecided(self) -> Move:
        start = 0 if self._pos >= len(self._items) else self.rank_of(self._pos) + 1
        found = self._open.next_from(start)
        if found < 0:
            found = self._open.first()
        return Move(self._pos if found < 0 else self._at_rank(found))

    def plan_order(self, indices: Sequence[int | str] | ReviewOrder | None) -> Reorder:
        if indices is None:
            return Reorder(None)
        prepared = indices if isinstance(indices, ReviewOrder) else self.prepare_order(indices)
        if prepared.size != len(self._items):
            raise ReviewError(f"that order was worked out for {prepared.size} items, and the queue holds {len(self._items)}")
        return Reorder(prepared.indices, prepared)

    def prepare_order(self, indices: Sequence[int | str]) -> ReviewOrder:
        """Check an order (queue indices or ids, each once) and work it out for :meth:`set_order` (see
        :class:`ReviewOrder`); changes nothing, so a thread may call it while the queue is read elsewhere, once the
        set is whole. Indices alone are checked a block at a time; ids are looked up one by one."""
        import numpy as np

        count = len(self._items)
        if set(map(type, indices)) <= {int}:
            try:
                chosen = np.array(indices, dtype=np.int64)
            except OverflowError:  # refused below, one by one
                chosen = None
            if chosen is not None and (
                not len(chosen) or (chosen.min() >= 0 and chosen.max() < count and len(np.unique(chosen)) == len(chosen))
            ):
                return ReviewOrder(tuple(cast("Sequence[int]", indices)), count)
        return ReviewOrder(self._checked_order(indices), count)

    def derive_order(
        self, base: ReviewOrder, out: Iterable[int], ins: Iterable[tuple[int, int]], *, strict: bool = True
    ) -> ReviewOrder:
        """``base`` without the indices ``out``, then each ``(place, index)`` of ``ins`` put in at that place of the
        result (places ascending): an order that differs from one the journal holds whole by a few items, which a
        session journals as that difference. ``strict``: refuse an index out of range, or one already in the order
        (a replay leaves those out, as it leaves out ids no longer in the set)."""
        count = len(self._items)
        if base.size != count:
            raise ReviewError(f"that order was worked out for {base.size} items, and the queue holds {count}")
        gone = set(out)
        chosen = len(base.indices)
        indices = [index for index in base.indices if index not in gone] if gone else list(base.indices)
        put: list[tuple[int, int]] = []
        seen: set[int] = set()
        for place, index in ins:
            there = index in seen or (0 <= index < count and base.rank[index] < chosen and index not in gone)
            if not 0 <= index < count or there:
                if strict:
                    raise ReviewError(f"the order cannot take in queue index {index}: outside the queue or in it already")
                continue
            seen.add(index)
            at = min(max(place, 0), len(indices))
            indices.insert(at, index)
            put.append((at, index))
        made = ReviewOrder(tuple(indices), count)
        made.base, made.out, made.ins = base, tuple(i for i in gone if 0 <= i < count), tuple(put)
        return made

    def _checked_order(self, indices: Sequence[int | str]) -> tuple[int, ...]:
        chosen: list[int] = []
        seen: set[int] = set()
        for entry in indices:
            index = self._resolve(entry)
            if index in seen:
                raise InputError(f"the review order names item {self._items[index].id!r} twice")
            seen.add(index)
            chosen.append(index)
        return tuple(chosen)

    # --- applying: the only place the state changes -------------------------------------

    def apply(self, action: Action) -> Any:
        """Carry out a planned action; returns what the matching plain method returns."""
        if isinstance(action, Decide):
            return self._apply_decide(action)
        if isinstance(action, Move):
            self._move_to(action.index)
            return self.current
        if isinstance(action, Undo):
            return self._apply_undo(action)
        if isinstance(action, Redo):
            return self._apply_redo(action)
        if isinstance(action, Annotate):
            return self._apply_note(action)
        if isinstance(action, Dismiss):
            return self._apply_dismiss(action)
        if isinstance(action, Reorder):
            self._apply_order(action.indices, action.prepared)
            return None
        raise TypeError(f"not a review action: {action!r}")

    def decide_owing_move(self, index: int, decision: Decision) -> None:
        """``apply(Decide(index, decision))`` for a replay, with the cursor's move on left owing.

        A replay applies thousands of decisions and only the cursor after the last step counts:
        each later step that puts the cursor somewhere pays the debt off unread, a change of order
        settles it first (it re-ranks the items), and :meth:`settle_move` settles the last one.
        The state is then that of ``apply``, the clock read as often. ``position`` and ``current``
        settle the move before they answer; code inside this class that reads ``_pos`` must call
        :meth:`settle_move` first.
        """
        self._record_decision(index, decision)
        self._shown_at = self._clock()  # read now, as the move would read it
        self._owed = index

    def settle_move(self) -> None:
        """Make the move the last :meth:`decide_owing_move` owes, if nothing moved the cursor since."""
        owed = self._owed
        if owed >= 0:
            self._owed = -1
            self._pos = self._next_after(owed)

    def forget_redo(self) -> None:
        """Drop the redo stack, as any new change does (used when a replay skips a change)."""
        self._redo.clear()

    def _apply_decide(self, action: Decide) -> Decision:
        self._record_decision(action.index, action.decision)
        self._advance_after(action.index)
        return action.decision

    def _record_decision(self, index: int, decision: Decision) -> None:
        """A decision's change to the state and the undo history, the cursor left where it is.

        ``_set_state(index, decision, "")`` written out for a decision that is not None: a
        replay comes here once per decision in the journal.
        """
        decisions, counts = self._decisions, self._counts
        old = decisions[index]
        draft_by = self._draft_by.pop(index, "") if self._draft_by else ""
        self._undo.append(Change(self._items[index].id, index, old, decision, self._notes.pop(index, ""), "", True, None, None, draft_by))
        if old is None:
            self._open.discard(index if self._rank is None else self._rank[index])
        else:
            counts[old.verdict] -= 1
            self._millis -= round(old.seconds * 1000)
        counts[decision.verdict] += 1
        self._millis += round(decision.seconds * 1000)
        decisions[index] = decision
        self._redo.clear()
        if self._undone_seconds:
            self._undone_seconds.pop(index, None)  # counted in this decision (see _new_decision), or another's

    def _apply_note(self, action: Annotate) -> EvalItem:
        index = action.index
        old = self._decisions[index]
        old_note = self._notes.get(index, "")
        if old is not None:
            # The decision stays its reviewer's; a note another reviewer writes on it says whose it is.
            # An emptied note has no author: the decision then exports no note and nobody's name for it.
            by = action.by if action.text and action.by and action.by != old.reviewer else ""
            earlier = old.notes_kept(action.by or old.reviewer, action.text)  # another's words: kept, not overwritten
            if action.text == old.note:  # the same words saved again stay their writer's
                by = old.note_by
            new, draft = dataclasses.replace(old, note=action.text, note_by=by, earlier_notes=earlier), ""
        else:
            new, draft = None, action.text
        old_by, draft_by = self._draft_by.get(index, ""), (action.by if draft else "")
        self._undo.append(Change(self._items[index].id, index, old, new, old_note, draft, False, None, None, old_by, draft_by))
        self._redo.clear()
        self._set_state(index, new, draft, draft_by)
        self._move_to(index)
        return self.shown(index)

    def _apply_dismiss(self, action: Dismiss) -> frozenset[str]:
        index = action.index
        said_before = self._dismissed.get(index, {})
        said_after = {check: by for check, by in said_before.items() if check != action.check}
        if action.on:
            said_after[action.check] = action.by
        before, after = frozenset(said_before), frozenset(said_after)
        decision, draft, by = self._decisions[index], self._notes.get(index, ""), self._draft_by.get(index, "")
        change = Change(
            self._items[index].id, index, decision, decision, draft, draft, False, before, after, by, by, action.by, said_before, said_after
        )
        self._undo.append(change)
        self._redo.clear()
        self._set_dismissed(index, said_after)
        self._move_to(index)
        return after

    def _set_dismissed(self, index: int, said: Mapping[str, str] | None) -> None:
        """The item's dismissed warnings and whose word each is (None: a change that did not touch them)."""
        if said is None:
            return
        if said:
            self._dismissed[index] = said
        else:
            self._dismissed.pop(index, None)

    def _apply_undo(self, action: Undo) -> EvalItem:
        if not self._undo or self._undo[-1].index != action.index:
            raise ReviewError("nothing matching this undo is on the undo stack")
        change = self._undo.pop()
        self._take_back(change)
        self._move_to(change.index)
        return self.shown(change.index)

    def _apply_redo(self, action: Redo) -> EvalItem:
        if not self._redo or self._redo[-1].index != action.index:
            raise ReviewError("nothing matching this redo is on the redo stack")
        change = self._redo.pop()
        self._bring_back(change)
        if change.advances:
            self._advance_after(change.index)
        else:
            self._move_to(change.index)
        return self.shown(change.index)

    def take_from_beneath(self, redo: bool, at: int) -> None:
        """For a replay: undo (``redo``: redo) the change at position ``at`` of its stack, with the changes
        above it, all on other items, left where they are.

        A session undoes the change on top of its history; a replay may hold above it changes that
        session never had (decisions on an item the set had changed, applicable again once the set
        was changed back). Those are on other items, whose states do not depend on this change.
        """
        stack = self._redo if redo else self._undo
        change = stack[at]
        if any(other.index == change.index for other in stack[at + 1 :]):
            raise ReviewError("a later change of the same item stands above the change to take back")
        del stack[at]
        (self._bring_back if redo else self._take_back)(change)
        self._move_to(change.index)

    def _take_back(self, change: Change) -> None:
        """The item's state as it was before ``change``, which goes on the redo stack."""
        self._set_dismissed(change.index, change.dismissers_before)
        self._set_state(change.index, change.before, change.note_before, change.draft_by_before)
        self._redo.append(change)
        lost = _time_taken_back(change, self.reviewer)
        if lost:
            _, before = self._undone_seconds.get(change.index, ("", 0.0))
            self._undone_seconds[change.index] = (self.reviewer, before + lost)

    def _bring_back(self, change: Change) -> None:
        """The item's state as ``change`` left it, which goes back on the undo stack."""
        self._set_dismissed(change.index, change.dismissers_after)
        self._set_state(change.index, change.after, change.note_after, change.draft_by_after)
        self._undo.append(change)
        lost = _time_taken_back(change, self.reviewer)
        if lost:  # the decision is back, with its time
            left = self._undone_seconds.get(change.index, ("", 0.0))[1] - lost
            if left > 0.0005:
                self._undone_seconds[change.index] = (self.reviewer, left)
            else:
                self._undone_seconds.pop(change.index, None)

    def _apply_order(self, indices: tuple[int, ...] | None, prepared: ReviewOrder | None = None) -> None:
        import numpy as np

        self.settle_move()  # the cursor it owes was found in the order before this one
        count = len(self._items)
        if indices is not None and (
            prepared is None or prepared.size != count or (prepared.indices is not indices and prepared.indices != indices)
        ):
            prepared = ReviewOrder(indices, count)
        # Undecided positions are kept by rank, so they are laid out again: read by the old ranks, a word at a time,
        # and put in the new ones (a walk over every item's decision took a quarter of a second at a million).
        open_by_rank = self._open.bits()
        rank: Any = self._rank
        open_by_index = open_by_rank if rank is None else open_by_rank[np.frombuffer(rank, dtype=np.int64)]
        if prepared is None or indices is None:
            self._order = self._rank = None
            self._open = PositionSet.from_bits(open_by_index)
        else:
            self._order, self._rank = prepared.order, prepared.rank
            self._open = PositionSet.from_bits(open_by_index[np.frombuffer(prepared.order, dtype=np.int64)])

    # --- internals ----------------------------------------------------------------------

    def _set_state(self, index: int, decision: Decision | None, draft: str, draft_by: str = "") -> None:
        old = self._decisions[index]
        if old is not None:
            self._counts[old.verdict] -= 1
            self._millis -= round(old.seconds * 1000)
        if decision is not None:
            self._counts[decision.verdict] += 1
            self._millis += round(decision.seconds * 1000)
        if (old is None) != (decision is None):
            rank = self.rank_of(index)
            if decision is None:
                self._open.add(rank)
            else:
                self._open.discard(rank)
        self._decisions[index] = decision
        if draft:
            self._notes[index] = draft
        else:
            self._notes.pop(index, None)
        if draft and draft_by:
            self._draft_by[index] = draft_by
        else:
            self._draft_by.pop(index, None)

    def _advance_after(self, index: int) -> None:
        self._move_to(self._next_after(index))

    def _next_after(self, index: int) -> int:
        """Where the cursor goes after deciding ``index``: the next undecided item, wrapping round.

        ``index`` itself never counts, so the answer is the same asked before the decision
        (see :meth:`after_deciding`) as after it.
        """
        rank = self.rank_of(index)
        found = self._open.next_from(rank + 1)
        if found < 0:
            found = self._open.first()
            if found == rank:  # still open only because it is not decided yet: deciding it leaves none
                found = -1
        return len(self._items) if found < 0 else self._at_rank(found)

    def _move_to(self, index: int) -> None:
        if not 0 <= index <= len(self._items):
            raise ReviewError(f"position {index} is outside the queue (0..{len(self._items)})")
        self._pos = index
        self._owed = -1
        self._shown_at = self._clock()

    def _at_rank(self, rank: int) -> int:
        return rank if self._order is None else self._order[rank]

    def _require_current(self) -> int:
        if self._pos >= len(self._items):
            raise ReviewError(FINISHED_MESSAGE)
        return self._pos

    def _resolve(self, target: int | str) -> int:
        if isinstance(target, bool):
            raise ReviewError(f"not an item id or queue position: {target!r}")
        if isinstance(target, int):
            if not 0 <= target < len(self._items):
                raise ReviewError(f"position {target} is outside the queue (0..{len(self._items) - 1})")
            return target
        index = self._index.get(target)
        if index is None:
            raise ReviewError(f"no item with id {target!r} in this review")
        return index

    def _new_decision(
        self, index: int, verdict: Verdict, note: str, reason: RejectReason | None, after: EvalItem
    ) -> Decision:
        now = self._clock()
        looked = min(max(now - self._shown_at, 0.0), self.idle_cap)
        warnings: tuple[str, ...] = ()
        flagged: tuple[str, ...] = ()
        unfixed: tuple[str, ...] | None = None
        if self.open_warnings is not None and verdict in (Verdict.ACCEPTED, Verdict.EDITED):
            # Every serious warning open, dismissed or not: whether it counts as accepted past is read from the
            # decider's own dismissals as they stand when exported (one taken back after the accept counts again).
            # A warning another reviewer had already said is not a problem was settled before this decision; one
            # they dismiss after it does not undo what this reviewer did (dismissed_by_decider).
            others = self.dismissed_by_others(index, self.reviewer)
            warnings = tuple(check for check in self.open_warnings(after) if check not in others)
        if self.flagged_by is not None and verdict is not Verdict.SKIPPED:
            # What flagged the item the reviewer was looking at: an edit that fixes a warning confirms it
            # (read on the edited version, a fixed warning was missing and the check never counted as right).
            # A second edit replaces the first decision: the set's own version's warnings are kept with it.
            if verdict is Verdict.EDITED:
                original, shown = self._items[index], self.shown(index)
                flagged = self.flagged_by(original)
                if shown is not original:
                    flagged = (*flagged, *self.flagged_by(shown))
                # What still flags the edited item was kept past, not fixed: a type marked, or a question reworded
                # while its quote stayed missing, confirmed every warning the item had and counted it as right.
                unfixed = self.left_by_edit(shown, after) if self.left_by_edit is not None else self.flagged_by(after)
                flagged = tuple(dict.fromkeys((*flagged, *self.flagged_by(after))))
            else:
                flagged = self.flagged_by(after)
        pairs: tuple[tuple[str, tuple[str, ...]], ...] = ()
        if self.pairs_of is not None and verdict in (Verdict.ACCEPTED, Verdict.EDITED):
            recorded = {*warnings, *flagged}
            pairs = tuple((check, ids) for check, ids in self.pairs_of(after).items() if check in recorded and ids)
        # A draft note becomes the decision's; one another reviewer wrote says whose it is. A note given with the
        # decision takes its place, and another reviewer's draft is then kept beside it, not dropped.
        draft, drafted_by = self._notes.get(index, ""), self._draft_by.get(index, "")
        author = "" if str(note) else drafted_by
        note_by = author if author != self.reviewer else ""
        earlier: tuple[tuple[str, str], ...] = ()
        if str(note) and draft and drafted_by and drafted_by != self.reviewer and str(note) != draft:
            earlier = ((drafted_by, draft),)
        carried = ""
        replaced = self._decisions[index]
        # A decision taken back with undo took the time spent on it along: it counts for the next one made here.
        undone_by, undone = self._undone_seconds.get(index, ("", 0.0))
        if undone and undone_by == self.reviewer:
            looked = min(looked + undone, _MOST_SECONDS)
        if replaced is not None and replaced.reviewer == self.reviewer and replaced.seconds > 0:
            # Decided again by the same reviewer: the time they spent on it before counts still. The decision it
            # replaces took its time with it, and the pace and the time spent came out too good.
            looked = min(looked + replaced.seconds, _MOST_SECONDS)
        if replaced is not None:  # a decision made again: the words others wrote on the one it replaces stay
            earlier = replaced.notes_kept(self.reviewer, str(note) or draft)
            if replaced.note and (replaced.note_by or replaced.reviewer) == self.reviewer and not str(note) and not draft:
                if _why_rejected(replaced, verdict, self.reviewer):
                    # Why they rejected it is no note for an accept ("not about tools" on an accepted item): kept
                    # beside the new decision, as a replaced note is, not as its note.
                    earlier = (*earlier, (self.reviewer, replaced.note))
                else:
                    # This reviewer's own note (written with the earlier decision, or on it since) goes on with the
                    # new one, as a draft note becomes a first decision's: a reject with no note lost it without a word.
                    carried = replaced.note
        return Decision(
            item_id=self._items[index].id,
            verdict=verdict,
            note_by=note_by,
            note=str(note) or draft or carried,
            reason=reason,
            before=self._items[index],
            after=after,
            decided_at=now,
            seconds=round(looked, 3),
            reviewer=self.reviewer,
            warnings=warnings,
            flagged=flagged,
            earlier_notes=earlier,
            editors=editors_of(replaced, self._items[index], after, self.reviewer),
            unfixed=unfixed,
            pairs=pairs,
            unchecked=verdict is not Verdict.SKIPPED and self.warnings_unknown is not None and self.warnings_unknown(after),
        )

    def _edited_anchors(
        self,
        item: EvalItem,
        wanted: Mapping[int, tuple[str | None, int | None]],
        original: EvalItem | None = None,
        copies: Mapping[int, int] | None = None,
    ) -> tuple[GoldAnchor, ...]:
        """``item``'s anchors with ``wanted`` (anchor number -> new quote, new grade; None keeps it) applied.

        An anchor's ``occurrence`` says which copy of its words the document means. A correction of the same
        passage (a word fixed, the end trimmed: most of the words kept) keeps it, as the copy the set meant: put
        on the first copy, a quote found twice moved silently to another section. Words added around the old ones
        make a quote found at fewer places than they were (often one), and words of another passage are a quote
        of their own: both start from the first copy (the old count had them reported missing where they appear
        once). Words edited back to the set's own (``original``) take back the set's occurrence. The page hint
        stays: a corrected quote is nearly always on the page of the old one. An anchor that gives no occurrence
        (0, no page hint) whose copy its item's gold span marked (``copies``: LegalBench-RAG's snippets) keeps
        that copy the same way, as its occurrence: the span goes with the old words, and the corrected quote
        was put on the first copy, another passage.
        """
        if not item.anchors:
            raise ReviewError(
                f"item {item.id!r} has no quoted evidence to change; reject it or give it an anchor first"
            )
        anchors = list(item.anchors)
        for which, (quote, grade) in wanted.items():
            if not 0 <= which < len(anchors):
                raise ReviewError(
                    f"item {item.id!r} has {len(anchors)} anchor(s); there is no anchor number {which}"
                )
            old = anchors[which]
            words = old.quote if quote is None else quote
            occurrence = old.occurrence
            if words != old.quote:
                first = original.anchors[which] if original is not None and which < len(original.anchors) else None
                if first is not None and first.source_id == old.source_id and first.quote == words:
                    occurrence = first.occurrence
                elif old.quote in words or not _same_passage(old.quote, words):
                    occurrence = 0
                elif occurrence == 0 and old.page_hint is None and copies and which in copies:
                    occurrence = copies[which]
            anchors[which] = GoldAnchor(
                source_id=old.source_id,
                quote=words,
                grade=old.grade if grade is None else grade,
                page_hint=old.page_hint,
                occurrence=occurrence,
            )
        return tuple(anchors)

    def _load_history(
        self, decisions: Mapping[str, Decision] | None, history: Sequence[Decision] | None
    ) -> None:
        """Set up a queue handed its state (the page's constructor arguments)."""
        latest: dict[str, Decision] = {}
        for decision in history or ():
            index = self._resolve(decision.item_id)
            self._undo.append(Change(decision.item_id, index, latest.get(decision.item_id), decision))
            latest[decision.item_id] = decision
        for item_id, decision in (decisions if decisions is not None else latest).items():
            self._set_state(self._resolve(item_id), decision, "")


#: Of two quotes' words, the share both hold (of all either holds) from which an edit is a correction of the same
#: passage, whose copy in the document the anchor's occurrence still names (see ReviewQueue._edited_anchors).
SAME_PASSAGE_SHARE = 0.5


def _same_passage(old: str, new: str) -> bool:
    """Whether ``new`` is ``old`` corrected (most words kept, in any case), rather than words of another passage."""
    before, after = word_set(old), word_set(new)  # as the near-duplicate checks compare questions
    if not before or not after:
        return False
    return len(before & after) / len(before | after) >= SAME_PASSAGE_SHARE



def gold_of_kept_quotes(item: EvalItem, anchors: Sequence[GoldAnchor]) -> tuple[GoldSpan, ...]:
    """``item``'s gold spans without those located for a quote that ``anchors`` (its anchors, edited in place)
    changed: a span is where the old words are, and the scorer reads the span, not the quote. Left, the
    reviewer's corrected quote went out beside the old quote's offsets, and the correction never reached a score.

    A span is taken for a quote's as the resolver pairs them: in the quote's document and as long as the quote.
    A span that an unchanged quote of the same document and length may hold is kept. Where no span pairs with
    a changed quote that way (a quote found with differences), the span at its own place is taken when the item
    has one span per quote, in order, as the resolver writes them. What is dropped is what ``resolve`` makes
    again from the new quote.
    """
    if not item.gold:
        return item.gold
    before = item.anchors
    changed = [i for i, (old, new) in enumerate(zip(before, anchors)) if old.quote != new.quote or old.source_id != new.source_id]
    if not changed:
        return item.gold
    kept_shapes = {(anchor.source_id, len(anchor.quote)) for i, anchor in enumerate(anchors) if i not in changed}
    stale: set[int] = set()
    for i in changed:
        shape = (before[i].source_id, len(before[i].quote))
        if shape in kept_shapes:
            continue
        paired = [j for j, entry in enumerate(item.gold) if (entry.span.doc_id, len(entry.span)) == shape]
        if paired:
            stale.update(paired)
        elif len(item.gold) == len(before) and item.gold[i].span.doc_id == before[i].source_id:
            stale.add(i)
    return tuple(entry for j, entry in enumerate(item.gold) if j not in stale)


def stays_in_review(item: EvalItem, keep: Container[str]) -> bool:
    """Whether a queue that leaves out reviewed items keeps this one: not marked
    ``meta["reviewed"]`` (read by :func:`is_marked_reviewed`, so a spreadsheet's "false"
    keeps it in), or among ``keep`` (the items a journal already decided on)."""
    return not is_marked_reviewed(item.meta.get("reviewed")) or item.id in keep


def pending(evalset: EvalSet) -> tuple[EvalItem, ...]:
    """Items nobody has marked ``meta["reviewed"]`` yet; knows nothing of any queue.

    Kept exactly as the reference page documents it (``not meta.get("reviewed")``), so a
    text "false" counts as reviewed here, as in ``ReviewQueue.from_evalset``; a review session,
    the app and the commands read the marker with
    :func:`~reviewtui.evalset.model.items.is_marked_reviewed` instead.
    """
    return tuple(item for item in evalset.items if not item.meta.get("reviewed"))


def iso_time(timestamp: float) -> str | None:
    """A time in seconds since 1970 as ISO 8601 in UTC, to the second; None for no time."""
    if not timestamp:
        return None
    return _iso_second(int(timestamp))


@functools.lru_cache(maxsize=4096)  # an export writes one per decision, and bursts of decisions share a second
def _iso_second(second: int) -> str:
    return _dt.datetime.fromtimestamp(second, tz=_dt.UTC).isoformat(timespec="seconds")


def format_duration(seconds: float | None, *, compact: bool = False) -> str:
    """A short human duration: "45 s", "12 min 5 s", "3 h 4 min".

    ``compact`` is the form for the app's narrow bars: "45s", "12m05s", "3h04m", and "–"
    for a time not known (None, NaN or negative); the long form counts those as 0 s.
    """
    if compact:
        if seconds is None or seconds != seconds or seconds < 0:
            return "–"
        hours, rest = divmod(int(round(seconds)), 3600)
        minutes, secs = divmod(rest, 60)
        if hours:
            return f"{hours}h{minutes:02d}m"
        return f"{minutes}m{secs:02d}s" if minutes else f"{secs}s"
    seconds = max(0, round(seconds or 0))
    if seconds < 60:
        return f"{seconds} s"
    minutes, secs = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes} min {secs} s" if secs else f"{minutes} min"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min" if minutes else f"{hours} h"


def review_summary(queue: ReviewQueue, elapsed_seconds: float | None = None) -> str:
    """One line on where a review stands: decided, verdicts, time and pace.

    Without ``elapsed_seconds`` the time is the items' time on screen.
    """
    stats = queue.stats()
    verdicts = ", ".join(f"{count} {name}" for name, count in stats.counts.items())
    line = f"{stats.decided} of {stats.total} reviewed ({verdicts})"
    seconds = stats.seconds if elapsed_seconds is None else float(elapsed_seconds)
    if seconds > 0:
        line += f" in {format_duration(seconds)}"
        if stats.decided:
            line += f", {stats.decided * 3600 / seconds:.0f} per hour"
    if stats.left:
        line += f"; {stats.left} left"
    return line

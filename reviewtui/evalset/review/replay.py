"""Review actions as journal records, and replaying a journal into a queue.

A record holds what is needed to make the same change again: a decision with
its verdict, note, reason, time, reviewer and (for an edit) the item as
edited; a note; an undo or redo (with the item it touches, as a check); a
cursor move; a change of order ("order", naming every item it puts first, or
"reorder", naming the earlier "order" record of the same order by its number,
``of``: pressing "flagged first" again writes a line, not the whole order
again). Items are named by id, never by position, so
a journal still lines up with a set that gained or lost items.

Each decision and note also carries a fingerprint of the item it was made on.
On resume, a record whose item has since changed in the file, or is gone from
it, is not applied: the item comes back undecided and the resume report lists
it. Undo and redo records that would take back or restore such a skipped change
are skipped with it; the rest of the history replays as it happened.

A record with a good checksum can still be hand-made. Every field replay reads
is checked for its kind and range first (an id is a string, a time a plausible
number of seconds), so a bad value is refused as ``journal:line`` instead of
reaching the queue, the statistics or a date formatter.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reviewtui.evalset.io.journal import JournalContents, read_journal, shown_value
from reviewtui.evalset.io.jsonl import LinePrints, content_hash
from reviewtui.evalset.io.lock import plausible_timestamp
from reviewtui.evalset.jobs.cancel import Progress
from reviewtui.evalset.jobs.collector import gc_paused
from reviewtui.evalset.model.errors import JournalError, ReviewError
from reviewtui.evalset.model.items import EvalItem, EvalSetError
from reviewtui.evalset.review.queue import (
    Action,
    Annotate,
    Decide,
    Dismiss,
    Move,
    Redo,
    RejectReason,
    Reorder,
    ReviewOrder,
    ReviewQueue,
    Undo,
    Verdict,
    editors_of,
    make_decision,
)

__all__ = [
    "ReplayOutcome",
    "StaleRecord",
    "fingerprint",
    "journal_item_ids",
    "record_for",
    "replay",
]

_CHANGING_OPS = frozenset(("decide", "note", "dismiss"))
# Plain lookups: calling an Enum by value is slow when a journal holds thousands of records.
_VERDICTS = {v.value: v for v in Verdict if v is not Verdict.PENDING}
_REASONS: dict[Any, RejectReason | None] = {None: None, **{r.value: r for r in RejectReason}}

_ITEM_JSON = EvalItem.__pydantic_serializer__.to_json

#: The longest time on screen a decision may record: a year. The idle cap keeps real ones to
#: minutes; a larger value is hand-made, and 1e308 would overflow the time totals.
MAX_SECONDS = 366 * 24 * 3600.0
_MISSING = object()
# What a failed check on hand-made data can raise from the standard library or pydantic; each
# is turned into "journal:line: ..." rather than a traceback.
_MALFORMED = (KeyError, TypeError, ValueError, OverflowError, AttributeError, IndexError, RecursionError)


def fingerprint(item: EvalItem) -> str:
    """A short hash of an item's content (16 hex digits): blake2b of its JSON as the set writer
    would write it. Fields come in model order; ``meta`` keys in the order the file gave them,
    which re-reading the same file reproduces."""
    return content_hash(_ITEM_JSON(item))


class _Fingerprints:
    """Item fingerprints, each computed once, on first need.

    ``lines`` holds the hashes of the file lines some items were read from (see
    :class:`~reviewtui.evalset.io.jsonl.LinePrints`). A record whose fingerprint is its item's
    line hash was made on an item whose JSON is that very line, and reading a line the set
    writer wrote gives back an item that writes it again byte for byte, so the record matches
    without the item being encoded. Any other record is checked against the item's fingerprint.
    """

    def __init__(self, queue: ReviewQueue, lines: LinePrints | None = None) -> None:
        self._queue = queue
        self._known: dict[int, str] = {}
        self._lines = lines if lines is not None and lines.found else None

    def of(self, index: int) -> str:
        known = self._known.get(index)
        if known is None:
            known = self._known[index] = fingerprint(self._queue.item_at(index))
        return known

    def matches(self, index: int, made_on: str) -> bool:
        """Whether the item at ``index`` is the one a record was made on (``made_on`` is its fingerprint then)."""
        known = self._known.get(index)
        if known is None:
            if self._lines is not None and self._lines.get(self._queue.item_at(index).id) == made_on:
                return True  # its line is the item's JSON when the record was made, so the item is unchanged
            known = self.of(index)
        return known == made_on


def record_for(queue: ReviewQueue, action: Action, prints: _Fingerprints | None = None) -> dict[str, Any]:
    """The journal payload for an action planned on ``queue`` (before it is applied)."""
    if isinstance(action, Decide):
        decision = action.decision
        record: dict[str, Any] = {
            "op": "decide",
            "id": decision.item_id,
            "v": decision.verdict.value,
            "at": decision.decided_at,
            "secs": decision.seconds,
            "by": decision.reviewer,
            "h": prints.of(action.index) if prints else fingerprint(queue.item_at(action.index)),
        }
        if decision.note:
            record["note"] = decision.note
        if decision.note_by:
            record["note_by"] = decision.note_by
        if decision.taken_from:
            record["from"] = decision.taken_from
        if decision.earlier_notes:
            record["earlier"] = [[by, text] for by, text in decision.earlier_notes]
        if decision.reason is not None:
            record["why"] = decision.reason.value
        if decision.warnings:
            record["warn"] = list(decision.warnings)
        if decision.flagged:
            record["flagged"] = list(decision.flagged)
            if decision.unfixed is not None:  # an edit: written even when empty, which says it fixed them all
                record["unfixed"] = list(decision.unfixed)
        if decision.pairs:
            record["pairs"] = {check: list(others) for check, others in decision.pairs}
        if decision.unchecked:
            record["unchecked"] = True
        if decision.after is not None and decision.after is not decision.before:
            record["item"] = decision.after.model_dump(mode="json")
        return record
    if isinstance(action, Dismiss):
        record = {
            "op": "dismiss",
            "id": queue.item_at(action.index).id,
            "check": action.check,
            "on": action.on,
            "h": prints.of(action.index) if prints else fingerprint(queue.item_at(action.index)),
        }
        if action.by:
            record["by"] = action.by
        return record
    if isinstance(action, Annotate):
        record = {
            "op": "note",
            "id": queue.item_at(action.index).id,
            "text": action.text,
            "h": prints.of(action.index) if prints else fingerprint(queue.item_at(action.index)),
        }
        if action.by:
            record["by"] = action.by
        return record
    if isinstance(action, Undo):
        return {"op": "undo", "id": queue.item_at(action.index).id}
    if isinstance(action, Redo):
        return {"op": "redo", "id": queue.item_at(action.index).id}
    if isinstance(action, Move):
        target = None if action.index >= len(queue) else queue.item_at(action.index).id
        return {"op": "move", "id": target}
    if isinstance(action, Reorder):
        return {"op": "order", "ids": None if action.indices is None else queue.ids_of(action.indices)}
    raise TypeError(f"not a review action: {action!r}")


@dataclass(frozen=True, slots=True)
class StaleRecord:
    """A journaled decision or note that was not applied, and why."""

    item_id: str
    why: str  # "changed": the item differs from when it was decided; "vanished": no longer in the set
    line: int
    at: float | None = None  # when the decision was made (a decision's record; None for a note or a dismissal)

    def describe(self) -> str:
        if self.why == "vanished":
            return f"{self.item_id}: no longer in the set; its earlier decision is dropped"
        return f"{self.item_id}: changed in the file since it was decided; it is back in the queue"


@dataclass(slots=True)
class ReplayOutcome:
    """What a replay did: records applied, what it could not apply, and who worked when."""

    applied: int = 0
    stale: list[StaleRecord] = field(default_factory=list)
    reviewers: dict[str, int] = field(default_factory=dict)
    first_decision_at: float | None = None
    last_decision_at: float | None = None
    sessions: int = 0
    fingerprints: _Fingerprints | None = None
    #: the journal records (by their sequence numbers) of the changes on the queue's undo and redo
    #: stacks once replayed, oldest first: a session names the one an undo or redo takes (see replay)
    undo_records: list[int] = field(default_factory=list)
    redo_records: list[int] = field(default_factory=list)
    #: the orders the journal wrote out whole ("order" records that named only items in the review), by their
    #: ReviewOrder.key: record number; the same order again is journaled as a "reorder" of that record
    orders: dict[bytes, int] = field(default_factory=dict)

    @property
    def stale_ids(self) -> list[str]:
        seen: dict[str, None] = {}
        for record in self.stale:
            seen.setdefault(record.item_id)
        return list(seen)


def journal_item_ids(contents: JournalContents) -> set[str]:
    """Ids the journal decided on or annotated (so a resumed queue keeps them even if marked reviewed)."""
    # Runs before replay has checked the records, so it takes nothing for granted (an op may be a list).
    return {
        payload["id"]
        for _, payload in contents.records[1:]
        if type(payload.get("op")) is str and payload["op"] in _CHANGING_OPS and type(payload.get("id")) is str
    }


def decided_in(journal: str | os.PathLike[str]) -> frozenset[str]:
    """The ids a journal file decided on or annotated; none when there is no such file yet."""
    path = Path(journal)
    if not path.exists():
        return frozenset()
    return frozenset(journal_item_ids(read_journal(path)))


#: Records replayed between two calls of a replay's ``progress``.
PROGRESS_EVERY = 4096


class UndoMismatch(JournalError):
    """An undo or redo record that pairs with no change this replay can take back (see replay)."""


#: The kind of each entry of a replay's undo and redo stacks: (item id, applied here, record number).
_Entry = tuple[str, bool, int]


@gc_paused()  # thousands of small records and decisions, none of them cyclic
def replay(
    queue: ReviewQueue,
    contents: JournalContents,
    line_prints: LinePrints | None = None,
    progress: Progress | None = None,
    *,
    as_written_before: bool = False,
) -> ReplayOutcome:
    """Apply every record after the first to ``queue``, in order.

    ``line_prints``, the hashes of the lines the journal's items were read from, spares
    encoding each item to check its fingerprint (see ``_Fingerprints``); the outcome is the same.
    ``progress(done, total)`` is told of the records replayed every few thousand, and at the end:
    a journal of a hundred thousand decisions takes about a second.
    Raises EvalSetError naming ``journal:line`` for a record that is well formed
    on disk but makes no sense (an unknown step, an undo with nothing to undo).

    A decision, by far the commonest record, is checked and applied here in line (see
    :func:`_replay_decide`) rather than as a ``Decide`` action, and its cursor move is left
    owing (:meth:`ReviewQueue.decide_owing_move`): only the last one before another move counts.
    The checks, their order and the state reached are those of the step-by-step path.

    An undo or redo record names the record of the change it takes (``of``, its sequence number),
    so that it pairs with that change even when changes this replay skips (their item changed in
    the file) lie above it. Journals written before undo records said so are paired by the item
    they name (see :func:`_the_change`); ``as_written_before`` pairs each with the change on
    top, as the versions that wrote them did (a fallback for a journal that cannot be read the
    first way: see :class:`UndoMismatch`).
    """
    outcome = ReplayOutcome(fingerprints=_Fingerprints(queue, line_prints))
    prints = outcome.fingerprints
    assert prints is not None
    # Each change on the full history's undo/redo stacks: its item, whether it was applied here, its record.
    undo_applied: list[_Entry] = []
    redo_applied: list[_Entry] = []
    # The records of changes this replay could not apply that were taken back since (and not brought back): no
    # decision of theirs stands, so none is reported as not restored ("1 earlier decision not restored" was said of
    # an accept undone before its item left the set).
    taken_back: set[int] = set()
    path = str(contents.path)
    records = contents.records
    # Who opened the session a record was written in: a note from a journal written before notes were signed is
    # theirs, and was credited to whoever replayed the journal (the one running export, say).
    signer = (contents.header or {}).get("by") or ""
    applied = 0
    # each "order" record's order by its number (what a "reorder" names), and each order once by its key
    order_records: dict[int, ReviewOrder] = {}
    orders_made: dict[bytes, ReviewOrder] = {}
    total = len(records) - 1
    report_at = PROGRESS_EVERY if progress is not None else len(records)  # never reached without progress
    try:
        for at in range(1, len(records)):
            if at == report_at:
                progress(at - 1, total)  # type: ignore[misc]  # report_at is reached only with a progress
                report_at += PROGRESS_EVERY
            line, payload = records[at]
            try:
                op = payload.get("op", _MISSING)
                if type(op) is not str:
                    raise _bad("op", "the name of a step", op)
                if op in _CHANGING_OPS:  # "decide", by far the commonest, has a path of its own
                    if op == "decide":
                        done = _replay_decide(queue, payload, line, prints, outcome)
                    else:
                        done = _replay_change(queue, payload, op, line, prints, outcome, signer)
                    undo_applied.append((payload["id"], done, _sequence(payload)))  # "id": checked by the step
                    redo_applied.clear()
                    if not done:
                        queue.forget_redo()
                elif op in ("undo", "redo"):
                    _replay_take(queue, op, payload, undo_applied, redo_applied, as_written_before, path, line, taken_back)
                elif op == "move":
                    target = payload.get("id", _MISSING)
                    if target is not None and type(target) is not str:
                        raise _bad("id", "an item id or null (past the last item)", target)
                    index = len(queue) if target is None else queue.index_of(target)
                    if index is not None:
                        queue.apply(Move(index))
                elif op == "order":
                    ids = payload.get("ids", _MISSING)
                    if ids is not None and (type(ids) is not list or not all(type(i) is str for i in ids)):
                        raise _bad("ids", "a list of item ids or null (the set's own order)", ids)
                    if ids is None:
                        queue.apply(Reorder(None))
                    else:
                        indices = _present(queue, ids)
                        prepared = ReviewOrder(indices, len(queue))
                        # The same order again (a journal from before "reorder", f pressed once per scan) is kept once.
                        prepared = orders_made.setdefault(prepared.key, prepared)
                        queue.apply(Reorder(prepared.indices, prepared))
                        number = _sequence(payload)
                        order_records[number] = prepared
                        if len(indices) == len(ids):  # each item it named is here, so a reference names them all
                            outcome.orders.setdefault(prepared.key, number)
                elif op == "reorder":
                    of = payload.get("of", _MISSING)
                    if type(of) is not int:
                        raise _bad("of", "the number of an earlier record of the order", of)
                    again = order_records.get(of)
                    if again is None:
                        raise JournalError(
                            f"the order it repeats, record {of}, is not an order written earlier in this journal"
                        )
                    out, ins = payload.get("out", []), payload.get("in", [])
                    if type(out) is not list or not all(type(i) is str for i in out):
                        raise _bad("out", "a list of item ids", out)
                    if type(ins) is not list or not all(
                        type(e) is list and len(e) == 2 and type(e[0]) is int and type(e[1]) is str for e in ins
                    ):
                        raise _bad("in", "a list of [place, item id]", ins)
                    if out or ins:
                        again = queue.derive_order(
                            again,
                            [i for i in map(queue.index_of, out) if i is not None],
                            [(place, i) for place, i in ((e[0], queue.index_of(e[1])) for e in ins) if i is not None],
                            strict=False,
                        )
                    queue.apply(Reorder(again.indices, again))
                elif op == "open":
                    _check_open(payload)
                    outcome.sessions += 1
                    signer = payload.get("by") or signer
                else:
                    raise JournalError(
                        f"unknown journal step {shown_value(op)} (written by a newer reviewtui?)", path=path, line=line
                    )
            except EvalSetError as exc:
                raise (exc if exc.path else exc.located(path, line)) from None
            except _MALFORMED as exc:
                raise JournalError(
                    f"journal record is not well formed ({type(exc).__name__}: {shown_value(str(exc), 80)})",
                    path=path,
                    line=line,
                ) from None
            applied += 1
    finally:
        queue.settle_move()  # the move the last decision owes, if no later step moved the cursor
    outcome.applied = applied
    if taken_back:
        outcome.stale = [record for record in outcome.stale if record.line - 1 not in taken_back]
    outcome.undo_records = [number for _, done, number in undo_applied if done]
    outcome.redo_records = [number for _, done, number in redo_applied if done]
    if progress is not None and total:  # a journal of only its header has nothing to show
        progress(total, total)
    return outcome


def _replay_take(
    queue: ReviewQueue,
    op: str,
    payload: dict[str, Any],
    undo_applied: list[_Entry],
    redo_applied: list[_Entry],
    as_written_before: bool,
    path: str,
    line: int,
    taken_back: set[int] | None = None,
) -> None:
    """One "undo" or "redo" record: the change it takes moves to the other stack, and is taken back
    (or brought back) on ``queue`` if it was applied there; if not, its record goes into ``taken_back`` on an undo
    and out of it on a redo."""
    item_id = _text(payload, "id")
    taken, given = (undo_applied, redo_applied) if op == "undo" else (redo_applied, undo_applied)
    if not taken:
        raise UndoMismatch(f"{'an undo' if op == 'undo' else 'a redo'} with nothing left to {op}")
    at = _the_change(taken, payload, item_id, as_written_before)
    entry = taken.pop(at)
    given.append(entry)
    if not entry[1]:
        if taken_back is not None:
            if op == "undo":
                taken_back.add(entry[2])
            else:
                taken_back.discard(entry[2])
        return
    try:
        if at == len(taken):  # it was on top
            queue.apply((Undo if op == "undo" else Redo)(_index(queue, item_id, path, line)))
        else:  # beneath changes the session that wrote this never had (see _the_change)
            queue.take_from_beneath(op == "redo", sum(1 for other in taken[:at] if other[1]))
    except ReviewError as exc:  # the pairing went wrong
        raise UndoMismatch(exc.message) from None


def _sequence(payload: dict[str, Any]) -> int:
    number = payload.get("n")
    return number if type(number) is int else -1


def _the_change(stack: list[_Entry], payload: dict[str, Any], item_id: str, as_written_before: bool) -> int:
    """Where, on ``stack``, the change an undo (or redo) takes is; changes above it that the session
    which wrote the undo never had, and this replay skips, are dropped first.

    Changes this replay skips (their item changed in the file) were not in the history of the
    sessions opened since, so their undo took a change below them. An undo names the record of its
    change (``of``): the skipped changes above that record go, and applied ones stay above it (they
    were skipped when the undo was written, and apply again now that the set has been changed back).
    One from before undo records said so names only its change's item: skipped changes on other items
    above the topmost change on that item go, when no applied one is above it (had the session held
    one of them, it would have been on top, and the undo would name its item). ``as_written_before``:
    the change on top, as the versions that wrote such journals paired them.
    """
    top = len(stack) - 1
    of = payload.get("of", _MISSING)
    if of is not _MISSING:
        if type(of) is not int:
            raise _bad("of", "the number of the record of the change it takes", of)
        for depth in range(top, -1, -1):
            if stack[depth][2] == of:
                stack[depth + 1 :] = [entry for entry in stack[depth + 1 :] if entry[1]]
                return depth
        raise UndoMismatch(f"it names the change of record {of}, which is not there to take")
    if as_written_before:
        return top
    for depth in range(top, -1, -1):
        other, done, _ = stack[depth]
        if other == item_id:
            del stack[depth + 1 :]
            return depth
        if done:
            break  # an applied change on another item above any on this one: pair as written
    return top


def _replay_decide(
    queue: ReviewQueue, payload: dict[str, Any], line: int, prints: _Fingerprints, outcome: ReplayOutcome
) -> bool:
    """One "decide" record: every field checked before its item is looked up (a bad record is refused
    even when its item is gone), then applied without a ``Decide`` action, its cursor move left owing."""
    get = payload.get
    item_id = get("id", _MISSING)
    if type(item_id) is not str:
        raise _bad("id", "a string", item_id)
    made_on = get("h", _MISSING)
    if type(made_on) is not str:
        raise _bad("h", "a string", made_on)
    code = get("v", _MISSING)
    verdict = _VERDICTS.get(code) if type(code) is str else None
    if verdict is None:
        raise _bad("v", f"a verdict ({', '.join(_VERDICTS)})", code)
    why = get("why")
    if why is not None and (type(why) is not str or why not in _REASONS):
        raise _bad("why", f"a reject reason ({', '.join(r for r in _REASONS if r)}) or null", why)
    decided_at = get("at", _MISSING)
    if not plausible_timestamp(decided_at):
        raise _bad("at", "a time (seconds since 1970)", decided_at)
    seconds = get("secs", _MISSING)
    if type(seconds) not in (int, float) or not 0 <= seconds <= MAX_SECONDS:
        raise _bad("secs", f"a time on screen from 0 to {MAX_SECONDS:.0f} seconds", seconds)
    stored = get("item")
    if stored is not None and type(stored) is not dict:
        raise _bad("item", "the item as edited (an object) or absent", stored)
    warnings = _names(payload, "warn") if "warn" in payload else ()
    flagged = _names(payload, "flagged") if "flagged" in payload else ()
    unfixed = _names(payload, "unfixed") if "unfixed" in payload else None
    pairs = _pairs(payload) if "pairs" in payload else ()
    unchecked = get("unchecked", False)
    if type(unchecked) is not bool:
        raise _bad("unchecked", "true or false", unchecked)
    note = get("note", "")
    if type(note) is not str:
        raise _bad("note", "a string", note)
    reviewer = get("by", "")
    if type(reviewer) is not str:
        raise _bad("by", "a string", reviewer)
    note_by = get("note_by", "")
    if type(note_by) is not str:
        raise _bad("note_by", "a string", note_by)
    taken_from = get("from", "")
    if type(taken_from) is not str:
        raise _bad("from", "a reviewer's name", taken_from)
    earlier = _earlier_notes(payload) if "earlier" in payload else ()
    index = _live_index(queue, item_id, made_on, line, prints, outcome, float(decided_at))
    if index is None:
        return False
    before = queue.item_at(index)
    after = before if stored is None else EvalItem(**stored)
    if after.id != item_id:
        raise JournalError(f"the edited item has id {shown_value(after.id)}, not the decided item's {item_id!r}")
    if verdict is Verdict.EDITED and after is not before and after == before:
        # An edit back to the set's own item, journaled before such an edit was made an accept (plan_edit):
        # read as one, or it disagrees with a reviewer who accepted the item and counts an edit that changed nothing.
        verdict, after = Verdict.ACCEPTED, before
    decided_at = float(decided_at)
    if warnings:
        # A warning another reviewer had said is not a problem before this decision was settled then, as the live
        # queue records it; journals from before it did so wrote it down, and read as written listed it as accepted past.
        others = queue.dismissed_by_others(index, reviewer)
        if others:
            warnings = tuple(check for check in warnings if check not in others)
    # Who made the edits the item carries is read from the decision this one replaces, as the live queue reads it.
    editors = () if after is before else editors_of(queue.decision_for(index), before, after, reviewer, taken_from)
    queue.decide_owing_move(
        index,
        make_decision(
            item_id, verdict, note, _REASONS[why], before, after, decided_at, float(seconds), reviewer, warnings, flagged,
            note_by, taken_from, earlier, editors, unfixed if verdict is Verdict.EDITED else None, pairs, unchecked,
        ),
    )
    reviewers = outcome.reviewers
    reviewers[reviewer] = reviewers.get(reviewer, 0) + 1
    if outcome.first_decision_at is None:
        outcome.first_decision_at = decided_at
    outcome.last_decision_at = decided_at
    return True


def _replay_change(
    queue: ReviewQueue,
    payload: dict[str, Any],
    op: str,
    line: int,
    prints: _Fingerprints,
    outcome: ReplayOutcome,
    signer: str = "",
) -> bool:
    """A "note" or "dismiss" record (a "decide" goes through :func:`_replay_decide`); ``signer``: whoever opened
    the session it was written in, the author of a note that does not say."""
    # Every field is checked before anything is looked up, so a hand-made record is refused
    # even when its item is gone and the record would have been skipped.
    item_id = _text(payload, "id")
    made_on = _text(payload, "h")
    text = _text(payload, "text") if op == "note" else ""
    by = _text(payload, "by", "")  # absent from journals written before notes and dismissals said whose
    dismissal = _dismissal(payload) if op == "dismiss" else None
    index = _live_index(queue, item_id, made_on, line, prints, outcome)
    if index is None:
        return False
    if dismissal is not None:
        queue.apply(Dismiss(index, *dismissal, by))
    else:
        queue.apply(Annotate(index, text, by or signer))
    return True


def _live_index(
    queue: ReviewQueue,
    item_id: str,
    made_on: str,
    line: int,
    prints: _Fingerprints,
    outcome: ReplayOutcome,
    at: float | None = None,
) -> int | None:
    """Where a record's item is, or None (the record noted as stale) when it is gone or not as it was then."""
    index = queue.index_of(item_id)
    if index is None:
        outcome.stale.append(StaleRecord(item_id, "vanished", line, at))
        return None
    if not prints.matches(index, made_on):
        outcome.stale.append(StaleRecord(item_id, "changed", line, at))
        return None
    return index


def _earlier_notes(payload: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    """A decide record's notes by others that its note replaced: [[author, text], ...], absent meaning none."""
    value = payload.get("earlier", ())
    if type(value) is not list or any(type(p) is not list or len(p) != 2 or any(type(t) is not str for t in p) for p in value):
        raise _bad("earlier", "a list of [author, note] pairs, or absent", value)
    return tuple((by, text) for by, text in value)


def _names(payload: dict[str, Any], name: str) -> tuple[str, ...]:
    """A list of check names, absent meaning none."""
    value = payload.get(name, ())
    if type(value) not in (list, tuple) or any(type(v) is not str for v in value):
        raise _bad(name, "a list of check names, or absent", value)
    return tuple(value)


def _pairs(payload: dict[str, Any]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """A decide record's pair warnings: check -> the ids of the items it names."""
    value = payload["pairs"]
    if type(value) is not dict or any(
        not check or type(ids) is not list or not ids or any(type(i) is not str or not i for i in ids) for check, ids in value.items()
    ):
        raise _bad("pairs", "an object of check names and the item ids each names (at least one)", value)
    return tuple((check, tuple(ids)) for check, ids in value.items())


def _dismissal(payload: dict[str, Any]) -> tuple[str, bool]:
    """A dismiss record's check and whether it marks the warning (True) or takes that back (False)."""
    check = _text(payload, "check")
    on = payload.get("on", _MISSING)
    if type(on) is not bool:
        raise _bad("on", "true (not a problem) or false (taken back)", on)
    return check, on


def _bad(name: str, meaning: str, value: object) -> EvalSetError:
    """The refusal of one field of a record (the caller's loop adds the journal's path and line)."""
    if value is _MISSING:
        return JournalError(f"journal record has no {name!r}; it needs {meaning}")
    return JournalError(f"journal record: {name!r} must be {meaning}, not {shown_value(value)}")


def _text(payload: dict[str, Any], name: str, default: Any = _MISSING) -> str:
    """A string field; ``default`` (when given) stands in for a missing one."""
    value = payload.get(name, default)
    if type(value) is not str:
        raise _bad(name, "a string", value)
    return value


def _check_open(payload: dict[str, Any]) -> None:
    """The fields of a session's "open" record that are read back (to name a session holding the journal)."""
    at, by, pid, host = (payload.get(name) for name in ("at", "by", "pid", "host"))
    if at is not None and not plausible_timestamp(at):
        raise _bad("at", "a time (seconds since 1970)", at)
    if pid is not None and (type(pid) is not int or pid <= 0):
        raise _bad("pid", "a process id", pid)
    for name, value in (("by", by), ("host", host)):
        if value is not None and type(value) is not str:
            raise _bad(name, "a string", value)


def _index(queue: ReviewQueue, item_id: Any, path: str, line: int) -> int:
    index = queue.index_of(item_id)
    if index is None:
        raise JournalError(f"undo/redo names item {item_id!r}, which is not in the review", path=path, line=line)
    return index


def _present(queue: ReviewQueue, ids: Iterable[Any]) -> tuple[int, ...]:
    found: list[int] = []
    seen: set[int] = set()
    for item_id in ids:
        index = queue.index_of(item_id)
        if index is not None and index not in seen:
            seen.add(index)
            found.append(index)
    return tuple(found)

"""Review actions as journal records, and replaying a journal into a queue.

A record holds what is needed to make the same change again: a decision with
its verdict, note, reason, time, reviewer and (for an edit) the item as
edited; a note; an undo or redo (with the item it touches, as a check); a
cursor move; a change of order. Items are named by id, never by position, so
a journal still lines up with a set that gained or lost items.

Each decision and note also carries a fingerprint of the item it was made on.
On resume, a record whose item has since changed in the file, or is gone from
it, is not applied: the item comes back undecided and the resume report lists
it. Undo and redo records that would take back or restore such a skipped change
are skipped with it; the rest of the history replays as it happened.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from reviewtui.evalset.io.files import gc_paused
from reviewtui.evalset.journal import JournalContents
from reviewtui.evalset.model import EvalItem, EvalSetError
from reviewtui.evalset.review import (
    Action,
    Annotate,
    Decide,
    Decision,
    Move,
    Redo,
    RejectReason,
    Reorder,
    ReviewQueue,
    Undo,
    Verdict,
)

__all__ = [
    "ReplayOutcome",
    "StaleRecord",
    "fingerprint",
    "journal_item_ids",
    "record_for",
    "replay",
]

_CHANGING_OPS = frozenset(("decide", "note"))
# Plain lookups: calling an Enum by value is slow when a journal holds thousands of records.
_VERDICTS = {v.value: v for v in Verdict if v is not Verdict.PENDING}
_REASONS: dict[Any, RejectReason | None] = {None: None, **{r.value: r for r in RejectReason}}

_ITEM_JSON = EvalItem.__pydantic_serializer__.to_json


def fingerprint(item: EvalItem) -> str:
    """A short hash of an item's content (16 hex digits): blake2b of its JSON as the set writer
    would write it. Fields come in model order; ``meta`` keys in the order the file gave them,
    which re-reading the same file reproduces."""
    return hashlib.blake2b(_ITEM_JSON(item), digest_size=8).hexdigest()


class _Fingerprints:
    """Item fingerprints, each computed once, on first need."""

    def __init__(self, queue: ReviewQueue) -> None:
        self._queue = queue
        self._known: dict[int, str] = {}

    def of(self, index: int) -> str:
        known = self._known.get(index)
        if known is None:
            known = self._known[index] = fingerprint(self._queue.item_at(index))
        return known


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
        if decision.reason is not None:
            record["why"] = decision.reason.value
        if decision.after is not None and decision.after is not decision.before:
            record["item"] = decision.after.model_dump(mode="json")
        return record
    if isinstance(action, Annotate):
        return {
            "op": "note",
            "id": queue.item_at(action.index).id,
            "text": action.text,
            "h": prints.of(action.index) if prints else fingerprint(queue.item_at(action.index)),
        }
    if isinstance(action, Undo):
        return {"op": "undo", "id": queue.item_at(action.index).id}
    if isinstance(action, Redo):
        return {"op": "redo", "id": queue.item_at(action.index).id}
    if isinstance(action, Move):
        target = None if action.index >= len(queue) else queue.item_at(action.index).id
        return {"op": "move", "id": target}
    if isinstance(action, Reorder):
        ids = None if action.indices is None else [queue.item_at(i).id for i in action.indices]
        return {"op": "order", "ids": ids}
    raise TypeError(f"not a review action: {action!r}")


@dataclass(frozen=True, slots=True)
class StaleRecord:
    """A journaled decision or note that was not applied, and why."""

    item_id: str
    why: str  # "changed": the item differs from when it was decided; "vanished": no longer in the set
    line: int

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

    @property
    def stale_ids(self) -> list[str]:
        seen: dict[str, None] = {}
        for record in self.stale:
            seen.setdefault(record.item_id)
        return list(seen)


def journal_item_ids(contents: JournalContents) -> set[str]:
    """Ids the journal decided on or annotated (so a resumed queue keeps them even if marked reviewed)."""
    return {
        payload["id"]
        for _, payload in contents.records[1:]
        if payload.get("op") in _CHANGING_OPS and isinstance(payload.get("id"), str)
    }


def replay(queue: ReviewQueue, contents: JournalContents) -> ReplayOutcome:
    """Apply every record after the first to ``queue``, in order.

    Raises EvalSetError naming ``journal:line`` for a record that is well formed
    on disk but makes no sense (an unknown step, an undo with nothing to undo).
    """
    with gc_paused():  # thousands of small records and decisions, none of them cyclic
        return _replay(queue, contents)


def _replay(queue: ReviewQueue, contents: JournalContents) -> ReplayOutcome:
    outcome = ReplayOutcome(fingerprints=_Fingerprints(queue))
    prints = outcome.fingerprints
    assert prints is not None
    # Whether each change on the full history's undo/redo stacks was applied here.
    undo_applied: list[bool] = []
    redo_applied: list[bool] = []
    path = str(contents.path)
    for line, payload in contents.records[1:]:
        try:
            op = payload["op"]
            if op in _CHANGING_OPS:
                applied = _replay_change(queue, payload, op, line, prints, outcome)
                undo_applied.append(applied)
                redo_applied.clear()
                if not applied:
                    queue.forget_redo()
            elif op == "undo":
                if not undo_applied:
                    raise EvalSetError("an undo with nothing left to undo", path=path, line=line)
                applied = undo_applied.pop()
                redo_applied.append(applied)
                if applied:
                    queue.apply(Undo(_index(queue, payload["id"], path, line)))
            elif op == "redo":
                if not redo_applied:
                    raise EvalSetError("a redo with nothing left to redo", path=path, line=line)
                applied = redo_applied.pop()
                undo_applied.append(applied)
                if applied:
                    queue.apply(Redo(_index(queue, payload["id"], path, line)))
            elif op == "move":
                target = payload["id"]
                index = len(queue) if target is None else queue.index_of(target)
                if index is not None:
                    queue.apply(Move(index))
            elif op == "order":
                ids = payload["ids"]
                indices = None if ids is None else _present(queue, ids)
                queue.apply(Reorder(indices))
            elif op == "open":
                outcome.sessions += 1
            else:
                raise EvalSetError(
                    f"unknown journal step {op!r} (written by a newer reviewtui?)", path=path, line=line
                )
        except EvalSetError as exc:
            raise (exc if exc.path else exc.located(path, line)) from None
        except (KeyError, TypeError, ValueError) as exc:
            raise EvalSetError(f"journal record is not well formed ({exc!r})", path=path, line=line) from None
        outcome.applied += 1
    return outcome


def _replay_change(
    queue: ReviewQueue,
    payload: dict[str, Any],
    op: str,
    line: int,
    prints: _Fingerprints,
    outcome: ReplayOutcome,
) -> bool:
    item_id = payload["id"]
    index = queue.index_of(item_id)
    if index is None:
        outcome.stale.append(StaleRecord(item_id, "vanished", line))
        return False
    if prints.of(index) != payload["h"]:
        outcome.stale.append(StaleRecord(item_id, "changed", line))
        return False
    if op == "note":
        queue.apply(Annotate(index, str(payload["text"])))
        return True
    before = queue.item_at(index)
    stored = payload.get("item")
    after = before if stored is None else EvalItem(**stored)
    decided_at = float(payload["at"])
    reviewer = str(payload.get("by") or "")
    decision = Decision(
        item_id=item_id,
        verdict=_VERDICTS[payload["v"]],
        note=str(payload.get("note") or ""),
        reason=_REASONS[payload.get("why")],
        before=before,
        after=after,
        decided_at=decided_at,
        seconds=float(payload["secs"]),
        reviewer=reviewer,
    )
    queue.apply(Decide(index, decision))
    outcome.reviewers[reviewer] = outcome.reviewers.get(reviewer, 0) + 1
    if outcome.first_decision_at is None:
        outcome.first_decision_at = decided_at
    outcome.last_decision_at = decided_at
    return True


def _index(queue: ReviewQueue, item_id: Any, path: str, line: int) -> int:
    index = queue.index_of(item_id)
    if index is None:
        raise EvalSetError(f"undo/redo names item {item_id!r}, which is not in the review", path=path, line=line)
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

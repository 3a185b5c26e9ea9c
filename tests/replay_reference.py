"""The journal replay as it was before decisions were replayed in line: every record applied as a
queue action, one cursor move per decision. Kept for tests only, as the reference the fast replay
in :mod:`reviewtui.evalset.review.replay` must match state for state and error for error.

The field helpers it calls (``_text``, ``_names``, ``_bad`` ...) are the library's own.
"""

from __future__ import annotations

from typing import Any

from reviewtui.evalset.io.journal import JournalContents, shown_value
from reviewtui.evalset.io.jsonl import LinePrints
from reviewtui.evalset.io.lock import plausible_timestamp
from reviewtui.evalset.model.errors import JournalError
from reviewtui.evalset.model.items import EvalItem, EvalSetError
from reviewtui.evalset.review.queue import (
    Annotate,
    Decide,
    Decision,
    Dismiss,
    Move,
    RejectReason,
    Reorder,
    ReviewQueue,
    Verdict,
    editors_of,
)
from reviewtui.evalset.review.replay import (
    _CHANGING_OPS,
    _MALFORMED,
    _MISSING,
    _REASONS,
    _VERDICTS,
    MAX_SECONDS,
    ReplayOutcome,
    StaleRecord,
    _bad,
    _check_open,
    _dismissal,
    _earlier_notes,
    _Fingerprints,
    _names,
    _present,
    _replay_take,
    _sequence,
    _text,
)


def reference_replay(queue: ReviewQueue, contents: JournalContents, line_prints: LinePrints | None = None) -> ReplayOutcome:
    """Apply every record after the first to ``queue``, in order.

    ``line_prints``, the hashes of the lines the journal's items were read from, spares
    encoding each item to check its fingerprint (see ``_Fingerprints``); the outcome is the same.
    Raises EvalSetError naming ``journal:line`` for a record that is well formed
    on disk but makes no sense (an unknown step, an undo with nothing to undo).
    """
    outcome = ReplayOutcome(fingerprints=_Fingerprints(queue, line_prints))
    prints = outcome.fingerprints
    assert prints is not None
    # Each change on the full history's undo/redo stacks: its item, whether it was applied here, its record.
    # Which change an undo or redo takes is replay's own rule (_the_change), not what this reference checks.
    undo_applied: list[tuple[str, bool, int]] = []
    redo_applied: list[tuple[str, bool, int]] = []
    taken_back: set[int] = set()  # records not applied here and taken back since: not reported as stale
    path = str(contents.path)
    orders: dict[int, tuple[int, ...] | None] = {}  # each "order" record's order, by its number
    for line, payload in contents.records[1:]:
        try:
            op = payload.get("op", _MISSING)
            if type(op) is not str:
                raise _bad("op", "the name of a step", op)
            if op in _CHANGING_OPS:
                applied = _replay_change(queue, payload, op, line, prints, outcome)
                undo_applied.append((payload["id"], applied, _sequence(payload)))
                redo_applied.clear()
                if not applied:
                    queue.forget_redo()
            elif op in ("undo", "redo"):  # which change it takes is replay's own rule, not what this checks
                _replay_take(queue, op, payload, undo_applied, redo_applied, False, path, line, taken_back)
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
                indices = None if ids is None else _present(queue, ids)
                queue.apply(Reorder(indices))
                orders[_sequence(payload)] = indices
            elif op == "reorder":  # the order of an earlier "order" record, named by its number
                of = payload.get("of", _MISSING)
                if type(of) is not int:
                    raise _bad("of", "the number of an earlier record of the order", of)
                if orders.get(of) is None:
                    raise JournalError(f"the order it repeats, record {of}, is not an order written earlier in this journal")
                gone = {queue.index_of(i) for i in payload.get("out", [])}
                order = [i for i in orders[of] if i not in gone]
                for place, item_id in payload.get("in", []):
                    index = queue.index_of(item_id)
                    if index is not None and index not in order:
                        order.insert(min(max(place, 0), len(order)), index)
                queue.apply(Reorder(tuple(order)))
            elif op == "open":
                _check_open(payload)
                outcome.sessions += 1
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
        outcome.applied += 1
    outcome.stale = [record for record in outcome.stale if record.line - 1 not in taken_back]
    return outcome


def _replay_change(
    queue: ReviewQueue,
    payload: dict[str, Any],
    op: str,
    line: int,
    prints: _Fingerprints,
    outcome: ReplayOutcome,
) -> bool:
    # Every field is checked before anything is looked up, so a hand-made record is refused
    # even when its item is gone and the record would have been skipped.
    item_id = _text(payload, "id")
    made_on = _text(payload, "h")
    text = _text(payload, "text") if op == "note" else ""
    by = _text(payload, "by", "")
    dismissal = _dismissal(payload) if op == "dismiss" else None
    fields = None if op in ("note", "dismiss") else _decision_fields(payload)
    earlier = _earlier_notes(payload) if fields is not None and "earlier" in payload else ()
    index = queue.index_of(item_id)
    at = None if fields is None else float(payload["at"])  # a decision's time, checked by _decision_fields
    if index is None:
        outcome.stale.append(StaleRecord(item_id, "vanished", line, at))
        return False
    if not prints.matches(index, made_on):
        outcome.stale.append(StaleRecord(item_id, "changed", line, at))
        return False
    if dismissal is not None:
        queue.apply(Dismiss(index, *dismissal, by))
        return True
    if fields is None:
        queue.apply(Annotate(index, text, by))
        return True
    verdict, reason, note, reviewer, decided_at, seconds, stored, warnings, flagged, note_by, taken_from, unfixed, pairs = fields
    before = queue.item_at(index)
    after = before if stored is None else EvalItem(**stored)
    if after.id != item_id:
        raise JournalError(f"the edited item has id {shown_value(after.id)}, not the decided item's {item_id!r}")
    others = queue.dismissed_by_others(index, reviewer)  # settled before this decision, as the live queue records it
    warnings = tuple(check for check in warnings if check not in others)
    decision = Decision(
        item_id=item_id,
        verdict=verdict,
        note=note,
        reason=reason,
        before=before,
        after=after,
        decided_at=decided_at,
        seconds=seconds,
        reviewer=reviewer,
        warnings=warnings,
        flagged=flagged,
        note_by=note_by,
        taken_from=taken_from,
        earlier_notes=earlier,
        editors=editors_of(queue.decision_for(index), before, after, reviewer, taken_from),
        unfixed=unfixed if verdict is Verdict.EDITED else None,
        pairs=pairs,
    )
    queue.apply(Decide(index, decision))
    outcome.reviewers[reviewer] = outcome.reviewers.get(reviewer, 0) + 1
    if outcome.first_decision_at is None:
        outcome.first_decision_at = decided_at
    outcome.last_decision_at = decided_at
    return True


_DecisionFields = tuple[
    Verdict,
    RejectReason | None,
    str,
    str,
    float,
    float,
    "dict[str, Any] | None",
    tuple[str, ...],
    tuple[str, ...],
    str,
    str,
    "tuple[str, ...] | None",
    "tuple[tuple[str, tuple[str, ...]], ...]",
]


def _decision_fields(payload: dict[str, Any]) -> _DecisionFields:
    """A decide record's verdict, reason, note, reviewer, time, seconds on screen, edited item and open warnings, checked."""
    code = payload.get("v", _MISSING)
    verdict = _VERDICTS.get(code) if type(code) is str else None
    if verdict is None:
        raise _bad("v", f"a verdict ({', '.join(_VERDICTS)})", code)
    why = payload.get("why")
    if why is not None and (type(why) is not str or why not in _REASONS):
        raise _bad("why", f"a reject reason ({', '.join(r for r in _REASONS if r)}) or null", why)
    decided_at = payload.get("at", _MISSING)
    if not plausible_timestamp(decided_at):
        raise _bad("at", "a time (seconds since 1970)", decided_at)
    seconds = payload.get("secs", _MISSING)
    if type(seconds) not in (int, float) or not 0 <= seconds <= MAX_SECONDS:
        raise _bad("secs", f"a time on screen from 0 to {MAX_SECONDS:.0f} seconds", seconds)
    stored = payload.get("item")
    if stored is not None and type(stored) is not dict:
        raise _bad("item", "the item as edited (an object) or absent", stored)
    # Most decisions record no warnings: no list to check for those.
    warnings = _names(payload, "warn") if "warn" in payload else ()
    flagged = _names(payload, "flagged") if "flagged" in payload else ()
    return (
        verdict,
        _REASONS[why],
        _text(payload, "note", ""),
        _text(payload, "by", ""),
        float(decided_at),
        float(seconds),
        stored,
        warnings,
        flagged,
        _text(payload, "note_by", ""),
        _text(payload, "from", ""),
        _names(payload, "unfixed") if "unfixed" in payload else None,
        tuple((check, tuple(ids)) for check, ids in payload.get("pairs", {}).items()),
    )



"""The record of a review that an exported item carries under ``meta["review"]``.

A reviewed set is evidence for a leaderboard, so each item says who decided what,
when and why, and what an edit changed::

    "review": {"verdict": "edited", "reason": null, "note": "quote was cut short",
               "reviewer": "ana", "decided_at": "2026-12-01T09:14:03+00:00", "seconds": 12.4,
               "original": {"anchors": [...]}, "open_warnings": ["conflicting-answers"]}

``original`` holds, for an edit, each changed field as it was before (as JSON);
``open_warnings`` the high-severity checks that were still flagging the item when it
was accepted; ``flagged`` every warning open when it was decided, and ``dismissed`` the
warnings marked as not a problem on it; ``dismissed_by`` (only when set) whose word each of those
is, when someone other than the reviewer who decided gave it; ``note_by`` (only when set) who wrote the
note, when another reviewer than the one who decided; ``edited_by`` (only when set) the other reviewers
whose edits the item carries, when the one who decided accepted or rejected it as they had edited it;
``unfixed`` (only when set) for an edit, the warnings of ``flagged`` it left in place: the others are the ones
it fixed, which the export header's per-check counts count as confirmed; ``unchecked`` (only when set,
``true``) the decision was made before the quality checks had finished, so ``flagged`` and
``open_warnings`` are empty because nothing was known yet, not because nothing flagged the item.
The spec's ``meta["reviewed"]`` and ``meta["verdict"]`` stay as they are.

The set an export writes carries its lineage under the same key in the set's own
``meta`` (see :mod:`reviewtui.evalset.review.export`). A CSV file has no set header
and one ``meta`` cell per item, so there each field of the record is a column of its
own, ``review.verdict``, ``review.reason``, … (:func:`record_columns`), read back by
:func:`record_from_columns`.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

import orjson

__all__ = [
    "COLUMN_PREFIX",
    "PREVIOUS",
    "RECORD_FIELDS",
    "REPLACED",
    "REVIEW_KEY",
    "ReviewRecord",
    "keep_earlier",
    "keep_replaced",
    "record_columns",
    "record_from_columns",
]

REVIEW_KEY = "review"
RECORD_FIELDS = (
    "verdict",
    "reason",
    "note",
    "reviewer",
    "decided_at",
    "seconds",
    "original",
    "open_warnings",
    "flagged",
    "dismissed",
    "note_by",  # only when set (see as_meta); an empty cell reads back as absent
    "taken_from",  # likewise
    "earlier_notes",  # likewise
    "dismissed_by",  # likewise
    "edited_by",  # likewise
    "unfixed",  # likewise
    "unchecked",  # likewise
)
COLUMN_PREFIX = "review."
#: Where a record keeps what the item (or the set's header) held under REVIEW_KEY before: the record of an
#: earlier review, when an exported set is reviewed again, whose own ``previous`` goes further back.
PREVIOUS = "previous"
_JSON_COLUMNS = frozenset(
    {"original", "open_warnings", "flagged", "dismissed", "earlier_notes", "dismissed_by", "edited_by", "unfixed", "unchecked"}
)
#: Fields a record holds only when set: absent from as_meta otherwise, and an empty cell reads back as absent.
_WHEN_SET = frozenset({"note_by", "taken_from", "earlier_notes", "dismissed_by", "edited_by", "unfixed", "unchecked"})


@dataclass(frozen=True)
class ReviewRecord:
    """One item's review, as an export records it (see the module notes)."""

    verdict: str
    reason: str | None = None
    note: str = ""
    reviewer: str = ""
    decided_at: str | None = None  # ISO 8601, UTC
    seconds: float = 0.0
    original: Mapping[str, Any] = field(default_factory=dict)
    open_warnings: tuple[str, ...] = ()
    flagged: tuple[str, ...] = ()  # every warning (low or above) open when decided, dismissed ones aside
    dismissed: tuple[str, ...] = ()  # warnings the reviewer said are not a problem on this item
    note_by: str = ""  # who wrote the note, when another reviewer than the one who decided
    taken_from: str = ""  # whose decision an adjudicator took with a digit
    #: notes by others that a later note replaced on this decision: {"by": author, "note": text}, oldest first
    earlier_notes: tuple[Mapping[str, str], ...] = ()
    #: dismissed warning -> who dismissed it, for the ones another reviewer than ``reviewer`` dismissed
    dismissed_by: Mapping[str, str] = field(default_factory=dict)
    #: a team's merged record (read only): the consensus rule that chose the verdict; its reviewers are in ``reviewer``
    rule: str = ""
    #: the other reviewers whose edits the decided item carries, in the order they made them (only when set):
    #: ``reviewer`` accepted or rejected the item as another reviewer had edited it
    edited_by: tuple[str, ...] = ()
    #: for an edit, the warnings of ``flagged`` it left in place (only when set)
    unfixed: tuple[str, ...] = ()
    #: decided while the quality checks were still running: ``flagged`` says nothing of the item (only when set)
    unchecked: bool = False

    def as_meta(self) -> dict[str, Any]:
        """The record as it goes under ``meta["review"]``."""
        meta: dict[str, Any] = {
            "verdict": self.verdict,
            "reason": self.reason,
            "note": self.note,
            "reviewer": self.reviewer,
            "decided_at": self.decided_at,
            "seconds": self.seconds,
            "original": dict(self.original),
            "open_warnings": list(self.open_warnings),
            "flagged": list(self.flagged),
            "dismissed": list(self.dismissed),
        }
        if self.note_by:  # only then: other records stay as they were
            meta["note_by"] = self.note_by
        if self.taken_from:
            meta["taken_from"] = self.taken_from
        if self.earlier_notes:
            meta["earlier_notes"] = [dict(note) for note in self.earlier_notes]
        if self.dismissed_by:
            meta["dismissed_by"] = dict(self.dismissed_by)
        if self.edited_by:
            meta["edited_by"] = list(self.edited_by)
        if self.unfixed:
            meta["unfixed"] = list(self.unfixed)
        if self.unchecked:
            meta["unchecked"] = True
        return meta

    @classmethod
    def from_meta(cls, meta: Mapping[str, Any]) -> ReviewRecord | None:
        """The record an item's meta carries, or None when it has none that can be read.

        Lenient, because a set may have been edited by hand since it was exported: a
        field of the wrong type reads as missing instead of hiding the whole record.
        """
        value = meta.get(REVIEW_KEY)
        if not isinstance(value, Mapping):
            return None
        verdict = value.get("verdict")
        if not isinstance(verdict, str) or not verdict:
            return None
        seconds = value.get("seconds")
        original = value.get("original")
        warnings = value.get("open_warnings")
        # A team's merged record names no one reviewer: every reviewer's decision, and the rule that chose one.
        decisions = value.get("decisions")
        team = ", ".join(sorted(name for name in decisions if isinstance(name, str))) if isinstance(decisions, Mapping) else ""
        return cls(
            verdict=verdict,
            reason=_text_or_none(value.get("reason")),
            note=_text_or_none(value.get("note")) or "",
            reviewer=_text_or_none(value.get("reviewer")) or team,
            rule=_text_or_none(value.get("rule")) or "",
            decided_at=_text_or_none(value.get("decided_at")),
            seconds=float(seconds) if isinstance(seconds, int | float) and _number(seconds) else 0.0,
            original=dict(original) if isinstance(original, Mapping) else {},
            open_warnings=_names(warnings),
            flagged=_names(value.get("flagged")),
            dismissed=_names(value.get("dismissed")),
            note_by=_text_or_none(value.get("note_by")) or "",
            taken_from=_text_or_none(value.get("taken_from")) or "",
            earlier_notes=_earlier_notes(value.get("earlier_notes")),
            dismissed_by=_said_by(value.get("dismissed_by")),
            edited_by=_names(value.get("edited_by")),
            unfixed=_names(value.get("unfixed")),
            unchecked=value.get("unchecked") is True,
        )


def _earlier_notes(value: object) -> tuple[Mapping[str, str], ...]:
    if not isinstance(value, list | tuple):
        return ()
    return tuple(
        {"by": note["by"], "note": note["note"]}
        for note in value
        if isinstance(note, Mapping) and isinstance(note.get("by"), str) and isinstance(note.get("note"), str)
    )


def _said_by(value: object) -> dict[str, str]:
    if not isinstance(value, Mapping):
        return {}
    return {check: by for check, by in value.items() if isinstance(check, str) and isinstance(by, str)}


def _names(value: object) -> tuple[str, ...]:
    return tuple(w for w in value if isinstance(w, str)) if isinstance(value, list | tuple) else ()


def _text_or_none(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value) and value >= 0


#: Where a record keeps the item's own values of the meta keys an export writes its verdict under
#: (``verdict``, ``reviewed``; a rejected file's ``reviewer``, ``reject_reason``, ...): key -> the value it had.
REPLACED = "replaced"


def keep_replaced(record: dict[str, Any], meta: Mapping[str, Any], written: Mapping[str, Any]) -> dict[str, Any]:
    """``record`` with the item's own values that ``written`` (the keys an export sets in its meta) replaces
    kept under REPLACED: a fact-checking set's ``verdict: "REFUTE"`` or an annotator's ``reviewer`` was lost.

    Values an earlier export wrote there (the item carries that export's record) are its own, not the set's,
    and are in that record already; equal values replace nothing. An earlier export of the reviewed set wrote
    ``verdict`` and ``reviewed`` only: the item's ``reviewer`` (or the other keys a rejected file writes) is still
    the set's own, and a second round's rejected file replaced it without a word. An item from a rejected file
    (its record says rejected) had the keys that file writes written by it, ``reviewed`` not among them.
    """
    earlier = meta.get(REVIEW_KEY)
    exported: Collection[str] = ()
    if isinstance(earlier, Mapping) and "verdict" in earlier:
        exported = _REJECTED_FILE_KEYS if earlier.get("verdict") == "rejected" else _MAIN_EXPORT_KEYS
    replaced = {
        key: meta[key] for key, value in written.items() if key in meta and key not in exported and meta[key] != value
    }
    if replaced:
        record[REPLACED] = replaced
    return record


#: The meta keys an export of the reviewed set writes into each decided item (the spec's stamp).
_MAIN_EXPORT_KEYS = frozenset({"verdict", "reviewed"})
#: The meta keys a file of rejected questions writes into each item (never ``reviewed``).
_REJECTED_FILE_KEYS = frozenset({"verdict", "reject_reason", "review_note", "reviewer", "decided_at"})


def keep_earlier(record: dict[str, Any], meta: Mapping[str, Any]) -> dict[str, Any]:
    """``record`` with whatever ``meta`` held under REVIEW_KEY kept under PREVIOUS, as it was: a new review's
    record replaced an earlier one's (who edited the item, and from what) and a set's own data of that name."""
    if REVIEW_KEY in meta:  # a null too: the set's own value, kept as it was
        earlier = meta[REVIEW_KEY]
        record[PREVIOUS] = dict(earlier) if isinstance(earlier, Mapping) else earlier
    return record


def record_columns(meta: Mapping[str, Any]) -> dict[str, str] | None:
    """The ``review.*`` cells for an item's meta, or None when it carries no record."""
    record = ReviewRecord.from_meta(meta)
    if record is None:
        return None
    cells: dict[str, str] = {}
    held = meta.get(REVIEW_KEY)
    for extra in (PREVIOUS, REPLACED):  # written as JSON, a null as "null"
        if isinstance(held, Mapping) and extra in held:
            cells[COLUMN_PREFIX + extra] = orjson.dumps(held[extra]).decode("utf-8")
    for name, value in record.as_meta().items():
        if name in _JSON_COLUMNS:
            cells[COLUMN_PREFIX + name] = orjson.dumps(value).decode("utf-8") if value else ""
        elif value is None:
            cells[COLUMN_PREFIX + name] = ""
        else:
            cells[COLUMN_PREFIX + name] = str(value)
    return cells


def record_from_columns(cells: Mapping[str, str]) -> dict[str, Any] | None:
    """``meta["review"]`` rebuilt from a CSV row's ``review.*`` cells (name without the prefix -> text)."""
    if not cells.get("verdict"):
        return None
    record: dict[str, Any] = {}
    for name in RECORD_FIELDS:
        text = cells.get(name, "")
        if name in _WHEN_SET and not text:
            continue  # absent, as as_meta leaves it out
        if name in _JSON_COLUMNS:
            try:
                record[name] = orjson.loads(text) if text else ({} if name in ("original", "dismissed_by") else [])
            except orjson.JSONDecodeError:
                record[name] = text  # kept as written; from_meta then ignores it
        elif name == "seconds":
            try:
                record[name] = float(text) if text else 0.0
            except ValueError:
                record[name] = text
        elif name in ("reason", "decided_at"):
            record[name] = text or None
        else:
            record[name] = text
    for extra in (PREVIOUS, REPLACED):
        text = cells.get(extra, "")
        if text:
            try:
                record[extra] = orjson.loads(text)
            except orjson.JSONDecodeError:
                record[extra] = text  # kept as written
    return record

"""What happened to each anchor when it was looked up in the corpus, and the flags that follow.

:class:`AnchorResolution` is one anchor's outcome; :class:`ResolutionReport`
holds them all for a set and sums them up. :func:`evidence_flags` turns a
report into the per-item :class:`~reviewtui.evalset.model.flag.Flag` lists that the
review app's warnings pane and ``audit --corpus`` show.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from reviewtui.evalset.model.flag import Flag, Severity
from reviewtui.evalset.model.items import GoldAnchor, Span
from reviewtui.evalset.text.safe import escaped

__all__ = [
    "AnchorResolution",
    "MatchKind",
    "ResolutionReport",
    "evidence_flags",
    "excerpt",
    "score_text",
]


class MatchKind(StrEnum):
    """How an anchor's quote was found, or why it was not."""

    EXACT = "exact"
    NORMALISED = "normalised"
    APPROXIMATE = "approximate"
    NOT_FOUND = "not_found"
    UNKNOWN_DOCUMENT = "unknown_document"
    UNREADABLE = "unreadable"

    @property
    def found(self) -> bool:
        return self in _FOUND

    @property
    def label(self) -> str:
        return self.value.replace("_", " ")


_FOUND = frozenset({MatchKind.EXACT, MatchKind.NORMALISED, MatchKind.APPROXIMATE})



def score_text(score: float) -> str:
    """A fuzzy match's score (0-100) as every pane and report writes it: one decimal, so that two places
    showing one match never say 95.8 and 96."""
    return f"{score:.1f}"

@dataclass(frozen=True, slots=True)
class AnchorResolution:
    """One anchor's outcome.

    ``span`` points into the document's original text whenever the quote was
    found (any of the three found kinds) and is None otherwise. ``score`` is
    100 for exact and normalised matches and the rapidfuzz score (0–100) for
    approximate ones. ``page`` is the 1-based page the match starts on.
    ``note`` says what differed or why the quote was not found, in words fit
    for a reviewer; ``page_note`` is set only when the page hint could not be
    honoured (out of range, or the quote is on another page).
    """

    anchor: GoldAnchor
    kind: MatchKind
    span: Span | None = None
    score: float | None = None
    page: int | None = None
    note: str = ""
    item_id: str | None = None
    anchor_index: int = 0
    page_note: str = ""

    @property
    def found(self) -> bool:
        return self.kind.found

    @property
    def page_hint_missed(self) -> bool:
        return bool(self.page_note)

    def to_dict(self) -> dict[str, object]:
        """Plain JSON-ready form (for an audit report written to a file)."""
        return {
            "item_id": self.item_id,
            "anchor_index": self.anchor_index,
            "source_id": self.anchor.source_id,
            "kind": self.kind.value,
            "span": None if self.span is None else [self.span.start, self.span.end],
            "score": self.score,
            "page": self.page,
            "note": self.note,
            "page_note": self.page_note,
        }

    def describe(self) -> str:
        """One line: where the quote is, or why it is not there."""
        doc = self.anchor.source_id
        if self.span is not None:
            where = f"{doc} [{self.span.start}, {self.span.end})"
            if self.page is not None:
                where += f" page {self.page}"
            head = self.kind.label
            if self.kind is MatchKind.APPROXIMATE and self.score is not None:
                head += f" (score {score_text(self.score)})"
            line = f"{head}: {where}"
        else:
            line = f"{self.kind.label}: {doc}"
        notes = "; ".join(n for n in (self.note, self.page_note) if n)
        return f"{line}; {notes}" if notes else line


@dataclass(frozen=True)
class ResolutionReport:
    """Every anchor's outcome for one resolution run, in item and anchor order.

    ``items_given_gold`` counts items whose ``gold`` was filled from their
    anchors; ``items_kept_gold`` counts items that already had gold and kept it.
    """

    resolutions: tuple[AnchorResolution, ...]
    items_given_gold: int = 0
    items_kept_gold: int = 0
    #: of those that kept their gold, the items given spans besides for quotes no span of theirs covered
    items_completed_gold: int = 0
    documents: int = 0
    #: item id -> (its relevant documents the corpus does not hold, how many it names): document-level
    #: gold, as BEIR gives it (``meta["gold_documents"]``), checked against the corpus
    missing_documents: dict[str, tuple[tuple[str, ...], int]] = field(default_factory=dict)
    #: how many items name relevant documents (document-level gold) that were checked against the corpus
    items_with_documents: int = 0
    #: a missing relevant document -> the ids of its pieces, for those the corpus holds only split up
    #: (``arcd-doc183_chunk_0`` ...; see ``Corpus.pieces_of``)
    pieces: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: item id -> its gold spans that cannot be right, each with why: a document the corpus does not hold, or
    #: offsets past the end of the document (``resolve --strict`` refuses them; the warnings say them)
    span_problems: dict[str, list[tuple[Span, str, bool]]] = field(default_factory=dict)
    _by_item: dict[str, tuple[AnchorResolution, ...]] = field(
        init=False, repr=False, compare=False, default_factory=dict
    )

    def __post_init__(self) -> None:
        grouped: dict[str, list[AnchorResolution]] = {}
        for resolution in self.resolutions:
            if resolution.item_id is not None:
                grouped.setdefault(resolution.item_id, []).append(resolution)
        self._by_item.update({key: tuple(value) for key, value in grouped.items()})

    def __len__(self) -> int:
        return len(self.resolutions)

    def for_item(self, item_id: str) -> tuple[AnchorResolution, ...]:
        return self._by_item.get(item_id, ())

    def counts(self) -> dict[MatchKind, int]:
        """How many anchors ended in each kind; every kind is present, zeros included."""
        counts = dict.fromkeys(MatchKind, 0)
        for resolution in self.resolutions:
            counts[resolution.kind] += 1
        return counts

    @property
    def failures(self) -> tuple[AnchorResolution, ...]:
        return tuple(r for r in self.resolutions if not r.found)

    def summary(self) -> str:
        """One paragraph for a terminal or a log."""
        counts = self.counts()
        total = len(self.resolutions)
        items = len(self._by_item)
        # The approximate matches' scores follow their count: after the last part, they read as the scores of
        # "2 naming an unknown document (scores 93.2–97.7)".
        scores = [r.score for r in self.resolutions if r.kind is MatchKind.APPROXIMATE and r.score]
        approx = f" (scores {score_text(min(scores))}–{score_text(max(scores))})" if scores else ""
        parts = [
            f"{counts[MatchKind.EXACT]:,} exact",
            f"{counts[MatchKind.NORMALISED]:,} normalised",
            f"{counts[MatchKind.APPROXIMATE]:,} approximate{approx}",
            f"{counts[MatchKind.NOT_FOUND]:,} not found",
        ]
        if counts[MatchKind.UNKNOWN_DOCUMENT]:
            parts.append(f"{counts[MatchKind.UNKNOWN_DOCUMENT]:,} naming an unknown document")
        if counts[MatchKind.UNREADABLE]:
            parts.append(f"{counts[MatchKind.UNREADABLE]:,} in an unreadable document")
        text = (
            f"Resolved {total:,} anchor{'s' if total != 1 else ''} of {items:,} item{'s' if items != 1 else ''}"
            f" against {self.documents:,} document{'s' if self.documents != 1 else ''}: "
            f"{', '.join(parts)}. "
            f"{self.items_given_gold:,} item{'s' if self.items_given_gold != 1 else ''} got gold spans from "
            f"their anchors; {self.items_kept_gold:,} kept the gold they already had"
            + (
                f" ({self.items_completed_gold:,} of them with spans added for quotes none of theirs covered)."
                if self.items_completed_gold
                else "."
            )
        )
        missed = sum(1 for r in self.resolutions if r.page_hint_missed)
        if missed:
            text += f" {missed} page hint{'s' if missed != 1 else ''} could not be honoured."
        if self.items_with_documents:
            # A BEIR set has no anchors: "Resolved 0 anchors of 0 items ...: 0 not found" was all the summary said,
            # though every question's relevant documents were missing from the corpus (audit --corpus warned them).
            split = sum(1 for missing, _ in self.missing_documents.values() if all(doc in self.pieces for doc in missing))
            absent = len(self.missing_documents) - split
            named = self.items_with_documents
            text += (
                f" {named:,} item{'s' if named != 1 else ''} name{'s' if named == 1 else ''} relevant documents: "
                f"{absent:,} name{'s' if absent == 1 else ''} one the corpus does not hold"
                + (f", {split:,} one it holds only in pieces" if split else "")
                + "."
            )
        return text


# --- flags --------------------------------------------------------------------------------

CHECK_NOT_FOUND = "evidence-not-found"
CHECK_UNKNOWN_DOCUMENT = "evidence-unknown-document"
CHECK_UNREADABLE = "evidence-unreadable"
CHECK_APPROXIMATE = "evidence-approximate"
CHECK_NORMALISED = "evidence-normalised"
CHECK_PAGE_HINT = "evidence-page-hint"

_SPACE_RUN = re.compile(r"\s+")


def excerpt(text: str, limit: int = 60) -> str:
    """A short, single-line rendering of a quote for messages, every unsafe character escaped.

    Whitespace runs (line breaks included) become one space first; the cut is made
    before escaping so that an escape is never cut in half.
    """
    text = _SPACE_RUN.sub(" ", text).strip()
    if len(text) > limit:
        text = text[: limit - 1].rstrip() + "…"
    return escaped(text)


def _flag_for(resolution: AnchorResolution) -> Flag | None:
    anchor = resolution.anchor
    quote = f"“{excerpt(anchor.quote)}”"
    doc = excerpt(anchor.source_id, 80)
    note = f" ({resolution.note})" if resolution.note else ""
    kind = resolution.kind
    if kind is MatchKind.NOT_FOUND:
        return Flag(CHECK_NOT_FOUND, Severity.HIGH, f"quote not found in {doc}{note}: {quote}")
    if kind is MatchKind.UNKNOWN_DOCUMENT:
        return Flag(CHECK_UNKNOWN_DOCUMENT, Severity.HIGH, f"{resolution.note or 'unknown document ' + doc}: {quote}")
    if kind is MatchKind.UNREADABLE:
        return Flag(CHECK_UNREADABLE, Severity.HIGH, f"document {doc} cannot be read{note}: {quote}")
    if kind is MatchKind.APPROXIMATE:
        score = f"score {score_text(resolution.score)}" if resolution.score is not None else "approximate"
        return Flag(
            CHECK_APPROXIMATE,
            Severity.MEDIUM,
            f"quote only approximately matches {doc} ({score}); check the wording: {quote}",
        )
    if kind is MatchKind.NORMALISED:
        return Flag(CHECK_NORMALISED, Severity.HINT, f"quote matches {doc} once {resolution.note or 'normalised'}")
    return None


def evidence_flags(report: ResolutionReport | Iterable[AnchorResolution]) -> dict[str, list[Flag]]:
    """Per-item flags for anchors that were not found or found only loosely.

    Severities: quote not found, unknown or unreadable document HIGH (the
    evidence as written is not in the source); approximate match MEDIUM (the
    wording differs, often a paraphrase or a typo); page hint not honoured LOW;
    normalised match HINT (typography only: curly quotes, spacing, case,
    ligatures; nothing a reviewer needs to fix). Exact matches give no flag.
    """
    resolutions = report.resolutions if isinstance(report, ResolutionReport) else tuple(report)
    anchors_per_item: dict[str, int] = {}
    for resolution in resolutions:
        if resolution.item_id is not None:
            anchors_per_item[resolution.item_id] = anchors_per_item.get(resolution.item_id, 0) + 1
    flags: dict[str, list[Flag]] = {}
    for resolution in resolutions:
        if resolution.item_id is None:
            continue
        found: list[Flag] = []
        flag = _flag_for(resolution)
        if flag is not None:
            found.append(flag)
        if resolution.page_hint_missed and resolution.found:
            found.append(
                Flag(
                    CHECK_PAGE_HINT,
                    Severity.LOW,
                    f"page hint of the quote in {excerpt(resolution.anchor.source_id, 80)} "
                    f"is off: {resolution.page_note}",
                )
            )
        if anchors_per_item[resolution.item_id] > 1:
            label = f"anchor {resolution.anchor_index + 1}: "
            found = [Flag(f.check, f.severity, label + f.reason, f.related_ids) for f in found]
        if found:
            flags.setdefault(resolution.item_id, []).extend(found)
    if isinstance(report, ResolutionReport):
        for item_id, (missing, named) in report.missing_documents.items():
            flags.setdefault(item_id, []).append(_missing_documents_flag(missing, named, report.pieces))
        for item_id, problems in report.span_problems.items():
            for span, why, unknown in problems:
                check = CHECK_UNKNOWN_DOCUMENT if unknown else CHECK_NOT_FOUND
                where = f"gold span [{span.start}, {span.end}) of {excerpt(span.doc_id, 80)}"
                flags.setdefault(item_id, []).append(Flag(check, Severity.HIGH, f"{where}: {why}"))
    for item_flags in flags.values():
        item_flags.sort(key=lambda f: -f.severity)
    return flags


def _missing_documents_flag(missing: tuple[str, ...], named: int, pieces: Mapping[str, tuple[str, ...]]) -> Flag:
    """An item whose relevant documents (document-level gold) are not all in the corpus: none of them,
    and no retriever can find its answer (HIGH); some, and a perfect retriever scores below 1 on it (MEDIUM).

    A document the corpus holds only in pieces is not lost: a retriever finds its text, but a score that
    compares ids never counts the hit (MEDIUM, when every missing one is such)."""
    absent = tuple(doc_id for doc_id in missing if doc_id not in pieces)
    split = tuple(doc_id for doc_id in missing if doc_id in pieces)
    if not absent:
        first = split[0]
        count = len(pieces[first])
        more = ", …" if count > 1 else ""
        shown = f"{excerpt(first, 60)} as {count} piece{'s' if count != 1 else ''}: {excerpt(pieces[first][0], 60)}{more}"
        if len(split) > 1:
            shown += f"; and {len(split) - 1} more split up"
        verb = "is" if len(split) == 1 else "are"
        which = "its one relevant document is" if named == 1 else f"{len(split)} of its {named} relevant documents {verb}"
        return Flag(
            CHECK_UNKNOWN_DOCUMENT,
            Severity.MEDIUM,
            f"{which} in the corpus only in pieces ({shown}): a score that matches the relevance judgements' "
            f"ids exactly never counts the retriever's hit",
        )
    also = f"; {len(split)} more only in pieces, under other ids" if split else ""
    shown = ", ".join(excerpt(doc_id, 60) for doc_id in absent[:3]) + (f" and {len(absent) - 3} more" if len(absent) > 3 else "")
    if len(absent) == named:
        which = "its one relevant document is not" if named == 1 else f"none of its {named} relevant documents is"
        return Flag(CHECK_UNKNOWN_DOCUMENT, Severity.HIGH, f"{which} in the corpus ({shown}): no retriever can find its answer")
    one = len(absent) == 1
    return Flag(
        CHECK_UNKNOWN_DOCUMENT,
        Severity.MEDIUM,
        f"{len(absent)} of its {named} relevant documents {'is' if one else 'are'} not in the corpus ({shown}{also}): "
        f"even a perfect retriever misses {'it' if one else 'them'}",
    )

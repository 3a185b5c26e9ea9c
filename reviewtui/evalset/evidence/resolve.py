"""Turning anchors (quotes) into gold spans by finding them in the source documents.

    corpus = Corpus("docs/")
    resolver = AnchorResolver()
    resolved, report = resolver.resolve_with_report(evalset, corpus)
    print(report.summary())
    flags = evidence_flags(report)          # per item, for the warnings pane

``resolve(evalset, corpus)`` returns only the set and keeps the report in
``resolver.last_report``. How a quote is searched (exact, normalised,
approximate; occurrence; page hints) is described in :mod:`locate`.

An item's gold spans also say which copy of a repeated quote is meant when its anchor does not (see
:mod:`locate`): a quote made from a span, by a reader that had no document to count copies in, lands on
that span rather than on an earlier copy of the same text.

What happens to ``gold``: an item with anchors and no gold gets one
:class:`GoldSpan` per anchor that was found (any match kind, the anchor's
grade carried over; two anchors landing on the same span give one span with
the higher grade). Anchors that were not found contribute nothing, so an item
none of whose anchors resolve stays without gold, which is what
``UnresolvedEvidenceFilter`` looks for. An item that already has gold keeps
it (its anchors are still checked and reported), and gains a span for each found
quote that no span of its gold overlaps (a quote a reviewer edited, whose span
went with the old words, or one added by hand), unless the resolver was made
with ``overwrite_gold=True``; even then, an item some of whose anchors were not
found keeps the gold it has (counted as kept): replaced, valid spans were lost.
Items without anchors are left alone. The set's
id, version, source and meta are unchanged.

The reverse direction (spans to quotes) is :func:`spans_to_anchors`, re-exported here.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterable
from collections.abc import Set as AbstractSet

from reviewtui.evalset.evidence.corpus import (
    Corpus,
    DocumentError,
    UnknownDocument,
    UnreadableDocument,
)
from reviewtui.evalset.evidence.locate import SearchSettings, locate, marked_occurrence
from reviewtui.evalset.evidence.resolution import (
    AnchorResolution,
    MatchKind,
    ResolutionReport,
    evidence_flags,
)
from reviewtui.evalset.evidence.span_quotes import (
    SpanProblem,
    span_text,
    spans_to_anchors,
    spans_to_anchors_with_report,
)
from reviewtui.evalset.model.items import EvalItem, EvalSet, GoldAnchor, GoldSpan, Span

__all__ = [
    "AnchorResolution",
    "AnchorResolver",
    "MatchKind",
    "ResolutionReport",
    "SpanProblem",
    "copies_marked",
    "evidence_flags",
    "span_text",
    "spans_to_anchors",
    "spans_to_anchors_with_report",
]

Progress = Callable[[int, int], None]


class AnchorResolver:
    """Finds each anchor's quote in a :class:`Corpus` and fills in ``gold``.

    ``threshold`` (0–100) is the lowest rapidfuzz score accepted as an
    approximate match; ``fuzzy=False`` turns approximate search off;
    quotes shorter than ``min_fuzzy_length`` folded characters are never
    matched approximately (short strings match too much); ``max_windows``
    bounds the candidate passages scored per anchor.
    """

    def __init__(
        self,
        *,
        threshold: float = 85.0,
        fuzzy: bool = True,
        min_fuzzy_length: int = 12,
        max_windows: int = 8,
        overwrite_gold: bool = False,
    ) -> None:
        if not 0 < threshold <= 100:
            raise ValueError("threshold must be in (0, 100]")
        self.settings = SearchSettings(
            threshold=threshold,
            fuzzy=fuzzy,
            min_fuzzy_length=min_fuzzy_length,
            max_windows=max_windows,
        )
        self.overwrite_gold = overwrite_gold
        self.last_report: ResolutionReport | None = None

    # --- one anchor -----------------------------------------------------------------------

    def resolve_anchor(
        self,
        anchor: GoldAnchor,
        corpus: Corpus,
        *,
        item_id: str | None = None,
        anchor_index: int = 0,
        gold: Iterable[GoldSpan] = (),
    ) -> AnchorResolution:
        """Where one quote is; ``gold``, its item's gold spans, picks the copy of a repeated quote that gives
        no occurrence (see :mod:`locate`)."""
        return self._resolve_anchor(anchor, corpus, item_id, anchor_index, _Marks(gold, corpus))

    def _resolve_anchor(
        self, anchor: GoldAnchor, corpus: Corpus, item_id: str | None, anchor_index: int, marks: _Marks
    ) -> AnchorResolution:
        try:
            document = corpus.document(anchor.source_id)
        except UnknownDocument as exc:
            return AnchorResolution(
                anchor, MatchKind.UNKNOWN_DOCUMENT, note=exc.message, item_id=item_id, anchor_index=anchor_index
            )
        except UnreadableDocument as exc:
            return AnchorResolution(
                anchor, MatchKind.UNREADABLE, note=exc.message, item_id=item_id, anchor_index=anchor_index
            )
        found = locate(document, anchor, self.settings, marks.covering(document.id, len(anchor.quote)))
        span = page = None
        if found.kind.found:
            span = Span(doc_id=anchor.source_id, start=found.start, end=found.end)
            page = document.page_of(found.start) if document.page_count > 1 else None
        return AnchorResolution(
            anchor,
            found.kind,
            span=span,
            score=found.score,
            page=page,
            note=found.note,
            item_id=item_id,
            anchor_index=anchor_index,
            page_note=found.page_note,
        )

    # --- one item -------------------------------------------------------------------------

    def resolve_item(self, item: EvalItem, corpus: Corpus) -> tuple[EvalItem, tuple[AnchorResolution, ...]]:
        """The item with gold filled from its anchors (per the module rules), and each anchor's outcome."""
        marks = _Marks(item.gold, corpus)
        resolutions = tuple(
            self._resolve_anchor(anchor, corpus, item.id, index, marks) for index, anchor in enumerate(item.anchors)
        )
        if not resolutions:
            return item, resolutions
        if item.gold and not self.overwrite_gold:
            added = _spans_for_unlocated_quotes(item, resolutions, corpus)
            return (item.resolved_with((*item.gold, *added)) if added else item), resolutions
        if item.gold and not all(resolution.span is not None for resolution in resolutions):
            # Overwritten from anchors not all found, valid gold was lost: all of it when none was found (the item
            # then "unresolved"), the unfound anchor's part when some were. Kept, and counted as kept.
            return item, resolutions
        gold = gold_from(resolutions)
        if gold == item.gold:
            return item, resolutions
        return item.resolved_with(gold), resolutions

    # --- a whole set ----------------------------------------------------------------------

    def resolve_with_report(
        self,
        evalset: EvalSet,
        corpus: Corpus,
        *,
        progress: Progress | None = None,
        every: int = 200,
    ) -> tuple[EvalSet, ResolutionReport]:
        """The set with gold filled, and the report on every anchor.

        ``progress(done, total)`` is called every ``every`` items and at the
        end; an exception raised from it stops the run (a cancelled worker).
        """
        items: list[EvalItem] = []
        resolutions: list[AnchorResolution] = []
        given = kept = completed = with_documents = 0
        total = len(evalset)
        changed = False
        missing_documents: dict[str, tuple[tuple[str, ...], int]] = {}
        pieces: dict[str, tuple[str, ...]] = {}
        span_problems: dict[str, list[tuple[Span, str, bool]]] = {}
        for done, item in enumerate(evalset.items, 1):
            if item.meta:
                named = gold_document_ids(item)
                with_documents += bool(named)
                missing = tuple(doc_id for doc_id in named if doc_id not in corpus)
                if missing:
                    missing_documents[item.id] = (missing, len(named))
                    for doc_id in missing:
                        if found := corpus.pieces_of(doc_id):
                            pieces[doc_id] = tuple(found)
            if item.gold:
                wrong = _wrong_spans(item, corpus)
                if wrong:
                    span_problems[item.id] = wrong
            new_item, outcome = self.resolve_item(item, corpus)
            if item.anchors and item.gold and (not self.overwrite_gold or new_item is item and _some_not_found(outcome)):
                kept += 1
                completed += new_item is not item
            elif item.anchors and new_item.gold:
                given += 1
            changed = changed or new_item is not item
            items.append(new_item)
            resolutions.extend(outcome)
            if progress is not None and (done % every == 0 or done == total):
                progress(done, total)
        report = ResolutionReport(
            tuple(resolutions),
            items_given_gold=given,
            items_kept_gold=kept,
            items_completed_gold=completed,
            documents=len(corpus),
            missing_documents=missing_documents,
            items_with_documents=with_documents,
            pieces=pieces,
            span_problems=span_problems,
        )
        self.last_report = report
        return (evalset.with_items(items) if changed else evalset), report

    def resolve(self, evalset: EvalSet, corpus: Corpus) -> EvalSet:
        """The set with gold filled from anchors; the report is kept in ``last_report``."""
        resolved, _ = self.resolve_with_report(evalset, corpus)
        return resolved


def copies_marked(item: EvalItem, corpus: Corpus, indices: Iterable[int]) -> dict[int, int]:
    """Of the anchors numbered ``indices``, those that give no occurrence or page hint and are placed at a copy
    their item's gold marks, not the first (see locate): anchor number -> which copy (counting from 0).

    What an edit of such a quote keeps (``ItemEdit.copies``): the span that marked the copy goes with the old
    words, and a correction of the same passage (a LegalBench-RAG snippet whose text is also earlier in its file,
    a word fixed) was put on the first copy, the evidence moved silently to another passage.
    """
    marks = _Marks(item.gold, corpus)
    copies: dict[int, int] = {}
    for index in indices:
        if not 0 <= index < len(item.anchors):
            continue
        anchor = item.anchors[index]
        if anchor.occurrence or anchor.page_hint is not None:
            continue
        try:
            document = corpus.document(anchor.source_id)
        except DocumentError:
            continue
        copy = marked_occurrence(document.text, anchor.quote, marks.covering(document.id, len(anchor.quote)))
        if copy:
            copies[index] = copy
    return copies


class _Marks:
    """An item's gold spans by document and length, so that each of its quotes looks only at the spans as
    long as it is (an item may hold thousands of both)."""

    __slots__ = ("_spans",)

    def __init__(self, gold: Iterable[GoldSpan], corpus: Corpus) -> None:
        self._spans: dict[tuple[str, int], set[tuple[int, int]]] = {}
        for entry in gold:
            span = entry.span
            doc_id = corpus.resolve_id(span.doc_id)
            if doc_id is not None:
                self._spans.setdefault((doc_id, span.end - span.start), set()).add((span.start, span.end))

    def covering(self, doc_id: str, length: int) -> AbstractSet[tuple[int, int]]:
        """The spans in document ``doc_id`` (its corpus id) that are ``length`` characters long."""
        return self._spans.get((doc_id, length), _NONE)


_NONE: frozenset[tuple[int, int]] = frozenset()


def gold_document_ids(item: EvalItem) -> tuple[str, ...]:
    """The documents ``item``'s document-level gold names (BEIR's ``meta["gold_documents"]``, pairs of
    document id and grade), each once, in order; none when its meta holds no such list."""
    documents = item.meta.get("gold_documents")
    if not isinstance(documents, (list, tuple)):
        return ()
    ids = (entry[0] if isinstance(entry, (list, tuple)) and entry else entry for entry in documents)
    return tuple(dict.fromkeys(doc_id for doc_id in ids if isinstance(doc_id, str) and doc_id))


def _spans_for_unlocated_quotes(
    item: EvalItem, resolutions: Iterable[AnchorResolution], corpus: Corpus
) -> tuple[GoldSpan, ...]:
    """Spans for the found quotes of ``item`` that no span of its gold overlaps in the same document (the
    gold of the rest is the item's own, kept): a quote edited in review lost the span of its old words, and
    resolving the export again gave it none, the item's other spans counting as gold it already had."""
    held: dict[str, list[tuple[int, int]]] = {}
    for entry in item.gold:
        doc_id = corpus.resolve_id(entry.span.doc_id)
        if doc_id is not None:
            held.setdefault(doc_id, []).append((entry.span.start, entry.span.end))
    # Per document, the spans' starts in order and the furthest end reached so far: a quote is covered when a
    # span starting before its end reaches past its start (an item may hold thousands of both).
    reach: dict[str, tuple[list[int], list[int]]] = {}
    for doc_id, spans in held.items():
        spans.sort()
        furthest, ends = -1, []
        for _, end in spans:
            furthest = max(furthest, end)
            ends.append(furthest)
        reach[doc_id] = ([start for start, _ in spans], ends)

    def covered(span: Span) -> bool:
        # Both sides under the corpus's own id: a quote's span names the document as the quote does ("Normans#0"),
        # the gold as the set wrote it, and the corpus may hold it as "Normans#0.txt". Compared raw, every span
        # of a converted SQuAD set counted as uncovered and was added again, at each run.
        doc_id = corpus.resolve_id(span.doc_id) or span.doc_id
        starts, ends = reach.get(doc_id, ((), ()))
        before = bisect_left(starts, span.end)
        return before > 0 and ends[before - 1] > span.start

    return gold_from(resolution for resolution in resolutions if resolution.span is not None and not covered(resolution.span))


def _some_not_found(resolutions: Iterable[AnchorResolution]) -> bool:
    return any(resolution.span is None for resolution in resolutions)


def gold_from(resolutions: Iterable[AnchorResolution]) -> tuple[GoldSpan, ...]:
    """Gold spans for the found anchors, in anchor order; a repeated span keeps its highest grade."""
    grades: dict[Span, int] = {}
    for resolution in resolutions:
        if resolution.span is None:
            continue
        span = resolution.span
        grades[span] = max(grades.get(span, -1), resolution.anchor.grade)
    return tuple(GoldSpan(span=span, grade=grade) for span, grade in grades.items())


def _wrong_spans(item: EvalItem, corpus: Corpus) -> list[tuple[Span, str, bool]]:
    """The item's gold spans that cannot be right: (span, why, whether its document is unknown)."""
    wrong: list[tuple[Span, str, bool]] = []
    for gold in item.gold:
        span = gold.span
        if span.doc_id not in corpus:
            wrong.append((span, "the corpus holds no such document", True))
            continue
        try:
            length = len(corpus.document(span.doc_id).text)
        except DocumentError:
            continue  # an unreadable document is said where its quotes are looked up
        if span.end > length:
            wrong.append((span, f"it runs past the end of the document ({length:,} characters)", False))
    return wrong

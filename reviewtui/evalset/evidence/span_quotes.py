"""From spans back to quotes: the text behind a gold span, and portable anchors made from it.

Sets such as LegalBench-RAG give evidence as character offsets only. With the
corpus at hand, each span's text can be shown to a reviewer and written down
as a :class:`GoldAnchor`, so the set survives a change of parser.

An anchor made from a span quotes the span's text with surrounding whitespace
stripped (a span that starts with an indentation's spaces still quotes only
words). ``occurrence`` is the number of earlier exact matches of that quote,
counted the same way :mod:`locate` counts them (overlapping, within the page
when the document has form-feed pages, in which case ``page_hint`` is the
page the span starts on). Resolving the anchor therefore lands on the span
again, minus the stripped whitespace.
"""

from __future__ import annotations

from dataclasses import dataclass

from reviewtui.evalset.evidence.corpus import Corpus, Document, DocumentError
from reviewtui.evalset.model.items import EvalItem, EvalSet, GoldAnchor, Span

__all__ = [
    "SpanProblem",
    "anchor_for_span",
    "span_text",
    "spans_to_anchors",
    "spans_to_anchors_with_report",
]


@dataclass(frozen=True, slots=True)
class SpanProblem:
    """A gold span that could not be turned into a quote, and why."""

    item_id: str
    span: Span
    reason: str

    def __str__(self) -> str:
        return f"{self.item_id}: {self.span}: {self.reason}"


class SpanOutOfRange(ValueError):
    """The span does not fit in its document or covers only whitespace."""


def span_text(span: Span, corpus: Corpus) -> str | None:
    """The text a span covers, or None when its document is missing/unreadable or too short."""
    document = corpus.get(span.doc_id)
    if document is None or span.end > len(document.text):
        return None
    return document.text[span.start : span.end]


def _count_before(text: str, quote: str, lo: int, before: int) -> int:
    count = 0
    at = text.find(quote, lo)
    while at != -1 and at < before:
        count += 1
        at = text.find(quote, at + 1)
    return count


def anchor_for_span(document: Document, span: Span, grade: int = 2, *, strip: bool = True) -> GoldAnchor:
    """An anchor quoting ``span`` in ``document`` that resolves back to it (raises SpanOutOfRange)."""
    text = document.text
    if span.end > len(text):
        raise SpanOutOfRange(
            f"span runs past the end of the document ({len(text)} characters)"
        )
    start, end = span.start, span.end
    if strip:
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
    quote = text[start:end]
    if not quote.strip():
        raise SpanOutOfRange("span covers only whitespace")
    page_hint = None
    lo = 0
    if document.page_count > 1:
        page_hint = document.page_of(start)
        lo = document.page_starts[page_hint - 1]
    occurrence = _count_before(text, quote, lo, start)
    return GoldAnchor(source_id=span.doc_id, quote=quote, grade=grade, page_hint=page_hint, occurrence=occurrence)


def _anchors_for(item: EvalItem, corpus: Corpus, strip: bool, problems: list[SpanProblem]) -> tuple[GoldAnchor, ...]:
    anchors: list[GoldAnchor] = []
    for gold in item.gold:
        try:
            document = corpus.document(gold.span.doc_id)
            anchors.append(anchor_for_span(document, gold.span, gold.grade, strip=strip))
        except DocumentError as exc:
            problems.append(SpanProblem(item.id, gold.span, exc.message))
        except SpanOutOfRange as exc:
            problems.append(SpanProblem(item.id, gold.span, str(exc)))
    return tuple(anchors)


def spans_to_anchors_with_report(
    evalset: EvalSet,
    corpus: Corpus,
    *,
    strip: bool = True,
    replace_anchors: bool = False,
) -> tuple[EvalSet, tuple[SpanProblem, ...]]:
    """The set with anchors quoting its gold spans, and the spans that could not be quoted.

    Items that already have anchors keep them unless ``replace_anchors``; items
    without gold are left alone. Gold spans are never changed.
    """
    problems: list[SpanProblem] = []
    items: list[EvalItem] = []
    changed = False
    for item in evalset.items:
        if not item.gold or (item.anchors and not replace_anchors):
            items.append(item)
            continue
        anchors = _anchors_for(item, corpus, strip, problems)
        if anchors == item.anchors:
            items.append(item)
            continue
        items.append(item.replace(anchors=anchors))
        changed = True
    return (evalset.with_items(items) if changed else evalset), tuple(problems)


def spans_to_anchors(
    evalset: EvalSet, corpus: Corpus, *, strip: bool = True, replace_anchors: bool = False
) -> EvalSet:
    """The set with anchors quoting its gold spans (see :func:`spans_to_anchors_with_report`)."""
    converted, _ = spans_to_anchors_with_report(
        evalset, corpus, strip=strip, replace_anchors=replace_anchors
    )
    return converted

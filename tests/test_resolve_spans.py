"""From gold spans to quotes and back: span_text, anchor_for_span, spans_to_anchors."""

from __future__ import annotations

import pytest

from reviewtui.evalset.evidence.corpus import Corpus
from reviewtui.evalset.evidence.resolve import AnchorResolver, MatchKind, span_text, spans_to_anchors, spans_to_anchors_with_report
from reviewtui.evalset.evidence.span_quotes import SpanOutOfRange, anchor_for_span
from reviewtui.evalset.model.items import EvalItem, EvalSet, GoldAnchor, GoldSpan, Span

TEXT = "Intro.\n  Data is kept for 30 days.\nData is kept for 30 days.\n  Data is kept for 30 days.  \nEnd."
PAGED = "Page one says hello.\fPage two says hello.\fPage three says hello. And hello again."


@pytest.fixture
def corpus() -> Corpus:
    return Corpus.from_texts({"policy.txt": TEXT, "paged.txt": PAGED})


def nth(text: str, needle: str, n: int) -> int:
    at = -1
    for _ in range(n + 1):
        at = text.index(needle, at + 1)
    return at


def test_span_text(corpus: Corpus) -> None:
    assert span_text(Span("policy.txt", 0, 6), corpus) == "Intro."
    assert span_text(Span("policy.txt", 0, 10_000), corpus) is None
    assert span_text(Span("nowhere.txt", 0, 1), corpus) is None


def test_anchor_strips_whitespace_and_counts_earlier_copies(corpus: Corpus) -> None:
    document = corpus.document("policy.txt")
    third = nth(TEXT, "Data is kept", 2)
    span = Span("policy.txt", third - 2, third + len("Data is kept for 30 days.") + 2)
    anchor = anchor_for_span(document, span, grade=1)
    assert anchor.quote == "Data is kept for 30 days."
    assert anchor.occurrence == 2 and anchor.grade == 1 and anchor.page_hint is None
    unstripped = anchor_for_span(document, span, strip=False)
    assert unstripped.quote == TEXT[span.start : span.end] and unstripped.occurrence == 0


def test_paged_documents_get_a_page_hint_and_a_page_local_occurrence(corpus: Corpus) -> None:
    document = corpus.document("paged.txt")
    last = PAGED.rindex("hello")
    anchor = anchor_for_span(document, Span("paged.txt", last, last + 5))
    assert anchor.page_hint == 3 and anchor.occurrence == 1
    back = AnchorResolver().resolve_anchor(anchor, corpus)
    assert (back.span.start, back.span.end) == (last, last + 5)


def test_blank_and_out_of_range_spans_are_refused(corpus: Corpus) -> None:
    document = corpus.document("policy.txt")
    with pytest.raises(SpanOutOfRange, match="only whitespace"):
        anchor_for_span(document, Span("policy.txt", 6, 9))
    with pytest.raises(SpanOutOfRange, match="past the end"):
        anchor_for_span(document, Span("policy.txt", 0, len(TEXT) + 1))


def test_every_span_round_trips(corpus: Corpus) -> None:
    """Quote every word-aligned span of the document, resolve the quote, land on the same text."""
    words = [i for i in range(len(TEXT)) if not TEXT[i].isspace() and (i == 0 or TEXT[i - 1].isspace())]
    ends = [i + 1 for i in range(len(TEXT)) if not TEXT[i].isspace() and (i + 1 == len(TEXT) or TEXT[i + 1].isspace())]
    resolver = AnchorResolver()
    document = corpus.document("policy.txt")
    checked = 0
    for start in words:
        for end in ends:
            if end <= start:
                continue
            anchor = anchor_for_span(document, Span("policy.txt", start, end))
            back = resolver.resolve_anchor(anchor, corpus)
            assert back.kind is MatchKind.EXACT
            assert (back.span.start, back.span.end) == (start, end), anchor
            checked += 1
    assert checked > 100


def test_spans_to_anchors_on_a_set(corpus: Corpus) -> None:
    span_only = EvalItem("a", "Q?", gold=(GoldSpan(Span("policy.txt", 0, 6), 1),))
    both = EvalItem("b", "Q?", gold=(GoldSpan(Span("policy.txt", 0, 6)),), anchors=(GoldAnchor("policy.txt", "Intro"),))
    missing_doc = EvalItem("c", "Q?", gold=(GoldSpan(Span("gone.txt", 0, 6)),))
    nothing = EvalItem("d", "Q?")
    evalset = EvalSet("s", (span_only, both, missing_doc, nothing))

    converted, problems = spans_to_anchors_with_report(evalset, corpus)
    assert converted.get("a").anchors == (GoldAnchor("policy.txt", "Intro.", 1, None, 0),)
    assert converted.get("a").gold == span_only.gold
    assert converted.get("b") is both
    assert converted.get("c").anchors == ()
    assert converted.get("d") is nothing
    assert [(p.item_id, p.span.doc_id) for p in problems] == [("c", "gone.txt")]
    assert "no document 'gone.txt'" in problems[0].reason

    replaced = spans_to_anchors(evalset, corpus, replace_anchors=True)
    assert replaced.get("b").anchors == (GoldAnchor("policy.txt", "Intro.", 2, None, 0),)


def test_quoted_set_resolves_back_to_its_spans(corpus: Corpus) -> None:
    spans = [Span("policy.txt", nth(TEXT, "Data is kept for 30 days.", n), nth(TEXT, "Data is kept for 30 days.", n) + 25) for n in range(3)]
    items = tuple(EvalItem(f"q{n}", "Q?", gold=(GoldSpan(span),)) for n, span in enumerate(spans))
    quoted = spans_to_anchors(EvalSet("s", items), corpus)
    stripped_of_gold = quoted.with_items(item.replace(gold=()) for item in quoted)
    resolved = AnchorResolver().resolve(stripped_of_gold, corpus)
    assert [item.gold[0].span for item in resolved] == spans

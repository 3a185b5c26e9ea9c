"""Resolution on real public data: LegalBench-RAG PrivacyQA round trip, datasaur knowledge-base ids.

The PrivacyQA round trip: every gold span is turned into a quote (with its
occurrence), the gold is dropped, the quotes are resolved against the corpus,
and the resolved span must be the original span (trimmed of the whitespace the
quote leaves out) for at least 99 % of the 453 snippets. Failures are printed
with their reason (run with ``-s`` to see them).
"""

from __future__ import annotations

import csv
import random
import re
import unicodedata
from pathlib import Path

import pytest

from reviewtui.evalset.evidence.corpus import Corpus
from reviewtui.evalset.evidence.resolve import AnchorResolver, MatchKind, spans_to_anchors_with_report
from reviewtui.evalset.io.legalbench import read_legalbench_rag
from reviewtui.evalset.model.items import EvalSet, Span

PRIVACY_QA = "legalbenchrag-privacyqa"


def trimmed(text: str, span: Span) -> tuple[int, int]:
    start, end = span.start, span.end
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def round_trip(evalset: EvalSet, corpus: Corpus, *, strip: bool) -> tuple[int, list[str]]:
    """(snippets checked, failure descriptions) for span -> quote -> span."""
    span_only = evalset.with_items(item.replace(anchors=()) for item in evalset)
    quoted, problems = spans_to_anchors_with_report(span_only, corpus, strip=strip)
    failures = [f"{p.item_id}: could not quote {p.span}: {p.reason}" for p in problems]
    anchors_only = quoted.with_items(item.replace(gold=()) for item in quoted)
    resolved, report = AnchorResolver().resolve_with_report(anchors_only, corpus)
    checked = 0
    for original in span_only:
        outcome = report.for_item(original.id)
        assert len(outcome) == len(original.gold) - sum(1 for p in problems if p.item_id == original.id)
        for gold, resolution in zip(original.gold, outcome):
            checked += 1
            text = corpus.text(gold.span.doc_id)
            expected = trimmed(text, gold.span) if strip else (gold.span.start, gold.span.end)
            got = (resolution.span.start, resolution.span.end) if resolution.span else None
            if got != expected or resolution.kind is not MatchKind.EXACT:
                failures.append(f"{original.id}: {gold.span} expected {expected}, got {resolution.describe()}")
    assert len(resolved) == len(evalset)
    return checked, failures


@pytest.fixture
def privacy_qa(realdata: Path) -> tuple[EvalSet, Corpus]:
    base = realdata / PRIVACY_QA
    return read_legalbench_rag(base / "benchmarks" / "privacy_qa.json"), Corpus(base / "corpus")


@pytest.mark.parametrize("strip", [True, False], ids=["stripped", "verbatim"])
def test_privacy_qa_round_trip(privacy_qa: tuple[EvalSet, Corpus], strip: bool) -> None:
    evalset, corpus = privacy_qa
    checked, failures = round_trip(evalset, corpus, strip=strip)
    rate = 1 - len(failures) / checked
    print(f"\nPrivacyQA round trip ({'stripped' if strip else 'verbatim'} quotes): "
          f"{checked - len(failures)}/{checked} = {rate:.2%}")
    for failure in failures:
        print("  " + failure)
    assert checked == 453
    assert rate >= 0.99


def test_privacy_qa_ids_include_the_colon_file(privacy_qa: tuple[EvalSet, Corpus]) -> None:
    evalset, corpus = privacy_qa
    named = {gold.span.doc_id for item in evalset for gold in item.gold}
    assert any(":" in name for name in named)
    assert all(corpus.resolve_id(name) == name for name in named)


def test_privacy_qa_repeated_text_needs_an_occurrence(privacy_qa: tuple[EvalSet, Corpus]) -> None:
    """Quotes whose text also appears earlier get occurrence > 0, and still land on their own span."""
    evalset, corpus = privacy_qa
    span_only = evalset.with_items(item.replace(anchors=()) for item in evalset)
    quoted, _ = spans_to_anchors_with_report(span_only, corpus)
    repeated = [(item, anchor, gold) for item in quoted for anchor, gold in zip(item.anchors, item.gold) if anchor.occurrence]
    print(f"\n{len(repeated)} PrivacyQA quotes need occurrence > 0")
    assert repeated
    resolver = AnchorResolver()
    for item, anchor, gold in repeated:
        back = resolver.resolve_anchor(anchor, corpus)
        text = corpus.text(gold.span.doc_id)
        assert (back.span.start, back.span.end) == trimmed(text, gold.span), item.id


def test_privacy_qa_quotes_land_on_their_own_snippets(privacy_qa: tuple[EvalSet, Corpus]) -> None:
    """The reader's quotes carry no occurrence; each still lands on its snippet's span, lb80's second one
    too, whose text is also earlier in its file, inside the first snippet. Rewriting gold from the quotes
    changes no span."""
    evalset, corpus = privacy_qa
    resolved, report = AnchorResolver(overwrite_gold=True).resolve_with_report(evalset, corpus)
    for item in evalset:
        for resolution in report.for_item(item.id):
            assert resolution.kind is MatchKind.EXACT and resolution.span in item.gold_spans, resolution.describe()
    assert [item.gold for item in resolved] == [item.gold for item in evalset]
    item = evalset.get("lb80")
    second = report.for_item("lb80")[1]
    assert second.span == item.gold[1].span and "occurrence 1" in second.note


def test_privacy_qa_corpus_folder_given_one_level_down(realdata: Path) -> None:
    """``--corpus corpus/privacy_qa`` still matches ``file_path`` values that start with ``privacy_qa/``."""
    base = realdata / PRIVACY_QA
    evalset = read_legalbench_rag(base / "benchmarks" / "privacy_qa.json")
    corpus = Corpus(base / "corpus" / "privacy_qa")
    checked, failures = round_trip(evalset, corpus, strip=True)
    assert checked == 453 and not failures


def test_datasaur_knowledge_base_quotes_resolve_through_awkward_ids(realdata: Path) -> None:
    """A passage from every knowledge-base document resolves through the id the CSVs use and variants of it."""
    base = realdata / "qa-csv-datasaur-legalbenchrag"
    corpus = Corpus(base / "knowledge-base")
    names: set[str] = set()
    for domain in ("contractnli", "cuad", "maud", "privacy_qa"):
        with open(base / f"{domain}.csv", encoding="utf-8", newline="") as handle:
            names.update(row["source_file"] for row in csv.DictReader(handle))
    assert len(names) == 18
    resolver = AnchorResolver()
    from reviewtui.evalset.model.items import GoldAnchor

    for name in sorted(names):
        text = corpus.text(name)
        middle = len(text) // 2
        start = text.index(" ", middle) + 1
        quote = text[start : start + 120].strip()
        occurrence = 0
        at = text.find(quote)
        while at < start:
            occurrence += 1
            at = text.find(quote, at + 1)
        variants = {name, unicodedata.normalize("NFD", name), name.replace("%20", " "), name.rsplit("/", 1)[1]}
        for variant in variants:
            result = resolver.resolve_anchor(GoldAnchor(variant, quote, occurrence=occurrence), corpus)
            assert result.kind is MatchKind.EXACT, (variant, result.describe())
            assert result.span.start == start and text[result.span.start : result.span.end] == quote


def _retyped(quote: str) -> str:
    """What a person copying the quote by hand might produce: curly apostrophes, one line, capitals."""
    return re.sub(r"\s+", " ", quote.replace("'", "\u2019")).upper()


def _with_typos(quote: str, rng: random.Random) -> str:
    """About one wrong character in sixty."""
    chars = list(quote)
    for _ in range(max(1, len(chars) // 60)):
        chars[rng.randrange(len(chars))] = rng.choice("xqz#")
    return "".join(chars)


@pytest.mark.parametrize("damage", ["retyped", "typos"])
def test_privacy_qa_damaged_quotes_still_find_their_spans(privacy_qa: tuple[EvalSet, Corpus], damage: str) -> None:
    """Retyped quotes resolve as normalised matches onto the exact span; quotes with typos
    resolve approximately onto (nearly) the same span."""
    evalset, corpus = privacy_qa
    span_only = evalset.with_items(item.replace(anchors=()) for item in evalset)
    quoted, _ = spans_to_anchors_with_report(span_only, corpus)
    rng = random.Random(5)
    resolver = AnchorResolver()
    checked, failures = 0, []
    for item in quoted:
        for anchor, gold in zip(item.anchors, item.gold):
            text = corpus.text(gold.span.doc_id)
            start, end = trimmed(text, gold.span)
            quote = _retyped(anchor.quote) if damage == "retyped" else _with_typos(anchor.quote, rng)
            result = resolver.resolve_anchor(anchor.model_copy(update={"quote": quote}), corpus)
            checked += 1
            if damage == "retyped":
                ok = result.kind is MatchKind.NORMALISED and (result.span.start, result.span.end) == (start, end)
            else:
                ok = result.span is not None and result.kind in (MatchKind.APPROXIMATE, MatchKind.EXACT)
                if ok:
                    inter = min(end, result.span.end) - max(start, result.span.start)
                    union = max(end, result.span.end) - min(start, result.span.start)
                    ok = inter / union >= 0.95
            if not ok:
                failures.append(f"{item.id}: expected [{start}, {end}), got {result.describe()}")
    rate = 1 - len(failures) / checked
    print(f"\nPrivacyQA {damage} quotes: {checked - len(failures)}/{checked} = {rate:.2%}")
    for failure in failures:
        print("  " + failure)
    assert checked == 453 and rate >= 0.99

"""Evidence flags from a resolution report, the report's summary, and the demo set."""

from __future__ import annotations

import json
from pathlib import Path

from reviewtui.evalset.evidence.corpus import Corpus
from reviewtui.evalset.evidence.resolve import AnchorResolver, MatchKind, evidence_flags
from reviewtui.evalset.model.flag import Severity
from reviewtui.evalset.model.items import EvalItem, EvalSet, GoldAnchor

DOC = "The warranty lasts two years from the date of purchase. Returns are accepted within 30 days."
DEMO = Path(__file__).resolve().parent.parent / "sample_sets" / "wrenfield_tools"


def run(*anchors: GoldAnchor, corpus: Corpus | None = None):
    corpus = corpus or Corpus.from_texts({"terms.txt": DOC})
    items = tuple(EvalItem(f"q{n}", "Question?", anchors=(anchor,)) for n, anchor in enumerate(anchors))
    return AnchorResolver().resolve_with_report(EvalSet("s", items), corpus)


def test_each_kind_gets_its_severity() -> None:
    _, report = run(
        GoldAnchor("terms.txt", "The warranty lasts two years"),  # exact
        GoldAnchor("terms.txt", "the WARRANTY lasts two years"),  # normalised
        GoldAnchor("terms.txt", "The warranty lasts two yeers from the date of purchace."),  # approximate
        GoldAnchor("terms.txt", "Refunds are paid to the original card within a week."),  # not found
        GoldAnchor("other.txt", "The warranty lasts two years"),  # unknown document
    )
    kinds = [r.kind for r in report.resolutions]
    assert kinds == [
        MatchKind.EXACT,
        MatchKind.NORMALISED,
        MatchKind.APPROXIMATE,
        MatchKind.NOT_FOUND,
        MatchKind.UNKNOWN_DOCUMENT,
    ]
    flags = evidence_flags(report)
    assert "q0" not in flags
    assert [(f.check, f.severity) for f in flags["q1"]] == [("evidence-normalised", Severity.HINT)]
    assert "case" in flags["q1"][0].reason
    (approx,) = flags["q2"]
    assert approx.check == "evidence-approximate" and approx.severity is Severity.MEDIUM
    assert f"score {report.resolutions[2].score:.1f}" in approx.reason
    assert [(f.check, f.severity) for f in flags["q3"]] == [("evidence-not-found", Severity.HIGH)]
    assert [(f.check, f.severity) for f in flags["q4"]] == [("evidence-unknown-document", Severity.HIGH)]
    assert "other.txt" in flags["q4"][0].reason


def test_unreadable_document_flag(tmp_path: Path) -> None:
    (tmp_path / "bin.txt").write_bytes(b"\x00\xff\xfe")
    _, report = run(GoldAnchor("bin.txt", "anything"), corpus=Corpus(tmp_path))
    (flag,) = evidence_flags(report)["q0"]
    assert flag.check == "evidence-unreadable" and flag.severity is Severity.HIGH


def test_page_hint_miss_is_a_low_flag_beside_the_match() -> None:
    corpus = Corpus.from_texts({"p.txt": "first page text\fsecond page text"})
    _, report = run(GoldAnchor("p.txt", "second page", page_hint=1), corpus=corpus)
    assert report.resolutions[0].kind is MatchKind.EXACT
    (flag,) = evidence_flags(report)["q0"]
    assert flag.severity is Severity.LOW and "found on page 2, not on page 1" in flag.reason
    assert "1 page hint could not be honoured" in report.summary()


def test_flags_are_sorted_most_severe_first_per_item() -> None:
    corpus = Corpus.from_texts({"terms.txt": DOC})
    item = EvalItem(
        "q",
        "Question?",
        anchors=(GoldAnchor("terms.txt", "the WARRANTY lasts"), GoldAnchor("terms.txt", "Nothing like this is in the terms.")),
    )
    _, report = AnchorResolver().resolve_with_report(EvalSet("s", (item,)), corpus)
    assert [f.severity for f in evidence_flags(report)["q"]] == [Severity.HIGH, Severity.HINT]


def test_unresolved_items_keep_no_gold_so_the_filter_can_see_them() -> None:
    resolved, report = run(
        GoldAnchor("terms.txt", "Returns are accepted within 30 days."),
        GoldAnchor("terms.txt", "This quote was invented by a generator."),
        GoldAnchor("missing.txt", "Returns are accepted within 30 days."),
    )
    assert [item.is_resolved for item in resolved] == [True, False, False]
    assert [item.id for item in resolved if item.anchors and not item.gold] == ["q1", "q2"]
    assert set(evidence_flags(report)) == {"q1", "q2"}


def test_summary_counts_every_kind() -> None:
    _, report = run(
        GoldAnchor("terms.txt", "Returns are accepted"),
        GoldAnchor("terms.txt", "returns ARE accepted"),
        GoldAnchor("nope.txt", "x"),
    )
    summary = report.summary()
    assert summary.startswith("Resolved 3 anchors of 3 items against 1 document: ")
    assert "1 exact, 1 normalised, 0 approximate, 0 not found, 1 naming an unknown document" in summary
    assert "2 items got gold spans" in summary


def test_demo_set_seeded_bad_quote_is_flagged_and_good_ones_are_exact() -> None:
    lines = (DEMO / "wrenfield_tools.jsonl").read_text(encoding="utf-8").splitlines()
    items = tuple(EvalItem(**json.loads(line)) for line in lines[1:] if line.strip())
    evalset = EvalSet("demo", items)
    resolved, report = AnchorResolver().resolve_with_report(evalset, Corpus(DEMO / "corpus"))
    flags = evidence_flags(report)
    assert list(flags) == ["q20"]
    assert flags["q20"][0].check == "evidence-not-found" and flags["q20"][0].severity is Severity.HIGH
    others = [r for r in report.resolutions if r.item_id != "q20"]
    assert others and all(r.kind is MatchKind.EXACT for r in others)
    assert not resolved.get("q20").is_resolved
    multi = report.for_item("q17")
    assert len(multi) == 3 and len(resolved.get("q17").gold) == 3
    paged = [r for r in report.resolutions if r.anchor.page_hint is not None]
    assert paged and all(r.page == r.anchor.page_hint for r in paged)


def test_items_with_several_anchors_name_the_anchor_in_each_reason() -> None:
    corpus = Corpus.from_texts({"terms.txt": DOC})
    several = EvalItem(
        "many",
        "Question?",
        anchors=(GoldAnchor("terms.txt", "The warranty lasts"), GoldAnchor("terms.txt", "Invented text that is not in the terms.")),
    )
    single = EvalItem("one", "Question?", anchors=(GoldAnchor("terms.txt", "Also invented and also not in the terms."),))
    _, report = AnchorResolver().resolve_with_report(EvalSet("s", (several, single)), corpus)
    flags = evidence_flags(report)
    assert [f.reason.split(":")[0] for f in flags["many"]] == ["anchor 2"]
    assert not flags["one"][0].reason.startswith("anchor")


def test_resolution_to_dict_is_json_ready() -> None:
    _, report = run(GoldAnchor("terms.txt", "the WARRANTY lasts"), GoldAnchor("nope.txt", "x"))
    found, missing = (r.to_dict() for r in report.resolutions)
    assert json.loads(json.dumps(found)) == found
    assert found["kind"] == "normalised" and found["span"] == [0, 18] and found["item_id"] == "q0"
    assert missing["kind"] == "unknown_document" and missing["span"] is None


def test_document_level_gold_missing_from_the_corpus_is_flagged() -> None:
    """ARCD's arcd-q549 names one relevant document, and the corpus does not hold it: nothing said."""
    corpus = Corpus.from_texts({"d1": "The Druze are a religious community.", "d2": "Cancer is a disease."})
    items = (
        EvalItem(id="none", question="Who are the Druze?", meta={"gold_documents": [("d9", 1)]}),
        EvalItem(id="some", question="What is cancer?", meta={"gold_documents": [("d2", 1), ("d8", 2), ("d7", 1)]}),
        EvalItem(id="all", question="What is a disease?", meta={"gold_documents": [["d2", 1]]}),  # as JSON gives it
    )
    _resolved, report = AnchorResolver().resolve_with_report(EvalSet(id="s", items=items), corpus)
    flags = evidence_flags(report)
    (none,) = flags["none"]
    assert none.severity is Severity.HIGH and "its one relevant document is not in the corpus (d9)" in none.reason
    (some,) = flags["some"]
    assert some.severity is Severity.MEDIUM and "2 of its 3 relevant documents are not in the corpus (d8, d7)" in some.reason
    assert "all" not in flags
    _resolved, report = AnchorResolver().resolve_with_report(
        EvalSet(id="s", items=(EvalItem(id="one", question="Q?", meta={"gold_documents": [("d2", 1), ("d8", 1)]}),)), corpus
    )
    assert "1 of its 2 relevant documents is not in the corpus (d8): even a perfect retriever misses it" in evidence_flags(report)["one"][0].reason


def test_summary_writes_large_counts_as_the_commands_do() -> None:
    """"against 2966 documents" beside convert's "2,966 documents": one number written two ways."""
    import dataclasses

    _, report = run(GoldAnchor("terms.txt", "Returns are accepted"))
    assert "against 2,966 documents: " in dataclasses.replace(report, documents=2966).summary()

"""AnchorResolver: exact, normalised, approximate and failed matches; occurrence; page hints; gold."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TypeVar

import pytest

from reviewtui.evalset.evidence.corpus import Corpus
from reviewtui.evalset.evidence.resolve import AnchorResolver, MatchKind
from reviewtui.evalset.model.items import EvalItem, EvalSet, GoldAnchor, GoldSpan, Span

T = TypeVar("T")

HANDBOOK = (
    "Leave policy\n\n"
    "Employees accrue 1.5 days of leave per month.  Unused leave may be carried over\n"
    "into the next year, up to a maximum of five days.\n"
    "The \u201cannual review\u201d happens in March \u2014 every year, without exception.\n"
    "Of\ufb01ce hours are 9\u00a0to\u00a05. Con\u00adtact the HR of\ufb01ce for details.\n"
    "Repeat me. Repeat me. Repeat me.\n"
    'The yearly check (the "Annual Review") is done by HR.\n'
)
MANUAL = "Page one: safety first.\fPage two: cutting. Wear goggles.\fPage three: cleaning. Wear goggles."


@pytest.fixture
def corpus() -> Corpus:
    return Corpus.from_texts({"handbook.txt": HANDBOOK, "manual.txt": MANUAL})


def resolve(corpus: Corpus, quote: str, source: str = "handbook.txt", **anchor_fields: object):
    return AnchorResolver().resolve_anchor(GoldAnchor(source, quote, **anchor_fields), corpus)


def test_exact_match(corpus: Corpus) -> None:
    quote = "Employees accrue 1.5 days of leave per month."
    result = resolve(corpus, quote)
    assert result.kind is MatchKind.EXACT and result.score == 100.0
    assert HANDBOOK[result.span.start : result.span.end] == quote
    assert result.span.doc_id == "handbook.txt"


@pytest.mark.parametrize(
    ("quote", "passage", "difference"),
    [
        (
            "Unused leave may be carried over into the next year",
            "Unused leave may be carried over\ninto the next year",
            "whitespace",
        ),
        ('The "annual review" happens in March', "The \u201cannual review\u201d happens in March", "quote marks"),
        # An LLM's answer puts the defined term in single quotes; the document has double ones.
        ("The yearly check (the \u2018Annual Review\u2019) is", 'The yearly check (the "Annual Review") is', "quote marks"),
        ("in March - every year", "in March \u2014 every year", "dashes"),
        ("office hours are 9 to 5.", "Of\ufb01ce hours are 9\u00a0to\u00a05.", "case"),
        ("Contact the HR office", "Con\u00adtact the HR of\ufb01ce", "invisible characters"),
        ("  EMPLOYEES ACCRUE 1.5 days  ", "Employees accrue 1.5 days", "case"),
    ],
)
def test_normalised_match_points_into_the_original_text(
    corpus: Corpus, quote: str, passage: str, difference: str
) -> None:
    result = resolve(corpus, quote)
    assert result.kind is MatchKind.NORMALISED
    assert HANDBOOK[result.span.start : result.span.end] == passage
    assert difference in result.note


def test_approximate_match_has_a_score_and_lands_on_the_passage(corpus: Corpus) -> None:
    quote = "Employees acrue 1.5 days of leave each month."  # typo and a changed word
    result = resolve(corpus, quote)
    assert result.kind is MatchKind.APPROXIMATE
    assert 85 <= result.score < 100
    found = HANDBOOK[result.span.start : result.span.end]
    assert "accrue 1.5 days of leave" in found
    assert abs(len(found) - len(quote)) <= 3


def test_threshold_decides_between_approximate_and_not_found(corpus: Corpus) -> None:
    quote = "Employees acrue 1.5 days of leave each month."
    strict = AnchorResolver(threshold=99).resolve_anchor(GoldAnchor("handbook.txt", quote), corpus)
    assert strict.kind is MatchKind.NOT_FOUND and strict.span is None
    off = AnchorResolver(fuzzy=False).resolve_anchor(GoldAnchor("handbook.txt", quote), corpus)
    assert off.kind is MatchKind.NOT_FOUND and "approximate search is off" in off.note


def test_quote_not_in_the_document(corpus: Corpus) -> None:
    result = resolve(corpus, "Managers approve all travel requests within ten working days.")
    assert result.kind is MatchKind.NOT_FOUND
    assert result.span is None and not result.found
    assert "85" in result.note


def test_short_quote_is_never_matched_approximately(corpus: Corpus) -> None:
    result = resolve(corpus, "Leave polcy")
    assert result.kind is MatchKind.NOT_FOUND and "too short" in result.note


def test_unknown_document(corpus: Corpus) -> None:
    result = resolve(corpus, "anything at all", source="missing.txt")
    assert result.kind is MatchKind.UNKNOWN_DOCUMENT and "missing.txt" in result.note


def test_unreadable_document(tmp_path) -> None:
    (tmp_path / "bad.txt").write_bytes(b"\xff\xfe\x00garbage")
    corpus = Corpus(tmp_path)
    result = AnchorResolver().resolve_anchor(GoldAnchor("bad.txt", "garbage"), corpus)
    assert result.kind is MatchKind.UNREADABLE and "utf-8" in result.note


def test_occurrence_picks_the_nth_match(corpus: Corpus) -> None:
    first = HANDBOOK.index("Repeat me.")
    spans = [resolve(corpus, "Repeat me.", occurrence=n).span for n in range(3)]
    assert [s.start for s in spans] == [first, first + 11, first + 22]
    assert all(HANDBOOK[s.start : s.end] == "Repeat me." for s in spans)


def test_occurrence_counts_overlapping_matches() -> None:
    corpus = Corpus.from_texts({"d": "aaaa"})
    starts = [AnchorResolver().resolve_anchor(GoldAnchor("d", "aa", occurrence=n), corpus).span.start for n in range(3)]
    assert starts == [0, 1, 2]


def test_occurrence_beyond_the_matches_is_not_found_not_a_guess(corpus: Corpus) -> None:
    result = resolve(corpus, "Repeat me.", occurrence=3)
    assert result.kind is MatchKind.NOT_FOUND
    assert "occurs 3 times" in result.note


def _lines_run(call: Callable[[], T]) -> tuple[int, T]:
    """(lines of Python run inside locate.py and resolve.py while ``call`` runs, what it returned)."""
    import reviewtui.evalset.evidence.locate as locate_module
    import reviewtui.evalset.evidence.resolve as resolve_module

    counted = {locate_module.__file__, resolve_module.__file__}
    lines = 0

    def tracer(frame, event, arg):
        nonlocal lines
        if frame.f_code.co_filename not in counted:
            return None
        if event == "line":
            lines += 1
        return tracer

    previous = sys.gettrace()
    sys.settrace(tracer)
    try:
        result = call()
    finally:
        sys.settrace(previous)
    return lines, result


def _python_lines_in_locate(document: str, quote: str, occurrence: int) -> tuple[int, str]:
    """(lines of Python run to look the quote up, the outcome's note)."""
    corpus = Corpus.from_texts({"d": document})
    assert corpus.document("d").normalised is not None  # folded beforehand: its cost is not the search's
    anchor = GoldAnchor("d", quote, occurrence=occurrence)
    lines, result = _lines_run(lambda: AnchorResolver().resolve_anchor(anchor, corpus))
    assert result.kind is MatchKind.NOT_FOUND
    return lines, result.note


def test_an_occurrence_past_many_matches_costs_no_python_step_per_match() -> None:
    """Asking for occurrence 10**9 of a quote with thousands of (overlapping) matches runs as many lines of
    Python as with a hundred, and still says how many there are."""
    quote = "ab" * 50
    few, few_note = _python_lines_in_locate("ab" * 150, quote, 10**9)
    many, many_note = _python_lines_in_locate("ab" * 20_000, quote, 10**9)
    assert "occurs 101 times" in few_note
    assert "occurs 19951 times" in many_note
    assert many == few
    # Copies of a quote that cannot overlap are stepped over the same way.
    few, _ = _python_lines_in_locate("xy-" * 100, "xy-", 10**9)
    many, note = _python_lines_in_locate("xy-" * 20_000, "xy-", 10**9)
    assert "occurs 20000 times" in note
    assert many == few


def test_an_occurrence_past_the_first_matches_is_still_found() -> None:
    corpus = Corpus.from_texts({"d": "ab" * 500})  # "ab" * 25 starts at 0, 2, ... 950: 476 matches
    for occurrence in (0, 63, 64, 65, 400, 475):
        result = AnchorResolver().resolve_anchor(GoldAnchor("d", "ab" * 25, occurrence=occurrence), corpus)
        assert (result.kind, result.span.start) == (MatchKind.EXACT, 2 * occurrence)
    result = AnchorResolver().resolve_anchor(GoldAnchor("d", "ab" * 25, occurrence=476), corpus)
    assert result.kind is MatchKind.NOT_FOUND and "occurs 476 times" in result.note


def test_occurrence_applies_to_normalised_matches(corpus: Corpus) -> None:
    first = HANDBOOK.index("Repeat me.")
    result = resolve(corpus, "REPEAT ME.", occurrence=2)
    assert result.kind is MatchKind.NORMALISED
    assert result.span.start == first + 22


def test_page_hint_narrows_the_search(corpus: Corpus) -> None:
    on_two = resolve(corpus, "Wear goggles.", source="manual.txt", page_hint=2)
    on_three = resolve(corpus, "Wear goggles.", source="manual.txt", page_hint=3)
    assert on_two.page == 2 and on_three.page == 3
    assert on_two.span.start == MANUAL.index("Wear goggles.")
    assert on_three.span.start == MANUAL.rindex("Wear goggles.")
    assert not on_two.page_note and not on_three.page_note
    no_hint = resolve(corpus, "Wear goggles.", source="manual.txt", occurrence=1)
    assert no_hint.span.start == on_three.span.start


def test_page_hint_pointing_at_the_wrong_page_falls_back_and_says_so(corpus: Corpus) -> None:
    result = resolve(corpus, "safety first", source="manual.txt", page_hint=3)
    assert result.kind is MatchKind.EXACT and result.page == 1
    assert "found on page 1, not on page 3" in result.page_note


@pytest.mark.parametrize("page", [0, -1, 4, 99])
def test_page_hint_out_of_range_searches_everything(corpus: Corpus, page: int) -> None:
    result = resolve(corpus, "cleaning", source="manual.txt", page_hint=page)
    assert result.kind is MatchKind.EXACT and result.page == 3
    assert f"page {page} asked for but the document has 3 pages" in result.page_note


def test_page_hint_on_a_document_without_pages_is_ignored(corpus: Corpus) -> None:
    result = resolve(corpus, "Leave policy", page_hint=7)
    assert result.kind is MatchKind.EXACT and result.page is None and not result.page_note


def test_resolve_fills_gold_and_keeps_the_report() -> None:
    corpus = Corpus.from_texts({"handbook.txt": HANDBOOK})
    good = EvalItem(
        "q1",
        "How much leave?",
        anchors=(GoldAnchor("handbook.txt", "accrue 1.5 days of leave", grade=1),),
    )
    half = EvalItem(
        "q2",
        "Carry over?",
        anchors=(
            GoldAnchor("handbook.txt", "up to a maximum of five days"),
            GoldAnchor("handbook.txt", "This sentence is not in the handbook anywhere."),
        ),
    )
    bad = EvalItem("q3", "Travel?", anchors=(GoldAnchor("handbook.txt", "Travel must be booked through the portal."),))
    plain = EvalItem("q4", "No evidence?")
    evalset = EvalSet("s", (good, half, bad, plain), version=3)
    resolver = AnchorResolver()
    resolved = resolver.resolve(evalset, corpus)

    assert resolved.version == 3 and resolved.id == "s"
    g = resolved.get("q1").gold
    assert len(g) == 1 and g[0].grade == 1
    assert HANDBOOK[g[0].span.start : g[0].span.end] == "accrue 1.5 days of leave"
    assert [HANDBOOK[x.span.start : x.span.end] for x in resolved.get("q2").gold] == ["up to a maximum of five days"]
    assert resolved.get("q3").gold == () and not resolved.get("q3").is_resolved
    assert resolved.get("q4") is plain
    assert evalset.get("q1").gold == ()  # the input set is untouched

    report = resolver.last_report
    assert report is not None and len(report) == 4
    assert report.counts()[MatchKind.EXACT] == 2
    assert report.counts()[MatchKind.NOT_FOUND] == 2
    assert [r.kind for r in report.for_item("q2")] == [MatchKind.EXACT, MatchKind.NOT_FOUND]
    assert report.items_given_gold == 2
    assert "2 exact, 0 normalised, 0 approximate, 2 not found" in report.summary()


def test_existing_gold_is_kept_unless_overwrite_is_asked() -> None:
    corpus = Corpus.from_texts({"handbook.txt": HANDBOOK})
    old = GoldSpan(Span("handbook.txt", 0, 5))
    item = EvalItem("q1", "Q?", gold=(old,), anchors=(GoldAnchor("handbook.txt", "Leave policy"),))
    evalset = EvalSet("s", (item,))
    kept, report = AnchorResolver().resolve_with_report(evalset, corpus)
    assert kept.get("q1").gold == (old,)
    assert report.items_kept_gold == 1 and report.resolutions[0].kind is MatchKind.EXACT
    replaced = AnchorResolver(overwrite_gold=True).resolve(evalset, corpus)
    assert replaced.get("q1").gold == (GoldSpan(Span("handbook.txt", 0, 12)),)


def test_a_quote_no_span_covers_gets_one_beside_the_gold_kept() -> None:
    """A quote edited in review loses the span of its old words; resolving the export again gave it none, the
    item's other span counting as "gold it already had", though the export said resolve would locate it."""
    corpus = Corpus.from_texts({"handbook.txt": HANDBOOK, "rules.txt": "Tools go back clean. Fees are due monthly."})
    kept_span = GoldSpan(Span("rules.txt", 0, 20))
    item = EvalItem(
        "q1", "Q?", gold=(kept_span,), anchors=(GoldAnchor("handbook.txt", "Leave policy", grade=1), GoldAnchor("rules.txt", "Tools go back clean."))
    )
    covered = EvalItem("q2", "Q?", gold=(GoldSpan(Span("handbook.txt", 0, 5)),), anchors=(GoldAnchor("handbook.txt", "Leave policy"),))
    result, report = AnchorResolver().resolve_with_report(EvalSet("s", (item, covered)), corpus)
    assert result.get("q1").gold == (kept_span, GoldSpan(Span("handbook.txt", 0, 12), grade=1))
    assert result.get("q2") is covered  # its quote overlaps a span of its own gold: nothing added
    assert (report.items_kept_gold, report.items_completed_gold) == (2, 1)
    assert "2 kept the gold they already had (1 of them with spans added for quotes none of theirs covered)." in report.summary()


def test_gold_under_a_name_the_corpus_holds_with_its_extension_is_not_added_again(tmp_path) -> None:
    """A converted SQuAD set's gold names "Normans#0", the corpus holds "Normans#0.txt": compared by the raw
    names, every span counted as uncovered and was added again, at each run."""
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "T#0.txt").write_text("Paris is the capital of France. The Seine runs through Paris.")
    item = EvalItem("q1", "Q?", gold=(GoldSpan(Span("T#0", 0, 31)),), anchors=(GoldAnchor("T#0", "Paris is the capital of France."),))
    edited = EvalItem(
        "q2", "Q?", gold=(GoldSpan(Span("T#0", 0, 31)),),
        anchors=(GoldAnchor("T#0", "Paris is the capital of France."), GoldAnchor("T#0", "The Seine runs through Paris.")),
    )
    result, report = AnchorResolver().resolve_with_report(EvalSet("s", (item, edited)), Corpus(folder))
    assert result.get("q1") is item
    assert [(g.span.start, g.span.end) for g in result.get("q2").gold] == [(0, 31), (32, 61)]
    again, _ = AnchorResolver().resolve_with_report(result, Corpus(folder))
    assert again.get("q2").gold == result.get("q2").gold  # a second run adds nothing
    assert report.items_completed_gold == 1


def test_resolving_a_converted_squad_set_against_its_own_paragraphs_adds_nothing(realdata, tmp_path, capsys) -> None:
    from reviewtui.cli import main
    from reviewtui.evalset.io import read_jsonl

    converted, docs = tmp_path / "s.jsonl", tmp_path / "docs"
    assert main(["convert", str(realdata / "qa-squad2-haystack" / "small.json"), str(converted), "--corpus-out", str(docs)]) == 0
    assert main(["resolve", str(converted), "--corpus", str(docs), "-o", str(tmp_path / "r.jsonl")]) == 0
    assert "with spans added" not in capsys.readouterr().out
    assert [item.gold for item in read_jsonl(tmp_path / "r.jsonl")] == [item.gold for item in read_jsonl(converted)]


def test_an_edited_quote_is_located_again_by_the_resolve_the_export_names(tmp_path, capsys) -> None:
    from reviewtui.cli import main
    from reviewtui.evalset.io import read_jsonl, write_jsonl
    from reviewtui.evalset.review.session import ReviewSession

    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "T.txt").write_text("Paris is the capital of France. The Seine runs through Paris.")
    (folder / "L.txt").write_text("Lyon is smaller.")
    item = EvalItem(
        "q1", "Which river runs through the capital?",
        gold=(GoldSpan(Span("T.txt", 0, 31)), GoldSpan(Span("L.txt", 0, 16))),
        anchors=(GoldAnchor("T.txt", "Paris is the capital of France."), GoldAnchor("L.txt", "Lyon is smaller.")),
    )
    path = write_jsonl(EvalSet("s", (item,)), tmp_path / "s.jsonl")
    with ReviewSession.open(path, reviewer="ana") as session:
        session.edit(quote="The Seine runs through Paris.")
    assert main(["export", str(path), "-o", str(tmp_path / "next.jsonl")]) == 0
    said = capsys.readouterr().out
    command = said[said.index("reviewtui resolve") :].split(" locates")[0].replace("DIR", str(folder))
    assert main(command.split()[1:]) == 0
    capsys.readouterr()
    resolved = read_jsonl(command.split(" -o ")[1].split()[0]).items[0]
    assert sorted((g.span.doc_id, g.span.start, g.span.end) for g in resolved.gold) == [("L.txt", 0, 16), ("T.txt", 32, 61)]


def test_overwriting_gold_keeps_it_where_an_anchor_is_not_found() -> None:
    """--overwrite-gold replaced valid gold with the spans of the anchors found: an item none of whose anchors was
    found lost all its gold, one with a single anchor found kept that one's span only, and nothing was said."""
    corpus = Corpus.from_texts({"handbook.txt": HANDBOOK})
    old = (GoldSpan(Span("handbook.txt", 0, 5)), GoldSpan(Span("handbook.txt", 6, 12)))
    none_found = EvalItem("q1", "Q?", gold=old, anchors=(GoldAnchor("handbook.txt", "Words the handbook never holds at all"),))
    one_found = EvalItem(
        "q2", "Q?", gold=old, anchors=(GoldAnchor("handbook.txt", "Leave policy"), GoldAnchor("gone.txt", "Leave policy"))
    )
    all_found = EvalItem("q3", "Q?", gold=old, anchors=(GoldAnchor("handbook.txt", "Leave policy"),))
    result, report = AnchorResolver(overwrite_gold=True).resolve_with_report(EvalSet("s", (none_found, one_found, all_found)), corpus)
    assert result.get("q1").gold == old and result.get("q2").gold == old
    assert result.get("q3").gold == (GoldSpan(Span("handbook.txt", 0, 12)),)
    assert (report.items_kept_gold, report.items_given_gold) == (2, 1)
    assert "2 kept the gold they already had" in report.summary()


REPEATED = "Intro. We keep your data for a year. Then more. We keep your data for a year. The end."
QUOTE = "We keep your data for a year."
FIRST, SECOND = REPEATED.index(QUOTE), REPEATED.rindex(QUOTE)


def test_a_quote_giving_no_occurrence_lands_on_the_copy_its_gold_marks() -> None:
    """A quote made from a span by a reader with no document to count copies in (LegalBench-RAG) stays on
    that span, also when the first copy lies inside another of the item's spans, and says so."""
    corpus = Corpus.from_texts({"d.txt": REPEATED})
    gold = (GoldSpan(Span("d.txt", 0, SECOND + len(QUOTE))), GoldSpan(Span("d.txt", SECOND, SECOND + len(QUOTE))))
    item = EvalItem("q", "Q?", gold=gold, anchors=(GoldAnchor("d.txt", QUOTE),))
    new_item, (resolution,) = AnchorResolver().resolve_item(item, corpus)
    assert resolution.kind is MatchKind.EXACT
    assert (resolution.span.start, resolution.span.end) == (SECOND, SECOND + len(QUOTE))
    assert "occurrence 1" in resolution.note and f"first at [{FIRST}, {FIRST + len(QUOTE)})" in resolution.note
    assert new_item is item
    # Rewriting gold from the quotes puts the span back where the gold had it.
    rewritten = AnchorResolver(overwrite_gold=True).resolve(EvalSet("s", (item,)), corpus).get("q")
    assert rewritten.gold == (GoldSpan(Span("d.txt", SECOND, SECOND + len(QUOTE))),)


def test_an_occurrence_or_page_hint_the_anchor_gives_is_searched_as_it_says() -> None:
    three = REPEATED + " " + QUOTE
    third = len(three) - len(QUOTE)
    corpus = Corpus.from_texts({"d.txt": REPEATED, "d3.txt": three, "p.txt": REPEATED.replace("Then", "\fThen")})
    for anchor, start in [
        (GoldAnchor("d3.txt", QUOTE, occurrence=1), SECOND),
        (GoldAnchor("p.txt", QUOTE, page_hint=1), FIRST),
    ]:
        marks = (GoldSpan(Span("d3.txt", third, len(three))), GoldSpan(Span("p.txt", SECOND + 1, SECOND + 1 + len(QUOTE))))
        item = EvalItem("q", "Q?", gold=marks, anchors=(anchor,))
        _, (resolution,) = AnchorResolver().resolve_item(item, corpus)
        assert (resolution.span.start, resolution.note) == (start, ""), anchor
    # With no gold, or gold that marks the first copy or no copy exactly, occurrence 0 is the first copy.
    for gold in [(), (GoldSpan(Span("d.txt", FIRST, FIRST + len(QUOTE))), GoldSpan(Span("d.txt", SECOND, SECOND + len(QUOTE)))),
                 (GoldSpan(Span("d.txt", SECOND, SECOND + len(QUOTE) + 1)),), (GoldSpan(Span("other.txt", SECOND, SECOND + len(QUOTE))),)]:
        item = EvalItem("q", "Q?", gold=gold, anchors=(GoldAnchor("d.txt", QUOTE),))
        _, (resolution,) = AnchorResolver().resolve_item(item, corpus)
        assert (resolution.span.start, resolution.note) == (FIRST, ""), gold
    assert AnchorResolver().resolve_anchor(GoldAnchor("d.txt", QUOTE), corpus).span.start == FIRST


def test_each_quote_is_checked_against_the_spans_as_long_as_it_not_every_span() -> None:
    """An item of 1,000 quotes and their 1,000 spans runs about ten times the Python of one of 100, not a
    hundred times: finding which copy the gold marks does not compare every quote with every span."""

    def lines_for(count: int) -> int:
        sentences = [f"Sentence {i} says something." for i in range(count)]
        text = " ".join(sentences)
        corpus = Corpus.from_texts({"d.txt": text})
        starts = [text.index(sentence) for sentence in sentences]
        gold = tuple(GoldSpan(Span("d.txt", s, s + len(q))) for s, q in zip(starts, sentences))
        item = EvalItem("q", "Q?", gold=gold, anchors=tuple(GoldAnchor("d.txt", q) for q in sentences))
        lines, (_, resolutions) = _lines_run(lambda: AnchorResolver().resolve_item(item, corpus))
        assert [r.span.start for r in resolutions] == starts
        return lines

    assert lines_for(1000) <= 12 * lines_for(100)


def test_two_anchors_on_one_span_give_one_gold_span_with_the_higher_grade() -> None:
    corpus = Corpus.from_texts({"d.txt": "The answer is forty-two."})
    item = EvalItem(
        "q",
        "Q?",
        anchors=(GoldAnchor("d.txt", "The answer is forty-two.", grade=1), GoldAnchor("d.txt", "the answer is forty-two.", grade=2)),
    )
    (gold,) = AnchorResolver().resolve(EvalSet("s", (item,)), corpus).get("q").gold
    assert gold.grade == 2 and (gold.span.start, gold.span.end) == (0, 24)


def test_progress_is_reported_and_can_stop_the_run(corpus: Corpus) -> None:
    items = tuple(EvalItem(f"q{i}", "Q?", anchors=(GoldAnchor("handbook.txt", "Leave policy"),)) for i in range(5))
    seen: list[tuple[int, int]] = []
    AnchorResolver().resolve_with_report(EvalSet("s", items), corpus, progress=lambda d, t: seen.append((d, t)), every=2)
    assert seen == [(2, 5), (4, 5), (5, 5)]

    class Stop(Exception):
        pass

    def stop(done: int, total: int) -> None:
        raise Stop

    with pytest.raises(Stop):
        AnchorResolver().resolve_with_report(EvalSet("s", items), corpus, progress=stop, every=1)


def test_invalid_threshold_is_refused() -> None:
    with pytest.raises(ValueError):
        AnchorResolver(threshold=0)


def test_top_level_name_is_the_same_class() -> None:
    import reviewtui

    assert reviewtui.AnchorResolver is AnchorResolver


CLAUSE = (
    "Section 9. The Company shall not assign this Agreement or any rights under it without the prior "
    "written consent of the Parent, which consent shall not be unreasonably withheld."
)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        # the fuzzy windows began and ended inside words: "ompany ... prior writt", "The ... writ"; and, a passage
        # of the quote's own length, they left out what the quote holds past a word it misses ("consent")
        (
            "ompany shall not asign this Agreement or any right under it without the prior consent",
            "Company shall not assign this Agreement or any rights under it without the prior written consent",
        ),
        (
            "The Company shall not assign this Agreement or any rights under it without the prior writen consen",
            "The Company shall not assign this Agreement or any rights under it without the prior written consent",
        ),
        (  # from the quote's first word to its last, "The" before it left out, "Parent" at its end kept
            "Company may not assign this Agreement or any rights under it without the prior written consent of Parent",
            "Company shall not assign this Agreement or any rights under it without the prior written consent of the Parent",
        ),
    ],
)
def test_an_approximate_passage_begins_and_ends_on_whole_words(quote: str, passage: str) -> None:
    """A reviewer read "he Company ... prior writt" in the evidence pane, and resolve wrote gold spans ending inside a word."""
    corpus = Corpus.from_texts({"clause.txt": CLAUSE})
    result = resolve(corpus, quote, source="clause.txt")
    assert result.kind is MatchKind.APPROXIMATE
    assert CLAUSE[result.span.start : result.span.end] == passage


def test_a_passage_in_a_script_without_spaces_is_not_widened_to_a_whole_run() -> None:
    from reviewtui.evalset.evidence.locate import _whole_words

    text = "本协议" * 20 + "。其他内容"
    assert _whole_words(text, 10, 30, 0, len(text)) == (10, 30)  # a run of 60 letters: no word edge to widen to
    assert _whole_words("the prior written consent", 4, 14, 0, 25) == (4, 17)  # "prior writ" -> "prior written"
    assert _whole_words("the prior written consent", 4, 11, 0, 12) == (4, 12)  # never past the region searched


def test_a_passage_inside_a_long_run_of_letters_looks_only_near_its_ends() -> None:
    # Telling that the run is longer than a word needs no more than a word's length each way; walking the
    # whole run (3 million letters without a space) took a third of a second per passage.
    from reviewtui.evalset.evidence.locate import _whole_words

    class Counted(str):
        looked = 0

        def __getitem__(self, key):  # type: ignore[no-untyped-def]
            Counted.looked += 1
            return str.__getitem__(self, key)

    text = Counted("q" * 100_000)
    assert _whole_words(text, 50_000, 50_040, 0, len(text)) == (50_000, 50_040)
    assert Counted.looked < 200
    words = Counted("x" * 1000 + " the prior written consent")
    assert _whole_words(words, 1005, 1015, 0, len(words)) == (1005, 1018)  # "prior writ" -> "prior written"


def test_a_passage_in_decomposed_text_keeps_the_accents_of_its_last_word() -> None:
    # In NFD text an accent is a character of its own after its letter, and no letter: a passage cut
    # before it was left as it was ("est résilie", "est re") instead of taking the whole word.
    import unicodedata

    from reviewtui.evalset.evidence.locate import _whole_words

    text = unicodedata.normalize("NFD", "Le contrat est résilié par écrit")
    word_end = text.index(" par")
    for cut in (text.index("e\u0301s") + 1, word_end - 1):  # after the first "e" of the word, before its last accent
        start, end = _whole_words(text, 0, cut, 0, len(text))
        assert (start, end) == (0, word_end) and text[start:end].endswith("e\u0301")
    start, _ = _whole_words(text, text.index("\u0301crit"), len(text), 0, len(text))  # begins on the accent of "écrit"
    assert text[start:].startswith("e\u0301crit")


def test_an_approximate_passage_starting_on_the_page_asked_for_and_running_past_it_is_on_that_page() -> None:
    # Searched within the page alone the passage falls short; in the whole document it starts on page 2,
    # and the note said "found on page 2, not on page 2".
    from reviewtui.evalset.evidence.corpus import Document
    from reviewtui.evalset.evidence.locate import SearchSettings, locate

    text = (
        "Page one has nothing at all here.\fIntro text. The Tenant\fshall give notice to the Owner, or to the "
        "agent the Owner names in writing within ten days.\fOther."
    )
    quote = "The Tenant shall give notize to the Owner, or to the agent the Owner names in writing within ten days"
    document = Document("d", text)
    found = locate(document, GoldAnchor("d", quote, page_hint=2), SearchSettings())
    assert found.kind is MatchKind.APPROXIMATE and document.page_of(found.start) == 2
    assert found.page_note == ""
    elsewhere = locate(document, GoldAnchor("d", quote, page_hint=1), SearchSettings())
    assert elsewhere.start == found.start and elsewhere.page_note == "found on page 2, not on page 1"


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        # letters left out make the quote shorter than its passage: a passage of the quote's own length lost a word
        ("The comittee aproved the anual budget after a long debate", "The committee approved the annual budget after a long debate"),
        ("The bord aproved the new budgt for the coming year.", "The board approved the new budget for the coming year."),
    ],
)
def test_an_approximate_passage_covers_all_the_quote_quotes(quote: str, passage: str) -> None:
    text = "Minutes of the spring meeting. " + passage + " Then the meeting closed at nine in the evening."
    result = resolve(Corpus.from_texts({"handbook.txt": text}), quote)
    assert result.kind is MatchKind.APPROXIMATE
    assert text[result.span.start : result.span.end] == passage


def test_an_approximate_quote_in_a_short_document_takes_the_copy_its_occurrence_names() -> None:
    """A document of 4,096 characters or less was scored as one window, with one hit: occurrence 1 took the first copy."""
    sentence = "The committee approved the annual budget after a long debate."
    text = f"Item 1. {sentence} Item 2. Other business was heard. Item 3. {sentence} Item 4. Close."
    quote = "The comittee aproved the anual budget after a long debate"
    copies = [at for at in range(len(text)) if text.startswith(sentence, at)]
    corpus = Corpus.from_texts({"handbook.txt": text})
    for occurrence, at in enumerate(copies):
        result = resolve(corpus, quote, occurrence=occurrence)
        assert result.kind is MatchKind.APPROXIMATE and result.span.start == at, occurrence


@pytest.mark.parametrize(
    ("text", "quote", "passage"),
    [
        ("委員会は長い議論の末に年間予算を承認した。", "議論の末に年間予箕を承認", "議論の末に年間予算を承認"),
        ("北京是中国的首都，也是全国的政治和文化中心城市之一。", "中国的首都，也是全国的政冶和文化", "中国的首都，也是全国的政治和文化"),
    ],
)
def test_an_approximate_passage_in_a_script_without_spaces_is_not_widened_to_its_clause(text, quote, passage) -> None:
    """Every character there is a word's edge: widened to the run of letters, the span took in the whole clause."""
    result = resolve(Corpus.from_texts({"handbook.txt": text}), quote)
    assert result.kind is MatchKind.APPROXIMATE
    assert text[result.span.start : result.span.end] == passage


@pytest.mark.parametrize("form", ["NFC", "NFD"])
@pytest.mark.parametrize("quote", ["Nous avons pris un cafe", "Nous avons pris un cafe."])
def test_a_quote_missing_the_accent_on_its_last_letter_is_not_found_as_written(form, quote) -> None:
    """In text with its accents apart (NFD) "cafe" was found exactly, its span ending inside "café"; folded, the
    same cut read as a difference in accent encoding, a hint. A missing accent is a difference in the words."""
    import unicodedata

    text = unicodedata.normalize(form, "Nous avons pris un café. Le résumé est prêt.")
    result = resolve(Corpus.from_texts({"handbook.txt": text}), quote)
    assert result.kind is MatchKind.APPROXIMATE and result.score < 100
    assert unicodedata.normalize("NFC", text[result.span.start : result.span.end]).startswith("Nous avons pris un café")
    accented = unicodedata.normalize(form, "Nous avons pris un café")
    assert resolve(Corpus.from_texts({"handbook.txt": text}), accented).kind is MatchKind.EXACT  # as written: found


@pytest.mark.parametrize("invisible", ["\u200b", "\u00ad", "\ufeff", "\u200b\u200b"])
def test_spaces_on_both_sides_of_an_invisible_character_fold_into_one(invisible) -> None:
    """Folded, "here \\u200b to" read "here  to", two spaces, and the quote was not found as normalised text:
    approximate (a medium warning), or, short or without fuzzy search, not found at all (high)."""
    text = f"Click here {invisible} to continue reading the full article."
    corpus = Corpus.from_texts({"handbook.txt": text})
    for quote in ("Click here to continue reading the full article", "here to continue"):
        result = resolve(corpus, quote)
        assert result.kind is MatchKind.NORMALISED, (quote, result.kind)
        assert text[result.span.start : result.span.end].startswith(quote.split()[0])
        assert text[result.span.start : result.span.end].endswith(quote.split()[-1])


def test_gold_spans_that_cannot_be_right_are_warned_on() -> None:
    """A span past the end of its document, or in a document the corpus lacks, showed in the evidence pane as
    "[3–400) 397 chars" with no warning; only `resolve --strict` said so."""
    from reviewtui.evalset.evidence.resolution import CHECK_NOT_FOUND, CHECK_UNKNOWN_DOCUMENT, evidence_flags

    corpus = Corpus.from_texts({"short.txt": "Tiny text."})
    items = (
        EvalItem(id="valid", question="What does it say?", gold=(GoldSpan(Span("short.txt", 0, 9)),)),
        EvalItem(id="past", question="What does it say?", gold=(GoldSpan(Span("short.txt", 3, 400)),)),
        EvalItem(id="nodoc", question="What does it say?", gold=(GoldSpan(Span("missing.txt", 0, 5)),)),
    )
    _resolved, report = AnchorResolver().resolve_with_report(EvalSet(id="s", items=items), corpus)
    flags = evidence_flags(report)
    assert "valid" not in flags
    assert [(f.check, f.severity.label) for f in flags["past"]] == [(CHECK_NOT_FOUND, "high")]
    assert "runs past the end of the document (10 characters)" in flags["past"][0].reason
    assert [(f.check, f.severity.label) for f in flags["nodoc"]] == [(CHECK_UNKNOWN_DOCUMENT, "high")]


def test_the_summary_gives_the_approximate_scores_beside_their_count_not_the_last_count(corpus: Corpus) -> None:
    # "1 approximate, 0 not found, 1 naming an unknown document (scores 9x)" read as the unknown document's scores.
    evalset = EvalSet(
        "s",
        [
            EvalItem("q1", "How much leave?", anchors=(GoldAnchor("handbook.txt", "Employees acrue 1.5 days of leave each month."),)),
            EvalItem("q2", "Where?", anchors=(GoldAnchor("nowhere.txt", "Employees accrue 1.5 days of leave per month."),)),
        ],
    )
    resolver = AnchorResolver()
    resolver.resolve(evalset, corpus)
    summary = resolver.last_report.summary()
    assert "1 approximate (scores " in summary
    assert "1 naming an unknown document." in summary

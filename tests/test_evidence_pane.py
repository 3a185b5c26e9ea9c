"""What the evidence pane shows when there are many quotes, or none by design."""

from __future__ import annotations

import reviewtui as cg
from reviewtui.evalset.io.squad import read_squad, squad_corpus
from reviewtui.tui import render
from reviewtui.tui.render import COMPACT_QUOTES_FROM, QUOTES_LISTED, evidence_view
from tests.test_io_convert import _squad


def _many(n: int) -> cg.EvalItem:
    anchors = tuple(cg.GoldAnchor(source_id=f"contract-{i}.txt", quote=f"Clause {i}: " + "the party shall " * 20) for i in range(n))
    return cg.EvalItem(id="lb149", question="Which clauses limit liability?", anchors=anchors)


def test_many_quotes_take_a_line_each_and_the_selected_one_is_whole():
    item = _many(14)
    text = evidence_view(item, selected_anchor=9).plain
    lines = text.splitlines()
    assert sum("quote " in line and "/14" in line for line in lines) == 14  # every quote is on screen
    assert "▶ quote 10/14" in text and item.anchors[9].quote in text  # the selected one in full
    assert item.anchors[3].quote not in text  # the others shortened
    assert len(lines) < 14 + 6


def test_an_item_of_thousands_of_quotes_lists_those_around_the_selected_one_and_counts_the_rest(monkeypatch):
    # The pane wraps all it is given on every key that changes it: 10,000 quotes took 8 s to show
    # and as long for each ] or [. What is built is counted, quotes and gold spans alike.
    built = {"quotes": 0}
    anchor_view = render._anchor_view

    def counted(*args, **kwargs):
        built["quotes"] += 1
        return anchor_view(*args, **kwargs)

    monkeypatch.setattr(render, "_anchor_view", counted)
    item = _many(10_000)
    spans = tuple(cg.GoldSpan(span=cg.Span(doc_id=f"contract-{i}.txt", start=0, end=5), grade=1) for i in range(10_000))
    item = item.replace(gold=spans)
    text = evidence_view(item, selected_anchor=5_000).plain
    assert built["quotes"] <= QUOTES_LISTED
    assert "▶ quote 5001/10000" in text and item.anchors[5_000].quote in text  # the selected one, whole
    assert "quote 4992/10000" in text and "quote 4990/10000" not in text  # a few before it
    assert "… 4,990 quotes before ([ goes back)" in text
    assert f"… and {10_000 - 4_990 - QUOTES_LISTED:,} more quotes (] goes on)" in text
    assert "gold spans (10000)" in text and f"… and {10_000 - QUOTES_LISTED:,} more" in text
    assert sum("contract-" in line and "chars · grade" in line for line in text.splitlines()) == QUOTES_LISTED
    last = evidence_view(item, selected_anchor=9_999).plain  # the last ones: the list ends with the set's last quote
    assert "▶ quote 10000/10000" in last and "more quotes" not in last and f"quote {10_000 - QUOTES_LISTED + 1}/10000" in last
    # the keys as the settings map them (the app puts them in as it starts): the pane named [ and ] whatever they were
    monkeypatch.setitem(render.HINT_KEYS, "review.previous_anchor", "y")
    monkeypatch.setitem(render.HINT_KEYS, "review.next_anchor", "z")
    remapped = evidence_view(item, selected_anchor=5_000).plain
    assert "… 4,990 quotes before (y goes back)" in remapped and "more quotes (z goes on)" in remapped


def test_a_few_quotes_are_all_shown_whole():
    item = _many(COMPACT_QUOTES_FROM - 1)
    text = evidence_view(item, selected_anchor=0).plain
    assert all(anchor.quote in text for anchor in item.anchors)


def test_an_unanswerable_squad_question_shows_the_paragraph_it_was_asked_of(tmp_path):
    path = _squad(tmp_path)
    impossible = read_squad(path).get("a3")
    corpus = squad_corpus(path)
    document = impossible.meta["context_document"]
    assert document in corpus  # the name squad_corpus gives the paragraph
    shown = evidence_view(impossible, document_text=corpus.get).plain
    assert "No evidence by design" in shown and corpus[document][:60] in shown
    without = evidence_view(impossible).plain
    assert "--corpus" in without and "No evidence by design" in without


def test_the_paragraph_is_data_not_markup():
    item = cg.EvalItem(id="x", question="Who?", qtype="unanswerable", meta={"context_document": "p[0]"})
    shown = evidence_view(item, document_text=lambda doc: "[b]Rollo[/b] \x1b[2J" if doc == "p[0]" else None)
    assert "[b]Rollo[/b]" in shown.plain and "\x1b" not in shown.plain


def test_document_level_gold_shows_the_first_documents_with_a_corpus():
    item = cg.EvalItem(id="b1", question="Does aspirin reduce fever?", meta={"gold_documents": [["d1", 1], ["d2", 2]]})
    texts = {"d1": "Aspirin\n\nAspirin lowers fever in adults. [b]not markup[/b]", "d2": "Trial two text."}
    shown = evidence_view(item, document_text=texts.get).plain
    assert "Aspirin lowers fever in adults. [b]not markup[/b]" in shown and "Trial two text." in shown
    assert "x: the ▸ document whole · ] [: the next or previous" in shown
    assert shown.index("d2") < shown.index("d1")  # grade 2 first
    assert "Aspirin lowers fever" not in evidence_view(item).plain  # without a corpus: the ids only


def test_gold_documents_come_highest_grade_first_and_the_chosen_one_is_shown():
    """msmarco's 19335 has 20 relevant documents, the grade-3 ones past the first three in the file: only the
    first three were shown, and no key reached the rest."""
    from reviewtui.tui.render import gold_documents_listed

    documents = [[f"d{n}", 1] for n in range(6)] + [["top", 3], ["odd", "high"], ["next", 2]]
    item = cg.EvalItem(id="b1", question="What is an environment?", meta={"gold_documents": documents})
    assert [doc for doc, _ in gold_documents_listed(item)][:3] == ["top", "next", "d0"]
    assert gold_documents_listed(item)[-1] == ("odd", "high")  # a grade that is not a number: last
    texts = {doc: f"text of {doc}" for doc, _ in documents}
    first = evidence_view(item, document_text=texts.get).plain
    assert "▸ top" in first and "text of top" in first and "text of d1" not in first
    later = evidence_view(item, selected_anchor=4, document_text=texts.get).plain  # the fifth, d2, and two after
    assert "▸ d2" in later and all(f"text of {doc}" in later for doc in ("d2", "d3", "d4"))
    assert "text of top" not in later and "text of d5" not in later


def test_a_gold_document_the_corpus_lacks_says_so_and_x_is_not_offered_for_it():
    # ARCD's arcd-q549: its one relevant document is not in the corpus, and the pane offered x on it anyway.
    item = cg.EvalItem(id="q549", question="Where is it?", meta={"gold_documents": [["arcd-doc183", 1]]})
    shown = evidence_view(item, document_text={"other": "text"}.get).plain
    assert "arcd-doc183  · grade 1  · not in the corpus" in shown
    assert "x: the" not in shown


async def test_x_opens_a_beir_items_first_gold_document(tmp_path):
    from reviewtui.evalset.evidence.corpus import Corpus
    from tests.tui_helpers import fixed_scan, make_app, open_session, screen_text, settle

    item = cg.EvalItem(id="b1", question="Does aspirin reduce fever in adults?", meta={"gold_documents": [["d1", 1]]})
    session = open_session(tmp_path, cg.EvalSet(id="beir", items=(item,)))
    app = make_app(session, scan=fixed_scan(), corpus=Corpus.from_texts({"d1": "Aspirin lowers fever in adults, says the trial."}))
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app)
            await pilot.press("x")
            await pilot.pause()
            assert type(app.screen).__name__ == "DocumentScreen"
            assert "Aspirin lowers fever in adults, says the trial." in screen_text(app)
    finally:
        session.close()


async def test_brackets_go_through_a_beir_items_gold_documents_and_x_opens_the_chosen_one(tmp_path):
    from reviewtui.evalset.evidence.corpus import Corpus
    from tests.tui_helpers import fixed_scan, make_app, open_session, screen_text, settle

    documents = [["low", 1], ["mid", 2], ["high", 3]]
    item = cg.EvalItem(id="b1", question="Does aspirin reduce fever in adults?", meta={"gold_documents": documents})
    session = open_session(tmp_path, cg.EvalSet(id="beir", items=(item,)))
    corpus = Corpus.from_texts({doc: f"The document called {doc}." for doc, _ in documents})
    app = make_app(session, scan=fixed_scan(), corpus=corpus)
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app)
            assert "▸ high" in screen_text(app)
            await pilot.press("]", "]")
            await pilot.pause()
            assert "▸ low" in screen_text(app)
            await pilot.press("x")
            await pilot.pause()
            assert type(app.screen).__name__ == "DocumentScreen"
            assert "The document called low." in screen_text(app)
            await pilot.press("escape", "[")
            await pilot.pause()
            assert "▸ mid" in screen_text(app)
    finally:
        session.close()


def test_an_approximate_match_shows_one_score_in_the_pane_and_the_warning():
    import reviewtui as cg
    from reviewtui.evalset.evidence.resolution import AnchorResolution, MatchKind, evidence_flags
    from reviewtui.evalset.model.items import Span
    from reviewtui.tui.render import match_badge

    anchor = cg.GoldAnchor("rules.md", "Loans run for two weeks")
    found = AnchorResolution(anchor, MatchKind.APPROXIMATE, Span("rules.md", 0, 24), score=95.8, item_id="q1")
    (flag,) = evidence_flags([found])["q1"]
    assert "(score 95.8)" in match_badge(found).plain and "(score 95.8)" in flag.reason


def test_a_gold_document_the_corpus_cannot_show_says_why(tmp_path):
    """'a' names both a.md and a.txt: the pane said 'not in the corpus' of a document the corpus has twice."""
    from reviewtui.evalset.evidence.corpus import Corpus
    from tests.tui_helpers import make_app, open_session

    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "a.md").write_text("Aspirin lowers fever.", encoding="utf-8")
    (folder / "a.txt").write_text("Aspirin lowers fever in adults.", encoding="utf-8")
    (folder / "b.txt").write_bytes(b"\xff\xfe\x00bad")
    item = cg.EvalItem(id="b1", question="Does aspirin reduce fever?", meta={"gold_documents": [["a", 1], ["b", 1], ["zz", 1]]})
    session = open_session(tmp_path, cg.EvalSet(id="beir", items=(item,)))
    try:
        app = make_app(session, corpus=Corpus(folder))
        shown = evidence_view(item, document_text=app.document_text, document_missing=app.document_missing).plain
        assert "a  · grade 1  · more than one document in the corpus has that name" in shown
        assert "zz  · grade 1  · not in the corpus" in shown
        assert "b  · grade 1  · in the corpus, but it could not be read: not valid utf-8 at byte 0" in shown
        assert app.document_missing("a.md") == "in the corpus"
    finally:
        session.close()


def test_a_gold_document_the_corpus_holds_only_in_pieces_says_so(tmp_path):
    from reviewtui.evalset.evidence.corpus import Corpus
    from tests.tui_helpers import make_app, open_session

    item = cg.EvalItem(id="b1", question="Who are the Druze?", meta={"gold_documents": [["d1", 1]]})
    session = open_session(tmp_path, cg.EvalSet(id="beir", items=(item,)))
    try:
        app = make_app(session, corpus=Corpus.from_texts({"d1_chunk_0": "The Druze", "d1_chunk_1": "are a community."}))
        shown = evidence_view(item, document_text=app.document_text, document_missing=app.document_missing).plain
        assert "d1  · grade 1  · not in the corpus by that id, only split into 2 pieces" in shown
    finally:
        session.close()


async def test_the_whole_document_keeps_the_quote_in_view_when_the_terminal_is_resized(tmp_path):
    """Opened at 120 columns and narrowed to 40, the document rewrapped under the same scroll offset: the quote
    was pages below the view, and the text on screen an earlier part of the document."""
    from textual.widgets import TextArea

    from reviewtui.evalset.model.items import Span
    from reviewtui.tui.screens.document import DocumentScreen
    from tests.tui_helpers import review_app

    filler = "".join(f"Paragraph {n} says something long enough to wrap more than once at forty columns wide.\n\n" for n in range(60))
    quote = "THE QUOTE ITSELF."
    text = filler + quote + "\n\n" + filler
    async with review_app(tmp_path, "doc", evalset=cg.EvalSet(id="doc", items=(cg.EvalItem(id="q", question="Where?"),))) as (app, pilot, _):
        await app.push_screen(DocumentScreen("d.md", text, Span("d.md", len(filler), len(filler) + len(quote))))
        await pilot.pause()
        await pilot.pause()
        area = app.screen.query_one("#document", TextArea)

        def quote_in_view() -> bool:
            row = area.wrapped_document.location_to_offset(area.cursor_location).y
            return area.scroll_y <= row < area.scroll_y + area.scrollable_content_region.height

        assert quote_in_view()
        for size in ((40, 20), (80, 24), (120, 40)):
            await pilot.resize_terminal(*size)
            await pilot.pause()
            await pilot.pause()
            assert quote_in_view(), size


def test_one_quote_past_the_list_is_one_more_quote():
    text = evidence_view(_many(QUOTES_LISTED + 1), selected_anchor=0).plain
    assert "… and 1 more quote (] goes on)" in text


def test_gold_documents_beside_quotes_offer_no_keys_of_their_own():
    """A DPR item has quotes and gold documents: the pane marked a document ▸ and offered x and ] for it, while
    ] moves between the quotes and x opens the chosen quote's document."""
    item = cg.EvalItem(
        id="q1",
        question="Does he love you?",
        anchors=(cg.GoldAnchor("d1", "Does He Love You is a song."),),
        meta={"gold_documents": [["d1", 1], ["d2", 1]]},
    )
    shown = evidence_view(item, document_text={"d1": "Does He Love You is a song.", "d2": "Other."}.get).plain
    assert "▸" not in shown and "x: the" not in shown and "] [:" not in shown
    assert "Does He Love You is a song." in shown


async def test_brackets_without_a_corpus_say_what_they_would_do(tmp_path):
    from tests.tui_helpers import review_app

    item = cg.EvalItem(id="b1", question="Does aspirin reduce fever?", meta={"gold_documents": [["d1", 1], ["d2", 2]]})
    async with review_app(tmp_path, "beir", evalset=cg.EvalSet(id="beir", items=(item,)), size=(100, 30)) as (app, pilot, _):
        await pilot.press("]")
        await pilot.pause()
        said = [str(n.message) for n in app._notifications]
        assert "This question has no quote; with --corpus, ] and [ go through its documents." in said, said


def test_a_long_document_is_shown_as_the_part_around_its_quote():
    """x on a 225 MB document built a view of all of it: five minutes and 3 GB, and the quit key unheard meanwhile."""
    from reviewtui.tui.screens.document import shown_part

    line = "alpha beta gamma delta epsilon zeta eta theta.\n"
    before = line * 40_000
    quote = "The unique needle sentence."
    text = before + quote + "\n" + line * 40_000
    span = cg.Span("d.md", len(before), len(before) + len(quote))
    start, end = shown_part(text, span, limit=100_000)
    assert start <= span.start and span.end <= end and end - start <= 100_000 + 10_000
    assert text[start - 1] == "\n" and text[end] == "\n"  # cut at line ends
    assert shown_part(text, None, limit=100_000)[0] == 0  # no quote: from the start
    assert shown_part("short text", span) == (0, 10)


async def test_the_whole_document_screen_holds_only_the_part_it_shows(tmp_path):
    from textual.widgets import TextArea

    from reviewtui.tui.screens.document import DOCUMENT_SHOWN, DocumentScreen
    from tests.tui_helpers import review_app

    line = "alpha beta gamma delta epsilon zeta eta theta.\n"
    before = line * (DOCUMENT_SHOWN // len(line) * 3)
    quote = "THE QUOTE ITSELF."
    text = before + quote + "\n" + line * 1000
    async with review_app(tmp_path, "doc", evalset=cg.EvalSet(id="doc", items=(cg.EvalItem(id="q", question="Where?"),))) as (app, pilot, _):
        await app.push_screen(DocumentScreen("d.md", text, cg.Span("d.md", len(before), len(before) + len(quote))))
        await pilot.pause()
        area = app.screen.query_one("#document", TextArea)
        assert len(area.text) <= DOCUMENT_SHOWN * 1.1 and quote in area.text
        assert area.selected_text == quote
        title = str(app.screen.query_one(".box-title").render())
        assert f"{len(text):,} characters" in title and "the part around the quote" in title


async def test_x_on_a_quote_not_found_says_so(tmp_path):
    from reviewtui.evalset.evidence.corpus import Corpus
    from tests.tui_helpers import fixed_scan, make_app, open_session, settle

    items = (
        cg.EvalItem(id="q1", question="How long is a loan?", anchors=(cg.GoldAnchor("rules.md", "Loans run for two weeks."),)),
        cg.EvalItem(id="q2", question="Who may borrow?", anchors=(cg.GoldAnchor("rules.md", "Words nowhere in the rules."),)),
    )
    session = open_session(tmp_path, cg.EvalSet(id="x", items=items))
    app = make_app(session, scan=fixed_scan(), corpus=Corpus.from_texts({"rules.md": "Members borrow. Loans run for two weeks."}))
    try:
        async with app.run_test(size=(100, 30), notifications=True) as pilot:
            await settle(pilot, app)
            await pilot.press("x")
            await pilot.pause()
            assert type(app.screen).__name__ == "DocumentScreen"
            assert not any("not found in its document" in str(n.message) for n in app._notifications)
            await pilot.press("escape", "right")
            await pilot.pause()
            await pilot.press("x")
            await pilot.pause()
            assert type(app.screen).__name__ == "DocumentScreen"
            assert any("This quote was not found in its document" in str(n.message) for n in app._notifications)
    finally:
        session.close()


def test_the_context_of_a_quote_in_a_cr_lf_document_ends_without_a_stray_cr():
    """The context ended at the LF of its last line's CR LF: the CR, alone, was drawn as a stand-in, ␍, at the
    end of every context in a document saved on Windows, as if the document held a stray control character."""
    text = "before one\r\nbefore two\r\nthe quote here\r\nafter one\r\nafter two\r\n" + "more\r\n" * 20
    start = text.index("the quote")
    plain = render.context_view(text, start, start + len("the quote here")).plain
    assert "␍" not in plain
    assert "after two" in plain


def test_a_quote_too_long_to_draw_shows_its_end_too():
    """A quote over 20,000 characters was cut after them: its last words, where the answer was, could not be
    seen in the pane at all. Its start and end show now, with what lies between counted and where to read it."""
    quote = "The quick brown fox jumps over the lazy dog. " * 1111 + "The answer is UNIQUEEND"
    item = cg.EvalItem(id="big1", question="What is the answer?", anchors=[cg.GoldAnchor("doc", quote)], answer="UNIQUEEND")
    plain = render.evidence_view(item).plain
    assert plain.startswith("▶ quote 1/1") and "The quick brown fox" in plain
    assert "The answer is UNIQUEEND”" in plain
    left_out = len(quote) - 20_000
    assert f" … [{left_out:,} of {len(quote):,} characters left out here; e shows the whole quote] … " in plain
    short = cg.EvalItem(id="s", question="Q?", anchors=[cg.GoldAnchor("doc", "a short quote")])
    assert "left out" not in render.evidence_view(short).plain


async def test_x_on_a_relevant_document_that_cannot_be_read_says_why(tmp_path):
    """x said "no document 'd2' in the corpus (2 documents)" of a document whose corpus.jsonl line has no text."""
    from reviewtui.evalset.evidence.corpus import Corpus
    from tests.tui_helpers import review_app

    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text('{"_id": "d1", "text": "Aspirin lowers fever."}\n{"_id": "d2", "text": null}\n', encoding="utf-8")
    item = cg.EvalItem(id="q1", question="Does aspirin reduce fever?", meta={"gold_documents": [["d2", 1]]})
    async with review_app(tmp_path, "beir", evalset=cg.EvalSet(id="beir", items=(item,)), corpus=Corpus(corpus)) as (app, pilot, _):
        await pilot.press("x")
        await pilot.pause()
        said = [str(n.message) for n in app._notifications]
        assert "document 'd2' is in the corpus but could not be read: corpus.jsonl:2: `text` is null" in said, said

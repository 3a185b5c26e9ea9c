"""With a corpus, each quote is shown where it stands in its document, and edits are re-checked at once."""

from __future__ import annotations

import reviewtui as cg
from reviewtui.evalset.evidence.corpus import Corpus
from tests.tui_helpers import fixed_scan, make_app, open_session, screen_text, settle

HANDBOOK = (
    "Leave policy\n\nFull-time staff accrue 1.5 days of leave per month.\n"
    "Part-time staff accrue leave pro rata.\n\nSick days are separate from leave.\x1b[2J\n"
)


def corpus_and_set():
    corpus = Corpus.from_texts({"handbook.md": HANDBOOK, "notes.md": "[b]Nothing[/b] here."})
    items = (
        cg.EvalItem(
            id="found",
            question="How much leave do full-time staff accrue?",
            anchors=(cg.GoldAnchor("handbook.md", "Full-time staff accrue 1.5 days of leave per month."),),
        ),
        cg.EvalItem(
            id="missing",
            question="How many sick days are there?",
            anchors=(cg.GoldAnchor("handbook.md", "Employees receive ten paid sick days every year."),),
        ),
    )
    return corpus, cg.EvalSet(id="ctx", items=items)


async def test_context_match_kind_document_and_requote(tmp_path):
    corpus, evalset = corpus_and_set()
    session = open_session(tmp_path, evalset)
    app = make_app(session, scan=fixed_scan(), corpus=corpus)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            text = screen_text(app)
            assert "found exactly" in text
            assert "Part-time staff accrue leave pro rata." in text  # the lines around the quote
            assert "␛[2J" in text and "\x1b" not in text  # corpus text is made safe too
            evidence = app.screen.query_one("#evidence-pane").content
            highlighted = [evidence.plain[s.start : s.end] for s in evidence.spans if "accent-muted" in str(s.style)]
            assert "Full-time staff accrue 1.5 days of leave per month." in highlighted

            await pilot.press("x")
            await pilot.pause()
            area = app.screen.query_one("#document")
            assert area.selected_text == "Full-time staff accrue 1.5 days of leave per month."
            await pilot.press("escape")

            await pilot.press("right")
            text = screen_text(app)
            assert "NOT FOUND in the document" in text
            assert "evidence-not-found" in text  # the flag from the corpus lookup

            # editing the quote to the real sentence is checked at once
            await pilot.press("e")
            app.screen.query_one("#edit-quote").load_text("Sick days are separate from leave.")
            await pilot.press("ctrl+s")
            await pilot.pause()
            await pilot.press("g", *"missing", "enter")
            assert "found exactly" in screen_text(app)
    finally:
        session.close()


async def test_an_edited_quote_that_took_its_span_says_so(tmp_path):
    """The span located for the old words is dropped with them (see queue.gold_of_kept_quotes): the reviewer
    is told, and how the new quote gets one."""
    quote = "Full-time staff accrue 1.5 days of leave per month."
    start = HANDBOOK.index(quote)
    item = cg.EvalItem(
        id="located",
        question="How much leave do full-time staff accrue?",
        gold=(cg.GoldSpan(span=cg.Span("handbook.md", start, start + len(quote))),),
        anchors=(cg.GoldAnchor("handbook.md", quote),),
    )
    session = open_session(tmp_path, cg.EvalSet(id="ctx", items=(item,)))
    app = make_app(session, scan=fixed_scan())
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            await pilot.press("e")
            app.screen.query_one("#edit-quote").load_text("Part-time staff accrue leave pro rata.")
            await pilot.press("ctrl+s")
            await pilot.pause()
            said = [str(n.message) for n in app._notifications]
            assert any("located span (1) went with the old words" in message for message in said), said
            assert session.queue.shown(0).gold == ()
    finally:
        session.close()

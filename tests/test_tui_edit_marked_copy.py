"""A quote placed at the copy its item's gold marks keeps that copy when the reviewer corrects it in the app."""

from __future__ import annotations

import reviewtui as cg
from reviewtui.evalset.evidence.corpus import Corpus
from reviewtui.evalset.evidence.resolve import AnchorResolver
from tests.tui_helpers import fixed_scan, make_app, open_session, settle

SNIPPET = "to the extent you have purchased a voucher offered by aBusiness Partner;"
# The snippet's text is also earlier in the file, inside another passage (privacy_qa's lb80, Groupon.txt).
POLICY = (
    f"We share information with relevant partners: with whom we offer products; {SNIPPET}\n"
    "with our vendors to provide services for us;\n"
    f"{SNIPPET}\n"
    "to comply with legal orders and government requests.\n"
)


async def test_a_corrected_legalbench_quote_stays_on_the_copy_its_gold_span_marked(tmp_path):
    """privacy_qa's lb80: a LegalBench-RAG snippet (no occurrence, the file having no text to count copies in) whose
    text is also earlier in its document is shown at its own gold span; a one-character correction ("aBusiness" to
    "a Business") dropped that span with the old words and kept occurrence 0, so the corrected quote moved to the
    first copy, another passage (inside another quote's span, where `resolve` then added no span for it: the gold
    passage was lost). README: a correction of the same passage still names the copy the set meant."""
    second = POLICY.index(SNIPPET, POLICY.index(SNIPPET) + 1)
    assert POLICY.index(SNIPPET) < second
    item = cg.EvalItem(
        id="lb80",
        question="Does it share my purchase information with others?",
        anchors=(cg.GoldAnchor("policy.txt", SNIPPET),),
        gold=(cg.GoldSpan(cg.Span("policy.txt", second, second + len(SNIPPET))),),
    )
    corpus = Corpus.from_texts({"policy.txt": POLICY})
    session = open_session(tmp_path, cg.EvalSet(id="lbrag", items=(item,)))
    app = make_app(session, scan=fixed_scan(), corpus=corpus)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            (before,) = app.resolutions_for(session.queue.shown(0))
            assert before.span is not None and before.span.start == second  # shown at its own span
            await pilot.press("e")
            await pilot.pause()
            app.screen.query_one("#edit-quote").load_text(SNIPPET.replace("aBusiness", "a Business"))
            await pilot.press("ctrl+s")
            await settle(pilot, app)
            edited = session.queue.shown(0)
            assert edited.anchors[0].quote != SNIPPET and not edited.gold  # the old words' span went with them
            assert edited.anchors[0].occurrence == 1
            (after,) = app.resolutions_for(edited)
            assert after.span is not None and after.span.start == second, after
            # resolve, as the export advises, gives the corrected quote its span at the copy the set meant
            resolved = AnchorResolver().resolve(cg.EvalSet(id="lbrag", items=(edited,)), corpus)
            (span,) = [entry.span for entry in resolved.items[0].gold]
            assert span.start == second
    finally:
        session.close()

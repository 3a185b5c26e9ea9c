"""`i` shows the item's meta and `p` the items its warnings name, without leaving the item."""

from __future__ import annotations

import reviewtui as cg
from reviewtui.evalset.model.flag import Flag, Severity
from reviewtui.tui.render import META_VALUE_LIMIT, meta_view, related_view
from tests.tui_helpers import fixed_scan, make_app, open_session, screen_text, settle


def _set() -> cg.EvalSet:
    return cg.EvalSet(
        id="s",
        items=(
            cg.EvalItem(id="q1", question="How long is a loan?", answer="Two weeks", meta={"Video": "[@click=app.quit]", "Timestamp": "01:02", "notes": "x" * 5000}),
            cg.EvalItem(id="q2", question="How long can a tool be borrowed?", answer="Three weeks", anchors=(cg.GoldAnchor(source_id="rules.md", quote="Loans last three weeks."),)),
        ),
    )


def test_meta_is_shown_safely_and_long_values_are_folded():
    text = meta_view(_set().get("q1")).plain
    assert "Video: [@click=app.quit]" in text and "Timestamp: 01:02" in text
    assert "x" * (META_VALUE_LIMIT + 10) not in text and "5,000" in text  # folded, saying how long it was
    nested = meta_view(cg.EvalItem(id="n", question="q?", meta={"answers": [{"text": "Rollo", "answer_start": 3}]})).plain
    assert 'answers: [{"text":"Rollo","answer_start":3}]' in nested
    assert "no meta" in meta_view(cg.EvalItem(id="e", question="q?")).plain


def test_related_items_show_question_answer_quote_and_verdict():
    q2 = _set().get("q2")
    text = related_view([("q2", q2, "accepted"), ("q9", None, None)]).plain
    assert "How long can a tool be borrowed?" in text and "Three weeks" in text and "Loans last three weeks." in text
    assert "accepted" in text and "not in this review" in text


async def test_the_keys_open_and_close_the_boxes(tmp_path):
    flags = {"q1": [Flag("conflicting-answers", Severity.HIGH, "asked again in q2 with another answer", ("q2",))]}
    session = open_session(tmp_path, _set())
    app = make_app(session, scan=fixed_scan(flags))
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            await pilot.press("i")
            await pilot.pause()
            assert "Meta of q1" in screen_text(app) and "[@click=app.quit]" in screen_text(app)
            await pilot.press("i")  # the same key closes it
            await pilot.pause()
            assert "Meta of q1" not in screen_text(app) and app.is_running
            await pilot.press("p")
            await pilot.pause()
            text = screen_text(app)
            assert "Items named by the warnings on q1" in text and "How long can a tool be borrowed?" in text
            await pilot.press("escape")
            await pilot.pause()
            assert session.queue.current.id == "q1"  # still on the item
            await pilot.press("right", "p")
            await pilot.pause()
            assert "No warning on this item names another item." in [n.message for n in app._notifications]
    finally:
        session.close()

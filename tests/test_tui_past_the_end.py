"""Past the last item the question pane says whether anything is left: it said "Nothing left to decide."
with eight of ten items still open, after `g 10` and →."""

from __future__ import annotations

from tests.tui_helpers import review_app, screen_text


async def test_past_the_last_item_the_pane_counts_what_is_still_open(tmp_path):
    async with review_app(tmp_path, "end", items=4) as (app, pilot, session):
        await pilot.press("a")  # q1 accepted
        await pilot.press("right", "right", "right")  # past q4, undecided like q2 and q3
        await pilot.pause()
        assert session.queue.current is None
        text = screen_text(app)
        assert "3 items are still undecided" in text and "Nothing left to decide" not in text
        # no item, so no "no problems found on this item" in the warnings pane
        assert "on this item" not in text and "no item here" in text
        await pilot.press("left")
        for _ in range(3):
            await pilot.press("a")  # q4, then q2 and q3 as the queue brings them up
        await pilot.pause()
        if session.queue.current is not None:
            await pilot.press("right")
            await pilot.pause()
        assert session.queue.stats().decided == 4
        assert "Nothing left to decide." in screen_text(app)


async def test_a_finished_review_opened_again_shows_its_summary(tmp_path):
    """Reopened, a finished review showed only "Nothing left to decide."; its summary was reachable by undoing a
    decision and redoing it."""
    import reviewtui as cg
    from tests.tui_helpers import fixed_scan, make_app, make_items, open_session, settle

    evalset = cg.EvalSet(id="done", items=make_items(2))
    first = open_session(tmp_path, evalset)
    first.accept()
    first.accept()
    assert first.queue.is_done
    first.close()
    again = open_session(tmp_path, evalset)
    app = make_app(again, scan=fixed_scan())
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            await pilot.pause()
            assert type(app.screen).__name__ == "SummaryScreen"
            assert again.queue.decided == 2
    finally:
        again.close()

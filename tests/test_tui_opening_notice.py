"""The headline a review opens with ("new review: ...", "resumed: ..."), where a reviewer reads it."""

from __future__ import annotations

import pytest

import reviewtui as cg
from reviewtui.evalset.io import write_jsonl
from reviewtui.evalset.review.session import ReviewSession
from reviewtui.tui.app import ReviewApp
from tests.tui_helpers import FakeClock, fixed_scan, make_items, screen_text, settle

HEADLINE = "new review: 5 questions to check"


@pytest.mark.parametrize(
    ("size", "notice"),
    [
        ((40, 15), False),  # a notice there covered half of every pane for its four seconds
        ((80, 24), False),  # and there the warnings pane
        ((99, 40), False),
        ((120, 29), False),
        ((100, 30), True),  # the full layout: the notice sits over the history pane
        ((160, 50), True),
    ],
)
async def test_the_opening_headline_is_a_notice_only_where_it_covers_no_pane_being_read(tmp_path, size, notice):
    path = write_jsonl(cg.EvalSet(id="day", items=make_items(5)), tmp_path / "day.jsonl")
    session = ReviewSession.open(path, reviewer="ana", clock=FakeClock())
    app = ReviewApp(session, scan=fixed_scan())
    try:
        async with app.run_test(size=size, notifications=True) as pilot:
            await settle(pilot, app)
            said = [str(n.message) for n in app._notifications if n.title == "reviewtui"]
            assert said == ([HEADLINE] if notice else [])
            # The status line says it either way, on its bottom line but one, after the position it must keep.
            line = screen_text(app).split("\n")[-2]
            assert line.startswith(" item 1 of 5  · new review"), line
            assert HEADLINE in line or size[0] < 60
    finally:
        session.close()

"""An adjudication lists each reviewer's decision by the key that takes it, as the settings map it.

With the adopt keys moved off the digits (``"review.adopt_1" = "j"``), the history pane still said "the reviewers
decided (a digit takes one): 1 ana, 2 bo" and the status line "1 ana ✓  2 bo ✗": the digit typed did nothing."""

from __future__ import annotations

from reviewtui.evalset.io import read_jsonl
from reviewtui.evalset.io.settings import AppConfig
from reviewtui.evalset.review.session import ReviewSession
from reviewtui.evalset.review.team import TeamPlan
from reviewtui.evalset.review.teamwork import ADJUDICATOR, disagreements, team_decisions
from reviewtui.tui import render
from reviewtui.tui.app import ReviewApp
from tests.test_team import _three_reviewers
from tests.tui_helpers import FakeClock, fixed_scan, screen_text, settle


async def test_the_votes_are_listed_by_their_remapped_keys_and_those_keys_take_them(tmp_path):
    path = _three_reviewers(tmp_path)
    plan = TeamPlan.load(path)
    decisions = team_decisions(plan, read_jsonl(path), path)
    disputed = disagreements(decisions)
    session = ReviewSession.open(
        path, reviewer="dee", team=plan, journal_path=plan.journal_for(ADJUDICATOR), only_ids=disputed, clock=FakeClock()
    )
    votes = {item_id: dict(sorted(decisions[item_id].items())) for item_id in disputed}
    config = AppConfig(keymap={"review.adopt_1": "j", "review.adopt_2": "k", "review.adopt_3": "l"})
    hints = dict(render.HINT_KEYS)
    app = ReviewApp(session, scan=fixed_scan(), votes=votes, config=config)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            assert session.queue.current.id == "q2"
            text = screen_text(app)
            assert "a digit takes" not in text and "(its key takes" in text
            assert "j ana" in text and "k bo" in text and "l chen" in text
            assert "1 ana" not in text
            await pilot.press("3")  # no longer a key of the adjudication
            await pilot.pause()
            assert session.queue.current.id == "q2" and session.queue.decision_for("q2") is None
            await pilot.press("l")  # chen's reject
            await pilot.pause()
            assert session.queue.decision_for("q2").taken_from == "chen"
    finally:
        session.close()
        render.HINT_KEYS.clear()
        render.HINT_KEYS.update(hints)  # the next app's own, as every app puts in its keys when it starts

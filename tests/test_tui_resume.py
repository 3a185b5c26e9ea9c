"""Review part of a set, quit, relaunch, finish, export: what a real day of reviewing looks like."""

from __future__ import annotations

import reviewtui as cg
from reviewtui.evalset.io import read_jsonl, write_jsonl
from reviewtui.evalset.review.session import ReviewSession
from reviewtui.tui.app import ReviewApp
from tests.tui_helpers import FakeClock, fixed_scan, make_items, screen_text, settle


async def test_partial_review_quit_relaunch_finish_export(tmp_path):
    path = write_jsonl(cg.EvalSet(id="day", items=make_items(5)), tmp_path / "day.jsonl")
    original = path.read_bytes()

    session = ReviewSession.open(path, reviewer="ana", clock=FakeClock())
    app = ReviewApp(session, scan=fixed_scan())
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        await pilot.press("a", "r", "1", "enter", "m", "4")
        await pilot.press("ctrl+q")
    session.close()
    assert app.return_code == 0

    session = ReviewSession.open(path, reviewer="ana", clock=FakeClock())
    assert session.resume_report.headline.startswith("resumed: 3 of 5 decided")
    app = ReviewApp(session, scan=fixed_scan())
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        assert "resumed: 3 of 5 decided" in screen_text(app)
        assert session.queue.current.id == "q4"  # exactly where it stopped
        await pilot.press("s", "a")
        await pilot.pause()
        assert "All 5 items have a decision" in screen_text(app)
        await pilot.press("e")
        await pilot.pause()
    session.close()

    exported = read_jsonl(tmp_path / "day.v2.jsonl")
    assert [item.id for item in exported] == ["q1", "q3", "q5"]
    assert [item.meta["verdict"] for item in exported] == ["accepted", "edited", "accepted"]
    assert exported.get("q3").qtype == "numeric"
    assert exported.version == 2
    assert path.read_bytes() == original  # the input file is never written

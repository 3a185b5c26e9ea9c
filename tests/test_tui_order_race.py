"""f between a finished check and the order worked out from it."""

from __future__ import annotations

import time


async def test_flagged_first_waits_for_the_order_of_the_scan_that_just_came_in(tmp_path, monkeypatch):
    """With --corpus, the lookup in first: its order (its items alone) is worked out; then the scan comes in, and its
    order is worked out off the UI thread. `f` pressed in between journaled the lookup's order alone, though both
    checks were in."""
    import reviewtui as cg
    import reviewtui.tui.app as app_module
    from reviewtui.evalset.evidence.corpus import Corpus
    from reviewtui.evalset.model.flag import Flag, Severity
    from reviewtui.tui.app import ReviewApp
    from reviewtui.tui.messages import ScanFinished
    from tests.tui_helpers import fixed_scan, open_session, settle

    items = tuple(cg.EvalItem(id=f"q{k}", question=f"Which tool has the number {k} on its tag?") for k in range(4))
    session = open_session(tmp_path, cg.EvalSet(id="s", items=items))
    app = ReviewApp(session, scan=fixed_scan(), corpus=Corpus.from_texts({"rules.md": "Loans run for two weeks."}))
    try:
        async with app.run_test(size=(120, 40), notifications=True) as pilot:
            await settle(pilot, app)
            # the lookup is in, with its order; the scan not yet
            app.view.flags = None
            app.view.evidence_flags = {"q2": [Flag("evidence-not-found", Severity.HIGH, "not in rules.md")]}
            app.view.flagged_order, app.view.flagged_ranked = [2], [(-int(Severity.HIGH), 2)]
            ranking = app_module.flagged_ranking

            def slow(*args):  # a large set's ranking takes a moment
                time.sleep(1.0)
                return ranking(*args)

            monkeypatch.setattr(app_module, "flagged_ranking", slow)
            app.post_message(ScanFinished({"q1": [Flag("too-short", Severity.MEDIUM, "short")]}, []))
            await pilot.pause()
            await pilot.press("f")
            await pilot.pause()
            assert session.queue.order is None, session.queue.order  # not (2, 0, 1, 3): q1's warning left out
            assert any("still being worked out" in str(n.message) for n in app._notifications)
            await settle(pilot, app)
            await pilot.press("f")
            await pilot.pause()
            assert tuple(session.queue.order[:2]) == (2, 1), session.queue.order
    finally:
        session.close()


async def test_an_order_that_failed_leaves_f_waiting_for_nothing(tmp_path, monkeypatch):
    """Should working out an order fail, no order answers its request: `f` said "still being worked out" for ever."""
    import reviewtui as cg
    import reviewtui.tui.app as app_module
    from reviewtui.evalset.model.flag import Flag, Severity
    from reviewtui.tui.app import ReviewApp
    from reviewtui.tui.messages import ScanFinished
    from tests.tui_helpers import fixed_scan, open_session, settle

    items = tuple(cg.EvalItem(id=f"q{k}", question=f"Which tool has the number {k} on its tag?") for k in range(4))
    session = open_session(tmp_path, cg.EvalSet(id="s", items=items))
    app = ReviewApp(session, scan=fixed_scan())
    try:
        async with app.run_test(size=(120, 40), notifications=True) as pilot:
            await settle(pilot, app)

            def broken(*args):
                raise RuntimeError("ranking failed")

            monkeypatch.setattr(app_module, "flagged_ranking", broken)
            app.post_message(ScanFinished({"q1": [Flag("too-short", Severity.MEDIUM, "short")]}, []))
            await settle(pilot, app)
            for _ in range(40):
                if not app.order_pending():
                    break
                await pilot.pause(0.05)
            assert not app.order_pending()
            await pilot.press("f")
            await pilot.pause()
            assert not any("still being worked out" in str(n.message) for n in app._notifications)
    finally:
        session.close()

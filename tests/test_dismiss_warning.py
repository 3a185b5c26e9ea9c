"""The reviewer's word on a warning: 'not a problem' is journaled, undoable, shown dimmed, and counted per check."""

from __future__ import annotations

import reviewtui as cg
from reviewtui.evalset.io import read_jsonl
from reviewtui.evalset.model.flag import Flag, Severity
from reviewtui.evalset.review.queue import ReviewQueue
from reviewtui.evalset.review.session import ReviewSession
from tests.tui_helpers import FakeClock, fixed_scan, make_app, make_items, open_session, screen_text, settle

FLAGS = {
    "q1": [Flag("too-short", Severity.MEDIUM, "3 words"), Flag("weak-answer", Severity.HINT, "short answer")],
    "q2": [Flag("near-duplicate", Severity.MEDIUM, "like q3", ("q3",)), Flag("too-short", Severity.MEDIUM, "2 words")],
    "q3": [Flag("too-short", Severity.MEDIUM, "2 words")],
}


def _lookup(item: cg.EvalItem) -> list[Flag]:
    return FLAGS.get(item.id, [])


def test_a_dismissal_toggles_and_undo_takes_it_back():
    queue = ReviewQueue(make_items(3), reviewer="ana")
    queue.apply(queue.plan_dismiss("too-short"))
    assert queue.dismissed_for("q1") == {"too-short"} and queue.dismissals == {"q1": frozenset({"too-short"})}
    queue.apply(queue.plan_undo())
    assert queue.dismissed_for("q1") == frozenset()
    queue.apply(queue.plan_redo())
    assert queue.dismissed_for("q1") == {"too-short"}
    queue.apply(queue.plan_dismiss("too-short"))  # again: taken back
    assert queue.dismissed_for("q1") == frozenset() and queue.current.id == "q1"  # the cursor stays


def test_decisions_record_the_open_warnings_and_the_tally_counts_them(tmp_path):
    session = open_session(tmp_path, cg.EvalSet(id="t", items=make_items(3)), reviewer="ana")
    with session:
        session.warnings_from(_lookup)
        session.dismiss("too-short")  # q1: not a problem
        session.accept()  # q1 accepted; nothing left open at low or above (the hint does not count)
        session.reject(reason="duplicate")  # q2: confirms both of its warnings
        session.accept()  # q3: accepted past too-short
        tally = session.queue.warning_tally()
        assert tally == {
            "near-duplicate": {"confirmed": 1, "dismissed": 0, "accepted": 0},
            "too-short": {"confirmed": 1, "dismissed": 1, "accepted": 1},
        }
        assert session.queue.decision_for("q1").flagged == ("too-short",)  # recorded; dismissed, so not counted as passed
        out = session.export()
    again = ReviewSession.open(session.input_path, reviewer="bo", clock=FakeClock())  # the journal replays it all
    with again:
        assert again.queue.dismissed_for("q1") == {"too-short"} and again.queue.warning_tally() == tally
        assert any("too-short: 1 confirmed, 1 dismissed, 1 accepted past" in line for line in again.status_lines())
    exported = read_jsonl(out)
    assert dict(exported.meta["review"])["warnings"] == tally
    assert exported.get("q1").meta["review"]["dismissed"] == ["too-short"]
    assert exported.get("q3").meta["review"]["flagged"] == ["too-short"]


def test_an_edit_that_fixes_a_warning_confirms_it(tmp_path):
    def lookup(item: cg.EvalItem) -> list[Flag]:  # as the app rechecks an edited question
        return [Flag("too-short", Severity.MEDIUM, "3 words")] if len(item.question.split()) < 4 else []

    items = (cg.EvalItem(id="q1", question="Saw loan rules?"), cg.EvalItem(id="q2", question="Drill rules?"))
    session = open_session(tmp_path, cg.EvalSet(id="t", items=items), reviewer="ana")
    with session:
        session.warnings_from(lookup)
        session.edit(question="How long may a member keep a borrowed saw?")  # q1: the edit fixes it
        session.accept()  # q2: accepted past it
        assert session.queue.decision_for("q1").flagged == ("too-short",)
        assert session.queue.warning_tally() == {"too-short": {"confirmed": 1, "dismissed": 0, "accepted": 1}}
        assert session.queue.decision_for("q1").warnings == ()  # nothing is left open on the edited question
        out = session.export()
    assert read_jsonl(out).get("q1").meta["review"]["flagged"] == ["too-short"]


async def test_w_dismisses_the_warning_and_it_stays_visible_dimmed(tmp_path):
    session = open_session(tmp_path, cg.EvalSet(id="w", items=make_items(3)))
    app = make_app(session, scan=fixed_scan(FLAGS))
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            await pilot.press("w")  # q1 has one warning at low or above: no question asked
            await pilot.pause()
            assert session.queue.dismissed_for("q1") == {"too-short"}
            text = screen_text(app)
            assert "too-short" in text and "not a problem" in text
            await pilot.press("u")
            await pilot.pause()
            assert session.queue.dismissed_for("q1") == frozenset()
            await pilot.press("right", "w")  # q2 has two: a picker
            await pilot.pause()
            assert type(app.screen).__name__ == "WarningPickerScreen"
            await pilot.press("1")
            await pilot.pause()
            assert session.queue.dismissed_for("q2") == {"near-duplicate"}
    finally:
        session.close()


def test_a_second_edit_keeps_the_first_edits_confirmation(tmp_path):
    def lookup(item: cg.EvalItem) -> list[Flag]:
        return [Flag("too-short", Severity.MEDIUM, "3 words")] if len(item.question.split()) < 4 else []

    items = (cg.EvalItem(id="q1", question="Saw loan rules?"),)
    session = open_session(tmp_path, cg.EvalSet(id="t", items=items), reviewer="ana")
    with session:
        session.warnings_from(lookup)
        session.edit(question="How long may a member keep a borrowed saw?")  # fixes too-short
        session.goto("q1")
        session.edit(answer="Two weeks")  # a second edit of the fixed question replaces the first decision
        assert session.queue.warning_tally() == {"too-short": {"confirmed": 1, "dismissed": 0, "accepted": 0}}


async def test_a_dismissed_warning_the_review_settled_since_can_still_be_taken_back(tmp_path):
    """Dismissed on q1, then settled by rejecting q2: the pane offered 'w takes it back', and w said there was
    no warning to dismiss."""
    pair = {
        "q1": [Flag("conflicting-answers", Severity.HIGH, "asks the same question as 'q2'", ("q2",))],
        "q2": [Flag("conflicting-answers", Severity.HIGH, "asks the same question as 'q1'", ("q1",))],
    }
    session = open_session(tmp_path, cg.EvalSet(id="w", items=make_items(3)))
    app = make_app(session, scan=fixed_scan(pair))
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            await pilot.press("w")
            await pilot.pause()
            assert session.queue.dismissed_for("q1") == {"conflicting-answers"}
            session.goto("q2")
            session.reject(reason="wrong-answer")
            session.goto("q1")
            app.refresh_review()
            await pilot.pause()
            (shown,) = app.item_flags(session.queue.current)
            assert shown.severity is Severity.HINT  # settled
            await pilot.press("w")
            await pilot.pause()
            assert session.queue.dismissed_for("q1") == frozenset()
    finally:
        session.close()

"""A long review opens behind the question it ended on: shown at once, keys held until the review is open.

The opening's thread is given an ``open_session`` that waits for the test, so each test
sees the app while the review is still opening, then lets it finish (or fail).
"""

from __future__ import annotations

import threading

import pytest

import reviewtui as cg
from reviewtui.evalset.io import write_jsonl
from reviewtui.evalset.io.journal import read_journal
from reviewtui.evalset.review.loading import resume_preview
from reviewtui.evalset.review.session import ReviewSession
from reviewtui.tui.app import ReviewApp
from reviewtui.tui.opening import Opening, OpeningScreen
from reviewtui.tui.screens.review import ReviewScreen
from tests.tui_helpers import FakeClock, fixed_scan, make_items, screen_text, settle


@pytest.fixture
def reviewed(tmp_path):
    """A set file, and a journal that ended (closed) on q3 after two decisions."""
    path = write_jsonl(cg.EvalSet(id="long", items=make_items(6)), tmp_path / "long.jsonl")
    with ReviewSession.open(path, reviewer="ana", clock=FakeClock()) as session:
        session.accept()
        session.skip()
        assert session.queue.current.id == "q3"
        journal = session.journal_path
    return path, journal


class Gate:
    """``open_session`` for an Opening that waits until the test lets it go, then opens (or raises)."""

    def __init__(self, path, error: BaseException | None = None) -> None:
        self.path = path
        self.error = error
        self.go = threading.Event()
        self.progress_told = 0

    def __call__(self, progress, replay_progress):
        progress(0, 100)
        self.progress_told += 1
        assert self.go.wait(10), "the test never let the opening go"
        if self.error is not None:
            raise self.error
        return ReviewSession.open(
            self.path, reviewer="ana", clock=FakeClock(), progress=progress, replay_progress=replay_progress, progressive=True
        )


def _app(reviewed, gate):
    path, journal = reviewed
    preview = resume_preview(path, journal, from_bytes=0)
    assert preview is not None and preview.id == "q3"
    opening = Opening(gate, preview, path.name)
    return ReviewApp(None, scan=fixed_scan(), opening=opening), opening


async def _until(pilot, condition, what):
    for _ in range(200):
        if condition():
            return
        await pilot.pause(0.02)
    raise AssertionError(f"never happened: {what}")


async def test_the_last_question_shows_at_once_and_keys_wait_for_the_review(reviewed):
    gate = Gate(reviewed[0])
    app, opening = _app(reviewed, gate)
    async with app.run_test(size=(120, 40)) as pilot:
        await _until(pilot, lambda: gate.progress_told, "the opening started")
        assert isinstance(app.screen, OpeningScreen) and app.session is None
        text = screen_text(app)
        assert "Question number 3 about the handbook policy?" in text and "Sentence 3 of the handbook." in text
        assert "keys wait until it is open" in text
        await pilot.press("a", "r", "2", "enter")  # accept q3, reject q4 with the second reason: held for now
        assert app.session is None and len(read_journal(reviewed[1]).records) > 0
        decided_before = sum(1 for _, p in read_journal(reviewed[1]).records if p.get("op") == "decide")
        gate.go.set()
        await _until(pilot, lambda: isinstance(app.screen, ReviewScreen), "the review screen took over")
        await _until(pilot, lambda: app.session.queue.stats().decided == 4, "the held keys were handled")
        await settle(pilot, app)
        queue = app.session.queue
        assert queue.decision_for("q3").verdict.value == "accepted"
        assert queue.decision_for("q4").verdict.value == "rejected" and queue.decision_for("q4").reason is not None
        assert queue.current.id == "q5"
        decided = [p["id"] for _, p in read_journal(reviewed[1]).records if p.get("op") == "decide"]
        assert len(decided) == decided_before + 2 and decided[-2:] == ["q3", "q4"]
        await pilot.press("ctrl+q")
    assert app.return_code == 0
    opening.wait().close()


async def test_an_error_while_opening_closes_the_app_for_the_command_line_to_report(reviewed):
    error = cg.EvalSetError("line 9 is not an item", path="long.jsonl", line=9)
    gate = Gate(reviewed[0], error=error)
    app, opening = _app(reviewed, gate)
    async with app.run_test(size=(120, 40)) as pilot:
        await _until(pilot, lambda: gate.progress_told, "the opening started")
        await pilot.press("a")  # held, then dropped with the app: nothing is written
        gate.go.set()
        await _until(pilot, lambda: app.return_code is not None, "the app closed")
    assert app.return_code == 2 and app.load_error is error
    assert opening.wait() is None and opening.error is error


async def test_quitting_while_it_opens_leaves_the_session_to_the_command_line(reviewed):
    gate = Gate(reviewed[0])
    app, opening = _app(reviewed, gate)
    async with app.run_test(size=(120, 40)) as pilot:
        await _until(pilot, lambda: gate.progress_told, "the opening started")
        await pilot.press("a", "ctrl+q")  # the accept waits; quitting does not
        await _until(pilot, lambda: app.return_code is not None, "the app closed")
    assert app.return_code == 0
    assert app.keys_not_used == 1  # the command line says so (cli/review.py)
    gate.go.set()
    session = opening.wait()  # what the command line does after the app: wait, then close what was opened
    assert session is not None and session.queue.decided == 2  # the held accept was never made
    session.close()
    assert session.closed
    with ReviewSession.open(reviewed[0], reviewer="ana") as again:  # the lock was given back
        assert again.queue.current.id == "q3"


def test_an_app_gets_a_session_or_an_opening(reviewed):
    with pytest.raises(ValueError):
        ReviewApp(None)


async def test_a_key_typed_while_the_review_screen_comes_up_waits_behind_the_held_ones(reviewed):
    from textual import events

    class KeyDuringPush(ReviewApp):
        async def push_screen(self, screen, *args, **kwargs):
            if isinstance(screen, ReviewScreen):  # the terminal delivers the next key right then
                self.post_message(events.Key("s", "s"))
            return await super().push_screen(screen, *args, **kwargs)

    path, journal = reviewed
    gate = Gate(path)
    opening = Opening(gate, resume_preview(path, journal, from_bytes=0), path.name)
    app = KeyDuringPush(None, scan=fixed_scan(), opening=opening)
    async with app.run_test(size=(120, 40)) as pilot:
        await _until(pilot, lambda: gate.progress_told, "the opening started")
        await pilot.press("a")  # held: accept q3, the question on screen
        gate.go.set()
        await _until(pilot, lambda: app.session is not None and app.session.queue.stats().decided == 4, "both keys")
        await settle(pilot, app)
        queue = app.session.queue
        assert queue.decision_for("q3").verdict.value == "accepted"  # typed first, handled first
        assert queue.decision_for("q4").verdict.value == "skipped"
        await pilot.press("ctrl+q")
    opening.wait().close()


async def test_keys_typed_for_the_question_shown_are_not_used_on_another(tmp_path):
    items = tuple(
        cg.EvalItem(id=f"q{i}", question=f"Question {i}?", answer="a", meta={"reviewed": True} if i == 5 else {})
        for i in range(1, 7)
    )
    path = write_jsonl(cg.EvalSet(id="s", items=items), tmp_path / "s.jsonl")
    with ReviewSession.open(path, reviewer="ana", clock=FakeClock()) as session:
        session.accept()  # q1
    with ReviewSession.open(path, reviewer="ana", clock=FakeClock(), include_reviewed=True) as session:
        session.goto("q5")  # an item marked reviewed, seen with --all: the journal ends on it
    journal = tmp_path / "s.jsonl.reviewtui-journal"
    preview = resume_preview(path, journal, from_bytes=0)
    assert preview.id == "q5"
    gate = Gate(path)  # opened without --all: q5 is not in the review, and the cursor lands elsewhere
    opening = Opening(gate, preview, path.name)
    app = ReviewApp(None, scan=fixed_scan(), opening=opening)
    async with app.run_test(size=(120, 40)) as pilot:
        await _until(pilot, lambda: gate.progress_told, "the opening started")
        await pilot.press("r", "2", "enter")  # meant for q5
        gate.go.set()
        await _until(pilot, lambda: isinstance(app.screen, ReviewScreen), "the review screen took over")
        await settle(pilot, app)
        assert app.session.queue.current.id == "q2"
        assert app.session.queue.stats().decided == 1  # only q1, from before: q2 was not rejected for q5
        assert any("the keys typed meanwhile were not used" in str(n.message) for n in app._notifications)
        await pilot.press("a")  # keys typed now go to the question on screen
        await _until(pilot, lambda: app.session.queue.stats().decided == 2, "a key after the opening")
        assert app.session.queue.decision_for("q2").verdict.value == "accepted"
        await pilot.press("ctrl+q")
    opening.wait().close()


def test_an_opening_whose_app_has_closed_finishes_quietly(reviewed):
    path, _ = reviewed

    def closed_app(message):
        raise RuntimeError("Event loop is closed")  # what posting to an app that has just closed can raise

    opening = Opening(lambda progress, replay: ReviewSession.open(path, reviewer="ana", progress=progress), None, "x")
    opening.start(closed_app)
    session = opening.wait()
    assert opening.error is None and session is not None
    session.close()


async def test_keys_typed_for_a_preview_that_lacks_the_review_s_decision_are_not_used(tmp_path):
    path = write_jsonl(cg.EvalSet(id="long", items=make_items(6)), tmp_path / "long.jsonl")
    with ReviewSession.open(path, reviewer="ana", clock=FakeClock()) as session:
        session.accept()
        session.reject(reason="duplicate")
        session.goto("q2")  # back on the rejected item: the journal ends on it
    journal = session.journal_path
    preview = resume_preview(path, journal, from_bytes=0)
    assert preview.id == "q2"  # shown as in the file: no sign of its rejection
    gate = Gate(path)
    opening = Opening(gate, preview, path.name)
    app = ReviewApp(None, scan=fixed_scan(), opening=opening)
    async with app.run_test(size=(120, 40)) as pilot:
        await _until(pilot, lambda: gate.progress_told, "the opening started")
        await pilot.press("a")  # would replace the rejection the reviewer could not see
        gate.go.set()
        await _until(pilot, lambda: isinstance(app.screen, ReviewScreen), "the review screen took over")
        await settle(pilot, app)
        assert app.session.queue.current.id == "q2"
        assert app.session.queue.decision_for("q2").verdict.value == "rejected"
        assert any("the keys typed meanwhile were not used" in str(n.message) for n in app._notifications)
        await pilot.press("ctrl+q")
    opening.wait().close()


async def test_ctrl_c_is_answered_while_it_opens_and_nothing_moves_at_the_hand_over(reviewed):
    gate = Gate(reviewed[0])
    app, opening = _app(reviewed, gate)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await _until(pilot, lambda: gate.progress_told, "the opening started")
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert app.session is None and any("ctrl+q" in str(n.message) for n in app._notifications)  # not held
        panes = {name: app.screen.query_one(name).region for name in ("#question-pane", "#evidence-pane", "#flags")}
        gate.go.set()
        await _until(pilot, lambda: isinstance(app.screen, ReviewScreen), "the review screen took over")
        await settle(pilot, app)
        assert {name: app.screen.query_one(name).region for name in panes} == panes
        await pilot.press("ctrl+q")
    opening.wait().close()


async def test_time_on_the_previewed_question_counts_from_when_it_was_shown(reviewed):
    path, journal = reviewed
    now = [1_790_000_000.0]  # the session's clock stands still: what the decision records is the wait credited to it

    class StillClockGate(Gate):
        def __call__(self, progress, replay_progress):
            assert self.go.wait(10), "the test never let the opening go"
            return ReviewSession.open(self.path, reviewer="ana", clock=lambda: now[0], progressive=True)

    gate = StillClockGate(path)
    preview = resume_preview(path, journal, from_bytes=0)
    opening = Opening(gate, preview, path.name)
    app = ReviewApp(None, scan=fixed_scan(), opening=opening)
    async with app.run_test(size=(120, 40)) as pilot:
        await _until(pilot, lambda: opening.shown_at is not None, "the preview went up")
        await pilot.press("a")  # held while the review opens
        await pilot.pause(0.4)  # the reviewer reads the question meanwhile
        gate.go.set()
        await _until(pilot, lambda: app.session is not None and app.session.queue.stats().decided == 3, "the held key was handled")
        await pilot.press("ctrl+q")
    opening.wait().close()
    (last,) = [p for _, p in read_journal(journal).records if p.get("op") == "decide"][-1:]
    assert last["id"] == "q3" and last["secs"] >= 0.4

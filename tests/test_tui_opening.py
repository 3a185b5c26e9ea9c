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

"""A step the core refuses or cannot save is a notification; the app keeps running and stays put.

A full disk mid-review (JournalWriteError), an item that cannot be written to
the journal (meta nested too deep), and positions typed with digits that are
not ASCII all leave the review where it was, say why, and crash nothing. A bug
in the app still ends it with a non-zero exit.
"""

from __future__ import annotations

import errno
import os

import pytest

import reviewtui as cg
from reviewtui.evalset.io import journal as journal_module
from reviewtui.evalset.model.items import EvalSetError
from reviewtui.evalset.review.queue import Verdict
from reviewtui.evalset.review.session import ReviewSession
from reviewtui.evalset.text.safe import has_unsafe
from reviewtui.tui.screens.review import resolve_target
from tests.tui_helpers import (
    FakeClock,
    fixed_scan,
    make_app,
    make_items,
    open_session,
    screen_text,
    settle,
)


def notifications(app) -> list:
    return list(app._notifications)


# ---- positions: ASCII digits only ----------------------------------------------------------------


@pytest.fixture
def queue(tmp_path):
    session = open_session(tmp_path, cg.EvalSet(id="pos", items=make_items(5)))
    yield session.queue
    session.close()


@pytest.mark.parametrize("typed", ["²", "#²", "³", "٣", "#٣", "١٢", "１", "#１", "৩", "𝟛", "3²"])
def test_a_position_is_ascii_digits_only(queue, typed):
    # str.isdigit() says yes to all of these; int() refuses some and reads others as numbers
    with pytest.raises(EvalSetError, match="no item with id"):
        resolve_target(queue, typed)


def test_ascii_positions_still_work(queue):
    assert resolve_target(queue, "3") == 2 and resolve_target(queue, " #5 ") == 4
    with pytest.raises(EvalSetError, match="no position 6"):
        resolve_target(queue, "6")


async def test_goto_a_superscript_digit_is_a_message_not_a_crash(tmp_path):
    session = open_session(tmp_path, cg.EvalSet(id="sup", items=make_items(3)))
    app = make_app(session, scan=fixed_scan())
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app)
            await pilot.press("g", "²", "enter")
            await pilot.pause()
            assert app.is_running and session.queue.current.id == "q1"
            assert "no item with id '²'" in str(app.screen.query_one("#goto-problem").render())
    finally:
        session.close()


# ---- a full disk mid-review -------------------------------------------------------------------------


class FullDisk:
    """The journal's ``os`` with every write failing as on a full disk (the rest is the real os)."""

    def __getattr__(self, name: str):
        return getattr(os, name)

    @staticmethod
    def write(fd: int, data: bytes) -> int:
        raise OSError(errno.ENOSPC, "No space left on device \x1b[2J[@click=app.quit]x[/]")


async def test_a_step_not_saved_is_said_plainly_and_nothing_moves(tmp_path, monkeypatch):
    session = open_session(tmp_path, cg.EvalSet(id="full", items=make_items(4)))
    app = make_app(session, scan=fixed_scan())
    queue = session.queue
    try:
        async with app.run_test(size=(110, 40), notifications=True) as pilot:
            await settle(pilot, app)
            await pilot.press("a")
            assert queue.decided == 1 and queue.current.id == "q2"
            monkeypatch.setattr(journal_module, "os", FullDisk())
            for keys in (["a"], ["s"], ["r", "enter"], ["n", "x", "enter"], ["e", "x", "ctrl+s"], ["u"], ["right"], ["g", "q", "4", "enter"]):
                app._notifications.clear()
                await pilot.press(*keys)
                await pilot.pause()
                assert app.is_running, keys
                assert queue.current.id == "q2" and queue.decided == 1, keys  # nothing applied, nothing advanced
                assert queue.note_for("q2") == "" and queue.verdict_for(0) is Verdict.ACCEPTED
                errors = [n for n in notifications(app) if n.severity == "error"]
                assert errors, keys
                assert "NOT saved" in errors[-1].title and "No space left on device" in errors[-1].message
                assert not has_unsafe(errors[-1].message) and "[@click=app.quit]x[/]" in errors[-1].message
                assert not has_unsafe(screen_text(app))
                if keys[0] in ("n", "e"):  # the dialog came back with what was typed: thrown away here
                    assert app.screen is not app.review_screen, keys
                    await pilot.press("escape", "escape")
                    await pilot.pause()
                assert app.screen is app.review_screen, keys
            monkeypatch.undo()
            await pilot.press("a")  # the disk has room again: the same key works
            assert queue.decided == 2 and queue.current.id == "q3"
    finally:
        session.close()


async def test_an_edit_a_note_or_a_reject_note_not_saved_comes_back_as_typed_and_saves_once_there_is_room(tmp_path, monkeypatch):
    """The dialog closed on a full disk and what was typed in it was gone: the reviewer had to type it again."""
    from textual.widgets import Select

    from reviewtui.tui.screens.dialogs import NoteScreen
    from reviewtui.tui.screens.edit import EditScreen
    from reviewtui.tui.widgets.editors import SafeInput, SafeTextArea

    session = open_session(tmp_path, cg.EvalSet(id="full", items=make_items(3)))
    app = make_app(session, scan=fixed_scan())
    queue = session.queue
    question = queue.current.question
    try:
        async with app.run_test(size=(110, 40), notifications=True) as pilot:
            await settle(pilot, app)
            monkeypatch.setattr(journal_module, "os", FullDisk())
            await pilot.press("e", "end", *" and why", "ctrl+s")
            await pilot.pause()
            assert queue.current.id == "q1" and queue.decided == 0  # not made
            assert isinstance(app.screen, EditScreen)  # but the dialog is back, holding the edit
            assert app.screen.query_one("#edit-question", SafeTextArea).text == question + " and why"
            assert isinstance(app.screen.query_one("#edit-type", Select).value, int)
            monkeypatch.undo()  # room again: saving now makes the edit
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert app.screen is app.review_screen
            decision = queue.decision_for("q1")
            assert decision is not None and decision.after is not None and decision.after.question == question + " and why"

            monkeypatch.setattr(journal_module, "os", FullDisk())
            here = queue.current.id
            await pilot.press("n", *"see page 4", "enter")
            await pilot.pause()
            assert isinstance(app.screen, NoteScreen)
            assert app.screen.query_one("#note", SafeInput).value == "see page 4"
            monkeypatch.undo()
            await pilot.press("enter")
            await pilot.pause()
            assert app.screen is app.review_screen and queue.note_for(here) == "see page 4"

            monkeypatch.setattr(journal_module, "os", FullDisk())
            picker = app.review_screen.reason_picker
            await pilot.press("r", "2", *"two sources", "enter")
            await pilot.pause()
            assert queue.current.id == here and queue.decision_for(here) is None
            assert picker.is_open and picker.query_one("#note", SafeInput).value == "two sources"
            monkeypatch.undo()
            await pilot.press("enter")
            await pilot.pause()
            rejected = queue.decision_for(here)
            assert not picker.is_open and rejected is not None and rejected.note == "two sources"
            assert rejected.reason is not None and rejected.reason.value == app.review_screen.reason_picker._reasons[1][0]
    finally:
        session.close()


# ---- an item the journal cannot hold --------------------------------------------------------------


def nested(depth: int) -> dict:
    value: dict = {}
    for _ in range(depth):
        value = {"a": value}
    return value


async def test_meta_nested_too_deep_is_a_message_not_a_crash(tmp_path):
    # The loader and the model now refuse such meta; model_construct stands in for any other way an
    # item the journal cannot serialise could reach a session.
    deep = cg.EvalItem.model_construct(id="deep", question="Q?", answer="A", meta={"deep": nested(300)})
    items = (deep, *make_items(2))
    session = ReviewSession.start(cg.EvalSet(id="deep", items=items), tmp_path / "journal", reviewer="t", clock=FakeClock())
    app = make_app(session, scan=fixed_scan())
    try:
        async with app.run_test(size=(110, 40)) as pilot:
            await settle(pilot, app)
            for keys in (["a"], ["e", "x", "ctrl+s"], ["r", "enter"]):
                app._notifications.clear()
                await pilot.press(*keys)
                await pilot.pause()
                assert app.is_running, keys
                assert session.queue.decided == 0 and session.queue.current.id == "deep", keys
                said = [n for n in notifications(app) if n.severity in ("warning", "error")]
                assert said, keys
            assert any("cannot be written to the journal" in n.message for n in said)  # the last one: r Enter
    finally:
        session.close()


async def test_a_bug_in_a_step_still_ends_the_app_with_an_error(tmp_path, monkeypatch):
    session = open_session(tmp_path, cg.EvalSet(id="bug", items=make_items(2)))

    def broken(note: str = "") -> None:
        raise RuntimeError("a programming error")

    monkeypatch.setattr(session, "accept", broken)
    app = make_app(session, scan=fixed_scan())
    try:
        with pytest.raises(RuntimeError, match="a programming error"):
            async with app.run_test(size=(100, 30)) as pilot:
                await settle(pilot, app)
                await pilot.press("a")
                await pilot.pause()
    finally:
        session.close()
    assert app.return_code == 1


async def test_a_batch_with_an_id_seen_before_closes_the_app_cleanly(tmp_path, monkeypatch):
    from reviewtui.evalset.io import write_jsonl
    from reviewtui.evalset.review import loading
    from reviewtui.tui.app import ReviewApp
    from reviewtui.tui.messages import SetBatch

    monkeypatch.setattr(loading, "OPENING_ITEMS", 3)
    path = write_jsonl(cg.EvalSet(id="big", items=make_items(20)), tmp_path / "big.jsonl")
    session = ReviewSession.open(path, reviewer="t", clock=FakeClock(), progressive=True)
    monkeypatch.setattr(ReviewApp, "_start_background", lambda self: None)  # batches come from the test
    app = make_app(session, scan=fixed_scan())
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            app.post_message(SetBatch(make_items(2), 0.5))  # q1 and q2 again
            await pilot.pause()
    finally:
        session.close()
    assert app.return_code == 2 and "twice" in str(app.load_error)

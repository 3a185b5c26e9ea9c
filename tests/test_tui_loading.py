"""The app on a set still being read: first question at once, the rest in a worker, a late bad line closes cleanly."""

from __future__ import annotations

import re
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from textual.app import App

import reviewtui as cg
from reviewtui.cli import main
from reviewtui.evalset.io import write_jsonl
from reviewtui.evalset.io.journal import read_journal
from reviewtui.evalset.review import loading
from reviewtui.evalset.review.session import ReviewSession
from reviewtui.tui.app import ReviewApp
from reviewtui.tui.messages import SetBatch, SetLoaded
from tests.tui_helpers import FakeClock, fixed_scan, make_items, screen_text, settle


@pytest.fixture
def small_opening(monkeypatch):
    monkeypatch.setattr(loading, "OPENING_ITEMS", 3)
    monkeypatch.setattr(loading, "LOADER_BATCH", 50)


def _set_file(tmp_path, n: int, *, bad_tail: bool = False):
    path = write_jsonl(cg.EvalSet(id="big", items=make_items(n)), tmp_path / "big.jsonl")
    if bad_tail:
        with path.open("a") as handle:
            handle.write('{"id": "late", "question": "Late?", "anwser": "typo"}\n')
    return path


@asynccontextmanager
async def _still_reading(tmp_path, monkeypatch, n: int):
    """The app on the first items of a set of ``n``, the rest left unread until a test posts it: (app, pilot, session)."""
    session = ReviewSession.open(_set_file(tmp_path, n), reviewer="ana", clock=FakeClock(), progressive=True)
    app = ReviewApp(session, scan=fixed_scan())
    monkeypatch.setattr(ReviewApp, "_start_background", lambda self: None)  # keep it "still reading"
    try:
        async with app.run_test(size=(120, 36)) as pilot:
            yield app, pilot, session
    finally:
        session.close()


async def test_the_app_opens_on_the_first_items_and_reads_the_rest(tmp_path, small_opening):
    path = _set_file(tmp_path, 400)
    session = ReviewSession.open(path, reviewer="ana", clock=FakeClock(), progressive=True)
    assert session.loading is not None and len(session.queue) == 3
    app = ReviewApp(session, scan=fixed_scan())
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("a")
        await settle(pilot, app)
        assert session.loading is None and len(session.queue) == 400
        assert session.queue.decision_for("q1") is not None and session.current.id == "q2"
        text = screen_text(app)
        assert "item 2 of 400" in text and "so far" not in text and "reading" not in text
        assert app.view.flags == {}  # the scan, held back while reading, ran on the whole set
    session.close()


async def test_nan_in_the_meta_of_an_item_read_late_is_said_once_the_set_is_read(tmp_path, small_opening):
    """The loader's thread warned nobody: the app's export then wrote null in place of the NaN without a word."""
    path = _set_file(tmp_path, 400)
    lines = path.read_text().splitlines()
    assert '"meta":{}' in lines[-1]
    lines[-1] = lines[-1].replace('"meta":{}', '"meta":{"score":NaN}')
    path.write_text("\n".join(lines) + "\n")
    session = ReviewSession.open(path, reviewer="ana", clock=FakeClock(), progressive=True)
    app = ReviewApp(session, scan=fixed_scan())
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, app)
        assert session.loading is None and len(session.queue) == 400
        said = [n for n in app._notifications if n.title == "reading the set"]
        assert len(said) == 1 and "NaN or infinite numbers in the meta of 1 item ('q400' on line" in str(said[0].message)
    session.close()


async def test_flagged_first_and_export_wait_for_the_whole_set(tmp_path, small_opening, monkeypatch):
    path = _set_file(tmp_path, 400)
    session = ReviewSession.open(path, reviewer="ana", clock=FakeClock(), progressive=True)
    app = ReviewApp(session, scan=fixed_scan())
    monkeypatch.setattr(ReviewApp, "_start_background", lambda self: None)  # keep it "still reading"
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        assert "item 1 of 3 so far" in screen_text(app) and re.search(r"reading ━+ \d+%", screen_text(app))
        await pilot.press("f", "ctrl+e")
        await pilot.pause()
        shown = " ".join(str(n.message) for n in app._notifications)
        assert "flagged first needs all of it" in shown and "export once it has loaded" in shown
        assert not list(tmp_path.glob("big.v*.jsonl"))
    session.close()


async def test_a_bad_line_found_while_reading_closes_the_app_with_the_error(tmp_path, small_opening):
    path = _set_file(tmp_path, 200, bad_tail=True)
    session = ReviewSession.open(path, reviewer="ana", clock=FakeClock(), progressive=True)
    app = ReviewApp(session, scan=fixed_scan())
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("a")
        for _ in range(200):  # the reader holds off a moment after a key (see loader_hold), then finds the line
            if app.load_error is not None:
                break
            await pilot.pause(0.05)
    session.close()
    assert app.return_code == 2
    assert app.load_error is not None and app.load_error.line == 202 and "anwser" in str(app.load_error)
    records = read_journal(session.journal_path).records
    assert [payload["id"] for _, payload in records if payload.get("op") == "decide"] == ["q1"]  # kept


def _session_whose_reading_fails(tmp_path: Path, error: BaseException) -> tuple[Path, ReviewSession]:
    """A progressive session on a 200-item set whose reader meets ``error`` after 20 more lines."""
    path = _set_file(tmp_path, 200)
    session = ReviewSession.open(path, reviewer="ana", clock=FakeClock(), progressive=True)
    reader = session.loading._reader
    lines = reader._lines

    def failing():
        for _ in range(20):
            yield next(lines)
        raise error

    reader._lines = failing()
    return path, session


async def _accept_one_until_the_app_stops(session: ReviewSession) -> ReviewApp:
    """Accept the first question, then wait (up to 10 s) for the failed reading to end the app."""
    app = ReviewApp(session, scan=fixed_scan())
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("a")
        for _ in range(200):
            if app.load_error is not None or not app.is_running:
                break
            await pilot.pause(0.05)
    session.close()
    records = read_journal(session.journal_path).records
    assert [payload["id"] for _, payload in records if payload.get("op") == "decide"] == ["q1"]  # kept
    return app


async def test_a_read_error_while_reading_the_rest_closes_the_app_with_the_error(tmp_path, small_opening):
    """An I/O error (a failing disk, a network share gone) while the rest of the set was read escaped the
    loader's thread: the app went on "reading" for ever, and export waited for a set that never came."""
    import errno
    import os

    path, session = _session_whose_reading_fails(tmp_path, OSError(errno.EIO, os.strerror(errno.EIO)))
    app = await _accept_one_until_the_app_stops(session)
    assert app.return_code == 2
    assert str(app.load_error) == f"{path}: cannot read: {os.strerror(errno.EIO)}"


async def test_a_bug_while_reading_the_rest_ends_the_app_as_an_internal_error(tmp_path, small_opening, monkeypatch):
    """Anything but a reviewtui error ended the loader's thread quietly: the review said "reading" for ever."""
    from reviewtui.tui import app as app_module

    reports = []
    monkeypatch.setattr(app_module, "write_crash_report", lambda error: reports.append(error) or tmp_path / "crash.txt")
    _, session = _session_whose_reading_fails(tmp_path, ZeroDivisionError("a bug"))
    app = await _accept_one_until_the_app_stops(session)
    assert app.return_code == 1 and app.load_error is None
    assert isinstance(app.crash, ZeroDivisionError) and reports == [app.crash]


def test_the_command_line_reports_a_late_bad_line_as_path_line_and_exit_2(tmp_path, small_opening, monkeypatch, capsys):
    path = _set_file(tmp_path, 200, bad_tail=True)
    monkeypatch.setattr(ReviewApp, "run", lambda self: App.run(self, headless=True))
    monkeypatch.setenv("REVIEWTUI_REVIEWER", "ana")
    assert main([str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"{path}:202: ") and "anwser" in err[0]


async def test_deciding_everything_read_so_far_waits_for_more_instead_of_the_summary(tmp_path, small_opening, monkeypatch):
    from reviewtui.tui.messages import SetBatch

    path = _set_file(tmp_path, 10)
    session = ReviewSession.open(path, reviewer="ana", clock=FakeClock(), progressive=True)
    app = ReviewApp(session, scan=fixed_scan())
    monkeypatch.setattr(ReviewApp, "_start_background", lambda self: None)  # batches are posted by hand below
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("a", "a", "a")
        await pilot.pause()
        assert session.current is None and type(app.screen).__name__ == "ReviewScreen"  # no summary yet
        app.post_message(SetBatch(session.loading.read_more(4), session.loading.fraction))
        await pilot.pause()
        assert session.current.id == "q4" and "q4" in screen_text(app)
    session.close()


async def test_the_top_bar_claims_no_share_done_of_a_set_still_being_read(tmp_path, small_opening, monkeypatch):
    """With only part of the set read, the top bar showed "100% 3/3" in the finished colour (and a resumed review
    "99% 15,000/15,037" with an ETA of the part read): the total is marked as partial, with no share and no ETA."""
    async with _still_reading(tmp_path, monkeypatch, 10) as (app, pilot, session):
        await pilot.press("a", "a", "a")
        await pilot.pause()
        bar = app.screen.query_one("#top-bar").text
        assert "3/3+" in bar and "100%" not in bar and "--%" in bar and "ETA" not in bar
        app.post_message(SetBatch(session.loading.read_more(100), session.loading.fraction))
        await pilot.pause()
        app.post_message(SetLoaded(session.loading.finish(), None))
        await settle(pilot, app)
        bar = app.screen.query_one("#top-bar").text
        assert "3/10 " in bar and "30%" in bar and "+" not in bar


async def test_a_search_while_the_set_is_read_says_it_searched_only_the_part_read(tmp_path, small_opening, monkeypatch):
    """"0 found" for an id further down a set still being read said the text was nowhere in the set."""
    async with _still_reading(tmp_path, monkeypatch, 10) as (app, pilot, session):
        await pilot.press("slash", *"q9", "enter")
        await settle(pilot, app)
        hint = str(app.screen.query_one("#search-hint").render())
        assert "0 found in the 3 read so far (still reading)" in hint
        await pilot.press("escape")
        await pilot.pause()
        app.post_message(SetBatch(session.loading.read_more(100), session.loading.fraction))
        await pilot.pause()
        app.post_message(SetLoaded(session.loading.finish(), None))
        await settle(pilot, app)
        await pilot.press("slash", "enter")  # the last words are kept in the field
        await settle(pilot, app)
        hint = str(app.screen.query_one("#search-hint").render())
        assert "1 found" in hint and "so far" not in hint


def test_go_to_says_when_an_item_may_not_have_been_read_yet():
    from reviewtui.evalset.model.items import EvalSetError
    from reviewtui.evalset.review.queue import ReviewQueue
    from reviewtui.tui.screens.review import resolve_target

    queue = ReviewQueue(make_items(3), reviewer="ana")
    with pytest.raises(EvalSetError, match=r"^no item with id 'q9'$"):
        resolve_target(queue, "q9")
    with pytest.raises(EvalSetError, match=r"no item with id 'q9' among the 3 read so far \(the rest"):
        resolve_target(queue, "q9", still_reading=True)
    with pytest.raises(EvalSetError, match=r"holds 1–3 read so far"):
        resolve_target(queue, "#7", still_reading=True)
    assert resolve_target(queue, "#2", still_reading=True) == 1
    # Said as typed, not as Python would write the string: a backslash was shown twice
    with pytest.raises(EvalSetError, match=r"^no item with id 'x\\y'$"):
        resolve_target(queue, "x\\y")


def test_the_reading_bar_fills_with_the_fraction_read():
    from reviewtui.tui.render import reading_bar

    assert reading_bar(0.0, width=10).plain == "reading ━━━━━━━━━━ 0%"
    half = reading_bar(0.5, width=10)
    assert half.plain == "reading ━━━━━━━━━━ 50%"
    accent = [span for span in half.spans if "accent" in str(span.style)]
    assert [(span.start, span.end) for span in accent] == [(8, 13)]  # five of ten filled
    assert reading_bar(1.7, width=4).plain.endswith(" 100%")


def test_the_command_line_starts_the_app_with_its_start_up_objects_frozen_and_the_collector_back_on(
    tmp_path, small_opening, monkeypatch
):
    import gc

    seen = {}
    real_open = ReviewSession.open

    def open_session(*args, **kwargs):
        seen["collector while opening"] = gc.isenabled()
        return real_open(*args, **kwargs)

    def run(self):
        seen["collector while running"] = gc.isenabled()
        seen["frozen while running"] = gc.get_freeze_count()

    monkeypatch.setattr(ReviewSession, "open", open_session)
    monkeypatch.setattr(ReviewApp, "run", run)
    monkeypatch.setenv("REVIEWTUI_REVIEWER", "ana")
    gc.unfreeze()
    try:
        assert main([str(_set_file(tmp_path, 10))]) == 0
        assert seen["collector while opening"] is False  # no collection walks the start-up objects
        assert seen["collector while running"] is True and seen["frozen while running"] > 10_000
        assert gc.isenabled()  # and the start-up objects stay frozen: the exit's collection skips them
    finally:
        gc.unfreeze()


async def test_the_loader_keeps_the_whole_set_out_of_the_collectors_sight(tmp_path, small_opening):
    import gc

    path = _set_file(tmp_path, 120)
    session = ReviewSession.open(path, reviewer="ana", clock=FakeClock(), progressive=True)
    app = ReviewApp(session, scan=fixed_scan())
    gc.unfreeze()
    try:
        async with app.run_test(size=(120, 36)) as pilot:
            await settle(pilot, app)
            assert session.loading is None and len(session.queue) == 120
            last = session.queue.items[-1]
            # frozen, so no later collection walks the set (a full one over 100k items stalls the app)
            assert gc.get_freeze_count() > 0 and not any(obj is last for obj in gc.get_objects())
    finally:
        gc.unfreeze()
        session.close()


async def test_the_summary_waits_for_a_dialog_open_when_the_rest_of_the_set_is_read(tmp_path, small_opening, monkeypatch):
    """A set ending in items marked reviewed opens before those are read, and its last items may be decided
    before they are. The summary came the moment they were, over the edit dialog the reviewer was typing in: their
    next letters were the summary's keys (e exports, u undoes a decision), and a save after that undo edited the
    item the undo moved to. It waits, as it does for the reject reason picker."""
    from reviewtui.evalset.model.items import EvalItem
    from reviewtui.tui.messages import SetLoaded
    from reviewtui.tui.screens.edit import EditScreen
    from reviewtui.tui.screens.summary import SummaryScreen

    reviewed = (EvalItem(id=f"done{i}", question=f"Reviewed {i}?", meta={"reviewed": True}) for i in range(600))
    path = write_jsonl(cg.EvalSet(id="tail", items=(*make_items(4), *reviewed)), tmp_path / "tail.jsonl")
    first = ReviewSession.open(path, reviewer="ana", clock=FakeClock())
    first.accept()
    first.accept()
    first.close()
    session = ReviewSession.open(path, reviewer="ana", clock=FakeClock(), progressive=True)
    assert session.loading is not None and session.current.id == "q3"
    app = ReviewApp(session, scan=fixed_scan())
    monkeypatch.setattr(ReviewApp, "_start_background", lambda self: None)  # the rest is read by hand below
    try:
        async with app.run_test(size=(120, 36)) as pilot:
            await pilot.press("a", "a", "left", "e", "x")
            await pilot.pause()
            assert session.queue.is_done and isinstance(app.screen, EditScreen)
            loader = session.loading
            while not loader.done:
                loader.read_more()
            app.post_message(SetLoaded(loader.finish()))
            await pilot.pause()
            await pilot.pause()
            assert session.loading is None
            assert isinstance(app.screen, EditScreen)  # still typing: the summary waits
            await pilot.press("y", "escape", "escape")  # the edit thrown away: no step to show the summary after
            await pilot.pause()
            await pilot.pause()
            assert isinstance(app.screen, SummaryScreen)  # the review screen is back on top: now it comes
            decision = session.queue.decision_for("q4")
            assert decision is not None and decision.after.question == "Question number 4 about the handbook policy?"
            assert not list(tmp_path.glob("tail.v*.jsonl"))
    finally:
        session.close()


async def test_a_dialog_closed_on_a_finished_review_brings_no_summary_nobody_held_back(tmp_path):
    path = _set_file(tmp_path, 2)
    first = ReviewSession.open(path, reviewer="ana", clock=FakeClock())
    first.accept()
    first.accept()
    first.close()
    session = ReviewSession.open(path, reviewer="ana", clock=FakeClock())
    app = ReviewApp(session, scan=fixed_scan())
    try:
        async with app.run_test(size=(120, 36)) as pilot:
            await pilot.pause()
            assert type(app.screen).__name__ == "SummaryScreen"  # a finished review opens on its summary
            await pilot.press("b")
            await pilot.pause()
            assert type(app.screen).__name__ == "ReviewScreen"
            await pilot.press("question_mark")
            await pilot.pause()
            assert type(app.screen).__name__ == "HelpScreen"
            await pilot.press("escape")
            await pilot.pause()
            assert type(app.screen).__name__ == "ReviewScreen"
    finally:
        session.close()


async def test_a_bad_line_found_while_a_note_is_typed_waits_for_the_note(tmp_path, small_opening, monkeypatch):
    """The reader found a bad line while the reviewer typed a note: the app closed at once, and the note was gone
    without a word. It now says why it will close, and closes once the note is saved (or left)."""
    path = _set_file(tmp_path, 200, bad_tail=True)
    session = ReviewSession.open(path, reviewer="ana", clock=FakeClock(), progressive=True)
    app = ReviewApp(session, scan=fixed_scan())
    start_reading = ReviewApp._start_background
    monkeypatch.setattr(ReviewApp, "_start_background", lambda self: None)  # read the rest once the note is typed
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        await pilot.press("n", "k", "e", "e", "p")
        await pilot.pause()
        start_reading(app)
        for _ in range(200):
            if app.load_error is not None:
                break
            await pilot.pause(0.05)
        assert app.load_error is not None and app.is_running and app.return_code is None
        assert any("closes once what you are typing is saved or left" in str(n.message) for n in app._notifications)
        await pilot.press("enter")  # the note saved
        for _ in range(40):
            if not app.is_running or app.return_code is not None:
                break
            await pilot.pause(0.05)
    session.close()
    assert app.return_code == 2
    records = read_journal(session.journal_path).records
    assert [payload.get("text") for _, payload in records if payload.get("op") == "note"] == ["keep"]

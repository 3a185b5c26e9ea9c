"""Dialogs answer once: two keys that arrive in one read (over SSH, on a loaded machine) do not crash."""

from __future__ import annotations

from textual import events
from textual.screen import ModalScreen

import reviewtui as cg
from reviewtui.evalset.review.queue import RejectReason, Verdict
from reviewtui.tui.screens.dialogs import GotoScreen
from reviewtui.tui.screens.review import ReviewScreen
from tests.tui_helpers import fixed_scan, make_app, make_items, open_session, review_app, screen_text, settle


def both_at_once(app, key: str, character: str | None) -> None:
    """Two key presses queued before the app handles the first, as when both come in one read."""
    app.post_message(events.Key(key, character))
    app.post_message(events.Key(key, character))


async def test_two_enters_in_one_read_answer_each_dialog_once(tmp_path):
    session = open_session(tmp_path, cg.EvalSet(id="twice", items=make_items(7)))
    app = make_app(session, scan=fixed_scan())
    queue = session.queue
    try:
        async with app.run_test(size=(100, 40)) as pilot:
            await settle(pilot, app)

            async def twice(*keys: str, key: str = "enter", character: str | None = "\r") -> None:
                await pilot.press(*keys)
                await pilot.pause()
                # a dialog, or the reject reason picker drawn on the review screen
                assert isinstance(app.screen, ModalScreen) or app.screen.reason_picker.is_open
                both_at_once(app, key, character)
                await pilot.pause()
                await pilot.pause()
                assert app.is_running, keys
                assert isinstance(app.screen, ReviewScreen) and not app.screen.reason_picker.display, keys

            await twice("r")  # reject without a reason: one decision, not two
            assert queue.decided == 1 and queue.verdict_for(0) is Verdict.REJECTED
            assert queue.verdict_for(1) is Verdict.PENDING and queue.current.id == "q2"
            await twice("n", "x")
            assert queue.note_for("q2") == "x"
            await twice("g", "#", "5")
            assert queue.current.id == "q5"
            await twice("m")  # Enter picks the highlighted type, the item's own: it is accepted, once
            assert queue.verdict_for(4) is Verdict.ACCEPTED and queue.current.id == "q6"
            await twice("e", "x", key="ctrl+s", character=None)
            assert queue.decision_for("q6").after.question.startswith("x")
            await twice("question_mark", key="escape", character=None)
            await twice("r", key="escape", character=None)
            assert queue.decided == 3
    finally:
        session.close()


async def test_the_last_decision_then_enter_again_leaves_the_summary_open(tmp_path):
    # The first Enter rejects the last item and opens the summary; the second must not close it.
    session = open_session(tmp_path, cg.EvalSet(id="last", items=make_items(1)))
    app = make_app(session, scan=fixed_scan())
    try:
        async with app.run_test(size=(100, 40)) as pilot:
            await settle(pilot, app)
            await pilot.press("r")
            await pilot.pause()
            both_at_once(app, "enter", "\r")
            await app.workers.wait_for_complete()
            for _ in range(3):
                await pilot.pause()
            assert app.is_running
            assert type(app.screen).__name__ == "SummaryScreen"
            assert session.queue.decided == 1
    finally:
        session.close()


async def test_dismiss_twice_in_one_handler_is_one_answer(tmp_path):
    session = open_session(tmp_path, cg.EvalSet(id="sync", items=make_items(3)))
    app = make_app(session, scan=fixed_scan())
    answers = []
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app)
            screen = GotoScreen(3)
            await app.push_screen(screen, answers.append)
            screen.dismiss("q2")
            screen.dismiss("q3")  # would pop the review screen: ScreenStackError
            await pilot.pause()
            assert app.is_running and isinstance(app.screen, ReviewScreen)
    finally:
        session.close()
    assert answers == ["q2"]


async def test_a_line_feed_typed_as_the_app_starts_is_enter(tmp_path):
    """Keys typed before the terminal is in raw mode come with Enter as a line feed (ctrl+j): "r 2 Enter s" left the
    reject panel open on q1, and "s" went into its note."""
    session = open_session(tmp_path, cg.EvalSet(id="lf", items=make_items(3)))
    app = make_app(session, scan=fixed_scan())
    queue = session.queue
    try:
        async with app.run_test(size=(100, 40)) as pilot:
            await settle(pilot, app)
            await pilot.press("r", "2", "ctrl+j", "s")
            await pilot.pause()
            first = queue.decision_for("q1")
            assert first is not None and first.verdict is Verdict.REJECTED and first.reason is not None and first.note == ""
            assert queue.decision_for("q2").verdict is Verdict.SKIPPED and isinstance(app.screen, ReviewScreen)
    finally:
        session.close()


async def test_the_reject_dialog_shown_again_starts_clean_for_the_new_item(tmp_path):
    # The dialog is built once and shown again: nothing of the last reject may carry over.
    session = open_session(tmp_path, cg.EvalSet(id="again", items=make_items(4)))
    app = make_app(session, scan=fixed_scan())
    queue = session.queue
    try:
        async with app.run_test(size=(100, 40)) as pilot:
            await settle(pilot, app)
            await pilot.press("r", "2", *"bad", "enter")
            first = queue.decision_for("q1")
            assert first.verdict is Verdict.REJECTED and first.reason is not None and first.note == "bad"
            await pilot.press("r")
            await pilot.pause()
            picker = app.screen.reason_picker
            assert picker.is_open
            assert "Reject q2" in screen_text(app) and "Reject q1" not in screen_text(app)
            assert picker.query_one("#reasons").highlighted is None
            assert picker.query_one("#note").value == ""
            both_at_once(app, "enter", "\r")  # and it still answers once
            await pilot.pause()
            await pilot.pause()
            assert isinstance(app.screen, ReviewScreen)
            second = queue.decision_for("q2")
            assert second.verdict is Verdict.REJECTED and second.reason is None and second.note == ""
            assert queue.decided == 2 and queue.current.id == "q3"
    finally:
        session.close()


async def test_a_note_pasted_after_the_reason_digit_is_kept(tmp_path):
    # After the digit the focus stays on the reason list; a paste there is the note, not lost.
    session = open_session(tmp_path, cg.EvalSet(id="paste", items=make_items(3)))
    app = make_app(session, scan=fixed_scan())
    try:
        async with app.run_test(size=(100, 40)) as pilot:
            await settle(pilot, app)
            await pilot.press("r", "2")
            await pilot.pause()
            app.post_message(events.Paste("pasted note\nsecond line"))  # as a terminal's bracketed paste arrives
            await pilot.pause()
            await pilot.pause()
            await pilot.press("enter")
            await pilot.pause()
            decision = session.queue.decision_for("q1")
            assert decision is not None and decision.verdict is Verdict.REJECTED
            # all of it: the note field keeps a pasted line break (drawn as a stand-in), not only the first line
            assert decision.reason is list(RejectReason)[1] and decision.note == "pasted note\nsecond line"
    finally:
        session.close()


async def test_back_on_the_reason_list_a_digit_chooses_the_reason_again(tmp_path):
    # r, 2, Tab to the note, type, Shift+Tab back to the list: the next digit is a reason again.
    session = open_session(tmp_path, cg.EvalSet(id="tabs", items=make_items(3)))
    app = make_app(session, scan=fixed_scan())
    try:
        async with app.run_test(size=(100, 40)) as pilot:
            await settle(pilot, app)
            await pilot.press("r", "2", "tab", "x", "shift+tab", "4", "enter")
            await pilot.pause()
            decision = session.queue.decision_for("q1")
            assert decision is not None and decision.verdict is Verdict.REJECTED
            assert decision.reason is list(RejectReason)[3] and decision.note == "x"
    finally:
        session.close()


def _tall_summary():
    from reviewtui.tui.screens.summary import SummaryScreen

    return SummaryScreen(
        set_id="tall",
        counts={"accepted": 30, "rejected": 12},
        total=42,
        seconds=600,
        reasons={f"reason number {k}": 12 - k for k in range(12)},
        past_warnings={f"q{k}": ("near-duplicate",) for k in range(10)},
        tally={f"check-{k}": {"confirmed": 1, "dismissed": 0, "accepted": 2} for k in range(10)},
    )


async def test_a_summary_taller_than_the_terminal_scrolls_and_keeps_its_keys_in_view(tmp_path):
    """At 80x24 the summary of a review with many reasons and warnings ran past the screen's bottom edge: its line
    of keys was never seen, and no key scrolled it."""
    for size in ((80, 24), (60, 20), (120, 45)):
        folder = tmp_path / f"{size[0]}x{size[1]}"
        folder.mkdir()
        session = open_session(folder, cg.EvalSet(id="tall", items=make_items(3)))
        app = make_app(session, scan=fixed_scan())
        try:
            async with app.run_test(size=size) as pilot:
                await settle(pilot, app)
                app.push_screen(_tall_summary())
                await pilot.pause()
                await pilot.pause()
                screen = app.screen
                box, hint = screen.query_one(".box"), screen.query_one(".hint")
                body = screen.query_one("#summary-scroll")
                assert box.region.bottom <= size[1], size
                # the key line is inside the box, above its bottom border, and says how to scroll
                assert box.region.y < hint.region.y and hint.region.bottom < box.region.bottom, (size, hint.region, box.region)
                assert "PgDn: scroll" in str(hint.render())
                assert body.max_scroll_y > 0, size
                await pilot.press("pagedown")
                await pilot.pause()
                assert body.scroll_y > 0, size
                await pilot.press("b")
                await pilot.pause()
                assert isinstance(app.screen, ReviewScreen)
        finally:
            session.close()


async def test_a_short_summary_is_no_taller_than_its_text(tmp_path):
    from reviewtui.tui.screens.summary import SummaryScreen

    session = open_session(tmp_path, cg.EvalSet(id="short", items=make_items(3)))
    app = make_app(session, scan=fixed_scan())
    try:
        async with app.run_test(size=(100, 40)) as pilot:
            await settle(pilot, app)
            app.push_screen(SummaryScreen(set_id="short", counts={"accepted": 3}, total=3, seconds=9, reasons={}))
            await pilot.pause()
            await pilot.pause()
            body = app.screen.query_one("#summary-scroll")
            assert body.max_scroll_y == 0
            assert body.region.height == app.screen.query_one("#summary-body").region.height
            assert app.screen.query_one(".box").region.height < 30
            # nine seconds on three items: "3.0s per item", where whole seconds rounded a quick review to "0s"
            assert "3.0s per item on average" in str(app.screen.query_one("#summary-body").render())
    finally:
        session.close()


async def test_go_to_an_id_that_is_not_there_says_so_in_the_dialog_and_keeps_the_text(tmp_path):
    """An unknown id closed the dialog with a notice and threw away what was typed."""
    session = open_session(tmp_path, cg.EvalSet(id="goto", items=make_items(6)))
    app = make_app(session, scan=fixed_scan())
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app)
            await pilot.press("g", *"q[/]x", "enter")
            await pilot.pause()
            assert isinstance(app.screen, GotoScreen)
            field = app.screen.query_one("#target")
            problem = app.screen.query_one("#goto-problem")
            assert field.value == "q[/]x"
            assert problem.display and "no item with id 'q[/]x'" in str(problem.render())
            await pilot.press("backspace")
            await pilot.pause()
            assert not problem.display  # said of the text before the change
            await pilot.press(*["backspace"] * 3, "4", "enter")
            await pilot.pause()
            assert isinstance(app.screen, ReviewScreen)
            assert session.queue.current.id == "q4"
            await pilot.press("g", "9", "9", "enter")  # a position past the end is refused the same way
            await pilot.pause()
            assert isinstance(app.screen, GotoScreen) and "there is no position 99" in str(
                app.screen.query_one("#goto-problem").render()
            )
    finally:
        session.close()


async def test_the_summary_says_how_many_checks_it_leaves_out_of_the_tally(tmp_path):
    """It showed the first ten checks' counts and said nothing of the rest, which status and the export list."""
    from reviewtui.tui.screens.summary import SummaryScreen

    session = open_session(tmp_path, cg.EvalSet(id="many", items=make_items(3)))
    app = make_app(session, scan=fixed_scan())
    tally = {f"check-{k:02}": {"confirmed": 1, "dismissed": 0, "accepted": 0} for k in range(13)}
    try:
        async with app.run_test(size=(100, 60)) as pilot:
            await settle(pilot, app)
            app.push_screen(SummaryScreen(set_id="many", counts={"accepted": 3}, total=3, seconds=9, reasons={}, tally=tally))
            await pilot.pause()
            text = str(app.screen.query_one("#summary-body").render())
            assert "check-09" in text and "check-10" not in text
            assert "and 3 more checks (reviewtui status)" in text, text
    finally:
        session.close()


async def test_a_terminal_too_small_to_show_the_question_takes_no_decision(tmp_path):
    """At 40x12 the question pane showed only the item's id line, and `a` accepted a question nobody could read."""
    async with review_app(tmp_path, "tiny", items=3, size=(40, 12)) as (app, pilot, session):
        await pilot.press("a", "s", "r", "m")
        await pilot.pause()
        assert session.queue.decided == 0 and isinstance(app.screen, ReviewScreen)
        assert not app.screen.reason_picker.is_open
        assert any("too small to show the question" in str(n.message) for n in app._notifications)
        app.screen.action_next()  # moving on, and every key that decides nothing, still work
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.press("a")
        await pilot.pause()
        assert session.queue.decided == 1


async def test_the_key_bar_draws_the_decision_keys_faint_while_they_are_refused(tmp_path):
    """Below the size that can show the item the bar still offered a and r as if they would work."""
    async with review_app(tmp_path, "faint", items=3, size=(80, 24)) as (app, pilot, session):
        bar = app.screen.query_one("#key-bar")
        assert not any(hint.refused for hint in bar.hints())
        await pilot.resize_terminal(80, 14)  # only shorter: the bar's width stays
        await pilot.pause()
        refused = {hint.description for hint in bar.hints() if hint.refused}
        assert {"Accept", "Reject", "Skip"} <= refused and "Edit" not in refused and "Undo" not in refused
        drawn = bar.render()
        faint = {drawn.plain[span.start : span.end].strip() for span in drawn.spans if span.style.strike}
        assert "Accept" in faint and "Edit" not in faint, faint
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert not any(hint.refused for hint in bar.hints())


async def test_a_dialog_answered_after_the_terminal_shrank_decides_nothing(tmp_path):
    async with review_app(tmp_path, "shrunk", items=3, size=(100, 30)) as (app, pilot, session):
        await pilot.press("r")
        await pilot.pause()
        assert app.screen.reason_picker.is_open
        await pilot.resize_terminal(40, 12)
        await pilot.pause()
        await pilot.press("2", "enter")
        await pilot.pause()
        assert session.queue.decided == 0


async def test_a_reject_note_typed_before_the_terminal_shrank_comes_back(tmp_path):
    """Refused for the size, the reject closed its panel and the note typed in it was gone."""
    from reviewtui.tui.widgets.reasons import ReasonPicker, RejectChoice

    async with review_app(tmp_path, "shrunk-note", items=3, size=(100, 30)) as (app, pilot, session):
        await pilot.press("r")
        await pilot.pause()
        await pilot.resize_terminal(40, 12)
        await pilot.pause()
        app.screen.post_message(ReasonPicker.Chosen(RejectChoice("ambiguous", "a copy of q2")))
        await pilot.pause()
        picker = app.screen.reason_picker
        assert session.queue.decided == 0 and picker.is_open
        assert picker.query_one("#note").value == "a copy of q2"


async def test_the_search_and_go_to_hints_say_what_is_searched_and_offer_no_hit_to_open(tmp_path):
    """The go-to dialog said "/ searches ids, questions and quotes" of a search that finds answers too, and a
    search that found nothing said "0 found · ↓ then Enter: open"."""
    items = tuple(cg.EvalItem(id=f"q{k}", question=f"Which tool is number {k}?", answer=f"the saw {k}") for k in range(3))
    session = open_session(tmp_path, cg.EvalSet(id="hints", items=items))
    app = make_app(session, scan=fixed_scan())
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app)
            await pilot.press("g")
            await pilot.pause()
            assert "/ searches ids, questions, answers and quotes" in screen_text(app)
            await pilot.press("escape", "/", *"zzzq", "enter")
            await pilot.pause()
            await pilot.pause()
            hint = str(app.screen.query_one("#search-hint").render())
            assert hint.startswith("0 found") and "open" not in hint
            await pilot.press(*["backspace"] * 4, *"saw", "enter")
            await pilot.pause()
            await pilot.pause()
            hint = str(app.screen.query_one("#search-hint").render())
            assert hint.startswith("3 found") and "↓ then Enter: open" in hint  # found in the answers
    finally:
        session.close()


async def test_a_searchs_hits_reach_the_dialog_without_waiting_on_the_apps_loop(tmp_path):
    """The search's thread handed its hits over with call_from_thread, which waits until the app's loop runs the
    call: one closing as the reviewer quit never does, and the thread waited for ever. Here that call fails."""
    items = tuple(cg.EvalItem(id=f"q{k}", question=f"Which tool is number {k}?") for k in range(3))
    session = open_session(tmp_path, cg.EvalSet(id="posted", items=items))
    app = make_app(session, scan=fixed_scan())

    def closing(*_args, **_kwargs):
        raise RuntimeError("App is not running")

    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app)
            app.call_from_thread = closing
            await pilot.press("/", *"tool", "enter")
            for _ in range(20):
                await pilot.pause(0.05)
                if str(app.screen.query_one("#search-hint").render()).startswith("3 found"):
                    break
            assert str(app.screen.query_one("#search-hint").render()).startswith("3 found")
    finally:
        session.close()

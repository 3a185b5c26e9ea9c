"""The reject reason picker is a panel on the review screen, and modal for keys while it is shown.

No review key may act behind it (the item would change under an unanswered reject), the focus
stays in it, and the command palette offers no review step while it is open.
"""

from __future__ import annotations

from tests.tui_helpers import review_app


async def test_no_review_key_acts_behind_the_reason_picker(tmp_path):
    async with review_app(tmp_path, "behind", items=4) as (app, pilot, session):
        screen = app.screen
        before = session.journal_path.stat().st_size
        await pilot.press("r")
        await pilot.pause()
        picker = screen.reason_picker
        assert picker.is_open
        review_commands = [c for c in app.get_system_commands(screen) if c.help.startswith("review:")]
        assert review_commands == []  # nothing from the palette behind the picker either
        # bound on the review screen: next and previous item, export, the history; none may run
        for key in ("right", "left", "ctrl+e", "f", "tab", "tab", "tab", "shift+tab"):
            await pilot.press(key)
            await pilot.pause()
            assert app.screen is screen and picker.is_open, key
            assert screen.focused is not None and picker in screen.focused.ancestors_with_self, key
        assert session.queue.position == 0 and session.queue.decided == 0
        assert session.journal_path.stat().st_size == before
        # "f" and the tabs went to the note; Esc asks first, a second Esc cancels
        await pilot.press("escape", "escape")
        await pilot.pause()
        assert not picker.display and app.screen is screen
        assert screen.focused is None or picker not in screen.focused.ancestors_with_self
        assert [c for c in app.get_system_commands(screen) if c.help.startswith("review:")]
        await pilot.press("a")  # the review keys work again
        await pilot.pause()
        assert session.queue.decided == 1


async def test_a_click_elsewhere_leaves_the_focus_in_the_picker(tmp_path):
    async with review_app(tmp_path, "click", items=4) as (app, pilot, session):
        screen = app.screen
        await pilot.press("r")
        await pilot.pause()
        screen.query_one("#evidence-pane").focus()  # what a click on the pane does
        await pilot.pause()
        picker = screen.reason_picker
        assert picker.is_open and picker in screen.focused.ancestors_with_self
        await pilot.press("a")  # typed into the note, not an accept
        await pilot.pause()
        assert session.queue.decided == 0 and picker.query_one("#note").value == "a"


async def test_a_click_while_a_note_is_typed_gives_the_focus_back_to_the_note_and_keeps_the_reason(tmp_path):
    # Given back to the reason list, "3 days" would have chosen reason 3 and lost its "3".
    async with review_app(tmp_path, "click-note", items=4) as (app, pilot, session):
        screen = app.screen
        await pilot.press("r", "2", "x")
        await pilot.pause()
        screen.query_one("#question-pane").focus()
        await pilot.pause()
        await pilot.press(*"3 days", "enter")
        await pilot.pause()
        # a reason picked, then a click while the list has the focus: the next digit is the note's
        await pilot.press("r", "2")
        await pilot.pause()
        screen.query_one("#evidence-pane").focus()
        await pilot.pause()
        await pilot.press("3", "enter")
        await pilot.pause()
    first, second = session.queue.decision_for("q1"), session.queue.decision_for("q2")
    assert (first.reason.value, first.note) == ("ambiguous", "x3 days")
    assert (second.reason.value, second.note) == ("ambiguous", "3")


async def test_quitting_from_the_palette_over_a_typed_reject_note_asks_first(tmp_path):
    async with review_app(tmp_path, "palette-quit", items=4) as (app, pilot, session):
        await pilot.press("r", "x", "y", "ctrl+p")
        await pilot.pause()
        assert type(app.screen).__name__ == "CommandPalette"
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert app.is_running  # the note under the palette is not thrown away by one key
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert not app.is_running


async def test_the_summary_waits_for_an_open_picker(tmp_path):
    # The rest of a large set can finish loading while the picker is open, and the summary that
    # follows would take keys (undo, back) that move the item under the picker.
    async with review_app(tmp_path, "summary", items=2) as (app, pilot, session):
        screen = app.screen
        await pilot.press("a", "a")
        await pilot.pause()
        assert type(app.screen).__name__ == "SummaryScreen"
        await pilot.press("b", "left", "r")
        await pilot.pause()
        assert app.screen is screen and screen.reason_picker.is_open
        app.view.summary_shown = False  # as when the last part of the set has just been read
        screen.maybe_show_summary()
        await pilot.pause()
        assert app.screen is screen and screen.reason_picker.is_open
        await pilot.press("escape")  # answered: now the summary comes
        await pilot.pause()
        assert type(app.screen).__name__ == "SummaryScreen"
    assert session.queue.decision_for("q2").verdict.value == "accepted"


async def test_the_chosen_reason_is_marked_in_text_not_only_by_colour(tmp_path):
    """Only the highlight's background told which reason a digit chose: nothing on a terminal without colours."""
    from textual.widgets import OptionList

    def marked(picker) -> list[int]:
        reasons = picker.query_one("#reasons", OptionList)
        return [k for k in range(reasons.option_count) if str(reasons.get_option_at_index(k).prompt).startswith("▸")]

    async with review_app(tmp_path, "marked", items=4) as (app, pilot, session):
        picker = app.screen.reason_picker
        await pilot.press("r")
        await pilot.pause()
        assert marked(picker) == []  # nothing chosen yet: Enter rejects without a reason
        await pilot.press("2")
        await pilot.pause()
        assert marked(picker) == [1]
        await pilot.press("down")
        await pilot.pause()
        assert marked(picker) == [2]
        await pilot.press("enter")
        await pilot.pause()
        assert session.queue.decided == 1
        await pilot.press("r")  # the next reject starts with no reason marked
        await pilot.pause()
        assert marked(picker) == []

"""Text the reviewer typed in a dialog (a note, an edit) is not thrown away by one Esc or one quit key.

The first press says what would be lost and which key keeps it; a second press with nothing
typed in between closes the dialog (or quits) without it. A dialog holding nothing typed closes
at the first press, as before.
"""

from __future__ import annotations

from reviewtui.tui.screens.dialogs import NoteScreen
from reviewtui.tui.screens.edit import EditScreen
from reviewtui.tui.screens.review import ReviewScreen
from tests.tui_helpers import review_app


def _warnings(app) -> list[str]:
    return [str(n.message) for n in app._notifications if n.severity == "warning"]


async def test_an_edit_survives_one_escape_and_goes_with_the_second(tmp_path):
    async with review_app(tmp_path, "edit-esc", items=3) as (app, pilot, session):
        before = session.journal_path.stat().st_size
        await pilot.press("e", "end", "X", "escape")
        await pilot.pause()
        assert isinstance(app.screen, EditScreen), "one Esc closed an edited dialog"
        assert any("ctrl+s saves" in text and "Esc again" in text for text in _warnings(app)), _warnings(app)
        # typing after the warning: the next Esc warns again instead of discarding
        await pilot.press("Y", "escape")
        await pilot.pause()
        assert isinstance(app.screen, EditScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ReviewScreen)
        assert session.journal_path.stat().st_size == before  # nothing recorded
        assert session.queue.current.question == "Question number 1 about the handbook policy?"
        # an untouched edit dialog closes at the first Esc, without a warning
        count = len(_warnings(app))
        await pilot.press("e", "escape")
        await pilot.pause()
        assert isinstance(app.screen, ReviewScreen) and len(_warnings(app)) == count


async def test_a_warned_edit_can_still_be_saved(tmp_path):
    async with review_app(tmp_path, "edit-save", items=3) as (app, pilot, session):
        await pilot.press("e", "end", "X", "escape", "ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, ReviewScreen)
    decision = session.queue.decision_for("q1")
    assert decision is not None and decision.after.question.endswith("?X")


async def test_a_typed_note_survives_one_escape(tmp_path):
    async with review_app(tmp_path, "note-esc", items=3) as (app, pilot, session):
        await pilot.press("n", "k", "e", "e", "p", "escape")
        await pilot.pause()
        assert isinstance(app.screen, NoteScreen)
        assert any("Enter saves the note" in text for text in _warnings(app)), _warnings(app)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ReviewScreen)
        assert session.queue.notes.get("q1") == "keep"
        # the saved note shown again untouched: one Esc closes it
        await pilot.press("n", "escape")
        await pilot.pause()
        assert isinstance(app.screen, ReviewScreen)


async def test_a_reject_note_survives_one_escape_and_the_warning_is_not_carried_over(tmp_path):
    async with review_app(tmp_path, "reject-esc", items=3) as (app, pilot, session):
        picker = app.screen.reason_picker
        await pilot.press("r", "2", "w", "h", "y", "escape")
        await pilot.pause()
        assert picker.is_open
        assert any("Enter rejects the item with this note" in text for text in _warnings(app)), _warnings(app)
        await pilot.press("escape")
        await pilot.pause()
        assert not picker.display and session.queue.decided == 0
        # the picker is shown again for the next reject: a note typed then is warned about afresh
        await pilot.press("r", "w", "h", "y", "escape")
        await pilot.pause()
        assert picker.is_open
        await pilot.press("enter")
        await pilot.pause()
        assert session.queue.decided == 1 and not picker.display
        # a reason picked and no note: one Esc cancels
        await pilot.press("r", "2", "escape")
        await pilot.pause()
        assert not picker.display and session.queue.decided == 1
    assert session.queue.decision_for("q1").note == "why"


async def test_the_quit_key_asks_once_when_a_dialog_holds_typed_text(tmp_path):
    async with review_app(tmp_path, "quit", items=3) as (app, pilot, session):
        await pilot.press("n", "x", "ctrl+q")
        await pilot.pause()
        assert app.is_running and isinstance(app.screen, NoteScreen)
        assert any("ctrl+q again quits and discards" in text for text in _warnings(app)), _warnings(app)
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert not app.is_running


async def test_the_quit_key_asks_once_over_a_reject_note(tmp_path):
    async with review_app(tmp_path, "quit-reject", items=3) as (app, pilot, session):
        await pilot.press("r", "x", "ctrl+q")
        await pilot.pause()
        assert app.is_running and app.screen.reason_picker.is_open
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert not app.is_running
    assert session.queue.decided == 0


async def test_the_quit_key_quits_at_once_over_an_untouched_dialog(tmp_path):
    async with review_app(tmp_path, "quit-clean", items=3) as (app, pilot, session):
        await pilot.press("e", "ctrl+q")
        await pilot.pause()
        assert not app.is_running


async def test_a_warning_for_one_key_does_not_arm_another(tmp_path):
    # Warned that ctrl+q again quits, the reviewer presses Esc: that key was not named, so it warns too.
    async with review_app(tmp_path, "two-keys", items=3) as (app, pilot, session):
        await pilot.press("n", "x", "ctrl+q", "escape")
        await pilot.pause()
        assert app.is_running and isinstance(app.screen, NoteScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ReviewScreen) and not session.queue.notes


async def test_the_not_saved_warning_leaves_the_screen_once_the_text_is_saved_or_thrown_away(tmp_path):
    # It stayed for its whole timeout: a note saved with Enter was still said to be "Not saved yet".
    async with review_app(tmp_path, "notice-goes", items=3) as (app, pilot, session):
        await pilot.press("n", "k", "escape")
        await pilot.pause()
        assert len([w for w in _warnings(app) if w.startswith("Not saved yet")]) == 1
        await pilot.press("x", "escape")  # typed after the warning: warned afresh, the old warning replaced
        await pilot.pause()
        assert len([w for w in _warnings(app) if w.startswith("Not saved yet")]) == 1
        await pilot.press("enter")  # saved
        await pilot.pause()
        assert isinstance(app.screen, ReviewScreen) and session.queue.notes.get("q1") == "kx"
        assert not [w for w in _warnings(app) if w.startswith("Not saved yet")]
        await pilot.press("e", "end", "X", "escape", "escape")  # an edit thrown away
        await pilot.pause()
        assert isinstance(app.screen, ReviewScreen)
        assert not [w for w in _warnings(app) if w.startswith("Not saved yet")]
        picker = app.screen.reason_picker
        await pilot.press("r", "2", "w", "escape", "enter")  # a reject note warned about, then rejected with it
        await pilot.pause()
        assert not picker.display and session.queue.decided == 1
        assert not [w for w in _warnings(app) if w.startswith("Not saved yet")]

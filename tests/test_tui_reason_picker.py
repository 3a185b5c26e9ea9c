"""The reject reason picker is a panel on the review screen, and modal for keys while it is shown.

No review key may act behind it (the item would change under an unanswered reject), the focus
stays in it, and the command palette offers no review step while it is open.
"""

from __future__ import annotations

import reviewtui as cg
from tests.tui_helpers import fixed_scan, make_app, make_items, open_session, settle


async def test_no_review_key_acts_behind_the_reason_picker(tmp_path):
    session = open_session(tmp_path, cg.EvalSet(id="behind", items=make_items(4)))
    app = make_app(session, scan=fixed_scan())
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
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
    finally:
        session.close()


async def test_a_click_elsewhere_leaves_the_focus_in_the_picker(tmp_path):
    session = open_session(tmp_path, cg.EvalSet(id="click", items=make_items(4)))
    app = make_app(session, scan=fixed_scan())
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
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
    finally:
        session.close()

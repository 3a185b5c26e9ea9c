"""The key bar at the bottom of the review screen: the shown keys, remapped keys, clicks and narrow screens."""

from __future__ import annotations

from reviewtui.evalset.io.settings import load_config
from reviewtui.tui.widgets.keybar import KeyBar
from tests.tui_helpers import review_app, screen_text

SHOWN = ["Accept", "Reject", "Skip", "Edit", "Type", "Undo", "Export", "Help", "Quit", "palette"]


def _running(tmp_path, size: tuple[int, int], **app_options):
    """A review app on three items, settled, at ``size``; the session is closed afterwards."""
    return review_app(tmp_path, "k", items=3, size=size, **app_options)


def _bar_line(app) -> str:
    return screen_text(app).splitlines()[-1]


async def test_bar_lists_the_shown_keys_in_order_with_the_palette_at_the_right(tmp_path):
    async with _running(tmp_path, (130, 30)) as (app, _, _):
        bar = app.screen.query_one(KeyBar)
        assert [hint.description for hint in bar.hints()] == SHOWN
        line = _bar_line(app)
        assert line.startswith(" a Accept  r Reject  s Skip  e Edit ")
        assert "Redo" not in line and "Note" not in line  # bindings with show=False stay off the bar
        assert line.rstrip().endswith("▏^p palette")
        assert len(line) == 130


async def test_bar_shows_a_remapped_key_in_its_declared_place(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('[keys]\n"review.accept" = "y"\n')
    async with _running(tmp_path, (130, 30), config=load_config(path)) as (app, _, _):
        assert _bar_line(app).startswith(" y Accept  r Reject")


async def test_clicking_a_hint_presses_its_key(tmp_path):
    async with _running(tmp_path, (130, 30)) as (app, pilot, session):
        bar = app.screen.query_one(KeyBar)
        line = _bar_line(app)
        skip = line.index("Skip")
        assert bar.hint_at(skip).description == "Skip"
        await pilot.click(KeyBar, offset=(skip, 0))
        await pilot.pause()
        assert session.queue.decision_for("q1").verdict.value == "skipped"
        await pilot.hover(KeyBar, offset=(line.index("Reject"), 0))
        await pilot.pause()
        assert bar.hover == "r"
        gap = line.index("Quit") + 8  # between the last hint and the palette key
        assert bar.hint_at(gap) is None
        await pilot.click(KeyBar, offset=(gap, 0))
        await pilot.pause()
        assert session.queue.decided == 1  # a click on no hint does nothing


async def test_narrow_bar_keeps_the_palette_key_and_cuts_the_others(tmp_path):
    async with _running(tmp_path, (60, 24)) as (app, _, _):
        bar = app.screen.query_one(KeyBar)
        line = _bar_line(app)
        assert len(line) == 60 and line.rstrip().endswith("▏^p palette")
        assert line.startswith(" a Accept ")
        palette_x = line.index("^p")
        assert bar.hint_at(palette_x).key == app.COMMAND_PALETTE_BINDING
        assert all(hint.end <= palette_x - 1 for hint in bar._hints if hint.key != app.COMMAND_PALETTE_BINDING)


async def test_a_narrow_bar_leaves_out_whole_hints_and_keeps_help_and_quit(tmp_path):
    """At 80x24 the bar was cut at its edge: "? He" and no quit key at all."""
    for width in (80, 60, 50):
        async with _running(tmp_path / str(width), (width, 24)) as (app, _, _):
            line = _bar_line(app)
            assert " ? Help " in line and " ^q Quit " in line and line.rstrip().endswith("▏^p palette"), (width, line)
            assert line.startswith(" a Accept "), line
            bar = app.screen.query_one(KeyBar)
            for hint in bar._hints:  # each hint drawn is drawn whole
                assert line[hint.start : hint.end].strip().endswith(hint.description), (width, hint)


async def test_a_remapped_key_name_is_shown_inert(tmp_path):
    # A name no key has ("[b]" and an escape) is not bound (the settings problem says so); a real key
    # whose display holds a bracket, ctrl+] (a terminal sends 0x1d for it), is shown as text, not read as markup.
    path = tmp_path / "config.toml"
    path.write_text('[keys]\n"review.accept" = "[b]\\u001b"\n"review.skip" = "ctrl+]"\n')
    async with _running(tmp_path, (130, 30), config=load_config(path)) as (app, pilot, _):
        bar = app.screen.query_one(KeyBar)
        accept = next(hint for hint in bar.hints() if hint.description == "Accept")
        assert accept.display == "a"
        skip = next(hint for hint in bar.hints() if hint.description == "Skip")
        assert "\x1b" not in skip.display and "]" in skip.display  # no escape reaches the terminal
        assert "\x1b" not in _bar_line(app)
        await pilot.press("question_mark")  # the help screen lists the same key
        await pilot.pause()
        assert "\x1b" not in screen_text(app)

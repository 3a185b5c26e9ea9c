"""The settings file: key remapping and the reviewer's name; a broken file never stops a review."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import reviewtui as cg
from reviewtui.evalset.io.settings import UNUSED, load_config
from tests.tui_helpers import fixed_scan, make_app, make_items, open_session, screen_text, settle


def test_missing_file_is_fine(tmp_path):
    config = load_config(tmp_path / "nope.toml")
    assert config.keymap == {} and config.problems == [] and config.reviewer is None


def test_keys_and_reviewer_are_read(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('reviewer = "ana"\n[keys]\n"review.accept" = "y"\n"review.reject" = ["n", "x"]\n')
    config = load_config(path)
    assert config.keymap == {"review.accept": "y", "review.reject": "n,x"}
    assert config.reviewer == "ana" and config.problems == []


def test_broken_file_is_reported_not_raised(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text("[keys\nnot toml")
    config = load_config(path)
    assert config.keymap == {} and len(config.problems) == 1 and "TOML" in config.problems[0]
    path.write_text('reviewer = ""\n[keys]\n"review.accept" = 5\n')
    config = load_config(path)
    assert config.keymap == {} and config.reviewer is None and len(config.problems) == 2


async def test_remapped_key_works_and_help_shows_it(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('[keys]\n"review.accept" = "y"\n')
    session = open_session(tmp_path, cg.EvalSet(id="k", items=make_items(3)))
    app = make_app(session, scan=fixed_scan(), config=load_config(path))
    try:
        async with app.run_test(size=(100, 40)) as pilot:
            await settle(pilot, app)
            await pilot.press("a")
            assert session.queue.decided == 0  # the old key no longer accepts
            await pilot.press("y")
            assert session.queue.decision_for("q1").verdict.value == "accepted"
            await pilot.press("question_mark")
            assert re.search(r"\sy\s+Accept\s+review\.accept", screen_text(app))
    finally:
        session.close()


HOSTILE_CONFIG = r'''
[keys]
"\u001b]52;c;aGk=\u0007" = 5
"[@click=app.quit]boom[/]" = ""
"\u001b[2J\u202e" = ["y", 1]
"review.accept" = "[b]x\u001b[2J"
"review.skip" = "\u202e[/]"
'''


async def test_settings_problems_and_key_names_reach_the_screen_inert(tmp_path):
    from textual.content import Content

    from reviewtui.evalset.text.safe import has_unsafe
    from reviewtui.tui.safe import safe_plain

    path = tmp_path / "config.toml"
    path.write_text(HOSTILE_CONFIG)
    config = load_config(path)
    assert len(config.problems) == 3  # three key names whose values are not key names
    session = open_session(tmp_path, cg.EvalSet(id="k", items=make_items(3)))
    app = make_app(session, scan=fixed_scan(), config=config)
    try:
        async with app.run_test(size=(130, 50), notifications=True) as pilot:
            await settle(pilot, app)
            settings = [n for n in app._notifications if n.title == "settings"]
            # and the two remaps to names no key has: each named, and each action keeps its own key; two are shown
            # as the app opens, the rest counted (the command prints them all when it closes)
            assert len(app.config.problems) == 3 + 4 and len(settings) == 3 and "and 5 more problems" in settings[-1].message
            for notification in settings:
                assert not has_unsafe(notification.message), notification.message
            said = " ".join(safe_plain(problem, limit=500) for problem in app.config.problems)  # as a toast shows one
            assert "keys.␛]52;c;aGk=␇" in said and "keys.[@click=app.quit]boom[/]" in said
            assert "keys.␛[2J<U+202E>" in said
            assert "'[b]x\\x1b[2J' is not the name of a key" in said and "'\\u202e[/]' is not the name of a key" in said
            await pilot.pause()
            text = screen_text(app)
            assert not has_unsafe(text) and "[@click=app.quit]boom[/]" in text
            await pilot.click(offset=(120, 2))  # on the toasts, where a [@click] would be
            commands = {command.title: command.help for command in app.get_system_commands(app.screen)}
            assert Content.from_markup(commands["Accept"]).plain.endswith("(key a)")  # its own key still
            await pilot.press("question_mark")
            await pilot.pause()
            text = screen_text(app)
            assert not has_unsafe(text)
            assert app.is_running
    finally:
        session.close()


async def test_every_help_row_keeps_its_description_apart_from_its_id(tmp_path):
    session = open_session(tmp_path, cg.EvalSet(id="k", items=make_items(3)))
    app = make_app(session, scan=fixed_scan())
    try:
        async with app.run_test(size=(120, 60)) as pilot:
            await settle(pilot, app)
            await pilot.press("question_mark")
            text = screen_text(app)
            for row in app.key_rows():
                assert re.search(re.escape(row.description) + r"\s{2,}" + re.escape(row.binding_id), text), row
    finally:
        session.close()


def test_nesting_too_deep_for_the_toml_reader_is_reported_not_raised(tmp_path):
    """tomllib recurses once per bracket: a 1 KB file of nested lists raised RecursionError out of the app's start."""
    path = tmp_path / "config.toml"
    depth = sys.getrecursionlimit() + 100  # deeper than the reader can go, whatever the limit (1000 by default)
    path.write_text("x = " + "[" * depth + "]" * depth + "\n")
    config = load_config(path)
    assert config.keymap == {} and config.problems == [f"{path}: not valid TOML (nested too deeply); {UNUSED}"]


def test_a_pipe_or_a_device_is_named_and_never_opened(tmp_path):
    """Opening a named pipe waits for a writer (the app hung before its first frame); /dev/zero never ends."""
    fifo = tmp_path / "config.toml"
    os.mkfifo(fifo)
    config = load_config(fifo)  # returns at once: nothing opens the pipe
    assert config.problems == [f"{fifo}: is a named pipe, not a settings file; {UNUSED}"]
    config = load_config(Path("/dev/zero"))
    assert config.problems == [f"/dev/zero: is a device, not a settings file; {UNUSED}"]


def test_a_file_too_large_to_be_settings_is_not_read_whole(tmp_path):
    path = tmp_path / "config.toml"
    path.write_bytes(b"# " + b"x" * (2 << 20) + b"\n")
    config = load_config(path)
    assert len(config.problems) == 1 and "larger than 1 MB, not a settings file" in config.problems[0]


def test_an_unknown_setting_is_named_with_the_one_it_resembles(tmp_path):
    """A misspelt reviewer name was dropped without a word, and the journal signed with the login name."""
    path = tmp_path / "config.toml"
    path.write_text('reviwer = "bob"\ncolour = "red"\n[key]\n"review.accept" = "y"\n')
    config = load_config(path)
    assert config.reviewer is None and config.keymap == {}
    assert config.problems == [
        f"{path}: unknown setting 'reviwer', ignored (did you mean 'reviewer'?)",
        f"{path}: unknown setting 'colour', ignored (known: reviewer, theme, keys)",
        f"{path}: unknown setting 'key', ignored (did you mean 'keys'?)",
    ]


def test_binding_ids_written_without_quotes_are_read_as_spelled(tmp_path):
    """TOML reads review.accept = "y" as a table "review" holding "accept": the id it spells is meant."""
    path = tmp_path / "config.toml"
    path.write_text('[keys]\nreview.accept = "y"\nreview.reject = ["n", "x"]\n"review.skip" = "k"\n[keys.app]\nquit = "ctrl+w"\n')
    config = load_config(path)
    assert config.keymap == {"review.accept": "y", "review.reject": "n,x", "review.skip": "k", "app.quit": "ctrl+w"}
    assert config.problems == []


def test_a_byte_order_mark_does_not_make_the_file_unreadable(tmp_path):
    path = tmp_path / "config.toml"
    path.write_bytes(b"\xef\xbb\xbfreviewer = \"ana\"\n")
    config = load_config(path)
    assert config.reviewer == "ana" and config.problems == []


def test_a_binding_id_of_thousands_of_dots_is_read_without_recursing(tmp_path):
    """TOML reads "a.a.a...b" as tables within tables without recursing; joining the id back recursed once per
    dot, and 5,000 of them crashed the app before it started."""
    path = tmp_path / "config.toml"
    path.write_text("[keys]\n" + "a." * 5000 + 'b = "y"\n')
    config = load_config(path)
    assert config.keymap == {"a." * 5000 + "b": "y"} and config.problems == []


def test_one_binding_id_given_twice_is_said(tmp_path):
    """'"review.accept" = "y"' and 'review.accept = "z"' are two keys to TOML and one id to the app: the first
    was dropped without a word."""
    path = tmp_path / "config.toml"
    path.write_text('[keys]\n"review.accept" = "y"\nreview.accept = "z"\n')
    config = load_config(path)
    assert len(config.keymap) == 1 and config.problems == [f"{path}: keys.review.accept is given twice; the first is kept"]
    assert config.keymap["review.accept"] == "y"


def test_of_a_binding_id_given_twice_the_first_in_the_file_is_kept_as_said(tmp_path):
    """Written bare first and quoted second, the quoted one (the second) was kept under "the first is kept"."""
    path = tmp_path / "config.toml"
    path.write_text('[keys]\nreview.accept = "x"\n"review.skip" = "k"\n"review.accept" = "y"\nreview.undo = "z"\n')
    config = load_config(path)
    assert config.keymap == {"review.accept": "x", "review.skip": "k", "review.undo": "z"}
    assert config.problems == [f"{path}: keys.review.accept is given twice; the first is kept"]


def test_a_binding_outside_keys_is_pointed_to_keys(tmp_path):
    """`review.accept = "y"` above [keys] was called an unknown setting, "did you mean 'reviewer'?"."""
    path = tmp_path / "config.toml"
    path.write_text('review.accept = "y"\n"app.quit" = "f10"\n')
    config = load_config(path)
    hint = ' (a key binding? those go under [keys], as in [keys] "review.accept" = "y")'
    assert config.problems == [f"{path}: unknown setting 'review', ignored{hint}", f"{path}: unknown setting 'app.quit', ignored{hint}"]
    assert config.keymap == {}


async def test_the_theme_in_the_settings_is_the_apps_and_an_unknown_one_is_said(tmp_path):
    """A reviewer on a light terminal chose a light theme in the palette at every start: the file had no place for it."""
    path = tmp_path / "config.toml"
    path.write_text('theme = "textual-light"\n')
    config = load_config(path)
    assert config.theme == "textual-light" and config.problems == []
    session = open_session(tmp_path, cg.EvalSet(id="t", items=make_items(2)))
    try:
        app = make_app(session, scan=fixed_scan(), config=config)
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app)
            assert app.theme == "textual-light"
        path.write_text('theme = "no-such-theme"\n')
        wrong = load_config(path)
        app = make_app(session, scan=fixed_scan(), config=wrong)
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app)
            assert app.theme != "no-such-theme"
            assert any("theme 'no-such-theme' is not one of the app's" in problem for problem in wrong.problems)
    finally:
        session.close()
    path.write_text("theme = 5\n")
    assert load_config(path).problems == [f"{path}: theme must be a theme's name, such as \"textual-light\""]


def test_a_file_that_cannot_be_read_says_its_reviewer_name_is_not_used_either(tmp_path):
    """A typo in [keys] made the whole file unreadable, its reviewer included: the review went on signed by the
    login name, and the only line said "using the default keys"."""
    path = tmp_path / "config.toml"
    path.write_text('reviewer = "ana"\n[keys\n"review.accept" = "y"\n')
    config = load_config(path)
    assert config.reviewer is None
    assert len(config.problems) == 1 and "not valid TOML" in config.problems[0]
    assert "reviewer" in config.problems[0] and "the login name" in config.problems[0]


def test_a_file_in_another_encoding_or_with_a_toml_error_is_named_with_its_line(tmp_path):
    """A Latin-1 file was "not valid TOML ('utf-8' codec can't decode byte 0xe9 in position 26 ...)": a byte offset, and
    not what was wrong; a TOML error named its line only inside the parser's words."""
    path = tmp_path / "config.toml"
    path.write_bytes(b'theme = "textual-light"\nreviewer = "Jos\xe9"\n')
    problem = load_config(path).problems[0]
    assert problem.startswith(f"{path}:2: not UTF-8 (byte 0xe9); save the file as UTF-8;"), problem
    path.write_text('reviewer = "ana"\n\n[keys\n')
    problem = load_config(path).problems[0]
    assert problem.startswith(f"{path}:3: not valid TOML ("), problem

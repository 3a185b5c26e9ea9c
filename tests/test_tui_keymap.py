"""A remap from the settings file never silently takes a key from another action."""

from __future__ import annotations

import pytest

import reviewtui as cg
from reviewtui.evalset.io.settings import CONFIG_ENV, load_config
from reviewtui.tui.app import ReviewApp
from reviewtui.tui.keymap import check_keymap
from reviewtui.tui.screens.review import REVIEW_BINDINGS
from tests.tui_helpers import fixed_scan, make_app, make_items, open_session, settle

ALL = [*REVIEW_BINDINGS, *ReviewApp.BINDINGS]


def test_a_key_another_action_keeps_is_not_taken_from_it():
    keymap, problems = check_keymap({"review.reject": "n,x"}, ALL, "config.toml")
    assert "review.reject" not in keymap  # both keys belong to others: reject keeps "r"
    assert any("'n' is already the key of Note (review.note)" in p for p in problems)
    assert any("'x' is already the key of Whole document (review.document)" in p for p in problems)
    assert any("review.reject' keeps its default key 'r'" in p for p in problems)
    assert all(p.startswith("config.toml: ") for p in problems)


def test_the_free_keys_of_an_entry_are_kept():
    keymap, problems = check_keymap({"review.reject": "n,d"}, ALL)
    assert keymap == {"review.reject": "d"} and len(problems) == 1


def test_two_entries_asking_for_one_key_get_neither():
    keymap, problems = check_keymap({"review.accept": "y", "review.skip": "y"}, ALL)
    assert keymap == {} and sum("'y' is asked for by" in p and "too; neither gets it" in p for p in problems) == 2
    assert not any("already the key of" in p for p in problems)  # neither has it: "already the key of Reject" was untrue


def test_a_swap_is_fine_and_an_unknown_id_is_named():
    keymap, problems = check_keymap({"review.accept": "r", "review.reject": "a", "review.acept": "y"}, ALL)
    assert keymap == {"review.accept": "r", "review.reject": "a"}
    assert problems == ["[keys] 'review.acept' is not a key binding id (the help screen, ?, lists them); ignored"]


def test_a_config_file_named_by_the_environment_must_exist(tmp_path, monkeypatch):
    monkeypatch.setenv(CONFIG_ENV, str(tmp_path / "missing.toml"))
    config = load_config()
    assert config.keymap == {} and len(config.problems) == 1 and "no such file" in config.problems[0]


async def test_the_app_keeps_note_working_and_says_why(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('[keys]\n"review.reject" = "n,x"\n')
    session = open_session(tmp_path, cg.EvalSet(id="k", items=make_items(3)))
    app = make_app(session, scan=fixed_scan(), config=load_config(path))
    try:
        async with app.run_test(size=(100, 40)) as pilot:
            await settle(pilot, app)
            await pilot.press("n")
            await pilot.pause()
            assert type(app.screen).__name__ == "NoteScreen"  # n is still Note
            await pilot.press("escape")
            await pilot.press("r")
            await pilot.pause()
            assert app.screen.reason_picker.is_open  # and reject kept its own key
            messages = " ".join(str(n.message) for n in app._notifications)
            assert "'n' is already the key of Note" in messages and str(path) in messages
    finally:
        session.close()


def test_a_key_name_no_key_press_can_make_is_named_and_the_action_keeps_its_key():
    # "ctrl-y" (a dash for the plus) bound as given left Accept with no key at all, and nothing said so.
    keymap, problems = check_keymap({"review.accept": "ctrl-y", "review.skip": "k,[@click=app.quit]", "review.undo": "\x1b[2J"}, ALL)
    assert keymap == {"review.skip": "k"}
    assert any("'ctrl-y' is not the name of a key" in p for p in problems)
    assert any("'[@click=app.quit]' is not the name of a key" in p for p in problems)
    assert any("'\\x1b[2J' is not the name of a key" in p for p in problems)  # shown escaped, as repr writes it
    assert any("'review.accept' keeps its default key 'a'" in p for p in problems)
    assert any("'review.undo' keeps its default key" in p for p in problems)


def test_every_key_the_app_binds_by_default_is_a_key_name():
    from reviewtui.tui.keymap import is_key_name

    keys = {key.strip() for binding in ALL for key in binding.key.split(",")}
    assert keys and all(is_key_name(key) for key in keys), sorted(k for k in keys if not is_key_name(k))
    for good in ("y", "R", "ctrl+y", "shift+tab", "f5", "question_mark", "?", "space", "alt+a", "ctrl+shift+1", "é", "pound_sign", "£"):
        assert is_key_name(good), good
    for bad in ("ctrl-y", "ctrl+", "ctrl+ctrl+y", "hold+y", "tabb", "two words", "", "no_such_sign", "latin_small_letter_a"):
        assert not is_key_name(bad), bad


def test_a_character_is_bound_by_the_name_textual_gives_its_key():
    # Remapped as "+", Accept never fired (a key press of + is "plus"), and "[" took Previous quote's key unseen.
    keymap, problems = check_keymap({"review.accept": "ctrl+?,+", "review.skip": "["}, ALL)
    assert keymap == {"review.accept": "ctrl+question_mark"}
    assert any("'+' is not the name of a key" in p for p in problems)
    assert any("'left_square_bracket' is already the key of Previous quote" in p for p in problems)


async def test_a_remap_to_a_character_fires_on_that_key(tmp_path):
    session = open_session(tmp_path, cg.EvalSet(id="k", items=make_items(3)))
    app = make_app(session, scan=fixed_scan(), config=cg_config({"review.accept": "!"}))
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app)
            await pilot.press("exclamation_mark")
            await pilot.pause()
            decision = session.queue.decision_for("q1")
            assert decision is not None and decision.verdict.value == "accepted"
    finally:
        session.close()


def cg_config(keymap):
    from reviewtui.evalset.io.settings import AppConfig

    return AppConfig(keymap=keymap)


async def test_many_settings_problems_show_two_toasts_and_a_count(tmp_path, monkeypatch):
    """Five bad remaps gave five toasts stacked past the top of the screen, the first ones never readable."""
    config = tmp_path / "config.toml"
    config.write_text(
        '[keys]\n"review.accept" = "[b]x[/]"\n"review.bogus" = "y"\n"review.skip" = "ctrl-y"\n"nothing.here" = "z"\n"review.undo" = "a"\n',
        encoding="utf-8",
    )
    monkeypatch.setenv(CONFIG_ENV, str(config))
    loaded = load_config()
    session = open_session(tmp_path, cg.EvalSet(id="s", items=make_items(2)))
    app = make_app(session, scan=fixed_scan(), config=loaded)
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app)
            toasts = [n for n in app._notifications if n.title == "settings"]
            assert len(loaded.problems) >= 4 and len(toasts) == 3, [t.message for t in toasts]
            assert f"and {len(loaded.problems) - 2} more problems" in toasts[-1].message
    finally:
        session.close()


def test_the_review_command_prints_every_settings_problem_when_it_closes(tmp_path, monkeypatch, capsys):

    printed = _settings_printed(tmp_path, monkeypatch, capsys, '[keys]\n"review.bogus" = "y"\n"review.skip" = "ctrl-y"\n"nothing.here" = "z"\n')
    assert len(printed) >= 3 and any("review.bogus" in line for line in printed) and any("nothing.here" in line for line in printed)


def test_ctrl_j_is_not_a_key_a_remap_can_take():
    """The app reads ctrl+j (a line feed) as Enter: remapped to it, an action was accepted and never fired."""
    keymap, problems = check_keymap({"review.skip": "ctrl+j"}, REVIEW_BINDINGS)
    assert keymap == {} and any("'ctrl+j' is Enter as some terminals send it" in p for p in problems)
    keymap, problems = check_keymap({"review.skip": "ctrl+j,ctrl+k"}, REVIEW_BINDINGS)
    assert keymap == {"review.skip": "ctrl+k"} and len(problems) == 1


@pytest.mark.parametrize(
    ("key", "why"),
    [
        ("down", "scrolls the pane that has the focus"),
        ("pagedown", "scrolls the pane that has the focus"),
        ("home", "scrolls the pane that has the focus"),
        ("tab", "moves to the next pane"),
        ("shift+tab", "moves to the previous pane"),
        ("ctrl+p", "opens the command palette"),
        ("ctrl+c", "copies the selected text"),
        ("escape", "closes dialogs and panels"),
        ("ctrl+i", "is Tab to a terminal"),
        ("ctrl+m", "is Enter to a terminal"),
        ("ctrl+h", "is Backspace to many terminals"),
        ("ctrl+[", "is Escape to a terminal"),
    ],
)
def test_keys_the_screen_uses_without_an_id_are_not_given_away(key, why):
    """Remapped onto ↓, accept took the scroll key (the first ↓ accepted a question); onto ctrl+m it showed
    in the key bar and never fired, since the terminal sends Enter. Each is refused, the action keeps its key."""
    keymap, problems = check_keymap({"review.accept": key}, REVIEW_BINDINGS)
    assert keymap == {}
    assert any(f"'review.accept': {key!r} {why}" in p for p in problems), problems
    assert any("'review.accept' keeps its default key 'a'" in p for p in problems)


def test_enter_stays_a_key_a_remap_can_take():
    """The settings file's own example binds accept to "y,enter"."""
    assert check_keymap({"review.accept": "y,enter"}, REVIEW_BINDINGS) == ({"review.accept": "y,enter"}, [])


@pytest.mark.parametrize(
    ("key", "says"),
    [
        ("q", "'q' is typed into text fields, and this key acts wherever the focus is"),
        ("question_mark", "'question_mark' is typed into text fields"),
        ("space", "'space' is typed into text fields"),
        ("backspace", "'backspace' is typed into text fields"),
        ("ctrl+s", "'ctrl+s' is the editors' key for save, and this key acts wherever the focus is"),
        ("ctrl+z", "'ctrl+z' is the editors' key for undo"),
        ("ctrl+a", "'ctrl+a' is the editors' key for"),
    ],
)
def test_quit_takes_no_key_a_text_field_needs(key, says):
    """Quit acts wherever the focus is: remapped to q it quit mid-word in a note, and to ctrl+s it made an
    edit impossible to save (the dialog said "ctrl+s saves …; ctrl+s again quits and discards them")."""
    from reviewtui.tui.screens.edit import EditScreen

    keymap, problems = check_keymap({"app.quit": key}, ALL, editing=EditScreen.BINDINGS)
    assert keymap == {}
    assert any(says in p for p in problems), problems
    assert any("'app.quit' keeps its default key 'ctrl+q'" in p for p in problems)


def test_quit_may_take_a_key_no_field_uses_and_other_actions_may_take_characters():
    from reviewtui.tui.screens.edit import EditScreen

    assert check_keymap({"app.quit": "f10,ctrl+q"}, ALL, editing=EditScreen.BINDINGS) == ({"app.quit": "f10,ctrl+q"}, [])
    # an action that is not a priority binding waits for the text field to take the key first
    assert check_keymap({"review.accept": "y,ctrl+s"}, ALL, editing=EditScreen.BINDINGS) == (
        {"review.accept": "y,ctrl+s"},
        [],
    )


def test_shift_with_a_character_is_named_as_the_character():
    """shift+a was accepted and shown in the key bar, but a terminal sends Shift+A as "A": reject lost its key."""
    keymap, problems = check_keymap({"review.reject": "shift+a"}, ALL)
    assert keymap == {}
    assert any("'shift+a' never arrives: a terminal sends Shift with a character as the character itself" in p for p in problems)
    assert any("'review.reject' keeps its default key 'r'" in p for p in problems)
    assert check_keymap({"review.reject": "A"}, ALL) == ({"review.reject": "A"}, [])
    assert check_keymap({"review.reject": "shift+f5"}, ALL) == ({"review.reject": "shift+f5"}, [])


def test_a_key_named_twice_in_one_entry_is_one_key():
    assert check_keymap({"review.history": "H,H"}, ALL) == ({"review.history": "H"}, [])


async def test_a_note_can_hold_the_letter_quit_was_remapped_to(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('[keys]\n"app.quit" = "q"\n')
    session = open_session(tmp_path, cg.EvalSet(id="k", items=make_items(3)))
    app = make_app(session, scan=fixed_scan(), config=load_config(path))
    try:
        async with app.run_test(size=(100, 40)) as pilot:
            await settle(pilot, app)
            await pilot.press("n")
            await pilot.pause()
            assert type(app.screen).__name__ == "NoteScreen"
            await pilot.press(*"quiz")
            await pilot.pause()
            assert app.is_running and type(app.screen).__name__ == "NoteScreen"
            assert "quiz" in str(app.screen.query_one("Input").value)
            messages = " ".join(str(n.message) for n in app._notifications)
            assert "'q' is typed into text fields" in messages
    finally:
        session.close()


def test_undo_may_not_take_a_key_the_summary_gives_another_action():
    """Undo remapped to b (or e) took the summary's key for going back (or exporting): pressing it undid the last decision."""
    from reviewtui.tui.screens.summary import SummaryScreen

    for key, what in (("b", "back to the items"), ("e", "export")):
        keymap, problems = check_keymap({"review.undo": key}, ALL, elsewhere={"the summary": SummaryScreen.BINDINGS})
        assert "review.undo" not in keymap
        assert f"[keys] 'review.undo': '{key}' is the key of {what} on the summary; not used" in problems
    keymap, problems = check_keymap({"review.undo": "z", "review.accept": "b"}, ALL, elsewhere={"the summary": SummaryScreen.BINDINGS})
    assert keymap == {"review.undo": "z", "review.accept": "b"} and not problems  # accept is not on the summary


async def test_the_hints_name_the_keys_the_settings_map(tmp_path):
    """The screens named ctrl+q, ?, w, u, e and ← in words whatever the settings had moved them to: with quit on f10
    and accept on ctrl+q, the opening's "ctrl+q quits now" accepted the first item."""
    from reviewtui.tui import render
    from reviewtui.tui.screens.help import HelpScreen
    from reviewtui.tui.screens.summary import SummaryScreen
    from tests.tui_helpers import screen_text

    keymap = {"app.quit": "f10", "review.accept": "ctrl+q", "review.help": "f1", "review.dismiss": "W", "review.undo": "z"}
    session = open_session(tmp_path, cg.EvalSet(id="s", items=make_items(2)))
    app = make_app(session, scan=fixed_scan(), config=cg_config(keymap))
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            assert app.key_name("app.quit") == app.get_key_display(cg_binding("f10"))
            assert app.key_name("review.skip") == "s"  # not remapped: the declared key
            assert render.HINT_KEYS["review.dismiss"] == "W" and render.HINT_KEYS["review.document"] == "x"
            assert "F1 keys" in screen_text(app) or "f1 keys" in screen_text(app)
            await pilot.press("f1")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            shown = app.key_name("review.help")
            hints = " ".join(str(hint.render()) for hint in app.screen.query(".hint"))
            assert f"Esc or {shown}: close" in hints
            await pilot.press("f1")  # the key that opened it closes it
            await pilot.pause()
            assert not isinstance(app.screen, HelpScreen)
            await pilot.press("ctrl+q", "ctrl+q")  # accept, twice: the last item decided, the summary comes up
            await pilot.pause()
            assert isinstance(app.screen, SummaryScreen)
            text = screen_text(app)
            assert "z: undo the last decision" in text and f"{app.key_name('app.quit')}: quit" in text
    finally:
        session.close()
        render.HINT_KEYS.update({"review.dismiss": "w"})


def cg_binding(key):
    from textual.binding import Binding

    return Binding(key, "")


def test_a_key_is_named_as_textual_names_the_press_whatever_order_its_modifiers_are_written_in():
    """ctrl+alt+y went to accept and alt+ctrl+y to skip with no clash said, though only the second can arrive
    (Textual sorts the modifiers); alt+A was taken, and Alt+Shift+A arrives as alt+shift+a."""
    keymap, problems = check_keymap({"review.accept": "ctrl+alt+y", "review.skip": "alt+ctrl+y"}, ALL)
    assert keymap == {} and sum("'alt+ctrl+y' is asked for by" in p or "'ctrl+alt+y' is asked for by" in p for p in problems) == 2
    keymap, problems = check_keymap({"review.accept": "alt+A", "review.skip": "shift+ctrl+f5"}, ALL)
    assert keymap == {"review.accept": "alt+shift+a", "review.skip": "ctrl+shift+f5"} and not problems


async def test_remapped_adopt_keys_are_listed_each_with_its_own_key(tmp_path):
    """With adopt_1 on F and accept on 1, the help screen listed both "1 Accept" and "1–9 Adopt reviewer N's decision",
    and the palette named key 1 for reviewer 1's decision."""
    session = open_session(tmp_path, cg.EvalSet(id="s", items=make_items(2)))
    app = make_app(session, scan=fixed_scan(), config=cg_config({"review.adopt_1": "F", "review.accept": "1"}))
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            rows = {row.binding_id: row.keys for row in app.key_rows()}
            assert rows["review.accept"] == "1" and rows["review.adopt_1"] == "F" and rows["review.adopt_2"] == "2"
            assert not any(row.keys == "1–9" for row in app.key_rows())
            helps = {command.title: command.help for command in app.get_system_commands(app.screen)}
            assert helps["Take reviewer 1's decision"].endswith("(key F)")
            assert helps["Take reviewer 2's decision"].endswith("(key 2)") and helps["Accept"].endswith("(key 1)")
    finally:
        session.close()
    session = open_session(tmp_path / "plain", cg.EvalSet(id="s", items=make_items(2)))
    app = make_app(session, scan=fixed_scan())
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            assert [row.keys for row in app.key_rows() if row.binding_id.startswith("review.adopt_")] == ["1–9"]
    finally:
        session.close()


def test_the_review_command_prints_a_count_past_twenty_settings_problems(tmp_path, monkeypatch, capsys):
    """A settings file of 30,000 unknown ids printed 30,000 lines as the app closed."""
    from reviewtui.cli.review import SETTINGS_PRINTED

    text = "[keys]\n" + "".join(f'"nothing.{k}" = "y"\n' for k in range(SETTINGS_PRINTED + 7))
    printed = _settings_printed(tmp_path, monkeypatch, capsys, text)
    assert len(printed) == SETTINGS_PRINTED + 1
    assert printed[-1] == "reviewtui: settings: and 7 more problems of the same file"


def _settings_printed(tmp_path, monkeypatch, capsys, settings: str) -> list[str]:
    """The settings problems the review command prints as it closes, its app run headless and quit once open."""
    from reviewtui.cli import main
    from reviewtui.evalset.io import write_jsonl

    config = tmp_path / "config.toml"
    config.write_text(settings, encoding="utf-8")
    monkeypatch.setenv(CONFIG_ENV, str(config))
    run = ReviewApp.run

    def headless(self, *args, **kwargs):  # the command's own app, without a terminal, quit once it has opened
        async def quit_when_open(pilot):
            await pilot.pause()
            self.exit()

        return run(self, headless=True, auto_pilot=quit_when_open)

    monkeypatch.setattr(ReviewApp, "run", headless)
    path = write_jsonl(cg.EvalSet(id="t", items=make_items(2)), tmp_path / "t.jsonl")
    assert main([str(path)]) == 0
    return [line for line in capsys.readouterr().err.splitlines() if line.startswith("reviewtui: settings: ")]


async def test_the_count_of_settings_problems_says_truly_how_many_are_printed(tmp_path, monkeypatch):
    """The app said "all of them are printed when reviewtui closes" of 40,000 problems; the command printed 20 and
    a count."""
    from reviewtui.evalset.io.settings import PROBLEMS_PRINTED

    config = tmp_path / "config.toml"
    config.write_text("[keys]\n" + "".join(f'"nothing.{k}" = "y"\n' for k in range(PROBLEMS_PRINTED + 1500)), encoding="utf-8")
    monkeypatch.setenv(CONFIG_ENV, str(config))
    loaded = load_config()
    session = open_session(tmp_path, cg.EvalSet(id="s", items=make_items(2)))
    app = make_app(session, scan=fixed_scan(), config=loaded)
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app)
            count = [n.message for n in app._notifications if n.title == "settings"][-1]
            assert count == (
                f"and {PROBLEMS_PRINTED + 1500 - 2:,} more problems in the settings file: the first {PROBLEMS_PRINTED} "
                "are printed when reviewtui closes"
            )
    finally:
        session.close()

"""A remap from the settings file never silently takes a key from another action."""

from __future__ import annotations

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
    assert keymap == {} and sum("'y' is already the key of" in p for p in problems) == 2


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
            assert type(app.screen).__name__ == "RejectScreen"  # and reject kept its own key
            messages = " ".join(str(n.message) for n in app._notifications)
            assert "'n' is already the key of Note" in messages and str(path) in messages
    finally:
        session.close()

"""A key remapped to the comma or the plus, the two characters a key list is written with, is told its name.

``"review.accept" = ","`` split into no key at all: the only line said was that accept kept its default key,
without a word of why; ``"+"`` was "not the name of a key" with examples that did not name it."""

from __future__ import annotations

from reviewtui.tui.app import ReviewApp
from reviewtui.tui.keymap import check_keymap
from reviewtui.tui.screens.review import REVIEW_BINDINGS

ALL = [*REVIEW_BINDINGS, *ReviewApp.BINDINGS]


def test_a_comma_alone_is_said_to_name_no_key_and_the_comma_keys_name_is_given():
    keymap, problems = check_keymap({"review.accept": ","}, ALL, "config.toml")
    assert keymap == {}
    assert problems[0] == (
        "config.toml: [keys] 'review.accept': ',' names no key (a comma separates keys; the comma key is named comma); "
        "not used"
    )
    assert problems[1] == "config.toml: [keys] 'review.accept' keeps its default key 'a'"


def test_a_plus_alone_or_after_a_modifier_is_told_the_plus_keys_name():
    keymap, problems = check_keymap({"review.accept": "+", "review.skip": "ctrl++"}, ALL)
    assert keymap == {}
    assert [problem for problem in problems if "the plus key is named plus" in problem] == [
        "[keys] 'review.accept': '+' is not the name of a key (a plus joins a modifier to a key; the plus key is named "
        "plus, as in ctrl+plus); not used",
        "[keys] 'review.skip': 'ctrl++' is not the name of a key (a plus joins a modifier to a key; the plus key is "
        "named plus, as in ctrl+plus); not used",
    ]


def test_the_names_that_message_gives_are_taken():
    keymap, problems = check_keymap({"review.accept": "comma", "review.skip": "plus"}, ALL)
    assert keymap == {"review.accept": "comma", "review.skip": "plus"} and problems == []

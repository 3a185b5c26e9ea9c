"""The one function that makes data displayable: literal, inert, visible control characters."""

from __future__ import annotations

import re

from hypothesis import example, given
from hypothesis import strategies as st
from textual.content import Content

from reviewtui.evalset.text.safe import UNSAFE
from reviewtui.tui.safe import DEFAULT_LIMIT, safe, safe_plain

HOSTILE = [
    "[/]",
    "[@click=app.quit]x[/]",
    "[link='https://x']y[/link]",
    "[b]",
    "[note]",
    "quote: [/o",
    "[",
    "\x1b[2J",
    "\x1b]8;;https://x\x1b\\",
    "\x1b]0;t\x07",
    "\x9b31m",
    "שלום עולם",
    "漢字テスト",
    "👩‍👩‍👧 family",
    "a\u202eb",
    "lone \ud800 surrogate",
]
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def test_markup_looking_text_stays_literal():
    for text in ["[/]", "[@click=app.quit]x[/]", "[link='https://x']y[/link]", "[b]", "[note]", "[", "quote: [/o"]:
        content = safe(text)
        assert isinstance(content, Content)
        assert content.plain == text
        assert not any("click" in str(span.style) or "link" in str(span.style) for span in content.spans)


def test_escape_sequences_become_visible_characters():
    assert safe_plain("\x1b[2J") == "␛[2J"
    assert safe_plain("\x1b]0;t\x07") == "␛]0;t␇"
    assert safe_plain("\x1b]8;;https://x\x1b\\") == "␛]8;;https://x␛\\"
    assert safe_plain("\x9b31m") == "<U+009B>31m"
    assert safe_plain("a\u202eb") == "a<U+202E>b"
    assert safe_plain("x\ud800") == "x<U+D800>"


def test_stand_ins_are_highlighted():
    content = safe("a\x1bb")
    assert [(s.start, s.end) for s in content.spans] == [(1, 2)]


def test_scripts_and_emoji_pass_through():
    for text in ["שלום עולם", "漢字テスト", "👩‍👩‍👧 family", "café — “quoted”"]:
        assert safe_plain(text) == text


def test_newlines_kept_in_panes_and_shown_on_one_line():
    assert safe("a\r\nb").plain == "a\nb"
    assert safe("a\nb", one_line=True).plain == "a↵b"
    assert safe("tab\there").plain == "tab    here"


def test_huge_text_is_cut_and_says_how_long_it_was():
    text = "x" * 1_048_576
    plain = safe(text).plain
    assert plain.startswith("x" * DEFAULT_LIMIT)
    assert "1,048,576 characters" in plain
    assert len(plain) < DEFAULT_LIMIT + 100
    assert safe(text, limit=None).plain == text


def test_non_strings_and_none():
    assert safe(None).plain == ""
    assert safe(42).plain == "42"


@given(st.text())
@example("\x80\u200c\x80")  # a joiner between two controls: once they are stand-ins, it sits beside ASCII
@example("¡\u200c\u200c")  # the same beside a joiner that is replaced
def test_no_control_character_survives(text):
    plain = safe(text, limit=None).plain
    assert not CONTROL.search(plain)
    assert not UNSAFE.search(plain)  # nor any other character the one list calls unsafe (U+200B, U+FEFF, …)
    # Text with nothing on that list comes through as it is (a zero-width space is on it: it is shown escaped).
    if not UNSAFE.search(text) and "\r" not in text:
        assert plain == text


def test_safe_markup_reads_back_as_the_safe_text():
    from textual.content import Content

    from reviewtui.evalset.text.safe import has_unsafe
    from reviewtui.tui.safe import safe_markup

    for text in ["[/]", "[@click=app.quit]boom[/]", "[b]x", "[$accent]x", "[ b]", "\\[b]", "\\\\[b]", "a\\", "]",
                 "\x1b]52;c;aGk=\x07", "\u202e[/]", "[on red]\u2028"]:
        shown = Content.from_markup(safe_markup(text)).plain
        assert shown == safe_plain(text) and not has_unsafe(shown), text


def test_one_cell_keeps_every_column():
    from reviewtui.tui.safe import one_cell

    text = "a\tb\r\x1b\x9b\u202e\u200e\u2028\u200b\ufeff\U000e0041\ud800\n👨\u200d👩 می\u200cخواهم"
    drawn, marks = one_cell(text, one_line=True)
    assert len(drawn) == len(text)
    assert drawn == "a␉b␍␛◌⇄⇄¶◌◌◌�↵👨\u200d👩 می\u200cخواهم"  # joiners inside words and emoji stay
    assert marks == [1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]
    assert one_cell(text, keep_tabs=True)[0].startswith("a\tb")


def test_a_cut_keeps_a_letter_with_its_accent_and_an_emoji_sequence_whole():
    """A text cut at its limit was cut between a letter and its combining accent ("é" shown as "e") and
    inside an emoji sequence, leaving its joiner at the end: drawn as ``<U+200D>``, a stand-in that says the
    data hides an invisible character it does not hide."""
    family = "👨\u200d👩\u200d👧"
    plain = safe("a" * 58 + family + " and more", limit=60).plain
    assert "<U+200D>" not in plain
    assert plain.startswith("a" * 58) and "[cut: " in plain
    plain = safe("b" * 59 + "e\u0301 accent", limit=60).plain
    assert plain.startswith("b" * 59 + " …")  # the "e" goes with its accent, not without it
    plain = safe("c" * 59 + "👍🏽 x", limit=60).plain
    assert "\U0001f3fd" not in plain and "👍" not in plain
    assert safe("\u0301" * 100, limit=60).plain.startswith("\u0301" * 60)  # marks alone: cut where asked
    assert safe("x" * 100, limit=60).plain.startswith("x" * 60 + " …")


def test_a_cut_still_shows_a_lone_joiner_before_it_as_the_stand_in_it_is():
    plain = safe("c" * 58 + "\u200dxy", limit=60).plain
    assert plain.startswith("c" * 58 + "<U+200D>x …")


def test_a_cut_never_parts_a_cr_lf_line_break():
    """Cut between the CR and the LF of a Windows line break, the CR before the cut was drawn as the stand-in ␍, as
    for a control character the data hid."""
    from reviewtui.tui.safe import DEFAULT_LIMIT, safe, safe_ends

    text = "x" * (DEFAULT_LIMIT * 3 // 4 - 1) + "\r\n" + "y" * DEFAULT_LIMIT
    assert "\u240d" not in safe_ends(text).plain
    text = "x" * (DEFAULT_LIMIT - 1) + "\r\n" + "y" * 10
    assert "\u240d" not in safe(text).plain

"""The one list of characters that must never reach a screen as themselves."""

from __future__ import annotations

import io

import pytest

from reviewtui.evalset.evidence.resolution import excerpt
from reviewtui.evalset.text.safe import escaped, for_message, for_terminal, has_unsafe, neutralise, shown
from reviewtui.evalset.text.words import visible
from reviewtui.tui.safe import safe_plain

# One of each family the issue names, plus the classic terminal attacks.
HOSTILE = {
    "escape": "\x1b]52;c;aGk=\x07",
    "csi-c1": "\x9b2J",
    "bell": "\x07",
    "del": "\x7f",
    "line-separator": "\u2028",
    "paragraph-separator": "\u2029",
    "zero-width-space": "\u200b",
    "word-joiner": "\u2060",
    "bom": "\ufeff",
    "tag": "\U000e0041",
    "rlo": "\u202e",
    "isolate": "\u2066",
    "lrm": "\u200e",
    "rlm": "\u200f",
    "alm": "\u061c",
    "joiner-beside-ascii": "q\u200d1",
    "lone-surrogate": "\ud800",
    # invisible too, and two ids that differ by one of them looked the same ("q1" and "q1" + U+206A)
    "deprecated-format": "\u206a",
    "hangul-filler": "\u3164",
    "halfwidth-hangul-filler": "\uffa0",
    "grapheme-joiner": "\u034f",
    "soft-hyphen": "\u00ad",
    "musical-format": "\U0001d173",
    "selector-beside-ascii": "q\ufe0f",
    "ideographic-selector-beside-ascii": "q\U000e0100",
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_every_family_is_neutralised_everywhere(name: str) -> None:
    raw = f"id{HOSTILE[name]}x"
    assert has_unsafe(raw)
    for out in (shown(raw), safe_plain(raw), escaped(raw), visible(raw), excerpt(raw)):
        assert not has_unsafe(out), (name, out)
    tty = _Tty()
    assert not has_unsafe(for_terminal(raw, tty))


def test_joiners_inside_scripts_and_emoji_are_text() -> None:
    emoji = ["🏳\ufe0f\u200d🌈", "❤\ufe0f\u200d🔥", "🕵\ufe0f\u200d♀\ufe0f", "Press 1\ufe0f\u20e3", "#\ufe0f\u20e3"]
    for text in ["می\u200cخواهم", "👩\u200d👩\u200d👧", "क्\u200dष", "\u2764\ufe0f", "\u8fbb\U000e0100", *emoji]:
        assert not has_unsafe(text)
        assert shown(text) == text


def test_stand_ins_are_marked_and_tabs_are_spaces() -> None:
    text, marks = neutralise("a\x1bb\tc")
    assert text == "a␛b    c"
    assert marks == [(1, 2)]


def test_newline_only_unsafe_on_one_line() -> None:
    assert not has_unsafe("a\nb")
    assert has_unsafe("a\nb", one_line=True)
    assert shown("a\r\nb") == "a↵b"


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_for_terminal_neutralises_on_a_tty_only() -> None:
    raw = "set\x1b]52;c;aGk=\x07"
    assert for_terminal(raw, _Tty()) == "set␛]52;c;aGk=␇"
    # A pipe or file gets the real characters (a script wants the real id) but never
    # a lone surrogate, which cannot be encoded.
    assert for_terminal(raw, io.StringIO()) == raw
    assert for_terminal("x\ud800", io.StringIO()) == "x\ufffd"


def test_for_message_makes_what_acts_on_a_display_inert_in_a_pipe_too() -> None:
    """A message piped to head, or kept in a log, reaches a terminal later: its controls and direction
    overrides are stand-ins; what only looks odd (a zero-width space, an emoji's joiner) stays."""
    raw = "set\x1b]52;c;aGk=\x07 \x9b2J \u202eevil\r \u200b 👩\u200d💻 tab\there x\ud800"
    piped = for_message(raw, io.StringIO())
    assert piped == "set␛]52;c;aGk=␇ <U+009B>2J <U+202E>evil␍ \u200b 👩\u200d💻 tab\there x\ufffd"
    assert for_message(raw, _Tty()) == for_terminal(raw, _Tty())  # on a terminal, the one list
    assert for_message("a\nb\u2028c", io.StringIO(), one_line=True) == "a↵b<U+2028>c"
    assert for_message("a\r\nb", io.StringIO(), one_line=True) == "a↵b"  # CR LF is one break
    assert for_message("plain café", io.StringIO()) == "plain café"
    # every character the one list calls unsafe is inert or kept on purpose, never acting
    for code in [*range(0x20), *range(0x7F, 0xA0)]:
        char = chr(code)
        if char not in "\t\n":
            assert char not in for_message(f"a{char}b", io.StringIO()), hex(code)


def test_excerpt_escapes_bidi_and_collapses_space() -> None:
    assert excerpt("a\u202eb\n\tc") == "a\\u202eb c"
    long = "\x1b" * 100
    assert not has_unsafe(excerpt(long, 10))


@pytest.mark.parametrize("keep_newlines", [False, True])
def test_plain_ascii_text_is_returned_as_it_is_and_every_other_ascii_character_still_escapes(keep_newlines: bool) -> None:
    # escaped() skips the pattern for printable ASCII; this holds only while UNSAFE matches none of it.
    import re

    from reviewtui.evalset.text.safe import UNSAFE

    for code in range(0x80):
        char = f"a{chr(code)}b"
        if 0x20 <= code < 0x7F:
            assert UNSAFE.search(char) is None
            assert escaped(char, keep_newlines=keep_newlines) is char
        elif char == "a\nb":
            assert escaped(char, keep_newlines=keep_newlines) == ("a\nb" if keep_newlines else "a\\nb")
        elif char == "a\tb":
            assert escaped(char, keep_newlines=keep_newlines) == "a\tb"
        else:
            assert escaped(char, keep_newlines=keep_newlines) == f"a\\x{code:02x}b"
    assert re.search(r"\\x1b", escaped("id\x1b[31m"))


def test_an_id_written_with_a_backslash_is_not_shown_as_one_holding_the_character(tmp_path, capsys):
    """"q1" + U+202E and "q1\\u202e" typed out were both shown q1\\u202e: two items under one name, in a
    warning's reason, in the report's list of ids and in filter's list of what it removed."""
    from reviewtui.cli import main
    from reviewtui.evalset.text.words import in_quotes, visible_id

    assert in_quotes("q1\u202e") == "'q1\\u202e'"
    assert in_quotes("q1\\u202e") == "'q1\\\\u202e'"  # the backslash doubled, as repr doubles it
    assert in_quotes("q1\\u202e") == repr("q1\\u202e")
    assert visible_id("q1") == "q1"
    assert visible_id("dir\\q1") == "dir\\q1"  # a backslash no one could read as an escape is shown as typed
    assert visible_id("end\\") == "end\\\\" and in_quotes("it\\'s") == repr("it\\'s")
    # No two ids are shown alike: a backslash before a character shown escaped, a tab or another backslash too.
    ids = ["q\\\u202e", "q\\u202e", "q1\u202e", "a\\\x1b", "a\\x1b", "a\\\\u", "a\\\t", "a\\t", "a\t", "x\\y"]
    assert len({in_quotes(item_id) for item_id in ids}) == len(ids)
    quiz = tmp_path / "z.jsonl"
    lines = [
        {"id": item_id, "question": "What is the value of the thing in the big list?", "answer": f"answer {n}"}
        for n, item_id in enumerate(["q1\u202e", "q1\\u202e"])
    ]
    import json

    quiz.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    main(["audit", str(quiz), "--profile", "goldensetauditor"])
    out = capsys.readouterr().out
    assert "q1\\u202e, q1\\\\u202e" in out, out

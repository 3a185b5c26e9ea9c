"""A bracketed paste holding escape characters arrives as one paste, escapes included, and never as keys."""

from __future__ import annotations

import pytest
from textual import events
from textual._xterm_parser import XTermParser

from reviewtui.tui.paste import PasteKeepingParser, keep_escapes_in_pastes

START, END = "\x1b[200~", "\x1b[201~"


def _parsed(parser: XTermParser, *chunks: str) -> list[object]:
    tokens: list[object] = []
    for chunk in chunks:
        tokens.extend(parser.feed(chunk))
    return tokens


def _what(tokens: list[object]) -> list[tuple[str, str]]:
    return [("paste", t.text) if isinstance(t, events.Paste) else ("key", t.key) for t in tokens if isinstance(t, (events.Paste, events.Key))]


@pytest.mark.parametrize(
    "pasted",
    [
        "see \x1b a",  # decided the item on the review screen: the "a" after the escape was a key
        "copied text \x1b[0m as seen",  # opened the type dialog: "m"
        "line2\twith tab\rline3 \x1b[31mRED\x1b[0m [/] end",
        "ends with an escape \x1b",
        "\x1b",
        "holds the parser's own marks \ufdd0\ufdd1\ufdd2 and \ufdd0\x1b",
        "an escape then the start of the end marker \x1b[201 and no more",
    ],
)
def test_a_paste_with_escapes_is_one_paste_whatever_the_reads(pasted):
    whole = f"{START}{pasted}{END}x"
    # Textual's own parser turns the escape's followers into keys (the fault this parser mends)
    assert _what(_parsed(XTermParser(), whole)) != [("paste", pasted), ("key", "x")]
    assert _what(_parsed(PasteKeepingParser(), whole)) == [("paste", pasted), ("key", "x")]
    for cut in range(1, len(whole)):  # the terminal's bytes may arrive in any two reads
        assert _what(_parsed(PasteKeepingParser(), whole[:cut], whole[cut:])) == [("paste", pasted), ("key", "x")], cut


def test_outside_a_paste_keys_parse_as_before():
    typed = "a\x1b[Ab\x1b[1;5Cz"  # a, up, b, ctrl+right, z
    expected = _what(_parsed(XTermParser(), typed))
    assert expected == [("key", "a"), ("key", "up"), ("key", "b"), ("key", "ctrl+right"), ("key", "z")]
    assert _what(_parsed(PasteKeepingParser(), typed)) == expected
    for cut in range(1, len(typed)):
        assert _what(_parsed(PasteKeepingParser(), typed[:cut], typed[cut:])) == expected, cut


def test_an_escape_pressed_alone_is_not_held_back():
    parser = PasteKeepingParser()
    assert _what(_parsed(parser, "\x1b")) == []  # the parser waits for what may follow, as Textual's does
    assert _what(list(parser.feed(""))) == [("key", "escape")]  # and it is the escape key, not held by us
    parser = PasteKeepingParser()
    _parsed(parser, "\x1b[20")  # the start of a paste marker, passed on at once
    assert _what(_parsed(parser, f"0~one \x1b two{END}")) == [("paste", "one \x1b two")]


def test_two_pastes_and_keys_between_them():
    tokens = _parsed(PasteKeepingParser(), f"{START}a\x1bb{END}q{START}\x1b{END}", "r")
    assert _what(tokens) == [("paste", "a\x1bb"), ("key", "q"), ("paste", "\x1b"), ("key", "r")]


def test_the_driver_is_given_the_parser_once(monkeypatch):
    from textual.drivers import linux_driver

    monkeypatch.setattr(linux_driver, "XTermParser", XTermParser)
    keep_escapes_in_pastes(linux_driver.LinuxDriver)
    assert linux_driver.XTermParser is PasteKeepingParser
    other = type("Other", (XTermParser,), {})
    monkeypatch.setattr(linux_driver, "XTermParser", other)
    keep_escapes_in_pastes(linux_driver.LinuxDriver)
    assert linux_driver.XTermParser is other  # someone else's parser is left alone


@pytest.mark.parametrize("held", ["\x1b", "\x1b[", "\x1b[2", "\x1b[20", "\x1b[201"])
def test_a_read_that_is_all_held_back_does_not_end_the_input(held):
    # A read inside a paste that is only the start of the end marker (or a lone escape, a terminal writing a paste
    # of one escape apart from its markers) is held back whole: fed on as "", it ended the parser's input, and
    # every read after it, keys and the quit key included, raised ParseError in the driver's input thread.
    tokens = _parsed(PasteKeepingParser(), f"{START}one", held, END[len(held):], "x")
    assert _what(tokens) == [("paste", "one"), ("key", "x")]
    tokens = _parsed(PasteKeepingParser(), START, held, "two", END, "q")
    assert _what(tokens) == [("paste", held + "two"), ("key", "q")]

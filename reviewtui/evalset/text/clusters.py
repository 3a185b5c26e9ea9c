"""Where one character as a reader sees it ends: a letter with its marks, an emoji sequence, a CR LF.

Text is cut (for the screen) and mapped back after folding (a search's snippet) at these bounds, so that
neither parts what the screen draws as one: an "é" written as "e" and a combining accent, "👨‍👩‍👧", a
Hangul syllable written as its letters, the CR and LF of one line break.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator

__all__ = ["clusters", "continues"]


def continues(text: str, at: int) -> bool:
    """Whether ``text[at]`` belongs to the character before it: a combining or spacing mark, a variation
    selector, an emoji's skin tone, a Hangul vowel or final consonant written apart, the LF of a CR LF, or a
    joiner after a character it can join (after ASCII it is a character of its own, shown as a stand-in), or
    what such a joiner joins."""
    char = text[at]
    if char == "\n":
        return at > 0 and text[at - 1] == "\r"
    if char in "\u200c\u200d" or (at > 0 and text[at - 1] == "\u200d"):
        joiner = at if char in "\u200c\u200d" else at - 1
        return joiner > 0 and not text[joiner - 1].isascii()
    return (
        unicodedata.category(char) in ("Mn", "Mc", "Me")
        or "\ufe00" <= char <= "\ufe0f"
        or "\U0001f3fb" <= char <= "\U0001f3ff"
        or "\U000e0100" <= char <= "\U000e01ef"
        or "\u1160" <= char <= "\u11ff"
    )


def clusters(text: str) -> Iterator[tuple[int, str]]:
    """``text`` as (start, characters) of each character as a reader sees it (see :func:`continues`)."""
    begin = 0
    for index in range(1, len(text)):
        if not continues(text, index):
            yield begin, text[begin:index]
            begin = index
    if text:
        yield begin, text[begin:]

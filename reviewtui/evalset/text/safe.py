"""The one definition of a character that must never reach a screen as itself.

Text from a user's files (questions, quotes, ids, notes, config keys, journal
records) is data. Some characters in it act on whatever draws them instead of
being drawn: C0 and C1 controls start terminal escape sequences (a clipboard
write, a title change, a cleared screen), bidirectional overrides reorder what
follows them, line and paragraph separators break a line where none was
expected, and invisible characters (zero-width spaces and joiners, the byte
order mark, Unicode tag characters) make two different ids look the same.

Everything that shows data (the review app's widgets, the command line on a
terminal, the reports) neutralises these characters through this module, so
there is one list to keep right. The core imports no UI: the app's
``reviewtui.tui.safe`` wraps :func:`neutralise` in a Textual ``Content``.

Only what is *shown* changes. Editors and files keep the real characters.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from functools import cache
from typing import TextIO

__all__ = [
    "UNSAFE",
    "draws_nothing",
    "escaped",
    "for_message",
    "for_terminal",
    "has_unsafe",
    "is_invisible_mark",
    "neutralise",
    "shown",
    "shows_something",
]

# What counts as unsafe, by family (newline is handled separately: it is safe in
# a multi-line pane and unsafe on one line):
#   \x00-\x09 \x0b-\x1f  C0 controls (tab is drawn as spaces, the rest as control pictures)
#   \x7f-\x9f            DEL and the C1 controls (0x9b is a one-byte CSI on some terminals)
#   \u061c               Arabic letter mark (a bidi control)
#   \u180e               Mongolian vowel separator (invisible)
#   \u200b \u200e \u200f  zero-width space; LRM, RLM
#   \u200c \u200d        zero-width non-joiner and joiner, unless both neighbours are safe,
#                        non-ASCII, non-space characters: there they shape Persian and
#                        Indic words and join emoji, and cannot pad an ASCII id
#   \u2028 \u2029        line and paragraph separators
#   \u202a-\u202e        bidi embeddings and overrides
#   \u2060-\u2064        word joiner and invisible operators
#   \u2066-\u2069        bidi isolates
#   \ufeff               byte order mark / zero-width no-break space
#   \ufff9-\ufffb        interlinear annotation marks
#   \ud800-\udfff        lone surrogates (cannot be encoded for output)
#   \U000e0000-\U000e007f tag characters (invisible; used to smuggle text)
#   \u00ad               soft hyphen (invisible, or a hyphen: terminals disagree)
#   \u034f               combining grapheme joiner (invisible)
#   \u115f \u1160 \u3164 \uffa0  Hangul fillers (blank, and as wide as a letter or not at all)
#   \u206a-\u206f        deprecated format controls (invisible)
#   \U0001d173-\U0001d17a musical format controls (invisible)
#   \ufe00-\ufe0f \U000e0100-\U000e01ef  variation selectors, unless they follow a character they can
#                        vary (non-ASCII, not space): "❤️" keeps its emoji style, "q1" + U+FE0F is shown
_CLASS = (
    "\x00-\x09\x0b-\x1f\x7f-\x9f\u00ad\u034f\u061c\u115f\u1160\u180e\u200b\u200e\u200f\u2028\u2029"
    "\u202a-\u202e\u2060-\u2064\u2066-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb\ud800-\udfff"
    "\U000e0000-\U000e007f\U0001d173-\U0001d17a"
)
_SELECTORS = "\ufe00-\ufe0f\U000e0100-\U000e01ef"
# A joiner is kept only between two characters that are kept as they are: non-ASCII, not space, not in
# the class above and not another joiner (a neighbour that is replaced by an ASCII stand-in would leave
# the joiner beside ASCII after all). The pattern starts at the joiner itself, so that the search does
# not try a look-behind at every position of a clean text.
_KEPT_NEIGHBOUR = f"[^\\x00-\\x7f\\s{_CLASS}\u200c\u200d{_SELECTORS}]"
# Before a joiner, a kept character may carry its variation selector: the rainbow flag is
# U+1F3F3 U+FE0F U+200D U+1F308.
_JOINERS = (
    f"[\u200c\u200d](?:(?<!{_KEPT_NEIGHBOUR}[\u200c\u200d])(?<!{_KEPT_NEIGHBOUR}[{_SELECTORS}][\u200c\u200d])"
    f"|(?!{_KEPT_NEIGHBOUR}))"
)
# A variation selector is kept right after a character that is kept as it is (see _KEPT_NEIGHBOUR),
# and in a keycap: a digit, "#" or "*", U+FE0F, then U+20E3 ("1️⃣").
_VARIATIONS = f"[{_SELECTORS}](?<!{_KEPT_NEIGHBOUR}[{_SELECTORS}])(?!(?<=[0-9#*]\ufe0f)\u20e3)"
#: Matches one unsafe character (newline excluded: see ``one_line``).
UNSAFE = re.compile(f"[{_CLASS}]|{_JOINERS}|{_VARIATIONS}")
_UNSAFE_ONE_LINE = re.compile(f"[{_CLASS}\n]|{_JOINERS}|{_VARIATIONS}")


#: Characters that draw as blank space or nothing at all without being one of the controls, invisibles and
#: direction marks :func:`has_control_chars` finds: "ana" + a braille blank looked like "ana" in every list.
_BLANK_LOOKING = frozenset("\u115f\u1160\u17b4\u17b5\u2800\u3164\uffa0")


def draws_nothing(char: str) -> bool:
    """A character that draws as blank or as nothing, the space aside: a format, private, unassigned or other
    control character, a separator other than the space, or a blank letter or mark."""
    category = unicodedata.category(char)
    return char in _BLANK_LOOKING or category[0] == "C" or (category[0] == "Z" and char != " ")


#: Marks that draw nothing of their own: the grapheme joiner and the variation selectors (the same code points as
#: the unsafe list's, which keeps a selector after a character it can vary: drawn, it changes that character only).
_INVISIBLE_MARKS = re.compile(f"[\u034f{_SELECTORS}]")


def is_invisible_mark(char: str) -> bool:
    """A combining mark that adds nothing a reader sees to the letter it follows (a text compared as read drops it)."""
    return _INVISIBLE_MARKS.match(char) is not None


def shows_something(text: str) -> bool:
    """Whether ``text`` has a character that draws as something: a question or a quote of zero-width spaces
    alone passed a check of ``strip()``, and showed as nothing."""
    return any(not char.isspace() and not draws_nothing(char) for char in text)


def has_unsafe(text: str, *, one_line: bool = False) -> bool:
    """Whether showing ``text`` as it is could act on the display."""
    return (_UNSAFE_ONE_LINE if one_line else UNSAFE).search(text) is not None


@cache
def _stand_in(char: str) -> str:
    code = ord(char)
    if char == "\t":
        return "    "
    if char == "\n":
        return "\u21b5"  # ↵: a newline kept on one line
    if code < 0x20:
        return chr(0x2400 + code)  # Unicode "control pictures": ␀ … ␛ …
    if code == 0x7F:
        return "\u2421"  # ␡
    if code == 0xAD:
        return "\u2010"  # ‐: where a soft hyphen may break a word ("Multi­level" in a contract), drawn as the hyphen it stands for
    return f"<U+{code:04X}>"


def neutralise(text: str, *, one_line: bool = False) -> tuple[str, list[tuple[int, int]]]:
    """``text`` with every unsafe character replaced by a visible stand-in.

    Returns the new text and the ``(start, end)`` of each stand-in in it (tabs,
    drawn as plain spaces, are not marked), so a caller can highlight them.
    ``one_line`` also replaces newlines (with ``↵``); a CR LF pair is one break.
    """
    pattern = _UNSAFE_ONE_LINE if one_line else UNSAFE
    if not pattern.search(text):
        return text, []
    if "\r\n" in text:
        text = text.replace("\r\n", "\n")
    out: list[str] = []
    marks: list[tuple[int, int]] = []
    length = 0
    last = 0
    for match in pattern.finditer(text):
        start = match.start()
        out.append(text[last:start])
        length += start - last
        char = match.group()
        stand_in = _stand_in(char)
        out.append(stand_in)
        if char != "\t":
            marks.append((length, length + len(stand_in)))
        length += len(stand_in)
        last = match.end()
    out.append(text[last:])
    return "".join(out), marks


def shown(text: object, *, one_line: bool = True) -> str:
    """Any value as plain text that is safe to draw: :func:`neutralise` without the marks."""
    raw = "" if text is None else text if isinstance(text, str) else str(text)
    return neutralise(raw, one_line=one_line)[0]


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code <= 0xFF:
        return f"\\x{code:02x}"
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def escaped(text: str, *, keep_newlines: bool = False) -> str:
    """``text`` with unsafe characters written as backslash escapes (``\\x1b``, ``\\u202e``).

    For reports and logs, where a reader may want the exact code point. Tabs are
    kept; newlines become ``\\n`` unless ``keep_newlines``.
    """
    if text.isascii() and text.isprintable():  # most ids and words: no character to escape (tested against UNSAFE)
        return text
    if keep_newlines:
        return "\n".join(_escape_line(line) for line in text.split("\n"))
    return _escape_line(text.replace("\n", "\\n"))


_UNSAFE_NO_TAB = re.compile(f"[{_CLASS.replace(chr(0) + '-' + chr(9), chr(0) + '-' + chr(8))}]|{_JOINERS}|{_VARIATIONS}")


def _escape_line(line: str) -> str:
    return _UNSAFE_NO_TAB.sub(_escape, line)


def for_terminal(text: object, stream: TextIO | None = None, *, one_line: bool = False) -> str:
    """Text for the command line to print on ``stream`` (standard output by default).

    On a terminal every unsafe character is replaced by its stand-in. Into a pipe
    or a file the data is written as it is (a script reading ``reviewtui info``
    gets the real ids), except lone surrogates, which no encoder can write.
    """
    raw, tty = _text_and_terminal(text, stream)
    if tty:
        return neutralise(raw, one_line=one_line)[0]
    if one_line and "\n" in raw:
        raw = raw.replace("\r\n", "\n").replace("\n", "\u21b5")
    return _SURROGATE.sub("\ufffd", raw)


_SURROGATE = re.compile("[\ud800-\udfff]")


def _text_and_terminal(text: object, stream: TextIO | None) -> tuple[str, bool]:
    """``text`` as a string, and whether ``stream`` (standard output by default) is a terminal."""
    raw = "" if text is None else text if isinstance(text, str) else str(text)
    target = sys.stdout if stream is None else stream
    try:
        return raw, bool(target.isatty())
    except (AttributeError, ValueError):
        return raw, False

# What acts on whatever finally shows a line, wherever it was written first: controls (an escape sequence
# starts with one, a carriage return rewrites the line), direction marks and overrides, and lone surrogates.
# Invisible characters are left out: they disguise an id but act on nothing, and a script wants them.
_ACTS = "\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff"
_ACTING = re.compile(f"[{_ACTS}]")
_ACTING_ONE_LINE = re.compile(f"[{_ACTS}\n\u2028\u2029]")


def for_message(text: object, stream: TextIO | None = None, *, one_line: bool = False) -> str:
    """A message of the command line's (a summary, a warning, an error) for ``stream``.

    On a terminal, as :func:`for_terminal`. A message piped to ``head``, ``less`` or ``cat``, or
    redirected and shown later, reaches a terminal all the same, so into a pipe or a file too the
    characters that act on a display become stand-ins: controls (an escape sequence, a carriage
    return) and direction overrides. The rest of the data goes as it is. Reports a program reads
    (JSON, an exported set) go through :func:`for_terminal` instead, whole.
    """
    raw, tty = _text_and_terminal(text, stream)
    if tty:
        return neutralise(raw, one_line=one_line)[0]
    pattern = _ACTING_ONE_LINE if one_line else _ACTING
    if not pattern.search(raw):
        return raw
    if "\r\n" in raw:
        raw = raw.replace("\r\n", "\n")
    return pattern.sub(lambda match: _stand_in(match.group()) if not _SURROGATE.match(match.group()) else "\ufffd", raw)

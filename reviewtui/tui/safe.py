"""The one door through which text from a user's files reaches a widget.

Questions, quotes, ids, notes and corpus text are data, never markup, and never
terminal commands. Textual parses plain strings as markup by default (``[/]``
crashes, ``[@click=app.quit]`` runs an action, ``[note]`` disappears), and even
with markup off, escape sequences such as ``\\x1b[2J`` or OSC 8 links reach the
terminal. ``rich.markup.escape`` does not cover either problem.

:func:`safe` returns a :class:`~textual.content.Content` built from the literal
characters, so no markup parser ever sees the data, and with every control
character replaced by a visible, highlighted stand-in.
"""

from __future__ import annotations

import re
from functools import lru_cache

from textual.content import Content, Span

__all__ = ["CONTROL_STYLE", "DEFAULT_LIMIT", "join", "safe", "safe_plain"]

#: How visible stand-ins for control characters are drawn.
CONTROL_STYLE = "reverse"
#: Longest text drawn by default; a 1 MB question is shown cut, with its true length.
DEFAULT_LIMIT = 20_000

# C0 controls except newline, DEL, C1 controls, bidirectional overrides and isolates
# (they reorder what is drawn after them), lone surrogates, interlinear annotation marks.
_UNSAFE = re.compile(
    "[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
    "\ud800-\udfff\ufff9-\ufffb]"
)
_UNSAFE_ONE_LINE = re.compile(_UNSAFE.pattern[:-1] + "\n]")


@lru_cache(maxsize=None)
def _stand_in(char: str) -> str:
    code = ord(char)
    if char == "\t":
        return "    "
    if code < 0x20:
        return chr(0x2400 + code)  # Unicode "control pictures": ␀ … ␛ …
    if code == 0x7F:
        return "\u2421"  # ␡
    return f"<U+{code:04X}>"


def _neutralise(text: str, one_line: bool) -> tuple[str, list[tuple[int, int]]]:
    """Replace unsafe characters; return the new text and where stand-ins landed."""
    pattern = _UNSAFE_ONE_LINE if one_line else _UNSAFE
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
        stand_in = "\u21b5" if char == "\n" else _stand_in(char)  # ↵ for a newline kept on one line
        out.append(stand_in)
        if char != "\t":
            marks.append((length, length + len(stand_in)))
        length += len(stand_in)
        last = match.end()
    out.append(text[last:])
    return "".join(out), marks


def safe(
    text: object,
    *,
    style: str = "",
    limit: int | None = DEFAULT_LIMIT,
    one_line: bool = False,
) -> Content:
    """Make any value from the data displayable as literal text.

    ``style`` is applied to the whole text (it is ours, not the data's).
    ``limit`` cuts very long text and says how long it really was; ``None`` keeps all.
    ``one_line`` also shows newlines as ``↵`` (for table cells and titles).
    """
    if text is None:
        return Content("")
    raw = text if isinstance(text, str) else str(text)
    cut_note = ""
    if limit is not None and len(raw) > limit:
        cut_note = f" … [cut: {len(raw):,} characters in all]"
        raw = raw[:limit]
    plain, marks = _neutralise(raw, one_line)
    spans = [Span(start, end, CONTROL_STYLE) for start, end in marks]
    body = plain + cut_note
    if cut_note:
        spans.append(Span(len(plain), len(body), "italic dim"))
    if style:
        spans.insert(0, Span(0, len(body), style))
    return Content(body, spans, strip_control_codes=False)


def safe_plain(text: object, *, limit: int | None = DEFAULT_LIMIT, one_line: bool = True) -> str:
    """The same neutralised text as a plain string, for APIs that take ``str`` (use with ``markup=False``)."""
    return safe(text, limit=limit, one_line=one_line).plain


def join(*parts: Content | str) -> Content:
    """Concatenate our own labels (str, treated literally) with safe data (Content)."""
    return Content.assemble(*(part if isinstance(part, Content) else Content(part) for part in parts))

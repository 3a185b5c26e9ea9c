"""The one door through which text from a user's files reaches a widget.

Questions, quotes, ids, notes and corpus text are data, never markup, and never
terminal commands. Textual parses plain strings as markup by default (``[/]``
crashes, ``[@click=app.quit]`` runs an action, ``[note]`` disappears), and even
with markup off, escape sequences such as ``\\x1b[2J`` or OSC 8 links reach the
terminal. ``rich.markup.escape`` does not cover either problem.

:func:`safe` returns a :class:`~textual.content.Content` built from the literal
characters, so no markup parser ever sees the data, and with every control
character replaced by a visible, highlighted stand-in. Which characters are
unsafe is decided in one place for the app and the command line alike:
:mod:`reviewtui.evalset.text.safe`.
"""

from __future__ import annotations

from functools import cache

from textual.content import Content, Span

from reviewtui.evalset.text.clusters import continues
from reviewtui.evalset.text.safe import UNSAFE, neutralise

__all__ = ["CONTROL_STYLE", "DEFAULT_LIMIT", "join", "one_cell", "safe", "safe_ends", "safe_markup", "safe_plain"]

#: How visible stand-ins for control characters are drawn.
CONTROL_STYLE = "reverse"
#: Longest text drawn by default; a 1 MB question is shown cut, with its true length.
DEFAULT_LIMIT = 20_000


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
        raw = raw[: _cut_at(raw, limit)]
    plain, marks = neutralise(raw, one_line=one_line)
    spans = [Span(start, end, CONTROL_STYLE) for start, end in marks]
    body = plain + cut_note
    if cut_note:
        spans.append(Span(len(plain), len(body), "italic dim"))
    if style:
        spans.insert(0, Span(0, len(body), style))
    return Content(body, spans, strip_control_codes=False)


#: How far a cut moves back to keep a character whole (a letter with its marks, an emoji sequence).
_CLUSTER_BACKOFF = 32


def _cut_at(raw: str, limit: int) -> int:
    """Where to cut ``raw`` near ``limit`` without parting a character from its marks or an emoji
    sequence at a joiner: cut there, the accent of "é" was lost and the joiner of "👨‍👩‍👧" was
    shown as a stand-in, ``<U+200D>``, as if the data hid one."""
    end = limit
    while end > max(0, limit - _CLUSTER_BACKOFF) and continues(raw, end):
        end -= 1
    return end if end > max(0, limit - _CLUSTER_BACKOFF) else limit


def safe_ends(text: str, *, limit: int = DEFAULT_LIMIT, whole: str = "") -> Content:
    """:func:`safe` for a text read to its end: one longer than ``limit`` shows its start and its end, with
    how much is left out between them (``whole``: where the whole of it can be read). Cut after the limit, a
    50,000-character quote whose last words held the answer could not show them at all."""
    if len(text) <= limit:
        return safe(text, limit=None)
    head = _cut_at(text, limit * 3 // 4)
    tail = len(text) - limit // 4
    while tail < len(text) and continues(text, tail):  # the end begins with a whole character too
        tail += 1
    note = f" … [{tail - head:,} of {len(text):,} characters left out here{f'; {whole}' if whole else ''}] … "
    return join(safe(text[:head], limit=None), Content.styled(note, "italic dim"), safe(text[tail:], limit=None))


def safe_plain(text: object, *, limit: int | None = DEFAULT_LIMIT, one_line: bool = True) -> str:
    """The same neutralised text as a plain string, for APIs that take ``str`` (use with ``markup=False``)."""
    return safe(text, limit=limit, one_line=one_line).plain


def safe_markup(text: object, *, limit: int | None = DEFAULT_LIMIT) -> str:
    """:func:`safe_plain` text written as Textual markup that reads back as itself.

    Only for the few Textual APIs that parse every string they get as markup (the
    command palette's help text). In Textual markup a tag opens at a ``[`` with no
    backslash before it, and in plain text ``\\[`` reads back as ``[``; so putting a
    backslash before every ``[`` leaves no tag and gives back the text exactly.
    """
    return safe_plain(text, limit=limit).replace("[", "\\[")


def join(*parts: Content | str) -> Content:
    """Concatenate our own labels (str, treated literally) with safe data (Content)."""
    return Content.assemble(*(part if isinstance(part, Content) else Content(part) for part in parts))


@cache
def _one_cell_stand_in(char: str) -> str:
    code = ord(char)
    if char == "\n":
        return "\u21b5"  # ↵
    if code < 0x20:
        return chr(0x2400 + code)  # the control pictures: ␉ ␍ ␛ …
    if code == 0x7F:
        return "\u2421"  # ␡
    if 0xD800 <= code <= 0xDFFF:
        return "\ufffd"  # a lone surrogate: no terminal can be sent it
    if code in (0x2028, 0x2029):
        return "\u00b6"  # ¶
    if code in (0x061C, 0x200E, 0x200F) or 0x202A <= code <= 0x202E or 0x2066 <= code <= 0x2069:
        return "\u21c4"  # ⇄: a direction mark, embedding, override or isolate
    return "\u25cc"  # ◌: any other invisible or control character (C1, zero-width, BOM, tags)


def one_cell(text: str, *, one_line: bool = False, keep_tabs: bool = False) -> tuple[str, list[int]]:
    """``text`` as an editor draws it: each unsafe character replaced by ONE visible character.

    Editors keep the real characters (saving must give back exactly what was
    loaded, plus what the reviewer typed), so their cursor columns count the real
    characters. :func:`safe` writes stand-ins such as ``<U+202E>`` that are longer
    than what they stand for, which would put the cursor in the wrong place; here
    the drawn text has the same length as ``text``, one cell per stand-in, so a
    column means the same character in both. Which characters are unsafe is still
    decided by :mod:`reviewtui.evalset.text.safe`; only how they are drawn is chosen here.

    Returns the drawn text and the index of every stand-in (for CONTROL_STYLE).
    ``one_line`` also draws newlines (``↵``); ``keep_tabs`` leaves tabs to an
    editor that expands them to spaces itself (TextArea).
    """
    marks: list[int] = []
    chars: list[str] | None = None
    for match in UNSAFE.finditer(text):
        char = match.group()
        if keep_tabs and char == "\t":
            continue
        if chars is None:
            chars = list(text)
        index = match.start()
        chars[index] = _one_cell_stand_in(char)
        marks.append(index)
    if one_line and "\n" in text:
        if chars is None:
            chars = list(text)
        for index, char in enumerate(text):
            if char == "\n":
                chars[index] = _one_cell_stand_in(char)
                marks.append(index)
        marks.sort()
    return ("".join(chars) if chars is not None else text), marks

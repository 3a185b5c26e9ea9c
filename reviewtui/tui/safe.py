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
:mod:`reviewtui.evalset.safetext`.
"""

from __future__ import annotations

from textual.content import Content, Span

from reviewtui.evalset.safetext import neutralise

__all__ = ["CONTROL_STYLE", "DEFAULT_LIMIT", "join", "safe", "safe_plain"]

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
        raw = raw[:limit]
    plain, marks = neutralise(raw, one_line=one_line)
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

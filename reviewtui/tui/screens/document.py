"""A whole source document, scrolled to the selected quote and with the quote selected.

A read-only TextArea copes with long documents (a few hundred KB) and scrolls to a
position without wrapping the whole text first. It is given the neutralised text,
so control characters in a corpus are shown, not sent to the terminal; positions
are computed on the neutralised text so the selection lands on the quote.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Static, TextArea
from textual.widgets.text_area import Selection

from reviewtui.evalset.model.items import Span
from reviewtui.tui.safe import join, safe, safe_plain
from reviewtui.tui.screens.base import Dialog

#: Characters of a document the screen holds: a longer one is shown as this much around the quote (or from its
#: start), cut at line ends. Whole, a 225 MB document took the app five minutes and 3 GB, during which not even
#: the quit key was handled; at 10 MB the screen froze for seconds.
DOCUMENT_SHOWN = 200_000


def shown_part(text: str, span: Span | None, limit: int = DOCUMENT_SHOWN) -> tuple[int, int]:
    """The (start, end) of ``text`` the screen shows: all of it when it fits, else ``limit`` characters around the
    quote at ``span`` (or from the start), widened to the nearest line ends within a tenth of the limit."""
    if len(text) <= limit:
        return 0, len(text)
    middle = (span.start + span.end) // 2 if span is not None else 0
    start = max(0, min(middle - limit // 2, len(text) - limit))
    end = start + limit
    if span is not None:  # a quote longer than the limit: its start in view, as the cursor is
        start = min(start, span.start)
        end = max(end, min(len(text), start + limit))
    slack = limit // 10
    if start > 0:
        line = text.rfind("\n", max(0, start - slack), start)
        start = line + 1 if line != -1 else start
    if end < len(text):
        line = text.find("\n", end, end + slack)
        end = line if line != -1 else end
    return start, end


def _location(text: str) -> tuple[int, int]:
    """(row, column) of the end of ``text`` once shown."""
    row = text.count("\n")
    return row, len(text) - (text.rfind("\n") + 1)


class DocumentScreen(Dialog[None]):
    BINDINGS = [Binding("escape,x,q", "close", "Close", id="document.close")]

    def __init__(self, doc_id: str, text: str, span: Span | None) -> None:
        super().__init__()
        self._doc_id = doc_id
        self._length = len(text)
        self._from, until = shown_part(text, span)
        self._text = text[self._from : until]  # the part shown; the span's offsets are the whole document's
        self._span = span

    def compose(self) -> ComposeResult:
        where = "" if self._span is None else f" · quote at chars {self._span.start:,}–{self._span.end:,}"
        part = ""
        if len(self._text) < self._length:
            part = f" · showing chars {self._from:,}–{self._from + len(self._text):,}, the part around the quote"
            if self._span is None:
                part = f" · showing its first {len(self._text):,}"
        with Vertical(classes="box"):
            title = join(safe(self._doc_id, one_line=True, limit=300), f" · {self._length:,} characters{where}{part}")
            yield Static(title, classes="box-title")
            yield TextArea(safe_plain(self._text, limit=None, one_line=False), read_only=True, soft_wrap=True, id="document")
            yield Static("↑↓ PgUp PgDn: scroll · Esc or x: close", classes="hint")

    def on_mount(self) -> None:
        area = self.query_one("#document", TextArea)
        area.focus()
        if self._span is not None:
            first, last = self._span.start - self._from, self._span.end - self._from
            start = _location(safe_plain(self._text[: max(0, first)], limit=None, one_line=False))
            end = _location(safe_plain(self._text[: max(0, last)], limit=None, one_line=False))
            # The cursor sits at the quote's start (a selection's cursor is its ``end``), so that a quote
            # longer than the screen is shown from its first line, with the text before it above.
            area.selection = Selection(end, start)
            self.call_after_refresh(area.scroll_cursor_visible, center=True, animate=False)

    def on_resize(self) -> None:
        # The text wraps again at the new width under the same scroll offset, which then shows another part of
        # the document: the cursor (at the quote, unless the reader has moved it) is brought back into view.
        area = self.query_one("#document", TextArea)
        self.call_after_refresh(area.scroll_cursor_visible, center=True, animate=False)

    def action_close(self) -> None:
        self.dismiss(None)

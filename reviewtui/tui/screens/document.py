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


def _location(text: str) -> tuple[int, int]:
    """(row, column) of the end of ``text`` once shown."""
    row = text.count("\n")
    return row, len(text) - (text.rfind("\n") + 1)


class DocumentScreen(Dialog[None]):
    BINDINGS = [Binding("escape,x,q", "close", "Close", id="document.close")]

    def __init__(self, doc_id: str, text: str, span: Span | None) -> None:
        super().__init__()
        self._doc_id = doc_id
        self._text = text
        self._span = span

    def compose(self) -> ComposeResult:
        where = "" if self._span is None else f" · quote at chars {self._span.start:,}–{self._span.end:,}"
        with Vertical(classes="box"):
            title = join(safe(self._doc_id, one_line=True, limit=300), f" · {len(self._text):,} characters{where}")
            yield Static(title, classes="box-title")
            yield TextArea(safe_plain(self._text, limit=None, one_line=False), read_only=True, soft_wrap=True, id="document")
            yield Static("↑↓ PgUp PgDn: scroll · Esc or x: close", classes="hint")

    def on_mount(self) -> None:
        area = self.query_one("#document", TextArea)
        area.focus()
        if self._span is not None:
            start = _location(safe_plain(self._text[: self._span.start], limit=None, one_line=False))
            end = _location(safe_plain(self._text[: self._span.end], limit=None, one_line=False))
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

"""A read-only box over the review: the item's meta, or the items its warnings name."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.events import Key
from textual.widgets import Static

from reviewtui.tui.safe import join, safe
from reviewtui.tui.screens.base import Dialog


class DetailsScreen(Dialog[None]):
    """A title, a scrolling body and a hint; Esc (or the key that opened it) closes it."""

    BINDINGS = [
        Binding("escape,q", "close", "Close", id="details.close"),
        Binding("pageup", "scroll(-1)", "Page up", id="details.page_up", show=False),
        Binding("pagedown", "scroll(1)", "Page down", id="details.page_down", show=False),
    ]

    def __init__(self, title: Content, body: Content, closing_key: str) -> None:
        super().__init__()
        self._title = title
        self._body = body
        self._closing_key = closing_key

    def compose(self) -> ComposeResult:
        with Vertical(classes="box"):
            yield Static(self._title, classes="box-title")
            with VerticalScroll(id="details-scroll"):
                yield Static(self._body, id="details-body")
            closing = safe(self._closing_key, one_line=True, limit=20)
            yield Static(join("↑↓ PgUp PgDn: scroll · Esc or ", closing, ": close"), classes="hint")

    def on_mount(self) -> None:
        self.query_one("#details-scroll").focus()

    def on_key(self, event: Key) -> None:  # the key that opened the box closes it too
        if event.key == self._closing_key:
            event.stop()
            self.dismiss(None)

    def action_scroll(self, pages: int) -> None:
        scroll = self.query_one("#details-scroll", VerticalScroll)
        if pages < 0:
            scroll.scroll_page_up(animate=False)
        else:
            scroll.scroll_page_down(animate=False)

    def action_close(self) -> None:
        self.dismiss(None)

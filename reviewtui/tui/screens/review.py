"""The review screen: the current question, its evidence, its warnings, and the keys to decide.

Every key becomes an action that calls the session (which journals the decision
before returning) and then redraws from the session's state. The screen keeps no
copy of review state; what it shows is always what the core says.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.events import Resize
from textual.screen import Screen
from textual.widgets import Collapsible, Static

from reviewtui.tui.render import cautions_view, evidence_view, flags_view, history_view, question_view
from reviewtui.tui.widgets.keybar import KeyBar
from reviewtui.tui.widgets.linebar import LineBar
from reviewtui.tui.widgets.topbar import TopBar

__all__ = ["REVIEW_BINDINGS", "ReviewScreen"]

NARROW_WIDTH = 100

REVIEW_BINDINGS = [
    Binding("a", "accept", "Accept", id="review.accept"),
    Binding("r", "reject", "Reject", id="review.reject"),
    Binding("s", "skip", "Skip", id="review.skip"),
    Binding("e", "edit", "Edit", id="review.edit"),
    Binding("m", "mark", "Type", id="review.mark"),
    Binding("u", "undo", "Undo", id="review.undo"),
    Binding("U", "redo", "Redo", id="review.redo", show=False),
    Binding("n", "note", "Note", id="review.note", show=False),
    Binding("left", "previous", "Prev", id="review.previous", show=False),
    Binding("right", "next", "Next", id="review.next", show=False),
    Binding("g", "goto", "Go to", id="review.goto", show=False),
    Binding("slash", "search", "Search", id="review.search", show=False),
    Binding("f", "flagged_first", "Flagged first", id="review.flagged_first", show=False),
    Binding("right_square_bracket", "anchor(1)", "Next quote", id="review.next_anchor", show=False),
    Binding("left_square_bracket", "anchor(-1)", "Previous quote", id="review.previous_anchor", show=False),
    Binding("x", "document", "Whole document", id="review.document", show=False),
    Binding("h", "toggle_history", "History", id="review.history", show=False),
    Binding("c", "toggle_cautions", "Set cautions", id="review.cautions", show=False),
    Binding("ctrl+e", "export", "Export", id="review.export"),
    Binding("question_mark", "help", "Help", id="review.help"),
]


class ReviewScreen(Screen):
    """The main screen; the app passes every action through to the session."""

    BINDINGS = REVIEW_BINDINGS

    def compose(self) -> ComposeResult:
        # Known before the widgets mount, so the first layout is already the right one (no restyle).
        self._apply_width(self.app.size.width)
        yield TopBar(id="top-bar")
        with Horizontal(id="body"):
            with Vertical(id="main"):
                with VerticalScroll(id="question-pane", classes="pane") as pane:
                    pane.border_title = "Question"
                    yield Static(id="question")
                with VerticalScroll(id="evidence-pane", classes="pane") as pane:
                    pane.border_title = "Evidence"
                    yield Static(id="evidence")
            with Vertical(id="side"):
                with VerticalScroll(id="warnings-pane", classes="pane") as pane:
                    pane.border_title = "Warnings"
                    yield LineBar(id="scan-progress")
                    yield Static(id="flags")
                    with Collapsible(id="cautions", title="set cautions", collapsed=True):
                        yield Static(id="cautions-body")
                with VerticalScroll(id="history-pane", classes="pane") as pane:
                    pane.border_title = "History"
                    yield Static(id="history")
        yield Static(id="status-line")
        yield KeyBar(id="key-bar")

    def on_mount(self) -> None:
        self.app.refresh_review()  # type: ignore[attr-defined]

    @on(Resize)
    def _resized(self, event: Resize) -> None:
        self._apply_width(event.size.width)

    def _apply_width(self, width: int) -> None:
        self.set_class(width < NARROW_WIDTH, "-narrow")

    # ---- drawing (called by the app with state read from the session) ----

    def show_item(self, item, *, verdict: str | None, note: str, selected_anchor: int, resolutions=None, document_text=None) -> None:  # noqa: ANN001
        if item is None:
            self.query_one("#question", Static).update(Content.styled("Nothing left to decide.", "italic"))
            self.query_one("#evidence", Static).update("")
            return
        self.query_one("#question", Static).update(question_view(item, verdict=verdict, note=note))
        self.query_one("#evidence", Static).update(
            evidence_view(item, selected_anchor=selected_anchor, resolutions=resolutions, document_text=document_text)
        )
        self.query_one("#question-pane").scroll_home(animate=False)
        self.query_one("#evidence-pane").scroll_home(animate=False)

    def show_flags(self, flags, *, scanning: bool, failed: str | None = None) -> None:  # noqa: ANN001
        self.query_one("#flags", Static).update(flags_view(flags, scanning=scanning, failed=failed))

    def show_cautions(self, entries) -> None:  # noqa: ANN001
        entries = list(entries)
        collapsible = self.query_one("#cautions", Collapsible)
        collapsible.title = f"set cautions ({len(entries)})"
        self.query_one("#cautions-body", Static).update(cautions_view(entries))

    def show_scan_progress(self, done: int, total: int) -> None:
        bar = self.query_one("#scan-progress", LineBar)
        bar.update(total=total, progress=done)
        bar.set_class(done >= total, "-done")

    def show_history(self, decisions) -> None:  # noqa: ANN001
        self.query_one("#history", Static).update(history_view(decisions))

    def show_status(self, message: Content | str) -> None:
        self.query_one("#status-line", Static).update(message)

    @property
    def top_bar(self) -> TopBar:
        return self.query_one(TopBar)

    # ---- actions: each one asks the session, then the app redraws ----

    @property
    def _app(self):  # noqa: ANN202 - the ReviewApp, typed loosely to avoid an import cycle
        return self.app

    def action_accept(self) -> None:
        self._app.run_step(lambda: self._app.session.accept())

    def action_reject(self) -> None:
        self._app.ask_reject()

    def action_skip(self) -> None:
        self._app.run_step(lambda: self._app.session.skip())

    def action_edit(self) -> None:
        self._app.ask_edit()

    def action_mark(self) -> None:
        self._app.ask_type()

    def action_undo(self) -> None:
        session = self._app.session
        if not session.queue.can_undo:
            self.notify("Nothing to undo.", markup=False)
            return
        self._app.run_step(session.undo, finished_check=False)

    def action_redo(self) -> None:
        session = self._app.session
        if not session.queue.can_redo:
            self.notify("Nothing to redo.", markup=False)
            return
        self._app.run_step(session.redo)

    def action_note(self) -> None:
        self._app.ask_note()

    def action_previous(self) -> None:
        self._app.run_step(self._app.session.previous, finished_check=False)

    def action_next(self) -> None:
        self._app.run_step(self._app.session.next, finished_check=False)

    def action_goto(self) -> None:
        self._app.ask_goto()

    def action_search(self) -> None:
        self._app.ask_search()

    def action_flagged_first(self) -> None:
        self._app.toggle_flagged_first()

    def action_anchor(self, step: int) -> None:
        self._app.select_anchor(step)

    def action_document(self) -> None:
        self._app.show_document()

    def action_export(self) -> None:
        self._app.export()

    def action_help(self) -> None:
        self._app.show_help()

    def action_toggle_history(self) -> None:
        # wide screens show the history until hidden; narrow ones hide it until shown
        self.query_one("#history-pane").toggle_class("-shown" if self.has_class("-narrow") else "-hidden")

    def action_toggle_cautions(self) -> None:
        collapsible = self.query_one("#cautions", Collapsible)
        collapsible.collapsed = not collapsible.collapsed

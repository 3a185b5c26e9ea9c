"""The review screen: the current question, its evidence, its warnings, and the keys to decide.

The screen declares every review key (each with an id, so the settings file can remap
it) and carries out its action itself: a step goes to the session, which writes it to
the journal before it returns, and then the screen redraws from the session's state.
The screen keeps no copy of review state. What the app knows beyond the session (the
checks' results, the corpus) is read from ``app.view`` and the app's lookups.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Container
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson
from pydantic_core import PydanticSerializationError
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.events import DescendantFocus, Resize
from textual.geometry import Size
from textual.reactive import Reactive
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Static

from reviewtui.evalset.io.journal import JournalWriteError
from reviewtui.evalset.model.errors import EvalSetError, ReviewError
from reviewtui.evalset.model.flag import Flag, Severity
from reviewtui.evalset.model.items import CONTEXT_DOCUMENT, EvalItem, QuestionType
from reviewtui.evalset.model.review import ReviewRecord
from reviewtui.evalset.review.export import accepted_past_warnings
from reviewtui.evalset.review.queue import Decision, ItemEdit, RejectReason, ReviewQueue, Verdict, changes_the_item
from reviewtui.evalset.review.session import ReviewSession
from reviewtui.evalset.text.counts import count as counted
from reviewtui.evalset.text.words import in_quotes
from reviewtui.tui.render import (
    ADOPT_KEYS,
    HISTORY_EMPTY,
    VERDICT_MARK,
    VERDICT_STYLE,
    adopt_key,
    adopt_keys_are_digits,
    cautions_section,
    change_summary,
    evidence_view,
    flags_view,
    gold_documents_listed,
    history_entry,
    history_head,
    meta_view,
    question_view,
    reading_bar,
    related_view,
    selected_quote_start,
)
from reviewtui.tui.safe import join, safe, safe_plain
from reviewtui.tui.widgets.keybar import KeyBar
from reviewtui.tui.widgets.linebar import LineBar
from reviewtui.tui.widgets.reasons import ReasonPicker
from reviewtui.tui.widgets.textpane import ListPane, TextPane, Wrapped
from reviewtui.tui.widgets.topbar import TopBar

if TYPE_CHECKING:
    # Loaded when first needed: the first question should not wait for the dialogs.
    from reviewtui.tui.screens.edit import ItemChanges

__all__ = ["REVIEW_BINDINGS", "ReviewLayout", "ReviewScreen", "resolve_target"]

NARROW_WIDTH = 100
#: Below this many rows the question pane leaves out its blank lines (see question_view's ``compact``).
SHORT_HEIGHT = 30
#: Below this size the question pane cannot show a question and the start of its answer: no decision from the
#: review screen (see ReviewScreen.too_small_to_decide).
DECIDE_MIN_WIDTH, DECIDE_MIN_HEIGHT = 60, 18
#: The actions that decide an item, refused below that size (their keys drawn faint in the key bar).
DECIDING_ACTIONS = frozenset(("accept", "reject", "skip", "mark"))
#: Items before the current one looked at for the document a new quote is from (see _likely_source).
SOURCE_LOOKBACK = 200
#: Seconds after a redraw before the next item's text is wrapped (see ReviewScreen._get_next_ready):
#: after the frame is drawn, and longer than the gap between keys held down.
READY_AFTER = 0.08

#: A pane whose height follows its text (the question; the warnings in a narrow terminal) is as tall as
#: the tallest of its last HOLD_HEIGHT texts: it grows at once for a long one, and shrinks only once that
#: many in a row have fit in fewer rows. Heights that changed on every other key moved the panes below
#: them each time (the evidence jumping under the reader's eyes) and cost the whole screen a layout.
HOLD_HEIGHT = 10

#: What the core raises when an item cannot be turned into a journal record (meta nested too
#: deep for the serialisers, say). The step was refused before anything was written or applied,
#: so, like a JournalWriteError, it is "not saved" rather than a bug in the app.
UNWRITABLE = (PydanticSerializationError, orjson.JSONEncodeError)

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
    Binding("w", "dismiss_warning", "Not a problem", id="review.dismiss", show=False),
    *(
        Binding(str(n), f"adopt({n})", f"Take reviewer {n}'s decision", id=f"review.adopt_{n}", show=False)
        for n in range(1, 10)
    ),
    Binding("i", "details", "Item meta", id="review.details", show=False),
    Binding("p", "peek", "Peek at related items", id="review.peek", show=False),
    Binding("h", "toggle_history", "History", id="review.history", show=False),
    Binding("c", "toggle_cautions", "Set cautions", id="review.cautions", show=False),
    Binding("ctrl+e", "export", "Export", id="review.export"),
    Binding("question_mark", "help", "Help", id="review.help"),
]


class ReviewLayout(Screen):
    """The review screen's widgets and their narrow-terminal rule, shared with the screen a long
    review opens behind (``reviewtui.tui.opening.OpeningScreen``), so nothing moves between the two."""

    #: Whether the key bar last drew the decision keys refused (see _resized).
    _refused_drawn: bool | None = None

    def decisions_refused(self) -> bool:
        """Whether the terminal is too small to decide on (see too_small_to_decide), without saying so."""
        size = self.app.size
        return size.width < DECIDE_MIN_WIDTH or size.height < DECIDE_MIN_HEIGHT

    def refused_actions(self) -> frozenset[str]:
        """The actions the key bar draws faint: the decisions, on a terminal too small to decide on."""
        return DECIDING_ACTIONS if self.decisions_refused() else frozenset()

    def layout_widgets(self, *, scan_progress: bool) -> ComposeResult:
        """The panes, top bar, status line and key bar; ``scan_progress``: the warnings pane's progress bar."""
        # Known before the widgets mount, so the first layout is already the right one (no restyle).
        self._apply_size(self.app.size)
        yield TopBar(id="top-bar")
        with Horizontal(id="body"):
            with Vertical(id="main"):
                yield _pane("question-pane", "Question", hold=HOLD_HEIGHT)
                yield _pane("evidence-pane", "Evidence")
            with Vertical(id="side"):
                with Vertical(id="warnings-pane", classes="pane") as pane:
                    pane.border_title = "Warnings"
                    if scan_progress:
                        yield LineBar(id="scan-progress")
                    yield TextPane(id="flags", hold=HOLD_HEIGHT)  # its height follows its text in a narrow terminal
                yield _titled(ListPane(id="history-pane", classes="pane"), "History")
        yield Static(id="status-line")
        yield KeyBar(id="key-bar")

    @property
    def compact(self) -> bool:
        """Whether the terminal is short: the question pane then has no blank lines."""
        return self.has_class("-short")

    @on(Resize)
    def _resized(self, event: Resize) -> None:
        compact = self.compact
        self._apply_size(event.size)
        if self.compact != compact:
            self.compact_changed()
        refused = self.decisions_refused()
        if refused != self._refused_drawn:
            self._refused_drawn = refused
            # The key bar draws refused keys faint; a terminal only made shorter changes no width the bar sees.
            for bar in self.query("#key-bar"):
                bar.refresh()

    def _apply_size(self, size: Size) -> None:
        self.set_class(size.width < NARROW_WIDTH, "-narrow")
        self.set_class(size.height < SHORT_HEIGHT, "-short")

    def compact_changed(self) -> None:
        """The terminal became short, or no longer is: the question is shown again (see ``compact``)."""


class ReviewScreen(ReviewLayout):
    """The main screen: each key is a step on the session, then a redraw from its state."""

    BINDINGS = REVIEW_BINDINGS

    # Textual repaints a whole screen when its focus moves. Nothing on this screen is drawn from the
    # screen's focus: a widget that looks different focused (a pane's border, the reason list, the
    # note field's cursor) is restyled and repainted by Textual's own focus handling. So a reject,
    # which moves the focus into the reason picker and back, repaints the picker's rows, not 40 rows.
    focused: Reactive[Widget | None] = Reactive(None, repaint=False)

    def __init__(self, session: ReviewSession) -> None:
        super().__init__()
        self.session = session
        self._shown: dict[str, object] = {}  # pane -> what it shows now (see _show)
        self._ready: dict[str, tuple[object, Wrapped]] = {}  # pane -> (key, text) for the next item (see _get_next_ready)
        self._ready_timer: Timer | None = None
        self._cautions_open = False
        self._summary_held = False  # the summary was due while a dialog was on top (see maybe_show_summary)
        self._focus_before_reject: Widget | None = None  # given the focus back when the reason picker closes
        # Kept, not queried: every decision asks whether it is open (see maybe_show_summary).
        self._reason_picker = ReasonPicker([(reason.value, reason.description) for reason in RejectReason], id="reason-picker")

    @property
    def review_app(self) -> Any:  # the ReviewApp, which imports this module
        return self.app

    def compose(self) -> ComposeResult:
        yield from self.layout_widgets(scan_progress=True)
        yield self._reason_picker

    def on_mount(self) -> None:
        self.refresh_review()
        # A finished review opened again shows its summary (its counts, the items accepted past warnings, export):
        # it showed "Nothing left to decide." only, the summary reachable by undoing a decision and redoing it.
        self.call_after_refresh(self.maybe_show_summary)

    @property
    def top_bar(self) -> TopBar:
        return self.query_one(TopBar)

    # ---- drawing: everything from the session's state and the app's view ----

    def compact_changed(self) -> None:
        self.refresh_review()

    def refresh_review(self) -> None:
        """Redraw from the session's state. Costs O(size of one item), never O(set).

        A pane is given new content only when what it shows has changed: an update costs
        Textual a layout pass and a repaint of that pane, and many keys change only some panes.
        """
        if not self.is_attached:
            return
        app = self.review_app
        view = app.view
        queue = self.session.queue
        evalset = self.session.evalset
        item = queue.current
        if item is None or item.id != view.item_id:
            view.anchor = 0
            view.item_id = item.id if item is not None else None
        self.top_bar.show_set(evalset.id, self.session.version, self.session.role)
        if item is None:
            self._show("#question-pane", None, lambda: Content.styled(self._past_the_end(), "italic"))
            self._show("#evidence-pane", None, lambda: "")
            # past the end there is no item to have found anything on: only the set's cautions are left
            self._show("#flags", None, lambda: self._with_cautions(Content.styled("no item here", "dim italic")))
        else:
            for selector, key, make in self._item_panes(queue.position, item, view.anchor):
                if self._show(selector, key, make) and selector != "#flags":
                    pane = self.query_one(selector, TextPane)
                    if selector == "#evidence-pane" and view.anchor:
                        # The quote [ or ] selected, at the top: in a short pane it was below, out of sight.
                        start = selected_quote_start(pane.content, view.anchor, len(item.anchors))
                        pane.scroll_to(y=pane.row_of(start), animate=False)
                    else:
                        pane.scroll_home(animate=False)
        recent = queue.recent(20)
        earlier = ReviewRecord.from_meta(item.meta) if item is not None else None
        votes = app.votes.get(item.id) if item is not None else None
        history = (tuple(map(id, recent)), earlier, id(votes))
        if self._shown.get("#history-pane", _NOTHING) != history:
            self._shown["#history-pane"] = history
            dismissed = app.vote_dismissals.get(item.id) if item is not None and votes else None
            self._show_history(recent, history_head(earlier, votes, dismissed))
        self.show_counts()
        self._get_ready_soon()

    def _past_the_end(self) -> str:
        """What the question pane says past the last item: "nothing left" only when nothing is."""
        stats = self.session.queue.stats()
        left = stats.total - stats.decided
        if left <= 0:
            return "Nothing left to decide."
        back, goto = self.review_app.key_name("review.previous"), self.review_app.key_name("review.goto")
        undecided = f"{left:,} {'item is' if left == 1 else 'items are'} still undecided"
        return f"Past the last item. {undecided}: {back} goes back, {goto} goes to one."

    def _get_ready_soon(self) -> None:
        """Make the next item's text ready READY_AFTER seconds from now, unless another redraw comes first."""
        if self._ready_timer is not None:
            self._ready_timer.stop()
        self._ready_timer = self.set_timer(READY_AFTER, self._get_next_ready, name="next item's text")

    def on_screen_resume(self) -> None:
        # Back from a dialog or a help screen: the timer may have run while it was on top, and found
        # nothing to do then.
        if not self._ready:
            self._get_ready_soon()
        if self._summary_held:
            self.maybe_show_summary()

    def _item_panes(self, index: int, item: EvalItem, anchor: int) -> list[tuple[str, object, Callable[[], Content | str]]]:
        """The panes that show one item: each pane, what decides its content (see _show), and how to build it.

        The same for the item on screen and for the one a decision moves to (see _get_next_ready),
        so that text made ready ahead is shown exactly when it is what the screen would build.
        """
        app = self.review_app
        view = app.view
        queue = self.session.queue
        decision = queue.decision_for(index)
        verdict = decision.verdict.value if decision is not None else None
        note = queue.note_for(index)
        resolutions = app.resolutions_for(item)
        document_text = app.document_text if app.corpus is not None else None
        found = app.item_flags(item)
        scanning, failed = view.flags is None, view.scan_error
        dismissed = queue.dismissers_for(index)
        cautions, opened = view.cautions, self._cautions_open
        compact = self.compact
        return [
            (
                "#question-pane",
                (id(item), verdict, note, compact),
                lambda: question_view(item, verdict=verdict, note=note, compact=compact),
            ),
            (
                "#evidence-pane",
                (id(item), anchor, id(resolutions), document_text is not None),
                lambda: evidence_view(
                    item,
                    selected_anchor=anchor,
                    resolutions=resolutions,
                    document_text=document_text,
                    document_missing=app.document_missing,
                ),
            ),
            (
                "#flags",
                (None if found is None else tuple(found), scanning, failed, tuple(dismissed.items()), id(cautions), opened),
                lambda: self._with_cautions(flags_view(found, scanning=scanning, failed=failed, dismissed=dismissed)),
            ),
        ]

    def _get_next_ready(self) -> None:
        """Wrap the text of the item a decision would move to, while the reviewer reads this one.

        Runs on a short timer after each redraw, which the next key restarts, so a burst of
        keys (holding ``s`` down) never waits for it. Whatever changes meanwhile (a warning
        arrives, a note, another order) changes the pane's key, and the text is then built afresh.
        """
        self._ready.clear()
        if not self.is_attached or self.app.screen is not self:
            return
        app = self.review_app
        if app.corpus is not None and app.view.evidence is None:
            # Until the corpus job has located every quote, an item's quotes are looked up (on this
            # thread) each time they are shown, and the lookup made ahead would not be the one shown.
            return
        queue = self.session.queue
        if queue.current is None:
            return
        index = queue.after_deciding()
        if index >= len(queue) or index == queue.position:
            return
        for selector, key, make in self._item_panes(index, queue.shown(index), 0):
            if self._shown.get(selector, _NOTHING) == key:
                continue  # the pane shows it already: a decision will not touch it
            wrapped = self.query_one(selector, TextPane).wrap(make())
            if wrapped is not None:
                self._ready[selector] = (key, wrapped)

    def _with_cautions(self, warnings: Content) -> Content:
        """The item's warnings, then the set's cautions (once the scan has given them) under their title line."""
        cautions = self.review_app.view.cautions
        if cautions is None:
            return warnings
        return join(warnings, cautions_section(cautions, opened=self._cautions_open))

    def _show(self, selector: str, key: object, make: Callable[[], Content | str]) -> bool:
        """Give the pane at ``selector`` the content ``make()`` builds, unless ``key`` says it already has it.

        Text made ready ahead under the same key (see _get_next_ready) is shown as it was wrapped.
        """
        if key is not None and self._shown.get(selector, _NOTHING) == key:
            return False
        self._shown[selector] = key
        ready = self._ready.pop(selector, None)
        pane = self.query_one(selector, TextPane)
        pane.update(ready[1] if ready is not None and key is not None and ready[0] == key else make())
        return True

    def _show_history(self, recent: list[Decision], head: Content | None) -> None:
        """The history pane: the head (an earlier review of this item, the team's votes), then the
        decisions, newest first; each decision's entry is wrapped once, when it first appears."""
        entries: list[tuple[object, Callable[[], Content | str]]] = []
        if head is not None:
            entries += [(head, lambda: head), (_BLANK, lambda: "")]
        entries += [(decision, partial(history_entry, decision)) for decision in recent]
        if not recent:
            entries.append((HISTORY_EMPTY, lambda: HISTORY_EMPTY))
        self.query_one("#history-pane", ListPane).update_entries(entries)

    def show_counts(self) -> None:
        """The top bar's progress and the status line: the part of the screen that follows the counts."""
        if self.is_attached:
            stats = self.session.queue.stats()
            self.top_bar.show_progress(
                stats.decided,
                stats.total,
                stats.counts,
                stats.per_hour,
                stats.eta_seconds,
                partial=self.session.loading is not None,
            )
            self.show_status(self._status_line())

    def show_scan_progress(self, done: int, total: int) -> None:
        bar = self.query_one("#scan-progress", LineBar)
        bar.update(total=total, progress=done)
        bar.set_class(done >= total, "-done")

    def show_status(self, message: Content | str) -> None:
        self.query_one("#status-line", Static).update(message, layout=False)  # one line, the full width: its size never changes

    def _status_line(self) -> Content:
        view = self.review_app.view
        queue = self.session.queue
        total = len(queue)
        parts: list[Content | str] = []
        votes = self.review_app.votes.get(queue.current.id) if queue.current is not None else None
        if votes:
            # Adjudicating: each reviewer's verdict by its digit, first on the line, where a small terminal still
            # shows it (the history pane, which says more, may be only a line or two high there).
            for number, (reviewer, decision) in enumerate(votes.items(), start=1):
                verdict = decision.verdict.value
                key = adopt_key(number) if number <= ADOPT_KEYS else None  # as the history pane lists them
                parts.append(Content.styled(f"{key} " if key is not None else "· ", "bold $text-accent"))
                parts.append(safe(reviewer, one_line=True, limit=12))  # three of them still leave room at 80 columns
                parts.append(Content.styled(f" {VERDICT_MARK.get(verdict, '?')}  ", VERDICT_STYLE.get(verdict, "")))
            parts.append(Content.styled("· ", "dim"))
        loading = self.session.loading
        if queue.current is None:
            parts.append(f"past the last item · {self.review_app.key_name('review.previous')} to go back")
        else:
            rank = queue.rank_of(queue.position) + 1
            parts.append(f"item {rank:,} of {total:,}" + (" so far" if loading is not None else ""))
        if loading is not None:
            parts.append(Content.styled("  · ", "dim"))
            parts.append(reading_bar(loading.fraction))
        if view.banner:
            # After the position, which an 80-column line must keep: a long opening line ("..., 3 marked reviewed
            # left out (--all)") pushed it off, and the line is cut at its end.
            parts.append(Content.styled("  · ", "dim"))
            parts.append(safe(view.banner, style="bold $text-accent", one_line=True, limit=200))
        if queue.ordered:
            parts.append(Content.styled("  · flagged first", "$text-warning"))
        if view.flags is None:
            parts.append(Content.styled("  · checking quality…", "dim"))
        elif view.flagged_order is not None:
            parts.append(Content.styled(f"  · {view.serious:,} flagged medium or worse", "dim"))
        parts.append(Content.styled(f"  · {self.review_app.key_name('review.help')} keys", "dim"))
        return join(*parts)

    # ---- running a step -----------------------------------------------------------------

    def run_step(
        self, step: Callable[[], object], *, finished_check: bool = True, not_saved: Callable[[], object] | None = None
    ) -> bool:
        """Call the session; a step the core refuses, or could not save, is a notification, not a crash.

        The session writes a step to the journal before applying it, so when it
        raises nothing has changed: the same question stays on screen. Any other
        exception is a bug and ends the app with a non-zero exit, as Textual does.
        ``not_saved`` is called when the journal could not take the step (a full
        disk): a dialog gives back what was typed in it, to be saved again.
        """
        self.review_app.view.banner = ""
        queue = self.session.queue
        before, tops = queue.current, (queue.last_change, queue.next_redo)
        try:
            step()
        except JournalWriteError as exc:
            self._not_saved(str(exc))
            if not_saved is not None:
                not_saved()
            return False
        except UNWRITABLE as exc:
            self._not_saved(f"this item cannot be written to the journal ({exc})")
            return False
        except EvalSetError as exc:  # a ReviewError above all: a step that cannot be taken now
            self.notify(safe_plain(str(exc), limit=500), severity="warning", markup=False)
            self.refresh_review()
            return False
        if queue.last_change is not tops[0] or queue.next_redo is not tops[1]:  # a change or its undo, not a move
            self.review_app.note_shown((before, queue.current))
        self.refresh_review()
        if finished_check:
            self.maybe_show_summary()
        return True

    def _not_saved(self, why: str) -> None:
        """Say plainly that the key just pressed did nothing, and why (the question stays as it was)."""
        title = "The last step was NOT saved: nothing changed"
        self.notify(safe_plain(why, limit=600), title=title, severity="error", markup=False, timeout=30)
        self.refresh_review()

    def maybe_show_summary(self) -> None:
        """Show the summary once when the last item gets its decision (again if it is reached again).

        Not over an open reject reason picker, nor over a dialog (the rest of a set read while the reviewer
        types in one): the summary's keys (undo, back) would move the item under it, and letters meant for the
        dialog would be those keys. It is shown once the picker is answered, or the review screen is back on top.
        """
        if self._reason_picker.is_open:
            return
        if self.app.screen is not self:
            self._summary_held = True  # asked for under a dialog: asked again when it closes (on_screen_resume)
            return
        self._summary_held = False
        view = self.review_app.view
        if not self.session.queue.is_done or self.session.loading is not None:
            view.summary_shown = False
            return
        if view.summary_shown:
            return
        view.summary_shown = True
        self.show_summary()

    def show_summary(self, exported_to: str | None = None) -> None:
        from reviewtui.tui.screens.summary import SummaryScreen

        queue = self.session.queue
        stats = queue.stats()
        reasons = {code or "no reason given": count for code, count in queue.reason_counts().items()}

        def chosen(choice: str | None) -> None:
            if choice == "undo":
                self.action_undo()
                self.maybe_show_summary()  # no longer finished: the summary comes again once it is
            elif choice == "export":
                if self.review_app.export_running:  # one export at a time, as ctrl+e on the items refuses a second
                    self.review_app.export_in_background()  # which says one is being written already
                    self.show_summary()
                    return
                path = self.review_app.export()
                if path is not None:
                    self.show_summary(exported_to=str(path))

        self.app.push_screen(
            SummaryScreen(
                set_id=self.session.evalset.id,
                counts=stats.counts,
                total=stats.total,
                seconds=stats.seconds,
                reasons=reasons,
                past_warnings=accepted_past_warnings(queue),
                tally=queue.warning_tally(),
                exported_to=exported_to,
                share=self.session.partial,
                outside=len(self.session.evalset) - stats.total,
                adjudicating=self.session.adjudicating,
                unchecked=sum(1 for decision in queue.decisions.values() if decision.unchecked),
            ),
            chosen,
        )

    # ---- actions ------------------------------------------------------------------------

    def too_small_to_decide(self) -> bool:
        """Whether the terminal is too small for the question pane to show a question and the start of its answer;
        if so, says so: a decision made from this screen then would be made on text the reviewer cannot see. Asked
        when a key decides and again when a dialog it opened answers (the terminal may have shrunk meanwhile). The
        edit dialog shows the whole item at any size."""
        if not self.decisions_refused():
            return False
        size = self.app.size
        edit = self.review_app.key_name("review.edit")
        self.notify(
            f"The terminal ({size.width}x{size.height}) is too small to show the question and its answer: make it at "
            f"least {DECIDE_MIN_WIDTH}x{DECIDE_MIN_HEIGHT} to decide here ({edit} shows the whole item).",
            severity="warning",
            markup=False,
        )
        return True

    def action_accept(self) -> None:
        if not self.too_small_to_decide():
            self.run_step(self.session.accept)

    def action_skip(self) -> None:
        if not self.too_small_to_decide():
            self.run_step(self.session.skip)

    def action_reject(self) -> None:
        item = self.session.queue.current
        if item is None:
            self.notify("Nothing to reject: every item is decided.", markup=False)
            return
        if self.too_small_to_decide():
            return
        self._focus_before_reject = self.focused
        self.reason_picker.ask_about(item.id)

    @property
    def reason_picker(self) -> ReasonPicker:
        return self._reason_picker

    def _close_reason_picker(self) -> None:
        picker = self.reason_picker
        picker.close()
        focus, self._focus_before_reject = self._focus_before_reject, None
        if focus is not None and focus.is_attached and focus.focusable and picker not in focus.ancestors_with_self:
            focus.focus(scroll_visible=False)
        else:
            self.set_focus(None)

    @on(ReasonPicker.Chosen)
    def _reject_chosen(self, message: ReasonPicker.Chosen) -> None:
        choice = message.choice
        asked_about = self.reason_picker.item_id
        # What had the focus before the picker opened, for the picker asked again: the focus handed back as it
        # closes is given only later, so ``self.focused`` is still the picker's note, and the picker closing the
        # second time gave the focus to that hidden field, where every key went from then on.
        restore = self._focus_before_reject
        self._close_reason_picker()

        def typed_again() -> None:
            # Not saved (a full disk, a terminal too small to decide in): a note typed comes back with its reason.
            if choice.note:
                self._focus_before_reject = restore
                self.reason_picker.ask_about(asked_about, choice)

        if self.too_small_to_decide():
            typed_again()
            return
        current = self.session.queue.current
        if current is None or current.id != asked_about:
            # Nothing a reviewer can do moves the item behind the open picker; should anything, the
            # reject is for the item it named, which is no longer the one a decision would be on.
            message = safe_plain(f"Not rejected: the item shown is no longer {asked_about}.", limit=300)
            self.notify(message, severity="warning", markup=False)
            self.refresh_review()
            return

        self.run_step(lambda: self.session.reject(note=choice.note, reason=choice.reason), not_saved=typed_again)

    @on(ReasonPicker.Cancelled)
    def _reject_cancelled(self) -> None:
        self._close_reason_picker()
        self.maybe_show_summary()  # held back while the picker was open (the rest of the set may have been read meanwhile)

    def on_descendant_focus(self, event: DescendantFocus) -> None:
        # A click on a pane while the reason picker is open would take the focus, and with it the
        # keys, away from it: the picker stays modal until it is answered.
        picker = self.reason_picker
        if picker.is_open and picker not in event.widget.ancestors_with_self:
            picker.take_focus_back()

    def action_edit(self) -> None:
        item = self.session.queue.current
        if item is None:
            self.notify("Nothing to edit: every item is decided.", markup=False)
            return

        from reviewtui.tui.screens.edit import EditScreen

        source = "" if item.anchors else self._likely_source(item)
        anchor = self.review_app.view.anchor  # the quote [ and ] chose: the one the reviewer is reading

        def done(changes: ItemChanges | None) -> None:
            # Everything changed in the dialog becomes one edit decision (one undo).
            was = self.session.queue.decision_for(item.id)

            def typed_again() -> None:
                # Not saved (a full disk): what was typed comes back, to be saved once there is room, not typed again.
                self.app.push_screen(EditScreen(item, self._types_offered(), source, draft=changes, anchor=anchor), done)

            if changes and self.run_step(lambda: self.session.edit(self._with_copies(item, changes)), not_saved=typed_again):
                self._say_if_kept_now(item.id, was, "the edit")
                self.review_app.schedule_rescan()
                if changes.anchors or changes.new_quote is not None:
                    self.report_requote(item.id)
                    self._say_spans_dropped(item)

        self.app.push_screen(EditScreen(item, self._types_offered(), source, anchor=anchor), done)

    def _with_copies(self, item: EvalItem, changes: ItemChanges) -> ItemEdit:
        """The edit, with the copy of each changed quote's old words that its item's gold marked (a LegalBench-RAG
        snippet whose text is also earlier in its file), which a correction keeps (see ItemEdit.copies)."""
        edit = changes.as_edit()
        corpus = self.review_app.corpus
        if corpus is None or not changes.anchors:
            return edit
        from reviewtui.evalset.evidence.resolve import copies_marked

        copies = copies_marked(item, corpus, changes.anchors)
        return dataclasses.replace(edit, copies=copies) if copies else edit

    def _types_offered(self) -> tuple[str, ...]:
        """The types m and e offer: the built-in ones, then the set's own (a CSV's category column is read as the
        type: only the item's own category was offered, so an item could not be moved to another of the set's)."""
        evalset = self.session.evalset
        key = (id(evalset), len(evalset.items))  # a set read in the background grows: counted again then
        cached = getattr(self, "_offered", None)
        if cached is None or cached[0] != key:
            own = tuple(qtype for qtype in evalset.types() if qtype not in QuestionType.ALL)
            cached = self._offered = (key, (*QuestionType.ALL, *own))
        return cached[1]

    def _likely_source(self, item: EvalItem) -> str:
        """The document a quote for an item without one most likely comes from: the one its located
        evidence is in, or the one it was written for (a SQuAD question without an answer names its
        paragraph), or its most relevant document (a BEIR question's, which the evidence pane lists), else
        the one the nearest item before it quotes (sets keep a document's questions together). A few
        hundred items are looked at, never the whole set."""
        if item.gold:
            return item.gold[0].span.doc_id
        written_for = item.meta.get(CONTEXT_DOCUMENT)
        if isinstance(written_for, str) and written_for:
            return written_for
        relevant = next((doc for doc, _ in gold_documents_listed(item) if isinstance(doc, str) and doc), None)
        if relevant is not None:  # the field was left blank, beside an evidence pane naming it
            return relevant
        queue = self.session.queue
        position = queue.position
        for index in range(position - 1, max(-1, position - SOURCE_LOOKBACK), -1):
            anchors = queue.shown(index).anchors
            if anchors:
                return anchors[0].source_id
        return ""

    def _say_spans_dropped(self, item: EvalItem) -> None:
        """Say when an edited quote took its located span with it (see queue.gold_of_kept_quotes)."""
        queue = self.session.queue
        index = queue.index_of(item.id)
        if index is None:
            return
        now = queue.shown(index)
        dropped = len(item.gold) - len(now.gold)
        if dropped > 0:
            spans = "span" if dropped == 1 else "spans"
            self.notify(
                f"The edited quote's located {spans} ({dropped}) went with the old words; "
                "reviewtui resolve --corpus locates the new quote after the export.",
                markup=False,
            )

    def report_requote(self, item_id: str) -> None:
        """After an edit, say at once whether each changed quote is still in its document."""
        app = self.review_app
        if app.corpus is None:
            return
        queue = self.session.queue
        index = queue.index_of(item_id)
        if index is None:
            return
        resolutions = app.resolutions_for(queue.shown(index)) or ()
        words = [f"quote {r.anchor_index + 1}: {r.describe()}" for r in resolutions]
        if words:
            severe = any(not r.found for r in resolutions)
            self.notify(safe_plain("; ".join(words), limit=600), severity="error" if severe else "information", markup=False)

    def action_mark(self) -> None:
        item = self.session.queue.current
        if item is None or self.too_small_to_decide():
            return

        def done(qtype: str | None) -> None:
            # The type it has already decides the item too (the type confirmed: an accept, as an edit that leaves
            # the item as the set has it is one); it closed the picker and did nothing, in silence.
            if qtype is not None and not self.too_small_to_decide():
                was = self.session.queue.decision_for(item.id)
                if self.run_step(lambda: self.session.mark(qtype)):
                    self._say_if_kept_now(item.id, was, "the new type")
                    now = self.session.queue.decision_for(item.id)
                    if qtype == item.qtype and now is not None and now.verdict is Verdict.ACCEPTED:
                        said = f"The type stays {qtype}: {in_quotes(item.id)} is accepted as it is."
                        self.notify(safe_plain(said, limit=300), markup=False)
                    self.review_app.schedule_rescan()

        from reviewtui.tui.screens.dialogs import TypePickerScreen

        self.app.push_screen(TypePickerScreen(self._types_offered(), item.qtype), done)

    def _say_if_kept_now(self, item_id: str, was: Decision | None, change: str) -> None:
        """An edit or a type decides the item as edited, kept in the export: say so when it had been rejected or
        skipped, which the counts on the top bar alone would not tell."""
        if was is None or was.verdict not in (Verdict.REJECTED, Verdict.SKIPPED):
            return
        now = self.session.queue.decision_for(item_id)
        if now is None or now.verdict is was.verdict:
            return
        # In a team's share or an adjudication the decision is a vote toward a consensus, not the set's next version.
        keeps = "your vote now keeps it" if self.session.partial else "which keeps it in the set"
        self.notify(
            safe_plain(
                f"{in_quotes(item_id)} was {was.verdict.value}; {change} decides it as {now.verdict.value}, "
                f"{keeps} ({self.review_app.key_name('review.undo')} takes that back)",
                limit=300,
            ),
            severity="warning",
            markup=False,
        )

    def action_undo(self) -> None:
        change = self.session.queue.last_change
        if change is None:
            self.notify("Nothing to undo.", markup=False)
            return
        if self.run_step(self.session.undo, finished_check=False):
            if not self.session.queue.is_done:  # no longer finished: the summary comes again once it is
                self.review_app.view.summary_shown = False
            self.notify(safe_plain(change_summary(change, undone=True), limit=200), markup=False, timeout=3)
            if changes_the_item(change):  # an edit taken back, or one brought back: the set changed again
                self.review_app.schedule_rescan()

    def action_redo(self) -> None:
        change = self.session.queue.next_redo
        if change is None:
            self.notify("Nothing to redo.", markup=False)
            return
        if self.run_step(self.session.redo):
            self.notify(safe_plain(change_summary(change, undone=False), limit=200), markup=False, timeout=3)
            if changes_the_item(change):
                self.review_app.schedule_rescan()

    def action_note(self) -> None:
        queue = self.session.queue
        item = queue.current
        if item is None:
            return
        current = queue.note_for(queue.position)

        from reviewtui.tui.screens.dialogs import NoteScreen

        def done(text: str | None) -> None:
            if text is None or text == current:  # Enter on the note as it was changes nothing
                return

            def typed_again() -> None:
                # Not saved (a full disk): the note typed comes back, to be saved once there is room.
                self.app.push_screen(NoteScreen(item.id, current, draft=text), done)

            self.run_step(lambda: self.session.note(text), finished_check=False, not_saved=typed_again)

        self.app.push_screen(NoteScreen(item.id, current), done)

    def action_previous(self) -> None:
        self.run_step(self.session.previous, finished_check=False)

    def action_next(self) -> None:
        self.run_step(self.session.next, finished_check=False)

    def action_goto(self) -> None:
        queue = self.session.queue
        part = _part_held(self.session)
        # the ids of the set as read: an id it holds that the queue does not is one the file marks reviewed
        in_set = self.session.evalset.positions if part is None else ()

        def done(target: str | None) -> None:
            if target:
                reading = self.session.loading is not None
                self.run_step(lambda: self.session.goto(resolve_target(queue, target, reading, part, in_set)), finished_check=False)

        from reviewtui.tui.screens.dialogs import GotoScreen

        def check(target: str) -> object:  # whether the set is still being read, asked when Enter is pressed
            return resolve_target(queue, target, self.session.loading is not None, part, in_set)

        self.app.push_screen(GotoScreen(len(queue), self.session.loading is not None, check), done)

    def action_search(self) -> None:
        view = self.review_app.view

        def done(index: int | None) -> None:
            if index is not None:
                self.run_step(lambda: self.session.goto(index), finished_check=False)

        def remember(query: str) -> None:
            view.last_search = query

        from reviewtui.tui.screens.dialogs import SearchScreen

        def still_reading() -> bool:
            return self.session.loading is not None

        self.app.push_screen(SearchScreen(self.session.queue, view.last_search, remember, still_reading), done)

    def action_flagged_first(self) -> None:
        view = self.review_app.view
        queue = self.session.queue
        if queue.ordered:
            self.run_step(lambda: self.session.set_order(None), finished_check=False)
            self.notify("Back to the set's own order.", markup=False)
            return
        if self.session.loading is not None:
            self.notify("The set is still being read; flagged first needs all of it. Try again in a moment.", markup=False)
            return
        if view.flagged_order is None or view.scan_pending:
            # Before the scan is in, an order is only the corpus lookup's: "no item is flagged", or 30 items first,
            # went into the journal and stayed after the scan found thousands.
            self.notify("The quality scan is still running; try again in a moment.", markup=False)
            return
        if self.review_app.corpus is not None and view.evidence_flags is None and view.evidence_error is None:
            # The other way round too: an order of the scan's warnings alone left every quote the lookup then found
            # missing (high) out of it, journaled, while the status line went on to count them.
            self.notify("The quotes are still being looked up in the corpus; try again in a moment.", markup=False)
            return
        if self.review_app.order_pending():
            # Both checks in, the order of the one just in still being worked out: the order on hand was the
            # other's alone (the lookup's few items first, the scan's warnings left out), and it was journaled.
            self.notify("The flagged-first order is still being worked out; try again in a moment.", markup=False)
            return
        order = self.review_app.flagged_order_as_shown()
        if not order:
            self.notify("No item is flagged, so the order stays as it is.", markup=False)
            return
        if not self.run_step(lambda: self.session.set_order(order), finished_check=False):
            return
        first = queue.first_open(within=len(order))
        if first is not None and first != queue.position:
            self.run_step(lambda: self.session.goto(first), finished_check=False)
        how_many = counted(len(order), "flagged item comes", "flagged items come")
        self.notify(f"Flagged first: {how_many} first.", markup=False)

    def action_anchor(self, step: int) -> None:
        item = self.session.queue.current
        if item is None:
            self._no_question_open()
            return
        if not item.anchors:
            documents = len(gold_documents_listed(item))
            if documents > 1 and self.review_app.corpus is not None:
                # A BEIR query's relevant documents: ] and [ go through them, x opens the one chosen.
                view = self.review_app.view
                view.anchor = (view.anchor + step) % documents
                self.refresh_review()
            elif documents > 1:  # without their text, choosing one would change nothing on screen
                self.notify("This question has no quote; with --corpus, ] and [ go through its documents.", markup=False, timeout=3)
            else:
                self.notify("This question has no quote to move to.", markup=False, timeout=3)  # the key seemed to do nothing
            return
        if len(item.anchors) == 1:
            # No other quote to select, but the key still does what it does for each of several: the quote, at
            # the top of the pane (a long one scrolled down stayed where it was).
            self.query_one("#evidence-pane", TextPane).scroll_home(animate=False)
            return
        view = self.review_app.view
        view.anchor = (view.anchor + step) % len(item.anchors)
        self.refresh_review()

    def action_document(self) -> None:
        app = self.review_app
        item = self.session.queue.current
        if item is None:
            self._no_question_open()
            return
        corpus = app.corpus
        if not item.anchors:
            self._open_gold_document(item)
            return
        if corpus is None:
            said = "Start with --corpus DIR to see quotes in their documents."
            if _documents_in_file(self.session):
                # "Start with --corpus DIR" alone sent a SQuAD reviewer looking for a folder they do not have: the
                # file holds the documents, and convert writes them out.
                said += (
                    " This set's file holds them: `reviewtui convert FILE OUT.jsonl --corpus-out DIR` writes them to"
                    " DIR, one .txt each."
                )
            self.notify(said, markup=False)
            return
        anchor_index = min(app.view.anchor, len(item.anchors) - 1)
        resolutions = app.resolutions_for(item) or ()
        resolution = resolutions[anchor_index] if anchor_index < len(resolutions) else None
        document = corpus.get(item.anchors[anchor_index].source_id)
        if document is None:
            self.notify(safe_plain(corpus.why_unusable(item.anchors[anchor_index].source_id)), severity="warning", markup=False)
            return
        span = resolution.span if resolution is not None else None
        from reviewtui.tui.screens.document import DocumentScreen

        self.app.push_screen(DocumentScreen(document.id, document.text, span))
        if span is None:
            # Opened at its start with nothing marked, the viewer read as if the quote were somewhere in sight.
            self.notify("This quote was not found in its document: the document is shown from its start.", markup=False)

    def action_adopt(self, number: int) -> None:
        """Adjudicating: decide the item as the reviewer numbered ``number`` in the history pane did."""
        item = self.session.queue.current
        votes = self.review_app.votes.get(item.id) if item is not None else None
        if not votes:
            said = "A digit takes" if adopt_keys_are_digits() else "This key takes"
            self.notify(f"{said} a reviewer's decision when adjudicating (reviewtui adjudicate).", markup=False)
            return
        chosen = list(votes.items())
        if not 1 <= number <= len(chosen):
            self.notify(f"There are {len(chosen)} reviewers' decisions here.", markup=False)
            return
        reviewer, decision = chosen[number - 1]
        if self.too_small_to_decide():
            return
        dismissed = self.review_app.vote_dismissals.get(item.id, {}).get(reviewer, ())  # type: ignore[union-attr]
        if self.run_step(lambda: self.session.adopt(decision, dismissed)):
            self.notify(safe_plain(f"took {reviewer}'s decision ({decision.verdict.value})", limit=200), markup=False, timeout=3)
            if decision.changed:  # their edit is now the item: the checks that compare items see it after a rescan
                self.review_app.schedule_rescan()

    def action_dismiss_warning(self) -> None:
        """The reviewer's word on a warning: not a problem here. Journaled, undoable, counted per check."""
        queue = self.session.queue
        item = queue.current
        if item is None:
            self._no_question_open()
            return
        if self._scan_running():
            return
        dismissed = queue.dismissed_for(queue.position)
        # A warning marked "not a problem" can be taken back whatever it shows as now: one the review has
        # settled since (see checks.settled) is a hint, and the pane still offers w on it.
        flags = [f for f in self.review_app.item_flags(item) or () if f.severity >= Severity.LOW or f.check in dismissed]
        # One an edit has made go away still counts as dismissed: offered too, or it could never be taken back.
        gone = [check for check in sorted(dismissed) if all(f.check != check for f in flags)]
        flags += [Flag(check, Severity.LOW, "no longer flags this item as it stands") for check in gone]
        if not flags:
            self.notify("This item has no warning to dismiss (hints are not warnings).", markup=False)
            return

        def chosen(check: str | None) -> None:
            if check is not None and self.run_step(lambda: self.session.dismiss(check), finished_check=False):
                now = "not a problem" if check in queue.dismissed_for(queue.position) else "a problem again"
                self.notify(safe_plain(f"{check}: {now} on {item.id}", limit=200), markup=False, timeout=3)

        if len(flags) == 1:
            chosen(flags[0].check)
            return
        from reviewtui.tui.screens.dialogs import WarningPickerScreen

        self.app.push_screen(WarningPickerScreen(flags, dismissed), chosen)

    def action_details(self) -> None:
        item = self.session.queue.current
        if item is None:
            return
        from reviewtui.tui.screens.details import DetailsScreen

        title = join("Meta of ", safe(item.id, one_line=True, limit=120))
        self.app.push_screen(DetailsScreen(title, meta_view(item), self._key_of("review.details", "i")))

    def action_peek(self) -> None:
        """The items this one's warnings name (a duplicate, a conflicting answer), without leaving it."""
        item = self.session.queue.current
        if item is None:
            self._no_question_open()
            return
        if self._scan_running():
            return
        queue = self.session.queue
        named = dict.fromkeys(other for flag in self.review_app.item_flags(item) or () for other in flag.related_ids)
        if not named:
            self.notify("No warning on this item names another item.", markup=False)
            return
        related = []
        for other in list(named)[:20]:
            index = queue.index_of(other)
            shown = queue.shown(index) if index is not None else None
            verdict = queue.verdict_for(index).value if index is not None else None
            related.append((other, shown, verdict))
        from reviewtui.tui.screens.details import DetailsScreen

        title = join("Items named by the warnings on ", safe(item.id, one_line=True, limit=120))
        self.app.push_screen(DetailsScreen(title, related_view(related), self._key_of("review.peek", "p")))

    def _no_question_open(self) -> None:
        """Said by a key that acts on the question shown, pressed past the last one (it did nothing, without a word)."""
        back = self.review_app.key_name("review.previous")
        self.notify(f"No question is open here, past the last one: {back} goes back to it.", markup=False)

    def _scan_running(self) -> bool:
        """Whether the quality scan's warnings are still to come, said when they are: until then an item's warnings
        are not known, and w took back, with one key, a dismissal made in an earlier session ("no longer flags this
        item"), and p said that no warning names another item."""
        if self.review_app.view.scan_pending:
            self.notify("The quality scan is still running: this item's warnings are not known yet. Try again in a moment.", markup=False)
            return True
        return False

    def _key_of(self, binding_id: str, default: str) -> str:
        """The first key the binding is mapped to now (the settings file may have changed it)."""
        keys = getattr(self.app, "keymap", {}).get(binding_id, default)
        return keys.split(",")[0].strip() or default

    def _open_gold_document(self, item: EvalItem) -> None:
        """An item without quotes: the chosen one of its document-level gold documents (BEIR), whole."""
        documents = gold_documents_listed(item)
        doc_id = documents[min(self.review_app.view.anchor, len(documents) - 1)][0] if documents else None
        corpus = self.review_app.corpus
        if doc_id is None:
            self.notify("This item has no quote or gold document to look up.", markup=False)
            return
        if corpus is None:
            self.notify("Start with --corpus (a folder, or a BEIR corpus.jsonl) to read its documents.", markup=False)
            return
        document = corpus.get(str(doc_id))
        if document is None:
            self.notify(safe_plain(corpus.why_unusable(str(doc_id))), severity="warning", markup=False)
            return
        from reviewtui.tui.screens.document import DocumentScreen

        self.app.push_screen(DocumentScreen(document.id, document.text, None))

    #: From this many items an export takes a second or more (ten at a million): it is written on a thread, from the
    #: review as it stands when the key is pressed, while the review goes on (see ReviewApp.export_in_background).
    EXPORT_SAID_FROM = 50_000

    def action_export(self) -> None:
        size = len(self.session.queue)
        if size < self.EXPORT_SAID_FROM and not self.review_app.export_running:
            self.review_app.export()
            return
        self.review_app.export_in_background()

    def action_help(self) -> None:
        from reviewtui.evalset.io.settings import config_path
        from reviewtui.tui.screens.help import HelpScreen

        path = str(config_path())
        home = str(Path.home())
        if path.startswith(home + "/"):
            path = "~" + path[len(home) :]
        app = self.review_app
        self.app.push_screen(HelpScreen(app.key_rows(), path, app.keys_of("review.help"), app.key_name("review.help")))

    def action_toggle_history(self) -> None:
        # wide screens show the history until hidden; narrow ones hide it until shown
        pane = self.query_one("#history-pane")
        if self.has_class("-narrow"):
            pane.toggle_class("-shown")
            self.set_class(pane.has_class("-shown"), "-with-history")  # the side makes room for it (see the stylesheet)
        else:
            pane.toggle_class("-hidden")

    def action_toggle_cautions(self) -> None:
        # The item's warnings stay where they are: the cautions open below them, in the same pane.
        self._cautions_open = not self._cautions_open
        self.refresh_review()


def _pane(pane_id: str, title: str, *, hold: int = 0) -> TextPane:
    return _titled(TextPane(id=pane_id, classes="pane", hold=hold), title)


def _titled(pane: TextPane, title: str) -> TextPane:
    pane.border_title = title
    return pane


_POSITION = re.compile("[0-9]+")
#: The formats whose files carry their documents (see ``convert --corpus-out``).
_CARRY_DOCUMENTS = frozenset(("squad", "hotpotqa", "nq", "dpr"))


def _documents_in_file(session: ReviewSession) -> bool:
    """Whether the file under review holds its documents (a SQuAD file, not the JSONL converted from it, whose
    set still names SQuAD as its source): the format it was read as, or sniffed from its first bytes."""
    found = session.source_format
    if found is None and session.input_path is not None:
        from reviewtui.evalset.io.sniff import sniff_format

        try:
            found = sniff_format(session.input_path)
        except (EvalSetError, OSError):
            return False
    return found in _CARRY_DOCUMENTS
_NOTHING = object()  # no content given yet
_BLANK = object()  # the blank line under the history's head


#: How many ids, spread over the set, say whether its ids are numbers (not every id: g must not cost the set's size).
ID_SAMPLE = 101


def _ids_are_numbers(queue: ReviewQueue) -> bool:
    """Whether some of the set's ids are numbers, judged from ids spread evenly over it: the same answer wherever
    the reviewer stands (judged from the current item, g 4 went to position 4 or was refused by where one was)."""
    size = len(queue)
    step = max(1, size // ID_SAMPLE)
    return any(_POSITION.fullmatch(queue.item_at(index).id) for index in range(0, size, step))


def _part_held(session: ReviewSession) -> str | None:
    """What part of the set a session holds, as a failed ``g`` names it (None: the whole set)."""
    if not session.partial:
        return None
    if session.adjudicating:
        return "the items in dispute"
    if session.role and session.role.endswith("'s share"):
        return f"{session.role} (the rest of the set is others' to review)"
    return "this part of the set"


def resolve_target(
    queue: ReviewQueue, target: str, still_reading: bool = False, part: str | None = None, in_set: Container[str] = ()
) -> int | str:
    """``g`` input: an item id if one matches exactly, else ``#N`` or ``N`` as a 1-based position.

    A position counts in the order on screen ("flagged first" included), as the status line does. Where the
    ids are numbers (a BEIR set's query ids), a bare number is only ever an id: "86", a query kept in
    another split, went silently to the 86th item, and the reviewer decided a query they had not asked for.
    ``part``: what part of the set the queue holds (a team member's share), named when an id is not in it:
    "no item with id" was said of an item the set holds and the plan gave to another reviewer.
    """
    text = target.strip()
    if queue.index_of(text) is not None:
        return text
    so_far = " read so far (the rest of the set is still being read)" if still_reading else ""
    digits = text[1:] if text.startswith("#") else text
    if digits is text and _POSITION.fullmatch(text) and _ids_are_numbers(queue):
        raise ReviewError(
            f"no item with id {in_quotes(text)}{f' among the {len(queue):,}{so_far}' if so_far else ''}; "
            f"some ids here are numbers, so a position is typed #{text}"
        )
    # ASCII digits only: str.isdigit() says yes to "²" (which int() refuses) and to "٣" or "１"
    if _POSITION.fullmatch(digits):
        position = int(digits)
        if not 1 <= position <= len(queue):
            raise ReviewError(f"there is no position {position}; the queue holds 1–{len(queue):,}{so_far}")
        return queue.index_at_rank(position - 1)
    if part is not None:
        raise ReviewError(f"no item with id {in_quotes(text)} in {part}{so_far}")
    if text in in_set:
        # The set has it, the review does not: an item the file marks reviewed, left out without --all
        # ("no item with id 'q01'" was untrue of a set that holds one).
        raise ReviewError(
            f"{in_quotes(text)} is not in this review: the set file marks it reviewed, and a review leaves those out "
            "(start the review with --all to take them in)"
        )
    raise ReviewError(f"no item with id {in_quotes(text)}" + (f" among the {len(queue):,}{so_far}" if so_far else ""))


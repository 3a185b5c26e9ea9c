"""The review app: draws the session's state and passes each key to the session.

The app owns no review logic. A key press becomes an action; the action calls the
:class:`~reviewtui.evalset.review.session.ReviewSession` (which writes the step to the
journal before it returns) and the screen is redrawn from the session's state.
Slow work (the quality scan, the corpus lookup) runs in a child process read by a
worker thread (see :mod:`reviewtui.tui.jobs`), and the rest of a large set is read
by another worker once the first question is on screen (see
:mod:`reviewtui.evalset.review.loading`). Workers report by messages; only message
handlers on the app change what the app knows.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

import orjson
from platformdirs import user_log_path
from pydantic_core import PydanticSerializationError
from textual import events, on, work
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.content import Content
from textual.screen import Screen
from textual.worker import get_current_worker

from reviewtui.evalset.model.flag import Flag, Severity, sort_flags
from reviewtui.evalset.io.files import gc_paused
from reviewtui.evalset.io.journal import JournalWriteError
from reviewtui.evalset.model.items import EvalItem, EvalSetError, QuestionType
from reviewtui.evalset.review.queue import RejectReason
from reviewtui.evalset.review.session import ReviewSession
from reviewtui.evalset.checks.warninglog import LogEntry
from reviewtui.tui.checks import StageReceiver
from reviewtui.tui.config import AppConfig, config_path
from reviewtui.tui.jobs import ChildJob, JobSource, Scan, quality_scan, run_stage
from reviewtui.tui.messages import (
    EvidenceFinished,
    EvidenceProgress,
    OrderReady,
    ScanFailed,
    ScanFinished,
    ScanProgress,
    SetBatch,
    SetLoaded,
    SetLoadFailed,
)
from reviewtui.tui.render import reading_bar
from reviewtui.tui.safe import join, safe, safe_markup, safe_plain
from reviewtui.tui.screens.review import REVIEW_BINDINGS, ReviewScreen

if TYPE_CHECKING:
    # Loaded when first needed: the first question should not wait for the dialogs, the corpus or the resolver.
    from reviewtui.evalset.evidence.corpus import Corpus
    from reviewtui.evalset.evidence.resolve import AnchorResolution, AnchorResolver
    from reviewtui.tui.screens.dialogs import RejectChoice
    from reviewtui.tui.screens.edit import ItemChanges
    from reviewtui.tui.screens.help import KeyRow

__all__ = ["ReviewApp"]

#: While the rest of a set is read, how often the counts on screen catch up with it.
LOAD_REDRAW_SECONDS = 0.5
#: What the core raises when an item cannot be turned into a journal record (meta nested too
#: deep for the serialisers, say). The step was refused before anything was written or applied,
#: so, like a JournalWriteError, it is "not saved" rather than a bug in the app.
UNWRITABLE = (PydanticSerializationError, orjson.JSONEncodeError)


@dataclass
class ViewState:
    """What the screen shows that is not review state: the selected quote and the scans' results."""

    anchor: int = 0
    item_id: str | None = None
    flags: dict[str, list[Flag]] | None = None
    cautions: list[LogEntry] | None = None
    evidence: dict[str, tuple[AnchorResolution, ...]] | None = None
    evidence_flags: dict[str, list[Flag]] | None = None
    flagged_order: list[int] | None = None
    serious: int = 0
    scan_error: str | None = None
    summary_shown: bool = False
    last_search: str = ""
    banner: str = ""  # shown in the status line until the first step (e.g. "resumed: 3 of 5 decided")

    def flags_for(self, item_id: str) -> list[Flag] | None:
        """The item's flags from every finished check, most severe first; None while none has finished."""
        if self.flags is None and self.evidence_flags is None:
            return None
        found = [*(self.flags or {}).get(item_id, ()), *(self.evidence_flags or {}).get(item_id, ())]
        return sort_flags(found)


def write_crash_report(error: BaseException | None) -> Path | None:
    """Write ``error``'s traceback (no local variables) to a new file in the user's log folder."""
    import datetime as dt
    import os
    import traceback

    from reviewtui.evalset.io.files import atomic_write

    if error is None:
        return None
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%SZ")
    path = user_log_path("reviewtui") / f"crash-{stamp}-{os.getpid()}.txt"
    text = "".join(traceback.format_exception(error))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        return atomic_write(path, text.encode("utf-8", "backslashreplace"))
    except (OSError, EvalSetError):
        return None


class ReviewApp(App[None]):
    """``reviewtui FILE``: one question at a time, one key per decision."""

    TITLE = "reviewtui"
    CSS_PATH = Path(__file__).with_name("reviewtui.tcss")
    BINDINGS = [
        Binding("ctrl+q", "quit", "Quit", id="app.quit", priority=True),
    ]

    def __init__(
        self,
        session: ReviewSession,
        *,
        config: AppConfig | None = None,
        scan: Scan | None = None,
        corpus: Corpus | None = None,
    ) -> None:
        super().__init__()
        self.session = session
        self.config = config or AppConfig()
        self.view = ViewState(banner=session.resume_report.headline)
        self._scan = scan if scan is not None else quality_scan
        self.corpus = corpus
        self.review_screen = ReviewScreen()
        #: a malformed line found while reading the rest of the set; the app closes and the CLI reports it
        self.load_error: EvalSetError | None = None
        #: an error of the app's own that ended it, and the file its traceback was written to
        self.crash: BaseException | None = None
        self.crash_report: Path | None = None
        self._load_drawn_at = 0.0
        self._checks_waiting: list[str] = []

    def _fatal_error(self) -> None:
        # Textual's own handling prints a traceback with every frame's local variables to
        # the terminal; those hold questions, notes and ids from the set, which must never
        # reach a terminal raw. The traceback goes to a file instead, and the command line
        # prints one safe line naming it (see commands/review.py).
        import sys

        self.crash = sys.exc_info()[1]
        self.crash_report = write_crash_report(self.crash)
        self.bell()
        self.exit(return_code=1)

    @cached_property
    def resolver(self) -> AnchorResolver:
        from reviewtui.evalset.evidence.resolve import AnchorResolver

        return AnchorResolver()

    # ---- start-up -------------------------------------------------------------------

    def get_default_screen(self) -> Screen:
        # The review screen is the app's first screen, not pushed over a blank one: one screen
        # less to build and paint before the first question shows.
        return self.review_screen

    def on_mount(self) -> None:
        if self.config.keymap:
            self.set_keymap(self.config.keymap)

    @on(events.Ready)
    def _first_paint_done(self) -> None:
        # The notices, the loader and the checks come once the first question is on screen, so
        # that none of them delays it (mounting toasts means another layout pass; a thread or a
        # process started earlier competes with the paint).
        self.call_after_refresh(self._start_background)

    def _say_how_it_opened(self) -> None:
        for problem in self.config.problems:
            # a problem quotes the settings file (a key name, a value): data like any other
            self.notify(safe_plain(problem, limit=500), title="settings", severity="warning", markup=False, timeout=8)
        report = self.session.resume_report
        self.notify(safe_plain(report.headline, limit=300), title="reviewtui", markup=False, timeout=4)
        for line in report.lines()[1:]:
            self.notify(safe_plain(line, limit=500), severity="warning", markup=False, timeout=10)

    def _start_background(self) -> None:
        self._say_how_it_opened()
        if self.session.loading is not None:
            self._load_rest()
        self._start_checks()

    def _start_checks(self) -> None:
        """The quality scan always; the corpus lookup with --corpus. In child processes when the set has a file.

        A child reads the set from its file itself, so it starts at once, on the
        other core; a check run here needs the whole set, so it waits for the loader.
        """
        stages = ["quality"] + (["evidence"] if self.corpus is not None else [])
        source = self._job_source()
        for stage in stages:
            if source is not None:
                self._run_child(stage, source)
            elif self.session.loading is not None:
                self._checks_waiting.append(stage)
            else:
                self._run_in_thread(stage)

    # ---- the rest of a large set --------------------------------------------------------

    @work(thread=True, exit_on_error=False, group="load")
    def _load_rest(self) -> None:
        loader = self.session.loading
        if loader is None:
            return
        worker = get_current_worker()
        try:
            # The collector stays off until the whole set is in (see gc_paused): otherwise each
            # full collection, in whichever thread, walks every item read so far. The items then
            # stay out of its sight for good (keep): they live as long as the review.
            with gc_paused(keep=True):
                while not loader.done:
                    if worker.is_cancelled:
                        return
                    self.post_message(SetBatch(loader.read_more(), loader.fraction))
                if not (worker.is_cancelled or loader.closed):
                    self.post_message(SetLoaded(loader.finish()))
        except EvalSetError as exc:
            self.post_message(SetLoadFailed(exc))

    @on(SetBatch)
    def _set_batch(self, message: SetBatch) -> None:
        if self.session.loading is None or self.session.closed:
            return
        queue = self.session.queue
        was_past_end = queue.current is None
        try:
            self.session.add_loaded(message.items)
        except EvalSetError as exc:  # an id seen twice: the set is malformed, as with a bad line
            self._stop_on_load_error(exc)
            return
        if was_past_end and queue.current is not None:
            self.refresh_review()  # the reviewer was waiting at the end of what had been read
            return
        # Only the counts change, and a redraw costs a layout pass that the loader would wait
        # for (the GIL), so the bars are brought up to date a few times a second at most.
        now = time.monotonic()
        if now - self._load_drawn_at >= LOAD_REDRAW_SECONDS:
            self._load_drawn_at = now
            self._show_counts()

    def _show_counts(self) -> None:
        """The top bar's progress and the status line: the part of the screen that follows the counts."""
        screen = self.review_screen
        if screen.is_attached:
            stats = self.session.queue.stats()
            screen.top_bar.show_progress(stats.decided, stats.total, stats.counts, stats.per_hour, stats.eta_seconds)
            screen.show_status(self._status_line())

    @on(SetLoaded)
    def _set_loaded(self, message: SetLoaded) -> None:
        if self.session.loading is None or self.session.closed:
            return
        self.session.finish_loading(message.evalset)
        report = self.session.resume_report
        if self.view.banner:  # nothing done yet: the headline can now give the whole count
            self.view.banner = report.headline
        for stage in self._checks_waiting:
            self._run_in_thread(stage)
        self._checks_waiting.clear()
        self._flags_changed()
        self.refresh_review()
        self._maybe_show_summary()

    @on(SetLoadFailed)
    def _set_load_failed(self, message: SetLoadFailed) -> None:
        self._stop_on_load_error(message.error)

    def _stop_on_load_error(self, error: EvalSetError) -> None:
        """The rest of the set cannot be read: the app closes and the command line says why."""
        self.load_error = error
        self.exit(return_code=2)

    def _job_source(self) -> JobSource | None:
        """Where a child process can read the set itself; None means the checks run in threads here.

        Tests that pass their own ``scan``, sets built in memory and in-memory corpora stay in process.
        """
        path = self.session.input_path
        if self._scan is not quality_scan or path is None:
            return None
        if self.corpus is not None and self.corpus.root is None:
            return None
        if self.corpus is None:
            return JobSource(str(path), self.session.source_format)
        return JobSource(str(path), self.session.source_format, str(self.corpus.root), tuple(sorted(self.corpus.extensions)))

    @work(thread=True, exit_on_error=False, group="checks")
    def _run_child(self, stage: str, source: JobSource) -> None:
        worker = get_current_worker()
        ChildJob(stage, source).run(StageReceiver(self.post_message), cancelled=lambda: worker.is_cancelled)

    @work(thread=True, exit_on_error=False, group="checks")
    def _run_in_thread(self, stage: str) -> None:
        worker = get_current_worker()
        run_stage(
            stage,
            self.session.evalset,
            self.corpus,
            StageReceiver(self.post_message),
            cancelled=lambda: worker.is_cancelled,
            scan=self._scan,
        )

    @work(thread=True, exclusive=True, group="order", exit_on_error=False)
    def _compute_order(self, *flag_maps: dict[str, list[Flag]]) -> None:
        order, serious = flagged_first_order(self.session.queue.items, *flag_maps)
        self.post_message(OrderReady(order, serious))

    def _flags_changed(self) -> None:
        """Every finished check changes which items come first in "flagged first" (worked out off the UI thread).

        Not while the set is still being read: the order must rank every item (done when it has loaded)."""
        if self.session.loading is not None:
            return
        self._compute_order(self.view.flags or {}, self.view.evidence_flags or {})

    @on(ScanProgress)
    def _scan_progress(self, message: ScanProgress) -> None:
        self.review_screen.show_scan_progress(message.done, message.total)

    @on(ScanFinished)
    def _scan_finished(self, message: ScanFinished) -> None:
        self.view.flags = message.flags
        self.view.cautions = message.cautions
        self.review_screen.show_scan_progress(1, 1)
        self._flags_changed()
        self.refresh_review()

    @on(EvidenceProgress)
    def _evidence_progress(self, message: EvidenceProgress) -> None:
        self.review_screen.show_status(f"looking up quotes in the corpus… {message.done:,}/{message.total:,}")

    @on(EvidenceFinished)
    def _evidence_finished(self, message: EvidenceFinished) -> None:
        self.view.evidence = message.resolutions
        self.view.evidence_flags = message.flags
        self.notify(safe_plain(message.summary, limit=600), title="evidence", markup=False, timeout=6)
        self._flags_changed()
        self.refresh_review()

    @on(OrderReady)
    def _order_ready(self, message: OrderReady) -> None:
        self.view.flagged_order = message.order
        self.view.serious = message.serious
        self.refresh_review()

    @on(ScanFailed)
    def _scan_failed(self, message: ScanFailed) -> None:
        self.view.scan_error = message.error
        self.view.flags = {}
        self.view.cautions = []
        self.review_screen.show_scan_progress(1, 1)
        self.notify(safe_plain(message.error, limit=300), title="quality scan failed", severity="error", markup=False)
        self.refresh_review()

    # ---- drawing ----------------------------------------------------------------------

    def refresh_review(self) -> None:
        """Redraw everything from the session's state. Costs O(size of one item), never O(set)."""
        screen = self.review_screen
        if not screen.is_attached:
            return
        queue = self.session.queue
        evalset = self.session.evalset
        item = queue.current
        if item is None or item.id != self.view.item_id:
            self.view.anchor = 0
            self.view.item_id = item.id if item is not None else None
        screen.top_bar.show_set(evalset.id, evalset.version)
        if item is None:
            screen.show_item(None, verdict=None, note="", selected_anchor=0)
            screen.show_flags([], scanning=False)
        else:
            decision = queue.current_decision
            verdict = decision.verdict.value if decision is not None else None
            screen.show_item(
                item,
                verdict=verdict,
                note=queue.note_for(queue.position),
                selected_anchor=self.view.anchor,
                resolutions=self.resolutions_for(item),
                document_text=self.document_text,
            )
            screen.show_flags(self.view.flags_for(item.id), scanning=self.view.flags is None, failed=self.view.scan_error)
        if self.view.cautions is not None:
            screen.show_cautions(self.view.cautions)
        screen.show_history(queue.recent(20))
        self._show_counts()

    # ---- evidence in context ------------------------------------------------------------

    def resolutions_for(self, item: EvalItem) -> tuple[AnchorResolution, ...] | None:
        """Where each quote of the shown item is; looked up now if the item was edited or not scanned yet."""
        if self.corpus is None or not item.anchors:
            return None
        cached = (self.view.evidence or {}).get(item.id)
        if cached is not None and tuple(r.anchor for r in cached) == item.anchors:
            return cached
        _item, fresh = self.resolver.resolve_item(item, self.corpus)
        if self.view.evidence is not None:
            self.view.evidence[item.id] = fresh
        return fresh

    def document_text(self, doc_id: str) -> str | None:
        if self.corpus is None:
            return None
        document = self.corpus.get(doc_id)
        return None if document is None else document.text

    def show_document(self) -> None:
        item = self.session.queue.current
        if item is None or not item.anchors:
            self.notify("This item has no quote to look up.", markup=False)
            return
        if self.corpus is None:
            self.notify("Start with --corpus DIR to see quotes in their documents.", markup=False)
            return
        anchor_index = min(self.view.anchor, len(item.anchors) - 1)
        resolutions = self.resolutions_for(item) or ()
        resolution = resolutions[anchor_index] if anchor_index < len(resolutions) else None
        document = self.corpus.get(item.anchors[anchor_index].source_id)
        if document is None:
            self.notify(safe_plain(self.corpus.why_missing(item.anchors[anchor_index].source_id)), severity="warning", markup=False)
            return
        span = resolution.span if resolution is not None else None
        from reviewtui.tui.screens.document import DocumentScreen

        self.push_screen(DocumentScreen(document.id, document.text, span))

    def _status_line(self) -> Content:
        queue = self.session.queue
        total = len(queue)
        parts: list[Content | str] = []
        if self.view.banner:
            parts.append(safe(self.view.banner, style="bold $accent", one_line=True, limit=200))
            parts.append(Content.styled("  · ", "dim"))
        loading = self.session.loading
        if queue.current is None:
            parts.append("past the last item · ← to go back")
        else:
            rank = queue.rank_of(queue.position) + 1
            parts.append(f"item {rank:,} of {total:,}" + (" so far" if loading is not None else ""))
        if loading is not None:
            parts.append(Content.styled("  · ", "dim"))
            parts.append(reading_bar(loading.fraction))
        if queue.order is not None:
            parts.append(Content.styled("  · flagged first", "$text-warning"))
        if self.view.flags is None:
            parts.append(Content.styled("  · checking quality…", "dim"))
        elif self.view.flagged_order is not None:
            parts.append(Content.styled(f"  · {self.view.serious:,} flagged medium or worse", "dim"))
        parts.append(Content.styled("  · ? keys", "dim"))
        return join(*parts)

    # ---- running a step -----------------------------------------------------------------

    def run_step(self, step: Callable[[], object], *, finished_check: bool = True) -> bool:
        """Call the session; a step the core refuses, or could not save, is a notification, not a crash.

        The session writes a step to the journal before applying it, so when it
        raises nothing has changed: the same question stays on screen. Any other
        exception is a bug and ends the app with a non-zero exit, as Textual does.
        """
        self.view.banner = ""
        try:
            step()
        except JournalWriteError as exc:
            self._not_saved(str(exc))
            return False
        except UNWRITABLE as exc:
            self._not_saved(f"this item cannot be written to the journal ({exc})")
            return False
        except EvalSetError as exc:
            self.notify(safe_plain(str(exc), limit=500), severity="warning", markup=False)
            self.refresh_review()
            return False
        self.refresh_review()
        if finished_check:
            self._maybe_show_summary()
        return True

    def _not_saved(self, why: str) -> None:
        """Say plainly that the key just pressed did nothing, and why (the question stays as it was)."""
        title = "The last step was NOT saved: nothing changed"
        self.notify(safe_plain(why, limit=600), title=title, severity="error", markup=False, timeout=30)
        self.refresh_review()

    def _maybe_show_summary(self) -> None:
        queue = self.session.queue
        if not queue.is_done or self.session.loading is not None:
            self.view.summary_shown = False
            return
        if self.view.summary_shown:
            return
        self.view.summary_shown = True
        self.show_summary()

    def show_summary(self, exported_to: str | None = None) -> None:
        from reviewtui.tui.screens.summary import SummaryScreen

        queue = self.session.queue
        stats = queue.stats()
        reasons: dict[str, int] = {}
        for decision in queue.rejections():
            code = decision.reason.value if decision.reason else "no reason given"
            reasons[code] = reasons.get(code, 0) + 1

        def chosen(choice: str | None) -> None:
            if choice == "export":
                path = self.export()
                if path is not None:
                    self.show_summary(exported_to=str(path))

        self.push_screen(
            SummaryScreen(
                set_id=self.session.evalset.id,
                counts=stats.counts,
                total=stats.total,
                seconds=stats.seconds,
                reasons=reasons,
                exported_to=exported_to,
            ),
            chosen,
        )

    def export(self) -> Path | None:
        try:
            path = self.session.export()
        except (EvalSetError, OSError) as exc:
            self.notify(safe_plain(str(exc), limit=500), title="export failed", severity="error", markup=False)
            return None
        self.notify(safe_plain(f"exported to {path}", limit=500), title="export", markup=False)
        return path

    # ---- the dialogs behind the review keys -----------------------------------------------

    def ask_reject(self) -> None:
        item = self.session.queue.current
        if item is None:
            self.notify("Nothing to reject: every item is decided.", markup=False)
            return
        reasons = [(reason.value, reason.description) for reason in RejectReason]
        from reviewtui.tui.screens.dialogs import RejectScreen

        def done(choice: RejectChoice | None) -> None:
            if choice is not None:
                self.run_step(lambda: self.session.reject(note=choice.note, reason=choice.reason))

        self.push_screen(RejectScreen(reasons, item.id), done)

    def ask_edit(self) -> None:
        item = self.session.queue.current
        if item is None:
            self.notify("Nothing to edit: every item is decided.", markup=False)
            return

        def done(changes: ItemChanges | None) -> None:
            if changes and self.run_step(lambda: self.apply_edit(changes)) and changes.anchors:
                self.report_requote(item.id)

        from reviewtui.tui.screens.edit import EditScreen

        self.push_screen(EditScreen(item, QuestionType.ALL), done)

    def report_requote(self, item_id: str) -> None:
        """After an edit, say at once whether each changed quote is still in its document."""
        if self.corpus is None:
            return
        queue = self.session.queue
        index = queue.index_of(item_id)
        if index is None:
            return
        item = queue.shown(index)
        resolutions = self.resolutions_for(item) or ()
        words = [f"quote {r.anchor_index + 1}: {r.describe()}" for r in resolutions]
        if words:
            severe = any(not r.found for r in resolutions)
            self.notify(safe_plain("; ".join(words), limit=600), severity="error" if severe else "information", markup=False)

    def apply_edit(self, changes: ItemChanges) -> None:
        """Everything changed in the dialog becomes one edit decision (one undo)."""
        self.session.edit(
            question=changes.question,
            answer=changes.answer,
            qtype=changes.qtype,
            anchor_edits=changes.anchors or None,
        )

    def ask_type(self) -> None:
        item = self.session.queue.current
        if item is None:
            return

        def done(qtype: str | None) -> None:
            if qtype is not None and qtype != item.qtype:
                self.run_step(lambda: self.session.mark(qtype))

        from reviewtui.tui.screens.dialogs import TypePickerScreen

        self.push_screen(TypePickerScreen(QuestionType.ALL, item.qtype), done)

    def ask_note(self) -> None:
        queue = self.session.queue
        item = queue.current
        if item is None:
            return

        current = queue.note_for(queue.position)

        def done(text: str | None) -> None:
            if text is not None and text != current:  # Enter on the note as it was changes nothing
                self.run_step(lambda: self.session.note(text), finished_check=False)

        from reviewtui.tui.screens.dialogs import NoteScreen

        self.push_screen(NoteScreen(item.id, current), done)

    def ask_goto(self) -> None:
        queue = self.session.queue

        def done(target: str | None) -> None:
            if target:
                reading = self.session.loading is not None
                self.run_step(lambda: self.session.goto(resolve_target(queue, target, reading)), finished_check=False)

        from reviewtui.tui.screens.dialogs import GotoScreen

        self.push_screen(GotoScreen(len(queue)), done)

    def ask_search(self) -> None:
        def done(index: int | None) -> None:
            if index is not None:
                self.run_step(lambda: self.session.goto(index), finished_check=False)

        def remember(query: str) -> None:
            self.view.last_search = query

        from reviewtui.tui.screens.dialogs import SearchScreen

        self.push_screen(SearchScreen(self.session.queue.items, self.view.last_search, remember), done)

    def toggle_flagged_first(self) -> None:
        queue = self.session.queue
        if queue.order is not None:
            self.run_step(lambda: self.session.set_order(None), finished_check=False)
            self.notify("Back to the set's own order.", markup=False)
            return
        if self.session.loading is not None:
            self.notify("The set is still being read; flagged first needs all of it. Try again in a moment.", markup=False)
            return
        if self.view.flagged_order is None:
            self.notify("The quality scan is still running; try again in a moment.", markup=False)
            return
        if not self.view.flagged_order:
            self.notify("No item is flagged, so the order stays as it is.", markup=False)
            return
        order = self.view.flagged_order
        if not self.run_step(lambda: self.session.set_order(order), finished_check=False):
            return
        first = next((index for index in order if queue.decision_for(index) is None), None)
        if first is not None and first != queue.position:
            self.run_step(lambda: self.session.goto(first), finished_check=False)
        message = f"Flagged first: {len(order):,} flagged items come first."
        self.notify(message, markup=False)

    def select_anchor(self, step: int) -> None:
        item = self.session.queue.current
        if item is None or len(item.anchors) < 2:
            return
        self.view.anchor = (self.view.anchor + step) % len(item.anchors)
        self.refresh_review()

    def show_help(self) -> None:
        path = str(config_path())
        home = str(Path.home())
        if path.startswith(home + "/"):
            path = "~" + path[len(home) :]
        from reviewtui.tui.screens.help import HelpScreen

        self.push_screen(HelpScreen(self.key_rows(), path))

    def key_rows(self) -> list[KeyRow]:
        """Every review key as it is mapped now (the config file may have changed it)."""
        from reviewtui.tui.screens.help import KeyRow

        keymap = getattr(self, "_keymap", {})  # what set_keymap applied
        rows = []
        for binding in [*REVIEW_BINDINGS, *self.BINDINGS]:
            keys = keymap.get(binding.id or "", binding.key)
            # key names from the settings file are data: made inert before the help screen draws them
            shown = safe_plain(", ".join(self.get_key_display(Binding(k.strip(), "")) for k in keys.split(",")))
            rows.append(KeyRow(shown, binding.description, binding.id or ""))
        rows.append(KeyRow(self.get_key_display(Binding("ctrl+p", "")), "Command palette", "(Textual)"))
        return rows

    # ---- command palette ------------------------------------------------------------------

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        if screen is not self.review_screen:
            return
        keys = {row.binding_id: row.keys for row in self.key_rows()}
        for binding in REVIEW_BINDINGS:
            action = binding.action
            # the palette parses its help text as markup, and a remapped key's name comes from the settings file
            key = safe_markup(keys.get(binding.id or "", binding.key), limit=40)
            yield SystemCommand(
                binding.description,
                f"review: {binding.description.lower()} (key {key})",
                lambda action=action: self.review_screen.run_action(action),
            )


_POSITION = re.compile("[0-9]+")


def resolve_target(queue, target: str, still_reading: bool = False) -> int | str:  # noqa: ANN001
    """``g`` input: an item id if one matches exactly, else ``#N`` or ``N`` as a 1-based position."""
    text = target.strip()
    if queue.index_of(text) is not None:
        return text
    so_far = " read so far (the rest of the set is still being read)" if still_reading else ""
    digits = text[1:] if text.startswith("#") else text
    # ASCII digits only: str.isdigit() says yes to "²" (which int() refuses) and to "٣" or "１"
    if _POSITION.fullmatch(digits):
        position = int(digits)
        if not 1 <= position <= len(queue):
            raise EvalSetError(f"there is no position {position}; the queue holds 1–{len(queue):,}{so_far}")
        return position - 1
    raise EvalSetError(f"no item with id {text!r}" + (f" among the {len(queue):,}{so_far}" if so_far else ""))


def flagged_first_order(items, *flag_maps: dict[str, list[Flag]]) -> tuple[list[int], int]:  # noqa: ANN001
    """Queue indices of items with a flag above a hint, most severe first (ties keep set order),
    and how many of them have a flag of MEDIUM or worse."""
    ranked = []
    for index, item in enumerate(items):
        worst = Severity.HINT
        for flags in flag_maps:
            for flag in flags.get(item.id, ()):
                if flag.severity > worst:
                    worst = flag.severity
        if worst > Severity.HINT:
            ranked.append((-int(worst), index))
    ranked.sort()
    serious = sum(1 for worst, _ in ranked if -worst >= Severity.MEDIUM)
    return [index for _, index in ranked], serious

"""The review app: the session's lifetime, the workers, the keymap, export and quitting.

Review keys are the review screen's (:mod:`reviewtui.tui.screens.review`): each one is
a step on the :class:`~reviewtui.evalset.review.session.ReviewSession` and a redraw
from its state. The app holds what outlives a key press. Slow work (the quality scan,
the corpus lookup) runs in a child process read by a worker thread (see
:mod:`reviewtui.tui.stages`), and the rest of a large set is read by another worker once
the first question is on screen (see :mod:`reviewtui.evalset.review.loading`).
Workers report by messages; only message handlers on the app change what the app
knows (``view``), and then the review screen redraws.
"""

from __future__ import annotations

import functools
import time
from bisect import bisect_left
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from platformdirs import user_log_path
from textual import events, on, work
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Input, TextArea
from textual.worker import get_current_worker

from reviewtui.evalset.checks.settled import settled_by_review
from reviewtui.evalset.checks.warninglog import LogEntry
from reviewtui.evalset.io.settings import AppConfig
from reviewtui.evalset.io.sniff import is_native_jsonl
from reviewtui.evalset.jobs.collector import freeze_for_good, gc_paused
from reviewtui.evalset.model.errors import ReviewError
from reviewtui.evalset.model.flag import Flag, Severity, sort_flags
from reviewtui.evalset.model.items import EvalItem, EvalSetError
from reviewtui.evalset.review import loading
from reviewtui.evalset.review.loading import SetLoader
from reviewtui.evalset.review.queue import Decision, ReviewOrder, Verdict
from reviewtui.evalset.review.session import ReviewSession
from reviewtui.evalset.text.counts import count
from reviewtui.tui.cells import measure_as_terminals_do
from reviewtui.tui.checks import StageReceiver
from reviewtui.tui.keyorder import KeyHandled, KeyOrder, escape_then
from reviewtui.tui.messages import (
    EvidenceFinished,
    EvidenceProgress,
    ExportDone,
    LoaderCrashed,
    OrderReady,
    ScanFailed,
    ScanFinished,
    ScanProgress,
    SetBatch,
    SetLoaded,
    SetLoadFailed,
)
from reviewtui.tui.opening import Opened, Opening, OpeningProgress, OpeningScreen
from reviewtui.tui.paste import keep_escapes_in_pastes
from reviewtui.tui.safe import safe_markup, safe_plain
from reviewtui.tui.screens.base import GuardsTyping
from reviewtui.tui.screens.review import NARROW_WIDTH, REVIEW_BINDINGS, SHORT_HEIGHT, ReviewScreen
from reviewtui.tui.stages import ChildJob, JobSource, Scan, quality_scan, run_stage

if TYPE_CHECKING:
    from textual.driver import Driver

    from reviewtui.evalset.checks.recheck import SetFacts

    # Loaded when first needed: the first question should not wait for the corpus, the resolver or the help screen.
    from reviewtui.evalset.evidence.corpus import Corpus
    from reviewtui.evalset.evidence.resolve import AnchorResolution, AnchorResolver
    from reviewtui.tui.screens.help import KeyRow

__all__ = ["ReviewApp"]

measure_as_terminals_do()  # before anything is measured or drawn: see reviewtui.tui.cells

#: While the rest of a set is read, how often the counts on screen catch up with it.
LOAD_REDRAW_SECONDS = 0.5
#: Flags for at least this many items are frozen out of the collector's sight when a scan brings
#: them (see ReviewApp._scan_finished). Fewer cost a full collection little; freezing has a price:
#: cyclic garbage alive at that moment is never collected.
FREEZE_FLAGS_FROM = 10_000
#: After a key, the thread reading the rest of a set waits this long before it reads on (at most
#: LOADER_HOLD_MAX per batch, so that steady typing slows the reading but never stops it): reading
#: keeps the interpreter, and a key handled meanwhile shared it with the reader, slice by slice.
LOADER_HOLD = 0.15
LOADER_HOLD_MAX = 0.3
#: Lines read between two looks at the keys, and between two moments the reader lets go of the
#: interpreter (see read_batch): well under a millisecond of reading.
LOADER_SLICE = 125  # (a whole number of slices to a batch)


def loader_hold(now: float, last_key: float) -> float:
    """How long the set's reader should wait before reading on, ``now``, after a key at ``last_key``."""
    return min(max(last_key + LOADER_HOLD - now, 0.0), LOADER_HOLD_MAX)


def _holds_text(screen: Screen) -> bool:
    """Whether ``screen`` holds typing an Esc could throw away (see escape_then), whichever of its widgets has
    the focus: a dialog that knows what is unsaved says so (the editor's fields are filled from the item, and
    untouched they hold nothing to lose); elsewhere, any text field with something in it."""
    if isinstance(screen, GuardsTyping):
        return screen.unsaved() is not None
    for widget in screen.query("Input, TextArea"):
        if (isinstance(widget, Input) and widget.value) or (isinstance(widget, TextArea) and widget.text):
            return True
    return False


def _typing_held(stack: Sequence[Screen]) -> GuardsTyping | None:
    """The topmost dialog, or the reject reason picker on the review screen, that holds typed text.

    Any screen of the stack, not only the top one: the command palette opened over a note being
    typed is on top of it, and quitting from there would lose the note as surely.
    """
    for screen in reversed(stack):
        holder: GuardsTyping | None = screen if isinstance(screen, GuardsTyping) else None
        if isinstance(screen, ReviewScreen) and screen.reason_picker.is_open:
            holder = screen.reason_picker
        if holder is not None and holder.unsaved() is not None:
            return holder
    return None


def read_batch(
    loader: SetLoader,
    last_key: Callable[[], float],
    cancelled: Callable[[], bool],
    *,
    sleep: Callable[[float], None] = time.sleep,
    clock: Callable[[], float] = time.monotonic,
    let_others_run: Callable[[], None] = lambda: time.sleep(0),
) -> list[EvalItem] | None:
    """The next batch of the set's items (``LOADER_BATCH`` lines), read a slice at a time, holding off
    after a key (``last_key()``: when the latest arrived) before each slice; None once ``cancelled()``.

    After each slice the reader lets go of the interpreter (``let_others_run``: a sleep of no time).
    Reading holds it otherwise: the thread that reads the terminal, then the screen's, each wait for
    it whenever they need it, so a key typed while a large set is read reached the app late, by many
    of Python's switch intervals. Handed back every slice, a key waits for less than one slice.
    """
    size = loading.LOADER_BATCH  # read here, so that a test can make batches small
    step = min(LOADER_SLICE, size)
    batch: list[EvalItem] = []
    held = 0.0
    for _ in range(-(-size // step)):
        if cancelled():
            return None
        hold = min(loader_hold(clock(), last_key()), LOADER_HOLD_MAX - held)
        if hold > 0:
            sleep(hold)  # the reviewer is at work: their keys first
            held += hold
        batch += loader.read_more(step)
        if loader.done:
            break
        let_others_run()
    return batch
#: After an edit, how long the app waits for the reviewer to stop editing before it scans the set
#: again as reviewed (so that the checks comparing items see the edited question).
RESCAN_AFTER_SECONDS = 3.0

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
    #: (flagged_order, the same order worked out for the queue once, off the UI thread; see ReviewOrder): what f
    #: hands the session, while flagged_order is still that list
    flagged_prepared: tuple[list[int], ReviewOrder] | None = None
    flagged_ranked: list[tuple[int, int]] | None = None  # see OrderReady.ranked
    serious: int = 0
    #: item id -> its worst warning as the panes show it, for items a step may have changed (a decision, its
    #: undo, an edit: the item and the items its pair warnings name): the count and order follow these
    shown_worst: dict[str, Severity | None] = field(default_factory=dict)
    scan_error: str | None = None
    #: why the corpus lookup of every quote failed; the shown item's quotes are looked up on their own then
    evidence_error: str | None = None
    summary_shown: bool = False
    last_search: str = ""
    banner: str = ""  # shown in the status line until the first step (e.g. "resumed: 3 of 5 decided")
    #: item id -> (the item as edited, its warnings rechecked): see ReviewApp.item_flags
    rechecked: dict[str, tuple[EvalItem, list[Flag]]] = field(default_factory=dict)
    #: item id -> the edited version the last scan saw (a scan of the set as reviewed)
    scanned_as: dict[str, EvalItem] = field(default_factory=dict)
    #: item id -> the quality warnings a scan gave the item as the set has it, for each item the last scan saw
    #: edited: an undo of the edit brings that version back before a rescan has looked at it again
    unedited_flags: dict[str, list[Flag]] = field(default_factory=dict)
    #: item id -> (an item the last scan saw edited that this one is paired with, this item's quality warnings
    #: from a scan that read that one as the set has it): an undo of that edit brings those back at once
    partner_flags: dict[str, tuple[str, list[Flag]]] = field(default_factory=dict)
    #: what the last scan knew of the whole set, for rechecking one item after an edit
    set_facts: SetFacts | None = None

    @property
    def scan_pending(self) -> bool:
        """Whether the quality scan's warnings are still to come (a failed scan leaves ``flags`` empty, not None)."""
        return self.flags is None and self.scan_error is None

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


def _news(handler: Callable[[Any, Any], None]) -> Callable[[Any, Any], None]:
    """A handler of a worker's news (the loader's, the checks', the flagged-first order's). News that arrives while
    the app is closing finds the screen's panes already gone: there is nothing left to show it on, and quitting
    must not fail on it (a test's end did, on the scan's progress and on the order)."""

    @functools.wraps(handler)
    def handle(app: Any, message: Any) -> None:
        try:
            handler(app, message)
        except NoMatches:
            if not app.closing():
                raise

    return handle


class ReviewApp(App[None]):
    """``reviewtui FILE``: one question at a time, one key per decision."""

    TITLE = "reviewtui"
    CSS_PATH = Path(__file__).with_name("reviewtui.tcss")
    BINDINGS = [
        Binding("ctrl+q", "quit", "Quit", id="app.quit", priority=True),
    ]

    def get_driver_class(self) -> type[Driver]:
        # A paste holding an escape character became key presses (see reviewtui.tui.paste): it could decide an item.
        driver = super().get_driver_class()
        keep_escapes_in_pastes(driver)
        return driver

    def __init__(
        self,
        session: ReviewSession | None,
        *,
        config: AppConfig | None = None,
        scan: Scan | None = None,
        corpus: Corpus | None = None,
        votes: Mapping[str, Mapping[str, Decision]] | None = None,
        vote_dismissals: Mapping[str, Mapping[str, Sequence[str]]] | None = None,
        opening: Opening | None = None,
        notices: Sequence[str] = (),
    ) -> None:
        """``session``: the review; or None with ``opening``, a long review opened on a thread behind a
        preview of its last question (see :mod:`reviewtui.tui.opening`). ``notices``: what the command
        line has to tell the reviewer once the review is open (shown as warnings)."""
        super().__init__()
        if (session is None) == (opening is None):
            raise ValueError("give the app a session, or an opening and no session")
        # None only until the opening is done (see _take_session, which sets these three from the session)
        self.session: ReviewSession = None  # type: ignore[assignment]
        self.view = ViewState()
        self.review_screen: ReviewScreen = None  # type: ignore[assignment]
        self._opening = opening
        self._held: list[events.Key | events.Paste] = []  # keys pressed while the review was opening
        #: keys are held from the start of an opening until those held have been handed on, in order
        self._holding = opening is not None
        #: adjudication: item id -> {reviewer: their decision}; shown beside the item, a digit takes one
        self.votes: Mapping[str, Mapping[str, Decision]] = votes or {}
        #: adjudication: item id -> {reviewer: the warnings they said are not a problem on it}
        self.vote_dismissals: Mapping[str, Mapping[str, Sequence[str]]] = vote_dismissals or {}
        self.config = config or AppConfig()
        self._scan = scan if scan is not None else quality_scan
        self.corpus = corpus
        self._notices = tuple(notices)
        #: binding id -> keys, as given to set_keymap; the help screen and the palette name the keys from it
        self.keymap: dict[str, str] = {}
        self._key_names: dict[str, str] = {}  # binding id -> its key in words (see key_name)
        #: a malformed line found while reading the rest of the set; the app closes and the CLI reports it
        self.load_error: EvalSetError | None = None
        #: an error of the app's own that ended it, and the file its traceback was written to
        self.crash: BaseException | None = None
        self.crash_report: Path | None = None
        #: the signal that ended the app (SIGTERM, SIGHUP), when one did; the command line exits with 128 + it
        self.stopped_by: int | None = None
        self._signals_taken: list[int] = []
        #: an export is being written on its thread (see export_in_background); quitting waits for it
        self.export_running = False
        self._quit_after_export = False
        self._load_drawn_at = 0.0
        self._last_key_at = float("-inf")  # when the last key arrived (see loader_hold)
        self._checks_waiting: list[str] = []
        #: the flagged-first order last asked for (see _flags_changed) and the one last received: until they are one,
        #: the order on hand is of the checks before the one that just came in
        self._order_asked: object | None = None
        self._order_received: object | None = None
        self._rescan_timer: Timer | None = None
        self._scanning = False  # a quality scan is on its way (the first one, or a rescan)
        self._flags_frozen = False  # a scan's flags were frozen out of the collector's sight (see _scan_finished)
        self._rescan_versions: dict[str, EvalItem] | None = None  # what the running rescan was started on
        self._keys = KeyOrder(self, super().on_event, split=self._escape_then)
        if session is not None:
            self._take_session(session)

    def _fatal_error(self) -> None:
        # Textual's own handling prints a traceback with every frame's local variables to
        # the terminal; those hold questions, notes and ids from the set, which must never
        # reach a terminal raw. The traceback goes to a file instead, and the command line
        # prints one safe line naming it (see cli/review.py).
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
        if self._opening is not None and self.session is None:
            return OpeningScreen(self._opening)
        return self.review_screen

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key) and event.key == "ctrl+j" and not event.is_forwarded:
            # A line feed is Enter typed before the terminal was put in raw mode (as the app starts, while the
            # terminal still turns a carriage return into a line feed): "r 2 Enter s" typed then left the reject
            # panel open, with "s" in its note. No binding may take ctrl+j (tui/keymap.RESERVED), and no editor inserts
            # anything for it.
            event = events.Key("enter", "\r")
        if self._holding and isinstance(event, (events.Key, events.Paste)) and not event.is_forwarded:
            # The review is still opening (or its held keys are being handed on): keys wait, in order;
            # quitting does not wait.
            if isinstance(event, events.Key) and (event.key in self._quit_keys() or event.key == "ctrl+c"):
                await super().on_event(event)  # quitting, or Textual's answer to ctrl+c (how to quit), not later
            else:
                self._held.append(event)
            return
        if isinstance(event, (events.Key, events.Paste)) and not event.is_forwarded:
            # every key reaches the app first, bound or not; keys that arrive together wait their turn
            self._last_key_at = time.monotonic()
            await self._keys.take(event)
            return
        await super().on_event(event)

    def _escape_then(self, event: events.Key) -> tuple[events.Key, events.Key] | None:
        if not event.key.startswith("alt+"):
            return None
        screen = self.screen
        return escape_then(event, screen.active_bindings, holds_text=_holds_text(screen))

    @on(KeyHandled)
    async def _key_handled(self, message: KeyHandled) -> None:
        await self._keys.handled(message)

    def _take_session(self, session: ReviewSession) -> None:
        """Review ``session``: given to the app at once, or once a long review has opened behind its preview."""
        self.session = session
        self.view = ViewState(banner=session.resume_report.headline)
        self.review_screen = ReviewScreen(session)
        # An accept records the serious warnings open on the item as shown (see item_flags), and the items each pair
        # warning names: rejecting those later settles it, as it would have before the accept.
        from reviewtui.evalset.checks.settled import edit_may_end

        session.warnings_from(
            lambda item: self.item_flags(item) or (),
            pairs=None if session.partial else self._pairs,
            edit_ends=edit_may_end,
            unknown=lambda _item: self.view.scan_pending,
        )

    def _pairs(self, item: EvalItem) -> dict[str, tuple[str, ...]]:
        """Each pair warning on ``item`` (as shown) that the review can settle by rejecting the items it names -> those."""
        from reviewtui.evalset.checks.settled import settleable

        found: dict[str, tuple[str, ...]] = {}
        for flag in self.item_flags(item) or ():
            if flag.severity >= Severity.LOW and settleable(flag):
                found[flag.check] = tuple(dict.fromkeys((*found.get(flag.check, ()), *flag.related_ids)))
        return found

    @property
    def keys_not_used(self) -> int:
        """Keys typed while the review was opening and never handed on: the app was quit before it opened."""
        return len(self._held)

    def key_name(self, binding_id: str) -> str:
        """The first key ``binding_id``'s action is on now, as the key bar names it, for the hints the screens give
        in words: the settings may have moved it ("ctrl+q quits now" was said with quit on f10 and accept on ctrl+q,
        and the ctrl+q pressed then accepted the item). Kept once worked out: the status line asks on every key."""
        said = self._key_names.get(binding_id)
        if said is None:
            said = self._key_names[binding_id] = self._key_name(binding_id)
        return said

    def _key_name(self, binding_id: str) -> str:
        first = self.keys_of(binding_id)[0]
        # A key with modifiers by its name, as a sentence says it ("ctrl+q quits"); the bar's "^q" reads as a symbol.
        shown = first if "+" in first else self.get_key_display(Binding(first, ""))
        return safe_plain(shown, limit=20)

    def keys_of(self, binding_id: str) -> list[str]:
        """The keys ``binding_id``'s action is on now, by their names: the settings' remap, else the declared keys."""
        default = _DEFAULT_KEYS.get(binding_id, "")
        keys = [key.strip() for key in self.keymap.get(binding_id, default).split(",") if key.strip()]
        return keys or [key.strip() for key in default.split(",")]

    def _quit_keys(self) -> list[str]:
        return self.keys_of("app.quit")

    async def action_quit(self) -> None:
        # A note or an edit being typed is the reviewer's work: the first quit key says it would be
        # lost, the second one quits (GuardsTyping.may_discard). Decisions are in the journal already.
        holder = _typing_held(self.screen_stack)
        if holder is not None and not holder.may_discard(f"{self._quit_keys()[0]} again quits and"):
            return
        if self._wait_for_export():
            return
        await super().action_quit()

    def _wait_for_export(self) -> bool:
        """An export on its thread is left to finish, and the app quits then: ended with the process, it left its
        output's name claimed by a one-line file and no export (see export_in_background)."""
        if not self.export_running:
            return False
        if not self._quit_after_export:
            self.notify("the export is still being written; the app quits once it is done", title="export", markup=False)
        self._quit_after_export = True
        return True

    def on_mount(self) -> None:
        self._stop_on_signals()
        wanted = self.config.theme
        if wanted is not None:
            # A light terminal's reviewer chose a light theme in the palette every session: the settings keep it.
            if wanted in self.available_themes:
                self.theme = wanted
            else:
                known = ", ".join(sorted(self.available_themes))
                self.config.problems.append(f"{self.config.path}: theme {wanted!r} is not one of the app's: {known}")
        if self.config.keymap:
            from reviewtui.tui.keymap import check_keymap

            # Entries that would take a key from another action, or name no action, are left out and said.
            from reviewtui.tui.screens.edit import EditScreen
            from reviewtui.tui.screens.summary import SummaryScreen

            self.keymap, problems = check_keymap(
                self.config.keymap,
                [*REVIEW_BINDINGS, *self.BINDINGS],
                self.config.path,
                editing=EditScreen.BINDINGS,
                elsewhere={"the summary": SummaryScreen.BINDINGS},
            )
            self.config.problems.extend(problems)
            self.set_keymap(self.keymap)
        self._key_names.clear()  # named from the keymap just set
        from reviewtui.tui import render

        render.HINT_KEYS.update({binding_id: self.key_name(binding_id) for binding_id in render.HINT_KEYS})

    #: The signals that end the app as its quit key does: `kill` or `timeout` (SIGTERM), the terminal closed (SIGHUP).
    STOP_SIGNALS = ("SIGTERM", "SIGHUP")

    def _stop_on_signals(self) -> None:
        # Left to their default action, these ended the process where it stood: the terminal stayed in the
        # app's screen with the mouse reporting on and the cursor hidden, and the session was not closed (no
        # record of the question on screen, its lock file left). Handled on the event loop, they quit the app,
        # and the command line closes the session and restores the terminal as after the quit key.
        import asyncio
        import signal
        import threading

        if threading.current_thread() is not threading.main_thread():
            return
        loop = asyncio.get_running_loop()
        for name in self.STOP_SIGNALS:
            signum = getattr(signal, name, None)
            if signum is None:
                continue
            try:
                loop.add_signal_handler(signum, self._stopped, signum)
            except (NotImplementedError, RuntimeError, ValueError):  # no such handlers on this platform or loop
                continue
            self._signals_taken.append(signum)

    def _stopped(self, signum: int) -> None:
        # Typing held in a dialog is not asked about: nobody is there to press the key again.
        self.stopped_by = signum
        # The terminal is gone with SIGHUP: nothing can be drawn, and a screen that went on waiting for an export hung
        # on its writes to it (the process never ended, its lock kept). The export's thread is waited for all the
        # same: the event loop's executor, which runs it, is shut down (joined) before the app's run returns.
        import signal

        if signum == getattr(signal, "SIGHUP", None) or not self._wait_for_export():
            self.exit()

    def on_unmount(self) -> None:
        import asyncio

        loop = asyncio.get_running_loop()
        while self._signals_taken:
            loop.remove_signal_handler(self._signals_taken.pop())

    @on(events.Ready)
    def _first_paint_done(self) -> None:
        # The notices, the loader and the checks come once the first question is on screen, so
        # that none of them delays it (mounting toasts means another layout pass; a thread or a
        # process started earlier competes with the paint).
        if self.session is None:
            assert self._opening is not None
            self.call_after_refresh(self._opening.start, self.post_message)  # the same reasoning: after the paint
            return
        self.call_after_refresh(self._start_background)

    # ---- a long review opening behind its last question (see reviewtui.tui.opening) --------------

    @on(OpeningProgress)
    @_news
    def _opening_progress(self, message: OpeningProgress) -> None:
        if isinstance(self.screen, OpeningScreen):
            self.screen.show_progress(message.step, message.done, message.total)

    @on(Opened)
    async def _opened(self) -> None:
        opening = self._opening
        assert opening is not None
        session = opening.session
        if session is None:
            error = opening.error
            if isinstance(error, (EvalSetError, OSError)):  # the command line says what is wrong, as when it opens it
                self.load_error = error  # type: ignore[assignment]  # raised again by the command line, which maps both
                self.exit(return_code=2)
            else:
                self.crash = error
                self.crash_report = write_crash_report(error)
                self.exit(return_code=1)
            return
        # What lives as long as the review is already out of the collector's sight: the thread opened it in
        # gc_paused(keep=True), as the command line does before it runs the app on an open session.
        self._take_session(session)
        # Pushed over the opening screen (a default screen cannot be switched away), which stays below, unseen.
        await self.push_screen(self.review_screen)
        self.call_after_refresh(self._open_for_keys)

    async def _open_for_keys(self) -> None:
        self._start_background()
        opening = self._opening
        assert opening is not None
        shown_as_opened = self._shown_as_opened(opening.preview)
        if shown_as_opened and opening.shown_at is not None:
            # The reviewer has been reading this question since the preview went up: its time on screen counts from then.
            self.session.queue.shown_for(time.monotonic() - opening.shown_at)
        if self._held and not shown_as_opened:
            # The keys were typed for the question as it was shown while the review opened. The review opened
            # on another question (the set file changed since, say), or on this one as the review has it and the
            # file does not (decided, edited, with a note): they are not applied to what the reviewer never saw.
            self._held.clear()
            self.notify(
                "the review opened on another question, or on this one as decided or edited, than the one shown "
                "while it opened: the keys typed meanwhile were not used",
                severity="warning",
                markup=False,
                timeout=8,
            )
        # Keys typed while these are handed on join the end of the queue; none overtakes them.
        while self._held:
            self._last_key_at = time.monotonic()
            await self._keys.take(self._held.pop(0))  # in the order they came, each after the one before (KeyOrder)
        self._holding = False

    def _shown_as_opened(self, preview: EvalItem) -> bool:
        """Whether the review opened on the very question the opening screen showed, as it showed it:
        the same item, no decision or note on it, and no edit (the preview is the file's line)."""
        queue = self.session.queue
        current = queue.current
        return (
            current is not None
            and current == preview
            and queue.current_decision is None
            and not queue.note_for(queue.position)
        )

    def _say_how_it_opened(self) -> None:
        for notice in self._notices:  # they name paths and quote errors: data like any other
            self.notify(safe_plain(notice, limit=500), severity="warning", markup=False, timeout=10)
        problems = self.config.problems
        for problem in problems[:SETTINGS_SHOWN]:
            # a problem quotes the settings file (a key name, a value): data like any other
            self.notify(safe_plain(problem, limit=500), title="settings", severity="warning", markup=False, timeout=8)
        if len(problems) > SETTINGS_SHOWN:  # a toast each ran off the top of the screen, the first ones unread
            from reviewtui.evalset.io.settings import PROBLEMS_PRINTED

            more = len(problems) - SETTINGS_SHOWN
            # Only the first ones are printed past PROBLEMS_PRINTED: "all of them are printed" promised 40,000 lines
            # and the command printed 20 and a count.
            printed = "all of them are" if len(problems) <= PROBLEMS_PRINTED else f"the first {PROBLEMS_PRINTED} are"
            self.notify(
                f"and {more:,} more {'problem' if more == 1 else 'problems'} in the settings file: {printed} "
                "printed when reviewtui closes",
                title="settings",
                severity="warning",
                markup=False,
                timeout=8,
            )
        report = self.session.resume_report
        if self.size.width >= NARROW_WIDTH and self.size.height >= SHORT_HEIGHT:
            # The status line leads with the same headline until the first step. In a smaller terminal the notice
            # covered the warnings pane, or half of every pane at 40 columns, while the reviewer began to read.
            self.notify(safe_plain(report.headline, limit=300), title="reviewtui", markup=False, timeout=4)
        for line in report.lines()[1:]:
            self.notify(safe_plain(line, limit=500), severity="warning", markup=False, timeout=10)
        # A native JSONL set (one still being read is one) leaves nothing out: what its header counts was said
        # when the set it came from was read.
        path = self.session.input_path
        native = path is None or is_native_jsonl(path, self.session.source_format)
        if self.session.loading is None and not native:
            from reviewtui.evalset.io import describe_skipped

            skipped = describe_skipped(self.session.evalset)  # what reading the set left out, as every command says
            if skipped:
                self.notify(safe_plain(skipped, limit=500), title="reading the set", severity="warning", markup=False, timeout=10)

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
        self._scanning = True
        for stage in stages:
            if source is not None:
                self._run_child(stage, source)
            elif self.session.loading is not None:
                self._checks_waiting.append(stage)
            else:
                self._run_in_thread(stage)

    # ---- the rest of a large set --------------------------------------------------------

    @work(thread=True, exit_on_error=False, group="load", description="reading the rest of the set")
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
                    batch = read_batch(loader, lambda: self._last_key_at, lambda: worker.is_cancelled)
                    if batch is None:
                        return
                    self.post_message(SetBatch(batch, loader.fraction))
                if not (worker.is_cancelled or loader.closed):
                    evalset = loader.finish()
                    self.post_message(SetLoaded(evalset, loader.note))
        except EvalSetError as exc:
            self.post_message(SetLoadFailed(exc))
        except Exception as exc:
            # A worker that does not exit on error ends quietly: the review said "reading" for ever, and an
            # export waited for the rest of the set. A bug here ends the app as one anywhere else does.
            self.post_message(LoaderCrashed(exc))

    @on(LoaderCrashed)
    def _loader_crashed(self, message: LoaderCrashed) -> None:
        self.crash = message.error
        self.crash_report = write_crash_report(message.error)
        self.bell()
        self.exit(return_code=1)

    @on(SetBatch)
    @_news
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
            self.review_screen.show_counts()

    @on(SetLoaded)
    @_news
    def _set_loaded(self, message: SetLoaded) -> None:
        if self.session.loading is None or self.session.closed:
            return
        self.session.finish_loading(message.evalset)
        if message.note:  # a small set's reading said it as the app opened; a large one's is said now
            self.notify(safe_plain(message.note, limit=500), title="reading the set", severity="warning", markup=False, timeout=10)
        report = self.session.resume_report
        if self.view.banner:  # nothing done yet: the headline can now give the whole count
            self.view.banner = report.headline
        for stage in self._checks_waiting:
            self._run_in_thread(stage)
        self._checks_waiting.clear()
        self._flags_changed()
        self.refresh_review()
        self.review_screen.maybe_show_summary()

    @on(SetLoadFailed)
    @_news
    def _set_load_failed(self, message: SetLoadFailed) -> None:
        self._stop_on_load_error(message.error)

    def _stop_on_load_error(self, error: EvalSetError) -> None:
        """The rest of the set cannot be read: the app closes and the command line says why.

        Not over text the reviewer is typing (a note, an edit), which closing threw away without a word: the app
        says why it will close, and closes once that text is saved or left.
        """
        self.load_error = error
        if _typing_held(self.screen_stack) is None:
            self.exit(return_code=2)
            return
        closing = "The rest of the set cannot be read: the review closes once what you are typing is saved or left."
        self.notify(
            safe_plain(f"{error}. {closing}", limit=600),
            title="cannot read the rest of the set",
            severity="error",
            timeout=60,
            markup=False,
        )
        self.set_interval(0.25, self._close_once_typed)

    def _close_once_typed(self) -> None:
        if _typing_held(self.screen_stack) is None:
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
        session = self.session
        if self.corpus is None:
            return JobSource(str(path), session.source_format, split=session.source_split)
        extensions = tuple(sorted(self.corpus.extensions))
        return JobSource(str(path), session.source_format, str(self.corpus.root), extensions, split=session.source_split)

    @work(thread=True, exit_on_error=False, group="checks", description="checks in a child process")
    def _run_child(self, stage: str, source: JobSource) -> None:
        worker = get_current_worker()
        ChildJob(stage, source).run(StageReceiver(self.post_message, self.corpus is not None), cancelled=lambda: worker.is_cancelled)

    @work(thread=True, exit_on_error=False, group="checks", description="checks in a thread")
    def _run_in_thread(self, stage: str) -> None:
        worker = get_current_worker()
        run_stage(
            stage,
            self.session.evalset,
            self.corpus,
            StageReceiver(self.post_message, self.corpus is not None),
            cancelled=lambda: worker.is_cancelled,
            scan=self._scan,
        )

    # Every worker here is given its description: Textual otherwise makes one from the repr of each
    # argument, on the UI thread, and the repr of a 100k-item flag map held up the screen for 250 ms.
    @work(thread=True, exclusive=True, group="order", exit_on_error=False, description="flagged-first order")
    def _compute_order(
        self, *flag_maps: dict[str, list[Flag]], asked: object | None = None, facts_of: dict[str, list[Flag]] | None = None
    ) -> None:
        try:
            ranked = flagged_ranking(self.session.queue.items, *flag_maps)
            order = [index for _, index in ranked]
            # Checked and laid out for the queue here, once per scan, so that f costs no walk over the set.
            prepared = self.session.queue.prepare_order(order) if order else None
            # A pass over every item and flag, as the order's: here, not on the first edit after each scan (see item_flags).
            facts = self._set_facts(facts_of) if facts_of is not None else None
        except Exception:
            # No order will come for this request: f must not wait for it for ever (see order_pending). Set here,
            # not through call_from_thread, which waits on an app that may be closing, and would hold this thread.
            if asked is self._order_asked:
                self._order_received = asked
            raise
        self.post_message(OrderReady(order, serious_of(ranked), ranked, asked, facts, facts_of, prepared))

    def order_pending(self) -> bool:
        """Whether the flagged-first order of the checks now in is still being worked out: the order on hand is
        then that of the checks before (the corpus lookup's alone, with the scan just in)."""
        return self._order_asked is not self._order_received

    def _flags_changed(self) -> None:
        """Every finished check changes which items come first in "flagged first" (worked out off the UI thread).

        Not while the set is still being read: the order must rank every item (done when it has loaded)."""
        if self.session.loading is not None:
            return
        self._order_asked = asked = object()
        # The lookup's news changes no fact of the scan's: the facts are worked out again only when none are on hand.
        facts_of = self.view.flags if self.view.set_facts is None else None
        self._compute_order(self.view.flags or {}, self.view.evidence_flags or {}, asked=asked, facts_of=facts_of)

    # ---- scanning again after edits ----------------------------------------------------

    def schedule_rescan(self) -> None:
        """An item was edited: scan the set as reviewed once the reviewer pauses.

        Until then the checks that compare items show what they found before the edit,
        and say so (see item_flags); the rescan brings them up to date.
        """
        if self._job_source() is None:  # no file for a child to read (a set built in memory)
            return
        if self._rescan_timer is not None:
            self._rescan_timer.stop()
        self._rescan_timer = self.set_timer(RESCAN_AFTER_SECONDS, self._rescan)

    def _rescan(self) -> None:
        self._rescan_timer = None
        source = self._job_source()
        if source is None or self.session.closed:
            return
        if self._scanning or self.session.loading is not None:
            self.schedule_rescan()  # after the scan on its way, or once the whole set is in
            return
        queue = self.session.queue
        self._rescan_versions = {
            d.item_id: d.after for d in queue.decisions.values() if d.after is not None and d.after is not d.before
        }
        self._scanning = True
        self._run_child("quality", replace(source, journal=str(self.session.journal_path)))

    @on(ScanProgress)
    @_news
    def _scan_progress(self, message: ScanProgress) -> None:
        if self._rescan_versions is None:  # a rescan works quietly: the warnings are already on screen
            self.review_screen.show_scan_progress(message.done, message.total)

    @on(ScanFinished)
    @_news
    def _scan_finished(self, message: ScanFinished) -> None:
        self._scanning = False
        if self._rescan_versions is not None:
            self.view.unedited_flags = self._unedited_flags(self._rescan_versions)
            self.view.partner_flags = self._partner_flags(self._rescan_versions, message.flags)
        self.view.flags = message.flags  # with a corpus open, without the scan's 'not located' (see StageReceiver)
        self.view.cautions = message.cautions
        self.view.set_facts = None  # worked out again from these flags when an edited item is first rechecked
        if not self._flags_frozen and len(message.flags) >= FREEZE_FLAGS_FROM:
            # On a large set the flags are hundreds of thousands of objects that every full collection
            # walked (a 35 ms stall every 15 keys or so at 100k items). One collection now, then they
            # are out of its sight, as the items are (see _load_rest). Only the first scan's: whatever
            # else is alive at a freeze stays for good if it later becomes cyclic garbage (an open dialog,
            # a worker still holding the flags it replaced), and a rescan after edits would freeze it again.
            self._flags_frozen = True
            freeze_for_good(collect=True)
        if self._rescan_versions is not None:
            self.view.scanned_as = self._rescan_versions
            self.view.rechecked.clear()
            self._rescan_versions = None
        elif self._holds_edits():
            # The first scan read the set as the file has it; a resumed review's edits were made in an
            # earlier session, so no edit here would ever ask for the scan of the set as reviewed.
            self.schedule_rescan()
        self.review_screen.show_scan_progress(1, 1)
        self._flags_changed()
        self.refresh_review()

    def _unedited_flags(self, edited: dict[str, EvalItem]) -> dict[str, list[Flag]]:
        """For each item a rescan is about to report as ``edited``, the warnings of the item as the set has it:
        from the scan before when that one read it so, else those kept from an earlier scan."""
        before, kept = self.view.flags or {}, self.view.unedited_flags
        found: dict[str, list[Flag]] = {}
        for item_id in edited:
            if item_id not in self.view.scanned_as:  # the scan before read the set's own version
                found[item_id] = before.get(item_id, [])
            elif item_id in kept:
                found[item_id] = kept[item_id]
        return found

    def _partner_flags(self, edited: dict[str, EvalItem], new: dict[str, list[Flag]]) -> dict[str, tuple[str, list[Flag]]]:
        """For each item paired with one a rescan reports as ``edited`` (named by a pair warning on either side,
        before or after), its warnings from the scan before, when that scan read the edited item as the set has
        it (else those kept from an earlier scan). Found from the edited items' own flags: never a pass over
        the whole set's."""
        before, kept = self.view.flags or {}, self.view.partner_flags
        found: dict[str, tuple[str, list[Flag]]] = {}
        for item_id in edited:
            partners = {other for flag in (*before.get(item_id, ()), *new.get(item_id, ())) for other in flag.related_ids}
            for other in partners - edited.keys():
                if item_id not in self.view.scanned_as:  # the scan before read the edited item's own version
                    found[other] = (item_id, before.get(other, []))
                elif other in kept and kept[other][0] == item_id:
                    found[other] = kept[other]
        return found

    def _set_facts(self, flags: dict[str, list[Flag]]) -> SetFacts:
        """What a scan's flags say of the whole set: whether short is its style (keyword queries), and how
        many items have an answer (the items as the scan read them: as reviewed, after a rescan)."""
        from reviewtui.evalset.checks.recheck import SetFacts
        from reviewtui.evalset.checks.scan import KEYWORD_SET_NOTE

        keyword = any(f.reason.endswith(KEYWORD_SET_NOTE) for found in flags.values() for f in found if f.check == "too-short")
        queue = self.session.queue
        answered = sum(1 for item in queue.items if item.answer is not None)
        # A rescan read the set as reviewed then, answers added or taken away; edits made since, and a resumed
        # review's edits before its first rescan, the scan never saw: its count is of the set's own items there.
        for item_id, seen in self.view.scanned_as.items():
            index = queue.index_of(item_id)
            if index is not None:
                answered += (seen.answer is not None) - (queue.item_at(index).answer is not None)
        return SetFacts(keyword_queries=keyword, answered=answered)

    def _holds_edits(self) -> bool:
        """Whether any item is shown as edited (by the journal this review resumed, or in this session)."""
        return any(d.after is not None and d.after is not d.before for d in self.session.queue.decisions.values())

    @on(EvidenceProgress)
    @_news
    def _evidence_progress(self, message: EvidenceProgress) -> None:
        self.review_screen.show_status(f"looking up quotes in the corpus… {message.done:,}/{message.total:,}")

    @on(EvidenceFinished)
    @_news
    def _evidence_finished(self, message: EvidenceFinished) -> None:
        self.view.evidence = message.resolutions
        self.view.evidence_flags = message.flags
        if message.resolutions:  # a set without quotes (BEIR's relevant documents): nothing was looked up to tell of
            summary = message.summary
            if self._holds_edits():
                # The lookup read the set file; a resumed review's edited quotes were counted as the file has them
                # ("0 approximate") beside an edited item the warnings pane shows approximate.
                summary += " (the quotes as the set file has them: an edited quote is looked up when it is shown)"
            self.notify(safe_plain(summary, limit=600), title="evidence", markup=False, timeout=6)
        self._flags_changed()
        self.refresh_review()

    @on(OrderReady)
    @_news
    def _order_ready(self, message: OrderReady) -> None:
        if message.asked is not None and message.asked is not self._order_asked:
            return  # of flags since overtaken: the order asked for since is on its way
        self._order_received = self._order_asked
        view = self.view
        if message.facts is not None and message.facts_of is view.flags and view.set_facts is None:
            view.set_facts = message.facts  # of these very flags (and of the scan that read scanned_as, which came with them)
        view.flagged_order = message.order
        view.flagged_prepared = None if message.prepared is None else (message.order, message.prepared)
        view.flagged_ranked = message.ranked
        view.serious = message.serious
        # Counted from the checks' warnings: the items the review has changed are counted as shown again, those
        # of this session's steps and those of the journal (a pair settled by a reject before a resume, an item
        # edited then): once per scan, over the rejected and edited items, not per key.
        touched = list(view.shown_worst)
        view.shown_worst.clear()
        for item_id in touched:
            self._note_worst(item_id)
        if self.session.loading is None:
            decided = self.session.queue.decisions
            self._recount(item_id for item_id, decision in decided.items() if decision.verdict in _CHANGING)
        self.refresh_review()

    def note_shown(self, items: Iterable[EvalItem | None]) -> None:
        """After a step: keep "N flagged medium or worse" and the flagged-first order as the panes show the warnings.

        A decision on ``items`` (the item before the step and the one after: an undo goes back to the item it undid)
        can change what they show (an edit fixed the warning) and what the items their pair warnings name show (a
        pair settled by rejecting one of the two). Those few are looked at, never the whole set: both figures came
        from the checks' own warnings, and said 7 while the panes showed 5.
        """
        if self.view.flagged_order is None or self.session.loading is not None:
            return
        self._recount(item.id for item in items if item is not None)

    def _recount(self, changed: Iterable[str]) -> None:
        """Count the items ``changed`` and those their pair warnings name as the panes show them (see note_shown)."""
        view = self.view
        ids: dict[str, None] = {}
        for item_id in changed:
            ids[item_id] = None
            for flag in view.flags_for(item_id) or ():
                ids.update(dict.fromkeys(flag.related_ids))
        for item_id in ids:
            self._note_worst(item_id)

    def _note_worst(self, item_id: str) -> None:
        queue = self.session.queue
        index = queue.index_of(item_id)
        if index is None:
            return
        view = self.view
        now = _worst(self.item_flags(queue.shown(index)))
        was = view.shown_worst[item_id] if item_id in view.shown_worst else _worst(view.flags_for(item_id))
        serious_now, serious_then = now is not None and now >= Severity.MEDIUM, was is not None and was >= Severity.MEDIUM
        if serious_now != serious_then:
            view.serious += 1 if serious_now else -1
        view.shown_worst[item_id] = now

    def flagged_order_as_shown(self) -> Sequence[int] | ReviewOrder | None:
        """The flagged-first order with the items whose warnings a step changed (see :meth:`note_shown`) in their
        place as the panes now show them: a quote fixed by an edit no longer ranks the item second.

        The order as the scan ranked it is handed out as worked out once for the queue (``flagged_prepared``)."""
        view = self.view
        ranked = view.flagged_ranked
        prepared = view.flagged_prepared
        as_ranked = prepared[1] if prepared is not None and prepared[0] is view.flagged_order else view.flagged_order
        if ranked is None or not view.shown_worst:
            return as_ranked
        queue = self.session.queue
        moved: dict[int, Severity | None] = {}
        for item_id, now in view.shown_worst.items():
            index = queue.index_of(item_id)
            if index is not None and now != _worst(view.flags_for(item_id)):
                moved[index] = now
        if not moved:
            return as_ranked
        put = sorted((-int(now), index) for index, now in moved.items() if now is not None and now > Severity.HINT)
        if isinstance(as_ranked, ReviewOrder):
            # The order as ranked with the moved items taken out and put in where they rank now, each place found by
            # bisection (ranked is sorted, and is as_ranked's order): the session journals only that difference.
            chosen = len(as_ranked)
            out = [index for index in moved if as_ranked.rank[index] < chosen]
            taken = sorted(ranked[as_ranked.rank[index]] for index in out)
            places = [(bisect_left(ranked, entry) - bisect_left(taken, entry) + k, entry[1]) for k, entry in enumerate(put)]
            return queue.derive_order(as_ranked, out, places)
        kept = [entry for entry in ranked if entry[1] not in moved]
        kept += [(-int(now), index) for index, now in moved.items() if now is not None and now > Severity.HINT]
        kept.sort()  # nearly sorted already: a merge of two runs
        return [index for _, index in kept]

    @on(ScanFailed)
    @_news
    def _scan_failed(self, message: ScanFailed) -> None:
        if message.stage == "evidence":
            # The warnings the quality scan gave stand. Quotes are then looked up as each question is
            # shown (view.evidence stays None), and their warnings come from that lookup (item_flags).
            self.view.evidence_error = message.error
            self.notify(
                safe_plain(message.error, limit=300) + "\nQuotes are looked up as each question is shown.",
                title="the corpus lookup failed",
                severity="warning",
                markup=False,
            )
            self.refresh_review()
            return
        self._scanning = False
        if self._rescan_versions is not None:  # the earlier warnings stand; say why they were not brought up to date
            self._rescan_versions = None
            self.notify(safe_plain(message.error, limit=300), title="rescan after an edit failed", severity="warning", markup=False)
            return
        self.view.scan_error = message.error
        self.view.flags = {}
        self.view.cautions = []
        self.review_screen.show_scan_progress(1, 1)
        self.notify(safe_plain(message.error, limit=300), title="quality scan failed", severity="error", markup=False)
        self.refresh_review()

    def refresh_review(self) -> None:
        """Redraw the review screen from the session's state (after a worker's news)."""
        self.review_screen.refresh_review()

    def closing(self) -> bool:
        """Whether the app is on its way out (quit, or a test's end): its screens' panes may be gone already."""
        if self._exit or self._closing:
            return True
        screen = getattr(self, "review_screen", None)  # none yet while a long review opens behind its preview
        return screen is not None and (screen._closing or not screen.is_attached)

    # ---- evidence in context ------------------------------------------------------------

    def item_flags(self, item: EvalItem) -> list[Flag] | None:
        """The warnings of an item as shown: the scan's, or, for an edited item, rechecked as edited; a warning
        about a pair of items whose other item this review rejected is a hint that says so (see checks.settled).

        None while no check has finished. A recheck costs a fraction of a millisecond and is
        kept until the item changes again (an undo brings back the scanned item and its flags).
        """
        found = self._checked_flags(item)
        if not found or self.session.partial:
            # A team's reviewer or adjudicator rejects for a consensus still to come, not for the next version.
            return found
        settled = settled_by_review(found, self.session.queue.is_rejected)  # an item not in this review: not rejected
        return found if settled is found else list(settled)

    def _checked_flags(self, item: EvalItem) -> list[Flag] | None:
        """The warnings the checks give the item as it now stands (see :meth:`item_flags`)."""
        found = self.view.flags_for(item.id)
        queue = self.session.queue
        index = queue.index_of(item.id)
        if found is None or index is None:
            return found
        original = queue.item_at(index)
        rescanned = self.view.scanned_as.get(item.id)
        # After an undo the item is as the set has it again, while the last scan may have seen the edit:
        # its flags are then the edit's (an accept in that moment went on record as "not flagged"). The
        # warnings a scan gave this very version are kept, pair warnings included, until the rescan.
        seen_edited = rescanned is not None and not (item is rescanned or item == rescanned)
        if seen_edited and (item is original or item == original) and item.id in self.view.unedited_flags:
            found = sort_flags([*self.view.unedited_flags[item.id], *(self.view.evidence_flags or {}).get(item.id, ())])
            seen_edited = False
        elif rescanned is None and item.id in self.view.partner_flags:
            # Not edited, but paired with an item the last scan saw edited and an undo has put back as the set
            # has it: its pair warnings are then those of the scan that read that item so.
            partner, kept = self.view.partner_flags[item.id]
            at = queue.index_of(partner)
            if at is not None and partner in self.view.scanned_as and queue.shown(at) == queue.item_at(at):
                found = sort_flags([*kept, *(self.view.evidence_flags or {}).get(item.id, ())])
        if (item is original or item == original) and not seen_edited:
            if self.view.evidence_error is None or self.corpus is None or not item.anchors:
                return found
            return self._with_own_lookup(item, found)
        if rescanned is not None and (item is rescanned or item == rescanned):
            # The rescan covered the quality checks of this edited item; the corpus lookup was of
            # the original quotes, so evidence warnings come from the edited quotes' own lookup.
            if self.corpus is None or item.anchors == original.anchors:
                return found
            return self._with_evidence_looked_up(item, (self.view.flags or {}).get(item.id, []))
        cached = self.view.rechecked.get(item.id)
        if cached is not None and cached[0] is item:
            return cached[1]
        from reviewtui.evalset.checks.recheck import recheck_item

        scanned = rescanned if rescanned is not None else original  # the version the scan's flags are of
        if self.view.set_facts is None and self.view.flags is not None:
            self.view.set_facts = self._set_facts(self.view.flags)
        flags = recheck_item(
            item,
            found,
            self.resolutions_for(item) if self.corpus is not None else None,
            self.view.set_facts,
            was_answered=scanned.answer is not None,
        )
        self.view.rechecked[item.id] = (item, flags)
        return flags

    def _with_own_lookup(self, item: EvalItem, found: list[Flag]) -> list[Flag]:
        """``found`` with the warnings of the item's own corpus lookup, for when the lookup of the whole set
        failed; kept until the item changes, as a recheck is."""
        cached = self.view.rechecked.get(item.id)
        if cached is not None and cached[0] is item:
            return cached[1]
        flags = self._with_evidence_looked_up(item, found)
        self.view.rechecked[item.id] = (item, flags)
        return flags

    def _with_evidence_looked_up(self, item: EvalItem, quality: list[Flag]) -> list[Flag]:
        """``quality`` flags with the evidence warnings of ``item``'s quotes looked up as they stand now."""
        from reviewtui.evalset.evidence.resolution import evidence_flags

        return sort_flags([*quality, *evidence_flags(self.resolutions_for(item) or ()).get(item.id, [])])

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

    def document_missing(self, doc_id: str) -> str:
        """Why :meth:`document_text` has no text for a document, in a few words for the evidence pane."""
        from reviewtui.evalset.evidence.corpus import UnreadableDocument

        if self.corpus is None:
            return "no corpus"
        try:
            self.corpus.document(doc_id)
        except UnreadableDocument as exc:
            return f"in the corpus, but it could not be read: {exc.message}"
        except EvalSetError:
            if self.corpus.candidates(doc_id):
                return "more than one document in the corpus has that name"
            pieces = len(self.corpus.pieces_of(doc_id))
            if pieces:
                return f"not in the corpus by that id, only split into {count(pieces, 'piece')} (ids with a number after it)"
            return "not in the corpus"
        return "in the corpus"  # read since: the next refresh shows it

    # ---- export and the keymap: what every screen may ask for ---------------------------------

    def export(self) -> Path | None:
        try:
            path = self.session.export()
        except (EvalSetError, OSError) as exc:
            self._export_failed(exc)
            return None
        self._say_exported(*self._exported(path, self.session.queue))
        return path

    def export_in_background(self) -> None:
        """Export a large set on a thread, as the review stands now (a snapshot of the queue, see
        ReviewSession.export_later): the review goes on meanwhile, and its later steps are not in this export.
        Quitting waits for it (see action_quit), so no export is left half made."""
        if self.export_running:
            self.notify("an export is being written already; it says when it is done", title="export", markup=False)
            return
        try:
            write = self.session.export_later()
        except (EvalSetError, OSError) as exc:
            self._export_failed(exc)
            return
        self.export_running = True
        size = len(self.session.queue)
        self.notify(
            f"exporting {size:,} items, as they stand now, while the review goes on: it says when it is done",
            title="export",
            markup=False,
        )
        self._export_on_thread(write)

    @work(thread=True, group="export", description="export")
    def _export_on_thread(self, write: Callable[[], tuple[Path, Any]]) -> None:
        done: ExportDone = ExportDone(None)
        try:
            path, queue = write()
            done = ExportDone(self._exported(path, queue))
        except (EvalSetError, OSError) as exc:
            done = ExportDone(None, exc)
        finally:  # a bug raises on, and ends the app as it would have on the screen's thread; the quit waits no more
            self.post_message(done)

    @on(ExportDone)
    @_news
    def _export_done(self, message: ExportDone) -> None:
        self.export_running = False
        if message.said is not None:
            self._say_exported(*message.said)
        elif message.error is not None:
            self._export_failed(message.error)
        if self._quit_after_export:
            self.exit()

    def _export_failed(self, exc: Exception) -> None:
        if self.session.partial and isinstance(exc, ReviewError):  # the way to the team's result, not a failure
            self.notify(safe_plain(str(exc), limit=500), title="export", markup=False, timeout=8)
        else:
            self.notify(safe_plain(str(exc), limit=500), title="export failed", severity="error", markup=False)

    def _say_exported(self, said: str, warning: bool) -> None:
        if warning:
            self.notify(safe_plain(said, limit=500), title="export", severity="warning", markup=False, timeout=8)
        else:
            self.notify(safe_plain(said, limit=500), title="export", markup=False)

    def _exported(self, path: Path, queue: Any) -> tuple[str, bool]:
        """What to say of an export written to ``path`` from ``queue``, and whether as a warning. Reads nothing the
        review changes (``queue`` is the one the export read), so an export's thread says it too."""
        if queue.decided:
            from reviewtui.evalset.review.export import accepted_past_warnings, decided_before_checks

            said = f"exported to {path}"
            # What the export command says beside its path, in a count: the header names the items
            past = len(accepted_past_warnings(queue))
            if past:
                said += f"; {count(past, 'item')} accepted or edited while a high-severity warning was open (its header lists them)"
            unchecked = len(decided_before_checks(queue))
            if unchecked:
                said += f"; {count(unchecked, 'item')} decided before the quality checks had finished (listed too)"
            same = self._earlier_export(path)
            if same is not None:  # a second e on the summary wrote the same again: said as the export command says it
                said += f"; {same.name} holds these same items: the same decisions were exported before"
            return said, False
        # as the export command says it: a version with no review in it is rarely what was meant
        return f"exported to {path}, but nothing has been decided yet: it is the set as it stands", True

    def _earlier_export(self, path: Path) -> Path | None:
        source = self.session.input_path
        if source is None or path.suffix != ".jsonl":
            return None
        from reviewtui.evalset.review.export import earlier_export_of

        return earlier_export_of(self.session.evalset, source, path, self.session.source_split)

    def key_rows(self) -> list[KeyRow]:
        """Every review key as it is mapped now (the settings file may have changed it)."""
        from reviewtui.tui.screens.help import KeyRow

        rows = []
        # The nine adopt keys are one line while they are the digits; remapped, each is listed with its own key.
        adopt_moved = any(binding_id.startswith("review.adopt_") for binding_id in self.keymap)
        for binding in [*REVIEW_BINDINGS, *self.BINDINGS]:
            if (binding.id or "").startswith("review.adopt_") and not adopt_moved:
                if binding.id == "review.adopt_1":
                    what = "Adopt reviewer N's decision" + ("" if self.votes else " (when adjudicating)")
                    rows.append(KeyRow("1–9", what, "review.adopt_1 … _9"))
                continue
            rows.append(KeyRow(self._keys_shown(binding), binding.description, binding.id or ""))
        rows.append(KeyRow(self.get_key_display(Binding("ctrl+p", "")), "Command palette", "(Textual)"))
        return rows

    def _keys_shown(self, binding: Binding) -> str:
        """Every key ``binding`` is on now, as the key bar names them, made inert (names from the settings are data)."""
        return safe_plain(", ".join(self.get_key_display(Binding(key, "")) for key in self.keys_of(binding.id or "")))

    # ---- command palette ------------------------------------------------------------------

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        if screen is not self.review_screen or self.review_screen.reason_picker.is_open:
            return  # a review step from the palette would be taken behind an unanswered reject
        for binding in REVIEW_BINDINGS:
            action = binding.action
            # the palette parses its help text as markup, and a remapped key's name comes from the settings file
            key = safe_markup(self._keys_shown(binding), limit=40)
            yield SystemCommand(
                binding.description,
                f"review: {binding.description.lower()} (key {key})",
                lambda action=action: self.review_screen.run_action(action),
            )


#: Settings problems shown one toast each as the app opens; the rest are counted (the command prints them all).
SETTINGS_SHOWN = 2


#: Decisions that can change what the panes show of an item or of the items its pair warnings name.
_CHANGING = (Verdict.REJECTED, Verdict.EDITED)

#: binding id -> its key as declared, before any remap (see ReviewApp.key_name)
_DEFAULT_KEYS = {binding.id: binding.key for binding in [*REVIEW_BINDINGS, *ReviewApp.BINDINGS] if binding.id}


def flagged_first_order(items, *flag_maps: dict[str, list[Flag]]) -> tuple[list[int], int]:
    """Queue indices of items with a flag above a hint, most severe first (ties keep set order),
    and how many of them have a flag of MEDIUM or worse."""
    ranked = flagged_ranking(items, *flag_maps)
    return [index for _, index in ranked], serious_of(ranked)


def serious_of(ranked: list[tuple[int, int]]) -> int:
    """How many items of a :func:`flagged_ranking` have a flag of MEDIUM or worse."""
    return sum(1 for worst, _ in ranked if -worst >= Severity.MEDIUM)


def _worst(flags: list[Flag] | None) -> Severity | None:
    return max((flag.severity for flag in flags), default=None) if flags else None


def flagged_ranking(items, *flag_maps: dict[str, list[Flag]]) -> list[tuple[int, int]]:
    """(minus the worst severity, queue index) of each item with a flag above a hint, sorted: most severe first,
    ties in set order."""
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
    return ranked

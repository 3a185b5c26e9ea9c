"""Resuming a long review: its last question on screen at once, the review opened behind it.

Opening a review of 100k items with 100k decisions reads and checks every item the journal
names and replays every record: seconds. The journal's last line says which question the
reviewer was on when the review last closed, and that item's line is found in the set file
by its id (:func:`~reviewtui.evalset.review.loading.resume_preview`). The app shows it in
the review screen's layout (:class:`OpeningScreen`) while :class:`Opening` opens the session
on a thread; the review screen then takes over. Keys pressed meanwhile wait and are handled
in order once it has (see ``ReviewApp.on_event``); only quitting goes through at once.

The preview is a guess made before the replay: the review screen shows the item the replay
puts the cursor on, which is the same one unless the set file changed since (the item is now
marked reviewed and left out, say). Keys typed while it opened were meant for the question
shown; when the review opens on another one, they are dropped, and the app says so.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from textual.app import ComposeResult
from textual.content import Content
from textual.message import Message
from textual.widgets import Static

from reviewtui.evalset.jobs.collector import gc_paused
from reviewtui.evalset.model.items import EvalItem
from reviewtui.evalset.review.session import ReviewSession
from reviewtui.tui.render import evidence_view, question_view
from reviewtui.tui.safe import safe_plain
from reviewtui.tui.screens.review import ReviewLayout
from reviewtui.tui.widgets.textpane import TextPane
from reviewtui.tui.widgets.topbar import TopBar

__all__ = ["Opened", "Opening", "OpeningProgress", "OpeningScreen"]

#: What the session's opening is told as it goes: (bytes read, bytes in the file) or (records replayed, records).
Progress = Callable[[int, int], None]

#: Progress reaches the screen at most this often: each report is a message and a repaint.
PROGRESS_EVERY_SECONDS = 0.1


@dataclass
class OpeningProgress(Message, bubble=False):
    """The session being opened got further: ``step`` is "reading" or "replaying"."""

    step: str
    done: int
    total: int

    def can_replace(self, message: Message) -> bool:
        return type(message) is type(self)


@dataclass
class Opened(Message, bubble=False):
    """The thread opening the session has finished, with the session or the error that stopped it."""


class Opening:
    """A review session opened on a thread, and the question it is expected to open on.

    ``open_session(read_progress, replay_progress)`` opens it (``ReviewSession.open`` with the
    command's arguments). The command line owns the session either way: after the app it
    waits for the thread (:meth:`wait`) and closes what it opened, also when the app was
    quit before the session was ready.
    """

    def __init__(self, open_session: Callable[[Progress, Progress], ReviewSession], preview: EvalItem, name: str) -> None:
        self.preview = preview
        self.name = name  # what the top bar calls the set until the session says (its file's name)
        self.session: ReviewSession | None = None
        self.error: BaseException | None = None
        #: when (``time.monotonic``) the preview went up: the reviewer has been reading it since
        self.shown_at: float | None = None
        self._open_session = open_session
        self._done = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def done(self) -> bool:
        """Whether the thread has finished (or was never started)."""
        return self._thread is None or self._done.is_set()

    def start(self, tell: Callable[[Message], None]) -> None:
        """Open the session on a thread; ``tell`` (the app's ``post_message``, which any thread may call)
        gets :class:`OpeningProgress` now and then and :class:`Opened` at the end."""
        told = [0.0]

        def told_safely(message: Message) -> None:
            # The app may have closed meanwhile (the reviewer quit): then nobody is listening, and the
            # opening goes on for the command line to close what it opens.
            with contextlib.suppress(RuntimeError):
                tell(message)

        def reporting(step: str) -> Progress:
            def progress(done: int, total: int) -> None:
                now = time.monotonic()
                if done >= total or now - told[0] >= PROGRESS_EVERY_SECONDS:
                    told[0] = now
                    told_safely(OpeningProgress(step, done, total))

            return progress

        def run() -> None:
            try:
                # As the command line opens a review before its app runs: with the collector paused (it would
                # walk every item read so far, again and again), and what the review keeps frozen out of its sight.
                with gc_paused(keep=True):
                    self.session = self._open_session(reporting("reading"), reporting("replaying"))
            except BaseException as exc:  # reported by the app, and raised again by the command line
                self.error = exc
            finally:
                self._done.set()
                told_safely(Opened())

        self._thread = threading.Thread(target=run, name="opening the review", daemon=True)
        self._thread.start()

    def wait(self) -> ReviewSession | None:
        """The session once the thread is done (None if it failed or never started)."""
        if self._thread is not None:
            self._done.wait()
        return self.session


class OpeningScreen(ReviewLayout):
    """The review screen's layout, showing the question a review ended on while the review opens.

    Nothing here takes a key: the app holds them until the review screen is up.
    """

    def __init__(self, opening: Opening) -> None:
        super().__init__()
        self.opening = opening

    def compose(self) -> ComposeResult:
        yield from self.layout_widgets(scan_progress=False)  # the scan starts once the review is open

    def on_mount(self) -> None:
        self.opening.shown_at = time.monotonic()
        item = self.opening.preview
        self.query_one(TopBar).show_name(self.opening.name)
        self.compact_changed()  # the preview's question, as the terminal's height has it
        self.query_one("#evidence-pane", TextPane).update(evidence_view(item))
        self.query_one("#flags", TextPane).update(Content.styled("checked once the review is open", "dim italic"))
        self.query_one("#history-pane", TextPane).update(Content.styled("shown once the review is open", "dim italic"))
        self.show_progress("reading", 0, 0)

    def compact_changed(self) -> None:
        self.query_one("#question-pane", TextPane).update(question_view(self.opening.preview, compact=self.compact))

    def _quit_key(self) -> str:
        name = getattr(self.app, "key_name", None)  # the ReviewApp's, which imports this module
        return name("app.quit") if name is not None else "ctrl+q"

    def show_progress(self, step: str, done: int, total: int) -> None:
        """The status line: which step of the opening runs, and how far it is."""
        share = f" {done / total:.0%}" if total else ""
        doing = "reading the set" if step == "reading" else "replaying the journal"
        waiting = f"keys wait until it is open ({self._quit_key()} quits now)"
        text = f"resuming {safe_plain(self.opening.name, limit=80)}: {doing}{share}; {waiting}"
        self.query_one("#status-line", Static).update(Content(text), layout=False)


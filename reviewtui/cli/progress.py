"""A progress bar on stderr for long command-line work, shown only to a watching terminal.

Piped or redirected output stays clean: without a terminal on stderr the bar
does nothing. It disappears when the work is done (``transient``). It redraws
when told of progress (at most ten times a second) rather than from rich's own
refresh thread: a running thread would stop the quality scan from forking onto
the second core (see :mod:`reviewtui.evalset.jobs.fork`).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

_REDRAW_SECONDS = 0.1
#: What a command that opens a review waits before drawing a bar: a quick opening (a large JSONL
#: set reads its first items in milliseconds) draws none at all.
SHOW_AFTER = 0.3
#: The step after reading, when a review is resumed: a journal of 100k decisions takes a second or more.
REPLAYING = "replaying the review journal"


class TerminalProgress:
    """Use as a context manager; call it with ``(done, total)``; ``stage(label)`` starts a new step.

    With ``show_after`` (seconds) the bar appears only once the work has taken
    that long: a quick step then costs nothing (rich's progress module and its
    first draw take about 30 ms) and leaves no flash on the terminal.
    """

    def __init__(self, label: str, *, enabled: bool | None = None, show_after: float = 0.0) -> None:
        self.progress: Progress | None = None
        self._enabled = sys.stderr.isatty() if enabled is None else enabled
        self._show_after = show_after
        self._entered_at = 0.0
        self._drawn_at = 0.0
        self._state: tuple[str, int | None, int] = (label, None, 0)  # description, total, done

    def __enter__(self) -> TerminalProgress:
        self._entered_at = time.monotonic()
        if self._show_after <= 0:
            self._show()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.progress is not None:
            self.progress.stop()

    def _show(self) -> None:
        """Create and start the bar (once, and only for a terminal), at the state reported so far."""
        if self.progress is not None or not self._enabled:
            return
        from rich.console import Console
        from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

        self.progress = progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            TextColumn("{task.percentage:>3.0f}%"),
            TimeElapsedColumn(),
            console=Console(stderr=True),
            transient=True,
            auto_refresh=False,
        )
        description, total, done = self._state
        self.task: TaskID = progress.add_task(_label(description), total=total, completed=done)
        progress.start()

    def _due(self) -> Progress | None:
        """The bar, once it is to be seen: shown now if the work has taken long enough."""
        if self.progress is None and self._enabled and time.monotonic() - self._entered_at >= self._show_after:
            self._show()
        return self.progress

    def stage(self, label: str) -> None:
        self._state = (label, None, 0)
        bar = self._due()
        if bar is not None:
            bar.update(self.task, description=_label(label), completed=0, total=None)
            self._redraw(bar, force=True)

    def step(self, label: str) -> Callable[[int, int], None]:
        """A progress callable for a later step of the work: its first call starts the step ``label``.

        For work that reports two steps through two callables (reading a set, then replaying its
        journal), so that the bar says which one it is at.
        """
        started = False

        def report(done: int, total: int) -> None:
            nonlocal started
            if not started:
                started = True
                self.stage(label)
            self(done, total)

        return report

    def __call__(self, done: int, total: int) -> None:
        self._state = (self._state[0], total, done)
        bar = self._due()
        if bar is not None:
            bar.update(self.task, completed=done, total=total)
            self._redraw(bar, force=done >= total)

    def _redraw(self, bar: Progress, *, force: bool = False) -> None:
        now = time.monotonic()
        if force or now - self._drawn_at >= _REDRAW_SECONDS:
            self._drawn_at = now
            bar.refresh()


def _label(text: str) -> str:
    """A label as the bar shows it: literal text on one line, even when it holds a file name.

    rich reads a description as markup (``[b]`` would turn bold) and passes an
    escape character straight through; a path given on the command line can hold
    both, so the label is neutralised for the terminal and its markup escaped.
    """
    from rich.markup import escape

    from reviewtui.evalset.text.safe import for_message

    return escape(for_message(text, sys.stderr, one_line=True))

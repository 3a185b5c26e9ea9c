"""A progress bar on stderr for long command-line work, shown only to a watching terminal.

Piped or redirected output stays clean: without a terminal on stderr the bar
does nothing. It disappears when the work is done (``transient``). It redraws
when told of progress (at most ten times a second) rather than from rich's own
refresh thread: a running thread would stop the quality scan from forking onto
the second core (see :mod:`reviewtui.evalset.forkjob`).
"""

from __future__ import annotations

import sys
import time

_REDRAW_SECONDS = 0.1


class TerminalProgress:
    """Use as a context manager; call it with ``(done, total)``; ``stage(label)`` starts a new step."""

    def __init__(self, label: str, *, enabled: bool | None = None) -> None:
        self.progress = None
        if enabled is None:
            enabled = sys.stderr.isatty()
        if enabled:
            from rich.console import Console
            from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

            self.progress = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                TextColumn("{task.percentage:>3.0f}%"),
                TimeElapsedColumn(),
                console=Console(stderr=True),
                transient=True,
                auto_refresh=False,
            )
            self._drawn_at = 0.0
            self.task = self.progress.add_task(label, total=None)

    def __enter__(self) -> TerminalProgress:
        if self.progress is not None:
            self.progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.progress is not None:
            self.progress.stop()

    def stage(self, label: str) -> None:
        if self.progress is not None:
            self.progress.update(self.task, description=label, completed=0, total=None)
            self._redraw(force=True)

    def __call__(self, done: int, total: int) -> None:
        if self.progress is not None:
            self.progress.update(self.task, completed=done, total=total)
            self._redraw(force=done >= total)

    def _redraw(self, *, force: bool = False) -> None:
        now = time.monotonic()
        if force or now - self._drawn_at >= _REDRAW_SECONDS:
            self._drawn_at = now
            self.progress.refresh()

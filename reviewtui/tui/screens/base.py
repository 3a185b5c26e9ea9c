"""The base of every dialog: a modal screen that is dismissed once.

Over SSH or on a loaded machine two key presses can arrive in one read (Enter
twice, Escape then Enter). Textual hands both to the dialog before the first
dismissal has taken it off the screen, so the second one would dismiss again:
with nothing left above the review screen that is ``ScreenStackError: Can't pop
screen``, and if the first answer opened another screen (the summary after the
last decision) it would close that one instead. The first answer wins; any
later request to dismiss the same dialog does nothing.
"""

from __future__ import annotations

from textual import events, on
from textual.await_complete import AwaitComplete
from textual.geometry import Size
from textual.screen import ModalScreen, ScreenResultType

__all__ = ["Dialog"]

#: Below this many rows a dialog drops its margins and padding (class ``-short``), and below this
#: many columns it takes the whole width (``-slim``): what it holds then still fits 80x24.
SHORT_HEIGHT = 30
SLIM_WIDTH = 70


class Dialog(ModalScreen[ScreenResultType]):
    """A modal screen whose ``dismiss`` takes effect once, and only while it is the screen on top."""

    DEFAULT_CLASSES = "dialog"

    _answered = False

    @property
    def answered(self) -> bool:
        """Whether the dialog has already been dismissed (its answer is on its way)."""
        return self._answered

    @on(events.Mount)
    def _fit_on_mount(self) -> None:
        self._fit(self.app.size)

    @on(events.Resize)
    def _fit_on_resize(self, event: events.Resize) -> None:
        self._fit(event.size)

    def _fit(self, size: Size) -> None:
        self.set_class(size.height < SHORT_HEIGHT, "-short")
        self.set_class(size.width < SLIM_WIDTH, "-slim")

    def dismiss(self, result: ScreenResultType | None = None) -> AwaitComplete:
        if self._answered or not self.is_active:
            return AwaitComplete.nothing()
        self._answered = True
        return super().dismiss(result)

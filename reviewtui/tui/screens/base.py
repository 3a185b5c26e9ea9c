"""The base of every dialog: a modal screen that is dismissed once.

Over SSH or on a loaded machine two key presses can arrive in one read (Enter
twice, Escape then Enter). Textual hands both to the dialog before the first
dismissal has taken it off the screen, so the second one would dismiss again:
with nothing left above the review screen that is ``ScreenStackError: Can't pop
screen``, and if the first answer opened another screen (the summary after the
last decision) it would close that one instead. The first answer wins; any
later request to dismiss the same dialog does nothing.

A dialog that holds text the reviewer typed (a note, an edit) is not closed by one
Esc, nor the app by one quit key, without saving it: the first press says what
would be lost and how to keep it, and only a second press of the same key, with the
text as it was, throws it away (:meth:`GuardsTyping.may_discard`).
"""

from __future__ import annotations

from collections.abc import Hashable

from textual import events, on
from textual.await_complete import AwaitComplete
from textual.geometry import Size
from textual.notifications import Notification, Notify
from textual.screen import ModalScreen, ScreenResultType
from textual.widget import Widget

from reviewtui.tui.safe import safe_plain

__all__ = ["Dialog", "GuardsTyping"]

#: Below this many rows a dialog drops its margins and padding (class ``-short``), and below this
#: many columns it takes the whole width (``-slim``): what it holds then still fits 80x24.
SHORT_HEIGHT = 30
SLIM_WIDTH = 70


class GuardsTyping:
    """Something that holds text the reviewer typed: closing it without saving asks twice (see may_discard).

    Mixed into the dialogs and into the reject reason picker, which is drawn on the review screen.
    """

    #: What was unsaved when the reviewer was last told it would be lost (see may_discard).
    _warned_about: Hashable | None = None
    #: That warning, on screen until the text is saved or thrown away (see withdraw_unsaved_notice).
    _unsaved_notice: Notification | None = None

    def unsaved(self) -> Hashable | None:
        """What closing now would throw away that the reviewer typed, or None.

        Those that take text override this; the value only has to compare equal while
        nothing more is typed.
        """
        return None

    def unsaved_hint(self, again: str) -> str:
        """The warning's advice: the key that keeps what :meth:`unsaved` found, and ``again``."""
        return f"{again} discards what you typed"

    def may_discard(self, again: str) -> bool:
        """Whether it may close without saving; if not, say why and what ``again`` does.

        True when nothing typed would be lost, or when the reviewer was warned, by this same key,
        about exactly the text that is unsaved now. A change to the text after the warning, or
        another key (Esc after the quit key's warning), warns again.
        """
        pending = self.unsaved()
        if pending is None:
            return True
        if (again, pending) == self._warned_about:  # warned about this text, for this key
            self.withdraw_unsaved_notice()  # the text is thrown away: "Not saved yet" has nothing left to say
            return True
        self._warned_about = (again, pending)
        assert isinstance(self, Widget), "GuardsTyping is mixed into widgets and screens"
        self.withdraw_unsaved_notice()  # a warning about the text as it was before the last keys
        # ``again`` may name a key from the settings file: the message is made safe as a whole, here.
        message = safe_plain(f"Not saved yet: {self.unsaved_hint(again)}.", limit=300)
        notice = Notification(message, "", "warning", self.app.NOTIFICATION_TIMEOUT, markup=False)
        self.app.post_message(Notify(notice))
        self._unsaved_notice = notice
        return False

    def withdraw_unsaved_notice(self) -> None:
        """Take the "Not saved yet" warning off the screen: the text it spoke of has been saved or thrown away.

        It stayed for its full timeout, so that a note saved with Enter a moment after the
        warning was still said to be unsaved.
        """
        notice, self._unsaved_notice = self._unsaved_notice, None
        if notice is not None:
            assert isinstance(self, Widget), "GuardsTyping is mixed into widgets and screens"
            # Textual's one way to take back a single toast; a toast already gone is no error.
            self.app._unnotify(notice)


class Dialog(GuardsTyping, ModalScreen[ScreenResultType]):
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
        self.withdraw_unsaved_notice()
        return super().dismiss(result)

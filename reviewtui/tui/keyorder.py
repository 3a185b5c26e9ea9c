"""Keys that arrive together are handled one after another, as if typed slowly.

Textual hands a key to the focused widget the moment it reads it, but runs the
key's (non-priority) binding only when the key has bubbled back up to the app.
Keys that arrive in one read (a fast typist, a slow SSH link, ``tmux send-keys
r 2 Enter``) were therefore all handed to the review pane before the first
one's binding had run: ``r`` opened the reject dialog only after the digit and
Enter had gone to the pane, where the digit meant nothing and Enter rejected
with no reason. Later keys in the same read (``r 3 hello Enter s``) could also
land in a dialog that its Enter was about to close.

:class:`KeyOrder` lets one key (or paste) through at a time. When the next one
arrives, the one before it counts as handled if the widget it went to and every
widget above it have nothing left in their queues and the same screen is on top:
the usual case when typing, checked in a few attribute reads. Otherwise the new
key waits, and the one before is followed to its end:

1. a marker posted to the widget the key went to, behind everything there, has
   bubbled back to the app: the key has passed every widget on its way and its
   binding has run (each message pump handles its queue in order);
2. a second marker sent the same way after that has come back too: what the
   binding posted to those widgets (an option list's choice, an input's
   submission, and the dialog closing that follows) has been handled;
3. if a screen opened or closed on the way: the screen on top, then the app,
   have handled what was waiting for them (the dialog mounted and focused, the
   review screen resumed, the dialog's answer recorded).

Nothing here knows which keys open dialogs, so a new dialog or binding needs
nothing added.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from textual import events
from textual.message import Message

if TYPE_CHECKING:
    from textual.app import App
    from textual.screen import Screen
    from textual.timer import Timer
    from textual.widget import Widget

__all__ = ["KeyHandled", "KeyOrder"]

#: How often held keys look at the key they wait for. A marker is lost if the widget the key went to
#: is removed before it handles the marker: the held keys then go on at the next look.
GIVE_UP_SECONDS = 0.5
#: Keys must never stay held: past this, they go on even if the widget is still there. Long, so that
#: a busy moment (a large scan's results arriving) does not let them overtake the key before them.
LAST_RESORT_SECONDS = 3.0

Input = events.Key | events.Paste


class KeyHandled(Message):
    """Posted behind a key to where it went; back at the app, the key has been dealt with."""

    def __init__(self, ticket: int) -> None:
        super().__init__()
        self.ticket = ticket


class _InFlight:
    __slots__ = ("ticket", "target", "screen", "stage", "sent_at")

    def __init__(self, ticket: int, target: Widget, screen: Screen) -> None:
        self.ticket = ticket
        self.target = target  # the widget (or screen) the key was handed to
        self.screen = screen  # the screen on top when it was handed over
        self.stage = 0  # 0: not followed; 1, 2: a marker on its way; 3: waiting for a new screen
        self.sent_at = time.monotonic()


class KeyOrder:
    """The app's gate for keys and pastes: see the module's docstring.

    ``send`` is the app's ordinary handling of an input event (``App.on_event``).
    The app calls :meth:`take` for each key or paste that arrives from the
    terminal and :meth:`handled` for each :class:`KeyHandled` that reaches it.
    """

    def __init__(self, app: App, send: Callable[[events.Event], Awaitable[None]]) -> None:
        self._app = app
        self._send_event = send
        self._held: deque[Input] = deque()
        self._in_flight: _InFlight | None = None
        self._tickets = 0
        self._give_up: Timer | None = None

    @property
    def held(self) -> int:
        """How many keys and pastes are waiting for the one in flight."""
        return len(self._held)

    async def take(self, event: Input) -> None:
        flight = self._in_flight
        if flight is None or (not self._held and flight.stage == 0 and self._done(flight)):
            await self._send(event)
            return
        self._held.append(event)
        if flight.stage == 0:
            self._follow(flight)
        self._watch()

    async def handled(self, message: KeyHandled) -> None:
        message.stop()
        flight = self._in_flight
        if flight is None or message.ticket != flight.ticket:
            return  # a marker of a key the gate has already given up on
        if flight.stage == 1:
            flight.stage = 2
            if flight.target.post_message(KeyHandled(flight.ticket)):
                return
        self._after_markers(flight)

    # ---- internals ------------------------------------------------------------------------

    def _done(self, flight: _InFlight) -> bool:
        """Whether the key in flight has certainly been handled, judged without waiting."""
        return self._app.screen is flight.screen and self._quiet_path(flight)

    def _follow(self, flight: _InFlight) -> None:
        """Start following the key in flight to its end (the module's steps 1 to 3)."""
        if self._quiet_path(flight):
            self._after_markers(flight)
            return
        flight.stage = 1
        if not flight.target.post_message(KeyHandled(flight.ticket)):
            self._after_markers(flight)

    def _quiet_path(self, flight: _InFlight) -> bool:
        """Nothing waits in the queue of the widget the key went to, or of any widget above it."""
        node = flight.target
        while node is not None and node is not self._app:
            if node.message_queue_size:
                return False
            node = node._parent
        return True

    def _after_markers(self, flight: _InFlight) -> None:
        app = self._app
        if app.screen is flight.screen:
            app.call_later(self._settled, flight.ticket)
            return
        flight.stage = 3
        ticket = flight.ticket
        screen = app.screen
        # The screen first (its mounting, resuming, the dialog's answer), then the app (the focus
        # the screen asked for, the callback that records a dialog's answer).
        if not screen.call_later(app.call_later, self._settled, ticket):
            app.call_later(self._settled, ticket)

    async def _send(self, event: Input) -> None:
        app = self._app
        await self._send_event(event)
        self._tickets += 1
        # Where Textual handed the key: the focused widget, else the screen (a priority binding
        # that took the key handed it nowhere; following it then finds nothing to wait for).
        self._in_flight = _InFlight(self._tickets, app.focused or app.screen, app.screen)

    async def _settled(self, ticket: int) -> None:
        if self._in_flight is not None and self._in_flight.ticket == ticket:
            await self._next()

    async def _next(self) -> None:
        self._in_flight = None
        if self._held:
            await self._send(self._held.popleft())
            if self._held and self._in_flight is not None:
                self._follow(self._in_flight)
        if not self._held and self._give_up is not None:
            self._give_up.stop()
            self._give_up = None

    def _watch(self) -> None:
        if self._give_up is None and self._in_flight is not None:
            ticket = self._in_flight.ticket
            self._give_up = self._app.set_timer(GIVE_UP_SECONDS, lambda: self._gave_up(ticket), name="held keys")

    async def _gave_up(self, ticket: int) -> None:
        self._give_up = None
        flight = self._in_flight
        if flight is not None and flight.ticket == ticket:
            gone = not flight.target.is_attached  # its markers are not coming back
            if gone or time.monotonic() - flight.sent_at >= LAST_RESORT_SECONDS:
                await self._next()
        if self._held:
            self._watch()

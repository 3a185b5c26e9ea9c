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
arrives, the one before it counts as handled if the app and every widget on the
screen on top have nothing waiting in their queues and no work the key started
for that screen (a search) runs in the background: the usual case when typing,
checked in one walk over the screen's widgets.
Otherwise the new key waits, and the one before is followed to its end:

1. a marker posted to the widget the key went to, behind everything there, has
   bubbled back to the app: the key has passed every widget on its way and its
   binding has run (each message pump handles its queue in order);
2. the app and every widget on the screen on top have handled what was waiting
   for them, round after round until a round finds nothing: what the binding
   set off (an input's submission, an option list's choice, the dialog closing,
   the command it chose), a screen that opened (mounted and focused) or resumed;
3. work the key started in the background for the screen on top (a search) is
   done: a person choosing a hit waits for the hits.

Nothing here knows which keys open dialogs, so a new dialog or binding needs
nothing added. Not held: mouse clicks, which Textual places on the screen as it
is when they arrive, and the app's own background work (reading the rest of a
set, a rescan, the flagged-first order), which runs for seconds on its own time.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Awaitable, Callable, Container
from typing import TYPE_CHECKING

from textual import events
from textual.keys import _character_to_key
from textual.message import Message
from textual.messages import InvokeLater

if TYPE_CHECKING:
    from textual.app import App
    from textual.message_pump import MessagePump
    from textual.timer import Timer
    from textual.widget import Widget
    from textual.worker import Worker

__all__ = ["KeyHandled", "KeyOrder", "escape_then"]

#: How often held keys look at the key they wait for. A marker is lost if the widget the key went to
#: is removed before it handles the marker: the held keys then go on at the next look.
GIVE_UP_SECONDS = 0.5
#: Keys must never stay held: past this, they go on even if the widget is still there. Long, so that
#: a busy moment (a large scan's results arriving) does not let them overtake the key before them.
LAST_RESORT_SECONDS = 3.0

#: How often held keys look again at the background work the key before them started.
WORKER_POLL_SECONDS = 0.01
#: Rounds through the screen's widgets before held keys go on although something is still queued
#: (a timer that fires faster than a round takes would otherwise hold them for good).
MAX_SETTLE_ROUNDS = 20

Input = events.Key | events.Paste


def escape_then(event: events.Key, bound: Container[str], *, holds_text: bool = False) -> tuple[events.Key, events.Key] | None:
    """Esc and the key after it, when Textual read the two as one Alt key; None for any other key.

    A terminal sends Alt+a as Esc followed by "a", so Textual reads an Esc with another key
    right behind it in the same read as ``alt+a``. A reviewer who presses Esc to close the
    reject reason picker and then ``a`` quickly (or whose keys share a packet over SSH) would lose
    both: the dialog stayed open with "a" typed into its note, one Enter away from a reject.
    No key of the app is an Alt key unless the settings file remaps one to it, so an Alt key
    that nothing where the reviewer is binds (``bound``: the active keys) is taken as the two
    keys it was made of. Not on a screen that holds typing (``holds_text``: a note begun, an edit
    changed): there it may be a real Alt key (Alt+b, a word back, to a readline user), and the Esc
    would close the dialog and throw away what was typed. An editor nothing was changed in holds
    nothing to lose, although its fields are full: Esc and ``a`` there close it and accept.

    The second key is named as Textual names that character typed alone (``U``, ``question_mark``),
    not from the Alt key's name (Esc and U read together is ``alt+shift+u``). Only a printable
    character is split: Textual's parser reads some other pairs (Esc and Enter, Esc and b on some
    terminals) as keys of their own before the app sees them, and those are left as they come.
    """
    key = event.key
    character = event.character
    if (
        not key.startswith("alt+")
        or key in bound
        or holds_text
        or character is None
        or len(character) != 1
        or not character.isprintable()
        or character.isspace()
    ):
        return None
    return events.Key("escape", "\x1b"), events.Key(_character_to_key(character), character)


class KeyHandled(Message):
    """Posted behind a key to where it went; back at the app, the key has been dealt with."""

    def __init__(self, ticket: int) -> None:
        super().__init__()
        self.ticket = ticket


#: What in the app's queue means a key, or what a key set off, is not yet done (see _quiet).
_FOR_KEYS = (events.Key, events.Paste, events.Callback, InvokeLater, KeyHandled)


class _InFlight:
    __slots__ = ("ticket", "target", "workers", "followed", "sent_at")

    def __init__(self, ticket: int, target: Widget, workers: frozenset[Worker]) -> None:
        self.ticket = ticket
        self.target = target  # the widget (or screen) the key was handed to
        self.workers = workers  # the app's workers then: a worker not among them was started by the key
        self.followed = False  # a key waits for it: its marker or the rounds are on their way
        self.sent_at = time.monotonic()


class KeyOrder:
    """The app's gate for keys and pastes: see the module's docstring.

    ``send`` is the app's ordinary handling of an input event (``App.on_event``).
    The app calls :meth:`take` for each key or paste that arrives from the
    terminal and :meth:`handled` for each :class:`KeyHandled` that reaches it.
    """

    def __init__(
        self,
        app: App,
        send: Callable[[events.Event], Awaitable[None]],
        split: Callable[[events.Key], tuple[events.Key, events.Key] | None] | None = None,
    ) -> None:
        """``split``: a key that is really two (see :func:`escape_then`), judged as it is handed on, when the
        keys before it have taken effect (the dialog the first one opened has the focus)."""
        self._app = app
        self._send_event = send
        self._split = split
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
        if flight is None or (not self._held and not flight.followed and self._done(flight)):
            await self._send(event)
            if self._held and self._in_flight is not None:  # the second of a key split in two
                self._follow(self._in_flight)
                self._watch()
            return
        self._held.append(event)
        if not flight.followed:
            self._follow(flight)
        self._watch()

    async def handled(self, message: KeyHandled) -> None:
        message.stop()
        flight = self._in_flight
        if flight is not None and message.ticket == flight.ticket:  # else a key the gate gave up on
            self._settle(flight)

    # ---- internals ------------------------------------------------------------------------

    def _done(self, flight: _InFlight) -> bool:
        """Whether the key in flight has certainly been handled, judged without waiting."""
        # A screen the key opened or closed counts too: its mounting and resuming, and the focus it
        # asked the app for, wait in those queues until done.
        return _quiet(self._pumps()) and not self._new_workers(flight)

    def _pumps(self) -> tuple[MessagePump, ...]:
        screen = self._app.screen
        return (self._app, screen, *screen.walk_children())

    def _follow(self, flight: _InFlight) -> None:
        """Start following the key in flight to its end (the module's steps 1 to 3)."""
        flight.followed = True
        if not flight.target.post_message(KeyHandled(flight.ticket)):
            self._settle(flight)  # the widget has gone: nothing more comes through it

    def _settle(self, flight: _InFlight, seen: tuple[MessagePump, ...] = (), rounds: int = 0) -> None:
        """Step 2: rounds of a callback through the app and every widget on the screen on top."""
        pumps = self._pumps()
        if (pumps == seen and _quiet(pumps)) or rounds >= MAX_SETTLE_ROUNDS:
            self._app.call_later(self._settled, flight.ticket)
            return
        waiting = [0]

        def one_done() -> None:
            waiting[0] -= 1
            if waiting[0] == 0 and self._in_flight is flight:
                self._settle(flight, pumps, rounds + 1)

        for pump in pumps:
            if pump.call_later(one_done):
                waiting[0] += 1
        if waiting[0] == 0:
            self._app.call_later(self._settled, flight.ticket)

    def _new_workers(self, flight: _InFlight) -> bool:
        """Whether work the key started in the background for the screen on top (a search) still runs.

        Only the screen's own workers count: the app's (the rest of the set being read, a rescan after
        an edit) start on their own time and run for seconds; keys must not wait for them.
        """
        top = self._app.screen
        return any(
            worker.node is top and not worker.is_finished and worker not in flight.workers
            for worker in self._app.workers
        )

    async def _send(self, event: Input) -> None:
        if self._split is not None and isinstance(event, events.Key):
            parts = self._split(event)
            if parts is not None:
                event, second = parts
                self._held.appendleft(second)  # next, before any key that came after
        app = self._app
        workers = frozenset(app.workers)
        await self._send_event(event)
        self._tickets += 1
        # Where Textual handed the key: the focused widget, else the screen (a priority binding
        # that took the key handed it nowhere; its markers just come back).
        self._in_flight = _InFlight(self._tickets, app.focused or app.screen, workers)

    async def _settled(self, ticket: int) -> None:
        flight = self._in_flight
        if flight is None or flight.ticket != ticket:
            return
        if self._new_workers(flight):
            # Step 3: a person waits for a search's hits before choosing one; held keys wait for them too.
            self._app.set_timer(WORKER_POLL_SECONDS, lambda: self._settled(ticket), name="held keys")
            return
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


def _quiet(pumps: tuple[MessagePump, ...]) -> bool:
    """Nothing waits in the queues of these widgets, nor in the message Textual takes out of one to
    look at the next (``_pending_message``), and nothing that concerns keys waits in the app's.

    These are Textual's internals (``tests/test_tui_key_bursts.py`` checks they are there): read with
    defaults, so that a Textual that renamed them makes keys wait longer, never crashes a key.
    """
    app, *widgets = pumps
    if any(pump.message_queue_size or getattr(pump, "_pending_message", None) is not None for pump in widgets):
        return False
    # The app's queue also carries the loader's batches and the scan's progress, many a second while
    # a large set opens: waiting for those would hold every key behind them. What matters there is a
    # key or paste that has bubbled back for its binding, a callback (a focus asked for, a command
    # chosen in the palette), and the markers.
    if isinstance(getattr(app, "_pending_message", None), _FOR_KEYS) or getattr(app, "_next_callbacks", None):
        return False
    queued = getattr(getattr(app, "_message_queue", None), "values", None)
    if queued is None:
        return not app.message_queue_size
    return not any(isinstance(message, _FOR_KEYS) for message in queued)

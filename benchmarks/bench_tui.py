"""How fast the review app feels: CPU per decision key, time from launch to the first question, and keys on screen.

    python benchmarks/bench_tui.py            # decision keys on 1k and 100k items; launch at 10k and 100k; keys on screen
    python benchmarks/bench_tui.py --million  # also decision keys and launch on 1M (several minutes more)
    python benchmarks/bench_tui.py --keys-only --decisions 400   # only the decision keys (in-process), more of them
    python benchmarks/bench_tui.py --screen-keys                 # only the decision keys on screen, in a pseudo-terminal
    python benchmarks/bench_tui.py --real                        # only the decision keys, on real sets and long texts

**Decision keys.** Each set is opened in a fresh process the way ``reviewtui FILE``
opens it (the session read progressively, the app built, the objects alive then
frozen out of the garbage collector's sight; default settings, so the journal is
fsynced on each decision) and run headless at 120x40 with Textual's test harness.
Before anything is timed, the whole set has been read, the quality scan (in its
child process, as in normal use) has reported, and the "flagged first" order has
been computed, so the screen shows each item's real warnings and no background
work runs during the keys (the scan's process has ended; its CPU would not be
counted anyway).

Each key is delivered as a terminal key reaches the app: a ``Key`` event posted to
the *app* (what the terminal driver sends after parsing the input), so it goes
through the app's priority bindings, then the focused widget and the screen, and
the review screen's own binding runs its action: the session's step, its journal
write (with ``fdatasync``) and the redraw. A sample is the CPU time of this
process (``time.process_time``: every thread, user and system) from posting the
key until the app has been idle for two consecutive 20 ms windows (under 1 ms of
CPU in each, Textual's own test for idle), so the repaint that follows the key is
included and time spent asleep is not. Waking up for those windows costs the
process a little CPU (about 0.2 ms a window): that "idle floor" is measured in the
same process, 80 times with no key (half before the keys, half after), and its
median is taken off every key's sample (three times off a reject's), so a figure
is the key's own work; the floor is printed. Pilot's own waits are not used:
``pilot.press`` also walks every widget of the screen after each key, about 2 ms
of CPU on the review screen (0.6 ms on a one-widget app) that no user's key pays.
Headless Textual computes each screen update but does not encode it as escape
codes or write it to a terminal; neither app pays that here. A sample can also
hold a garbage collection or, while the reason picker is open, the note field's
cursor blink (a small repaint twice a second): both weigh on the p90 more than
on the median.

The keys cycle through four decisions: ``a`` (accept), ``s`` (skip), ``a``, and a
reject: ``r`` opens the reason picker, ``2`` picks the second reason, Enter
confirms. A "single-key decision" sample is one ``a`` or ``s``; a reject sample is
the sum of its three keys. The first cycle is a warm-up (lazy imports, the
picker's first showing) and is not in the figures. After the keys the benchmark
reads the session's journal and stops with an error unless it holds exactly one
``decide`` record per decision made, with the right verdicts and reasons (and it
checks after every decision that the journal has grown and that the question pane
shows the next item: a key whose step ran but whose screen was not redrawn is not a
decision's cost).

The baseline is a bare Textual app, also in a fresh process, with one ``Static``
and app bindings for the same keys whose action updates the Static's text; it gets
the same key sequence measured the same way, and fails unless every key ran its
action. Each set's reviewtui run is followed at once by its own bare run, so a
change in the machine's speed hits both. "Difference" is the reviewtui figure minus
the bare one (median minus median, p90 minus p90); "x 1k" is a set's reviewtui
median over the 1k set's.

A second baseline, the *floor*, is what Textual itself costs to draw what a decision
changes: the texts each decision of the 100k run left in the review screen's top bar,
question, evidence, warnings, history and status line are recorded with their styles, as
markup (after the key's sample was taken), and a plain Textual app with one widget in each
of those places (the same sizes, borders and titles) shows them again, one decision's screen
per key: each widget whose text changed is given it and repainted whole, with no session,
journal or logic. It runs in a fresh process, its own bare run after it, and fails unless
every key showed the next screen, every part given new text was drawn again, and the last
screen shown is the recorded one. Reviewtui's figure is set beside it each above its own
bare run.

**Decision keys on real sets** (``--real``). The same in-process measurement on the real
public sets in ``../shared/realdata`` (``REVIEWTUI_REALDATA`` elsewhere), each reviewed with
its documents as a user would review it (SQuAD, HotpotQA and PIAF converted with
``--corpus-out``, PrivacyQA with its corpus folder, ARCD's BEIR folder with its own
``corpus.jsonl``; a LegalBench CSV of long contract clauses has none), copied into a
temporary folder first, and on a generated set of long texts (questions of about 1,500
characters, some holding a 3,000-character word, quotes of about 8,000 characters inside
400 KB documents). The synthetic sets above have short texts; a key's cost grows with the
text it wraps and the rows it draws, not with the set, so these rows show what real text
costs. Each set gets as many timed decisions as it has items for (``--decisions`` at most),
its own bare run right after it, and the same check of its journal. Without the real sets
only the long texts run, and a line says so.

**Launch.** Runs the installed command, ``reviewtui FILE``, unpatched, in a pseudo-
terminal, and times from starting the process (interpreter start-up included)
until the first question's text reaches the terminal; a bare Textual app is timed
the same way in the same run. A large JSONL set opens on its first items and
reads the rest in a worker, so the time until the whole set has been read is
reported too (measured in-process, headless, in a fresh process each time, which
must exit 0 with every item of the set read, or the script stops).

**Decision keys on screen.** The latency a user sees: the installed ``reviewtui
FILE``, unpatched, in a 120x40 pseudo-terminal (its journal in a folder of its own,
``--journal``, removed after), and this file's benchmark process as the terminal.
It answers none of Textual's queries (synchronized output, in-band resize; the
kitty keyboard flags Textual pushes are ignored), so a key is the byte a plain
terminal sends: ``a`` or ``s``, alternating. A key's figure runs from writing its
byte to the pseudo-terminal until the last byte of the screen update that follows
has been read: the update is complete once its output shows the decision (the top
bar's counts, "✓3 ✗0 ✎0 ↷2" after the fifth key) and then 50 ms pass with no
output; that silence is not counted. Textual writes a frame in one go, but a
decision can be followed by further frames (the history pane's scrollbar is
repainted one or two frames after the panes): they belong to the update, and the
"frame" column shows the time to the end of the first one alone. An update that
pauses longer than 50 ms before the decision shows is read on, not cut, and
counted as "stalled". Between keys the terminal is quiet for 150 to 200 ms (at
random: keys sent in a fixed rhythm fall in step with Textual's 60 Hz refresh
timer, and a follow-up frame then lands always one or always two ticks late), so
no update runs into the next key's.

Two conditions at 100k (settled at 1k too): *settled*, keys once the status line
says the whole set has been read and its quality checked ("N flagged medium or
worse", no "so far") and the terminal has then been quiet for a second, the first
two keys not counted; and *loading*, keys from the moment the first question is
on screen, every one counted, for as long as the status line says the set is
being read or its quality checked (a few seconds at 100k, so several launches are
pooled; at most one second is waited for a quiet terminal before each key, and the
status line's and scan bar's own redraws that fall within a key's update are
counted in it; its keys are split into those sent while the set was still being
read and those sent once only the scan ran). The baseline is a bare Textual app in the same terminal (one
``Static``, updated by the same keys' bindings), run before and after reviewtui's
runs, its samples pooled. After the keys each app is sent ctrl+q; the benchmark
stops with an error unless reviewtui's journal holds exactly one ``decide`` record
per key with the keyed verdicts, and the bare app, on exit, reports one action per
key; a key whose decision does not reach the terminal within 10 s also stops it.
"""

from __future__ import annotations

import argparse
import asyncio
import fcntl
import json
import os
import pty
import random
import re
import select
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from bytecode import compile_package  # noqa: E402
from synth import write_synthetic_jsonl  # noqa: E402

# The installed command, as a user types it (``python -m reviewtui`` where no script was installed).
_SCRIPT = Path(sys.executable).with_name("reviewtui")
REVIEWTUI = [str(_SCRIPT)] if _SCRIPT.exists() else [sys.executable, "-m", "reviewtui"]

#: A team of twenty, each item reviewed once: the app is opened as one member, who has about 5k of 100k items.
TEAM = tuple(f"r{k:02}" for k in range(1, 21))
TEAM_MEMBER = "r07"

# ---- decision keys, in-process --------------------------------------------------------------

#: The decisions, in the order they cycle: the verdict the journal must record, and the keys that make it.
#: A reject is ``r`` (the reason picker opens), ``2`` (its second reason) and Enter (confirm).
CYCLE: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("accepted", ("a",)),
    ("skipped", ("s",)),
    ("accepted", ("a",)),
    ("rejected", ("r", "2", "enter")),
)
REJECT_KEYS = CYCLE[-1][1]
REASON_DIGIT = 2  # the "2" above: which reason of the picker's list the reject picks
#: The character a terminal sends with each key (what Textual's input parser puts on the Key event).
KEY_CHARACTERS = {"enter": "\r"}
#: The app counts as idle after this many consecutive windows with less than QUIET_CPU of CPU in each
#: (Textual's own test for idle; an idle window costs this process about 0.2 ms, a repaint several ms).
QUIET_WINDOW = 0.02
QUIET_CPU = 0.001
QUIET_WINDOWS = 2


async def _until_quiet(timeout: float = 10.0) -> None:
    """Return once this process has used under QUIET_CPU in each of QUIET_WINDOWS windows in a row.

    Textual repaints on a 1/60 s timer after a key has been handled, so a window of
    20 ms always reaches the repaint; two quiet windows in a row also cover work the
    repaint schedules in turn. Asleep, the process uses no CPU, so the wait itself
    adds only the event loop's wake-ups (the "idle floor", measured and taken off).
    """
    quiet = 0
    deadline = time.monotonic() + timeout
    while quiet < QUIET_WINDOWS:
        if time.monotonic() > deadline:
            raise SystemExit(f"bench_tui: the app was still busy {timeout:.0f} s after a key")
        cpu = time.process_time()
        await asyncio.sleep(QUIET_WINDOW)
        quiet = quiet + 1 if time.process_time() - cpu < QUIET_CPU else 0


SETTLE_WINDOW = 0.5
_sleep_cost: float | None = None


async def _bare_sleep_cost() -> float:
    """CPU seconds this process is charged for sleeping SETTLE_WINDOW with nothing to do: the most of five.

    Measured, not assumed: on some virtual machines a sleeping process is charged several
    milliseconds a second (timer wake-ups), on others almost nothing. The benchmark's child
    measures it before it starts an app, so that no app's work is in it.
    """
    global _sleep_cost
    if _sleep_cost is None:
        costs = []
        for _ in range(5):
            cpu = time.process_time()
            await asyncio.sleep(SETTLE_WINDOW)
            costs.append(time.process_time() - cpu)
        _sleep_cost = max(costs)
    return _sleep_cost


async def _settle(timeout: float = 120.0) -> None:
    """Wait until the app is really idle: start-up work is over.

    Idle means half a second in which this process used at most 2 ms of CPU more than a bare
    sleep of that length costs it here (see _bare_sleep_cost).
    """
    limit = 0.002 + await _bare_sleep_cost()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        cpu = time.process_time()
        await asyncio.sleep(SETTLE_WINDOW)
        if time.process_time() - cpu < limit:
            return
    raise SystemExit(f"bench_tui: the app did not go idle within {timeout:.0f} s of starting")


async def _key_cpu(app: Any, key: str) -> float:
    """CPU seconds of this process from posting ``key`` to the app until the app is idle again.

    The Key event is posted to the app itself, as the terminal driver posts a parsed
    key: the app checks its priority bindings, then forwards the key to the focused
    widget or the screen, and the key bubbles up through the screen's bindings.
    """
    from textual import events

    event = events.Key(key, KEY_CHARACTERS.get(key, key if len(key) == 1 else None))
    event.set_sender(app)
    start = time.process_time()
    app.post_message(event)
    await _until_quiet()
    return time.process_time() - start


async def _idle_waits(count: int) -> list[float]:
    """CPU seconds of the wait in _key_cpu with no key before it, ``count`` times: the idle floor."""
    waits = []
    for _ in range(count):
        start = time.process_time()
        await _until_quiet()
        waits.append(time.process_time() - start)
    return waits


async def _run_cycle(app: Any, decisions: int, check: Callable[[int, str, int], None]) -> dict[str, Any]:
    """One warm-up cycle of CYCLE, then ``decisions`` timed decisions; ``check(done, verdict, keys)`` after each."""
    single: list[float] = []
    reject: list[float] = []
    reject_keys: dict[str, list[float]] = {key: [] for key in REJECT_KEYS}
    pressed = 0
    warm_up = len(CYCLE)
    idle = await _idle_waits(40)
    raw: list[list[float]] = []
    for n in range(warm_up + decisions):
        verdict, keys = CYCLE[n % len(CYCLE)]
        cpus = [await _key_cpu(app, key) for key in keys]
        pressed += len(keys)
        check(n + 1, verdict, pressed)
        if n >= warm_up:
            raw.append(cpus)
    idle += await _idle_waits(40)
    floor = statistics.median(idle)  # in every key's sample: taken off each, so what is left is the key's own work
    for cpus in raw:
        net = [cpu - floor for cpu in cpus]
        if len(net) == 1:
            single.append(net[0])
        else:
            reject.append(sum(net))
            for key, cpu in zip(REJECT_KEYS, net, strict=True):
                reject_keys[key].append(cpu)
    return {
        "single": single,
        "reject": reject,
        "reject_keys": reject_keys,
        "idle": floor,
        "decisions": warm_up + decisions,
        "keys": pressed,
    }


def _fail(message: str) -> None:
    raise SystemExit(f"bench_tui: {message}")


async def _review_keys(
    path: Path, decisions: int, *, team: bool = False, corpus: str | None = None, frames: Path | None = None
) -> dict[str, Any]:
    """The decision keys on ``reviewtui FILE``, opened as the command opens it; the journal checked after.

    With ``team`` the set gets a plan for TEAM_SIZE reviewers and the app is opened as one of them.
    ``corpus`` is the documents it is reviewed with (``--corpus``), so the evidence pane shows each quote
    in its document. With ``frames``, what each decision left on the screen is written there, as JSON, for
    the plain-Textual floor (see _floor_keys); it is read after the decision's keys were timed.
    """
    import gc

    from reviewtui.evalset.evidence.corpus import Corpus
    from reviewtui.evalset.io.journal import read_journal
    from reviewtui.evalset.jobs.collector import freeze_for_good
    from reviewtui.evalset.review.queue import RejectReason
    from reviewtui.evalset.review.session import ReviewSession
    from reviewtui.evalset.review.team import TeamPlan
    from reviewtui.tui.app import ReviewApp

    reason = list(RejectReason)[REASON_DIGIT - 1].value  # the review screen lists the reasons in this order
    plan = None
    if team:
        plan = TeamPlan.create(path, TEAM, 1)
        plan.save()
        journal = plan.journal_for(TEAM_MEMBER)
    else:
        journal = path.parent / f"{path.name}.bench-journal"  # beside the copy the benchmark made
    journal.unlink(missing_ok=True)
    # As reviewtui.cli.review does: the collector off while the session and the app are built, then
    # everything alive frozen out of its sight; the set is read progressively, the rest in a worker.
    try:
        gc.disable()
        if plan is not None:
            session = ReviewSession.open(path, reviewer=TEAM_MEMBER, team=plan, progressive=True)
        else:
            session = ReviewSession.open(path, journal_path=journal, reviewer="bench", progressive=True)
        try:
            app = ReviewApp(session, corpus=Corpus(corpus) if corpus else None)
            freeze_for_good()
            gc.enable()
            async with app.run_test(size=TERMINAL_SIZE):
                started = time.monotonic()
                # Everything that runs once in the background: the rest of the set, the quality scan, the order.
                while session.loading is not None or app.view.flags is None or app.view.flagged_order is None:
                    if time.monotonic() - started > 900:
                        _fail(f"{path.name}: the set, the scan or the order was not ready after 900 s")
                    await asyncio.sleep(0.05)
                await _settle()
                if len(session.queue) <= len(CYCLE) + decisions:
                    _fail(f"{path.name}: {len(session.queue)} items are too few for {len(CYCLE) + decisions} decisions")
                size = journal.stat().st_size
                shown: list[dict[str, str]] = []

                def check(done: int, verdict: str, keys: int) -> None:
                    nonlocal size
                    now = journal.stat().st_size
                    if now <= size:
                        _fail(f"decision {done} ({verdict}, keys {keys}) wrote nothing to the journal: no binding ran")
                    size = now
                    if app.screen is not app.review_screen or not app.is_running:
                        _fail(f"after decision {done} ({verdict}) the review screen is not on top (or the app stopped)")
                    current = session.queue.current
                    if current is not None and current.id not in _screen_texts(app.screen)["#question-pane"]:
                        _fail(
                            f"after decision {done} ({verdict}) the question pane does not show the next item, {current.id}: "
                            "the screen was not redrawn"
                        )
                    if frames is not None:
                        shown.append(_screen_texts(app.screen))

                result = await _run_cycle(app, decisions, check)
                if frames is not None:
                    frames.write_text(json.dumps({"places": _screen_places(app.screen), "frames": shown}))
                result["flagged"] = len(app.view.flags or {})
                result["items"] = len(session.queue)
                result["documents"] = 0 if app.corpus is None else len(app.corpus)
                result["scan_error"] = app.view.scan_error
        finally:
            session.close()
        records = [payload for _, payload in read_journal(journal).records]
    finally:
        journal.unlink(missing_ok=True)
    decided = [r for r in records if r.get("op") == "decide"]
    expected = [CYCLE[n % len(CYCLE)][0] for n in range(result["decisions"])]
    if len(decided) != len(expected):
        _fail(f"{path.name}: {len(expected)} decisions keyed but {len(decided)} decide records in the journal")
    got = [r.get("v") for r in decided]
    if got != expected:
        _fail(f"{path.name}: the journal's verdicts {got[:8]}... are not the keyed ones {expected[:8]}...")
    reasons = {r.get("why") for r in decided if r.get("v") == "rejected"}
    if reasons != {reason}:
        _fail(f"{path.name}: rejects recorded reasons {reasons}, not {reason!r}")
    if len({r.get("id") for r in decided}) != len(decided):
        _fail(f"{path.name}: some item was decided twice; each decision should be on the next item")
    others = sorted({str(r.get("op")) for r in records} - {"decide", "start", "open"})
    result["journal"] = {"decide": len(decided), "others": others, "reason": reason}
    return result


class _BareApp:
    """Built on first use so that importing this module does not import Textual."""

    @staticmethod
    def make() -> Any:
        from textual.app import App, ComposeResult
        from textual.binding import Binding
        from textual.widgets import Static

        keys = sorted({key for _, keys in CYCLE for key in keys})

        class Bare(App[None]):
            BINDINGS = [Binding(key, f"show({key!r})", key) for key in keys]

            def __init__(self) -> None:
                super().__init__()
                self.count = 0

            def compose(self) -> ComposeResult:
                yield Static("no key yet", id="text")

            def on_mount(self) -> None:
                self.text = self.query_one("#text", Static)

            def action_show(self, key: str) -> None:
                self.count += 1
                self.text.update(f"{self.count} keys pressed, the last one {key}")

        return Bare()


async def _bare_keys(decisions: int) -> dict[str, Any]:
    """The same keys on a bare Textual app whose bindings update one Static."""
    app = _BareApp.make()
    async with app.run_test(size=TERMINAL_SIZE):
        await _settle()

        def check(done: int, verdict: str, keys: int) -> None:
            if app.count != keys:
                _fail(f"bare app: {keys} keys pressed but {app.count} actions ran")

        result = await _run_cycle(app, decisions, check)
    return result


# ---- the plain-Textual floor: the same screens, drawn by plain widgets ----------------------
#
# The bare app above draws one line per key; a decision changes most of the review screen (a new
# question, its evidence, its warnings, the history moving down a line). The floor shows what Textual
# itself costs to draw that: the texts each decision left in the review screen's panes and bars,
# recorded in a review run, shown one decision per key by plain widgets placed where those panes were,
# with the same borders and titles, each given its new text and repainted whole (what a Textual app
# does without reviewtui's own drawing, which repaints only the rows that changed). No session, no
# journal, no logic: what is above it in reviewtui's figure is reviewtui's, what it is above the bare
# app is the drawing.

#: The review screen's parts the floor draws: (selector of the widget holding the text, selector of the
#: box drawn around it, the box's title). The warnings' box holds the scan's bar and the flags' pane.
FLOOR_PARTS: tuple[tuple[str, str, str | None], ...] = (
    ("#top-bar", "#top-bar", None),
    ("#question-pane", "#question-pane", "Question"),
    ("#evidence-pane", "#evidence-pane", "Evidence"),
    ("#flags", "#warnings-pane", "Warnings"),
    ("#history-pane", "#history-pane", "History"),
    ("#status-line", "#status-line", None),
)


def _screen_texts(screen: Any) -> dict[str, str]:
    """The text each part of FLOOR_PARTS shows now, with its styles, as Textual markup (the text in it escaped):
    a pane's whole text, a bar's content (or, for a bar that draws itself otherwise, its one line)."""
    from textual.content import Content

    texts = {}
    for selector, _, _ in FLOOR_PARTS:
        widget = screen.query_one(selector)
        content = getattr(widget, "content", None)
        if not isinstance(content, Content):
            rendered = widget.render()
            content = rendered if isinstance(rendered, Content) else Content(widget.render_line(0).text.strip())
        texts[selector] = content.markup
    return texts


def _screen_places(screen: Any) -> dict[str, list[int]]:
    """Where each part's box is on the screen: x, y, width, height."""
    return {selector: list(screen.query_one(box).region) for selector, box, _ in FLOOR_PARTS}


class _FloorApp:
    """Built on first use so that importing this module does not import Textual."""

    @staticmethod
    def make(places: dict[str, list[int]], frames: list[dict[str, str]]) -> Any:
        from textual.app import App, ComposeResult
        from textual.binding import Binding
        from textual.content import Content
        from textual.widget import Widget

        class Part(Widget):
            """One place of the screen: its recorded text (markup), drawn with its styles."""

            def __init__(self, text: str, **kwargs: Any) -> None:
                super().__init__(**kwargs)
                self.text = text
                self.content = Content.from_markup(text)  # read once: the floor draws, it does not parse
                self.renders = 0  # how many times Textual asked for the content to draw: a check that it drew

            def render(self) -> Content:
                self.renders += 1
                return self.content

            def show(self, text: str) -> bool:
                """Take ``text``; whether it changed (then the part is repainted whole)."""
                if text == self.text:
                    return False
                self.text = text
                self.content = Content.from_markup(text)
                self.refresh()
                return True

        class Floor(App[None]):
            BINDINGS = [Binding("a", "next", "next", id="next")]
            CSS = """
            Part { position: absolute; overflow: hidden; }
            .box { border: round $panel-lighten-2; border-title-color: $text-muted; padding: 0 0 0 1; }
            .bar { background: $panel; padding: 0 1; }
            """

            def __init__(self) -> None:
                super().__init__()
                self.count = 0
                self.changed: list[tuple[Part, int]] = []  # the parts the last key gave new text, and their renders then

            def compose(self) -> ComposeResult:
                for n, (selector, _, title) in enumerate(FLOOR_PARTS):
                    x, y, width, height = places[selector]
                    part = Part(frames[0][selector], id=f"part{n}", classes="box" if title else "bar")
                    part.styles.offset = (x, y)
                    part.styles.width = width
                    part.styles.height = height
                    if title:
                        part.border_title = title
                    yield part

            def on_mount(self) -> None:
                self.parts = [(selector, self.query_one(f"#part{n}", Part)) for n, (selector, _, _) in enumerate(FLOOR_PARTS)]

            def action_next(self) -> None:
                self.count += 1
                frame = frames[self.count % len(frames)]
                self.changed = [(part, part.renders) for selector, part in self.parts if part.show(frame[selector])]

        return Floor()


async def _floor_keys(frames_path: Path, decisions: int) -> dict[str, Any]:
    """One key per recorded decision on the floor app (see FLOOR_PARTS): each shows the next decision's screen."""
    recorded = json.loads(frames_path.read_text())
    frames = recorded["frames"]
    app = _FloorApp.make(recorded["places"], frames)
    samples: list[float] = []
    async with app.run_test(size=TERMINAL_SIZE):
        await _settle()
        idle = await _idle_waits(40)
        for n in range(len(CYCLE) + decisions):
            cpu = await _key_cpu(app, "a")
            if app.count != n + 1:
                _fail(f"floor app: {n + 1} keys pressed but {app.count} screens shown")
            if not app.changed or any(part.renders == before for part, before in app.changed):
                _fail(f"floor app: key {n + 1} gave new text to parts that were not drawn again (or to none)")
            if n >= len(CYCLE):  # the same warm-up as the review run's
                samples.append(cpu)
        idle += await _idle_waits(40)
        last = frames[app.count % len(frames)]
        if any(part.text != last[selector] for selector, part in app.parts):
            _fail("floor app: the last key's screen is not the recorded one")
    floor = statistics.median(idle)
    return {"single": [cpu - floor for cpu in samples], "keys": app.count, "frames": len(frames), "idle": floor}


def _keys_child(kind: str, path: str, decisions: int, corpus: str | None = None, frames: str | None = None) -> None:
    """In a fresh process: one app's samples, as a JSON line on stdout (``frames``: where a review run writes its screens)."""
    asyncio.run(_bare_sleep_cost())  # before any app runs (see _settle)
    if kind == "bare":
        result = asyncio.run(_bare_keys(decisions))
    elif kind == "floor":
        result = asyncio.run(_floor_keys(Path(path), decisions))
    else:
        result = asyncio.run(
            _review_keys(Path(path), decisions, team=kind == "team", corpus=corpus, frames=Path(frames) if frames else None)
        )
    print(json.dumps(result))


def _keys(
    kind: str, path: Path | None, decisions: int, corpus: Path | None = None, *, frames: Path | None = None
) -> dict[str, Any]:
    command = [sys.executable, __file__, "--keys-child", kind, str(path or "-"), "--decisions", str(decisions)]
    if corpus is not None:
        command += ["--keys-corpus", str(corpus)]
    if frames is not None:
        command += ["--keys-frames", str(frames)]
    env = {**os.environ, "REVIEWTUI_CONFIG": os.devnull}
    out = subprocess.run(command, capture_output=True, text=True, env=env)
    if out.returncode != 0:
        raise SystemExit(f"bench_tui: the {kind} key run failed (exit {out.returncode}):\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.splitlines()[-1])


def _ms(seconds: float) -> str:
    return f"{seconds * 1e3:.1f}"


def _p90(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.9))]


def _key_tables(sets: dict[int, Path], sizes: list[int], decisions: int, team: Path | None = None) -> None:
    runs: dict[int, tuple[dict[str, Any], dict[str, Any]]] = {}
    # The screens of one size's run are drawn again by the plain-Textual floor (see FLOOR_PARTS).
    frames_at = 100_000 if 100_000 in sizes else sizes[0]
    frames = sets[frames_at].with_name(sets[frames_at].name + ".frames.json")
    for n in sizes:  # each size beside its own bare run, so a change in the machine's speed hits both
        runs[n] = (_keys("review", sets[n], decisions, frames=frames if n == frames_at else None), _keys("bare", None, decisions))
    floor = (_keys("floor", frames, decisions), _keys("bare", None, decisions))
    as_member = (_keys("team", team, decisions), _keys("bare", None, decisions)) if team is not None else None
    print(
        f"CPU per decision key, in-process ({TERMINAL_SIZE[0]}x{TERMINAL_SIZE[1]}, headless), ms; "
        f"{decisions} timed decisions per set after a warm-up of {len(CYCLE)}"
    )
    for kind, title in (
        ("single", "single-key decisions (a, s): one key, one journal record"),
        ("reject", "reject (r, 2, Enter: the reason picker opens, a reason, confirm): three keys, one record"),
    ):
        print()
        print(title)
        print(
            f"{'items':>9} {'n':>4} | {'reviewtui':>9} {'p90':>6} | {'bare':>6} {'p90':>6} | "
            f"{'difference':>10} {'p90':>6} | {'x 1k':>5}"
        )
        base = statistics.median(runs[sizes[0]][0][kind])
        for n in sizes:
            review, bare = runs[n]
            r_med, b_med = statistics.median(review[kind]), statistics.median(bare[kind])
            r_p90, b_p90 = _p90(review[kind]), _p90(bare[kind])
            ratio = f"{r_med / base:.2f}" if n != sizes[0] else ""
            print(
                f"{n:>9,} {len(review[kind]):>4} | {_ms(r_med):>9} {_ms(r_p90):>6} | {_ms(b_med):>6} {_ms(b_p90):>6} | "
                f"{_ms(r_med - b_med):>10} {_ms(r_p90 - b_p90):>6} | {ratio:>5}"
            )
    if as_member is not None:
        review, bare = as_member
        print()
        print(f"as one of {len(TEAM)} reviewers of a 100k set ({review['decisions']} decisions, journal checked):")
        for kind, title in (("single", "single-key decisions"), ("reject", "reject (three keys)")):
            r_med, b_med = statistics.median(review[kind]), statistics.median(bare[kind])
            print(
                f"  {title}: {_ms(r_med)} ms, p90 {_ms(_p90(review[kind]))}; bare {_ms(b_med)}, "
                f"p90 {_ms(_p90(bare[kind]))}; difference {_ms(r_med - b_med)}"
            )
    print()
    drawn, bare_then = floor
    f_med, b_med = statistics.median(drawn["single"]), statistics.median(bare_then["single"])
    # Each taken above its own bare run, as every difference here is: the floor ran later than the review.
    r_above = statistics.median(runs[frames_at][0]["single"]) - statistics.median(runs[frames_at][1]["single"])
    print(
        f"the same screens in plain Textual (the floor: the {drawn['frames']} screens the {frames_at:,} run's decisions left, "
        f"one a key, {drawn['keys']} keys):"
    )
    print(
        f"  {_ms(f_med)} ms, p90 {_ms(_p90(drawn['single']))}; bare {_ms(b_med)}, p90 {_ms(_p90(bare_then['single']))}; "
        f"the floor above the bare app {_ms(f_med - b_med)}; reviewtui's single-key decisions above the floor "
        f"{_ms(r_above - (f_med - b_med))} (each above its own bare run)"
    )
    print()
    keys = " / ".join(REJECT_KEYS)
    print(f"reject, median per key ({keys}), reviewtui vs bare:")
    for n in sizes:
        review, bare = runs[n]
        cells = [
            f"{_ms(statistics.median(review['reject_keys'][k]))} vs {_ms(statistics.median(bare['reject_keys'][k]))}"
            for k in REJECT_KEYS
        ]
        print(f"{n:>9,}   " + " / ".join(cells))
    print()
    for n in sizes:
        review, bare = runs[n]
        journal = review["journal"]
        scan = f"quality scan FAILED ({review['scan_error']})" if review["scan_error"] else f"{review['flagged']:,} items flagged"
        print(
            f"{n:>9,}: journal holds {journal['decide']} decide records for {review['decisions']} decisions keyed "
            f"({review['keys']} keys; rejects with reason {journal['reason']!r}; other ops: "
            f"{', '.join(journal['others']) or 'none'}); bare app ran {bare['keys']} actions for {bare['keys']} keys; "
            f"{scan}; idle floor {review['idle'] * 1e3:.2f} / {bare['idle'] * 1e3:.2f} ms"
        )
    print()
    single = {n: statistics.median(runs[n][0]["single"]) for n in sizes}
    diff = {n: single[n] - statistics.median(runs[n][1]["single"]) for n in sizes}
    if 100_000 in sizes:
        verdict = "met" if diff[100_000] <= 0.005 else "NOT met"
        print(f"target: difference <= 5 ms at 100k (single-key decisions, median): {_ms(diff[100_000])} ms, {verdict}")
    if 100_000 in sizes and 1_000 in sizes:
        print(f"100k / 1k median ratio (single-key decisions): {single[100_000] / single[1_000]:.2f}")
    if 1_000_000 in sizes and 1_000 in sizes:
        ratio = single[1_000_000] / single[1_000]
        print(f"target: 1M / 1k median ratio <= 1.3 (single-key decisions): {ratio:.2f}, {'met' if ratio <= 1.3 else 'NOT met'}")


# ---- decision keys on real sets ------------------------------------------------------------

REALDATA = Path(os.environ.get("REVIEWTUI_REALDATA", HERE.parent.parent / "shared" / "realdata"))

#: Real public sets (see ../shared/realdata/SOURCES.md), each reviewed with its documents: the label, how to
#: get a file the app opens (``convert``: the file is converted to JSONL with its documents written out;
#: ``copy``: copied as it is, a folder whole) and where the documents are when they are not converted out.
REAL_SETS: tuple[tuple[str, str, str, str | None], ...] = (
    ("SQuAD 2.0 (626)", "qa-squad2-haystack/small.json", "convert", None),
    ("HotpotQA (300)", "qa-hotpotqa-megagon/dev.jsonl", "convert", None),
    ("LegalBench CUAD CSV (50)", "qa-csv-datasaur-legalbenchrag/cuad.csv", "copy", None),
    ("PrivacyQA (194)", "legalbenchrag-privacyqa/benchmarks/privacy_qa.json", "copy", "legalbenchrag-privacyqa/corpus"),
    ("ARCD, Arabic (50)", "beir-agentset-leaderboard/arcd", "copy", "corpus.jsonl"),
    ("PIAF, French", "qa-piaf-french/small.json", "convert", None),
)


def _long_texts(folder: Path, n: int = 400) -> tuple[Path, Path]:
    """A set whose every text is long: ~1,500-character questions with a 3,000-character word in some,
    ~8,000-character quotes, each quote inside one of 20 documents of about 400 KB; the worst a real
    set's panes are likely to hold, at a size where every key is still a decision."""
    rng = random.Random(11)
    words = [
        "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(2, 11))) for _ in range(3000)
    ]
    docs = folder / "long-docs"
    docs.mkdir()
    texts = []
    for d in range(20):
        text = " ".join(rng.choice(words) for _ in range(60_000))
        (docs / f"doc{d:02}.txt").write_text(text, encoding="utf-8")
        texts.append(text)
    path = folder / "long.jsonl"
    with path.open("w", encoding="utf-8") as out:
        for k in range(n):
            d = rng.randrange(20)
            start = rng.randrange(len(texts[d]) - 9000)
            start = texts[d].index(" ", start) + 1
            quote = texts[d][start : texts[d].rindex(" ", start, start + 8000)]
            question = " ".join(rng.choice(words) for _ in range(220))
            if k % 7 == 0:
                question += " " + "w" * 3000
            item = {
                "id": f"long-{k:04}",
                "question": question.capitalize() + "?",
                "anchors": [{"source_id": f"doc{d:02}.txt", "quote": quote}],
                "answer": " ".join(quote.split()[5:40]),
            }
            out.write(json.dumps(item) + "\n")
    return path, docs


def _real_sets(folder: Path) -> list[tuple[str, Path, Path | None]]:
    """The sets of REAL_SETS prepared in ``folder`` (so nothing is written beside the originals)."""
    import shutil

    prepared: list[tuple[str, Path, Path | None]] = []
    for k, (label, relative, how, documents) in enumerate(REAL_SETS):
        source = REALDATA / relative
        if how == "convert":
            out = folder / f"real{k}.jsonl"
            corpus: Path | None = folder / f"real{k}-docs"
            done = subprocess.run(
                [*REVIEWTUI, "convert", str(source), str(out), "--corpus-out", str(corpus)],
                capture_output=True,
                text=True,
                env={**os.environ, "REVIEWTUI_CONFIG": os.devnull},
            )
            if done.returncode != 0:
                _fail(f"converting {source} failed: {done.stderr.strip()[-500:]}")
        elif source.is_dir():
            out = folder / source.name
            shutil.copytree(source, out)
            corpus = out / documents if documents else None
        else:
            out = folder / source.name
            shutil.copyfile(source, out)
            corpus = REALDATA / documents if documents else None
        prepared.append((label, out, corpus))
    path, docs = _long_texts(folder)
    prepared.append(("long texts (generated)", path, docs))
    return prepared


def _real_key_table(folder: Path, decisions: int) -> None:
    if not REALDATA.is_dir():
        print(f"bench_tui: no real sets at {REALDATA} (set REVIEWTUI_REALDATA); only the generated long texts are run")
    sets = _real_sets(folder) if REALDATA.is_dir() else [("long texts (generated)", *_long_texts(folder))]
    print(
        f"CPU per single-key decision (a, s) on real sets, in-process ({TERMINAL_SIZE[0]}x{TERMINAL_SIZE[1]}, headless), "
        "each reviewed with its documents, beside a bare app run right after it; ms"
    )
    print(
        f"{'set':>24} {'items':>6} {'docs':>6} {'n':>4} | {'reviewtui':>9} {'p90':>6} | {'bare':>6} {'p90':>6} | "
        f"{'difference':>10} | {'reject (3 keys)':>15}"
    )
    checked = []
    for label, path, corpus in sets:
        # Every set gets as many decisions as it has items for, after the warm-up, up to ``decisions``.
        size = _items_in(path)
        count = min(decisions, size - len(CYCLE) - 1)
        review = _keys("review", path, count, corpus)
        bare = _keys("bare", None, count)
        r_med, b_med = statistics.median(review["single"]), statistics.median(bare["single"])
        print(
            f"{label:>24} {review['items']:>6,} {review['documents']:>6,} {len(review['single']):>4} | "
            f"{_ms(r_med):>9} {_ms(_p90(review['single'])):>6} | {_ms(b_med):>6} {_ms(_p90(bare['single'])):>6} | "
            f"{_ms(r_med - b_med):>10} | {_ms(statistics.median(review['reject'])):>15}"
        )
        checked.append(f"{label}: {review['journal']['decide']} decide records for {review['decisions']} decisions keyed")
    print()
    for line in checked:
        print(line)


def _items_in(path: Path) -> int:
    import warnings

    from reviewtui.evalset.io.sniff import open_evalset

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # what the reader renumbers or skips is no concern of the count
        return len(open_evalset(path))


# ---- launch, in a pseudo-terminal ---------------------------------------------------------

BARE_APP = r"""
from textual.app import App
from textual.widgets import Static
class Bare(App):
    def compose(self):
        yield Static("hello from a bare app")
Bare().run()
"""

WHOLE_SET = r"""
# `reviewtui FILE` run headless in this process, timed until the whole set has been read.
# Prints the seconds and the number of items the session holds once read; exits non-zero if the command failed.
import sys, time
t0 = time.perf_counter()
path, journal = sys.argv[1], sys.argv[2]
from textual.app import App
from reviewtui.tui.app import ReviewApp
apps = []
def on_ready(self):
    apps.append(self)
    self.set_interval(0.01, lambda: self.session.loading is None and self.exit())
ReviewApp.on_ready = on_ready
ReviewApp.run = lambda self, **kw: App.run(self, headless=True)
from reviewtui.cli import main
code = main([path, "--journal", journal, "--reviewer", "bench"])
seconds = time.perf_counter() - t0
if code:
    sys.exit(f"reviewtui {path} exited with {code}")
if not apps or apps[0].session.loading is not None:
    sys.exit(f"reviewtui {path} returned before the whole set was read")
print(seconds, len(apps[0].session.evalset))
"""

TERMINAL_SIZE = (120, 40)  # columns, rows
QUIT = b"\x11"  # ctrl+q


def seconds_to_show(argv: list[str], marker: bytes, *, timeout: float = 60.0) -> float:
    """Seconds from starting ``argv`` in a pseudo-terminal until ``marker`` reaches the terminal.

    The program runs as a user runs it: a real terminal driver, nothing patched,
    the interpreter's own start-up included. Once the marker is seen it is sent
    ctrl+q, and its output is drained until it exits.
    """
    start = time.perf_counter()
    pid, fd = _pty_spawn(argv)
    seen, tail = None, b""
    deadline = start + timeout
    try:
        while time.perf_counter() < deadline:
            ready, _, _ = select.select([fd], [], [], 0.05)
            if not ready:
                continue
            try:
                data = os.read(fd, 1 << 16)
            except OSError:  # the program has exited and closed the terminal
                break
            if not data:
                break
            if seen is None:
                tail = tail[-len(marker) :] + data
                if marker in tail:
                    seen = time.perf_counter() - start
                    os.write(fd, QUIT)
    finally:
        _, status = os.waitpid(pid, 0)
        os.close(fd)
    if seen is None:
        raise RuntimeError(f"{argv[-1]}: {marker!r} never appeared (exit status {status})")
    return seen


def _first_question(path: Path | None, *, team: bool = False) -> float:
    """Seconds until the first question (or, with no path, the bare app's text) is on the terminal.

    With ``team`` the set has a team plan (see :func:`_team_plan`) and the command is run as one member.
    """
    if path is None:
        return seconds_to_show([sys.executable, "-c", BARE_APP], b"hello from a bare app")
    if team:
        journal = _team_plan(path).journal_for(TEAM_MEMBER)
        argv = [*REVIEWTUI, str(path), "--reviewer", TEAM_MEMBER]
    else:
        journal = path.with_suffix(".launch-journal")
        argv = [*REVIEWTUI, str(path), "--journal", str(journal)]
    journal.unlink(missing_ok=True)
    try:
        # Every synthetic id starts "syn-", and only the question pane shows an item id.
        seconds = seconds_to_show(argv, b"syn-")
        if not journal.is_file():
            raise SystemExit(f"bench_tui: the launch of {' '.join(argv[-3:])} made no journal at {journal}")
        return seconds
    finally:
        journal.unlink(missing_ok=True)


def _team_plan(path: Path) -> Any:
    """The plan that gives a copy of the 100k set to TEAM, one reviewer per item (saved beside it)."""
    from reviewtui.evalset.review.team import TeamPlan

    plan = TeamPlan.create(path, TEAM, 1)
    plan.save()
    return plan


def _whole_set(path: Path, n: int, runs: int) -> float:
    """Median seconds until the whole set of ``n`` items has been read, over fresh processes.

    Stops unless each process exited 0 with all ``n`` items read.
    """
    times = []
    for _ in range(runs):
        journal = path.with_suffix(".launch-journal")
        journal.unlink(missing_ok=True)
        out = subprocess.run([sys.executable, "-c", WHOLE_SET, str(path), str(journal)], capture_output=True, text=True)
        journal.unlink(missing_ok=True)
        if out.returncode != 0:
            raise SystemExit(f"bench_tui: the whole-set read of {path.name} failed (exit {out.returncode}):\n{out.stderr[-3000:]}")
        seconds, items = out.stdout.split()[-2:]
        if int(items) != n:
            raise SystemExit(f"bench_tui: the whole-set read of {path.name} read {items} items of {n:,}")
        times.append(float(seconds))
    return statistics.median(times)


# ---- decision keys on screen, in a pseudo-terminal ----------------------------------------

BARE_KEYS_APP = r"""
# A bare Textual app whose bindings update one Static; the number of actions run is written to argv[1] on exit.
import sys
from textual.app import App
from textual.binding import Binding
from textual.widgets import Static
class Bare(App):
    BINDINGS = [Binding(key, f"show({key!r})", key) for key in ("a", "s", "r", "2", "enter")]
    count = 0
    def compose(self):
        yield Static("no key yet", id="text")
    def on_mount(self):
        self.text = self.query_one("#text", Static)
    def action_show(self, key):
        self.count += 1
        self.text.update(f"{self.count} keys pressed, the last one {key}")
app = Bare()
app.run()
with open(sys.argv[1], "w") as out:
    out.write(str(app.count))
"""

#: The output burst that follows a key ends after this long with no output (not counted in the figure).
SCREEN_QUIET = 0.05
#: A pause this long in the output ends the frame that showed a key's effect (Textual writes a frame at once).
FRAME_PAUSE = 0.008
#: After a burst, this long more with no key, so that the next key's burst cannot run into the last one's, and a
#: random extra of up to SCREEN_JITTER, so that keys do not fall in step with Textual's 60 Hz refresh timer.
SCREEN_GAP = 0.1
SCREEN_JITTER = 0.05
#: The single-key decisions alternate: the byte a terminal sends for each key, and the verdict it records.
SCREEN_KEYS = ((b"a", "accepted"), (b"s", "skipped"))
#: Keys before the timed ones in the settled runs (the first key pays lazy imports; the loading run counts every key).
SCREEN_WARM_UP = 2
_ESCAPE = re.compile(rb"\x1b\[[0-9;?<>=$]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b[=>78]")
_STATUS = re.compile(r"item [\d,]+ of [\d,]+( so far)?")


def _pty_spawn(argv: list[str]) -> tuple[int, int]:
    """Start ``argv`` in a TERMINAL_SIZE pseudo-terminal, as a user's terminal would: (pid, master fd)."""
    env = {**os.environ, "TERM": "xterm-256color", "REVIEWTUI_CONFIG": os.devnull}
    pid, fd = pty.fork()
    if pid == 0:  # the child: size its terminal, then become the program
        columns, rows = TERMINAL_SIZE
        fcntl.ioctl(sys.stdout.fileno(), termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        os.execvpe(argv[0], argv, env)
    return pid, fd


def _screen_text(data: bytes) -> str:
    """The text in terminal output, escape sequences taken out (cursor moves included: words run together)."""
    return _ESCAPE.sub(b"", data).decode("utf-8", "replace")


class _Terminal:
    """The terminal end of a program run in a pseudo-terminal: keys written, output read and timestamped.

    It answers none of the program's queries (Textual asks about synchronized output
    and in-band resize, and pushes kitty keyboard flags), so Textual treats it as a
    plain xterm: a key is the byte a terminal sends for it (``a``, ``s``, ``\\r``),
    and each screen update is written as plain escape codes with no frame markers.
    """

    def __init__(self, argv: list[str]) -> None:
        self.argv = argv
        self.pid, self.fd = _pty_spawn(argv)
        self.tail = b""  # the last output, for reading the status line
        self.closed = False
        self.status: int | None = None

    def _read(self, timeout: float) -> bytes | None:
        """The output that arrives within ``timeout`` seconds (b"" if none); None once the program has gone."""
        if self.closed:
            return None
        ready, _, _ = select.select([self.fd], [], [], max(0.0, timeout))
        if not ready:
            return b""
        try:
            data = os.read(self.fd, 1 << 16)
        except OSError:  # the program has exited and closed the terminal
            data = b""
        if not data:
            self.closed = True
            return None
        self.tail = (self.tail + data)[-(1 << 16) :]
        return data

    def wait_for(self, marker: bytes, timeout: float) -> None:
        """Read until ``marker`` reaches the terminal."""
        deadline = time.perf_counter() + timeout
        seen = b""
        while marker not in seen:
            data = self._read(deadline - time.perf_counter())
            if data is None or time.perf_counter() > deadline:
                _fail(f"{self.argv[-1]}: {marker!r} never reached the terminal (the program {'exited' if data is None else 'hung'})")
            seen = seen[-len(marker) :] + data

    def quiet_for(self, seconds: float, timeout: float, *, strict: bool = True) -> bool:
        """Read until there has been no output for ``seconds``; False if it went on for ``timeout`` (unless ``strict``)."""
        deadline = time.perf_counter() + timeout
        while (data := self._read(seconds)) != b"":
            if data is None:
                _fail(f"{self.argv[-1]}: the program exited before it went quiet")
            if time.perf_counter() > deadline:
                if strict:
                    _fail(f"{self.argv[-1]}: output did not stop for {seconds} s within {timeout:.0f} s")
                return False
        return True

    def wait_status(self, timeout: float) -> None:
        """Read until the review screen's status line ("item 1 of 215 so far ...") is on the terminal."""
        deadline = time.perf_counter() + timeout
        while not _STATUS.search(_screen_text(self.tail)):
            if self._read(deadline - time.perf_counter()) is None or time.perf_counter() > deadline:
                _fail(f"{self.argv[-1]}: no status line reached the terminal within {timeout:.0f} s")

    def background(self) -> tuple[bool, bool]:
        """(still reading the set, still checking quality), as the latest status line on the terminal says."""
        text = _screen_text(self.tail)
        items = list(_STATUS.finditer(text))
        loading = bool(items and items[-1].group(1))
        checking = text.rfind("checking quality…") > text.rfind("flagged medium or worse")
        return loading, checking

    def press(self, key: bytes, shows: Callable[[str], bool], timeout: float = 10.0) -> dict[str, Any]:
        """Write ``key`` and read the screen update that follows; seconds from the write to its end, and more.

        The update is complete once its output shows the key's effect (``shows`` of
        its text is true) and SCREEN_QUIET has then passed with no more output;
        "seconds" run from writing the key to the last byte before that silence (the
        silence itself is not counted). A silence longer than SCREEN_QUIET before the
        effect shows (the program stalled in the middle of an update) does not end it:
        "silence" is the longest one. "frame" is the time to the end of the output run
        that showed the effect (up to its first pause of FRAME_PAUSE): what follows it is
        further frames, such as a scrollbar repainted after the panes.
        """
        chunks: list[bytes] = []
        start = time.perf_counter()
        os.write(self.fd, key)
        last = start
        done = False
        frame = None
        longest = 0.0
        while True:
            wait = last + SCREEN_QUIET - time.perf_counter() if done else start + timeout - time.perf_counter()
            data = self._read(wait)
            if data is None:
                _fail(f"{self.argv[-1]}: the program exited after the key {key!r}")
            now = time.perf_counter()
            if done and frame is None and (not data or now - last >= FRAME_PAUSE):
                frame = last - start
            if not data:
                if done:
                    return {"seconds": last - start, "frame": frame, "bytes": len(b"".join(chunks)), "silence": longest}
                text = _screen_text(b"".join(chunks))
                _fail(
                    f"{self.argv[-1]}: the key {key!r} did not show its effect within {timeout:.0f} s "
                    f"({len(text):,} characters of output: {text[:200]!r}...{text[-200:]!r})"
                )
            if chunks:
                longest = max(longest, now - last)
            last = now
            chunks.append(data)
            done = done or shows(_screen_text(b"".join(chunks)))

    def quit(self, timeout: float = 30.0) -> int:
        """Send ctrl+q, read the output until the program exits; its exit status."""
        os.write(self.fd, QUIT)
        deadline = time.perf_counter() + timeout
        while self._read(deadline - time.perf_counter()) is not None:
            if time.perf_counter() > deadline:
                self.kill()
                _fail(f"{self.argv[-1]}: still running {timeout:.0f} s after ctrl+q")
        return self.close()

    def close(self) -> int:
        if self.status is None:
            _, status = os.waitpid(self.pid, 0)
            self.status = os.waitstatus_to_exitcode(status)
            os.close(self.fd)
        return self.status

    def kill(self) -> None:
        if self.status is None:
            os.kill(self.pid, signal.SIGKILL)
            self.close()


def _screen_run(
    terminal: _Terminal, keys: int, *, shows: Callable[[int, int, str], bool], while_busy: bool = False
) -> list[dict[str, Any]]:
    """Press ``keys`` single-key decisions (or, ``while_busy``, as many as fit while the set loads or the scan runs).

    Before each key the terminal has been quiet for SCREEN_QUIET + SCREEN_GAP and a
    random part of SCREEN_JITTER (while the app works in the background, at most one
    second is waited for that).
    ``shows(accepted, skipped, text)`` says whether the output's text shows those counts.
    """
    samples: list[dict[str, Any]] = []
    counts = {"accepted": 0, "skipped": 0}
    jitter = random.Random(17)
    for n in range(keys):
        loading, checking = terminal.background()
        if while_busy and not (loading or checking):
            break
        gap = SCREEN_QUIET + SCREEN_GAP + jitter.uniform(0, SCREEN_JITTER)
        terminal.quiet_for(gap, timeout=1.0, strict=not while_busy)
        key, verdict = SCREEN_KEYS[n % len(SCREEN_KEYS)]
        counts[verdict] += 1
        accepted, skipped = counts["accepted"], counts["skipped"]
        update = terminal.press(key, lambda text: shows(accepted, skipped, text))
        samples.append({**update, "verdict": verdict, "loading": loading, "checking": checking})
    return samples


def _review_counts(accepted: int, skipped: int, text: str) -> bool:
    return f"✓{accepted:,} ✗0 ✎0 ↷{skipped:,}" in text


def _screen_review(path: Path, keys: int, *, while_busy: bool) -> dict[str, Any]:
    """Decision keys on the installed ``reviewtui FILE`` in a pseudo-terminal; the journal checked after.

    Settled: keys start once the whole set has been read, the quality scan has
    reported and the terminal has been quiet for a second; the first SCREEN_WARM_UP
    keys are not counted. ``while_busy``: keys start as soon as the first question is
    on the terminal and go on while the status line says the set is being read or
    its quality checked; every one is counted.
    """
    from reviewtui.evalset.io.journal import read_journal

    lock = path.with_name(path.name + ".reviewtui-lock")
    with tempfile.TemporaryDirectory(prefix="reviewtui-screen-") as tmp:
        journal = Path(tmp) / "bench.reviewtui-journal"
        terminal = _Terminal([*REVIEWTUI, str(path), "--journal", str(journal)])
        try:
            terminal.wait_for(b"syn-", timeout=60)  # the first question (every synthetic id starts "syn-")
            terminal.wait_status(timeout=10)  # the rest of the first screen, down to the status line
            if not while_busy:
                deadline = time.perf_counter() + 300
                while any(terminal.background()):
                    if time.perf_counter() > deadline:
                        _fail(f"{path.name}: the set was still loading or the scan running 300 s after launch")
                    terminal.quiet_for(0.05, timeout=300)  # whatever comes, read it; the status line is in it
                terminal.quiet_for(1.0, timeout=60)
            # The top bar counts the decisions by verdict: "✓3 ✗0 ✎0 ↷2" once the fifth (a skip) is on screen.
            samples = _screen_run(terminal, keys, shows=_review_counts, while_busy=while_busy)
            if not while_busy:
                terminal.quiet_for(0.5, timeout=60)
            exit_status = terminal.quit()
        finally:
            terminal.kill()
            lock.unlink(missing_ok=True)  # the app removes it on a clean exit; not after a failure
        if exit_status != 0:
            _fail(f"{path.name}: reviewtui exited with status {exit_status} after the keys")
        if not journal.is_file():
            _fail(f"{path.name}: the keys made no journal at {journal}")
        records = [payload for _, payload in read_journal(journal).records]
    decided = [r.get("v") for r in records if r.get("op") == "decide"]
    expected = [s["verdict"] for s in samples]
    if decided != expected:
        _fail(f"{path.name}: {len(expected)} decisions keyed ({expected[:6]}...) but the journal holds {len(decided)} ({decided[:6]}...)")
    return {"samples": samples if while_busy else samples[SCREEN_WARM_UP:], "keys": len(samples), "journal": len(decided)}


def _screen_bare(keys: int) -> dict[str, Any]:
    """The same keys on a bare Textual app in the same terminal; it writes how many actions ran on exit."""
    with tempfile.TemporaryDirectory(prefix="reviewtui-screen-") as tmp:
        count = Path(tmp) / "count"
        terminal = _Terminal([sys.executable, "-c", BARE_KEYS_APP, str(count)])
        try:
            terminal.wait_for(b"no key yet", timeout=60)
            terminal.quiet_for(1.0, timeout=60)
            samples = _screen_run(terminal, keys, shows=lambda a, s, text: f"{a + s} keys pressed" in text)
            exit_status = terminal.quit()
        finally:
            terminal.kill()
        if exit_status != 0 or not count.is_file():
            _fail(f"bare app: exit status {exit_status}, count file {'written' if count.is_file() else 'missing'}")
        ran = int(count.read_text())
    if ran != len(samples):
        _fail(f"bare app: {len(samples)} keys pressed but {ran} actions ran")
    return {"samples": samples[SCREEN_WARM_UP:], "keys": len(samples), "actions": ran}


def _screen_tables(sets: dict[int, Path], keys: int, launches: int) -> None:
    """Key latency as the terminal sees it: reviewtui settled and while busy, beside the bare app."""
    big = max(n for n in sets if n <= 100_000)
    rows: list[tuple[str, dict[str, Any]]] = []
    bare = [_screen_bare(keys)]  # before and after reviewtui's runs, pooled: a change in the machine's speed hits both
    for n in sorted(sets):
        if n <= 100_000:
            rows.append((f"{n:,}, settled", _screen_review(sets[n], keys, while_busy=False)))
    busy = [_screen_review(sets[big], keys, while_busy=True) for _ in range(launches)]
    bare.append(_screen_bare(keys))
    loading = {
        "samples": [x for run in busy for x in run["samples"]],
        "keys": sum(run["keys"] for run in busy),
        "journal": sum(run["journal"] for run in busy),
    }
    rows.append((f"{big:,}, loading", loading))
    rows.append(("  while reading", {"samples": [x for x in loading["samples"] if x["loading"]]}))
    rows.append(("  scan only", {"samples": [x for x in loading["samples"] if not x["loading"]]}))
    rows.insert(0, ("bare Textual app", {"samples": [x for run in bare for x in run["samples"]]}))
    print(
        f"Decision keys on screen: the installed `reviewtui FILE` (and a bare Textual app) in a "
        f"{TERMINAL_SIZE[0]}x{TERMINAL_SIZE[1]} pseudo-terminal, a and s alternating, ms"
    )
    print(
        f"  complete: from writing the key to the last byte of the screen update that follows "
        f"(ended by {SCREEN_QUIET * 1e3:.0f} ms of silence, not counted);"
    )
    print(f"  frame: to the end of the output run that showed the decision (up to its first {FRAME_PAUSE * 1e3:.0f} ms pause)")
    print()
    print(
        f"{'':>18} {'n':>4} | {'complete':>8} {'p90':>6} {'max':>6} | {'x bare':>6} | {'frame':>6} {'p90':>6} | "
        f"{'bytes':>6} | {'stalled':>7} {'frames+':>7}"
    )
    b_med = statistics.median(x["seconds"] for x in rows[0][1]["samples"])
    for label, run in rows:
        samples = run["samples"]
        if not samples:
            if label.startswith(" "):  # a part of the loading row
                print(f"{label:>18} {0:>4} |")
                continue
            _fail(f"{label}: no key was timed (none while the set loaded or the scan ran?)")
        seconds = [x["seconds"] for x in samples]
        frames = [x["frame"] for x in samples]
        med = statistics.median(seconds)
        size = statistics.median(x["bytes"] for x in samples)
        stalled = sum(1 for x in samples if x["silence"] > SCREEN_QUIET)
        more = sum(1 for x in samples if x["seconds"] > x["frame"])
        print(
            f"{label:>18} {len(seconds):>4} | {_ms(med):>8} {_ms(_p90(seconds)):>6} {_ms(max(seconds)):>6} | "
            f"{med / b_med:>6.2f} | {_ms(statistics.median(frames)):>6} {_ms(_p90(frames)):>6} | {size:>6,.0f} | {stalled:>7} {more:>7}"
        )
    print()
    reading = sum(1 for x in loading["samples"] if x["loading"])
    checking = sum(1 for x in loading["samples"] if x["checking"])
    print(
        f"settled: keys once the status line says the set is read and checked and the terminal has been quiet 1 s; "
        f"the first {SCREEN_WARM_UP} keys not counted"
    )
    print(
        f"loading: {launches} launches; every key from the first question on, while the status line said the set "
        f"was being read ({reading} keys: \"while reading\") or its quality checked ({checking} keys); "
        f"\"scan only\": the set read, the scan still running"
    )
    print(f"stalled: keys whose update paused longer than {SCREEN_QUIET * 1e3:.0f} ms before the decision showed (then read on)")
    print("frames+: keys whose update went on after the frame that showed the decision (in \"complete\", not in \"frame\")")
    print("bytes: median output of a key's update")
    for label, run in rows[1:]:
        if "journal" not in run:
            continue
        print(f"{label:>18}: {run['keys']} keys pressed, the journal holds {run['journal']} decide records, verdicts as keyed")
    print(f"{'bare Textual app':>18}: {sum(r['keys'] for r in bare)} keys pressed, {sum(r['actions'] for r in bare)} actions ran")
    print()
    for label, run in rows:
        if label.startswith(f"{big:,}"):
            seconds = [x["seconds"] for x in run["samples"]]
            med, p90 = statistics.median(seconds), _p90(seconds)
            print(
                f"target ({label}): median <= 2x bare: {med / b_med:.2f}x, {'met' if med <= 2 * b_med else 'NOT met'}; "
                f"p90 <= 50 ms: {_ms(p90)} ms, {'met' if p90 <= 0.05 else 'NOT met'}"
            )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--million", action="store_true", help="also time decision keys and launch on 1M items")
    parser.add_argument("--decisions", type=int, default=200, help="timed decisions per set (default 200)")
    parser.add_argument("--runs", type=int, default=9, help="fresh processes per launch figure (default 9)")
    parser.add_argument("--keys-only", action="store_true", help="time the decision keys, not the launch")
    parser.add_argument("--screen-keys", action="store_true", help="only the decision keys on screen, in a pseudo-terminal")
    parser.add_argument(
        "--screen-launches", type=int, default=3, help="launches for the keys while the set loads (default 3)"
    )
    parser.add_argument(
        "--real", action="store_true", help="only the decision keys on real public sets and on a set of long texts"
    )
    parser.add_argument("--keys-child", nargs=2, metavar=("KIND", "PATH"), help=argparse.SUPPRESS)
    parser.add_argument("--keys-corpus", help=argparse.SUPPRESS)
    parser.add_argument("--keys-frames", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.keys_child:
        _keys_child(*args.keys_child, args.decisions, args.keys_corpus, args.keys_frames)
        return 0
    if args.real:
        with tempfile.TemporaryDirectory(prefix="reviewtui-bench-") as tmp:
            compile_package()  # as `pip install .` does: see bytecode.py
            _real_key_table(Path(tmp), args.decisions)
        return 0
    if args.screen_keys:
        with tempfile.TemporaryDirectory(prefix="reviewtui-bench-") as tmp:
            sets = {n: write_synthetic_jsonl(Path(tmp) / f"set{n}.jsonl", n) for n in (1_000, 100_000)}
            compile_package()  # as `pip install .` does: see bytecode.py
            _screen_tables(sets, args.decisions, args.screen_launches)
        return 0
    with tempfile.TemporaryDirectory(prefix="reviewtui-bench-") as tmp:
        folder = Path(tmp)
        sets = {n: write_synthetic_jsonl(folder / f"set{n}.jsonl", n) for n in (1_000, 10_000, 100_000)}
        if args.million:
            sets[1_000_000] = write_synthetic_jsonl(folder / "set1m.jsonl", 1_000_000)

        # A copy of the 100k set for the team rows: its plan, beside it, would make the plain rows a team's too.
        team_set = write_synthetic_jsonl(folder / "team100k.jsonl", 100_000)
        _team_plan(team_set)

        compile_package()  # as `pip install .` does: see bytecode.py
        _key_tables(sets, [1_000, 100_000, *([1_000_000] if args.million else [])], args.decisions, team_set)
        if args.keys_only:
            return 0

        print()
        print(
            f"Launch of `reviewtui FILE` in a {TERMINAL_SIZE[0]}x{TERMINAL_SIZE[1]} terminal "
            f"(median of {args.runs} fresh processes), seconds"
        )
        launched = [None, *sorted(k for k in sets if 10_000 <= k < 1_000_000)]
        firsts: dict[int | None, list[float]] = {n: [] for n in launched}
        as_member: list[float] = []
        for _ in range(args.runs):  # interleaved, so a change in the machine's speed hits every row alike
            for n in launched:
                firsts[n].append(_first_question(None if n is None else sets[n]))
            as_member.append(_first_question(team_set, team=True))
        if args.million:
            firsts[1_000_000] = [_first_question(sets[1_000_000])]
        bare = statistics.median(firsts.pop(None))
        print(f"{'':>18} {'first question':>15} {'x bare':>7} {'whole set read':>15}")
        print(f"{'bare Textual app':>18} {bare:>15.2f}")
        for n, times in firsts.items():
            first = statistics.median(times)
            whole = _whole_set(sets[n], n, 1 if n >= 1_000_000 else args.runs)
            print(f"{n:>18,} {first:>15.2f} {first / bare:>7.1f} {whole:>15.2f}")
        member = statistics.median(as_member)
        print(f"{f'100k, 1 of {len(TEAM)}':>18} {member:>15.2f} {member / bare:>7.1f}")
        print("goal: first question at 100k <= 1.0 s, alone or as one of a team")

        print()
        _screen_tables({n: sets[n] for n in (1_000, 100_000)}, args.decisions, args.screen_launches)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

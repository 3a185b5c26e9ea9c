"""The slow checks (quality scan, corpus lookup) and how they run away from the keys.

A check is a *stage* function that takes a loaded set and a ``send`` callback and
reports everything as small messages. The app runs a stage either in a child
process (the normal case) or in one of its own threads (sets built in memory,
tests that supply their own scan).

Why a child process: the checks are pure CPU work, some of it in long C calls
that hold the GIL; in a thread of the app they made a key press wait a second on
a 100k-item set. The child (``python -m reviewtui.tui.jobs``, a plain subprocess,
since multiprocessing needs a real ``sys.stderr`` and Textual replaces it) reads
the set from its file itself, so nothing large is pickled across, and sends
results back over its stdout in chunks, so the app never spends long unpickling
while the reviewer is pressing keys. This module imports no Textual: the child
starts faster without it.

The child dies with the app, however the app ends (``kill -9`` included): a scan
of a large set would otherwise run on for many seconds holding gigabytes, and its
own forked worker (see :mod:`reviewtui.evalset.jobs.fork`) with it. On Linux the
kernel kills it; elsewhere it watches the app's process id itself.

Messages, each a tuple: ``("progress", stage, done, total)``, ``("flags", {id: [Flag]})``,
``("cautions", [LogEntry])``, ``("evidence", {id: (AnchorResolution, ...)})``,
``("evidence-flags", {id: [Flag]})``, ``("evidence-summary", text)``,
``("error", stage, text)``, ``("done", stage)``.
"""

from __future__ import annotations

import os
import pickle
import select
import subprocess
import sys
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from reviewtui.evalset.checks.warninglog import LogEntry
from reviewtui.evalset.jobs.cancel import ScanCancelled
from reviewtui.evalset.jobs.fork import ParentWatch, die_with_parent, parent_gone
from reviewtui.evalset.model.flag import Flag
from reviewtui.evalset.model.items import EvalSet

if TYPE_CHECKING:  # a corpus is only loaded with --corpus
    from reviewtui.evalset.evidence.corpus import Corpus

__all__ = ["ChildJob", "JobSource", "Scan", "chunks", "evidence_stage", "quality_scan", "quality_stage"]

CHUNK = 2_000

Send = Callable[..., None]
Cancelled = Callable[[], bool]
Scan = Callable[..., tuple[dict[str, list[Flag]], list[LogEntry]]]


@dataclass(frozen=True)
class JobSource:
    """Where a child process finds the set and, optionally, the corpus."""

    path: str
    format: str | None = None
    corpus: str | None = None
    extensions: tuple[str, ...] = ()


def chunks(mapping: Mapping[str, Any], size: int = CHUNK) -> Iterator[dict[str, Any]]:
    batch: dict[str, Any] = {}
    for key, value in mapping.items():
        batch[key] = value
        if len(batch) >= size:
            yield batch
            batch = {}
    if batch:
        yield batch


def quality_scan(
    evalset: EvalSet, *, progress: Callable[[int, int], None], cancelled: Cancelled
) -> tuple[dict[str, list[Flag]], list[LogEntry]]:
    """The quality layer's per-item flags and set-level cautions, from one scan of the set."""
    from reviewtui.evalset.checks.scan import scan_flags

    scan = scan_flags(evalset, progress=progress, should_stop=cancelled)
    return dict(scan.flags), list(scan.cautions.entries)


def quality_stage(evalset: EvalSet, send: Send, *, cancelled: Cancelled = lambda: False, scan: Scan = quality_scan) -> None:
    flags, cautions = scan(evalset, progress=lambda done, total: send("progress", "quality", done, total), cancelled=cancelled)
    for batch in chunks(flags):
        send("flags", batch)
    send("cautions", cautions)


def evidence_stage(evalset: EvalSet, corpus: Corpus, send: Send, *, cancelled: Cancelled = lambda: False) -> None:
    from reviewtui.evalset.evidence.resolve import AnchorResolver, evidence_flags

    def progress(done: int, total: int) -> None:
        if cancelled():
            raise ScanCancelled("the corpus lookup was stopped")
        send("progress", "evidence", done, total)

    _resolved, report = AnchorResolver().resolve_with_report(evalset, corpus, progress=progress)
    by_item: dict[str, tuple[Any, ...]] = {}
    for resolution in report.resolutions:
        if resolution.item_id is not None:
            by_item[resolution.item_id] = (*by_item.get(resolution.item_id, ()), resolution)
    for batch in chunks(by_item):
        send("evidence", batch)
    for batch in chunks(evidence_flags(report)):
        send("evidence-flags", batch)
    send("evidence-summary", report.summary())


def run_stage(stage: str, evalset: EvalSet, corpus: Corpus | None, send: Send, *, cancelled: Cancelled, scan: Scan = quality_scan) -> None:
    """Run one stage and end with ``done`` or ``error`` (nothing escapes, except a stop request)."""
    try:
        if stage == "quality":
            quality_stage(evalset, send, cancelled=cancelled, scan=scan)
        else:
            assert corpus is not None
            evidence_stage(evalset, corpus, send, cancelled=cancelled)
    except ScanCancelled:
        return
    except Exception as exc:  # reported to the app, which shows it instead of crashing
        send("error", stage, f"{type(exc).__name__}: {exc}")
        return
    send("done", stage)


def _child_main(argv: list[str]) -> int:
    """Entry point of the child (``python -m reviewtui.tui.jobs STAGE PATH [FORMAT] [CORPUS] [EXTS] [APP PID]``).

    Writes each message to stdout as an 8-byte length and a pickle; both ends are
    this module, so the pickles never come from anywhere else.
    """
    stage, path, fmt, corpus_dir, extensions, app_pid = (argv + ["", "", "", "", ""])[:6]
    # First, before the long work of reading the set: the app may be killed at any moment.
    app = int(app_pid) if app_pid else os.getppid()
    watch = None if die_with_parent(app) else ParentWatch(app).start()
    out = sys.stdout.buffer
    # The app owns the terminal: anything else printed here would draw over its screen.
    sys.stdout = sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - lives as long as the child

    def send(*message: Any) -> None:
        frame = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
        out.write(len(frame).to_bytes(8, "big") + frame)
        out.flush()

    try:
        from reviewtui.evalset.evidence.corpus import Corpus
        from reviewtui.evalset.io import open_evalset

        evalset = open_evalset(path, format=fmt or None)
        exts = tuple(e for e in extensions.split(",") if e)
        corpus = (Corpus(corpus_dir, extensions=exts) if exts else Corpus(corpus_dir)) if corpus_dir else None
    except Exception as exc:
        send("error", stage, f"{type(exc).__name__}: {exc}")
        return 1
    finally:
        if watch is not None:
            watch.stop()  # with a thread running, the scan could not fork its second worker
    # From here the stage itself polls whether the app is still there, between chunks of work.
    run_stage(stage, evalset, corpus, send, cancelled=parent_gone(app))
    return 0


class ChildJob:
    """One stage in a child process, read from a worker thread of the app.

    ``run(on_message, cancelled)`` blocks the calling thread until the child is
    done, handing each message to ``on_message``; it stops the child when
    ``cancelled()`` turns True. The child is started and stopped by that same
    thread, which matters on Linux: the kernel kills the child when the thread
    that started it ends (see :func:`~reviewtui.evalset.jobs.fork.die_with_parent`),
    and here that thread only ends once the child has been stopped anyway.
    """

    POLL_SECONDS = 0.05

    def __init__(self, stage: str, source: JobSource) -> None:
        self.stage = stage
        self.source = source
        self.pid: int | None = None  # the child's, while it runs

    def command(self) -> list[str]:
        return [
            sys.executable,
            "-m",
            "reviewtui.tui.jobs",
            self.stage,
            self.source.path,
            self.source.format or "",
            self.source.corpus or "",
            ",".join(self.source.extensions),
            str(os.getpid()),  # the child dies with this process
        ]

    def run(self, on_message: Callable[[tuple[Any, ...]], None], cancelled: Cancelled) -> None:
        process = subprocess.Popen(  # noqa: S603 - our own module, run with our own interpreter
            self.command(), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
        assert process.stdout is not None
        self.pid = process.pid
        reader = _FrameReader(process.stdout.fileno())
        try:
            while not cancelled():
                if not reader.wait(self.POLL_SECONDS):
                    continue
                message = reader.next_message()
                if message is None:  # the child closed its end without saying it was done
                    code = process.wait()
                    on_message(("error", self.stage, f"the {self.stage} check stopped unexpectedly (exit code {code})"))
                    return
                if message == ():
                    continue  # part of a frame; more bytes to come
                on_message(message)
                if message[0] in ("done", "error"):
                    return
        finally:
            process.stdout.close()
            if process.poll() is None:
                process.terminate()
            try:
                process.wait(timeout=2)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()  # reaped, so no zombie is left behind
            self.pid = None


class _FrameReader:
    """Length-prefixed frames from a pipe, read without blocking past a timeout."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buffer = bytearray()
        self.closed = False

    def wait(self, seconds: float) -> bool:
        if self._complete() or self.closed:
            return True
        ready, _, _ = select.select([self.fd], [], [], seconds)
        return bool(ready)

    def _complete(self) -> bool:
        return len(self.buffer) >= 8 and len(self.buffer) >= 8 + int.from_bytes(self.buffer[:8], "big")

    def next_message(self) -> tuple[Any, ...] | None:
        """A whole message; ``()`` if only part of one has arrived; None at the end of the pipe."""
        if not self._complete():
            chunk = os.read(self.fd, 1 << 20)
            if not chunk:
                self.closed = True
                return None
            self.buffer += chunk
            if not self._complete():
                return ()
        size = int.from_bytes(self.buffer[:8], "big")
        frame = bytes(self.buffer[8 : 8 + size])
        del self.buffer[: 8 + size]
        return pickle.loads(frame)  # noqa: S301 - written by _child_main above


if __name__ == "__main__":
    raise SystemExit(_child_main(sys.argv[1:]))

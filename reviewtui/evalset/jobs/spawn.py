"""Run a module in a fresh Python process that answers over a channel and dies with its caller.

The review app keeps its checks out of its own process this way: they are pure CPU
work, some of it in long C calls that hold the GIL, and in a thread of the app they
made a key press wait a second on a large set. A fresh interpreter rather than a
fork, because the app runs threads (a fork could inherit a held lock) and rather
than :mod:`multiprocessing`, whose start-up needs the real standard streams that a
terminal app replaces. The child reads its input from files itself, so nothing large
is pickled across; its results come back over a
:class:`~reviewtui.evalset.jobs.channel.Channel`, the same way the scan's forked
worker answers (:mod:`.fork`).

Parent: ``with SpawnedJob(command) as job: job.receive(should_stop)``.
Child (the module's ``__main__``): ``served = serve(sys.argv[1:])`` first thing.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from reviewtui.evalset.jobs.cancel import ShouldStop
from reviewtui.evalset.jobs.channel import Channel, Sender, WorkerEnded
from reviewtui.evalset.jobs.lifetime import ParentWatch, die_with_parent, parent_gone, quiet_child

__all__ = ["Served", "SpawnedJob", "python_module", "serve"]

_TAIL = 3  # the arguments the parent adds after the module's own: its pid, the spool's and the pipe's descriptors
#: How much lower the child's CPU priority is than its parent's. The app's checks are background work:
#: on a machine with few cores they would otherwise take turns on the CPU with the screen being typed into.
NICENESS = 10


def python_module(module: str, *args: str) -> list[str]:
    """The command that runs ``module`` with ``args`` in this interpreter."""
    return [sys.executable, "-m", module, *args]


class SpawnedJob:
    """A child process running ``command``, tied to this call: leaving the block stops and reaps it.

    The child is started and stopped by the same thread, which matters on Linux: the
    kernel kills the child when the thread that started it ends (see :mod:`.lifetime`),
    and that thread only ends once the child has been stopped anyway.
    """

    STOP_SECONDS = 2.0

    def __init__(self, command: Sequence[str]) -> None:
        self._command = list(command)
        self._channel: Channel | None = None
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    def __enter__(self) -> SpawnedJob:
        channel = self._channel = Channel()
        try:
            self._process = subprocess.Popen(  # our own module, run with our own interpreter
                [*self._command, str(os.getpid()), str(channel.spool), str(channel.child_end)],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                pass_fds=(channel.spool, channel.child_end),
            )
        except BaseException:
            channel.close()
            self._channel = None
            raise
        channel.child_started()
        return self

    def receive(self, should_stop: ShouldStop | None = None) -> Any:
        """The child's next message; raises ScanCancelled on a stop request, WorkerEnded if the child ended."""
        assert self._channel is not None and self._process is not None, "use the job in a with block"
        try:
            return self._channel.receive(should_stop)
        except WorkerEnded:
            code = self._process.wait()
            raise WorkerEnded(f"exit code {code}", signal=-code if code < 0 else None) from None

    def __exit__(self, *exc: object) -> None:
        process, self._process = self._process, None
        if process is not None:
            if process.poll() is None:
                process.terminate()
            try:
                process.wait(timeout=self.STOP_SECONDS)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()  # reaped, so no zombie is left behind
        if self._channel is not None:
            self._channel.close()
            self._channel = None


@dataclass
class Served:
    """What :func:`serve` gives the child: its own arguments, the channel's sending end, and its parent."""

    args: list[str]
    send: Sender
    parent: int
    watch: ParentWatch | None  # a thread watching the parent, where the kernel will not kill this process

    def stop_watching(self) -> None:
        """Stop the watching thread, so this process may fork; long loops poll :meth:`parent_gone` instead."""
        if self.watch is not None:
            self.watch.stop()
            self.watch = None

    def parent_gone(self) -> ShouldStop:
        return parent_gone(self.parent)


def serve(argv: Sequence[str]) -> Served:
    """The child's side: tie this process to the parent and open the channel; call it first thing.

    The parent may already be gone (it can be killed at any moment): then this process exits
    at once. Nothing this process prints reaches the terminal, which belongs to the parent.
    """
    args, tail = list(argv[:-_TAIL]), argv[-_TAIL:]
    parent, spool_fd, pipe_fd = (int(value) for value in tail)
    watch = None if die_with_parent(parent) else ParentWatch(parent).start()
    quiet_child()
    _yield_the_cpu()
    return Served(args, Sender(spool_fd, pipe_fd), parent, watch)


def _yield_the_cpu() -> None:
    """Lower this process's priority by NICENESS (and so that of the worker it may fork), where allowed."""
    try:
        os.nice(NICENESS)
    except (AttributeError, OSError):  # no nice() on this platform, or not permitted: the parent's priority
        pass

"""Run one function in a forked child process, to put a second core to work on part of a scan.

A fork shares the parent's loaded set without pickling it; only the results come
back, over a :class:`~reviewtui.evalset.jobs.channel.Channel` (the same way the review
app's checks process answers, see :mod:`.spawn`).

The child is tied to the call: leaving the ``with`` block for any reason (result
read, error, Ctrl-C, a stop request) kills and reaps it if it is still there. It
also dies with the parent process, however that dies (``kill -9`` included; see
:mod:`.lifetime`). It never writes to the parent's terminal, and a failure comes
back as a :class:`~reviewtui.evalset.jobs.channel.WorkerError`.

Forking is only safe in a process with a single thread (another thread may hold
a lock the child would then wait on forever), so :func:`can_fork` checks that
and callers fall back to doing the work themselves. That is why a fork and not a
standard-library pool: a pool's worker either pickles the whole set (spawn, forkserver)
or forks the same way, with a manager thread besides.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable
from typing import Any

from reviewtui.evalset.jobs.cancel import ShouldStop
from reviewtui.evalset.jobs.channel import Channel, Sender, WorkerEnded, WorkerError
from reviewtui.evalset.jobs.lifetime import ParentWatch, die_with_parent, parent_gone, quiet_child

__all__ = ["ForkedJob", "WorkerError", "can_fork"]

Send = Sender  # called with each result; ``send_bytes`` sends bytes the parent only copies


def _thread_count() -> int:
    try:
        return len(os.listdir("/proc/self/task"))  # counts threads started by C extensions too
    except OSError:
        return threading.active_count()


def can_fork() -> bool:
    """True when this process can fork safely: ``os.fork`` exists and no other thread is running."""
    return hasattr(os, "fork") and threading.active_count() == 1 and _thread_count() == 1


class ForkedJob:
    """``with ForkedJob(work) as job: ...; result = job.receive(should_stop)``.

    ``work(send, parent_gone)`` runs in the child and may ``send`` several picklable
    results (or ``send.send_bytes`` a run of bytes, received as a
    :class:`~reviewtui.evalset.jobs.channel.Spooled` span); ``receive`` returns them one at a time, in order. ``parent_gone()`` is
    for the child's long loops to poll, in place of the caller's stop check.
    """

    def __init__(self, work: Callable[[Send, ShouldStop], None], *, raw_file: bool = False) -> None:
        self._work = work
        self._raw_file = raw_file  # bytes sent as they are go to a temporary file of their own (see channel)
        self._pid = 0
        self._channel: Channel | None = None

    def __enter__(self) -> ForkedJob:
        if not self._pid:
            self.start()
        return self

    def start(self) -> None:
        """Fork the child; raises OSError, with nothing left behind, when no process can be made."""
        parent = os.getpid()
        channel = Channel(raw_file=self._raw_file)
        try:
            pid = os.fork()
        except BaseException:
            channel.close()
            raise
        if pid == 0:  # the child: never returns
            os.close(channel.pipe)
            self._child(parent, Sender(channel.spool, channel.child_end, channel.raw))
        channel.child_started()
        self._pid, self._channel = pid, channel

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _child(self, parent: int, sender: Sender) -> None:
        code = 0
        try:
            # First of all: the parent may die at any moment, and a child that has not asked to die
            # with it by then would run on.
            if not die_with_parent(parent):
                ParentWatch(parent).start()  # this process never forks, so a thread costs it nothing
            if threading.current_thread() is threading.main_thread():
                signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle; it then kills us
                for name in ("SIGTERM", "SIGHUP"):  # whatever the parent made of these is the parent's
                    if hasattr(signal, name):
                        signal.signal(getattr(signal, name), signal.SIG_DFL)
            quiet_child()
            self._work(sender, parent_gone(parent))
        except BaseException as exc:  # everything goes back to the parent, which raises it
            code = 1
            try:
                sender.fail(exc)
            except BaseException:
                pass
        finally:
            os._exit(code)  # no atexit handlers, no flushing of buffers copied from the parent

    def receive(self, should_stop: ShouldStop | None = None) -> Any:
        """The child's next result; polls ``should_stop`` while waiting (raises ScanCancelled)."""
        assert self._channel is not None, "start() the job first"
        try:
            return self._channel.receive(should_stop)
        except WorkerEnded:
            how, killed_by = self._exit_status()
            raise WorkerEnded(f"the scan's worker process ended without an answer ({how})", signal=killed_by) from None

    def ready(self) -> bool:
        """Whether the child's next result (or its end) is there to receive without waiting."""
        assert self._channel is not None, "start() the job first"
        return self._channel.wait(0)

    def _exit_status(self) -> tuple[str, int | None]:
        """How the child ended, in words, and the signal that killed it (None when it exited)."""
        _pid, status = os.waitpid(self._pid, 0)
        self._pid = 0
        if os.WIFSIGNALED(status):
            return f"killed by signal {os.WTERMSIG(status)}", os.WTERMSIG(status)
        return f"exit code {os.waitstatus_to_exitcode(status)}", None

    def close(self) -> None:
        """Kill the child if it is still running, reap it, and close the pipe and spool file."""
        if self._pid:
            try:
                os.kill(self._pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            os.waitpid(self._pid, 0)
            self._pid = 0
        if self._channel is not None:
            self._channel.close()
            self._channel = None

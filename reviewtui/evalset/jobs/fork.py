"""Run one function in a forked child process, to put a second core to work on part of a scan.

A fork shares the parent's loaded set without pickling it; only the results come
back. The child writes each result, pickled, to an unnamed spool file and then a
few bytes on a pipe saying where it is: a result written straight into a pipe
would stall the child as soon as the pipe's small buffer filled, until the
parent, busy with its own half, got round to reading.

The child is tied to the call: leaving the ``with`` block for any reason (result
read, error, Ctrl-C, a stop request) kills and reaps it if it is still there. It
also dies with the parent process, however that dies (``kill -9`` included; see
:func:`die_with_parent`, which the review app's own scan process uses too). It
never writes to the parent's terminal: its stdin, stdout and stderr are /dev/null,
and a failure comes back as a :class:`WorkerError`.

Forking is only safe in a process with a single thread (another thread may hold
a lock the child would then wait on forever), so :func:`can_fork` checks that
and callers fall back to doing the work themselves.
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import struct
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable
from typing import Any

from reviewtui.evalset.jobs.cancel import ShouldStop, check_stop

__all__ = ["ForkedJob", "ParentWatch", "WorkerError", "can_fork", "die_with_parent", "parent_gone"]

Send = Callable[[Any], None]
_POLL_SECONDS = 0.05
_NOTICE = struct.Struct("!?QQ")  # failed?, offset and length of the pickle in the spool file


class WorkerError(RuntimeError):
    """The work given to the child process failed there, or the child died before answering."""


def _thread_count() -> int:
    try:
        return len(os.listdir("/proc/self/task"))  # counts threads started by C extensions too
    except OSError:
        return threading.active_count()


def can_fork() -> bool:
    """True when this process can fork safely: ``os.fork`` exists and no other thread is running."""
    return hasattr(os, "fork") and threading.active_count() == 1 and _thread_count() == 1


def _spool() -> int:
    """A file descriptor for a file with no name, in memory where the system allows."""
    if hasattr(os, "memfd_create"):
        try:
            return os.memfd_create("reviewtui-forkjob", os.MFD_CLOEXEC)
        except OSError:
            pass
    with tempfile.TemporaryFile() as file:
        return os.dup(file.fileno())


_PR_SET_PDEATHSIG = 1


def _kernel_kills_on_parent_death() -> bool:
    """Ask Linux to SIGKILL this process when its parent dies; True if that is now in place.

    The kernel then does it even while this process is deep in a long C call, which no
    check of our own could interrupt. (Strictly, the signal comes when the parent *thread*
    that started this process ends: every caller here starts and ends its child from one
    thread, which waits for the child or kills it before it returns.)
    """
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        prctl = ctypes.CDLL(None, use_errno=True).prctl
        return prctl(_PR_SET_PDEATHSIG, ctypes.c_ulong(signal.SIGKILL), 0, 0, 0) == 0
    except (OSError, AttributeError):  # no C library to load, or one without prctl
        return False


def die_with_parent(parent: int) -> bool:
    """Tie this child process to ``parent``'s life; call it first thing in the child.

    Returns True when the kernel will kill this process once the parent is gone (Linux),
    False when the caller must watch for it itself, with :func:`parent_gone` in its long
    loops and a :class:`ParentWatch` where it cannot poll. If the parent is already gone
    (it died before the request was in place, a race no request can close), this process
    exits at once.
    """
    linked = _kernel_kills_on_parent_death()
    if os.getppid() != parent:
        os._exit(1)
    return linked


def parent_gone(parent: int) -> ShouldStop:
    """A check for long loops: True once ``parent`` has died (this process then has another parent)."""
    getppid = os.getppid
    return lambda: getppid() != parent


class ParentWatch:
    """A thread that ends this process as soon as ``parent`` is gone, for where the kernel cannot do it.

    It polls the parent id: a pipe from the parent would also do, but would need one more
    descriptor passed down. Being a thread, it needs the GIL to act, so a long C call that
    holds it delays the exit until the call returns; and a process with a thread running
    must not fork (see :func:`can_fork`), so a caller that forks later stops it first.
    """

    def __init__(self, parent: int, interval: float = 0.2) -> None:
        self._gone = parent_gone(parent)
        self._interval = interval
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="reviewtui-parent-watch", daemon=True)

    def start(self) -> ParentWatch:
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop the thread and wait until the system no longer counts it (which :func:`can_fork` checks)."""
        self._stopped.set()
        self._thread.join()
        task = f"/proc/self/task/{self._thread.native_id}"
        for _ in range(1000):  # the thread has returned; the system takes a moment more to remove it
            if not os.path.exists(task):
                break
            time.sleep(0.001)

    def _watch(self) -> None:
        while not self._stopped.wait(self._interval):
            if self._gone():
                os._exit(1)  # nobody is left to read what this process would still produce


class ForkedJob:
    """``with ForkedJob(work) as job: ...; result = job.receive(should_stop)``.

    ``work(send, parent_gone)`` runs in the child and may ``send`` several picklable
    results; ``receive`` returns them one at a time, in order. ``parent_gone()`` is
    for the child's long loops to poll, in place of the caller's stop check.
    """

    def __init__(self, work: Callable[[Send, ShouldStop], None]) -> None:
        self._work = work
        self._pid = 0
        self._pipe = -1
        self._spool = -1
        self._notices = bytearray()

    def __enter__(self) -> ForkedJob:
        if not self._pid:
            self.start()
        return self

    def start(self) -> None:
        """Fork the child; raises OSError, with nothing left behind, when no process can be made."""
        parent = os.getpid()
        self._spool = _spool()
        try:
            read_end, write_end = os.pipe()
            try:
                pid = os.fork()
            except BaseException:
                os.close(read_end)
                os.close(write_end)
                raise
        except BaseException:
            self.close()
            raise
        if pid == 0:  # the child: never returns
            os.close(read_end)
            self._child(parent, write_end)
        os.close(write_end)
        self._pid, self._pipe = pid, read_end

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _child(self, parent: int, pipe: int) -> None:
        code = 0
        end = 0

        def post(frame: bytes, failed: bool = False) -> None:
            nonlocal end
            view = memoryview(frame)
            while view:
                view = view[os.pwrite(self._spool, view, end + len(frame) - len(view)) :]
            os.write(pipe, _NOTICE.pack(failed, end, len(frame)))  # a few bytes: never blocks
            end += len(frame)

        try:
            if threading.current_thread() is threading.main_thread():
                signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle; it then kills us
            if not die_with_parent(parent):
                ParentWatch(parent).start()  # this process never forks, so a thread costs it nothing
            quiet = os.open(os.devnull, os.O_RDWR)
            for target in (0, 1, 2):
                os.dup2(quiet, target)
            # Python's own streams may write to other descriptors (a test's capture, the app's pipe).
            sys.stdout = sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - lives as long as the child
            self._work(lambda value: post(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)), parent_gone(parent))
        except BaseException as exc:  # everything goes back to the parent, which raises it
            code = 1
            try:
                post(_error_frame(exc), failed=True)
            except BaseException:
                pass
        finally:
            os._exit(code)  # no atexit handlers, no flushing of buffers copied from the parent

    def receive(self, should_stop: ShouldStop | None = None) -> Any:
        """The child's next result; polls ``should_stop`` while waiting (raises ScanCancelled)."""
        while len(self._notices) < _NOTICE.size:
            check_stop(should_stop)
            ready, _, _ = select.select([self._pipe], [], [], _POLL_SECONDS)
            if ready:
                chunk = os.read(self._pipe, 4096)
                if not chunk:
                    raise WorkerError(f"the worker process ended without an answer ({self._exit_status()})")
                self._notices += chunk
        failed, offset, length = _NOTICE.unpack(self._notices[: _NOTICE.size])
        del self._notices[: _NOTICE.size]
        frame = _read_at(self._spool, offset, length)
        if not failed:
            return pickle.loads(frame)  # noqa: S301 - written by our own child
        text, pickled, trace = pickle.loads(frame)  # noqa: S301
        error = WorkerError(f"the scan's worker process failed: {text}")
        error.add_note(f"in the worker process:\n{trace}")
        raise error from _unpickled(pickled)

    def _exit_status(self) -> str:
        _pid, status = os.waitpid(self._pid, 0)
        self._pid = 0
        if os.WIFSIGNALED(status):
            return f"killed by signal {os.WTERMSIG(status)}"
        return f"exit code {os.waitstatus_to_exitcode(status)}"

    def close(self) -> None:
        """Kill the child if it is still running, reap it, and close the pipe and spool file."""
        if self._pid:
            try:
                os.kill(self._pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            os.waitpid(self._pid, 0)
            self._pid = 0
        for fd in (self._pipe, self._spool):
            if fd >= 0:
                os.close(fd)
        self._pipe = self._spool = -1


def _read_at(fd: int, offset: int, length: int) -> bytes:
    parts = []
    while length:
        part = os.pread(fd, length, offset)
        if not part:
            raise WorkerError("the worker process's answer was cut short")
        parts.append(part)
        offset += len(part)
        length -= len(part)
    return b"".join(parts)


def _error_frame(exc: BaseException) -> bytes:
    """The failure as text and traceback, and the exception itself pickled apart (it may not unpickle)."""
    try:
        pickled: bytes | None = pickle.dumps(exc, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:
        pickled = None
    value = (f"{type(exc).__name__}: {exc}", pickled, "".join(traceback.format_exception(exc)))
    return pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)


def _unpickled(pickled: bytes | None) -> BaseException | None:
    """The child's own exception, to chain to the WorkerError, when it survives the trip."""
    if pickled is None:
        return None
    try:
        exc = pickle.loads(pickled)  # noqa: S301 - written by our own child
    except Exception:
        return None
    return exc if isinstance(exc, BaseException) else None

"""Tying a child process to its parent's life: a scan left running after the app is gone holds gigabytes.

On Linux the kernel does it (:func:`die_with_parent` asks for SIGKILL when the parent
goes), even while the child is deep in a long C call. Elsewhere the child polls
:func:`parent_gone` in its long loops, and a :class:`ParentWatch` thread covers the
stretches where it cannot poll.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time

from reviewtui.evalset.jobs.cancel import ShouldStop

__all__ = ["ParentWatch", "die_with_parent", "parent_gone"]

_PR_SET_PDEATHSIG = 1


def _kernel_kills_on_parent_death() -> bool:
    """Ask Linux to SIGKILL this process when its parent dies; True if that is now in place.

    Strictly, the signal comes when the parent *thread* that started this process ends:
    every caller here starts and ends its child from one thread, which waits for the
    child or kills it before it returns.
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
    must not fork (see :func:`~reviewtui.evalset.jobs.fork.can_fork`), so a caller that
    forks later stops it first.
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
        """Stop the thread and wait until the system no longer counts it (which ``can_fork`` checks)."""
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


def quiet_child() -> None:
    """Point the child's standard streams at /dev/null: the parent's terminal belongs to the parent.

    The descriptors and Python's own streams both: the latter may write elsewhere (a
    test's capture, a pipe the parent reads).
    """
    quiet = os.open(os.devnull, os.O_RDWR)
    for target in (0, 1, 2):
        os.dup2(quiet, target)
    os.close(quiet)
    sys.stdout = sys.stderr = open(os.devnull, "w")  # lives as long as the child

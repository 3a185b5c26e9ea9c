"""Waiting out the threads an earlier test left winding down, before a test that must fork.

A Textual app's thread workers run in the event loop's default executor ("asyncio_0", ...).
When a test's loop closes, the executor is shut down and its idle threads end, but on a busy
machine some are still ending when the next test starts; a fork then is refused (or unsafe),
and the tests that need one were skipped by the dozen in a full run.
"""

from __future__ import annotations

import threading
import time

_WAITED: set[int] = set()  # threads waited for once already: one that did not end is not waited for again


def only_this_thread(timeout: float = 10.0) -> bool:
    """Whether this is the process's only thread, once threads still ending have ended (up to ``timeout`` s)."""
    deadline = time.monotonic() + timeout
    for thread in threading.enumerate():
        # Not only the executor's threads: a test's feeder thread, or the app's opening thread, may also be ending
        # when the next test starts (under load, a CI run skipped 28 tests that fork for one such thread).
        if thread is threading.current_thread() or thread.ident in _WAITED:
            continue
        thread.join(max(0.0, deadline - time.monotonic()))
        if thread.ident is not None:
            _WAITED.add(thread.ident)
    return threading.active_count() == 1

"""tests/threads.py: a test that must fork waits out any thread an earlier test left ending, whatever its name."""

from __future__ import annotations

import threading
import time

from tests.threads import only_this_thread


def test_a_thread_still_ending_is_waited_for_whatever_its_name():
    # A feeder thread of an earlier test, still ending under load, skipped 28 tests that fork in one CI run.
    ending = threading.Thread(target=time.sleep, args=(0.3,), name="feeder", daemon=True)
    ending.start()
    assert only_this_thread()
    assert not ending.is_alive()

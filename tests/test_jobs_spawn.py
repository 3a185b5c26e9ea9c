"""SpawnedJob: a fresh interpreter that answers over the same channel as the scan's fork, and ends with the call."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from reviewtui.evalset.jobs.cancel import ScanCancelled
from reviewtui.evalset.jobs.channel import WorkerEnded
from reviewtui.evalset.jobs.spawn import SpawnedJob

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="passing descriptors to a child is POSIX")

_CHILD = """
import sys, time
from reviewtui.evalset.jobs.spawn import serve
served = serve(sys.argv[1:])
mode = served.args[0]
if mode == "talk":
    for k in range(3):
        served.send({"k": k, "payload": "x" * 300_000, "args": served.args})  # more than a pipe holds
    print("never seen", flush=True)  # the terminal is the parent's
elif mode == "silent":
    sys.exit(3)
elif mode == "sleep":
    time.sleep(60)
elif mode == "nice":
    import os
    served.send(os.getpriority(os.PRIO_PROCESS, 0))
"""


def _job(mode: str) -> SpawnedJob:
    return SpawnedJob([sys.executable, "-c", _CHILD, mode, "second arg"])


def test_a_spawned_child_sends_large_messages_in_order_with_its_own_arguments(capfd):
    with _job("talk") as job:
        got = [job.receive() for _ in range(3)]
    assert [m["k"] for m in got] == [0, 1, 2]
    assert got[0]["args"] == ["talk", "second arg"]  # the parent's own three arguments are not the module's
    assert len(got[2]["payload"]) == 300_000
    assert "never seen" not in capfd.readouterr().out


def test_a_child_that_ends_without_answering_says_how_it_ended():
    with _job("silent") as job, pytest.raises(WorkerEnded, match="exit code 3") as ended:
        job.receive()
    assert ended.value.signal is None  # it exited: no signal killed it


def test_a_stop_request_ends_the_wait_and_leaving_the_block_ends_the_child():
    with _job("sleep") as job:
        pid = job.pid
        assert pid is not None
        with pytest.raises(ScanCancelled):
            job.receive(lambda: True)
    assert job.pid is None
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, 0)  # already reaped: no zombie left behind


def test_the_child_runs_at_a_lower_priority_than_the_app():
    from reviewtui.evalset.jobs.spawn import NICENESS

    ours = os.getpriority(os.PRIO_PROCESS, 0)
    with _job("nice") as job:
        theirs = job.receive()
    assert theirs == min(ours + NICENESS, 19)  # background work gives way to the screen being typed into

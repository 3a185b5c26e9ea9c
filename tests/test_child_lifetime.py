"""Every process the app starts dies with it, however it dies: a scan left running holds gigabytes.

Each test builds a real process tree: a small "app" script that starts the child the
way the app does, then is killed with SIGKILL (no chance to clean up). The child must
then disappear on its own. The waits are liveness checks with a generous ceiling, not
timing assertions; every process is killed at the end whatever happened.
"""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from reviewtui.evalset.jobs.lifetime import parent_gone

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="child processes are tied to the app on POSIX systems")

# The app's side: ChildJob.run in a worker thread (as the app's @work(thread=True) does),
# reporting the child's pid once it has started. With NO_PRCTL the child runs with the
# kernel's help switched off, to exercise the fallback used where prctl does not exist.
_APP = """
import sys, threading, time
from reviewtui.tui.stages import ChildJob, JobSource

NO_PRCTL = '''
import sys
from reviewtui.evalset.jobs import lifetime
lifetime._kernel_kills_on_parent_death = lambda: False
from reviewtui.tui.stages import _child_main
raise SystemExit(_child_main(sys.argv[1:]))
'''

class Job(ChildJob):
    def command(self):
        command = super().command()
        return [sys.executable, "-c", NO_PRCTL, *command[3:]] if sys.argv[2] == "fallback" else command

job = Job("quality", JobSource(sys.argv[1], format="jsonl"))  # named: a pipe's format is never guessed
threading.Thread(target=job.run, args=(lambda message: None, lambda: False), daemon=True).start()
while job.pid is None:
    time.sleep(0.01)
print(job.pid, flush=True)
time.sleep(300)
"""

# A ForkedJob (the scan's second worker) whose parent dies without closing it.
_FORKER = """
import os, sys, time
from reviewtui.evalset.jobs import fork as forkjob, lifetime

if sys.argv[1] == "fallback":
    lifetime._kernel_kills_on_parent_death = lambda: False
job = forkjob.ForkedJob(lambda send, parent_gone: time.sleep(300))
job.start()
print(job._pid, flush=True)
time.sleep(300)
"""


def _running(pid: int) -> bool:
    """Whether ``pid`` still runs (a zombie waiting for init to reap it has stopped running)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except FileNotFoundError:
        return False
    except OSError:  # no /proc on this system
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True


def _stops(pid: int, seconds: float = 15.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not _running(pid):
            return True
        time.sleep(0.05)
    return False


def _kill(pid: int | None) -> None:
    if pid is not None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)


def _writer_once_read(fifo: Path, seconds: float = 60.0) -> int:
    """Open the FIFO for writing as soon as the child has opened it to read the set.

    From then on the child waits for lines that never come, alive and busy reading, and it
    has long since tied itself to the app (the first thing it does).
    """
    deadline = time.monotonic() + seconds
    while True:
        try:
            return os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError as exc:
            if exc.errno != errno.ENXIO or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


@pytest.mark.parametrize("mode", ["kernel", "fallback"])
def test_the_scan_process_dies_with_a_killed_app(tmp_path, mode):
    if mode == "kernel" and not sys.platform.startswith("linux"):
        pytest.skip("the kernel does it on Linux only")
    fifo = tmp_path / "set.jsonl"
    os.mkfifo(fifo)
    app = subprocess.Popen([sys.executable, "-c", _APP, str(fifo), mode], stdout=subprocess.PIPE, text=True, cwd=ROOT)
    child = writer = None
    try:
        assert app.stdout is not None
        child = int(app.stdout.readline())
        writer = _writer_once_read(fifo)
        assert _running(child)
        app.kill()
        app.wait()
        assert _stops(child), "the scan process kept running after the app was killed"
    finally:
        _kill(app.pid)
        app.wait()
        _kill(child)
        if writer is not None:
            os.close(writer)


@pytest.mark.parametrize("mode", ["kernel", "fallback"])
def test_the_scans_forked_worker_dies_with_its_parent(mode):
    if mode == "kernel" and not sys.platform.startswith("linux"):
        pytest.skip("the kernel does it on Linux only")
    parent = subprocess.Popen([sys.executable, "-c", _FORKER, mode], stdout=subprocess.PIPE, text=True, cwd=ROOT)
    child = None
    try:
        assert parent.stdout is not None
        child = int(parent.stdout.readline())
        assert _running(child)
        parent.kill()
        parent.wait()
        assert _stops(child), "the forked worker kept running after its parent was killed"
    finally:
        _kill(parent.pid)
        parent.wait()
        _kill(child)


def _nice(pid: int) -> int:
    """The process's nice value (field 19 of /proc/PID/stat); 0 once it has gone."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return int(stat.read().rsplit(")", 1)[1].split()[16])
    except OSError:
        return 0


def _ignores_sigint(pid: int) -> bool:
    """Whether the process ignores SIGINT (the SigIgn mask in /proc/PID/status)."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("SigIgn:"):
                    return bool(int(line.split()[1], 16) & (1 << (signal.SIGINT - 1)))
    except OSError:
        pass
    return False


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] not in ("Z", "X"):
                found.append(int(entry))
    return found


@pytest.fixture(scope="module")
def busy_set(tmp_path_factory):
    """A set large enough that its scan takes a while (and one that `reviewtui audit` would fork for)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from synth import write_synthetic_jsonl

    return write_synthetic_jsonl(tmp_path_factory.mktemp("busy") / "busy.jsonl", 20_000)


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="finds the scan's process through /proc")
@pytest.mark.parametrize("mode", ["kernel", "fallback"])
def test_the_scan_process_dies_with_a_killed_app_in_the_middle_of_a_scan(busy_set, mode):
    """App -> scan process: killing the app ends it. The app's scan runs on one core, so it forks no worker
    (the forked worker's own lifetime is tested below, with a parent that dies without closing it).

    With the kernel's help the scan process is stopped (SIGSTOP) once it is at work, so that it cannot
    finish first; a stopped process still dies of the SIGKILL the kernel sends. Without it (the
    fallback), the process must run to see that its app has gone, and is killed while it scans.
    """
    if mode == "kernel" and not sys.platform.startswith("linux"):
        pytest.skip("the kernel does it on Linux only")
    app = subprocess.Popen([sys.executable, "-c", _APP, str(busy_set), mode], stdout=subprocess.PIPE, text=True, cwd=ROOT)
    child = None
    try:
        assert app.stdout is not None
        child = int(app.stdout.readline())
        deadline = time.monotonic() + 120
        # At work once it has asked to die with its app: its first step, then it lowers its priority below the
        # app's. Below this process's, not below 0: a test run under `nice` started every process at a lower
        # priority already, and the scan process was stopped before it had asked.
        started_at = _nice(os.getpid())
        while _running(child) and _nice(child) <= started_at and time.monotonic() < deadline:
            time.sleep(0.002)
        assert _running(child), "the scan process ended before the app was killed"
        assert _children(child) == [], "the app's scan forked a worker"
        if mode == "kernel":
            os.kill(child, signal.SIGSTOP)
        app.kill()
        app.wait()
        assert _stops(child), "the scan process kept running after the app was killed"
    finally:
        _kill(app.pid)
        app.wait()
        _kill(child)


def test_a_child_whose_app_died_before_it_started_exits_at_once(tmp_path):
    """The app may be killed before the child has asked to die with it: the child then sees another parent."""
    path = tmp_path / "set.jsonl"
    path.write_text('{"id": "q1", "question": "Which form?"}\n')
    gone_app = os.getpid() + 10**6  # told the app is some other process: as if its own app had died and it was adopted
    # After the stage's own arguments: the app's pid, then the channel's two descriptors, never used here.
    command = [sys.executable, "-m", "reviewtui.tui.stages", "quality", str(path), "", "", "", str(gone_app), "1", "1"]
    done = subprocess.run(command, capture_output=True, cwd=ROOT, timeout=60, check=False)
    assert done.returncode == 1 and done.stdout == b""  # gone before sending anything


def test_parent_gone_tells_the_real_parent_from_another_process():
    assert parent_gone(os.getppid())() is False
    assert parent_gone(os.getpid())() is True

"""The console script ends without freeing what a command kept, and only when nothing can be cut short.

Freeing a large set object by object took a fifth of a second or more after a command's
work was done (see ``reviewtui.cli.exits.keep_until_exit``). These tests check the rule,
not the time saved (that is in benchmarks/bench_review.py).
"""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import threading
import weakref

import pytest

import reviewtui as cg
from reviewtui.cli import exits


@pytest.fixture
def fresh_exits(monkeypatch):
    """Each test starts as a process does: nothing held until hold_until_exit is called."""
    monkeypatch.setattr(exits, "_held", None)


class _Big:
    """Something a command might keep (a weak reference shows whether it was freed)."""


def test_in_process_callers_get_everything_freed_as_usual(fresh_exits):
    thing = _Big()
    gone = weakref.ref(thing)
    exits.keep_until_exit(thing)
    del thing
    gc.collect()
    assert gone() is None  # main() called by a test or a notebook keeps nothing alive


def test_the_console_script_keeps_what_a_command_hands_over(fresh_exits):
    exits.hold_until_exit()
    thing = _Big()
    gone = weakref.ref(thing)
    exits.keep_until_exit(thing)
    del thing
    gc.collect()
    assert gone() is not None


def _leave(monkeypatch, code: int) -> str:
    """How leave(code) ends the process: "hard" (os._exit) or "ordinary" (sys.exit), with the code checked."""

    def hard(value: int) -> None:
        assert value == code
        raise SystemExit("hard")

    monkeypatch.setattr(os, "_exit", hard)
    with pytest.raises(SystemExit) as ended:
        exits.leave(code)
    return "hard" if ended.value.code == "hard" else f"ordinary {ended.value.code}"


def test_leave_skips_the_freeing_only_for_the_console_script(fresh_exits, monkeypatch):
    assert _leave(monkeypatch, 0) == "ordinary 0"
    exits.hold_until_exit()
    assert _leave(monkeypatch, 2) == "hard"


def test_leave_waits_for_a_thread_that_is_still_working(fresh_exits, monkeypatch):
    # A thread left running (a journal still being written, say) must be allowed to finish:
    # the ordinary exit waits for it, os._exit would cut it off mid-write.
    exits.hold_until_exit()
    release = threading.Event()
    worker = threading.Thread(target=release.wait, daemon=True)
    worker.start()
    try:
        assert _leave(monkeypatch, 1) == "ordinary 1"
    finally:
        release.set()
        worker.join()
    assert _leave(monkeypatch, 1) == "hard"


def _command(*argv: str, cwd) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "REVIEWTUI_CONFIG": os.devnull}
    return subprocess.run(
        [sys.executable, "-m", "reviewtui", *argv], capture_output=True, text=True, env=env, cwd=cwd, timeout=120
    )


def test_the_command_says_everything_before_it_ends(tmp_path):
    # Through a pipe, stdout is block-buffered: output left in the buffer would be lost by os._exit.
    items = tuple(
        cg.EvalItem(id=f"q{n}", question=f"Which river flows through town number {n}?", answer="The Thames")
        for n in range(400)
    )
    path = tmp_path / "set.jsonl"
    cg.write_jsonl(cg.EvalSet(id="leave", items=items), path)
    done = _command("audit", str(path), "--format", "json", cwd=tmp_path)
    in_process = subprocess.run(
        [sys.executable, "-c", "import sys; from reviewtui.cli import main; sys.exit(main(sys.argv[1:]))",
         "audit", str(path), "--format", "json"],
        capture_output=True, text=True, env={**os.environ, "REVIEWTUI_CONFIG": os.devnull}, cwd=tmp_path, timeout=120,
    )
    assert len(done.stdout) > 65536  # more than a pipe's buffer: the flush matters
    assert (done.returncode, done.stdout) == (in_process.returncode, in_process.stdout)
    status = _command("status", str(path), cwd=tmp_path)
    assert status.returncode == 0 and "400 questions, 400 in review" in status.stdout and "not started" in status.stdout
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"id": "q1", "question": "Why?"}\n{"id": \n')
    refused = _command("status", str(broken), cwd=tmp_path)
    assert refused.returncode == 2 and refused.stderr.startswith(f"{broken}:2: ")

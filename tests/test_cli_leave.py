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

import orjson
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


def _leave(monkeypatch, code: int, *, threads: int = 1) -> str:
    """How leave(code) ends the process: "hard" (os._exit) or "ordinary" (sys.exit), with the code checked.

    ``threads`` is what threading.active_count() says, so that a thread another test left
    behind in this process cannot change the answer.
    """

    def hard(value: int) -> None:
        assert value == code
        raise SystemExit("hard")

    monkeypatch.setattr(os, "_exit", hard)
    monkeypatch.setattr(threading, "active_count", lambda: threads)
    with pytest.raises(SystemExit) as ended:
        exits.leave(code)
    return "hard" if ended.value.code == "hard" else f"ordinary {ended.value.code}"


def test_leave_skips_the_freeing_only_for_the_console_script(fresh_exits, monkeypatch):
    assert _leave(monkeypatch, 0) == "ordinary 0"
    exits.hold_until_exit()
    assert _leave(monkeypatch, 2) == "hard"


def test_leave_takes_the_ordinary_exit_while_another_thread_runs(fresh_exits, monkeypatch):
    # A thread the command left running could be in the middle of something: no cutting it off.
    exits.hold_until_exit()
    assert _leave(monkeypatch, 1, threads=2) == "ordinary 1"
    assert _leave(monkeypatch, 1, threads=1) == "hard"


def test_leave_takes_the_ordinary_exit_under_a_profiler_or_a_coverage_tracer(fresh_exits, monkeypatch):
    # Both write their results as the interpreter exits (python -m cProfile -m reviewtui ...).
    exits.hold_until_exit()
    monkeypatch.setattr(sys, "getprofile", lambda: object())
    assert _leave(monkeypatch, 0) == "ordinary 0"
    monkeypatch.setattr(sys, "getprofile", lambda: None)
    monkeypatch.setattr(sys, "gettrace", lambda: object())
    assert _leave(monkeypatch, 0) == "ordinary 0"


#: Run as the console script does, with an exit handler that says whether the ordinary exit ran.
_AS_INSTALLED = (
    "import atexit, sys; atexit.register(lambda: sys.stderr.write('ordinary exit\\n')); "
    "from reviewtui.cli import entry; sys.argv[0] = 'reviewtui'; entry()"
)


def _command(*argv: str, cwd) -> subprocess.CompletedProcess[str]:
    # Without PYTHONUNBUFFERED (set on some machines): through a pipe, stdout is then block-buffered,
    # and output left in its buffer would be lost by os._exit.
    env = {key: value for key, value in os.environ.items() if key != "PYTHONUNBUFFERED"}
    env["REVIEWTUI_CONFIG"] = os.devnull
    return subprocess.run(
        [sys.executable, "-c", _AS_INSTALLED, *argv], capture_output=True, text=True, env=env, cwd=cwd, timeout=120
    )


def test_the_console_script_says_everything_before_it_ends(tmp_path):
    items = tuple(
        cg.EvalItem(id=f"q{n}", question=f"Which river flows through town number {n}?", answer="The Thames")
        for n in range(400)
    )
    path = tmp_path / "set.jsonl"
    cg.write_jsonl(cg.EvalSet(id="leave", items=items), path)
    status = _command("status", str(path), cwd=tmp_path)
    # Ended without the ordinary exit (no exit handler ran), and every line it printed arrived.
    assert (status.returncode, status.stderr) == (0, "")
    assert status.stdout.startswith("set.jsonl: set 'leave' v1, 400 questions, 400 in review\n")
    assert status.stdout.endswith("set.jsonl.reviewtui-journal\n") and "not started" in status.stdout
    report = _command("audit", str(path), "--format", "json", cwd=tmp_path)
    assert report.stderr == "" and report.returncode in (0, 1)
    assert len(orjson.loads(report.stdout)["flags"]) == 400  # every item, to the end of the report
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"id": "q1", "question": "Why?"}\n{"id": \n')
    refused = _command("status", str(broken), cwd=tmp_path)
    assert refused.returncode == 2 and refused.stderr.startswith(f"{broken}:2: ") and refused.stdout == ""


def test_a_reader_that_goes_away_early_gets_no_error_message(tmp_path):
    # `reviewtui status FILE | head -1` or `| true`: the output left unread is not an error. Python's own
    # exit used to print "Exception ignored ... BrokenPipeError" and end with 120.
    path = tmp_path / "set.jsonl"
    cg.write_jsonl(cg.EvalSet(id="pipe", items=(cg.EvalItem(id="q1", question="Which river?", answer="Thames"),)), path)
    env = {key: value for key, value in os.environ.items() if key != "PYTHONUNBUFFERED"}
    env["REVIEWTUI_CONFIG"] = os.devnull
    read_end, write_end = os.pipe()
    os.close(read_end)  # gone before the command writes a byte
    try:
        ended = subprocess.run(
            [sys.executable, "-c", _AS_INSTALLED, "status", str(path)],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            cwd=tmp_path,
            timeout=120,
        )
    finally:
        os.close(write_end)
    assert ended.returncode == 0
    assert "BrokenPipe" not in ended.stderr and "Exception ignored" not in ended.stderr


def _to(device: str, *argv: str, stream: str = "stdout", cwd) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key != "PYTHONUNBUFFERED"}
    env["REVIEWTUI_CONFIG"] = os.devnull
    with open(device, "w") as sink:
        streams = {"stdout": sink, "stderr": subprocess.PIPE} if stream == "stdout" else {"stdout": subprocess.PIPE, "stderr": sink}
        return subprocess.run(
            [sys.executable, "-c", _AS_INSTALLED, *argv], text=True, env=env, cwd=cwd, timeout=120, **streams
        )


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full on this system")
@pytest.mark.parametrize("argv", [("--help",), ("audit", "--help"), ("--version",)])
def test_help_that_cannot_be_written_is_an_error_not_a_success(tmp_path, argv):
    # argparse drops a failed write of its help without a word: `reviewtui --help > /dev/full` wrote
    # nothing and exited 0, so a script that saves the help believed it had.
    full = _to("/dev/full", *argv, cwd=tmp_path)
    assert full.returncode == 2
    # (then the ordinary exit: argparse leaves by SystemExit after its help, whatever became of it)
    assert full.stderr == "standard output: cannot write: No space left on device\nordinary exit\n"
    fine = _to(os.devnull, *argv, cwd=tmp_path)
    assert (fine.returncode, fine.stderr) == (0, "ordinary exit\n")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full on this system")
def test_an_error_that_standard_error_cannot_take_keeps_its_exit_code(tmp_path):
    # With nowhere to say it (2>/dev/full), the exit code is all that still tells: it was 1, from the
    # traceback of the failed message, where the error is a usage one.
    missing = _to("/dev/full", "status", str(tmp_path / "absent.jsonl"), stream="stderr", cwd=tmp_path)
    assert (missing.returncode, missing.stdout) == (2, "")
    unknown = _to("/dev/full", "--no-such-option", stream="stderr", cwd=tmp_path)
    assert (unknown.returncode, unknown.stdout) == (2, "")

"""A review ended by SIGTERM (`kill`, `timeout`, a shutdown) or SIGHUP (its terminal closed) ends as a quit does.

Left to the signals' default action, the process died where it stood: the terminal stayed in the app's
screen, with the mouse reporting on and the cursor hidden, the lock file was left behind and the journal
got no record of the question on screen.
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import orjson
import pytest

import reviewtui
import reviewtui as cg
from reviewtui.evalset.io import write_jsonl


def _set(tmp_path: Path) -> Path:
    items = [cg.EvalItem(id=f"q{i}", question=f"What is the capital number {i} of the land?", answer=f"City {i}") for i in range(1, 6)]
    return write_jsonl(cg.EvalSet(id="signals", items=items), tmp_path / "quiz.jsonl")


def _read(fd: int, seconds: float) -> bytes:
    got = b""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if select.select([fd], [], [], 0.1)[0]:
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # the child is gone and the terminal closed
                break
            if not chunk:
                break
            got += chunk
    return got


@pytest.mark.parametrize("signum", ["SIGTERM", "SIGHUP"])
def test_a_review_stopped_by_a_signal_closes_its_session_and_gives_the_terminal_back(tmp_path, signum):
    path = _set(tmp_path)
    main_end, terminal = os.openpty()
    env = {
        **os.environ,
        "TERM": "xterm-256color",
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "REVIEWTUI_REVIEWER": "ana",
        "PYTHONPATH": str(Path(reviewtui.__file__).resolve().parents[1]),  # this checkout's code
    }
    app = subprocess.Popen(
        [sys.executable, "-m", "reviewtui.cli", str(path)],
        stdin=terminal, stdout=terminal, stderr=terminal, env=env, cwd=tmp_path, start_new_session=True,
    )
    os.close(terminal)
    journal = Path(f"{path}.reviewtui-journal")
    lock = Path(f"{path}.reviewtui-lock")
    seen = b""
    try:
        deadline = time.monotonic() + 60
        while b"capital number 1" not in seen and time.monotonic() < deadline and app.poll() is None:
            seen += _read(main_end, 0.2)
        assert b"capital number 1" in seen, seen[-2000:]
        os.write(main_end, b"a")
        deadline = time.monotonic() + 30
        while b'"decide"' not in (journal.read_bytes() if journal.exists() else b"") and time.monotonic() < deadline:
            seen += _read(main_end, 0.2)
        seen += _read(main_end, 1.0)  # the next question drawn
        assert lock.exists()
        app.send_signal(getattr(signal, signum))
        deadline = time.monotonic() + 30
        while app.poll() is None and time.monotonic() < deadline:
            seen += _read(main_end, 0.2)
        seen += _read(main_end, 0.5)
        code = app.wait(timeout=30)
    finally:
        if app.poll() is None:
            app.kill()
        app.wait()
        os.close(main_end)
    assert code == 128 + getattr(signal, signum), seen[-2000:]
    assert b"Traceback" not in seen
    # the terminal as it was: out of the app's screen, the mouse no longer reported
    assert seen.rfind(b"\x1b[?1049l") > seen.rfind(b"\x1b[?1049h"), seen[-500:]
    assert seen.rfind(b"\x1b[?1000l") > seen.rfind(b"\x1b[?1000h"), seen[-500:]
    assert not lock.exists()  # the session was closed, its lock given back
    records = [orjson.loads(line)["r"] for line in journal.read_bytes().splitlines()]
    assert [r["id"] for r in records if r["op"] == "decide"] == ["q1"]
    assert records[-1] == {"n": records[-1]["n"], "op": "move", "id": "q2"}  # the question on screen, for the resume


class _WouldHaveDied(BaseException):
    """Stands in for the default action of SIGTERM, which would end the test's own process."""


def test_a_signal_while_a_review_opens_ends_it_as_ctrl_c_does(tmp_path, monkeypatch):
    """A resumed review is read and replayed before the app starts (seconds for a large one, a progress bar on the
    terminal): SIGTERM or SIGHUP then kept their default action, and ended the process with the cursor the progress
    bar hid still hidden in the shell and the set's lock left behind."""
    from reviewtui.cli import main, output
    from reviewtui.cli import review as review_cli
    from reviewtui.evalset.review import session as session_mod

    path = _set(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("REVIEWTUI_REVIEWER", "ana")
    monkeypatch.setattr(output, "refuse_a_terminal_without_the_app", lambda: None)
    monkeypatch.setattr(review_cli, "_opening", lambda *_: None)
    real_resume = session_mod._resume

    def stopped_while_replaying(*args, **kwargs):
        os.kill(os.getpid(), signal.SIGTERM)
        for _ in range(100):  # the handler runs between two bytecodes of this loop
            time.sleep(0.01)
        return real_resume(*args, **kwargs)

    monkeypatch.setattr(session_mod, "_resume", stopped_while_replaying)

    def would_have_died(signum, frame):
        raise _WouldHaveDied

    before = signal.signal(signal.SIGTERM, would_have_died)
    try:
        code = main([str(path)])
    finally:
        signal.signal(signal.SIGTERM, before)
    assert code == 128 + signal.SIGTERM
    assert not Path(f"{path}.reviewtui-lock").exists()  # the lock given back on the way out

"""A team's plan that is not a plain file: never read or written as one (a pipe held every command for good)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import reviewtui as cg
from reviewtui.cli import main
from reviewtui.evalset.io import write_jsonl

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes on this system")

ROOT = Path(__file__).resolve().parents[1]


def _set(tmp_path: Path) -> Path:
    items = tuple(cg.EvalItem(id=f"q{k}", question=f"Which tool has the number {k} on its tag?") for k in range(6))
    path = write_jsonl(cg.EvalSet(id="s", items=items), tmp_path / "s.jsonl")
    (tmp_path / "s.jsonl.reviews").mkdir()
    return path


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "reviewtui", *args], capture_output=True, text=True, env=env, timeout=60)


@pytest.mark.parametrize("argv", [["status"], ["agreement"], ["assign", "--reviewers", "ana,bo"], ["export", "-o", "out.jsonl"]])
def test_a_plan_that_is_a_named_pipe_is_refused_not_waited_on(tmp_path, argv):
    path = _set(tmp_path)
    os.mkfifo(path.parent / "s.jsonl.reviews" / "plan.json")  # no writer: opening it to read waited for good
    command, *rest = argv
    done = _run(command, str(path), *[str(tmp_path / a) if a.endswith(".jsonl") else a for a in rest])
    assert done.returncode == 2, done.stderr
    assert "plan.json" in done.stderr and "named pipe" in done.stderr
    assert "Traceback" not in done.stderr


def test_assign_force_never_writes_the_plan_into_a_pipe(tmp_path):
    path = _set(tmp_path)
    os.mkfifo(path.parent / "s.jsonl.reviews" / "plan.json")  # writing into it waited for a reader for good
    done = _run("assign", str(path), "--reviewers", "ana,bo", "--force")
    assert done.returncode == 2, done.stderr
    assert "named pipe" in done.stderr and "Traceback" not in done.stderr


def test_a_plan_linked_to_a_device_is_neither_read_nor_written(tmp_path, capsys):
    path = _set(tmp_path)
    plan = path.parent / "s.jsonl.reviews" / "plan.json"
    plan.symlink_to(os.devnull)
    # "wrote .../plan.json: 6 items, 2 reviewers" was said, and the plan went to /dev/null
    assert main(["assign", str(path), "--reviewers", "ana,bo", "--force"]) == 2
    err = capsys.readouterr().err
    assert "plan.json" in err and "symbolic link" in err
    assert main(["status", str(path)]) == 2  # read through the link: /dev/zero was read until memory ran out
    assert "plan.json: the team's plan is a symbolic link" in capsys.readouterr().err

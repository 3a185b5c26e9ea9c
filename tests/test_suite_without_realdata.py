"""Without the real public sets, the suite says so in one line instead of a skip line per test."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_one_line_counts_the_tests_left_out(tmp_path):
    env = {**os.environ, "REVIEWTUI_REALDATA": str(tmp_path / "absent")}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--basetemp={tmp_path / 'bt'}", "tests/test_corpus_jsonl.py"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = [line for line in done.stdout.splitlines() if "real public sets were not run" in line]
    assert len(lines) == 1 and str(tmp_path / "absent") in lines[0]
    assert "SKIPPED" not in done.stdout

"""What the command line prints for an import that had to change something: one plain line, no code."""

from __future__ import annotations

import subprocess
import sys


def test_import_warnings_print_as_one_line(tmp_path):
    path = tmp_path / "noids.csv"
    path.write_text("question,answer\nWhat is a reef?,A ridge of rock\nWho built it?,Robert Stevenson\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "reviewtui.cli", "info", str(path)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == [
        "reviewtui: warning: noids.csv: no id column, so rows were numbered q1, q2, ... in file order (2 rows)"
    ]
    assert "noids v1" in done.stdout

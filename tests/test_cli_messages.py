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


def test_nan_in_meta_is_said_before_a_conversion_writes_it_as_null(tmp_path):
    path = tmp_path / "scores.jsonl"
    path.write_text('{"id": "q1", "question": "What is a reef?", "meta": {"score": NaN}}\n', encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "reviewtui.cli", "convert", str(path), str(tmp_path / "out.jsonl")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == [
        "reviewtui: warning: scores.jsonl: NaN or infinite numbers in the meta of 1 item ('q1' on line 1): JSON has no "
        "form for them, so a file written from this set (convert, export, filter) holds null in their place"
    ]
    assert '"meta":{"score":null}' in (tmp_path / "out.jsonl").read_text(encoding="utf-8")


def test_a_utf16_file_is_one_line_saying_so_and_exit_2(tmp_path):
    path = tmp_path / "wide.jsonl"
    path.write_bytes('{"id": "q1", "question": "What is a reef?"}\n'.encode("utf-16"))
    done = subprocess.run(
        [sys.executable, "-m", "reviewtui.cli", "info", str(path)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"{path}:1: the file is UTF-16 (it begins with a byte-order mark), not UTF-8; save it as UTF-8 and try again"
    ]

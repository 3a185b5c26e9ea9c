"""`reviewtui info` says how many questions have an expected answer, as its description promises."""

from __future__ import annotations

import json

from reviewtui.cli import main


def test_info_counts_the_expected_answers(tmp_path, capsys):
    rows = [
        {"id": "a", "question": "When does the tool library open on weekdays?", "answer": "At nine"},
        {"id": "b", "question": "Who runs the repair cafe on Saturdays?", "answer": "The volunteers"},
        {"id": "c", "question": "Where is the seed swap held each spring?"},
    ]
    path = tmp_path / "set.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    assert main(["info", str(path)]) == 0
    assert "expected answers: 2 of 3 questions" in capsys.readouterr().out.splitlines()

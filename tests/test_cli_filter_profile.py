"""`reviewtui filter` removes by default only what the review profile weighs medium or more."""

from __future__ import annotations

import json

from reviewtui.cli import main
from reviewtui.evalset.io import read_jsonl


def _write(path):
    rows = [
        {"id": "keep", "question": "How many days may a member keep a borrowed tile saw?", "answer": "Seven days"},
        {"id": "dangling", "question": "What does it cost to replace a lost library badge?", "answer": "Five pounds"},
        {"id": "variant", "question": "How many days may a member keep a borrowed tile saw?!", "answer": "Seven days"},
        {"id": "reworded", "question": "How many days may a member keep a borrowed power saw?", "answer": "Five days"},
        {"id": "short", "question": "Saw rules?", "answer": "Many"},
    ]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


def test_the_review_profile_keeps_what_is_rarely_wrong_and_says_so(tmp_path, capsys):
    path = _write(tmp_path / "set.jsonl")
    assert main(["filter", str(path), "-o", str(tmp_path / "review.jsonl")]) == 0
    out = capsys.readouterr().out
    kept = [item.id for item in read_jsonl(tmp_path / "review.jsonl")]
    # the identical wording and the two-word question go; the pronoun and the one-word variant stay
    assert kept == ["keep", "dangling", "reworded"]
    assert "not used (review profile" in out and "dangling-reference" in out

    assert main(["filter", str(path), "-o", str(tmp_path / "gsa.jsonl"), "--profile", "goldensetauditor"]) == 0
    gsa = [item.id for item in read_jsonl(tmp_path / "gsa.jsonl")]
    assert "dangling" not in gsa and "reworded" not in gsa and "keep" in gsa


def test_the_filtered_set_records_the_filtering_in_its_header(tmp_path, capsys):
    """The next version carried only the header of the review before, and read as that review's export."""
    path = _write(tmp_path / "set.jsonl")
    assert main(["filter", str(path), "-o", str(tmp_path / "once.jsonl")]) == 0
    once = read_jsonl(tmp_path / "once.jsonl")
    record = dict(once.meta["filter"])
    assert record["from_version"] == 1 and record["from_file"] == "set.jsonl" and record["profile"] == "review"
    assert record["kept"] == len(once) == 3 and sum(record["removed"].values()) == 2 and len(record["from_sha256"]) == 64
    assert main(["filter", str(tmp_path / "once.jsonl"), "-o", str(tmp_path / "twice.jsonl"), "--profile", "goldensetauditor"]) == 0
    twice = dict(read_jsonl(tmp_path / "twice.jsonl").meta["filter"])
    assert twice["from_file"] == "once.jsonl" and twice["profile"] == "goldensetauditor"
    assert twice["previous"]["from_file"] == "set.jsonl"  # the earlier filtering, kept


def test_a_csv_version_is_counted_from_its_name(tmp_path, capsys):
    """A CSV file keeps no version: quiz.v2.csv read back as version 1 and filtered to quiz.v2.filtered.csv, a
    second version 2. The name is where its version is kept, as the export names it."""
    rows = [("q1", "How many days may a member keep a borrowed tile saw?", "Seven days"), ("q2", "Saw rules?", "Many")]
    path = tmp_path / "quiz.v2.csv"
    path.write_text("id,question,answer\n" + "".join(f'{i},"{q}",{a}\n' for i, q, a in rows))
    assert main(["filter", str(path)]) == 0
    assert "wrote version 3 (1 item) to " in capsys.readouterr().out and (tmp_path / "quiz.v3.csv").is_file()
    assert not (tmp_path / "quiz.v2.filtered.csv").exists()
    assert main(["filter", str(path), "-o", str(tmp_path / "out.jsonl")]) == 0
    written = read_jsonl(tmp_path / "out.jsonl")
    assert written.version == 3 and written.meta["filter"]["from_version"] == 2

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


def test_a_long_list_of_removed_questions_names_the_first_of_each_filter_and_counts_the_rest(tmp_path, capsys):
    """A large set's thousands of removed ids scrolled the summary and the output's name out of sight."""
    from reviewtui.cli.filter import NAMED

    question = "How many days may a member keep a borrowed tile saw from the hall?"
    rows = [{"id": "first", "question": question, "answer": "Seven days"}]
    rows += [{"id": f"copy-{n:03d}", "question": question, "answer": "Seven days"} for n in range(NAMED + 5)]
    rows += [{"id": f"short-{n}", "question": f"Saw rule {n}?", "answer": "Many"} for n in range(2)]
    path = tmp_path / "set.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    assert main(["filter", str(path), "-o", str(tmp_path / "out.jsonl")]) == 0
    lines = capsys.readouterr().out.splitlines()
    copies = [line for line in lines if line.startswith("  copy-")]
    assert len(copies) == NAMED and copies[0].startswith("  copy-000:")  # the first ones, in the set's order
    assert "  and 5 more (--list-all names every one)" in lines
    assert sum(line.startswith("  short-") for line in lines) == 2  # a short group is named whole, nothing counted
    assert len([line for line in lines if line.startswith("  and ")]) == 1
    assert any(line.startswith(f"kept 1 of {len(rows)} questions") for line in lines)  # the counts are of every one
    assert [item.id for item in read_jsonl(tmp_path / "out.jsonl")] == ["first"]  # the cap is on what is said only

    assert main(["filter", str(path), "-o", str(tmp_path / "all.jsonl"), "--list-all"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert sum(line.startswith("  copy-") for line in lines) == NAMED + 5
    assert not any(line.startswith("  and ") for line in lines)


def test_a_filter_that_removes_every_question_writes_nothing_and_exits_2(tmp_path, capsys):
    # Written, the empty next version was refused by audit, status and the app ("no questions in this file"),
    # after an exit 0 and a caution that "only 0 questions" were left.
    path = tmp_path / "short.jsonl"
    rows = [{"id": "a", "question": "Why?", "answer": "x"}, {"id": "b", "question": "How so?", "answer": "y"}]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    assert main(["filter", str(path)]) == 2
    captured = capsys.readouterr()
    assert "kept 0 of 2 questions; removed: too-short 2" in captured.out  # what was removed is still said
    assert "only 0" not in captured.out + captured.err
    assert captured.err == (
        f"{path}: the filters removed every one of its 2 questions, so nothing was written: "
        "a set without questions is one no command opens\n"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["short.jsonl"]  # no next version, no claimed name
    assert main(["filter", str(path), "-o", str(tmp_path / "kept.jsonl")]) == 2
    assert not (tmp_path / "kept.jsonl").exists()
    # One question left is a set: written, as before.
    rows.append({"id": "c", "question": "How many days may a member keep a borrowed tile saw?", "answer": "Seven"})
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    assert main(["filter", str(path)]) == 0
    assert [item.id for item in read_jsonl(tmp_path / "short.v2.jsonl")] == ["c"]


def test_a_filter_that_removes_every_question_says_nothing_of_a_csv_it_does_not_write(tmp_path, capsys):
    # With -o kept.csv, a note on what "a CSV file" of the filtered set would not keep (its id, version 2, its meta)
    # came before the refusal: it spoke of a file that is never written.
    path = tmp_path / "short.jsonl"
    rows = [{"id": "a", "question": "Why?", "answer": "x"}, {"id": "b", "question": "How so?", "answer": "y"}]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    assert main(["filter", str(path), "-o", str(tmp_path / "kept.csv")]) == 2
    captured = capsys.readouterr()
    assert "CSV" not in captured.out + captured.err, captured
    assert "nothing was written" in captured.err
    assert not (tmp_path / "kept.csv").exists()


def test_the_csv_note_names_the_version_the_file_is_written_as(tmp_path, capsys):
    """Filtered twice without -o, quiz.csv went to quiz.v3.csv (v2 was taken), but the note of what the CSV leaves
    out said its id reads back as 'quiz.v2': the name guessed before the next free version was taken."""
    rows = [("q1", "How many days may a member keep a borrowed tile saw?", "Seven days"), ("q2", "Saw rules?", "Many")]
    path = tmp_path / "quiz.csv"
    path.write_text("id,question,answer\n" + "".join(f'{i},"{q}",{a}\n' for i, q, a in rows))
    assert main(["filter", str(path)]) == 0
    capsys.readouterr()
    assert main(["filter", str(path)]) == 0
    said = capsys.readouterr()
    assert (tmp_path / "quiz.v3.csv").is_file() and "wrote version 3 (1 item) to " in said.out
    assert "read back as 'quiz.v3'" in said.err and "'quiz.v2'" not in said.err

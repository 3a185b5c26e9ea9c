"""Every command that reads a set says what reading it left out, as info and convert do: an empty question in
a SQuAD file was dropped by audit, filter, status and export without a word."""

from __future__ import annotations

import json

import pytest

from reviewtui.cli import main

NOTE = "note: 1 question skipped: 1 empty question."


@pytest.fixture
def squad(tmp_path):
    context = "The tool library opens at nine every weekday morning and closes at six."
    qas = [
        {"id": f"q{k}", "question": f"When does the tool library open on weekday number {k}?", "answers": [{"text": "nine", "answer_start": 26}]}
        for k in range(3)
    ]
    qas.append({"id": "blank", "question": "  ", "answers": [{"text": "nine", "answer_start": 26}]})
    data = {"version": "v2.0", "data": [{"title": "Library", "paragraphs": [{"context": context, "qas": qas}]}]}
    path = tmp_path / "squad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "argv, stream",
    [
        (["info", "{f}"], "out"),
        (["audit", "{f}"], "err"),  # standard output is the report
        (["audit", "{f}", "-o", "{d}/report.json", "--to", "json"], "err"),
        (["filter", "{f}", "-o", "{d}/kept.jsonl"], "out"),
        (["status", "{f}"], "out"),
        (["export", "{f}", "-o", "{d}/next.jsonl"], "out"),
        (["assign", "{f}", "--reviewers", "ana,bo"], "out"),
    ],
)
def test_each_command_says_what_reading_the_set_skipped(squad, capsys, argv, stream):
    argv = [a.format(f=squad, d=squad.parent) for a in argv]
    assert main(argv) in (0, 1)
    captured = capsys.readouterr()
    said = captured.out if stream == "out" else captured.err
    assert said.count(NOTE.removeprefix("note: ")) == 1, (captured.out, captured.err)
    assert argv[0] == "info" or f"note: {squad}: {NOTE.removeprefix('note: ')}" in said  # the file named


def test_a_teams_commands_say_it_too(squad, capsys):
    assert main(["assign", str(squad), "--reviewers", "ana,bo", "--overlap", "2"]) == 0
    capsys.readouterr()
    named = f"note: {squad}: {NOTE.removeprefix('note: ')}"
    assert main(["status", str(squad)]) == 0
    assert named in capsys.readouterr().out
    assert main(["agreement", str(squad)]) == 0
    assert named in capsys.readouterr().err
    assert main(["export", str(squad), "--consensus", "majority", "-o", str(squad.parent / "merged.jsonl")]) == 0
    assert named in capsys.readouterr().out


async def test_the_app_says_it_when_it_opens(squad):
    from reviewtui.evalset.review.session import ReviewSession
    from tests.tui_helpers import FakeClock, fixed_scan, make_app, settle

    session = ReviewSession.open(squad, reviewer="ana", clock=FakeClock())
    app = make_app(session, scan=fixed_scan())
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app)
            assert NOTE.removeprefix("note: ") in [str(n.message) for n in app._notifications]
    finally:
        session.close()


def _run(*argv: str, env: dict[str, str] | None = None):
    import os
    import subprocess
    import sys

    environment = {**os.environ, "REVIEWTUI_CONFIG": os.devnull, **(env or {})}
    return subprocess.run([sys.executable, "-m", "reviewtui.cli", *argv], capture_output=True, text=True, timeout=120, env=environment)


@pytest.mark.parametrize("command", ["status", "info", "audit"])
def test_what_a_readers_warning_said_is_not_said_again_as_a_note(tmp_path, command):
    """A CSV without ids printed "warning: no id column, so rows were numbered q1, q2, ..." and then
    "note: 2 rows numbered q1, q2, ... (no id column or key)": one fact twice."""
    path = tmp_path / "noids.csv"
    path.write_text("question,answer\nWhen does the library open?,At nine\nWho runs the repair cafe?,Mara\n", encoding="utf-8")
    done = _run(command, str(path))
    said = done.stdout + done.stderr
    assert said.count("no id column, so rows were numbered q1, q2, ... in file order (2 rows)") == 1, said
    assert "rows numbered q1, q2, ... (no id column or key)" not in said, said
    # Warnings turned off: the note is the only place the fact is said, and it is said
    quiet = _run(command, str(path), env={"PYTHONWARNINGS": "ignore"})
    said = quiet.stdout + quiet.stderr
    assert "no id column, so rows" not in said and "2 rows numbered q1, q2, ... (no id column or key)" in said, said


def test_describe_skipped_leaves_out_the_kinds_asked():
    from reviewtui.evalset.io import describe_skipped

    meta = {"ids_numbered": 2, "rows_skipped": {"every cell empty": 1}}
    assert "numbered" in describe_skipped(meta) and "numbered" not in describe_skipped(meta, leave_out=["ids_numbered"])
    assert describe_skipped(meta, leave_out=["ids_numbered", "rows_skipped"]) == ""


def test_the_counts_a_reader_left_out_are_written_with_their_thousands_separated():
    """"2829 judgements with score 0 or less ignored" (DBpedia's qrels) beside the commas of every other count."""
    from reviewtui.evalset.io import describe_skipped

    said = describe_skipped({"judgements_not_positive": 2829, "queries_dropped": 1500, "rows_skipped": {"every cell empty": 1234}})
    assert "2,829 judgements with score 0 or less ignored" in said, said
    assert "1,500 queries dropped" in said and "1,234 rows skipped: 1,234 every cell empty" in said, said


def test_two_files_of_one_name_each_say_what_reading_them_changed(tmp_path):
    """overlap a/set.csv b/set.csv printed the renumbering once, and neither note: the second file's fact was lost."""
    for folder, questions in (("a", ("When does the library open?", "Who runs the repair cafe?")), ("b", ("Where is the tool shed?", "Who runs the seed swap?"))):
        (tmp_path / folder).mkdir()
        rows = "".join(f"{q},an answer\n" for q in questions)
        (tmp_path / folder / "set.csv").write_text("question,answer\n" + rows, encoding="utf-8")
    done = _run("overlap", str(tmp_path / "a" / "set.csv"), str(tmp_path / "b" / "set.csv"))
    said = done.stdout + done.stderr
    assert said.count("set.csv: no id column, so rows were numbered q1, q2, ... in file order (2 rows)") == 2, said


def test_warnings_turned_into_errors_are_an_input_error_not_a_traceback(tmp_path):
    """PYTHONWARNINGS=error (as some CI runs set) made a reader's warning a traceback and exit 1, an audit's code."""
    path = tmp_path / "noids.csv"
    path.write_text("question,answer\nWhen does the library open?,At nine\n", encoding="utf-8")
    done = _run("info", str(path), env={"PYTHONWARNINGS": "error"})
    assert done.returncode == 2, done
    assert "Traceback" not in done.stderr and "noids.csv: no id column, so rows were numbered" in done.stderr


def test_a_later_version_does_not_repeat_what_reading_the_original_left_out(squad, tmp_path, capsys):
    """Every version exported from a SQuAD file said "1 question skipped: 1 empty question." again (its header keeps
    the count), though reading the JSONL skipped nothing; a BEIR set's versions advised a --split they refuse."""
    from reviewtui.evalset.review.session import ReviewSession

    assert main(["convert", str(squad), str(tmp_path / "squad.jsonl")]) == 0
    capsys.readouterr()
    native = tmp_path / "squad.jsonl"
    with ReviewSession.open(native, reviewer="ana") as session:
        session.accept()
    for argv in (["status", str(native)], ["export", str(native)], ["info", str(tmp_path / "squad.v2.jsonl")]):
        assert main(argv) == 0
        captured = capsys.readouterr()
        assert "question skipped" not in captured.out + captured.err, (argv, captured)
    assert main(["status", str(squad)]) == 0  # the original still says it
    assert NOTE.removeprefix("note: ") in capsys.readouterr().out


def test_a_file_read_with_from_says_what_its_reader_left_out_whatever_its_name(squad, tmp_path, capsys):
    """A SQuAD file named squad.txt read with --from squad was taken for a native JSONL by its first line, and the
    empty question it skipped was said nowhere."""
    renamed = tmp_path / "squad.txt"
    renamed.write_bytes(squad.read_bytes())
    assert main(["status", str(renamed), "--from", "squad"]) == 0
    assert f"note: {renamed}: {NOTE.removeprefix('note: ')}" in capsys.readouterr().out


def test_warnings_made_errors_say_so(tmp_path):
    path = tmp_path / "noids.csv"
    path.write_text("question,answer\nWhen does the library open?,At nine\n", encoding="utf-8")
    done = _run("info", str(path), env={"PYTHONWARNINGS": "error"})
    assert done.returncode == 2 and "(warnings are errors here: PYTHONWARNINGS or -W error)" in done.stderr


def test_convert_says_which_squad_questions_marked_impossible_listed_answers(tmp_path):
    """Answers on a question marked is_impossible went without a word: the command said nothing of them."""
    qas = [
        {"id": "gone", "question": "Who has left the tool library?", "is_impossible": True, "answers": [{"text": "Mara", "answer_start": 0}]},
        {"id": "here", "question": "Who runs the tool library?", "answers": [{"text": "Mara", "answer_start": 0}]},
    ]
    path = tmp_path / "squad.json"
    path.write_text(json.dumps({"version": "v2.0", "data": [{"title": "Library", "paragraphs": [{"context": "Mara runs it.", "qas": qas}]}]}))
    done = _run("convert", str(path), str(tmp_path / "out.jsonl"))
    said = done.stdout + done.stderr
    assert done.returncode == 0, said
    assert said.count("questions marked is_impossible that also list answers") == 1 and "1 ('gone')" in said, said
    assert "question marked is_impossible but listing answers" not in said, said  # said once, as the warning
    quiet = _run("convert", str(path), str(tmp_path / "quiet.jsonl"), env={"PYTHONWARNINGS": "ignore"})
    assert "1 question marked is_impossible but listing answers, read as unanswerable" in quiet.stdout, quiet


def test_overlap_names_the_file_each_note_is_about(squad, tmp_path, capsys):
    """overlap FILE OTHER named FILE in its note and not OTHER: "note: 1 question skipped" said of neither set."""
    other = tmp_path / "other"
    other.mkdir()
    (other / "squad.json").write_bytes(squad.read_bytes())
    assert main(["overlap", str(squad), str(other / "squad.json")]) == 1
    said = capsys.readouterr().out
    for path in (squad, other / "squad.json"):
        assert f"note: {path}: {NOTE.removeprefix('note: ')}" in said, said

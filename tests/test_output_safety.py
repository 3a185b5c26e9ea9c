"""Where the commands write (issue #13): never over the input, its journal or its lock; never over an
earlier file without --force; into a pipe or a device without replacing it; never through a link; a
failed write said in one line with nothing left behind; a killed writer's temporary file cleaned up."""

from __future__ import annotations

import argparse
import errno
import os
import signal
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import reviewtui as cg
from reviewtui.cli import main
from reviewtui.evalset.io import files, read_jsonl, write_jsonl
from reviewtui.evalset.io.files import atomic_write, temp_name
from reviewtui.evalset.review.session import ReviewSession
from reviewtui.evalset.review.team import TeamPlan
from reviewtui.evalset.text.safe import has_unsafe

DOC = "Opening hours are 9 to 5. Loans last two weeks."


@pytest.fixture
def quiz(tmp_path: Path) -> Path:
    """A set with a journal (q0 accepted) and a corpus folder beside it, in a folder of its own."""
    folder = tmp_path / "set"
    corpus = folder / "corpus"
    corpus.mkdir(parents=True)
    (corpus / "rules.md").write_text(DOC, encoding="utf-8")
    items = tuple(
        cg.EvalItem(
            id=f"q{i}",
            question=f"How long do loans of kind {i} last at the library?",
            answer="two weeks",
            anchors=(cg.GoldAnchor("rules.md", "Loans last two weeks."),),
        )
        for i in range(4)
    )
    path = write_jsonl(cg.EvalSet(id="quiz", items=items), folder / "quiz.jsonl")
    with ReviewSession.open(path, reviewer="ana") as session:
        session.accept()
    return path


def journal_of(path: Path) -> Path:
    return path.with_name(path.name + ".reviewtui-journal")


def lock_of(path: Path) -> Path:
    return path.with_name(path.name + ".reviewtui-lock")


def argv(command: str, quiz: Path, out: str) -> list[str]:
    """The command line of each command that writes a file, writing to ``out``."""
    return {
        "export": ["export", str(quiz), "-o", out],
        "audit": ["audit", str(quiz), "-o", out],
        "filter": ["filter", str(quiz), "-o", out],
        "convert": ["convert", str(quiz), out],
        "resolve": ["resolve", str(quiz), "--corpus", str(quiz.parent / "corpus"), "-o", out],
    }[command]


WRITERS = ("export", "audit", "filter", "convert", "resolve")
DATA_WRITERS = ("export", "convert", "resolve")


def folder_names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


# --- 1. never the input, its journal or its lock ------------------------------------------------


@pytest.mark.parametrize(
    ("command", "into"),
    [
        *((command, into) for command in WRITERS for into in ("the input set itself", "the review journal of quiz.jsonl")),
        ("resolve", "a file this command reads"),  # a document of its corpus
    ],
)
@pytest.mark.parametrize("out", ["-", "/dev/stdout"])
def test_standard_output_redirected_into_the_input_its_journal_or_what_it_reads_is_refused(quiz, command, out, into):
    """`export -o /dev/stdout >> quiz.jsonl.reviewtui-journal` appended a set to the journal, and no command
    could read the review again; `-o /proc/self/fd/1` was refused, the names of standard output were not."""
    target = {
        "the input set itself": quiz,
        "the review journal of quiz.jsonl": journal_of(quiz),
        "a file this command reads": quiz.parent / "corpus" / "rules.md",
    }[into]
    before = target.read_bytes()
    with open(target, "ab") as appended:
        done = subprocess.run(
            [sys.executable, "-m", "reviewtui.cli", *argv(command, quiz, out)],
            stdout=appended,
            stderr=subprocess.PIPE,
            timeout=120,
            check=False,
        )
    err = done.stderr.decode("utf-8")
    assert done.returncode == 2, err
    # said before the command does any work, whichever name standard output was given (or none: see below)
    if into == "a file this command reads":
        assert f"standard output: goes into {target}, which is a file of the folder {quiz.parent / 'corpus'}, which this command reads" in err
    else:
        assert f"standard output: goes into {into}; reviewtui never writes into it" in err
    assert target.read_bytes() == before


@pytest.mark.parametrize("into", ["the input set itself", "the review journal of quiz.jsonl"])
@pytest.mark.parametrize(
    "args",
    [["filter", "{quiz}", "-o", "/dev/stderr"], ["export", "{quiz}", "-o", "-"], ["info", "{quiz}"], ["{quiz}"]],
    ids=["filter -o /dev/stderr", "export -o -", "info", "the app"],
)
def test_standard_error_redirected_into_the_input_or_its_journal_is_refused_and_nothing_written_there(quiz, into, args):
    """`filter x.jsonl -o /dev/stderr 2>> x.jsonl` appended its refusal to the set, which no longer opened, and
    the app (Textual draws on standard error) drew its whole screen into it. The refusal goes to standard output."""
    target = quiz if into == "the input set itself" else journal_of(quiz)
    if not target.exists():
        target.write_bytes(b"")  # as the shell makes it for 2>>
    before = target.read_bytes()
    with open(target, "ab") as appended:
        done = subprocess.run(
            [sys.executable, "-m", "reviewtui.cli", *(arg.format(quiz=quiz) for arg in args)],
            stdout=subprocess.PIPE,
            stderr=appended,
            stdin=subprocess.DEVNULL,
            timeout=120,
            check=False,
        )
    assert target.read_bytes() == before
    assert done.returncode == 2
    assert done.stdout == b""  # into a pipe the refusal would join the data (`export -o - 2>> x.jsonl | jq`)


def test_standard_error_refused_is_said_on_the_terminal_standard_output_is(quiz):
    """Where standard output is a terminal, the refusal is said there."""
    import os
    import pty

    before = quiz.read_bytes()
    main_end, terminal = pty.openpty()
    try:
        with open(quiz, "ab") as appended:
            done = subprocess.run(
                [sys.executable, "-m", "reviewtui.cli", "info", str(quiz)],
                stdout=terminal,
                stderr=appended,
                stdin=subprocess.DEVNULL,
                timeout=120,
                check=False,
            )
        os.close(terminal)
        terminal = -1
        said = b""
        while True:
            try:
                chunk = os.read(main_end, 4096)
            except OSError:
                break
            if not chunk:
                break
            said += chunk
    finally:
        if terminal >= 0:
            os.close(terminal)
        os.close(main_end)
    assert done.returncode == 2 and quiz.read_bytes() == before
    text = " ".join(said.decode("utf-8").split())
    assert "standard error: goes into the input set itself; reviewtui never writes into it" in text, text


@pytest.mark.parametrize(
    "argv",
    [["audit", "{quiz}"], ["status", "{quiz}"], ["info", "{quiz}"], ["agreement", "{quiz}"], ["audit", "{quiz}", "--corpus", "{corpus}"]],
)
def test_a_command_writing_to_standard_output_without_o_is_refused_into_its_own_files_too(quiz, argv):
    """`reviewtui audit x.jsonl >> x.jsonl.reviewtui-journal`: the report went into the journal, while `-o -` was
    refused; no command could read the review again."""
    corpus = quiz.parent / "corpus"
    args = [a.format(quiz=quiz, corpus=corpus) for a in argv]
    for target in (journal_of(quiz), quiz, *((corpus / "rules.md",) if "--corpus" in argv else ())):
        before = target.read_bytes()
        with open(target, "ab") as appended:
            done = subprocess.run(
                [sys.executable, "-m", "reviewtui.cli", *args], stdout=appended, stderr=subprocess.PIPE, timeout=120, check=False
            )
        assert done.returncode == 2, done.stderr
        assert b"standard output: goes into " in done.stderr
        assert target.read_bytes() == before


def test_standard_output_into_a_teams_journals_or_plan_or_an_input_folder_is_refused(tmp_path):
    """Only the input's own journal was checked: `status quiz.jsonl >> quiz.jsonl.reviews/bob.reviewtui-journal`
    damaged bob's journal, and `info beir >> beir/queries.jsonl` the set itself."""
    path = write_jsonl(cg.EvalSet(id="t", items=tuple(cg.EvalItem(id=f"q{k}", question=f"What is rule {k} about?") for k in range(4))), tmp_path / "t.jsonl")
    assert main(["assign", str(path), "--reviewers", "ana,bo"]) == 0
    from reviewtui.evalset.review.team import TeamPlan

    with ReviewSession.open(path, reviewer="bo", team=TeamPlan.load(path)) as session:
        session.accept()
    beir = tmp_path / "beir"
    beir.mkdir()
    (beir / "queries.jsonl").write_text('{"_id": "1", "text": "What is a reef?"}\n')
    (beir / "qrels").mkdir()
    (beir / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\n1\td1\t1\n")
    cases = [
        (["status", str(path)], tmp_path / "t.jsonl.reviews" / "bo.reviewtui-journal", "named like a review journal"),
        (["agreement", str(path)], tmp_path / "t.jsonl.reviews" / "plan.json", "a team's plan"),
        (["info", str(beir)], beir / "queries.jsonl", "a file of the input folder"),
    ]
    for argv, target, said in cases:
        before = target.read_bytes()
        with open(target, "ab") as appended:
            done = subprocess.run(
                [sys.executable, "-m", "reviewtui.cli", *argv], stdout=appended, stderr=subprocess.PIPE, timeout=120, check=False
            )
        assert done.returncode == 2 and f"standard output: goes into {target}, which is {said}" in done.stderr.decode(), done.stderr
        assert target.read_bytes() == before
    # a new file the shell made in the input folder is refused too: `> beir/qrels/x.tsv` is a new split of the set
    with open(beir / "qrels" / "x.tsv", "wb") as made:
        done = subprocess.run([sys.executable, "-m", "reviewtui.cli", "info", str(beir)], stdout=made, stderr=subprocess.PIPE, timeout=120, check=False)
    assert done.returncode == 2 and b"which is a file of the input folder" in done.stderr
    assert (beir / "qrels" / "x.tsv").read_bytes() == b""


def test_a_report_into_a_new_file_in_the_corpus_folder_is_written_as_without_o(quiz):
    """The shell makes the file for `>` before any command runs: refused, it would stay behind empty all the same,
    and `audit --corpus . > report.txt` worked before."""
    corpus = quiz.parent / "corpus"
    for argv in (["audit", str(quiz), "--corpus", str(corpus)], ["audit", str(quiz), "--corpus", str(corpus), "-o", "-"]):
        with open(corpus / "report.txt", "wb") as report:
            done = subprocess.run([sys.executable, "-m", "reviewtui.cli", *argv], stdout=report, timeout=120, check=False)
        assert done.returncode in (0, 1) and (corpus / "report.txt").read_text(encoding="utf-8").startswith("audit of ")


def test_standard_output_into_another_file_is_written(quiz, tmp_path):
    with open(tmp_path / "out.jsonl", "wb") as out:
        done = subprocess.run([sys.executable, "-m", "reviewtui.cli", "export", str(quiz), "-o", "-"], stdout=out, timeout=120, check=False)
    assert done.returncode == 0 and len(read_jsonl(tmp_path / "out.jsonl")) == 4


@pytest.mark.parametrize("command", ("export", "audit", "filter"))
def test_a_teams_plan_is_never_an_output_even_with_force(quiz, tmp_path, capsys, command):
    """`audit -o quiz.jsonl.reviews/plan.json --force` replaced the plan, and every team command then refused the set."""
    assert main(["assign", str(quiz), "--reviewers", "ana,bo"]) == 0
    plan = quiz.with_name("quiz.jsonl.reviews") / "plan.json"
    before = plan.read_bytes()
    capsys.readouterr()
    assert main([*argv(command, quiz, str(plan)), "--force"]) == 2
    assert "is a team's plan" in capsys.readouterr().err
    assert plan.read_bytes() == before
    elsewhere = tmp_path / "mine" / "plan.json"  # a plan.json of the user's own elsewhere is any file
    elsewhere.parent.mkdir()
    assert main(argv("audit", quiz, str(elsewhere))) in (0, 1) and elsewhere.exists()


@pytest.mark.parametrize("command", WRITERS)
@pytest.mark.parametrize("force", [[], ["--force"]])
@pytest.mark.parametrize(
    ("how", "what"),
    [
        ("input", "is the input set itself"),
        ("input through ./", "is the input set itself"),
        ("hard link of the input", "is the input set itself"),
        ("hard link of the journal", "is the review journal of quiz.jsonl"),
        ("symbolic link to the journal", "is the review journal of quiz.jsonl"),
        ("hard link of the lock", "is the review lock of quiz.jsonl"),
    ],
)
def test_no_command_writes_over_the_input_its_journal_or_its_lock(quiz, capsys, command, force, how, what):
    folder = quiz.parent
    journal = journal_of(quiz)
    session = ReviewSession.open(quiz, reviewer="bo")  # a review going on: the lock is there
    try:
        lock = lock_of(quiz)
        out = {
            "input": lambda: str(quiz),
            "input through ./": lambda: f"{folder}/./quiz.jsonl",
            "hard link of the input": lambda: str(_link(quiz, folder / "alias.jsonl")),
            "hard link of the journal": lambda: str(_link(journal, folder / "alias.jsonl")),
            "symbolic link to the journal": lambda: str(_symlink(journal, folder / "alias.jsonl")),
            "hard link of the lock": lambda: str(_link(lock, folder / "alias.jsonl")),
        }[how]()
        kept = {p: p.read_bytes() for p in (quiz, journal, lock)}
        assert main(argv(command, quiz, out) + force) == 2
        assert capsys.readouterr().err == f"{out}: {what}; reviewtui never writes over it (name another output file)\n"
        assert {p: p.read_bytes() for p in kept} == kept
    finally:
        session.close()


HOLD_SESSION = """
import sys, time
from reviewtui.evalset.review.session import ReviewSession
from reviewtui.evalset.review.team import TeamPlan
session = ReviewSession.open(sys.argv[1], reviewer="cy")
print("open", flush=True)
time.sleep(60)
"""


@pytest.mark.parametrize("command", WRITERS)
@pytest.mark.parametrize("by", ["this process", "another process", "a hard link's name", "a team member"])
def test_force_never_replaces_another_set_while_it_is_reviewed(quiz, tmp_path, capsys, command, by):
    """`convert other.csv quiz.jsonl --force` replaced a set under review: its session went on with items the file no
    longer held, and its journal then named another file's items."""
    other = write_jsonl(read_jsonl(quiz).replace(id="other"), tmp_path / "other.jsonl")
    reviewed_as = _link(other, tmp_path / "alias.jsonl") if by == "a hard link's name" else other
    before = other.read_bytes()
    child = None
    if by == "another process":
        child = subprocess.Popen([sys.executable, "-c", HOLD_SESSION, str(other)], stdout=subprocess.PIPE, text=True)
        assert child.stdout.readline().strip() == "open"
        session = None
    else:
        if by == "a team member":
            assert main(["assign", str(other), "--reviewers", "ana,bo"]) == 0
            session = ReviewSession.open(other, reviewer="bo", team=TeamPlan.load(other))
        else:
            session = ReviewSession.open(reviewed_as, reviewer="bo")
    try:
        capsys.readouterr()
        assert main([*argv(command, quiz, str(other)), "--force"]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"{other}: is open for review ")
        assert "never replaces a set while it is reviewed, --force or not" in err
        if by in ("this process", "another process"):  # the holder is named when its lock is beside the file
            assert " by pid " in err and (" by bo, since " in err or " by cy, since " in err)
        assert other.read_bytes() == before
    finally:
        if session is not None:
            session.close()
        if child is not None:
            child.kill()
            child.wait()
    assert main([*argv(command, quiz, str(other)), "--force"]) in (0, 1)  # the review over, --force replaces it
    assert other.read_bytes() != before


def _link(source: Path, name: Path) -> Path:
    os.link(source, name)
    return name


def _symlink(source: Path, name: Path) -> Path:
    name.symlink_to(source)
    return name


@pytest.mark.parametrize("command", ("export", "audit", "filter"))
def test_the_journal_and_the_lock_by_their_own_names_are_refused(quiz, capsys, command):
    journal = journal_of(quiz)
    before = journal.read_bytes()
    assert main(argv(command, quiz, str(journal)) + ["--force"]) == 2
    assert "is the review journal of quiz.jsonl" in capsys.readouterr().err
    assert journal.read_bytes() == before
    with ReviewSession.open(quiz):
        lock = lock_of(quiz)
        held = lock.read_bytes()
        assert main(argv(command, quiz, str(lock)) + ["--force"]) == 2
        assert "is the review lock of quiz.jsonl" in capsys.readouterr().err
        assert lock.read_bytes() == held


def test_export_protects_a_journal_passed_with_journal(quiz, tmp_path, capsys):
    elsewhere = tmp_path / "review.log"
    with ReviewSession.open(quiz, journal_path=elsewhere):
        pass
    before = elsewhere.read_bytes()
    assert main(["export", str(quiz), "--journal", str(elsewhere), "-o", str(elsewhere), "--force"]) == 2
    assert capsys.readouterr().err == (
        f"{elsewhere}: is the review journal of quiz.jsonl; reviewtui never writes over it (name another output file)\n"
    )
    assert elsewhere.read_bytes() == before


@pytest.mark.parametrize("command", ("export", "audit", "filter"))
def test_an_output_named_like_a_journal_or_a_lock_is_refused(quiz, tmp_path, capsys, command):
    for name in ("other.jsonl.reviewtui-journal", "other.jsonl.reviewtui-lock"):
        out = tmp_path / name
        assert main(argv(command, quiz, str(out))) == 2
        assert "named like a review journal or lock" in capsys.readouterr().err
        assert not out.exists()


@pytest.mark.parametrize("command", WRITERS)
def test_a_journal_kept_under_a_name_of_its_own_is_never_an_output(quiz, tmp_path, capsys, command):
    # A review run with --journal review-log.jsonl: a later command not told so sees only a file of that name.
    kept = tmp_path / "review-log.jsonl"  # a name every writer takes (convert and resolve want .jsonl)
    with ReviewSession.open(quiz, journal_path=kept) as session:
        session.accept()
    before = kept.read_bytes()
    assert main(argv(command, quiz, str(kept)) + ["--force"]) == 2
    assert capsys.readouterr().err == (
        f"{kept}: is a review journal (its first record says so); reviewtui never writes over one, --force or not\n"
    )
    assert kept.read_bytes() == before


def test_a_file_that_only_looks_like_json_is_not_taken_for_a_journal(quiz, tmp_path):
    out = tmp_path / "notes.jsonl"
    out.write_bytes(b'{"c":"not hex!","r":{"op":"start"}}\n')
    assert main(["export", str(quiz), "-o", str(out), "--force"]) == 0
    assert read_jsonl(out).version == 2


def test_the_library_export_refuses_the_journal_too(quiz):
    from reviewtui.evalset.review.export import export_reviewed
    from reviewtui.evalset.review.session import load_review

    loaded = load_review(quiz)
    journal = journal_of(quiz)
    before = journal.read_bytes()
    with pytest.raises(cg.EvalSetError, match="review journal"):
        export_reviewed(loaded.evalset, loaded.queue, quiz, journal, force=True)
    assert journal.read_bytes() == before


# --- 2. nothing replaced without --force -----------------------------------------------------------


def test_a_second_export_takes_the_next_free_version_force_or_not(quiz, capsys):
    v2, v3 = quiz.with_name("quiz.v2.jsonl"), quiz.with_name("quiz.v3.jsonl")
    assert main(["export", str(quiz)]) == 0
    assert f"wrote {v2}: version 2," in capsys.readouterr().out
    edited = v2.read_bytes().replace(b"How long", b"For how long")  # a hand edit of the earlier export
    v2.write_bytes(edited)

    assert main(["export", str(quiz)]) == 0
    assert f"wrote {v3}: version 3," in capsys.readouterr().out
    assert v2.read_bytes() == edited
    assert read_jsonl(v3).version == 3  # the version in the file follows its name

    # --force replaces a file the user names, never an earlier export under a default name (it replaced quiz.v2.jsonl)
    assert main(["export", str(quiz), "--force"]) == 0
    assert f"wrote {quiz.with_name('quiz.v4.jsonl')}: version 4," in capsys.readouterr().out
    assert v2.read_bytes() == edited and read_jsonl(v3).version == 3
    assert main(["export", str(quiz), "--rejected"]) == main(["export", str(quiz), "--rejected", "--force"]) == 0
    assert quiz.with_name("quiz.rejected.jsonl").exists() and quiz.with_name("quiz.rejected-2.jsonl").exists()
    assert main(["export", str(quiz), "-o", str(v2), "--force"]) == 0
    assert b"For how long" not in v2.read_bytes()


def test_a_second_rejected_export_takes_a_new_name(quiz, capsys):
    assert main(["export", str(quiz), "--rejected"]) == 0
    assert main(["export", str(quiz), "--rejected"]) == 0
    assert quiz.with_name("quiz.rejected.jsonl").exists() and quiz.with_name("quiz.rejected-2.jsonl").exists()


def test_the_app_export_never_replaces_an_earlier_one(quiz):
    with ReviewSession.open(quiz) as session:
        first = session.export()
        first.write_bytes(b"edited by hand\n")
        second = session.export()
    assert (first.name, second.name) == ("quiz.v2.jsonl", "quiz.v3.jsonl")
    assert first.read_bytes() == b"edited by hand\n"


@pytest.mark.parametrize("force", [False, True])
@pytest.mark.parametrize(
    ("command", "taken", "chosen"),
    [
        (["export"], "quiz.v2.jsonl", "quiz.v3.jsonl"),
        (["export", "--rejected"], "quiz.rejected.jsonl", "quiz.rejected-2.jsonl"),
        (["filter"], "quiz.v2.jsonl", "quiz.v3.jsonl"),
    ],
)
def test_a_default_name_held_by_a_pipe_is_passed_over(quiz, capsys, command, taken, chosen, force):
    # Opening a FIFO to write waits for a reader: the command hung, and in the app ctrl+e froze the screen.
    fifo = quiz.with_name(taken)
    os.mkfifo(fifo)
    result: list[int] = []
    runner = threading.Thread(target=lambda: result.append(main([command[0], str(quiz), *command[1:], *(["--force"] if force else [])])))
    runner.daemon = True
    runner.start()
    runner.join(60)
    if runner.is_alive():  # let the blocked open go, so the test ends; the failure is the hang itself
        with open(fifo, "rb") as reader:
            reader.read()
        runner.join(10)
        pytest.fail(f"{command} opened the pipe at its default name {taken} and waited for a reader")
    assert result == [0]
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert quiz.with_name(chosen).is_file()


def test_the_app_export_passes_over_a_pipe_at_the_next_name(quiz):
    os.mkfifo(quiz.with_name("quiz.v2.jsonl"))
    with ReviewSession.open(quiz) as session:
        assert session.export().name == "quiz.v3.jsonl"


def test_filter_by_default_takes_the_next_free_version(quiz, capsys):
    assert main(["filter", str(quiz)]) == 0
    quiz.with_name("quiz.v2.jsonl").write_bytes(b"kept by hand\n")
    assert main(["filter", str(quiz)]) == 0
    assert quiz.with_name("quiz.v2.jsonl").read_bytes() == b"kept by hand\n"
    assert read_jsonl(quiz.with_name("quiz.v3.jsonl")).version == 3
    assert main(["filter", str(quiz), "--force"]) == 0  # it replaced quiz.v2.jsonl, a reviewed export perhaps
    assert quiz.with_name("quiz.v2.jsonl").read_bytes() == b"kept by hand\n"
    assert read_jsonl(quiz.with_name("quiz.v4.jsonl")).version == 4


@pytest.mark.parametrize("command", WRITERS)
def test_an_existing_output_is_replaced_only_with_force(quiz, tmp_path, capsys, command):
    out = tmp_path / "earlier.jsonl"
    out.write_bytes(b"an earlier result, edited by hand\n")
    assert main(argv(command, quiz, str(out))) == 2
    assert capsys.readouterr().err == f"{out}: already exists; pass --force to replace it, or name another file\n"
    assert out.read_bytes() == b"an earlier result, edited by hand\n"
    assert main(argv(command, quiz, str(out)) + ["--force"]) in (0, 1)  # audit: 1 is a finding
    assert out.read_bytes() != b"an earlier result, edited by hand\n"


def test_convert_refuses_a_corpus_folder_that_holds_files_without_force(tmp_path, capsys):
    import json

    squad = {
        "version": "1.1",
        "data": [
            {
                "title": "Reef",
                "paragraphs": [
                    {
                        "context": "The Bell Rock is a reef. It lies off Angus.",
                        "qas": [{"id": "b1", "question": "Where?", "answers": [{"text": "off Angus", "answer_start": 34}]}],
                    }
                ],
            }
        ],
    }
    source = tmp_path / "squad.json"
    source.write_text(json.dumps(squad), encoding="utf-8")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "Reef#0.txt").write_text("edited by hand", encoding="utf-8")
    assert main(["convert", str(source), str(tmp_path / "s.jsonl"), "--corpus-out", str(docs)]) == 2
    assert "already holds files" in capsys.readouterr().err
    assert (docs / "Reef#0.txt").read_text(encoding="utf-8") == "edited by hand"
    assert not (tmp_path / "s.jsonl").exists()  # refused before anything was written
    assert main(["convert", str(source), str(tmp_path / "s.jsonl"), "--corpus-out", str(docs), "--force"]) == 0


# --- 3. special files: written to, never replaced; links refused ---------------------------------


def test_export_into_a_fifo_writes_to_it_and_keeps_it_a_fifo(quiz, tmp_path, capsys):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # a reader is there, so opening to write does not wait
    try:
        assert main(["export", str(quiz), "-o", str(fifo)]) == 0
        received = os.read(reader, 1 << 16)
    finally:
        os.close(reader)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert received.startswith(b'{"_evalset"') and received.count(b"\n") == 5
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_export_to_dev_null_writes_to_the_device(quiz, monkeypatch):
    def no_rename(*args):
        raise AssertionError(f"renamed over a device: {args}")

    monkeypatch.setattr(os, "replace", no_rename)
    assert main(["export", str(quiz), "-o", "/dev/null"]) == 0
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_export_to_a_terminal_device_is_neutralised_there(tmp_path):
    hostile = "Which rule\x1b]52;c;aGk=\x07 applies\u202e?"
    path = write_jsonl(cg.EvalSet(id="s", items=(cg.EvalItem(id="q1", question=hostile),)), tmp_path / "s.jsonl")
    master, slave = os.openpty()
    try:
        device = os.ttyname(slave)
        assert main(["export", str(path), "-o", device, "--format", "csv"]) == 0
        shown = os.read(master, 1 << 16).decode("utf-8").replace("\r\n", "\n")
    finally:
        os.close(master)
        os.close(slave)
    assert "Which rule" in shown and not has_unsafe(shown)


def test_a_symbolic_link_is_never_written_through_or_replaced(quiz, tmp_path, capsys):
    victim = tmp_path / "victim.jsonl"
    victim.write_bytes(b"someone else's file\n")
    link = tmp_path / "link.jsonl"
    link.symlink_to(victim)
    dangling = tmp_path / "dangling.jsonl"
    dangling.symlink_to(tmp_path / "nowhere.jsonl")
    for out in (link, dangling):
        for force in ([], ["--force"]):
            assert main(["export", str(quiz), "-o", str(out), *force]) == 2
            err = capsys.readouterr().err
            assert err == (
                f"{out}: is a symbolic link; reviewtui does not write through links (name the file itself, or a new one)\n"
            )
    assert link.is_symlink() and os.readlink(link) == str(victim)
    assert victim.read_bytes() == b"someone else's file\n"
    assert dangling.is_symlink() and not (tmp_path / "nowhere.jsonl").exists()


def test_atomic_write_refuses_a_link_and_writes_through_one_to_a_pipe(tmp_path):
    victim = tmp_path / "victim"
    victim.write_bytes(b"old")
    link = tmp_path / "link"
    link.symlink_to(victim)
    with pytest.raises(OSError, match="symbolic link") as info:
        atomic_write(link, b"new")
    assert info.value.errno == errno.ELOOP
    assert victim.read_bytes() == b"old" and link.is_symlink()

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    to_fifo = tmp_path / "stdout-like"
    to_fifo.symlink_to(fifo)  # what /dev/stdout is when standard output is a pipe
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        atomic_write(to_fifo, b"through the link")
        assert os.read(reader, 100) == b"through the link"
    finally:
        os.close(reader)
    assert to_fifo.is_symlink() and stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_a_temporary_file_is_created_exclusively_and_never_through_a_link(tmp_path, monkeypatch):
    tokens = iter(["deadbeef", "cafebabe"])
    monkeypatch.setattr(files.secrets, "token_hex", lambda n: next(tokens))
    victim = tmp_path / "victim"
    victim.write_bytes(b"untouched")
    planted = tmp_path / f".out.jsonl.rtui-{files._host_tag()}-{os.getpid()}-deadbeef.tmp"
    planted.symlink_to(victim)  # someone guessed the first temporary name
    atomic_write(tmp_path / "out.jsonl", b"data")
    assert victim.read_bytes() == b"untouched" and planted.is_symlink()
    assert (tmp_path / "out.jsonl").read_bytes() == b"data"


@pytest.mark.parametrize("command", ("export", "filter", "convert", "resolve"))
def test_dash_writes_the_set_to_standard_output_and_messages_to_standard_error(quiz, capsys, command):
    before = folder_names(quiz.parent)
    assert main(argv(command, quiz, "-")) == 0
    out, err = capsys.readouterr()
    assert out.startswith('{"_evalset"') and out.count("\n") >= 2  # the header and at least one question
    assert "standard output" in err
    assert folder_names(quiz.parent) == before  # no file called "-"


@pytest.mark.parametrize(("command", "what"), [("export", "the export"), ("convert", "the converted set")])
def test_standard_output_on_a_full_disk_is_named_as_standard_output(quiz, capsys, monkeypatch, command, what):
    """`export -o - > file` on a full disk said "-: cannot write the export", as if a file were named "-"."""
    import io

    class FullDisk(io.RawIOBase):
        def writable(self):
            return True

        def write(self, data):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(io.BufferedWriter(FullDisk()), encoding="utf-8"))
    assert main(argv(command, quiz, "-")) == 2
    err = capsys.readouterr().err
    assert err == f"standard output: cannot write {what}: No space left on device\n"


def test_dev_stdout_is_standard_output_even_when_the_shell_sent_it_to_a_file(quiz, tmp_path):
    """/dev/stdout links to the file the shell opened; it is written as standard output, not refused as a link."""
    captured = tmp_path / "captured.jsonl"
    with captured.open("wb") as stdout:
        done = subprocess.run(
            [sys.executable, "-m", "reviewtui.cli", "export", str(quiz), "-o", "/dev/stdout"],
            stdout=stdout,
            stderr=subprocess.PIPE,
            timeout=120,
            check=False,
        )
    assert done.returncode == 0, done.stderr
    assert read_jsonl(captured).version == 2
    assert b"wrote standard output: version 2" in done.stderr


# --- 4. a failed write: one line, exit 2, nothing left behind -------------------------------------


@pytest.mark.parametrize("command", DATA_WRITERS)
def test_a_folder_as_the_output_is_one_line(quiz, tmp_path, capsys, command):
    folder = tmp_path / "out.jsonl"
    folder.mkdir()
    assert main(argv(command, quiz, str(folder))) == 2
    assert capsys.readouterr().err == f"{folder}: is a folder, not a file\n"


@pytest.mark.parametrize("command", WRITERS)
@pytest.mark.parametrize("there", ["no folder", "a file", "a folder"])
def test_an_output_ending_in_a_slash_names_a_folder_and_is_refused(quiz, tmp_path, capsys, command, there):
    """`-o reports.jsonl/` with no such folder wrote a file named `reports.jsonl` (Path drops the slash), and with
    --force `-o keep.jsonl/` replaced the file keep.jsonl."""
    out = tmp_path / "reports.jsonl"
    if there == "a file":
        out.write_text("kept", encoding="utf-8")
    elif there == "a folder":
        out.mkdir()
    for given in (f"{out}/", f"{out}/.", f"{out}//"):  # Path() drops "/." as it drops "/"
        assert main([*argv(command, quiz, given), "--force"]) == 2
        assert capsys.readouterr().err == f"{given}: ends in a slash, so it names a folder; name the file to write (for example in that folder)\n"
    assert (out.read_text(encoding="utf-8") == "kept") if there == "a file" else (out.is_dir() == (there == "a folder"))


@pytest.mark.parametrize("command", DATA_WRITERS)
def test_a_parent_that_is_a_file_is_one_line(quiz, tmp_path, capsys, command):
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    out = blocker / "out.jsonl"
    assert main(argv(command, quiz, str(out))) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{out}: cannot write") and err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize("command", DATA_WRITERS)
def test_a_full_disk_is_one_line_and_leaves_nothing(quiz, tmp_path, capsys, monkeypatch, command):
    def half_then_full(fd, chunk):
        os.write(fd, chunk[: len(chunk) // 2])
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(files, "write_all", half_then_full)
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    earlier = out_dir / "earlier.jsonl"
    earlier.write_bytes(b"earlier\n")
    for out, force in ((out_dir / "new.jsonl", []), (earlier, ["--force"])):
        assert main(argv(command, quiz, str(out)) + force) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"{out}: cannot write") and err.endswith("No space left on device\n")
        assert err.count("\n") == 1
    assert folder_names(out_dir) == ["earlier.jsonl"]  # no partial file, no temporary file
    assert earlier.read_bytes() == b"earlier\n"


@pytest.mark.parametrize("command", DATA_WRITERS)
def test_a_read_only_file_system_is_one_line(quiz, tmp_path, capsys, monkeypatch, command):
    def read_only(folder, name):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(folder / temp_name(name)))

    monkeypatch.setattr(files, "_create_temp", read_only)
    out = tmp_path / "out.jsonl"
    assert main(argv(command, quiz, str(out))) == 2
    assert capsys.readouterr().err.endswith(f": {os.strerror(errno.EROFS)}\n")
    assert not out.exists()


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
@pytest.mark.parametrize("command", DATA_WRITERS)
def test_a_read_only_folder_is_one_line(quiz, tmp_path, capsys, command):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        assert main(argv(command, quiz, str(folder / "out.jsonl"))) == 2
        assert "permission denied" in capsys.readouterr().err.lower()
    finally:
        folder.chmod(0o755)


# --- 5. what a killed writer leaves behind ----------------------------------------------------------

_SLOW_WRITER = """
import sys, time
from reviewtui.evalset.io.files import atomic_write

def chunks():
    yield b"x" * (2 << 20)   # more than one write's worth: on disk in the temporary file
    print("written", flush=True)
    time.sleep(120)
    yield b"never"

atomic_write(sys.argv[1], chunks())
"""


def test_a_writer_killed_mid_write_leaves_a_temporary_file_the_next_write_removes(tmp_path):
    target = tmp_path / "quiz.v2.jsonl"
    child = subprocess.Popen(
        [sys.executable, "-c", _SLOW_WRITER, str(target)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout.readline().strip() == "written"
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
        child.stdout.close()
    left = [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    assert len(left) == 1 and left[0].stat().st_size >= 2 << 20
    assert left[0].name.startswith(f".quiz.v2.jsonl.rtui-{files._host_tag()}-{child.pid}-")

    atomic_write(target, b"fresh\n")
    assert folder_names(tmp_path) == ["quiz.v2.jsonl"]
    assert target.read_bytes() == b"fresh\n"


def test_only_provably_abandoned_temporary_files_are_removed(tmp_path):
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    host = files._host_tag()
    name = "quiz.v2.jsonl"
    abandoned = tmp_path / f".{name}.rtui-{host}-{dead.pid}-0123abcd.tmp"
    kept = {
        "a live writer's": tmp_path / f".{name}.rtui-{host}-{os.getppid()}-0123abcd.tmp",
        "another host's": tmp_path / f".{name}.rtui-{'0' * 8 if host != '0' * 8 else '1' * 8}-{dead.pid}-0123abcd.tmp",
        "another target's": tmp_path / f".other.jsonl.rtui-{host}-{dead.pid}-0123abcd.tmp",
        "an old-style name": tmp_path / ".rtui-k3j4h5.tmp",
        "not ours to prove": tmp_path / f".{name}.rtui-{host}-{dead.pid}-notahex.tmp",
    }
    for path in (abandoned, *kept.values()):
        path.write_bytes(b"half")
    link = tmp_path / f".{name}.rtui-{host}-{dead.pid}-feedf00d.tmp"
    link.symlink_to(tmp_path / "elsewhere")
    folder = tmp_path / f".{name}.rtui-{host}-{dead.pid}-0badf00d.tmp"
    folder.mkdir()

    atomic_write(tmp_path / name, b"new\n")
    assert not abandoned.exists()
    assert all(path.exists() for path in kept.values()), kept
    assert link.is_symlink() and folder.is_dir()


def test_a_write_in_a_thread_does_not_remove_another_threads_temporary_file(tmp_path):
    """Temporary files of this very process are never someone else's leftovers."""
    started, release = threading.Event(), threading.Event()

    def slow():
        yield b"first half"
        started.set()
        release.wait(10)
        yield b", second half"

    target = tmp_path / "out.jsonl"
    target.write_bytes(b"old")  # there before both writes: each replaces it (a new name is not taken twice)
    worker = threading.Thread(target=atomic_write, args=(target, slow()))
    worker.start()
    try:
        assert started.wait(10)
        atomic_write(tmp_path / "out.jsonl.bak", b"x")
        atomic_write(target, b"y")
    finally:
        release.set()
        worker.join(10)
    assert target.read_bytes() == b"first half, second half"


@pytest.mark.parametrize("command", WRITERS)
def test_an_output_in_a_folder_that_does_not_exist_is_refused_not_made(quiz, tmp_path, capsys, command):
    # A mistyped -o made the whole tree (export -o /nonexistent/dir/x.jsonl made /nonexistent at the root).
    out = tmp_path / "typo" / "deeper" / "out.jsonl"
    assert main(argv(command, quiz, str(out))) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line == f"{out}: the folder it goes in does not exist; make the folder first, or check the path"
    assert not (tmp_path / "typo").exists()


@pytest.mark.parametrize(
    "command",
    [
        ["export", "{set}", "--to", "csv", "-o", "{out}"],
        ["export", "{set}", "--to", "csv", "--rejected", "-o", "{out}"],
        ["filter", "{set}", "-o", "{out}"],
        ["convert", "{set}", "{out}"],
    ],
)
def test_a_csv_that_would_drop_evidence_is_refused_unless_asked_for(tmp_path, capsys, command):
    import reviewtui as cg
    from reviewtui.evalset.io import read_csv, write_jsonl
    from reviewtui.evalset.review.session import ReviewSession

    two = (cg.GoldAnchor("rules.md", "Loans last two weeks."), cg.GoldAnchor("fees.md", "Late fees are a pound a day."))
    items = tuple(
        cg.EvalItem(id=f"q{k}", question=f"How long is loan number {k} of a power drill at the library?", anchors=two)
        for k in range(3)
    )
    path = write_jsonl(cg.EvalSet(id="s", items=items), tmp_path / "s.jsonl")
    with ReviewSession.open(path, reviewer="ana") as session:
        session.reject(reason="ambiguous")
    out = tmp_path / "out.csv"
    argv = [part.format(set=path, out=out) for part in command]
    assert main(argv) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert "every anchor after the first" in line and line.endswith("or pass --lossy to write the CSV all the same")
    assert not out.exists()
    assert main([*argv, "--lossy"]) == 0
    assert len(read_csv(out)) >= 1


def _beir_folder(root: Path) -> Path:
    folder = root / "reports"
    (folder / "qrels").mkdir(parents=True)
    (folder / "queries.jsonl").write_text('{"_id": "1", "text": "Which region grew fastest last year?"}\n')
    (folder / "corpus.jsonl").write_text('{"_id": "d1", "title": "Annual", "text": "The north region grew fastest."}\n')
    (folder / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\n1\td1\t1\n")
    return folder


def _digests(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize(
    ("command", "inside"),
    [
        ("convert", "queries.jsonl"),
        ("convert", "corpus.jsonl"),
        ("filter", "queries.jsonl"),
        ("export", "queries.jsonl"),
        ("audit", "qrels/test.tsv"),
        ("resolve", "corpus.jsonl"),
    ],
)
def test_no_command_writes_over_a_file_of_an_input_folder_even_with_force(tmp_path, capsys, command, inside):
    folder = _beir_folder(tmp_path)
    before = _digests(folder)
    out = str(folder / inside)
    line = {
        "convert": ["convert", str(folder), out, "--force"],
        "filter": ["filter", str(folder), "-o", out, "--force"],
        "export": ["export", str(folder), "-o", out, "--force"],
        "audit": ["audit", str(folder), "-o", out, "--force"],
        "resolve": ["resolve", str(folder), "--corpus", str(folder / "corpus.jsonl"), "-o", out, "--force"],
    }[command]
    assert main(line) == 2
    err = capsys.readouterr().err
    assert "never writes into its input" in err, err
    assert _digests(folder) == before


@pytest.mark.parametrize("name", ["corpus.jsonl", "qrels/new.csv", "as-jsonl.jsonl"])
def test_no_new_file_is_written_into_an_input_folder(tmp_path, capsys, name):
    """convert wrote a corpus.jsonl into a BEIR folder that had none: the folder then read as another set."""
    folder = _beir_folder(tmp_path)
    (folder / "corpus.jsonl").unlink()
    before = _digests(folder)
    assert main(["convert", str(folder), str(folder / name)]) == 2
    assert "is inside the input folder" in capsys.readouterr().err
    assert _digests(folder) == before
    assert main(["convert", str(folder), str(tmp_path / "beside.jsonl")]) == 0  # beside it is fine


def test_the_corpus_a_command_reads_is_never_its_output(tmp_path, capsys):
    corpus = tmp_path / "c.jsonl"
    corpus.write_text('{"_id": "d1", "text": "Paris is the capital of France."}\n')
    quiz = tmp_path / "s.jsonl"
    quiz.write_text('{"id": "a", "question": "What is the capital of France?", "anchors": [{"source_id": "d1", "quote": "Paris is the capital"}]}\n')
    before = corpus.read_bytes()
    for line in (
        ["resolve", str(quiz), "--corpus", str(corpus), "-o", str(corpus), "--force"],
        ["audit", str(quiz), "--corpus", str(corpus), "-o", str(corpus), "--force"],
    ):
        assert main(line) == 2
        assert "never writes over its input" in capsys.readouterr().err
    assert corpus.read_bytes() == before
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "d1.txt").write_text("Paris is the capital of France.")
    assert main(["resolve", str(quiz), "--corpus", str(folder), "-o", str(folder / "d1.txt"), "--force"]) == 2
    assert (folder / "d1.txt").read_text() == "Paris is the capital of France."


def test_a_default_name_is_claimed_so_a_command_running_meanwhile_takes_the_next(quiz, capsys):
    """Two commands run at once found the same free name and the second rename replaced the first
    one's file: a name is now taken (an empty file made exclusively) before the write."""
    from reviewtui.evalset.io.outputs import claimed_output
    from reviewtui.evalset.review.export import next_version_path

    def name_for(n):
        return next_version_path(quiz, n)

    with claimed_output(name_for, 2, input_path=quiz) as (held, version):
        assert (held.name, version) == ("quiz.v2.jsonl", 2)
        assert held.read_bytes().startswith(b"reviewtui: this name is taken for a file that process")
        # another command (an export, then a filter) while this one has not written yet
        assert main(["export", str(quiz)]) == 0
        assert main(["filter", str(quiz)]) == 0
        held.write_text("this command's own version\n")
    assert held.read_text() == "this command's own version\n"
    assert read_jsonl(quiz.with_name("quiz.v3.jsonl")).version == 3
    assert read_jsonl(quiz.with_name("quiz.v4.jsonl")).version == 4


def test_a_claimed_name_is_given_back_when_the_write_fails(quiz):
    from reviewtui.evalset.io.outputs import claimed_output
    from reviewtui.evalset.review.export import next_version_path

    with pytest.raises(RuntimeError), claimed_output(lambda n: next_version_path(quiz, n), 2, input_path=quiz) as (held, _):
        assert held.exists()
        raise RuntimeError("the write failed")
    assert not held.exists()
    # a name claimed and then written by the block is kept whatever happens after
    with pytest.raises(RuntimeError), claimed_output(lambda n: next_version_path(quiz, n), 2, input_path=quiz) as (held, _):
        held.write_text("written\n")
        raise RuntimeError("later")
    assert held.read_text() == "written\n"


@pytest.mark.parametrize(
    ("command", "name", "what"),
    [
        (["export"], "quiz.v2.jsonl", "the export"),
        (["export", "--rejected"], "quiz.rejected.jsonl", "the export"),
        (["filter"], "quiz.v2.jsonl", "the filtered set"),
    ],
)
def test_a_full_disk_leaves_no_empty_next_version_and_names_the_file(quiz, monkeypatch, capsys, command, name, what):
    """On a full disk the claim's own line could not be written: an empty quiz.v2.jsonl stayed (a set
    of no questions, and the next export took v3) and the error said only "reviewtui: No space left"."""
    with ReviewSession.open(quiz, reviewer="ana") as session:
        session.reject(reason="duplicate")
    capsys.readouterr()
    before = sorted(p.name for p in quiz.parent.iterdir())

    def full(fd, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(files.os, "write", full)
    code = main([command[0], str(quiz), *command[1:]])
    monkeypatch.undo()
    assert code == 2
    assert capsys.readouterr().err == f"{quiz.with_name(name)}: cannot write {what}: No space left on device\n"
    assert sorted(p.name for p in quiz.parent.iterdir()) == before


@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP"])
def test_a_command_stopped_by_a_signal_gives_its_claimed_name_back(quiz, name):
    """`timeout`, a scheduler or a closed terminal stop a command with SIGTERM or SIGHUP: the empty file
    that held its next-version name was left behind (a '0 questions' v2, and the next export took v3)."""
    import argparse

    from reviewtui.cli.exits import run_command
    from reviewtui.evalset.io.outputs import claimed_output
    from reviewtui.evalset.review.export import next_version_path

    if not hasattr(signal, name):
        pytest.skip(f"no {name} here")
    signum = getattr(signal, name)
    seen = {}

    def command(_args):
        with claimed_output(lambda n: next_version_path(quiz, n), 2, input_path=quiz) as (target, _):
            seen["target"] = target
            assert target.exists()
            os.kill(os.getpid(), signum)
            signal.pthread_sigmask(signal.SIG_BLOCK, [])  # a point for the handler to run at
        return 0

    before = signal.getsignal(signum)
    assert run_command(command, argparse.Namespace()) == 128 + signum
    assert not seen["target"].exists()
    assert signal.getsignal(signum) == before  # the command's handler does not outlive it


def test_a_claim_left_by_a_killed_export_is_passed_over_and_its_temporary_file_removed(quiz, capsys):
    """kill -9 during an export left an empty quiz.v2.jsonl (read as a set of no questions) and its
    temporary file, which the next export, writing v3, never removed."""
    from reviewtui.evalset.io.files import claim_text

    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()  # a process of this host that no longer exists
    claimed = quiz.with_name("quiz.v2.jsonl")
    claimed.write_bytes(claim_text(gone.pid))
    left = quiz.with_name(temp_name("quiz.v2.jsonl", pid=gone.pid))
    left.write_bytes(b'{"_evalset": {"id": "quiz", "version": 2}}\n{"id": "q0", "ques')
    assert main(["export", str(quiz)]) == 0
    assert read_jsonl(quiz.with_name("quiz.v3.jsonl")).version == 3
    assert not left.exists()
    assert claimed.read_bytes() == claim_text(gone.pid)  # says what it is; another command may be looking at it
    assert main(["info", str(claimed)]) == 2  # not a set of no questions
    capsys.readouterr()


def test_an_abandoned_claim_is_passed_over_force_or_not(quiz, capsys):
    from reviewtui.evalset.io.files import claim_text

    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    claimed = quiz.with_name("quiz.v2.jsonl")
    claimed.write_bytes(claim_text(gone.pid))
    assert main(["export", str(quiz)]) == 0  # passes the claim over: v3
    v3 = quiz.with_name("quiz.v3.jsonl").read_bytes()
    assert main(["export", str(quiz), "--force"]) == 0  # a default name is a new file, --force or not: v4
    assert claimed.read_bytes() == claim_text(gone.pid) and read_jsonl(quiz.with_name("quiz.v4.jsonl")).version == 4
    assert quiz.with_name("quiz.v3.jsonl").read_bytes() == v3  # the earlier export untouched
    capsys.readouterr()


def test_convert_writes_to_a_device_as_its_help_says(tmp_path, capsys):
    """`convert set.jsonl /dev/null` said "the output must end in .jsonl or .csv"; export -o /dev/null worked."""
    quiz = tmp_path / "s.jsonl"
    quiz.write_text('{"id": "a", "question": "What is the capital of France?"}\n')
    assert main(["convert", str(quiz), os.devnull]) == 0
    assert main(["convert", str(quiz), str(tmp_path / "s.txt")]) == 2  # a file still needs its suffix
    assert "its name ends in .txt, but a set is written as .jsonl (JSON Lines) or .csv" in capsys.readouterr().err
    # the name refused in export's words, not a puzzle: ".jsonl" alone is a hidden file with no extension
    assert main(["convert", str(quiz), str(tmp_path / ".jsonl")]) == 2
    assert "its name is only an extension; give the file a name before it, such as reviewed.jsonl" in capsys.readouterr().err
    assert not (tmp_path / ".jsonl").exists()


def test_resolve_writes_to_a_device_as_its_help_says(tmp_path, capsys):
    """`resolve -o /dev/null` (or a FIFO) said "name an output ending in .jsonl", as convert once did."""
    quiz = tmp_path / "s.jsonl"
    quiz.write_text('{"id": "a", "question": "What is the capital of France?", "anchors": [{"source_id": "d1.txt", "quote": "Paris is the capital"}]}\n')
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "d1.txt").write_text("Paris is the capital of France.")
    assert main(["resolve", str(quiz), "--corpus", str(folder), "-o", os.devnull]) == 0
    assert main(["resolve", str(quiz), "--corpus", str(folder), "-o", str(tmp_path / "r.txt")]) == 2  # a file still needs .jsonl
    assert "name an output ending in .jsonl" in capsys.readouterr().err


def test_running_out_of_memory_is_one_line_and_exit_2_not_a_traceback(capsys):
    """A 400 MB question under a memory limit ended `audit` with a MemoryError traceback and exit 1, an audit's
    'failing finding'."""
    from reviewtui.cli.exits import EXIT_USAGE, run_command

    def command(args):
        raise MemoryError

    assert run_command(command, argparse.Namespace()) == EXIT_USAGE
    err = capsys.readouterr().err
    assert "ran out of memory" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_running_out_of_memory_in_the_scans_worker_is_one_line_and_exit_2_too(capsys):
    """`audit` of 20,000 questions that differ each by a number ran out of memory in the forked scan, and the
    MemoryError came back as a WorkerError: a traceback and exit 1, an audit's 'failing finding'."""
    from reviewtui.cli.exits import EXIT_USAGE, run_command
    from reviewtui.evalset.jobs.channel import WorkerError

    def command(args):
        raise WorkerError("the worker process failed: MemoryError: ") from MemoryError()

    assert run_command(command, argparse.Namespace()) == EXIT_USAGE
    err = capsys.readouterr().err
    assert "ran out of memory" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("status", "by", "killed"),
    [("killed by signal 9", 9, True), ("exit code -9", 9, True), ("exit code 3", None, False), ("killed by signal 11", 11, False)],
)
def test_a_scan_worker_that_dies_without_a_word_is_one_line(capsys, status, by, killed):
    """The out-of-memory killer's SIGKILL on the scan's worker was a WorkerEnded traceback and exit 1. A SIGKILL
    (said one way by a fork, another by a spawned interpreter) is the machine's limit: exit 2 with why; any other
    end is an error of ours: exit 1, without a traceback either."""
    from reviewtui.cli.exits import EXIT_INTERNAL, EXIT_USAGE, run_command
    from reviewtui.evalset.jobs.channel import WorkerEnded

    def command(args):
        raise WorkerEnded(f"the scan's worker process ended without an answer ({status})", signal=by)

    assert run_command(command, argparse.Namespace()) == (EXIT_USAGE if killed else EXIT_INTERNAL)
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert err.startswith("reviewtui: checking the set stopped")
    assert ("memory runs out" in err) == killed


def test_no_new_file_is_written_into_a_corpus_folder_either(tmp_path, capsys):
    """A report written into the corpus folder as .md was read as a document by the next audit; the refusal
    names the folder as the one the command reads, not as "the input folder"."""
    quiz = tmp_path / "s.jsonl"
    quiz.write_text('{"id": "a", "question": "What is the capital of France?", "anchors": [{"source_id": "d1.txt", "quote": "Paris is the capital"}]}\n')
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "d1.txt").write_text("Paris is the capital of France.")
    assert main(["audit", str(quiz), "--corpus", str(folder), "-o", str(folder / "report.md"), "--to", "md"]) == 2
    assert "which this command reads as documents" in capsys.readouterr().err and not (folder / "report.md").exists()
    assert main(["audit", str(quiz), "--corpus", str(folder), "-o", str(folder / "d1.txt"), "--to", "json", "--force"]) == 2
    assert "is a file of the folder" in capsys.readouterr().err
    assert main(["audit", str(quiz), "--corpus", str(folder), "-o", str(tmp_path / "report.md"), "--to", "md"]) == 0


def test_a_plan_json_in_a_folder_of_ones_own_that_ends_in_reviews_is_any_file(tmp_path, capsys):
    """Only a team's plan is refused: a plan.json in 'my.reviews' (no set of that name beside it) was refused too."""
    quiz = tmp_path / "quiz.jsonl"
    quiz.write_text('{"id": "q1", "question": "How long may a member keep a saw?"}\n', encoding="utf-8")
    mine = tmp_path / "my.reviews"
    mine.mkdir()
    assert main(["audit", str(quiz), "-o", str(mine / "plan.json")]) in (0, 1)
    assert (mine / "plan.json").exists()
    team = tmp_path / "quiz.jsonl.reviews"  # the team folder of a set that is there, before any plan was made
    team.mkdir()
    assert main(["audit", str(quiz), "-o", str(team / "plan.json")]) == 2
    assert "is a team's plan" in capsys.readouterr().err and not (team / "plan.json").exists()


@pytest.mark.parametrize("args", [["status"], ["export", "-o", "-"], ["audit"], ["--help"]])
def test_a_command_started_with_standard_output_closed_says_so_in_one_line(quiz, args):
    """Run with standard output closed (`>&-`, a daemon's descriptors), every command ended in a traceback."""
    argv = args if args == ["--help"] else [args[0], str(quiz), *args[1:]]
    done = subprocess.run(
        [sys.executable, "-m", "reviewtui.cli", *argv], stderr=subprocess.PIPE, timeout=120, check=False,
        preexec_fn=lambda: os.close(1),
    )
    err = done.stderr.decode("utf-8")
    assert done.returncode == 2, err
    assert err == "reviewtui: standard output is closed; run the command with it open (> /dev/null to discard it)\n"


def test_a_command_started_with_standard_error_closed_still_works(quiz):
    done = subprocess.run(
        [sys.executable, "-m", "reviewtui.cli", "status", str(quiz / "missing.jsonl")], stdout=subprocess.PIPE,
        timeout=120, check=False, preexec_fn=lambda: os.close(2),
    )
    assert done.returncode == 2 and done.stdout == b""
    done = subprocess.run(
        [sys.executable, "-m", "reviewtui.cli", "status", str(quiz)], stdout=subprocess.PIPE,
        timeout=120, check=False, preexec_fn=lambda: os.close(2),
    )
    assert done.returncode == 0 and b"decided 1 of 4" in done.stdout


@pytest.mark.parametrize("command", ["resolve", "audit", "filter", "export"])
def test_a_document_the_corpus_reaches_through_a_link_is_never_an_output(quiz, tmp_path, capsys, command):
    """`resolve quiz.jsonl --corpus docs -o target.jsonl --force`, with docs/ext.txt a link to target.jsonl, replaced
    the document the corpus reads through that link."""
    corpus = quiz.parent / "corpus"
    target = tmp_path / "target.jsonl"
    target.write_text("Linked target document about herons.\n", encoding="utf-8")
    (corpus / "ext.txt").symlink_to(target)  # read as the document ext.txt
    before = target.read_bytes()
    argv = {
        "resolve": ["resolve", str(quiz), "--corpus", str(corpus), "-o", str(target), "--force"],
        "audit": ["audit", str(quiz), "--corpus", str(corpus), "-o", str(target), "--force"],
        "filter": ["filter", str(quiz), "-o", str(target), "--force"],
        "export": ["export", str(quiz), "-o", str(target), "--force"],
    }[command]
    code = main(argv)
    if command in ("filter", "export"):  # these read no corpus: the file is theirs to replace
        assert code == 0 and target.read_bytes() != before
        return
    assert code == 2
    assert "a symbolic link there leads to it" in capsys.readouterr().err
    assert target.read_bytes() == before


def test_a_hidden_link_the_corpus_never_reads_does_not_refuse_its_target(quiz, tmp_path, capsys):
    """corpus/.backup.jsonl -> ../out.jsonl made `resolve -o out.jsonl --force` refuse out.jsonl as a document of the
    corpus, which reads no hidden file."""
    corpus = quiz.parent / "corpus"
    out = tmp_path / "out.jsonl"
    out.write_text("an earlier output\n", encoding="utf-8")
    (corpus / ".backup.jsonl").symlink_to(out)
    assert main(["resolve", str(quiz), "--corpus", str(corpus), "-o", str(out), "--force"]) in (0, 1)
    assert out.read_text(encoding="utf-8") != "an earlier output\n"


def test_a_set_in_a_folder_that_cannot_be_written_is_told_of_journal(quiz, monkeypatch, capsys):
    """A review of a set in a read-only folder stopped at "cannot create the lock file ...: Permission denied", while
    --journal in a writable folder runs it (the lock goes beside the journal). Root writes anywhere, so the refusal
    is made here as the system makes it for others."""
    from reviewtui.evalset.io import lock as lock_module
    from reviewtui.evalset.review.session import ReviewSession

    real_open, real_access = lock_module.open_own_file, os.access

    def refused(path, *args, **kwargs):
        if Path(path).parent == quiz.parent:
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(lock_module, "open_own_file", refused)
    monkeypatch.setattr(os, "access", lambda path, mode, **kw: Path(path) != quiz.parent and real_access(path, mode, **kw))
    with pytest.raises(cg.EvalSetError) as raised:
        ReviewSession.open(quiz, reviewer="ana")
    said = str(raised.value)
    assert "cannot create the lock file" in said and "--journal PATH, in a folder you can write" in said
    elsewhere = quiz.parent / "elsewhere"
    elsewhere.mkdir()
    with ReviewSession.open(quiz, reviewer="ana", journal_path=elsewhere / "quiz.reviewtui-journal") as session:
        session.accept()  # kept there, lock and all
    assert (elsewhere / "quiz.reviewtui-journal").exists()

"""What the command line prints is shown, never interpreted (issue #13).

Ids, reviewer names, notes, lock holders and paths come from files or from whoever
wrote them. On a terminal, every line that may hold them goes through
``safetext.for_terminal``, so an escape sequence in a set id cannot write the
clipboard (OSC 52) or a bidi override reorder a line. A message piped to ``head``
or kept in a log reaches a terminal later, so into a pipe or a file its controls
and direction overrides are stand-ins too (``for_message``); the rest of the data,
and JSON a program reads, go as they are.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import reviewtui as cg
from reviewtui.cli import main
from reviewtui.evalset.io import write_jsonl
from reviewtui.evalset.review.session import ReviewSession
from reviewtui.evalset.text.safe import has_unsafe

#: An OSC 52 clipboard write, a bidi override and a C1 CSI: what must never reach a terminal as itself.
HOSTILE = "\x1b]52;c;aGk=\x07\u202e\x9b2J"
#: HOSTILE as every message shows it, on a terminal and (since a piped message reaches one too) in a pipe.
INERT = "␛]52;c;aGk=␇<U+202E><U+009B>2J"


class Tty(io.StringIO):
    """A stream that says it is a terminal, and keeps what was written to it."""

    def isatty(self) -> bool:
        return True


def on_a_terminal(monkeypatch):
    """Make standard output and standard error terminals; returns a function reading (out, err).

    Called in the test itself: pytest puts its own streams back between a fixture and the test.
    """
    out, err = Tty(), Tty()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    return lambda: (out.getvalue(), err.getvalue())


@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    """A set whose folder, id, item ids, types and answers carry escape sequences, with a journal of a
    reviewer whose name and notes do too, one of whose decisions is now stale."""
    folder = tmp_path / f"sets{HOSTILE}"
    folder.mkdir()
    items = tuple(
        cg.EvalItem(
            id=f"q{i}{HOSTILE}",
            question=f"How long do loans of kind {i} last{HOSTILE}?",
            answer="two weeks",
            qtype=f"factoid{HOSTILE}",
            anchors=(cg.GoldAnchor(f"rules{HOSTILE}.md", f"Loans last two weeks{HOSTILE}."),),
        )
        for i in range(3)
    )
    evalset = cg.EvalSet(id=f"quiz{HOSTILE}", items=items)
    path = write_jsonl(evalset, folder / "quiz.jsonl")
    with ReviewSession.open(path, reviewer=f"mallory{HOSTILE}") as session:
        session.reject(note=f"bad{HOSTILE}", reason="ambiguous")
        session.accept(note=f"fine{HOSTILE}")
    changed = items[0].model_copy(update={"question": f"Changed since{HOSTILE}?"})
    write_jsonl(evalset.with_items((changed, *items[1:])), path)  # q0's rejection is now stale
    return path


def assert_safe(*texts: str) -> None:
    for text in texts:
        assert not has_unsafe(text, one_line=False), repr(text)


def test_info_on_a_terminal(hostile, monkeypatch):
    terminal = on_a_terminal(monkeypatch)
    assert main(["info", str(hostile)]) == 0
    out, err = terminal()
    assert "quiz␛]52;c;aGk=␇<U+202E><U+009B>2J v1" in out and "types: factoid" in out
    assert_safe(out, err)


def test_info_into_a_pipe_shows_controls_inert(hostile, capsys):
    """`reviewtui info set | head` wrote the id's escape sequence to the terminal through head: a message
    piped reaches a terminal all the same. Controls and direction overrides are stand-ins there too."""
    assert main(["info", str(hostile)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("quiz␛]52;c;aGk=␇<U+202E><U+009B>2J v1 (manual): 3 questions\n")
    assert "types: factoid␛]52;c;aGk=␇<U+202E><U+009B>2J 3" in out
    assert_safe(out, "")


def test_a_message_into_a_pipe_keeps_what_acts_on_nothing(tmp_path, capsys):
    """Only what acts on a display is replaced in a pipe: a zero-width joiner in an emoji, a zero-width
    space and accented letters stay as they are, for a script reading the line."""
    kept = "café 👩\u200d💻 a\u200bb"
    quiz = tmp_path / "s.jsonl"
    quiz.write_text(
        '{"_evalset": {"id": "' + kept + '\\u001b[2J\\r"}}\n{"id": "q", "question": "What is the capital of France?"}\n',
        encoding="utf-8",
    )
    assert main(["info", str(quiz)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{kept}␛[2J␍ v1"), out


@pytest.mark.parametrize(
    ("line", "field_says"),
    [
        ('{"id": "q", "question": "What?", "\\u001b]0;T\\u0007foo": 1}\n', "unknown field `␛]0;T␇foo`"),
        ('{"id": "q\\u009b2J", "question": "What?"}\n{"id": "q\\u009b2J", "question": "Why?"}\n', "q\\x9b2J"),
    ],
)
def test_an_error_into_a_pipe_or_a_log_shows_controls_inert(tmp_path, capsys, line, field_says):
    """An unknown field's name, from the file, went raw into `2>> log` (and `2>&1 | less` after it)."""
    quiz = tmp_path / "s.jsonl"
    quiz.write_text(line, encoding="utf-8")
    assert main(["info", str(quiz)]) == 2
    err = capsys.readouterr().err
    assert field_says in err, err
    assert_safe("", err)


def test_status_on_a_terminal_with_the_set_open_by_a_hostile_reviewer(hostile, monkeypatch):
    terminal = on_a_terminal(monkeypatch)
    with ReviewSession.open(hostile, reviewer=f"eve{HOSTILE}"):  # holds the lock, its name in the lock file
        assert main(["status", str(hostile)]) == 0
    out, err = terminal()
    assert "decided by: mallory␛]52" in out and "open for review now:" in out and "by eve␛]52" in out
    assert "q0␛]52" in out  # the stale decision is named
    assert_safe(out, err)


def test_status_into_a_pipe_shows_controls_inert(hostile, capsys):
    with ReviewSession.open(hostile, reviewer=f"eve{HOSTILE}"):
        assert main(["status", str(hostile)]) == 0
    out = capsys.readouterr().out
    assert f"decided by: mallory{INERT} (" in out and f"q0{INERT}" in out and "open for review now:" in out
    assert_safe(out)


def test_export_notes_on_a_terminal(hostile, monkeypatch):
    terminal = on_a_terminal(monkeypatch)
    assert main(["export", str(hostile), "--format", "csv"]) == 0
    out, err = terminal()
    assert "note: " in out and "q0␛]52" in out and "wrote " in out
    assert_safe(out, err)


def test_export_notes_into_a_pipe_show_controls_inert(hostile, capsys):
    fresh = hostile.with_name("fresh.jsonl")
    fresh.write_bytes(hostile.read_bytes())
    assert main(["export", str(fresh)]) == 0
    out = capsys.readouterr().out
    shown_folder = str(hostile.parent).replace(HOSTILE, INERT)
    assert out.startswith(f"note: no review journal at {shown_folder}/fresh.jsonl.reviewtui-journal")
    assert f"wrote {shown_folder}" in out
    assert_safe(out)


def test_filter_on_a_terminal(hostile, monkeypatch):
    terminal = on_a_terminal(monkeypatch)
    assert main(["filter", str(hostile)]) == 0
    out, err = terminal()
    assert f"to {hostile.parent}"[:20] in out and "wrote version 2" in out
    assert_safe(out, err)


def test_filter_into_a_pipe_names_the_path_inert(hostile, capsys):
    assert main(["filter", str(hostile)]) == 0
    assert f"to {hostile.with_name('quiz.v2.jsonl')}\n".replace(HOSTILE, INERT) in capsys.readouterr().out
    assert hostile.with_name("quiz.v2.jsonl").exists()  # the file itself has the name asked for


def no_progress_bar(monkeypatch) -> None:
    """Keep rich's progress bar (its own colour and cursor sequences) off the fake terminal."""
    from reviewtui.cli.progress import TerminalProgress

    monkeypatch.setattr(TerminalProgress, "_show", lambda self: None)


def test_audit_text_on_a_terminal(hostile, monkeypatch):
    terminal = on_a_terminal(monkeypatch)
    no_progress_bar(monkeypatch)
    main(["audit", str(hostile)])
    out, err = terminal()
    assert "audit of quiz" in out
    assert_safe(out, err)


def test_audit_report_written_to_a_file_is_said_safely(hostile, monkeypatch):
    terminal = on_a_terminal(monkeypatch)
    no_progress_bar(monkeypatch)
    out_path = hostile.with_name("audit.md")
    main(["audit", str(hostile), "-o", str(out_path)])
    out, err = terminal()
    assert "wrote the md report to" in err
    assert_safe(out, err)


def test_convert_on_a_terminal(hostile, monkeypatch):
    terminal = on_a_terminal(monkeypatch)
    assert main(["convert", str(hostile), str(hostile.with_name("copy.csv"))]) == 0
    out, err = terminal()
    assert "wrote " in out and "set 'quiz" in out
    assert_safe(out, err)


def test_resolve_on_a_terminal(hostile, monkeypatch, tmp_path):
    terminal = on_a_terminal(monkeypatch)
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / f"rules{HOSTILE}.md").write_text(f"Loans last two weeks{HOSTILE}.", encoding="utf-8")
    assert main(["resolve", str(hostile), "--corpus", str(corpus), "-o", str(hostile.with_name("r.jsonl"))]) == 0
    out, err = terminal()
    assert "wrote " in out
    assert_safe(out, err)


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ('{"id": "a", "question": "Fine?"}\n{not json\n', ":2: not valid JSON"),
        (
            f'{{"id": "a{HOSTILE}", "question": "Fine?"}}\n{{"id": "a{HOSTILE}", "question": "Again?"}}\n',
            "is used twice",
        ),
    ],
)
def test_an_error_naming_a_hostile_path_or_id_is_one_safe_line(tmp_path, monkeypatch, content, expected):
    terminal = on_a_terminal(monkeypatch)
    bad = tmp_path / f"bad{HOSTILE}.jsonl"
    bad.write_text(content.replace("\x1b", "\\u001b").replace("\x07", "\\u0007"), encoding="utf-8")
    assert main(["info", str(bad)]) == 2
    out, err = terminal()
    assert out == "" and expected in err and err.count("\n") == 1
    assert_safe(err)


def test_an_error_into_a_pipe_names_the_path_inert(tmp_path, capsys):
    bad = tmp_path / f"bad{HOSTILE}.jsonl"
    bad.write_text("{not json\n", encoding="utf-8")
    assert main(["info", str(bad)]) == 2
    assert capsys.readouterr().err.startswith(f"{bad}:1: not valid JSON".replace(HOSTILE, INERT))


def test_a_refused_output_naming_a_hostile_path_is_safe(hostile, monkeypatch):
    terminal = on_a_terminal(monkeypatch)
    assert main(["export", str(hostile), "-o", str(hostile)]) == 2
    out, err = terminal()
    assert "is the input set itself" in err
    assert_safe(out, err)


def _on_a_terminal(*args: str) -> tuple[int, str]:
    """Run the command line in a child whose standard output and error are a pseudo-terminal."""
    master, slave = os.openpty()
    try:
        child = subprocess.Popen(
            [sys.executable, "-m", "reviewtui.cli", *args],
            stdin=subprocess.DEVNULL,
            stdout=slave,
            stderr=slave,
        )
    finally:
        os.close(slave)
    received = b""
    try:
        while True:
            try:
                data = os.read(master, 1 << 16)
            except OSError:  # EIO: the child is gone and the terminal closed
                break
            if not data:
                break
            received += data
    finally:
        os.close(master)
    return child.wait(timeout=120), received.decode("utf-8").replace("\r\n", "\n")


def test_import_warnings_on_a_real_terminal(tmp_path):
    """Warnings (what an import changed, with the file's name) print through the same function."""
    path = tmp_path / f"noids{HOSTILE}.csv"
    path.write_text("question,answer\nWhat is a reef?,A ridge of rock\n", encoding="utf-8")
    code, shown = _on_a_terminal("info", str(path))
    assert code == 0, shown
    assert "reviewtui: warning: noids␛]52;c;aGk=␇<U+202E><U+009B>2J.csv: no id column" in shown
    assert_safe(shown)


def test_import_warnings_into_a_pipe_show_the_name_inert(tmp_path):
    path = tmp_path / f"noids{HOSTILE}.csv"
    path.write_text("question,answer\nWhat is a reef?,A ridge of rock\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "reviewtui.cli", "info", str(path)], capture_output=True, timeout=120, check=False
    )
    assert done.returncode == 0
    assert done.stderr.decode("utf-8").startswith(f"reviewtui: warning: noids{INERT}.csv: no id column")


def test_the_progress_bar_shows_a_hostile_file_name_as_text(monkeypatch):
    from reviewtui.cli.progress import TerminalProgress

    screen = Tty()
    monkeypatch.setattr(sys, "stderr", screen)
    with TerminalProgress(f"reading [b]{HOSTILE}.jsonl") as bar:
        bar(1, 2)
        shown = bar.progress.tasks[0].description
        bar.stage(f"checking [b]{HOSTILE}")
        staged = bar.progress.tasks[0].description
    assert not has_unsafe(shown + staged)
    assert "\x1b]52" not in screen.getvalue() and "\u202e" not in screen.getvalue()
    assert "reading [b]" in screen.getvalue()  # markup shown as typed, not taken as bold


@pytest.mark.parametrize("command", ["status", "export"])
def test_status_and_export_show_reading_then_replaying_on_a_slow_open(hostile, monkeypatch, command):
    """A large review takes seconds to read and replay: the bar says which step it is at (shown at once here)."""
    import reviewtui.cli.progress as progress

    monkeypatch.setattr(progress, "SHOW_AFTER", 0.0)
    terminal = on_a_terminal(monkeypatch)
    argv = [command, str(hostile)] + (["-o", str(hostile.with_name("next.jsonl"))] if command == "export" else [])
    assert main(argv) == 0
    _, err = terminal()
    assert "reading " in err and progress.REPLAYING in err
    assert err.index("reading ") < err.index(progress.REPLAYING)
    assert "\x1b]52" not in err and "\u202e" not in err  # the bar's own codes only; the path's are shown as text


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes on this system")
@pytest.mark.parametrize("command", ["status", "export"])
def test_a_set_read_from_a_pipe_with_the_bar_on_is_read_without_a_bar(hostile, monkeypatch, command):
    """A pipe has no size and no position: the reading step has no bar, the journal's replay still has one."""
    import reviewtui.cli.progress as progress

    monkeypatch.setattr(progress, "SHOW_AFTER", 0.0)
    pipe = hostile.with_name("piped.jsonl")
    os.mkfifo(pipe)
    # more items than one batch of the reader, so that progress would be asked for before the end
    extra = [cg.EvalItem(id=f"x{n}", question=f"Which form is number {n}?", answer="B") for n in range(5000)]
    evalset = cg.read_jsonl(hostile)
    bigger = write_jsonl(evalset.with_items((*evalset.items, *extra)), pipe.with_suffix(".src"))
    data = bigger.read_bytes()

    def feed() -> None:
        with open(pipe, "wb") as writer:
            writer.write(data)

    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    journal = hostile.with_name(hostile.name + ".reviewtui-journal")
    argv = [command, "--from", "jsonl", "--journal", str(journal), str(pipe)]
    if command == "export":
        argv += ["-o", str(hostile.with_name("next.jsonl"))]
    terminal = on_a_terminal(monkeypatch)
    assert main(argv) == 0
    feeder.join(5)
    out, err = terminal()
    assert "Illegal seek" not in err
    assert progress.REPLAYING in err  # the journal is a file: its replay is told
    if command == "status":
        assert "5,003 questions" in out and "decided 1 of 5,003" in out, out  # q0's decision is stale (see hostile)
    else:
        assert len(hostile.with_name("next.jsonl").read_text(encoding="utf-8").splitlines()) == 1 + 5003  # header, items


def _pipe_and_set(tmp_path: Path) -> tuple[Path, Path]:
    """A named pipe, and a three-item set to feed it."""
    pipe = tmp_path / "piped.jsonl"
    os.mkfifo(pipe)
    items = [cg.EvalItem(id=f"q{n}", question=f"How long do loans of kind {n} last?", answer="two weeks") for n in range(3)]
    return pipe, write_jsonl(cg.EvalSet(id="loans", items=items), tmp_path / "loans.jsonl")


def _feed_pipe(pipe: Path, data: bytes) -> threading.Thread:
    """A writer for the named pipe, as a shell's ``cat set.jsonl > pipe &`` would be."""

    def feed() -> None:
        try:
            with open(pipe, "wb") as writer:
                writer.write(data)
        except BrokenPipeError:  # the reader stopped early: what a refused pipe looks like
            pass

    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    return feeder


def _release(pipe: Path, feeder: threading.Thread) -> None:
    """Let a writer that nobody read from finish (opening the read end lets its open return)."""
    if feeder.is_alive():
        fd = os.open(pipe, os.O_RDONLY | os.O_NONBLOCK)
        os.close(fd)
        feeder.join(5)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes on this system")
@pytest.mark.parametrize("command", ["audit", "status", "review"])
def test_a_pipe_is_refused_where_it_would_be_read_twice(tmp_path, capsys, command):
    """Recognising a format reads the first line, and the review app reads its set twice: from a pipe,
    whose bytes can be read once, each would hang or read half a set. Both say so, exit 2, read nothing."""
    pipe, source = _pipe_and_set(tmp_path)
    feeder = _feed_pipe(pipe, source.read_bytes())
    try:
        assert main([command, str(pipe)]) == 2
    finally:
        _release(pipe, feeder)
    err = capsys.readouterr().err
    assert "is a named pipe, which can be read only once" in err, err
    assert ("--from" in err) if command != "review" else ("save the set to a file" in err)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes on this system")
def test_an_id_used_twice_in_a_piped_set_is_named_by_its_lines_not_by_rereading_the_pipe(tmp_path, capsys):
    """Line numbers for a repeated id come from reading a file again, which a pipe cannot give (it hung):
    a pipe's lines are kept as it is read."""
    pipe, source = _pipe_and_set(tmp_path)
    data = source.read_bytes() + source.read_bytes().splitlines(keepends=True)[2]  # q1 again, as a fifth line
    feeder = _feed_pipe(pipe, data)
    try:
        assert main(["audit", "--from", "jsonl", str(pipe)]) == 2
    finally:
        _release(pipe, feeder)
    err = capsys.readouterr().err
    assert "piped.jsonl:5: item id 'q1' is used twice: on line 3 and again here" in err, err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes on this system")
@pytest.mark.parametrize(
    "argv, says",
    [
        (["filter", "--from", "jsonl"], "name the output (-o PATH"),
        (["export", "--from", "jsonl"], "name the output (-o PATH"),
        (["assign", "--reviewers", "ann,bo", "--from", "jsonl"], "save the set to a file and assign that"),
        (["convert", "--from", "jsonl", "--corpus-out", "CORPUS"], "--corpus-out reads the input a second time"),
    ],
)
def test_nothing_is_named_after_or_read_twice_from_a_pipe(tmp_path, capsys, argv, says):
    """A next version, a team plan or a corpus would be written beside the pipe (beside /dev/stdin is
    /dev), or the input read a second time: each is refused before anything is read or written."""
    pipe, source = _pipe_and_set(tmp_path)
    argv = [str(tmp_path / "corpus") if arg == "CORPUS" else arg for arg in argv]
    tail = [str(pipe), str(tmp_path / "out.jsonl")] if argv[0] == "convert" else [str(pipe)]
    before = set(tmp_path.iterdir())
    feeder = _feed_pipe(pipe, source.read_bytes())
    try:
        assert main([*argv, *tail]) == 2
    finally:
        _release(pipe, feeder)
    assert says in capsys.readouterr().err
    assert set(tmp_path.iterdir()) == before  # no v2, no plan folder, no corpus, no output


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes on this system")
def test_a_piped_set_is_filtered_to_a_named_output(tmp_path):
    pipe, source = _pipe_and_set(tmp_path)
    feeder = _feed_pipe(pipe, source.read_bytes())
    try:
        assert main(["filter", "--from", "jsonl", str(pipe), "-o", str(tmp_path / "kept.jsonl")]) == 0
    finally:
        _release(pipe, feeder)
    assert len(cg.read_jsonl(tmp_path / "kept.jsonl")) == 3


def test_a_later_step_of_the_bar_takes_over_its_label_on_its_first_report(monkeypatch):
    from reviewtui.cli.progress import TerminalProgress

    monkeypatch.setattr(sys, "stderr", Tty())
    with TerminalProgress("reading quiz.jsonl") as bar:
        replaying = bar.step("replaying the review journal")
        bar(5, 10)
        assert bar.progress.tasks[0].description == "reading quiz.jsonl"
        replaying(1, 4)
        task = bar.progress.tasks[0]
        assert (task.description, task.completed, task.total) == ("replaying the review journal", 1, 4)
        replaying(4, 4)
        assert bar.progress.tasks[0].completed == 4


def test_a_usage_error_quoting_a_hostile_argument_shows_it_safely(monkeypatch):
    """argparse's error line quotes what was typed; a file name can carry escape sequences."""
    read = on_a_terminal(monkeypatch)
    with pytest.raises(SystemExit) as exc:
        main(["status", "x.jsonl", f"extra{HOSTILE}"])
    assert exc.value.code == 2
    _, err = read()
    assert "unrecognized arguments: extra" in err
    assert not has_unsafe(err), repr(err)


def test_into_a_pipe_a_usage_error_shows_the_argument_inert(capsys):
    with pytest.raises(SystemExit):
        main(["status", "x.jsonl", f"extra{HOSTILE}"])
    assert f"unrecognized arguments: extra{INERT}\n" in capsys.readouterr().err


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="no /proc/self/fd on this system")
@pytest.mark.parametrize(
    "argv, says",
    [
        (["filter"], "name the output (-o PATH"),
        (["export"], "name the output (-o PATH"),
        (["assign", "--reviewers", "ann,bo"], "save the set to a file and assign that"),
        (["review"], "save the set to a file and review that"),
    ],
)
@pytest.mark.parametrize("through_a_link", [False, True])
def test_nothing_is_named_after_a_set_read_through_a_descriptor(tmp_path, capsys, argv, says, through_a_link):
    """``reviewtui filter /dev/stdin < set.jsonl`` reads a regular file, but beside /dev/stdin is /dev:
    a next version, a journal or a team plan has no folder of its own there, so each is refused."""
    _, source = _pipe_and_set(tmp_path)
    fd = os.open(source, os.O_RDONLY)
    try:
        name = f"/proc/self/fd/{fd}"
        if through_a_link:  # as /dev/stdin is: a link to the descriptor's name
            os.symlink(name, tmp_path / "stdin")
            name = str(tmp_path / "stdin")
        before = set(tmp_path.iterdir())
        assert main([*argv, name]) == 2
        assert says in capsys.readouterr().err
        assert set(tmp_path.iterdir()) == before
        assert main(["filter", name, "-o", str(tmp_path / "kept.jsonl")]) == 0  # with a named output it is read
    finally:
        os.close(fd)


def test_filter_into_a_reader_that_leaves_early_still_writes_its_set(tmp_path):
    """`reviewtui filter quiz.jsonl | head -2`: the listing of what was removed met a closed pipe, the
    command stopped with exit 0, and no next version was written."""
    import subprocess

    items = tuple(cg.EvalItem(id=f"q{i}", question="Why?", answer="because") for i in range(3000))  # too short, each
    path = cg.write_jsonl(cg.EvalSet(id="s", items=items), tmp_path / "s.jsonl")
    process = subprocess.Popen(
        [sys.executable, "-m", "reviewtui", "filter", str(path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert process.stdout is not None
    process.stdout.readline()
    process.stdout.close()  # as head does after its lines
    _, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    assert (tmp_path / "s.v2.jsonl").exists()
    assert b"Traceback" not in err and b"BrokenPipe" not in err, err


def test_a_line_break_in_the_data_never_starts_a_line_of_its_own(tmp_path, capsys):
    """A set id "S\\nreviewtui: FORGED" printed a line that read like one of the tool's own messages."""
    from reviewtui.cli import main

    path = tmp_path / "h.jsonl"
    path.write_text(
        '{"_evalset": {"id": "S\\nreviewtui: FORGED", "version": 1, "source": "a\\nFORGED SOURCE"}}\n'
        '{"id": "q1", "question": "What is the colour of the sky?", "answer": "blue", "qtype": "factoid\\nreviewtui: FORGED TYPE"}\n'
    )
    assert main(["info", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert not any(line.startswith(("reviewtui: FORGED", "FORGED")) for line in lines), lines
    assert any("S\u21b5reviewtui: FORGED" in line for line in lines)


class _FullDisk(io.StringIO):
    """Standard output redirected into a file on a full disk: a write, or the flush, fails (as a buffer
    fills, or at the end)."""

    def __init__(self, at: str) -> None:
        super().__init__()
        self.at = at

    def write(self, text: str) -> int:
        if self.at == "write":
            raise OSError(28, os.strerror(28))
        return super().write(text)

    def flush(self) -> None:
        if self.at == "flush":
            raise OSError(28, os.strerror(28))


@pytest.mark.parametrize("at", ["write", "flush"])
@pytest.mark.parametrize("command", ["info", "status", "audit"])
def test_a_report_that_cannot_reach_standard_output_names_it(tmp_path, monkeypatch, capsys, command, at):
    """`reviewtui status quiz.jsonl > report.txt` on a full disk said "reviewtui: No space left on device"."""
    path = write_jsonl(cg.EvalSet(id="s", items=(cg.EvalItem(id="q1", question="Where is the office of the team?"),)), tmp_path / "s.jsonl")
    monkeypatch.setattr(sys, "stdout", _FullDisk(at))
    assert main([command, str(path)]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == f"standard output: cannot write: {os.strerror(28)}"


@pytest.mark.parametrize("as_json", [False, True])
def test_a_line_holding_a_huge_id_is_cut_on_a_terminal_and_whole_into_a_pipe(tmp_path, monkeypatch, capsys, as_json):
    """overlap printed a line of 20,000 characters for two 10,000-character ids (a 10 MB id made a 10 MB line);
    the app already cut such ids, the command line did not."""
    long_id = "q" + "7" * 10_000
    item = cg.EvalItem(id=long_id, question="Where is the office of the team now?")
    test = write_jsonl(cg.EvalSet(id="test", items=(item,)), tmp_path / "test.jsonl")
    train = write_jsonl(cg.EvalSet(id="train", items=(item,)), tmp_path / "train.jsonl")
    argv = ["overlap", str(test), str(train), *(["--to", "json"] if as_json else [])]
    assert main(argv) == 1
    piped = capsys.readouterr().out
    assert long_id in piped  # into a pipe, whole: something may read it
    terminal = on_a_terminal(monkeypatch)
    assert main(argv) == 1
    out, _ = terminal()
    if as_json:  # asked for by name, JSON stays JSON, whatever it holds
        assert long_id in out and "characters left out]" not in out
        return
    assert long_id not in out and "characters left out]" in out
    assert max(map(len, out.splitlines())) < 2100


@pytest.mark.parametrize("command", [[], ["adjudicate"]])
@pytest.mark.parametrize("stdin", ["devnull", "closed"])
def test_the_review_app_without_a_terminal_is_refused_at_once_and_makes_no_file(tmp_path, command, stdin):
    """`reviewtui FILE </dev/null` (a script, a CI job) started the app: it spun a core for ever with no keys to read
    and drew its screen into the error stream; with standard input closed it crashed, and both left a journal."""
    path = write_jsonl(cg.EvalSet(id="s", items=(cg.EvalItem(id="q1", question="Which form opens a loan?"),)), tmp_path / "s.jsonl")
    if command:  # two reviewers who disagree: something to adjudicate
        from reviewtui.evalset.review.team import TeamPlan

        assert main(["assign", str(path), "--reviewers", "ana,bo", "--overlap", "2"]) == 0
        plan = TeamPlan.load(path)
        with ReviewSession.open(path, reviewer="ana", team=plan) as session:
            session.accept()
        with ReviewSession.open(path, reviewer="bo", team=plan) as session:
            session.reject(reason="wrong-answer")
    before = sorted(p.name for p in tmp_path.rglob("*"))
    argv = [sys.executable, "-m", "reviewtui", *command, str(path)]
    env = {**os.environ, "TERM": "xterm-256color"}
    if stdin == "closed":
        done = subprocess.run(["sh", "-c", 'exec "$@" <&-', "sh", *argv], capture_output=True, text=True, timeout=60, env=env)
    else:
        done = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 2, done.stderr[-2000:]
    assert "the review app needs a terminal" in done.stderr and "standard input" in done.stderr
    assert "\x1b" not in done.stderr + done.stdout and "Traceback" not in done.stderr
    assert sorted(p.name for p in tmp_path.rglob("*")) == before  # no journal, no lock


@pytest.mark.real_terminal_check
def test_the_review_app_names_the_stream_that_is_not_a_terminal(tmp_path, monkeypatch, capsys):
    path = write_jsonl(cg.EvalSet(id="s", items=(cg.EvalItem(id="q1", question="Which form opens a loan?"),)), tmp_path / "s.jsonl")
    monkeypatch.setattr(sys, "stdin", Tty())  # keys from a terminal, the screen into a log (`reviewtui FILE 2>log`)
    assert main([str(path)]) == 2
    err = capsys.readouterr().err
    assert "the review app needs a terminal" in err and "standard error is not one here" in err
    assert "standard input" not in err.split("and draws on standard error, and")[1]


def _gone_reader(argv: list[str], stream: str) -> subprocess.CompletedProcess:
    """Run the command with the reader of ``stream`` ("stdout" or "stderr") gone before it writes (`| head`)."""
    env = {**os.environ, "TERM": "xterm-256color"}
    proc = subprocess.Popen([sys.executable, "-m", "reviewtui", *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    getattr(proc, stream).close()  # the reader leaves at once
    other = proc.stderr if stream == "stdout" else proc.stdout
    rest = other.read()
    other.close()
    return subprocess.CompletedProcess(argv, proc.wait(timeout=120), b"", rest)


def test_a_reader_gone_from_the_messages_loses_neither_the_output_nor_the_exit_code(tmp_path):
    """`reviewtui resolve … -o out.jsonl --strict | head -3` exited 0 and, as often as not, wrote nothing: the broken
    pipe of its messages ended the command as if it had finished."""
    from reviewtui.evalset.evidence.corpus import Corpus  # noqa: F401  (the corpus is a folder here)

    corpus = tmp_path / "docs"
    corpus.mkdir()
    (corpus / "rules.md").write_text("Loans last two weeks. Fines are one euro a day.\n", encoding="utf-8")
    items = tuple(
        cg.EvalItem(id=f"q{k}", question=f"What is rule {k} of the library?", anchors=(cg.GoldAnchor("gone.md" if k % 2 else "rules.md", "Loans last two weeks."),))
        for k in range(40)
    )
    path = write_jsonl(cg.EvalSet(id="s", items=items), tmp_path / "s.jsonl")
    out = tmp_path / "out.jsonl"
    done = _gone_reader(["resolve", str(path), "--corpus", str(corpus), "-o", str(out), "--strict"], "stdout")
    assert done.returncode == 1, done.stderr[-1500:]  # --strict: some quotes are not found
    assert out.exists() and len(out.read_text(encoding="utf-8").splitlines()) >= 40
    assert b"Traceback" not in done.stderr


def test_a_reader_gone_from_a_report_leaves_a_failing_findings_exit_code(tmp_path):
    """`reviewtui audit quiz.jsonl | head -1` on a set with conflicting answers exited 0 as often as not."""
    items = (
        cg.EvalItem(id="q1", question="How long is a loan of a drill?", answer="two weeks"),
        cg.EvalItem(id="q2", question="How long is a loan of a drill?", answer="three days"),
        *(cg.EvalItem(id=f"x{k}", question=f"Which tool has the number {k} on its tag?", answer=f"tool {k}") for k in range(200)),
    )
    path = write_jsonl(cg.EvalSet(id="s", items=items), tmp_path / "s.jsonl")
    done = _gone_reader(["audit", str(path)], "stdout")
    assert done.returncode == 1, done.stderr[-1500:]
    assert b"Traceback" not in done.stderr


def test_a_reader_gone_from_the_messages_leaves_the_data_on_standard_output_whole(tmp_path):
    """`reviewtui export quiz.jsonl -o - 2>&1 >out.jsonl | head -1`: the note on standard error met a closed pipe, and
    the export ended with exit 0 and nothing on standard output."""
    items = tuple(cg.EvalItem(id=f"q{k}", question=f"Which tool has the number {k} on its tag?") for k in range(30))
    path = write_jsonl(cg.EvalSet(id="s", items=items), tmp_path / "s.jsonl")
    env = {**os.environ, "TERM": "xterm-256color"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "reviewtui", "export", str(path), "-o", "-"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
    )
    proc.stderr.close()
    data = proc.stdout.read()
    proc.stdout.close()
    assert proc.wait(timeout=120) == 0
    lines = data.decode().splitlines()
    assert len([line for line in lines if line.startswith('{"id"')]) == 30


@pytest.mark.parametrize("name", ["/dev/fd/1", "/proc/self/fd/1"])
def test_standard_output_by_another_name_gets_the_data_alone(tmp_path, name):
    """`reviewtui export quiz.jsonl -o /dev/fd/1 | …` put the note and the "wrote" line among the JSONL lines."""
    if not os.path.exists(name):
        pytest.skip(f"{name} does not exist on this system")
    items = tuple(cg.EvalItem(id=f"q{k}", question=f"Which tool has the number {k} on its tag?") for k in range(5))
    path = write_jsonl(cg.EvalSet(id="s", items=items), tmp_path / "s.jsonl")
    env = {**os.environ, "TERM": "xterm-256color"}
    done = subprocess.run([sys.executable, "-m", "reviewtui", "export", str(path), "-o", name], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines and all(line.startswith("{") for line in lines) and len(lines) == 6  # the header and five items
    assert "wrote standard output" in done.stderr


def test_a_reader_gone_from_the_data_or_from_an_error_leaves_the_exit_code(tmp_path):
    """`resolve … -o - --strict | true` exited 0 (the data's broken pipe ended it as a success), and an input error
    said into a closed pipe (`info missing.jsonl 2>&1 | true`) exited 1, not 2."""
    corpus = tmp_path / "docs"
    corpus.mkdir()
    (corpus / "rules.md").write_text("Nothing the quotes say.\n", encoding="utf-8")
    items = tuple(cg.EvalItem(id=f"q{k}", question=f"What is rule {k}?", anchors=(cg.GoldAnchor("rules.md", "Loans last two weeks."),)) for k in range(50))
    path = write_jsonl(cg.EvalSet(id="s", items=items), tmp_path / "s.jsonl")
    done = _gone_reader(["resolve", str(path), "--corpus", str(corpus), "-o", "-", "--strict"], "stdout")
    assert done.returncode == 1 and b"Traceback" not in done.stderr
    done = _gone_reader(["info", str(tmp_path / "missing.jsonl")], "stderr")
    assert done.returncode == 2

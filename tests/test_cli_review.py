"""`reviewtui review`: what the process exit code says about how the app ended."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

import reviewtui as cg
from reviewtui.cli import main
from reviewtui.evalset.io import write_jsonl
from reviewtui.evalset.review.session import ReviewSession
from reviewtui.tui import app as app_module


@pytest.fixture
def quiz(tmp_path):
    items = tuple(cg.EvalItem(id=f"q{i}", question=f"Which form does rule {i} ask for?") for i in range(3))
    path = write_jsonl(cg.EvalSet(id="quiz", items=items), tmp_path / "quiz.jsonl")
    with ReviewSession.open(path, reviewer="ana") as session:
        session.accept()
    return path


def _headless(base: type) -> type:
    class Headless(base):
        def run(self, **kwargs):
            kwargs["headless"] = True
            return super().run(**kwargs)

    return Headless


def test_an_app_that_crashes_in_a_handler_exits_non_zero_with_one_line(quiz, monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(app_module, "user_log_path", lambda name: tmp_path / "logs" / name)

    class Crashing(app_module.ReviewApp):
        def on_ready(self) -> None:
            secret = "\x1b]52;c;aGk=\x07 [b]data[/b]"  # a local variable holding set data
            raise RuntimeError(f"boom in a handler {len(secret)}")

    journal = quiz.with_name("quiz.jsonl.reviewtui-journal")
    before = journal.read_bytes()
    monkeypatch.setattr(app_module, "ReviewApp", _headless(Crashing))
    assert main(["review", str(quiz)]) == 1
    err = capsys.readouterr().err
    # Textual's traceback with local variables is not printed: only our one line.
    assert "\x1b" not in err and "aGk=" not in err and "Traceback" not in err
    (last,) = err.rstrip("\n").splitlines()
    prefix = (
        "reviewtui: the review app stopped on an internal error (RuntimeError: boom in a handler 24); "
        f"every decision made until then is in the journal at {journal}; the traceback is in "
    )
    assert last.startswith(prefix)
    report = Path(last[len(prefix) :])
    assert report.is_file() and "RuntimeError: boom in a handler" in report.read_text()
    assert journal.read_bytes().startswith(before)  # the decisions made before are still there
    assert not quiz.with_name("quiz.jsonl.reviewtui-lock").exists()  # and the lock was released


def test_an_app_that_quits_normally_exits_0(quiz, monkeypatch, capsys):
    class Quitting(app_module.ReviewApp):
        def on_ready(self) -> None:
            self.exit()

    monkeypatch.setattr(app_module, "ReviewApp", _headless(Quitting))
    assert main(["review", str(quiz)]) == 0
    assert "internal error" not in capsys.readouterr().err


@pytest.mark.parametrize("where", ["typo/deep/tree/quiz.journal", "quiz.jsonl/quiz.journal"])
def test_a_journal_in_a_folder_that_is_not_there_is_refused_not_made(quiz, monkeypatch, capsys, where):
    """`--journal` with a mistyped folder made the whole tree and began a new review in it: the review to
    resume looked lost, and its next decisions went into a stray journal."""
    class Quitting(app_module.ReviewApp):
        def on_ready(self) -> None:
            self.exit()

    monkeypatch.setattr(app_module, "ReviewApp", _headless(Quitting))
    journal = quiz.parent / where
    before = sorted(p.name for p in quiz.parent.iterdir())
    assert main(["review", str(quiz), "--journal", str(journal)]) == 2
    err = capsys.readouterr().err
    assert f"{journal}: the folder the journal goes in " in err and "check the path" in err
    assert sorted(p.name for p in quiz.parent.iterdir()) == before  # nothing made, no lock taken
    (quiz.parent / "elsewhere").mkdir()
    assert main(["review", str(quiz), "--journal", str(quiz.parent / "elsewhere" / "j")]) == 0  # a folder that is there
    assert (quiz.parent / "elsewhere" / "j").exists()


def test_a_long_review_opens_behind_the_question_it_ended_on(quiz, monkeypatch, capsys):
    from reviewtui.evalset.review import loading

    monkeypatch.setattr(loading, "PREVIEW_FROM_BYTES", 0)  # every journal counts as long here
    seen = {}

    class Opened(app_module.ReviewApp):
        async def _open_for_keys(self) -> None:
            await super()._open_for_keys()
            seen["preview"] = self._opening.preview.id
            seen["current"] = self.session.queue.current.id
            self.exit()

    monkeypatch.setattr(app_module, "ReviewApp", _headless(Opened))
    assert main(["review", str(quiz)]) == 0
    assert seen == {"preview": "q1", "current": "q1"}
    assert capsys.readouterr().err == ""
    assert not quiz.with_name("quiz.jsonl.reviewtui-lock").exists()  # the session was closed


def test_a_long_review_that_cannot_open_says_why_in_one_line(quiz, monkeypatch, capsys):
    from reviewtui.evalset.review import loading

    monkeypatch.setattr(loading, "PREVIEW_FROM_BYTES", 0)
    monkeypatch.setattr(app_module, "ReviewApp", _headless(app_module.ReviewApp))
    with ReviewSession.open(quiz, reviewer="bo"):  # another session holds the set: the opening behind the preview fails
        assert main(["review", str(quiz)]) == 2
    err = capsys.readouterr().err
    (line,) = err.rstrip("\n").splitlines()
    assert "Traceback" not in err and "bo" in line


def test_quitting_a_long_review_while_it_opens_closes_it_cleanly(quiz, monkeypatch, capsys):
    from reviewtui.evalset.review import loading
    from reviewtui.evalset.review.session import ReviewSession as Session

    monkeypatch.setattr(loading, "PREVIEW_FROM_BYTES", 0)
    real_open = Session.open
    opened = []

    def slow_open(*args, **kwargs):
        time.sleep(0.5)  # still opening when the reviewer quits
        opened.append(real_open(*args, **kwargs))
        return opened[-1]

    monkeypatch.setattr(Session, "open", slow_open)

    class QuitAtOnce(app_module.ReviewApp):
        def on_ready(self) -> None:
            self.set_timer(0.2, self.exit)  # the opening's thread starts right after the first paint

    monkeypatch.setattr(app_module, "ReviewApp", _headless(QuitAtOnce))
    assert main(["review", str(quiz)]) == 0
    err = capsys.readouterr().err
    assert "Traceback" not in err and "closing the review once it has finished opening" in err
    assert len(opened) == 1 and opened[0].closed  # opened behind the app, and closed after it
    assert not quiz.with_name("quiz.jsonl.reviewtui-lock").exists()


def test_ctrl_c_while_a_quit_review_finishes_opening_still_releases_its_lock(quiz, monkeypatch, capsys):
    from reviewtui.evalset.review import loading
    from reviewtui.evalset.review.session import ReviewSession as Session
    from reviewtui.tui.opening import Opening

    monkeypatch.setattr(loading, "PREVIEW_FROM_BYTES", 0)
    real_open, real_wait = Session.open, Opening.wait
    opened, interrupts = [], [1]

    def slow_open(*args, **kwargs):
        time.sleep(0.5)  # still opening when the reviewer quits
        opened.append(real_open(*args, **kwargs))
        return opened[-1]

    def wait_interrupted_once(self):
        if interrupts:  # the reviewer presses Ctrl+C while the command waits for the opening
            interrupts.pop()
            raise KeyboardInterrupt
        return real_wait(self)

    monkeypatch.setattr(Session, "open", slow_open)
    monkeypatch.setattr(Opening, "wait", wait_interrupted_once)

    class QuitAtOnce(app_module.ReviewApp):
        def on_ready(self) -> None:
            self.set_timer(0.2, self.exit)

    monkeypatch.setattr(app_module, "ReviewApp", _headless(QuitAtOnce))
    assert main(["review", str(quiz)]) == 130  # stopped as interrupted, as the shell expects of Ctrl+C
    err = capsys.readouterr().err
    assert "Traceback" not in err and "still closing the review so that its lock is released" in err
    assert not interrupts and len(opened) == 1 and opened[0].closed  # the wait went on and closed what it opened
    assert not quiz.with_name("quiz.jsonl.reviewtui-lock").exists()


# ---- a BEIR folder's own corpus: the documents its gold names, shown without --corpus ----


def _beir_folder(root: Path, corpus: str | None) -> Path:
    import json

    (root / "qrels").mkdir(parents=True)
    queries = "".join(json.dumps({"_id": f"q{n}", "text": f"Which clause covers case {n}?"}) + "\n" for n in range(3))
    (root / "queries.jsonl").write_text(queries, encoding="utf-8")
    (root / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\nq0\td0\t1\nq1\td1\t1\nq2\td2\t1\n", encoding="utf-8")
    if corpus is not None:
        (root / "corpus.jsonl").write_text(corpus, encoding="utf-8")
    return root


_CORPUS = "".join(f'{{"_id": "d{n}", "title": "Clause {n}", "text": "Case {n} is covered here."}}\n' for n in range(3))


def _opened_app(monkeypatch):
    """Run the review command headless; the app quits once it has said how it opened. Returns what it held."""
    seen = {}

    class Looking(app_module.ReviewApp):
        def notify(self, message, **kwargs) -> None:
            seen.setdefault("notices", []).append((message, kwargs.get("markup", True)))
            super().notify(message, **kwargs)

        def _start_background(self) -> None:
            seen["notices"] = []
            super()._start_background()
            seen["corpus"] = self.corpus
            assert all(markup is False for _, markup in seen["notices"])  # data is never markup
            seen["notices"] = [message for message, _ in seen["notices"]]
            self.exit()

    monkeypatch.setattr(app_module, "ReviewApp", _headless(Looking))
    return seen


def test_a_beir_folder_is_reviewed_with_the_documents_it_holds(tmp_path, monkeypatch):
    folder = _beir_folder(tmp_path / "set", _CORPUS)
    seen = _opened_app(monkeypatch)
    assert main(["review", str(folder)]) == 0
    corpus = seen["corpus"]
    assert corpus is not None and corpus.get("d1").text.endswith("Case 1 is covered here.")
    assert not any("corpus" in notice for notice in seen["notices"])


def test_a_corpus_named_on_the_command_line_is_the_one_used(tmp_path, monkeypatch):
    folder = _beir_folder(tmp_path / "set", _CORPUS)
    other = tmp_path / "other.jsonl"
    other.write_text('{"_id": "d1", "title": "", "text": "Another text."}\n', encoding="utf-8")
    seen = _opened_app(monkeypatch)
    assert main(["review", str(folder), "--corpus", str(other)]) == 0
    assert seen["corpus"].get("d1").text.endswith("Another text.") and seen["corpus"].get("d0") is None


def test_an_unreadable_folder_corpus_leaves_the_review_without_documents_and_says_why(tmp_path, monkeypatch):
    folder = _beir_folder(tmp_path / "set[b]", _CORPUS + '{"_id": "d1", "title": "", "text": "again"}\n')
    seen = _opened_app(monkeypatch)
    assert main(["review", str(folder)]) == 0  # the review opens: its documents are an aid, not its input
    assert seen["corpus"] is None
    (notice,) = [n for n in seen["notices"] if "corpus.jsonl cannot be read" in n]
    assert "document id 'd1' is used twice" in notice and "set[b]" in notice  # the path as it is, not as markup


def test_a_folder_corpus_that_is_a_named_pipe_is_not_opened_and_the_review_says_why(tmp_path, monkeypatch):
    """It was taken for a set shared without its corpus, and the review went on without a word."""
    import os

    folder = _beir_folder(tmp_path / "set", None)
    os.mkfifo(folder / "corpus.jsonl")  # never opened: it has no writer
    seen = _opened_app(monkeypatch)
    assert main(["review", str(folder)]) == 0
    assert seen["corpus"] is None
    (notice,) = [n for n in seen["notices"] if "corpus.jsonl cannot be read" in n]
    assert "its corpus.jsonl is a named pipe" in notice


def test_a_large_folder_corpus_is_left_for_corpus_to_name(tmp_path, monkeypatch):
    from reviewtui.cli import options

    folder = _beir_folder(tmp_path / "set", _CORPUS)
    monkeypatch.setattr(options, "FOLDER_CORPUS_LIMIT", 100)
    seen = _opened_app(monkeypatch)
    assert main(["review", str(folder)]) == 0
    assert seen["corpus"] is None
    (notice,) = [n for n in seen["notices"] if "is not opened without being named" in n]
    assert f"--corpus {folder / 'corpus.jsonl'}" in notice


def test_a_folder_without_a_corpus_and_other_formats_are_reviewed_as_before(tmp_path, monkeypatch, quiz):
    folder = _beir_folder(tmp_path / "set", None)
    seen = _opened_app(monkeypatch)
    assert main(["review", str(folder)]) == 0 and seen["corpus"] is None
    assert main(["review", str(quiz)]) == 0 and seen["corpus"] is None


def test_a_step_the_journal_could_not_take_makes_the_review_exit_2_and_say_so(quiz, monkeypatch, capsys):
    import errno
    import os

    from reviewtui.evalset.io import journal as journal_mod

    real_write = os.write

    class FullDisk(app_module.ReviewApp):
        def on_ready(self) -> None:
            def full(fd, data):
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

            journal_mod.os.write = full  # type: ignore[attr-defined]
            try:
                self.review_screen.run_step(self.session.accept)  # said on the screen, nothing made
                self.review_screen.run_step(self.session.skip)
            finally:
                journal_mod.os.write = real_write  # type: ignore[attr-defined]
            self.review_screen.run_step(self.session.accept)  # space freed: this one is saved
            self.exit()

    monkeypatch.setattr(app_module, "ReviewApp", _headless(FullDisk))
    assert main(["review", str(quiz)]) == 2
    journal = quiz.with_name("quiz.jsonl.reviewtui-journal")
    (line,) = capsys.readouterr().err.rstrip("\n").splitlines()
    assert line == (
        f"{journal}: 2 steps of this review were not made, as the journal could not take them "
        "(No space left on device); every step the review showed as made is in the journal"
    )
    with ReviewSession.open(quiz) as again:  # the one saved step is there, the refused ones are not
        assert [d.verdict.value for d in again.queue.decisions.values()] == ["accepted", "accepted"]


def test_a_file_named_with_a_dash_is_reviewed_after_a_double_dash(tmp_path, monkeypatch, capsys):
    """`reviewtui -- -dash.jsonl` said "invalid choice: '--'"; `reviewtui review -- -dash.jsonl` worked."""
    class Quitting(app_module.ReviewApp):
        def on_ready(self) -> None:
            self.exit()

    monkeypatch.setattr(app_module, "ReviewApp", _headless(Quitting))
    monkeypatch.chdir(tmp_path)
    items = (cg.EvalItem(id="q0", question="Which form does the rule ask for?"),)
    write_jsonl(cg.EvalSet(id="dash", items=items), tmp_path / "-dash.jsonl")
    assert main(["--", "-dash.jsonl"]) == 0
    assert (tmp_path / "-dash.jsonl.reviewtui-journal").exists()
    assert main(["--all", "--", "-dash.jsonl"]) == 0  # review options first, then the file
    assert "invalid choice" not in capsys.readouterr().err

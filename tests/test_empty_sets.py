"""A set file without questions: the readers return an empty set, every command that works on questions refuses it.

The reference pages document what the readers return, so they stay as they are: a
JSONL file with no item lines (or only a header) and a CSV file with only its header
row read as empty sets, the way writing an empty set leaves them; a CSV file without
even a header row has no question column, which the reader refuses. The commands
decide alike for every format: ``path: no questions in this file`` and exit code 2,
never an empty review app or an empty report.
"""

from __future__ import annotations

import pytest

import reviewtui as cg
from reviewtui.cli import main
from reviewtui.evalset.io import read_csv, read_jsonl, require_questions, write_csv, write_jsonl
from reviewtui.tui import app as app_module

EMPTY_FILES = {
    "nothing.jsonl": "",
    "blank-lines.jsonl": "\n  \n\n",
    "header-only.jsonl": '{"_evalset": {"id": "quiz", "version": 1, "source": "manual", "meta": {}}}\n',
    "header-only.csv": "id,question,source_id,quote\r\n",
    "header-then-blank.csv": "id,question\n\n",
}


class _NoApp:
    """Stands in for the review app: records that it was asked to open, and opens nothing."""

    opened: list[object] = []

    def __init__(self, session, **_kwargs) -> None:
        _NoApp.opened.append(session)
        self.load_error = None
        self.return_code = 0
        self.stopped_by = None  # no signal ended it
        self.keys_not_used = 0

    def run(self) -> None:
        pass


@pytest.fixture
def no_app(monkeypatch):
    _NoApp.opened = []
    monkeypatch.setattr(app_module, "ReviewApp", _NoApp)
    return _NoApp


def _write(tmp_path, name: str):
    path = tmp_path / name
    path.write_text(EMPTY_FILES[name], encoding="utf-8")
    return path


# --- the library: what the readers document --------------------------------------------------


def test_readers_return_an_empty_set_for_a_file_without_items(tmp_path):
    for name in EMPTY_FILES:
        path = _write(tmp_path, name)
        read = read_csv if name.endswith(".csv") else read_jsonl
        assert len(read(path)) == 0, name


def test_an_empty_set_written_reads_back_empty_in_both_formats(tmp_path):
    empty = cg.EvalSet(id="quiz", items=())
    assert len(read_jsonl(write_jsonl(empty, tmp_path / "e.jsonl"))) == 0
    assert len(read_csv(write_csv(empty, tmp_path / "e.csv"))) == 0


def test_a_csv_file_without_a_header_row_is_refused_in_the_same_words(tmp_path):
    path = tmp_path / "zero.csv"
    path.write_bytes(b"")
    with pytest.raises(cg.EvalSetError) as caught:
        read_csv(path)
    assert str(caught.value) == f"{path}: no questions in this file: it is empty, without even the header row that names the columns"


def test_require_questions_passes_a_set_with_items_through(tmp_path):
    evalset = cg.EvalSet(id="one", items=(cg.EvalItem(id="q1", question="What is the notice period?"),))
    assert require_questions(evalset, tmp_path / "one.jsonl") is evalset


# --- the commands ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(EMPTY_FILES))
def test_review_refuses_a_file_without_questions_and_opens_no_app(tmp_path, capsys, no_app, name):
    path = _write(tmp_path, name)
    assert main(["review", str(path)]) == 2
    assert capsys.readouterr().err == f"{path}: no questions in this file\n"
    assert no_app.opened == []
    assert not path.with_name(name + ".reviewtui-lock").exists()


@pytest.mark.parametrize("name", ["nothing.jsonl", "blank-lines.jsonl", "header-only.jsonl"])
def test_review_of_an_empty_jsonl_file_leaves_no_journal_behind(tmp_path, no_app, name):
    path = _write(tmp_path, name)
    assert main(["review", str(path)]) == 2
    assert main(["review", "--from", "jsonl", str(path)]) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]


def test_review_of_a_zero_byte_csv_file_says_there_are_no_questions(tmp_path, capsys, no_app):
    path = tmp_path / "zero.csv"
    path.write_bytes(b"")
    assert main(["review", str(path)]) == 2
    assert capsys.readouterr().err.startswith(f"{path}: no questions in this file")
    assert no_app.opened == []


def test_review_still_opens_a_set_with_questions(tmp_path, no_app):
    items = (cg.EvalItem(id="q1", question="What is the notice period for resignation?"),)
    for path in (write_jsonl(cg.EvalSet(id="one", items=items), tmp_path / "one.jsonl"),
                 write_csv(cg.EvalSet(id="two", items=items), tmp_path / "two.csv")):
        assert main(["review", str(path)]) == 0
    assert len(no_app.opened) == 2


@pytest.mark.parametrize("command", ["status", "audit", "filter", "resolve", "convert"])
@pytest.mark.parametrize("name", ["nothing.jsonl", "header-only.jsonl", "header-only.csv"])
def test_every_command_on_questions_refuses_a_file_without_them(tmp_path, capsys, command, name):
    path = _write(tmp_path, name)
    extra = {"resolve": ["--corpus", str(tmp_path)], "convert": [str(tmp_path / "out.jsonl")]}.get(command, [])
    assert main([command, str(path), *extra]) == 2
    out, err = capsys.readouterr()
    assert err == f"{path}: no questions in this file\n"
    assert out == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]  # nothing written: no new version, no journal


def test_the_refusal_says_what_the_reader_skipped(tmp_path, capsys):
    path = tmp_path / "blank-rows.csv"
    path.write_text("id,question\n,\n,\n", encoding="utf-8")
    with pytest.warns(UserWarning, match="every cell empty"):
        assert main(["audit", str(path)]) == 2
    assert capsys.readouterr().err == f"{path}: no questions in this file; 2 rows skipped: 2 every cell empty.\n"


@pytest.mark.parametrize("name", sorted(n for n in EMPTY_FILES if not n.endswith(".jsonl")))
def test_review_of_an_empty_file_in_another_format_leaves_no_journal_behind(tmp_path, no_app, name):
    path = _write(tmp_path, name)
    assert main(["review", str(path)]) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]


@pytest.mark.parametrize("name", sorted(EMPTY_FILES))
def test_export_refuses_a_file_without_questions_and_writes_nothing(tmp_path, capsys, name):
    path = _write(tmp_path, name)
    assert main(["export", str(path)]) == 2
    assert capsys.readouterr().err.startswith(f"{path}: no questions in this file")
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]


def test_the_quality_notes_of_an_empty_set_say_it_is_empty_once():
    """'none of the 0 questions has evidence' and '0% of the questions are checked by a person' said it twice, oddly."""
    notes = [str(entry) for entry in cg.assess(cg.EvalSet(id="e", items=())).warnings().entries]
    assert len(notes) == 1 and "holds no questions" in notes[0]

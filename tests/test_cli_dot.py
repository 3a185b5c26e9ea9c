"""`reviewtui .` inside a BEIR folder: the set, its journal, its lock and its exports are named after the folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewtui.cli import main
from reviewtui.evalset.io.journal import default_journal_path
from reviewtui.evalset.io.lock import default_lock_path


@pytest.fixture
def beir(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "scifact"
    (folder / "qrels").mkdir(parents=True)
    (folder / "queries.jsonl").write_text(
        '{"_id": "1", "text": "Which protein binds the receptor?"}\n{"_id": "2", "text": "What does the trial measure?"}\n'
    )
    (folder / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\n1\td1\t1\n2\td2\t1\n")
    monkeypatch.chdir(folder)
    return folder


@pytest.mark.parametrize("spelling", [".", "./"])
def test_review_files_of_the_current_folder_are_named_after_it(beir, spelling):
    assert default_journal_path(spelling) == beir.parent / "scifact.reviewtui-journal"
    assert default_lock_path(spelling) == beir.parent / "scifact.reviewtui-lock"


def test_the_parent_folder_is_named_too(beir, monkeypatch):
    monkeypatch.chdir(beir / "qrels")
    assert default_journal_path("..") == beir.parent / "scifact.reviewtui-journal"


@pytest.mark.parametrize("spelling", [".", "./"])
def test_info_status_and_export_on_the_current_folder(beir, spelling, capsys):
    assert main(["info", spelling]) == 0
    assert capsys.readouterr().out.startswith("scifact v1 (beir): 2 questions")
    assert main(["status", spelling]) == 0
    assert capsys.readouterr().out.startswith("scifact: set 'scifact' v1")
    assert main(["export", spelling]) == 0
    assert (beir.parent / "scifact.v2.jsonl").is_file()

"""Choosing a BEIR folder's qrels file (--split), and messages that speak the command line, not the Python API."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reviewtui.cli import main
from reviewtui.evalset.io import describe_skipped, open_evalset
from reviewtui.evalset.model.errors import InputError

QUERIES = "".join(json.dumps({"_id": f"q{n}", "text": f"What does question number {n} ask?"}) + "\n" for n in range(1, 6))


@pytest.fixture
def splits(tmp_path: Path) -> Path:
    """A BEIR folder with train (q1-q3) and dev (q4) judgements and no test.tsv."""
    root = tmp_path / "splits"
    (root / "qrels").mkdir(parents=True)
    (root / "queries.jsonl").write_text(QUERIES, encoding="utf-8")
    (root / "qrels" / "train.tsv").write_text("query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td2\t1\nq3\td3\t1\n", encoding="utf-8")
    (root / "qrels" / "dev.tsv").write_text("query-id\tcorpus-id\tscore\nq4\td4\t1\n", encoding="utf-8")
    return root


def test_split_chooses_the_qrels_file(splits: Path) -> None:
    assert [item.id for item in open_evalset(splits, split="train")] == ["q1", "q2", "q3"]
    assert [item.id for item in open_evalset(splits, split="dev.tsv")] == ["q4"]
    assert [item.id for item in open_evalset(splits, format="beir", split="dev")] == ["q4"]


def test_several_qrels_files_name_the_option_not_the_python_call(splits: Path) -> None:
    with pytest.raises(InputError) as caught:
        open_evalset(splits)
    message = str(caught.value)
    assert "several qrels files (dev.tsv, train.tsv) and no test.tsv" in message
    assert "--split" in message and "call read_beir" not in message


def test_a_split_the_folder_does_not_have_is_refused_listing_the_ones_it_has(splits: Path) -> None:
    with pytest.raises(InputError, match=r"no qrels file for the split 'test'; its qrels files are: dev.tsv, train.tsv"):
        open_evalset(splits, split="test")
    with pytest.raises(InputError, match="no qrels file"):
        open_evalset(splits, split="../qrels/train")  # a name, never a path


def test_a_split_for_a_set_that_is_not_beir_is_refused_not_ignored(tmp_path: Path, splits: Path) -> None:
    plain = tmp_path / "plain.jsonl"
    plain.write_text('{"id": "a", "question": "What?"}\n', encoding="utf-8")
    with pytest.raises(InputError, match="chooses among the qrels files of a BEIR folder"):
        open_evalset(plain, split="train")
    with pytest.raises(InputError, match="chooses among the qrels files of a BEIR folder"):
        open_evalset(splits, format="jsonl", split="train")


def test_dropped_queries_name_the_split_read_and_the_ones_not_read(splits: Path) -> None:
    train = open_evalset(splits, split="train")
    assert (train.meta["qrels_file"], train.meta["other_qrels_files"]) == ("train.tsv", ["dev.tsv"])
    line = describe_skipped(train)
    assert line == (
        "2 queries dropped (no positive judgement in qrels/train.tsv, the split read; "
        "qrels/dev.tsv was not read: --split dev reads it)."
    )
    (splits / "qrels" / "test.tsv").write_text("q5\td5\t1\n", encoding="utf-8")
    line = describe_skipped(open_evalset(splits))
    assert "4 queries dropped (no positive judgement in qrels/test.tsv, the split read; " in line
    assert "qrels/dev.tsv, qrels/train.tsv were not read" in line


def test_a_folder_with_one_qrels_file_keeps_the_plain_sentence(splits: Path) -> None:
    (splits / "qrels" / "dev.tsv").unlink()
    evalset = open_evalset(splits)
    assert "qrels_file" not in evalset.meta
    assert describe_skipped(evalset) == "2 queries dropped (no positive judgement in the qrels)."


def test_info_and_convert_take_split(splits: Path, tmp_path: Path, capsys) -> None:
    assert main(["info", str(splits), "--split", "train"]) == 0
    out = capsys.readouterr().out
    assert "3 questions" in out and "qrels/dev.tsv was not read: --split dev reads it" in out
    target = tmp_path / "dev.jsonl"
    assert main(["convert", str(splits), str(target), "--split", "dev"]) == 0
    capsys.readouterr()
    assert [item.id for item in open_evalset(target)] == ["q4"]


def test_without_split_the_command_line_says_which_option_to_use(splits: Path, capsys) -> None:
    assert main(["info", str(splits)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"{splits}: has several qrels files")
    assert "--split" in err and "read_beir" not in err


def test_unknown_json_names_the_from_option(tmp_path: Path, capsys) -> None:
    path = tmp_path / "odd.json"
    path.write_text('{"something": []}', encoding="utf-8")
    assert main(["info", str(path)]) == 2
    err = capsys.readouterr().err
    assert "--from" in err and "pass format=" not in err


# --- the real SciFact folder: test.tsv (300 queries) and train.tsv (809), SOURCES.md 1a ------------------


def test_real_scifact_says_the_dropped_queries_are_in_train(realdata):
    evalset = open_evalset(realdata / "beir-scifact")
    assert len(evalset) == 300
    assert describe_skipped(evalset) == (
        "809 queries dropped (no positive judgement in qrels/test.tsv, the split read; "
        "qrels/train.tsv was not read: --split train reads it). 693 query lines with `metadata`, not read (left "
        "out on purpose: it can hold the answer key, as SciFact's evidence labels do)."
    )


def test_real_scifact_train_split_on_the_command_line(realdata, capsys):
    assert main(["info", str(realdata / "beir-scifact"), "--split", "train"]) == 0
    out = capsys.readouterr().out
    assert "809 questions" in out and "300 queries dropped" in out and "qrels/test.tsv was not read" in out

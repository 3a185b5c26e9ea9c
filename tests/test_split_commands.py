"""--split reaches every command that reads a set, the review's journal, and the app's checks process."""

from __future__ import annotations

import pytest

from reviewtui.cli import main
from reviewtui.evalset.io import read_jsonl
from reviewtui.evalset.review.session import ReviewSession
from reviewtui.tui.app import ReviewApp
from reviewtui.tui.stages import ChildJob
from tests.test_beir_split import splits  # noqa: F401 - the fixture


@pytest.mark.parametrize("command", ["status", "audit", "filter", "export"])
def test_every_command_reads_the_split_it_is_given(splits, command, capsys, tmp_path):  # noqa: F811
    out = tmp_path / "out.jsonl"
    extra = ["-o", str(out)] if command in ("filter", "export") else []
    code = main([command, "--split", "dev", str(splits), *extra])
    assert code in (0, 1), capsys.readouterr()  # audit exits 1 on a failing finding
    printed = capsys.readouterr()
    if command == "export":
        assert [item.id for item in read_jsonl(out)] == ["q4"]
    elif command == "filter":
        assert "of 1 " in printed.out, printed  # the one dev question went through the filters
    else:
        assert "1 question" in printed.out or "1 item" in printed.out or "q4" in printed.out, printed


def test_without_a_split_a_folder_with_several_says_which_option_chooses(splits, capsys):  # noqa: F811
    assert main(["status", str(splits)]) == 2
    assert "--split" in capsys.readouterr().err


def test_each_split_has_a_journal_of_its_own_and_the_checks_process_reads_the_same_split(splits, tmp_path):  # noqa: F811
    with ReviewSession.open(splits, reviewer="ana", split="train") as train:
        train.accept()
        assert train.journal_path.name == "splits.train.reviewtui-journal"
        app = ReviewApp(train)
        source = app._job_source()
        assert source is not None and source.split == "train"
        assert "train" in ChildJob("quality", source).command()
    with ReviewSession.open(splits, reviewer="ana", split="dev") as dev:
        assert dev.journal_path.name == "splits.dev.reviewtui-journal" and dev.queue.decided == 0
        assert [item.id for item in dev.queue.items] == ["q4"]


def test_a_team_on_another_split_has_a_folder_of_its_own(splits, capsys):  # noqa: F811
    from reviewtui.evalset.review.team import TeamPlan, team_folder

    assert team_folder(splits, "train") != team_folder(splits, "dev") != team_folder(splits)
    assert team_folder(splits, "dev.tsv") == team_folder(splits, "dev")
    assert main(["assign", str(splits), "--split", "train", "--reviewers", "ana,bo", "--overlap", "2"]) == 0
    assert TeamPlan.load(splits, "train") is not None and TeamPlan.load(splits, "dev") is None
    assert "3 items" in capsys.readouterr().out  # the train split's questions, q1-q3


def test_a_splits_next_version_is_named_after_it_and_its_filter_record_names_it(splits, capsys):  # noqa: F811
    """`filter --split train` and then `filter --split dev` wrote splits.v2.jsonl and splits.v3.jsonl, read as one
    set's versions; nothing in the second named its split. So too for `export` and its rejected questions."""
    assert main(["filter", "--split", "train", str(splits)]) == 0
    assert main(["filter", "--split", "dev", str(splits)]) == 0
    train, dev = splits.with_name("splits.train.v2.jsonl"), splits.with_name("splits.dev.v2.jsonl")
    assert train.exists() and dev.exists() and not splits.with_name("splits.v3.jsonl").exists()
    assert dict(read_jsonl(dev).meta["filter"])["from_split"] == "dev"
    with ReviewSession.open(splits, reviewer="ana", split="dev") as session:
        session.reject(reason="wrong-answer")
    assert main(["export", "--split", "dev", str(splits)]) == 0
    assert main(["export", "--split", "dev", "--rejected", str(splits)]) == 0
    assert [item.id for item in read_jsonl(splits.with_name("splits.dev.v3.jsonl"))] == []  # v2 is the filter's
    assert splits.with_name("splits.dev.rejected.jsonl").exists()
    capsys.readouterr()


def test_the_record_names_a_split_as_the_file_names_do(splits, tmp_path, capsys):  # noqa: F811
    """`--split train.tsv` was recorded as "train.tsv", and `--split test` (the default) as "test" while the same split
    read without the option was not named at all."""
    from reviewtui.evalset.io.journal import split_name

    out = tmp_path / "train.jsonl"
    assert main(["filter", "--split", "train.tsv", str(splits), "-o", str(out)]) == 0
    assert dict(read_jsonl(out).meta["filter"])["from_split"] == "train"
    assert (split_name("train.tsv"), split_name("dev"), split_name("test"), split_name("test.tsv"), split_name(None)) == (
        "train",
        "dev",
        None,
        None,
        None,
    )
    capsys.readouterr()

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

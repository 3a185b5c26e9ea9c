"""A team member the plan gives no item of a CSV set: their review opens empty, as a JSONL set's share does,
instead of saying the file holds no questions (it holds the team's questions, all given to others)."""

from __future__ import annotations

import pytest

from reviewtui.evalset.model.errors import InputError
from reviewtui.evalset.review.session import ReviewSession
from reviewtui.evalset.review.team import TeamPlan
from tests.tui_helpers import FakeClock

ROWS = "id,question,answer\nq1,What is the capital of France?,Paris\nq2,Who wrote Hamlet?,Shakespeare\n"


def _idle_reviewer(plan: TeamPlan) -> str:
    given = {reviewer for item_id in ("q1", "q2") for reviewer in plan.reviewers_of(item_id)}
    return next(reviewer for reviewer in plan.reviewers if reviewer not in given)


def test_a_reviewer_given_no_item_of_a_csv_set_is_not_told_the_file_has_no_questions(tmp_path):
    path = tmp_path / "quiz.csv"
    path.write_text(ROWS, encoding="utf-8")
    plan = TeamPlan.create(path, ["ana", "bo", "chen", "dee", "eve"], 1)
    plan.save()
    idle = _idle_reviewer(plan)  # five reviewers, two items, one reviewer each: three get none
    with ReviewSession.open(path, reviewer=idle, team=plan, require_questions=True, clock=FakeClock()) as session:
        assert len(session.queue) == 0


def test_a_csv_set_without_questions_is_still_refused_in_a_team(tmp_path):
    path = tmp_path / "quiz.csv"
    path.write_text("id,question,answer\n", encoding="utf-8")
    plan = TeamPlan.create(path, ["ana", "bo"], 1)
    plan.save()
    with pytest.raises(InputError, match="no questions in this file"):
        ReviewSession.open(path, reviewer="ana", team=plan, require_questions=True, clock=FakeClock())


def test_assign_does_not_say_more_reviewers_than_the_items_need_when_there_are_reviews_enough(tmp_path, capsys):
    from reviewtui.cli import main

    path = tmp_path / "quiz.csv"
    path.write_text("id,question,answer\n" + "".join(f"Q{n:03d},Question number {n}?,answer {n}\n" for n in range(1, 11)), encoding="utf-8")
    # 10 items x 2 reviews = 20 reviews for 4 reviewers, yet the hash gives [bold red]bo none of the 10
    assert main(["assign", str(path), "--reviewers", "ana,[bold red]bo,[@click=app.quit],chen é", "--overlap", "2"]) == 0
    out = capsys.readouterr().out
    idle = [line for line in out.splitlines() if line.startswith("note:") and "no item" in line]
    assert idle, out
    assert "more reviewers than the items need" not in idle[0]
    assert "hash" in idle[0]


def test_assign_says_more_reviewers_than_the_items_need_when_there_are_too_few_reviews(tmp_path, capsys):
    from reviewtui.cli import main

    path = tmp_path / "quiz.csv"
    path.write_text(ROWS, encoding="utf-8")
    assert main(["assign", str(path), "--reviewers", "ana,bo,chen,dee,eve"]) == 0
    assert "more reviewers than the items need" in capsys.readouterr().out


def test_a_renamed_csv_set_tells_the_team_to_name_it_back_not_to_leave_out_a_journal_option(tmp_path, capsys):
    from reviewtui.cli import main

    path = tmp_path / "quiz.csv"
    path.write_text(ROWS, encoding="utf-8")
    plan = TeamPlan.create(path, ["ana", "bo"], 2)
    plan.save()
    with ReviewSession.open(path, reviewer="ana", team=plan, clock=FakeClock()) as session:
        session.accept()
    renamed = tmp_path / "renamed.csv"
    path.rename(renamed)  # a CSV set's id is its file's name: 'renamed' now, the journals' set is 'quiz'
    (tmp_path / "quiz.csv.reviews").rename(tmp_path / "renamed.csv.reviews")
    assert main(["status", str(renamed)]) == 2
    err = capsys.readouterr().err
    assert "this journal belongs to set 'quiz'" in err
    assert "--journal" not in err  # the team's journals are never named with --journal: that advice was no help
    assert "give the file the name it had" in err

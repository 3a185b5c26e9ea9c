"""`reviewtui status FILE --journal` on a journal of a team's folder counts that journal's part of the review."""

from __future__ import annotations

import reviewtui as cg
from reviewtui.cli import main
from reviewtui.evalset.io import read_jsonl, write_jsonl
from reviewtui.evalset.review.session import ReviewSession
from reviewtui.evalset.review.team import ADJUDICATOR, TeamPlan
from reviewtui.evalset.review.teamwork import open_adjudication
from tests.tui_helpers import FakeClock, make_items


def test_status_of_a_members_journal_counts_their_share_not_the_whole_set(tmp_path, capsys):
    path = write_jsonl(cg.EvalSet(id="t", items=make_items(40)), tmp_path / "team.jsonl")
    assert main(["assign", str(path), "--reviewers", "ana,bo", "--overlap", "1"]) == 0
    capsys.readouterr()
    plan = TeamPlan.load(path)
    assert plan is not None
    with ReviewSession.open(path, reviewer="ana", team=plan, clock=FakeClock()) as session:
        share = len(session.queue)
        assert 0 < share < 40
        for _ in range(share):
            session.accept()
    assert main(["status", str(path)]) == 0
    assert f"ana: decided {share} of {share}" in capsys.readouterr().out
    assert main(["status", str(path), "--journal", str(plan.journal_for("ana"))]) == 0
    out = capsys.readouterr().out
    # as the app and the team's status count it: ana is done, nothing is left
    assert f"decided {share} of {share} (100%), 0 left" in out, out
    assert "of 40 (" not in out and f"{share:,} of 40 questions" in out
    assert f"set 't' v1, {share} of its 40 questions in this part, {share} in review" in out  # not "set 't', 21 questions"


def test_status_of_the_adjudicators_journal_counts_the_items_it_adjudicates(tmp_path, capsys):
    path = write_jsonl(cg.EvalSet(id="t", items=make_items(6)), tmp_path / "team.jsonl")
    plan = TeamPlan.create(path, ["ana", "bo"], 2)
    plan.save()
    for reviewer in ("ana", "bo"):
        with ReviewSession.open(path, reviewer=reviewer, team=plan, clock=FakeClock()) as session:
            for k in range(6):
                if reviewer == "bo" and k < 2:
                    session.reject(reason="ambiguous")  # two disagreements
                else:
                    session.accept()
    adjudication = open_adjudication(plan, read_jsonl(path), path, reviewer="dee", clock=FakeClock())
    assert adjudication is not None
    with adjudication.session as session:
        assert len(session.queue) == 2
        session.accept()
    assert main(["status", str(path), "--journal", str(plan.journal_for(ADJUDICATOR))]) == 0
    out = capsys.readouterr().out
    assert "decided 1 of 2 (50%), 1 left" in out, out


def test_status_of_a_renamed_set_points_at_its_team_folder(tmp_path, capsys):
    """quiz.jsonl renamed: its team's folder keeps the old name, and `status` said only "not started"."""
    path = write_jsonl(cg.EvalSet(id="t", items=make_items(4)), tmp_path / "quiz.jsonl")
    plan = TeamPlan.create(path, ["ana", "bo"], 1)
    plan.save()
    with ReviewSession.open(path, reviewer="ana", team=plan, clock=FakeClock()) as session:
        session.accept()
    other = write_jsonl(cg.EvalSet(id="another", items=make_items(2)), tmp_path / "other.jsonl")
    TeamPlan.create(other, ["cy"], 1).save()  # a team's folder of another set: not named
    with ReviewSession.open(other, reviewer="cy", team=TeamPlan.load(other), clock=FakeClock()) as session:
        session.accept()
    renamed = path.rename(tmp_path / "renamed.jsonl")
    capsys.readouterr()
    assert main(["status", str(renamed)]) == 0
    out = capsys.readouterr().out
    assert "not started" in out
    assert (
        "a team's folder beside it, quiz.jsonl.reviews, holds reviews of set 't': if this file was renamed, rename the "
        "folder after it (renamed.jsonl.reviews) to go on with them"
    ) in out, out
    assert "other.jsonl.reviews" not in out

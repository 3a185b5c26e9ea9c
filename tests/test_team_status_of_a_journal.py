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

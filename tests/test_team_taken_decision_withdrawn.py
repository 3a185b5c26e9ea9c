"""An adjudicator took a reviewer's decision with a digit; that reviewer then undid or changed it."""

from __future__ import annotations

import pytest

import reviewtui as cg
from reviewtui.cli import main
from reviewtui.evalset.io import read_jsonl, write_jsonl
from reviewtui.evalset.review.session import ReviewSession
from reviewtui.evalset.review.team import TeamPlan
from reviewtui.evalset.review.teamwork import open_adjudication
from tests.tui_helpers import FakeClock, make_items


def _adjudicated_by_taking_bos_edit(tmp_path):
    """q2: ana accepted, bo edited, and the adjudicator took bo's edit with a digit."""
    path = write_jsonl(cg.EvalSet(id="t", items=make_items(2)), tmp_path / "team.jsonl")
    plan = TeamPlan.create(path, ["ana", "bo"], 2)
    plan.save()
    with ReviewSession.open(path, reviewer="ana", team=plan, clock=FakeClock()) as session:
        session.accept()
        session.accept()
    with ReviewSession.open(path, reviewer="bo", team=plan, clock=FakeClock()) as session:
        session.accept()
        session.edit(answer="bo's answer")
    adjudication = open_adjudication(plan, read_jsonl(path), path, reviewer="dee", clock=FakeClock())
    assert adjudication is not None
    with adjudication.session as session:
        assert [item.id for item in session.queue.items] == ["q2"]
        session.adopt(adjudication.votes["q2"]["bo"])
    return path, plan


@pytest.mark.parametrize("afterwards", ["undo", "reject"])
def test_the_export_says_when_the_decision_an_adjudicator_took_was_taken_back(tmp_path, capsys, afterwards):
    path, plan = _adjudicated_by_taking_bos_edit(tmp_path)
    with ReviewSession.open(path, reviewer="bo", team=plan, clock=FakeClock()) as session:
        session.undo()  # bo takes the edit back
        if afterwards == "reject":
            session.reject(reason="ambiguous")
    capsys.readouterr()
    out = tmp_path / "m.jsonl"
    assert main(["export", str(path), "--consensus", "adjudicated", "-o", str(out)]) == 0
    said = capsys.readouterr()
    record = dict(read_jsonl(out).get("q2").meta["review"])
    assert record["decisions"]["adjudicator"]["taken_from"] == "bo"  # the adjudication stands, as documented
    assert ("bo" in record["decisions"]) == (afterwards == "reject")
    # but the export says that the decision it took is no longer bo's
    assert "'q2' ('bo')" in said.out + said.err and "since changed or taken it back" in said.out + said.err


def test_the_teams_status_says_an_adjudication_stands_on_a_decision_taken_back(tmp_path, capsys):
    path, plan = _adjudicated_by_taking_bos_edit(tmp_path)
    capsys.readouterr()
    assert main(["status", str(path)]) == 0
    assert "adjudications that stand" not in capsys.readouterr().out  # nothing has changed since
    with ReviewSession.open(path, reviewer="bo", team=plan, clock=FakeClock()) as session:
        session.undo()  # bo takes back the edit the adjudicator took
    assert main(["status", str(path)]) == 0
    out = capsys.readouterr().out
    assert (
        "adjudications that stand on reviews changed since: 1 that took a reviewer's decision the reviewer has since "
        "changed or taken back (reviewtui adjudicate FILE to look again)"
    ) in out, out
    with ReviewSession.open(path, reviewer="bo", team=plan, clock=FakeClock()) as session:
        session.accept()  # and accepts q2, as ana did: the two now agree, on a verdict the adjudication did not take
    assert main(["status", str(path)]) == 0
    assert "changed since: 1 whose reviewers have since come to agree on another verdict (" in capsys.readouterr().out


def test_an_adjudication_that_took_a_dropped_reviewers_decision_is_said(tmp_path, capsys):
    """After `assign --force` left bo out, the export still wrote q2 as bo's edit (taken_from, edited_by: bo), with
    bo's journal no longer among the header's journals, and said nothing."""
    path, plan = _adjudicated_by_taking_bos_edit(tmp_path)
    assert main(["assign", str(path), "--reviewers", "ana,chen", "--overlap", "2", "--force"]) == 0
    capsys.readouterr()
    out = tmp_path / "m.jsonl"
    assert main(["export", str(path), "--consensus", "adjudicated", "-o", str(out)]) == 0
    said = capsys.readouterr()
    assert "'q2' ('bo')): the adjudicator took the decision of a reviewer the plan no longer names" in said.out + said.err
    assert dict(read_jsonl(out).get("q2").meta["review"])["decisions"]["adjudicator"]["taken_from"] == "bo"  # it stands
    assert main(["status", str(path)]) == 0
    assert "1 that took the decision of a reviewer the plan no longer names" in capsys.readouterr().out

"""One reading of the review marker: a spreadsheet's "false", "no", "0" or empty cell is not reviewed."""

from __future__ import annotations

import pytest

import reviewtui as cg
from reviewtui.evalset.review.queue import pending
from reviewtui.evalset.review.session import ReviewSession


@pytest.fixture
def sheet(tmp_path):
    rows = [
        ("q1", "Which form does rule 1 ask for?", "false"),
        ("q2", "Which form does rule 2 ask for?", "no"),
        ("q3", "Which form does rule 3 ask for?", "0"),
        ("q4", "Which form does rule 4 ask for?", ""),
        ("q5", "Which form does rule 5 ask for?", "true"),
        ("q6", "Which form does rule 6 ask for?", "yes"),
    ]
    path = tmp_path / "sheet.csv"
    path.write_text("id,question,reviewed\n" + "".join(f"{i},{q},{r}\n" for i, q, r in rows), encoding="utf-8")
    return path


def test_the_review_and_assess_agree_on_what_was_reviewed(sheet):
    with ReviewSession.open(sheet, reviewer="ana") as session:
        assert [item.id for item in session.queue.items] == ["q1", "q2", "q3", "q4"]
    assert cg.assess(cg.read_csv(sheet), text_markers=True).reviewed == 2
    queue = cg.ReviewQueue.from_evalset(cg.read_csv(sheet), text_markers=True)
    assert [item.id for item in queue.items] == ["q1", "q2", "q3", "q4"]


def test_the_documented_functions_read_the_marker_by_its_truth_as_the_page_says(sheet):
    """eval-set-quality: "reviewed is read from item.meta.get(reviewed_key)", and from_evalset leaves out items
    marked reviewed: any non-empty text counts there, "false" too. Code written against the page gets that; the
    session, the app and the commands read a spreadsheet's "false" as not reviewed."""
    evalset = cg.read_csv(sheet)
    assert cg.assess(evalset).reviewed == 5
    assert [item.id for item in cg.ReviewQueue.from_evalset(evalset).items] == ["q4"]
    assert [item.id for item in cg.ReviewQueue.from_evalset(evalset, skip_reviewed=False).items] == [f"q{n}" for n in range(1, 7)]


def test_info_reads_the_marker_as_the_review_does(sheet, capsys):
    from reviewtui.cli import main

    assert main(["info", str(sheet)]) == 0
    assert "33% checked by a person" in capsys.readouterr().out  # q5 and q6 of six


def test_pending_keeps_its_documented_reading(sheet):
    # The reference page defines pending() as `not item.meta.get("reviewed")`: any non-empty
    # text counts there, and it stays so for code written against the page.
    assert [item.id for item in pending(cg.read_csv(sheet))] == ["q4"]

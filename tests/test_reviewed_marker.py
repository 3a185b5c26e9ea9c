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
    assert cg.assess(cg.read_csv(sheet)).reviewed == 2


def test_pending_keeps_its_documented_reading(sheet):
    # The reference page defines pending() as `not item.meta.get("reviewed")`: any non-empty
    # text counts there, and it stays so for code written against the page.
    assert [item.id for item in pending(cg.read_csv(sheet))] == ["q4"]

"""ReviewQueue as the eval-set-quality page walks through it, figure for figure."""

from __future__ import annotations

import pytest

import reviewtui as cg
from reviewtui.evalset.review.queue import RejectReason, Verdict, pending, review_summary

LEAVE = "Employees accrue 1.5 days of leave per month."


def page_set() -> cg.EvalSet:
    items = [
        cg.EvalItem(
            id="q1",
            question="How much leave do employees accrue per month?",
            anchors=(cg.GoldAnchor(source_id="handbook.pdf", quote=LEAVE),),
        ),
        cg.EvalItem(
            id="q2",
            question="What is the capital of France?",
            anchors=(cg.GoldAnchor(source_id="handbook.pdf", quote="Paris is the capital of France."),),
        ),
        cg.EvalItem(id="q3", question="it", anchors=(cg.GoldAnchor(source_id="handbook.pdf", quote=LEAVE),)),
    ]
    return cg.EvalSet(id="handbook-quiz", items=tuple(items))


def test_the_page_walkthrough_gives_the_page_figures():
    evalset = page_set()
    queue = cg.ReviewQueue.from_evalset(evalset)
    assert queue.progress() == "0 of 3 · 3 left"

    assert queue.current.id == "q1"
    queue.accept(note="good, on-topic")
    assert queue.current.id == "q2"
    queue.reject(note="general knowledge, not about the handbook")
    assert queue.current.id == "q3"
    edited = queue.edit(question="What does the pronoun refer to in section 3?", note="fixed dangling reference")
    assert edited.question == "What does the pronoun refer to in section 3?"

    assert queue.is_done is True
    assert queue.counts() == {"accepted": 1, "rejected": 1, "edited": 1, "skipped": 0}
    assert queue.progress() == "3 of 3 · 0 left"

    final = queue.result(evalset)
    assert [it.id for it in final] == ["q1", "q3"]
    assert (evalset.version, final.version) == (1, 2)
    assert [(it.id, it.meta.get("reviewed"), it.meta.get("verdict")) for it in final] == [
        ("q1", True, "accepted"),
        ("q3", True, "edited"),
    ]
    assert final[1].question == "What does the pronoun refer to in section 3?"
    assert evalset[2].question == "it"  # the original set is untouched


def test_editing_the_quote_of_an_item_without_evidence_is_refused():
    queue = cg.ReviewQueue.from_evalset(cg.EvalSet(id="e2", items=(cg.EvalItem(id="q2", question="Q2?"),)))
    with pytest.raises(cg.EvalSetError, match="'q2'.*no quoted evidence"):
        queue.edit(quote="new quote")
    with pytest.raises(cg.EvalSetError):
        queue.edit(grade=1)
    assert queue.decided == 0


@pytest.mark.parametrize(
    "step",
    [
        lambda q: q.accept(),
        lambda q: q.reject(),
        lambda q: q.skip(),
        lambda q: q.edit(question="Another question?"),
        lambda q: q.mark("numeric"),
        lambda q: q.note("x"),
    ],
)
def test_a_finished_queue_has_nothing_to_decide_on(step):
    queue = cg.ReviewQueue.from_evalset(page_set())
    for _ in range(3):
        queue.skip()
    assert queue.current is None
    with pytest.raises(cg.EvalSetError, match="finished"):
        step(queue)


def test_from_evalset_leaves_out_reviewed_items_unless_asked():
    items = list(page_set().items)
    items[1] = items[1].replace(meta={"reviewed": True})
    evalset = cg.EvalSet(id="e", items=tuple(items))
    assert [it.id for it in cg.ReviewQueue.from_evalset(evalset).items] == ["q1", "q3"]
    assert [it.id for it in cg.ReviewQueue.from_evalset(evalset, skip_reviewed=False).items] == ["q1", "q2", "q3"]
    assert [it.id for it in pending(evalset)] == ["q1", "q3"]


def test_result_passes_undecided_and_unqueued_items_through_unchanged():
    items = list(page_set().items)
    items[0] = items[0].replace(meta={"reviewed": True, "by": "author"})
    evalset = cg.EvalSet(id="e", items=tuple(items), version=4)
    queue = cg.ReviewQueue.from_evalset(evalset)  # q2, q3
    queue.skip()  # q2 dropped
    final = queue.result(evalset)
    assert final.version == 5
    assert [it.id for it in final] == ["q1", "q3"]
    assert final[0] is evalset[0]
    assert final[1] is evalset[2]


def test_mark_is_an_edit_of_the_type():
    queue = cg.ReviewQueue.from_evalset(page_set())
    item = queue.mark(cg.QuestionType.NUMERIC)
    assert item.qtype == "numeric"
    assert queue.counts()["edited"] == 1
    assert queue.decision_for("q1").verdict is Verdict.EDITED


def test_marking_the_type_an_item_already_has_is_an_edit_in_the_library_and_an_accept_in_a_review(tmp_path):
    """API.md fixes mark(qtype) as an edit, counted under edited, as the reference library counts it even when
    the type is the item's own. A review session (the app, a team's agreement) counts an edit that leaves the
    item as the set has it as the accept it is, or it disagreed with a reviewer who accepted the same item."""
    from reviewtui.evalset.review.session import ReviewSession

    typed = page_set().items[0].replace(qtype="numeric")
    again = cg.ReviewQueue.from_evalset(cg.EvalSet(id="s", items=(typed,)))
    again.mark("numeric")
    assert again.counts()["edited"] == 1 and again.counts()["accepted"] == 0
    assert again.decision_for(typed.id).verdict is Verdict.EDITED
    session = ReviewSession.start(cg.EvalSet(id="s", items=(typed,)), tmp_path / "s.reviewtui-journal")
    try:
        session.mark("numeric")
        assert session.queue.decision_for(typed.id).verdict is Verdict.ACCEPTED
    finally:
        session.close()


def test_rejections_lists_only_rejected_decisions_with_their_notes():
    queue = cg.ReviewQueue.from_evalset(page_set())
    queue.accept()
    queue.reject(note="general knowledge", reason="general-knowledge")
    queue.reject(note="too vague")
    rejected = queue.rejections()
    assert [(d.item_id, d.note, d.reason) for d in rejected] == [
        ("q2", "general knowledge", RejectReason.GENERAL_KNOWLEDGE),
        ("q3", "too vague", None),
    ]
    assert str(rejected[0]) == "[rejected] q2 (general-knowledge): general knowledge"
    assert queue.reason_counts() == {"general-knowledge": 1, "": 1}


def test_verdict_is_a_string_enum_with_the_page_values():
    assert [v.value for v in Verdict] == ["pending", "accepted", "rejected", "edited", "skipped"]
    assert Verdict.ACCEPTED == "accepted"
    assert isinstance(Verdict.EDITED, str)


def test_review_summary_reports_counts_time_and_pace():
    now = [0.0]
    queue = cg.ReviewQueue.from_evalset(page_set(), clock=lambda: now[0])
    now[0] = 30.0
    queue.accept()  # 30 s on screen
    now[0] = 90.0
    queue.reject()  # 60 s on screen
    summary = review_summary(queue)
    assert summary.startswith("2 of 3 reviewed (1 accepted, 1 rejected, 0 edited, 0 skipped)")
    assert "in 1 min 30 s" in summary and "80 per hour" in summary and "1 left" in summary
    assert "in 10 min" in review_summary(queue, elapsed_seconds=600)
    assert "12 per hour" in review_summary(queue, elapsed_seconds=600)

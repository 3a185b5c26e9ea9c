"""ReviewQueue beyond the page: undo/redo, revisiting, edits of any field, reasons, notes, timing, order."""

from __future__ import annotations

import random

import pytest

import reviewtui as cg
from reviewtui.evalset.review.queue import (
    Decision,
    RejectReason,
    ReviewQueue,
    Verdict,
    default_reviewer,
)


def make_set(n: int = 6, anchors: int = 2) -> cg.EvalSet:
    items = tuple(
        cg.EvalItem(
            id=f"q{i}",
            question=f"What does clause {i} of the handbook say?",
            anchors=tuple(cg.GoldAnchor(source_id="h.pdf", quote=f"Clause {i}, part {a}.") for a in range(anchors)),
            qtype="factoid",
            answer=f"answer {i}",
        )
        for i in range(n)
    )
    return cg.EvalSet(id="s", items=items)


class FakeClock:
    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


def ids(queue: ReviewQueue) -> list[str | None]:
    return [None if d is None else d.verdict.value for d in (queue.decision_for(i) for i in range(len(queue)))]


def test_undo_takes_back_the_latest_decision_and_returns_its_item():
    queue = ReviewQueue.from_evalset(make_set(3))
    assert queue.undo() is None
    queue.accept()
    queue.reject()
    item = queue.undo()
    assert item.id == "q1"
    assert queue.current.id == "q1"
    assert queue.decision_for("q1") is None
    assert queue.counts() == {"accepted": 1, "rejected": 0, "edited": 0, "skipped": 0}


def test_a_decision_over_another_and_over_a_draft_note_undoes_to_each():
    """Deciding an item replaces its earlier decision or its draft note; undo brings each back, counts and time too."""
    clock = FakeClock()
    queue = ReviewQueue.from_evalset(make_set(3), clock=clock)
    queue.note("a draft before deciding")
    clock.now += 5
    queue.accept()  # q0: the draft becomes the decision's note
    queue.goto(0)
    clock.now += 2
    queue.reject(reason="ambiguous")  # q0 again: the accept is replaced
    assert queue.counts() == {"accepted": 0, "rejected": 1, "edited": 0, "skipped": 0}
    assert queue.decided == 1
    assert queue.undo().id == "q0"
    assert queue.decision_for("q0").verdict is Verdict.ACCEPTED
    assert queue.counts() == {"accepted": 1, "rejected": 0, "edited": 0, "skipped": 0}
    assert queue.undo().id == "q0"
    assert queue.decision_for("q0") is None and queue.decided == 0
    assert queue.notes == {"q0": "a draft before deciding"}
    assert queue.seconds_spent == 0
    assert [change.note_after for change in queue.history] == ["a draft before deciding"]  # the note, itself undoable
    with pytest.raises(AttributeError):  # the undo history's records cannot be changed in place
        queue.next_redo.index = 2  # type: ignore[misc]
    assert queue.redo().id == "q0" and queue.decision_for("q0").note == "a draft before deciding"
    assert queue.notes == {} and queue.seconds_spent == 5


def test_unlimited_undo_then_redo_restores_every_decision():
    queue = ReviewQueue.from_evalset(make_set(40))
    for i in range(40):
        (queue.accept, queue.skip, queue.reject)[i % 3]()
    done = queue.decisions
    assert queue.is_done and queue.current is None
    for _ in range(40):
        assert queue.undo() is not None
    assert queue.undo() is None
    assert queue.decided == 0 and queue.position == 0
    for _ in range(40):
        assert queue.redo() is not None
    assert queue.redo() is None
    assert queue.decisions == done
    assert queue.current is None


def test_a_new_decision_clears_the_redo_stack():
    queue = ReviewQueue.from_evalset(make_set(3))
    queue.accept()
    queue.undo()
    assert queue.can_redo
    queue.reject()
    assert not queue.can_redo and queue.redo() is None
    assert queue.decision_for("q0").verdict is Verdict.REJECTED


def test_going_back_and_changing_a_decision_is_itself_undoable():
    queue = ReviewQueue.from_evalset(make_set(4))
    queue.accept()
    queue.accept()
    assert queue.previous().id == "q1"
    assert queue.previous().id == "q0"
    assert queue.previous().id == "q0"  # stays at the first item
    queue.reject(reason="duplicate")
    assert queue.decision_for("q0").verdict is Verdict.REJECTED
    assert queue.current.id == "q2"  # next undecided after q0
    queue.undo()
    assert queue.decision_for("q0").verdict is Verdict.ACCEPTED  # the earlier decision is back
    assert queue.current.id == "q0"
    queue.redo()
    assert queue.decision_for("q0").verdict is Verdict.REJECTED
    assert queue.current.id == "q2"


def test_next_and_previous_walk_every_item_and_past_the_end():
    queue = ReviewQueue.from_evalset(make_set(3))
    assert queue.next().id == "q1"
    assert queue.next().id == "q2"
    assert queue.next() is None and queue.position == 3
    assert queue.next() is None
    assert queue.previous().id == "q2"


def test_goto_by_position_and_by_id_and_bad_targets():
    queue = ReviewQueue.from_evalset(make_set(5))
    assert queue.goto(3).id == "q3"
    assert queue.goto("q1").id == "q1"
    with pytest.raises(cg.EvalSetError, match="nope"):
        queue.goto("nope")
    with pytest.raises(cg.EvalSetError, match="outside"):
        queue.goto(5)
    assert queue.current.id == "q1"


def test_after_a_decision_the_cursor_wraps_to_the_first_undecided_before_it():
    queue = ReviewQueue.from_evalset(make_set(4))
    queue.goto("q2")
    queue.accept()
    assert queue.current.id == "q3"
    queue.accept()
    assert queue.current.id == "q0"
    queue.accept()
    assert queue.current.id == "q1"
    queue.accept()
    assert queue.current is None and queue.is_done


def test_edit_any_anchor_answer_and_type_keeping_the_item_before():
    queue = ReviewQueue.from_evalset(make_set(2))
    original = queue.current
    edited = queue.edit(anchor=1, quote="Clause 0, really part 1.", grade=1, answer="", qtype="numeric")
    assert edited.anchors[1].quote == "Clause 0, really part 1." and edited.anchors[1].grade == 1
    assert edited.anchors[0] == original.anchors[0]
    assert (edited.answer, edited.qtype) == (None, "numeric")
    decision = queue.decision_for("q0")
    assert decision.before is original and decision.after == edited
    assert set(decision.changes()) == {"anchors", "answer", "qtype"}
    assert decision.changes()["answer"] == ("answer 0", None)
    with pytest.raises(cg.EvalSetError, match="no anchor number 2"):
        queue.edit(anchor=2, quote="x")
    with pytest.raises(cg.EvalSetError):
        queue.edit(question="   ")  # the model refuses a blank question
    assert queue.decided == 1


def test_edits_build_on_each_other_and_accepting_keeps_them():
    queue = ReviewQueue.from_evalset(make_set(2))
    queue.edit(question="First rewrite of the question?")
    queue.goto("q0")
    assert queue.current.question == "First rewrite of the question?"  # shown as edited
    again = queue.edit(answer="a new answer")
    assert again.question == "First rewrite of the question?"
    queue.goto("q0")
    queue.accept(note="fine now")
    decision = queue.decision_for("q0")
    assert decision.verdict is Verdict.EDITED and decision.after == again
    assert decision.before == queue.item_at(0)
    result = queue.result(make_set(2))
    assert result.get("q0").question == "First rewrite of the question?"


def test_reject_reason_codes():
    assert [r.value for r in RejectReason] == [
        "unanswerable",
        "ambiguous",
        "wrong-evidence",
        "duplicate",
        "general-knowledge",
        "off-topic",
        "wrong-answer",
        "other",
    ]
    assert RejectReason.parse("Wrong_Evidence") is RejectReason.WRONG_EVIDENCE
    assert RejectReason.parse("") is None
    assert all(r.description for r in RejectReason)
    queue = ReviewQueue.from_evalset(make_set(2))
    with pytest.raises(cg.EvalSetError, match="unknown reject reason 'boring'.*off-topic"):
        queue.reject(reason="boring")
    assert queue.decided == 0
    decision = queue.reject(note="see q7", reason=RejectReason.DUPLICATE)
    assert (decision.reason, decision.note) == (RejectReason.DUPLICATE, "see q7")


def test_a_note_without_a_decision_is_carried_into_the_decision_and_undoable():
    queue = ReviewQueue.from_evalset(make_set(3))
    queue.note("check the page number")
    assert queue.current.id == "q0" and queue.decided == 0
    assert queue.note_for("q0") == "check the page number"
    decision = queue.accept()
    assert decision.note == "check the page number"
    queue.goto("q0")
    queue.note("checked: fine")
    assert queue.decision_for("q0").note == "checked: fine"
    assert queue.decision_for("q0").verdict is Verdict.ACCEPTED
    queue.undo()
    assert queue.decision_for("q0").note == "check the page number"
    queue.undo()
    assert queue.decision_for("q0") is None and queue.note_for("q0") == "check the page number"
    queue.undo()
    assert queue.note_for("q0") == ""
    assert queue.undo() is None


def test_time_on_screen_is_measured_per_look_and_capped():
    clock = FakeClock()
    queue = ReviewQueue.from_evalset(make_set(3), clock=clock, idle_cap=300, reviewer="ana")
    clock.now += 12.5
    first = queue.accept()
    clock.now += 3600  # left the desk
    second = queue.reject()
    assert (first.seconds, second.seconds) == (12.5, 300.0)
    assert (first.decided_at, second.decided_at) == (1012.5, 4612.5)
    assert first.reviewer == "ana"
    assert queue.seconds_spent == pytest.approx(312.5)
    queue.undo()
    assert queue.seconds_spent == pytest.approx(12.5)
    stats = queue.stats()
    assert stats.per_hour == pytest.approx(3600 / 12.5)
    assert stats.eta_seconds == pytest.approx(2 * 12.5)


def test_an_item_decided_again_keeps_the_time_its_reviewer_spent_on_it_before():
    """15 s on q0, then a second look of 0.6 s to decide it again: q0 recorded 0.6 s, and the pace came out too good."""
    clock = FakeClock()
    queue = ReviewQueue.from_evalset(make_set(3), clock=clock, idle_cap=300, reviewer="ana")
    clock.now += 15.0
    assert queue.accept().seconds == 15.0
    queue.goto(0)
    clock.now += 0.6
    again = queue.reject(reason="ambiguous")
    assert again.seconds == pytest.approx(15.6) and queue.seconds_spent == pytest.approx(15.6)
    queue.undo()  # the accept and its own time come back
    assert queue.seconds_spent == pytest.approx(15.0)
    # another reviewer deciding it again records their own time only: ana's is hers
    queue.reviewer = "bo"
    queue.goto(0)
    clock.now += 2.0
    assert queue.accept().seconds == 2.0


def test_time_seen_before_the_queue_was_ready_is_added_never_taken_off():
    clock = FakeClock()
    queue = ReviewQueue.from_evalset(make_set(3), clock=clock, idle_cap=300, reviewer="ana")
    clock.now += 2.0
    queue.shown_for(5.0)  # the question was on screen 5 s before now, so 3 s before the queue
    queue.shown_for(1.0)  # a shorter claim does not shorten it
    queue.shown_for(-4.0)
    clock.now += 1.0
    assert queue.accept().seconds == 6.0
    clock.now += 2.0
    assert queue.accept().seconds == 2.0  # the next question counts from its own move, as before


def test_the_reviewer_defaults_to_the_environment(monkeypatch):
    monkeypatch.setenv("REVIEWTUI_REVIEWER", "Bea")
    assert default_reviewer() == "Bea"
    assert ReviewQueue.from_evalset(make_set(1)).reviewer == "Bea"
    monkeypatch.delenv("REVIEWTUI_REVIEWER")
    monkeypatch.setenv("LOGNAME", "carl")
    monkeypatch.setenv("USER", "carl")
    assert default_reviewer() == "carl"


def test_a_chosen_order_decides_what_comes_next():
    queue = ReviewQueue.from_evalset(make_set(6))
    queue.set_order([4, "q1"])  # the rest follow in set order
    assert queue.order == (4, 1, 0, 2, 3, 5)
    assert queue.current.id == "q0"  # the cursor stays put
    queue.accept()
    assert queue.current.id == "q2"
    queue.goto("q4")
    queue.accept()
    assert queue.current.id == "q1"
    assert queue.next().id == "q0"
    assert queue.previous().id == "q1"
    queue.set_order(None)
    assert queue.order is None
    queue.goto("q3")
    queue.accept()
    assert queue.current.id == "q5"
    with pytest.raises(cg.EvalSetError, match="twice"):
        queue.set_order([1, 1])
    with pytest.raises(cg.EvalSetError):
        queue.set_order(["missing"])


def test_the_page_constructor_takes_decisions_and_history():
    evalset = make_set(3)
    first = Decision("q0", Verdict.ACCEPTED, before=evalset[0], after=evalset[0])
    second = Decision("q1", Verdict.REJECTED, before=evalset[1], after=evalset[1])
    queue = ReviewQueue(list(evalset.items), position=2, history=[first, second])
    assert queue.counts()["accepted"] == 1 and queue.counts()["rejected"] == 1
    assert queue.current.id == "q2"
    assert queue.undo().id == "q1"
    assert queue.decision_for("q1") is None
    with pytest.raises(cg.EvalSetError, match="twice"):
        ReviewQueue([evalset[0], evalset[0]])


def test_random_sessions_keep_counts_and_cursor_consistent_with_a_plain_model():
    """Against a naive re-count after every step: counts, done-ness and the next-undecided rule."""
    rng = random.Random(7)
    evalset = make_set(30, anchors=1)
    queue = ReviewQueue.from_evalset(evalset)
    for _ in range(600):
        op = rng.random()
        order = list(queue.order or range(len(queue)))
        if op < 0.05:
            picked = rng.sample(range(len(queue)), rng.randint(0, 10))
            queue.set_order(picked)
            continue
        if op < 0.15:
            queue.undo()
        elif op < 0.22:
            queue.redo()
        elif op < 0.32:
            queue.goto(rng.randrange(len(queue)))
        elif op < 0.38:
            queue.previous()
        elif queue.current is not None:
            before_rank = order.index(queue.position)
            step = rng.choice(["accept", "reject", "skip", "edit", "note"])
            if step == "edit":
                queue.edit(grade=rng.randint(0, 2))
            elif step == "note":
                queue.note(f"n{rng.randint(0, 9)}")
                continue
            else:
                getattr(queue, step)()
            undecided = [i for i in order if queue.decision_for(i) is None]
            after = [i for i in order[before_rank + 1 :] if i in undecided]
            expected = (after or undecided or [len(queue)])[0]
            assert queue.position == expected
        verdicts = [queue.verdict_for(i).value for i in range(len(queue))]
        assert queue.counts() == {v: verdicts.count(v) for v in ("accepted", "rejected", "edited", "skipped")}
        assert queue.decided == len(queue) - verdicts.count("pending")
        assert queue.is_done == ("pending" not in verdicts)


def test_several_anchors_change_in_one_decision():
    from reviewtui.evalset.review.queue import ReviewQueue

    anchors = (cg.GoldAnchor("a.md", "first"), cg.GoldAnchor("b.md", "second"), cg.GoldAnchor("c.md", "third"))
    evalset = cg.EvalSet(id="s", items=(cg.EvalItem(id="q1", question="Which?", anchors=anchors),))
    queue = ReviewQueue.from_evalset(evalset)
    edited = queue.edit(question="Which one?", anchor_edits={0: ("first, fixed", None), 2: (None, 1)})
    assert [a.quote for a in edited.anchors] == ["first, fixed", "second", "third"]
    assert [a.grade for a in edited.anchors] == [2, 2, 1]
    assert queue.counts()["edited"] == 1 and len(queue.history) == 1
    queue.undo()
    assert queue.current.anchors == anchors
    with pytest.raises(cg.EvalSetError):
        queue.edit(anchor_edits={5: ("nope", None)})


def test_after_deciding_names_where_a_decision_moves_the_cursor_and_changes_nothing():
    # Random walks over every kind of step: before each decision, after_deciding() must name the
    # index the decision then moves to (len(queue) past the end), and asking must change nothing.
    rng = random.Random(11)
    checked = 0
    for walk in range(40):
        queue = ReviewQueue.from_evalset(make_set(rng.randint(1, 9)))
        if walk % 3 == 0:
            queue.set_order(rng.sample(range(len(queue)), len(queue)))
        for _ in range(30):
            move = rng.random()
            if move < 0.15:
                queue.goto(rng.randrange(len(queue)))
            elif move < 0.25 and queue.can_undo:
                queue.undo()
            elif move < 0.3 and queue.can_redo:
                queue.redo()
            elif queue.current is not None:
                before = (queue.position, queue.decided, queue.can_redo)
                expected = queue.after_deciding()
                assert (queue.position, queue.decided, queue.can_redo) == before
                rng.choice((queue.accept, queue.skip, queue.reject))()
                assert queue.position == expected, (walk, expected, queue.position)
                checked += 1
            else:
                assert queue.after_deciding() == len(queue)  # past the end: nothing to decide
                queue.goto(0)
    assert checked > 300


def test_after_deciding_the_last_open_item_is_past_the_end():
    queue = ReviewQueue.from_evalset(make_set(3))
    queue.goto("q1")
    queue.accept()
    queue.accept()  # q2; the cursor wraps to q0, the only one left open
    assert queue.current.id == "q0"
    assert queue.after_deciding() == len(queue)
    queue.goto("q2")  # a decided item: deciding it again moves on to the open one
    assert queue.after_deciding() == queue.index_of("q0")


def test_an_item_without_evidence_is_given_a_quote_by_an_edit():
    from reviewtui.evalset.review.queue import ItemEdit

    evalset = cg.EvalSet(id="s", items=(cg.EvalItem(id="q1", question="Who signs leave requests?"),))
    queue = ReviewQueue.from_evalset(evalset)
    with pytest.raises(cg.EvalSetError):  # the documented edit changes a quote the item has, never adds one
        queue.edit(quote="The line manager signs them.")
    new = cg.GoldAnchor("handbook.md", "The line manager signs them.", grade=1)
    edited = queue.apply(queue.plan_edit(ItemEdit(new_anchor=new))).after
    assert edited.anchors == (new,) and edited.question == "Who signs leave requests?"
    assert queue.decision_for("q1").verdict is Verdict.EDITED
    queue.undo()
    assert queue.current.anchors == ()


def test_a_new_quote_goes_after_the_quotes_edited_in_the_same_step():
    from reviewtui.evalset.review.queue import ItemEdit

    anchors = (cg.GoldAnchor("a.md", "first"), cg.GoldAnchor("b.md", "second"))
    evalset = cg.EvalSet(id="s", items=(cg.EvalItem(id="q1", question="Which?", anchors=anchors),))
    queue = ReviewQueue.from_evalset(evalset)
    edit = ItemEdit(anchor_edits={1: ("second, fixed", None)}, new_anchor=cg.GoldAnchor("c.md", "third"))
    edited = queue.apply(queue.plan_edit(edit)).after
    assert [(a.source_id, a.quote) for a in edited.anchors] == [("a.md", "first"), ("b.md", "second, fixed"), ("c.md", "third")]
    assert len(queue.history) == 1  # one step, one undo


def test_the_time_spent_on_a_decision_taken_back_counts_for_the_next_one():
    """Deciding, undoing and deciding again kept only the last look: 10 s and then 4 s came out as 4 s."""
    clock = FakeClock()
    queue = ReviewQueue.from_evalset(make_set(3), clock=clock, reviewer="ana")
    clock.now += 10
    queue.accept()  # q0
    queue.undo()
    clock.now += 4
    assert queue.reject().seconds == 14 and queue.seconds_spent == pytest.approx(14)
    # taken back and brought back: the decision has its own time again, not twice
    queue.undo()
    queue.redo()
    queue.goto(0)
    clock.now += 3
    assert queue.accept().seconds == 17 and queue.seconds_spent == pytest.approx(17)  # 14 replaced, 3 more


def test_a_resumed_review_counts_the_time_of_a_decision_undone_before_it_closed(tmp_path):
    import reviewtui as cg
    from reviewtui.evalset.review.session import ReviewSession
    from tests.tui_helpers import FakeClock as SessionClock
    from tests.tui_helpers import open_session

    session = open_session(tmp_path, cg.EvalSet(id="t", items=make_set(2).items))
    with session:
        session.accept()
        spent = session.queue.decision_for(0).seconds
        session.undo()
    assert spent > 0
    again = ReviewSession.open(session.input_path, reviewer=session.queue.reviewer, clock=SessionClock())
    with again:
        again.accept()
        assert again.queue.decision_for(0).seconds > spent

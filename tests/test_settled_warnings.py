"""A warning about a pair of items goes quiet once the review has rejected the other item, and says why."""

from __future__ import annotations

import reviewtui as cg
from reviewtui.evalset.checks import settled
from reviewtui.evalset.checks.registry import checks
from reviewtui.evalset.checks.repeats import PARTNERS_SHOWN
from reviewtui.evalset.checks.settled import PAIR_CHECKS, settled_by_review
from reviewtui.evalset.model.flag import Flag, Severity
from reviewtui.tui.app import ReviewApp
from tests.tui_helpers import fixed_scan, open_session

CONFLICT = Flag("conflicting-answers", Severity.HIGH, "asks the same question as 'q2' but expects a different answer", ("q2",))


def test_the_pair_checks_are_the_registrys_names():
    registered = {check.name for check in checks()}
    assert PAIR_CHECKS <= registered, PAIR_CHECKS - registered
    assert settled._NAMED_AT_MOST == PARTNERS_SHOWN


def test_a_pair_warning_whose_other_item_is_rejected_becomes_a_hint_that_says_so():
    coverage = Flag("category-coverage", Severity.LOW, "its category has only 2 questions", ("q2",))
    flags = [CONFLICT, coverage]
    assert settled_by_review(flags, lambda other: False) is flags  # nothing rejected: the very list
    quiet = settled_by_review(flags, lambda other: other == "q2")
    assert [f.check for f in quiet] == ["category-coverage", "conflicting-answers"]  # most severe first
    hint = quiet[1]
    assert hint.severity is Severity.HINT and hint.related_ids == ("q2",)
    assert hint.reason.startswith(CONFLICT.reason) and "(settled: 'q2' rejected in this review)" in hint.reason
    assert quiet[0] is coverage  # a rejected item makes a small category smaller: nothing settled


def test_a_warning_is_settled_only_when_every_item_it_names_is_rejected():
    three = Flag("near-duplicate", Severity.MEDIUM, "nearly the same question as 'q2' and 'q3'", ("q2", "q3"))
    assert settled_by_review([three], lambda other: other == "q2")[0] is three
    assert settled_by_review([three], lambda other: True)[0].severity is Severity.HINT
    many = tuple(f"p{k}" for k in range(PARTNERS_SHOWN))  # as many as a flag names: there may be more
    crowded = Flag("exact-duplicate", Severity.MEDIUM, "the same question as 20 others and more", many)
    assert settled_by_review([crowded], lambda other: True)[0] is crowded


def test_the_app_shows_the_conflict_settled_once_the_other_item_is_rejected_and_back_after_undo(tmp_path):
    """The demo's first conflict stayed high on one item after the reviewer rejected the other, and an
    accept of the one kept recorded it as accepted past a serious warning."""
    items = tuple(cg.EvalItem(id=f"q{k}", question=f"How long may a member keep tool number {k}?", answer=str(k)) for k in (1, 2, 3))
    session = open_session(tmp_path, cg.EvalSet(id="pairs", items=items))
    other = Flag("conflicting-answers", Severity.HIGH, "asks the same question as 'q1' but expects a different answer", ("q1",))
    try:
        app = ReviewApp(session, scan=fixed_scan())
        mirror = Flag(other.check, other.severity, other.reason.replace("'q1'", "'q2'"), ("q2",))
        app.view.flags = {"q1": [mirror], "q2": [other]}
        assert app.item_flags(items[1])[0].severity is Severity.HIGH
        session.reject(reason="wrong-answer")  # q1
        assert session.queue.current.id == "q2"
        shown = app.item_flags(session.queue.current)
        assert shown[0].severity is Severity.HINT and "'q1' rejected" in shown[0].reason
        session.accept()
        assert session.queue.decision_for("q2").warnings == ()  # accepted past no serious warning
        session.undo()
        session.undo()
        assert session.queue.current.id == "q1"
        assert app.item_flags(items[1])[0].severity is Severity.HIGH  # the reject taken back: the conflict is back
    finally:
        session.close()


def test_a_warning_that_may_have_partners_it_does_not_name_is_never_settled():
    """Same-evidence stops comparing after 64 candidates: a0's warning named only b1 ("and perhaps others")
    while b2 asked the same, and rejecting b1 settled it."""
    from reviewtui.evalset.checks.scan import scan_flags
    from tests.test_same_evidence import item

    items = [item("a0", "When was the Eiffel tower built?", "1889"), item("b1", "In what year was the Eiffel tower completed?", "1889")]
    items += [item(f"a{k}", "When was the Eiffel tower built?", "1889") for k in range(1, 70)]
    items += [item("b2", "In what year did they finish the Eiffel tower?", "1889")]
    scan = scan_flags(cg.EvalSet(id="s", items=tuple(items)))
    (same,) = [f for f in scan.for_item("a0") if f.check == "same-evidence"]
    # named from its group (b2 is found through the other copies' comparisons), still "at least": the group's
    # comparing stopped early somewhere, so rejecting what it names settles nothing
    assert same.related_ids == ("b1", "b2") and same.severity >= Severity.LOW
    assert "at least 0" not in same.reason and any(marker in same.reason for marker in settled.MAY_HAVE_MORE)
    assert settled_by_review([same], lambda other: other == "b1")[0] is same
    for marker in settled.MAY_HAVE_MORE:
        unsure = Flag("near-duplicate", Severity.LOW, f"nearly the same question as 'q2'{marker}2 more", ("q2",))
        assert settled_by_review([unsure], lambda other: True)[0] is unsure


def test_a_teams_reviewer_sees_the_warning_as_it_is(tmp_path):
    """A team's reviewer rejects for a consensus still to come: the other item may stay in the next version."""
    from reviewtui.evalset.io import write_jsonl
    from reviewtui.evalset.review.session import ReviewSession
    from reviewtui.evalset.review.team import TeamPlan
    from tests.tui_helpers import FakeClock

    items = tuple(cg.EvalItem(id=f"q{k}", question=f"How long may a member keep tool number {k}?", answer=str(k)) for k in (1, 2))
    path = write_jsonl(cg.EvalSet(id="pairs", items=items), tmp_path / "pairs.jsonl")
    plan = TeamPlan.create(path, ["ana", "bo"], 2)
    plan.save()
    session = ReviewSession.open(path, reviewer="ana", team=plan, clock=FakeClock())
    try:
        assert session.partial
        app = ReviewApp(session, scan=fixed_scan())
        app.view.flags = {"q2": [Flag("conflicting-answers", Severity.HIGH, "asks as 'q1' does", ("q1",))]}
        session.reject(reason="wrong-answer")  # q1
        assert app.item_flags(session.queue.current)[0].severity is Severity.HIGH
    finally:
        session.close()

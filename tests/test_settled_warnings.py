"""A warning about a pair of items goes quiet once the review has rejected the other item, and says why."""

from __future__ import annotations

import reviewtui as cg
from reviewtui.evalset.checks import settled
from reviewtui.evalset.checks.registry import checks
from reviewtui.evalset.checks.repeats import PARTNERS_SHOWN
from reviewtui.evalset.checks.settled import PAIR_CHECKS, settled_by_review
from reviewtui.evalset.model.flag import Flag, Severity
from reviewtui.tui.app import ReviewApp
from reviewtui.tui.messages import OrderReady
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


def _conflicting_pair(tmp_path):
    items = tuple(cg.EvalItem(id=f"x{k}", question="What is the late fee for a drill?", answer=a) for k, a in ((1, "Two"), (2, "Three")))
    session = open_session(tmp_path, cg.EvalSet(id="pairs", items=items))
    app = ReviewApp(session, scan=fixed_scan())
    flag = lambda other: Flag("conflicting-answers", Severity.HIGH, f"asks the same question as '{other}'", (other,))  # noqa: E731
    app.view.flags = {"x1": [flag("x2")], "x2": [flag("x1")]}  # the session reads the warnings as the app shows them
    return session


def test_accepting_one_of_two_conflicting_items_and_then_rejecting_the_other_settles_the_conflict(tmp_path):
    """Accept x1 and then reject x2: the export said x1 was accepted past the conflict, and the tally counted it as
    passed, while rejecting x2 first and then accepting x1 said neither. Both orders now say the same."""
    from reviewtui.evalset.io import read_jsonl
    from reviewtui.evalset.review.export import accepted_past_warnings
    from reviewtui.evalset.review.session import ReviewSession
    from tests.tui_helpers import FakeClock

    tallies = []
    for order in ("accept first", "reject first"):
        folder = tmp_path / order.replace(" ", "-")
        folder.mkdir()
        session = _conflicting_pair(folder)
        with session:
            if order == "accept first":
                session.accept()  # x1, while the conflict is open
                assert accepted_past_warnings(session.queue) == {"x1": ("conflicting-answers",)}
                session.reject(reason="wrong-answer")  # x2: the conflict is settled
            else:
                session.goto("x2")
                session.reject(reason="wrong-answer")
                session.goto("x1")
                session.accept()
            assert accepted_past_warnings(session.queue) == {}, order
            tallies.append(session.queue.warning_tally())
            out = session.export()
            journal = session.journal_path
        exported = read_jsonl(out)
        assert dict(exported.meta["review"])["accepted_past_warnings"] == {}, order
        assert exported.get("x1").meta["review"]["open_warnings"] == [], order
        again = ReviewSession.open(session.input_path, journal_path=journal, reviewer="tester", clock=FakeClock())
        with again:  # the journal keeps which items each warning named
            assert accepted_past_warnings(again.queue) == {} and again.queue.warning_tally() == tallies[-1], order
            if order == "accept first":
                again.goto("x2")
                again.reject(reason="wrong-answer")  # x2 already rejected: deciding it again changes nothing
                again.undo()
                again.undo()  # x2's first reject taken back: the conflict is open again on the accepted x1
                assert accepted_past_warnings(again.queue) == {"x1": ("conflicting-answers",)}
    assert tallies[0] == tallies[1] == {"conflicting-answers": {"confirmed": 1, "dismissed": 0, "accepted": 0}}


async def test_the_count_of_serious_items_and_the_flagged_first_order_follow_the_warnings_as_shown(tmp_path):
    """After q34 was rejected the pane showed q06's conflict as a settled hint, but the status line still counted
    q06 among the items flagged medium or worse, and "flagged first" still ranked it first."""
    from tests.tui_helpers import screen_text, settle

    items = tuple(cg.EvalItem(id=f"q{k}", question=f"How long may a member keep tool number {k}?", answer=str(k)) for k in (1, 2, 3, 4))
    other = Flag("conflicting-answers", Severity.HIGH, "asks the same question as 'q1' but expects a different answer", ("q1",))
    mirror = Flag(other.check, other.severity, other.reason.replace("'q1'", "'q2'"), ("q2",))
    short = Flag("too-short", Severity.MEDIUM, "3 words")
    session = open_session(tmp_path, cg.EvalSet(id="pairs", items=items))
    app = ReviewApp(session, scan=fixed_scan({"q1": [mirror], "q2": [other], "q3": [short]}))
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            screen = app.review_screen
            assert app.view.serious == 3 and "3 flagged medium or worse" in screen_text(app)
            assert list(app.flagged_order_as_shown()) == [0, 1, 2]
            assert screen.run_step(lambda: session.reject(reason="wrong-answer"))  # q1: q2's conflict is settled
            await pilot.pause()
            assert app.view.serious == 2 and "2 flagged medium or worse" in screen_text(app)
            assert list(app.flagged_order_as_shown()) == [0, 2]  # q1 still warns of q2 (not rejected); q2 shows a hint
            assert screen.run_step(session.undo, finished_check=False)
            await pilot.pause()
            assert app.view.serious == 3 and list(app.flagged_order_as_shown()) == [0, 1, 2]
            assert screen.run_step(lambda: session.reject(reason="wrong-answer"))
            app.post_message(OrderReady([0, 1, 2], 3, [(-3, 0), (-3, 1), (-2, 2)]))  # the checks' warnings again
            await settle(pilot, app)
            assert app.view.serious == 2  # counted as shown again: the rejected pair stays settled
            await pilot.press("f")
            await pilot.pause()
            assert tuple(session.queue.order) == (0, 2, 1, 3)  # the flagged first, as shown; then the rest
    finally:
        session.close()


async def test_the_count_of_serious_items_follows_what_the_journal_settled_before_a_resume(tmp_path):
    """Resumed after q1 was rejected, the status line counted q2 among the items flagged medium or worse again,
    and "flagged first" ranked it first, while its pane showed the conflict as settled."""
    from tests.tui_helpers import settle

    items = tuple(cg.EvalItem(id=f"q{k}", question=f"How long may a member keep tool number {k}?", answer=str(k)) for k in (1, 2, 3, 4))
    other = Flag("conflicting-answers", Severity.HIGH, "asks the same question as 'q1' but expects a different answer", ("q1",))
    mirror = Flag(other.check, other.severity, other.reason.replace("'q1'", "'q2'"), ("q2",))
    short = Flag("too-short", Severity.MEDIUM, "3 words")
    session = open_session(tmp_path, cg.EvalSet(id="pairs", items=items))
    session.reject(reason="wrong-answer")  # q1, in an earlier session
    path = session.input_path
    session.close()
    from reviewtui.evalset.review.session import ReviewSession

    session = ReviewSession.open(path, reviewer="t")
    app = ReviewApp(session, scan=fixed_scan({"q1": [mirror], "q2": [other], "q3": [short]}))
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            assert app.view.serious == 2  # q1 (its partner q2 is not rejected) and q3; q2's conflict is settled
            assert list(app.flagged_order_as_shown()) == [0, 2]
    finally:
        session.close()

"""The reviewer's word on a warning: 'not a problem' is journaled, undoable, shown dimmed, and counted per check."""

from __future__ import annotations

import reviewtui as cg
from reviewtui.evalset.io import read_jsonl
from reviewtui.evalset.model.flag import Flag, Severity
from reviewtui.evalset.review.queue import ReviewQueue
from reviewtui.evalset.review.session import ReviewSession
from tests.tui_helpers import FakeClock, fixed_scan, make_app, make_items, open_session, review_app, screen_text, settle

FLAGS = {
    "q1": [Flag("too-short", Severity.MEDIUM, "3 words"), Flag("weak-answer", Severity.HINT, "short answer")],
    "q2": [Flag("near-duplicate", Severity.MEDIUM, "like q3", ("q3",)), Flag("too-short", Severity.MEDIUM, "2 words")],
    "q3": [Flag("too-short", Severity.MEDIUM, "2 words")],
}


def _lookup(item: cg.EvalItem) -> list[Flag]:
    return FLAGS.get(item.id, [])


def test_a_dismissal_toggles_and_undo_takes_it_back():
    queue = ReviewQueue(make_items(3), reviewer="ana")
    queue.apply(queue.plan_dismiss("too-short"))
    assert queue.dismissed_for("q1") == {"too-short"} and queue.dismissals == {"q1": frozenset({"too-short"})}
    queue.apply(queue.plan_undo())
    assert queue.dismissed_for("q1") == frozenset()
    queue.apply(queue.plan_redo())
    assert queue.dismissed_for("q1") == {"too-short"}
    queue.apply(queue.plan_dismiss("too-short"))  # again: taken back
    assert queue.dismissed_for("q1") == frozenset() and queue.current.id == "q1"  # the cursor stays


def test_decisions_record_the_open_warnings_and_the_tally_counts_them(tmp_path):
    session = open_session(tmp_path, cg.EvalSet(id="t", items=make_items(3)), reviewer="ana")
    with session:
        session.warnings_from(_lookup)
        session.dismiss("too-short")  # q1: not a problem
        session.accept()  # q1 accepted; nothing left open at low or above (the hint does not count)
        session.reject(reason="duplicate")  # q2: confirms both of its warnings
        session.accept()  # q3: accepted past too-short
        tally = session.queue.warning_tally()
        assert tally == {
            "near-duplicate": {"confirmed": 1, "dismissed": 0, "accepted": 0},
            "too-short": {"confirmed": 1, "dismissed": 1, "accepted": 1},
        }
        assert session.queue.decision_for("q1").flagged == ("too-short",)  # recorded; dismissed, so not counted as passed
        out = session.export()
    again = ReviewSession.open(session.input_path, reviewer="bo", clock=FakeClock())  # the journal replays it all
    with again:
        assert again.queue.dismissed_for("q1") == {"too-short"} and again.queue.warning_tally() == tally
        assert any("too-short: 1 confirmed, 1 dismissed, 1 accepted past" in line for line in again.status_lines())
    exported = read_jsonl(out)
    assert dict(exported.meta["review"])["warnings"] == tally
    assert exported.get("q1").meta["review"]["dismissed"] == ["too-short"]
    assert exported.get("q3").meta["review"]["flagged"] == ["too-short"]


def test_an_edit_that_fixes_a_warning_confirms_it(tmp_path):
    def lookup(item: cg.EvalItem) -> list[Flag]:  # as the app rechecks an edited question
        return [Flag("too-short", Severity.MEDIUM, "3 words")] if len(item.question.split()) < 4 else []

    items = (cg.EvalItem(id="q1", question="Saw loan rules?"), cg.EvalItem(id="q2", question="Drill rules?"))
    session = open_session(tmp_path, cg.EvalSet(id="t", items=items), reviewer="ana")
    with session:
        session.warnings_from(lookup)
        session.edit(question="How long may a member keep a borrowed saw?")  # q1: the edit fixes it
        session.accept()  # q2: accepted past it
        assert session.queue.decision_for("q1").flagged == ("too-short",)
        assert session.queue.warning_tally() == {"too-short": {"confirmed": 1, "dismissed": 0, "accepted": 1}}
        assert session.queue.decision_for("q1").warnings == ()  # nothing is left open on the edited question
        out = session.export()
    assert read_jsonl(out).get("q1").meta["review"]["flagged"] == ["too-short"]


async def test_w_dismisses_the_warning_and_it_stays_visible_dimmed(tmp_path):
    session = open_session(tmp_path, cg.EvalSet(id="w", items=make_items(3)))
    app = make_app(session, scan=fixed_scan(FLAGS))
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            await pilot.press("w")  # q1 has one warning at low or above: no question asked
            await pilot.pause()
            assert session.queue.dismissed_for("q1") == {"too-short"}
            text = screen_text(app)
            assert "too-short" in text and "not a problem" in text
            await pilot.press("u")
            await pilot.pause()
            assert session.queue.dismissed_for("q1") == frozenset()
            await pilot.press("right", "w")  # q2 has two: a picker
            await pilot.pause()
            assert type(app.screen).__name__ == "WarningPickerScreen"
            await pilot.press("1")
            await pilot.pause()
            assert session.queue.dismissed_for("q2") == {"near-duplicate"}
    finally:
        session.close()


def test_a_second_edit_keeps_the_first_edits_confirmation(tmp_path):
    def lookup(item: cg.EvalItem) -> list[Flag]:
        return [Flag("too-short", Severity.MEDIUM, "3 words")] if len(item.question.split()) < 4 else []

    items = (cg.EvalItem(id="q1", question="Saw loan rules?"),)
    session = open_session(tmp_path, cg.EvalSet(id="t", items=items), reviewer="ana")
    with session:
        session.warnings_from(lookup)
        session.edit(question="How long may a member keep a borrowed saw?")  # fixes too-short
        session.goto("q1")
        session.edit(answer="Two weeks")  # a second edit of the fixed question replaces the first decision
        assert session.queue.warning_tally() == {"too-short": {"confirmed": 1, "dismissed": 0, "accepted": 0}}


async def test_a_dismissed_warning_the_review_settled_since_can_still_be_taken_back(tmp_path):
    """Dismissed on q1, then settled by rejecting q2: the pane offered 'w takes it back', and w said there was
    no warning to dismiss."""
    pair = {
        "q1": [Flag("conflicting-answers", Severity.HIGH, "asks the same question as 'q2'", ("q2",))],
        "q2": [Flag("conflicting-answers", Severity.HIGH, "asks the same question as 'q1'", ("q1",))],
    }
    session = open_session(tmp_path, cg.EvalSet(id="w", items=make_items(3)))
    app = make_app(session, scan=fixed_scan(pair))
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            await pilot.press("w")
            await pilot.pause()
            assert session.queue.dismissed_for("q1") == {"conflicting-answers"}
            session.goto("q2")
            session.reject(reason="wrong-answer")
            session.goto("q1")
            app.refresh_review()
            await pilot.pause()
            (shown,) = app.item_flags(session.queue.current)
            assert shown.severity is Severity.HINT  # settled
            await pilot.press("w")
            await pilot.pause()
            assert session.queue.dismissed_for("q1") == frozenset()
    finally:
        session.close()


def test_whose_word_a_dismissal_is_follows_undo_and_redo():
    queue = ReviewQueue(make_items(3), reviewer="ana")
    queue.apply(queue.plan_dismiss("too-short"))
    queue.reviewer = "bo"
    queue.apply(queue.plan_dismiss("too-short"))  # bo: a problem after all
    assert queue.dismissers_for("q1") == {}
    queue.reviewer = "cy"
    queue.apply(queue.plan_dismiss("too-short"))  # cy: not a problem
    queue.apply(queue.plan_dismiss("weak-answer"))
    assert queue.dismissers_for("q1") == {"too-short": "cy", "weak-answer": "cy"}
    queue.apply(queue.plan_undo())
    queue.apply(queue.plan_undo())  # cy's own word taken back
    assert queue.dismissers_for("q1") == {}
    queue.apply(queue.plan_undo())  # bo's taking back undone: ana's word again, not cy's
    assert queue.dismissers_for("q1") == {"too-short": "ana"}
    queue.apply(queue.plan_redo())
    queue.apply(queue.plan_redo())
    assert queue.dismissers_for("q1") == {"too-short": "cy"}


def test_the_export_names_who_dismissed_a_warning_when_another_reviewer_decided(tmp_path):
    from reviewtui.evalset.model.review import ReviewRecord, record_columns, record_from_columns

    session = open_session(tmp_path, cg.EvalSet(id="t", items=make_items(3)), reviewer="ana")
    with session:
        session.warnings_from(_lookup)
        session.dismiss("too-short")  # q1, left undecided
        session.goto(1)
        session.dismiss("too-short")  # q2
        session.accept()  # q2: ana's own dismissal, ana's decision
        session.dismiss("too-short")  # q3, left undecided
    second = ReviewSession.open(session.input_path, reviewer="bo", clock=FakeClock())
    with second:
        assert second.queue.dismissers_for("q1") == {"too-short": "ana"}  # from the journal, as written
        second.goto(0)
        second.accept()  # q1: bo decides past ana's word
        second.goto(2)
        second.reject(reason="duplicate")  # q3
        out = second.export()
        rejected = second.export(rejected=True)
    items = read_jsonl(out)
    assert dict(items.meta["review"])["reviewers"] == ["ana", "bo"]
    q1, q2 = items.get("q1").meta["review"], items.get("q2").meta["review"]
    assert q1["reviewer"] == "bo" and q1["dismissed"] == ["too-short"] and q1["dismissed_by"] == {"too-short": "ana"}
    assert q2["reviewer"] == "ana" and q2["dismissed"] == ["too-short"] and "dismissed_by" not in q2  # the decider's own
    q3 = read_jsonl(rejected).get("q3").meta["review"]
    assert q3["reviewer"] == "bo" and q3["dismissed_by"] == {"too-short": "ana"}
    record = ReviewRecord.from_meta(items.get("q1").meta)
    assert record is not None and record.dismissed_by == {"too-short": "ana"}
    cells = record_columns(items.get("q1").meta)  # a CSV export's columns, and back
    assert cells is not None and cells["review.dismissed_by"] == '{"too-short":"ana"}'
    back = record_from_columns({name.removeprefix("review."): text for name, text in cells.items()})
    assert back is not None and back["dismissed_by"] == {"too-short": "ana"}


def test_the_warnings_pane_names_who_dismissed_a_warning_safely():
    from reviewtui.tui.render import flags_view

    flags = [Flag("too-short", Severity.MEDIUM, "3 words")]
    shown = flags_view(flags, dismissed={"too-short": "[bold]mallory[/]\x1b[2J"}).plain
    assert "not a problem ([bold]mallory[/]" in shown and "\x1b" not in shown
    assert "not a problem (a reviewer said so" in flags_view(flags, dismissed={"too-short": ""}).plain
    assert "not a problem (a reviewer said so" in flags_view(flags, dismissed=frozenset({"too-short"})).plain


def test_a_dismissed_warning_is_not_one_accepted_past(tmp_path):
    """`w` then `a` on a high-severity warning was still reported as accepted past it, beside a tally that said dismissed."""
    from reviewtui.evalset.review.export import accepted_past_warnings

    serious = {item: [Flag("conflicting-answers", Severity.HIGH, "two answers")] for item in ("q1", "q2", "q3")}
    session = open_session(tmp_path, cg.EvalSet(id="t", items=make_items(3)), reviewer="ana")
    with session:
        session.warnings_from(lambda item: serious.get(item.id, []))
        session.dismiss("conflicting-answers")  # q1: not a problem, then accepted
        session.accept()
        session.accept()  # q2: accepted past it
        assert accepted_past_warnings(session.queue) == {"q2": ("conflicting-answers",)}
        session.goto(1)
        session.dismiss("conflicting-answers")  # q2: dismissed after it was accepted
        assert accepted_past_warnings(session.queue) == {}
        session.goto(2)
        session.dismiss("conflicting-answers")  # q3: the dismissal ...
        session.accept()
        session.goto(2)
        session.dismiss("conflicting-answers")  # ... taken back after the accept: accepted past it after all
        assert accepted_past_warnings(session.queue) == {"q3": ("conflicting-answers",)}
        session.goto(2)
        session.dismiss("conflicting-answers")  # and dismissed again, as the export below expects
        out = session.export()
    exported = read_jsonl(out)
    assert dict(exported.meta["review"])["accepted_past_warnings"] == {}
    for item_id in ("q1", "q2", "q3"):
        record = exported.get(item_id).meta["review"]
        assert record["open_warnings"] == [] and record["dismissed"] == ["conflicting-answers"]
        assert record["flagged"] == ["conflicting-answers"]  # what flagged it when decided stays on record


def test_the_history_shows_a_note_written_on_a_decision_since():
    """The history pane listed each decision as it was made: a note written on it later never showed."""
    queue = ReviewQueue(make_items(3), reviewer="ana")
    queue.accept()
    queue.accept(note="fine")
    queue.apply(queue.plan_goto(0))
    queue.apply(queue.plan_note("asked about this one"))
    queue.reviewer = "bo"
    queue.apply(queue.plan_goto(1))
    queue.apply(queue.plan_note("a copy of q1"))
    recent = queue.recent()
    assert [(d.item_id, d.note, d.note_by) for d in recent] == [("q2", "a copy of q1", "bo"), ("q1", "asked about this one", "")]
    queue.apply(queue.plan_undo())  # bo's note taken back
    assert [(d.item_id, d.note) for d in queue.recent()] == [("q2", "fine"), ("q1", "asked about this one")]
    queue.apply(queue.plan_goto(0))
    queue.reviewer = "ana"
    queue.accept(note="decided again")  # q1 decided anew: its first decision is shown as it was made
    assert [(d.item_id, d.note) for d in queue.recent()] == [("q1", "decided again"), ("q2", "fine"), ("q1", "")]


def test_another_reviewers_dismissal_after_an_accept_does_not_undo_it(tmp_path):
    """dee accepted q1 while a high-severity warning was open; eve, reviewing on, marked it not a problem: the
    export no longer said dee accepted past it. A dismissal made before the accept settles it, as before."""
    from reviewtui.evalset.review.export import accepted_past_warnings

    serious = {item: [Flag("evidence-not-found", Severity.HIGH, "not in the document")] for item in ("q1", "q2")}
    session = open_session(tmp_path, cg.EvalSet(id="t", items=make_items(3)), reviewer="dee")
    with session:
        session.warnings_from(lambda item: serious.get(item.id, []))
        session.accept()  # q1: past the warning
    second = ReviewSession.open(session.input_path, reviewer="eve", clock=FakeClock())
    with second:
        second.warnings_from(lambda item: serious.get(item.id, []))
        second.goto(0)
        second.dismiss("evidence-not-found")  # q1, after dee's accept
        second.goto(1)
        second.dismiss("evidence-not-found")  # q2, before anyone decides it
    third = ReviewSession.open(session.input_path, reviewer="dee", clock=FakeClock())
    with third:
        third.warnings_from(lambda item: serious.get(item.id, []))
        third.goto(1)
        third.accept()  # q2: eve had said it is not a problem
        assert accepted_past_warnings(third.queue) == {"q1": ("evidence-not-found",)}
        tally = third.queue.warning_tally()["evidence-not-found"]  # the check's precision: each flag counted once
        assert tally == {"confirmed": 0, "dismissed": 2, "accepted": 0}
        out = third.export()
    exported = read_jsonl(out)
    assert dict(exported.meta["review"])["accepted_past_warnings"] == {"q1": ["evidence-not-found"]}
    q1 = exported.get("q1").meta["review"]
    assert q1["open_warnings"] == ["evidence-not-found"] and q1["dismissed_by"] == {"evidence-not-found": "eve"}
    assert exported.get("q2").meta["review"]["open_warnings"] == []


def test_a_journal_that_wrote_down_a_warning_another_had_dismissed_is_read_as_settled(tmp_path, monkeypatch):
    """Journals from before a decision left out warnings others had dismissed recorded them: read as written,
    the item was listed as accepted past a warning eve had said was not a problem before dee accepted it."""
    from reviewtui.evalset.review.export import accepted_past_warnings
    from reviewtui.evalset.review.queue import ReviewQueue

    serious = {"q1": [Flag("evidence-not-found", Severity.HIGH, "not in the document")]}
    session = open_session(tmp_path, cg.EvalSet(id="t", items=make_items(2)), reviewer="eve")
    with session:
        session.warnings_from(lambda item: serious.get(item.id, []))
        session.dismiss("evidence-not-found")  # q1
    with monkeypatch.context() as old_code:
        old_code.setattr(ReviewQueue, "dismissed_by_others", lambda self, index, reviewer: frozenset())
        with ReviewSession.open(session.input_path, reviewer="dee", clock=FakeClock()) as dee:
            dee.warnings_from(lambda item: serious.get(item.id, []))
            dee.accept()  # q1, recorded as the old code recorded it
            assert accepted_past_warnings(dee.queue) == {"q1": ("evidence-not-found",)}
    with ReviewSession.open(session.input_path, reviewer="dee") as again:
        assert accepted_past_warnings(again.queue) == {}


def _short_or_typeless(item: cg.EvalItem) -> list[Flag]:
    """too-short on a question under four words; no-evidence on every item without an anchor."""
    flags = [Flag("no-evidence", Severity.MEDIUM, "no quote")] if not item.anchors else []
    if len(item.question.split()) < 4:
        flags.append(Flag("too-short", Severity.MEDIUM, "3 words"))
    return flags


def test_an_edit_confirms_only_the_warnings_it_fixed(tmp_path):
    """Marking the type, or rewording a question whose quote stays missing, counted every warning on the item as
    confirmed, while the same export listed the item as kept past them."""
    items = (
        cg.EvalItem(id="q1", question="Saw loan rules?"),
        cg.EvalItem(id="q2", question="Drill rules?"),
        cg.EvalItem(id="q3", question="A question of six words here?", answer="Yes"),
    )
    session = open_session(tmp_path, cg.EvalSet(id="t", items=items), reviewer="ana")
    with session:
        session.warnings_from(_short_or_typeless)
        session.edit(question="How long may a member keep a borrowed saw?")  # q1: fixes too-short, not no-evidence
        session.edit(qtype="factoid")  # q2: a type marked fixes nothing
        session.edit(question="Ok?")  # q3: the edit itself makes the question too short, and it is kept so
        decision = session.queue.decision_for("q1")
        assert decision.flagged == ("no-evidence", "too-short") and decision.unfixed == ("no-evidence",)
        tally = session.queue.warning_tally()
        assert tally == {
            "no-evidence": {"confirmed": 0, "dismissed": 0, "accepted": 3},
            "too-short": {"confirmed": 1, "dismissed": 0, "accepted": 2},
        }
        journal = session.journal_path
    again = ReviewSession.open(session.input_path, journal_path=journal, reviewer="ana", clock=FakeClock())
    with again:  # the journal says what each edit left flagging the item
        assert again.queue.warning_tally() == tally
        assert again.queue.decision_for("q1").unfixed == ("no-evidence",)


def test_an_edit_journaled_before_edits_said_what_they_left_confirms_every_warning(tmp_path):
    import orjson

    from reviewtui.evalset.io.journal import encode_record

    items = (cg.EvalItem(id="q1", question="Saw loan rules?"),)
    session = open_session(tmp_path, cg.EvalSet(id="t", items=items), reviewer="ana")
    with session:
        session.warnings_from(_short_or_typeless)
        session.edit(qtype="factoid")
        journal = session.journal_path
    records = [orjson.loads(line)["r"] for line in journal.read_bytes().splitlines()]
    decide = next(r for r in records if r.get("op") == "decide")
    assert decide["unfixed"] == ["no-evidence", "too-short"]
    del decide["unfixed"]  # as an older version wrote it
    journal.write_bytes(b"".join(encode_record(r) for r in records))
    again = ReviewSession.open(session.input_path, journal_path=journal, reviewer="ana", clock=FakeClock())
    with again:
        assert again.queue.decision_for("q1").unfixed is None
        assert again.queue.warning_tally() == {
            "no-evidence": {"confirmed": 1, "dismissed": 0, "accepted": 0},
            "too-short": {"confirmed": 1, "dismissed": 0, "accepted": 0},
        }


async def test_a_dismissal_whose_warning_an_edit_made_go_away_can_be_taken_back(tmp_path):
    """Dismissed, then edited away: it still counted as dismissed, and w offered only the warnings shown now."""
    async with review_app(tmp_path, "w", items=3, scan=fixed_scan(FLAGS)) as (app, pilot, session):
        session.goto("q3")
        session.dismiss("near-duplicate")  # as the warning was before an edit changed what flags q3
        app.refresh_review()
        await pilot.press("w")
        await pilot.pause()
        assert type(app.screen).__name__ == "WarningPickerScreen"
        assert "no longer flags this item" in screen_text(app)
        await pilot.press("2")
        await pilot.pause()
        assert session.queue.dismissed_for("q3") == frozenset()
        assert session.queue.warning_tally() == {}


def test_an_edit_of_the_question_counts_a_pair_warning_as_fixed_until_the_set_is_checked_again(tmp_path):
    """The scan's duplicate warning stays on an edited item until the next scan: rewording the question was counted as
    keeping it past the duplicate, and every reworded duplicate read as a wrong warning."""
    duplicate = {"x2": [Flag("exact-duplicate", Severity.MEDIUM, "the same question as 'x1'", ("x1",))]}
    items = tuple(cg.EvalItem(id=f"x{k}", question="What is the late fee for a drill?", answer="Two") for k in (1, 2, 3))
    session = open_session(tmp_path, cg.EvalSet(id="t", items=items), reviewer="ana")
    with session:
        session.warnings_from(lambda item: duplicate.get(item.id, []))  # as the scan has it: by id, whatever the text
        session.goto("x2")
        session.edit(question="What is the late fee for a sander?")
        assert session.queue.decision_for("x2").unfixed == ()
        session.goto("x3")
        duplicate["x3"] = [Flag("exact-duplicate", Severity.MEDIUM, "the same question as 'x1'", ("x1",))]
        session.edit(qtype="numeric")  # a type marked leaves the question as it was: the duplicate is kept past
        assert session.queue.warning_tally() == {"exact-duplicate": {"confirmed": 1, "dismissed": 0, "accepted": 1}}


def test_a_journals_pair_warning_that_names_no_item_is_refused(tmp_path):
    import orjson
    import pytest

    from reviewtui.evalset.io.journal import encode_record
    from reviewtui.evalset.model.errors import EvalSetError

    pair = [Flag("conflicting-answers", Severity.HIGH, "asks the same question as 'q2'", ("q2",))]
    session = open_session(tmp_path, cg.EvalSet(id="t", items=make_items(2)), reviewer="ana")
    with session:
        session.warnings_from(lambda item: pair if item.id == "q1" else [], pairs=lambda item: {"conflicting-answers": ("q2",)})
        session.accept()
        journal = session.journal_path
    records = [orjson.loads(line)["r"] for line in journal.read_bytes().splitlines()]
    decide = next(r for r in records if r.get("op") == "decide")
    assert decide["pairs"] == {"conflicting-answers": ["q2"]}
    for bad in ({"conflicting-answers": []}, {"": ["q2"]}, {"conflicting-answers": [""]}, ["q2"]):
        decide["pairs"] = bad
        journal.write_bytes(b"".join(encode_record(r) for r in records))
        with pytest.raises(EvalSetError, match="pairs"):
            ReviewSession.open(session.input_path, journal_path=journal, reviewer="ana", clock=FakeClock()).close()


def test_an_edit_that_leaves_what_a_pair_check_compares_leaves_its_warning(tmp_path):
    """A typo fixed in a duplicate's answer, or a space added to its question, counted the duplicate warning as
    confirmed: the edit ended nothing the check compares."""
    from reviewtui.evalset.checks.settled import edit_may_end

    flag = Flag("exact-duplicate", Severity.MEDIUM, "the same question as 'x1'", ("x1",))
    items = tuple(cg.EvalItem(id=f"x{k}", question="What is the late fee for a drill?", answer="Two") for k in (1, 2, 3, 4))
    session = open_session(tmp_path, cg.EvalSet(id="t", items=items), reviewer="ana")
    with session:
        session.warnings_from(lambda item: [flag] if item.id != "x1" else [], edit_ends=edit_may_end)
        session.goto("x2")
        session.edit(answer="Two pounds")  # the answer: a duplicate compares questions
        session.goto("x3")
        session.edit(question="What is the late fee for a drill ?")  # a space: the same words
        session.goto("x4")
        session.edit(question="What is the late fee for a sander?")  # another question: the duplicate may be gone
        unfixed = {i: session.queue.decision_for(i).unfixed for i in ("x2", "x3", "x4")}
        assert unfixed == {"x2": ("exact-duplicate",), "x3": ("exact-duplicate",), "x4": ()}
        assert session.queue.warning_tally() == {"exact-duplicate": {"confirmed": 1, "dismissed": 0, "accepted": 2}}


async def test_the_app_tells_the_session_which_edits_may_end_a_pair_warning(tmp_path):
    duplicate = {"q2": [Flag("exact-duplicate", Severity.MEDIUM, "the same question as 'q1'", ("q1",))]}
    async with review_app(tmp_path, "w", items=3, scan=fixed_scan(duplicate)) as (app, pilot, session):
        session.goto("q2")
        session.edit(answer="another answer")
        assert "exact-duplicate" in session.queue.decision_for("q2").unfixed  # with what the recheck found of the new answer


def test_an_edits_record_says_which_warnings_it_left_as_the_header_counts_them(tmp_path):
    """The header counted an edit's warnings as fixed or left, while the item's record listed them all as flagged."""
    items = (cg.EvalItem(id="q1", question="Saw loan rules?"),)
    session = open_session(tmp_path, cg.EvalSet(id="t", items=items), reviewer="ana")
    with session:
        session.warnings_from(_short_or_typeless)
        session.edit(question="How long may a member keep a borrowed saw?")  # fixes too-short, not no-evidence
        out = session.export()
    exported = read_jsonl(out)
    record = exported.get("q1").meta["review"]
    assert record["flagged"] == ["no-evidence", "too-short"] and record["unfixed"] == ["no-evidence"]
    assert dict(exported.meta["review"])["warnings"] == {
        "no-evidence": {"confirmed": 0, "dismissed": 0, "accepted": 1},
        "too-short": {"confirmed": 1, "dismissed": 0, "accepted": 0},
    }


async def test_w_and_p_wait_for_the_scan_and_take_back_no_earlier_dismissal(tmp_path):
    """A review resumed on an item whose near-duplicate an earlier session marked "not a problem": `w` pressed while
    "checking quality…" took the dismissal back at once ("near-duplicate: a problem again"), journaled, as a warning
    that "no longer flags this item", and `p` said that no warning names another item; the scan had not finished."""
    session = open_session(tmp_path, cg.EvalSet(id="w", items=make_items(3)))
    session.dismiss("too-short")  # an earlier session's word on q1
    app = make_app(session, scan=fixed_scan(FLAGS))
    try:
        async with app.run_test(size=(120, 40), notifications=True) as pilot:
            await settle(pilot, app)
            app.view.flags = None  # the scan not in yet
            for key in ("w", "p"):
                await pilot.press(key)
                await pilot.pause()
                assert type(app.screen).__name__ == "ReviewScreen"
            assert session.queue.dismissed_for("q1") == {"too-short"}
            said = [str(n.message) for n in app._notifications]
            assert sum("scan is still running" in line for line in said) == 2
            assert not any("a problem again" in line or "names another item" in line for line in said)
    finally:
        session.close()

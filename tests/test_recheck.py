"""After an edit, an item's warnings are about the item as edited, not as it was."""

from __future__ import annotations

import reviewtui as cg
from reviewtui.evalset.checks.recheck import STALE_NOTE, recheck_item
from reviewtui.evalset.evidence.corpus import Corpus
from reviewtui.evalset.model.flag import Flag, Severity
from reviewtui.evalset.review.session import ReviewSession
from reviewtui.tui.app import ReviewApp
from tests.conftest import SAMPLE_SETS
from tests.test_tui_snapshots import copy_demo
from tests.tui_helpers import FakeClock, fixed_scan, screen_text, settle

RIGHT_QUOTE = "Tools returned more than 14 days late are treated as lost, and the replacement cost is charged to the member's account."


def _item(question: str, **fields) -> cg.EvalItem:
    return cg.EvalItem(id="q1", question=question, **fields)


def test_item_checks_run_again_on_the_edited_item():
    short = Flag("too-short", Severity.MEDIUM, "3 words, under the minimum of 4")
    fixed = recheck_item(_item("How long may a member keep a borrowed tile saw?"), [short])
    assert all(f.check != "too-short" for f in fixed)
    still = recheck_item(_item("Late fee rules?"), [short])
    assert [f.check for f in still if f.check == "too-short"] == ["too-short"]


def test_a_french_question_edited_into_a_fragment_is_warned_again():
    """The hint a question got for being four words as French writes them is the item's own: an edit that
    leaves a fragment brings the warning back, as it does for a short claim."""
    from reviewtui.evalset.checks.scan import scan_flags

    items = (_item("Qu'est-ce qu'un cookie ?"), *(cg.EvalItem(id=f"t{i}", question=f"Which tool number {i} may a member borrow?") for i in range(30)))
    (hint,) = [f for f in scan_flags(cg.EvalSet(id="fr", items=items)).flags[items[0].id] if f.check == "too-short"]
    assert hint.severity is Severity.HINT and "as its language writes words" in hint.reason
    again = recheck_item(_item("Combien d'employeurs"), [hint])
    assert [f.severity for f in again if f.check == "too-short"] == [Severity.MEDIUM]


def test_a_severity_the_full_scan_adjusted_for_the_set_is_kept():
    low = Flag("too-short", Severity.LOW, "3 words (a keyword-query set)")
    assert [f.severity for f in recheck_item(_item("tile saw rules"), [low]) if f.check == "too-short"] == [Severity.LOW]


def test_flags_that_compare_items_stay_and_say_they_are_stale():
    pair = Flag("conflicting-answers", Severity.HIGH, "asked again in q9 with another answer", ("q9",))
    flags = recheck_item(_item("How long may a member keep a borrowed tile saw?"), [pair])
    (kept,) = [f for f in flags if f.check == "conflicting-answers"]
    assert kept.reason.endswith(STALE_NOTE) and kept.related_ids == ("q9",) and kept.severity is Severity.HIGH
    again = recheck_item(_item("How long may a member keep a borrowed tile saw?"), flags)
    assert [f.reason for f in again if f.check == "conflicting-answers"] == [kept.reason]  # marked once


def test_no_evidence_stays_only_while_the_item_has_none():
    flag = Flag("no-evidence", Severity.MEDIUM, "no quote or span")
    assert any(f.check == "no-evidence" for f in recheck_item(_item("How long may a member keep a saw?"), [flag]))
    quoted = _item("How long may a member keep a saw?", anchors=(cg.GoldAnchor(source_id="a.md", quote="Two weeks."),))
    assert all(f.check != "no-evidence" for f in recheck_item(quoted, [flag]))


def test_the_type_hint_follows_a_new_type():
    item = _item("How many days may a member keep a borrowed tile saw?")
    assert any(f.check == "suggested-type" for f in recheck_item(item, []))
    typed = item.model_copy(update={"qtype": "numeric"})
    assert all(f.check != "suggested-type" for f in recheck_item(typed, []))


async def test_the_app_shows_rechecked_warnings_after_an_edit_and_the_old_ones_after_undo(tmp_path):
    demo = copy_demo(SAMPLE_SETS / "wrenfield_tools", tmp_path / "demo")
    session = ReviewSession.open(demo / "wrenfield_tools.jsonl", reviewer="t", clock=FakeClock())
    short = Flag("too-short", Severity.MEDIUM, "3 words, under the minimum of 4: too little to retrieve on")
    app = ReviewApp(session, scan=fixed_scan({"q21": [short]}), corpus=Corpus(demo / "corpus"))
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            for _ in range(200):  # the corpus lookup runs in a worker thread
                if app.view.evidence_flags is not None:
                    break
                await pilot.pause(0.05)
            session.goto("q20")
            assert "evidence-not-found" in [f.check for f in app.item_flags(session.queue.current)]
            session.edit(quote=RIGHT_QUOTE)
            session.goto("q20")  # an edit is a decision: the cursor moved on
            app.refresh_review()
            await pilot.pause()
            assert "evidence-not-found" not in [f.check for f in app.item_flags(session.queue.current)]
            assert "evidence-not-found" not in screen_text(app)

            session.goto("q21")
            session.edit(question="How are late fees worked out when the library is closed on some days?")
            session.goto("q21")
            app.refresh_review()
            await pilot.pause()
            assert "too-short" not in screen_text(app)
            session.undo()
            assert session.queue.current.id == "q21"
            app.refresh_review()
            await pilot.pause()
            assert "too-short" in screen_text(app)
    finally:
        session.close()


async def test_an_edit_that_fixes_a_serious_warning_is_not_recorded_as_passing_it(tmp_path):
    demo = copy_demo(SAMPLE_SETS / "wrenfield_tools", tmp_path / "demo")
    session = ReviewSession.open(demo / "wrenfield_tools.jsonl", reviewer="t", clock=FakeClock())
    app = ReviewApp(session, scan=fixed_scan({}), corpus=Corpus(demo / "corpus"))
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            for _ in range(200):
                if app.view.evidence_flags is not None:
                    break
                await pilot.pause(0.05)
            session.goto("q20")
            session.edit(answer="After more than 14 days.")  # the quote is still wrong
            assert session.queue.decision_for("q20").warnings == ("evidence-not-found",)
            session.goto("q20")
            session.edit(quote=RIGHT_QUOTE)
            assert session.queue.decision_for("q20").warnings == ()
    finally:
        session.close()


def _pair_set() -> cg.EvalSet:
    quote = cg.GoldAnchor(source_id="rules.md", quote="Loans last two weeks.")
    questions = {
        "q1": "How many weeks does a loan of a power drill last at the library?",
        "q2": "How many weeks does a loan of a power drill last at the tool library?",
        "q3": "Who signs the volunteer rota at the front desk each morning?",
        "q4": "Which form must a new member complete before borrowing a tile saw?",
    }
    return cg.EvalSet(id="pairs", items=tuple(cg.EvalItem(id=k, question=q, answer="Two weeks", anchors=(quote,)) for k, q in questions.items()))


def test_the_child_scans_the_set_as_the_journal_has_edited_it(tmp_path):
    from reviewtui.evalset.io import read_jsonl, write_jsonl
    from reviewtui.tui.stages import as_reviewed

    path = write_jsonl(_pair_set(), tmp_path / "pairs.jsonl")
    with ReviewSession.open(path, reviewer="t", clock=FakeClock()) as session:
        session.edit(question="Who repairs a broken tool after it is returned late?")
        journal = session.journal_path
    reviewed = as_reviewed(read_jsonl(path), str(path), str(journal), None, None)
    assert reviewed.get("q1").question == "Who repairs a broken tool after it is returned late?"
    assert reviewed.get("q2") == read_jsonl(path).get("q2")


async def test_after_an_edit_the_app_scans_again_and_the_stale_pair_warning_goes(tmp_path, monkeypatch):
    from reviewtui.evalset.io import write_jsonl
    from reviewtui.tui import app as app_module

    monkeypatch.setattr(app_module, "RESCAN_AFTER_SECONDS", 0.05)
    path = write_jsonl(_pair_set(), tmp_path / "pairs.jsonl")
    session = ReviewSession.open(path, reviewer="t", clock=FakeClock())
    app = ReviewApp(session)  # the real scan, in a child process
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            for _ in range(300):
                if app.view.flags is not None:
                    break
                await pilot.pause(0.05)
            assert "near-duplicate" in [f.check for f in app.view.flags["q2"]]
            session.edit(question="Who repairs a broken tool after it is returned late?")  # q1, no longer like q2
            session.goto("q2")
            app.schedule_rescan()
            app.refresh_review()
            await pilot.pause()
            stale = [f.reason for f in app.item_flags(session.queue.current) if f.check == "near-duplicate"]
            assert stale == [] or all(STALE_NOTE not in r for r in stale)  # q2 itself is not edited
            await _q1_rescanned_apart_from_q2(app, pilot, session, tries=300)
    finally:
        session.close()


async def _q1_rescanned_apart_from_q2(app, pilot, session, tries: int) -> None:
    """Wait for the rescan after q1's edit; then q2 has no near-duplicate, and q1's flags are not stale."""
    for _ in range(tries):
        if app.view.scanned_as:
            break
        await pilot.pause(0.05)
    assert "q1" in app.view.scanned_as
    assert "near-duplicate" not in [f.check for f in app.view.flags.get("q2", [])]
    session.goto("q1")
    assert all(STALE_NOTE not in f.reason for f in app.item_flags(session.queue.current) or [])


async def test_a_resumed_review_with_edits_is_scanned_again_as_reviewed(tmp_path, monkeypatch):
    # The edit was made in an earlier session: the first scan reads the file, and only a rescan sees the edit.
    from reviewtui.evalset.io import write_jsonl
    from reviewtui.tui import app as app_module

    monkeypatch.setattr(app_module, "RESCAN_AFTER_SECONDS", 0.05)
    path = write_jsonl(_pair_set(), tmp_path / "pairs.jsonl")
    with ReviewSession.open(path, reviewer="t", clock=FakeClock()) as session:
        session.edit(question="Who repairs a broken tool after it is returned late?")  # q1, no longer like q2
    session = ReviewSession.open(path, reviewer="t", clock=FakeClock())
    app = ReviewApp(session)  # the real scan, in a child process
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await _q1_rescanned_apart_from_q2(app, pilot, session, tries=400)
    finally:
        session.close()


def test_a_short_claim_is_a_hint_and_an_edit_to_a_fragment_makes_it_a_warning_again():
    from reviewtui.evalset.checks.scan import SHORT_STATEMENT_NOTE, scan_flags

    claim = _item("DUSP4 decreases apoptosis.")
    scan = scan_flags(cg.EvalSet(id="claims", items=(claim,)), workers=1)
    (hint,) = [f for f in scan.flags["q1"] if f.check == "too-short"]
    assert hint.severity == Severity.HINT and hint.reason.endswith(SHORT_STATEMENT_NOTE)
    # Rewritten into a fragment, the item gets the check's own weight back, not the claim's hint ...
    fragment = recheck_item(_item("Apoptosis rules?"), [hint])
    assert [f.severity for f in fragment if f.check == "too-short"] == [Severity.MEDIUM]
    # ... and a fragment rewritten into a short claim becomes a hint.
    medium = next(f for f in fragment if f.check == "too-short")
    assert [f.severity for f in recheck_item(claim, [medium]) if f.check == "too-short"] == [Severity.HINT]


def test_what_the_full_scan_said_of_the_set_survives_an_edit_of_the_item():
    """After an edit, SQuAD 2.0's "no expected answer, unlike other items" hint went (a set of one has no
    other items), and a keyword-query set's too-short hint lost the note saying why it is a hint."""
    from reviewtui.evalset.checks.scan import scan_flags

    answered = [cg.EvalItem(id=f"q{k}", question=f"When did the library open branch number {k}?", answer=str(1900 + k)) for k in range(5)]
    unanswered = cg.EvalItem(id="open", question="When did the library open its newest branch?")
    scan = scan_flags(cg.EvalSet(id="s", items=(*answered, unanswered)))
    before = scan.for_item("open")
    assert any(f.reason == "no expected answer, unlike other items in the set" for f in before)
    edited = unanswered.replace(question="When did the library open its newest branch in town?")
    assert any(f.reason == "no expected answer, unlike other items in the set" for f in recheck_item(edited, before))
    assert not any("no expected answer" in f.reason for f in recheck_item(edited.replace(answer="2001"), before))

    queries = [cg.EvalItem(id=f"k{k}", question=f"laura bush {k}") for k in range(40)]
    scan = scan_flags(cg.EvalSet(id="kw", items=tuple(queries)))
    before = scan.for_item("k3")
    short = next(f for f in before if f.check == "too-short")
    assert short.severity == Severity.HINT and "keyword queries" in short.reason
    after = next(f for f in recheck_item(queries[3].replace(question="laura bush iii"), before) if f.check == "too-short")
    assert after.severity == Severity.HINT and after.reason.endswith("keyword queries), so this is a hint")


async def test_an_undo_after_the_rescan_shows_the_warnings_of_the_item_as_it_is_again(tmp_path, monkeypatch):
    """The rescan after an edit saw the edited item; after an undo its flags were still the edit's until
    the next scan, and an accept in that moment went on record as passing no warning."""
    from reviewtui.evalset.io import write_jsonl
    from reviewtui.tui import app as app_module

    monkeypatch.setattr(app_module, "RESCAN_AFTER_SECONDS", 0.05)
    items = (
        cg.EvalItem(id="q1", question="Late fee rules?", answer="Ten cents a day"),
        *(cg.EvalItem(id=f"q{k}", question=f"Which tool number {k} may a member borrow overnight?", answer="Any") for k in range(2, 6)),
    )
    path = write_jsonl(cg.EvalSet(id="fees", items=items), tmp_path / "fees.jsonl")
    session = ReviewSession.open(path, reviewer="t", clock=FakeClock())
    app = ReviewApp(session)  # the real scan, in a child process
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            for _ in range(300):
                if app.view.flags is not None:
                    break
                await pilot.pause(0.05)
            assert "too-short" in [f.check for f in app.view.flags["q1"]]
            session.edit(question="How are late fees worked out when the library is closed on some days?")
            app.schedule_rescan()
            for _ in range(400):
                if "q1" in app.view.scanned_as:
                    break
                await pilot.pause(0.05)
            assert "too-short" not in [f.check for f in app.view.flags.get("q1", [])]  # the scan saw the edit
            session.undo()
            assert session.queue.current.question == "Late fee rules?"
            shown = app.item_flags(session.queue.current)
            assert "too-short" in [f.check for f in shown]
            app.review_screen.action_accept()
            await pilot.pause()
            decision = session.queue.decision_for("q1")
            assert decision is not None and "too-short" in decision.flagged
    finally:
        session.close()


def test_an_edit_is_weighed_with_what_the_scan_knew_of_the_set():
    """An edit that made a keyword query short was warned (the set's other short queries were hints),
    and one that took the answer away lost 'no expected answer, unlike other items' until the next scan."""
    from reviewtui.evalset.checks.recheck import SetFacts

    query = cg.EvalItem(id="k1", question="Indian dhal")
    short = next(f for f in recheck_item(query, [], facts=SetFacts(keyword_queries=True)) if f.check == "too-short")
    assert short.severity == Severity.HINT and short.reason.endswith("(keyword queries), so this is a hint")
    assert next(f for f in recheck_item(query, []) if f.check == "too-short").severity == Severity.MEDIUM

    unanswered = cg.EvalItem(id="q1", question="When did the library open its newest branch in town?")
    said = "no expected answer, unlike other items in the set"
    assert any(f.reason == said for f in recheck_item(unanswered, [], facts=SetFacts(answered=5), was_answered=True))
    assert not any(f.reason == said for f in recheck_item(unanswered, [], facts=SetFacts(answered=1), was_answered=True))
    assert not any(f.reason == said for f in recheck_item(unanswered, []))


def test_the_set_facts_count_answers_as_the_last_scan_read_them(tmp_path):
    """The first scan reads the file as it stands: an answer taken away since is not in its count, so the
    recheck of that item still says 'no expected answer, unlike other items' (as a full scan would)."""
    from reviewtui.evalset.checks.scan import scan_flags
    from reviewtui.evalset.io import write_jsonl

    items = tuple(cg.EvalItem(id=f"q{k}", question=f"When did the library open branch number {k}?", answer=str(1900 + k)) for k in (1, 2))
    path = write_jsonl(cg.EvalSet(id="two", items=items), tmp_path / "two.jsonl")
    session = ReviewSession.open(path, reviewer="t", clock=FakeClock())
    try:
        app = ReviewApp(session, scan=fixed_scan({}))
        flags = scan_flags(cg.EvalSet(id="two", items=items)).flags
        session.edit(answer="")
        edited = session.queue.shown(session.queue.index_of("q1"))
        assert edited.answer is None
        assert app._set_facts(flags).answered == 2  # the scan read both answers
        said = "no expected answer, unlike other items in the set"
        rechecked = recheck_item(edited, flags.get("q1", []), facts=app._set_facts(flags), was_answered=True)
        assert any(f.reason == said for f in rechecked)
        assert said in [f.reason for f in scan_flags(cg.EvalSet(id="two", items=(edited, items[1]))).flags["q1"]]
        app.view.scanned_as = {"q1": edited}  # a rescan read the set as reviewed
        assert app._set_facts(flags).answered == 1
    finally:
        session.close()


def test_undoing_an_edit_back_to_the_original_counts_as_a_change_of_the_set():
    """Edit, then edit back (an accept): undoing the accept brings the first edit back, so the set as
    reviewed changed again and the app scans it again; the check looked only at the decision undone."""
    from reviewtui.evalset.review.queue import ReviewQueue
    from reviewtui.evalset.review.queue import changes_the_item as _edits

    items = tuple(cg.EvalItem(id=f"q{k}", question=f"Which tool number {k} may a member borrow?", answer="Any") for k in (1, 2))
    queue = ReviewQueue.from_evalset(cg.EvalSet(id="s", items=items))
    queue.edit(answer="None")
    queue.goto("q1")
    from reviewtui.evalset.review.queue import ItemEdit

    queue.apply(queue.plan_edit(ItemEdit(answer="Any")))  # back as the set has it: an accept, as a review session has it
    change = queue.last_change
    assert change.after.verdict.value == "accepted" and change.before.changed
    assert _edits(change)
    queue.undo()
    assert queue.shown(queue.index_of("q1")).answer == "None"
    assert _edits(queue.next_redo)
    queue.goto("q2")
    queue.accept()
    assert not _edits(queue.last_change)
    queue.goto("q2")
    queue.edit(answer="Some")
    queue.goto("q2")
    queue.note("checked against the rules")  # a note on the edited item leaves the edit as it is
    assert queue.last_change.after.changed and not _edits(queue.last_change)
    queue.apply(queue.plan_dismiss("too-short"))
    assert not _edits(queue.last_change)


async def test_undoing_an_edit_the_rescan_saw_brings_back_the_warnings_of_the_set_s_own_version(tmp_path):
    """The rescan had read q2 as edited; after an undo, until the next rescan, q2 showed the edited version's
    warnings (no conflict with q1), and an accept then went on record as made past no warning."""
    from reviewtui.evalset.io import write_jsonl
    from reviewtui.tui.messages import ScanFinished

    items = (
        cg.EvalItem(id="q1", question="How many PTO days can employees carry over?", answer="Five"),
        cg.EvalItem(id="q2", question="How many PTO days can employees carry over each year?", answer="Ten"),
    )
    conflict = Flag("conflicting-answers", Severity.HIGH, "asks the same question as 'q1', with another answer", ("q1",))
    path = write_jsonl(cg.EvalSet(id="pto", items=items), tmp_path / "pto.jsonl")
    session = ReviewSession.open(path, reviewer="ana", clock=FakeClock())
    app = ReviewApp(session, scan=fixed_scan({"q2": [conflict]}))
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            session.goto("q2")
            assert "conflicting-answers" in [f.check for f in app.item_flags(session.queue.current)]
            session.edit(question="How many PTO days can employees carry over? Really")
            edited = session.queue.shown(1)
            assert edited != items[1]
            # the rescan of the set as reviewed: the edit no longer asks q1's question
            app._rescan_versions = {"q2": edited}
            app._scan_finished(ScanFinished({"q2": [Flag("near-duplicate", Severity.HINT, "94% of words")]}, []))
            await settle(pilot, app)
            session.goto("q2")
            session.undo()
            shown = session.queue.shown(1)
            assert shown == items[1]
            assert [f.check for f in app.item_flags(shown)] == ["conflicting-answers"]
            session.goto("q2")
            session.accept()
            assert session.queue.decision_for("q2").warnings == ("conflicting-answers",)
            # a second rescan that again saw it edited keeps what the first scan said of the set's version
            app._rescan_versions = {"q2": edited}
            app._scan_finished(ScanFinished({}, []))
            await settle(pilot, app)
            assert app.view.unedited_flags["q2"] == [conflict]
    finally:
        session.close()


async def test_undoing_an_edit_brings_back_the_pair_warnings_of_the_item_it_was_paired_with(tmp_path):
    """q1 was not edited, but its conflict with q2 went away with q2's edit; undoing the edit left q1 without it
    for the seconds until the next rescan."""
    from reviewtui.evalset.io import write_jsonl
    from reviewtui.tui.messages import ScanFinished

    items = (
        cg.EvalItem(id="q1", question="How many PTO days can employees carry over?", answer="Five"),
        cg.EvalItem(id="q2", question="How many PTO days can employees carry over each year?", answer="Ten"),
    )
    one = Flag("conflicting-answers", Severity.HIGH, "asks what 'q2' asks, with another answer", ("q2",))
    two = Flag("conflicting-answers", Severity.HIGH, "asks what 'q1' asks, with another answer", ("q1",))
    path = write_jsonl(cg.EvalSet(id="pto", items=items), tmp_path / "pto.jsonl")
    session = ReviewSession.open(path, reviewer="ana", clock=FakeClock())
    app = ReviewApp(session, scan=fixed_scan({"q1": [one], "q2": [two]}))
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            session.goto("q2")
            session.edit(question="Who approves a carry-over of PTO days?")
            app._rescan_versions = {"q2": session.queue.shown(1)}
            app._scan_finished(ScanFinished({}, []))  # the edit asks something else: no conflict on either side
            await settle(pilot, app)  # the flagged-first order it sets off, worked out in a thread
            assert app.item_flags(items[0]) == []
            session.goto("q2")
            session.undo()
            assert [f.check for f in app.item_flags(items[0])] == ["conflicting-answers"]
            session.goto("q2")
            session.edit(question="Who approves a carry-over of PTO days?")  # edited again: the rescan's view holds
            assert app.item_flags(items[0]) == []
    finally:
        session.close()


async def test_a_workers_news_arriving_as_the_app_closes_is_let_go(tmp_path):
    """The scan's progress and the flagged-first order arrived after a test's end had taken the panes away:
    NoMatches, and a failed run. Closing is simulated: the panes gone and the app on its way out."""
    import pytest
    from textual.css.query import NoMatches

    from reviewtui.evalset.io import write_jsonl
    from reviewtui.tui.messages import OrderReady, ScanProgress

    path = write_jsonl(_pair_set(), tmp_path / "pairs.jsonl")
    session = ReviewSession.open(path, reviewer="ana", clock=FakeClock())
    app = ReviewApp(session, scan=fixed_scan({}))
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            await app.review_screen.query("#scan-progress").remove()
            with pytest.raises(NoMatches):  # while the app is open, a pane gone is a bug, and says so
                app._scan_progress(ScanProgress(1, 2))
            app._exit = True
            app._scan_progress(ScanProgress(1, 2))
            app._order_ready(OrderReady([0], 0))
            app._exit = False
    finally:
        session.close()


def test_an_item_retyped_unanswerable_gets_no_missing_answer_hint_after_an_edit():
    """The scan spares an unanswerable question the "no expected answer" hint; the recheck after an edit gave it."""
    from reviewtui.evalset.checks.findings import NO_ANSWER_REASON
    from reviewtui.evalset.checks.recheck import SetFacts

    before = [Flag("weak-answer", Severity.HINT, NO_ANSWER_REASON)]
    unanswerable = _item("Who designed the second lending catalogue?", qtype="unanswerable")
    assert not any(f.reason == NO_ANSWER_REASON for f in recheck_item(unanswerable, before, facts=SetFacts(answered=3)))
    assert not any(f.reason == NO_ANSWER_REASON for f in recheck_item(unanswerable, [], facts=SetFacts(answered=3), was_answered=True))
    open_question = _item("Who designed the second lending catalogue?")
    assert any(f.reason == NO_ANSWER_REASON for f in recheck_item(open_question, before, facts=SetFacts(answered=3)))


async def test_the_set_facts_are_worked_out_with_the_order_not_on_the_first_edit(tmp_path):
    """What a scan's flags say of the whole set (keyword queries, how many items have an answer) is a pass over
    every item and every flag: worked out on the UI thread by the first edited item's recheck after each scan, it
    held the first edit or type after every scan and rescan for 0.4 s at 1M items. It comes with the order now."""
    import threading

    from reviewtui.evalset.io import write_jsonl

    path = write_jsonl(_pair_set(), tmp_path / "pairs.jsonl")
    session = ReviewSession.open(path, reviewer="ana", clock=FakeClock())
    short = Flag("too-short", Severity.MEDIUM, "under the minimum")
    app = ReviewApp(session, scan=fixed_scan({"q1": [short]}))
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            assert app.view.flagged_order is not None
            assert app.view.set_facts == app._set_facts(app.view.flags)  # in before any edit asks for it
            on_the_ui_thread = []
            worked_out = app._set_facts

            def watched(flags):
                on_the_ui_thread.append(threading.current_thread() is threading.main_thread())
                return worked_out(flags)

            app._set_facts = watched
            await pilot.press("m", "2")  # a type: an edit, its item rechecked as edited
            await settle(pilot, app)
            assert session.queue.decision_for("q1").verdict.value == "edited"
            assert True not in on_the_ui_thread
    finally:
        session.close()

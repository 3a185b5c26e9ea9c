"""ReviewSession on real files: open, resume, lock, never touch the input."""

from __future__ import annotations

import hashlib

import pytest

import reviewtui as cg
from reviewtui.evalset.io import write_csv, write_jsonl
from reviewtui.evalset.review.session import ReviewSession, load_review, status_lines


def make_set(n: int = 6) -> cg.EvalSet:
    items = [
        cg.EvalItem(
            id=f"q{i}",
            question=f"How many days of notice does clause {i} require?",
            anchors=(cg.GoldAnchor(source_id="h.pdf", quote=f"Clause {i}: {i + 10} days of notice."),),
            qtype="numeric",
        )
        for i in range(n)
    ]
    items[1] = items[1].replace(meta={"reviewed": True})
    return cg.EvalSet(id="notice-quiz", items=tuple(items))


@pytest.fixture
def quiz(tmp_path):
    return write_jsonl(make_set(), tmp_path / "quiz.jsonl")


def digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_open_decide_close_resume(quiz):
    with ReviewSession.open(quiz, reviewer="ana") as session:
        assert session.journal_path == quiz.with_name("quiz.jsonl.reviewtui-journal")
        assert str(session.resume_report) == "new review: 5 questions to check, 1 marked reviewed left out (--all)"
        assert [it.id for it in session.queue.items] == ["q0", "q2", "q3", "q4", "q5"]  # q1 already reviewed
        session.accept()
        session.reject(note="the clause number is wrong", reason="wrong-evidence")
        session.mark("factoid")
    assert session.closed
    with ReviewSession.open(quiz) as again:
        assert str(again.resume_report) == "resumed: 3 of 5 decided, 1 marked reviewed left out (--all)"
        assert again.current.id == "q4"
        assert again.queue.decision_for("q2").reason.value == "wrong-evidence"
        assert again.queue.decision_for("q0").reviewer == "ana"
        assert again.reviewer != "" and again.evalset.id == "notice-quiz"


def test_the_input_file_is_never_written(quiz):
    before = digest(quiz), quiz.stat().st_mtime_ns
    for _ in range(2):
        with ReviewSession.open(quiz) as session:
            session.accept()
            session.edit(question="Rewritten: how much notice is required?")
            session.undo()
            session.reject()
            session.export()
            session.export(rejected=True)
    assert (digest(quiz), quiz.stat().st_mtime_ns) == before


def test_a_second_session_on_the_same_set_is_refused(quiz):
    with ReviewSession.open(quiz):
        with pytest.raises(cg.EvalSetError, match=r"quiz.jsonl: already open for review by pid \d+"):
            ReviewSession.open(quiz)
    with ReviewSession.open(quiz):  # free again after close
        pass


def test_a_failed_open_releases_the_lock(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "q1", "question": "fine?"}\n{"id": "q2"\n')
    with pytest.raises(cg.EvalSetError, match="bad.jsonl:2"):
        ReviewSession.open(bad)
    assert not (tmp_path / "bad.jsonl.reviewtui-lock").exists()
    with pytest.raises(cg.EvalSetError, match="no such file"):
        ReviewSession.open(tmp_path / "missing.jsonl")


def test_the_journal_may_live_elsewhere_but_not_on_the_set(quiz, tmp_path):
    elsewhere = tmp_path / "state" / "quiz.journal"
    with ReviewSession.open(quiz, journal_path=elsewhere) as session:
        session.skip()
    assert elsewhere.exists() and not quiz.with_name("quiz.jsonl.reviewtui-journal").exists()
    with pytest.raises(cg.EvalSetError, match="cannot be the set file"):
        ReviewSession.open(quiz, journal_path=quiz)


def test_include_reviewed_is_remembered_by_the_journal(quiz):
    with ReviewSession.open(quiz, include_reviewed=True) as session:
        assert len(session.queue) == 6
        session.goto("q1")
        session.reject()
    with ReviewSession.open(quiz) as again:
        assert len(again.queue) == 6 and again.queue.decision_for("q1").verdict.value == "rejected"


def test_status_reads_without_the_lock_and_names_the_open_session(quiz):
    with ReviewSession.open(quiz, reviewer="ana") as session:
        session.accept()
        session.reject(reason="duplicate")
        lines = status_lines(load_review(quiz))
        assert lines[1] == "decided 2 of 5 (40%), 3 left"
        assert lines[2] == "accepted 1 · rejected 1 · edited 0 · skipped 0"
        assert "rejected for: duplicate 1" in lines
        assert "decided by: ana (2)" in lines
        assert any(line.startswith("open for review now: pid ") for line in lines)
    assert not any(line.startswith("open for review now") for line in status_lines(load_review(quiz)))


def test_an_open_sessions_status_is_the_journal_as_it_now_stands(quiz):
    """The session's own status lines were those of the journal as read at its opening: "not started: no
    journal" after three decisions, and the sessions, records and last decision of an earlier day."""

    def without_lock(lines):
        return [line for line in lines if not line.startswith("open for review now")]

    with ReviewSession.open(quiz, reviewer="ana") as session:
        session.accept()
        session.accept()
        session.reject(reason="duplicate")
        live = session.status_lines()
        assert live[1] == "decided 3 of 5 (60%), 2 left" and not any("not started" in line for line in live)
        assert without_lock(live) == without_lock(status_lines(load_review(quiz)))  # what `reviewtui status` says
    with ReviewSession.open(quiz, reviewer="ana") as session:
        session.skip()
        live = session.status_lines()
        assert any(line.endswith("; 2 sessions") for line in live)
        assert without_lock(live) == without_lock(status_lines(load_review(quiz)))


def test_a_csv_set_reviews_the_same_way(tmp_path):
    path = write_csv(make_set(3), tmp_path / "quiz.csv")
    with ReviewSession.open(path) as session:
        session.accept()
        out = session.export(format="csv")
    assert out == tmp_path / "quiz.v2.csv"
    assert cg.read_csv(out).get("q0").meta["verdict"] == "accepted"


def test_two_names_for_one_file_share_the_lock(quiz):
    alias = quiz.with_name("alias.jsonl")
    alias.symlink_to(quiz)
    with ReviewSession.open(quiz):
        with pytest.raises(cg.EvalSetError, match="already open for review"):
            ReviewSession.open(alias)


def test_an_export_from_the_session_never_lands_on_a_journal_given_elsewhere(quiz, tmp_path):
    elsewhere = tmp_path / "state" / "quiz.journal"
    with ReviewSession.open(quiz, journal_path=elsewhere) as session:
        session.accept()
        before = elsewhere.read_bytes()
        with pytest.raises(cg.EvalSetError, match="is the review journal"):
            session.export(elsewhere)
        assert elsewhere.read_bytes() == before
        # The ordinary export still works and takes the next version's name.
        assert session.export().name == "quiz.v2.jsonl"


def test_a_quote_added_to_an_item_without_evidence_is_journaled_resumed_and_exported(tmp_path):
    from reviewtui.evalset.io import read_jsonl
    from reviewtui.evalset.review.queue import ItemEdit

    bare = cg.EvalSet(id="bare", items=(cg.EvalItem(id="q0", question="Who approves overtime?"), cg.EvalItem(id="q1", question="When?")))
    path = write_jsonl(bare, tmp_path / "bare.jsonl")
    new = cg.GoldAnchor("policy.md", "Overtime is approved by the team lead.")
    with ReviewSession.open(path) as session:
        session.edit(ItemEdit(new_anchor=new))
    with ReviewSession.open(path) as again:
        assert again.queue.shown(again.queue.index_of("q0")).anchors == (new,)
        assert again.current.id == "q1"
        out = again.export(tmp_path / "next.jsonl")
    assert read_jsonl(out).get("q0").anchors == (new,)


def _change_question_in_file(path, item_id: str) -> None:
    import json

    lines = path.read_text().splitlines(keepends=True)
    for n, line in enumerate(lines):
        record = json.loads(line)
        if record.get("id") == item_id:
            record["question"] += " (fixed)"
            lines[n] = json.dumps(record) + "\n"
    path.write_text("".join(lines))


def _q0_accepted_q2_rejected_then_q2_changed(tmp_path):
    """A set where ana accepted q0 and rejected q2, then q2 changed in the file: that reject is set aside."""
    path = write_jsonl(make_set(), tmp_path / "quiz.jsonl")
    with ReviewSession.open(path, reviewer="ana", include_reviewed=True) as session:
        session.goto("q0")
        session.accept()
        session.goto("q2")
        session.reject(reason="ambiguous")
    _change_question_in_file(path, "q2")
    return path


def _reject_q2_on_a_changed_version_then_change_it_back(path, first: bytes) -> None:
    """q2 changed in the file, ana rejected it as changed, then the file as ``first`` again (a checkout)."""
    _change_question_in_file(path, "q2")
    with ReviewSession.open(path, reviewer="ana") as session:
        session.goto("q2")
        session.reject(reason="ambiguous")
    path.write_bytes(first)


def _state(session) -> tuple:
    queue = session.queue
    verdicts = {item.id: queue.verdict_for(item.id).value for item in queue.items}
    return verdicts, queue.current.id if queue.current else None, len(queue.history)


def test_undos_made_after_the_set_changed_resume_as_they_were_made(tmp_path):
    """A decision on an item that then changed in the file is skipped on resuming; undos made in the
    session after that did not have it in their history. Replayed against it, the next opening failed
    ("nothing matching this undo") and status and export with it."""
    path = write_jsonl(make_set(), tmp_path / "quiz.jsonl")
    with ReviewSession.open(path, reviewer="ana", include_reviewed=True) as session:
        for item_id in ("q0", "q2", "q3"):
            session.goto(item_id)
            session.accept() if item_id != "q3" else session.reject(reason="ambiguous")
    _change_question_in_file(path, "q3")
    with ReviewSession.open(path, reviewer="ana") as session:
        assert session.queue.decision_for("q3") is None  # its decision was made on the item as it was
        session.undo()
        session.undo()
        before = _state(session)
    with ReviewSession.open(path, reviewer="ana") as again:
        assert _state(again) == before
        assert again.queue.decision_for("q0") is None and again.queue.decision_for("q2") is None
    assert any("decided 0 of" in line for line in status_lines(load_review(path)))


def test_an_undo_after_the_set_changed_does_not_bring_back_the_decision_it_took_back(tmp_path):
    path = _q0_accepted_q2_rejected_then_q2_changed(tmp_path)
    with ReviewSession.open(path, reviewer="ana") as session:
        session.undo()  # takes back the accept of q0: the reject of q2 is not in this session's history
        assert session.queue.decision_for("q0") is None
    with ReviewSession.open(path, reviewer="ana") as again:
        assert again.queue.decision_for("q0") is None, "the undone accept came back"
        again.redo()  # and it can be redone, as in the session that undid it
        assert again.queue.verdict_for("q0").value == "accepted"


def test_random_sessions_with_the_set_changing_between_them_resume_exactly(tmp_path):
    """Sessions of random steps, the file's questions changed (or changed back) between some of them:
    each reopening shows what the session before it left (decisions, cursor, undo and redo depth)."""
    import random

    rng = random.Random(38)
    for round_ in range(40):
        path = write_jsonl(make_set(8), tmp_path / f"quiz{round_}.jsonl")
        first = path.read_bytes()
        left, depth = None, (0, 0)
        for _session in range(4):
            with ReviewSession.open(path, reviewer="ana", include_reviewed=True) as session:
                if left is not None:
                    assert _state(session) == left
                    assert (len(session.queue.history), len(session.queue.future)) == depth
                for _ in range(rng.randrange(2, 12)):
                    step = rng.choice(("accept", "reject", "skip", "undo", "undo", "redo", "goto"))
                    if step == "goto":
                        session.goto(f"q{rng.randrange(8)}")
                    elif step in ("undo", "redo"):
                        getattr(session, step)()
                    elif session.current is not None:
                        getattr(session, step)()
                left = _state(session)
                depth = (len(session.queue.history), len(session.queue.future))
            change = rng.random()
            if change < 0.35:
                _change_question_in_file(path, f"q{rng.randrange(8)}")
                left = None  # decisions on the changed item are set aside: compare from the next session on
            elif change < 0.5:
                path.write_bytes(first)  # the set checked out as it first was
                left = None


def test_an_item_decided_again_after_it_changed_is_no_longer_reported_as_not_restored(tmp_path):
    path = write_jsonl(make_set(), tmp_path / "quiz.jsonl")
    with ReviewSession.open(path, reviewer="ana", include_reviewed=True) as session:
        session.goto("q2")
        session.accept()
    _change_question_in_file(path, "q2")
    with ReviewSession.open(path, reviewer="ana") as session:
        assert "not restored" in str(session.resume_report)
        session.goto("q2")
        session.reject(reason="ambiguous")  # decided again, on the item as it is now
    with ReviewSession.open(path, reviewer="ana") as again:
        assert "not restored" not in str(again.resume_report)
        assert again.queue.verdict_for("q2").value == "rejected"


def test_an_item_decided_again_with_the_clock_set_back_is_no_longer_reported(tmp_path):
    """"Since" is the journal's order: the new decision, dated an hour before the one set aside, kept the item
    reported as not restored on every resume, in status and in the export's note."""
    path = write_jsonl(make_set(), tmp_path / "quiz.jsonl")
    with ReviewSession.open(path, reviewer="ana", include_reviewed=True, clock=lambda: 1_800_000_000.0) as session:
        session.goto("q2")
        session.accept()
    _change_question_in_file(path, "q2")
    with ReviewSession.open(path, reviewer="ana", clock=lambda: 1_800_000_000.0 - 3600) as session:
        assert "not restored" in str(session.resume_report)
        session.goto("q2")
        session.reject(reason="ambiguous")
    with ReviewSession.open(path, reviewer="ana") as again:
        assert "not restored" not in str(again.resume_report)
        assert again.queue.verdict_for("q2").value == "rejected"


def test_status_says_of_an_empty_journal_file_what_the_app_says(quiz):
    journal = quiz.with_name("quiz.jsonl.reviewtui-journal")
    journal.write_bytes(b"")
    text = "\n".join(status_lines(load_review(quiz)))
    assert "holds no complete journal record" in text and "no journal at" not in text
    with pytest.raises(cg.EvalSetError, match="holds no complete journal record"):
        ReviewSession.open(quiz)


def test_a_note_another_reviewer_writes_on_a_decision_says_whose_it_is(tmp_path):
    """bo's note on ana's accept was exported as reviewer ana, note bo's: bo's name was nowhere."""
    from reviewtui.evalset.io import read_jsonl

    path = write_jsonl(make_set(), tmp_path / "quiz.jsonl")
    with ReviewSession.open(path, reviewer="ana", include_reviewed=True) as session:
        session.accept(note="ana says fine")
        session.goto("q2")
        session.accept()
        session.note("ana adds a word")  # her own decision: no one else to name
    with ReviewSession.open(path, reviewer="bo") as session:
        session.goto("q0")
        session.note("bo: the quote is cut short")
    with ReviewSession.open(path, reviewer="ana") as again:  # as resumed from the journal
        decision = again.queue.decision_for("q0")
        assert (decision.reviewer, decision.note, decision.note_by) == ("ana", "bo: the quote is cut short", "bo")
        assert again.queue.decision_for("q2").note_by == ""
        out = again.export(tmp_path / "next.jsonl")
    records = {item.id: dict(item.meta["review"]) for item in read_jsonl(out) if "review" in item.meta}
    assert records["q0"]["reviewer"] == "ana" and records["q0"]["note_by"] == "bo"
    assert "note_by" not in records["q2"]


def test_a_note_emptied_by_another_reviewer_names_no_one(tmp_path):
    """bo emptied ana's note on her accept: the export said note "" written by bo."""
    from reviewtui.evalset.io import read_jsonl

    path = write_jsonl(make_set(), tmp_path / "quiz.jsonl")
    with ReviewSession.open(path, reviewer="ana") as session:
        session.accept(note="ana says fine")
    with ReviewSession.open(path, reviewer="bo") as session:
        session.goto("q0")
        session.note("")
        assert session.queue.decision_for("q0").note_by == ""
    with ReviewSession.open(path, reviewer="ana") as again:  # as resumed from the journal
        decision = again.queue.decision_for("q0")
        assert (decision.reviewer, decision.note, decision.note_by) == ("ana", "", "")
        out = again.export(tmp_path / "next.jsonl")
    record = next(dict(item.meta["review"]) for item in read_jsonl(out) if item.id == "q0")
    assert record["note"] == "" and "note_by" not in record


def _rewrite_journal(journal, edit) -> None:
    """The journal's records passed through ``edit(list of payloads)``, written back with their checksums."""
    from reviewtui.evalset.io.journal import encode_record, read_journal

    payloads = edit([dict(payload) for _, payload in read_journal(journal).records])
    journal.write_bytes(b"".join(encode_record(payload) for payload in payloads))


def test_an_undo_names_the_change_it_takes_so_a_set_changed_and_changed_back_resumes(tmp_path):
    """The set changed, a decision was made on the new version, the set was changed back: that decision
    is skipped now, and the undo made after the change back took the decision below it (a helper's case)."""
    path = write_jsonl(make_set(), tmp_path / "quiz.jsonl")
    first = path.read_bytes()
    with ReviewSession.open(path, reviewer="ana", include_reviewed=True) as session:
        session.goto("q0")
        session.accept()
        session.goto("q2")
        session.accept()
    _reject_q2_on_a_changed_version_then_change_it_back(path, first)
    with ReviewSession.open(path, reviewer="ana") as session:
        assert session.queue.verdict_for("q2").value == "accepted"  # the reject was made on another version
        session.undo()
        session.undo()
        before = _state(session), session.queue.depths
    with ReviewSession.open(path, reviewer="ana") as again:
        assert (_state(again), again.queue.depths) == before
        assert again.queue.decided == 0


def test_a_journal_whose_undos_an_earlier_version_paired_with_a_skipped_change_still_opens(tmp_path):
    """Undo records written before they named their change were paired with the change on top, skipped or
    not; a journal whose later undos rely on that pairing opened before and must open now, the same way."""
    path = _q0_accepted_q2_rejected_then_q2_changed(tmp_path)
    with ReviewSession.open(path, reviewer="ana") as session:
        session.undo()
    journal = path.with_name("quiz.jsonl.reviewtui-journal")

    def as_written_before(payloads):
        # No "of" (as before undos named their change), and what the earlier version showed next: q0 still
        # accepted (its undo had been paired with the skipped reject), so the reviewer undid it once more.
        for payload in payloads:
            payload.pop("of", None)
        last = payloads[-1]["n"]
        payloads.append({"n": last + 1, "op": "open", "at": 1_800_000_000.0, "by": "ana", "pid": 1, "host": "h"})
        payloads.append({"n": last + 2, "op": "undo", "id": "q0"})
        return payloads

    _rewrite_journal(journal, as_written_before)
    with ReviewSession.open(path, reviewer="ana") as again:
        assert again.queue.decided == 0


def test_a_decision_set_aside_when_the_set_changed_back_is_still_reported(tmp_path):
    """The reject made on the changed version is set aside once the set is changed back, and the older
    accept stands again: that is no re-decision, and the reviewer must be told."""
    path = write_jsonl(make_set(), tmp_path / "quiz.jsonl")
    first = path.read_bytes()
    with ReviewSession.open(path, reviewer="ana", include_reviewed=True) as session:
        session.goto("q2")
        session.accept()
    _reject_q2_on_a_changed_version_then_change_it_back(path, first)
    with ReviewSession.open(path, reviewer="ana") as again:
        assert again.queue.verdict_for("q2").value == "accepted"
        assert "not restored" in str(again.resume_report) and "q2" in str(again.resume_report)


def test_status_says_of_a_journal_holding_only_a_torn_record_what_the_app_says(quiz):
    journal = quiz.with_name("quiz.jsonl.reviewtui-journal")
    journal.write_bytes(b'{"c":"0000abcd","r":{"n":0,"op":"start","format":1,"se')
    text = "\n".join(status_lines(load_review(quiz)))
    said = "holds only the start of one record, cut short"
    assert said in text and "no journal at" not in text
    # said once: "the last record was cut short ... everything before it is kept" beside it read as if something were kept
    assert "everything before it is kept" not in text
    with pytest.raises(cg.EvalSetError, match=said):  # and the app says the same
        ReviewSession.open(quiz, reviewer="ana")


def test_a_note_by_another_reviewer_keeps_its_review_columns_in_a_csv_export(tmp_path):
    from reviewtui.evalset.io import read_csv

    path = write_jsonl(make_set(), tmp_path / "quiz.jsonl")
    with ReviewSession.open(path, reviewer="ana", include_reviewed=True) as session:
        session.accept(note="fine")
        session.accept()
    with ReviewSession.open(path, reviewer="bo") as session:
        session.goto("q0")
        session.note("bo: the quote is cut short")
        out = session.export(tmp_path / "next.csv", format="csv")
    header = out.read_text().splitlines()[0]
    assert "review.verdict" in header and "review.note_by" in header
    back = {item.id: dict(item.meta["review"]) for item in read_csv(out) if "review" in item.meta}
    assert back["q0"]["reviewer"] == "ana" and back["q0"]["note_by"] == "bo" and back["q0"]["verdict"] == "accepted"
    assert "note_by" not in back["q1"]  # an empty cell reads back as no one else


def test_a_draft_note_another_reviewer_wrote_says_whose_it_is_once_decided(tmp_path):
    """bo noted an undecided item; ana's accept took the note as its own, with no word of bo."""
    path = write_jsonl(make_set(), tmp_path / "quiz.jsonl")
    with ReviewSession.open(path, reviewer="bo", include_reviewed=True) as session:
        session.goto("q2")
        session.note("bo: check the clause number")
    with ReviewSession.open(path, reviewer="ana") as session:
        session.goto("q2")
        session.accept()
        decision = session.queue.decision_for("q2")
        assert (decision.reviewer, decision.note, decision.note_by) == ("ana", "bo: check the clause number", "bo")
        session.undo()  # the draft is bo's again
        session.redo()
    with ReviewSession.open(path, reviewer="ana") as again:
        decision = again.queue.decision_for("q2")
        assert (decision.reviewer, decision.note_by) == ("ana", "bo")
        again.undo()
        again.accept(note="ana's own words")  # a note given with the decision is the decider's
        assert again.queue.decision_for("q2").note_by == ""
    with ReviewSession.open(path, reviewer="bo") as session:  # bo's own draft, decided by bo: no one else to name
        session.goto("q3")
        session.note("mine")
        session.accept()
        assert session.queue.decision_for("q3").note_by == ""


def test_an_export_refuses_a_set_file_that_changed_since_the_review_read_it(tmp_path):
    """The app's export wrote the items as first read under the hash of the file as changed since:
    a record of where the set came from that matched neither."""
    path = write_jsonl(make_set(), tmp_path / "quiz.jsonl")
    with ReviewSession.open(path, reviewer="ana") as session:
        session.accept()
        path.write_text(path.read_text().replace("q2", "q2-renamed", 1))
        with pytest.raises(cg.EvalSetError, match="has changed on disk since this review read it"):
            session.export(tmp_path / "next.jsonl")
        assert not (tmp_path / "next.jsonl").exists()
    with ReviewSession.open(path, reviewer="ana") as again:  # opened again: the file as it is now
        assert again.export(tmp_path / "next.jsonl").exists()
        path.rename(tmp_path / "moved.jsonl")
        with pytest.raises(cg.EvalSetError, match="is no longer a file there since this review read it"):
            again.export(tmp_path / "other.jsonl")


def test_undo_takes_back_only_the_reviewers_own_steps(quiz):
    """Adjudicators share one journal, and a set reviewed without a team keeps one whoever opens it: bo's
    undo took back ana's last decision without a word."""
    from reviewtui.evalset.model.errors import ReviewError

    with ReviewSession.open(quiz, reviewer="ana") as session:
        session.accept()  # q0
        session.note("check the notice period")  # a note on q2, the item shown now: ana's too
    with ReviewSession.open(quiz, reviewer="bo") as session:
        with pytest.raises(ReviewError, match="the last step, on 'q2', was made by 'ana': undo takes back only your own steps"):
            session.undo()
        assert session.queue.note_for("q2") == "check the notice period"  # nothing taken back
        session.goto("q3")
        session.accept()
        session.undo()  # bo's own step
        assert session.queue.decision_for("q3") is None
        with pytest.raises(ReviewError):
            session.undo()  # ana's note is next
    with ReviewSession.open(quiz, reviewer="ana") as session:
        session.undo()
        session.undo()
        assert session.queue.decision_for("q0") is None and session.queue.note_for("q2") == ""


def test_a_dismissed_warning_is_taken_back_only_by_whoever_dismissed_it(quiz):
    """A dismissal was journalled without its author, so anyone's undo took back another reviewer's word on a warning."""
    from reviewtui.evalset.io.journal import read_journal
    from reviewtui.evalset.model.errors import ReviewError

    with ReviewSession.open(quiz, reviewer="ana") as session:
        session.dismiss("too-short")
        journal = session.journal_path
    assert [p.get("by") for _, p in read_journal(journal).records if p.get("op") == "dismiss"] == ["ana"]
    with ReviewSession.open(quiz, reviewer="bo") as session:
        assert session.queue.dismissed_for("q0") == frozenset({"too-short"})
        with pytest.raises(ReviewError, match="the last step, on 'q0', was made by 'ana'"):
            session.undo()
        assert session.queue.dismissed_for("q0") == frozenset({"too-short"})
    with ReviewSession.open(quiz, reviewer="ana") as session:
        session.undo()
        assert session.queue.dismissed_for("q0") == frozenset()


def test_an_undo_of_a_step_whose_author_is_not_recorded_is_taken(quiz, tmp_path):
    """A journal written before dismissals were signed: whoever opens it may take one back, as then."""
    from reviewtui.evalset.io.journal import JournalWriter, read_journal

    with ReviewSession.open(quiz, reviewer="ana") as session:
        session.dismiss("too-short")
        journal = session.journal_path
    header, *records = [payload for _, payload in read_journal(journal).records]
    unsigned = tmp_path / "unsigned.journal"
    writer = JournalWriter.create(unsigned, header)
    for payload in records:
        writer.append({k: v for k, v in payload.items() if not (k == "by" and payload.get("op") == "dismiss")})
    writer.close()
    with ReviewSession.open(quiz, journal_path=unsigned, reviewer="bo") as session:
        assert session.queue.dismissed_for("q0") == frozenset({"too-short"})
        session.undo()
        assert session.queue.dismissed_for("q0") == frozenset()

"""Fixes from a review of the team, dismissal and export work; each failed before its fix."""

from __future__ import annotations

import pytest

import reviewtui as cg
from reviewtui.cli import main
from reviewtui.evalset.io import read_csv, read_jsonl, write_jsonl
from reviewtui.evalset.io.journal import default_journal_path
from reviewtui.evalset.model.errors import InputError, ReviewError
from reviewtui.evalset.model.flag import Flag, Severity
from reviewtui.evalset.model.review import ReviewRecord
from reviewtui.evalset.review.queue import ReviewQueue
from reviewtui.evalset.review.session import ReviewSession
from reviewtui.evalset.review.team import ADJUDICATOR, TeamPlan
from reviewtui.evalset.review.teamwork import consensus, merged_set, team_decisions, to_adjudicate
from reviewtui.tui.render import change_summary, history_view
from tests.tui_helpers import FakeClock, make_items


def _team(tmp_path, reviewers=("ana", "bo"), overlap=2, n=4):
    path = write_jsonl(cg.EvalSet(id="t", items=make_items(n)), tmp_path / "t.jsonl")
    plan = TeamPlan.create(path, list(reviewers), overlap)
    plan.save()
    return path, plan


def _disputed(tmp_path, ana, bo):
    """A team of ana and bo on the same items, each having done what ``ana`` and ``bo`` do with their session."""
    path, plan = _team(tmp_path)
    for reviewer, steps in (("ana", ana), ("bo", bo)):
        with ReviewSession.open(path, reviewer=reviewer, team=plan, clock=FakeClock()) as session:
            steps(session)
    return path, plan


def _adopted_then(tmp_path, bo_afterwards):
    """ana rejects and bo accepts; dee takes bo's accept; then bo undoes it and does ``bo_afterwards``."""
    path, plan = _disputed(tmp_path, ReviewSession.reject, ReviewSession.accept)
    adjudication = _adjudication(path, plan)
    with adjudication.session as session:
        session.adopt(adjudication.votes["q1"]["bo"])
    with ReviewSession.open(path, reviewer="bo", team=plan, clock=FakeClock()) as session:
        session.undo()
        bo_afterwards(session)
    return path


def _adjudication(path, plan, reviewer="dee"):
    from reviewtui.evalset.review.teamwork import open_adjudication

    return open_adjudication(plan, read_jsonl(path), path, reviewer=reviewer, clock=FakeClock())


def test_a_team_members_session_does_not_export_a_set_missing_the_others_items(tmp_path):
    path, plan = _team(tmp_path, overlap=1, n=10)
    with ReviewSession.open(path, reviewer="ana", team=plan, clock=FakeClock()) as session:
        session.accept()
        with pytest.raises(ReviewError, match="--consensus"):
            session.export()


def test_the_adjudicators_name_is_reserved(tmp_path):
    with pytest.raises(InputError, match="adjudication"):
        TeamPlan.create(tmp_path / "t.jsonl", ["ana", ADJUDICATOR], 2)


def test_an_adjudicators_skip_settles_nothing(tmp_path):
    path, plan = _team(tmp_path)
    for reviewer, verdict in (("ana", "accept"), ("bo", "reject")):
        with ReviewSession.open(path, reviewer=reviewer, team=plan, clock=FakeClock()) as session:
            getattr(session, verdict)()
    decisions = team_decisions(plan, read_jsonl(path), path)
    with ReviewSession.open(path, reviewer="dee", team=plan, journal_path=plan.journal_for(ADJUDICATOR),
                            only_ids=to_adjudicate(decisions), clock=FakeClock()) as session:
        session.skip()
    decisions = team_decisions(plan, read_jsonl(path), path)
    assert consensus(decisions["q1"], "adjudicated")[0] is None  # still disputed
    merged, unsettled = merged_set(plan, read_jsonl(path), path, "adjudicated")
    assert "q1" in unsettled and "q1" not in [item.id for item in merged]


def test_an_adjudication_reopens_when_its_items_are_no_longer_disputed(tmp_path):
    path, plan = _team(tmp_path)
    for reviewer, verdict in (("ana", "accept"), ("bo", "reject")):
        with ReviewSession.open(path, reviewer=reviewer, team=plan, clock=FakeClock()) as session:
            getattr(session, verdict)()
    covered = to_adjudicate(team_decisions(plan, read_jsonl(path), path))
    with ReviewSession.open(path, reviewer="dee", team=plan, journal_path=plan.journal_for(ADJUDICATOR),
                            only_ids=covered, clock=FakeClock()) as session:
        session.accept()
    with ReviewSession.open(path, reviewer="bo", team=plan, clock=FakeClock()) as session:
        session.undo()
        session.accept()  # bo changes his mind: nothing is disputed now
    covered = to_adjudicate(team_decisions(plan, read_jsonl(path), path))
    assert covered == ["q1"]
    with ReviewSession.open(path, reviewer="dee", team=plan, journal_path=plan.journal_for(ADJUDICATOR),
                            only_ids=covered, clock=FakeClock()) as session:
        assert session.queue.decision_for("q1").verdict.value == "accepted"


def test_a_merged_record_survives_a_csv_export(tmp_path, capsys):
    path, plan = _team(tmp_path)
    for reviewer in ("ana", "bo"):
        with ReviewSession.open(path, reviewer=reviewer, team=plan, clock=FakeClock()) as session:
            session.accept()
    out = tmp_path / "merged.csv"
    assert main(["export", str(path), "--consensus", "majority", "-o", str(out), "--to", "csv"]) == 0
    record = dict(read_csv(out).get("q1").meta["review"])
    assert sorted(record["decisions"]) == ["ana", "bo"] and "majority" in record["rule"]


def test_consensus_refuses_options_it_would_ignore_and_outputs_into_the_team_folder(tmp_path, capsys):
    path, plan = _team(tmp_path)
    for extra in (["--journal", str(plan.journal_for("ana"))], ["--all"]):  # refused as the arguments are parsed
        with pytest.raises(SystemExit) as stopped:
            main(["export", str(path), "--consensus", "majority", *extra])
        assert stopped.value.code == 2
        assert "it takes neither --journal nor --all" in capsys.readouterr().err
    assert main(["export", str(path), "--consensus", "majority", "-o", str(plan.plan_path), "--force"]) == 2
    assert "team's plan" in capsys.readouterr().err


def test_a_split_named_with_or_without_its_extension_has_one_journal(tmp_path):
    assert default_journal_path(tmp_path / "scifact", "dev") == default_journal_path(tmp_path / "scifact", "dev.tsv")
    assert default_journal_path(tmp_path / "scifact", "test.tsv") == default_journal_path(tmp_path / "scifact")


def test_the_tally_follows_the_reviewers_word_as_it_stands_now():
    queue = ReviewQueue(make_items(2), reviewer="ana")
    queue.flagged_by = lambda item: ("too-short",)
    queue.accept()  # q1 accepted past too-short
    queue.apply(queue.plan_goto("q1"))
    queue.apply(queue.plan_dismiss("too-short"))  # ... then said to be no problem
    assert queue.warning_tally()["too-short"] == {"confirmed": 0, "dismissed": 1, "accepted": 0}
    queue.apply(queue.plan_dismiss("too-short"))  # taken back: accepted past it again
    assert queue.warning_tally()["too-short"] == {"confirmed": 0, "dismissed": 0, "accepted": 1}


def test_undoing_a_dismissal_says_so():
    queue = ReviewQueue(make_items(2), reviewer="ana")
    queue.apply(queue.plan_dismiss("too-short"))
    change = queue.last_change
    assert change_summary(change, undone=True) == "Undone: too-short on q1 is a problem again"
    assert change_summary(change, undone=False) == "Redone: too-short on q1 is not a problem"


def test_field_names_from_a_files_review_record_are_shown_safely():
    record = ReviewRecord(verdict="edited", original={"\x1b[2Jquestion": "old"})
    shown = history_view([], earlier=record).plain
    assert "\x1b" not in shown and "␛[2J" in shown


async def test_after_the_rescan_an_edited_items_evidence_warnings_are_its_own(tmp_path):
    from reviewtui.evalset.evidence.corpus import Corpus
    from reviewtui.tui.app import ReviewApp
    from tests.tui_helpers import fixed_scan, settle

    item = cg.EvalItem(id="q1", question="How long is a tool loan at the library?", anchors=(cg.GoldAnchor("rules.md", "Members pay a deposit of ten pounds before borrowing."),))
    path = write_jsonl(cg.EvalSet(id="e", items=(item,)), tmp_path / "e.jsonl")
    session = ReviewSession.open(path, reviewer="ana", clock=FakeClock())
    app = ReviewApp(session, scan=fixed_scan({}), corpus=Corpus.from_texts({"rules.md": "Loans run for two weeks."}))
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app)
            for _ in range(100):
                if app.view.evidence_flags is not None:
                    break
                await pilot.pause(0.05)
            assert "evidence-not-found" in [f.check for f in app.item_flags(session.queue.current)]
            session.edit(quote="Loans run for two weeks.")
            edited = session.queue.shown(0)
            app.view.scanned_as = {"q1": edited}  # as a rescan of the set as reviewed leaves it
            app.view.flags = {}
            assert "evidence-not-found" not in [f.check for f in app.item_flags(edited)]
    finally:
        session.close()


def test_a_rejected_export_lists_the_items_dismissed_warnings(tmp_path):
    path = write_jsonl(cg.EvalSet(id="r", items=make_items(2)), tmp_path / "r.jsonl")
    with ReviewSession.open(path, reviewer="ana", clock=FakeClock()) as session:
        session.warnings_from(lambda item: [Flag("too-short", Severity.MEDIUM, "3 words")])
        session.dismiss("too-short")
        session.reject(reason="duplicate")
        out = session.export(rejected=True)
    assert read_jsonl(out).get("q1").meta["review"]["dismissed"] == ["too-short"]


def test_an_adjudication_reopens_after_an_item_it_only_annotated_is_no_longer_disputed(tmp_path):
    """The adjudication opened on the disputed items and those it had decided; one it had only noted
    (or decided and undone) was then left out, and its journal read as another set's: no way back in."""
    from reviewtui.evalset.review.teamwork import open_adjudication

    path, plan = _team(tmp_path)
    with ReviewSession.open(path, reviewer="ana", team=plan, clock=FakeClock()) as session:
        session.accept()
        session.accept()  # q1 and q2
    with ReviewSession.open(path, reviewer="bo", team=plan, clock=FakeClock()) as session:
        session.reject()  # q1: disputed
    adjudication = open_adjudication(plan, read_jsonl(path), path, reviewer="dee", clock=FakeClock())
    assert adjudication is not None
    with adjudication.session as session:
        assert session.current.id == "q1"
        session.note("checking the handbook first")
    with ReviewSession.open(path, reviewer="bo", team=plan, clock=FakeClock()) as session:
        session.undo()
        session.accept()  # q1 is agreed now
        session.reject()  # and q2 is the new disagreement
    adjudication = open_adjudication(plan, read_jsonl(path), path, reviewer="dee", clock=FakeClock())
    assert adjudication is not None
    with adjudication.session as session:
        assert {item.id for item in session.queue.items} == {"q1", "q2"}  # the new disagreement, and what it noted
        assert adjudication.votes.keys() >= {"q2"} and session.queue.decision_for("q2") is None
        assert session.queue.note_for("q1") == "checking the handbook first"


def test_an_adjudication_whose_items_are_all_agreed_now_still_opens_on_what_it_noted(tmp_path):
    """Once the reviewers agreed on the one item the adjudication had noted, it said "nothing to
    adjudicate": the note was out of the adjudicator's reach for good."""
    from reviewtui.evalset.review.teamwork import open_adjudication

    path, plan = _team(tmp_path)
    with ReviewSession.open(path, reviewer="ana", team=plan, clock=FakeClock()) as session:
        session.accept()
    with ReviewSession.open(path, reviewer="bo", team=plan, clock=FakeClock()) as session:
        session.reject()  # q1: disputed
    adjudication = open_adjudication(plan, read_jsonl(path), path, reviewer="dee", clock=FakeClock())
    with adjudication.session as session:
        session.note("asking the author")
    with ReviewSession.open(path, reviewer="bo", team=plan, clock=FakeClock()) as session:
        session.undo()
        session.accept()  # agreed now, nothing else disputed
    adjudication = open_adjudication(plan, read_jsonl(path), path, reviewer="dee", clock=FakeClock())
    assert adjudication is not None
    with adjudication.session as session:
        assert [item.id for item in session.queue.items] == ["q1"]
        assert session.queue.note_for("q1") == "asking the author"


def test_two_different_edits_are_said_to_be_a_disagreement_beside_the_verdict_statistics(tmp_path, capsys):
    """ana edited the answer to '1999', bo to '2001': status said the verdicts agree on 100% and, on the
    next line, that there is 1 disagreement, and agreement reported 1.000 everywhere without a word."""
    import json

    from reviewtui.evalset.review.queue import ItemEdit

    path, plan = _team(tmp_path)
    for reviewer, answer in (("ana", "1999"), ("bo", "2001")):
        with ReviewSession.open(path, reviewer=reviewer, team=plan, clock=FakeClock()) as session:
            session.edit(ItemEdit(answer=answer))
    assert main(["status", str(path)]) == 0
    assert "disagreements: 1 (1 of them edited by every reviewer, not all into the same version)" in capsys.readouterr().out
    assert main(["agreement", str(path)]) == 0
    assert "edited apart: 1 item every reviewer edited, not all into the same version" in capsys.readouterr().out
    assert main(["agreement", str(path), "--to", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["edited_apart"] == ["q1"]


def test_an_adjudicator_taking_a_reviewers_decision_keeps_the_note_theirs(tmp_path):
    """Taking ana's decision with a digit gave the adjudicator ana's note as if dee had written it."""
    from reviewtui.evalset.review.teamwork import open_adjudication

    path, plan = _team(tmp_path)
    with ReviewSession.open(path, reviewer="ana", team=plan, clock=FakeClock()) as session:
        session.accept(note="ana: fine as is")
    with ReviewSession.open(path, reviewer="bo", team=plan, clock=FakeClock()) as session:
        session.reject()
    adjudication = open_adjudication(plan, read_jsonl(path), path, reviewer="dee", clock=FakeClock())
    with adjudication.session as session:
        session.adopt(adjudication.votes["q1"]["ana"])
    adjudication = open_adjudication(plan, read_jsonl(path), path, reviewer="dee", clock=FakeClock())
    with adjudication.session as session:  # as resumed from its journal
        decision = session.queue.decision_for("q1")
        assert (decision.reviewer, decision.note, decision.note_by) == ("dee", "ana: fine as is", "ana")


def test_a_team_member_cannot_review_into_another_members_journal(tmp_path):
    """bo opened chen's journal with --journal and his accept counted as chen's: one opinion voted twice."""
    path, plan = _team(tmp_path, reviewers=("ana", "bo", "chen"))
    with pytest.raises(InputError, match="bo's decisions are kept in .*--journal cannot name another journal"):
        ReviewSession.open(path, reviewer="bo", team=plan, journal_path=plan.journal_for("chen"))
    assert not plan.journal_for("chen").exists()
    with ReviewSession.open(path, reviewer="bo", team=plan, journal_path=plan.journal_for("bo"), clock=FakeClock()) as session:
        session.accept()  # naming one's own journal is fine


def test_a_reviewer_name_is_taken_without_the_spaces_around_it(tmp_path):
    """' bo ' wrote bo's journal with records signed ' bo ': the export then named two reviewers."""
    path, plan = _team(tmp_path)
    with ReviewSession.open(path, reviewer=" bo ", team=plan, clock=FakeClock()) as session:
        session.accept()
        assert session.reviewer == "bo"
    decisions = team_decisions(plan, read_jsonl(path), path)
    assert {reviewer for votes in decisions.values() for reviewer in votes} == {"bo"}
    assert {d.reviewer for votes in decisions.values() for d in votes.values()} == {"bo"}


def test_status_does_not_count_an_adjudicators_skip_as_settled(tmp_path, capsys):
    twice = lambda verdict: lambda session: (verdict(session), verdict(session))  # noqa: E731
    path, plan = _disputed(tmp_path, twice(ReviewSession.accept), twice(ReviewSession.reject))  # two disagreements
    with _adjudication(path, plan).session as session:
        session.skip()
        session.accept()
    assert main(["status", str(path)]) == 0
    assert "disagreements: 2; adjudicated so far: 1 " in capsys.readouterr().out


def test_an_adjudicator_taking_a_decision_keeps_their_own_note(tmp_path):
    """dee noted the item, then took bo's decision with a digit: dee's note was gone, bo's in its place."""
    path, plan = _disputed(tmp_path, ReviewSession.accept, lambda session: session.reject(note="bo says wrong"))
    adjudication = _adjudication(path, plan)
    with adjudication.session as session:
        session.note("dee: asked the author")
        session.adopt(adjudication.votes["q1"]["bo"])
        decision = session.queue.decision_for("q1")
        assert (decision.verdict.value, decision.note, decision.note_by) == ("rejected", "dee: asked the author", "")
    with _adjudication(path, plan).session as session:  # as resumed from its journal
        decision = session.queue.decision_for("q1")
        assert (decision.note, decision.note_by) == ("dee: asked the author", "")


def test_the_merged_export_says_when_reviewers_came_to_agree_against_an_adjudication(tmp_path, capsys):
    """chen accepted, dee adjudicated for accept, then chen changed to reject like ana: the export shipped
    the item accepted by "adjudicated" and said nothing of it."""
    path = _adopted_then(tmp_path, ReviewSession.reject)  # now both reject
    assert main(["export", str(path), "--consensus", "adjudicated", "-o", str(tmp_path / "adj.jsonl")]) == 0
    out = capsys.readouterr().out
    assert "1 adjudicated item ('q1'): its reviewers have since come to agree on another verdict" in out
    assert read_jsonl(tmp_path / "adj.jsonl").get("q1") is not None  # the adjudication stands, and is said to


def test_adjudicate_opens_the_app_with_the_corpus_its_screen_asks_for(tmp_path, monkeypatch):
    """The adjudication's evidence pane said to open the review with --corpus, and adjudicate had no --corpus."""
    import reviewtui.tui.app as app_module

    given = {}

    class Stand:
        load_error = None  # what the command reads of an app that has closed: it ended well
        return_code = 0
        stopped_by = None  # by no signal

        def __init__(self, session, **kwargs):
            given.update(kwargs)

        def run(self):
            pass

    monkeypatch.setattr(app_module, "ReviewApp", Stand)
    path, plan = _team(tmp_path)
    with ReviewSession.open(path, reviewer="ana", team=plan, clock=FakeClock()) as session:
        session.accept()
    with ReviewSession.open(path, reviewer="bo", team=plan, clock=FakeClock()) as session:
        session.reject()
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "handbook.md").write_text("Sentence 1 of the handbook.")
    assert main(["adjudicate", str(path), "--reviewer", "dee", "--corpus", str(docs)]) == 0
    assert given["corpus"] is not None and "handbook.md" in given["corpus"]


def test_one_adjudicators_note_is_not_taken_for_anothers(tmp_path):
    """eve adopted bo's decision on an item dee had decided with a note: dee's note became eve's."""
    path, plan = _disputed(tmp_path, ReviewSession.accept, lambda session: session.reject(note="bo says wrong"))
    with _adjudication(path, plan).session as session:
        session.accept(note="dee: asked the author")
    adjudication = _adjudication(path, plan, reviewer="eve")
    with adjudication.session as session:
        session.goto("q1")
        session.adopt(adjudication.votes["q1"]["bo"])
        decision = session.queue.decision_for("q1")
        assert (decision.reviewer, decision.note, decision.note_by) == ("eve", "bo says wrong", "bo")


def test_a_single_verdict_left_is_no_agreement_against_an_adjudication(tmp_path, capsys):
    path = _adopted_then(tmp_path, ReviewSession.skip)  # ana's reject is the only verdict left
    assert main(["export", str(path), "--consensus", "adjudicated", "-o", str(tmp_path / "adj.jsonl")]) == 0
    assert "come to agree" not in capsys.readouterr().out


def test_a_decision_an_adjudicator_takes_records_whose_it_was(tmp_path):
    """After a digit, the record said only "adjudicated": a decision taken from bo could not be told from dee's own."""
    from reviewtui.tui.render import history_entry

    path, plan = _disputed(tmp_path, ReviewSession.reject, ReviewSession.accept)
    adjudication = _adjudication(path, plan)
    with adjudication.session as session:
        session.adopt(adjudication.votes["q1"]["bo"])
        assert session.queue.decision_for("q1").taken_from == "bo"
        assert "as bo decided" in history_entry(session.queue.decision_for("q1")).plain
        session.undo()
        session.redo()
    with _adjudication(path, plan).session as session:  # as resumed from its journal
        assert session.queue.decision_for("q1").taken_from == "bo"
        session.goto("q1")
        session.accept()  # decided afresh: no longer bo's
        assert session.queue.decision_for("q1").taken_from == ""
        session.undo()
    assert main(["export", str(path), "--consensus", "adjudicated", "-o", str(tmp_path / "adj.jsonl")]) == 0
    record = dict(read_jsonl(tmp_path / "adj.jsonl").get("q1").meta["review"])
    assert record["decisions"][ADJUDICATOR]["taken_from"] == "bo"
    assert "taken_from" not in record["decisions"]["bo"]
    assert ReviewRecord.from_meta({"review": record["decisions"][ADJUDICATOR]}).taken_from == "bo"


def test_a_teams_merged_record_shows_its_reviewers_and_rule_when_the_set_is_reviewed_again():
    """Reviewing a merged export with --all showed only 'this item, earlier: ✎ edited': no one, no rule."""
    meta = {
        "review": {
            "verdict": "edited",
            "rule": "adjudicated: edited by dee, taken from chen",
            "decisions": {"ana": {"verdict": "edited"}, "chen": {"verdict": "edited"}, "adjudicator": {"verdict": "edited"}},
        }
    }
    record = ReviewRecord.from_meta(meta)
    assert record is not None and record.reviewer == "adjudicator, ana, chen" and record.rule.startswith("adjudicated")
    shown = history_view([], earlier=record).plain
    assert "edited by adjudicator, ana, chen" in shown and "rule: adjudicated: edited by dee, taken from chen" in shown


def test_an_earlier_note_another_reviewer_wrote_says_whose_it_is():
    record = ReviewRecord.from_meta({"review": {"verdict": "accepted", "reviewer": "ana", "note": "q05 looks wrong", "note_by": "bo"}})
    shown = history_view([], earlier=record).plain
    assert "accepted by ana" in shown and "bo: q05 looks wrong" in shown


def test_an_adjudicator_taking_a_decision_takes_the_notes_it_kept_from_others():
    import dataclasses

    queue = ReviewQueue.from_evalset(cg.EvalSet(id="a", items=make_items(2)), reviewer="dee")
    theirs = queue.plan_reject(note="chen: a copy", reason="duplicate").decision
    theirs = dataclasses.replace(theirs, reviewer="chen", earlier_notes=(("ana", "ana: why reject?"),))
    queue.apply(queue.plan_adopt(theirs))
    taken = queue.decision_for("q1")
    assert taken.taken_from == "chen" and taken.earlier_notes == (("ana", "ana: why reject?"),)


def test_the_votes_of_more_than_nine_reviewers_number_only_those_a_digit_takes():
    """With eleven reviewers the list numbered "10" and "11", and typing 1 then 0 took reviewer 1's decision."""
    from reviewtui.evalset.review.queue import Decision, Verdict
    from reviewtui.tui.render import votes_view

    votes = {
        f"r{n:02d}": Decision(f"q{n}", Verdict.ACCEPTED if n < 10 else Verdict.REJECTED, reviewer=f"r{n:02d}")
        for n in range(1, 12)
    }
    lines = votes_view(votes).plain.split("\n")
    assert lines[9].startswith("9 r09") and lines[10].startswith("· r10") and lines[11].startswith("· r11")
    assert not any(line.startswith(("10 ", "11 ")) for line in lines)
    assert "a digit takes the first 9 reviewers' decisions" in lines[-1]
    few = votes_view({k: v for k, v in votes.items() if k in ("r01", "r10")}).plain
    assert "\n2 r10" in few and "first 9" not in few


def _quoted(gold, anchors):
    return cg.EvalItem(
        "q1",
        "Which river runs through the capital?",
        gold=tuple(cg.GoldSpan(span=cg.Span(doc, start, end)) for doc, start, end in gold),
        anchors=tuple(cg.GoldAnchor(source_id=doc, quote=quote) for doc, quote in anchors),
        answer="The Seine",
    )


def test_an_edited_quote_takes_its_located_span_with_it_and_gets_it_back_when_edited_back(tmp_path, capsys):
    """The quote was changed and the gold span left on the old words: the scorer reads the span, so the reviewer's
    correction never reached a score, and the exported item contradicted itself."""
    item = _quoted(
        [("T#0", 0, 31), ("T#1", 0, 10)],
        [("T#0", "Paris is the capital of France."), ("T#1", "Lyon is sm")],
    )
    path = write_jsonl(cg.EvalSet(id="s", items=(item,)), tmp_path / "s.jsonl")
    with ReviewSession.open(path, reviewer="ana", clock=FakeClock()) as session:
        session.edit(quote="The Seine runs through Paris.")  # the first quote
        edited = session.queue.shown(0)
        assert [g.span.doc_id for g in edited.gold] == ["T#1"]  # the other quote's span stays
        session.goto("q1")
        session.edit(quote="Paris is the capital of France.")  # edited back: its span comes back
        assert session.queue.shown(0).gold == item.gold
        session.goto("q1")
        session.edit(quote="The Seine runs through Paris.")
    assert main(["export", str(path), "-o", str(tmp_path / "next.jsonl")]) == 0
    said = capsys.readouterr().out
    assert "1 item's edited quote no longer has its located span" in said and "'q1'" in said
    assert f"reviewtui resolve {tmp_path / 'next.jsonl'} --corpus DIR" in said
    written = read_jsonl(tmp_path / "next.jsonl").items[0]
    assert [g.span.doc_id for g in written.gold] == ["T#1"]
    original = written.meta["review"]["original"]
    assert [g["span"]["doc_id"] for g in original["gold"]] == ["T#0", "T#1"]  # the old span, recorded


@pytest.mark.parametrize(
    ("gold", "anchors", "kept"),
    [
        # found with differences (a span not as long as its quote): the span at the quote's own place, one per quote
        ([("T#0", 0, 29), ("T#1", 0, 10)], [("T#0", "Paris is the capital of France."), ("T#1", "Lyon is sm")], ["T#1"]),
        # an unchanged quote of the same document and length may hold the span: kept
        ([("T#0", 0, 10)], [("T#0", "Paris is t"), ("T#0", "Lyon is sm")], ["T#0"]),
        # document-level gold, no span paired with the quote: nothing is taken for it
        ([("T#0", 0, 500), ("T#2", 0, 700), ("T#3", 0, 9)], [("T#0", "Paris is the capital of France.")], ["T#0", "T#2", "T#3"]),
    ],
)
def test_which_spans_an_edited_quote_takes(gold, anchors, kept):
    from reviewtui.evalset.review.queue import gold_of_kept_quotes

    item = _quoted(gold, anchors)
    edited = (item.anchors[0].model_copy(update={"quote": "The Seine runs through Paris."}), *item.anchors[1:])
    assert [g.span.doc_id for g in gold_of_kept_quotes(item, edited)] == kept
    assert gold_of_kept_quotes(item, item.anchors) == item.gold  # nothing changed, nothing taken


def test_a_teams_merged_export_says_which_edited_quotes_lost_their_span(tmp_path, capsys):
    """The merged record keeps each reviewer's original apart, so the line read from the record never came."""
    item = _quoted([("T#0", 0, 31)], [("T#0", "Paris is the capital of France.")])
    path = write_jsonl(cg.EvalSet(id="s", items=(item, cg.EvalItem("q2", "Where?"))), tmp_path / "s.jsonl")
    plan = TeamPlan.create(path, ["ana", "bo"], 2)
    plan.save()
    for who in ("ana", "bo"):
        with ReviewSession.open(path, reviewer=who, team=plan, clock=FakeClock()) as session:
            session.edit(quote="The Seine runs through Paris.")
    assert main(["export", str(path), "--consensus", "majority", "-o", str(tmp_path / "m.jsonl")]) == 0
    said = capsys.readouterr().out
    assert "1 item's edited quote no longer has its located span" in said and "'q1'" in said, said
    assert f"-o {tmp_path / 'm.resolved.jsonl'} locates the new quotes" in said
    assert read_jsonl(tmp_path / "m.jsonl").get("q1").gold == ()


def test_the_next_versions_filter_keeps_an_item_whose_quote_a_reviewer_corrected(tmp_path, capsys):
    """The corrected quote has no span until resolve runs: the default filter removed the very items the review
    corrected, as "unresolved" beside the set's located ones."""
    fixed = _quoted([("T#0", 0, 31)], [("T#0", "Paris is the capital of France.")])
    other = _quoted([("T#1", 0, 10)], [("T#1", "Lyon is sm")]).model_copy(update={"id": "q2"})
    path = write_jsonl(cg.EvalSet(id="s", items=(fixed, other)), tmp_path / "s.jsonl")
    with ReviewSession.open(path, reviewer="ana", clock=FakeClock()) as session:
        session.edit(quote="The Seine runs through Paris.")
        session.accept()
    assert main(["export", str(path), "-o", str(tmp_path / "next.jsonl")]) == 0
    assert main(["filter", str(tmp_path / "next.jsonl"), "-o", str(tmp_path / "kept.jsonl")]) == 0
    capsys.readouterr()
    assert [item.id for item in read_jsonl(tmp_path / "kept.jsonl")] == ["q1", "q2"]


def test_the_filter_keeps_a_teams_corrected_quote_too(tmp_path, capsys):
    """A merged record keeps each reviewer's original under decisions: the filter looked only at the top level."""
    fixed = _quoted([("T#0", 0, 31)], [("T#0", "Paris is the capital of France.")])
    other = _quoted([("T#1", 0, 10)], [("T#1", "Lyon is sm")]).model_copy(update={"id": "q2"})
    path = write_jsonl(cg.EvalSet(id="s", items=(fixed, other)), tmp_path / "s.jsonl")
    plan = TeamPlan.create(path, ["ana", "bo"], 2)
    plan.save()
    for who in ("ana", "bo"):
        with ReviewSession.open(path, reviewer=who, team=plan, clock=FakeClock()) as session:
            session.edit(quote="The Seine runs through Paris.")
            session.accept()
    assert main(["export", str(path), "--consensus", "majority", "-o", str(tmp_path / "m.jsonl")]) == 0
    assert main(["filter", str(tmp_path / "m.jsonl"), "-o", str(tmp_path / "kept.jsonl")]) == 0
    capsys.readouterr()
    assert [item.id for item in read_jsonl(tmp_path / "kept.jsonl")] == ["q1", "q2"]


def _edit_and_locate(tmp_path, text: str, quote: str, occurrence: int, new_quote: str):
    """A one-item set quoting ``quote`` (at ``occurrence``) of a document ``text``, its quote edited to ``new_quote``
    in a session: (the session, still open, the item as set, the edited item, where the edited quote is found)."""
    from reviewtui.evalset.evidence.corpus import Corpus
    from reviewtui.evalset.evidence.resolve import AnchorResolver

    item = cg.EvalItem("q1", "What does the document say?", anchors=(cg.GoldAnchor("doc.md", quote, occurrence=occurrence),), answer="it")
    path = write_jsonl(cg.EvalSet(id="s", items=(item,)), tmp_path / "s.jsonl")
    session = ReviewSession.open(path, reviewer="ana", clock=FakeClock())
    session.edit(quote=new_quote)
    edited = session.queue.shown(0)
    _, report = AnchorResolver().resolve_with_report(cg.EvalSet(id="s", items=(edited,)), Corpus.from_texts({"doc.md": text}))
    (found,) = report.resolutions
    return session, item, edited, found.span


def test_an_edited_quote_is_its_own_words_first_copy_and_edited_back_takes_the_sets_occurrence_again(tmp_path):
    """The edit kept the old words' occurrence: the third copy of the old sentence, asked of words that appear
    once, had the reviewer's corrected quote reported missing from its document."""
    from reviewtui.evalset.review.queue import Verdict

    text = "Loans last two weeks. " * 3 + "Fines are one euro a day."
    session, item, edited, span = _edit_and_locate(tmp_path, text, "Loans last two weeks.", 2, "Fines are one euro a day.")
    with session:
        assert edited.anchors[0].occurrence == 0
        assert span is not None and text[span.start : span.end] == "Fines are one euro a day."
        session.goto("q1")
        session.edit(quote="Loans last two weeks.")  # edited back: the set's own anchor again, an accept
        assert session.queue.shown(0) == item
        assert session.queue.decision_for(0).verdict is Verdict.ACCEPTED


def test_a_correction_of_the_same_passage_keeps_the_copy_the_set_meant(tmp_path):
    """The demo's q28 quotes a sentence the manual has twice (occurrence 1, section 4): an edit dropping its final
    period reset the occurrence, and the evidence moved silently to section 2's copy."""
    sentence = "Check the blade guard before each cut."
    text = f"Section 2. {sentence} Then more. Section 4. {sentence} The end."
    session, _, edited, span = _edit_and_locate(tmp_path, text, sentence, 1, sentence.rstrip("."))
    with session:
        assert edited.anchors[0].occurrence == 1
        assert span is not None and span.start == text.index(sentence, text.index("Section 4"))


def test_a_quote_extended_around_its_words_starts_from_their_first_copy(tmp_path):
    """"Return tools clean" (the second of two copies) extended to "Return tools clean and dry", which the document
    holds once, kept occurrence 1 and was reported not found."""
    text = "Section A. Return tools clean before closing time.\n\nSection B. Return tools clean and dry before closing time."
    session, _, edited, span = _edit_and_locate(tmp_path, text, "Return tools clean", 1, "Return tools clean and dry")
    with session:
        assert edited.anchors[0].occurrence == 0
        assert span is not None and text[span.start : span.end] == "Return tools clean and dry"


def test_undoing_a_second_edit_says_what_it_took_back():
    """A second edit of an item, undone, said "Undone: q1 was edited, now edited": nothing said what had changed."""
    queue = ReviewQueue(make_items(2), reviewer="ana")
    queue.edit(answer="first")
    queue.apply(queue.plan_goto("q1"))
    queue.edit(answer="second")
    change = queue.last_change
    assert change_summary(change, undone=True) == "Undone: the last edit of q1; it keeps the edit made before it"
    assert change_summary(change, undone=False) == "Redone: the last edit of q1, over the edit made before it"
    queue.apply(queue.plan_goto("q2"))
    queue.accept()
    queue.apply(queue.plan_goto("q2"))
    queue.accept()
    assert change_summary(queue.last_change, undone=True) == "Undone: q2 decided again; it stays accepted"

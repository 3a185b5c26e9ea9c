"""An export is the record of its review: who decided what, when and why, what an edit changed, and where it came from."""

from __future__ import annotations

import hashlib
import json

import pytest

import reviewtui as cg
from reviewtui.cli import main
from reviewtui.evalset.io import read_csv, read_jsonl, write_jsonl
from reviewtui.evalset.model.flag import Flag, Severity
from reviewtui.evalset.model.review import ReviewRecord
from reviewtui.evalset.review.session import ReviewSession
from tests.test_export import make_set


class Clock:
    def __init__(self, start: float = 1_764_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        self.now += 7.5
        return self.now


@pytest.fixture
def reviewed(tmp_path):
    """q0 accepted past a HIGH warning, q1 rejected, q2 edited (question and quote), q3 skipped, q4 undecided."""
    path = write_jsonl(make_set(), tmp_path / "quiz.jsonl")
    with ReviewSession.open(path, reviewer="ana", clock=Clock()) as session:
        session.note_warnings(
            {"q0": [Flag("conflicting-answers", Severity.HIGH, "asked twice"), Flag("too-short", Severity.MEDIUM, "3 words")]},
            {"q0": [Flag("evidence-not-found", Severity.HIGH, "not in the document")]},
        )
        session.accept(note="checked the other copy")
        session.reject(note="not what rule 1 says", reason="wrong-evidence")
        session.edit(question="Which form does rule 2 require?", quote="Rule 2 asks for form F2, signed.")
        session.skip()
    return path


def _record(item: cg.EvalItem) -> dict:
    return dict(item.meta["review"])


def test_every_decided_item_carries_its_review(reviewed):
    with ReviewSession.open(reviewed) as session:
        out = session.export()
    result = read_jsonl(out)
    q0 = _record(result.get("q0"))
    assert q0["verdict"] == "accepted" and q0["reviewer"] == "ana" and q0["note"] == "checked the other copy"
    assert q0["decided_at"].endswith("+00:00") and q0["decided_at"].startswith("2025-11-24T")
    assert q0["seconds"] > 0
    assert q0["open_warnings"] == ["conflicting-answers", "evidence-not-found"]  # HIGH only, from every source
    assert q0["original"] == {} and q0["reason"] is None

    q2 = _record(result.get("q2"))
    assert q2["verdict"] == "edited" and q2["open_warnings"] == []
    assert q2["original"]["question"] == "Which form does rule 2 ask for?"
    assert q2["original"]["anchors"][0]["quote"] == "Rule 2 asks for form F2."
    assert set(q2["original"]) == {"question", "anchors"}
    # the spec's own keys are as they were
    assert result.get("q2").meta["reviewed"] is True and result.get("q2").meta["verdict"] == "edited"
    assert "review" not in result.get("q4").meta  # undecided: exactly as it was


def test_the_rejected_export_carries_the_same_record(reviewed):
    with ReviewSession.open(reviewed) as session:
        out = session.export(rejected=True)
    record = _record(read_jsonl(out).get("q1"))
    assert record["verdict"] == "rejected" and record["reason"] == "wrong-evidence" and record["note"] == "not what rule 1 says"


def test_the_header_records_the_lineage(reviewed):
    journal = reviewed.with_name("quiz.jsonl.reviewtui-journal")
    with ReviewSession.open(reviewed) as session:
        out = session.export()
    lineage = dict(read_jsonl(out).meta["review"])
    assert lineage["from_version"] == 1 and lineage["from_file"] == "quiz.jsonl"
    assert lineage["from_sha256"] == hashlib.sha256(reviewed.read_bytes()).hexdigest()
    assert lineage["journal_file"] == journal.name
    # The journal grew since (closing the session noted its cursor): the hash is of what it held then.
    held = journal.read_bytes()
    assert 0 < lineage["journal_bytes"] < len(held)
    assert lineage["journal_sha256"] == hashlib.sha256(held[: lineage["journal_bytes"]]).hexdigest()
    assert lineage["tool"].startswith("reviewtui")
    assert lineage["reviewers"] == ["ana"]
    assert lineage["first_decision_at"] < lineage["last_decision_at"]
    assert lineage["counts"] == {"items": 5, "decided": 4, "accepted": 1, "edited": 1, "rejected": 1, "skipped": 1}
    assert lineage["accepted_past_warnings"] == {"q0": ["conflicting-answers", "evidence-not-found"]}


def test_the_rejected_questions_header_records_the_same_lineage(reviewed, tmp_path, capsys):
    """The rejected questions' header named the set and its version only: not the file they came from, the journal
    that holds the rejections, nor a hash of either."""
    journal = reviewed.with_name("quiz.jsonl.reviewtui-journal")
    assert main(["export", str(reviewed), "-o", str(tmp_path / "next.jsonl")]) == 0
    assert main(["export", str(reviewed), "--rejected", "-o", str(tmp_path / "rejected.jsonl")]) == 0
    capsys.readouterr()
    rejected = read_jsonl(tmp_path / "rejected.jsonl")
    lineage = dict(rejected.meta["review"])
    assert lineage == dict(read_jsonl(tmp_path / "next.jsonl").meta["review"])  # the same review, recorded alike
    assert lineage["from_file"] == "quiz.jsonl" and lineage["from_sha256"] == hashlib.sha256(reviewed.read_bytes()).hexdigest()
    assert lineage["journal_file"] == journal.name
    assert lineage["journal_sha256"] == hashlib.sha256(journal.read_bytes()[: lineage["journal_bytes"]]).hexdigest()
    assert rejected.meta["rejected_from_version"] == 1  # what the header said before stays
    # from the library too, hashing the journal as the session has written it
    with ReviewSession.open(reviewed) as session:
        out = session.export(rejected=True)
        size = journal.stat().st_size
    lineage = dict(read_jsonl(out).meta["review"])
    assert lineage["journal_bytes"] == size and lineage["counts"]["rejected"] == 1


def test_a_second_export_keeps_the_first_ones_lineage(reviewed):
    with ReviewSession.open(reviewed) as session:
        first = session.export()
    with ReviewSession.open(first, reviewer="ben", include_reviewed=True) as session:
        session.accept()
        second = session.export()
    lineage = dict(read_jsonl(second).meta["review"])
    assert lineage["reviewers"] == ["ben"] and lineage["from_version"] == 2
    assert lineage["previous"]["reviewers"] == ["ana"] and lineage["previous"]["from_version"] == 1


def test_csv_export_has_review_columns_and_reads_back(reviewed, tmp_path):
    out = tmp_path / "reviewed.csv"
    assert main(["export", str(reviewed), "-o", str(out), "--to", "csv"]) == 0
    header = out.read_text(encoding="utf-8").splitlines()[0].split(",")
    names = (
        "verdict", "reason", "note", "reviewer", "decided_at", "seconds", "original", "open_warnings", "flagged", "dismissed",
        "note_by", "taken_from", "earlier_notes", "dismissed_by", "edited_by", "unfixed", "unchecked",
    )
    assert header[-17:] == [f"review.{name}" for name in names]
    back = read_csv(out)
    q0, q2 = ReviewRecord.from_meta(back.get("q0").meta), ReviewRecord.from_meta(back.get("q2").meta)
    assert q0 is not None and q0.open_warnings == ("conflicting-answers", "evidence-not-found") and q0.reviewer == "ana"
    assert q2 is not None and q2.original["question"] == "Which form does rule 2 ask for?"
    # the record is not also written into the meta cell
    assert all("review" not in json.loads(cell) for cell in _meta_cells(out) if cell)


def _meta_cells(path) -> list[str]:
    import csv

    with open(path, newline="", encoding="utf-8") as file:
        return [row["meta"] for row in csv.DictReader(file)]


def test_export_says_which_items_were_accepted_past_a_serious_warning(reviewed, capsys):
    assert main(["export", str(reviewed)]) == 0
    printed = capsys.readouterr().out
    assert "1 item accepted or edited while a high-severity warning was open: 'q0' (conflicting-answers, evidence-not-found)" in printed


def test_an_item_edited_past_a_serious_warning_is_named_with_the_accepted_ones(tmp_path, capsys):
    """An edit keeps the item in the next version: left with a HIGH warning open, it was named under "accepted"."""
    path = write_jsonl(make_set(), tmp_path / "quiz.jsonl")
    with ReviewSession.open(path, reviewer="ana", clock=Clock()) as session:
        session.note_warnings({"q0": [Flag("conflicting-answers", Severity.HIGH, "asked twice")]}, {})
        session.edit(question="Which form does rule 1 require, exactly?")
    assert main(["export", str(path)]) == 0
    printed = capsys.readouterr().out
    assert "1 item accepted or edited while a high-severity warning was open: 'q0' (conflicting-answers)" in printed


def test_warnings_are_journaled_and_survive_a_resume(reviewed):
    with ReviewSession.open(reviewed) as session:
        assert session.queue.decision_for("q0").warnings == ("conflicting-answers", "evidence-not-found")
        assert session.queue.decision_for("q1").warnings == ()  # a rejection records none


def test_a_record_edited_by_hand_reads_leniently():
    assert ReviewRecord.from_meta({"review": "accepted"}) is None
    assert ReviewRecord.from_meta({"review": {"note": "no verdict"}}) is None
    record = ReviewRecord.from_meta({"review": {"verdict": "accepted", "seconds": "a while", "open_warnings": ["x", 3]}})
    assert record is not None and record.seconds == 0.0 and record.open_warnings == ("x",)


async def test_the_app_records_serious_warnings_on_accept_and_shows_an_earlier_review(tmp_path):
    from reviewtui.evalset.review.export import export_reviewed
    from tests.tui_helpers import fixed_scan, make_app, open_session, screen_text, settle

    evalset = make_set()
    flags = {"q0": [Flag("conflicting-answers", Severity.HIGH, "asked twice with different answers")]}
    session = open_session(tmp_path, evalset, reviewer="[b]ana[/b]")
    app = make_app(session, scan=fixed_scan(flags))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        await pilot.press("a")
        await settle(pilot, app)
    assert session.queue.decision_for("q0").warnings == ("conflicting-answers",)
    out = export_reviewed(session.evalset, session.queue, session.input_path)
    session.close()

    again = open_session(tmp_path / "again", read_jsonl(out), reviewer="ben", include_reviewed=True)
    app = make_app(again, scan=fixed_scan({}))
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            text = screen_text(app)
    finally:
        again.close()
    assert "this item, earlier" in text and "accepted past: conflicting-answers" in text
    assert "[b]ana[/b]" in text  # the reviewer's name as typed, never read as markup


def test_an_export_of_a_beir_folder_records_the_hash_of_its_questions_and_judgements(tmp_path):
    """A BEIR review exported "from_sha256": null: its lineage could not be checked against its input."""
    from reviewtui.cli import main
    from reviewtui.evalset.io import read_jsonl

    folder = tmp_path / "fiqa"
    (folder / "qrels").mkdir(parents=True)
    (folder / "queries.jsonl").write_text('{"_id": "1", "text": "Which region grew fastest last year?"}\n')
    (folder / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\n1\td1\t1\n")
    assert main(["export", str(folder), "-o", str(tmp_path / "a.jsonl")]) == 0
    first = dict(read_jsonl(tmp_path / "a.jsonl").meta["review"])["from_sha256"]
    assert isinstance(first, str) and len(first) == 64
    (folder / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\n1\td2\t1\n")
    assert main(["export", str(folder), "-o", str(tmp_path / "b.jsonl")]) == 0
    assert dict(read_jsonl(tmp_path / "b.jsonl").meta["review"])["from_sha256"] not in (first, None)


def _lineage_checks(lineage: dict, journal) -> bool:
    """Whether the header's journal hash is of the journal's first journal_bytes bytes as they are now."""
    return hashlib.sha256(journal.read_bytes()[: lineage["journal_bytes"]]).hexdigest() == lineage["journal_sha256"]


def test_the_journal_hash_is_of_the_records_replayed_not_of_what_came_after(reviewed, tmp_path):
    """export read and replayed the journal, then hashed it again: decisions a review still open wrote in
    between were in the hash and not in the items (1,871 decisions hashed against 1,617 exported)."""
    from reviewtui.evalset.review.export import write_reviewed
    from reviewtui.evalset.review.session import load_review

    journal = reviewed.with_name("quiz.jsonl.reviewtui-journal")
    loaded = load_review(reviewed)
    replayed = journal.read_bytes()
    with ReviewSession.open(reviewed, reviewer="bo") as session:  # another review goes on meanwhile
        session.goto("q4")
        session.accept()
    assert len(journal.read_bytes()) > len(replayed)
    _, written = write_reviewed(
        loaded.evalset, loaded.queue, reviewed, tmp_path / "out.jsonl", journal_bytes=loaded.contents.good_size, read_as=loaded.input_identity
    )
    lineage = dict(written.meta["review"])
    assert lineage["journal_bytes"] == len(replayed)
    assert lineage["journal_sha256"] == hashlib.sha256(replayed).hexdigest()
    assert lineage["counts"]["decided"] == 4  # bo's accept is in neither the items nor the hash


def test_a_journal_cut_short_is_hashed_without_its_torn_record_so_the_hash_holds_after_a_resume(reviewed, tmp_path, capsys):
    journal = reviewed.with_name("quiz.jsonl.reviewtui-journal")
    with journal.open("ab") as handle:
        handle.write(b'{"c":"12345678","r":{"n":9,"op":"deci')  # a crash in the middle of a write
    out = tmp_path / "v2.jsonl"
    assert main(["export", str(reviewed), "-o", str(out)]) == 0
    assert "the last record was cut short" in capsys.readouterr().out
    lineage = dict(read_jsonl(out).meta["review"])
    with ReviewSession.open(reviewed, reviewer="ana") as session:  # cuts the torn bytes off and goes on
        session.goto("q4")
        session.accept()
    assert _lineage_checks(lineage, journal)


def test_export_refuses_a_set_file_replaced_while_it_was_read(reviewed, tmp_path):
    from reviewtui.evalset.model.errors import InputError
    from reviewtui.evalset.review.export import write_reviewed
    from reviewtui.evalset.review.session import load_review

    loaded = load_review(reviewed)
    replacement = tmp_path / "other.jsonl"
    replacement.write_text(reviewed.read_text().replace("rule", "RULE"))
    replacement.replace(reviewed)  # as an editor saves: a new file under the old name
    with pytest.raises(InputError, match="has changed on disk since it was read"):
        write_reviewed(loaded.evalset, loaded.queue, reviewed, tmp_path / "out.jsonl", read_as=loaded.input_identity)
    assert not (tmp_path / "out.jsonl").exists()


def test_an_export_without_a_journal_names_none(tmp_path):
    path = write_jsonl(make_set(), tmp_path / "fresh.jsonl")
    out = tmp_path / "v2.jsonl"
    assert main(["export", str(path), "-o", str(out)]) == 0
    lineage = dict(read_jsonl(out).meta["review"])
    assert lineage["journal_file"] is None and lineage["journal_sha256"] is None


def test_a_second_review_keeps_the_first_ones_record_of_each_item_under_previous(reviewed, tmp_path):
    """Reviewing an export again replaced each item's record: who edited q2, and from what, was gone from v3."""
    with ReviewSession.open(reviewed) as session:
        first = session.export()
    with ReviewSession.open(first, reviewer="ben", include_reviewed=True) as session:
        session.goto("q2")
        session.edit(answer="Form F2, signed by a member of staff.")
        session.goto("q0")
        session.accept()
        second = session.export()
    again = read_jsonl(second)
    q2 = _record(again.get("q2"))
    assert q2["reviewer"] == "ben" and q2["verdict"] == "edited" and set(q2["original"]) == {"answer"}
    earlier = q2["previous"]
    assert earlier["reviewer"] == "ana" and earlier["verdict"] == "edited"
    assert earlier["original"]["question"] == "Which form does rule 2 ask for?"  # the set's own question, before ana
    q0 = _record(again.get("q0"))
    assert q0["reviewer"] == "ben" and q0["previous"]["note"] == "checked the other copy"
    # and through CSV, as a column of its own
    out = tmp_path / "v3.csv"
    assert main(["export", str(first), "--journal", str(first.with_name(first.name + ".reviewtui-journal")), "-o", str(out), "--lossy"]) == 0
    back = read_csv(out)
    assert _record(back.get("q2"))["previous"] == earlier
    assert _record(back.get("q0"))["previous"]["reviewer"] == "ana"


def test_what_a_set_held_under_review_before_is_kept_not_overwritten(tmp_path, capsys):
    path = tmp_path / "c.jsonl"
    path.write_text(
        '{"_evalset": {"id": "c", "version": 1, "meta": {"review": "signed off by legal 2025-01-01"}}}\n'
        '{"id": "c1", "question": "What colour is the sky over Paris?", "answer": "blue", '
        '"meta": {"review": {"status": "needs legal check", "owner": "kim"}}}\n'
        '{"id": "c2", "question": "How many legs does a spider have?", "answer": "eight", "meta": {"review": "kim: ok"}}\n',
        encoding="utf-8",
    )
    with ReviewSession.open(path, reviewer="ana") as session:
        session.accept()
        session.accept()
    out = tmp_path / "v2.jsonl"
    assert main(["export", str(path), "-o", str(out)]) == 0
    written = read_jsonl(out)
    assert dict(written.meta["review"])["previous"] == "signed off by legal 2025-01-01"
    assert _record(written.get("c1"))["previous"] == {"status": "needs legal check", "owner": "kim"}
    assert _record(written.get("c2"))["previous"] == "kim: ok"


def test_a_csv_export_counts_the_lineage_among_what_the_file_leaves_out(reviewed, tmp_path, capsys):
    assert main(["export", str(reviewed), "-o", str(tmp_path / "v2.csv"), "--lossy"]) == 0
    said = capsys.readouterr().err
    assert "its meta (1 key: 'review' (the record of its reviews))" in said  # the set itself has no header meta


@pytest.mark.parametrize("rejected", [False, True])
def test_a_csv_export_under_its_default_name_says_what_that_name_reads_back_as(reviewed, tmp_path, capsys, rejected):
    """With quiz.v2 to v5 there, `export --to csv` wrote quiz.v6.csv and said the file would not keep "version 2
    (read back as 1)": it was judged as if written nowhere, before its name (which carries its version) was chosen."""
    for n in range(2, 6):
        (tmp_path / f"quiz.v{n}.jsonl").write_text("")  # earlier exports: the next free version is 6
    extra = ["--rejected"] if rejected else []
    capsys.readouterr()
    assert main(["export", str(reviewed), "--to", "csv", "--lossy", *extra]) == 0
    printed = capsys.readouterr()
    said = printed.err + printed.out
    if rejected:
        assert "wrote 1 rejected question to " in said and (tmp_path / "quiz.rejected.csv").exists()
        assert "does not keep version" not in printed.err  # the version it was rejected from, 1, as a CSV reads back
    else:
        assert "wrote quiz.v6.csv: version 6" in said or f"wrote {tmp_path / 'quiz.v6.csv'}: version 6" in said
        assert "does not keep version" not in said and "(read back as 1)" not in said
        assert "its id 'quiz' (read back as 'quiz.v6', the file's name)" in said


def test_an_export_of_a_beir_split_names_the_split(tmp_path):
    """export of a folder and of its --split train wrote the same from_file and from_sha256: which judgements?"""
    folder = tmp_path / "fiqa"
    (folder / "qrels").mkdir(parents=True)
    (folder / "queries.jsonl").write_text('{"_id": "1", "text": "Which region grew fastest last year?"}\n')
    (folder / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\n1\td1\t1\n")
    (folder / "qrels" / "train.tsv").write_text("query-id\tcorpus-id\tscore\n1\td2\t1\n")
    assert main(["export", str(folder), "--split", "train", "-o", str(tmp_path / "train.jsonl")]) == 0
    assert dict(read_jsonl(tmp_path / "train.jsonl").meta["review"])["from_split"] == "train"
    assert main(["export", str(folder), "-o", str(tmp_path / "default.jsonl")]) == 0
    assert "from_split" not in dict(read_jsonl(tmp_path / "default.jsonl").meta["review"])


def test_another_reviewers_note_keeps_the_deciders_own_words(tmp_path):
    """bo's note on ana's reject replaced her note: why she rejected it was in no export, and the record put
    'reviewer: ana' beside bo's words. A draft another reviewer wrote was dropped the same way."""
    path = write_jsonl(make_set(), tmp_path / "quiz.jsonl")
    with ReviewSession.open(path, reviewer="ana", clock=Clock()) as session:
        session.goto("q1")
        session.reject(reason="duplicate", note="ana: a copy of q0")
        session.goto("q2")
        session.note("ana: the rule changed in 2024")  # a draft: q2 is not decided yet
        session.goto("q3")
        session.accept(note="fine")
    with ReviewSession.open(path, reviewer="bo", clock=Clock()) as session:
        session.goto("q1")
        session.note("bo: not a copy, the dates differ")
        session.goto("q2")
        session.reject(reason="wrong-answer", note="bo: the answer is out of date")
        session.goto("q3")
        session.note("bo: fine too")
        session.undo()  # bo's own note taken back: ana's stands alone again
        live = {i: session.queue.decision_for(i).earlier_notes for i in ("q1", "q2", "q3")}
    assert live == {"q1": (("ana", "ana: a copy of q0"),), "q2": (("ana", "ana: the rule changed in 2024"),), "q3": ()}
    with ReviewSession.open(path, reviewer="cy") as session:  # the same from the journal
        assert {i: session.queue.decision_for(i).earlier_notes for i in ("q1", "q2", "q3")} == live
        out = session.export(rejected=True)
    q1 = _record(read_jsonl(out).get("q1"))
    assert q1["note"] == "bo: not a copy, the dates differ" and q1["note_by"] == "bo" and q1["reviewer"] == "ana"
    assert q1["earlier_notes"] == [{"by": "ana", "note": "ana: a copy of q0"}]
    assert _record(read_jsonl(out).get("q2"))["earlier_notes"] == [{"by": "ana", "note": "ana: the rule changed in 2024"}]
    assert main(["export", str(path), "--rejected", "--to", "csv", "-o", str(tmp_path / "r.csv")]) == 0
    assert _record(read_csv(tmp_path / "r.csv").get("q1"))["earlier_notes"] == [{"by": "ana", "note": "ana: a copy of q0"}]


def test_a_reviewer_changing_their_own_note_keeps_no_earlier_one(tmp_path):
    path = write_jsonl(make_set(), tmp_path / "quiz.jsonl")
    with ReviewSession.open(path, reviewer="ana", clock=Clock()) as session:
        session.reject(reason="duplicate", note="first thought")
        session.goto("q0")
        session.note("second thought")
        assert session.queue.decision_for("q0").earlier_notes == ()
        assert "earlier_notes" not in session.queue.decision_for("q0").record_meta()


def test_the_header_names_who_only_wrote_notes_among_the_reviewers(tmp_path):
    path = write_jsonl(make_set(), tmp_path / "quiz.jsonl")
    with ReviewSession.open(path, reviewer="ana", clock=Clock()) as session:
        session.reject(reason="duplicate", note="a copy")
    with ReviewSession.open(path, reviewer="bo", clock=Clock()) as session:
        session.goto("q0")
        session.note("not a copy")
        out = session.export()
    assert dict(read_jsonl(out).meta["review"])["reviewers"] == ["ana", "bo"]


def test_an_opened_review_refuses_to_export_a_set_file_replaced_while_it_was_read(tmp_path, monkeypatch):
    """The session took the file's identity after reading it: a file replaced during the read was the one
    the export named, for items read from the old one."""
    from reviewtui.evalset.review import session as module

    path = write_jsonl(make_set(), tmp_path / "quiz.jsonl")
    real = module._load_set

    def read_then_replace(*args, **kwargs):
        evalset = real(*args, **kwargs)
        other = tmp_path / "other.jsonl"
        other.write_text(path.read_text().replace("rule", "RULE"))
        other.replace(path)
        return evalset

    monkeypatch.setattr(module, "_load_set", read_then_replace)
    with ReviewSession.open(path, reviewer="ana", progressive=False) as session:
        session.accept()
        with pytest.raises(cg.EvalSetError, match="has changed on disk since this review read it"):
            session.export(tmp_path / "out.jsonl")


def test_a_beir_folder_whose_judgements_change_during_an_export_is_refused(tmp_path):
    from reviewtui.evalset.model.errors import InputError
    from reviewtui.evalset.review.export import write_reviewed
    from reviewtui.evalset.review.session import load_review

    folder = tmp_path / "fiqa"
    (folder / "qrels").mkdir(parents=True)
    (folder / "queries.jsonl").write_text('{"_id": "1", "text": "Which region grew fastest last year?"}\n')
    (folder / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\n1\td1\t1\n")
    loaded = load_review(folder)
    assert loaded.input_identity is not None
    (folder / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\n1\td2\t1\n")
    with pytest.raises(InputError, match="has changed on disk since it was read"):
        write_reviewed(loaded.evalset, loaded.queue, folder, tmp_path / "out.jsonl", read_as=loaded.input_identity)


def test_a_journal_begun_after_the_export_replayed_is_not_named_in_it(tmp_path):
    from reviewtui.evalset.review.export import write_reviewed
    from reviewtui.evalset.review.session import load_review

    path = write_jsonl(make_set(), tmp_path / "quiz.jsonl")
    loaded = load_review(path)  # no journal yet
    with ReviewSession.open(path, reviewer="ana") as session:  # a review begins meanwhile
        session.accept()
    replayed = loaded.contents.good_size if loaded.contents.exists else 0
    _, written = write_reviewed(loaded.evalset, loaded.queue, path, tmp_path / "out.jsonl", journal_bytes=replayed)
    lineage = dict(written.meta["review"])
    assert lineage["journal_file"] is None and lineage["journal_sha256"] is None and lineage["counts"]["decided"] == 0


def test_a_decision_made_again_keeps_the_words_others_wrote_on_the_one_it_replaces(tmp_path):
    path = write_jsonl(make_set(), tmp_path / "quiz.jsonl")
    with ReviewSession.open(path, reviewer="ana", clock=Clock()) as session:
        session.reject(reason="duplicate", note="ana: a copy of q3")
    with ReviewSession.open(path, reviewer="bo", clock=Clock()) as session:
        session.goto("q0")
        session.note("bo: not a copy")
        session.goto("q0")
        session.note("bo: not a copy")  # the same words again: still bo's, nothing more kept
        assert session.queue.decision_for("q0").earlier_notes == (("ana", "ana: a copy of q3"),)
    with ReviewSession.open(path, reviewer="cy", clock=Clock()) as session:
        session.goto("q0")
        session.reject(reason="ambiguous")
        live = session.queue.decision_for("q0")
        assert live.earlier_notes == (("ana", "ana: a copy of q3"), ("bo", "bo: not a copy"))
    with ReviewSession.open(path, reviewer="cy") as session:
        assert session.queue.decision_for("q0").earlier_notes == live.earlier_notes


def test_a_null_under_review_is_kept_as_the_sets_own_value(tmp_path):
    path = tmp_path / "n.jsonl"
    path.write_text('{"id": "n1", "question": "What colour is the sky over Paris?", "answer": "blue", "meta": {"review": null}}\n')
    with ReviewSession.open(path, reviewer="ana") as session:
        session.accept()
        out = session.export(tmp_path / "v2.jsonl")
    record = _record(read_jsonl(out).get("n1"))
    assert "previous" in record and record["previous"] is None
    assert main(["export", str(path), "-o", str(tmp_path / "v2.csv"), "--lossy"]) == 0
    back = _record(read_csv(tmp_path / "v2.csv").get("n1"))
    assert "previous" in back and back["previous"] is None


def test_a_note_written_on_a_decided_item_goes_on_with_its_writers_next_decision(tmp_path):
    """bo wrote a note on ana's reject with n, then accepted the item: the accept had no note, and bo's words
    were in no export; a lone reviewer's note on their own decision went the same way when they decided again."""
    path = write_jsonl(make_set(), tmp_path / "quiz.jsonl")
    with ReviewSession.open(path, reviewer="ana", clock=Clock()) as session:
        session.reject(reason="duplicate", note="ana: a copy of q3")  # q0
        session.accept()  # q1
        session.goto("q1")
        session.note("ana: checked again")
        session.goto("q1")
        session.reject(reason="ambiguous")
        assert session.queue.decision_for("q1").note == "ana: checked again"
    with ReviewSession.open(path, reviewer="bo", clock=Clock()) as session:
        session.goto("q0")
        session.note("bo: not a copy")
        session.goto("q0")
        session.accept()
        live = session.queue.decision_for("q0")
        assert (live.note, live.note_by, live.earlier_notes) == ("bo: not a copy", "", (("ana", "ana: a copy of q3"),))
    with ReviewSession.open(path, reviewer="cy") as session:
        again = session.queue.decision_for("q0")
        assert (again.note, again.earlier_notes) == (live.note, live.earlier_notes)


def test_why_an_item_was_rejected_is_no_note_on_the_accept_that_replaces_it(tmp_path):
    """Rejected with "not about tools", then accepted: the accept carried the note that explained the reject."""
    path = write_jsonl(make_set(), tmp_path / "quiz.jsonl")
    with ReviewSession.open(path, reviewer="ana", clock=Clock()) as session:
        session.reject(reason="off-topic", note="not about tools")  # q0
        session.reject(reason="ambiguous", note="unclear")  # q1
        session.goto("q0")
        session.accept()
        session.goto("q1")
        session.reject(reason="duplicate")  # a reject again keeps its own words
        q0, q1 = session.queue.decision_for("q0"), session.queue.decision_for("q1")
        assert (q0.note, q0.earlier_notes) == ("", (("ana", "not about tools"),))
        assert (q1.note, q1.earlier_notes) == ("unclear", ())
        out = session.export(tmp_path / "v2.jsonl")
    record = _record(read_jsonl(out).get("q0"))
    assert record["note"] == "" and record["earlier_notes"] == [{"by": "ana", "note": "not about tools"}]
    with ReviewSession.open(path, reviewer="ana") as session:  # and so on replay
        assert session.queue.decision_for("q0").earlier_notes == (("ana", "not about tools"),)


def test_redo_brings_back_only_your_own_steps(tmp_path):
    from reviewtui.evalset.model.errors import ReviewError

    path = write_jsonl(make_set(), tmp_path / "quiz.jsonl")
    with ReviewSession.open(path, reviewer="ana", clock=Clock()) as session:
        session.goto("q3")
        session.accept()
        session.undo()
    with ReviewSession.open(path, reviewer="bo", clock=Clock()) as session:
        with pytest.raises(ReviewError, match="the step to redo, on 'q3', was made by 'ana': redo brings back only your own steps"):
            session.redo()
        assert session.queue.decision_for("q3") is None
    with ReviewSession.open(path, reviewer="ana", clock=Clock()) as session:
        session.redo()
        assert session.queue.decision_for("q3").verdict.value == "accepted"


def test_the_header_keeps_the_notes_of_skipped_items(tmp_path, capsys):
    path = tmp_path / "quiz.jsonl"
    write_jsonl(cg.EvalSet(id="quiz", items=tuple(cg.EvalItem(id=f"q{i}", question=f"Question number {i}?") for i in range(3))), path)
    with ReviewSession.open(path, reviewer="ana") as session:
        session.skip(note="ask legal about clause 4")
        session.skip()
        session.accept()
        out = session.export()
    exported = read_jsonl(out)
    assert [item.id for item in exported] == ["q2"]  # skipped items are not in the next version
    assert dict(exported.meta["review"])["skipped_notes"] == {"q0": {"note": "ask legal about clause 4", "by": "ana"}}
    assert main(["export", str(path), "-o", str(tmp_path / "out.csv")]) == 0  # a CSV file has no header to keep them in
    assert "the review's notes on 1 skipped item among them" in capsys.readouterr().err


def test_a_set_whose_file_name_is_not_utf8_exports_and_filters(tmp_path, capsys):
    """The header names the file it came from; a name with a byte that is not UTF-8 made every export of it fail."""
    import os

    path = tmp_path / os.fsdecode(b"bad\xffname.jsonl")
    questions = tuple(cg.EvalItem(id=f"q{i}", question=f"What does question number {i} ask?") for i in range(3))
    write_jsonl(cg.EvalSet(id="quiz", items=questions), path)  # long enough to be kept by the filters
    with ReviewSession.open(path, reviewer="ana") as session:
        session.accept()
    assert main(["export", str(path), "-o", str(tmp_path / "out.jsonl")]) == 0
    assert dict(read_jsonl(tmp_path / "out.jsonl").meta["review"])["from_file"] == "bad\\xffname.jsonl"
    assert main(["filter", str(path), "-o", str(tmp_path / "f.jsonl")]) == 0
    assert dict(read_jsonl(tmp_path / "f.jsonl").meta["filter"])["from_file"] == "bad\\xffname.jsonl"


def test_a_headerless_set_whose_file_name_is_not_utf8_is_reviewed_and_exported(tmp_path):
    """Its id is its file's name, which the journal's first record and the export's header hold: both failed."""
    import os

    path = tmp_path / os.fsdecode(b"raw\xfeset.jsonl")
    path.write_text('{"id": "q1", "question": "How long may a member keep a saw?"}\n', encoding="utf-8")
    with ReviewSession.open(path, reviewer="ana") as session:
        session.accept()
        out = session.export()
    exported = read_jsonl(out)
    assert exported.id == "raw\\xfeset" and dict(exported.meta["review"])["from_file"] == "raw\\xfeset.jsonl"


def test_the_header_lists_the_decisions_the_journal_holds_but_the_export_could_not_apply(tmp_path, capsys):
    """A decision on an item changed or removed since was said on the terminal only; the file counted the item as
    untouched, with no trace of the decision its journal holds."""
    items = [cg.EvalItem(id=f"q{k}", question=f"What does the library lend on day {k}?", answer=f"tools {k}") for k in range(4)]
    path = write_jsonl(cg.EvalSet(id="s", items=tuple(items)), tmp_path / "s.jsonl")
    with ReviewSession.open(path) as session:
        session.accept()  # q0
        session.reject()  # q1
        session.accept()  # q2
    changed = (items[0].model_copy(update={"answer": "tools, now"}), items[2], items[3])  # q0 changed, q1 removed
    path.unlink()
    write_jsonl(cg.EvalSet(id="s", items=changed), path)
    out = tmp_path / "next.jsonl"
    assert main(["export", str(path), "-o", str(out)]) == 0
    header = dict(read_jsonl(out).meta["review"])
    assert header["decisions_not_restored"] == {"q0": "changed", "q1": "vanished"}
    # decided again since: no longer left out, and a header without any has no such key
    with ReviewSession.open(path) as session:
        session.goto("q0")
        session.accept()
        written = session.export(tmp_path / "again.jsonl")
    assert dict(read_jsonl(written).meta["review"])["decisions_not_restored"] == {"q1": "vanished"}
    clean = tmp_path / "clean.jsonl"
    fresh = write_jsonl(cg.EvalSet(id="t", items=tuple(items)), tmp_path / "t.jsonl")
    with ReviewSession.open(fresh) as session:
        session.accept()
    assert main(["export", str(fresh), "-o", str(clean)]) == 0
    assert "decisions_not_restored" not in dict(read_jsonl(clean).meta["review"])


def test_an_export_whose_decisions_were_all_taken_back_says_nothing_is_decided(tmp_path, capsys):
    """The app said "nothing has been decided yet"; the command said nothing, its journal having records."""
    path = _lending_set(tmp_path, 2)
    with ReviewSession.open(path) as session:
        session.accept()
        session.undo()
    assert main(["export", str(path), "-o", str(tmp_path / "next.jsonl")]) == 0
    said = capsys.readouterr().out
    assert "no decision in the review journal at" in said and "stands (each was taken back" in said, said
    assert "the export is the set as it stands" in said


def test_exporting_the_same_decisions_again_says_which_version_holds_them_already(tmp_path, capsys):
    items = tuple(cg.EvalItem(id=f"q{k}", question=f"What does the library lend on day {k}?") for k in range(3))
    path = write_jsonl(cg.EvalSet(id="s", items=items), tmp_path / "s.jsonl")
    with ReviewSession.open(path) as session:
        session.accept()
    assert main(["export", str(path)]) == 0
    assert "holds these same items" not in capsys.readouterr().out
    assert main(["export", str(path)]) == 0
    said = capsys.readouterr().out
    assert "wrote " in said and "s.v3.jsonl" in said and "note: " in said and "s.v2.jsonl holds these same items" in said
    with ReviewSession.open(path) as session:  # a decision more: the next export is not a repeat
        session.accept()
    assert main(["export", str(path)]) == 0
    assert "holds these same items" not in capsys.readouterr().out


def test_a_note_on_an_item_nobody_decided_is_kept_in_the_export_header(tmp_path):
    """The note was in the journal only: the item passed through as it was and the note was in no file."""
    path = _lending_set(tmp_path, 3)
    with ReviewSession.open(path, reviewer="ana") as session:
        session.goto("q2")
        session.note("q2 repeats q1, fix before release")
        session.goto("q0")
        session.accept()
        written = session.export(tmp_path / "next.jsonl")
    header = dict(read_jsonl(written).meta["review"])
    assert header["undecided_notes"] == {"q2": {"note": "q2 repeats q1, fix before release", "by": "ana"}}


def test_a_note_from_a_journal_written_before_notes_were_signed_is_its_sessions_reviewers(tmp_path, monkeypatch):
    """A note record without "by" (journals written before notes said whose) was credited to whoever ran the
    export: the header named "zed" for ana's note, and "yan" the next time."""
    path = _lending_set(tmp_path, 3)
    with ReviewSession.open(path, reviewer="ana") as session:
        session.goto("q2")
        session.note("q2 repeats q1")
        session.goto("q0")
        session.note("q0 was fine")
        session.accept()
        journal = session.journal_path
    from reviewtui.evalset.io.journal import encode_record

    records = [json.loads(line)["r"] for line in journal.read_bytes().splitlines()]
    assert [r.get("by") for r in records if r.get("op") == "note"] == ["ana", "ana"]
    unsigned = [{k: v for k, v in r.items() if not (r.get("op") == "note" and k == "by")} for r in records]
    journal.write_bytes(b"".join(encode_record(r) for r in unsigned))
    monkeypatch.setenv("REVIEWTUI_REVIEWER", "zed")
    out = tmp_path / "next.jsonl"
    assert main(["export", str(path), "-o", str(out)]) == 0
    written = read_jsonl(out)
    assert dict(written.meta["review"])["undecided_notes"] == {"q2": {"note": "q2 repeats q1", "by": "ana"}}
    record = written.items[0].meta["review"]
    assert record["note"] == "q0 was fine" and record.get("note_by") in (None, "ana")


def test_status_says_when_the_last_decision_no_longer_stands(tmp_path, capsys):
    path = _lending_set(tmp_path, 2)
    with ReviewSession.open(path) as session:
        session.accept()
        session.undo()
    assert main(["status", str(path)]) == 0
    said = capsys.readouterr().out
    assert "decided 0 of 2" in said and "(none stands now)" in said, said


def test_the_header_counts_the_items_the_file_marks_reviewed_that_the_export_writes_as_they_were(tmp_path):
    """counts.items said 6 of a file that holds 8: the two marked reviewed were written but counted nowhere."""
    items = [cg.EvalItem(id=f"q{k}", question=f"What does the library lend on day {k}?") for k in range(4)]
    items[3] = items[3].with_meta({"reviewed": True})
    path = write_jsonl(cg.EvalSet(id="s", items=tuple(items)), tmp_path / "s.jsonl")
    with ReviewSession.open(path) as session:
        session.accept()
        written = session.export(tmp_path / "next.jsonl")
    exported = read_jsonl(written)
    counts = dict(exported.meta["review"])["counts"]
    assert counts["items"] == 3 and counts["marked_reviewed"] == 1
    assert len(exported) == counts["items"] + counts["marked_reviewed"]


def test_a_version_written_by_filter_is_not_taken_for_an_earlier_export(tmp_path, capsys):
    items = tuple(cg.EvalItem(id=f"q{k}", question=f"What does the library lend on day {k} of the week?") for k in range(3))
    path = write_jsonl(cg.EvalSet(id="s", items=items), tmp_path / "s.jsonl")
    assert main(["filter", str(path)]) == 0  # keeps all three: s.v2.jsonl
    capsys.readouterr()
    assert main(["export", str(path)]) == 0
    assert "holds these same items" not in capsys.readouterr().out


def test_a_journal_of_notes_only_is_said_to_hold_no_decision(tmp_path, capsys):
    path = _lending_set(tmp_path, 2)
    with ReviewSession.open(path) as session:
        session.note("look again later")
    assert main(["export", str(path), "-o", str(tmp_path / "next.jsonl")]) == 0
    said = capsys.readouterr().out
    assert "holds no decisions, so nothing has been decided yet" in said and "taken back" not in said, said


def test_a_csv_export_names_the_notes_on_undecided_items_among_what_it_cannot_keep(tmp_path, capsys):
    path = _lending_set(tmp_path, 3)
    with ReviewSession.open(path) as session:
        session.goto("q2")
        session.note("q2 repeats q1")
        session.goto("q0")
        session.accept()
    assert main(["export", str(path), "-o", str(tmp_path / "out.csv")]) == 0
    assert "the review's notes on 1 undecided item among them" in capsys.readouterr().err


def test_status_names_the_last_decision_that_stands_when_a_later_one_was_taken_back(tmp_path, capsys):
    path = _lending_set(tmp_path, 3)
    clock = iter([1_000_000.0 + 3600 * k for k in range(100)])
    with ReviewSession.open(path, clock=lambda: next(clock)) as session:
        session.accept()
        session.accept()
        session.undo()
    assert main(["status", str(path)]) == 0
    said = capsys.readouterr().out
    assert "decided 1 of 3" in said and "(taken back since; the last that stands: " in said, said


def _lending_set(tmp_path, n: int):
    """A set "s" of ``n`` questions q0, q1, ... without answers or evidence, written to s.jsonl."""
    items = tuple(cg.EvalItem(id=f"q{k}", question=f"What does the library lend on day {k}?") for k in range(n))
    return write_jsonl(cg.EvalSet(id="s", items=items), tmp_path / "s.jsonl")


def test_an_items_own_values_under_the_keys_an_export_writes_are_kept_in_its_record(tmp_path, capsys):
    """A fact-checking set's meta "verdict" and an annotator's "reviewer" were written over by the export's own,
    with no word and no copy kept."""
    path = tmp_path / "claims.jsonl"
    rows = [
        {"id": "c1", "question": "Does vitamin D lower fracture risk?", "answer": "No", "meta": {"verdict": "REFUTE", "reviewer": "ann-7"}},
        {"id": "c2", "question": "Does aspirin reduce heart attacks?", "answer": "Yes", "meta": {"verdict": "SUPPORT", "reviewer": "ann-3"}},
        {"id": "c3", "question": "Do cats purr when content?", "answer": "Yes", "meta": {"reviewed": True}},
    ]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    with ReviewSession.open(path, reviewer="ana", include_reviewed=True) as session:  # c3 is marked reviewed
        session.goto("c1")
        session.accept()
        session.goto("c2")
        session.reject(reason="other")
        session.goto("c3")
        session.accept()
        # the documented API writes its verdict as the reference page says, and nothing else
        plain = session.queue.result(read_jsonl(path))
        assert dict(plain.get("c1").meta) == {"verdict": "accepted", "reviewer": "ann-7", "reviewed": True}
    assert main(["export", str(path), "-o", str(tmp_path / "out.jsonl")]) == 0
    out = capsys.readouterr().out
    assert "their values are kept under meta['review']['replaced']" in out and "'verdict' on 1 item" in out
    exported = read_jsonl(tmp_path / "out.jsonl")
    c1 = exported.get("c1").meta
    assert c1["verdict"] == "accepted" and c1["review"]["replaced"] == {"verdict": "REFUTE"}
    assert "replaced" not in exported.get("c3").meta["review"]  # the same value: nothing replaced
    assert main(["export", str(path), "--rejected", "-o", str(tmp_path / "rejected.jsonl")]) == 0
    assert "'verdict' on 1 item, 'reviewer' on 1 item" in capsys.readouterr().out
    c2 = read_jsonl(tmp_path / "rejected.jsonl").get("c2").meta
    assert c2["reviewer"] == "ana" and c2["review"]["replaced"] == {"verdict": "SUPPORT", "reviewer": "ann-3"}
    # Reviewed again, the export's own values from before are in its record already, not replaced ones.
    again = tmp_path / "out.jsonl"
    with ReviewSession.open(again, reviewer="bo", include_reviewed=True) as session:
        session.goto("c1")
        session.reject(reason="other")
        session.goto("c3")
        session.accept()
    assert main(["export", str(again), "-o", str(tmp_path / "twice.jsonl")]) == 0
    assert "replaced" not in capsys.readouterr().out
    # An export of the exported set with nothing decided passes c1 through with its record as it was: what the
    # first export replaced is not this one's to say.
    untouched = tmp_path / "untouched.jsonl"
    untouched.write_bytes((tmp_path / "out.jsonl").read_bytes())
    assert main(["export", str(untouched), "-o", str(tmp_path / "again.jsonl")]) == 0
    assert "replaced" not in capsys.readouterr().out
    assert read_jsonl(tmp_path / "again.jsonl").get("c1").meta["review"]["replaced"] == {"verdict": "REFUTE"}
    c3 = read_jsonl(tmp_path / "twice.jsonl").get("c3").meta["review"]
    assert "replaced" not in c3 and c3["previous"]["verdict"] == "accepted"
    # The second round's rejected file writes "reviewer", which the first round's export never wrote: c1's
    # "ann-7" is the set's own and was replaced without a word or a copy.
    assert main(["export", str(again), "--rejected", "-o", str(tmp_path / "twice-rejected.jsonl")]) == 0
    assert "'reviewer' on 1 item" in capsys.readouterr().out
    c1 = read_jsonl(tmp_path / "twice-rejected.jsonl").get("c1").meta
    assert c1["reviewer"] == "bo" and c1["review"]["replaced"] == {"reviewer": "ann-7"}


def test_an_edit_accepted_by_another_reviewer_stays_credited_to_its_author(tmp_path):
    """dee edited q1's answer and eve, reviewing on, accepted q1 as dee left it: the export said eve edited it,
    and dee appeared nowhere in the item's record. Likewise a type ana set, then bob rejected the item."""
    path = write_jsonl(make_set(), tmp_path / "quiz.jsonl")
    with ReviewSession.open(path, reviewer="dee", clock=Clock()) as session:
        session.edit(answer="form F0, signed")  # q0, dee's edit
        session.edit(qtype="numeric")  # q1, dee's type
        session.accept()  # q2, the set's own item
        session.edit(qtype="numeric")  # q3, dee's type
    with ReviewSession.open(path, reviewer="eve", clock=Clock()) as session:
        session.goto("q3")
        session.reject(reason="ambiguous")  # the item as dee typed it
        session.goto("q0")
        session.accept()  # as dee edited it
        session.goto("q1")
        session.edit(question="Which form does rule 1 ask for now?")  # eve's own edit on top of dee's
        session.goto("q2")
        session.reject(reason="ambiguous")
    for reopened in range(2):  # as made, and as the journal is read again
        with ReviewSession.open(path, reviewer="eve") as session:
            out = session.export(tmp_path / f"v{reopened}.jsonl")
            q2 = session.queue.decision_for("q2").record_meta()
            q3 = session.queue.decision_for("q3").record_meta()
        result = read_jsonl(out)
        q0, q1 = (_record(result.get(i)) for i in ("q0", "q1"))
        assert (q0["reviewer"], q0["verdict"], q0["edited_by"]) == ("eve", "edited", ["dee"])
        assert set(q0["original"]) == {"answer"}
        assert (q1["reviewer"], q1["edited_by"]) == ("eve", ["dee"]) and set(q1["original"]) == {"question", "qtype"}
        assert q2["verdict"] == "rejected" and "edited_by" not in q2  # nobody edited it
        assert (q3["verdict"], q3["reviewer"], q3["edited_by"], set(q3["original"])) == ("rejected", "eve", ["dee"], {"qtype"})
        assert ReviewRecord.from_meta(result.get("q0").meta).edited_by == ("dee",)


def test_a_reviewers_own_edit_decided_again_has_no_edited_by(tmp_path):
    path = write_jsonl(make_set(), tmp_path / "quiz.jsonl")
    with ReviewSession.open(path, reviewer="dee", clock=Clock()) as session:
        session.edit(answer="form F0, signed")
        session.goto("q0")
        session.accept()
        out = session.export(tmp_path / "v2.jsonl")
    q0 = _record(read_jsonl(out).get("q0"))
    assert q0["verdict"] == "edited" and q0["reviewer"] == "dee" and "edited_by" not in q0


def test_a_record_with_replaced_values_fills_the_review_columns_of_a_csv_export(tmp_path):
    """An item whose record kept its own replaced values had blank review.* columns: the whole record went into
    the meta cell, and a spreadsheet filter on review.verdict missed it."""
    path = tmp_path / "claims.jsonl"
    path.write_text(json.dumps({"id": "c1", "question": "Does vitamin D lower fracture risk?", "meta": {"verdict": "REFUTE"}}) + "\n")
    with ReviewSession.open(path, reviewer="ana") as session:
        session.accept()
    assert main(["export", str(path), "-o", str(tmp_path / "out.csv")]) == 0
    lines = (tmp_path / "out.csv").read_text(encoding="utf-8").splitlines()
    header, row = lines[0].split(","), next(csv_rows(tmp_path / "out.csv"))
    cells = dict(zip(header, row, strict=True))
    assert cells["review.verdict"] == "accepted" and cells["review.reviewer"] == "ana"
    assert json.loads(cells["review.replaced"]) == {"verdict": "REFUTE"} and "review" not in json.loads(cells["meta"])
    back = read_csv(tmp_path / "out.csv").get("c1").meta["review"]
    assert back["replaced"] == {"verdict": "REFUTE"} and back["verdict"] == "accepted"


def csv_rows(path):
    import csv

    with open(path, newline="", encoding="utf-8") as handle:
        reader = csv.reader(handle)
        next(reader)
        yield from reader


def test_a_reject_note_stays_a_skips_own_note_and_an_accepts_own_note_survives_a_reject_without_reason(tmp_path):
    """Two cases the first rule missed: a reject's note moved beside a skip was in no export (skipped items are
    left out, and skipped_notes lost it); an accept's note carried through a reject with no reason was demoted."""
    path = write_jsonl(make_set(), tmp_path / "quiz.jsonl")
    with ReviewSession.open(path, reviewer="ana", clock=Clock()) as session:
        session.reject(reason="off-topic", note="not about tools")  # q0
        session.accept(note="checked against the source doc")  # q1
        session.goto("q0")
        session.skip()
        session.goto("q1")
        session.reject()  # no reason: the accept's note goes on with it
        session.goto("q1")
        session.accept()
        assert session.queue.decision_for("q0").note == "not about tools"
        assert (session.queue.decision_for("q1").note, session.queue.decision_for("q1").earlier_notes) == (
            "checked against the source doc",
            (),
        )
        out = session.export(tmp_path / "v2.jsonl")
    assert dict(read_jsonl(out).meta["review"])["skipped_notes"]["q0"]["note"] == "not about tools"


def test_an_adjudicators_reject_note_is_kept_beside_the_accept_they_take():
    from reviewtui.evalset.review.queue import Decision, ReviewQueue, Verdict

    evalset = make_set()
    queue = ReviewQueue.from_evalset(evalset, reviewer="judy")
    queue.reject(reason="off-topic", note="not about tools")
    queue.goto(0)
    theirs = Decision("q0", Verdict.ACCEPTED, note="fine as it is", reviewer="ann", before=evalset.items[0], after=evalset.items[0])
    queue.apply(queue.plan_adopt(theirs))
    made = queue.decision_for("q0")
    assert (made.verdict, made.note, made.taken_from) == (Verdict.ACCEPTED, "fine as it is", "ann")
    assert ("judy", "not about tools") in made.earlier_notes


def test_edited_by_leaves_out_an_edit_the_item_no_longer_carries(tmp_path):
    """ann changed the answer; bob put the answer back and changed the question: the record said ann edited it."""
    path = write_jsonl(make_set(), tmp_path / "quiz.jsonl")
    original = read_jsonl(path).get("q0")
    with ReviewSession.open(path, reviewer="ann", clock=Clock()) as session:
        session.edit(answer="form F0, signed")
    with ReviewSession.open(path, reviewer="bob", clock=Clock()) as session:
        session.goto("q0")
        session.edit(answer=original.answer or "", question="Which form does rule 0 really ask for?")
        assert session.queue.decision_for("q0").editors == ("bob",)
    with ReviewSession.open(path, reviewer="bob") as session:  # and read again
        assert session.queue.decision_for("q0").editors == ("bob",)
        assert "edited_by" not in session.queue.decision_for("q0").record_meta()


def test_an_item_from_a_rejected_file_keeps_its_own_reviewed_value_when_accepted_later():
    from reviewtui.evalset.model.review import keep_replaced

    meta = {"reviewed": False, "verdict": "rejected", "reviewer": "ana", "review": {"verdict": "rejected", "reviewer": "ana"}}
    record = keep_replaced({}, meta, {"reviewed": True, "verdict": "accepted"})
    assert record["replaced"] == {"reviewed": False}  # the rejected file never writes `reviewed`: it is the set's

"""Messages read the way a person would say them: a review not begun is new, one of anything is singular,
and what the library says does not ask a command-line user to call a Python function."""

from __future__ import annotations

import warnings

import pytest

import reviewtui as cg
from reviewtui.cli import main
from reviewtui.evalset.io import read_csv, write_csv, write_jsonl
from reviewtui.evalset.review.session import ReviewSession, load_review, status_lines


def _items(n: int) -> tuple[cg.EvalItem, ...]:
    return tuple(cg.EvalItem(id=f"q{i}", question=f"What does clause {i} of the lease require?") for i in range(n))


def _set_file(tmp_path, n: int = 3):
    return write_jsonl(cg.EvalSet(id="lease", items=_items(n)), tmp_path / "lease.jsonl")


# --- a new review is not a resumed one -------------------------------------------------------


def test_opening_again_without_doing_anything_is_still_a_new_review(tmp_path):
    path = _set_file(tmp_path)
    for _ in range(2):  # each opening leaves a journal with an "open" record in it
        with ReviewSession.open(path, reviewer="ana") as session:
            assert not session.resume_report.resumed
            assert session.resume_report.headline == "new review: 3 questions to check"
    assert load_review(path).report.headline == "new review: 3 questions to check"


def test_the_opening_says_how_many_questions_the_file_marks_reviewed_are_left_out(tmp_path):
    """The demo set's 41 questions opened as "38 to check", and nothing on screen said why."""
    items = tuple(item.model_copy(update={"meta": {"reviewed": True}}) if i < 2 else item for i, item in enumerate(_items(5)))
    path = write_jsonl(cg.EvalSet(id="lease", items=items), tmp_path / "lease.jsonl")
    said = "new review: 3 questions to check, 2 marked reviewed left out (--all)"
    assert load_review(path).report.headline == said
    with ReviewSession.open(path, reviewer="ana") as session:
        assert session.resume_report.headline == said
        session.accept()
    assert load_review(path).report.headline == (
        "resumed: 1 of 3 decided, 2 marked reviewed left out (--all)"
    )
    assert load_review(path, include_reviewed=True).report.headline == "resumed: 1 of 5 decided"


def test_moving_the_cursor_around_is_not_work_to_resume(tmp_path):
    path = _set_file(tmp_path)
    with ReviewSession.open(path, reviewer="ana") as session:
        session.next()
        session.next()
    with ReviewSession.open(path, reviewer="ana", progressive=True) as again:
        assert again.resume_report.headline == "new review: 3 questions to check"


def test_a_review_with_a_decision_is_resumed(tmp_path):
    path = _set_file(tmp_path)
    with ReviewSession.open(path, reviewer="ana") as session:
        session.accept()
    with ReviewSession.open(path, reviewer="ana") as again:
        assert again.resume_report.resumed
        assert again.resume_report.headline == "resumed: 1 of 3 decided"


def test_a_review_whose_decisions_were_all_undone_is_still_resumed(tmp_path):
    path = _set_file(tmp_path)
    with ReviewSession.open(path, reviewer="ana") as session:
        session.accept()
        session.undo()
    with ReviewSession.open(path, reviewer="ana") as again:
        assert again.resume_report.headline == "resumed: 0 of 3 decided"
        assert again.redo() is not None  # there was something to go on from


def test_a_set_version_change_is_only_mentioned_for_a_review_that_began(tmp_path):
    path = _set_file(tmp_path)
    with ReviewSession.open(path, reviewer="ana"):
        pass
    write_jsonl(cg.EvalSet(id="lease", items=_items(3), version=2), path)
    with ReviewSession.open(path, reviewer="ana") as again:
        assert again.resume_report.lines() == ["new review: 3 questions to check"]


# --- one of a thing is singular ---------------------------------------------------------------


def test_a_new_review_of_one_question(tmp_path):
    path = _set_file(tmp_path, 1)
    with ReviewSession.open(path, reviewer="ana") as session:
        assert session.resume_report.headline == "new review: 1 question to check"


def test_one_decision_not_restored_is_singular(tmp_path):
    path = _set_file(tmp_path)
    with ReviewSession.open(path, reviewer="ana") as session:
        session.accept()
        session.next()
    changed = (cg.EvalItem(id="q0", question="What does clause 0 of the new lease require?"), *_items(3)[1:])
    write_jsonl(cg.EvalSet(id="lease", items=changed), path)
    with ReviewSession.open(path, reviewer="ana") as again:
        assert again.resume_report.lines()[1] == (
            "1 earlier decision not restored because its item changed or is gone: q0"
        )


def test_several_decisions_not_restored_are_plural(tmp_path):
    path = _set_file(tmp_path)
    with ReviewSession.open(path, reviewer="ana") as session:
        for _ in range(3):
            session.accept()
    write_jsonl(cg.EvalSet(id="lease", items=_items(3)[2:]), path)  # q0 and q1 are gone, q2 stays
    with ReviewSession.open(path, reviewer="ana") as again:
        assert again.resume_report.lines()[1] == (
            "2 earlier decisions not restored because their items changed or are gone: q0, q1"
        )


def test_status_of_a_one_question_set_after_one_session(tmp_path):
    path = _set_file(tmp_path, 1)
    with ReviewSession.open(path, reviewer="ana") as session:
        session.accept()
    lines = status_lines(load_review(path))
    assert lines[0] == "lease.jsonl: set 'lease' v1, 1 question, 1 in review"
    assert lines[-2].endswith("; 1 session")
    assert lines[-1] == f"journal: {path}.reviewtui-journal (3 records)"


def test_csv_numbering_one_row_says_one_row(tmp_path):
    path = tmp_path / "one.csv"
    path.write_text("question\nWhat is the notice period?\n", encoding="utf-8")
    with pytest.warns(UserWarning) as caught:
        read_csv(path)
    (warning,) = caught
    assert str(warning.message) == "one.csv: no id column, so rows were numbered q1, q2, ... in file order (1 row)"


def test_csv_skipping_one_blank_row_names_one_line(tmp_path):
    path = tmp_path / "gap.csv"
    path.write_text("id,question\n,\nq1,What is the notice period?\n", encoding="utf-8")
    with pytest.warns(UserWarning) as caught:
        read_csv(path)
    (warning,) = caught
    assert str(warning.message) == "gap.csv: rows skipped: 1 with every cell empty (line 2)"


def test_csv_row_longer_than_a_one_column_header(tmp_path):
    path = tmp_path / "wide.csv"
    path.write_text("question\nWhat is the notice period?,30 days\n", encoding="utf-8")
    with pytest.raises(cg.EvalSetError, match=r"this row has 2 cells but the header names only 1 column$"):
        read_csv(path)


def test_filter_names_one_kept_item_in_the_singular(tmp_path, capsys):
    path = _set_file(tmp_path, 1)
    assert main(["filter", str(path)]) == 0
    assert f"wrote version 2 (1 item) to {tmp_path / 'lease.v2.jsonl'}" in capsys.readouterr().out.splitlines()


# --- the library's messages speak to both a Python caller and a command-line user ----------------


def _csv_warnings(evalset: cg.EvalSet, path) -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        write_csv(evalset, path)
    return [str(w.message) for w in caught]


def test_writing_csv_warns_without_naming_python_functions(tmp_path):
    span = cg.GoldSpan(span=cg.Span("h.txt", 0, 10))
    items = (
        cg.EvalItem(
            id="two-anchors",
            question="What is the notice period?",
            anchors=(cg.GoldAnchor(source_id="h.txt", quote="30 days"), cg.GoldAnchor(source_id="h.txt", quote="a month")),
        ),
        cg.EvalItem(id="spans-only", question="Who signs the lease?", gold=(span,)),
        cg.EvalItem(id="no-source", question="When is rent due?", anchors=(cg.GoldAnchor(source_id="", quote="the 1st"),)),
    )
    messages = _csv_warnings(cg.EvalSet(id="lease", items=items), tmp_path / "out.csv")
    assert messages == [
        "writing set 'lease' as CSV: a CSV row holds one anchor, so 1 item loses every anchor after the first: "
        "'two-anchors'",
        "writing set 'lease' as CSV: CSV has no column for gold spans, so 1 item whose only evidence is gold spans "
        "loses it: 'spans-only'",
        "writing set 'lease' as CSV: 1 item has an anchor with an empty source_id, which reading the CSV back cannot "
        "turn into an anchor again: 'no-source'",
    ]
    for message in messages:
        assert "write_csv" not in message and "read_csv" not in message


def test_writing_csv_warns_in_the_plural_for_several_items(tmp_path):
    anchors = (cg.GoldAnchor(source_id="h.txt", quote="30 days"), cg.GoldAnchor(source_id="h.txt", quote="a month"))
    items = tuple(cg.EvalItem(id=f"q{i}", question=f"What is notice period {i}?", anchors=anchors) for i in range(2))
    (message,) = _csv_warnings(cg.EvalSet(id="lease", items=items), tmp_path / "out.csv")
    assert "so 2 items lose every anchor after the first: 'q0', 'q1'" in message


def test_the_short_answers_note_counts_only_items_that_have_an_answer():
    # SQuAD 2.0 said "593 of 293 expected answers have fewer than 4 content words": the 333 items without an
    # answer (unanswerable by design) were counted among the short ones.
    from reviewtui.evalset.checks.scan import scan_flags

    questions = [f"Which clause of the lease covers topic {k} in the contract?" for k in range(6)]
    answers = [None, None, None, "Yes", "Clause two", "The landlord repairs the boiler within three working days"]
    evalset = cg.EvalSet(id="s", items=tuple(cg.EvalItem(id=f"q{k}", question=q, answer=a) for k, (q, a) in enumerate(zip(questions, answers))))
    notes = [entry.message for entry in scan_flags(evalset).cautions if "expected answers have" in entry.message]
    assert len(notes) == 1 and notes[0].startswith("2 of 3 expected answers have fewer than 4 content words")


def test_an_exact_repeat_without_answers_does_not_claim_the_same_answer():
    from reviewtui.evalset.checks.audit import audit

    question = "What data does the app share with third parties?"
    evalset = cg.EvalSet(id="s", items=tuple(cg.EvalItem(id=f"q{k}", question=question) for k in range(2)))
    (finding,) = audit(evalset).of_check("exact-duplicates")
    assert finding.detail == "2 items ask the same question (none has an expected answer), so it counts 2 times in every average"


def test_one_of_anything_is_singular_in_the_set_notes():
    from reviewtui.evalset.checks.audit import audit
    from reviewtui.evalset.checks.quality import assess

    items = (
        cg.EvalItem(id="q1", question="What does clause one of the lease require?", anchors=(cg.GoldAnchor("lease.md", "Rent is due monthly."),), qtype="factoid"),
        cg.EvalItem(id="q2", question="What does clause two of the lease require?", qtype="factoid"),
    )
    evalset = cg.EvalSet(id="lease", items=items)
    messages = [str(entry) for entry in assess(evalset).warnings()]
    assert any("only 1 question has evidence" in m for m in messages), messages
    coverage = [c for c in audit(evalset).checks if c.check == "category-coverage"]
    assert coverage[0].note == "1 category"

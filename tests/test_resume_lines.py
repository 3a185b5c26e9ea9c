"""Resuming checks a journal's fingerprints against the hashes of the set file's lines.

A journal records, with each decision, note and dismissal, a fingerprint of the item:
the hash of its JSON as the set writer writes it. When the set is a native JSONL file,
the reader keeps the hash of each line a journal names (``LinePrints``), and a record
whose fingerprint is its item's line hash is known to match without encoding the item.
These tests hold that shortcut to what the full check gives: the same queue, the same
undo and redo history, the same stale records, whatever the file looks like.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import orjson
import pytest

from reviewtui.evalset.io.journal import read_journal
from reviewtui.evalset.io.jsonl import LinePrints, content_hash, read_jsonl, write_jsonl
from reviewtui.evalset.model.errors import EvalSetError
from reviewtui.evalset.model.items import EvalItem, EvalSet
from reviewtui.evalset.review.queue import ReviewQueue
from reviewtui.evalset.review.replay import fingerprint, journal_item_ids, replay
from reviewtui.evalset.review.session import ReviewSession, load_review


def make_set(n: int = 12) -> EvalSet:
    items = []
    for i in range(n):
        items.append(
            EvalItem(
                id=f"q{i:02d}",
                question=f"What does clause {i} say about notice — «{i}»?",
                answer=f"Thirty days, clause {i}.",
                anchors=({"source_id": f"doc-{i % 3}.pdf", "quote": f"Clause {i}: notice is thirty days.", "grade": 2},),
                meta={"batch": i // 5, "reviewed": i == 3, "score": 0.1 * i, "tags": ["a", "ü"]},
            )
        )
    return EvalSet(id="resume-lines", items=tuple(items))


def decision_state(d: Any) -> Any:
    if d is None:
        return None
    return (d.item_id, d.verdict, d.note, d.reason, d.before, d.after, d.decided_at, d.seconds, d.reviewer, d.warnings, d.flagged)


def queue_state(queue: ReviewQueue) -> tuple[Any, ...]:
    """Everything a resume restores: decisions, drafts, dismissals, cursor, order, undo and redo."""

    def changes(stack: Any) -> list[Any]:
        return [
            (
                c.item_id,
                c.index,
                decision_state(c.before),
                decision_state(c.after),
                c.note_before,
                c.note_after,
                c.advances,
                c.dismissed_before,
                c.dismissed_after,
            )
            for c in stack
        ]

    return (
        queue.position,
        {k: decision_state(v) for k, v in queue.decisions.items()},
        queue.notes,
        queue.dismissals,
        queue.order,
        changes(queue.history),
        changes(queue.future),
        queue.counts(),
    )


def review_some(path: Path, journal: Path) -> tuple[Any, ...]:
    """A review with every kind of step; returns the queue's state as the session left it."""
    with ReviewSession.open(path, journal_path=journal, reviewer="ana", include_reviewed=True) as session:
        session.accept()
        session.reject(note="asked before", reason="duplicate")
        session.note("check the page number")
        session.edit(question="What notice does clause 3 require?")
        session.dismiss("thin_answer")
        session.skip()
        session.undo()
        session.undo()
        session.redo()
        session.goto("q08")
        session.accept(note="fine")
        session.note("a draft on q09")
        session.goto("q05")
        session.edit(answer="Thirty calendar days.")
        session.undo()
        state = queue_state(session.queue)
    return state


def replayed_without_lines(path: Path, journal: Path) -> tuple[ReviewQueue, Any]:
    """The journal replayed the long way: every fingerprint computed from its item."""
    evalset = read_jsonl(path)
    contents = read_journal(journal)
    queue = ReviewQueue.from_evalset(evalset, skip_reviewed=False, include_ids=journal_item_ids(contents))
    return queue, replay(queue, contents)


@pytest.fixture
def reviewed(tmp_path: Path) -> tuple[Path, Path, tuple[Any, ...]]:
    path = write_jsonl(make_set(), tmp_path / "quiz.jsonl")
    journal = tmp_path / "quiz.journal"
    return Path(path), journal, review_some(Path(path), journal)


def test_the_lines_a_writer_wrote_hash_to_the_items_fingerprints(tmp_path: Path) -> None:
    path = write_jsonl(make_set(), tmp_path / "quiz.jsonl")
    prints = LinePrints([f"q{i:02d}" for i in range(0, 12, 2)])
    evalset = read_jsonl(path, line_prints=prints)
    assert sorted(prints.found) == sorted(prints.wanted)
    for item_id, line_hash in prints.found.items():
        assert line_hash == fingerprint(evalset.get(item_id))


@pytest.mark.parametrize("progressive", [True, False])
def test_a_resume_restores_the_state_the_session_left(reviewed: Any, progressive: bool) -> None:
    path, journal, left = reviewed
    with ReviewSession.open(path, journal_path=journal, reviewer="ana", progressive=progressive) as session:
        assert queue_state(session.queue) == left
        assert not session.resume_report.stale
    loaded = load_review(path, journal_path=journal)
    assert queue_state(loaded.queue) == left
    queue, outcome = replayed_without_lines(path, journal)
    assert queue_state(queue) == left and not outcome.stale


def rewrite_lines(path: Path, change: Any) -> None:
    lines = path.read_bytes().splitlines()
    path.write_bytes(b"\n".join(change(line) for line in lines) + b"\n")


def test_a_file_rewritten_in_another_layout_resumes_the_long_way(reviewed: Any) -> None:
    # Same items, other bytes (spaces after separators, CRLF endings): no line hash matches,
    # every record is checked against its item's fingerprint and still applies.
    path, journal, left = reviewed
    rewrite_lines(path, lambda line: orjson.dumps(orjson.loads(line), option=orjson.OPT_INDENT_2).replace(b"\n", b" ") + b"\r")
    prints = LinePrints(journal_item_ids(read_journal(journal)))
    evalset = read_jsonl(path, line_prints=prints)
    assert prints.found  # the lines were hashed, and none of them is the item's JSON any more
    assert all(line_hash != fingerprint(evalset.get(item_id)) for item_id, line_hash in prints.found.items())
    with ReviewSession.open(path, journal_path=journal, reviewer="ana", progressive=True) as session:
        assert queue_state(session.queue) == left
        assert not session.resume_report.stale
    assert queue_state(load_review(path, journal_path=journal).queue) == left


def test_a_changed_item_is_still_stale_and_the_rest_replays_as_before(reviewed: Any) -> None:
    path, journal, _ = reviewed

    def change(line: bytes) -> bytes:
        record = orjson.loads(line)
        if record.get("id") == "q01":  # rejected in the review; its text changes in the file
            record["answer"] = "Sixty days."
        return orjson.dumps(record)

    rewrite_lines(path, change)
    expected_queue, expected = replayed_without_lines(path, journal)
    assert [(s.item_id, s.why) for s in expected.stale] == [("q01", "changed")]
    with ReviewSession.open(path, journal_path=journal, reviewer="ana", progressive=True) as session:
        assert queue_state(session.queue) == queue_state(expected_queue)
        assert session.resume_report.stale == tuple(expected.stale)
        assert session.queue.decision_for("q01") is None
    loaded = load_review(path, journal_path=journal)
    assert queue_state(loaded.queue) == queue_state(expected_queue)
    assert loaded.report.stale == tuple(expected.stale)


def test_a_line_read_with_coercion_is_not_hashed(tmp_path: Path) -> None:
    # An integer id is read as a string: the line is not the item's JSON, so it must not stand for it.
    path = tmp_path / "numbered.jsonl"
    path.write_bytes(b'{"id":7,"question":"What is seven?"}\n{"id":"8","question":"What is eight?"}\n')
    prints = LinePrints(["7", "8"])
    evalset = read_jsonl(path, line_prints=prints)
    assert "7" not in prints.found
    # A line read as it stands is hashed, bytes and all; it is not the writer's JSON (no defaults
    # written out), so its hash is not the item's fingerprint and a journal's record never matches it.
    assert prints.found["8"] == content_hash(b'{"id":"8","question":"What is eight?"}')
    assert prints.found["8"] != fingerprint(evalset.get("8"))


def test_a_line_only_its_bytes_can_match(tmp_path: Path) -> None:
    # A journal fingerprint that is some other item's JSON hash never matches a line by accident:
    # the shortcut only says yes to the very bytes, else the item's own fingerprint decides.
    path = write_jsonl(make_set(3), tmp_path / "small.jsonl")
    with ReviewSession.open(path, reviewer="ana", include_reviewed=True) as session:
        session.accept()
    rewrite_lines(Path(path), lambda line: line.replace(b'"Thirty days, clause 0."', b'"Thirty days, clause 0!"'))
    with ReviewSession.open(path, reviewer="ana", progressive=True) as session:
        assert [(s.item_id, s.why) for s in session.resume_report.stale] == [("q00", "changed")]


HOSTILE_META = {
    "floats": [0.1, 1e-7, 1.5e300, -0.0, 123456789.123456789, 5e-324],
    "ints": [0, -1, 2**63 - 1, -(2**63)],
    "text": "tab\tnewline\nquote\"back\\slash/ nul\u0000 bell\u0007 del\u007f ü 中 😀 \u2028 \ufeff",
    "nested": {"a": [{"b": None, "c": True}], "": {}},
    "order": {"z": 1, "a": 2, "m": 3},
}


def test_reading_what_the_writer_wrote_writes_the_same_bytes(tmp_path: Path) -> None:
    # What the shortcut rests on: an item read from a line the set writer wrote encodes to that line again.
    items = (
        EvalItem(id="h1", question="Hostile «meta»?", answer="", meta=HOSTILE_META),
        EvalItem(
            id="h2",
            question="Spans\u00a0and\u200banchors?",
            gold=({"span": {"doc_id": "d", "start": 0, "end": 5}, "grade": 1},),
            anchors=({"source_id": "d", "quote": "x" * 3, "grade": 1, "page_hint": 7, "occurrence": 2},),
            qtype="numeric",
            meta={"reviewed": True, "score": math.pi},
        ),
    )
    path = write_jsonl(EvalSet(id="hostile", items=items), tmp_path / "hostile.jsonl")
    prints = LinePrints(["h1", "h2"])
    evalset = read_jsonl(path, line_prints=prints)
    assert set(prints.found) == {"h1", "h2"}
    for item in evalset.items:
        encoded = EvalItem.__pydantic_serializer__.to_json(item)
        assert EvalItem.__pydantic_serializer__.to_json(EvalItem.__pydantic_validator__.validate_json(encoded)) == encoded
        assert prints.found[item.id] == fingerprint(item)


def test_status_still_reports_a_broken_set_before_a_broken_journal(tmp_path: Path) -> None:
    path = tmp_path / "broken.jsonl"
    path.write_bytes(b'{"id":"a","question":"Fine?"}\n{"id":"b","question":\n')
    journal = tmp_path / "broken.journal"
    journal.write_bytes(b"not a journal\n")
    with pytest.raises(EvalSetError) as caught:
        load_review(path, journal_path=journal)
    assert caught.value.path == str(path)
    path.write_bytes(b'{"id":"a","question":"Fine?"}\n')
    with pytest.raises(EvalSetError) as caught:
        load_review(path, journal_path=journal)
    assert caught.value.path == str(journal)


STEP_KINDS = ("accept", "reject", "skip", "edit", "note", "dismiss", "undo", "redo", "goto", "next", "previous", "order")


@pytest.mark.parametrize("seed", range(25))
def test_a_resume_restores_what_a_random_session_left(tmp_path: Path, seed: int) -> None:
    # Independent of any reference replay: the live session applied each step with ``apply``; the
    # resumed one replays the journal (decisions in line, cursor moves settled late).
    import random

    rng = random.Random(seed)
    path = Path(write_jsonl(make_set(), tmp_path / "quiz.jsonl"))
    journal = tmp_path / "quiz.journal"
    with ReviewSession.open(path, journal_path=journal, reviewer="ana", include_reviewed=True) as session:
        for number in range(rng.randrange(5, 60)):
            kind = rng.choices(STEP_KINDS, (20, 8, 5, 4, 4, 3, 10, 6, 5, 3, 3, 2))[0]
            try:
                if kind == "accept":
                    session.accept()
                elif kind == "reject":
                    session.reject(note=f"r{number}", reason=rng.choice([None, "duplicate"]))
                elif kind == "edit":
                    session.edit(question=f"Rewritten {number}?")
                elif kind == "note":
                    session.note(f"note {number}")
                elif kind == "dismiss":
                    session.dismiss("thin_answer")
                elif kind == "goto":
                    session.goto(f"q{rng.randrange(12):02d}")
                elif kind == "order":
                    session.set_order(rng.sample(range(12), rng.randint(0, 5)) if rng.random() < 0.7 else None)
                else:
                    getattr(session, kind)()
            except EvalSetError:
                pass  # refused in this state
        left = queue_state(session.queue)
    with ReviewSession.open(path, journal_path=journal, reviewer="ana", include_reviewed=True) as session:
        assert queue_state(session.queue) == left

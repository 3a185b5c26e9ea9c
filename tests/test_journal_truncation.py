"""A journal cut at every byte offset loads, and loses nothing but the record that was cut."""

from __future__ import annotations

import os

import pytest

import reviewtui as cg
from reviewtui.evalset.io.journal import read_journal
from reviewtui.evalset.review.queue import ReviewQueue
from reviewtui.evalset.review.session import ReviewSession, load_review


def tiny_set() -> cg.EvalSet:
    return cg.EvalSet(
        id="t",
        items=tuple(
            cg.EvalItem(id=f"t{i}", question=f"Q{i}?", anchors=(cg.GoldAnchor(source_id="d", quote=f"A{i}."),))
            for i in range(6)
        ),
    )


def state(queue: ReviewQueue):
    return (queue.position, queue.decisions, queue.notes, queue.history, queue.future, queue.order, queue.counts())


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """A journal of varied steps, and the live state after each record boundary (by file size)."""
    evalset = tiny_set()
    journal = tmp_path_factory.mktemp("trunc") / "j"
    steps = [
        lambda s: s.accept(note="ok"),
        lambda s: s.reject(reason="ambiguous"),
        lambda s: s.note("hm"),
        lambda s: s.edit(question="Q2 again?"),
        lambda s: s.undo(),
        lambda s: s.redo(),
        lambda s: s.previous(),
        lambda s: s.skip(),
        lambda s: s.set_order([5]),
        lambda s: s.mark("numeric"),
        lambda s: s.undo(),
        lambda s: s.goto("t0"),
    ]
    by_size = {}
    with ReviewSession.start(evalset, journal) as session:
        by_size[journal.stat().st_size] = state(session.queue)
        for step in steps:
            step(session)
            by_size[journal.stat().st_size] = state(session.queue)
    fresh = state(ReviewQueue.from_evalset(evalset))
    return evalset, journal, journal.read_bytes(), by_size, fresh


def test_every_truncation_loads_and_keeps_every_whole_record(recorded, tmp_path):
    evalset, _, data, by_size, fresh = recorded
    boundaries = sorted(by_size)
    cut = tmp_path / "cut"
    cut.write_bytes(data)
    for offset in range(len(data), -1, -1):  # shrinking in place is cheaper than rewriting
        os.truncate(cut, offset)
        loaded = load_review("t.jsonl", journal_path=cut, evalset=evalset)
        whole_lines = data.count(b"\n", 0, offset)
        # cut just before a line break: the record is whole (only its break is gone) and kept, the header too
        unended = data[offset : offset + 1] == b"\n"
        assert len(loaded.contents.records) == whole_lines + unended, offset
        at_boundary = offset == 0 or data[offset - 1 : offset] == b"\n" or unended
        assert (loaded.contents.torn is None) == at_boundary, offset
        assert loaded.contents.unended == unended, offset
        reached = offset + unended
        if reached < boundaries[0]:  # at most the header and the "session opened" record
            expected = fresh
        else:
            expected = by_size[max(b for b in boundaries if b <= reached)]
        assert state(loaded.queue) == expected, offset


def test_a_session_on_a_cut_journal_goes_on_cleanly(recorded, tmp_path):
    evalset, _, data, by_size, _ = recorded
    cut = tmp_path / "cut"
    middle = sorted(by_size)[5] + 9  # nine bytes into a record
    cut.write_bytes(data[:middle])
    with ReviewSession.start(evalset, cut) as session:
        assert session.resume_report.torn is not None
        session.accept()
        after = state(session.queue)
    contents = read_journal(cut)
    assert contents.torn is None
    with ReviewSession.start(evalset, cut) as again:
        assert again.resume_report.torn is None
        assert state(again.queue) == after


def test_a_whole_last_record_without_its_line_break_is_kept_and_the_break_written_back(recorded, tmp_path):
    """An editor that drops a file's last line break made the last decision read as cut short: dropped, and cut
    off the file for good by the next session."""
    evalset, _, data, by_size, _ = recorded
    unended = tmp_path / "unended"
    unended.write_bytes(data[:-1])
    loaded = load_review("t.jsonl", journal_path=unended, evalset=evalset)
    assert loaded.contents.torn is None and loaded.contents.unended
    assert state(loaded.queue) == by_size[len(data)]
    with ReviewSession.start(evalset, unended) as session:
        assert session.resume_report.torn is None
        session.accept()
        after = state(session.queue)
    assert unended.read_bytes().startswith(data)  # the break written back, nothing cut
    contents = read_journal(unended)
    assert contents.torn is None and not contents.unended
    with ReviewSession.start(evalset, unended) as again:
        assert state(again.queue) == after


def test_a_journal_holding_its_header_alone_without_the_line_break_is_kept(recorded, tmp_path):
    """It was read as cut short and as holding no record, and the review refused to write to it."""
    evalset, _, data, _, _ = recorded
    header_only = tmp_path / "header"
    header_only.write_bytes(data[: data.index(b"\n")])
    loaded = load_review("t.jsonl", journal_path=header_only, evalset=evalset)
    assert loaded.contents.torn is None and loaded.contents.unended
    assert [line for line, _ in loaded.contents.records] == [1]
    with ReviewSession.start(evalset, header_only) as session:
        session.accept()
        after = state(session.queue)
    assert header_only.read_bytes().startswith(data[: data.index(b"\n") + 1])  # the break written back
    with ReviewSession.start(evalset, header_only) as again:
        assert state(again.queue) == after

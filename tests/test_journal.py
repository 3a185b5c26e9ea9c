"""The journal: its line format, damage detection, and replay to the exact state."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

import reviewtui as cg
from reviewtui.evalset.io import journal as journal_mod
from reviewtui.evalset.io.journal import (
    JournalWriter,
    decode_line,
    default_journal_path,
    encode_record,
    read_journal,
)
from reviewtui.evalset.review.queue import ReviewQueue
from reviewtui.evalset.review.session import ReviewSession


def make_set(n: int = 8, set_id: str = "quiz") -> cg.EvalSet:
    return cg.EvalSet(
        id=set_id,
        items=tuple(
            cg.EvalItem(
                id=f"q{i}",
                question=f"What does section {i} of the handbook require?",
                anchors=(
                    cg.GoldAnchor(source_id="h.pdf", quote=f"Section {i} requires form {i}."),
                    cg.GoldAnchor(source_id="h.pdf", quote=f"See also annex {i}."),
                ),
                qtype="factoid",
            )
            for i in range(n)
        ),
    )


def state(queue: ReviewQueue):
    """Everything a resumed review must get back, in comparable form."""
    return (
        queue.position,
        queue.decisions,
        queue.notes,
        queue.history,
        queue.future,
        queue.order,
        queue.counts(),
        queue.seconds_spent,
    )


def busy_session(session: ReviewSession) -> None:
    """A bit of everything: decisions, edits, reasons, notes, moves, order, undo and redo."""
    session.accept(note="fine")
    session.reject(note="asked twice", reason="duplicate")
    session.note("check annex")
    session.edit(anchor=1, quote="See also annex 2, page 4.", grade=1)
    session.mark("numeric")
    session.skip()
    session.undo()
    session.undo()
    session.redo()
    session.previous()
    session.previous()
    session.accept()
    session.set_order([7, 6])
    session.goto("q7")
    session.reject(reason="ambiguous")
    session.undo()


def test_lines_carry_a_checksum_and_damage_is_seen():
    line = encode_record({"n": 0, "op": "start", "text": "naïve \u2028 line"})
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert decode_line(line[:-1]) == {"n": 0, "op": "start", "text": "naïve \u2028 line"}
    for at in range(len(line) - 1):
        damaged = bytearray(line[:-1])
        damaged[at] ^= 0x01
        assert decode_line(bytes(damaged)) is None, at


def test_default_journal_sits_beside_the_set(tmp_path):
    assert default_journal_path(tmp_path / "quiz.jsonl") == tmp_path / "quiz.jsonl.reviewtui-journal"


def test_a_resumed_session_has_exactly_the_state_it_was_left_in(tmp_path):
    evalset = make_set()
    journal = tmp_path / "j"
    with ReviewSession.start(evalset, journal, reviewer="ana") as session:
        busy_session(session)
        left = state(session.queue)
        assert not session.resume_report.resumed
    with ReviewSession.start(evalset, journal, reviewer="ana") as again:  # the same reviewer, who may redo her steps
        assert state(again.queue) == left
        report = again.resume_report
        assert report.resumed and str(report).startswith(f"resumed: {again.queue.decided} of 8 decided")
        # and it goes on from there: the redo stack came back too
        assert again.redo() is not None
        moved_on = state(again.queue)
    with ReviewSession.start(evalset, journal) as third:
        assert state(third.queue) == moved_on


def test_every_step_is_on_disk_when_the_call_returns(tmp_path):
    evalset = make_set()
    journal = tmp_path / "j"
    with ReviewSession.start(evalset, journal) as session:
        size = journal.stat().st_size
        for step in (session.accept, session.skip, session.undo, session.next, lambda: session.note("n")):
            step()
            grown = journal.stat().st_size
            assert grown > size
            size = grown
        records = read_journal(journal).records
        assert [p["op"] for _, p in records] == ["start", "open", "decide", "decide", "undo", "move", "note"]
        assert [p["n"] for _, p in records] == list(range(7))


def test_undo_with_nothing_to_undo_writes_nothing(tmp_path):
    with ReviewSession.start(make_set(), tmp_path / "j") as session:
        size = (tmp_path / "j").stat().st_size
        assert session.undo() is None and session.redo() is None
        assert (tmp_path / "j").stat().st_size == size


def test_a_refused_step_changes_neither_queue_nor_journal(tmp_path):
    with ReviewSession.start(make_set(2), tmp_path / "j") as session:
        size = (tmp_path / "j").stat().st_size
        with pytest.raises(cg.EvalSetError):
            session.reject(reason="not-a-reason")
        with pytest.raises(cg.EvalSetError):
            session.edit(anchor=5, quote="x")
        assert session.queue.decided == 0
        assert (tmp_path / "j").stat().st_size == size


def test_a_failed_write_leaves_the_state_as_it_was(tmp_path, monkeypatch):
    journal = tmp_path / "j"
    with ReviewSession.start(make_set(3), journal) as session:
        session.accept()
        size = journal.stat().st_size
        real_write = os.write

        def full_disk(fd, data):
            real_write(fd, data[:10])  # a part gets out before the disk fills up
            raise OSError(errno.ENOSPC, "No space left on device")

        monkeypatch.setattr(journal_mod.os, "write", full_disk)
        with pytest.raises(cg.EvalSetError, match="No space left"):
            session.accept()
        monkeypatch.setattr(journal_mod.os, "write", real_write)
        assert session.queue.decided == 1 and session.queue.current.id == "q1"
        assert journal.stat().st_size == size
        session.reject()
    with ReviewSession.start(make_set(3), journal) as again:
        assert [d.verdict.value for d in again.queue.decisions.values()] == ["accepted", "rejected"]


def as_if_crashed(journal: Path) -> None:
    """Take off the move a session writes as it closes (see ReviewSession.close): the journal as a
    session that never closed (killed, or the machine lost power) leaves it."""
    data = journal.read_bytes()
    start = data.rfind(b"\n", 0, len(data) - 1) + 1
    last = journal_mod.decode_line(data[start:-1])
    assert last is not None and last["op"] == "move", last
    journal.write_bytes(data[:start])


def test_a_torn_last_record_is_reported_dropped_and_cut_off(tmp_path):
    evalset = make_set()
    journal = tmp_path / "j"
    with ReviewSession.start(evalset, journal) as session:
        session.accept()
        session.reject()
        kept = state(session.queue)
        session.skip()
    as_if_crashed(journal)
    data = journal.read_bytes()
    journal.write_bytes(data[:-7])  # the last decision lost its end
    with ReviewSession.start(evalset, journal) as again:
        assert "cut short" in again.resume_report.torn and ":5:" in again.resume_report.torn
        assert state(again.queue)[1:3] == kept[1:3]
        assert again.queue.current.id == "q2"
        again.accept()
    records = read_journal(journal)
    assert records.torn is None  # the bad tail was removed before anything new was written
    assert [p["op"] for _, p in records.records][-3:] == ["open", "decide", "move"]


def test_damage_before_the_last_line_names_the_line(tmp_path):
    journal = tmp_path / "j"
    with ReviewSession.start(make_set(), journal) as session:
        for _ in range(4):
            session.accept()
    lines = journal.read_bytes().split(b"\n")
    lines[3] = lines[3].replace(b'"accepted"', b'"rejected"')  # hand-edited: checksum no longer fits
    journal.write_bytes(b"\n".join(lines))
    with pytest.raises(cg.EvalSetError) as caught:
        ReviewSession.start(make_set(), journal)
    assert str(caught.value).startswith(f"{journal}:4: damaged journal record")


def test_records_out_of_sequence_are_refused(tmp_path):
    journal = tmp_path / "j"
    with ReviewSession.start(make_set(), journal) as session:
        session.accept()
        session.accept()
    lines = journal.read_bytes().splitlines(keepends=True)
    journal.write_bytes(b"".join([lines[0], lines[1], lines[3], lines[2]]))
    with pytest.raises(cg.EvalSetError, match=r":3: journal record out of sequence"):
        read_journal(journal)


def test_a_journal_converted_to_crlf_line_endings_is_said_to_be_one(tmp_path):
    """It was "not a reviewtui journal", when it is one whose line endings something changed."""
    journal = tmp_path / "j"
    with ReviewSession.start(make_set(), journal) as session:
        session.accept()
    kept = journal.read_bytes()
    journal.write_bytes(kept.replace(b"\n", b"\r\n"))
    with pytest.raises(cg.EvalSetError, match=r"j:1: this journal's lines end in CR LF \(Windows line endings\)"):
        ReviewSession.start(make_set(), journal)
    assert journal.read_bytes() == kept.replace(b"\n", b"\r\n")  # refused, not rewritten


def test_other_files_are_never_taken_for_a_journal(tmp_path):
    impostor = tmp_path / "notes.txt"
    impostor.write_bytes(b"my precious notes\n")
    with pytest.raises(cg.EvalSetError, match="not a reviewtui journal"):
        ReviewSession.start(make_set(), impostor)
    assert impostor.read_bytes() == b"my precious notes\n"
    newer = tmp_path / "newer"
    newer.write_bytes(encode_record({"n": 0, "op": "start", "format": 99}))
    with pytest.raises(cg.EvalSetError, match="newer"):
        read_journal(newer)


def test_a_journal_of_another_set_is_refused(tmp_path):
    journal = tmp_path / "j"
    with ReviewSession.start(make_set(set_id="quiz"), journal) as session:
        session.accept()
    with pytest.raises(cg.EvalSetError, match="belongs to set 'quiz'.*not to 'other'"):
        ReviewSession.start(make_set(set_id="other"), journal)
    renamed = cg.EvalSet(
        id="quiz", items=tuple(it.replace(id=f"x{i}") for i, it in enumerate(make_set().items))
    )
    with pytest.raises(cg.EvalSetError, match="none of the 1 item"):
        ReviewSession.start(renamed, journal)


def test_decisions_on_changed_or_vanished_items_are_reported_not_applied(tmp_path):
    evalset = make_set()
    journal = tmp_path / "j"
    with ReviewSession.start(evalset, journal) as session:
        session.accept()  # q0: will change
        session.reject()  # q1: will vanish
        session.skip()  # q2: stays
        session.goto("q0")
        session.edit(question="Edited before the file changed?")  # q0 again
        session.undo()  # back to the accept on q0
        session.goto("q3")
        session.note("about q3")  # q3: stays, a draft note
        session.undo()  # takes back the note
    items = list(evalset.items)
    items[0] = items[0].replace(question="Someone rewrote this question in the file?")
    del items[1]
    changed = cg.EvalSet(id="quiz", items=tuple(items))
    with ReviewSession.start(changed, journal) as again:
        report = again.resume_report
        assert {(s.item_id, s.why) for s in report.stale} == {("q0", "changed"), ("q1", "vanished")}
        assert "2 earlier decisions not restored" in str(report)
        assert again.queue.decisions.keys() == {"q2"}
        assert again.queue.decision_for("q0") is None
        assert again.queue.note_for("q3") == ""
        # the note on q3 is still redoable: its undo was replayed, the q0 steps skipped
        assert [c.item_id for c in again.queue.future] == ["q3"]


def test_a_decision_taken_back_before_its_item_left_the_set_is_not_reported_as_not_restored(tmp_path):
    """Accept q0, accept q1, undo, then q1 removed from the file: status and export said "1 earlier decision not
    restored because its item changed or is gone: q1", of a decision that no longer stood."""
    evalset = make_set(4)
    journal = tmp_path / "j"
    with ReviewSession.start(evalset, journal) as session:
        session.accept()
        session.accept()
        session.undo()  # q1's accept taken back
        session.goto("q2")
        session.reject()
        session.undo()
        session.redo()  # q2's reject taken back and brought back: it stands
    gone = cg.EvalSet(id="quiz", items=tuple(item for item in evalset.items if item.id not in ("q1", "q2")))
    with ReviewSession.start(gone, journal) as again:
        report = again.resume_report
        assert [(s.item_id, s.why) for s in report.stale] == [("q2", "vanished")]
        assert "1 earlier decision not restored" in str(report) and "q1" not in str(report)


def test_a_changed_item_decided_again_after_resume_keeps_its_new_decision(tmp_path):
    evalset = make_set(3)
    journal = tmp_path / "j"
    with ReviewSession.start(evalset, journal) as session:
        session.accept()
    changed = cg.EvalSet(id="quiz", items=(evalset[0].replace(answer="new"), *evalset.items[1:]))
    with ReviewSession.start(changed, journal) as again:
        # Back where the reviewer left off (q1); q0 changed since its decision, which is not restored.
        assert again.queue.current.id == "q1" and again.queue.decision_for("q0") is None
        again.goto("q0")
        again.reject()
        again.accept()
        again.undo()
    with ReviewSession.start(changed, journal) as third:
        assert third.queue.decision_for("q0").verdict.value == "rejected"
        assert [c.item_id for c in third.queue.future] == ["q1"]


def test_the_writer_refuses_after_close(tmp_path):
    writer = JournalWriter.create(tmp_path / "j", {"set": "s"})
    writer.close()
    writer.close()
    with pytest.raises(cg.EvalSetError, match="closed"):
        writer.append({"op": "move", "id": None})
    assert len(read_journal(tmp_path / "j").records) == 1


def test_reading_a_missing_journal_gives_an_empty_one(tmp_path):
    contents = read_journal(tmp_path / "none")
    assert contents.records == [] and not contents.exists and contents.torn is None
    assert isinstance(contents.path, Path)


def test_durability_modes_decide_who_waits_for_the_disk(tmp_path, monkeypatch):
    import threading
    import time as _time

    calls: list[str] = []
    monkeypatch.setattr(journal_mod, "_datasync", lambda fd: calls.append(threading.current_thread().name))
    monkeypatch.setattr(journal_mod, "BATCH_SECONDS", 0.05)

    every = JournalWriter.create(tmp_path / "every", {"set": "s"}, durability="every")
    calls.clear()
    every.append({"op": "move", "id": None})
    every.append({"op": "move", "id": None})
    assert calls == ["MainThread", "MainThread"]
    every.append({"op": "move", "id": None}, sync=False)  # cursor moves never wait
    assert len(calls) == 2
    every.close()

    batched = JournalWriter.create(tmp_path / "batched", {"set": "s"})
    calls.clear()
    for _ in range(5):
        batched.append({"op": "move", "id": None})
    assert calls == []  # the caller did not wait
    deadline = _time.monotonic() + 5
    while not calls and _time.monotonic() < deadline:
        _time.sleep(0.01)
    assert calls and all(name == "reviewtui-journal-sync" for name in calls)
    assert len(calls) < 5  # one sync covered the burst
    batched.close()

    with pytest.raises(cg.EvalSetError, match="unknown durability 'sometimes'"):
        JournalWriter.create(tmp_path / "x", {"set": "s"}, durability="sometimes")


def test_a_failing_background_sync_is_reported_on_the_next_step(tmp_path, monkeypatch):
    import time as _time

    def broken(fd):
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(journal_mod, "BATCH_SECONDS", 0.01)
    writer = JournalWriter.create(tmp_path / "j", {"set": "s"})
    monkeypatch.setattr(journal_mod, "_datasync", broken)
    writer.append({"op": "move", "id": None})
    deadline = _time.monotonic() + 5
    while writer._background.error is None and _time.monotonic() < deadline:
        _time.sleep(0.01)
    with pytest.raises(cg.EvalSetError, match="could not be saved to disk"):
        writer.append({"op": "move", "id": None})
    writer.close()


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_random_sessions_resume_to_the_identical_state(tmp_path, seed):
    from crash_worker import make_steps, run_step, small_set

    evalset = small_set(25)
    journal = tmp_path / "j"
    steps = make_steps(seed, 150, len(evalset))
    with ReviewSession.start(evalset, journal) as session:
        for step in steps[:100]:
            run_step(session, step)
        halfway = state(session.queue)
    with ReviewSession.start(evalset, journal) as session:
        assert state(session.queue) == halfway
        for step in steps[100:]:
            run_step(session, step)
        finished = state(session.queue)
    with ReviewSession.start(evalset, journal) as session:
        assert state(session.queue) == finished


def test_the_advice_for_another_sets_journal_fits_how_it_was_found(tmp_path, capsys):
    """A journal named with --journal that belongs to another set was met with "move it aside or pass --journal",
    though --journal had been passed; the default journal beside the set keeps that advice."""
    from reviewtui.cli import main
    from reviewtui.evalset.io import write_jsonl

    items = (cg.EvalItem(id="q1", question="Who opens the hall?"),)
    mine = write_jsonl(cg.EvalSet(id="mine", items=items), tmp_path / "mine.jsonl")
    other = write_jsonl(cg.EvalSet(id="other", items=items), tmp_path / "other.jsonl")
    from reviewtui.evalset.review.session import ReviewSession

    with ReviewSession.open(other, reviewer="ana") as session:
        session.accept()
    other_journal = tmp_path / "other.jsonl.reviewtui-journal"
    assert main(["status", str(mine), "--journal", str(other_journal)]) == 2
    err = capsys.readouterr().err
    assert "belongs to set 'other'" in err and "leave --journal out" in err and "pass --journal" not in err
    other_journal.rename(tmp_path / "mine.jsonl.reviewtui-journal")
    assert main(["status", str(mine)]) == 2
    err = capsys.readouterr().err
    assert "belongs to set 'other'" in err and "move it aside or pass --journal" in err

"""Nothing written through a link, nothing hand-made taken on trust, nothing acknowledged lost.

The lock and the journal are the two files a review writes. Neither is ever
opened through a symbolic link or as anything but a plain file; the journal is
locked so that two sessions never append to it; a damaged but complete line is
refused rather than cut off; a record or lock with values of the wrong kind is
refused as ``path:line`` (or shown without them), never a traceback; and a
write that fails mid-review leaves the journal and the review exactly as they
were before the step.
"""

from __future__ import annotations

import errno
import fcntl
import os
import re
import socket
import threading
from pathlib import Path

import orjson
import pytest

import reviewtui as cg
from reviewtui.evalset.io import journal as journal_mod
from reviewtui.evalset.io import write_jsonl
from reviewtui.evalset.io.journal import (
    JournalWriteError,
    JournalWriter,
    decode_line,
    encode_record,
    read_journal,
)
from reviewtui.evalset.io.lock import LockHolder, ReviewLock, default_lock_path
from reviewtui.evalset.review.queue import ReviewQueue
from reviewtui.evalset.review.session import ReviewSession, load_review, status_lines
from tests.test_journal import as_if_crashed


def make_set(n: int = 6, set_id: str = "quiz") -> cg.EvalSet:
    return cg.EvalSet(
        id=set_id,
        items=tuple(
            cg.EvalItem(
                id=f"q{i}",
                question=f"What does clause {i} require?",
                anchors=(cg.GoldAnchor(source_id="h.pdf", quote=f"Clause {i} requires form {i}."),),
            )
            for i in range(n)
        ),
    )


def state(queue: ReviewQueue):
    return (queue.position, queue.decisions, queue.notes, queue.history, queue.future, queue.order, queue.counts())


@pytest.fixture
def quiz(tmp_path):
    return write_jsonl(make_set(), tmp_path / "quiz.jsonl")


def finishes(call, seconds: float = 10.0):
    """Run ``call`` in a thread; fail (instead of hanging the suite) if it blocks, e.g. opening a pipe."""
    outcome: dict[str, object] = {}

    def run() -> None:
        try:
            outcome["value"] = call()
        except Exception as exc:  # handed back to the test
            outcome["error"] = exc

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    assert not worker.is_alive(), "the call blocked"
    if "error" in outcome:
        raise outcome["error"]  # type: ignore[misc]
    return outcome.get("value")


def fifo_unblocker(path: Path):
    """Open a pipe's other end so a reader blocked on it (without the fix) is let go at the end."""
    fd = os.open(path, os.O_RDWR | os.O_NONBLOCK)
    return fd


# --- 1. the lock ------------------------------------------------------------------------


def test_a_lock_that_is_a_link_to_the_set_is_refused_and_the_set_untouched(quiz):
    before = quiz.read_bytes()
    lock = default_lock_path(quiz)
    lock.symlink_to(quiz.name)  # ln -s quiz.jsonl quiz.jsonl.reviewtui-lock
    with pytest.raises(cg.EvalSetError) as caught:
        ReviewSession.open(quiz)
    assert str(caught.value) == (
        f"{lock}: the lock file is a symbolic link; reviewtui never writes through a link, remove it"
    )
    assert quiz.read_bytes() == before
    assert lock.is_symlink()


def test_a_dangling_lock_link_is_refused_and_nothing_is_made_at_its_target(quiz, tmp_path):
    target = tmp_path / "elsewhere"
    default_lock_path(quiz).symlink_to(target)
    with pytest.raises(cg.EvalSetError, match="is a symbolic link"):
        ReviewSession.open(quiz)
    assert not target.exists()


def test_a_lock_that_is_a_hard_link_of_the_set_is_refused(quiz):
    before = quiz.read_bytes()
    os.link(quiz, default_lock_path(quiz))
    with pytest.raises(cg.EvalSetError, match=r"reviewtui-lock: the lock file has another name \(a hard link\)"):
        ReviewSession.open(quiz)
    assert quiz.read_bytes() == before


@pytest.mark.parametrize("kind", ["fifo", "folder"])
def test_a_lock_that_is_not_a_plain_file_is_refused_without_waiting(quiz, kind):
    lock = default_lock_path(quiz)
    if kind == "fifo":
        os.mkfifo(lock)
        keep = fifo_unblocker(lock)
    else:
        lock.mkdir()
    try:
        with pytest.raises(cg.EvalSetError) as caught:
            finishes(lambda: ReviewSession.open(quiz))
        what = "a named pipe" if kind == "fifo" else "a folder"
        assert str(caught.value).startswith(f"{lock}: the lock file is {what}, not a regular file")
        assert finishes(lambda: ReviewLock.holder(lock)) is None
    finally:
        if kind == "fifo":
            os.close(keep)


def test_a_journal_that_is_a_device_is_refused_and_the_advice_is_not_to_remove_it(quiz):
    with pytest.raises(cg.EvalSetError) as caught:
        finishes(lambda: ReviewSession.open(quiz, journal_path="/dev/null"))
    message = str(caught.value)
    assert message.startswith("/dev/null: the review journal is a device, not a regular file")
    assert "remove" not in message and message.endswith("give another path")


# --- 2. the journal is never reached through a link ---------------------------------------


def test_a_dangling_journal_link_is_refused_and_nothing_is_made_at_its_target(quiz, tmp_path):
    target = tmp_path / "target-journal"
    journal = quiz.with_name("quiz.jsonl.reviewtui-journal")
    journal.symlink_to(target)
    with pytest.raises(cg.EvalSetError) as caught:
        ReviewSession.open(quiz)
    assert str(caught.value).startswith(f"{journal}: the review journal is a symbolic link; reviewtui never writes")
    assert not target.exists()
    with pytest.raises(cg.EvalSetError, match="is a symbolic link"):
        load_review(quiz)


def test_a_journal_link_to_a_real_journal_is_refused_for_writing_and_reading(quiz, tmp_path):
    real = tmp_path / "real-journal"
    with ReviewSession.open(quiz, journal_path=real) as session:
        session.accept()
    before = real.read_bytes()
    link = tmp_path / "link-journal"
    link.symlink_to(real)
    with pytest.raises(cg.EvalSetError, match="is a symbolic link"):
        ReviewSession.open(quiz, journal_path=link)
    with pytest.raises(cg.EvalSetError, match="is a symbolic link"):
        read_journal(link)
    assert real.read_bytes() == before


def test_a_journal_that_is_a_pipe_or_a_folder_is_refused_without_waiting(quiz, tmp_path):
    pipe = tmp_path / "pipe-journal"
    os.mkfifo(pipe)
    keep = fifo_unblocker(pipe)
    try:
        with pytest.raises(cg.EvalSetError, match=r"pipe-journal: the review journal is a named pipe"):
            finishes(lambda: read_journal(pipe))
        with pytest.raises(cg.EvalSetError, match="is a named pipe"):
            finishes(lambda: ReviewSession.open(quiz, journal_path=pipe))
    finally:
        os.close(keep)
    folder = tmp_path / "folder-journal"
    folder.mkdir()
    with pytest.raises(cg.EvalSetError, match="is a folder, not a regular file"):
        ReviewSession.open(quiz, journal_path=folder)


# --- 3. one writer per journal --------------------------------------------------------------


def test_two_copies_of_a_set_sharing_a_journal_cannot_both_write_it(tmp_path):
    first = write_jsonl(make_set(), tmp_path / "a" / "quiz.jsonl")
    second = write_jsonl(make_set(), tmp_path / "b" / "quiz.jsonl")
    journal = tmp_path / "shared.journal"
    with ReviewSession.open(first, journal_path=journal, reviewer="ana") as session:
        session.accept()
        held = journal.read_bytes()
        with pytest.raises(cg.EvalSetError) as caught:
            ReviewSession.open(second, journal_path=journal, reviewer="bo")
        message = str(caught.value)
        assert message.startswith(
            f"{journal}: already in use by another review session "
            f"(pid {os.getpid()} on {socket.gethostname()} by ana, since "
        )
        assert message.endswith("finish or quit that session first, or give this review its own --journal")
        assert journal.read_bytes() == held  # the refused session wrote nothing
        assert not default_lock_path(second).exists()  # and let go of its own set's lock
        session.reject()  # the first session goes on undisturbed
        kept = state(session.queue)
    with ReviewSession.open(second, journal_path=journal) as later:  # free once the first has closed
        assert state(later.queue) == kept


def test_sessions_on_sets_in_memory_are_kept_apart_by_the_journal_too(tmp_path):
    journal = tmp_path / "j"
    with ReviewSession.start(make_set(), journal) as session:
        with pytest.raises(cg.EvalSetError, match="already in use by another review session"):
            ReviewSession.start(make_set(), journal)
        session.accept()
    with ReviewSession.start(make_set(), journal) as again:
        assert again.queue.decided == 1


def test_a_new_journal_made_meanwhile_by_another_session_is_not_overwritten(tmp_path):
    journal = tmp_path / "j"
    holder = JournalWriter.create(journal, {"set": "quiz"})
    try:
        holder.append({"op": "open", "at": 1_700_000_000.0, "by": "ana", "pid": 4242, "host": "box"})
        written = journal.read_bytes()
        with pytest.raises(cg.EvalSetError, match=r"already in use by another review session \(pid 4242 on box by ana"):
            JournalWriter.create(journal, {"set": "quiz"})
        assert journal.read_bytes() == written
    finally:
        holder.close()
    with pytest.raises(cg.EvalSetError, match="a file is already where the new journal should go"):
        JournalWriter.create(journal, {"set": "quiz"})
    assert journal.read_bytes() == written
    assert [p.name for p in tmp_path.iterdir()] == ["j"]  # no hidden file left behind


# --- 4. hand-made values ----------------------------------------------------------------------

HOSTILE = [[1], {"a": 1}, 7, -1, 0, "x", "", 1e308, -1e308, None, True, 2**63, "\x1b]0;owned\x07"]


@pytest.mark.parametrize("field", ["pid", "since", "host", "reviewer"])
@pytest.mark.parametrize("value", HOSTILE, ids=repr)
def test_a_hand_made_lock_is_shown_without_a_traceback(quiz, field, value):
    with ReviewSession.open(quiz) as session:  # status shows a holder only for a review under way
        session.accept()
    info = {"pid": 4242, "host": "box", "since": 1_700_000_000.0, "reviewer": "ana", field: value}
    data = orjson.dumps(info)
    described = LockHolder.parse(data).describe()
    assert "\x1b" not in described and "\x07" not in described
    lock = default_lock_path(quiz)
    lock.write_bytes(data)
    fd = os.open(lock, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # as if a session held it
        lines = status_lines(load_review(quiz))
        assert any(line.startswith("open for review now: ") for line in lines)
        with pytest.raises(cg.EvalSetError, match="already open for review by "):
            ReviewSession.open(quiz)
    finally:
        os.close(fd)
    with ReviewSession.open(quiz) as session:  # left behind by a crash: taken over and reported
        assert session.resume_report.recovered_lock is not None
        assert str(session.resume_report)


@pytest.mark.parametrize("since", [1e308, -1e308, float("inf"), float("nan"), -5e11])
def test_describing_a_holder_never_fails_on_its_time(since):
    text = LockHolder(pid=7, host="box", since=since, reviewer="ana").describe()
    assert text == "pid 7 on box by ana"


def busy_journal(tmp_path: Path) -> tuple[cg.EvalSet, Path]:
    evalset = make_set(8)
    journal = tmp_path / "real.journal"
    with ReviewSession.start(evalset, journal, reviewer="ana", durability="close") as session:
        session.accept(note="fine")
        session.reject(note="asked twice", reason="duplicate")
        session.note("check annex")
        session.edit(question="Edited?", grade=1)
        session.skip()
        session.undo()
        session.redo()
        session.previous()
        session.set_order([7, 6])
        session.goto("q7")
        session.reject(reason="ambiguous")
        session.set_order(None)
        session.next()
    return evalset, journal


def check_hostile_journal(evalset: cg.EvalSet, journal: Path, original: bytes) -> str:
    """Open a doctored journal both ways; returns "ok" or the refusal, and fails on anything else."""
    where = re.compile(re.escape(str(journal)) + r":\d+: ")
    outcomes = []
    for opening in ("read", "session"):
        try:
            if opening == "read":
                loaded = load_review("quiz.jsonl", journal_path=journal, evalset=evalset)
                assert all(isinstance(line, str) for line in status_lines(loaded))
                assert str(loaded.report)
            else:
                with ReviewSession.start(evalset, journal, durability="close") as session:
                    assert str(session.resume_report)
                    assert session.status_lines()
        except cg.EvalSetError as exc:
            assert where.match(str(exc)), str(exc)
            assert journal.read_bytes() == original  # a refused journal is left as it was
            outcomes.append(str(exc))
        else:
            outcomes.append("ok")
    assert (outcomes[0] == "ok") == (outcomes[1] == "ok"), outcomes
    return outcomes[0]


def test_every_field_of_every_record_with_hostile_values_is_refused_by_line_or_accepted(tmp_path):
    evalset, journal = busy_journal(tmp_path)
    lines = journal.read_bytes().splitlines(keepends=True)
    records = [decode_line(line[:-1]) for line in lines]
    assert {r["op"] for r in records} == {"start", "open", "decide", "note", "undo", "redo", "move", "order"}
    refused = accepted = 0
    for at, record in enumerate(records):
        for key in record:
            variants = [{**record, key: value} for value in HOSTILE]
            variants.append({k: v for k, v in record.items() if k != key})  # the field left out
            if key == "item":  # the edited item's own fields too
                variants.extend({**record, "item": {**record["item"], name: value}} for name in record["item"] for value in HOSTILE)
            for variant in variants:
                doctored = b"".join([*lines[:at], encode_record(variant), *lines[at + 1 :]])
                journal.write_bytes(doctored)
                outcome = check_hostile_journal(evalset, journal, doctored)
                if outcome == "ok":
                    accepted += 1
                else:
                    refused += 1
                    assert outcome.startswith(f"{journal}:"), outcome
    assert refused > 500 and accepted > 20  # both kinds happened: the checks are neither absent nor blanket


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"op": ["decide"]}, r":3: journal record: 'op' must be the name of a step, not \['decide'\]"),
        ({"id": 7}, r":3: journal record: 'id' must be a string, not 7"),
        ({"secs": 1e308}, r":3: journal record: 'secs' must be a time on screen from 0 to \d+ seconds, not 1e\+308"),
        ({"secs": -1}, r":3: journal record: 'secs' must be a time on screen"),
        ({"secs": "3"}, r":3: journal record: 'secs' must be a time on screen"),
        ({"at": 1e308}, r":3: journal record: 'at' must be a time"),
        ({"v": "approved"}, r":3: journal record: 'v' must be a verdict"),
        ({"op": "teleport"}, r":3: unknown journal step 'teleport'"),
        ({"n": 2.0}, r":3: journal record out of sequence \(numbered 2\.0, expected 2\)"),
    ],
)
def test_hand_made_decisions_are_refused_with_their_line(tmp_path, change, message):
    journal = tmp_path / "j"
    with ReviewSession.start(make_set(), journal) as session:
        session.accept()
    lines = journal.read_bytes().splitlines(keepends=True)
    lines[2] = encode_record({**decode_line(lines[2][:-1]), **change})
    journal.write_bytes(b"".join(lines))
    with pytest.raises(cg.EvalSetError, match=re.escape(str(journal)) + message):
        load_review("quiz.jsonl", journal_path=journal, evalset=make_set())


def test_a_refused_journal_names_a_hand_made_holder_safely(tmp_path):
    journal = tmp_path / "j"
    with ReviewSession.start(make_set(), journal) as session:
        session.accept()
    with journal.open("ab") as out:
        out.write(encode_record({"n": 3, "op": "open", "at": 1e308, "by": ["x"], "pid": -4, "host": "\x1b[2J"}))
    fd = os.open(journal, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_SH)  # another session writing it
        with pytest.raises(cg.EvalSetError) as caught:
            ReviewSession.start(make_set(), journal)
        assert str(caught.value).startswith(f"{journal}: already in use by another review session (another process on ")
        assert "\x1b" not in str(caught.value)
    finally:
        os.close(fd)


# --- 5. damage is not a crash, and other files are not journals -----------------------------


def test_a_bit_flip_in_the_last_whole_line_is_damage_not_an_interruption(tmp_path):
    journal = tmp_path / "j"
    with ReviewSession.start(make_set(), journal) as session:
        session.accept()
        session.reject()
    as_if_crashed(journal)
    data = bytearray(journal.read_bytes())
    data[-20] ^= 0x04  # inside the last record, whose newline is intact
    journal.write_bytes(bytes(data))
    for opening in (
        lambda: ReviewSession.start(make_set(), journal),
        lambda: load_review("quiz.jsonl", journal_path=journal, evalset=make_set()),
    ):
        with pytest.raises(cg.EvalSetError) as caught:
            opening()
        assert str(caught.value).startswith(f"{journal}:4: damaged journal record")
        assert journal.read_bytes() == bytes(data)  # not cut off, on any attempt


def test_text_added_after_the_last_record_is_not_taken_for_a_cut_record(tmp_path):
    journal = tmp_path / "j"
    with ReviewSession.start(make_set(), journal) as session:
        session.accept()
    as_if_crashed(journal)
    data = journal.read_bytes() + b"my note"
    journal.write_bytes(data)
    with pytest.raises(cg.EvalSetError, match=r":4: the journal ends in text that is not the start of a record"):
        ReviewSession.start(make_set(), journal)
    assert journal.read_bytes() == data


def test_zeros_left_by_a_power_cut_are_still_dropped_as_a_cut_record(tmp_path):
    journal = tmp_path / "j"
    with ReviewSession.start(make_set(), journal) as session:
        session.accept()
    whole = journal.read_bytes()
    journal.write_bytes(whole + b"\0" * 300)
    with ReviewSession.start(make_set(), journal) as again:
        assert "cut short" in again.resume_report.torn
        assert again.queue.decided == 1
    assert journal.read_bytes().startswith(whole) and b"\0" not in journal.read_bytes()


@pytest.mark.parametrize("written", [b"{", b'{"c', b'{"c":', b'{"c":"', b'{"c":"ab12'])
def test_a_records_first_bytes_then_zeros_are_dropped_as_a_cut_record(tmp_path, written):
    """A record whose first bytes reached the disk before a power cut, and the rest of its block did not: with
    fewer than six of them it was refused as a file changed by something other than reviewtui."""
    journal = tmp_path / "j"
    with ReviewSession.start(make_set(), journal) as session:
        session.accept()
    whole = journal.read_bytes()
    journal.write_bytes(whole + written + b"\0" * 200)
    with ReviewSession.start(make_set(), journal) as again:
        assert "cut short" in again.resume_report.torn
        assert again.queue.decided == 1
    assert journal.read_bytes().startswith(whole) and b"\0" not in journal.read_bytes()


def test_text_then_zeros_is_still_not_taken_for_a_cut_record(tmp_path):
    journal = tmp_path / "j"
    with ReviewSession.start(make_set(), journal) as session:
        session.accept()
    data = journal.read_bytes() + b"my note" + b"\0" * 20
    journal.write_bytes(data)
    with pytest.raises(cg.EvalSetError, match=r"the journal ends in text that is not the start of a record"):
        ReviewSession.start(make_set(), journal)
    assert journal.read_bytes() == data
    # a record's first bytes, zeros, then text again: not what a power cut leaves (zeros to the end)
    data = data[: -len(b"my note") - 20] + b'{"c' + b"\0" * 20 + b"appended by hand"
    journal.write_bytes(data)
    with pytest.raises(cg.EvalSetError, match=r"the journal ends in text that is not the start of a record"):
        ReviewSession.start(make_set(), journal)
    assert journal.read_bytes() == data


@pytest.mark.parametrize(
    "content",
    [b"", b"my notes without a newline", b'{"c":"0000', b'{"id": "q0", "question": "Q?"}'],
    ids=["empty", "text", "torn header", "one json line"],
)
def test_a_file_with_no_whole_record_is_never_written_as_a_journal(quiz, tmp_path, content):
    other = tmp_path / "notes.txt"
    other.write_bytes(content)
    with pytest.raises(cg.EvalSetError) as caught:
        ReviewSession.open(quiz, journal_path=other)
    assert str(caught.value).startswith(f"{other}:")
    assert other.read_bytes() == content


def test_the_set_itself_given_as_the_journal_of_another_session_is_left_alone(quiz):
    before = quiz.read_bytes()
    with pytest.raises(cg.EvalSetError, match=r"quiz.jsonl:1: this is not a reviewtui journal"):
        ReviewSession.start(make_set(), quiz)
    assert quiz.read_bytes() == before


# --- 6. a failing disk -------------------------------------------------------------------------


def test_a_full_disk_keeps_every_saved_decision_and_says_the_last_was_not_saved(tmp_path, monkeypatch):
    journal = tmp_path / "j"
    real_write = os.write
    with ReviewSession.start(make_set(), journal, reviewer="ana") as session:
        session.accept()
        session.reject(reason="duplicate")
        saved = journal.read_bytes()
        before = state(session.queue)

        def full_disk(fd, data):
            real_write(fd, data[:25])  # a part gets out, then the disk is full
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        monkeypatch.setattr(journal_mod.os, "write", full_disk)
        with pytest.raises(JournalWriteError) as caught:
            session.accept(note="lost")
        monkeypatch.setattr(journal_mod.os, "write", real_write)
        assert str(caught.value) == (
            f"{journal}: the last step was not saved (No space left on device); every earlier decision is on disk"
        )
        assert journal.read_bytes() == saved
        assert state(session.queue) == before  # the screen does not run ahead of the disk
        assert state(load_review("quiz.jsonl", journal_path=journal, evalset=make_set()).queue) == before
        session.accept(note="again")  # space freed: the same step goes through
        done = state(session.queue)
    with ReviewSession.start(make_set(), journal) as again:
        assert state(again.queue) == done
        assert [d.note for d in again.queue.decisions.values()] == ["", "", "again"]


def test_a_review_opened_on_a_full_disk_says_it_cannot_open_and_keeps_every_decision(tmp_path, monkeypatch):
    path = write_jsonl(make_set(), tmp_path / "quiz.jsonl")
    with ReviewSession.open(path, reviewer="ana") as session:
        session.accept()
        journal = session.journal_path
    saved = journal.read_bytes()
    real_write = os.write

    def full_disk(fd, data):
        real_write(fd, data[:10])  # the start of the session's first record gets out, then the disk is full
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(journal_mod.os, "write", full_disk)
    with pytest.raises(JournalWriteError) as caught:
        ReviewSession.open(path, reviewer="ana")
    monkeypatch.undo()
    assert str(caught.value) == (
        f"{journal}: the review cannot open: the journal cannot take the record of this session's start "
        "(No space left on device); every decision in it is kept: free some space on its disk and open the review again"
    )
    assert journal.read_bytes() == saved
    assert not default_lock_path(path).exists()  # the lock is given back
    with ReviewSession.open(path, reviewer="ana") as again:  # space freed: it opens as it was left
        assert again.queue.decided == 1


@pytest.mark.parametrize("failure", ["zero", "short-then-error", "sync"])
def test_every_kind_of_failed_write_is_cut_back_to_the_last_whole_record(tmp_path, monkeypatch, failure):
    journal = tmp_path / "j"
    real_write = os.write
    calls = {"n": 0}

    def write_nothing(fd, data):
        calls["n"] += 1
        if calls["n"] > 1000:  # a writer that loops on a zero-length write never gets out
            raise RuntimeError("kept writing nothing")
        return 0

    def short_then_error(fd, data):
        calls["n"] += 1
        if calls["n"] == 1:
            return real_write(fd, data[: len(data) // 2])
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    def failing_sync(fd):
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    with ReviewSession.start(make_set(), journal) as session:
        session.accept()
        saved = journal.read_bytes()
        before = state(session.queue)
        if failure == "sync":
            monkeypatch.setattr(journal_mod, "_datasync", failing_sync)
        else:
            monkeypatch.setattr(journal_mod.os, "write", write_nothing if failure == "zero" else short_then_error)
        with pytest.raises(JournalWriteError, match=r"the last step was not saved \(.+\); every earlier decision"):
            session.reject()
        monkeypatch.undo()
        assert journal.read_bytes() == saved
        assert state(session.queue) == before
        session.skip()
    with ReviewSession.start(make_set(), journal) as again:
        assert [d.verdict.value for d in again.queue.decisions.values()] == ["accepted", "skipped"]


def test_a_journal_that_cannot_be_cut_back_takes_no_more_steps(tmp_path, monkeypatch):
    journal = tmp_path / "j"
    real_write = os.write

    def full_disk(fd, data):
        real_write(fd, data[:25])
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def broken_truncate(fd, size):
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    with ReviewSession.start(make_set(), journal) as session:
        session.accept()
        monkeypatch.setattr(journal_mod.os, "write", full_disk)
        monkeypatch.setattr(journal_mod.os, "ftruncate", broken_truncate)
        with pytest.raises(JournalWriteError, match="could not be cut back to its last whole record"):
            session.reject()
        monkeypatch.undo()
        assert session.queue.decided == 1
        # the torn bytes are still at the end: appending after them would bury them mid-file
        with pytest.raises(JournalWriteError, match="could not be cut back"):
            session.skip()
    with ReviewSession.start(make_set(), journal) as again:  # the cut record is dropped on reopening
        assert "cut short" in again.resume_report.torn
        assert [d.verdict.value for d in again.queue.decisions.values()] == ["accepted"]


# --- the journal replaced on disk while the review runs -----------------------------------


@pytest.mark.parametrize("how", ["replaced", "removed"])
def test_a_journal_replaced_on_disk_takes_no_step_into_the_file_that_is_gone(quiz, how):
    """`git pull` or `git checkout` of a journal kept in git (a sync tool, an editor saving it) puts a new file at its
    name: the session went on appending to the old one, deleted, each step shown as saved and lost on reopening."""
    session = ReviewSession.open(quiz, reviewer="ana")
    try:
        session.accept()
        journal = session.journal_path
        if how == "replaced":
            copy = journal.with_name("copy")
            copy.write_bytes(journal.read_bytes())
            os.replace(copy, journal)
        else:
            os.unlink(journal)
        shown = state(session.queue)
        with pytest.raises(JournalWriteError) as caught:
            session.accept()
        assert f"the review journal was {how}" in str(caught.value)
        assert state(session.queue) == shown  # nothing moved: the step was not made
        assert session.unsaved_steps == 1
    finally:
        session.close()
    if how == "replaced":  # the file there is as it was put there: nothing written into it, nor lost from it
        decided = [decode_line(line)["id"] for line in journal.read_bytes().splitlines() if b'"decide"' in line]
        assert decided == ["q0"]


def test_the_command_line_says_where_the_steps_before_a_replaced_journal_went(quiz):
    from reviewtui.cli.review import _unsaved_steps

    session = ReviewSession.open(quiz, reviewer="ana")
    try:
        session.accept()
        os.unlink(session.journal_path)
        with pytest.raises(JournalWriteError):
            session.accept()
    finally:
        session.close()
    said = _unsaved_steps(session)
    assert "1 step of this review was not made" in said and "the review journal was removed" in said
    assert "every step the review showed as made is in the journal" not in said  # not true here


@pytest.mark.parametrize("how", ["replaced", "removed"])
def test_the_quit_says_a_journal_replaced_after_the_last_step(quiz, how):
    """A `git pull` of the journal and then the quit key: no step was refused, so the quit said nothing and the command
    exited 0, while the decisions made went to the file that was gone and the review reopened without them."""
    from reviewtui.cli.review import _unsaved_steps

    session = ReviewSession.open(quiz, reviewer="ana")
    try:
        session.accept()
        journal = session.journal_path
        if how == "replaced":
            copy = journal.with_name("copy")
            copy.write_bytes(b"")
            os.replace(copy, journal)
        else:
            os.unlink(journal)
    finally:
        session.close()
    said = _unsaved_steps(session)
    assert f"the review journal was {how}" in said and "while the review was open" in said
    # what the review wrote is kept beside the name: the old file itself was gone once the session let go of it
    kept = journal.with_name(journal.name + ".kept")
    assert f"is kept as {kept}" in said
    with ReviewSession.open(quiz, reviewer="ana", journal_path=kept) as again:  # the kept file resumes the review
        assert [d.verdict.value for d in again.queue.decisions.values()] == ["accepted"]


def test_the_quit_says_nothing_of_a_journal_left_in_place(quiz):
    from reviewtui.cli.review import _unsaved_steps

    session = ReviewSession.open(quiz, reviewer="ana")
    try:
        session.accept()
    finally:
        session.close()
    assert _unsaved_steps(session) == ""

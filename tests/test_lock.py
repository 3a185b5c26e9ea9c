"""One session per set: a second one is refused by name, a dead one's lock is taken over."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import textwrap

import pytest

import reviewtui as cg
from reviewtui.evalset.io.lock import LockHolder, ReviewLock, default_lock_path

HOLD_LOCK = textwrap.dedent(
    """
    import sys, time
    from reviewtui.evalset.io.lock import ReviewLock
    lock = ReviewLock.acquire(sys.argv[1], subject="quiz.jsonl", reviewer="dora")
    print("locked", flush=True)
    time.sleep(60)
    """
)


def test_the_lock_file_sits_beside_the_set(tmp_path):
    assert default_lock_path(tmp_path / "quiz.jsonl") == tmp_path / "quiz.jsonl.reviewtui-lock"


def test_a_second_claim_is_refused_naming_the_holder(tmp_path):
    path = tmp_path / "quiz.jsonl.reviewtui-lock"
    with ReviewLock.acquire(path, subject="quiz.jsonl", reviewer="ana") as first:
        assert first.recovered is None
        with pytest.raises(cg.EvalSetError) as caught:
            ReviewLock.acquire(path, subject="quiz.jsonl")
        message = str(caught.value)
        assert message.startswith("quiz.jsonl: already open for review by ")
        assert f"pid {os.getpid()} on {socket.gethostname()} by ana, since " in message
        holder = ReviewLock.holder(path)
        assert holder.pid == os.getpid() and holder.reviewer == "ana"
    assert not path.exists()  # a clean release leaves nothing behind
    assert ReviewLock.holder(path) is None
    with ReviewLock.acquire(path, subject="quiz.jsonl") as again:
        assert again.held and again.recovered is None
    assert not again.held


def test_a_lock_held_by_another_process_then_left_by_its_death(tmp_path):
    path = tmp_path / "quiz.jsonl.reviewtui-lock"
    child = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, str(path)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout.readline().strip() == "locked"
        with pytest.raises(cg.EvalSetError, match=rf"already open for review by pid {child.pid} on .* by dora"):
            ReviewLock.acquire(path, subject="quiz.jsonl")
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    assert path.exists()  # the dead process could not clean up
    with ReviewLock.acquire(path, subject="quiz.jsonl") as taken:
        assert taken.recovered is not None and taken.recovered.pid == child.pid
        assert f"pid {child.pid}" in taken.recovered.describe()


def test_a_lock_file_with_junk_in_it_is_still_usable(tmp_path):
    path = tmp_path / "l"
    path.write_bytes(b"\x00\x00garbage")
    with ReviewLock.acquire(path, subject="s") as taken:
        assert taken.recovered is None
        assert LockHolder.parse(path.read_bytes()).pid == os.getpid()


def test_a_holder_name_no_writer_can_write_leaves_the_lock_free(tmp_path):
    """A login name that is not UTF-8 raised out of the lock's writing with the lock held and its file emptied."""
    path = tmp_path / "s.jsonl.reviewtui-lock"
    with pytest.raises(TypeError):
        ReviewLock.acquire(path, subject=str(tmp_path / "s.jsonl"), reviewer="x\udcff")
    lock = ReviewLock.acquire(path, subject=str(tmp_path / "s.jsonl"), reviewer="ana")  # not held by the failed one
    try:
        assert ReviewLock.holder(path) is not None
    finally:
        lock.release()


def test_a_lock_beside_its_set_is_named_alone_however_the_set_was_named(tmp_path, monkeypatch):
    """Given as a relative path, the set's folder was "." and the lock's the full one: the lock was named in full."""
    (tmp_path / "s.jsonl").write_text("")
    held = ReviewLock.acquire(default_lock_path(tmp_path / "s.jsonl"), subject=str(tmp_path / "s.jsonl"), reviewer="ana")
    try:
        monkeypatch.chdir(tmp_path)
        with pytest.raises(cg.EvalSetError) as refused:
            ReviewLock.acquire(default_lock_path(tmp_path / "s.jsonl"), subject="s.jsonl", reviewer="bo")
        assert str(refused.value).endswith("(the lock is s.jsonl.reviewtui-lock)")
    finally:
        held.release()


def test_a_session_claims_the_set_file_itself_by_whatever_name_it_was_given(tmp_path):
    """The claim is on the file, so a command about to replace it sees the review by any name; it goes with the lock."""
    from reviewtui.evalset.io.lock import under_review

    quiz = tmp_path / "quiz.jsonl"
    quiz.write_text("{}\n")
    os.link(quiz, tmp_path / "hard.jsonl")
    (tmp_path / "soft.jsonl").symlink_to(quiz)
    assert not under_review(quiz)
    lock = ReviewLock.acquire(tmp_path / "l", subject=str(tmp_path / "soft.jsonl"))
    try:
        assert under_review(quiz) and under_review(tmp_path / "hard.jsonl")
        assert not under_review(tmp_path / "soft.jsonl")  # a link is not followed: writing there is refused as a link
        assert not under_review(tmp_path / "missing.jsonl")
        with ReviewLock.acquire(tmp_path / "l2", subject=str(quiz)):  # another session alongside (a team's member)
            assert under_review(quiz)
        assert under_review(quiz)
    finally:
        lock.release()
    assert not under_review(quiz)


def test_a_set_that_cannot_be_claimed_still_opens_for_review(tmp_path):
    """A pipe (the set read from /dev/stdin) has no file to claim: the session's lock is all there is."""
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    with ReviewLock.acquire(tmp_path / "l", subject=str(pipe)) as lock:
        assert lock.held
    with ReviewLock.acquire(tmp_path / "l", subject=str(tmp_path / "gone.jsonl")) as lock:
        assert lock.held


def test_another_programs_lock_on_a_file_is_not_taken_for_a_review(tmp_path):
    """`flock log.txt -c 'reviewtui status quiz.jsonl >> log.txt'` was refused: any lock on the file read as a session's."""
    import fcntl

    from reviewtui.evalset.io.lock import under_review

    log = tmp_path / "log.txt"
    log.write_text("earlier lines\n")
    with open(log, "rb") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # what flock(1) takes
        assert not under_review(log)
    with open(log, "r+b") as held:
        fcntl.lockf(held, fcntl.LOCK_EX)  # a whole-file record lock (lockf, F_SETLK)
        assert not under_review(log)


def test_a_folder_set_under_review_has_its_files_claimed(tmp_path):
    """A BEIR folder under review had nothing claimed: `convert x.jsonl fiqa/queries.jsonl --force` replaced its queries."""
    from reviewtui.evalset.io.lock import under_review

    folder = tmp_path / "fiqa"
    (folder / "qrels").mkdir(parents=True)
    for name in ("queries.jsonl", "corpus.jsonl", "qrels/test.tsv"):
        (folder / name).write_text("x\n")
    with ReviewLock.acquire(tmp_path / "l", subject=str(folder)):
        assert all(under_review(folder / name) for name in ("queries.jsonl", "corpus.jsonl", "qrels/test.tsv"))
    assert not any(under_review(folder / name) for name in ("queries.jsonl", "corpus.jsonl", "qrels/test.tsv"))


def test_a_claim_behind_another_programs_whole_file_lock_is_still_seen(tmp_path):
    """A whole-file read lock taken before the session (lockf, an office program's) hid the session's claim: the
    system names one conflicting lock only, and --force replaced the set under review."""
    from reviewtui.evalset.io.lock import under_review

    quiz = tmp_path / "quiz.jsonl"
    quiz.write_text("{}\n")
    holding = "import fcntl, sys, time\nf = open(sys.argv[1], 'rb')\nfcntl.lockf(f, fcntl.LOCK_SH)\nprint('held', flush=True)\ntime.sleep(60)\n"
    other = subprocess.Popen([sys.executable, "-c", holding, str(quiz)], stdout=subprocess.PIPE, text=True)
    try:
        assert other.stdout.readline().strip() == "held"
        assert not under_review(quiz)  # that program's lock alone is no review
        with ReviewLock.acquire(default_lock_path(quiz), subject=str(quiz)):
            assert under_review(quiz)
    finally:
        other.kill()
        other.wait()



def test_a_folder_of_many_files_has_its_beir_parts_claimed_first(tmp_path):
    """Seventy notes in a BEIR folder took the quota of claimed files, and its queries could be replaced."""
    from reviewtui.evalset.io.lock import under_review

    folder = tmp_path / "scifact"
    (folder / "qrels").mkdir(parents=True)
    for name in ("queries.jsonl", "corpus.jsonl", "qrels/test.tsv"):
        (folder / name).write_text("x\n")
    for k in range(70):
        (folder / f"a_note_{k:02d}.txt").write_text("x\n")
    with ReviewLock.acquire(tmp_path / "l", subject=str(folder)):
        assert all(under_review(folder / name) for name in ("queries.jsonl", "corpus.jsonl", "qrels/test.tsv"))

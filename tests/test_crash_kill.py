"""kill -9 at random moments: every step whose call returned is in the journal, and nothing else.

A reviewer process (``crash_worker``) makes a seeded series of steps and reports
each one after it returns; it is killed with SIGKILL at random points (during
opening, between steps, in the middle of a journal write). Replaying its journal
must give the state of the same steps made on a plain queue: all the reported
ones, plus at most the one that was under way when the signal landed.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from crash_worker import make_steps, normalized, run_step, small_set

from reviewtui.evalset.io import write_jsonl
from reviewtui.evalset.review.queue import ReviewQueue
from reviewtui.evalset.review.session import ReviewSession, load_review

WORKER = Path(__file__).with_name("crash_worker.py")
STEPS = 90


def reference_states(seed: int) -> list[tuple]:
    """State after 0, 1, … STEPS steps on a bare queue."""
    evalset = small_set()
    queue = ReviewQueue.from_evalset(evalset)
    states = [normalized(queue)]
    for step in make_steps(seed, STEPS, len(evalset)):
        run_step(queue, step)
        states.append(normalized(queue))
    return states


def reported(lines: bytes) -> int:
    done = [int(x) for x in lines.split(b"\n")[:-1] if x.strip()]  # only whole lines
    assert done == list(range(1, len(done) + 1))
    return len(done)


def check_replay(set_path: Path, journal: Path, seed: int, returned: int, states: list[tuple]) -> None:
    replayed = normalized(load_review(set_path, journal_path=journal).queue)
    allowed = states[returned : returned + 2]
    assert replayed in allowed, f"seed {seed}: replay matches neither {returned} nor {returned + 1} steps"


@pytest.fixture(scope="module")
def quiz(tmp_path_factory):
    return write_jsonl(small_set(), tmp_path_factory.mktemp("crash") / "quiz.jsonl")


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_forked_reviewers_killed_at_many_random_points(quiz, tmp_path):
    rng = random.Random(2024)
    seed = 11
    states = reference_states(seed)
    kills = 0
    for attempt in range(30):
        journal = tmp_path / f"j{attempt}"
        read_end, write_end = os.pipe()
        pid = os.fork()
        if pid == 0:  # the reviewer
            try:
                os.close(read_end)
                session = ReviewSession.open(quiz, journal_path=journal, reviewer="crash")
                for number, step in enumerate(make_steps(seed, STEPS, len(session.queue)), 1):
                    run_step(session, step)
                    os.write(write_end, b"%d\n" % number)
                session.close()
            finally:
                os._exit(0)
        os.close(write_end)
        wait_for = rng.randint(0, STEPS - 30)
        seen = b""
        while seen.count(b"\n") < wait_for:
            chunk = os.read(read_end, 4096)
            if not chunk:
                break
            seen += chunk
        time.sleep(rng.random() * 0.0015)
        os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
        kills += os.WIFSIGNALED(status)
        while chunk := os.read(read_end, 4096):
            seen += chunk
        os.close(read_end)
        check_replay(quiz, journal, seed, reported(seen), states)
    assert kills >= 10  # the signal did land mid-review (not only after the last step)


def test_a_real_subprocess_killed_mid_review(quiz, tmp_path):
    rng = random.Random(7)
    seed = 5
    states = reference_states(seed)
    for attempt in range(2):
        journal = tmp_path / f"sub{attempt}"
        child = subprocess.Popen(
            [sys.executable, str(WORKER), str(quiz), str(journal), str(seed), str(STEPS), "every", "0.002"],
            stdout=subprocess.PIPE,
        )
        wait_for = rng.randint(1, STEPS - 20)
        seen = b""
        while seen.count(b"\n") < wait_for:
            chunk = os.read(child.stdout.fileno(), 4096)
            if not chunk:
                break
            seen += chunk
        time.sleep(rng.random() * 0.004)
        child.send_signal(signal.SIGKILL)
        child.wait()
        seen += child.stdout.read()
        child.stdout.close()
        assert child.returncode == -signal.SIGKILL
        returned = reported(seen)
        assert returned < STEPS
        check_replay(quiz, journal, seed, returned, states)
        # and the killed session's lock did not keep the next one out
        with ReviewSession.open(quiz, journal_path=journal) as after:
            assert after.resume_report.recovered_lock is not None
            assert after.resume_report.recovered_lock.pid == child.pid

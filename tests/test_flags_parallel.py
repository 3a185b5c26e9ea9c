"""scan_flags on two cores: the same result as on one, a fallback where forking is unsafe, and no stray child."""

from __future__ import annotations

import _thread
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import reviewtui as cg
from reviewtui.evalset.checks import scan as flags_mod
from reviewtui.evalset.checks import simjoin
from reviewtui.evalset.checks.review_filters import review_cautions
from reviewtui.evalset.checks.scan import scan_flags
from reviewtui.evalset.checks.scan_parts import AuditHalf
from reviewtui.evalset.jobs import fork as forkjob
from reviewtui.evalset.jobs.cancel import ScanCancelled
from reviewtui.evalset.jobs.fork import ForkedJob, WorkerError, can_fork
from reviewtui.evalset.model.flag import Flag, Severity
from tests.test_flags import random_set

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from synth import generate_evalset  # noqa: E402

from tests.threads import only_this_thread  # noqa: E402


@pytest.fixture
def fork_allowed(monkeypatch):
    """Let scan_flags fork here although a library imported by another test module (numpy, through
    goldensetauditor) keeps idle threads of its own; can_fork's own checks are tested apart."""
    if not hasattr(os, "fork"):
        pytest.skip("no os.fork on this system")
    if not only_this_thread():
        pytest.skip("another Python thread is running in this test process")
    monkeypatch.setattr(flags_mod, "can_fork", lambda: True)


def fingerprint(scan):
    """Everything a scan returns, in order, as plain values."""
    return (
        [(item_id, [flag.to_dict() for flag in item_flags]) for item_id, item_flags in scan.flags.items()],
        [str(entry) for entry in scan.cautions],
        scan.audit.to_dict(),
        [item.id for item in scan.chain.kept],
        [(r.item_id, r.filter, r.reason, r.related_ids) for r in scan.chain.rejected],
        [str(entry) for entry in scan.chain.warnings],
        scan.size,
        list(scan.counts.items()),
    )


@pytest.fixture
def exits(monkeypatch):
    """How each reaped child ended: {pid: wait status}."""
    statuses: dict[int, int] = {}
    real_waitpid = os.waitpid

    def waitpid(pid: int, options: int) -> tuple[int, int]:
        done, status = real_waitpid(pid, options)
        if done:
            statuses[done] = status
        return done, status

    monkeypatch.setattr(os, "waitpid", waitpid)
    return statuses


def killed(status: int) -> bool:
    return os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL


def reaped(pid: int) -> bool:
    """True when ``pid`` is no longer a child of ours, running or waiting to be reaped."""
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


def options(evalset: cg.EvalSet, seed: int) -> dict:
    rng = random.Random(seed)
    replies = {item.question: rng.choice(["Paris", "unknown", "the leave policy"]) for item in evalset}
    first = evalset.items[0].id
    return {
        "baseline_scores": {item.id: rng.choice([0.0, 0.5, 1.0]) for item in evalset},
        "answerer": replies.__getitem__,
        "evidence_flags": {first: [Flag("evidence-not-found", Severity.HIGH, "quote not found")], "absent": []},
    }


def with_copies(evalset: cg.EvalSet, seed: int) -> cg.EvalSet:
    """The set with some questions repeated word for word: exact duplicates, and conflicting answers."""
    rng = random.Random(seed)
    items = list(evalset.items)
    for k in range(len(items) // 10):
        source = rng.choice(items)
        answer = source.answer if rng.random() < 0.5 else "a different answer altogether"
        items.append(source.model_copy(update={"id": f"copy-{k}", "answer": answer}))
    rng.shuffle(items)
    return evalset.with_items(items)


@pytest.fixture
def vector_join_in_child(monkeypatch):
    """The child's joins use numpy whatever the size of the set (the one-core scan keeps the sweep)."""
    monkeypatch.setattr(simjoin, "VECTOR_FROM", 2)


@pytest.mark.usefixtures("fork_allowed", "vector_join_in_child")
@pytest.mark.parametrize("seed", range(12))
def test_two_cores_give_the_same_scan_as_one_on_random_sets(seed, forks):
    evalset = with_copies(random_set(seed), seed)
    opts = options(evalset, seed)
    serial = scan_flags(evalset, workers=1, **opts)
    assert not forks
    parallel = scan_flags(evalset, workers=2, **opts)
    assert len(forks) == 1
    assert fingerprint(parallel) == fingerprint(serial)


@pytest.mark.usefixtures("fork_allowed", "vector_join_in_child")
@pytest.mark.parametrize("category_key", [None, "batch"])
def test_two_cores_give_the_same_scan_as_one_on_a_synthetic_set(category_key, forks):
    evalset = with_copies(generate_evalset(3000, seed=7), 7)
    # some items in other scripts and without evidence, for the notes that count them
    extra = [
        cg.EvalItem(id="ar-1", question="ما هي سياسة الإجازة السنوية للموظفين؟"),
        cg.EvalItem(id="ar-2", question="ما هي سياسة الإجازة المرضية للموظفين؟"),
        cg.EvalItem(id="fr-1", question="Quelle est la politique de congé ?", answer="Vingt jours"),
    ]
    evalset = evalset.with_items([*evalset.items, *extra])
    for opts in ({}, {**options(evalset, 3), "category_key": category_key}):
        assert fingerprint(scan_flags(evalset, workers=2, **opts)) == fingerprint(scan_flags(evalset, workers=1, **opts))
    assert len(forks) == 2


@pytest.mark.usefixtures("fork_allowed")
def test_the_default_forks_only_for_large_sets(monkeypatch, forks):
    evalset = random_set(5)
    scan_flags(evalset)
    assert not forks
    monkeypatch.setattr(flags_mod, "PARALLEL_FROM", 2)
    scan_flags(evalset)
    assert len(forks) == 1


def test_without_fork_the_scan_runs_in_this_process(monkeypatch):
    evalset = with_copies(random_set(2), 2)
    expected = fingerprint(scan_flags(evalset, workers=1))
    monkeypatch.delattr(os, "fork")
    assert not can_fork()
    assert fingerprint(scan_flags(evalset, workers=2)) == expected


def _no_fork() -> int:
    raise AssertionError("forked while another thread was running")


def test_with_another_thread_running_the_scan_does_not_fork(monkeypatch):
    evalset = with_copies(random_set(3), 3)
    expected = fingerprint(scan_flags(evalset, workers=1))
    monkeypatch.setattr(os, "fork", _no_fork)
    monkeypatch.setattr(forkjob, "_thread_count", lambda: 1)  # only the Python-level count can say no here
    release = threading.Event()
    thread = threading.Thread(target=release.wait)
    thread.start()
    try:
        assert not can_fork()
        assert fingerprint(scan_flags(evalset, workers=2)) == expected
    finally:
        release.set()
        thread.join()


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="threads are counted through /proc only on Linux")
def test_a_thread_python_does_not_know_about_also_prevents_forking(monkeypatch):
    """Threads started outside the threading module (as C libraries do) are counted too."""
    monkeypatch.setattr(os, "fork", _no_fork)
    monkeypatch.setattr(threading, "active_count", lambda: 1)  # only the count from /proc can say no here
    lock = _thread.allocate_lock()
    lock.acquire()
    _thread.start_new_thread(lock.acquire, ())  # blocks until released below
    try:
        assert not can_fork()
        scan_flags(random_set(12), workers=2)
    finally:
        lock.release()


def test_when_fork_fails_the_scan_runs_in_this_process(monkeypatch):
    evalset = with_copies(random_set(4), 4)
    expected = fingerprint(scan_flags(evalset, workers=1))

    def failing_fork() -> int:
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", failing_fork)
    monkeypatch.setattr(flags_mod, "can_fork", lambda: True)
    assert fingerprint(scan_flags(evalset, workers=2)) == expected


class _Unpicklable(Exception):
    def __reduce__(self):
        raise TypeError("not picklable")


@pytest.mark.usefixtures("fork_allowed")
@pytest.mark.parametrize("error", [ValueError("boom in the audit"), _Unpicklable("boom in the audit")])
def test_an_error_in_the_child_is_raised_here(monkeypatch, forks, error):
    def failing_audit(*args, **kwargs):
        raise error

    monkeypatch.setattr(flags_mod, "audit_half", failing_audit)
    with pytest.raises(WorkerError, match="boom in the audit") as caught:
        scan_flags(random_set(6), workers=2)
    assert type(error).__name__ in str(caught.value)
    assert any("failing_audit" in note for note in caught.value.__notes__)  # the child's traceback
    if isinstance(error, ValueError):
        assert isinstance(caught.value.__cause__, ValueError)
    assert forks and reaped(forks[0])


@pytest.mark.usefixtures("fork_allowed")
@pytest.mark.parametrize("death, words", [(lambda: os._exit(7), "exit code 7"), (lambda: os.kill(os.getpid(), signal.SIGKILL), "signal 9")])
def test_a_child_that_dies_is_reported_not_waited_for(monkeypatch, forks, death, words):
    monkeypatch.setattr(flags_mod, "audit_half", lambda *args, **kwargs: death())
    with pytest.raises(WorkerError, match=words):
        scan_flags(random_set(7), workers=2)
    assert forks and reaped(forks[0])


def _slow_audit(*args, **kwargs):
    time.sleep(60)  # only ever ends early, killed by the parent


@pytest.mark.usefixtures("fork_allowed")
def test_a_stop_request_kills_the_child(monkeypatch, forks, exits):
    monkeypatch.setattr(flags_mod, "audit_half", _slow_audit)
    polls = {"n": 0}

    def stop_soon() -> bool:
        polls["n"] += 1
        return polls["n"] > 20

    with pytest.raises(ScanCancelled):
        scan_flags(random_set(8), workers=2, should_stop=stop_soon)
    assert forks and reaped(forks[0])
    assert killed(exits[forks[0]])  # stopped, not waited for


@pytest.mark.usefixtures("fork_allowed")
def test_ctrl_c_in_the_parent_kills_the_child(monkeypatch, forks, exits):
    monkeypatch.setattr(flags_mod, "audit_half", _slow_audit)
    asked = {"n": 0}

    def answerer(question: str) -> str:
        asked["n"] += 1
        if asked["n"] == 5:
            raise KeyboardInterrupt
        return "unknown"

    with pytest.raises(KeyboardInterrupt):
        scan_flags(random_set(9), workers=2, answerer=answerer)
    assert forks and reaped(forks[0])
    assert killed(exits[forks[0]])


@pytest.mark.usefixtures("fork_allowed")
def test_the_child_writes_nothing_to_the_terminal(monkeypatch, forks, capfd):
    real_audit_half = flags_mod.audit_half

    def noisy_audit(*args, **kwargs):
        print("from print")
        sys.stderr.write("from sys.stderr\n")
        os.write(1, b"from fd 1\n")
        os.write(2, b"from fd 2\n")
        return real_audit_half(*args, **kwargs)

    evalset = random_set(10)
    expected = fingerprint(scan_flags(evalset, workers=1))
    monkeypatch.setattr(flags_mod, "audit_half", noisy_audit)
    got = fingerprint(scan_flags(evalset, workers=2))
    sys.stdout.flush()
    out, err = capfd.readouterr()
    assert (out, err) == ("", "")
    assert got == expected and len(forks) == 1


@pytest.mark.usefixtures("fork_allowed")
def test_progress_on_two_cores_grows_to_the_total(forks):
    seen: list[tuple[int, int]] = []
    scan_flags(random_set(11), workers=2, progress=lambda done, total: seen.append((done, total)), answerer=lambda q: "x")
    assert forks
    assert seen and seen[-1][0] == seen[-1][1]
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)
    assert len({total for _, total in seen}) == 1


@pytest.mark.usefixtures("fork_allowed")
def test_several_results_come_back_in_order():
    def work(send, parent_gone):
        assert not parent_gone()
        for k in range(3):
            send({"k": k, "payload": "x" * 300_000})  # more than a pipe holds

    with ForkedJob(work) as job:
        got = [job.receive()["k"] for _ in range(3)]
    assert got == [0, 1, 2]


def test_a_child_killed_without_a_word_says_by_which_signal():
    """A command reports a SIGKILL (the out-of-memory killer's) as the machine's limit: it reads the signal, not the words."""
    if not (only_this_thread() and can_fork()):
        pytest.skip("another Python thread is running in this test process")
    from reviewtui.evalset.jobs.channel import WorkerEnded

    with ForkedJob(lambda send, parent_gone: os.kill(os.getpid(), signal.SIGKILL)) as job, pytest.raises(WorkerEnded) as ended:
        job.receive()
    assert ended.value.signal == signal.SIGKILL and "killed by signal 9" in str(ended.value)


_ORPHAN = """
import os, sys, time
from reviewtui.evalset.jobs.fork import ForkedJob

job = ForkedJob(lambda send, parent_gone: time.sleep(60))
job.start()
print(job._pid, flush=True)
os._exit(0)  # dies without closing the job
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the child follows its parent only on Linux")
def test_the_child_dies_with_its_parent():
    result = subprocess.run([sys.executable, "-c", _ORPHAN], capture_output=True, text=True, check=True, cwd=ROOT)
    pid = int(result.stdout.strip())
    for _ in range(200):  # a liveness check, not a timing one: it waits up to 10 s
        if not _running(pid):
            return
        time.sleep(0.05)
    os.kill(pid, signal.SIGKILL)
    pytest.fail("the child kept running after its parent died")


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except FileNotFoundError:
        return False


_JOBS_CHILD = """
from reviewtui.tui import stages  # noqa: F401 - what the review app's scan process imports
from reviewtui.evalset.io import open_evalset
from reviewtui.evalset.jobs.fork import can_fork
open_evalset({path!r})
print(can_fork())
"""


def test_the_review_apps_scan_process_can_fork():
    """The app scans in ``python -m reviewtui.tui.stages``; with a thread there, the scan would quietly use one core."""
    path = ROOT / "sample_sets" / "wrenfield_tools" / "wrenfield_tools.jsonl"
    code = _JOBS_CHILD.format(path=str(path))
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert result.stdout.strip() == "True"


@pytest.mark.usefixtures("fork_allowed", "vector_join_in_child")
@pytest.mark.parametrize("findings", [False, True])
@pytest.mark.parametrize(
    ("answers", "made"),
    [
        # What ``ready`` answers each time it is asked: first whether the audit's join is in, then, once the join
        # has been read, whether the rest of the audit is; and what the parent does before it reads the audit.
        # The links are always made before the audit is read: their working tables and the audit's join are let
        # go before its findings come in, not held beside them at this process's peak.
        ((True, True), ["links"]),  # all in: the links all the same, but not the cautions (the child's by then)
        ((True, False, True), ["links"]),
        ((True, False, False), ["links", "cautions"]),
        ((False,), ["cautions", "links"]),  # the join came while the cautions were made (the audit with it or not)
    ],
)
def test_what_the_parent_does_while_the_audit_runs(answers, made, findings, monkeypatch, forks):
    # The parent works out the near-duplicate links from the audit's join, and makes the review chain's
    # cautions, each only while the rest of the audit is not in; the child always makes the same-evidence
    # groups. Every way gives the one-core scan's flags and report.
    from reviewtui.evalset.checks.report import findings_json_chunks, to_json_bytes
    from tests.test_same_evidence import PAIR

    evalset = with_copies(random_set(4), 4)
    evalset = evalset.with_items([*evalset.items, *PAIR])
    serial = scan_flags(evalset, workers=1)
    assert serial.counts.get("same-evidence") == 2
    asked: list[bool] = []
    done_here: list[str] = []  # in the parent, in order, until it reads the audit
    parent = os.getpid()

    def ready(job: ForkedJob) -> bool:
        answer = answers[len(asked)]
        if answer:  # wait for the child's next result, then say it is there
            assert job._channel is not None
            job._channel.wait(60)
        asked.append(answer)
        return answer

    def spy(name, real):
        def called(*args, **kwargs):
            if os.getpid() == parent:
                done_here.append(name)
            return real(*args, **kwargs)

        return called

    real_receive = ForkedJob.receive

    def receive(job, *args, **kwargs):
        value = real_receive(job, *args, **kwargs)
        if isinstance(value, AuditHalf):
            done_here.append("audit")
        return value

    monkeypatch.setattr(ForkedJob, "ready", ready)
    monkeypatch.setattr(ForkedJob, "receive", receive)
    monkeypatch.setattr(flags_mod, "_link", spy("links", flags_mod._link))
    monkeypatch.setattr(flags_mod, "same_evidence_groups", spy("groups", flags_mod.same_evidence_groups))
    monkeypatch.setattr(flags_mod, "review_cautions", spy("cautions", flags_mod.review_cautions))
    parallel = scan_flags(evalset, workers=2, findings_json=findings_json_chunks if findings else None)
    assert asked == list(answers) and len(forks) == 1
    before, after = done_here[: done_here.index("audit")], done_here[done_here.index("audit") + 1 :]
    assert before == made
    assert after == []  # the links before the audit; the groups: always the child's
    assert fingerprint(parallel) == fingerprint(serial)
    assert [str(entry) for entry in parallel.cautions] == [str(entry) for entry in serial.cautions]
    if findings:
        assert parallel.findings_json is not None
        assert to_json_bytes(parallel.audit, parallel) == to_json_bytes(serial.audit, serial)


@pytest.mark.usefixtures("fork_allowed", "vector_join_in_child")
@pytest.mark.parametrize("told", [False, True])
def test_the_child_leaves_out_the_cautions_the_parent_said_it_made(told, monkeypatch, forks):
    # The child makes the same-evidence groups after the audit, then the cautions, unless the parent has said by
    # then (a byte of shared memory) that it made them itself: then it sends None and writes the findings sooner.
    real_groups = flags_mod.same_evidence_groups

    def slow_groups(items):  # in the child: the parent's word is in long before the child asks for it
        time.sleep(0.3)
        return real_groups(items)

    sent: list[object] = []
    real_receive = ForkedJob.receive

    def receive(job, *args, **kwargs):
        value = real_receive(job, *args, **kwargs)
        sent.append(value)
        return value

    monkeypatch.setattr(flags_mod, "same_evidence_groups", slow_groups)
    monkeypatch.setattr(ForkedJob, "receive", receive)
    # False: the audit is in whenever the parent asks, and the parent never makes the cautions.
    monkeypatch.setattr(ForkedJob, "ready", lambda job: not told)
    evalset = with_copies(random_set(4), 4)
    scan = scan_flags(evalset, workers=2)
    assert len(forks) == 1
    # word groups, the audit's join, the audit, the same-evidence groups, the cautions
    assert len(sent) == 5 and isinstance(sent[2], AuditHalf) and sent[2].groups is None
    assert (sent[4] is None) == told
    if not told:
        assert [str(entry) for entry in sent[4]] == [str(entry) for entry in review_cautions(evalset)]
    assert fingerprint(scan) == fingerprint(scan_flags(evalset, workers=1))


def _in_memory(fd: int) -> bool:
    """Whether ``fd`` is a memory file (memfd), as Linux names it; False where that cannot be told."""
    try:
        return os.readlink(f"/proc/self/fd/{fd}").startswith("/memfd:")
    except OSError:
        return False


@pytest.mark.usefixtures("fork_allowed")
@pytest.mark.parametrize("raw_file", [False, True])
def test_bytes_sent_raw_are_read_in_pieces_after_the_job_has_ended(raw_file):
    from reviewtui.evalset.jobs.channel import Spooled

    pieces = [bytes([k]) * (300_000 + k) for k in range(4)]  # more than a pipe holds, and uneven

    def work(send, parent_gone):
        send("before")
        send.send_bytes(iter(pieces))
        send("after")
        send.send_bytes([b"again"])

    with ForkedJob(work, raw_file=raw_file) as job:
        first, spooled, last, again = job.receive(), job.receive(), job.receive(), job.receive()
    assert b"".join(again.chunks()) == b"again"
    if raw_file:  # on disk, where the page cache can take it back, not in a memory file
        assert not _in_memory(spooled._fd)
        assert os.fstat(spooled._fd).st_nlink == 0  # a file with no name: gone with its last descriptor
    # the channel is closed and the child gone: the span has a descriptor of its own
    assert (first, last) == ("before", "after")
    assert isinstance(spooled, Spooled) and spooled.length == sum(map(len, pieces))
    read = list(spooled.chunks(size=250_000))
    assert max(map(len, read)) <= 250_000
    assert b"".join(read) == b"".join(pieces)
    assert b"".join(spooled.chunks()) == b"".join(pieces)  # read again from the start
    import pickle

    with pytest.raises(TypeError, match="cannot be pickled"):
        pickle.dumps(spooled)
    spooled.close()
    with pytest.raises(OSError):
        next(spooled.chunks())


@pytest.mark.usefixtures("fork_allowed", "vector_join_in_child")
@pytest.mark.parametrize("profile", ["review", "goldensetauditor"])
@pytest.mark.parametrize("child_done_first", [True, False])
def test_the_childs_findings_are_the_reports_own_byte_for_byte(profile, child_done_first, monkeypatch, forks):
    # The audit command's JSON report copies the findings the scan's child wrote while this process
    # merged; the report must be the one the parent would have written itself, in either profile, and
    # whichever process grouped the same-evidence items (the parent then skips the child's grouping).
    import orjson

    from reviewtui.evalset.checks.report import findings_json_chunks, to_json_bytes
    from tests.test_audit_report import NEAR_CLUSTERS
    from tests.test_same_evidence import PAIR

    evalset = with_copies(random_set(4), 4)
    evalset = evalset.with_items([*evalset.items, *PAIR, *NEAR_CLUSTERS])
    monkeypatch.setattr(ForkedJob, "ready", lambda job: child_done_first)
    plain = scan_flags(evalset, workers=2, profile=profile)
    assert plain.findings_json is None
    written = scan_flags(evalset, workers=2, profile=profile, findings_json=findings_json_chunks)
    assert len(forks) == 2
    made = written.findings_json
    assert made is not None and made.findings is written.audit.findings and made.profile == profile
    assert not _in_memory(made.spooled._fd)
    assert made.spooled.length > 0 and b'"findings": [' in b"".join(made.chunks())
    assert fingerprint(written) == fingerprint(plain)
    assert to_json_bytes(written.audit, written) == to_json_bytes(plain.audit, plain)
    # The clusters, which the child leaves to this process, weigh what their items' flags do in the review profile.
    near = {
        tuple(f["item_ids"]): f["severity"]
        for f in orjson.loads(to_json_bytes(written.audit, written))["findings"]
        if f["check"] == "near-duplicates" and f["item_ids"][0] in {"a1", "b1"}
    }
    if profile == "review":
        assert near == {("a1", "a2", "a3"): "hint", ("b1", "b2"): "medium"}
    else:
        assert set(near.values()) == {"medium"}


@pytest.mark.usefixtures("fork_allowed")
def test_a_report_copies_the_childs_findings_only_for_its_own_audit_and_profile(monkeypatch):
    # What the report copies is the child's bytes (a marker stands in for them here), then it writes the
    # findings the child leaves to it (the near-duplicate clusters); a report of another audit, or of the
    # same one weighed for another profile, makes its own.
    import dataclasses

    import orjson

    from reviewtui.evalset.checks.report import to_json_bytes
    from reviewtui.evalset.checks.scan import PrewrittenFindings
    from tests.test_audit_report import NEAR_CLUSTERS

    evalset = with_copies(random_set(2), 2)
    evalset = evalset.with_items([*evalset.items, *NEAR_CLUSTERS])
    scan = scan_flags(evalset, workers=1)
    marker = b'  "findings": [\n    "copied"'

    def work(send, parent_gone):
        send.send_bytes([marker])

    with ForkedJob(work) as job:
        spooled = job.receive()
    copied = dataclasses.replace(scan, findings_json=PrewrittenFindings(scan.audit.findings, scan.profile, spooled))
    own = orjson.loads(to_json_bytes(scan.audit, scan))["findings"]
    # The clusters come after the one-item checks' findings: the child writes every finding before the first.
    left = own[next(at for at, f in enumerate(own) if f["check"] == "near-duplicates") :]
    assert {f["check"] for f in left} <= {"near-duplicates", "category-coverage"}
    assert orjson.loads(to_json_bytes(scan.audit, copied))["findings"] == ["copied", *left]
    other_audit = dataclasses.replace(scan.audit, findings=list(scan.audit.findings))
    assert to_json_bytes(other_audit, copied) == to_json_bytes(other_audit, scan)
    other_profile = dataclasses.replace(copied, profile="goldensetauditor")
    assert orjson.loads(to_json_bytes(scan.audit, other_profile))["findings"] != ["copied"]


@pytest.mark.usefixtures("fork_allowed", "vector_join_in_child")
@pytest.mark.parametrize("child_done_first", [True, False])
def test_a_child_that_cannot_write_the_findings_costs_the_scan_nothing(child_done_first, monkeypatch, forks):
    # The child's copy of the findings is only a head start for the report: when writing it fails (its
    # temporary folder out of space: /dev/full answers every write so), the scan is still whole, and the
    # report makes them itself.
    from reviewtui.evalset.checks.report import findings_json_chunks, to_json_bytes
    from reviewtui.evalset.jobs import channel
    from tests.test_same_evidence import PAIR

    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full on this system")
    monkeypatch.setattr(channel, "file_spool", lambda: os.open("/dev/full", os.O_RDWR | os.O_CLOEXEC))
    evalset = with_copies(random_set(4), 4)
    evalset = evalset.with_items([*evalset.items, *PAIR])
    monkeypatch.setattr(ForkedJob, "ready", lambda job: child_done_first)
    serial = scan_flags(evalset, workers=1)
    written = scan_flags(evalset, workers=2, findings_json=findings_json_chunks)
    assert len(forks) == 1 and written.findings_json is None
    assert fingerprint(written) == fingerprint(serial)
    assert to_json_bytes(written.audit, written) == to_json_bytes(serial.audit, serial)


@pytest.mark.usefixtures("fork_allowed")
@pytest.mark.parametrize("profile", ["review", "goldensetauditor"])
def test_the_audit_commands_json_report_is_the_one_scan_made_on_one_core(profile, tmp_path, monkeypatch, forks):
    # `reviewtui audit --to json` has the scan's child write the findings; the file it writes is the
    # report a one-core scan gives, byte for byte.
    from reviewtui.cli import main
    from reviewtui.evalset.checks.report import to_json_bytes
    from reviewtui.evalset.io import open_evalset, write_jsonl

    path = write_jsonl(with_copies(generate_evalset(flags_mod.PARALLEL_FROM + 200, seed=3), 3), tmp_path / "set.jsonl")
    asked: list[object] = []
    real_scan = flags_mod.scan_flags

    def scan(*args, **kwargs):
        asked.append(kwargs.get("findings_json"))
        return real_scan(*args, **kwargs)

    monkeypatch.setattr(flags_mod, "scan_flags", scan)
    out = tmp_path / "report.json"
    assert main(["audit", str(path), "-o", str(out), "--to", "json", "--profile", profile]) in (0, 1)
    assert len(asked) == 1 and asked[0] is not None and len(forks) == 1
    alone = real_scan(open_evalset(path), workers=1, profile=profile)
    assert out.read_bytes() == to_json_bytes(alone.audit, alone)


@pytest.mark.usefixtures("fork_allowed", "vector_join_in_child")
@pytest.mark.parametrize("workers", [1, 2])
def test_the_documented_chains_cautions_are_made_only_where_the_profile_shows_them(workers, monkeypatch):
    # The review profile shows what the review chain leaves (its cautions come from that chain); replaying
    # the documented chain for cautions nobody reads cost the parent a pass over the set.
    from reviewtui.evalset.checks import scan_parts

    evalset = with_copies(random_set(6), 6)
    outlines: list[int] = []
    real_outline = scan_parts.ChainReplay.outline

    def outline(self, should_stop=None):
        outlines.append(1)
        return real_outline(self, should_stop)

    monkeypatch.setattr(scan_parts.ChainReplay, "outline", outline)
    review = scan_flags(evalset, workers=workers)
    assert outlines == []
    gsa = scan_flags(evalset, workers=workers, profile="goldensetauditor")
    assert outlines == [1]
    # with a model to ask, the documented chain's cautions (which reuse its answers) stand in the review profile too
    asked = scan_flags(evalset, workers=workers, answerer=lambda question: "Paris")
    assert outlines == [1, 1]
    # each shows its own chain's cautions
    from reviewtui.evalset.checks.review_filters import review_cautions

    shown = [str(entry) for entry in gsa.cautions]
    assert all(str(entry) in shown for entry in real_outline(gsa.replay_chain))
    shown = [str(entry) for entry in review.cautions]
    assert all(str(entry) in shown for entry in review_cautions(evalset))
    shown = [str(entry) for entry in asked.cautions]
    assert all(str(entry) in shown for entry in real_outline(asked.replay_chain))


@pytest.mark.usefixtures("fork_allowed", "vector_join_in_child")
def test_a_findings_writer_that_fails_in_the_child_fails_the_scan_here(forks):
    def failing(report, profile):
        yield b'  "findings": ['
        raise RuntimeError("the writer broke")

    evalset = with_copies(random_set(3), 3)
    with pytest.raises(WorkerError, match="the writer broke"):
        scan_flags(evalset, workers=2, findings_json=failing)
    assert len(forks) == 1 and all(reaped(pid) for pid in forks)


def test_on_one_core_a_findings_writer_is_not_used_and_the_report_makes_its_own():
    from reviewtui.evalset.checks.report import to_json_bytes

    def unused(report, profile):
        raise AssertionError("only the scan's child writes findings")

    evalset = with_copies(random_set(3), 3)
    scan = scan_flags(evalset, workers=1, findings_json=unused)
    assert scan.findings_json is None
    plain = scan_flags(evalset, workers=1)
    assert to_json_bytes(scan.audit, scan) == to_json_bytes(plain.audit, plain)


@pytest.mark.usefixtures("fork_allowed", "vector_join_in_child")
def test_a_child_killed_while_writing_the_findings_costs_the_scan_nothing(forks):
    # The out-of-memory killer's SIGKILL while the child writes the findings: the scan is whole by then, and
    # the report writes the findings itself; a fault in the writer (above) is still raised.
    from reviewtui.evalset.checks.report import to_json_bytes

    def killed_midway(report, profile):
        yield b'  "findings": ['
        os.kill(os.getpid(), signal.SIGKILL)

    evalset = with_copies(random_set(5), 5)
    serial = scan_flags(evalset, workers=1)
    written = scan_flags(evalset, workers=2, findings_json=killed_midway)
    assert len(forks) == 1 and written.findings_json is None
    assert to_json_bytes(written.audit, written) == to_json_bytes(serial.audit, serial)


@pytest.mark.usefixtures("fork_allowed", "vector_join_in_child")
def test_without_a_temporary_file_for_the_findings_the_scan_still_splits(monkeypatch, forks):
    # No usable temporary folder: the scan forks all the same, without the child's head start on the report.
    from reviewtui.evalset.checks.report import findings_json_chunks, to_json_bytes
    from reviewtui.evalset.jobs import channel

    def no_folder() -> int:
        raise FileNotFoundError(2, "No usable temporary directory found")

    monkeypatch.setattr(channel, "file_spool", no_folder)
    evalset = with_copies(random_set(7), 7)
    serial = scan_flags(evalset, workers=1)
    written = scan_flags(evalset, workers=2, findings_json=findings_json_chunks)
    assert len(forks) == 1 and written.findings_json is None
    assert fingerprint(written) == fingerprint(serial)
    assert to_json_bytes(written.audit, written) == to_json_bytes(serial.audit, serial)


@pytest.mark.usefixtures("fork_allowed", "vector_join_in_child")
@pytest.mark.parametrize("findings", [False, True])
@pytest.mark.parametrize(
    ("dies_in", "audit_waits"),
    [
        ("same_evidence_groups", True),  # the parent made the cautions while the audit ran
        ("same_evidence_groups", False),
        ("review_cautions", False),  # the audit was in at once: the cautions were the child's to make
    ],
)
def test_a_child_killed_after_the_audit_leaves_the_rest_to_the_parent(dies_in, audit_waits, findings, monkeypatch, forks, exits):
    # The audit is all the scan must have from the child: killed after sending it (the system out of memory
    # while it groups the items), the child's later results are made here, and the scan is the one-core scan.
    from reviewtui.evalset.checks.report import findings_json_chunks, to_json_bytes
    from tests.test_same_evidence import PAIR

    evalset = with_copies(random_set(5), 5)
    evalset = evalset.with_items([*evalset.items, *PAIR])
    serial = scan_flags(evalset, workers=1)
    parent = os.getpid()
    real = getattr(flags_mod, dies_in)

    def dying(*args, **kwargs):
        if os.getpid() != parent:
            os.kill(os.getpid(), signal.SIGKILL)
        return real(*args, **kwargs)

    monkeypatch.setattr(flags_mod, dies_in, dying)
    monkeypatch.setattr(ForkedJob, "ready", lambda job: not audit_waits)
    parallel = scan_flags(evalset, workers=2, findings_json=findings_json_chunks if findings else None)
    assert len(forks) == 1 and os.WIFSIGNALED(exits[forks[0]])  # it did die where it was meant to
    assert fingerprint(parallel) == fingerprint(serial)
    assert [str(entry) for entry in parallel.cautions] == [str(entry) for entry in serial.cautions]
    assert parallel.findings_json is None  # the child never wrote them: the report makes them itself
    assert to_json_bytes(parallel.audit, parallel) == to_json_bytes(serial.audit, serial)


def test_the_scans_child_loads_numpy_with_one_blas_thread(fork_allowed, tmp_path, monkeypatch):
    """The child imports numpy first thing, on the path the parent waits for; its BLAS library's thread per core
    was half of that import's time, for matrix work no join does. The parent's own environment is left alone."""
    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    seen = tmp_path / "seen"
    real = flags_mod.word_groups

    def spy(*args, **kwargs):
        seen.write_text(os.environ.get("OPENBLAS_NUM_THREADS", "unset"))  # in the child
        return real(*args, **kwargs)

    monkeypatch.setattr(flags_mod, "word_groups", spy)
    scan_flags(generate_evalset(2_500, seed=3), workers=2)
    assert seen.read_text() == "1"
    assert "OPENBLAS_NUM_THREADS" not in os.environ


def test_the_scans_child_keeps_a_blas_thread_count_the_user_set(fork_allowed, tmp_path, monkeypatch):
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "4")
    seen = tmp_path / "seen"
    real = flags_mod.word_groups

    def spy(*args, **kwargs):
        seen.write_text(os.environ.get("OPENBLAS_NUM_THREADS", "unset"))
        return real(*args, **kwargs)

    monkeypatch.setattr(flags_mod, "word_groups", spy)
    scan_flags(generate_evalset(2_500, seed=3), workers=2)
    assert seen.read_text() == "4"

"""What a review step, a resume and an export cost.

    /work/venv/bin/python benchmarks/bench_review.py [--sizes 1000,100000,1000000] [--decisions 3000]

Decision cost: a ReviewSession over a synthetic set (``synth.generate_evalset``)
with its journal in a temporary folder; each timed call is one session method
(plan on the queue, journal write, apply), in a mix of 60% accept, 15% reject
with a reason, 5% skip, 5% edit, 10% undo, 5% redo, with the cursor first sent
to a random place in the set every 50 calls (not timed). The sizes take turns
in blocks of 100 calls, so that other work on the machine slows all of them
alike; wall time and the thread's CPU time are both shown. Measured in ``batched``
durability (the write happens in the call, the fdatasync in a background thread) and
in ``every``, the default (each call also waits for its fdatasync), and the bare
fdatasync of a 150-byte append on the same disk, for scale. After each run the
session is closed and its journal read back (untimed): it must hold exactly the
decide, undo and redo records the calls made (an undo or redo with nothing to take
back writes none), and in ``every`` the timed calls must have made one fdatasync per record (in ``batched``,
none: the background thread makes them), or the script stops. Goals: median <= 1 ms, 1M/1k median ratio <= 1.3.

Resume: replay of a journal of 10,000 decisions (same mix) on a 20,000-item set,
split into reading/checking the journal and applying it; the set is already in
memory.

Resume at scale (``--skip`` it as ``bigresume``): a 100,000-item set file
(``synth.write_synthetic_jsonl``) and a journal of about 100,000 decisions made
through a ReviewSession (same mix, the cursor sent to a random place every 50
calls). Each timing runs in a fresh process: ``ReviewSession.open`` as the review
command opens it (collector paused, progressive) until it returns with its
cursor on a question; ``reviewtui status FILE`` and ``reviewtui export FILE``
(the commands' functions, in-process); and the baseline, an orjson parse of the
set file and the journal file with the collector paused. Beside them the floor
under any command that reads the set into its models: the set's item lines made
into plain pydantic models of an item's shape (``bench_io``'s pydantic floor, none
of the item model's checks) and the journal parsed with orjson. Each child checks the
work happened: the parses read every item line and exactly the journal records the
building session left, the resumed queue's position, counts and undo/redo depth are
the ones that session left (the opening runs on a copy of the journal, made untimed,
since opening adds records to it), and the export holds every item kept. Goal: status
and export <= 2x the baseline.

Resume on screen: the installed ``reviewtui FILE`` resuming that review in a 120x40
pseudo-terminal (a fresh copy of the journal each launch), timed from starting the
process until the question the review ended on reaches the terminal, and until a
key pressed at that moment (``a``) has been handled, its decision on that question
in the journal (checked); beside a bare Textual app's first paint, measured the
same way in the same run. A journal this long opens behind a preview of its last
question (see reviewtui/tui/opening.py), so the first figure is that preview and the
second is when the review takes keys. Goal: the first question within 0.8 s of the
bare app's first paint.

Export: 100,000 items, all decided, written as the next version with
``export_reviewed`` (``queue.result`` with each item's review record, the lineage
header, ``write_jsonl``, atomic and fsynced), beside the same items, records
included, dumped with orjson (``model_dump`` + ``orjson.dumps`` per item, written
and fsynced, with the garbage collector paused as the export does). Each export is
read back before it is removed (untimed): it must hold its header and one line per
item kept (every item not rejected or skipped), or the script stops. Goal: <= 2x.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).parent))
from synth import generate_evalset, write_synthetic_jsonl

from reviewtui.evalset.io import journal as journal_module
from reviewtui.evalset.io.journal import read_journal
from reviewtui.evalset.jobs.collector import gc_paused
from reviewtui.evalset.review.export import export_reviewed
from reviewtui.evalset.review.queue import ReviewQueue
from reviewtui.evalset.review.replay import journal_item_ids, replay
from reviewtui.evalset.review.session import ReviewSession

MIX = (("accept", 60), ("reject", 15), ("skip", 5), ("edit", 5), ("undo", 10), ("redo", 5))


class SyncCounter:
    """Counts the journal's fdatasync calls made on the thread that installed it (the timed calls' thread), not the
    background thread's: in ``every`` durability each record a call writes is synced in that call."""

    def __init__(self) -> None:
        import threading

        self.calls = 0
        self._thread = threading.get_ident()
        self._sync = journal_module._datasync
        self._current = threading.get_ident

    def __enter__(self) -> SyncCounter:
        def counted(fd: int) -> None:
            if self._current() == self._thread:
                self.calls += 1
            self._sync(fd)

        journal_module._datasync = counted
        return self

    def __exit__(self, *exc: object) -> None:
        journal_module._datasync = self._sync


def step(session: ReviewSession, kind: str, number: int) -> None:
    if session.current is None and kind not in ("undo", "redo"):
        session.undo()
        return
    if kind == "accept":
        session.accept()
    elif kind == "reject":
        session.reject(note="asked before", reason="duplicate")
    elif kind == "skip":
        session.skip()
    elif kind == "edit":
        session.edit(question=f"Rewritten question number {number}?")
    elif kind == "undo":
        session.undo()
    else:
        session.redo()


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


class DecisionRun:
    """One open session on one set, stepped a block at a time so sizes can take turns."""

    def __init__(self, evalset, folder: Path, durability: str, seed: int) -> None:
        journal = folder / f"bench-{len(evalset)}-{durability}.journal"
        if journal.exists():
            journal.unlink()
        self.journal = journal
        self.durability = durability
        self.session = ReviewSession.start(evalset, journal, reviewer="bench", durability=durability)
        self.rng = random.Random(seed)
        self.kinds = [k for k, _ in MIX]
        self.weights = [w for _, w in MIX]
        self.wall: list[float] = []
        self.cpu: list[float] = []
        self.number = 0
        # The journal records the timed calls must leave, counted from the calls alone (not timed): a decision
        # stacks a step to undo and clears the redo stack; an undo or redo with nothing to take back writes nothing.
        self.expected = dict.fromkeys(("decide", "undo", "redo"), 0)
        self.undo_depth = self.redo_depth = 0
        self.syncs: SyncCounter | None = None  # set by the caller: the fdatasync calls on the timed calls' thread
        self.synced = 0  # of them, those made inside the timed calls

    def _expect(self, kind: str) -> None:
        if self.session.current is None and kind not in ("undo", "redo"):
            kind = "undo"  # as step() does when the cursor is past the last item
        if kind in ("accept", "reject", "skip", "edit"):
            self.expected["decide"] += 1
            self.undo_depth, self.redo_depth = self.undo_depth + 1, 0
        elif kind == "undo" and self.undo_depth:
            self.expected["undo"] += 1
            self.undo_depth, self.redo_depth = self.undo_depth - 1, self.redo_depth + 1
        elif kind == "redo" and self.redo_depth:
            self.expected["redo"] += 1
            self.undo_depth, self.redo_depth = self.undo_depth + 1, self.redo_depth - 1

    def block(self, count: int) -> None:
        session = self.session
        size = len(session.queue)
        for _ in range(count):
            if self.number % 50 == 0:
                session.goto(self.rng.randrange(size))
            kind = self.rng.choices(self.kinds, self.weights)[0]
            self._expect(kind)
            synced = self.syncs.calls if self.syncs is not None else 0
            cpu = time.thread_time()
            wall = time.perf_counter()
            step(session, kind, self.number)
            self.wall.append(time.perf_counter() - wall)
            self.cpu.append(time.thread_time() - cpu)
            self.synced += (self.syncs.calls if self.syncs is not None else 0) - synced
            self.number += 1

    def close(self) -> None:
        """Close the session, then stop unless its journal holds exactly the records the timed calls made."""
        self.session.close()
        written = dict.fromkeys(self.expected, 0)
        for _, payload in read_journal(self.journal).records:
            if payload.get("op") in written:
                written[payload["op"]] += 1
        if written != self.expected:
            raise SystemExit(
                f"bench_review: {self.number} calls on {len(self.session.queue):,} items ({self.durability}) should have "
                f"journalled {self.expected}, the journal holds {written}: the work timed did not happen"
            )
        records = sum(self.expected.values())
        if self.syncs is not None and self.synced != (records if self.durability == "every" else 0):
            raise SystemExit(
                f"bench_review: {records} records journalled in {self.durability} durability, {self.synced} fdatasync calls "
                f"made inside the timed calls (expected {records if self.durability == 'every' else 0}): the work timed did not happen"
            )


def bare_fdatasync(folder: Path, count: int = 300) -> list[float]:
    path = folder / "fdatasync-probe"
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    line = b"x" * 149 + b"\n"
    timings = []
    try:
        for _ in range(count):
            os.write(fd, line)
            started = time.perf_counter()
            os.fdatasync(fd)
            timings.append(time.perf_counter() - started)
    finally:
        os.close(fd)
        path.unlink()
    return timings


def bench_decisions(sizes: list[int], decisions: int, folder: Path) -> None:
    sets = {}
    for size in sizes:
        started = time.perf_counter()
        sets[size] = generate_evalset(size, seed=1)
        print(f"built a {size:,}-item set in {time.perf_counter() - started:.1f} s")
    print()
    print(f"Decision cost ({decisions} timed calls per row; microseconds). Sizes take turns in blocks of 100")
    print("so that load from other processes falls on all of them alike; cpu = this thread's CPU time.")
    print(f"{'items':>9} {'durability':>10} {'median':>8} {'p99':>8} {'max':>8} {'cpu med':>8} {'cpu p99':>8}")
    medians: dict[tuple[int, str], tuple[float, float]] = {}
    for durability in ("batched", "every"):
        count = decisions if durability == "batched" else max(500, decisions // 5)
        runs = {size: DecisionRun(sets[size], folder, durability, seed=size) for size in sizes}
        gc.collect()
        with SyncCounter() as syncs:
            for run in runs.values():
                run.syncs = syncs
            for _ in range(0, count, 100):
                for size in sizes:
                    runs[size].block(100)
        for size in sizes:
            run = runs[size]
            run.close()
            medians[(size, durability)] = (statistics.median(run.wall), statistics.median(run.cpu))
            print(
                f"{size:>9,} {durability:>10} {statistics.median(run.wall) * 1e6:>8.0f} "
                f"{percentile(run.wall, 0.99) * 1e6:>8.0f} {max(run.wall) * 1e6:>8.0f} "
                f"{statistics.median(run.cpu) * 1e6:>8.0f} {percentile(run.cpu, 0.99) * 1e6:>8.0f}"
            )
    probe = bare_fdatasync(folder)
    print(
        f"bare fdatasync of one appended line here: median {statistics.median(probe) * 1e6:.0f} us, "
        f"p99 {percentile(probe, 0.99) * 1e6:.0f} us"
    )
    small, large = min(sizes), max(sizes)
    for durability in ("batched", "every"):
        wall = medians[(large, durability)][0] / medians[(small, durability)][0]
        cpu = medians[(large, durability)][1] / medians[(small, durability)][1]
        print(f"median ratio {large:,}/{small:,} items ({durability}): wall {wall:.2f}, cpu {cpu:.2f} (goal <= 1.3)")
    print()


def bench_resume(folder: Path, decisions: int = 10_000, size: int = 20_000) -> None:
    evalset = generate_evalset(size, seed=2)
    journal = folder / "resume.journal"
    if journal.exists():
        journal.unlink()
    rng = random.Random(3)
    kinds = [k for k, _ in MIX]
    weights = [w for _, w in MIX]
    made = 0
    with ReviewSession.start(evalset, journal, reviewer="bench", include_reviewed=True, durability="close") as s:
        while made < decisions:
            kind = rng.choices(kinds, weights)[0]
            step(s, kind, made)
            made += kind not in ("undo", "redo")
        expected = (s.queue.position, s.queue.counts(), len(s.queue.history), len(s.queue.future))
    records = len(read_journal(journal).records)
    runs = []
    for _ in range(3):
        gc.collect()
        t0 = time.perf_counter()
        contents = read_journal(journal)
        t1 = time.perf_counter()
        queue = ReviewQueue.from_evalset(evalset, skip_reviewed=False, include_ids=journal_item_ids(contents))
        t2 = time.perf_counter()
        replay(queue, contents)
        t3 = time.perf_counter()
        assert (queue.position, queue.counts(), len(queue.history), len(queue.future)) == expected
        runs.append((t1 - t0, t2 - t1, t3 - t2, t3 - t0))
    best = min(runs, key=lambda r: r[3])
    megabytes = journal.stat().st_size / 1e6
    print(f"Resume: {decisions:,} decisions ({records:,} journal records, {megabytes:.1f} MB) on {size:,} items")
    print(f"  read and check journal {best[0] * 1e3:7.1f} ms")
    print(f"  build queue            {best[1] * 1e3:7.1f} ms")
    print(f"  replay                 {best[2] * 1e3:7.1f} ms")
    print(f"  total                  {best[3] * 1e3:7.1f} ms (best of 3)")
    print()


def build_big_review(folder: Path, size: int, decisions: int) -> tuple[Path, Path, dict]:
    """A set file and a journal of about ``decisions`` decisions on it, made through a session."""
    path = folder / f"big-{size}.jsonl"
    write_synthetic_jsonl(path, size, seed=6)
    journal = folder / f"big-{size}.journal"
    rng = random.Random(7)
    kinds = [k for k, _ in MIX]
    weights = [w for _, w in MIX]
    made = 0
    calls = 0
    started = time.perf_counter()
    with ReviewSession.open(path, journal_path=journal, reviewer="bench", include_reviewed=True, durability="close") as s:
        while made < decisions:
            if calls % 50 == 0:
                s.goto(rng.randrange(len(s.queue)))
            if calls % 997 == 0 and s.current is not None:
                s.note(f"a note on call {calls}")
            kind = rng.choices(kinds, weights)[0]
            step(s, kind, made)
            made += kind not in ("undo", "redo")
            calls += 1
        queue = s.queue
        expected = {
            "position": queue.position,
            "current": queue.current.id if queue.current is not None else None,
            "counts": queue.counts(),
            "history": len(queue.history),
            "future": len(queue.future),
            "notes": len(queue.notes),
        }
    records = len(read_journal(journal).records)
    expected["records"] = records  # every line of the journal, its start record among them: what the parse children read
    print(
        f"built a {size:,}-item set ({path.stat().st_size / 1e6:.0f} MB) and a journal of {decisions:,} decisions "
        f"({records:,} records, {journal.stat().st_size / 1e6:.0f} MB) in {time.perf_counter() - started:.1f} s"
    )
    return path, journal, expected


def _big_child(kind: str, path: Path, journal: Path, expected: dict) -> dict:
    """One timing in this (fresh) process; returns seconds and what was checked.

    ``expected["records"]``: the journal's exact number of records (lines), its start record among them;
    a caller that gives none holds it to one record per decision.
    """
    records_expected = expected.get("records", expected["decisions"])
    if kind == "parse":
        gc.collect()
        started = time.perf_counter()
        with gc_paused():
            items = [orjson.loads(line) for line in path.read_bytes().splitlines() if line]
            records = [orjson.loads(line) for line in journal.read_bytes().splitlines() if line]
        seconds = time.perf_counter() - started
        assert len(items) == expected["size"] + 1 and len(records) == records_expected, (len(items), len(records))
        return {"seconds": seconds}
    if kind == "floor":
        from bench_io import _pydantic_floor

        read_items = _pydantic_floor()
        gc.collect()
        started = time.perf_counter()
        with gc_paused():
            models = read_items(path)
            records = [orjson.loads(line) for line in journal.read_bytes().splitlines() if line]
        seconds = time.perf_counter() - started
        assert len(models) == expected["size"] and len(records) == records_expected, (len(models), len(records))
        return {"seconds": seconds}
    if kind == "open":
        import shutil

        # On a copy (made untimed): an opening adds its own records to the journal, and the other children
        # hold the journal to the exact number of records the building session left.
        copy = journal.with_name(f"open-{os.getpid()}.journal")
        shutil.copyfile(journal, copy)
        gc.disable()  # as reviewtui.cli.review does while the session and the app are built
        started = time.perf_counter()
        session = ReviewSession.open(path, journal_path=copy, reviewer="bench", progressive=True)
        seconds = time.perf_counter() - started
        try:
            queue = session.queue
            assert queue.current is not None and queue.current.id == expected["current"], "cursor not restored"
            assert queue.counts() == expected["counts"], (queue.counts(), expected["counts"])
            assert (len(queue.history), len(queue.future), len(queue.notes)) == (
                expected["history"],
                expected["future"],
                expected["notes"],
            )
            loaded = session.loading is None
        finally:
            session.close()
            copy.unlink(missing_ok=True)
        gc.enable()
        return {"seconds": seconds, "whole_set_read": loaded}
    import contextlib
    import io

    from reviewtui.cli import main as cli_main
    from reviewtui.cli.exits import hold_until_exit

    # As the console script does: what the command keeps is left for the end of the process to reclaim,
    # which this child reaches right after printing its timing, so the time is what a user waits for.
    hold_until_exit()

    out = path.with_name(f"export-{os.getpid()}.jsonl")
    argv = ["status", str(path), "--journal", str(journal)]
    if kind == "export":
        argv = ["export", str(path), "--journal", str(journal), "-o", str(out)]
    printed = io.StringIO()
    started = time.perf_counter()
    with contextlib.redirect_stdout(printed):
        code = cli_main(argv)
    seconds = time.perf_counter() - started
    assert code == 0, printed.getvalue()
    decided = sum(expected["counts"].values())
    if kind == "status":
        assert f"decided {decided:,} of {expected['size']:,}" in printed.getvalue(), printed.getvalue()
    else:
        written = sum(1 for _ in out.open("rb")) - 1
        out.unlink()
        dropped = expected["counts"]["rejected"] + expected["counts"]["skipped"]  # the next version leaves both out
        assert written == expected["size"] - dropped, (written, expected)
    return {"seconds": seconds}


def _run_big_child(kind: str, path: Path, journal: Path, expected: dict) -> dict:
    command = [sys.executable, __file__, "--big-child", kind, str(path), str(journal), json.dumps(expected)]
    env = {**os.environ, "REVIEWTUI_CONFIG": os.devnull}
    out = subprocess.run(command, capture_output=True, text=True, env=env)
    if out.returncode != 0:
        raise SystemExit(f"bench_review: the {kind} child failed (exit {out.returncode}):\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.splitlines()[-1])


def _decides(journal: Path) -> list[str]:
    return [payload["id"] for _, payload in read_journal(journal).records if payload.get("op") == "decide"]


def _decided_after(journal: Path, offset: int) -> bool:
    """Whether a decision was written to ``journal`` past ``offset`` (only the new bytes are read)."""
    from reviewtui.evalset.io.journal import decode_line

    with journal.open("rb") as handle:
        handle.seek(offset)
        added = handle.read()
    return any((payload := decode_line(line)) is not None and payload.get("op") == "decide" for line in added.splitlines())


def _resume_on_screen(path: Path, journal: Path, expected: dict) -> dict:
    """The installed ``reviewtui FILE`` resuming the big review in a 120x40 pseudo-terminal, as a user sees it.

    Seconds from starting the process until the question the review ended on reaches the
    terminal, and until a key pressed at that moment (``a``) has been handled: its decision is
    in the journal, on that item. Run on a copy of the journal, since the key adds to it.
    """
    import shutil

    from bench_tui import REVIEWTUI, _Terminal

    copy = journal.with_name(f"resume-{os.getpid()}.journal")
    shutil.copyfile(journal, copy)
    before = _decides(copy)
    launched_at = copy.stat().st_size
    started = time.perf_counter()
    terminal = _Terminal([*REVIEWTUI, str(path), "--journal", str(copy), "--reviewer", "bench"])
    try:
        terminal.wait_for(expected["current"].encode(), timeout=120)
        first = time.perf_counter() - started
        os.write(terminal.fd, b"a")
        deadline = time.perf_counter() + 120
        # Only what the journal gained since the launch is read, so that looking costs the machine next to nothing.
        while not (copy.stat().st_size > launched_at and _decided_after(copy, launched_at)):
            if time.perf_counter() > deadline:
                raise SystemExit("bench_review: the key pressed on the resumed review was never handled")
            terminal._read(0.02)
        handled = time.perf_counter() - started
        status = terminal.quit()
    finally:
        terminal.kill()
    after = _decides(copy)
    copy.unlink()
    if status != 0 or after[:-1] != before or after[-1] != expected["current"]:
        raise SystemExit(f"bench_review: the resumed review did not decide {expected['current']} (exit {status})")
    return {"first": first, "handled": handled}


def _bare_first_paint() -> float:
    from bench_tui import _first_question

    return _first_question(None)


def bench_big_resume(folder: Path, size: int = 100_000, decisions: int = 100_000, runs: int = 3) -> None:
    path, journal, expected = build_big_review(folder, size, decisions)
    expected.update(size=size, decisions=decisions)
    kinds = ("parse", "floor", "open", "status", "export")
    times: dict[str, list[float]] = {kind: [] for kind in kinds}
    for _ in range(runs):  # the kinds take turns, so that load from other processes falls on all of them alike
        for kind in kinds:
            times[kind].append(_run_big_child(kind, path, journal, expected)["seconds"])
    base = min(times["parse"])
    print(f"Resume at scale: {size:,} items, {decisions:,} decisions; fresh process each, best of {runs} (seconds)")
    print(f"{'':>44} {'best':>6} {'median':>7} {'/ baseline':>10}")
    rows = (
        ("orjson parse of set + journal, GC paused", "parse"),
        ("the set as plain pydantic models + journal", "floor"),
        ("ReviewSession.open, progressive (resume)", "open"),
        ("reviewtui status FILE", "status"),
        ("reviewtui export FILE", "export"),
    )
    for label, kind in rows:
        print(f"{label:>44} {min(times[kind]):>6.2f} {statistics.median(times[kind]):>7.2f} {min(times[kind]) / base:>9.2f}x")
    print("goals: status and export <= 2x the baseline")
    print()
    # On screen: the installed command in a pseudo-terminal, beside a bare Textual app's first paint.
    bare, first, handled = [], [], []
    for _ in range(runs):
        bare.append(_bare_first_paint())
        seen = _resume_on_screen(path, journal, expected)
        first.append(seen["first"])
        handled.append(seen["handled"])
    print(f"Resume on screen: reviewtui FILE in a 120x40 pseudo-terminal, {runs} launches (seconds)")
    print(f"{'':>58} {'best':>6} {'median':>7}")
    print(f"{'bare Textual app: its first paint':>58} {min(bare):>6.2f} {statistics.median(bare):>7.2f}")
    print(f"{'the question the review ended on, on the terminal':>58} {min(first):>6.2f} {statistics.median(first):>7.2f}")
    print(f"{'a key pressed then: its decision in the journal':>58} {min(handled):>6.2f} {statistics.median(handled):>7.2f}")
    gap = statistics.median(first) - statistics.median(bare)
    print(f"goal: the first question within 0.8 s of the bare app's first paint: {gap:+.2f} s (medians)")
    print()


def _check_export(out: Path, kept: int) -> None:
    """Stop unless the export at ``out`` holds its header line and then exactly ``kept`` item lines (read untimed)."""
    with out.open("rb") as handle:
        lines = [line for line in handle if line.strip()]
    header = bool(lines) and orjson.loads(lines[0]).get("_evalset") is not None
    if not header or len(lines) - 1 != kept:
        raise SystemExit(
            f"bench_export: the export holds {'a' if header else 'no'} header and {max(len(lines) - 1, 0):,} item lines, "
            f"where {kept:,} items were kept: the work timed did not happen"
        )


def bench_export(folder: Path, size: int = 100_000) -> None:
    evalset = generate_evalset(size, seed=4)
    queue = ReviewQueue.from_evalset(evalset, skip_reviewed=False)
    rng = random.Random(5)
    dropped = 0  # rejected and skipped: the next version leaves both out
    while queue.current is not None:
        roll = rng.random()
        if roll < 0.75:
            queue.accept()
        elif roll < 0.85:
            queue.reject(reason="ambiguous")
            dropped += 1
        elif roll < 0.9:
            queue.skip()
            dropped += 1
        else:
            queue.edit(answer="An edited answer.")
    kept = size - dropped
    source = folder / "export-input.jsonl"
    ours, baseline = [], []
    for _ in range(3):
        gc.collect()
        t0 = time.perf_counter()
        out = export_reviewed(evalset, queue, source)
        t1 = time.perf_counter()
        result = queue.result(evalset, records=True)  # the items as the export writes them, each with its review
        t2 = time.perf_counter()
        ours.append((t1 - t0, t2 - t1))
        _check_export(out, kept)
        out.unlink()
        gc.collect()
        t3 = time.perf_counter()
        dump = folder / "orjson-dump.jsonl"
        with gc_paused(), open(dump, "wb") as handle:
            handle.write(b"\n".join(orjson.dumps(item.model_dump()) for item in result.items))
            handle.write(b"\n")
            handle.flush()
            os.fsync(handle.fileno())
        baseline.append(time.perf_counter() - t3)
        dump.unlink()
    total = min(t for t, _ in ours)
    part = min(r for _, r in ours)
    base = min(baseline)
    print(f"Export: {size:,} items, {len(result):,} kept (best of 3)")
    print(f"  export_reviewed (result + write_jsonl) {total * 1e3:7.0f} ms   of which queue.result {part * 1e3:.0f} ms")
    print(f"  orjson dump of the same items          {base * 1e3:7.0f} ms")
    print(f"  ratio {total / base:.2f} (goal <= 2)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,100000,1000000")
    parser.add_argument("--decisions", type=int, default=3000)
    parser.add_argument(
        "--skip", default="", help="comma list of parts to leave out: decisions,resume,bigresume,export"
    )
    parser.add_argument("--big-child", nargs=4, metavar=("KIND", "SET", "JOURNAL", "EXPECTED"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.big_child:
        kind, path, journal, expected = args.big_child
        print(json.dumps(_big_child(kind, Path(path), Path(journal), json.loads(expected))))
        return
    sizes = [int(s) for s in args.sizes.split(",")]
    skip = set(filter(None, args.skip.split(",")))
    from bytecode import compile_package

    compile_package()  # the resume and export children are fresh processes, timed as an installed command runs
    with tempfile.TemporaryDirectory(prefix="bench-review-") as tmp:
        folder = Path(tmp)
        if "decisions" not in skip:
            bench_decisions(sizes, args.decisions, folder)
        if "resume" not in skip:
            bench_resume(folder)
        if "bigresume" not in skip:
            bench_big_resume(folder)
        if "export" not in skip:
            bench_export(folder)


if __name__ == "__main__":
    main()

"""How fast the review app feels: CPU per key press, and time from launch to the first question.

    python benchmarks/bench_tui.py            # 1k and 100k key presses; launch at 10k and 100k
    python benchmarks/bench_tui.py --million  # also launch at 1M (several minutes)

Key presses are posted to the app as Key events and the CPU time of the process
is read around each one until the app is idle again, so Pilot's fixed waits do
not count; the median over many presses is compared between a 1k and a 100k
set (the per-key cost must not grow with the set).

Launch runs the installed command, ``reviewtui FILE``, unpatched, in a pseudo-
terminal, and times from starting the process (interpreter start-up included)
until the first question's text reaches the terminal; a bare Textual app is timed
the same way in the same run. A large JSONL set opens on its first items and
reads the rest in a worker, so the time until the whole set has been read is
reported too (measured in-process, headless).
"""

from __future__ import annotations

import argparse
import asyncio
import compileall
import fcntl
import os
import pty
import select
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from synth import write_synthetic_jsonl  # noqa: E402

KEYS = ("a", "s", "u", "right", "left", "a")
# The installed command, as a user types it (``python -m reviewtui`` where no script was installed).
_SCRIPT = Path(sys.executable).with_name("reviewtui")
REVIEWTUI = [str(_SCRIPT)] if _SCRIPT.exists() else [sys.executable, "-m", "reviewtui"]


async def _keys_cpu(path: Path, presses: int) -> list[float]:
    from textual import events

    from reviewtui.evalset.review.session import ReviewSession
    from reviewtui.tui.app import ReviewApp

    journal = path.with_suffix(".bench-journal")
    journal.unlink(missing_ok=True)
    session = ReviewSession.open(path, journal_path=journal, reviewer="bench")
    samples: list[float] = []
    try:
        app = ReviewApp(session, scan=lambda evalset, *, progress, cancelled: ({}, []))
        async with app.run_test(size=(120, 40)) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause()
            for n in range(presses):
                key = KEYS[n % len(KEYS)]
                start = time.process_time()
                app.screen.post_message(events.Key(key, key if len(key) == 1 else None))
                await pilot.pause()
                samples.append(time.process_time() - start)
    finally:
        session.close()
        journal.unlink(missing_ok=True)
    return samples


BARE_APP = r"""
from textual.app import App
from textual.widgets import Static
class Bare(App):
    def compose(self):
        yield Static("hello from a bare app")
Bare().run()
"""

WHOLE_SET = r"""
# `reviewtui FILE` run headless in this process, timed until the whole set has been read.
import sys, time
t0 = time.perf_counter()
path, journal = sys.argv[1], sys.argv[2]
from textual.app import App
from reviewtui.tui.app import ReviewApp
def on_ready(self):
    self.set_interval(0.01, lambda: self.session.loading is None and self.exit())
ReviewApp.on_ready = on_ready
ReviewApp.run = lambda self, **kw: App.run(self, headless=True)
from reviewtui.cli import main
main([path, "--journal", journal, "--reviewer", "bench"])
print(time.perf_counter() - t0)
"""

TERMINAL_SIZE = (120, 40)  # columns, rows
QUIT = b"\x11"  # ctrl+q


def seconds_to_show(argv: list[str], marker: bytes, *, timeout: float = 60.0) -> float:
    """Seconds from starting ``argv`` in a pseudo-terminal until ``marker`` reaches the terminal.

    The program runs as a user runs it: a real terminal driver, nothing patched,
    the interpreter's own start-up included. Once the marker is seen it is sent
    ctrl+q, and its output is drained until it exits.
    """
    env = {**os.environ, "TERM": "xterm-256color", "REVIEWTUI_CONFIG": os.devnull}
    start = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:  # the child: size its terminal, then become the program
        columns, rows = TERMINAL_SIZE
        fcntl.ioctl(sys.stdout.fileno(), termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        os.execvpe(argv[0], argv, env)
    seen, tail = None, b""
    deadline = start + timeout
    try:
        while time.perf_counter() < deadline:
            ready, _, _ = select.select([fd], [], [], 0.05)
            if not ready:
                continue
            try:
                data = os.read(fd, 1 << 16)
            except OSError:  # the program has exited and closed the terminal
                break
            if not data:
                break
            if seen is None:
                tail = tail[-len(marker) :] + data
                if marker in tail:
                    seen = time.perf_counter() - start
                    os.write(fd, QUIT)
    finally:
        _, status = os.waitpid(pid, 0)
        os.close(fd)
    if seen is None:
        raise RuntimeError(f"{argv[-1]}: {marker!r} never appeared (exit status {status})")
    return seen


def _compile_package() -> None:
    """Bring reviewtui's bytecode caches up to date, as `pip install .` does.

    Python skips writing them when PYTHONDONTWRITEBYTECODE is set (it is on some
    machines), and a stale cache makes every launch recompile the changed modules.
    """
    import reviewtui

    compileall.compile_dir(Path(reviewtui.__file__).parent, quiet=1)


def _first_question(path: Path | None) -> float:
    """Seconds until the first question (or, with no path, the bare app's text) is on the terminal."""
    if path is None:
        return seconds_to_show([sys.executable, "-c", BARE_APP], b"hello from a bare app")
    journal = path.with_suffix(".launch-journal")
    journal.unlink(missing_ok=True)
    try:
        # Every synthetic id starts "syn-", and only the question pane shows an item id.
        return seconds_to_show([*REVIEWTUI, str(path), "--journal", str(journal)], b"syn-")
    finally:
        journal.unlink(missing_ok=True)


def _whole_set(path: Path, runs: int) -> float:
    """Median seconds until the whole set has been read, over fresh processes."""
    times = []
    for _ in range(runs):
        journal = path.with_suffix(".launch-journal")
        journal.unlink(missing_ok=True)
        out = subprocess.run(
            [sys.executable, "-c", WHOLE_SET, str(path), str(journal)], capture_output=True, text=True, check=True
        )
        journal.unlink(missing_ok=True)
        times.append(float(out.stdout.split()[-1]))
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--million", action="store_true", help="also time launch on 1M items")
    parser.add_argument("--presses", type=int, default=240)
    parser.add_argument("--runs", type=int, default=9, help="fresh processes per launch figure (default 9)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="reviewtui-bench-") as tmp:
        folder = Path(tmp)
        sets = {n: write_synthetic_jsonl(folder / f"set{n}.jsonl", n) for n in (1_000, 10_000, 100_000)}
        if args.million:
            sets[1_000_000] = write_synthetic_jsonl(folder / "set1m.jsonl", 1_000_000)

        print("CPU per key press (posted Key events, until idle), microseconds")
        print(f"{'items':>9} {'median':>9} {'p90':>9} {'max':>9}")
        medians = {}
        for n in (1_000, 100_000):
            samples = asyncio.run(_keys_cpu(sets[n], args.presses))
            samples.sort()
            medians[n] = statistics.median(samples)
            p90 = samples[int(len(samples) * 0.9)]
            print(f"{n:>9,} {medians[n] * 1e6:>9.0f} {p90 * 1e6:>9.0f} {samples[-1] * 1e6:>9.0f}")
        print(f"100k / 1k median ratio: {medians[100_000] / medians[1_000]:.2f} (goal: about 1, i.e. O(1) per key)")

        print()
        print(
            f"Launch of `reviewtui FILE` in a {TERMINAL_SIZE[0]}x{TERMINAL_SIZE[1]} terminal "
            f"(median of {args.runs} fresh processes), seconds"
        )
        _compile_package()
        launched = [None, *sorted(k for k in sets if 10_000 <= k < 1_000_000)]
        firsts: dict[int | None, list[float]] = {n: [] for n in launched}
        for _ in range(args.runs):  # interleaved, so a change in the machine's speed hits every row alike
            for n in launched:
                firsts[n].append(_first_question(None if n is None else sets[n]))
        if args.million:
            firsts[1_000_000] = [_first_question(sets[1_000_000])]
        bare = statistics.median(firsts.pop(None))
        print(f"{'':>18} {'first question':>15} {'x bare':>7} {'whole set read':>15}")
        print(f"{'bare Textual app':>18} {bare:>15.2f}")
        for n, times in firsts.items():
            first = statistics.median(times)
            whole = _whole_set(sets[n], 1 if n >= 1_000_000 else args.runs)
            print(f"{n:>18,} {first:>15.2f} {first / bare:>7.1f} {whole:>15.2f}")
        print("goal: first question at 100k <= 1.0 s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

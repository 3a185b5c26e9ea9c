"""How fast the review app feels: CPU per key press, and time from launch to the first question.

    python benchmarks/bench_tui.py            # 1k and 100k key presses; launch at 10k and 100k
    python benchmarks/bench_tui.py --million  # also launch at 1M (several minutes)

Key presses are posted to the app as Key events and the CPU time of the process
is read around each one until the app is idle again, so Pilot's fixed waits do
not count; the median over many presses is compared between a 1k and a 100k
set (the per-key cost must not grow with the set). Launch is timed in a fresh
process up to the moment the first question has been drawn, beside a bare
Textual app started the same way in the same run. Launch runs the real command
line (``reviewtui FILE``, headless) and also reports when the whole set has been
read: a large JSONL set opens on its first items and reads the rest in a worker.
"""

from __future__ import annotations

import argparse
import asyncio
import compileall
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from synth import write_synthetic_jsonl  # noqa: E402

KEYS = ("a", "s", "u", "right", "left", "a")


async def _keys_cpu(path: Path, presses: int) -> list[float]:
    from textual import events

    from reviewtui.evalset.session import ReviewSession
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


LAUNCH = r"""
import sys, time
t0 = time.perf_counter()
kind, path, journal = sys.argv[1], sys.argv[2], sys.argv[3]
if kind == "bare":
    from textual.app import App
    from textual.widgets import Static
    class Bare(App):
        def compose(self):
            yield Static("hello")
        def on_ready(self):
            self.call_after_refresh(self.done)
        def done(self):
            print(time.perf_counter() - t0, 0.0)
            self.exit()
    Bare().run(headless=True)
else:
    # The real command line (`reviewtui FILE`), headless, timed to the first question drawn and
    # to the moment the whole set has been read.
    from textual.app import App
    from reviewtui.tui.app import ReviewApp
    marks = {}
    def on_ready(self):
        self.call_after_refresh(lambda: marks.setdefault("first", time.perf_counter() - t0))
        self.set_interval(0.01, lambda: self.session.loading is None and self.exit())
    ReviewApp.on_ready = on_ready
    ReviewApp.run = lambda self, **kw: App.run(self, headless=True)
    from reviewtui.cli import main
    main([path, "--journal", journal, "--reviewer", "bench"])
    print(marks["first"], time.perf_counter() - t0)
"""


def _compile_package() -> None:
    """Bring reviewtui's bytecode caches up to date, as `pip install .` does.

    Python skips writing them when PYTHONDONTWRITEBYTECODE is set (it is on some
    machines), and a stale cache makes every launch recompile the changed modules.
    """
    import reviewtui

    compileall.compile_dir(Path(reviewtui.__file__).parent, quiet=1)


def _launch(kind: str, path: Path, runs: int = 3) -> tuple[float, float]:
    """Median seconds to the first question drawn and to the whole set read, over fresh processes."""
    firsts, wholes = [], []
    for _ in range(runs):
        journal = path.with_suffix(".launch-journal")
        journal.unlink(missing_ok=True)
        out = subprocess.run(
            [sys.executable, "-c", LAUNCH, kind, str(path), str(journal)],
            capture_output=True,
            text=True,
            check=True,
        )
        journal.unlink(missing_ok=True)
        first, whole = out.stdout.strip().splitlines()[-1].split()
        firsts.append(float(first))
        wholes.append(float(whole))
    return statistics.median(firsts), statistics.median(wholes)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--million", action="store_true", help="also time launch on 1M items")
    parser.add_argument("--presses", type=int, default=240)
    parser.add_argument("--runs", type=int, default=5, help="fresh processes per launch figure (default 5)")
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
        print(f"Launch of `reviewtui FILE` (median of {args.runs} fresh processes), seconds")
        _compile_package()
        bare, _ = _launch("bare", sets[1_000], runs=args.runs)
        print(f"{'':>18} {'first question':>15} {'x bare':>7} {'whole set read':>15}")
        print(f"{'bare Textual app':>18} {bare:>15.2f}")
        for n in sorted(k for k in sets if k >= 10_000):
            first, whole = _launch("review", sets[n], runs=1 if n >= 1_000_000 else args.runs)
            print(f"{n:>18,} {first:>15.2f} {first / bare:>7.1f} {whole:>15.2f}")
        print("goal: first question at 100k <= 1.0 s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

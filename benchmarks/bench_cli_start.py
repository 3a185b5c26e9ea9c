"""How long the installed ``reviewtui`` takes to print its help or refuse a wrong command line.

Each command is started as a user starts it (the console script, a fresh process, no
terminal), alternating with ``python -c pass`` (the same interpreter: the floor for any
Python command), and the benchmark checks that each did what it is timed for: help
exits 0 and prints its usage; a usage error exits 2 and prints the usage line and the
error on stderr, without a traceback. The target (issue: speed) is at most 3× the floor.

    python benchmarks/bench_cli_start.py [--runs 21]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time

TARGET = 3.0

#: (what it is, arguments, expected exit code, text the output must hold)
COMMANDS: tuple[tuple[str, tuple[str, ...], int, str], ...] = (
    ("`reviewtui --help`", ("--help",), 0, "usage: reviewtui"),
    ("`reviewtui audit --help`", ("audit", "--help"), 0, "usage: reviewtui audit"),
    ("usage error: a command without its file", ("audit",), 2, "the following arguments are required"),
    ("usage error: an unknown option", ("--no-such-option",), 2, "unrecognized arguments"),
    ("usage error: an unknown option after a command's file", ("status", "x.jsonl", "--no-such-option"), 2, "unrecognized arguments"),
)


def _timed(argv: list[str], code: int | None = None, text: str = "") -> float:
    started = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    elapsed = time.perf_counter() - started
    output = done.stdout + done.stderr
    if code is not None and done.returncode != code:
        raise SystemExit(f"{argv}: exit {done.returncode}, expected {code}:\n{output}")
    if text and text not in output:
        raise SystemExit(f"{argv}: the output does not say {text!r}:\n{output}")
    if "Traceback" in output:
        raise SystemExit(f"{argv}: a traceback:\n{output}")
    return elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=21, help="fresh processes per command (default 21)")
    args = parser.parse_args(argv)
    exe = shutil.which("reviewtui")
    if exe is None:
        raise SystemExit("reviewtui is not installed on PATH: install the package first (see the README)")
    from bytecode import compile_package

    compile_package()  # timed as an installed command runs: see bytecode.py
    floor: list[float] = []
    times: dict[str, list[float]] = {name: [] for name, *_ in COMMANDS}
    _timed([exe, "--help"], 0)  # warm the file cache before anything is timed
    for _ in range(args.runs):
        for name, arguments, code, text in COMMANDS:
            floor.append(_timed([sys.executable, "-c", "pass"], 0))
            times[name].append(_timed([exe, *arguments], code, text))
    base = statistics.median(floor)
    print(f"python -c pass: median {base * 1000:.0f} ms, best {min(floor) * 1000:.0f} ms ({len(floor)} runs)\n")
    print("| command | median | best | × `python -c pass` (median) | target ≤ 3× |")
    print("|---|---:|---:|---:|---|")
    missed = 0
    for name, found in times.items():
        ratio = statistics.median(found) / base
        missed += ratio > TARGET
        print(
            f"| {name} | {statistics.median(found) * 1000:.0f} ms | {min(found) * 1000:.0f} ms | {ratio:.1f}× "
            f"| {'ok' if ratio <= TARGET else 'MISS'} |"
        )
    print(f"\nEach command ran {args.runs} times, alternating with `python -c pass`; exit codes and output checked.")
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())

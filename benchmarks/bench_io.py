"""How fast native JSONL loads and writes, next to bare orjson on the same file.

Usage::

    python benchmarks/bench_io.py                 # N = 10k and 100k
    python benchmarks/bench_io.py --million       # also N = 1M (several minutes)
    python benchmarks/bench_io.py --sizes 20000   # any sizes

Each memory figure comes from a fresh Python process that prepares and runs one
operation once, so its peak RSS (``VmHWM`` in ``/proc/self/status``, read by that
process at its end) belongs to that operation alone. Not ``ru_maxrss``: Linux
carries the high-water mark of the process that started a command into the
command's ``ru_maxrss``, so it would count this script's own peak as well. Times come
from one more process that runs all operations in ``--repeat`` interleaved
rounds and keeps each one's best, so that other load on the machine hits them
alike.

What is compared:

- load: ``read_jsonl`` (parse, validate every item, build the set) against a
  per-line ``orjson.loads`` into a list of dicts, the bare parse, measured twice:
  as people usually write it (garbage collector on) and with the collector
  paused, as ``read_jsonl`` does; and beside both the *pydantic floor*: every item
  line made into plain pydantic models of an item's shape (pydantic's defaults, none
  of the item model's constraints or checks), which is what making models from these
  lines costs at the least, whatever a reader checks;
- write: ``write_jsonl`` (serialise, write to a temporary file, fsync, rename)
  against ``orjson.dumps`` of each parsed dict, joined and written with a plain
  ``write`` (no fsync). The serialise-only columns leave the disk out of both.

Goals for N = 100k: load <= 3x the orjson parse, write <= 2x the orjson dump,
peak RSS of the load <= 4x the file size.

Every run is checked after it is timed: each parse has as many records as the file has lines,
``read_jsonl`` and the floor as many items, and each write wrote every line (its output file is removed
before each timed write, untimed, so the count is of that write's lines alone); the script stops otherwise.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
MEMORY_KINDS = ("baseline", "orjson_parse_gc_on", "read_jsonl", "orjson_dump", "write_jsonl")


# --- the child side: one process per memory measurement, one for all the timings ----------


def _orjson_lines(path: Path) -> list:
    import orjson

    with open(path, "rb") as handle:
        return [orjson.loads(line) for line in handle if line.strip()]


def _orjson_lines_gc_paused(path: Path) -> list:
    gc.disable()
    try:
        return _orjson_lines(path)
    finally:
        gc.enable()


def _pydantic_floor() -> Any:
    """A reader of item lines into plain pydantic models of an item's shape: pydantic's defaults, none of
    the item model's constraints, strictness or validators of its own. What making models from these
    lines costs at least, whatever the checks: the floor under ``read_jsonl``."""
    from pydantic import BaseModel

    class Span(BaseModel):
        doc_id: str
        start: int
        end: int

    class GoldSpan(BaseModel):
        span: Span
        grade: int = 2

    class GoldAnchor(BaseModel):
        source_id: str
        quote: str
        grade: int = 2
        page_hint: int | None = None
        occurrence: int = 0

    class Item(BaseModel):
        id: str
        question: str
        gold: tuple[GoldSpan, ...] = ()
        anchors: tuple[GoldAnchor, ...] = ()
        qtype: str | None = None
        answer: str | None = None
        meta: dict[str, Any] = {}

    validate = Item.__pydantic_validator__.validate_json

    def read(path: Path) -> list:
        was_on = gc.isenabled()  # a caller that paused the collector itself keeps it paused after
        gc.disable()
        try:
            with open(path, "rb") as handle:
                return [validate(line) for line in handle if line.strip() and not line.startswith(b'{"_evalset"')]
        finally:
            if was_on:
                gc.enable()

    return read


def _operations(path: Path) -> dict:
    """Each measured operation as a no-argument callable, plus what it needs prepared."""
    import orjson

    from reviewtui.evalset.io import read_jsonl, write_jsonl
    from reviewtui.evalset.io.jsonl import _encoded_lines

    out = path.with_suffix(".out.jsonl")
    prepared: dict = {}
    floor = _pydantic_floor()

    def records() -> list:
        if "records" not in prepared:
            prepared["records"] = _orjson_lines_gc_paused(path)
        return prepared["records"]

    def evalset():
        if "evalset" not in prepared:
            prepared["evalset"] = read_jsonl(path)
        return prepared["evalset"]

    def dump_bytes() -> bytes:
        dumps = orjson.dumps
        return b"\n".join([dumps(r) for r in records()]) + b"\n"

    def dump_file() -> None:
        with open(out, "wb") as handle:
            handle.write(dump_bytes())

    return {
        "baseline": (lambda: None, []),
        "orjson_parse_gc_on": (lambda: _orjson_lines(path), []),
        "orjson_parse_gc_off": (lambda: _orjson_lines_gc_paused(path), []),
        "read_jsonl": (lambda: read_jsonl(path), []),
        "pydantic_floor": (lambda: floor(path), []),
        "orjson_dump": (dump_file, [records]),
        "orjson_dump_bytes": (dump_bytes, [records]),
        "write_jsonl": (lambda: write_jsonl(evalset(), out), [evalset]),
        "write_jsonl_bytes": (lambda: b"".join(_encoded_lines(evalset())), [evalset]),
        "_out": out,
    }


def _lines(path: Path) -> int:
    with open(path, "rb") as handle:
        return sum(1 for line in handle if line.strip())


WRITE_KINDS = ("orjson_dump", "write_jsonl")


def _clear_output(kind: str, out: Path) -> None:
    """Remove the output file before a write is timed (not counted), so that its check sees only what that
    write wrote, not lines another operation or an earlier round left there."""
    if kind in WRITE_KINDS:
        out.unlink(missing_ok=True)


def _check_done(kind: str, result: object, path: Path, out: Path, lines: int) -> None:
    """Stop unless ``kind`` really did its work: every line parsed, every item read, every line written.

    ``lines``: the input's non-blank lines, its header among them. Checked outside the timed span.
    """
    if kind.startswith("orjson_parse"):
        done = len(result)  # type: ignore[arg-type]
    elif kind in ("read_jsonl", "pydantic_floor"):
        done = len(result) + 1  # type: ignore[arg-type]  # the items, and the header the set carries (or skipped)
    elif kind.endswith("_bytes"):
        done = bytes(result).count(b"\n")  # type: ignore[call-overload]
    elif kind in WRITE_KINDS:
        done = _lines(out) if out.exists() else 0
    else:
        return
    if done != lines:
        raise SystemExit(f"bench_io: {kind} handled {done:,} lines of {lines:,}: the work timed did not happen")


def _child_memory(kind: str, path: Path) -> dict[str, float]:
    """Peak RSS of a process that prepares and runs one operation once."""
    operations = _operations(path)
    run, needs = operations[kind]
    for need in needs:
        need()
    _clear_output(kind, operations["_out"])
    gc.collect()
    before = _current_rss_mb()
    result = run()
    peak = _peak_rss_mb()  # read before the check, which reads the output file back
    _check_done(kind, result, path, operations["_out"], _lines(path))
    del result
    if operations["_out"].exists():
        operations["_out"].unlink()
    return {"peak_mb": peak, "before_mb": before}


def _peak_rss_mb() -> float:
    """This process's own peak resident memory (Linux /proc; elsewhere ru_maxrss, which may include
    the peak of the process that started this one)."""
    try:
        with open("/proc/self/status") as handle:
            for line in handle:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _current_rss_mb() -> float:
    """Resident memory now (Linux /proc; falls back to the peak elsewhere)."""
    try:
        with open("/proc/self/statm") as handle:
            return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _child_times(path: Path, repeat: int) -> dict[str, float]:
    """Best time of each operation over ``repeat`` interleaved rounds.

    Interleaving gives every operation the same share of whatever else the
    machine is doing, so the ratios hold up better than the absolute times.
    """
    operations = _operations(path)
    kinds = [k for k in operations if k not in ("baseline", "_out")]
    for kind in kinds:
        for need in operations[kind][1]:
            need()
    best = dict.fromkeys(kinds, float("inf"))
    lines = _lines(path)
    for _ in range(repeat):
        for kind in kinds:
            _clear_output(kind, operations["_out"])
            gc.collect()
            start = time.perf_counter()
            result = operations[kind][0]()
            best[kind] = min(best[kind], time.perf_counter() - start)
            _check_done(kind, result, path, operations["_out"], lines)
            del result
    if operations["_out"].exists():
        operations["_out"].unlink()
    return best


# --- the parent side: make files, run children, print the table -----------------------------


def _run_child(*args: str) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), *args], check=True, capture_output=True, text=True
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def _row(n: int, folder: Path, repeat: int) -> dict[str, object]:
    sys.path.insert(0, str(HERE))
    from synth import write_synthetic_jsonl

    path = write_synthetic_jsonl(folder / f"synthetic-{n}.jsonl", n)
    size_mb = path.stat().st_size / 1e6
    memory = {kind: _run_child("--memory", kind, str(path)) for kind in MEMORY_KINDS}
    times = _run_child("--times", str(path), "--repeat", str(repeat))
    path.unlink()
    return {"n": n, "file_mb": size_mb, "memory": memory, "times": times}


def _fmt_n(n: int) -> str:
    return f"{n // 1_000_000}M" if n % 1_000_000 == 0 else f"{n // 1000}k" if n % 1000 == 0 else str(n)


def _print(rows: list[dict]) -> None:
    print("\nLoad (seconds; ratio = read_jsonl / orjson parse; the pydantic floor: plain models of an item's shape)\n")
    print(
        "| N | file MB | read_jsonl | orjson parse, GC on | ratio | orjson parse, GC paused | ratio "
        "| pydantic floor | / parse, GC paused |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        t = r["times"]
        ours, on, off, floor = t["read_jsonl"], t["orjson_parse_gc_on"], t["orjson_parse_gc_off"], t["pydantic_floor"]
        print(
            f"| {_fmt_n(r['n'])} | {r['file_mb']:.1f} | {ours:.3f} | {on:.3f} | {ours / on:.2f}x | {off:.3f} "
            f"| {ours / off:.2f}x | {floor:.3f} | {floor / off:.2f}x |"
        )
    print("\nWrite (seconds; ratio = write_jsonl / orjson dump)\n")
    print("| N | write_jsonl (atomic, fsync) | orjson dump + plain write | ratio | serialise only: ours | orjson | ratio |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        t = r["times"]
        ours, base = t["write_jsonl"], t["orjson_dump"]
        ours_b, base_b = t["write_jsonl_bytes"], t["orjson_dump_bytes"]
        print(
            f"| {_fmt_n(r['n'])} | {ours:.3f} | {base:.3f} | {ours / base:.2f}x "
            f"| {ours_b:.3f} | {base_b:.3f} | {ours_b / base_b:.2f}x |"
        )
    print("\nPeak RSS (MB, each in its own process; 'growth' = peak minus the RSS just before the operation)\n")
    print(
        "| N | file MB | interpreter + imports | read_jsonl peak | /file | growth | /file "
        "| orjson parse (GC on) peak | /file | write_jsonl peak | orjson dump peak |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        m, size = r["memory"], r["file_mb"]
        base, load, parse = m["baseline"]["peak_mb"], m["read_jsonl"]["peak_mb"], m["orjson_parse_gc_on"]["peak_mb"]
        growth = load - m["read_jsonl"]["before_mb"]
        print(
            f"| {_fmt_n(r['n'])} | {size:.1f} | {base:.0f} | {load:.0f} | {load / size:.2f}x | {growth:.0f} | {growth / size:.2f}x "
            f"| {parse:.0f} | {parse / size:.2f}x | {m['write_jsonl']['peak_mb']:.0f} | {m['orjson_dump']['peak_mb']:.0f} |"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--million", action="store_true", help="also run N = 1,000,000 (minutes, ~1 GB disk)")
    parser.add_argument("--repeat", type=int, default=5, help="best of this many runs per measurement (1 for 1M)")
    parser.add_argument("--memory", nargs=2, metavar=("KIND", "PATH"), help=argparse.SUPPRESS)
    parser.add_argument("--times", metavar="PATH", help=argparse.SUPPRESS)
    parser.add_argument("--workdir", type=Path, default=None, help="where to put the synthetic files")
    args = parser.parse_args(argv)
    if args.memory:
        print(json.dumps(_child_memory(args.memory[0], Path(args.memory[1]))))
        return 0
    if args.times:
        print(json.dumps(_child_times(Path(args.times), args.repeat)))
        return 0
    sizes = list(args.sizes) + ([1_000_000] if args.million else [])
    rows = []
    with tempfile.TemporaryDirectory(dir=args.workdir) as folder:
        for n in sizes:
            # Small sets finish fast and suffer most from noise: give them more rounds.
            repeat = 1 if n >= 1_000_000 else args.repeat * 3 if n <= 20_000 else args.repeat
            print(f"measuring N = {n:,} ...", file=sys.stderr, flush=True)
            rows.append(_row(n, Path(folder), repeat))
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs")
    _print(rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Several reviewers: how long agreement and the merged export take on a team's journals.

    python benchmarks/bench_team.py                 # 5 reviewers x 10k items, 20 reviewers x 100k items
    python benchmarks/bench_team.py --sizes 5x10000

Each case writes a synthetic set, a plan with two reviewers per item (``assign --overlap 2``)
and every reviewer's journal, made through ``ReviewSession`` as the app makes them (journals
synced at close, to build them quickly; the figures below only read them). The reviewers
agree on most items and differ on about one in ten, so agreement and consensus have work to do.

Timed, best of three, each in this process: ``agreement`` (every journal read and replayed
once, then percent agreement, Cohen's kappa per pair, Fleiss' kappa, Krippendorff's alpha and
Gwet's AC1 on verdicts, reasons and types, with 1000 bootstrap resamples each) and the merged
export (``export --consensus majority``: journals read, consensus, the next version written).
The baseline, in the same run: reading every journal file and parsing each record with orjson,
the least any of this could cost. The benchmark checks that the work happened: every decision
made is in the journals read, every item was compared, and each export wrote every item of the
merged set (its file removed before each run and read back after it, neither timed), each item carrying
the consensus of its two reviewers' decisions.
Goals: 5 x 10k <= 2 s and 20 x 100k <= 20 s for each, and memory linear in the decisions: after
the timings each is run once more under tracemalloc, and the peak of what it allocates is printed
per decision, so the two cases can be compared.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Mapping
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).parent))
from synth import write_synthetic_jsonl

from reviewtui.evalset.io import open_evalset
from reviewtui.evalset.review.agreement import agreement_report
from reviewtui.evalset.review.export import write_evalset
from reviewtui.evalset.review.session import ReviewSession
from reviewtui.evalset.review.team import TeamPlan
from reviewtui.evalset.review.teamwork import decided_by, merged_set, ratings_from, team_decisions


def build(folder: Path, reviewers: int, items: int) -> tuple[Path, TeamPlan, int, int]:
    path = write_synthetic_jsonl(folder / f"team{reviewers}x{items}.jsonl", items)
    names = [f"reviewer{k:02d}" for k in range(reviewers)]
    plan = TeamPlan.create(path, names, 2)
    plan.save()
    rng = random.Random(7)
    made = 0
    judged: dict[str, int] = {}  # item -> reviewers who gave a verdict (a skip is none)
    for name in names:
        with ReviewSession.open(path, reviewer=name, team=plan, durability="close", include_reviewed=True) as session:
            while session.queue.current is not None:
                item_id = session.queue.current.id
                roll = rng.random()
                if roll < 0.95:
                    judged[item_id] = judged.get(item_id, 0) + 1
                if roll < 0.85:
                    session.accept()
                elif roll < 0.95:
                    session.reject(reason="ambiguous" if roll < 0.9 else "duplicate")
                else:
                    session.skip()
                made += 1
    return path, plan, made, sum(1 for count in judged.values() if count >= 2)


def best_of(runs: int, work, before=None, after=None) -> tuple[float, object]:
    """The best time of ``runs`` calls of ``work()`` and the last result; ``before()`` and ``after(result)`` run
    around each call, untimed (to clear an output, and to check it)."""
    times, result = [], None
    for _ in range(runs):
        if before is not None:
            before()
        start = time.perf_counter()
        result = work()
        times.append(time.perf_counter() - start)
        if after is not None:
            after(result)
    return min(times), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="5x10000,20x100000", help="comma list of REVIEWERSxITEMS")
    args = parser.parse_args()
    print("case            decisions  baseline s  agreement s   ratio  merged export s   ratio  goal s")
    peaks: list[tuple[str, int, int, int]] = []
    with tempfile.TemporaryDirectory(prefix="bench-team-") as tmp:
        for case in args.sizes.split(","):
            reviewers, items = (int(part) for part in case.split("x"))
            folder = Path(tmp) / case
            folder.mkdir()
            path, plan, made, both_judged = build(folder, reviewers, items)
            evalset = open_evalset(path)

            def baseline() -> int:
                count = 0
                for journal in plan.folder.glob("*.reviewtui-journal"):
                    for line in journal.read_bytes().splitlines():
                        orjson.loads(line.rsplit(b"\t", 1)[-1]) if b"\t" in line else orjson.loads(line)
                        count += 1
                return count

            def agreement() -> tuple[int, int]:
                decisions = team_decisions(plan, evalset, path)
                reports = [agreement_report(ratings_from(decisions, what), resamples=1000) for what in ("verdict", "reason", "qtype")]
                return sum(decided_by(plan, decisions).values()), reports[0].compared_items

            out = folder / "merged.jsonl"

            def export() -> int:
                merged, _unsettled = merged_set(plan, evalset, path, "majority")
                write_evalset(merged, out)
                return len(merged)

            def clear() -> None:
                out.unlink(missing_ok=True)

            def exported(kept: int) -> None:
                """Untimed, after each export: the file it wrote holds every item of the merged set, each kept by the
                consensus of both its reviewers (every item here was decided by the two the plan gave it)."""
                written = open_evalset(out) if out.exists() else ()
                out.unlink(missing_ok=True)
                if not kept or len(written) != kept:
                    raise SystemExit(f"bench_team: the merged set holds {kept:,} items but the export wrote {len(written):,}")
                unmerged = sum(
                    1
                    for item in written
                    if not isinstance(review := item.meta.get("review"), Mapping)
                    or review.get("verdict") not in ("accepted", "edited")
                    or len(review.get("decisions") or ()) != 2
                )
                if unmerged:
                    raise SystemExit(
                        f"bench_team: {unmerged:,} of the {kept:,} items exported carry no consensus of their two reviewers' "
                        "decisions: the merge timed did not happen"
                    )

            base, _ = best_of(3, baseline)
            took, (counted, compared) = best_of(3, agreement)  # type: ignore[misc]
            merged_took, _kept = best_of(3, export, clear, exported)
            if counted != made:
                raise SystemExit(f"bench_team: {made} decisions made but {counted} read back from the journals")
            if compared != both_judged:
                raise SystemExit(f"bench_team: {both_judged} items judged by two reviewers but {compared} compared")
            goal = 2.0 if items <= 10_000 else 20.0
            print(
                f"{reviewers:>3} x {items:<9,} {made:>10,} {base:>11.2f} {took:>12.2f} {took / base:>7.1f}x"
                f" {merged_took:>16.2f} {merged_took / base:>7.1f}x {goal:>7.0f}"
            )
            peaks.append((case, made, traced_peak(agreement), traced_peak(export)))
            clear()
    print()
    print("memory (untimed runs under tracemalloc: the peak of what each allocates, the set read before it)")
    print("case            decisions  agreement MB  bytes/decision  merged export MB  bytes/decision")
    for case, made, agreeing, exporting in peaks:
        print(
            f"{case:<15} {made:>10,} {agreeing / 2**20:>13.1f} {agreeing / made:>15,.0f} "
            f"{exporting / 2**20:>17.1f} {exporting / made:>15,.0f}"
        )


def traced_peak(work) -> int:
    """Bytes at the peak of what ``work()`` allocates (tracemalloc), above what was allocated before."""
    tracemalloc.start()
    try:
        work()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


if __name__ == "__main__":
    main()

"""How long the quality layer takes on 1k, 10k and 100k synthetic questions.

Columns (seconds, wall clock, best of --repeat runs):

* chain   — ``default_filters(baseline_scores=…, answerer=…).run(set)``: all six filters, each on the
            survivors of the one before (the documented chain; a stand-in model answers instantly);
* chain†  — the same chain on the set with its gold spans removed: the unresolved-evidence filter then
            stands down, so every later filter (near-duplicates over all pairs included) sees every item.
            On the synthetic set as generated, 90 % of items have quotes but no gold and are removed
            early, which makes ``chain`` cheap;
* audit   — ``audit(set)``: the seven golden-set checks, near-duplicates over all pairs;
* total   — chain + audit (total† = chain† + audit);
* scan×1  — ``scan_flags(set, …, workers=1)``: every filter on *every* item, the audit, type hints and the
            set-level cautions (what the review app runs once per set), all in this process, on one core;
* scan×2  — the same scan with ``workers=2``: both similarity joins (with numpy) and the rest of the audit
            run in a forked child on the second core (the default from 2,000 items); its result is checked
            to be identical to scan×1's;
* goal    — scan×2 / 5 s at 100k: the goal is every filter and every audit check on 100k questions in
            ≤ 5 s on a 2-core machine, and the scan does all of that (and more);
* join    — the similarity join behind near-duplicates (the sweep, as in the calling process), against
            comparing all pairs by brute force (measured up to --brute-max items, extrapolated quadratically
            beyond; marked "est");
* join·np — the same join with numpy (``vectorised=True``, from 10k sets; what the scan's child runs),
            checked to find the same pairs.

Every result is checked after its timing, and the script stops unless it holds: each of --repeat runs
gives the same counts; chain and chain† keep and remove, filter by filter, what the documented chain
replayed from a scan of the same set keeps and removes (scan×1's for chain, an untimed two-core scan of
the set without gold for chain†); audit's status and findings per check are those of an untimed
``audit(set, vectorised=True)``, its near-duplicate findings are not none, and up to --brute-max they are
the pairs found by comparing every pair of questions; and every scan×2 run really had a child process: the CPU time of this
process's finished children (``RUSAGE_CHILDREN``) grew across the call (a scan that cannot fork does
everything in this process, quietly).

Usage: python benchmarks/bench_quality.py [--sizes 1000,10000,100000] [--repeat 1] [--brute-max 3000]
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from collections import Counter
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from synth import generate_evalset

import reviewtui as cg
from reviewtui.evalset.checks.audit import audit, prepare
from reviewtui.evalset.checks.scan import scan_flags
from reviewtui.evalset.checks.simjoin import similar_pairs
from reviewtui.evalset.jobs.fork import can_fork
from reviewtui.evalset.text.words import word_set

# This process times the numpy join too. Importing numpy starts OpenBLAS's thread pool, which would
# stop every later scan×2 here from forking (see reviewtui.evalset.jobs.fork.can_fork); the join does
# no linear algebra, so one BLAS thread changes nothing else.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

GOAL_SECONDS = 5.0
GOAL_SIZE = 100_000


def best_of(repeat: int, work, counts=None, *, forked: bool = False) -> tuple[float, object]:
    """The best time of ``repeat`` runs of ``work()`` and the last result.

    Checked after each run, untimed: with ``counts``, every run's ``counts(result)`` is the first run's; with
    ``forked``, a child process ran during the call (its CPU time is in this process's RUSAGE_CHILDREN once
    the scan has waited for it), else the script stops: a scan that cannot fork quietly runs on one core.
    """
    best, result, first = float("inf"), None, None
    for run in range(repeat):
        children = children_cpu() if forked else 0.0
        start = time.perf_counter()
        result = work()
        best = min(best, time.perf_counter() - start)
        if forked and children_cpu() <= children:
            raise SystemExit("bench_quality: scan×2 ran no child process (no CPU time in RUSAGE_CHILDREN): it ran on one core")
        if counts is not None:
            got = counts(result)
            if run == 0:
                first = got
            elif got != first:
                raise SystemExit(f"bench_quality: run {run + 1} counted {got}, run 1 {first}")
    return best, result


def children_cpu() -> float:
    """CPU seconds (user + system) of this process's children that have ended and been waited for."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def chain_counts(result) -> tuple[int, dict]:
    """What a filter chain kept, and what each filter removed."""
    return result.kept_count, dict(result.by_filter())


def audit_counts(report) -> tuple[str, int, dict]:
    """An audit's status, its finding count, and its findings per check."""
    return report.status.value, report.summary["finding_count"], dict(Counter(f.check for f in report.findings))


def expect(what: str, n: int, got, wanted) -> None:
    if got != wanted:
        raise SystemExit(f"bench_quality: {what} at {n:,} items gave {got}, where {wanted} was expected: the work timed did not happen")


def brute_force_pairs(sets, threshold: float) -> int:
    found = 0
    for a, b in combinations(sets, 2):
        union = len(a | b)
        if (len(a & b) / union if union else 1.0) >= threshold:
            found += 1
    return found


def audit_pairs_by_brute_force(evalset, threshold: float) -> int:
    """The near-duplicate pairs the audit must report (one finding each, the tool's profile), found by comparing
    every pair: questions that differ once trimmed and lower-cased, content-token Jaccard >= threshold (two
    questions without a token count as identical, as the audit counts them)."""
    prep = prepare(evalset.items)
    tokens = [frozenset(prep.question_tokens[i]) for i in range(len(evalset))]
    forms = [prep.normalised[i] for i in range(len(evalset))]
    found = 0
    for i, j in combinations(range(len(tokens)), 2):
        a, b = tokens[i], tokens[j]
        union = len(a | b)
        if forms[i] != forms[j] and (len(a & b) / union if union else 1.0) >= threshold:
            found += 1
    return found


def same_scan(one, two) -> bool:
    """Two scans found the same flags, in the same order, and said the same things about the set."""
    return (
        list(one.flags.items()) == list(two.flags.items())
        and one.cautions.entries == two.cautions.entries
        and one.audit == two.audit
        and one.chain == two.chain
        and list(one.counts.items()) == list(two.counts.items())
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--brute-max", type=int, default=3000, help="largest size compared by brute force for real")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]

    brute_rate = None  # seconds per pair, measured once
    rows = []
    for n in sizes:
        evalset = generate_evalset(n)
        scores = {item.id: (1.0 if k % 7 == 0 else 0.5) for k, item in enumerate(evalset)}

        def answerer(question: str) -> str:
            return "unknown"

        def chain_of(which):
            return cg.default_filters(baseline_scores=scores, answerer=answerer).run(which)

        chain_s, chain = best_of(args.repeat, lambda: chain_of(evalset), chain_counts)
        unresolved = evalset.with_items(item.model_copy(update={"gold": ()}) for item in evalset)
        chain_all_s, chain_all = best_of(args.repeat, lambda: chain_of(unresolved), chain_counts)
        audit_s, report = best_of(args.repeat, lambda: audit(evalset), audit_counts)
        scan_s, scan = best_of(args.repeat, lambda: scan_flags(evalset, baseline_scores=scores, answerer=answerer, workers=1))
        assert can_fork(), "scan×2 would not fork in this process"
        scan2_s, scan2 = best_of(
            args.repeat, lambda: scan_flags(evalset, baseline_scores=scores, answerer=answerer, workers=2), forked=True
        )
        assert same_scan(scan, scan2), "the one-core and two-core scans disagree"
        # Untimed: what the timed chains and audit produced, against the same work done another way.
        expect("chain", n, chain_counts(chain), chain_counts(scan.chain))
        del scan, scan2
        scan_all = scan_flags(unresolved, baseline_scores=scores, answerer=answerer, workers=2)
        expect("chain†", n, chain_counts(chain_all), chain_counts(scan_all.chain))
        del scan_all
        expect("audit", n, audit_counts(report), audit_counts(audit(evalset, vectorised=True)))
        # The two runs above share every check but the join: the near-duplicates the set is made with (one item in
        # twenty repeats a question with a word changed) must be found, and up to --brute-max all of them.
        near = len(report.of_check("near-duplicates"))
        if not near:
            expect("audit's near-duplicate findings", n, 0, "some (one item in twenty repeats a question)")
        if n <= args.brute_max:
            threshold = report.config.near_duplicate_threshold
            expect("audit's near-duplicate pairs", n, near, audit_pairs_by_brute_force(evalset, threshold))

        sets = [word_set(item.question) for item in evalset]
        join_s, pairs = best_of(args.repeat, lambda: similar_pairs(sets, 0.8))
        join_np_s, pairs_np = best_of(args.repeat, lambda: similar_pairs(sets, 0.8, vectorised=True))
        assert pairs_np == pairs, "the numpy join and the sweep disagree"
        if n <= args.brute_max:
            brute_s, brute_count = best_of(1, lambda: brute_force_pairs(sets, 0.8))
            assert brute_count == len(pairs), "the join and brute force disagree"
            brute_rate = brute_s / (n * (n - 1) / 2)
            brute_label = f"{brute_s:.2f}"
        elif brute_rate is not None:
            brute_s = brute_rate * n * (n - 1) / 2
            brute_label = f"{brute_s:.0f} est"
        else:
            brute_s, brute_label = float("nan"), "n/a"
        timings = (chain_s, chain_all_s, audit_s, scan_s, scan2_s, join_s, join_np_s, brute_s, brute_label)
        rows.append((n, *timings, chain, chain_all, report, len(pairs)))

    def speedup(brute_s: float, join_s: float) -> str:
        return "n/a" if brute_s != brute_s else f"{brute_s / join_s:.0f}x"  # NaN: brute force not measured

    print(
        f"{'items':>8} {'chain':>7} {'chain†':>7} {'audit':>7} {'total':>7} {'total†':>7} {'scan×1':>7} {'scan×2':>7} "
        f"{'goal':>6} {'join':>7} {'join·np':>7} {'all-pairs':>10} {'speed-up':>9}"
    )
    for n, chain_s, chain_all_s, audit_s, scan_s, scan2_s, join_s, join_np_s, brute_s, brute_label, *_ in rows:
        total, total_all = chain_s + audit_s, chain_all_s + audit_s
        goal = f"{scan2_s / GOAL_SECONDS:.2f}x" if n == GOAL_SIZE else ""
        print(
            f"{n:>8} {chain_s:>7.2f} {chain_all_s:>7.2f} {audit_s:>7.2f} {total:>7.2f} {total_all:>7.2f} "
            f"{scan_s:>7.2f} {scan2_s:>7.2f} {goal:>6} {join_s:>7.2f} {join_np_s:>7.2f} {brute_label:>10} "
            f"{speedup(brute_s, join_s):>9}"
        )
    print()
    print("scan×1: scan_flags on one core (workers=1); scan×2: the same scan on two cores (workers=2), same result")
    print("goal column: scan×2 / 5 s at 100k (1.00x or less meets the goal)")
    for n, *_, chain, chain_all, report, npairs in rows:
        print(
            f"{n:>8} items: chain kept {chain.kept_count} ({chain.by_filter()}); chain† kept {chain_all.kept_count}; "
            f"audit {report.status.value}, "
            f"{report.summary['finding_count']} findings; {npairs} word-overlap pairs >= 0.8"
        )


if __name__ == "__main__":
    main()

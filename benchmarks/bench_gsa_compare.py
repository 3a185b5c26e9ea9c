"""Our golden-set audit against goldensetauditor 0.2.0 on the same rows, side by side.

goldensetauditor compares all pairs for near-duplicates and stops at 25,000 pairs
by default (224 rows); here its cap is lifted so both tools do the full job. The
rows are the synthetic set from ``synth.py`` (question, answer, question type as
the category, item id as the row id), with a few of each problem seeded at fixed
positions so that every check has something to find. After timing, the script checks that the
findings are identical, check by check (the same checks naming the same rows), and that the overall
status is the same; it stops otherwise.

Usage: python benchmarks/bench_gsa_compare.py [--rows 2000] [--repeat 3]
Needs the test extras (goldensetauditor, which brings pandas).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import pandas as pd
from goldensetauditor import GoldenSetAuditConfig, audit_golden_set
from synth import generate_evalset

from reviewtui.evalset.checks import audit as au
from reviewtui.evalset.checks.audit import audit

CHECK_NAMES = au.GSA_CHECK_NAMES


def with_defects(evalset):
    """The synthetic set with a few of each problem the audit looks for, at fixed positions.

    The generator writes long answers and plain questions, so on its own only the
    near-duplicate check would find anything.
    """
    items = list(evalset.items)
    for k in range(1, len(items)):
        item = items[k]
        if k % 97 == 0:  # the previous question again, with another answer: a conflict
            item = item.replace(question=items[k - 1].question)
        elif k % 89 == 0:  # the previous question and answer again: an exact duplicate
            item = item.replace(question=items[k - 1].question, answer=items[k - 1].answer)
        elif k % 53 == 0:
            item = item.replace(answer="Yes.")
        elif k % 41 == 0:
            item = item.replace(question=item.question.rstrip("?") + " and is it allowed?")
        elif k % 61 == 0:
            item = item.replace(answer=item.question)
        elif k % 67 == 0:
            item = item.replace(qtype=f"rare-{k}")  # a category of one
        items[k] = item
    return evalset.with_items(items)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3, help="runs of our audit (theirs runs once)")
    args = parser.parse_args()

    evalset = with_defects(generate_evalset(args.rows))
    frame = pd.DataFrame(
        {
            "id": [item.id for item in evalset],
            "question": [item.question for item in evalset],
            "expected_answer": [item.answer for item in evalset],
            "category": [item.qtype for item in evalset],
        }
    )
    config = GoldenSetAuditConfig(category_col="category", id_col="id", max_pairwise_checks=10**12)

    start = time.perf_counter()
    theirs = audit_golden_set(frame, config)
    their_s = time.perf_counter() - start

    our_s = float("inf")
    for _ in range(args.repeat):
        start = time.perf_counter()
        ours = audit(evalset)
        our_s = min(our_s, time.perf_counter() - start)

    their_found = {(CHECK_NAMES[f.check_name], frozenset(map(str, f.row_ids))) for f in theirs.findings if f.row_ids}
    our_found = {(f.check, frozenset(f.item_ids)) for f in ours.findings if f.item_ids}
    their_counts = Counter(check for check, _ in their_found)
    our_counts = Counter(check for check, _ in our_found)

    pairs = args.rows * (args.rows - 1) // 2
    print(f"{args.rows} rows, {pairs:,} question pairs")
    print(f"{'':28} {'goldensetauditor':>17} {'reviewtui':>10}")
    print(f"{'seconds':28} {their_s:>17.3f} {our_s:>10.3f}")
    print(f"{'overall status':28} {theirs.status:>17} {ours.status.value:>10}")
    for check in au.CHECKS:
        print(f"{check:28} {their_counts.get(check, 0):>17} {our_counts.get(check, 0):>10}")
    print(f"speed-up: {their_s / our_s:.0f}x (goal: 100x or more)")

    differ = []
    for check in sorted({check for check, _ in their_found | our_found}):
        theirs_here = {ids for name, ids in their_found if name == check}
        ours_here = {ids for name, ids in our_found if name == check}
        if theirs_here != ours_here:
            differ.append(f"{check}: {len(theirs_here - ours_here)} of theirs not ours, {len(ours_here - theirs_here)} of ours not theirs")
    print(f"findings identical, check by check: {not differ}")
    if differ or their_found != our_found or theirs.status != ours.status.value:
        raise SystemExit("the two audits disagree: " + ("; ".join(differ) or f"status {theirs.status} against {ours.status.value}"))


if __name__ == "__main__":
    main()

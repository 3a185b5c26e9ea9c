"""benchmarks/bench_quality.py: the audit it times must have found what the synthetic set holds."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import bench_quality
from synth import generate_evalset

from reviewtui.evalset.checks.audit import audit


def test_the_brute_force_pairs_are_the_audits_near_duplicates():
    evalset = generate_evalset(300)
    report = audit(evalset)
    near = len(report.of_check("near-duplicates"))
    assert near and bench_quality.audit_pairs_by_brute_force(evalset, report.config.near_duplicate_threshold) == near


def test_an_audit_that_finds_nothing_stops_the_benchmark(monkeypatch):
    """Both audit runs the benchmark compares come from one function: one that checks nothing agrees with itself."""
    from reviewtui.evalset.checks import scan as scan_module
    from tests.threads import only_this_thread

    # The benchmark forks its two-core scan: allowed here although a library another test module imported (numpy)
    # keeps idle threads of its own, as the fork tests allow it (can_fork's own checks are tested apart).
    if not only_this_thread():
        pytest.skip("another Python thread is running in this test process")
    monkeypatch.setattr(bench_quality, "can_fork", lambda: True)
    monkeypatch.setattr(scan_module, "can_fork", lambda: True)
    monkeypatch.setattr(bench_quality, "audit", lambda evalset, **options: audit(evalset.with_items(()), **options))
    monkeypatch.setattr(sys, "argv", ["bench_quality.py", "--sizes", "300", "--brute-max", "300"])
    with pytest.raises(SystemExit, match="the work timed did not happen"):
        bench_quality.main()

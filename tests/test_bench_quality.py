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
    monkeypatch.setattr(bench_quality, "audit", lambda evalset, **options: audit(evalset.with_items(()), **options))
    monkeypatch.setattr(sys, "argv", ["bench_quality.py", "--sizes", "300", "--brute-max", "300"])
    with pytest.raises(SystemExit, match="the work timed did not happen"):
        bench_quality.main()

"""benchmarks/bench_resolve.py: the set the timed resolution returns must hold the gold its report counts."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import bench_resolve

from reviewtui.evalset.evidence.corpus import Corpus
from reviewtui.evalset.evidence.resolve import AnchorResolver


def test_a_resolution_that_returned_no_gold_stops_the_benchmark(tmp_path):
    evalset, texts, _made = bench_resolve.build(tmp_path, 5, 40, seed=2)
    resolved, report = AnchorResolver().resolve_with_report(evalset, Corpus(tmp_path))
    bench_resolve.check_spans(resolved, texts, report.counts())  # the real resolution passes
    with pytest.raises(SystemExit, match="the work timed did not happen"):
        bench_resolve.check_spans(evalset, texts, report.counts())  # the set as it was given: no gold at all

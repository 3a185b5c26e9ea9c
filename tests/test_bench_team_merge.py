"""benchmarks/bench_team.py: the merged export it times must be the team's consensus, not the set passed through."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import bench_team


def test_an_export_that_merged_nothing_stops_the_benchmark(monkeypatch, capsys):
    monkeypatch.setattr(bench_team, "traced_peak", lambda work: 1)
    monkeypatch.setattr(sys, "argv", ["bench_team.py", "--sizes", "2x40"])
    bench_team.main()  # the real merge: every item exported carries its two reviewers' consensus
    assert "2 x 40" in capsys.readouterr().out
    monkeypatch.setattr(bench_team, "merged_set", lambda plan, evalset, path, rule: (evalset, {}))
    with pytest.raises(SystemExit, match="the merge timed did not happen"):
        bench_team.main()

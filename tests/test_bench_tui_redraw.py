"""benchmarks/bench_tui.py: a decision key is timed as the step, its journal write and the redraw of the next item."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import bench_tui
from synth import write_synthetic_jsonl

from reviewtui.tui.screens.review import ReviewScreen


async def test_keys_whose_screen_was_not_redrawn_stop_the_benchmark(tmp_path, monkeypatch):
    path = write_synthetic_jsonl(tmp_path / "set.jsonl", 40)
    result = await bench_tui._review_keys(path, 2)
    assert result["journal"]["decide"] == len(bench_tui.CYCLE) + 2
    # The step and its journal write still happen, but the screen keeps the question it showed.
    monkeypatch.setattr(ReviewScreen, "run_step", _step_without_redraw)
    with pytest.raises(SystemExit, match="the screen was not redrawn"):
        await bench_tui._review_keys(path, 2)


def _step_without_redraw(self, step, **options) -> bool:
    step()
    return True

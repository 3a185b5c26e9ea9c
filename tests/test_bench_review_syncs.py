"""benchmarks/bench_review.py: a decision timed "fdatasync each" must have synced its record in the timed call."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import bench_review
from synth import generate_evalset


def _run(tmp_path: Path, made: str, labelled: str) -> None:
    run = bench_review.DecisionRun(generate_evalset(60), tmp_path, made, seed=1)
    run.durability = labelled  # what the row is printed as
    with bench_review.SyncCounter() as syncs:
        run.syncs = syncs
        run.block(40)
    run.close()


def test_every_record_of_the_default_durability_is_synced_in_its_call(tmp_path):
    _run(tmp_path, "every", "every")
    _run(tmp_path, "batched", "batched")


def test_decisions_that_were_not_synced_stop_the_fdatasync_row(tmp_path):
    """A session that left its records to a background sync (or to none) is not the default's cost."""
    with pytest.raises(SystemExit, match="fdatasync calls made inside the timed calls"):
        _run(tmp_path, "batched", "every")

"""Shared fixtures: where the real public data lives, and small sample sets."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
REALDATA = Path(os.environ.get("REVIEWTUI_REALDATA", ROOT.parent / "shared" / "realdata")).resolve()
SAMPLE_SETS = ROOT / "sample_sets"


@pytest.fixture
def realdata() -> Path:
    """The folder of real public eval sets; tests that need it skip, saying why, when it is absent."""
    if not REALDATA.is_dir():
        pytest.skip(f"real data folder not found at {REALDATA} (set REVIEWTUI_REALDATA to run these tests)")
    return REALDATA

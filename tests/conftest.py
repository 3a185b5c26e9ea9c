"""Shared fixtures: where the real public data lives, and small sample sets."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
REALDATA = Path(os.environ.get("REVIEWTUI_REALDATA", ROOT.parent / "shared" / "realdata")).resolve()
SAMPLE_SETS = ROOT / "sample_sets"

# The review command refuses TERM=dumb (or none), which a CI runner or an editor's shell may have; the tests that run
# the app through the command line are about the app, and the one about that refusal sets TERM itself.
if os.environ.get("TERM", "dumb") == "dumb":
    os.environ["TERM"] = "xterm-256color"


@pytest.fixture(autouse=True)
def a_terminal_for_the_app(request, monkeypatch):
    """The review command refuses to start its app without a terminal on standard input and error, which a test run
    has not: the tests that run the app through the command line run it headless, as if there were one. The test of
    that refusal asks for the real check (``@pytest.mark.real_terminal_check``)."""
    if request.node.get_closest_marker("real_terminal_check") is None:
        from reviewtui.cli import output

        monkeypatch.setattr(output, "app_terminal", lambda stream: True)


@pytest.fixture
def forks(monkeypatch):
    """The pids of the children this process forks, recorded in the parent (skips where there is no os.fork)."""
    if not hasattr(os, "fork"):
        pytest.skip("no os.fork on this system")
    pids: list[int] = []
    real_fork = os.fork

    def fork() -> int:
        pid = real_fork()
        if pid:
            pids.append(pid)
        return pid

    monkeypatch.setattr(os, "fork", fork)
    return pids


@pytest.fixture
def realdata() -> Path:
    """The folder of real public eval sets; tests that need it skip, saying why, when it is absent."""
    if not REALDATA.is_dir():
        pytest.skip(f"real data folder not found at {REALDATA} (set REVIEWTUI_REALDATA to run these tests)")
    return REALDATA


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Without the real data, its tests are left out and counted once, instead of a skip line each."""
    if REALDATA.is_dir():
        return
    left_out = [item for item in items if "realdata" in getattr(item, "fixturenames", ())]
    if not left_out:
        return
    items[:] = [item for item in items if "realdata" not in getattr(item, "fixturenames", ())]
    config.hook.pytest_deselected(items=left_out)
    config.stash[_LEFT_OUT] = len(left_out)


_LEFT_OUT = pytest.StashKey[int]()


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    left_out = config.stash.get(_LEFT_OUT, 0)
    if left_out:
        terminalreporter.write_line(
            f"{left_out} tests on the real public sets were not run: no folder at {REALDATA} "
            "(set REVIEWTUI_REALDATA to run them)"
        )

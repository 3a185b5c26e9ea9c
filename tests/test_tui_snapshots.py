"""Pictures of the main views on the demo set (pytest-textual-snapshot; update with --snapshot-update).

Sync tests: snap_compare runs its own event loop. The clock, the time zone and the
quality scan are fixed so a picture only changes when the app does.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest
from textual.widgets import Input, TextArea

from reviewtui.evalset.evidence.corpus import Corpus
from reviewtui.evalset.review.session import ReviewSession
from reviewtui.tui.app import ReviewApp
from reviewtui.tui.stages import quality_scan
from tests.conftest import SAMPLE_SETS
from tests.tui_helpers import FakeClock

DEMO = SAMPLE_SETS / "wrenfield_tools"


def in_process_scan(evalset, **kwargs):
    """The real quality scan, run in a thread of the test process so the picture waits for it."""
    return quality_scan(evalset, **kwargs)


@pytest.fixture(autouse=True)
def utc(monkeypatch):
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


# Opening the demo by hand (the README's first command) leaves its journal and lock in the
# working tree; a snapshot must start from the set as committed, never from that review.
REVIEW_STATE = shutil.ignore_patterns("*.reviewtui-journal", "*.reviewtui-lock", ".*.rtui-*.tmp")


def copy_demo(source: Path, target: Path) -> Path:
    """The demo folder as committed: a review left in the working tree is not copied."""
    shutil.copytree(source, target, ignore=REVIEW_STATE)
    return target


def test_a_review_left_in_the_demo_folder_is_not_copied(tmp_path):
    source = tmp_path / "source"
    source.mkdir()
    (source / "set.jsonl").write_text("{}\n")
    (source / "set.jsonl.reviewtui-journal").write_text("a review in progress\n")
    (source / "set.jsonl.reviewtui-lock").write_text("{}")
    copied = copy_demo(source, tmp_path / "copy")
    assert sorted(p.name for p in copied.iterdir()) == ["set.jsonl"]


@pytest.fixture
def demo_app(tmp_path):
    copy_demo(DEMO, tmp_path / "demo")
    sessions = []

    def build(corpus: bool = False) -> ReviewApp:
        session = ReviewSession.open(tmp_path / "demo" / "wrenfield_tools.jsonl", reviewer="demo", clock=FakeClock())
        sessions.append(session)
        return ReviewApp(
            session,
            scan=in_process_scan,
            corpus=Corpus(tmp_path / "demo" / "corpus") if corpus else None,
        )

    yield build
    for session in sessions:
        session.close()


async def settled(pilot) -> None:
    app = pilot.app
    await app.workers.wait_for_complete()
    await pilot.pause()
    for widget in app.screen.query("Input, TextArea"):
        if isinstance(widget, (Input, TextArea)):
            widget.cursor_blink = False
    app.clear_notifications()
    await pilot.pause()


def test_review_screen_80x24(snap_compare, demo_app):
    assert snap_compare(demo_app(), terminal_size=(80, 24), run_before=settled)


def test_review_screen_with_history_120x36(snap_compare, demo_app):
    async def decide(pilot):
        await settled(pilot)
        await pilot.press("a", "a", "r", "3", *"wrong quote", "enter", "g", *"q05", "enter")
        await settled(pilot)

    assert snap_compare(demo_app(), terminal_size=(120, 36), run_before=decide)


def test_evidence_in_context(snap_compare, demo_app):
    async def go(pilot):
        await settled(pilot)
        await pilot.press("g", *"q17", "enter", "right_square_bracket")
        await settled(pilot)

    assert snap_compare(demo_app(corpus=True), terminal_size=(120, 36), run_before=go)


def test_edit_dialog(snap_compare, demo_app):
    async def edit(pilot):
        await settled(pilot)
        await pilot.press("e")
        await settled(pilot)

    assert snap_compare(demo_app(), terminal_size=(100, 32), run_before=edit)


def test_reject_reason_picker(snap_compare, demo_app):
    async def reject(pilot):
        await settled(pilot)
        await pilot.press("r", "2")
        await settled(pilot)

    assert snap_compare(demo_app(), terminal_size=(100, 30), run_before=reject)


def test_help_screen(snap_compare, demo_app):
    async def help_(pilot):
        await settled(pilot)
        await pilot.press("question_mark")
        await settled(pilot)

    assert snap_compare(demo_app(), terminal_size=(100, 34), run_before=help_)


def test_summary_screen(snap_compare, demo_app):
    async def finish(pilot):
        await settled(pilot)
        await pilot.press("r", "5", "enter")
        queue = pilot.app.session.queue
        while not queue.is_done:
            await pilot.press("a")
        await settled(pilot)

    assert snap_compare(demo_app(), terminal_size=(100, 30), run_before=finish)

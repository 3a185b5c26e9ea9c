"""The benchmarks' floors: bench_tui's plain-Textual one draws what the review screen showed, bench_review's
reads the set into plain models; each fails unless it did its work."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.tui_helpers import review_app, screen_text

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import bench_review
import bench_tui
from synth import write_synthetic_jsonl


async def test_the_floor_reads_each_part_of_the_review_screen_where_it_is(tmp_path):
    async with review_app(tmp_path, "floor") as (app, pilot, session):
        texts = bench_tui._screen_texts(app.screen)
        places = bench_tui._screen_places(app.screen)
    assert set(texts) == set(places) == {selector for selector, _, _ in bench_tui.FLOOR_PARTS}
    assert session.queue.current is not None and session.queue.current.question in texts["#question-pane"]
    assert "floor" in texts["#top-bar"]  # the set's id, in the bar's one line
    question = places["#question-pane"]
    assert question[:2] == [0, 1] and question[2] < 120  # under the top bar, beside the side panes
    assert places["#flags"][0] == question[2]  # the warnings' box, at the right of the question


async def _fast_settle(*args, **kwargs) -> None:
    return None


async def _no_idle(count: int) -> list[float]:
    return [0.0]


@pytest.fixture
def recorded(tmp_path, monkeypatch):
    """Three screens of the floor's parts, and the floor's waits for idle shortened to one quiet window."""
    monkeypatch.setattr(bench_tui, "_settle", _fast_settle)
    monkeypatch.setattr(bench_tui, "_idle_waits", _no_idle)
    places = {
        "#top-bar": [0, 0, 120, 1],
        "#question-pane": [0, 1, 80, 10],
        "#evidence-pane": [0, 11, 80, 27],
        "#flags": [80, 1, 40, 22],
        "#history-pane": [80, 23, 40, 15],
        "#status-line": [0, 38, 120, 1],
    }
    from textual.content import Content

    # As a review run records them: each part's text as markup, the text itself escaped.
    frames = [{selector: Content(f"screen {n}: {selector} [bold]as typed[/]").markup for selector in places} for n in range(3)]
    path = tmp_path / "frames.json"
    path.write_text(json.dumps({"places": places, "frames": frames}))
    return path


async def test_the_floor_shows_one_recorded_screen_a_key(recorded):
    result = await bench_tui._floor_keys(recorded, decisions=3)
    assert result["keys"] == len(bench_tui.CYCLE) + 3
    assert len(result["single"]) == 3 and result["frames"] == 3


async def test_the_floor_draws_the_texts_where_the_panes_were(recorded):
    recorded_data = json.loads(recorded.read_text())
    app = bench_tui._FloorApp.make(recorded_data["places"], recorded_data["frames"])
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("a")
        await pilot.pause()
        text = screen_text(app)  # type: ignore[arg-type]
    lines = text.splitlines()
    assert "Question" in lines[1] and "Warnings" in lines[1]
    assert "screen 1: #question-pane [bold]as typed[/]" in text  # the text itself, never read as markup
    assert "screen 0" not in text


async def test_the_floor_stops_when_a_key_shows_no_screen(recorded, monkeypatch):
    async def lost_key(app, key):
        return 0.0  # the key never reaches the app

    monkeypatch.setattr(bench_tui, "_key_cpu", lost_key)
    with pytest.raises(SystemExit, match="1 keys pressed but 0 screens shown"):
        await bench_tui._floor_keys(recorded, decisions=2)


def test_the_resume_floor_reads_every_item_and_the_journal(tmp_path):
    path = write_synthetic_jsonl(tmp_path / "set.jsonl", 30)
    journal = tmp_path / "set.journal"
    journal.write_bytes(b"".join(b'{"op":"decide","n":%d}\n' % n for n in range(12)))
    result = bench_review._big_child("floor", path, journal, {"size": 30, "decisions": 12})
    assert result["seconds"] > 0
    with pytest.raises(AssertionError):  # one item more than the file holds: the work did not all happen
        bench_review._big_child("floor", path, journal, {"size": 31, "decisions": 12})


def test_the_pydantic_floor_leaves_a_paused_collector_paused(tmp_path):
    """bench_review times the floor and then the journal's parse with the collector paused: a floor that
    turned it back on made the parse collect over 100k models, and the floor read slower than the commands."""
    import gc

    import bench_io

    path = write_synthetic_jsonl(tmp_path / "set.jsonl", 10)
    read = bench_io._pydantic_floor()
    gc.disable()
    try:
        assert len(read(path)) == 10
        assert not gc.isenabled()
    finally:
        gc.enable()
    assert len(read(path)) == 10 and gc.isenabled()


async def test_the_floor_stops_when_a_part_given_new_text_is_not_drawn_again(recorded, monkeypatch):
    """A floor whose parts took their new text without repainting timed keys that drew nothing."""
    from textual.widget import Widget

    refresh = Widget.refresh

    def no_repaint(self, *args, **kwargs):
        if type(self).__name__ == "Part" and self.app.count:  # after the first key: the parts' own repaints
            return self
        return refresh(self, *args, **kwargs)

    monkeypatch.setattr(Widget, "refresh", no_repaint)
    with pytest.raises(SystemExit, match="key 1 gave new text to parts that were not drawn again"):
        await bench_tui._floor_keys(recorded, decisions=2)

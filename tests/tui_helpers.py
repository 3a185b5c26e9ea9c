"""Helpers for the app tests: sessions on in-memory sets, a fixed clock, reading the screen."""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from contextlib import asynccontextmanager
from pathlib import Path

import reviewtui as cg
from reviewtui.evalset.checks.warninglog import LogEntry
from reviewtui.evalset.model.flag import Flag
from reviewtui.evalset.review.session import ReviewSession
from reviewtui.tui.app import ReviewApp


class FakeClock:
    """Time that moves 7 seconds per reading, starting at a fixed moment, so snapshots are stable."""

    def __init__(self, start: float = 1_790_000_000.0, step: float = 7.0) -> None:
        self._ticks = itertools.count()
        self.start = start
        self.step = step

    def __call__(self) -> float:
        return self.start + next(self._ticks) * self.step


def make_items(n: int) -> tuple[cg.EvalItem, ...]:
    return tuple(
        cg.EvalItem(
            id=f"q{i}",
            question=f"Question number {i} about the handbook policy?",
            answer=f"answer {i}",
            anchors=(cg.GoldAnchor(source_id="handbook.md", quote=f"Sentence {i} of the handbook."),),
            qtype="factoid",
        )
        for i in range(1, n + 1)
    )


def open_session(tmp_path: Path, evalset: cg.EvalSet, **kwargs) -> ReviewSession:
    """A session on a set written to ``tmp_path`` (so export has a file to name itself after)."""
    from reviewtui.evalset.io import write_jsonl

    path = write_jsonl(evalset, tmp_path / f"{evalset.id}.jsonl")
    kwargs.setdefault("reviewer", "tester")
    kwargs.setdefault("clock", FakeClock())
    return ReviewSession.open(path, **kwargs)


def fixed_scan(flags: dict[str, list[Flag]] | None = None, cautions: Iterable[LogEntry] = ()):
    """A quality scan with known results, for tests about how results are shown."""

    def scan(evalset, *, progress, cancelled):
        progress(len(evalset), len(evalset))
        return dict(flags or {}), list(cautions)

    return scan


def make_app(session: ReviewSession, **kwargs) -> ReviewApp:
    return ReviewApp(session, **kwargs)


def screen_text(app: ReviewApp) -> str:
    """Every character on the screen as drawn, top to bottom."""
    strips = app.screen._compositor.render_strips()
    return "\n".join(strip.text for strip in strips)


@asynccontextmanager
async def review_app(
    tmp_path: Path,
    name: str,
    *,
    items: int = 4,
    size: tuple[int, int] = (120, 40),
    evalset: cg.EvalSet | None = None,
    **app_options,
):
    """The app on ``items`` made-up questions (or on ``evalset``), its checks done (a scan with no
    findings unless ``scan`` is given), the session closed after: (app, pilot, session)."""
    session = open_session(tmp_path, evalset if evalset is not None else cg.EvalSet(id=name, items=make_items(items)))
    app_options.setdefault("scan", fixed_scan())
    app = make_app(session, **app_options)
    try:
        async with app.run_test(size=size) as pilot:
            await settle(pilot, app)
            yield app, pilot, session
    finally:
        session.close()


async def settle(pilot, app: ReviewApp) -> None:
    """Let workers finish and the screen redraw."""
    await app.workers.wait_for_complete()
    await pilot.pause()


def contrast_ratio(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    """The WCAG contrast ratio of two RGB colours (1 to 21)."""

    def luminance(colour: tuple[int, int, int]) -> float:
        def channel(value: float) -> float:
            value /= 255
            return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4

        red, green, blue = colour
        return 0.2126 * channel(red) + 0.7152 * channel(green) + 0.0722 * channel(blue)

    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)

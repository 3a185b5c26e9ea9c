"""Regenerate the SVG screenshots in this folder from the real app on the demo set.

    python screenshots/generate.py

Rerun it whenever the UI changes. It reviews a temporary copy of
``sample_sets/wrenfield_tools`` (so no journal is left beside the sample), with a
fixed clock so the pictures only change when the app does.
"""

from __future__ import annotations

import asyncio
import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DEMO = ROOT / "sample_sets" / "wrenfield_tools"
SIZE = (120, 36)

sys.path.insert(0, str(ROOT))


class FixedClock:
    """Seconds that advance 9 s per reading from a fixed moment."""

    def __init__(self) -> None:
        self.now = 1_790_000_000.0

    def __call__(self) -> float:
        self.now += 9.0
        return self.now


async def _shoot(workdir: Path) -> list[Path]:
    from reviewtui.evalset.review.session import ReviewSession
    from reviewtui.tui.app import ReviewApp

    # The demo as committed: a review left beside it by opening the demo by hand is not copied.
    review_state = shutil.ignore_patterns("*.reviewtui-journal", "*.reviewtui-lock", ".*.rtui-*.tmp")
    shutil.copytree(DEMO, workdir / DEMO.name, ignore=review_state)
    path = workdir / DEMO.name / f"{DEMO.name}.jsonl"
    written: list[Path] = []
    session = ReviewSession.open(path, reviewer="demo", clock=FixedClock())
    try:
        app = ReviewApp(session)
        async with app.run_test(size=SIZE) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause()
            app.clear_notifications()
            # a few decisions so the history pane and the counts have something to show
            await pilot.press("a", "a", "r", "3", *"quote answers a different question", "enter")
            await pilot.press("g", *"q05", "enter")
            await pilot.pause(0.2)
            app.clear_notifications()
            await pilot.pause()

            def save(name: str) -> None:
                target = HERE / f"{name}.svg"
                app.save_screenshot(filename=target.name, path=str(HERE))
                written.append(target)

            save("review")
            await pilot.press("e")
            await pilot.pause()
            save("edit")
            await pilot.press("escape", "question_mark")
            await pilot.pause()
            save("help")
            await pilot.press("escape")
            # decide the rest so the summary appears
            while not session.queue.is_done:
                await pilot.press("a")
            await pilot.pause()
            app.clear_notifications()
            await pilot.pause()
            save("summary")
    finally:
        session.close()
    return written


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="reviewtui-shots-") as tmp:
        written = asyncio.run(_shoot(Path(tmp)))
    for path in written:
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""ctrl+e on a large set: the export is written on a thread, from the review as it stood when the key was pressed,
while the review goes on; quitting meanwhile waits for it.

At a million items the export took ten seconds during which the screen could not change."""

from __future__ import annotations

import threading

import reviewtui as cg
from reviewtui.evalset.io.journal import read_journal


class HeldExport:
    """Every export of the app (``export_reviewed``) made to wait, off the screen's thread, until ``gate`` is set: a
    long export, while the test goes on reviewing. ``started`` is set as one begins; ``callers`` names their threads."""

    def __init__(self, monkeypatch) -> None:
        import reviewtui.evalset.review.export as export_module
        from reviewtui.tui.screens.review import ReviewScreen

        monkeypatch.setattr(ReviewScreen, "EXPORT_SAID_FROM", 0)  # every set counts as large
        self.gate, self.started = threading.Event(), threading.Event()
        self.callers: list[str] = []
        real = export_module.export_reviewed

        def held(*args, **kwargs):
            self.callers.append(threading.current_thread().name)
            self.started.set()
            if threading.current_thread() is not threading.main_thread():
                assert self.gate.wait(20)
            return real(*args, **kwargs)

        monkeypatch.setattr(export_module, "export_reviewed", held)

    async def begin(self, pilot, app) -> None:
        """ctrl+e, and the export under way on its thread."""
        await pilot.press("ctrl+e")
        await pilot.pause()
        assert self.started.wait(10) and app.export_running


def _items(n: int) -> tuple[cg.EvalItem, ...]:
    return tuple(cg.EvalItem(id=f"q{k}", question=f"Which rule number {k} applies to loans?") for k in range(n))


async def test_an_export_on_its_thread_holds_the_review_as_it_stood_and_the_quit_waits(tmp_path, monkeypatch):
    from reviewtui.tui.app import ReviewApp
    from tests.tui_helpers import fixed_scan, open_session, settle

    held = HeldExport(monkeypatch)
    gate = held.gate
    session = open_session(tmp_path, cg.EvalSet(id="s", items=_items(5)))
    app = ReviewApp(session, scan=fixed_scan())
    try:
        async with app.run_test(size=(120, 40), notifications=True) as pilot:
            await settle(pilot, app)
            await pilot.press("a")
            await pilot.pause()
            journal_then = session.journal_path.stat().st_size
            await held.begin(pilot, app)
            await pilot.press("a")  # the review goes on while the export is written
            await pilot.pause()
            assert session.queue.decided == 2
            await pilot.press("ctrl+e")  # a second export while one is written is refused, and said
            await pilot.pause()
            await pilot.press("ctrl+q")
            await pilot.pause()
            assert app.return_code is None  # still running: the quit waits for the export
            said = [str(n.message) for n in app._notifications]
            assert any("being written already" in s for s in said), said
            assert any("quits once it is done" in s for s in said), said
            gate.set()
            for _ in range(200):  # the export finishes, and the app quits then
                await pilot.pause(0.05)
                if app.return_code is not None:
                    break
        assert app.return_code == 0 and not app.export_running
    finally:
        gate.set()
        session.close()
    exported = cg.read_jsonl(tmp_path / "s.v2.jsonl")
    verdicts = {item.id: item.meta.get("verdict") for item in exported.items}
    assert verdicts == {"q0": "accepted", "q1": None, "q2": None, "q3": None, "q4": None}
    # the later accept is in the journal, and the export names the journal as it was when ctrl+e was pressed
    assert any(p.get("id") == "q1" and p.get("op") == "decide" for _, p in read_journal(session.journal_path).records)
    assert f"'journal_bytes': {journal_then}" in repr(exported.meta), exported.meta


async def test_the_terminal_closed_while_an_export_is_written_ends_the_app_and_the_export_is_still_written(
    tmp_path, monkeypatch
):
    # SIGHUP: the terminal is gone. A screen that went on waiting for the export hung on its writes to the closed
    # terminal (the process never ended and kept the set's lock); the app ends now, and the export's thread, which the
    # event loop's executor runs (and joins before the app's run returns), still writes the export.
    import signal
    import time

    from reviewtui.tui.app import ReviewApp
    from tests.tui_helpers import fixed_scan, open_session, settle

    held = HeldExport(monkeypatch)
    gate = held.gate
    session = open_session(tmp_path, cg.EvalSet(id="s", items=_items(3)))
    app = ReviewApp(session, scan=fixed_scan())
    try:
        async with app.run_test(size=(120, 40), notifications=True) as pilot:
            await settle(pilot, app)
            await pilot.press("a")
            await pilot.pause()
            await held.begin(pilot, app)
            app._stopped(signal.SIGHUP)
            for _ in range(40):
                await pilot.pause(0.05)
                if app.return_code is not None:
                    break
            assert app.return_code is not None  # ended, though the export is still being written
        assert app.stopped_by == signal.SIGHUP
        gate.set()
        out = tmp_path / "s.v2.jsonl"
        exported = None
        for _ in range(200):  # the name is claimed first, and the export put in its place once written
            try:
                exported = cg.read_jsonl(out)
                break
            except (cg.EvalSetError, OSError):
                time.sleep(0.05)
        assert exported is not None
        assert {item.id: item.meta.get("verdict") for item in exported.items}["q0"] == "accepted"
    finally:
        gate.set()
        session.close()


async def test_the_summarys_export_while_one_is_written_is_refused_as_a_second_ctrl_e_is(tmp_path, monkeypatch):
    # The summary's e (and its ctrl+e) wrote a second export on the screen's thread while the first was written on
    # its own: the screen stood still meanwhile, and two versions were made of one finished review.
    from reviewtui.tui.app import ReviewApp
    from reviewtui.tui.screens.summary import SummaryScreen
    from tests.tui_helpers import fixed_scan, open_session, settle

    held = HeldExport(monkeypatch)
    gate, callers = held.gate, held.callers
    session = open_session(tmp_path, cg.EvalSet(id="s", items=_items(3)))
    app = ReviewApp(session, scan=fixed_scan())
    try:
        async with app.run_test(size=(120, 40), notifications=True) as pilot:
            await settle(pilot, app)
            await pilot.press("a")
            await pilot.pause()
            await held.begin(pilot, app)
            await pilot.press("a", "a")  # the review is finished: the summary comes
            await pilot.pause(0.2)
            assert isinstance(app.screen, SummaryScreen)
            await pilot.press("e")
            await pilot.pause(0.2)
            assert "MainThread" not in callers, callers
            assert isinstance(app.screen, SummaryScreen)  # still there, to export from once the first is written
            said = [str(n.message) for n in app._notifications]
            assert any("being written already" in s for s in said), said
            gate.set()
            for _ in range(100):
                await pilot.pause(0.05)
                if not app.export_running:
                    break
    finally:
        gate.set()
        session.close()
    assert sorted(p.name for p in tmp_path.glob("s.v*.jsonl")) == ["s.v2.jsonl"]

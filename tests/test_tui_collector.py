"""The app keeps the collector off what lives long: a large scan's flags are frozen when they arrive."""

from __future__ import annotations

import pytest

import reviewtui as cg
from reviewtui.evalset.model.flag import Flag, Severity
from tests.tui_helpers import fixed_scan, make_app, make_items, open_session, settle


@pytest.mark.parametrize(("threshold", "frozen"), [(3, True), (4, False)])
async def test_a_large_scans_flags_are_frozen_out_of_the_collectors_sight(tmp_path, monkeypatch, threshold, frozen):
    # Left in the collector's sight, a 100k-item scan's flags made every full collection walk them
    # (about 35 ms, every 15 keys or so). From a size on, they are frozen when they arrive, after one
    # collection (so that garbage alive then is not frozen with them); below it nothing is frozen.
    from reviewtui.tui import app as app_module

    calls: list[dict] = []
    monkeypatch.setattr(app_module, "freeze_for_good", lambda **kwargs: calls.append(kwargs))
    monkeypatch.setattr(app_module, "FREEZE_FLAGS_FROM", threshold)
    items = make_items(4)
    flags = {item.id: [Flag("too-short", Severity.LOW, "short")] for item in items[:3]}  # three items flagged
    session = open_session(tmp_path, cg.EvalSet(id="freeze", items=items))
    try:
        app = make_app(session, scan=fixed_scan(flags))
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            assert app.view.flags == flags
            assert calls == ([{"collect": True}] if frozen else [])
    finally:
        session.close()


def test_freezing_after_a_while_collects_the_garbage_first(monkeypatch):
    # Frozen objects are never examined again: a cycle that is garbage when they are frozen would stay.
    import gc
    import weakref

    from reviewtui.evalset.jobs import collector

    monkeypatch.setattr(collector, "_frozen_for_good", False)

    class Node:
        pass

    was_enabled = gc.isenabled()
    gc.disable()
    try:
        node = Node()
        node.itself = node
        gone = weakref.ref(node)
        kept = Node()
        del node
        assert gone() is not None  # garbage, not yet collected
        collector.freeze_for_good(collect=True)
        assert gone() is None
        assert not any(o is kept for o in gc.get_objects())  # what is alive is frozen
    finally:
        gc.unfreeze()
        if was_enabled:
            gc.enable()


async def test_only_the_first_large_scan_freezes(tmp_path, monkeypatch):
    # Whatever is alive at a freeze stays for good once it is cyclic garbage (an open dialog, a worker
    # holding the flags a rescan replaces): a rescan after edits leaves its flags to the collector.
    from reviewtui.tui import app as app_module
    from reviewtui.tui.messages import ScanFinished

    calls: list[dict] = []
    monkeypatch.setattr(app_module, "freeze_for_good", lambda **kwargs: calls.append(kwargs))
    monkeypatch.setattr(app_module, "FREEZE_FLAGS_FROM", 3)
    items = make_items(4)
    flags = {item.id: [Flag("too-short", Severity.LOW, "short")] for item in items}
    session = open_session(tmp_path, cg.EvalSet(id="rescan", items=items))
    try:
        app = make_app(session, scan=fixed_scan(flags))
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            assert calls == [{"collect": True}]
            again = {item.id: [Flag("too-short", Severity.MEDIUM, "still short")] for item in items}
            app.post_message(ScanFinished(again, []))  # as a rescan brings its results
            await settle(pilot, app)
            assert app.view.flags == again
            assert calls == [{"collect": True}]
    finally:
        session.close()

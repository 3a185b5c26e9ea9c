"""The slow checks run in a child process that reads the set itself; the app shows their results."""

from __future__ import annotations

import shutil

from reviewtui.evalset.evidence.corpus import Corpus
from reviewtui.evalset.model.flag import Severity
from reviewtui.evalset.review.session import ReviewSession
from reviewtui.tui.app import ReviewApp, flagged_first_order
from reviewtui.tui.stages import CautionList, ChildJob, EvidenceBatch, FlagBatch, JobSource, StageDone, StageFailed, chunks
from tests.conftest import SAMPLE_SETS
from tests.tui_helpers import FakeClock, screen_text

DEMO = SAMPLE_SETS / "wrenfield_tools"


def test_chunks_cover_everything_in_order():
    data = {str(i): i for i in range(4_500)}
    batches = list(chunks(data, size=2_000))
    assert [len(b) for b in batches] == [2_000, 2_000, 500]
    assert {k: v for b in batches for k, v in b.items()} == data


def test_quality_job_in_a_child_process():
    messages = []
    ChildJob("quality", JobSource(str(DEMO / "wrenfield_tools.jsonl"))).run(messages.append, cancelled=lambda: False)
    kinds = [type(m) for m in messages]
    assert messages[-1] == StageDone("quality") and CautionList in kinds and StageFailed not in kinds
    flags = {k: v for m in messages if isinstance(m, FlagBatch) for k, v in m.flags.items()}
    assert any(f.check == "too-short" for f in flags["q21"])
    assert any(f.severity is Severity.HIGH for f in flags["q34"])  # the conflicting duplicate


def test_a_failing_child_is_reported_not_raised(tmp_path):
    messages = []
    ChildJob("quality", JobSource(str(tmp_path / "missing.jsonl"))).run(messages.append, cancelled=lambda: False)
    assert isinstance(messages[-1], StageFailed) and "no such file" in messages[-1].error


def test_a_cancelled_job_stops_the_child():
    job = ChildJob("quality", JobSource(str(DEMO / "wrenfield_tools.jsonl")))
    messages = []
    job.run(messages.append, cancelled=lambda: True)
    assert messages == []


def test_flagged_first_order_ranks_by_worst_flag():
    from reviewtui.evalset.model.flag import Flag

    class Item:
        def __init__(self, item_id):
            self.id = item_id

    items = [Item(i) for i in "abcd"]
    quality = {"b": [Flag("x", Severity.LOW, "")], "c": [Flag("y", Severity.HINT, "")], "d": [Flag("z", Severity.LOW, "")]}
    evidence = {"d": [Flag("e", Severity.HIGH, "")]}
    assert flagged_first_order(items, quality, evidence) == ([3, 1], 1)


async def test_the_app_runs_the_real_checks_in_child_processes(tmp_path):
    shutil.copytree(DEMO, tmp_path / "demo")
    session = ReviewSession.open(tmp_path / "demo" / "wrenfield_tools.jsonl", reviewer="t", clock=FakeClock())
    app = ReviewApp(session, corpus=Corpus(tmp_path / "demo" / "corpus"))
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            assert app._job_source() is not None  # the child-process path, not the in-process one
            for _ in range(200):
                await pilot.pause(0.1)
                if app.view.flags is not None and app.view.evidence is not None and app.view.flagged_order is not None:
                    break
            assert app.view.scan_error is None
            await pilot.press("g", *"q20", "enter")
            text = screen_text(app)
            assert "NOT FOUND in the document" in text and "evidence-not-found" in text
            assert "flagged medium or worse" in text
    finally:
        session.close()


def test_other_document_extensions_reach_the_child(tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "manual.rst").write_text("The saw needs a wet blade at all times.\n")
    path = tmp_path / "set.jsonl"
    path.write_text('{"id": "q1", "question": "What does the saw need?", "anchors": [{"source_id": "manual.rst", "quote": "The saw needs a wet blade at all times."}]}\n')
    messages = []
    source = JobSource(str(path), corpus=str(folder), extensions=(".md", ".rst", ".txt"))
    ChildJob("evidence", source).run(messages.append, cancelled=lambda: False)
    evidence = {k: v for m in messages if isinstance(m, EvidenceBatch) for k, v in m.resolutions.items()}
    assert evidence["q1"][0].kind.value == "exact"
    messages.clear()
    ChildJob("evidence", JobSource(str(path), corpus=str(folder))).run(messages.append, cancelled=lambda: False)
    evidence = {k: v for m in messages if isinstance(m, EvidenceBatch) for k, v in m.resolutions.items()}
    assert evidence["q1"][0].kind.value == "unknown_document"  # .rst is not read by default


def test_the_apps_scan_leaves_the_second_core_to_the_screen(monkeypatch):
    """The app's quality scan runs on one core: forked onto both, it slowed the keys pressed while a
    large set opened (benchmarks/bench_tui.py --screen-keys). Its flags are the two-core scan's."""
    import reviewtui as cg
    import reviewtui.evalset.checks.scan as scan_module
    from reviewtui.evalset.checks.scan import scan_flags
    from reviewtui.tui.stages import quality_scan
    from tests.tui_helpers import make_items

    evalset = cg.EvalSet(id="cores", items=tuple(make_items(2_500)))  # past PARALLEL_FROM: a fork would be used
    asked: list[object] = []

    def spy(*args, **kwargs):
        asked.append(kwargs.get("workers"))
        return scan_flags(*args, **kwargs)

    monkeypatch.setattr(scan_module, "scan_flags", spy)
    flags, _ = quality_scan(evalset, progress=lambda done, total: None, cancelled=lambda: False)
    assert asked == [1]
    assert flags == dict(scan_flags(evalset, workers=2).flags)


def test_while_the_scan_runs_the_pane_says_so_beside_the_corpus_lookups_warnings():
    """With --corpus, once the quotes were looked up every item without a quote problem read "no problems found on
    this item" while the quality scan still ran, and its later warnings had not come in yet."""
    from reviewtui.evalset.model.flag import Flag
    from reviewtui.tui.render import flags_view

    assert flags_view([], scanning=True).plain == "no problem found with its quotes; checking the rest of this set…"
    assert flags_view([]).plain == "no problems found on this item"
    missing = Flag("evidence-not-found", Severity.HIGH, "the quote is not in rules.md")
    shown = flags_view([missing], scanning=True).plain
    assert "evidence-not-found" in shown and shown.endswith("checking the rest of this set…")
    assert "checking" not in flags_view([missing]).plain


async def test_flagged_first_waits_for_the_scan_when_only_the_corpus_lookup_is_in(tmp_path):
    """`f` after the quote lookup but before the scan put the lookup's 30 items first and journaled that order,
    which stayed after the scan found 99,613 items flagged."""
    import reviewtui as cg
    from reviewtui.evalset.model.flag import Flag
    from tests.tui_helpers import fixed_scan, open_session, settle

    items = tuple(cg.EvalItem(id=f"q{k}", question=f"Which tool has the number {k} on its tag?") for k in range(4))
    session = open_session(tmp_path, cg.EvalSet(id="s", items=items))
    app = ReviewApp(session, scan=fixed_scan())
    try:
        async with app.run_test(size=(120, 40), notifications=True) as pilot:
            await settle(pilot, app)
            app.view.flags = None  # the scan not in yet; the lookup's warnings are
            app.view.evidence_flags = {"q2": [Flag("evidence-not-found", Severity.HIGH, "not in rules.md")]}
            app.view.flagged_order = [2]
            await pilot.press("f")
            await pilot.pause()
            assert session.queue.order is None
            assert any("scan is still running" in str(n.message) for n in app._notifications)
    finally:
        session.close()


async def test_flagged_first_waits_for_the_corpus_lookup_when_only_the_scan_is_in(tmp_path):
    """With --corpus, `f` after the scan but before the quote lookup journaled an order of the scan's warnings
    alone ("Flagged first: 2,636 flagged items come first"), which left out the items whose quotes the lookup
    then found missing (high), while the status line went on to count them ("3,000 flagged medium or worse")."""
    import reviewtui as cg
    from reviewtui.evalset.model.flag import Flag
    from tests.tui_helpers import fixed_scan, open_session, settle

    items = tuple(cg.EvalItem(id=f"q{k}", question=f"Which tool has the number {k} on its tag?") for k in range(4))
    session = open_session(tmp_path, cg.EvalSet(id="s", items=items))
    app = ReviewApp(session, scan=fixed_scan(), corpus=Corpus.from_texts({"rules.md": "Loans run for two weeks."}))
    try:
        async with app.run_test(size=(120, 40), notifications=True) as pilot:
            await settle(pilot, app)
            app.view.flags = {"q1": [Flag("too-short", Severity.MEDIUM, "short")]}  # the scan is in
            app.view.evidence_flags = None  # the lookup is not
            app.view.flagged_order = [1]
            await pilot.press("f")
            await pilot.pause()
            assert session.queue.order is None
            assert any("still being looked up" in str(n.message) for n in app._notifications)
    finally:
        session.close()


def test_a_child_stopped_by_bad_input_says_it_as_the_commands_do(tmp_path):
    """The warnings pane said "quality check: InputError: big.jsonl:3: ...": a class name, and the stage twice."""
    bad = tmp_path / "big.jsonl"
    bad.write_text('{"id": "q1", "question": "What is it?"}\n{"id": "q2", "question": "Why?"}\n{"id": \n', encoding="utf-8")
    messages = []
    ChildJob("quality", JobSource(str(bad))).run(messages.append, cancelled=lambda: False)
    assert isinstance(messages[-1], StageFailed)
    assert messages[-1].error.startswith(f"{bad}:3: ") and "Error" not in messages[-1].error.split(":")[0], messages[-1].error

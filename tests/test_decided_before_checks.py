"""A decision made while the quality checks are still running knew of no warning: it says so.

Before, such a decision recorded no warning, read exactly as one on an item nothing flags: an item with a
high-severity warning accepted in those seconds never appeared among the items accepted past one, and the
per-check counts left it out without a word.
"""

from __future__ import annotations

import orjson

import reviewtui as cg
from reviewtui.cli import main
from reviewtui.evalset.io import read_jsonl
from reviewtui.evalset.model.flag import Flag, Severity
from reviewtui.evalset.review.session import ReviewSession
from tests.tui_helpers import FakeClock, fixed_scan, make_app, make_items, open_session, settle

HIGH = {"q2": [Flag("conflicting-answers", Severity.HIGH, "two answers", ("q3",))]}


def test_a_decision_made_before_the_checks_is_marked_journaled_and_counted(tmp_path, capsys):
    session = open_session(tmp_path, cg.EvalSet(id="s", items=make_items(4)))
    known: dict[str, bool] = {"scan": False}
    session.warnings_from(lambda item: HIGH.get(item.id, ()) if known["scan"] else (), unknown=lambda _item: not known["scan"])
    session.accept()  # q1, before the checks
    session.skip()  # q2: a skip records no warning either way
    known["scan"] = True
    session.accept()  # q3, after them
    queue = session.queue
    assert [queue.decision_for(queue.index_of(i)).unchecked for i in ("q1", "q2", "q3")] == [True, False, False]
    path, journal = session.input_path, session.journal_path
    session.close()
    records = [orjson.loads(line)["r"] for line in journal.read_bytes().splitlines()]
    decided = {r["id"]: r for r in records if r.get("op") == "decide"}
    assert decided["q1"]["unchecked"] is True and "unchecked" not in decided["q2"] and "unchecked" not in decided["q3"]
    with ReviewSession.open(path, reviewer="tester", clock=FakeClock()) as again:  # read back from the journal
        assert again.queue.decision_for(0).unchecked is True
    capsys.readouterr()
    assert main(["status", str(path)]) == 0
    assert "1 decision made before the quality checks had finished: no warning was recorded with it" in capsys.readouterr().out
    out = tmp_path / "next.jsonl"
    assert main(["export", str(path), "-o", str(out)]) == 0
    said = capsys.readouterr().out
    assert "1 item was decided before the quality checks had finished, so no warning was recorded with it: 'q1'" in said
    assert dict(read_jsonl(out).meta["review"])["decided_before_checks"] == ["q1"]


def test_each_exported_item_says_whether_it_was_decided_before_the_checks(tmp_path, capsys):
    """The header's list names the items; each item's own record says it too, so a reader of one item (or of a
    CSV row) does not take its empty ``flagged`` for an item nothing flagged."""
    session = open_session(tmp_path, cg.EvalSet(id="s", items=make_items(4)))
    known: dict[str, bool] = {"scan": False}
    session.warnings_from(lambda item: HIGH.get(item.id, ()) if known["scan"] else (), unknown=lambda _item: not known["scan"])
    session.reject(reason="duplicate")  # q1, before the checks
    session.accept()  # q2, before them
    known["scan"] = True
    session.accept()  # q3, after them
    path = session.input_path
    session.close()
    out, rejected = tmp_path / "next.jsonl", tmp_path / "next.rejected.jsonl"
    assert main(["export", str(path), "-o", str(out)]) == 0
    assert main(["export", str(path), "-o", str(rejected), "--rejected"]) == 0
    records = {item.id: dict(item.meta["review"]) for item in read_jsonl(out).items if "review" in item.meta}
    assert records["q2"]["unchecked"] is True and "unchecked" not in records["q3"]
    assert dict(read_jsonl(rejected).get("q1").meta["review"])["unchecked"] is True
    table = tmp_path / "next.csv"
    assert main(["export", str(path), "-o", str(table), "--to", "csv"]) == 0
    from reviewtui.evalset.io import read_csv
    from reviewtui.evalset.model.review import ReviewRecord

    q2, q3 = (ReviewRecord.from_meta(read_csv(table).get(i).meta) for i in ("q2", "q3"))
    assert q2 is not None and q2.unchecked and q3 is not None and not q3.unchecked


def test_a_journal_written_before_the_mark_reads_as_checked(tmp_path):
    session = open_session(tmp_path, cg.EvalSet(id="s", items=make_items(2)))
    session.accept()
    path = session.input_path
    session.close()
    with ReviewSession.open(path, reviewer="tester", clock=FakeClock()) as again:
        assert again.queue.decision_for(0).unchecked is False


async def test_the_app_marks_decisions_made_while_its_scan_runs(tmp_path):
    session = open_session(tmp_path, cg.EvalSet(id="s", items=make_items(3)))
    app = make_app(session, scan=fixed_scan(HIGH))
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            flags = app.view.flags
            app.view.flags = None  # the scan not in yet
            await pilot.press("a")
            await pilot.pause()
            app.view.flags = flags
            await pilot.press("a")
            await pilot.pause()
            queue = session.queue
            assert [queue.decision_for(k).unchecked for k in (0, 1)] == [True, False]
            assert queue.decision_for(1).warnings == ("conflicting-answers",)  # q2 known, accepted past it
    finally:
        session.close()


def test_a_teams_merged_export_lists_each_reviewers_decisions_made_before_the_checks(tmp_path, capsys):
    from reviewtui.evalset.io import write_jsonl
    from reviewtui.evalset.review.team import TeamPlan

    path = write_jsonl(cg.EvalSet(id="t", items=make_items(2)), tmp_path / "team.jsonl")
    plan = TeamPlan.create(path, ["ana", "bo"], 2)
    plan.save()
    for reviewer, unknown in (("ana", True), ("bo", False)):
        with ReviewSession.open(path, reviewer=reviewer, team=plan, clock=FakeClock()) as session:
            session.warnings_from(lambda item: (), unknown=lambda _item, unknown=unknown: unknown)
            session.accept()
            session.accept()
    out = tmp_path / "merged.jsonl"
    assert main(["export", str(path), "--consensus", "unanimous", "-o", str(out)]) == 0
    assert dict(read_jsonl(out).meta["review"])["decided_before_checks"] == {"ana": ["q1", "q2"]}
    decisions = dict(read_jsonl(out).get("q1").meta["review"])["decisions"]  # each reviewer's record of the item
    assert decisions["ana"]["unchecked"] is True and "unchecked" not in decisions["bo"]

"""An order journaled once: "flagged first" pressed again names the earlier record of the same order.

At a million items the flagged-first order is hundreds of thousands of ids; every press of `f` wrote them all
again (megabytes per press) and walked every item. Now the order is worked out once (``ReviewOrder``), written
whole the first time, and named by that record's number afterwards ("reorder"), in this session or a later one.
"""

from __future__ import annotations

import pytest

import reviewtui as cg
from reviewtui.cli import main
from reviewtui.evalset.io.journal import JournalWriter, encode_record, read_journal
from reviewtui.evalset.io.jsonl import write_jsonl
from reviewtui.evalset.review.queue import ReviewOrder, ReviewQueue
from reviewtui.evalset.review.session import ReviewSession, load_review


def make_set(n: int = 12) -> cg.EvalSet:
    return cg.EvalSet(
        id="quiz", items=tuple(cg.EvalItem(id=f"q{i}", question=f"What does rule {i} of the handbook say?") for i in range(n))
    )


def state(queue: ReviewQueue):
    return (queue.position, queue.decisions, queue.history, queue.future, queue.order, queue.counts(), queue.decided)


def ops(journal) -> list[dict]:
    return [payload for _, payload in read_journal(journal).records[1:]]


def review_with_presses(session: ReviewSession, flagged: ReviewOrder | list[int]) -> None:
    """f, decide, f (back to the set's order), decide, f again with the same order: as a reviewer does."""
    session.accept()
    session.set_order(flagged)
    session.goto(session.queue.first_open(len(flagged)))
    session.reject(reason="ambiguous")
    session.set_order(None)
    session.accept()
    session.set_order(flagged)
    session.accept()


def test_the_same_order_again_is_journaled_by_reference_and_resumes_exactly(tmp_path):
    evalset = make_set()
    path = write_jsonl(evalset, tmp_path / "quiz.jsonl")
    with ReviewSession.open(path, reviewer="ana") as session:
        flagged = session.queue.prepare_order([9, 4, 7, 2])
        review_with_presses(session, flagged)
        left = state(session.queue)
    orders = [op for op in ops(session.journal_path) if op["op"] in ("order", "reorder")]
    assert orders[0] == {"n": orders[0]["n"], "op": "order", "ids": ["q9", "q4", "q7", "q2"]}
    assert orders[1]["ids"] is None  # the set's own order needs no list
    assert orders[2] == {"n": orders[2]["n"], "op": "reorder", "of": orders[0]["n"]}
    with ReviewSession.open(path, reviewer="ana") as again:
        assert state(again.queue) == left
        # A later session pressing f with the same order (worked out anew, as after a new scan) names it too.
        again.set_order(None)
        again.set_order(again.queue.prepare_order([9, 4, 7, 2]))
        moved_on = state(again.queue)
    assert ops(path.with_name("quiz.jsonl.reviewtui-journal"))[-2:-1] == [
        {"n": ops(again.journal_path)[-2]["n"], "op": "reorder", "of": orders[0]["n"]}
    ]
    with ReviewSession.open(path, reviewer="ana") as third:
        assert state(third.queue) == moved_on


def test_a_list_of_indices_is_named_by_reference_too(tmp_path):
    path = write_jsonl(make_set(), tmp_path / "quiz.jsonl")
    with ReviewSession.open(path, reviewer="ana") as session:
        review_with_presses(session, [9, 4, 7, 2])
        left = state(session.queue)
    assert [op["op"] for op in ops(session.journal_path) if op["op"].endswith("order")] == ["order", "order", "reorder"]
    with ReviewSession.open(path, reviewer="ana") as again:
        assert state(again.queue) == left


def test_a_journal_written_before_reorder_replays_as_it_did(tmp_path):
    """The old format wrote every order whole: the same state comes back from either journal."""
    path = write_jsonl(make_set(), tmp_path / "quiz.jsonl")
    with ReviewSession.open(path, reviewer="ana") as session:
        review_with_presses(session, [9, 4, 7, 2])
        left = state(session.queue)
    journal = session.journal_path
    contents = read_journal(journal)
    whole: dict[int, list[str]] = {}
    old = tmp_path / "old.reviewtui-journal"
    lines = []
    for _, payload in contents.records:
        if payload.get("op") == "order" and payload["ids"] is not None:
            whole[payload["n"]] = payload["ids"]
        if payload.get("op") == "reorder":
            payload = {"n": payload["n"], "op": "order", "ids": whole[payload["of"]]}
        lines.append(encode_record(payload))
    old.write_bytes(b"".join(lines))
    assert b"reorder" not in old.read_bytes() and b"reorder" in journal.read_bytes()
    with ReviewSession.open(path, reviewer="ana", journal_path=old) as resumed:
        assert state(resumed.queue) == left
        # pressing f again with that order names the old journal's record of it: no third copy
        resumed.set_order(None)
        resumed.set_order([9, 4, 7, 2])
    assert ops(old)[-2]["op"] == "reorder"


def test_status_and_export_read_the_reorder_step(tmp_path, capsys):
    path = write_jsonl(make_set(), tmp_path / "quiz.jsonl")
    with ReviewSession.open(path, reviewer="ana") as session:
        review_with_presses(session, [9, 4, 7, 2])
        counts = session.queue.counts()
    assert any(op["op"] == "reorder" for op in ops(session.journal_path))
    loaded = load_review(path)
    assert loaded.queue.counts() == counts and loaded.report.resumed
    assert main(["status", str(path)]) == 0
    out = capsys.readouterr().out
    assert "4 of 12" in out, out
    assert main(["export", str(path)]) == 0
    assert "4 of 12 reviewed (3 accepted, 1 rejected" in capsys.readouterr().out
    assert len(cg.read_jsonl(tmp_path / "quiz.v2.jsonl").items) == 11  # the rejected item left out


def _journal_with(tmp_path, records: list[dict]):
    """A set and a journal of the given records after its header (as hand-made or damaged ones are)."""
    evalset = make_set(4)
    path = write_jsonl(evalset, tmp_path / "quiz.jsonl")
    journal = path.with_name("quiz.jsonl.reviewtui-journal")
    header = {"set": "quiz", "version": 1, "all": False, "at": 1.7e9, "by": "ana", "tool": "t"}
    writer = JournalWriter.create(journal, header)
    for record in records:
        writer.append(record)
    writer.close()
    return path, journal


@pytest.mark.parametrize(
    ("records", "said"),
    [
        ([{"op": "reorder", "of": 5}], "the order it repeats, record 5, is not an order written earlier in this journal"),
        # it names a record that is there, but no order
        ([{"op": "move", "id": "q1"}, {"op": "reorder", "of": 1}], "record 1, is not an order"),
        ([{"op": "reorder", "of": "1"}], "'of' must be the number of an earlier record of the order"),
        ([{"op": "reorder"}], "has no 'of'"),
    ],
)
def test_a_reorder_naming_no_order_is_a_clear_error(tmp_path, capsys, records, said):
    path, journal = _journal_with(tmp_path, records)
    for command in (["status", str(path)], ["export", str(path)]):
        assert main(command) == 2
        err = capsys.readouterr().err
        line = len(records) + 1
        assert f"{journal}:{line}: " in err and said in err, err
        assert "Traceback" not in err
    assert not (tmp_path / "quiz.v2.jsonl").exists()


def test_an_order_is_laid_out_as_the_step_by_step_rule_would(tmp_path):
    """A ReviewOrder's layout (a word at a time) gives the positions and next items of the walk it replaced."""
    import random

    rng = random.Random(3)
    items = [cg.EvalItem(id=f"q{i}", question=f"Question {i}?") for i in range(300)]
    fast = ReviewQueue(items)
    for _ in range(40):
        if rng.random() < 0.6:
            fast.goto(rng.randrange(300))
            fast.accept()
        chosen = rng.sample(range(300), rng.randint(0, 120))
        fast.set_order(chosen if rng.random() < 0.8 else None)
        open_ranks = [fast.rank_of(i) for i in range(300) if fast.decision_for(i) is None]
        expected = sorted(open_ranks)
        assert list(fast._open) == expected
        if fast.ordered:
            assert [fast.index_at_rank(r) for r in range(len(chosen))] == chosen
            first = next((i for i in chosen if fast.decision_for(i) is None), None)
            assert fast.first_open(len(chosen)) == first


def test_a_prepared_order_for_another_queue_is_refused():
    items = [cg.EvalItem(id=f"q{i}", question=f"Question {i}?") for i in range(5)]
    queue = ReviewQueue(items)
    with pytest.raises(cg.EvalSetError, match="worked out for 3 items"):
        queue.set_order(ReviewOrder((2, 1), 3))
    with pytest.raises(cg.EvalSetError, match="names item 'q1' twice"):
        queue.prepare_order([1, 1])
    with pytest.raises(cg.EvalSetError, match="outside the queue"):
        queue.prepare_order([7])


async def test_f_in_the_app_writes_the_order_once_and_names_it_after(tmp_path):
    """The app works the flagged-first order out for the queue with the scan's order (off the UI thread); f hands
    that over, and pressing it again after going back to the set's order journals one short line."""
    from reviewtui.evalset.model.flag import Flag, Severity
    from reviewtui.tui.app import ReviewApp
    from tests.tui_helpers import fixed_scan, open_session, settle

    flags = {"q3": [Flag("too-short", Severity.HIGH, "short")], "q1": [Flag("too-short", Severity.MEDIUM, "short")]}
    session = open_session(tmp_path, make_set(6))
    app = ReviewApp(session, scan=fixed_scan(flags))
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            assert isinstance(app.flagged_order_as_shown(), ReviewOrder)
            for _ in range(3):
                await pilot.press("f")
                await pilot.pause()
            assert session.queue.order == (3, 1, 0, 2, 4, 5)
            assert session.current is not None and session.current.id == "q3"
    finally:
        session.close()
    steps = [(op["op"], op.get("ids", op.get("of"))) for op in ops(session.journal_path) if op["op"].endswith("order")]
    first = next(op["n"] for op in ops(session.journal_path) if op["op"] == "order")
    assert steps == [("order", ["q3", "q1"]), ("order", None), ("reorder", first)]


def test_an_order_with_a_few_items_moved_is_journaled_as_the_difference(tmp_path):
    """After an edit fixed an item's warning, f's order is the scan's with that item moved: the journal holds the
    scan's order whole already, so only what moved is written, and a resume gets the very same order back."""
    path = write_jsonl(make_set(), tmp_path / "quiz.jsonl")
    with ReviewSession.open(path, reviewer="ana") as session:
        base = session.queue.prepare_order([9, 4, 7, 2, 11])
        session.set_order(base)
        session.set_order(None)
        # 4 no longer flagged, 2 now ranks first, 5 newly flagged third
        moved = session.queue.derive_order(base, [4, 2], [(0, 2), (3, 5)])
        assert moved.indices == (2, 9, 7, 5, 11)
        session.set_order(moved)
        session.accept()
        left = state(session.queue)
    last = [op for op in ops(session.journal_path) if op["op"].endswith("order")][-1]
    first = next(op["n"] for op in ops(session.journal_path) if op["op"] == "order")
    assert {key: last[key] for key in ("op", "of", "in")} == {"op": "reorder", "of": first, "in": [[0, "q2"], [3, "q5"]]}
    assert sorted(last["out"]) == ["q2", "q4"]
    with ReviewSession.open(path, reviewer="ana") as again:
        assert state(again.queue) == left
        assert again.queue.order[:5] == (2, 9, 7, 5, 11)


@pytest.mark.parametrize(
    ("out", "ins", "said"),
    [
        ({"out": "q1"}, {}, "'out' must be a list of item ids"),
        ({}, {"in": [["0", "q1"]]}, "'in' must be a list of [place, item id]"),
    ],
)
def test_a_reorder_with_a_bad_difference_is_a_clear_error(tmp_path, capsys, out, ins, said):
    records = [{"op": "order", "ids": ["q2", "q1"]}, {"op": "reorder", "of": 1, **out, **ins}]
    path, journal = _journal_with(tmp_path, records)
    assert main(["status", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{journal}:3: " in err and said in err and "Traceback" not in err, err


def test_a_hand_made_difference_naming_items_twice_or_gone_leaves_them_out(tmp_path):
    records = [{"op": "order", "ids": ["q2", "q1"]}, {"op": "reorder", "of": 1, "out": ["gone"], "in": [[0, "q1"], [9, "q3"], [0, "nope"]]}]
    path, _ = _journal_with(tmp_path, records)
    assert load_review(path).queue.order == (2, 1, 3, 0)


async def test_f_after_an_edit_moved_an_item_journals_the_difference(tmp_path):
    from reviewtui.evalset.model.flag import Flag, Severity
    from reviewtui.tui.app import ReviewApp
    from tests.tui_helpers import fixed_scan, open_session, settle

    flags = {f"q{k}": [Flag("too-short", Severity.MEDIUM, "short")] for k in (1, 3, 4)}
    session = open_session(tmp_path, make_set(6))
    app = ReviewApp(session, scan=fixed_scan(flags))
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            await pilot.press("f")
            await pilot.pause()
            await pilot.press("f")
            await pilot.pause()
            # as an edit leaves it: q3's warning fixed, q5 now high (see note_shown)
            app.view.shown_worst.update({"q3": None, "q5": Severity.HIGH})
            order = app.flagged_order_as_shown()
            assert isinstance(order, ReviewOrder) and order.indices == (5, 1, 4)
            await pilot.press("f")
            await pilot.pause()
            assert session.queue.order == (5, 1, 4, 0, 2, 3)
    finally:
        session.close()
    last = ops(session.journal_path)[-2]  # the close's move follows
    assert last["op"] == "reorder" and last["out"] == ["q3"] and last["in"] == [[0, "q5"]], last
    with ReviewSession.open(session.input_path, reviewer="tester") as again:
        assert again.queue.order == (5, 1, 4, 0, 2, 3)

"""The journal replay applies decisions in line and owes the cursor its moves; it must reach
exactly the state, the report and the refusals of replaying every record as a queue action
(``replay_reference.reference_replay``, the replay as it was before)."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from replay_reference import reference_replay
from test_journal import state as resumed_state

import reviewtui as cg
from reviewtui.evalset.io.journal import JournalContents, read_journal
from reviewtui.evalset.io.jsonl import LinePrints, read_jsonl, write_jsonl
from reviewtui.evalset.review.queue import ReviewQueue
from reviewtui.evalset.review.replay import journal_item_ids, replay
from reviewtui.evalset.review.session import ReviewSession


def make_set(n: int) -> cg.EvalSet:
    return cg.EvalSet(
        id="fast-replay",
        items=tuple(
            cg.EvalItem(
                id=f"f{i}",
                question=f"What does clause {i} of the contract say?",
                anchors=(cg.GoldAnchor(source_id="c.pdf", quote=f"Clause {i} says {i}."),),
                answer=f"It says {i}." if i % 3 else None,
                meta={"reviewed": True} if i % 11 == 5 else {},
            )
            for i in range(n)
        ),
    )


STEPS = (
    ("accept", 20),
    ("reject", 10),
    ("skip", 5),
    ("edit", 6),
    ("mark", 3),
    ("note", 5),
    ("dismiss", 4),
    ("undo", 12),
    ("redo", 7),
    ("next", 4),
    ("previous", 4),
    ("goto", 8),
    ("next_undecided", 2),
    ("order", 2),
)


def run_session(evalset: cg.EvalSet, journal, seed: int, count: int) -> None:
    rng = random.Random(seed)
    kinds = [k for k, _ in STEPS]
    weights = [w for _, w in STEPS]
    with ReviewSession.start(evalset, journal, include_reviewed=seed % 2 == 0) as session:
        # warnings and flags recorded with the decisions ("warn", "flagged")
        session.queue.open_warnings = lambda item: ("near-duplicate",) if item.id.endswith("3") else ()
        session.queue.flagged_by = lambda item: ("thin-answer", "unclear") if item.id.endswith(("1", "7")) else ()
        for number in range(count):
            kind = rng.choices(kinds, weights)[0]
            try:
                if kind == "accept":
                    session.accept(note=f"ok {number}" if rng.random() < 0.3 else "")
                elif kind == "reject":
                    session.reject(note=f"r{number}", reason=rng.choice([None, "duplicate", "ambiguous"]))
                elif kind == "skip":
                    session.skip()
                elif kind == "edit":
                    session.edit(question=f"Rewritten question {number}?")
                elif kind == "mark":
                    session.mark(rng.choice(["numeric", "factoid"]))
                elif kind == "note":
                    session.note(f"note {number}")
                elif kind == "dismiss":
                    session.dismiss(rng.choice(["thin-answer", "unclear"]))
                elif kind == "goto":
                    session.goto(rng.randrange(len(session.queue)))
                elif kind == "order":
                    n = len(session.queue)
                    session.set_order(rng.sample(range(n), rng.randint(0, 6)) if rng.random() < 0.8 else None)
                else:
                    getattr(session, kind)()
            except cg.EvalSetError:
                pass  # refused in this state (nothing to undo, the review finished ...)


class CountingClock:
    def __init__(self) -> None:
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        return 1_000.0 + self.reads


def full_state(queue: ReviewQueue, clock: CountingClock) -> tuple[Any, ...]:
    """What a resume restores (test_journal's ``state``), and what only the replay's inner steps show."""
    return (
        *resumed_state(queue),
        queue.dismissals,
        list(queue._open),  # the undecided positions, by rank
        queue._shown_at,
        clock.reads,
    )


def replayed(how, evalset: cg.EvalSet, contents: JournalContents, prints: LinePrints | None):
    clock = CountingClock()
    keep = journal_item_ids(contents)
    include = bool((contents.header or {}).get("all"))
    queue = ReviewQueue.from_evalset(evalset, skip_reviewed=not include, include_ids=keep, reviewer="t", clock=clock)
    try:
        outcome = how(queue, contents, prints)
    except cg.EvalSetError as exc:
        return ("refused", type(exc).__name__, str(exc))
    found = (
        outcome.applied,
        outcome.stale,
        outcome.reviewers,
        outcome.first_decision_at,
        outcome.last_decision_at,
        outcome.sessions,
    )
    return found, full_state(queue, clock)


def both(evalset: cg.EvalSet, contents: JournalContents, prints: LinePrints | None = None):
    return replayed(replay, evalset, contents, prints), replayed(reference_replay, evalset, contents, prints)


def changed(evalset: cg.EvalSet, seed: int) -> cg.EvalSet:
    """The set with some items edited in the file, some gone and some new."""
    rng = random.Random(seed)
    items = []
    for item in evalset.items:
        roll = rng.random()
        if roll < 0.1:
            continue
        items.append(item.replace(answer="changed in the file") if roll < 0.25 else item)
    items.extend(cg.EvalItem(id=f"new{i}", question=f"A new question {i}?") for i in range(3))
    return evalset.replace(items=tuple(items))


@pytest.mark.parametrize("seed", range(8))
def test_the_fast_replay_reaches_the_reference_state(tmp_path, seed):
    evalset = make_set(40)
    journal = tmp_path / "j"
    run_session(evalset, journal, seed, 120)
    run_session(evalset, journal, seed + 100, 60)  # a second session: an "open" record in the middle
    contents = read_journal(journal)
    assert any(p.get("op") == "decide" for _, p in contents.records)
    fast, slow = both(evalset, contents)
    assert fast == slow and fast[0] != "refused"
    # on a set changed since: stale records skipped alike, with their undo and redo
    other = changed(evalset, seed)
    fast, slow = both(other, contents)
    assert fast == slow and fast[0] != "refused"
    assert fast[0][1], "some records should have been stale"


@pytest.mark.parametrize("seed", range(3))
def test_the_fast_replay_matches_with_line_prints(tmp_path, seed):
    """The set read from a file, with the hashes of its lines (and one item changed on disk)."""
    evalset = make_set(30)
    journal = tmp_path / "j"
    run_session(evalset, journal, seed, 100)
    contents = read_journal(journal)
    path = write_jsonl(changed(evalset, seed), tmp_path / "set.jsonl")
    prints = LinePrints(journal_item_ids(contents))
    loaded = read_jsonl(path, line_prints=prints)
    fast, slow = both(loaded, contents, prints)
    assert fast == slow and fast[0] != "refused"


BAD_VALUES: dict[str, list[Any]] = {
    "op": [None, 3, ["decide"], "launch"],
    "id": [None, 7, "no-such-item", ["f1"]],
    "h": [None, 12, "0" * 16],
    "v": [None, "maybe", 1, "pending"],
    "why": ["because", 3, None],
    "at": [-1, "today", 1e20, None, True],
    "secs": [-0.5, "long", 1e12, None],
    "item": [[1], "x", {"id": "someone-else", "question": "Q?"}, {"id": "f1"}, {"id": "f1", "question": 5}],
    "warn": ["x", [1], None],
    "flagged": [{"a": 1}, [None]],
    "note": [5, None, ["n"]],
    "by": [7, None],
    "text": [None, 4],
    "check": [None, 1],
    "on": ["yes", None, 1],
    "ids": ["f1", [1, 2], {"f1": 1}],
    "pid": [-3, "p"],
    "earlier": ["bad", None, [["ana"]], [["ana", 3]], [{"by": "ana", "note": "x"}]],
}


def spoiled(contents: JournalContents, rng: random.Random) -> JournalContents:
    """The same journal with one field of one record given a bad value (or taken out)."""
    records = [(line, dict(payload)) for line, payload in contents.records]
    line, payload = records[rng.randrange(1, len(records))]
    name = rng.choice([*payload.keys(), *BAD_VALUES])
    if name == "n":
        name = "op"
    if rng.random() < 0.2 and name in payload:
        del payload[name]
    else:
        payload[name] = rng.choice(BAD_VALUES.get(name, [None]))
    return JournalContents(contents.path, records, contents.good_size, contents.torn, contents.exists, contents.size)


def test_bad_records_are_refused_alike(tmp_path):
    evalset = make_set(25)
    journal = tmp_path / "j"
    run_session(evalset, journal, 5, 90)
    contents = read_journal(journal)
    rng = random.Random(11)
    refused = 0
    for _ in range(400):
        bad = spoiled(contents, rng)
        fast, slow = both(evalset, bad)
        assert fast == slow
        refused += fast[0] == "refused"
    assert refused > 150  # most spoilt fields are refused; the others must still replay alike


def test_undo_and_redo_past_the_history_are_refused_alike(tmp_path):
    evalset = make_set(10)
    journal = tmp_path / "j"
    run_session(evalset, journal, 3, 30)
    contents = read_journal(journal)
    last = contents.records[-1][0]
    for op, extra in itertools.product(("undo", "redo"), range(1, 40, 7)):
        records = list(contents.records)
        for k in range(extra):
            records.append((last + 1 + k, {"n": last + k, "op": op, "id": "f1"}))
        bad = JournalContents(contents.path, records, contents.good_size, None, True, contents.size)
        fast, slow = both(evalset, bad)
        assert fast == slow


@pytest.mark.parametrize("last_order", [None, ["f3", "f2"]])
def test_an_order_after_a_decision_places_the_cursor_as_before(tmp_path, last_order):
    """A change of order settles the move the decision before it owes, in the order it was made in."""
    evalset = make_set(12)
    journal = tmp_path / "j"
    with ReviewSession.start(evalset, journal, include_reviewed=True) as session:
        session.set_order(["f9", "f2", "f4"])
        session.goto("f2")
        session.accept()  # next undecided in this order: f4 (in the set's own order it would be f3)
        session.set_order(last_order)
        expected = session.queue.position
    assert evalset.items[expected].id == "f4"
    contents = read_journal(journal)
    fast, slow = both(evalset, contents)
    assert fast == slow
    with ReviewSession.start(evalset, journal) as again:
        assert again.queue.position == expected


def test_the_cursor_reads_where_an_owed_move_ends():
    # decide_owing_move leaves the cursor's move owing; position and current must answer as apply would.
    items = [cg.EvalItem(id=f"q{k}", question=f"Question {k}?") for k in range(3)]
    owing, applied = ReviewQueue(items), ReviewQueue(items)
    plan = owing.plan_accept()
    owing.decide_owing_move(plan.index, plan.decision)
    applied.apply(applied.plan_accept())
    assert owing.position == applied.position == 1
    assert owing.current is not None and owing.current.id == "q1"


def test_a_decision_made_for_a_replay_is_the_dataclass_s_own():
    """``make_decision`` skips the frozen dataclass's ``__init__`` for speed; what it makes must not differ."""
    import dataclasses

    from reviewtui.evalset.review.queue import Decision, RejectReason, Verdict, make_decision

    before = make_set(1).items[0]
    after = before.replace(question="What does clause 0 really say?")
    values = (
        "f0", Verdict.EDITED, "a note", RejectReason.OTHER, before, after, 1.7e9, 12.5, "ana", ("w",), ("w", "x"), "bo", "chen",
        (("dee", "an earlier note"),), ("eve", "ana"), ("x",), (("w", ("f1",)),), True,
    )
    made, built = make_decision(*values), Decision(*values)
    assert made == built
    assert [getattr(made, f.name) for f in dataclasses.fields(Decision)] == list(values)
    assert made.changed and made.record_meta() == built.record_meta()
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.note = "changed"  # type: ignore[misc]

"""Opening a review on the first items of a set and reading the rest in batches.

The promise under test: a progressive open puts the reviewer on the same item,
with the same decisions, notes and history, as reading the whole file first;
and a bad line anywhere still fails with ``path:line``.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import reviewtui as cg
from reviewtui.evalset.io import read_jsonl, write_jsonl
from reviewtui.evalset.io.journal import read_journal
from reviewtui.evalset.io.jsonl import JsonlReader
from reviewtui.evalset.model.items import EvalSetError
from reviewtui.evalset.review import loading
from reviewtui.evalset.review import replay as replay_module
from reviewtui.evalset.review.positions import PositionSet
from reviewtui.evalset.review.queue import ReviewQueue
from reviewtui.evalset.review.session import ReviewSession


def _items(n: int, *, reviewed_every: int = 0, seed: int = 0) -> tuple[cg.EvalItem, ...]:
    rng = random.Random(seed)
    return tuple(
        cg.EvalItem(
            id=f"q{i}",
            question=f"Question {i} about clause {rng.randint(1, 99)}?",
            answer=f"answer {i}",
            meta={"reviewed": True} if reviewed_every and i % reviewed_every == 0 else {},
        )
        for i in range(n)
    )


def _write(tmp_path: Path, items, name: str = "quiz") -> Path:
    return write_jsonl(cg.EvalSet(id=name, items=items, version=3), tmp_path / f"{name}.jsonl")


def _state(session: ReviewSession) -> tuple:
    queue = session.queue
    return (
        queue.current.id if queue.current is not None else None,
        {key: (d.verdict, d.note, d.reason, d.after) for key, d in queue.decisions.items()},
        queue.notes,
        [(c.item_id, c.after.verdict if c.after else None) for c in queue.history],
        [(c.item_id, c.after.verdict if c.after else None) for c in queue.future],
    )


def _load_rest(session: ReviewSession, batch: int = 7) -> None:
    loader = session.loading
    while loader is not None and not loader.done:
        session.add_loaded(loader.read_more(batch))
    if loader is not None:
        session.finish_loading(loader.finish())


# --- the reader ------------------------------------------------------------------------------


@pytest.mark.parametrize("batch", [1, 3, 64, 10_000])
def test_reader_batches_give_the_same_set_as_reading_at_once(tmp_path, batch):
    path = _write(tmp_path, _items(200))
    with JsonlReader(path) as reader:
        assert reader.set_id == "quiz" and reader.header["version"] == 3
        got = []
        while not reader.done:
            got.extend(reader.read(batch))
        whole = reader.finish()
    assert got == list(read_jsonl(path).items) == list(whole.items)
    assert (whole.id, whole.version) == ("quiz", 3)


def test_reader_without_header_names_the_set_after_the_file(tmp_path):
    path = tmp_path / "plain.jsonl"
    path.write_text('{"id": "a", "question": "A?"}\n\n{"id": "b", "question": "B?"}\n')
    with JsonlReader(path) as reader:
        assert reader.set_id == "plain" and reader.header is None
        assert [item.id for item in reader.read(10)] == ["b"] and [i.id for i in reader.items] == ["a", "b"]
        assert reader.done and reader.snapshot().id == "plain"


def test_a_bad_line_in_a_late_batch_names_its_line(tmp_path):
    path = _write(tmp_path, _items(50))
    with path.open("a") as handle:
        handle.write('{"id": "late", "question": }\n')
    with JsonlReader(path) as reader:
        reader.read(10)
        with pytest.raises(EvalSetError) as caught:
            reader.finish()
    assert caught.value.line == 52 and str(caught.value).startswith(f"{path}:52:")


def test_a_duplicate_id_across_batches_names_both_lines(tmp_path):
    path = _write(tmp_path, _items(30))
    with path.open("a") as handle:
        handle.write('{"id": "q2", "question": "Again?"}\n')
    with JsonlReader(path) as reader:
        reader.read(5)
        with pytest.raises(EvalSetError, match="used twice: on line 4") as caught:
            reader.finish()
    assert caught.value.line == 32


# --- the queue grows --------------------------------------------------------------------------


def test_position_set_grow_matches_a_plain_set():
    rng = random.Random(7)
    for _ in range(60):
        size = rng.randint(0, 300)
        ps, plain = PositionSet.full(size), set(range(size))
        for _ in range(rng.randint(1, 8)):
            for _ in range(rng.randint(0, 40)):
                if size:
                    p = rng.randrange(size)
                    (ps.discard if rng.random() < 0.7 else ps.add)(p)
                    (plain.discard if p not in ps else plain.add)(p)
            new = size + rng.choice([0, 1, 63, 64, 65, rng.randint(0, 5000)])
            ps.grow(new)
            plain.update(range(size, new))
            size = new
            assert len(ps) == len(plain) and list(ps) == sorted(plain)
            for probe in rng.sample(range(size + 1), min(size + 1, 20)):
                assert ps.next_from(probe) == min((p for p in plain if p >= probe), default=-1)
    with pytest.raises(ValueError):
        PositionSet.full(5).grow(4)


def test_queue_extend_behaves_like_a_queue_built_whole():
    items = _items(40)
    whole, grown = ReviewQueue(items, reviewer="r"), ReviewQueue(items[:5], reviewer="r")
    for queue in (whole, grown):
        for _ in range(5):
            queue.accept()
    assert grown.current is None and whole.current.id == "q5"
    grown.extend(items[5:20])
    grown.extend(items[20:])
    assert grown.current.id == "q5" and grown.items == whole.items and grown.left == whole.left == 35
    for queue in (whole, grown):
        queue.reject()
        queue.goto("q39")
        queue.accept()
    assert grown.current.id == whole.current.id == "q6"


def test_queue_extend_refuses_a_duplicate_and_stays_as_it_was():
    queue = ReviewQueue(_items(3), reviewer="r")
    more = _items(6)[3:]
    with pytest.raises(EvalSetError, match="twice"):
        queue.extend((*more, _items(1)[0]))
    assert len(queue) == 3 and queue.index_of("q3") is None
    queue.extend(more)
    assert queue.index_of("q5") == 5


def test_queue_extend_is_refused_under_a_custom_order():
    queue = ReviewQueue(_items(3), reviewer="r")
    queue.set_order([2, 1])
    with pytest.raises(EvalSetError, match="custom review order"):
        queue.extend(_items(5)[3:])


# --- the session opens on part of the set -----------------------------------------------------


def _random_review(session: ReviewSession, rng: random.Random, steps: int, *, allow_order: bool, past_end: bool) -> None:
    for _ in range(steps):
        if session.queue.current is None:
            session.goto(rng.randrange(len(session.queue)))
        roll = rng.random()
        try:
            if roll < 0.35:
                session.accept(note=rng.choice(["", "fine"]))
            elif roll < 0.45:
                session.reject(note="vague", reason=rng.choice([None, "ambiguous"]))
            elif roll < 0.52:
                session.skip()
            elif roll < 0.58:
                session.edit(question=f"Edited {rng.random():.3f}?")
            elif roll < 0.64:
                session.note(f"draft {rng.random():.2f}")
            elif roll < 0.74:
                session.undo()
            elif roll < 0.79:
                session.redo()
            elif roll < 0.85:
                session.next()
            elif roll < 0.89:
                session.previous()
            elif roll < 0.92:
                session.goto(rng.randrange(len(session.queue)))
            elif roll < 0.95 and past_end:
                session.goto(len(session.queue) - 1)
                session.next()  # past the last item
            elif allow_order:
                session.set_order(rng.sample(range(len(session.queue)), 5) if rng.random() < 0.7 else None)
        except EvalSetError:
            pass  # nothing to undo/redo, or past the end: the session refuses, as it should


def _resume_both_ways(tmp_path: Path, monkeypatch, seed: int) -> bool:
    """Review at random, then reopen fully and progressively; both must agree. True if the open was partial."""
    rng = random.Random(seed)
    monkeypatch.setattr(loading, "OPENING_ITEMS", rng.choice([1, 10]))
    monkeypatch.setattr(loading, "_SEEKING_BATCH", rng.choice([1, 3, 50]))  # read as little as allowed
    folder = tmp_path / str(seed)
    folder.mkdir()
    path = _write(folder, _items(400, reviewed_every=rng.choice([0, 3, 7]), seed=seed))
    journal = folder / "quiz.journal"
    include = rng.random() < 0.3
    with ReviewSession.open(path, journal_path=journal, reviewer="r", include_reviewed=include) as first:
        _random_review(first, rng, rng.randint(0, 60), allow_order=seed % 4 == 0, past_end=seed % 4 == 1)
    with ReviewSession.open(path, journal_path=journal, reviewer="r", include_reviewed=include) as full:
        expected, expected_len = _state(full), len(full.queue)
    with ReviewSession.open(path, journal_path=journal, reviewer="r", include_reviewed=include, progressive=True) as part:
        assert _state(part) == expected, seed
        opened_on = len(part.queue)
        assert part.loading is not None or opened_on == expected_len
        _load_rest(part, batch=rng.randint(1, 50))
        assert part.loading is None and len(part.queue) == expected_len and _state(part) == expected, seed
        assert part.evalset == read_jsonl(path)
        assert part.resume_report.complete and part.resume_report.total == expected_len
    return opened_on < expected_len


def test_a_progressive_open_resumes_exactly_where_a_full_read_does(tmp_path, monkeypatch):
    partial = [_resume_both_ways(tmp_path, monkeypatch, seed) for seed in range(16)]
    assert sum(partial) >= 8, partial  # most opens really were on part of the set


def test_a_new_review_opens_on_the_first_items_and_grows(tmp_path, monkeypatch):
    monkeypatch.setattr(loading, "OPENING_ITEMS", 25)
    path = _write(tmp_path, _items(300, reviewed_every=4))
    with ReviewSession.open(path, reviewer="r", progressive=True) as session:
        assert session.loading is not None and len(session.queue) < 40
        assert session.resume_report.headline == "new review"
        assert session.current.id == "q1"  # q0 is marked reviewed
        for _ in range(3):
            session.accept()
        with pytest.raises(EvalSetError, match=r"still being read \(\d+%\); export once it has loaded"):
            session.export()
        with pytest.raises(EvalSetError, match="change the order once it has loaded"):
            session.set_order([5, 6])
        _load_rest(session)
        assert len(session.queue) == 225 and session.queue.decided == 3
        assert session.resume_report.headline == (
            "new review: 225 questions to check, 75 marked reviewed left out (--all)"
        )
        assert session.export().exists()


def test_a_journal_with_a_custom_order_reads_the_whole_set_first(tmp_path, monkeypatch):
    monkeypatch.setattr(loading, "OPENING_ITEMS", 5)
    path = _write(tmp_path, _items(100))
    journal = tmp_path / "j"
    with ReviewSession.open(path, journal_path=journal, reviewer="r") as session:
        session.set_order([90, 10])
        session.goto(90)
        session.accept()
    with ReviewSession.open(path, journal_path=journal, reviewer="r", progressive=True) as again:
        assert again.loading is None and len(again.queue) == 100
        assert again.queue.order[:3] == (90, 10, 0) and again.current.id == "q10"


def test_a_journal_naming_a_late_item_reads_up_to_it(tmp_path, monkeypatch):
    monkeypatch.setattr(loading, "OPENING_ITEMS", 5)
    path = _write(tmp_path, _items(3 * loading.LOADER_BATCH))
    journal = tmp_path / "j"
    late = loading.LOADER_BATCH + 10
    with ReviewSession.open(path, journal_path=journal, reviewer="r") as session:
        session.goto(f"q{late}")
        session.accept()
    with ReviewSession.open(path, journal_path=journal, reviewer="r", progressive=True) as again:
        assert again.loading is not None and late + 2 <= len(again.queue) < 3 * loading.LOADER_BATCH
        assert again.current.id == f"q{late + 1}"
        assert again.resume_report.headline == "resumed: 1 decided"


def test_a_bad_line_past_the_opening_is_raised_by_the_loader_with_its_line(tmp_path, monkeypatch):
    monkeypatch.setattr(loading, "OPENING_ITEMS", 5)
    path = _write(tmp_path, _items(600))
    with path.open("a") as handle:
        handle.write("not json\n")
    with ReviewSession.open(path, reviewer="r", progressive=True) as session:
        session.accept()
        with pytest.raises(EvalSetError) as caught:
            _load_rest(session)
    assert caught.value.line == 602
    with ReviewSession.open(path, reviewer="r", progressive=True) as again:
        assert again.queue.decided == 1  # the decision made before the error was kept


def test_a_bad_line_in_the_opening_fails_before_anything_opens(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"id": "a", "question": "A?"}\n{"id": "b"}\n')
    with pytest.raises(EvalSetError) as caught:
        ReviewSession.open(path, reviewer="r", progressive=True)
    assert caught.value.line == 2
    assert not (tmp_path / "bad.jsonl.reviewtui-journal").exists()


def test_progressive_applies_only_to_native_jsonl(tmp_path, monkeypatch):
    monkeypatch.setattr(loading, "OPENING_ITEMS", 2)
    from reviewtui.evalset.io import write_csv

    csv_path = write_csv(cg.EvalSet(id="s", items=_items(20)), tmp_path / "s.csv")
    with ReviewSession.open(csv_path, reviewer="r", progressive=True) as session:
        assert session.loading is None and len(session.queue) == 20


def test_closing_while_loading_stops_the_loader(tmp_path, monkeypatch):
    monkeypatch.setattr(loading, "OPENING_ITEMS", 5)
    path = _write(tmp_path, _items(100))
    session = ReviewSession.open(path, reviewer="r", progressive=True)
    loader = session.loading
    session.close()
    assert loader.done and loader.closed and loader.read_more() == [] and loader.fraction == 1.0
    with pytest.raises(RuntimeError, match="closed"):
        loader.finish()


def test_a_journal_that_left_the_cursor_past_the_end_reads_the_whole_set_first(tmp_path, monkeypatch):
    monkeypatch.setattr(loading, "OPENING_ITEMS", 5)
    path = _write(tmp_path, _items(100))
    journal = tmp_path / "j"
    with ReviewSession.open(path, journal_path=journal, reviewer="r") as session:
        session.accept()
        session.goto(99)
        session.next()
        assert session.current is None
    with ReviewSession.open(path, journal_path=journal, reviewer="r", progressive=True) as again:
        assert again.loading is None and again.current is None and again.queue.position == 100


# --- what a resume tells a progress bar ---------------------------------------------------------


def _journal_through(tmp_path: Path, items: int, decided: list[int]) -> tuple[Path, Path]:
    path = _write(tmp_path, _items(items))
    journal = tmp_path / "j"
    with ReviewSession.open(path, journal_path=journal, reviewer="r") as session:
        for index in decided:
            session.goto(f"q{index}")
            session.accept()
    return path, journal


def _forward(calls: list[tuple[int, int]]) -> bool:
    """Progress that only moves forward, against one total, never past it."""
    done = [d for d, _ in calls]
    return len({t for _, t in calls}) == 1 and done == sorted(done) and done[-1] <= calls[0][1]


def _steady(calls: list[tuple[int, int]]) -> bool:
    """Progress that only moves forward against one total and ends at it."""
    return _forward(calls) and calls[-1][0] == calls[-1][1]


@pytest.mark.parametrize("order", [False, True])
def test_a_resume_reports_reading_up_to_the_journals_last_item_then_the_replay(tmp_path, monkeypatch, order):
    """Opening a review whose journal names items deep in a large file reads and replays for a while
    before the first question: both steps report, so the command can show how far it has got."""
    monkeypatch.setattr(loading, "OPENING_ITEMS", 5)
    monkeypatch.setattr(loading, "PROGRESS_EVERY", 100)  # the batch when the whole file is read
    monkeypatch.setattr(replay_module, "PROGRESS_EVERY", 4)
    path, journal = _journal_through(tmp_path, 1_500, [3, 700, 1_200, 40])
    if order:  # a custom order makes the opening read the whole file (read_to_end)
        with ReviewSession.open(path, journal_path=journal, reviewer="r") as session:
            session.set_order([9, 8])
    records = len(read_journal(journal).records) - 1  # the first is the header
    reading: list[tuple[int, int]] = []
    replaying: list[tuple[int, int]] = []
    with ReviewSession.open(
        path,
        journal_path=journal,
        reviewer="r",
        progressive=True,
        progress=lambda done, total: reading.append((done, total)),
        replay_progress=lambda done, total: replaying.append((done, total)),
    ) as session:
        read_whole = session.loading is None
        assert session.queue.decided == 4
    size = path.stat().st_size
    assert _forward(reading) and reading[0][1] == size and len(reading) > 3
    assert read_whole == order
    if order:
        assert reading[-1] == (size, size)
    else:  # the opening stopped a little after the last item the journal names (q1200 of 1,500)
        assert size * 0.7 < reading[-1][0] < size
    assert _steady(replaying) and replaying[-1] == (records, records) and len(replaying) >= records // 4


def test_status_and_export_report_the_replay_too(tmp_path, monkeypatch):
    from reviewtui.evalset.review.session import load_review

    monkeypatch.setattr(replay_module, "PROGRESS_EVERY", 2)
    path, journal = _journal_through(tmp_path, 50, [1, 2, 3, 4, 5])
    reading: list[tuple[int, int]] = []
    replaying: list[tuple[int, int]] = []
    loaded = load_review(
        path,
        journal_path=journal,
        progress=lambda done, total: reading.append((done, total)),
        replay_progress=lambda done, total: replaying.append((done, total)),
    )
    assert loaded.queue.decided == 5
    assert reading[-1] == (path.stat().st_size, path.stat().st_size)
    records = len(loaded.contents.records) - 1
    assert _steady(replaying) and replaying[-1] == (records, records) and len(replaying) > 2


def test_reading_one_item_at_a_time_past_the_journal_tells_progress_in_batches(tmp_path):
    """Past the journal's last item the opening reads one item at a time until one is in review; told
    after every item, a long run of reviewed items would redraw the bar thousands of times."""
    path = _write(tmp_path, _items(3_000, reviewed_every=1))  # every item marked reviewed: none is in review
    plan = loading.OpeningPlan(needed=frozenset({"q0"}), decided=frozenset(), include_reviewed=False)
    reading: list[tuple[int, int]] = []
    with JsonlReader(path) as reader:
        loading.read_opening(reader, plan, at_least=5, progress=lambda done, total: reading.append((done, total)))
        assert reader.done  # no item in review: the opening read the whole file
        read = len(reader.items)
    assert read == 3_000
    assert _steady(reading)
    assert len(reading) <= read // 256 + 2  # a report per seeking batch's worth of items, and the last


def test_a_journal_of_only_its_header_tells_no_replay(tmp_path):
    """Nothing to replay: no (0, 0) report, which a bar would draw as an empty step at 100 %."""
    from reviewtui.evalset.review.session import load_review

    path = _write(tmp_path, _items(10))
    journal = tmp_path / "j"
    ReviewSession.open(path, journal_path=journal, reviewer="r").close()
    journal.write_bytes(journal.read_bytes().splitlines(keepends=True)[0])  # the header alone (an interrupted start)
    replaying: list[tuple[int, int]] = []
    loaded = load_review(path, journal_path=journal, replay_progress=lambda done, total: replaying.append((done, total)))
    assert len(loaded.contents.records) == 1 and loaded.queue.decided == 0
    assert replaying == []


def test_nan_in_a_late_items_meta_is_kept_for_the_app_to_say_once_the_set_is_read(tmp_path, monkeypatch):
    """The loader finishes a large set in a worker thread, where the reading's warning reached nobody: the app
    exported null in place of the NaN without a word."""
    import warnings

    monkeypatch.setattr(loading, "OPENING_ITEMS", 5)
    path = _write(tmp_path, _items(300))
    lines = path.read_text().splitlines()
    lines[-1] = lines[-1].replace('"meta":{}', '"meta":{"score":NaN}') if '"meta":{}' in lines[-1] else lines[-1][:-1] + ',"meta":{"score":NaN}}'
    assert "NaN" in lines[-1]
    path.write_text("\n".join(lines) + "\n")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with ReviewSession.open(path, reviewer="r", progressive=True) as session:
            loader = session.loading
            assert loader is not None
            _load_rest(session)
    assert not caught  # nothing warned from the loader's side
    assert loader.note is not None and "NaN or infinite numbers in the meta of 1 item ('q299' on line 301)" in loader.note  # the header is line 1

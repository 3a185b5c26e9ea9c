"""Where a review ended, read from its journal's last line, and that item found in its file without reading the rest.

A session that closes ends its journal with a move to the item under the cursor; the next
opening of a large review reads it back (``where_it_ended``) and finds that item's line
(``find_item``), to show the question while the set is read and the journal replayed.
"""

from __future__ import annotations

import random

import orjson

import reviewtui as cg
from reviewtui.evalset.io.journal import read_journal, where_it_ended
from reviewtui.evalset.io.jsonl import find_item, write_jsonl
from reviewtui.evalset.review.session import ReviewSession
from tests.test_journal import as_if_crashed, busy_session, make_set, state


def _ops(journal):
    return [payload["op"] for _, payload in read_journal(journal).records]


def test_a_closing_session_ends_its_journal_with_the_cursor_and_changes_nothing_replayed(tmp_path):
    journal = tmp_path / "j"
    with ReviewSession.start(make_set(), journal) as session:
        busy_session(session)
        at_close = state(session.queue)
        where = session.queue.current.id
    assert _ops(journal)[-1] == "move" and where_it_ended(journal) == where
    with ReviewSession.start(make_set(), journal) as again:
        assert state(again.queue) == at_close
        assert again.queue.current.id == where


def test_random_sessions_resume_where_the_journal_says_they_ended(tmp_path):
    rng = random.Random(5)
    for run in range(12):
        journal = tmp_path / f"j{run}"
        evalset = make_set(12)
        for _ in range(3):  # several sessions on one journal
            with ReviewSession.start(evalset, journal) as session:
                for _ in range(rng.randrange(0, 9)):
                    step = rng.choice(("accept", "skip", "reject", "undo", "redo", "goto", "note"))
                    if step == "goto":
                        session.goto(f"q{rng.randrange(12)}")
                    elif step == "note":
                        if session.queue.current is not None:
                            session.note("a note")
                    elif step in ("undo", "redo") or session.queue.current is not None:
                        getattr(session, step)()
                current = session.queue.current
                at_close = state(session.queue)
            assert where_it_ended(journal) == (current.id if current is not None else None)
            with ReviewSession.start(evalset, journal) as again:
                assert state(again.queue) == at_close


def test_a_session_with_nothing_to_add_writes_no_second_move(tmp_path):
    journal = tmp_path / "j"
    with ReviewSession.start(make_set(), journal) as session:
        session.goto("q3")  # already a move to the cursor's item: nothing to add at close
    assert _ops(journal)[-2:] == ["open", "move"]
    with ReviewSession.start(make_set(), journal):
        pass  # opened and closed: its "open" follows the move, and its own move names the same item
    assert where_it_ended(journal) == "q3"


def test_no_guess_where_the_journal_does_not_end_with_a_move(tmp_path):
    journal = tmp_path / "j"
    assert where_it_ended(journal) is None  # no journal
    with ReviewSession.start(make_set(2), journal) as session:
        session.accept()
        session.accept()  # nothing left: the cursor is past the end, and no move is written
    assert _ops(journal)[-1] == "decide" and where_it_ended(journal) is None

    crashed = tmp_path / "crashed"
    with ReviewSession.start(make_set(), crashed) as session:
        session.accept()
    as_if_crashed(crashed)  # killed before it closed: its last record is the decision
    assert where_it_ended(crashed) is None

    torn = tmp_path / "torn"
    with ReviewSession.start(make_set(), torn) as session:
        session.accept()
    torn.write_bytes(torn.read_bytes()[:-5])  # the last line cut short
    assert where_it_ended(torn) is None

    damaged = tmp_path / "damaged"
    with ReviewSession.start(make_set(), damaged) as session:
        session.accept()
    data = bytearray(damaged.read_bytes())
    data[-10] ^= 0x01
    damaged.write_bytes(bytes(data))
    assert where_it_ended(damaged) is None

    link = tmp_path / "link"
    link.symlink_to(journal)
    assert where_it_ended(link) is None


def test_the_end_of_a_long_journal_is_read_from_its_last_lines(tmp_path):
    journal = tmp_path / "j"
    evalset = make_set(400)
    with ReviewSession.start(evalset, journal) as session:
        for _ in range(300):
            session.note("x" * 300)  # long records: the journal is far longer than what is read of it
            session.skip()
        where = session.queue.current.id
    assert journal.stat().st_size > 1 << 17
    assert where_it_ended(journal) == where


def _set_file(tmp_path, items):
    return write_jsonl(cg.EvalSet(id="found", items=tuple(items)), tmp_path / "found.jsonl")


def test_an_item_is_found_by_its_id_anywhere_in_the_file(tmp_path):
    items = [cg.EvalItem(id=f"i{k}", question=f"Question number {k}?") for k in range(3000)]
    path = _set_file(tmp_path, items)
    for k in (0, 1, 1499, 2999):
        assert find_item(path, f"i{k}") == items[k]
    assert find_item(path, "i3000") is None
    assert find_item(path, "i1") == items[1]  # not i10, i100 ...: the id's closing quote is part of what is searched


def test_an_id_written_inside_another_item_is_not_taken_for_it(tmp_path):
    decoy = cg.EvalItem(id="a", question="Which one?", meta={"copy": {"id": "b"}})
    wanted = cg.EvalItem(id="b", question="This one?")
    path = _set_file(tmp_path, [decoy, wanted])
    assert b'"id":"b"' in path.read_bytes().splitlines()[1]  # the decoy's line holds the text first
    assert find_item(path, "b") == wanted
    assert find_item(_set_file(tmp_path, [decoy]), "b") is None


def test_ids_with_characters_json_escapes_are_found(tmp_path):
    odd = ['quo"te', "back\\slash", "tab\there", "émoji 🙂", "[/]"]
    items = [cg.EvalItem(id=i, question="What?") for i in odd]
    path = _set_file(tmp_path, items)
    for item in items:
        assert find_item(path, item.id) == item


def test_a_file_not_laid_out_by_the_writer_or_not_there_gives_nothing(tmp_path):
    spaced = tmp_path / "spaced.jsonl"
    spaced.write_bytes(b'{"id": "x", "question": "What?"}\n')
    assert find_item(spaced, "x") is None  # found by reading the set, as before
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    assert find_item(empty, "x") is None
    assert find_item(tmp_path / "missing.jsonl", "x") is None
    assert find_item(tmp_path, "x") is None  # a folder
    broken = tmp_path / "broken.jsonl"
    broken.write_bytes(b'{"id":"x","question":""}\n' + orjson.dumps({"id": "y", "question": "Fine?"}) + b"\n")
    assert find_item(broken, "x") is None  # its line is not a valid item: the reading of the set will say so
    assert find_item(broken, "y").question == "Fine?"


def test_an_id_split_between_two_reads_or_on_a_long_line_is_found(tmp_path, monkeypatch):
    from reviewtui.evalset.io import jsonl

    items = [cg.EvalItem(id=f"i{k}", question="Why? " + "long " * (k % 7) * 40) for k in range(200)]
    path = _set_file(tmp_path, items)
    for chunk in (7, 64, 333, 4096):  # reads far shorter than a line: every id and line is cut somewhere
        monkeypatch.setattr(jsonl, "_FIND_CHUNK", chunk)
        for k in (0, 1, 57, 199):
            assert find_item(path, f"i{k}") == items[k], (chunk, k)
        assert find_item(path, "i200") is None


def test_closing_gives_the_lock_and_journal_back_even_if_noting_the_cursor_fails(tmp_path, monkeypatch):
    journal = tmp_path / "j"
    session = ReviewSession.start(make_set(), journal)
    session.accept()

    def broken(self):
        raise KeyboardInterrupt  # anything, not only the journal's own errors

    monkeypatch.setattr(ReviewSession, "_note_the_cursor", broken)
    try:
        session.close()
    except KeyboardInterrupt:
        pass
    assert session.closed
    monkeypatch.undo()
    with ReviewSession.start(make_set(), journal) as again:  # not refused as still open
        assert again.queue.decided == 1

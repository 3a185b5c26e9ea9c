"""A team member's review opens on the first of their items, as a single review does, and reads the rest later.

The promise: the reviewer lands on the same item, with the same decisions, as when the whole
set is read first and then cut down to their share; the loader only ever adds their items.
"""

from __future__ import annotations

import random

import pytest

import reviewtui as cg
from reviewtui.evalset.io import write_jsonl
from reviewtui.evalset.review.session import ReviewSession
from reviewtui.evalset.review.team import TeamPlan
from tests.tui_helpers import FakeClock

N = 3_000  # ten times the opening's reading: a progressive open stops well before the end


def _team(tmp_path, reviewers=("ana", "bo", "chen"), overlap=1.0):
    items = tuple(cg.EvalItem(id=f"q{i}", question=f"Question {i}?", answer=f"a{i}") for i in range(N))
    path = write_jsonl(cg.EvalSet(id="team", items=items), tmp_path / "team.jsonl")
    plan = TeamPlan.create(path, list(reviewers), overlap)
    plan.save()
    return path, plan, items


def _open(path, plan, reviewer, *, progressive):
    return ReviewSession.open(path, reviewer=reviewer, team=plan, progressive=progressive, clock=FakeClock())


def _load_rest(session: ReviewSession) -> None:
    loader = session.loading
    while loader is not None and not loader.done:
        session.add_loaded(loader.read_more(97))
    if loader is not None:
        session.finish_loading(loader.finish())


def _state(session: ReviewSession):
    queue = session.queue
    return queue.current.id, {key: d.verdict for key, d in queue.decisions.items()}, len(queue)


def test_a_team_member_opens_on_part_of_the_file_and_gets_exactly_their_items(tmp_path):
    path, plan, items = _team(tmp_path)
    mine = [item.id for item in plan.items_for("bo", items)]
    session = _open(path, plan, "bo", progressive=True)
    try:
        assert session.loading is not None  # opened before the file was read to the end
        opened = [item.id for item in session.evalset.items]
        assert opened and opened == mine[: len(opened)] and len(opened) < len(mine)
        _load_rest(session)
        assert session.loading is None
        assert [item.id for item in session.evalset.items] == mine  # the share, not the whole set
        assert len(session.queue) == len(mine) and session.partial
        report = session.resume_report
        assert report.complete and report.total == len(mine)
    finally:
        session.close()


@pytest.mark.parametrize("decided", [0, 1, 250, 700])
def test_a_resumed_team_review_lands_where_reading_the_whole_set_would(tmp_path, decided):
    path, plan, _ = _team(tmp_path)
    rng = random.Random(decided)
    with _open(path, plan, "chen", progressive=False) as session:
        for _ in range(decided):
            rng.choice((session.accept, session.skip, lambda: session.reject(reason="ambiguous")))()
        if decided:
            session.undo()  # a record that names an item without deciding it
    with _open(path, plan, "chen", progressive=False) as whole:
        expected = _state(whole)
    with _open(path, plan, "chen", progressive=True) as partial:
        _load_rest(partial)
        assert _state(partial) == expected


def test_a_decision_made_while_the_rest_is_read_lands_in_the_reviewers_own_journal(tmp_path):
    from reviewtui.evalset.io.journal import read_journal

    path, plan, items = _team(tmp_path)
    with _open(path, plan, "ana", progressive=True) as session:
        first = session.queue.current.id
        session.accept()
        _load_rest(session)
    assert "ana" in plan.reviewers_of(first)
    records = [payload for _, payload in read_journal(plan.journal_for("ana")).records]
    assert [r["id"] for r in records if r.get("op") == "decide"] == [first]


def test_a_name_not_in_the_plan_is_refused_before_anything_is_read_or_locked(tmp_path):
    from reviewtui.evalset.model.errors import InputError

    path, plan, _ = _team(tmp_path)
    with pytest.raises(InputError, match="not one of this set's reviewers"):
        _open(path, plan, "zed", progressive=True)
    assert not plan.journal_for("ana").exists() and not list(plan.folder.glob("*.reviewtui-lock"))


def _relabel(path, version):
    """The same set file with another version in its header (a new version, same ids)."""
    lines = path.read_bytes().splitlines(keepends=True)
    lines[0] = lines[0].replace(b'"version":1', b'"version":%d' % version).replace(b'"version": 1', b'"version": %d' % version)
    assert lines[0] != path.read_bytes().splitlines(keepends=True)[0]
    path.write_bytes(b"".join(lines))


@pytest.mark.parametrize("progressive", [True, False])
def test_a_team_journal_of_another_version_is_refused_with_its_path_and_left_untouched(tmp_path, progressive):
    from reviewtui.evalset.model.errors import JournalError

    path, plan, _ = _team(tmp_path)
    with _open(path, plan, "ana", progressive=False) as session:
        session.accept()
    journal = plan.journal_for("ana")
    before = journal.read_bytes()
    _relabel(path, 2)
    with pytest.raises(JournalError) as caught:
        _open(path, plan, "ana", progressive=progressive)
    assert str(caught.value).startswith(f"{journal}:1: this journal was written for version 1")
    assert journal.read_bytes() == before  # nothing appended, not even the opening record
    assert not plan.lock_for("ana").exists()


def test_agreement_export_and_adjudication_refuse_a_journal_of_another_version(tmp_path, capsys):
    from reviewtui.cli import main

    path, plan, _ = _team(tmp_path, reviewers=("ana", "bo"), overlap=2)
    for reviewer in ("ana", "bo"):
        with _open(path, plan, reviewer, progressive=False) as session:
            session.accept()
    _relabel(path, 2)
    for command in (["agreement", str(path)], ["status", str(path)], ["export", str(path), "--consensus", "majority"], ["adjudicate", str(path)]):
        assert main(command) == 2
        err = capsys.readouterr().err
        assert f"{plan.journal_for('ana')}:1: this journal was written for version 1" in err
        assert "Traceback" not in err

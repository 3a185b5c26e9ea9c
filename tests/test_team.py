"""Several reviewers: a plan gives each their items, each has a journal and a lock, agreement is measured."""

from __future__ import annotations

import json
import os

import pytest

import reviewtui as cg
from reviewtui.cli import main
from reviewtui.evalset.io import write_jsonl
from reviewtui.evalset.model.errors import InputError
from reviewtui.evalset.review.session import ReviewSession
from reviewtui.evalset.review.team import ADJUDICATOR, TeamPlan, check_reviewer_name
from tests.tui_helpers import FakeClock, make_items


def _set(n: int = 40) -> cg.EvalSet:
    return cg.EvalSet(id="team", items=make_items(n))


def test_the_split_is_deterministic_balanced_and_stable_when_items_are_added(tmp_path):
    plan = TeamPlan.create(tmp_path / "s.jsonl", ["ana", "bo", "chen"], 2)
    items = make_items(3000)
    assert all(len(plan.reviewers_of(item.id)) == 2 for item in items)
    load = plan.workload(items)
    assert all(abs(n - 2000) < 200 for n in load.values()), load  # 2 x 3000 / 3 each, give or take
    before = {item.id: plan.reviewers_of(item.id) for item in items[:1000]}
    assert {item.id: plan.reviewers_of(item.id) for item in items[:1000]} == before  # the same every time
    again = TeamPlan.create(tmp_path / "s.jsonl", ["ana", "bo", "chen"], 2)
    assert {item.id: again.reviewers_of(item.id) for item in items[:1000]} == before  # and in another plan object


def test_a_share_of_the_items_gets_a_second_reviewer(tmp_path):
    plan = TeamPlan.create(tmp_path / "s.jsonl", ["ana", "bo"], 0.2)
    twice = sum(len(plan.reviewers_of(item.id)) == 2 for item in make_items(2000))
    assert 300 < twice < 500  # about a fifth


def test_assign_says_how_much_of_each_share_the_file_marks_reviewed_as_status_counts_it(tmp_path, capsys):
    """assign counted the items the file marks reviewed, which no reviewer is shown: 23 items, then 0 of 22."""
    items = make_items(12)
    marked = tuple(item.with_meta({"reviewed": True}) if k % 4 == 0 else item for k, item in enumerate(items))
    path = write_jsonl(cg.EvalSet(id="m", items=marked), tmp_path / "m.jsonl")
    assert main(["assign", str(path), "--reviewers", "ana,bo"]) == 0
    said = capsys.readouterr().out
    plan = TeamPlan.load(path)
    assert main(["status", str(path)]) == 0
    status = capsys.readouterr().out
    for reviewer, share in plan.assignment(marked).items():
        left_out = sum(1 for item in share if item.meta.get("reviewed"))
        told = f" ({left_out} of them marked reviewed in the file: left out of the review unless --all)" if left_out else ""
        assert f"  {reviewer}: {len(share)} items{told}\n" in said
        assert f"  {reviewer}: decided 0 of {len(share) - left_out}\n" in status
    assert "marked reviewed in the file" in said


@pytest.mark.parametrize(
    "name",
    # the last three looked like "ana" and "ab", or carried a C1 control into file names and terminals
    ["", "  ", "a/b", "a\\b", "\x1b[2J", ".hidden", "..", "ana\u200b", "an\x9b2Ja", "a\u00adb"],
)
def test_a_name_that_cannot_name_a_journal_is_refused(name):
    with pytest.raises(InputError):
        check_reviewer_name(name)


def test_reviewer_names_that_differ_only_in_case_are_refused(tmp_path, capsys):
    # On a disk that ignores case, ana's and Ana's journals would be one file.
    path = write_jsonl(_set(), tmp_path / "team.jsonl")
    assert main(["assign", str(path), "--reviewers", "ana,bo,Ana"]) == 2
    assert "'ana' and 'Ana' differ only in case" in capsys.readouterr().err
    assert main(["assign", str(path), "--reviewers", "jos\u00e9,jose\u0301"]) == 2  # one name, two Unicode forms
    assert "differ only in case or in how an accented letter is written" in capsys.readouterr().err
    assert TeamPlan.load(path) is None
    with pytest.raises(InputError, match="adjudication"):
        TeamPlan.create(path, ["ana", ADJUDICATOR.upper()], 2)


def test_a_plan_made_before_the_case_check_still_opens(tmp_path):
    # A team assigned on Linux as "ana" and "Ana" by an earlier version: its status and merge must still work.
    path = write_jsonl(_set(), tmp_path / "team.jsonl")
    plan = TeamPlan.create(path, ["ana", "bo"], 2)
    plan.save()
    text = plan.plan_path.read_text(encoding="utf-8").replace('"bo"', '"Ana"')
    plan.plan_path.write_text(text, encoding="utf-8")
    loaded = TeamPlan.load(path)
    assert loaded is not None and loaded.reviewers == ("ana", "Ana")


def test_two_reviewers_at_once_each_with_their_items_their_journal_and_their_lock(tmp_path, capsys):
    path = write_jsonl(_set(), tmp_path / "team.jsonl")
    assert main(["assign", str(path), "--reviewers", "ana,bo", "--overlap", "2"]) == 0
    assert "2 reviewers" in capsys.readouterr().out
    plan = TeamPlan.load(path)
    assert plan is not None
    ana = ReviewSession.open(path, reviewer="ana", team=plan, clock=FakeClock())
    bo = ReviewSession.open(path, reviewer="bo", team=plan, clock=FakeClock())  # at the same time: own lock
    try:
        assert ana.journal_path == tmp_path / "team.jsonl.reviews" / "ana.reviewtui-journal"
        assert len(ana.queue) == len(bo.queue) == 40  # overlap 2 of 2: everyone gets everything
        for k in range(40):  # they agree on the first 30, then disagree
            ana.accept()
            if k < 30:
                bo.accept()
            else:
                bo.reject(reason="ambiguous")
    finally:
        ana.close()
        bo.close()
    assert main(["agreement", str(path), "--to", "json", "--resamples", "100"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["decided"] == {"ana": 40, "bo": 40}
    assert data["verdict"]["compared_items"] == 40
    assert data["verdict"]["percent_agreement"]["value"] == pytest.approx(30 / 40)
    assert main(["agreement", str(path)]) == 0
    text = capsys.readouterr().out
    assert "Cohen's kappa ana / bo" in text and "Gwet's AC1" in text
    assert "bo: 40 judged, 25% rejected, agrees with the others' majority on 75% of 40" in text
    assert main(["status", str(path)]) == 0
    status = capsys.readouterr().out
    assert "ana: decided 40 of 40" in status and "percent agreement on verdicts 75.0%" in status


def test_a_reviewer_not_in_the_plan_is_told_so(tmp_path):
    path = write_jsonl(_set(), tmp_path / "team.jsonl")
    plan = TeamPlan.create(path, ["ana"], 1)
    plan.save()
    with pytest.raises(InputError, match="not one of this set's reviewers"):
        ReviewSession.open(path, reviewer="zed", team=plan)


def test_replacing_a_plan_once_reviewing_started_needs_force(tmp_path, capsys):
    path = write_jsonl(_set(), tmp_path / "team.jsonl")
    assert main(["assign", str(path), "--reviewers", "ana,bo"]) == 0
    with ReviewSession.open(path, reviewer="ana", team=TeamPlan.load(path), clock=FakeClock()) as session:
        session.accept()
    assert main(["assign", str(path), "--reviewers", "ana,bo,chen"]) == 2
    assert "ana started reviewing" in capsys.readouterr().err
    assert main(["assign", str(path), "--reviewers", "ana,bo,chen", "--force"]) == 0


def test_items_marked_reviewed_that_one_reviewer_decided_with_all_say_why_they_wait_for_the_other(tmp_path, capsys):
    """ana reviewed with --all and rejected an item the file marks reviewed; bo's review (without --all) never
    showed it. The export waited for bo for ever, and status said bo was done: nothing said why."""
    items = tuple(
        item.replace(meta={"reviewed": True}) if k < 3 else item for k, item in enumerate(make_items(4))
    )
    path = write_jsonl(cg.EvalSet(id="team", items=items), tmp_path / "team.jsonl")
    assert main(["assign", str(path), "--reviewers", "ana,bo", "--overlap", "2"]) == 0
    plan = TeamPlan.load(path)
    with ReviewSession.open(path, reviewer="ana", team=plan, include_reviewed=True, clock=FakeClock()) as session:
        session.reject(reason="ambiguous")
        while session.queue.current is not None:
            session.accept()
    with ReviewSession.open(path, reviewer="bo", team=plan, clock=FakeClock()) as session:
        assert session.queue.current.id == items[3].id
        session.accept()
    capsys.readouterr()
    assert main(["status", str(path)]) == 0
    out = capsys.readouterr().out
    assert "bo: decided 1 of 1; 3 items marked reviewed in the file, which another reviewer decided, wait for them" in out
    assert "their review shows them with --all" in out and "ana: decided 4 of 4\n" in out
    assert main(["export", str(path), "--consensus", "majority", "-o", str(tmp_path / "out.jsonl")]) == 0
    said = capsys.readouterr().out
    assert (
        f"{items[0].id!r}: waiting for bo (rejected by ana so far); it is marked reviewed in the file, so their review "
        "shows it only with --all" in said
    )


def test_assigning_a_set_with_a_review_begun_alone_says_that_review_stops_counting(tmp_path, capsys):
    """A review of 5 items begun without a plan disappeared from `status` and the consensus once the set was assigned,
    and assign said nothing of it."""
    path = write_jsonl(_set(), tmp_path / "team.jsonl")
    with ReviewSession.open(path, reviewer="root", clock=FakeClock()) as session:
        for _ in range(5):
            session.accept()
    assert main(["assign", str(path), "--reviewers", "ana,bo"]) == 0
    out = capsys.readouterr().out
    assert (
        f"note: {path}.reviewtui-journal holds a review of 5 items made without a team plan; the team's reviews, "
        "`status` and `export --consensus` do not count it" in out
    )
    fresh = write_jsonl(_set(), tmp_path / "fresh.jsonl")
    assert main(["assign", str(fresh), "--reviewers", "ana,bo"]) == 0
    assert "without a team plan" not in capsys.readouterr().out
    odd = write_jsonl(_set(), tmp_path / "odd.jsonl")
    (tmp_path / "odd.jsonl.reviewtui-journal").mkdir()  # a folder of that name holds no review
    assert main(["assign", str(odd), "--reviewers", "ana,bo"]) == 0
    assert "without a team plan" not in capsys.readouterr().out


def test_a_started_reviewer_renamed_by_case_alone_is_refused_even_with_force(tmp_path, capsys):
    """`assign --reviewers Ana,chen --force` over ana's started review was taken: "Ana" got a new journal and ana's
    decisions stopped counting (and a disk that ignores case keeps the two journals as one file)."""
    path = write_jsonl(_set(), tmp_path / "team.jsonl")
    assert main(["assign", str(path), "--reviewers", "ana,bo"]) == 0
    with ReviewSession.open(path, reviewer="ana", team=TeamPlan.load(path), clock=FakeClock()) as session:
        session.accept()
    plan_before = TeamPlan.load(path).plan_path.read_bytes()
    capsys.readouterr()
    assert main(["assign", str(path), "--reviewers", "Ana,chen", "--force"]) == 2
    err = capsys.readouterr().err
    assert "'Ana' differs only in case from 'ana', who has started reviewing: give the name as before ('ana')" in err
    assert TeamPlan.load(path).plan_path.read_bytes() == plan_before  # the plan as it was
    # the same name, or a new one beside it, is fine
    assert main(["assign", str(path), "--reviewers", "ana,chen", "--force"]) == 0
    # a reviewer who never started may be renamed, case included
    assert main(["assign", str(path), "--reviewers", "ana,Chen", "--force"]) == 0


def test_force_replaces_a_plan_no_command_can_read(tmp_path, capsys):
    """A plan.json edited by hand into one no command reads could not be replaced: assign --force stopped on it,
    and it had to be deleted by hand."""
    path = write_jsonl(_set(), tmp_path / "team.jsonl")
    assert main(["assign", str(path), "--reviewers", "ana,bo"]) == 0
    plan_file = TeamPlan.load(path).plan_path
    plan_file.write_text('{"reviewers": ["a/b"], "overlap": 1.0}', encoding="utf-8")
    capsys.readouterr()
    assert main(["assign", str(path), "--reviewers", "ana,bo"]) == 2  # without --force: said, nothing changed
    assert "cannot name a journal file" in capsys.readouterr().err
    assert main(["assign", str(path), "--reviewers", "ana,bo", "--force"]) == 0
    out = capsys.readouterr().out
    assert "note: it replaced a plan no command could read" in out and "cannot name a journal file" in out
    assert TeamPlan.load(path).reviewers == ("ana", "bo")


def test_a_plan_that_cannot_be_written_is_one_line_naming_it_and_leaves_the_set_as_it_was(tmp_path, capsys, monkeypatch):
    """A full disk said "reviewtui: No space left on device", naming no file."""
    import errno

    from reviewtui.evalset.io import files

    path = write_jsonl(_set(), tmp_path / "team.jsonl")
    plan = path.with_name("team.jsonl.reviews") / "plan.json"

    def full(fd, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(files.os, "write", full)
    assert main(["assign", str(path), "--reviewers", "ana,bo"]) == 2
    assert capsys.readouterr().err == f"{plan}: cannot write the team's plan: No space left on device\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["team.jsonl"]  # no team folder left without a plan
    monkeypatch.undo()
    assert main(["assign", str(path), "--reviewers", "ana,bo"]) == 0
    before = plan.read_bytes()
    monkeypatch.setattr(files.os, "write", full)
    assert main(["assign", str(path), "--reviewers", "ana,bo,chen", "--force"]) == 2
    assert capsys.readouterr().err.endswith(f"{plan}: cannot write the team's plan: No space left on device\n")
    assert plan.read_bytes() == before
    assert sorted(p.name for p in plan.parent.iterdir()) == ["plan.json"]


async def test_two_reviewers_through_the_app_see_only_their_own_decisions(tmp_path):
    from reviewtui.tui.app import ReviewApp
    from tests.tui_helpers import fixed_scan, settle

    path = write_jsonl(_set(6), tmp_path / "team.jsonl")
    plan = TeamPlan.create(path, ["ana", "bo"], 2)
    plan.save()
    for reviewer, key in (("ana", "a"), ("bo", "s")):
        session = ReviewSession.open(path, reviewer=reviewer, team=plan, clock=FakeClock())
        app = ReviewApp(session, scan=fixed_scan())
        try:
            async with app.run_test(size=(100, 30)) as pilot:
                await settle(pilot, app)
                assert session.queue.decided == 0  # blind: the other reviewer's decisions are not here
                await pilot.press(key, key)
                await pilot.pause()
        finally:
            session.close()
    from reviewtui.evalset.io.journal import read_journal

    for reviewer, verdict in (("ana", "accepted"), ("bo", "skipped")):
        records = [payload for _, payload in read_journal(plan.journal_for(reviewer)).records]
        assert [r["v"] for r in records if r.get("op") == "decide"] == [verdict, verdict]
        assert {r["by"] for r in records if r.get("op") == "decide"} == {reviewer}


def _three_reviewers(tmp_path):
    """ana, bo and chen each review all 4 items: q1 all accept; q2 two accept, one rejects; q3 split 1-1-1; q4 untouched."""
    path = write_jsonl(_set(4), tmp_path / "team.jsonl")
    plan = TeamPlan.create(path, ["ana", "bo", "chen"], 3)
    plan.save()
    steps = {
        "ana": [("accept",), ("accept",), ("accept",)],
        "bo": [("accept",), ("accept",), ("reject", "ambiguous")],
        "chen": [("accept",), ("reject", "duplicate"), ("edit",)],
    }
    for reviewer, actions in steps.items():
        with ReviewSession.open(path, reviewer=reviewer, team=plan, clock=FakeClock()) as session:
            for action in actions:
                if action[0] == "accept":
                    session.accept(note=f"{reviewer} ok")
                elif action[0] == "reject":
                    session.reject(reason=action[1])
                else:
                    session.edit(answer=f"answer edited by {reviewer}")
    return path


@pytest.mark.parametrize(
    ("rule", "kept", "unsettled"),
    [("unanimous", ["q1", "q4"], ["q2", "q3"]), ("majority", ["q1", "q2", "q4"], ["q3"])],
)
def test_the_merged_export_follows_its_rule_and_lists_what_has_no_consensus(tmp_path, capsys, rule, kept, unsettled):
    from reviewtui.evalset.io import read_jsonl

    path = _three_reviewers(tmp_path)
    out = tmp_path / f"{rule}.jsonl"
    assert main(["export", str(path), "--consensus", rule, "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    merged = read_jsonl(out)
    assert [item.id for item in merged] == kept
    assert sorted(dict(merged.meta["review"])["no_consensus"]) == unsettled
    assert all(f"'{item_id}'" in printed for item_id in unsettled)
    q1 = dict(merged.get("q1").meta["review"])
    assert sorted(q1["decisions"]) == ["ana", "bo", "chen"] and q1["verdict"] == "accepted"
    assert q1["decisions"]["bo"]["note"] == "bo ok" and rule in q1["rule"]
    assert "review" not in merged.get("q4").meta  # nobody decided it: as it was


def test_a_merged_export_needs_a_team(tmp_path, capsys):
    path = write_jsonl(_set(4), tmp_path / "solo.jsonl")
    assert main(["export", str(path), "--consensus", "majority"]) == 2
    assert "no team plan" in capsys.readouterr().err


async def test_an_adjudicator_sees_each_reviewers_decision_and_takes_one_with_a_digit(tmp_path, capsys):
    from reviewtui.evalset.io import read_jsonl
    from reviewtui.evalset.review.teamwork import ADJUDICATOR, disagreements, team_decisions
    from reviewtui.tui.app import ReviewApp
    from tests.tui_helpers import fixed_scan, screen_text, settle

    path = _three_reviewers(tmp_path)
    plan = TeamPlan.load(path)
    evalset = read_jsonl(path)
    decisions = team_decisions(plan, evalset, path)
    disputed = disagreements(decisions)
    assert sorted(disputed) == ["q2", "q3"]
    session = ReviewSession.open(
        path, reviewer="dee", team=plan, journal_path=plan.journal_for(ADJUDICATOR), only_ids=disputed, clock=FakeClock()
    )
    votes = {item_id: dict(sorted(decisions[item_id].items())) for item_id in disputed}
    app = ReviewApp(session, scan=fixed_scan(), votes=votes)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            assert session.queue.current.id == "q2"
            text = screen_text(app)
            assert "the reviewers decided" in text and "chen" in text and "duplicate" in text
            await pilot.press("3")  # q2: take chen's reject (duplicate)
            await pilot.pause()
            assert session.queue.current.id == "q3"
            await pilot.press("3")  # q3: take chen's edit
            await pilot.pause()
    finally:
        session.close()

    assert main(["export", str(path), "--consensus", "adjudicated", "-o", str(tmp_path / "final.jsonl")]) == 0
    final = read_jsonl(tmp_path / "final.jsonl")
    assert [item.id for item in final] == ["q1", "q3", "q4"]  # q2 rejected by the adjudicator, q3 kept as chen edited it
    assert final.get("q3").answer == "answer edited by chen"
    assert dict(final.get("q3").meta["review"])["rule"] == "adjudicated"
    assert dict(final.meta["review"])["no_consensus"] == {}



def test_adjudicate_says_when_there_is_nothing_to_settle_and_needs_a_team(tmp_path, capsys):
    path = write_jsonl(_set(4), tmp_path / "team.jsonl")
    assert main(["adjudicate", str(path)]) == 2
    assert "no team plan" in capsys.readouterr().err
    plan = TeamPlan.create(path, ["ana", "bo"], 2)
    plan.save()
    # Nobody has begun: "the reviewers agree" was said of reviewers who had decided nothing.
    assert main(["adjudicate", str(path)]) == 0
    assert capsys.readouterr().out == "no reviewer has decided an item yet: nothing to adjudicate\n"
    with ReviewSession.open(path, reviewer="ana", team=plan, clock=FakeClock()) as session:
        session.reject(reason="ambiguous")  # q1
        session.accept()  # q2
    assert main(["adjudicate", str(path)]) == 0
    said = capsys.readouterr().out
    assert said == "no item has been decided by two reviewers yet (2 items by one so far): nothing to adjudicate\n"
    with ReviewSession.open(path, reviewer="bo", team=plan, clock=FakeClock()) as session:
        session.skip()  # q1: ana's word stands
        session.accept()  # q2, as ana
    assert main(["adjudicate", str(path)]) == 0
    said = capsys.readouterr().out
    assert "the reviewers agree on every item two or more of them decided (2), and none is left skipped by all" in said
    alone = write_jsonl(_set(4), tmp_path / "alone.jsonl")
    TeamPlan.create(alone, ["ana", "bo"], 1).save()  # each item to one reviewer: never anything to compare
    assert main(["adjudicate", str(alone)]) == 0
    assert "the plan gives each item to one reviewer" in capsys.readouterr().out


@pytest.mark.parametrize("ending", ["full disk", "crash"])
def test_an_adjudication_that_lost_steps_or_crashed_does_not_exit_0(tmp_path, capsys, monkeypatch, ending):
    """adjudicate ended with exit code 0 whatever happened in the app: steps the journal could not take,
    or the app stopping on an internal error, as `reviewtui review` reports them."""
    import errno

    from reviewtui.evalset.io import journal as journal_mod
    from reviewtui.tui import app as app_module

    path = _three_reviewers(tmp_path)
    monkeypatch.setattr(app_module, "user_log_path", lambda name: tmp_path / "logs" / name)
    real_write = os.write

    class Ending(app_module.ReviewApp):
        def run(self, **kwargs):
            kwargs["headless"] = True
            return super().run(**kwargs)

        def on_ready(self) -> None:
            if ending == "crash":
                raise RuntimeError("boom")

            def full(fd, data):
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

            journal_mod.os.write = full  # type: ignore[attr-defined]
            try:
                self.review_screen.run_step(self.session.accept)
            finally:
                journal_mod.os.write = real_write  # type: ignore[attr-defined]
            self.exit()

    monkeypatch.setattr(app_module, "ReviewApp", Ending)
    capsys.readouterr()
    code = main(["adjudicate", str(path)])
    err = capsys.readouterr().err
    if ending == "crash":
        assert code == 1 and "the review app stopped on an internal error (RuntimeError: boom)" in err
    else:
        assert code == 2 and "1 step of this review was not made, as the journal could not take it" in err


def test_an_adjudication_whose_app_cannot_be_made_gives_its_journal_and_lock_back(tmp_path, monkeypatch):
    """The app was made outside the try that closes the adjudicator's session: an error making it left the
    journal open and the lock taken, and the next adjudication in this process was refused as locked."""
    from reviewtui.tui import app as app_module

    path = _three_reviewers(tmp_path)
    real_app = app_module.ReviewApp

    class Unmade(real_app):
        def __init__(self, *args, **kwargs):
            raise RuntimeError("cannot make the app")

    monkeypatch.setattr(app_module, "ReviewApp", Unmade)
    with pytest.raises(RuntimeError, match="cannot make the app"):
        main(["adjudicate", str(path)])

    class Quits(real_app):
        def run(self, **kwargs):
            kwargs["headless"] = True
            return super().run(**kwargs)

        def on_ready(self) -> None:
            self.exit()

    monkeypatch.setattr(app_module, "ReviewApp", Quits)
    assert main(["adjudicate", str(path)]) == 0  # not refused: the first one's lock was given back


def test_one_reviewers_journal_written_in_two_places_and_merged_is_refused_not_replayed(tmp_path):
    """Two clones of the repository, ana working in both: merging her two journals line by line is caught."""
    import shutil

    from reviewtui.evalset.review.session import load_review

    first = tmp_path / "a"
    first.mkdir()
    path = write_jsonl(_set(6), first / "team.jsonl")
    plan = TeamPlan.create(path, ["ana"], 1)
    plan.save()
    with ReviewSession.open(path, reviewer="ana", team=plan, clock=FakeClock()) as session:
        session.accept()
    second = tmp_path / "b"
    shutil.copytree(first, second)
    for folder, verdict in ((first, "accept"), (second, "skip")):
        clone = folder / "team.jsonl"
        with ReviewSession.open(clone, reviewer="ana", team=TeamPlan.load(clone), clock=FakeClock()) as session:
            getattr(session, verdict)()
    mine = plan.journal_for("ana").read_bytes().splitlines(keepends=True)
    theirs = (second / "team.jsonl.reviews" / "ana.reviewtui-journal").read_bytes().splitlines(keepends=True)
    shared = len([1 for a, b in zip(mine, theirs) if a == b])
    plan.journal_for("ana").write_bytes(b"".join(mine + theirs[shared:]))  # what a line-by-line union merge leaves
    with pytest.raises(cg.EvalSetError, match="out of sequence"):
        load_review(path, journal_path=plan.journal_for("ana"))


async def test_two_reviewers_and_an_adjudicator_all_by_keys_in_the_app(tmp_path, capsys):
    """The whole team loop as people do it: each reviewer's keys in the app, the adjudicator's too, then the export."""
    from reviewtui.evalset.io import read_jsonl
    from reviewtui.evalset.io.journal import read_journal
    from reviewtui.evalset.review.teamwork import ADJUDICATOR, open_adjudication
    from reviewtui.tui.app import ReviewApp
    from tests.tui_helpers import fixed_scan, screen_text, settle

    path = write_jsonl(_set(5), tmp_path / "team.jsonl")
    assert main(["assign", str(path), "--reviewers", "ana,bo", "--overlap", "2"]) == 0
    plan = TeamPlan.load(path)
    keys = {
        "ana": ["a", "a", "a", "a", "a"],
        "bo": ["a", "r", "3", "enter", "a", "s", "a"],  # q2 rejected (third reason), q4 skipped
    }
    for reviewer, pressed in keys.items():
        session = ReviewSession.open(path, reviewer=reviewer, team=plan, progressive=True, clock=FakeClock())
        app = ReviewApp(session, scan=fixed_scan())
        try:
            async with app.run_test(size=(120, 40)) as pilot:
                await settle(pilot, app)
                assert f"{reviewer}'s share" in screen_text(app)  # who is reviewing, and that it is a share
                for key in pressed:
                    await pilot.press(key)
                    await pilot.pause()
        finally:
            session.close()
    decided = {
        reviewer: [(r["id"], r["v"]) for _, r in read_journal(plan.journal_for(reviewer)).records if r.get("op") == "decide"]
        for reviewer in keys
    }
    assert decided["ana"] == [(f"q{k}", "accepted") for k in range(1, 6)]
    assert decided["bo"] == [("q1", "accepted"), ("q2", "rejected"), ("q3", "accepted"), ("q4", "skipped"), ("q5", "accepted")]

    adjudication = open_adjudication(plan, read_jsonl(path), path, reviewer="dee", clock=FakeClock())
    assert adjudication is not None and list(adjudication.votes) == ["q2"]
    app = ReviewApp(adjudication.session, scan=fixed_scan(), votes=adjudication.votes)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            text = screen_text(app)
            assert "ana" in text and "bo" in text and "the reviewers decided" in text
            assert "dee adjudicating" in text
            # each reviewer's verdict by its digit on the status line, which a small terminal still shows
            status = str(app.screen.query_one("#status-line").render())
            assert "1 ana ✓" in status and "2 bo ✗" in status, status
            await pilot.press("1")  # take ana's accept
            await pilot.pause()
            # the only disagreement settled: the summary points to the export that takes the adjudication
            assert type(app.screen).__name__ == "SummaryScreen"
            assert "--consensus adjudicated." in str(app.screen.query_one("#summary-body").render())
    finally:
        adjudication.session.close()
    adjudicated = [r for _, r in read_journal(plan.journal_for(ADJUDICATOR)).records if r.get("op") == "decide"]
    assert [(r["id"], r["v"], r["by"]) for r in adjudicated] == [("q2", "accepted", "dee")]

    out = tmp_path / "final.jsonl"
    assert main(["export", str(path), "--consensus", "adjudicated", "-o", str(out)]) == 0
    final = read_jsonl(out)
    assert [item.id for item in final] == [f"q{k}" for k in range(1, 6)]
    q2 = dict(final.get("q2").meta["review"])
    assert q2["rule"] == "adjudicated" and sorted(q2["decisions"]) == sorted(["ana", "bo", ADJUDICATOR])
    assert dict(final.meta["review"])["no_consensus"] == {}


def _two_reviewers(tmp_path, steps):
    """ana and bo each given all 4 items; ``steps``: reviewer -> the calls they make, in order."""
    path = write_jsonl(_set(4), tmp_path / "team.jsonl")
    plan = TeamPlan.create(path, ["ana", "bo"], 2)
    plan.save()
    for reviewer, calls in steps.items():
        with ReviewSession.open(path, reviewer=reviewer, team=plan, clock=FakeClock()) as session:
            for call in calls:
                call(session)
    return path


def test_two_different_edits_are_a_disagreement_and_neither_is_lost(tmp_path, capsys):
    from reviewtui.evalset.io import read_jsonl
    from reviewtui.evalset.review.teamwork import disagreements, team_decisions

    path = _two_reviewers(
        tmp_path,
        {
            "ana": [lambda s: s.edit(answer="1999"), lambda s: s.edit(answer="same")],
            "bo": [lambda s: s.edit(answer="2001"), lambda s: s.edit(answer="same")],
        },
    )
    evalset = read_jsonl(path)
    assert disagreements(team_decisions(TeamPlan.load(path), evalset, path)) == ["q1"]  # q2: the same edit twice
    out = tmp_path / "merged.jsonl"
    assert main(["export", str(path), "--consensus", "unanimous", "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    merged = read_jsonl(out)
    why = dict(merged.meta["review"])["no_consensus"]["q1"]
    assert why == "reviewers disagree: edited (answer '1999') by ana; edited (answer '2001') by bo"
    assert "'q1': reviewers disagree" in printed
    q2 = dict(merged.get("q2").meta["review"])
    assert merged.get("q2").answer == "same" and q2["rule"] == "unanimous: edited by ana, bo"
    assert q2["decisions"]["bo"]["edited"] == {"answer": "same"}  # each reviewer's edit is in the record


def test_an_edit_set_against_an_accept_is_named_by_what_it_wrote(tmp_path, capsys):
    """"reviewers disagree: edited by ana; accepted by bo" said nothing of what ana changed, which two edits said."""
    from reviewtui.evalset.io import read_jsonl

    path = _two_reviewers(tmp_path, {"ana": [lambda s: s.edit(answer="1999")], "bo": [lambda s: s.accept()]})
    out = tmp_path / "merged.jsonl"
    assert main(["export", str(path), "--consensus", "unanimous", "-o", str(out)]) == 0
    why = dict(read_jsonl(out).meta["review"])["no_consensus"]["q1"]
    assert why == "reviewers disagree: edited (answer '1999') by ana; accepted by bo"


def test_two_long_edits_that_part_at_their_end_are_told_apart_where_they_differ(tmp_path):
    """Both edits printed as the same cut-short start ("edited (answer 'The manager issues a written warning...)")."""
    from reviewtui.evalset.io import read_jsonl
    from reviewtui.evalset.review.teamwork import consensus, team_decisions

    path = _two_reviewers(
        tmp_path,
        {
            "ana": [lambda s: s.edit(answer="The manager issues a written warning to the member. Always.")],
            "bo": [lambda s: s.edit(answer="The manager issues a written warning to the member. Never.")],
        },
    )
    decisions = team_decisions(TeamPlan.load(path), read_jsonl(path), path)
    _, why = consensus(decisions["q1"], "majority")
    assert why == "no majority: edited (answer '…the member. Always.') by ana; edited (answer '…the member. Never.') by bo"


def test_an_item_waits_until_every_assigned_reviewer_has_judged_it(tmp_path, capsys):
    from reviewtui.evalset.io import read_jsonl

    def bo(session):
        session.goto("q3")
        session.accept()
        session.accept()  # q4

    path = _two_reviewers(
        tmp_path,
        {
            "ana": [lambda s: s.accept(), lambda s: s.reject(reason="ambiguous"), lambda s: s.skip(), lambda s: s.accept()],
            "bo": [bo],
        },
    )
    for rule in ("unanimous", "majority"):
        out = tmp_path / f"{rule}.jsonl"
        assert main(["export", str(path), "--consensus", rule, "-o", str(out)]) == 0
        printed = capsys.readouterr().out
        merged = read_jsonl(out)
        # q1, q2: bo has not come to them yet: they are written as they were, and listed
        assert [item.id for item in merged] == ["q1", "q2", "q3", "q4"]
        assert all("review" not in merged.get(k).meta for k in ("q1", "q2"))
        pending = dict(merged.meta["review"])["pending"]
        assert pending == {"q1": "waiting for bo (accepted by ana so far)", "q2": "waiting for bo (rejected by ana so far)"}
        assert "2 items are still waiting for an assigned reviewer" in printed
        # q3: ana saw it and skipped it, leaving it to bo; the reason says so
        assert dict(merged.get("q3").meta["review"])["rule"] == f"{rule}: accepted by bo (ana skipped)"
        assert dict(merged.get("q4").meta["review"])["rule"] == f"{rule}: accepted by ana, bo"


@pytest.mark.parametrize(
    ("plan", "said"),
    [
        ({"reviewers": [1, 2], "overlap": 1}, "a reviewer's name is text, not 1"),
        ({"reviewers": ["ana", None], "overlap": 1}, "a reviewer's name is text, not None"),
        ({"reviewers": "ana,bo", "overlap": 1}, '"reviewers": ["ana", "bo"]'),
        ({"reviewers": ["ana", "bo"], "overlap": "nan"}, "not 'nan'"),
        ('{"reviewers": ["ana", "bo"], "overlap": 1e400}', "not a team plan reviewtui can read"),
        ({"reviewers": ["ana", "bo"], "overlap": True}, "not True"),
        ({"reviewers": ["ana", "bo"], "overlap": 2.5}, "not 2.5"),
        (["ana", "bo"], '"reviewers": ["ana", "bo"]'),
        ({"reviewers": ["ana", "bo", "chen"], "overlap": 5}, "an overlap of 5 needs at least 5 reviewers; 3 named"),
        ({"reviewers": ["ana", "bo", " ana"], "overlap": 2}, "the reviewer 'ana' is named twice"),
        ('{"reviewers": ["ana", "bo"], "overlap": 2, "overlap": 1}', 'plan.json:1: the key "overlap" is given twice'),
    ],
)
def test_a_hand_edited_plan_that_cannot_work_is_refused_in_one_line(tmp_path, capsys, plan, said):
    path = write_jsonl(_set(4), tmp_path / "team.jsonl")
    folder = tmp_path / "team.jsonl.reviews"
    folder.mkdir()
    (folder / "plan.json").write_text(plan if isinstance(plan, str) else json.dumps(plan))
    assert main(["status", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "plan.json:" in err and said in err and "Traceback" not in err


def test_a_name_too_long_for_a_file_name_is_refused_by_assign(tmp_path, capsys):
    path = write_jsonl(_set(4), tmp_path / "team.jsonl")
    assert main(["assign", str(path), "--reviewers", "é" * 120 + ",bo"]) == 2  # 240 bytes
    assert "too long to name a file: at most 200 bytes" in capsys.readouterr().err
    assert not (tmp_path / "team.jsonl.reviews").exists()


@pytest.mark.parametrize("value", ["-5", "x", "1000001", "1", "2", "99"])
def test_agreement_refuses_a_bad_number_of_resamples(tmp_path, capsys, value):
    path = write_jsonl(_set(4), tmp_path / "team.jsonl")
    assert main(["assign", str(path), "--reviewers", "ana,bo", "--overlap", "2"]) == 0
    with pytest.raises(SystemExit) as stopped:
        main(["agreement", str(path), "--resamples", value])
    err = capsys.readouterr().err
    assert stopped.value.code == 2 and "--resamples" in err
    if value in ("1", "2", "99"):
        assert "fewer resamples cannot place a 95% interval's ends" in err
    elif value == "-5":
        assert "cannot be negative" in err
    elif value == "1000001":
        assert "more only take longer" in err


def test_a_new_plan_that_moves_a_decided_item_keeps_the_decision_and_the_team_going(tmp_path, capsys):
    from reviewtui.evalset.io import read_jsonl

    path = write_jsonl(_set(12), tmp_path / "team.jsonl")
    assert main(["assign", str(path), "--reviewers", "ana,bo"]) == 0
    first = TeamPlan.load(path)
    later = TeamPlan.create(path, ["ana", "bo", "chen", "dee"], 1)
    # one of bo's items that the new plan gives to someone else
    moved = next(i.id for i in read_jsonl(path) if first.reviewers_of(i.id) == ("bo",) and "bo" not in later.reviewers_of(i.id))
    with ReviewSession.open(path, reviewer="bo", team=first, clock=FakeClock()) as session:
        session.goto(moved)
        session.reject(reason="ambiguous", note="which saw?")
    assert main(["assign", str(path), "--reviewers", "ana,bo,chen,dee", "--force"]) == 0
    second = TeamPlan.load(path)
    capsys.readouterr()
    assert main(["status", str(path)]) == 0
    out = capsys.readouterr().out
    assert "bo: decided 1 of" in out and "belongs to another set" not in out
    assert main(["agreement", str(path)]) == 0
    out = tmp_path / "merged.jsonl"
    assert main(["export", str(path), "--consensus", "majority", "-o", str(out)]) == 0
    # bo's reject counts, and the item waits for the reviewer the new plan gave it to
    assert dict(read_jsonl(out).meta["review"])["pending"][moved].endswith("(rejected by bo so far)")
    with ReviewSession.open(path, reviewer="bo", team=second, clock=FakeClock()) as session:
        decision = session.queue.decision_for(moved)
        assert decision is not None and decision.note == "which saw?"


def test_team_commands_say_what_a_journal_held_that_no_longer_applies(tmp_path, capsys):
    path = write_jsonl(_set(6), tmp_path / "team.jsonl")
    assert main(["assign", str(path), "--reviewers", "ana,bo", "--overlap", "2"]) == 0
    plan = TeamPlan.load(path)
    with ReviewSession.open(path, reviewer="ana", team=plan, clock=FakeClock()) as session:
        session.reject(reason="ambiguous")  # q1
    changed = _set(6)
    items = list(changed.items)
    items[0] = items[0].model_copy(update={"answer": "another answer"})
    write_jsonl(changed.replace(items=tuple(items)), path)  # the same version, q1 changed in the file
    capsys.readouterr()
    assert main(["status", str(path)]) == 0
    said = "ana: 1 earlier decision not restored because its item changed or is gone: q1"
    assert said in capsys.readouterr().out
    assert main(["export", str(path), "--consensus", "unanimous", "-o", str(tmp_path / "m.jsonl")]) == 0
    assert said in capsys.readouterr().out
    assert main(["agreement", str(path)]) == 0
    assert said in capsys.readouterr().err


def test_a_journal_whose_every_decided_item_left_the_set_is_reported_not_refused(tmp_path, capsys):
    """Every item one reviewer had decided removed between rounds: the journal was refused as another set's, and
    with it status, agreement, adjudicate and the merged export, though the plan ties it to this set."""
    path = write_jsonl(_set(6), tmp_path / "team.jsonl")
    assert main(["assign", str(path), "--reviewers", "ana,bo", "--overlap", "2"]) == 0
    plan = TeamPlan.load(path)
    with ReviewSession.open(path, reviewer="ana", team=plan, clock=FakeClock()) as session:
        session.reject(reason="ambiguous")  # q1, ana's only decision
    with ReviewSession.open(path, reviewer="bo", team=plan, clock=FakeClock()) as session:
        session.accept()  # q1
        session.accept()  # q2
    with ReviewSession.open(
        path, reviewer="dee", team=plan, journal_path=plan.journal_for(ADJUDICATOR), only_ids=["q1"], clock=FakeClock()
    ) as session:
        session.accept()  # the adjudication's only decision, on q1 too
    write_jsonl(_set(6).replace(items=_set(6).items[1:]), path)  # q1 removed, the version kept
    capsys.readouterr()
    said = "ana: 1 earlier decision not restored because its item changed or is gone: q1"
    assert main(["status", str(path)]) == 0
    assert said in capsys.readouterr().out
    assert main(["agreement", str(path)]) == 0
    assert said in capsys.readouterr().err
    assert main(["export", str(path), "--consensus", "adjudicated", "-o", str(tmp_path / "m.jsonl")]) == 0
    assert said in capsys.readouterr().out
    header = cg.read_jsonl(tmp_path / "m.jsonl").meta["review"]
    assert header["decisions_not_restored"]["ana"] == {"q1": "vanished"}
    with ReviewSession.open(path, reviewer="ana", team=plan, clock=FakeClock()) as session:  # ana goes on
        assert session.queue.current.id == "q2"
        assert session.resume_report.stale


def test_the_adjudicators_journal_is_not_opened_as_a_reviewers(tmp_path):
    """``--reviewer adjudicator`` read the adjudication's journal as a reviewer's, signed by whoever adjudicated,
    and called it another reviewer's copied over: advice that, followed, threw the adjudication away."""
    path = _three_reviewers(tmp_path)
    plan = TeamPlan.load(path)
    with ReviewSession.open(
        path, reviewer="dee", team=plan, journal_path=plan.journal_for(ADJUDICATOR), only_ids=["q2"], clock=FakeClock()
    ) as session:
        session.accept()
    for name in ("adjudicator", "Adjudicator"):
        with pytest.raises(InputError, match="names the adjudication's journal.*run reviewtui adjudicate"):
            ReviewSession.open(path, reviewer=name, team=plan)
    assert plan.journal_for(ADJUDICATOR).exists()


def test_team_messages_say_what_is_the_case(tmp_path, capsys):
    path = write_jsonl(_set(3), tmp_path / "team.jsonl")
    for command in (["agreement"], ["adjudicate"], ["export", "--consensus", "majority", "-o", str(tmp_path / "o.jsonl")]):
        assert main([command[0], str(tmp_path / "nope.jsonl"), *command[1:]]) == 2
        assert capsys.readouterr().err.strip().endswith("nope.jsonl: no such file")
    assert main(["assign", str(path), "--reviewers", "ana,ana", "--overlap", "2"]) == 2
    assert "the reviewer 'ana' is named twice" in capsys.readouterr().err
    assert main(["assign", str(path), "--reviewers", "ana, bo,ana "]) == 2  # merged quietly before, into 2 reviewers
    assert "the reviewer 'ana' is named twice" in capsys.readouterr().err
    for given in (",bo", "ana,,bo", "ana,bo,"):  # an empty name was dropped without a word
        with pytest.raises(SystemExit) as stopped:  # a usage error, said as the arguments are parsed
            main(["assign", str(path), "--reviewers", given])
        assert stopped.value.code == 2
        assert "argument --reviewers: " in (err := capsys.readouterr().err) and "holds an empty name" in err
    assert TeamPlan.load(path) is None
    assert main(["assign", str(path), "--reviewers", "ana,bo,chen,dee,eve,fay"]) == 0
    out = capsys.readouterr().out
    assert ": 1 item\n" in out and ": 1 items" not in out and "get no item: more reviewers than the items need" in out
    assert main(["export", str(path), "-o", str(tmp_path / "x.jsonl")]) == 0
    assert "--consensus unanimous, majority or adjudicated merges their journals" in capsys.readouterr().out


def test_the_merged_header_records_where_it_came_from_as_a_single_export_does(tmp_path, capsys):
    from reviewtui.evalset.io import read_jsonl

    path = _two_reviewers(tmp_path, {"ana": [lambda s: s.accept(), lambda s: s.reject(reason="ambiguous")], "bo": [lambda s: s.accept(), lambda s: s.reject(reason="ambiguous")]})
    out = tmp_path / "merged.jsonl"
    assert main(["export", str(path), "--consensus", "adjudicated", "-o", str(out)]) == 0
    merged = read_jsonl(out)
    header = dict(merged.meta["review"])
    assert header["tool"].startswith("reviewtui") and header["from_file"] == "team.jsonl" and len(header["from_sha256"]) == 64
    assert sorted(header["journals"]) == ["ana", "bo"] and header["journals"]["ana"]["file"] == "ana.reviewtui-journal"
    assert header["counts"] == {"items": 4, "kept": 3, "accepted": 1, "edited": 0, "rejected": 1, "pending": 0, "no_consensus": 0, "untouched": 2}
    # nobody adjudicated q1: the unanimous rule applied, and its record says so
    assert dict(merged.get("q1").meta["review"])["rule"] == "unanimous, not adjudicated: accepted by ana, bo"
    # an export of an export keeps the earlier lineage
    again = write_jsonl(merged, tmp_path / "again.jsonl")
    assert main(["assign", str(again), "--reviewers", "ana,bo", "--overlap", "2"]) == 0
    assert main(["export", str(again), "--consensus", "majority", "-o", str(tmp_path / "twice.jsonl")]) == 0
    assert dict(dict(read_jsonl(tmp_path / "twice.jsonl").meta["review"])["previous"])["consensus"] == "adjudicated"


async def test_a_team_members_summary_offers_no_export_of_the_share(tmp_path):
    from reviewtui.tui.app import ReviewApp
    from reviewtui.tui.screens.summary import TEAM_EXPORT, SummaryScreen
    from tests.tui_helpers import fixed_scan, screen_text, settle

    path = write_jsonl(_set(2), tmp_path / "team.jsonl")
    plan = TeamPlan.create(path, ["ana", "bo"], 2)
    plan.save()
    session = ReviewSession.open(path, reviewer="ana", team=plan, clock=FakeClock())
    app = ReviewApp(session, scan=fixed_scan())
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            await pilot.press("a", "a")
            await settle(pilot, app)
            assert isinstance(app.screen, SummaryScreen)
            text = screen_text(app)
            assert "e: export" not in text and "--consensus majority" in text
            await pilot.press("e")
            await pilot.pause()
            assert isinstance(app.screen, SummaryScreen)  # still there: nothing failed, the way is said instead
            assert not any("export failed" in str(n.title) for n in app._notifications)
            assert any(n.message == TEAM_EXPORT for n in app._notifications)
            said_before = sum(1 for n in app._notifications if n.title == "export")
            await pilot.press("escape", "ctrl+e")  # from the review screen: the same way said, not a failure
            await pilot.pause()
            assert not any("export failed" in str(n.title) for n in app._notifications)
            said = [str(n.message) for n in app._notifications if n.title == "export"]
            assert len(said) == said_before + 1 and "reviewtui export FILE --consensus" in said[-1]
    finally:
        session.close()


def test_a_name_that_only_looks_like_a_reviewers_says_so(tmp_path):
    path = write_jsonl(_set(2), tmp_path / "team.jsonl")
    plan = TeamPlan.create(path, ["Jos\u00e9", "bo"], 1)
    with pytest.raises(InputError) as refused:
        plan.share_of("Jose\u0301")  # the same name, its accent a combining mark
    # the two are drawn alike, so the message shows them escaped as well ("'Zoë' ..., but 'Zoë' is" said nothing)
    said = str(refused.value)
    assert "as typed ('Jose\\u0301'), but the plan's 'José' ('Jos\\xe9') is the same name" in said, said
    with pytest.raises(InputError, match="but 'José' is: the names differ in case;"):
        plan.share_of("JOSÉ")
    with pytest.raises(InputError, match="is not one of this set's reviewers \\(José, bo\\)"):
        plan.share_of("chen")


def test_status_says_how_far_the_adjudication_has_got(tmp_path, capsys):
    path = _three_reviewers(tmp_path)
    plan = TeamPlan.load(path)
    capsys.readouterr()
    assert main(["status", str(path)]) == 0
    assert "disagreements: 2; adjudicated so far: 0" in capsys.readouterr().out
    with ReviewSession.open(
        path, reviewer="dee", team=plan, journal_path=plan.journal_for(ADJUDICATOR), only_ids=["q2", "q3"], clock=FakeClock()
    ) as session:
        session.accept()  # q2
    assert main(["status", str(path)]) == 0
    assert "disagreements: 2; adjudicated so far: 1" in capsys.readouterr().out


def test_a_reviewer_left_out_of_a_new_plan_is_not_dropped_in_silence(tmp_path, capsys):
    path = write_jsonl(_set(4), tmp_path / "team.jsonl")
    assert main(["assign", str(path), "--reviewers", "ana,bo", "--overlap", "2"]) == 0
    with ReviewSession.open(path, reviewer="ana", team=TeamPlan.load(path), clock=FakeClock()) as session:
        session.reject(reason="ambiguous")
    capsys.readouterr()
    assert main(["assign", str(path), "--reviewers", "bo,chen", "--overlap", "2", "--force"]) == 0
    assert "the new plan leaves out ana, whose journal stays" in capsys.readouterr().out
    assert main(["status", str(path)]) == 0
    assert "'ana.reviewtui-journal' is in the team's folder, but the plan has no reviewer of that name" in capsys.readouterr().out


def test_a_team_exports_the_items_its_consensus_rejects_with_every_reviewers_reasons(tmp_path, capsys):
    """`export --rejected --consensus RULE` was refused: a team could not hand its rejections back to
    whatever wrote the set, as a single reviewer can."""
    from reviewtui.evalset.io import read_jsonl

    path = write_jsonl(_set(4), tmp_path / "team.jsonl")
    plan = TeamPlan.create(path, ["ana", "bo"], 2)
    plan.save()
    steps = {"ana": [("reject", "ambiguous", "vague"), ("accept",), ("reject", "duplicate", "")], "bo": [("reject", "ambiguous", ""), ("accept",), ("accept",)]}
    for reviewer, actions in steps.items():
        with ReviewSession.open(path, reviewer=reviewer, team=plan, clock=FakeClock()) as session:
            for action in actions:
                if action[0] == "accept":
                    session.accept()
                else:
                    session.reject(reason=action[1], note=action[2])
    out = tmp_path / "rejected.jsonl"
    assert main(["export", str(path), "--consensus", "unanimous", "--rejected", "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "wrote 1 rejected question (unanimous consensus)" in printed
    # the item the rule leaves open may yet be rejected: named, as the merged export names it
    assert "1 item has no consensus, so it is not among them:\n  'q3': reviewers disagree" in printed
    rejected = read_jsonl(out)
    assert [item.id for item in rejected] == ["q1"]  # q3 has no consensus, q2 is accepted
    meta = dict(rejected.get("q1").meta)
    assert meta["verdict"] == "rejected" and meta["reject_reason"] == "ambiguous"
    assert "reject_reasons" not in meta  # one reason given by all: nothing more to say
    record = dict(meta["review"])
    assert sorted(record["decisions"]) == ["ana", "bo"] and "unanimous" in record["rule"]
    assert {r: d["reason"] for r, d in record["decisions"].items()} == {"ana": "ambiguous", "bo": "ambiguous"}
    assert record["decisions"]["ana"]["note"] == "vague"
    assert dict(rejected.meta)["consensus"] == "unanimous"
    # without -o, beside the set under the rejected name, never over an earlier one
    assert main(["export", str(path), "--consensus", "unanimous", "--rejected"]) == 0
    assert main(["export", str(path), "--consensus", "unanimous", "--rejected"]) == 0
    assert (tmp_path / "team.rejected.jsonl").exists() and (tmp_path / "team.rejected-2.jsonl").exists()


def test_decisions_signed_by_another_reviewer_are_not_counted_as_the_journals_owners(tmp_path, capsys):
    """ana's journal copied over bo's (or one file for 'ana' and 'Ana' on a disk that ignores case) made a
    perfect agreement out of one review: decisions are counted as their signer's only."""
    import shutil

    path = write_jsonl(_set(4), tmp_path / "team.jsonl")
    plan = TeamPlan.create(path, ["ana", "bo"], 2)
    plan.save()
    with ReviewSession.open(path, reviewer="ana", team=plan, clock=FakeClock()) as session:
        session.accept()
        session.reject(reason="ambiguous")
    shutil.copyfile(plan.journal_for("ana"), plan.journal_for("bo"))
    assert main(["status", str(path)]) == 0
    out = capsys.readouterr().out
    assert "bo: the journal bo.reviewtui-journal holds 2 decisions by 'ana', not counted as bo's" in out
    assert "percent agreement" not in out  # no item has two reviewers' decisions
    assert "bo: decided 0 of 4" in out
    # bo's own review counted them as bo's: every item looked done, bo never came to them, and the team's export
    # waited for bo for ever. It is refused, and says why, before anything is locked or written.
    before = plan.journal_for("bo").read_bytes()
    with pytest.raises(InputError) as refused:
        ReviewSession.open(path, reviewer="bo", team=plan, clock=FakeClock())
    said = str(refused.value)
    assert "bo's journal holds 2 decisions by 'ana'" in said and "move this file aside" in said
    assert plan.journal_for("bo").read_bytes() == before and not plan.lock_for("bo").exists()
    with ReviewSession.open(path, reviewer="ana", team=plan, clock=FakeClock()) as session:  # ana's own opens
        assert session.queue.stats().decided == 2


def test_an_edit_back_to_the_sets_own_item_is_an_accept_and_agrees_with_one(tmp_path, capsys):
    """ana changed q1's answer and changed it back; bo accepted q1. The second edit was recorded as an
    edit, so the two disagreed and the merged export left q1 out."""
    from reviewtui.evalset.io import read_jsonl
    from reviewtui.evalset.review.queue import Verdict

    path = write_jsonl(_set(2), tmp_path / "team.jsonl")
    plan = TeamPlan.create(path, ["ana", "bo"], 2)
    plan.save()
    first = read_jsonl(path).get("q1").answer
    with ReviewSession.open(path, reviewer="ana", team=plan, clock=FakeClock()) as session:
        session.edit(answer="22")
        session.goto("q1")
        session.edit(answer=first)
        assert session.queue.decision_for("q1").verdict == Verdict.ACCEPTED
    with ReviewSession.open(path, reviewer="bo", team=plan, clock=FakeClock()) as session:
        session.accept()
    out = tmp_path / "merged.jsonl"
    assert main(["export", str(path), "--consensus", "unanimous", "-o", str(out)]) == 0
    assert dict(read_jsonl(out).get("q1").meta["review"])["verdict"] == "accepted"


def test_each_reviewers_share_counts_the_items_marked_reviewed_that_their_own_review_holds(tmp_path, capsys):
    """ana skipped two items the file marks reviewed (reviewing them with --all) and accepted a third:
    status said 'decided 3 of 2'. bo's decision on a marked item counted it into ana's share too."""
    items = tuple(
        cg.EvalItem(id=f"q{k}", question=f"Which tool number {k} may a member borrow overnight?", meta={"reviewed": True} if k <= 2 else {})
        for k in range(1, 5)
    )
    path = write_jsonl(cg.EvalSet(id="marked", items=items), tmp_path / "team.jsonl")
    plan = TeamPlan.create(path, ["ana", "bo"], 2)
    plan.save()
    with ReviewSession.open(path, reviewer="ana", team=plan, include_reviewed=True, clock=FakeClock()) as session:
        session.skip()
        session.skip()
        session.accept()
    with ReviewSession.open(path, reviewer="bo", team=plan, clock=FakeClock()) as session:
        session.accept()  # q3: the marked ones are not in bo's review
    assert main(["status", str(path)]) == 0
    out = capsys.readouterr().out
    assert "ana: decided 3 of 4" in out and "bo: decided 1 of 2" in out


def test_the_merged_export_keeps_each_reviewers_dismissed_warnings(tmp_path):
    """A single review's export records the warnings its reviewer marked 'not a problem'; the merged export lost them."""
    from reviewtui.evalset.io import read_jsonl

    path = write_jsonl(_set(2), tmp_path / "team.jsonl")
    plan = TeamPlan.create(path, ["ana", "bo"], 2)
    plan.save()
    with ReviewSession.open(path, reviewer="ana", team=plan, clock=FakeClock()) as session:
        session.dismiss("over-easy")
        session.accept()
    with ReviewSession.open(path, reviewer="bo", team=plan, clock=FakeClock()) as session:
        session.accept()
    out = tmp_path / "merged.jsonl"
    assert main(["export", str(path), "--consensus", "unanimous", "-o", str(out)]) == 0
    decisions = dict(read_jsonl(out).get("q1").meta["review"])["decisions"]
    assert decisions["ana"]["dismissed"] == ["over-easy"] and "dismissed" not in decisions["bo"]


def test_the_merged_export_names_the_items_accepted_past_a_high_severity_warning(tmp_path, capsys):
    """A single export names them in its header and its output; the merged export said nothing of them."""
    from reviewtui.evalset.io import read_jsonl
    from reviewtui.evalset.model.flag import Flag, Severity

    path = write_jsonl(_set(3), tmp_path / "team.jsonl")
    plan = TeamPlan.create(path, ["ana", "bo"], 2)
    plan.save()
    conflict = {"q1": [Flag("conflicting-answers", Severity.HIGH, "asks what 'q2' asks, with another answer")]}
    for reviewer in ("ana", "bo"):
        with ReviewSession.open(path, reviewer=reviewer, team=plan, clock=FakeClock()) as session:
            session.warnings_from(lambda item: conflict.get(item.id, []))
            session.accept()  # q1, past the warning
            session.accept()  # q2
            session.reject(reason="ambiguous") if reviewer == "ana" else session.accept()  # q3: no consensus
    out = tmp_path / "merged.jsonl"
    assert main(["export", str(path), "--consensus", "unanimous", "-o", str(out)]) == 0
    said = capsys.readouterr().out
    assert "1 item accepted or edited while a high-severity warning was open: 'q1' (conflicting-answers)" in said
    assert dict(read_jsonl(out).meta["review"])["accepted_past_warnings"] == {"q1": ["conflicting-answers"]}


def _rewrite_journal(journal, change) -> None:
    """Each record of ``journal`` passed through ``change`` (a payload -> payload), as an earlier version wrote it."""
    from reviewtui.evalset.io.journal import encode_record

    lines = journal.read_bytes().splitlines()
    payloads = [json.loads(line)["r"] for line in lines if line.strip()]
    journal.write_bytes(b"".join(encode_record(change(payload)) for payload in payloads))


def test_a_plan_whose_names_an_earlier_version_took_still_opens_and_counts(tmp_path, capsys):
    """'ana' + U+200B was a name `assign` took before such names were refused: its plan must still open, be
    replaced with --force, and its reviewer's decisions count; only a name given now is held to the rule."""
    path = write_jsonl(_set(4), tmp_path / "team.jsonl")
    plan = TeamPlan.create(path, ["ana", "bo"], 2)
    plan.save()
    plan.plan_path.write_text(plan.plan_path.read_text(encoding="utf-8").replace('"ana"', '"ana\\u200b"'), encoding="utf-8")
    old = TeamPlan.load(path)
    assert old is not None and old.reviewers == ("ana\u200b", "bo")
    with ReviewSession.open(path, reviewer="ana\u200b", team=old, clock=FakeClock()) as session:
        session.accept()
        session.accept()
    assert main(["status", str(path)]) == 0
    assert "  ana\u200b: decided 2 of 4" in capsys.readouterr().out  # its decisions count
    assert main(["assign", str(path), "--reviewers", "ana\u200b,bo,chen", "--overlap", "2", "--force"]) == 0  # its journal is there
    assert TeamPlan.load(path).reviewers == ("ana\u200b", "bo", "chen")
    assert main(["assign", str(path), "--reviewers", "ana,bo,dee\u200b", "--force"]) == 2  # a new name still is held to it
    assert "dee\\u200b" in capsys.readouterr().err
    assert main(["assign", str(path), "--reviewers", "ana,bo", "--force"]) == 0
    out = capsys.readouterr().out
    assert "leaves out ana" in out


def test_names_that_look_like_others_are_refused_when_given(tmp_path, capsys):
    # a braille blank, a no-break space, an invisible vowel, an ideographic space, a format character and an unassigned one
    for name in ("ana\u2800", "ana\u00a0b", "an\u17b4a", "ana\u3000b", "ana\U0001bca0", "ana\u1cbb"):
        with pytest.raises(InputError, match="does not show as itself"):
            check_reviewer_name(name)
        assert check_reviewer_name(name, new=False) == name.strip()  # a saved plan's name opens
    path = write_jsonl(_set(), tmp_path / "team.jsonl")
    assert main(["assign", str(path), "--reviewers", "ana,\uff41\uff4e\uff41"]) == 2  # full-width "ana"
    assert "look alike" in capsys.readouterr().err
    assert main(["assign", str(path), "--reviewers", "a\tb,bo"]) == 2
    err = capsys.readouterr().err
    assert "'a\\tb'" in err and "\t" not in err  # a tab in a one-line message is shown as repr shows it


def test_a_signature_written_with_the_spaces_it_was_typed_with_is_the_reviewers(tmp_path, capsys):
    """An earlier version signed decisions with the name as typed (' bo '); the signature check read them
    as another reviewer's and dropped them all."""
    path = write_jsonl(_set(4), tmp_path / "team.jsonl")
    plan = TeamPlan.create(path, ["ana", "bo"], 2)
    plan.save()
    with ReviewSession.open(path, reviewer="bo", team=plan, clock=FakeClock()) as session:
        session.accept()
        session.accept()
    _rewrite_journal(plan.journal_for("bo"), lambda p: {**p, "by": " bo "} if "by" in p else p)
    assert main(["status", str(path)]) == 0
    out = capsys.readouterr().out
    assert "bo: decided 2 of 4" in out and "not counted" not in out
    with ReviewSession.open(path, reviewer="bo", team=plan, clock=FakeClock()) as session:  # still bo's to open
        assert session.queue.stats().decided == 2


def test_an_old_journals_edit_back_to_the_sets_item_is_read_as_an_accept(tmp_path, capsys):
    """Journals written before an edit back was made an accept hold it as an edit that changed nothing:
    read as written, it disagreed with a reviewer who accepted the item."""
    path = write_jsonl(_set(4), tmp_path / "team.jsonl")
    plan = TeamPlan.create(path, ["ana", "bo"], 2)
    plan.save()
    with ReviewSession.open(path, reviewer="ana", team=plan, clock=FakeClock()) as session:
        first = session.queue.current
        session.edit(answer="something else")
        session.goto(first.id)
        session.edit(answer=first.answer or "")
    with ReviewSession.open(path, reviewer="bo", team=plan, clock=FakeClock()) as session:
        session.goto(first.id)
        session.accept()
    original = first.model_dump(mode="json")

    def as_an_edit(payload):
        if payload.get("op") == "decide" and payload.get("v") == "accepted":
            return {**payload, "v": "edited", "item": original}
        return payload

    _rewrite_journal(plan.journal_for("ana"), as_an_edit)
    assert main(["status", str(path)]) == 0
    assert "percent agreement on verdicts 100.0%" in capsys.readouterr().out
    assert main(["export", str(path), "--consensus", "unanimous", "-o", str(tmp_path / "next.jsonl")]) == 0
    assert "disagree" not in capsys.readouterr().out


def test_the_teams_rejected_export_names_items_still_waiting_for_a_reviewer(tmp_path, capsys):
    path = write_jsonl(_set(2), tmp_path / "team.jsonl")
    plan = TeamPlan.create(path, ["ana", "bo"], 2)
    plan.save()
    with ReviewSession.open(path, reviewer="ana", team=plan, clock=FakeClock()) as session:
        session.reject(reason="ambiguous")
    assert main(["export", str(path), "--consensus", "majority", "--rejected", "-o", str(tmp_path / "r.jsonl")]) == 0
    printed = capsys.readouterr().out
    assert "wrote 0 rejected questions (majority consensus)" in printed
    assert "1 item is still waiting for an assigned reviewer:\n  'q1': waiting for bo" in printed


def test_the_teams_rejected_export_records_where_it_came_from_as_the_merged_export_does(tmp_path, capsys):
    """The merged --rejected header named the set and the reviewers but neither the set file nor the journals, nor
    any hash of them: nothing tied the rejections to the decisions they came from, as the other exports' headers do."""
    import hashlib

    from reviewtui.evalset.io import read_jsonl

    path = write_jsonl(_set(4), tmp_path / "team.jsonl")
    plan = TeamPlan.create(path, ["ana", "bo"], 2)
    plan.save()
    for reviewer in ("ana", "bo"):
        with ReviewSession.open(path, reviewer=reviewer, team=plan, clock=FakeClock()) as session:
            session.reject(reason="ambiguous", note=f"{reviewer}: vague")
            session.skip(note=f"{reviewer}: not sure")
    rejected_path, merged_path = tmp_path / "rejected.jsonl", tmp_path / "merged.jsonl"
    assert main(["export", str(path), "--consensus", "unanimous", "--rejected", "-o", str(rejected_path)]) == 0
    assert main(["export", str(path), "--consensus", "unanimous", "-o", str(merged_path)]) == 0
    capsys.readouterr()
    rejected, merged = read_jsonl(rejected_path), read_jsonl(merged_path)
    record = dict(rejected.meta["review"])
    assert record == dict(merged.meta["review"])  # one merge of the same journals, recorded alike
    assert record["from_file"] == "team.jsonl" and record["from_version"] == 1
    assert record["from_sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
    for reviewer in ("ana", "bo"):
        journal = plan.journal_for(reviewer).read_bytes()
        said = record["journals"][reviewer]
        assert said["file"] == f"{reviewer}.reviewtui-journal" and 0 < said["bytes"] <= len(journal)
        assert said["sha256"] == hashlib.sha256(journal[: said["bytes"]]).hexdigest()
    assert record["tool"].startswith("reviewtui") and record["consensus"] == "unanimous"
    assert record["counts"]["rejected"] == 1 and record["skipped_notes"] == {"q2": {"ana": "ana: not sure", "bo": "bo: not sure"}}
    # what the header said before is still there
    assert dict(rejected.meta)["consensus"] == "unanimous" and dict(rejected.meta)["rejected_from"] == "team"


def test_the_teams_rejected_export_lists_every_unsettled_item_in_its_own_header(tmp_path, capsys):
    """Past 50 unsettled items the --rejected export sent the reader to the other export's header for the rest;
    its own header lists them now."""
    from reviewtui.evalset.io import read_jsonl

    path = write_jsonl(_set(52), tmp_path / "team.jsonl")
    plan = TeamPlan.create(path, ["ana", "bo"], 2)
    plan.save()
    for reviewer in ("ana", "bo"):
        with ReviewSession.open(path, reviewer=reviewer, team=plan, clock=FakeClock()) as session:
            for _ in range(52):
                session.accept() if reviewer == "ana" else session.reject(reason="ambiguous")
    out = tmp_path / "rejected.jsonl"
    assert main(["export", str(path), "--consensus", "unanimous", "--rejected", "-o", str(out)]) == 0
    assert "  and 2 more (all are listed in the header's meta.review.no_consensus)" in capsys.readouterr().out
    assert len(dict(read_jsonl(out).meta["review"])["no_consensus"]) == 52
    # a CSV file has no header to point to: every one is listed on the terminal
    assert main(["export", str(path), "--consensus", "unanimous", "--rejected", "-o", str(tmp_path / "r.csv"), "--lossy"]) == 0
    said = capsys.readouterr().out
    assert "meta.review" not in said and all(f"  'q{n}': " in said for n in (1, 51, 52))


def test_a_teams_export_of_a_csv_version_follows_the_version_its_name_carries(tmp_path, capsys):
    """team.v2.csv reads back as version 1 (CSV keeps no version): its merged export was a second version 2."""
    from reviewtui.evalset.io import read_jsonl, write_csv

    path = write_csv(_set(2), tmp_path / "team.v2.csv")
    plan = TeamPlan.create(path, ["ana", "bo"], 2)
    plan.save()
    for reviewer in ("ana", "bo"):
        with ReviewSession.open(path, reviewer=reviewer, team=plan, clock=FakeClock()) as session:
            session.accept()
            session.reject(reason="ambiguous")
    assert main(["export", str(path), "--consensus", "unanimous", "--to", "csv"]) == 0
    assert f"wrote {tmp_path / 'team.v3.csv'}: version 3" in capsys.readouterr().out
    assert main(["export", str(path), "--consensus", "unanimous", "-o", str(tmp_path / "merged.jsonl")]) == 0
    merged = read_jsonl(tmp_path / "merged.jsonl")
    assert merged.version == 3 and dict(merged.meta["review"])["from_version"] == 2
    assert main(["export", str(path), "--consensus", "unanimous", "--rejected", "-o", str(tmp_path / "r.jsonl")]) == 0
    assert read_jsonl(tmp_path / "r.jsonl").meta["rejected_from_version"] == 2


def test_a_name_that_looks_like_the_adjudicators_is_refused(tmp_path):
    with pytest.raises(InputError, match="adjudication"):
        TeamPlan.create(tmp_path / "s.jsonl", ["ana", "\uff41djudicator"], 1)
    # the name given is the one said ("'adjudicator' names ..." was all --reviewers Adjudicator got back)
    with pytest.raises(InputError, match="'adjudicator' names the adjudication's journal, which 'Adjudicator' is taken for"):
        TeamPlan.create(tmp_path / "s.jsonl", ["Adjudicator", "bo"], 1)


def test_width_twins_an_earlier_plan_holds_with_their_journals_are_taken_again(tmp_path, capsys):
    path = write_jsonl(_set(4), tmp_path / "team.jsonl")
    plan = TeamPlan.create(path, ["ana", "bo"], 2)
    plan.save()
    plan.plan_path.write_text(plan.plan_path.read_text(encoding="utf-8").replace('"bo"', '"\uff41\uff4e\uff41"'), encoding="utf-8")
    old = TeamPlan.load(path)
    for reviewer in old.reviewers:
        with ReviewSession.open(path, reviewer=reviewer, team=old, clock=FakeClock()) as session:
            session.accept()
    assert main(["assign", str(path), "--reviewers", "ana,\uff41\uff4e\uff41,chen", "--overlap", "2", "--force"]) == 0
    capsys.readouterr()
    other = write_jsonl(_set(4), tmp_path / "other.jsonl")  # no journals there: the twins are new names
    assert main(["assign", str(other), "--reviewers", "ana,\uff41\uff4e\uff41"]) == 2
    assert "look alike (a full-width letter" in capsys.readouterr().err


def test_the_merged_export_hashes_each_journal_as_replayed_without_a_torn_record(tmp_path):
    import hashlib

    from reviewtui.evalset.io import read_jsonl

    path = _two_reviewers(tmp_path, {"ana": [lambda s: s.accept()], "bo": [lambda s: s.accept()]})
    plan = TeamPlan.load(path)
    journal = plan.journal_for("bo")
    whole = journal.read_bytes()
    with journal.open("ab") as handle:
        handle.write(b'{"c":"12345678","r":{"n":9,"op":"deci')  # bo's session died in the middle of a write
    out = tmp_path / "merged.jsonl"
    assert main(["export", str(path), "--consensus", "majority", "-o", str(out)]) == 0
    record = dict(dict(read_jsonl(out).meta["review"])["journals"])["bo"]
    assert record["bytes"] == len(whole) and record["sha256"] == hashlib.sha256(whole).hexdigest()


def test_a_merged_export_reviewed_again_keeps_the_teams_record_under_previous(tmp_path):
    from reviewtui.evalset.io import read_jsonl

    path = _two_reviewers(tmp_path, {"ana": [lambda s: s.edit(answer="chen's answer")], "bo": [lambda s: s.edit(answer="chen's answer")]})
    merged = tmp_path / "merged.jsonl"
    assert main(["export", str(path), "--consensus", "unanimous", "-o", str(merged)]) == 0
    with ReviewSession.open(merged, reviewer="eve", include_reviewed=True, clock=FakeClock()) as session:
        session.goto("q1")
        session.accept()
        again = session.export()
    record = dict(read_jsonl(again).get("q1").meta["review"])
    assert record["reviewer"] == "eve" and record["verdict"] == "accepted"
    earlier = record["previous"]
    assert earlier["rule"].startswith("unanimous") and sorted(earlier["decisions"]) == ["ana", "bo"]
    assert earlier["decisions"]["ana"]["edited"] == {"answer": "chen's answer"}


def test_the_merged_export_refuses_a_set_replaced_meanwhile_and_names_a_split(tmp_path, monkeypatch):
    from reviewtui.evalset.io import read_jsonl
    from reviewtui.evalset.review import teamwork

    path = _two_reviewers(tmp_path, {"ana": [lambda s: s.accept()], "bo": [lambda s: s.accept()]})
    real = teamwork.team_decisions

    def then_replace(*args, **kwargs):
        found = real(*args, **kwargs)
        other = tmp_path / "other.jsonl"
        other.write_text(path.read_text().replace("clause", "CLAUSE"))
        other.replace(path)
        return found

    monkeypatch.setattr(teamwork, "team_decisions", then_replace)
    assert main(["export", str(path), "--consensus", "majority", "-o", str(tmp_path / "m.jsonl")]) == 2
    assert not (tmp_path / "m.jsonl").exists()
    monkeypatch.undo()

    folder = tmp_path / "fiqa"
    (folder / "qrels").mkdir(parents=True)
    (folder / "queries.jsonl").write_text('{"_id": "1", "text": "Which region grew fastest last year?"}\n')
    (folder / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\n1\td1\t1\n")
    (folder / "qrels" / "train.tsv").write_text("query-id\tcorpus-id\tscore\n1\td2\t1\n")
    assert main(["assign", str(folder), "--split", "train", "--reviewers", "ana,bo"]) == 0
    assert main(["export", str(folder), "--split", "train", "--consensus", "unanimous", "-o", str(tmp_path / "t.jsonl")]) == 0
    assert dict(read_jsonl(tmp_path / "t.jsonl").meta["review"])["from_split"] == "train"


def test_the_merged_export_names_who_adjudicated(tmp_path):
    from reviewtui.evalset.io import read_jsonl
    from reviewtui.evalset.review.teamwork import open_adjudication

    path = _two_reviewers(tmp_path, {"ana": [lambda s: s.accept()], "bo": [lambda s: s.reject(reason="ambiguous")]})
    plan = TeamPlan.load(path)
    adjudication = open_adjudication(plan, read_jsonl(path), path, reviewer="dee", clock=FakeClock())
    assert adjudication is not None
    with adjudication.session as session:
        session.accept()
    out = tmp_path / "m.jsonl"
    assert main(["export", str(path), "--consensus", "adjudicated", "-o", str(out)]) == 0
    header = dict(read_jsonl(out).meta["review"])
    assert header["reviewers"] == ["ana", "bo"] and header["adjudicators"] == ["dee"]


def test_a_single_reviews_name_must_show_as_itself_as_assign_requires(tmp_path, capsys, monkeypatch):
    """--reviewer $'bo\\e[2J' was taken by a single review (assign refuses it) and went into the journal."""

    def opened(*args, **kwargs):  # the app is never to start here: a name let through fails at once, not hangs
        raise RuntimeError("the review was opened")

    monkeypatch.setattr(ReviewSession, "open", opened)
    path = write_jsonl(_set(2), tmp_path / "one.jsonl")
    for name in ("bo\x1b[2J", "ana\u200b", "bo\x07"):
        assert main([str(path), "--reviewer", name]) == 2
        err = capsys.readouterr().err
        assert "does not show as itself" in err and "\x1b" not in err and "\x07" not in err
    assert not (tmp_path / "one.jsonl.reviewtui-journal").exists()


def test_a_reviewer_name_from_the_settings_file_or_the_environment_must_show_as_itself(tmp_path, capsys, monkeypatch):
    """The settings file's reviewer and $REVIEWTUI_REVIEWER sign the journal as --reviewer does, and were not checked."""

    def opened(*args, **kwargs):  # a name let through fails at once, not hangs in the app
        raise RuntimeError("the review was opened")

    monkeypatch.setattr(ReviewSession, "open", opened)
    path = write_jsonl(_set(2), tmp_path / "one.jsonl")
    config = tmp_path / "config.toml"
    config.write_text('reviewer = "ana\\u200b"\n', encoding="utf-8")
    monkeypatch.setenv("REVIEWTUI_CONFIG", str(config))
    assert main([str(path)]) == 2
    err = capsys.readouterr().err
    assert "does not show as itself" in err and str(config) in err and "--reviewer" in err
    config.write_text("", encoding="utf-8")
    monkeypatch.setenv("REVIEWTUI_REVIEWER", "bo\x1b[2J")
    assert main([str(path)]) == 2
    err = capsys.readouterr().err
    assert "does not show as itself" in err and "$REVIEWTUI_REVIEWER" in err and "\x1b" not in err
    with pytest.raises(RuntimeError, match="the review was opened"):  # a name given now takes the place of both
        main([str(path), "--reviewer", "cy"])
    assert not (tmp_path / "one.jsonl.reviewtui-journal").exists()


def test_the_merged_export_header_says_when_the_decisions_were_made_and_leaves_out_dismissed_warnings(tmp_path):
    """A single export's header has first_decision_at and last_decision_at; the merged one had neither, and counted a
    warning every reviewer had since dismissed as one accepted past."""
    from reviewtui.evalset.io import read_jsonl
    from reviewtui.evalset.model.flag import Flag, Severity

    serious = [Flag("conflicting-answers", Severity.HIGH, "two answers")]

    def accept_then_dismiss(session):
        session.warnings_from(lambda item: serious if item.id == "q2" else [])
        session.accept()  # q1
        session.accept()  # q2, past the warning ...
        session.goto(1)
        session.dismiss("conflicting-answers")  # ... then said to be no problem

    path = _two_reviewers(tmp_path, {"ana": [accept_then_dismiss], "bo": [accept_then_dismiss]})
    out = tmp_path / "m.jsonl"
    assert main(["export", str(path), "--consensus", "unanimous", "-o", str(out)]) == 0
    merged = read_jsonl(out)
    header = dict(merged.meta["review"])
    assert header["first_decision_at"] is not None and header["last_decision_at"] > header["first_decision_at"]
    assert header["accepted_past_warnings"] == {}
    # ... nor does each reviewer's record of the item list it as open, as a single export's record does not
    for reviewer, record in merged.get("q2").meta["review"]["decisions"].items():
        assert record["dismissed"] == ["conflicting-answers"] and record["open_warnings"] == [], reviewer


def test_an_overlap_given_as_a_share_is_named_as_given_when_there_are_too_few_reviewers(tmp_path, capsys):
    path = write_jsonl(_set(4), tmp_path / "team.jsonl")
    assert main(["assign", str(path), "--reviewers", "ana", "--overlap", "0.5"]) == 2
    err = capsys.readouterr().err
    assert "--overlap 0.5 (a second reviewer on 50% of the items) needs at least 2 reviewers; 1 named" in err, err


def test_a_team_rejection_names_every_rejecter_their_commonest_reason_and_each_note(tmp_path):
    """The single review's fields of a team's rejected item showed the first rejecter's reason, note and name alone."""
    from reviewtui.evalset.io import read_jsonl

    path = write_jsonl(_set(2), tmp_path / "team.jsonl")
    plan = TeamPlan.create(path, ["ana", "bo", "chen", "dee"], 4)
    plan.save()
    steps = {
        "ana": ("reject", "ambiguous", "vague wording"),
        "bo": ("reject", "wrong_answer", "the answer is 1999"),
        "chen": ("reject", "wrong_answer", ""),
        "dee": ("accept",),
    }
    for reviewer, action in steps.items():
        with ReviewSession.open(path, reviewer=reviewer, team=plan, clock=FakeClock()) as session:
            if action[0] == "accept":
                session.accept()
            else:
                session.reject(reason=action[1], note=action[2])
    out = tmp_path / "rejected.jsonl"
    assert main(["export", str(path), "--consensus", "majority", "--rejected", "-o", str(out)]) == 0
    meta = dict(read_jsonl(out).get("q1").meta)
    assert meta["reviewer"] == "ana, bo, chen"
    assert meta["reject_reason"] == "wrong-answer"  # two of the three
    assert dict(meta["reject_reasons"]) == {"wrong-answer": 2, "ambiguous": 1}  # they did not agree on why
    assert meta["review_note"] == "ana: vague wording; bo: the answer is 1999"
    assert sorted(dict(meta["review"])["decisions"]) == ["ana", "bo", "chen", "dee"]


def test_an_empty_reviewer_name_is_refused_not_replaced_by_the_login_name(tmp_path, capsys, monkeypatch):
    def opened(*args, **kwargs):  # the app must never start here
        raise RuntimeError("the review was opened")

    monkeypatch.setattr(ReviewSession, "open", opened)
    path = write_jsonl(_set(2), tmp_path / "one.jsonl")
    for name in ("", "   "):
        assert main([str(path), "--reviewer", name]) == 2
        assert "--reviewer needs a name" in capsys.readouterr().err


def test_the_merged_export_keeps_each_reviewers_notes_on_skipped_items_and_names_a_lone_note(tmp_path):
    from reviewtui.evalset.io import read_jsonl

    path = write_jsonl(_set(2), tmp_path / "team.jsonl")
    plan = TeamPlan.create(path, ["ana", "bo", "chen"], 3)
    plan.save()
    steps = {
        "ana": [lambda s: s.skip(note="source doc missing"), lambda s: s.reject(reason="ambiguous")],
        "bo": [lambda s: s.skip(), lambda s: s.reject(reason="ambiguous", note="which saw?")],
        "chen": [lambda s: s.skip(note="ask legal"), lambda s: s.accept()],
    }
    for reviewer, calls in steps.items():
        with ReviewSession.open(path, reviewer=reviewer, team=plan, clock=FakeClock()) as session:
            for call in calls:
                call(session)
    out = tmp_path / "m.jsonl"
    assert main(["export", str(path), "--consensus", "majority", "-o", str(out)]) == 0
    assert dict(read_jsonl(out).meta["review"])["skipped_notes"] == {"q1": {"ana": "source doc missing", "chen": "ask legal"}}
    rejected = tmp_path / "r.jsonl"
    assert main(["export", str(path), "--consensus", "majority", "--rejected", "-o", str(rejected)]) == 0
    meta = dict(read_jsonl(rejected).get("q2").meta)
    assert meta["reviewer"] == "ana, bo" and meta["review_note"] == "bo: which saw?"  # whose, with two rejecters


def test_a_label_on_an_item_only_one_reviewer_decided_does_not_move_ac1(tmp_path, capsys):
    """AC1's chance term counted the labels used anywhere: ana's edit of an item bo never reviewed moved AC1 from
    0.333 to 0.556, though that item takes part in no comparison."""
    import json

    def ac1(folder, last) -> float:
        folder.mkdir()
        path = _two_reviewers(
            folder,
            {
                "ana": [lambda s: s.accept(), lambda s: s.accept(), lambda s: s.reject("other"), last],
                "bo": [lambda s: s.accept(), lambda s: s.reject("other"), lambda s: s.reject("other")],
            },
        )
        capsys.readouterr()
        assert main(["agreement", str(path), "--to", "json", "--resamples", "0"]) == 0
        return json.loads(capsys.readouterr().out)["verdict"]["gwet_ac1"]["value"]

    accepted = ac1(tmp_path / "accepted", lambda s: s.accept())
    edited = ac1(tmp_path / "edited", lambda s: s.edit(answer="changed"))
    assert accepted == edited
    # three verdicts on the scale: observed 2/3; chance (0.5*0.5*2 + 0) / 2 = 0.25; AC1 = (2/3 - 0.25) / 0.75
    assert abs(accepted - (2 / 3 - 0.25) / 0.75) < 1e-9


def test_exporting_one_team_members_journal_alone_is_refused(tmp_path, capsys):
    """export --journal <ana's journal> wrote a whole next version from ana's share: her rejections dropped items,
    everything else passed as reviewed, and nothing said so (the app refuses that export)."""
    path = _two_reviewers(tmp_path, {"ana": [lambda s: s.reject("other")]})
    plan = TeamPlan.load(path)
    out = tmp_path / "ana-only.jsonl"
    for extra in ([], ["--rejected"]):
        assert main(["export", str(path), "--journal", str(plan.journal_for("ana")), "-o", str(out), *extra]) == 2
        err = capsys.readouterr().err
        assert "holds the part given to 'ana' of a team's review" in err and "--consensus" in err, err
        assert not out.exists()
    # nor through a hard link to it, elsewhere and under another name, whatever else lies in the folder
    linked = tmp_path / "copy-of-ana.journal"
    os.link(plan.journal_for("ana"), linked)
    for k in range(5):
        (plan.folder / f"gone{k}.reviewtui-journal").symlink_to(tmp_path / "nowhere")
    assert main(["export", str(path), "--journal", str(linked), "-o", str(out)]) == 2
    assert "holds the part given to 'ana' of a team's review" in capsys.readouterr().err and not out.exists()
    # nor through a link named otherwise: the journal it leads to is ana's
    other_name = tmp_path / "mine.reviewtui-journal"
    other_name.symlink_to(plan.journal_for("ana"))
    assert main(["export", str(path), "--journal", str(other_name), "-o", str(out)]) == 2
    assert "holds the part given to 'ana' of a team's review" in capsys.readouterr().err and not out.exists()
    # a journal kept elsewhere is still exported as a single review
    with ReviewSession.open(path, journal_path=tmp_path / "solo.journal") as solo:
        solo.accept()
    assert main(["export", str(path), "--journal", str(tmp_path / "solo.journal"), "-o", str(out)]) == 0


@pytest.mark.parametrize(
    "argv",
    [["agreement", "{f}", "--split", "train"], ["adjudicate", "{f}", "--split", "train"], ["export", "{f}", "--consensus", "majority", "--split", "train", "-o", "{d}/m.jsonl"]],
)
def test_a_split_that_names_no_qrels_file_is_the_error_not_a_missing_plan(tmp_path, capsys, argv, monkeypatch):
    """agreement, adjudicate and a merged export said "this set has no team plan" for a --split the set cannot have."""
    monkeypatch.setattr(ReviewSession, "open", _no_app)
    path = write_jsonl(_set(4), tmp_path / "team.jsonl")
    TeamPlan.create(path, ["ana", "bo"], 2).save()
    assert main([a.format(f=path, d=tmp_path) for a in argv]) == 2
    err = capsys.readouterr().err
    assert "a split (--split) chooses among the qrels files of a BEIR folder; this is not one" in err and "team plan" not in err
    beir = tmp_path / "beir"
    (beir / "qrels").mkdir(parents=True)
    (beir / "queries.jsonl").write_text('{"_id": "1", "text": "What does the library lend?"}\n', encoding="utf-8")
    (beir / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\n1\td1\t1\n", encoding="utf-8")
    assert main([a.format(f=beir, d=tmp_path).replace("train", "nope") for a in argv]) == 2
    err = capsys.readouterr().err
    assert "has no qrels file for the split 'nope'" in err and "team plan" not in err, err


def _no_app(*args, **kwargs):
    raise AssertionError("no review may open")


def test_assign_does_not_write_the_plan_through_a_linked_team_folder(tmp_path, capsys):
    path = write_jsonl(_set(4), tmp_path / "s.jsonl")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "s.jsonl.reviews").symlink_to(elsewhere)
    assert main(["assign", str(path), "--reviewers", "ana,bo"]) == 2
    assert "the team's folder is a symbolic link" in capsys.readouterr().err
    assert list(elsewhere.iterdir()) == []


def test_an_item_every_reviewer_skipped_is_offered_to_the_adjudicator(tmp_path, capsys):
    """The merged export said "no reviewer judged it (skipped)" of an item both reviewers skipped, while adjudicate
    said there was nothing to adjudicate and status did not count it: no one could settle it."""
    from reviewtui.evalset.io import read_jsonl
    from reviewtui.evalset.review.teamwork import open_adjudication

    both = [lambda s: s.skip(note="unsure"), lambda s: s.accept(), lambda s: s.accept(), lambda s: s.accept()]
    path = _two_reviewers(tmp_path, {"ana": both, "bo": both})
    capsys.readouterr()
    assert main(["status", str(path)]) == 0
    assert "skipped by every reviewer who came to them: 1; adjudicated so far: 0" in capsys.readouterr().out
    plan = TeamPlan.load(path)
    adjudication = open_adjudication(plan, read_jsonl(path), path, reviewer="dee", clock=FakeClock())
    assert adjudication is not None
    with adjudication.session as session:
        assert [item.id for item in session.queue.items] == ["q1"]
        # taking a reviewer's skip would look like a decision here and settle nothing in any export
        with pytest.raises(cg.EvalSetError, match="ana skipped it, and a skip settles nothing"):
            session.adopt(adjudication.votes["q1"]["ana"])
        assert session.queue.decided == 0
        session.accept()
    out = tmp_path / "m.jsonl"
    assert main(["export", str(path), "--consensus", "adjudicated", "-o", str(out)]) == 0
    assert "q1" in {item.id for item in read_jsonl(out)}
    assert main(["status", str(path)]) == 0
    assert "skipped by every reviewer who came to them: 1; adjudicated so far: 1" in capsys.readouterr().out


def test_the_merged_export_header_lists_decisions_on_items_changed_since(tmp_path):
    """ "ana: 1 earlier decision not restored ... q1" went to the terminal only; the file counted q1 as untouched."""
    from reviewtui.evalset.io import read_jsonl

    path = _two_reviewers(tmp_path, {"ana": [lambda s: s.accept(), lambda s: s.accept()], "bo": [lambda s: s.accept()]})
    items = read_jsonl(path).items
    path.unlink()
    write_jsonl(cg.EvalSet(id="team", items=(items[0].model_copy(update={"answer": "changed"}), *items[1:])), path)
    out = tmp_path / "m.jsonl"
    assert main(["export", str(path), "--consensus", "majority", "-o", str(out)]) == 0
    header = dict(read_jsonl(out).meta["review"])
    assert header["decisions_not_restored"] == {"ana": {"q1": "changed"}, "bo": {"q1": "changed"}}


def test_an_item_one_reviewer_skipped_and_another_has_not_reached_is_not_the_adjudicators_yet(tmp_path, capsys):
    """Offered to the adjudicator while the merged export said it was waiting for bo: bo's verdict may settle it."""
    from reviewtui.evalset.io import read_jsonl
    from reviewtui.evalset.review.teamwork import open_adjudication

    path = _two_reviewers(tmp_path, {"ana": [lambda s: s.skip(note="unsure")]})
    capsys.readouterr()
    assert main(["status", str(path)]) == 0
    assert "skipped by every reviewer" not in capsys.readouterr().out
    assert open_adjudication(TeamPlan.load(path), read_jsonl(path), path, reviewer="dee", clock=FakeClock()) is None


def test_a_review_does_not_write_its_journal_through_a_linked_team_folder(tmp_path):
    """assign refused a linked team folder, but a folder linked after assign took every reviewer's journal."""
    path = write_jsonl(_set(4), tmp_path / "s.jsonl")
    plan = TeamPlan.create(path, ["ana", "bo"], 2)
    plan.save()
    elsewhere = tmp_path / "elsewhere"
    plan.folder.rename(elsewhere)
    plan.folder.symlink_to(elsewhere)
    linked = TeamPlan.load(path)
    with pytest.raises(cg.EvalSetError, match="the team's folder is a symbolic link"):
        ReviewSession.open(path, reviewer="ana", team=linked)
    with pytest.raises(cg.EvalSetError, match="the team's folder is a symbolic link"):  # naming the journal itself
        ReviewSession.open(path, reviewer="ana", team=linked, journal_path=linked.journal_for("ana"))
    assert sorted(p.name for p in elsewhere.iterdir()) == ["plan.json"]


def test_an_adjudicator_is_pointed_to_the_adjudicated_export(tmp_path):
    """The adjudicator's summary and its export key suggested --consensus majority, a rule that ignores adjudications."""
    from reviewtui.evalset.io import read_jsonl
    from reviewtui.evalset.review.teamwork import open_adjudication
    from reviewtui.tui.screens.summary import ADJUDICATED_EXPORT

    path = _two_reviewers(tmp_path, {"ana": [lambda s: s.accept()], "bo": [lambda s: s.reject(reason="ambiguous")]})
    adjudication = open_adjudication(TeamPlan.load(path), read_jsonl(path), path, reviewer="dee", clock=FakeClock())
    assert adjudication is not None
    with adjudication.session as session:
        assert session.adjudicating
        with pytest.raises(cg.EvalSetError, match="reviewtui export FILE --consensus adjudicated$"):
            session.export()
    assert "--consensus adjudicated." in ADJUDICATED_EXPORT and "majority" not in ADJUDICATED_EXPORT
    with ReviewSession.open(path, reviewer="ana", team=TeamPlan.load(path)) as member:
        assert not member.adjudicating


def test_a_team_members_lock_is_named_with_its_folder_when_the_review_is_open_elsewhere(tmp_path):
    """The message named 'ana.reviewtui-lock' as if it lay beside the set; it is in the team's folder."""
    path = write_jsonl(_set(4), tmp_path / "s.jsonl")
    plan = TeamPlan.create(path, ["ana", "bo"], 2)
    plan.save()
    with ReviewSession.open(path, reviewer="ana", team=plan):
        with pytest.raises(cg.EvalSetError) as refused:
            ReviewSession.open(path, reviewer="ana", team=plan)
    assert f"(the lock is {plan.lock_for('ana')})" in str(refused.value)


def test_the_merged_export_keeps_each_reviewers_notes_on_items_they_have_not_decided(tmp_path):
    from reviewtui.evalset.io import read_jsonl

    def note_then_accept_another(session):
        session.goto("q3")
        session.note("q3 looks like q1")
        session.goto("q1")
        session.accept()

    path = _two_reviewers(tmp_path, {"ana": [note_then_accept_another], "bo": [lambda s: s.accept()]})
    out = tmp_path / "m.jsonl"
    assert main(["export", str(path), "--consensus", "majority", "-o", str(out)]) == 0
    assert dict(read_jsonl(out).meta["review"])["undecided_notes"] == {"q3": {"ana": "q3 looks like q1"}}


def test_a_merged_export_before_any_decision_says_it_is_the_set_as_it_stands(tmp_path, capsys):
    path = write_jsonl(_set(1), tmp_path / "s.jsonl")
    TeamPlan.create(path, ["ana", "bo"], 2).save()
    out = tmp_path / "m.jsonl"
    assert main(["export", str(path), "--consensus", "majority", "-o", str(out)]) == 0
    said = capsys.readouterr().out
    assert "version 2, 1 item (majority consensus)" in said  # "1 items" before
    assert "no reviewer's decision stands yet" in said and "the export is the set as it stands" in said


def test_team_commands_say_when_a_reviewers_journal_holds_no_record(tmp_path, capsys):
    """A journal emptied on disk (a sync, a bad merge) read as "bo: decided 0 of 4" and nothing more, while
    bo's own review refuses to write to it and a single review's status says why."""
    path = _two_reviewers(tmp_path, {"ana": [lambda s: s.accept()], "bo": [lambda s: s.accept()]})
    journal = TeamPlan.load(path).journal_for("bo")
    journal.write_bytes(b"")
    said = "bo: bo.reviewtui-journal holds no complete journal record"
    assert main(["status", str(path)]) == 0
    assert said in capsys.readouterr().out
    assert main(["agreement", str(path), "--resamples", "0"]) == 0
    assert said in capsys.readouterr().err
    assert main(["export", str(path), "--consensus", "majority", "-o", str(tmp_path / "m.jsonl")]) == 0
    assert said in capsys.readouterr().out
    assert journal.read_bytes() == b""  # said, not mended: the file is left as it was


def test_a_type_given_beside_an_item_left_without_one_is_a_disagreement_on_types(tmp_path, capsys):
    """On a set without types, ana typing all four items "numeric" and bo leaving three of them untyped read as
    "on qtypes: 1 item decided by more than one reviewer, percent agreement 1.000": an item left without a type
    gave no label, while one left with the set's own type did (and disagreed with "numeric")."""
    import json

    path = write_jsonl(cg.EvalSet(id="team", items=tuple(i.model_copy(update={"qtype": None}) for i in make_items(4))), tmp_path / "t.jsonl")
    plan = TeamPlan.create(path, ["ana", "bo"], 2)
    plan.save()
    with ReviewSession.open(path, reviewer="ana", team=plan, clock=FakeClock()) as session:
        for _ in range(4):
            session.mark("numeric")
    with ReviewSession.open(path, reviewer="bo", team=plan, clock=FakeClock()) as session:
        session.mark("numeric")  # q1
        for _ in range(3):
            session.accept()  # q2..q4, left without a type
    capsys.readouterr()
    assert main(["agreement", str(path), "--to", "json", "--resamples", "0"]) == 0
    types = json.loads(capsys.readouterr().out)["qtype"]
    assert types["compared_items"] == 4
    # q1 agrees, q2..q4 do not: 1 of 4 items
    assert types["percent_agreement"]["value"] == 0.25
    # Cohen: ana numeric 4; bo numeric 1, untyped 3; p_o = 1/4, p_e = (4 * 1) / 16 = 1/4, kappa = 0
    assert types["pairs"][0]["kappa"]["value"] == 0.0


def test_a_team_that_types_nothing_gets_no_type_figures(tmp_path, capsys):
    """Left untyped by every reviewer is no judgement on types: it is not reported as full agreement on them."""
    import json

    path = write_jsonl(cg.EvalSet(id="team", items=tuple(i.model_copy(update={"qtype": None}) for i in make_items(4))), tmp_path / "t.jsonl")
    plan = TeamPlan.create(path, ["ana", "bo"], 2)
    plan.save()
    for reviewer in ("ana", "bo"):
        with ReviewSession.open(path, reviewer=reviewer, team=plan, clock=FakeClock()) as session:
            for _ in range(4):
                session.accept()
    capsys.readouterr()
    assert main(["agreement", str(path), "--to", "json", "--resamples", "0"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["verdict"]["compared_items"] == 4
    assert not report.get("qtype") or report["qtype"]["compared_items"] == 0, report.get("qtype")


def test_assign_counts_items_reviewed_more_than_once_and_names_only_the_first_idle_reviewers(tmp_path, capsys):
    """With more reviewers than items the note named every idle one: thousands of names on one line."""
    from reviewtui.cli.assign import IDLE_NAMED

    path = write_jsonl(cg.EvalSet(id="t", items=tuple(make_items(4))), tmp_path / "set.jsonl")
    names = [f"r{n:02d}" for n in range(IDLE_NAMED + 10)]
    assert main(["assign", str(path), "--reviewers", ",".join(names), "--overlap", "3"]) == 0
    out = capsys.readouterr().out
    plan = TeamPlan.load(path)
    assert plan is not None
    busy = {r for item in make_items(4) for r in plan.reviewers_of(item.id)}
    idle = [r for r in names if r not in busy]
    assert "4 items, 30 reviewers, 4 items reviewed more than once" in out  # each item to three
    note = next(line for line in out.splitlines() if line.startswith("note: "))
    assert note == f"note: {', '.join(idle[:IDLE_NAMED])} and {len(idle) - IDLE_NAMED} more get no item: more reviewers than the items need"


def test_a_merged_export_keeps_an_items_own_verdict_in_its_record(tmp_path, capsys):
    """As a single export does: the consensus's verdict was written over the set's own meta "verdict"."""
    from reviewtui.evalset.io import read_jsonl

    items = [item.replace(meta={"verdict": "SUPPORT", "reviewer": "ann-3"}) for item in make_items(2)]
    path = write_jsonl(cg.EvalSet(id="team", items=tuple(items)), tmp_path / "team.jsonl")
    plan = TeamPlan.create(path, ["ana", "bo"], 2)
    plan.save()
    for who in ("ana", "bo"):
        with ReviewSession.open(path, reviewer=who, team=plan, clock=FakeClock()) as session:
            session.goto("q1")
            session.accept()
            session.goto("q2")
            session.reject(reason="other")
    assert main(["export", str(path), "--consensus", "unanimous", "-o", str(tmp_path / "merged.jsonl")]) == 0
    assert "'verdict' on 1 item" in capsys.readouterr().out
    q1 = read_jsonl(tmp_path / "merged.jsonl").get("q1").meta
    assert q1["verdict"] == "accepted" and q1["review"]["replaced"] == {"verdict": "SUPPORT"}
    assert main(["export", str(path), "--consensus", "unanimous", "--rejected", "-o", str(tmp_path / "rejected.jsonl")]) == 0
    q2 = read_jsonl(tmp_path / "rejected.jsonl").get("q2").meta
    assert q2["review"]["replaced"] == {"verdict": "SUPPORT", "reviewer": "ann-3"}


def _judged_team(tmp_path):
    """ana dismisses no-evidence on q1 and accepts it, rejects q2; bo accepts q1, dismisses conflicting-answers on q2
    and accepts it: a disagreement on q2, for the adjudicator."""
    from reviewtui.evalset.model.flag import Flag, Severity

    flags = {
        "q1": [Flag("no-evidence", Severity.MEDIUM, "no quote")],
        "q2": [Flag("conflicting-answers", Severity.HIGH, "two answers", ("q3",)), Flag("no-evidence", Severity.MEDIUM, "no quote")],
    }

    def ana(session):
        session.warnings_from(lambda item: flags.get(item.id, []))
        session.dismiss("no-evidence")
        session.accept()  # q1
        session.reject(reason="wrong-answer")  # q2: confirms both of its warnings

    def bo(session):
        session.warnings_from(lambda item: flags.get(item.id, []))
        session.accept()  # q1, past no-evidence
        session.dismiss("conflicting-answers")
        session.accept()  # q2, past no-evidence only

    return _two_reviewers(tmp_path, {"ana": [ana], "bo": [bo]}), flags


def test_team_status_and_the_merged_export_count_every_reviewers_word_on_the_warnings(tmp_path, capsys):
    """The per-check counts were a single review's only: a team's status and merged export had none."""
    from reviewtui.evalset.io import read_jsonl

    path, _ = _judged_team(tmp_path)
    expected = {
        "conflicting-answers": {"confirmed": 1, "dismissed": 1, "accepted": 0},
        "no-evidence": {"confirmed": 1, "dismissed": 1, "accepted": 2},
    }
    assert main(["status", str(path)]) == 0
    printed = capsys.readouterr().out
    assert "conflicting-answers: 1 confirmed, 1 dismissed, 0 accepted past" in printed, printed
    assert "no-evidence: 1 confirmed, 1 dismissed, 2 accepted past" in printed, printed
    out = tmp_path / "m.jsonl"
    assert main(["export", str(path), "--consensus", "majority", "-o", str(out)]) == 0
    assert dict(read_jsonl(out).meta["review"])["warnings"] == expected


def test_an_adjudicator_taking_a_decision_takes_the_reviewers_word_on_its_warnings(tmp_path, capsys):
    """Taking bo's accept of q2, whose conflicting answers bo had said are no problem, listed q2 as accepted past
    that warning, and the adjudicator never saw bo's word on it."""
    from reviewtui.evalset.io import read_jsonl
    from reviewtui.evalset.review.teamwork import open_adjudication
    from reviewtui.tui.render import votes_view

    path, flags = _judged_team(tmp_path)
    plan = TeamPlan.load(path)
    adjudication = open_adjudication(plan, read_jsonl(path), path, reviewer="dee", clock=FakeClock())
    assert adjudication is not None and list(adjudication.votes) == ["q2"]
    assert adjudication.dismissed == {"q2": {"bo": ["conflicting-answers"]}}
    shown = votes_view(adjudication.votes["q2"], adjudication.dismissed["q2"]).plain
    assert "bo" in shown and "not a problem: conflicting-answers" in shown, shown
    with adjudication.session as session:
        session.warnings_from(lambda item: flags.get(item.id, []))
        bo = adjudication.votes["q2"]["bo"]
        session.adopt(bo, adjudication.dismissed["q2"]["bo"])
        taken = session.queue.decision_for("q2")
        assert taken.taken_from == "bo" and taken.warnings == () and taken.flagged == ("no-evidence",)
    out = tmp_path / "final.jsonl"
    assert main(["export", str(path), "--consensus", "adjudicated", "-o", str(out)]) == 0
    header = dict(read_jsonl(out).meta["review"])
    assert "q2" not in header["accepted_past_warnings"], header["accepted_past_warnings"]
    # the take repeats bo's word: counted once, as bo's
    assert header["warnings"] == {
        "conflicting-answers": {"confirmed": 1, "dismissed": 1, "accepted": 0},
        "no-evidence": {"confirmed": 1, "dismissed": 1, "accepted": 2},
    }


async def test_the_adjudicators_digit_takes_the_reviewers_dismissals_with_their_decision(tmp_path):
    from reviewtui.evalset.io import read_jsonl
    from reviewtui.evalset.review.teamwork import open_adjudication
    from reviewtui.tui.app import ReviewApp
    from tests.tui_helpers import fixed_scan, screen_text, settle

    path, flags = _judged_team(tmp_path)
    adjudication = open_adjudication(TeamPlan.load(path), read_jsonl(path), path, reviewer="dee", clock=FakeClock())
    assert adjudication is not None
    app = ReviewApp(
        adjudication.session, scan=fixed_scan(flags), votes=adjudication.votes, vote_dismissals=adjudication.dismissed
    )
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            text = " ".join(screen_text(app).replace("│", " ").split())  # the history pane wraps its lines
            assert "2 bo ✓ accepted not a problem: conflicting-answers" in text, text
            await pilot.press("2")  # bo's accept
            await pilot.pause()
        taken = adjudication.session.queue.decision_for("q2")
        assert taken.taken_from == "bo" and taken.warnings == ()
    finally:
        adjudication.session.close()


def test_a_merged_export_counts_marked_items_apart_and_says_nothing_of_what_an_earlier_export_replaced(tmp_path, capsys):
    """An item marked reviewed passed through with an earlier export's record of the value it replaced: the merged
    export said it wrote over that item's own value, and counted it as untouched, where a single export counts it
    as marked_reviewed."""
    from reviewtui.evalset.io import read_jsonl

    earlier = {"reviewed": True, "verdict": "accepted", "review": {"verdict": "accepted", "replaced": {"verdict": "SUPPORTS"}}}
    items = (
        cg.EvalItem(id="q1", question="What does the first rule say?", answer="a", meta=earlier),
        cg.EvalItem(id="q2", question="What does the second rule say?", answer="b"),
        cg.EvalItem(id="q3", question="What does the third rule say?", answer="c"),
    )
    path = write_jsonl(cg.EvalSet(id="team", items=items), tmp_path / "team.v2.jsonl")
    assert main(["assign", str(path), "--reviewers", "ana,bo", "--overlap", "2"]) == 0
    plan = TeamPlan.load(path)
    for reviewer in ("ana", "bo"):
        with ReviewSession.open(path, reviewer=reviewer, team=plan, clock=FakeClock()) as session:
            session.goto("q2")
            session.accept()
    capsys.readouterr()
    out = tmp_path / "m.jsonl"
    assert main(["export", str(path), "--consensus", "majority", "-o", str(out)]) == 0
    assert "meta keys some items held values of their own" not in capsys.readouterr().out
    counts = dict(read_jsonl(out).meta["review"])["counts"]
    assert (counts["untouched"], counts["marked_reviewed"], counts["accepted"], counts["kept"]) == (1, 1, 1, 3), counts


@pytest.mark.parametrize("signum", ["SIGHUP", "SIGTERM"])
def test_an_adjudication_stopped_by_a_signal_ends_without_a_traceback(tmp_path, signum):
    """A closed terminal or `timeout` stopped adjudicate with two tracebacks ("Stopped", then "no running event
    loop"): unlike a review, it left the signal to the command line's handler, which raised inside the app."""
    import pty
    import select
    import signal
    import subprocess
    import sys
    import time

    path = write_jsonl(_set(3), tmp_path / "team.jsonl")
    plan = TeamPlan.create(path, ["ana", "bo"], 2)
    plan.save()
    with ReviewSession.open(path, reviewer="ana", team=plan, clock=FakeClock()) as session:
        session.accept()
    with ReviewSession.open(path, reviewer="bo", team=plan, clock=FakeClock()) as session:
        session.reject(reason="ambiguous")
    main_end, terminal = pty.openpty()
    env = {**os.environ, "TERM": "xterm-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "REVIEWTUI_REVIEWER": "dee"}
    app = subprocess.Popen(
        [sys.executable, "-m", "reviewtui.cli", "adjudicate", str(path)],
        stdin=terminal, stdout=terminal, stderr=terminal, env=env, cwd=tmp_path, start_new_session=True,
    )
    os.close(terminal)
    seen = b""
    try:
        deadline = time.monotonic() + 60
        while b"q1" not in seen and time.monotonic() < deadline and app.poll() is None:
            if select.select([main_end], [], [], 0.2)[0]:
                try:
                    seen += os.read(main_end, 65536)
                except OSError:
                    break
        assert b"q1" in seen, seen[-2000:]
        app.send_signal(getattr(signal, signum))
        deadline = time.monotonic() + 30
        while app.poll() is None and time.monotonic() < deadline:
            if select.select([main_end], [], [], 0.2)[0]:
                try:
                    seen += os.read(main_end, 65536)
                except OSError:  # the terminal's other end closed: the app has let go of it
                    break
        try:
            app.wait(timeout=30)
        except subprocess.TimeoutExpired:
            pytest.fail("still running after the signal")
        while select.select([main_end], [], [], 0.2)[0]:  # what it wrote on its way out
            try:
                chunk = os.read(main_end, 65536)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
    finally:
        if app.poll() is None:
            app.kill()
        app.wait()
        os.close(main_end)
    assert b"Traceback" not in seen, seen[-3000:].decode("utf-8", "replace")


def test_a_rejection_the_adjudicator_took_names_whose_note_it_carries(tmp_path):
    """Adjudicated by taking ana's reject with its note, the rejected file said "reviewer": the adjudicator, and
    "review_note": ana's words, as if the adjudicator had written them."""
    from reviewtui.evalset.io import read_jsonl
    from reviewtui.evalset.review.teamwork import open_adjudication

    path = write_jsonl(_set(1), tmp_path / "team.jsonl")
    plan = TeamPlan.create(path, ["ana", "bo"], 2)
    plan.save()
    with ReviewSession.open(path, reviewer="ana", team=plan, clock=FakeClock()) as session:
        session.reject(reason="wrong_answer", note="answer lists places not countries")
    with ReviewSession.open(path, reviewer="bo", team=plan, clock=FakeClock()) as session:
        session.accept()
    adjudication = open_adjudication(plan, read_jsonl(path), path, reviewer="dee", clock=FakeClock())
    assert adjudication is not None
    with adjudication.session as session:
        session.adopt(adjudication.votes["q1"]["ana"])
    out = tmp_path / "rejected.jsonl"
    assert main(["export", str(path), "--consensus", "adjudicated", "--rejected", "-o", str(out)]) == 0
    meta = dict(read_jsonl(out).get("q1").meta)
    assert meta["reviewer"] == "dee" and meta["reject_reason"] == "wrong-answer"
    assert meta["review_note"] == "ana: answer lists places not countries"


def test_agreement_says_why_a_kappa_is_undefined_and_nothing_that_is_not_the_cause(tmp_path, capsys):
    """A kappa on 4 items where both reviewers accepted everything was "undefined (every label the same, or too few
    items) on 4 items": only the first half can be the cause of a figure printed for items that were compared."""
    accept = [lambda s: s.accept()] * 4
    path = _two_reviewers(tmp_path, {"ana": accept, "bo": accept})
    capsys.readouterr()
    assert main(["agreement", str(path), "--resamples", "100"]) == 0
    out = capsys.readouterr().out
    assert "too few items" not in out
    assert "Cohen's kappa ana / bo: undefined (every rating on these items is the same label: no disagreement to measure) on 4 items" in out
    assert "Fleiss' kappa          undefined (every rating on these items is the same label" in out


def test_agreement_says_when_an_interval_leaves_out_resamples_on_which_the_kappa_is_undefined(tmp_path, capsys):
    """One disagreement in 4 items: a resample that misses it holds only "accepted", where the kappas are 0/0 and are
    left out, so their interval is of the other resamples only (the ones with the disagreement). The text said
    "Fleiss' kappa -0.143 (95% interval -0.600 to -0.143)" as though from every resample."""
    path = _two_reviewers(
        tmp_path,
        {"ana": [lambda s: s.accept()] * 4, "bo": [lambda s: s.accept()] * 3 + [lambda s: s.reject(reason="ambiguous")]},
    )
    capsys.readouterr()
    assert main(["agreement", str(path), "--resamples", "100", "--to", "json"]) == 0
    used = json.loads(capsys.readouterr().out)["verdict"]["fleiss_kappa"]["resamples"]
    assert 0 < used < 100
    assert main(["agreement", str(path), "--resamples", "100"]) == 0
    printed = capsys.readouterr().out
    lines = {line.split("  (")[0].split()[0]: line for line in printed.splitlines() if "interval" in line}
    assert f"from {used} of 100 resamples; undefined on the other {100 - used}, all one label;" in lines["Fleiss'"]
    assert "resamples" not in lines["percent"]  # defined on every resample: nothing left out, nothing said
    # and 4 items are too few for a bootstrap interval to be as wide as it should: said
    verdicts = printed.split("on verdicts:")[1].split("on reasons:")[0]
    assert verdicts.count("; from only 4 items, narrower than it should be)") == 5, verdicts  # four figures and the pair


def test_agreement_gives_no_interval_from_a_single_item(tmp_path, capsys):
    """Three reviewers on one item: every bootstrap resample is that item again, and the text said "percent agreement
    0.333 (95% interval 0.333 to 0.333)" and "Cohen's kappa ana / chen: 0.000 (95% interval 0.000 to 0.000) on 1 item"."""
    path = write_jsonl(_set(1), tmp_path / "team.jsonl")
    plan = TeamPlan.create(path, ["ana", "bo", "chen"], 3)
    plan.save()
    for reviewer in ("ana", "bo", "chen"):
        with ReviewSession.open(path, reviewer=reviewer, team=plan, clock=FakeClock()) as session:
            session.accept() if reviewer != "chen" else session.reject(reason="ambiguous")
    capsys.readouterr()
    assert main(["agreement", str(path), "--resamples", "100"]) == 0
    out = capsys.readouterr().out
    assert "95% interval" not in out
    assert "percent agreement      33.3%  (no interval from a single item)" in out
    assert "Cohen's kappa ana / chen: 0.000  (no interval from a single item) on 1 item" in out
    # and the JSON report says the same: no interval, not one from 0.333 to 0.333 out of 100 resamples
    assert main(["agreement", str(path), "--resamples", "100", "--to", "json"]) == 0
    verdict = json.loads(capsys.readouterr().out)["verdict"]
    estimates = [verdict[name] for name in ("percent_agreement", "fleiss_kappa", "krippendorff_alpha", "gwet_ac1")]
    estimates += [estimate for pair in verdict["pairs"] for estimate in (pair["observed"], pair["kappa"])]
    assert all(e["low"] is None and e["high"] is None for e in estimates), estimates


def test_the_items_compared_are_not_called_decided_where_a_skip_counts_as_decided(tmp_path, capsys):
    """bo skipped one of the 4 items both accepted or skipped: status said "bo: decided 4 of 4" (a skip is a decision
    there) and then "items decided by more than one reviewer so far: 3", which by the same word are 4."""
    path = _two_reviewers(
        tmp_path, {"ana": [lambda s: s.accept()] * 4, "bo": [lambda s: s.accept()] * 3 + [lambda s: s.skip()]}
    )
    capsys.readouterr()
    assert main(["status", str(path)]) == 0
    out = capsys.readouterr().out
    assert "bo: decided 4 of 4" in out
    assert "items judged by more than one reviewer so far (skips aside): 3;" in out
    assert main(["agreement", str(path), "--resamples", "0"]) == 0
    out = capsys.readouterr().out
    assert "on verdicts: 3 items judged by more than one reviewer (skips aside)" in out
    assert "decided by more than one" not in out


def test_an_interval_from_ten_items_or_more_carries_no_caution(tmp_path, capsys):
    path = write_jsonl(_set(10), tmp_path / "team.jsonl")
    plan = TeamPlan.create(path, ["ana", "bo"], 2)
    plan.save()
    for reviewer in ("ana", "bo"):
        with ReviewSession.open(path, reviewer=reviewer, team=plan, clock=FakeClock()) as session:
            for k in range(10):
                session.reject(reason="ambiguous") if (reviewer, k) == ("bo", 9) else session.accept()
    capsys.readouterr()
    assert main(["agreement", str(path), "--resamples", "100"]) == 0
    verdicts = capsys.readouterr().out.split("on verdicts:")[1].split("on reasons:")[0]
    assert "10 items judged" in verdicts and "95% interval" in verdicts and "narrower than it should be" not in verdicts
    # Percent agreement as a percentage, its interval too (9 of 10 agree); the coefficients as numbers.
    (percent,) = [line for line in verdicts.splitlines() if "percent agreement" in line]
    assert percent.split()[2] == "90.0%" and "%  (95% interval " in percent and percent.rstrip().endswith("%)"), percent
    (fleiss,) = [line for line in verdicts.splitlines() if "Fleiss' kappa" in line]
    assert "%" not in fleiss.replace("95% interval", ""), fleiss


def test_a_file_where_the_team_folder_goes_is_named_as_what_it_is(tmp_path, capsys):
    """A stray file named quiz.jsonl.reviews made status say "quiz.jsonl.reviews/plan.json: cannot read the team plan
    (Not a directory)", naming a path that is not there."""
    from reviewtui.evalset.io import write_jsonl

    path = write_jsonl(cg.EvalSet(id="stray", items=(cg.EvalItem(id="q1", question="Who opens the hall?"),)), tmp_path / "quiz.jsonl")
    (tmp_path / "quiz.jsonl.reviews").write_text("notes\n")
    for command in (["status", str(path)], ["export", str(path)]):
        assert main(command) == 2
        err = capsys.readouterr().err
        assert f"{tmp_path / 'quiz.jsonl.reviews'}: is a file, where reviewtui keeps a team's plan" in err, err
        assert "plan.json" not in err

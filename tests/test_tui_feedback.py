"""Small things a reviewer sees: undo says what it took back, c keeps the item's warnings in view, the palette names keys."""

from __future__ import annotations

import reviewtui as cg
from reviewtui.evalset.checks.warninglog import LogEntry
from reviewtui.evalset.model.flag import Flag, Severity
from tests.tui_helpers import fixed_scan, make_app, make_items, open_session, review_app, screen_text, settle


def _messages(app) -> list[str]:
    return [str(n.message) for n in app._notifications]


async def test_undo_and_redo_say_what_they_changed(tmp_path):
    session = open_session(tmp_path, cg.EvalSet(id="u", items=make_items(3)))
    app = make_app(session, scan=fixed_scan())
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app)
            await pilot.press("a", "u")
            await pilot.pause()
            assert "Undone: q1 was accepted, now undecided" in _messages(app)
            await pilot.press("U")
            await pilot.pause()
            assert "Redone: q1 was undecided, now accepted" in _messages(app)
    finally:
        session.close()


async def test_opening_the_set_cautions_keeps_the_items_warnings_in_view(tmp_path):
    session = open_session(tmp_path, cg.EvalSet(id="c", items=make_items(3)))
    cautions = [LogEntry("caution", "evalset", f"set-level caution number {k} " + "with some length " * 4) for k in range(30)]
    flags = {"q1": [Flag("too-short", Severity.MEDIUM, "UNIQUE-ITEM-WARNING")]}
    app = make_app(session, scan=fixed_scan(flags, cautions))
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            assert "UNIQUE-ITEM-WARNING" in screen_text(app)
            await pilot.press("c")
            await pilot.pause()
            await pilot.pause()
            assert "UNIQUE-ITEM-WARNING" in screen_text(app)
    finally:
        session.close()


async def test_the_palette_names_keys_as_they_are_typed(tmp_path):
    session = open_session(tmp_path, cg.EvalSet(id="p", items=make_items(2)))
    app = make_app(session, scan=fixed_scan())
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app)
            helps = [command.help for command in app.get_system_commands(app.screen)]
            assert any("(key ?)" in h for h in helps) and any("(key /)" in h for h in helps)
            assert not any("question_mark" in h or "slash" in h for h in helps)
    finally:
        session.close()


async def test_the_palette_offers_no_maximize_of_a_review_pane(tmp_path):
    """Maximize filled the screen with the focused pane: no key bar, no status line, no warnings, while the
    decision keys still acted, and nothing said how to get back."""
    session = open_session(tmp_path, cg.EvalSet(id="p", items=make_items(2)))
    app = make_app(session, scan=fixed_scan())
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app)
            for pane in app.screen.query("TextPane"):
                pane.focus()
                await pilot.pause()
                titles = [command.title for command in app.get_system_commands(app.screen)]
                assert "Maximize" not in titles, (pane.id, titles)
    finally:
        session.close()


async def test_a_type_or_an_edit_on_a_rejected_or_skipped_item_says_it_now_keeps_it(tmp_path):
    """m on a rejected item decided it as edited, kept in the export, and only the top bar's counts moved."""
    session = open_session(tmp_path, cg.EvalSet(id="m", items=make_items(5)))
    app = make_app(session, scan=fixed_scan())
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app)
            session.reject(reason="ambiguous")  # q1
            session.skip()  # q2
            session.goto("q1")
            app.refresh_review()
            await pilot.press("m", "4")
            await pilot.pause()
            assert session.queue.decision_for("q1").verdict.value == "edited"
            said = "'q1' was rejected; the new type decides it as edited, which keeps it in the set (u takes that back)"
            assert said in _messages(app)
            session.goto("q1")
            app.refresh_review()
            await pilot.press("m", "3")  # an edited item given another type: nothing to say
            await pilot.pause()
            assert session.queue.decision_for("q1").after.qtype == "comparative"
            assert sum("decides it as" in m for m in _messages(app)) == 1
            session.goto("q2")
            app.refresh_review()
            await pilot.press("m", "4")
            await pilot.pause()
            assert "'q2' was skipped; the new type decides it as edited, which keeps it in the set (u takes that back)" in _messages(app)
            session.goto("q3")
            session.reject(reason="ambiguous")
            session.goto("q3")
            app.refresh_review()
            await pilot.press("e", "end", "space", "x", "ctrl+s")
            await pilot.pause()
            assert session.queue.decision_for("q3").after.question.endswith(" x")
            assert "'q3' was rejected; the edit decides it as edited, which keeps it in the set (u takes that back)" in _messages(app)
    finally:
        session.close()


async def test_the_summary_counts_the_items_the_file_marks_reviewed_among_those_the_export_keeps(tmp_path):
    """It said the export keeps the accepted and edited items; the export also held the items the file marks
    reviewed, which the review leaves out (17 written where the summary said 14)."""
    from reviewtui.evalset.io import read_jsonl

    items = make_items(4)
    marked = items[3].with_meta({"reviewed": True})
    session = open_session(tmp_path, cg.EvalSet(id="s", items=(*items[:3], marked)))
    app = make_app(session, scan=fixed_scan())
    try:
        async with app.run_test(size=(110, 40)) as pilot:
            await settle(pilot, app)
            await pilot.press("a", "a", "s")
            await pilot.pause()
            assert type(app.screen).__name__ == "SummaryScreen"
            said = "The export keeps 2 items (accepted and edited) as the next version of the set, and the 1 item the file marks reviewed, as they are."
            assert said in _summary_text(app)
            path = session.export()
        assert len(read_jsonl(path)) == 3
    finally:
        session.close()


def _summary_text(app) -> str:
    return str(app.screen.query_one("#summary-body").render())


async def test_in_a_teams_share_the_type_on_a_rejected_item_is_said_to_be_a_vote(tmp_path):
    from reviewtui.evalset.io import write_jsonl
    from reviewtui.evalset.review.session import ReviewSession
    from reviewtui.evalset.review.team import TeamPlan
    from tests.tui_helpers import FakeClock

    path = write_jsonl(cg.EvalSet(id="t", items=make_items(3)), tmp_path / "t.jsonl")
    plan = TeamPlan.create(path, ["ana", "bo"], 2)
    plan.save()
    session = ReviewSession.open(path, reviewer="ana", team=plan, clock=FakeClock())
    app = make_app(session, scan=fixed_scan())
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app)
            session.reject(reason="ambiguous")
            session.goto("q1")
            app.refresh_review()
            await pilot.press("m", "4")
            await pilot.pause()
            assert "'q1' was rejected; the new type decides it as edited, your vote now keeps it (u takes that back)" in _messages(app)
    finally:
        session.close()


async def test_undoing_a_note_on_a_decided_item_says_so(tmp_path):
    session = open_session(tmp_path, cg.EvalSet(id="n", items=make_items(3)))
    app = make_app(session, scan=fixed_scan())
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app)
            session.accept()
            session.goto("q1")
            session.note("checked twice")
            app.refresh_review()
            await pilot.press("u")
            await pilot.pause()
            assert "Undone: the note on q1 (accepted)" in _messages(app)  # it said "q1 was accepted, now accepted"
    finally:
        session.close()


async def test_exporting_before_any_decision_says_the_export_is_the_set_as_it_stands(tmp_path):
    """ctrl+e straight after opening wrote version 2 with nothing decided and said only "exported to"."""
    session = open_session(tmp_path, cg.EvalSet(id="early", items=make_items(3)))
    app = make_app(session, scan=fixed_scan())
    try:
        async with app.run_test(size=(110, 40)) as pilot:
            await settle(pilot, app)
            await pilot.press("ctrl+e")
            await pilot.pause()
            early = [n for n in app._notifications if "exported to" in str(n.message)]
            assert early and early[-1].severity == "warning"
            assert "nothing has been decided yet: it is the set as it stands" in str(early[-1].message)
            await pilot.press("a", "ctrl+e")
            await pilot.pause()
            later = [n for n in app._notifications if "exported to" in str(n.message)][-1]
            assert later.severity == "information" and "nothing" not in str(later.message)
    finally:
        session.close()


async def test_exporting_the_same_decisions_again_from_the_app_says_which_version_holds_them(tmp_path):
    """e pressed twice on the summary wrote version 2 and an identical version 3, and said only "exported to" of
    each; the export command names the earlier version holding the same items, and so does the app now."""
    async with review_app(tmp_path, "twice", items=2, size=(110, 40)) as (app, pilot, _):
        await pilot.press("a", "a")
        await settle(pilot, app)
        await pilot.press("e")
        await settle(pilot, app)
        first = [str(n.message) for n in app._notifications if "exported to" in str(n.message)]
        assert len(first) == 1 and "holds these same items" not in first[0]
        await pilot.press("e")
        await settle(pilot, app)
        said = [str(n.message) for n in app._notifications if "exported to" in str(n.message)]
        assert len(said) == 2 and said[1].endswith("; twice.v2.jsonl holds these same items: the same decisions were exported before")
        assert said[1].startswith("exported to ") and "twice.v3.jsonl" in said[1]


async def test_the_help_says_the_digits_adopt_a_decision_only_when_adjudicating(tmp_path):
    session = open_session(tmp_path, cg.EvalSet(id="solo", items=make_items(3)))
    app = make_app(session, scan=fixed_scan())
    try:
        async with app.run_test(size=(110, 40)) as pilot:
            await settle(pilot, app)
            (row,) = [r for r in app.key_rows() if r.keys == "1–9"]
            assert row.description == "Adopt reviewer N's decision (when adjudicating)"
    finally:
        session.close()


async def test_the_apps_export_counts_the_items_accepted_past_a_serious_warning(tmp_path):
    """ctrl+e said only "exported to ..." where `reviewtui export` names the items accepted past a high-severity
    warning: a reviewer exporting from the app never heard of them."""
    from reviewtui.evalset.model.flag import Flag, Severity

    high = {"q1": [Flag("conflicting-answers", Severity.HIGH, "two answers", ("q2",))]}
    session = open_session(tmp_path, cg.EvalSet(id="past", items=make_items(3)))
    app = make_app(session, scan=fixed_scan(high))
    try:
        async with app.run_test(size=(110, 40)) as pilot:
            await settle(pilot, app)
            await pilot.press("a", "ctrl+e")
            await pilot.pause()
            said = [str(n.message) for n in app._notifications if "exported to" in str(n.message)][-1]
            assert "; 1 item accepted or edited while a high-severity warning was open (its header lists them)" in said
    finally:
        session.close()


async def test_a_large_export_from_the_app_is_said_before_it_starts(tmp_path, monkeypatch):
    """At a million items ctrl+e froze the screen for ten seconds with nothing said until it was done."""
    from reviewtui.tui.screens.review import ReviewScreen

    monkeypatch.setattr(ReviewScreen, "EXPORT_SAID_FROM", 2)
    session = open_session(tmp_path, cg.EvalSet(id="large", items=make_items(3)))
    app = make_app(session, scan=fixed_scan())
    try:
        async with app.run_test(size=(110, 40)) as pilot:
            await settle(pilot, app)
            await pilot.press("a", "ctrl+e")
            await settle(pilot, app)
            said = [str(n.message) for n in app._notifications]
            first = next(k for k, m in enumerate(said) if m.startswith("exporting 3 items"))
            assert any(m.startswith("exported to ") for m in said[first + 1 :])
    finally:
        session.close()


async def test_x_without_a_corpus_on_a_set_whose_file_holds_its_documents_says_how_to_write_them(tmp_path):
    """x on a SQuAD set said only "Start with --corpus DIR": the reviewer had no folder; the file holds the documents."""
    import json

    from reviewtui.evalset.review.session import ReviewSession
    from reviewtui.tui.screens.review import _documents_in_file

    squad = tmp_path / "squad.json"
    context = "The library opens at nine. Members may borrow ten books."
    paragraph = {"context": context, "qas": [{"id": "a1", "question": "When does the library open?", "answers": [{"text": "at nine", "answer_start": 17}]}]}
    squad.write_text(json.dumps({"version": "v2.0", "data": [{"title": "Library", "paragraphs": [paragraph]}]}), encoding="utf-8")
    with ReviewSession.open(squad, reviewer="ana") as session:
        assert _documents_in_file(session)
    # converted to JSONL, the set still names SQuAD as its source, but the file holds no document
    from reviewtui.evalset.io import read_squad

    converted = read_squad(squad)
    assert converted.source == "squad"
    async with review_app(tmp_path, "converted", evalset=converted) as (app, pilot, session):
        assert not _documents_in_file(session)
        await pilot.press("x")
        await pilot.pause()
        said = [m for m in _messages(app) if m.startswith("Start with --corpus DIR")]
        assert len(said) == 1 and "--corpus-out" not in said[0], _messages(app)


async def test_m_offers_the_sets_own_types_not_only_the_items_own(tmp_path):
    """A CSV's category column is read as the type: m offered the built-in types and the item's own category only,
    so 'benefits' could not be moved to 'expense', another category of the same set."""
    items = tuple(
        item.replace(qtype=qtype) for item, qtype in zip(make_items(3), ("benefits", "expense", "factoid"))
    )
    evalset = cg.EvalSet(id="cats", items=items)
    async with review_app(tmp_path, "cats", evalset=evalset) as (app, pilot, session):
        await pilot.press("m")
        await pilot.pause()
        assert "expense" in screen_text(app)
        await pilot.press("9")  # 7 built-in types, then the set's own in order: benefits 8, expense 9
        await pilot.pause()
        assert session.queue.decision_for("q1").after.qtype == "expense"

"""Every key of the review screen, driven through the real app (short scripts; the logic is tested in the core)."""

from __future__ import annotations

import pytest

import reviewtui as cg
from reviewtui.evalset.io import read_jsonl
from reviewtui.evalset.model.flag import Flag, Severity
from reviewtui.evalset.review.queue import Verdict
from tests.tui_helpers import fixed_scan, make_app, make_items, open_session, screen_text, settle


@pytest.fixture
def session(tmp_path):
    items = list(make_items(6))
    items[2] = items[2].replace(
        anchors=(
            cg.GoldAnchor(source_id="a.md", quote="first quote"),
            cg.GoldAnchor(source_id="b.md", quote="second quote", grade=1),
        )
    )
    session = open_session(tmp_path, cg.EvalSet(id="keys", items=tuple(items)))
    yield session
    session.close()


def flagged(*ids: str) -> dict[str, list[Flag]]:
    return {item_id: [Flag("too-short", Severity.MEDIUM, "only 2 words")] for item_id in ids}


async def test_accept_skip_undo_redo(session):
    app = make_app(session, scan=fixed_scan())
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        await pilot.press("a", "s")
        queue = session.queue
        assert [queue.verdict_for(i) for i in (0, 1)] == [Verdict.ACCEPTED, Verdict.SKIPPED]
        assert queue.current.id == "q3"
        await pilot.press("u")
        assert queue.verdict_for(1) is Verdict.PENDING and queue.current.id == "q2"
        await pilot.press("U")
        assert queue.verdict_for(1) is Verdict.SKIPPED and queue.current.id == "q3"
        assert "✓1" in screen_text(app) and "↷1" in screen_text(app)


async def test_reject_with_reason_and_note_and_cancel(session):
    app = make_app(session, scan=fixed_scan())
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        await pilot.press("r", "escape")
        assert session.queue.decided == 0
        await pilot.press("r", "4", *"dup of q9", "enter")
        decision = session.queue.decision_for("q1")
        assert decision.verdict is Verdict.REJECTED
        assert decision.reason.value == "duplicate" and decision.note == "dup of q9"
        # Enter right away rejects without a reason
        await pilot.press("r", "enter")
        decision = session.queue.decision_for("q2")
        assert decision.verdict is Verdict.REJECTED and decision.reason is None
        # typing a letter goes straight into the note
        await pilot.press("r", *"vague", "enter")
        assert session.queue.decision_for("q3").note == "vague"


async def test_edit_saves_changes_and_escape_cancels(session):
    app = make_app(session, scan=fixed_scan())
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot, app)
        await pilot.press("e", "x", "escape")
        assert session.queue.decided == 0
        await pilot.press("e")
        app.screen.query_one("#edit-question").load_text("A better, clearer question?")
        await pilot.press("ctrl+s")
        decision = session.queue.decision_for("q1")
        assert decision.verdict is Verdict.EDITED
        assert decision.after.question == "A better, clearer question?"
        assert decision.before.question == "Question number 1 about the handbook policy?"


async def test_edit_second_anchor(session):
    app = make_app(session, scan=fixed_scan())
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot, app)
        await pilot.press("g", *"q3", "enter")
        await pilot.press("e")
        app.screen.query_one("#edit-anchor").value = 1
        await pilot.pause()
        app.screen.query_one("#edit-quote").load_text("a corrected second quote")
        await pilot.press("ctrl+s")
        await pilot.pause()
        after = session.queue.decision_for("q3").after
        assert [a.quote for a in after.anchors] == ["first quote", "a corrected second quote"]


async def test_mark_type_with_a_digit(session):
    app = make_app(session, scan=fixed_scan())
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        await pilot.press("m", "4")
        decision = session.queue.decision_for("q1")
        assert decision.verdict is Verdict.EDITED and decision.after.qtype == cg.QuestionType.NUMERIC


async def test_mark_with_the_type_the_item_has_accepts_it_and_says_so(tmp_path):
    """Choosing the item's own type closed the picker and did nothing: no decision, no word."""
    from tests.tui_helpers import open_session

    qtype = cg.QuestionType.ALL[2]
    own = open_session(tmp_path, cg.EvalSet(id="m", items=(cg.EvalItem("t1", "Which form?", qtype=qtype), cg.EvalItem("t2", "Who?"))))
    app = make_app(own, scan=fixed_scan())
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app)
            await pilot.press("m", "3")
            await pilot.pause()
            decision = own.queue.decision_for("t1")
            assert decision is not None and decision.verdict is Verdict.ACCEPTED
            assert own.queue.current.id == "t2"  # decided, so on to the next, as any decision goes
            said = [str(n.message) for n in app._notifications]
            assert f"The type stays {qtype}: 't1' is accepted as it is." in said, said
    finally:
        own.close()


async def test_note_navigation_and_goto(session):
    app = make_app(session, scan=fixed_scan())
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        await pilot.press("n", *"check later", "enter")
        assert session.queue.note_for("q1") == "check later" and session.queue.decided == 0
        assert "check later" in screen_text(app)
        await pilot.press("right", "right")
        assert session.queue.current.id == "q3"
        await pilot.press("left")
        assert session.queue.current.id == "q2"
        await pilot.press("g", *"q5", "enter")
        assert session.queue.current.id == "q5"
        await pilot.press("g", *"#1", "enter")
        assert session.queue.current.id == "q1"
        await pilot.press("g", *"nope", "enter")
        assert session.queue.current.id == "q1"  # an unknown id is reported, nothing moves


async def _searched(pilot, app, text: str) -> None:
    """``/``, the text, Enter, and the search's hits shown."""
    await pilot.press("slash", *text, "enter")
    await app.workers.wait_for_complete()
    await pilot.pause()


async def test_search_jumps_to_the_hit(session):
    app = make_app(session, scan=fixed_scan())
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        await _searched(pilot, app, "sentence 4")
        await pilot.press("down", "enter")
        assert session.queue.current.id == "q4"
        await pilot.press("slash")  # the last query comes back, ready to run again
        assert app.screen.query_one("#query").value == "sentence 4"


async def test_flagged_first_toggles_the_order(session):
    app = make_app(session, scan=fixed_scan(flagged("q5", "q6")))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        await pilot.press("f")
        assert session.queue.order is not None
        assert session.queue.current.id == "q5"  # the first flagged item
        await pilot.press("a")
        await pilot.pause()
        assert session.queue.current.id == "q6"  # then the next flagged one
        assert "flagged first" in screen_text(app)
        await pilot.press("f")
        assert session.queue.order is None


async def test_quotes_history_cautions_and_help(session):
    app = make_app(session, scan=fixed_scan())
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot, app)
        await pilot.press("g", *"q3", "enter", "right_square_bracket")
        assert "▶ quote 2/2" in screen_text(app)
        await pilot.press("h")
        assert not app.screen.query_one("#history-pane").display
        assert "▶ set cautions (0)" in screen_text(app)
        await pilot.press("h", "c")
        assert app.screen.query_one("#history-pane").display
        assert "▼ set cautions (0)" in screen_text(app) and "no set-level cautions" in screen_text(app)
        await pilot.press("question_mark")
        text = screen_text(app)
        assert "review.accept" in text and "review.flagged_first" in text
        await pilot.press("escape")
        assert "review.accept" not in screen_text(app)


async def test_export_key_writes_the_next_version(session, tmp_path):
    app = make_app(session, scan=fixed_scan())
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        await pilot.press("a", "r", "enter", "ctrl+e")
        await pilot.pause()
    exported = read_jsonl(tmp_path / "keys.v2.jsonl")
    assert exported.version == 2
    assert [item.id for item in exported] == ["q1", "q3", "q4", "q5", "q6"]
    assert exported.get("q1").meta["verdict"] == "accepted"


async def test_finishing_shows_the_summary_and_quit_closes(session, tmp_path):
    app = make_app(session, scan=fixed_scan())
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        await pilot.press("a", "a", "r", "2", "enter", "a", "s", "a")
        await pilot.pause()
        text = screen_text(app)
        assert "All 6 items have a decision" in text and "ambiguous" in text
        await pilot.press("e")
        await pilot.pause()
        assert (tmp_path / "keys.v2.jsonl").exists()
        await pilot.press("b", "ctrl+q")
    assert app.return_code == 0


@pytest.mark.parametrize(("keymap", "undo"), [({}, "u"), ({"review.undo": "z"}, "z")], ids=["u", "remapped undo"])
async def test_undo_on_the_summary_takes_the_last_decision_back(session, keymap, undo):
    from reviewtui.evalset.io.settings import AppConfig

    app = make_app(session, scan=fixed_scan(), config=AppConfig(keymap=keymap))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        await pilot.press("a", "a", "a", "a", "a", "s")
        await pilot.pause()
        assert "All 6 items have a decision" in screen_text(app)
        await pilot.press(undo)  # the undo key of the review screen, remapped or not
        await pilot.pause()
        assert type(app.screen).__name__ == "ReviewScreen"
        assert session.queue.decision_for("q6") is None and session.queue.current.id == "q6"
        await pilot.press("a")  # decided again: the summary comes back, with the new verdict
        await pilot.pause()
        assert "All 6 items have a decision" in screen_text(app)
        assert session.queue.decision_for("q6").verdict.value == "accepted"


async def test_every_review_key_is_in_the_command_palette(session):
    from reviewtui.tui.screens.review import REVIEW_BINDINGS

    app = make_app(session, scan=fixed_scan())
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        titles = {command.title for command in app.get_system_commands(app.screen)}
        assert {binding.description for binding in REVIEW_BINDINGS} <= titles
        assert all(binding.id for binding in REVIEW_BINDINGS)


async def test_typing_after_a_search_goes_on_in_the_field_and_a_changed_query_drops_the_old_hits(session):
    from textual.widgets import OptionList

    app = make_app(session, scan=fixed_scan())
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        await _searched(pilot, app, "sentence 4")
        dialog = app.screen
        hits = dialog.query_one("#hits", OptionList)
        assert hits.option_count == 1 and dialog.focused is hits  # one hit: Enter opens it
        await pilot.press("x", "backspace", "0")
        await pilot.pause()
        assert dialog.query_one("#query").value == "sentence 40"  # the keys reached the field, none lost
        assert hits.option_count == 0  # the hit was for "sentence 4"
        hint = str(dialog.query_one("#search-hint").render())
        assert "found" not in hint and "Enter: search" in hint


async def test_the_summary_comes_back_after_leaving_it_then_undoing_on_the_review_screen(session):
    """Esc left the summary, u on the review screen took the last decision back, and deciding it again showed no
    summary: it counted as shown already."""
    app = make_app(session, scan=fixed_scan())
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        await pilot.press("a", "a", "a", "a", "a", "s")
        await pilot.pause()
        assert type(app.screen).__name__ == "SummaryScreen"
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("u")
        await pilot.pause()
        assert type(app.screen).__name__ == "ReviewScreen" and session.queue.decision_for("q6") is None
        await pilot.press("a")
        await pilot.pause()
        assert type(app.screen).__name__ == "SummaryScreen"


async def test_in_a_narrow_terminal_h_shows_the_history_under_warnings_that_fill_the_side(session):
    """At 80x24 an item's warnings could take all of the side's rows, and `h` then showed the history's
    border, or nothing at all."""
    many = [Flag(f"check-{n}", Severity.MEDIUM, f"reason number {n} of a long list of warnings") for n in range(8)]
    app = make_app(session, scan=fixed_scan({item.id: list(many) for item in session.queue.items}))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("a", "a")
        await pilot.pause()
        history = app.screen.query_one("#history-pane")
        assert not history.display
        await pilot.press("h")
        await pilot.pause()
        assert history.display and history.region.height >= 4  # its border and two entries at least
        text = screen_text(app)
        assert "q1" in text.split("History")[1] and "q2" in text.split("History")[1]  # both decisions, under the title
        assert "check-0" in text  # the warnings are still there, in fewer rows
        await pilot.press("h")
        await pilot.pause()
        assert not history.display
        assert app.screen.query_one("#warnings-pane").region.height > 5  # the rows go back to the warnings


async def test_one_flagged_item_and_one_item_are_said_in_the_singular(tmp_path):
    """HotpotQA's dev sample: `f` said "Flagged first: 1 flagged items come first."; a one-item set's summary
    said "All 1 items have a decision"."""
    one = open_session(tmp_path, cg.EvalSet(id="one", items=tuple(make_items(1))))
    try:
        app = make_app(one, scan=fixed_scan(flagged("q1")))
        async with app.run_test(size=(100, 30), notifications=True) as pilot:
            await settle(pilot, app)
            await pilot.press("f")
            await pilot.pause()
            said = [str(n.message) for n in app._notifications]
            assert "Flagged first: 1 flagged item comes first." in said
            await pilot.press("a")
            await pilot.pause()
            text = screen_text(app)
            assert "The only item has a decision" in text and "All 1 items" not in text
    finally:
        one.close()


async def test_keys_on_the_question_shown_say_so_past_the_last_one(tmp_path):
    """Past the last item, w, p, x and ] did nothing and said nothing, where a and r explain."""
    session = open_session(tmp_path, cg.EvalSet(id="end", items=tuple(make_items(2))))
    try:
        app = make_app(session, scan=fixed_scan())
        async with app.run_test(size=(100, 30), notifications=True) as pilot:
            await settle(pilot, app)
            await pilot.press("a", "right")  # past the last item, one still undecided (no summary)
            await pilot.pause()
            assert session.queue.current is None and type(app.screen).__name__ == "ReviewScreen"
            for key in ("w", "p", "x", "right_square_bracket"):
                before = len(app._notifications)
                await pilot.press(key)
                await pilot.pause()
                said = [str(n.message) for n in list(app._notifications)[before:]]
                assert any(line.startswith("No question is open here, past the last one:") for line in said), (key, said)
    finally:
        session.close()

"""The edit dialog saved untouched is no edit: no journal step, no changed grade, type or text."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Select

import reviewtui as cg
from reviewtui.evalset.model.items import QuestionType
from reviewtui.evalset.text.safe import has_unsafe
from reviewtui.tui.screens.edit import EditScreen
from tests.tui_helpers import fixed_scan, make_app, open_session, review_app, screen_text, settle


def anchor(grade: int, quote: str = "a quote") -> cg.GoldAnchor:
    return cg.GoldAnchor(source_id="doc.md", quote=quote, grade=grade)


UNTOUCHED = [
    cg.EvalItem(id="grade0", question="Q?", answer=None, anchors=(anchor(0),), qtype="factoid"),
    cg.EvalItem(id="grade1", question="Q?", answer="", anchors=(anchor(1),), qtype="my own type"),
    cg.EvalItem(id="grade2", question="Q?", answer="A", anchors=(anchor(2),)),
    cg.EvalItem(id="grade3", question="Q?", answer="A", anchors=(anchor(3),), qtype="factoid"),
    cg.EvalItem(id="quotes", question="Q?", anchors=(anchor(10, "first"), anchor(1, "second"), anchor(3, "third"))),
    cg.EvalItem(id="no-quote", question="Q?", answer="A", qtype="(none)"),  # a type that reads like "no type"
    cg.EvalItem(id="markup-type", question="Q?", qtype="[@click=app.quit]boom[/]"),
    cg.EvalItem(id="controls", question="Q\r\n\t\u202e\u200b?", answer="\u2028", anchors=(anchor(3, "x\x1b[2J\ufeff"),), qtype="\x1b]52;c;aGk=\x07"),
]


async def test_every_item_opened_and_saved_untouched_has_no_changes(tmp_path):
    session = open_session(tmp_path, cg.EvalSet(id="untouched", items=tuple(UNTOUCHED)))
    app = make_app(session, scan=fixed_scan())
    try:
        async with app.run_test(size=(120, 50)) as pilot:
            await settle(pilot, app)
            for item in UNTOUCHED:
                screen = EditScreen(item, QuestionType.ALL)
                await app.push_screen(screen)
                await pilot.pause()
                if item.anchors:
                    grade = screen.query_one("#edit-grade", Select)
                    assert grade.value == item.anchors[0].grade, item.id  # the grade shown is the item's
                changes = screen.collect()
                assert not changes, (item.id, changes)
                await screen.dismiss(None)
            assert app.is_running
    finally:
        session.close()


async def test_e_then_ctrl_s_records_nothing_and_keeps_grade_3(tmp_path):
    items = (
        cg.EvalItem(id="g3", question="Q?", anchors=(anchor(3),), qtype="factoid"),
        cg.EvalItem(id="other", question="Another?"),
    )
    session = open_session(tmp_path, cg.EvalSet(id="g3", items=items))
    app = make_app(session, scan=fixed_scan())
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            before = session.journal_path.stat().st_size
            await pilot.press("e", "ctrl+s")
            await pilot.pause()
            assert session.journal_path.stat().st_size == before  # no journal step at all
            assert session.queue.decided == 0 and session.queue.current.id == "g3"
            assert session.queue.current.anchors[0].grade == 3
            # and says so: saved silently, the next key (a reject meant for the next item) landed on this one
            messages = [str(n.message) for n in app._notifications]
            assert "Nothing changed, so nothing was saved: the item stays as it was." in messages
            # choosing another grade is an edit, and grade 3 stays on offer for the next time
            await pilot.press("e")
            await pilot.pause()
            app.screen.query_one("#edit-grade", Select).value = 1
            await pilot.press("ctrl+s")
            await pilot.pause()
    finally:
        session.close()
    decision = session.queue.decision_for("g3")
    assert decision.after.anchors[0].grade == 1 and decision.before.anchors[0].grade == 3


async def test_type_select_draws_data_literally(tmp_path):
    hostile = "[@click=app.quit]boom[/]\x1b]52;c;aGk=\x07"
    items = (cg.EvalItem(id="t", question="Q?", qtype=hostile), cg.EvalItem(id="u", question="Q2?", qtype="[/]"))
    session = open_session(tmp_path, cg.EvalSet(id="types", items=items))
    app = make_app(session, scan=fixed_scan())
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            await pilot.press("e")
            await pilot.pause()
            select = app.screen.query_one("#edit-type", Select)
            label = select.query_one("#label").visual
            assert "[@click=app.quit]boom[/]␛]52;c;aGk=␇" in (label.plain if isinstance(label, Content) else str(label))
            select.focus()
            await pilot.press("enter")  # the list of types opens
            await pilot.pause()
            text = screen_text(app)
            assert "[@click=app.quit]boom[/]␛]52;c;aGk=␇" in text and not has_unsafe(text)
            await pilot.click(select)  # where a [@click] would be
            await pilot.press("escape", "escape", "right", "e")
            await pilot.pause()
            assert "[/]" in screen_text(app)
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert app.is_running and session.queue.decided == 0
    finally:
        session.close()


async def test_in_a_short_terminal_the_field_tab_moves_to_is_on_screen(tmp_path):
    """At 50x15 the quote was below the dialog's edge: Tab moved there, and typing changed a quote nobody could see."""
    item = cg.EvalItem(id="q", question="What must a new member bring to the front desk?", answer="A photo ID", anchors=(anchor(2),))
    session = open_session(tmp_path, cg.EvalSet(id="short", items=(item,)))
    app = make_app(session, scan=fixed_scan())
    try:
        async with app.run_test(size=(50, 15)) as pilot:
            await settle(pilot, app)
            screen = EditScreen(item, QuestionType.ALL)
            await app.push_screen(screen)
            await pilot.pause(0.5)
            assert screen.query_one(".box").scroll_y == 0  # it opens at its top: the item's id and the first label show
            assert "Edit q" in screen_text(app)
            quote = screen.query_one("#edit-quote")
            quote.focus()
            await pilot.pause()
            await pilot.pause()
            box = screen.query_one(".box")
            assert box.scroll_y > 0
            shown = box.content_region
            assert shown.y <= quote.region.y and quote.region.y < shown.bottom, (quote.region, shown)
            await screen.dismiss(None)
    finally:
        session.close()


async def test_a_question_or_quote_of_characters_that_show_nothing_is_blank(tmp_path):
    """A question of one zero-width space passed the blank check (strip() keeps it) and was saved as an edit."""
    from reviewtui.evalset.text.safe import shows_something

    assert not shows_something("\u200b \u2800\u3164\t") and shows_something("\u200bQ") and shows_something("ana maria")
    item = cg.EvalItem(id="q", question="What must a new member bring?", anchors=(anchor(2),))
    session = open_session(tmp_path, cg.EvalSet(id="blank", items=(item,)))
    app = make_app(session, scan=fixed_scan())
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            for field in ("#edit-question", "#edit-quote"):
                screen = EditScreen(item, QuestionType.ALL)
                await app.push_screen(screen)
                await pilot.pause()
                screen.query_one(field).text = "\u200b\u2060"
                screen.action_save()
                await pilot.pause()
                assert app.screen is screen and not screen.answered, field  # refused, the dialog stays
                assert "cannot be blank" in " ".join(str(n.message) for n in app._notifications)
                await screen.dismiss(None)
                await pilot.pause()
    finally:
        session.close()


async def test_choosing_no_type_clears_the_type(tmp_path):
    """"(none)" chosen for an item with a type was dropped without a word: the dialog closed, the type stayed,
    and Esc did not even say that a change would be lost."""
    item = cg.EvalItem(id="typed", question="Q?", answer="A", anchors=(anchor(2),), qtype="factoid")
    async with review_app(tmp_path, "clear", evalset=cg.EvalSet(id="clear", items=(item, cg.EvalItem(id="next", question="Q2?")))) as (app, pilot, session):
        await pilot.press("e")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, EditScreen)
        screen.query_one("#edit-type", Select).value = -1  # "(none)"
        assert screen.collect().qtype == "" and screen.unsaved() is not None  # a change, guarded like any other
        await pilot.press("ctrl+s")
        await pilot.pause()
    decision = session.queue.decision_for("typed")
    assert decision is not None and decision.after.qtype is None and decision.before.qtype == "factoid"


async def test_in_a_narrow_terminal_the_type_quote_and_grade_choices_read_whole(tmp_path):
    """At 40 columns the three choices shared one row, each a few cells wide: "comparative" was drawn as
    "com", "par", "ati", "ve" on four lines, and the grade as "grad", "e 2:", "answ", ..."""
    item = cg.EvalItem(
        id="q", question="Which is longer?", answer="The first", anchors=(anchor(2, "one"), anchor(2, "two"), anchor(1, "three")),
        qtype="comparative",
    )
    async with review_app(tmp_path, "narrow", evalset=cg.EvalSet(id="narrow", items=(item,)), size=(40, 20)) as (app, pilot, _):
        screen = EditScreen(item, QuestionType.ALL)
        await app.push_screen(screen)
        await pilot.pause()
        for select in screen.query(Select):
            label = select.query_one("#label")
            assert label.region.height == 1, (select.id, label.region)  # one line: the whole choice
        await screen.dismiss(None)


async def test_e_opens_on_the_quote_the_evidence_pane_chose(tmp_path):
    """After ] to quote 2, e opened the dialog on quote 1 (x shows the chosen quote's document): a correction typed
    there, meant for the quote being read, went to another quote (privacy_qa's lb80, three quotes)."""
    item = cg.EvalItem(id="three", question="Q?", anchors=(anchor(2, "first quote"), anchor(2, "second quote"), anchor(1, "third")))
    session = open_session(tmp_path, cg.EvalSet(id="quotes", items=(item, cg.EvalItem(id="other", question="Another?"))))
    app = make_app(session, scan=fixed_scan())
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            await pilot.press("right_square_bracket", "e")
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, EditScreen)
            assert screen.query_one("#edit-anchor", Select).value == 1
            assert screen.query_one("#edit-quote").text == "second quote"
            screen.query_one("#edit-quote").load_text("second quote, corrected")
            await pilot.press("ctrl+s")
            await settle(pilot, app)
            edited = session.queue.shown(0)
            assert [a.quote for a in edited.anchors] == ["first quote", "second quote, corrected", "third"]
    finally:
        session.close()

"""Every dialog stays usable at 80x24, and degrades visibly (scrolling) below it."""

from __future__ import annotations

import pytest
from textual.app import App

import reviewtui as cg
from reviewtui.evalset.review.queue import RejectReason
from tests.tui_helpers import fixed_scan, make_app, open_session, review_app, screen_text, settle


def _set() -> cg.EvalSet:
    long_answer = "One form of photo ID and one proof of address dated within the last three months. " * 3
    anchors = (cg.GoldAnchor(source_id="membership handbook.md", quote="To join, bring one form of photo ID. " * 4),)
    items = tuple(
        cg.EvalItem(id=f"q{n}", question=f"What must a new member bring to the front desk to join, case {n}?", answer=long_answer, anchors=anchors)
        for n in range(1, 4)
    )
    return cg.EvalSet(id="small", items=items)


async def _screen(tmp_path, size, *keys) -> tuple[str, object]:
    session = open_session(tmp_path, _set())
    app = make_app(session, scan=fixed_scan())
    try:
        async with app.run_test(size=size) as pilot:
            await settle(pilot, app)
            for key in keys:
                await pilot.press(key)
                await pilot.pause()
            return screen_text(app), session.queue.decision_for("q1")
    finally:
        session.close()


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
async def test_the_reject_dialog_shows_every_reason_the_note_and_the_hint(tmp_path, size):
    text, _ = await _screen(tmp_path, size, "r")
    for number, reason in enumerate(RejectReason, start=1):
        assert f"{number} {reason.value}" in text, (reason, text)
    assert "Note" in text and "Enter: reject" in text, text


async def test_wrong_answer_is_a_reason(tmp_path):
    _, decision = await _screen(tmp_path, (80, 24), "r", "7", "enter")
    assert decision is not None and decision.reason is RejectReason.WRONG_ANSWER


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
async def test_the_edit_dialog_shows_the_quote_field(tmp_path, size):
    text, _ = await _screen(tmp_path, size, "e")
    assert "Quote from membership handbook.md" in text, text
    assert "ctrl+s" in text, text


async def test_at_80x24_the_edit_dialog_shows_a_two_line_answer_whole(tmp_path):
    """The answer field had room for one line on a terminal this short: the demo's q02 showed its answer cut after
    "dated", with blank lines to spare in the quote field below it."""
    answer = "One form of photo ID and one proof of address dated within the last three months."
    item = cg.EvalItem(
        id="q02", question="What must a new member bring to the front desk in order to join?", answer=answer,
        anchors=(cg.GoldAnchor("membership handbook.md", "To join, bring one form of photo ID and one proof of address."),),
    )
    async with review_app(tmp_path, "edit-answer", evalset=cg.EvalSet(id="s", items=(item,)), size=(80, 24)) as (app, pilot, _):
        await pilot.press("e")
        await pilot.pause()
        text = screen_text(app)
        assert "within the last three months." in text and "dated" in text, text
        assert "To join, bring one form" in text and "ctrl+s: save" in text, text


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
async def test_help_shows_many_keys_and_says_how_panes_scroll(tmp_path, size):
    text, _ = await _screen(tmp_path, size, "question_mark")
    shown = sum(name in text for name in ("Accept", "Reject", "Skip", "Edit", "Type", "Undo", "Redo", "Note"))
    assert shown >= 6, text
    assert "PgUp" in text or "scroll" in text, text


async def test_the_document_opens_at_the_start_of_a_long_quote_with_text_above_it(tmp_path):
    from reviewtui.evalset.evidence.corpus import Corpus

    before = "".join(f"Earlier paragraph {n} about opening hours.\n" for n in range(60))
    quote = " ".join(f"Rule {n}: tools go back clean and on time." for n in range(40))
    after = "".join(f"Later paragraph {n}.\n" for n in range(60))
    corpus = Corpus.from_texts({"rules.md": before + quote + "\n" + after})
    item = cg.EvalItem(id="long", question="What are the borrowing rules for tools?", anchors=(cg.GoldAnchor("rules.md", quote),))
    session = open_session(tmp_path, cg.EvalSet(id="doc", items=(item,)))
    app = make_app(session, scan=fixed_scan(), corpus=corpus)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            await pilot.press("x")
            await pilot.pause()
            await pilot.pause()
            text = screen_text(app)
            assert "Rule 0: tools go back clean" in text  # the quote's first line
            assert "Earlier paragraph 59 about opening hours." in text  # and what comes before it
            assert app.screen.query_one("#document").selected_text == quote
    finally:
        session.close()


def _two_line_question_set() -> cg.EvalSet:
    """HotpotQA-like items: a question that wraps to two lines at 80 columns, a short answer."""
    question = 'The band who released the debut album "Tinted Windows" had their first performance in what city, {}?'
    items = tuple(
        cg.EvalItem(id=f"5a8ce55f554299441c6b9f6{n}", question=question.format(n), answer=f"Tulsa {n}", qtype="multi_hop")
        for n in range(1, 4)
    )
    return cg.EvalSet(id="hotpot-like", items=items)


def _question_rows(app) -> list[str]:
    """The question pane's rows as drawn (its border and scrollbar column left out)."""
    pane = app.screen.query_one("#question-pane")
    region = pane.region
    rows = screen_text(app).splitlines()[region.y + 1 : region.bottom - 1]
    return [row[region.x + 1 : region.right - 2].strip() for row in rows]


async def test_a_short_terminal_shows_the_answer_of_a_two_line_question(tmp_path):
    session = open_session(tmp_path, _two_line_question_set())
    app = make_app(session, scan=fixed_scan())
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            rows = _question_rows(app)
            assert any(row.startswith("Answer Tulsa 1") for row in rows), rows
            assert "" not in rows[: rows.index("Answer Tulsa 1")], rows  # no blank line above the answer
            await pilot.press("s")
            await pilot.pause()
            assert any(row.startswith("Answer Tulsa 2") for row in _question_rows(app)), _question_rows(app)
            # A taller terminal has room for the blank lines again, and a short one takes them away once more.
            await pilot.resize_terminal(80, 40)
            await pilot.pause()
            rows = _question_rows(app)
            assert rows[1] == "" and "Answer Tulsa 2" in rows, rows
            await pilot.resize_terminal(80, 24)
            await pilot.pause()
            assert "" not in (rows := _question_rows(app))[: rows.index("Answer Tulsa 2")], rows
    finally:
        session.close()


class _TopBarOnly(App):
    """The top bar alone, for the tests of how it fits its width."""

    def compose(self):
        from reviewtui.tui.widgets.topbar import TopBar

        yield TopBar()


async def test_the_top_bar_keeps_whose_share_it_is_whole_and_cuts_the_set_name_instead():
    """At 80 columns the bar read "ana's s…" (or "dee adj…"), cut differently from one decision to the next."""
    from reviewtui.tui.widgets.topbar import TopBar

    for width, role in ((80, "ana's share"), (80, "dee adjudicating"), (60, "dee adjudicating")):
        app = _TopBarOnly()
        async with app.run_test(size=(width, 3)) as pilot:
            bar = app.query_one(TopBar)
            bar.show_set("wrenfield_tools", 1, role)
            bar.show_progress(12, 20, {"accepted": 10, "rejected": 2}, 1476.0, 300.0)
            await pilot.pause()
            assert role in bar.text and "12/20" in bar.text, (width, bar.text)


async def test_a_narrow_top_bar_never_cuts_a_count_into_another_number():
    """At 40 columns the counts ran over the edge and were cut there: 5,000 skipped read "↷5"."""
    import re

    from reviewtui.tui.render import VERDICT_MARK
    from reviewtui.tui.widgets.topbar import TopBar

    counts = {"accepted": 10_001, "rejected": 120, "edited": 37, "skipped": 5_000}
    for width in (30, 40, 50):
        app = _TopBarOnly()
        async with app.run_test(size=(width, 3)) as pilot:
            bar = app.query_one(TopBar)
            bar.show_set("synthetic-100000-s0", 1)
            bar.show_progress(15_158, 69_694, counts, 3000.0, 600.0)
            await pilot.pause()
            text = bar.text
            assert len(text) <= width, (width, text)
            for verdict, number in counts.items():
                shown = re.search(re.escape(VERDICT_MARK[verdict]) + r"([0-9,]*)", text)
                assert shown is None or shown.group(1) == f"{number:,}", (width, text)
            decided = re.search(r"([0-9,]*)/([0-9,]*)", text)
            assert decided is None or decided.groups() == ("15,158", "69,694"), (width, text)


def _three_quote_set() -> cg.EvalSet:
    """One item with three quotes, each a few lines long at 80 columns: at 80x24 the evidence pane shows one."""
    anchors = tuple(
        cg.GoldAnchor(source_id=f"doc{n}.md", quote=f"Quote {n} begins here. " + "It goes on about the rules of the library. " * 4)
        for n in range(1, 4)
    )
    item = cg.EvalItem(id="q1", question="What are the rules, and where are they written down?", answer="Three of them.", anchors=anchors)
    return cg.EvalSet(id="quotes", items=(item,))


async def test_the_next_quote_key_brings_the_quote_it_selects_into_view(tmp_path):
    """At 80x24, ] selected quote 2 and the evidence pane stayed at quote 1: the key seemed to do nothing."""
    async with review_app(tmp_path, "quotes", evalset=_three_quote_set(), size=(80, 24)) as (app, pilot, _):
        assert "▶ quote 1/3" in screen_text(app) and "Quote 3 begins" not in screen_text(app)
        for key, shown in (("right_square_bracket", 2), ("right_square_bracket", 3), ("left_square_bracket", 2)):
            await pilot.press(key)
            await pilot.pause()
            text = screen_text(app)
            assert f"▶ quote {shown}/3" in text and f"Quote {shown} begins here." in text, (key, shown, text)
        await pilot.press("right_square_bracket", "right_square_bracket")  # 3, then round to 1
        await pilot.pause()
        assert "▶ quote 1/3" in screen_text(app) and "Quote 1 begins here." in screen_text(app)


async def test_the_quote_keys_on_one_quote_bring_it_back_to_the_top_and_on_none_say_so(tmp_path):
    """With fewer than two quotes, ] and [ did nothing and said nothing: a long quote scrolled down stayed there."""
    long_quote = cg.EvalItem(
        id="q1",
        question="What are the rules?",
        anchors=(cg.GoldAnchor(source_id="doc1.md", quote="Quote 1 begins here. " + "It goes on about the rules. " * 60),),
    )
    no_quote = cg.EvalItem(id="q2", question="What is the library called?", answer="Wrenfield.")
    async with review_app(tmp_path, "one", evalset=cg.EvalSet(id="one", items=(long_quote, no_quote)), size=(80, 24)) as (
        app,
        pilot,
        _,
    ):
        pane = app.screen.query_one("#evidence-pane")
        pane.scroll_end(animate=False)
        await pilot.pause()
        assert pane.scroll_y > 0 and "Quote 1 begins here." not in screen_text(app)
        await pilot.press("right_square_bracket")
        await pilot.pause()
        assert pane.scroll_y == 0 and "Quote 1 begins here." in screen_text(app)
        await pilot.press("a")  # on to the item without a quote
        await pilot.pause()
        await pilot.press("left_square_bracket")
        await pilot.pause()
        assert "This question has no quote to move to." in [str(n.message) for n in app._notifications]


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_toast_leaves_the_status_line_and_the_key_bar_in_sight(tmp_path, size):
    """A toast covered the status line (the item count, the position) for its few seconds."""
    from textual.widgets._toast import Toast

    from tests.tui_helpers import fixed_scan, make_app, make_items, open_session, settle

    session = open_session(tmp_path, cg.EvalSet(id="toast", items=make_items(3)))
    app = make_app(session, scan=fixed_scan())
    try:
        async with app.run_test(size=size, notifications=True) as pilot:  # the test harness hides toasts otherwise
            await settle(pilot, app)
            app.notify("A notice long enough to take a few rows of the toast, wrapped as it has to be at this size.")
            await pilot.pause(0.2)
            toasts = [widget for widget in app.screen.walk_children(with_self=False) if isinstance(widget, Toast)]
            assert toasts
            status = app.screen.query_one("#status-line").region
            keys = app.screen.query_one("#key-bar").region
            for toast in toasts:
                assert toast.region.bottom <= status.y and not toast.region.overlaps(keys), (toast.region, status)
    finally:
        session.close()


async def test_keys_go_to_the_review_again_after_a_reject_refused_at_a_small_size_is_given_again(tmp_path):
    """A reject refused in a terminal too small to decide in, then given again at full size, left the focus on the
    hidden reject note: every key after it was typed into that field and nothing more was decided."""
    async with review_app(tmp_path, "focus", items=3) as (app, pilot, session):
        screen = app.review_screen
        await pilot.press("r", "3", "n", "o")
        await pilot.resize_terminal(50, 15)
        await pilot.pause()
        await pilot.press("enter")  # refused: too small to decide in; the picker stays with the note
        await pilot.pause()
        assert session.queue.stats().decided == 0 and screen.reason_picker.is_open
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert session.queue.stats().counts["rejected"] == 1 and not screen.reason_picker.is_open
        assert app.focused is None or screen.reason_picker not in app.focused.ancestors_with_self
        await pilot.press("a")
        await pilot.pause()
        assert session.queue.stats().counts["accepted"] == 1


async def test_the_edit_dialog_says_how_to_save_and_leave_at_a_small_size(tmp_path):
    """At 60x18 the fields scroll, and the line naming ctrl+s and Esc was below them, out of view as the dialog opened."""
    long = " ".join(["words of the handbook"] * 12)
    item = cg.EvalItem(
        id="q1", question="What must a new member bring? " + long, answer="One form of ID. " + long,
        anchors=(cg.GoldAnchor("handbook.md", "To join, bring one form of photo ID. " + long),),
    )
    async with review_app(tmp_path, "edit-small", evalset=cg.EvalSet(id="s", items=(item,)), size=(60, 18)) as (app, pilot, session):
        await pilot.press("e")
        await pilot.pause()
        assert type(app.screen).__name__ == "EditScreen"
        assert "ctrl+s: save · Esc: cancel" in screen_text(app)

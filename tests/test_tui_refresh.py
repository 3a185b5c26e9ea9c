"""A key redraws only what it changed: no layout pass unless a pane changes size, none of the panes it left alone.

Each pane draws its own lines (``TextPane``), so new content changes its virtual size, not
the screen's layout; the top bar is one widget that only repaints. Before, a decision cost
two full-screen layout passes (a Static's new height, then its container's). These tests
count what Textual is asked to do, not how long it takes (timings live in benchmarks/).
"""

from __future__ import annotations

import pytest

import reviewtui as cg
from reviewtui.evalset.checks.warninglog import LogEntry
from reviewtui.evalset.model.flag import Flag, Severity
from reviewtui.evalset.review.queue import RejectReason
from reviewtui.tui.screens.review import HOLD_HEIGHT
from reviewtui.tui.widgets.textpane import TextPane
from tests.tui_helpers import fixed_scan, make_app, make_items, open_session, screen_text, settle


@pytest.fixture
def session(tmp_path):
    items = list(make_items(8))
    items[0] = items[0].replace(
        anchors=(
            cg.GoldAnchor(source_id="a.md", quote="first quote"),
            cg.GoldAnchor(source_id="b.md", quote="second quote"),
        )
    )
    session = open_session(tmp_path, cg.EvalSet(id="refresh", items=tuple(items)))
    yield session
    session.close()


def _spy(app, monkeypatch):
    """Record which panes get new content and how many layout passes the screen makes."""
    updated: list[str] = []
    layouts: list[int] = []
    real_update = TextPane.update

    def update(self, content=""):
        updated.append(self.id)
        return real_update(self, content)

    monkeypatch.setattr(TextPane, "update", update)
    screen = app.screen
    real_layout = screen._refresh_layout

    def refresh_layout(*args, **kwargs):
        layouts.append(1)
        return real_layout(*args, **kwargs)

    monkeypatch.setattr(screen, "_refresh_layout", refresh_layout)
    return updated, layouts


async def test_a_decision_lays_nothing_out_when_the_question_keeps_its_height(session, monkeypatch):
    flags = {"q2": [Flag("too-short", Severity.MEDIUM, "only 2 words")]}
    app = make_app(session, scan=fixed_scan(flags))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        updated, layouts = _spy(app, monkeypatch)
        question = app.screen.query_one("#question-pane", TextPane)
        height = question.outer_size.height
        # q1 -> q2 -> q3 -> q4: only q2 has a warning, so the warnings pane changes on the first two keys only.
        for n, (key, warnings_change) in enumerate((("a", True), ("s", True), ("a", False)), start=1):
            updated.clear()
            layouts.clear()
            await pilot.press(key)
            await settle(pilot, app)
            assert session.queue.stats().decided == n
            # A new item: its question, its evidence and the history change; its warnings when they differ ...
            expected = ["evidence-pane", "history-pane", "question-pane"] + (["flags"] if warnings_change else [])
            assert sorted(updated) == sorted(expected)
            # ... and every pane keeps its place and size (the questions are alike), so nothing is laid out:
            # the panes are repainted where they are. Once, each decision laid the whole screen out twice.
            assert layouts == [], f"{key}: {len(layouts)} layout passes"
            assert question.outer_size.height == height
            assert f"q{n + 1}" in screen_text(app)


def _count_layouts(screen, monkeypatch) -> list[int]:
    """A list that gains an entry for each layout pass ``screen`` makes from now on."""
    layouts: list[int] = []
    real_layout = screen._refresh_layout

    def refresh_layout(*args, **kwargs):
        layouts.append(1)
        return real_layout(*args, **kwargs)

    monkeypatch.setattr(screen, "_refresh_layout", refresh_layout)
    return layouts


def _with_evidence(lengths) -> tuple[cg.EvalItem, ...]:
    """One item per length: its quote one sentence long, plus six more for each unit of length."""
    return tuple(
        item.replace(anchors=(cg.GoldAnchor(source_id="handbook.md", quote="A sentence of the handbook. " * (1 + 6 * extra)),))
        for item, extra in zip(make_items(len(lengths)), lengths, strict=True)
    )


def _question_rows(app) -> tuple[int, int]:
    """The question pane's height on screen and the number of lines its text wraps to."""
    pane = app.screen.query_one("#question-pane", TextPane)
    return pane.outer_size.height, pane.virtual_size.height


async def test_a_question_of_another_height_resizes_its_pane_and_only_then_lays_out(tmp_path, monkeypatch):
    # The question pane's height follows its text, between a minimum and 45 % of the column, and holds:
    # it grows at once for a longer question, and shrinks only once HOLD_HEIGHT questions in a row have
    # fit in fewer rows. A change of height moves the evidence pane, and that takes a layout.
    hold = HOLD_HEIGHT
    # extra sentences: short, taller, as tall, then short ones until the height lets go; past the
    # maximum, further past it, between, then short ones again until it lets go once more
    lengths = (0, 8, 8, *(0,) * (hold + 1), 40, 45, 8, *(0,) * (hold + 1))
    items = tuple(
        item.replace(question=item.question + " And which form does it take here?" * extra)
        for item, extra in zip(make_items(len(lengths) + 1), (*lengths, 0), strict=True)
    )
    session = open_session(tmp_path, cg.EvalSet(id="heights", items=items))
    try:
        app = make_app(session, scan=fixed_scan())
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            _, layouts = _spy(app, monkeypatch)
            seen = [_question_rows(app)]
            passes = []
            for _ in lengths[1:]:
                layouts.clear()
                await pilot.press("a")
                await settle(pilot, app)
                seen.append(_question_rows(app))
                passes.append(len(layouts))
            evidence = app.screen.query_one("#evidence-pane", TextPane)
            heights = [height for height, _ in seen]
            lines = [count for _, count in seen]
            lowest, highest = heights[0], max(heights)
            tall = 3  # the first short question after the two taller ones
            # A taller question grows the pane at once; it fits its text, all of it shows.
            assert lowest < heights[1] == heights[2] < highest
            assert heights[1] - lines[1] == heights[2] - lines[2]  # its lines plus the border
            # Short questions after it keep that height until `hold` of them in a row have fit in fewer rows.
            assert heights[tall : tall + hold - 1] == [heights[1]] * (hold - 1)
            assert heights[tall + hold - 1] == heights[tall + hold] == lowest
            longest = tall + hold + 1  # the question past the maximum
            assert heights[longest] == heights[longest + 1] == heights[longest + 2] == highest
            assert lines[longest + 1] > lines[longest] > highest  # held at the maximum, scrolled: the scroll range is the text's
            assert heights[longest + hold] == highest and heights[-1] == lowest
            # Each height is the tallest of the last `hold` questions' (the border and the limits applied).
            border = heights[1] - lines[1]
            for n, height in enumerate(heights):
                wanted = max(lines[max(n - hold + 1, 0) : n + 1]) + border
                assert height == min(max(wanted, lowest), highest), (n, heights, lines)
            # Layout passes exactly when the height changes or the scrollbar comes or goes (Textual lays the
            # pane out for that too; in a small terminal the bar stays, see the next test), none while both stay.
            scrolls = [count > height - border for height, count in seen]
            shown = list(zip(heights, scrolls))
            assert [bool(n) for n in passes] == [a != b for a, b in zip(shown, shown[1:])], (passes, heights, lines)
            assert any(a[0] == b[0] and a[1] != b[1] for a, b in zip(shown, shown[1:]))  # a scrollbar alone went
            # The evidence pane fills whatever the question leaves, in the last layout as in the first.
            column = app.screen.query_one("#main")
            assert evidence.region.bottom <= column.region.bottom
            assert evidence.outer_size.height + heights[-1] == column.size.height
    finally:
        session.close()


async def test_in_a_small_terminal_a_text_longer_or_shorter_than_its_pane_lays_nothing_out(tmp_path, monkeypatch):
    # At 80x24 the panes hold about as many lines as an item's texts have, so the texts keep crossing the
    # panes' heights: the scrollbars stay, and only their thumbs come and go, in the same repaint.
    lengths = (0, 3, 0, 4, 0, 0, 3)  # sentences of evidence: under the evidence pane's height or over it
    session = open_session(tmp_path, cg.EvalSet(id="small", items=_with_evidence((*lengths, 0))))
    try:
        app = make_app(session, scan=fixed_scan())
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            _, layouts = _spy(app, monkeypatch)
            pane = app.screen.query_one("#evidence-pane", TextPane)
            bar = pane.vertical_scrollbar
            seen = []
            for n in range(1, len(lengths)):
                await pilot.press("a")
                await settle(pilot, app)
                assert session.queue.stats().decided == n
                longer = pane.virtual_size.height > pane.scrollable_content_region.height
                seen.append(longer)
                # The bar is always there; its thumb is drawn when the text is longer than the pane, only then.
                assert bar.display and (bar.window_virtual_size > bar.window_size) == longer
            assert seen == [bool(extra) for extra in lengths[1:]]  # the texts crossed the pane's height, both ways
            assert layouts == [], len(layouts)
    finally:
        session.close()


@pytest.mark.parametrize("size", [(120, 40), (80, 24)])
async def test_a_long_text_after_a_short_one_draws_its_thumb_at_the_top(tmp_path, size):
    # A long evidence scrolled down, then one that fits (the pane back at its top, the bar hidden in a
    # large terminal), then a long one again: its thumb is at the top with the text, not where it was.
    lengths = (40, 0, 40)
    session = open_session(tmp_path, cg.EvalSet(id="thumb", items=_with_evidence(lengths)))
    try:
        app = make_app(session, scan=fixed_scan())
        async with app.run_test(size=size) as pilot:
            await settle(pilot, app)
            pane = app.screen.query_one("#evidence-pane", TextPane)
            pane.scroll_to(y=10, animate=False)
            await settle(pilot, app)
            assert pane.scroll_y == 10 == pane.vertical_scrollbar.position
            for _ in lengths[1:]:
                await pilot.press("a")
                await settle(pilot, app)
            bar = pane.vertical_scrollbar
            assert bar.window_virtual_size > bar.window_size  # a thumb is drawn
            assert pane.scroll_y == 0 and bar.position == 0
    finally:
        session.close()


@pytest.mark.parametrize(("start", "end"), [((100, 30), (80, 40)), ((120, 30), (120, 50))])
async def test_a_pane_scrolled_down_shows_its_text_from_the_top_once_a_resize_lets_it_all_fit(tmp_path, start, end):
    # Scrolled to the end of a long question, then a terminal in which the pane holds the whole text:
    # the pane shows it from its first line (the id), with no blank rows left below it.
    items = [item.replace(question=item.question + " And which form does it take here?" * 20) for item in make_items(2)]
    session = open_session(tmp_path, cg.EvalSet(id="resize", items=tuple(items)))
    try:
        app = make_app(session, scan=fixed_scan())
        async with app.run_test(size=start) as pilot:
            await settle(pilot, app)
            pane = app.screen.query_one("#question-pane", TextPane)
            pane.scroll_end(animate=False)
            await settle(pilot, app)
            assert pane.scroll_y > 0
            await pilot.resize_terminal(*end)
            await settle(pilot, app)
            assert pane.virtual_size.height <= pane.scrollable_content_region.height  # it all fits now
            assert pane.scroll_y == 0 == pane.scroll_target_y  # the target too, or the next scroll starts from the old place
            top = screen_text(app).splitlines()[pane.content_region.y]
            assert "q1" in top, top
    finally:
        session.close()


async def test_the_next_quote_redraws_only_the_evidence(session, monkeypatch):
    app = make_app(session, scan=fixed_scan())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        updated, layouts = _spy(app, monkeypatch)
        await pilot.press("right_square_bracket")
        await settle(pilot, app)
        assert "▶ quote 2/2" in screen_text(app)
        assert updated == ["evidence-pane"]
        assert len(layouts) <= 1


async def test_the_top_bar_never_asks_for_a_layout(session, monkeypatch):
    app = make_app(session, scan=fixed_scan())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        bar = app.screen.query_one("#top-bar")
        asked: list[bool] = []
        real_refresh = type(bar).refresh

        def refresh(self, *regions, repaint=True, layout=False, recompose=False):
            if self is bar:
                asked.append(layout)
            return real_refresh(self, *regions, repaint=repaint, layout=layout, recompose=recompose)

        monkeypatch.setattr(type(bar), "refresh", refresh)
        for key in "asasa":  # the counts' width changes as they grow
            await pilot.press(key)
        await settle(pilot, app)
        assert asked and not any(asked)
        assert "5/8" in bar.text and "✓3" in bar.text and "↷2" in bar.text


async def test_set_cautions_open_under_the_warnings_by_key_and_by_click(session):
    cautions = [LogEntry("CAUTION", "evalset", "only 8 questions")]
    app = make_app(session, scan=fixed_scan(cautions=cautions))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        assert "▶ set cautions (1)" in screen_text(app) and "only 8 questions" not in screen_text(app)
        await pilot.press("c")
        assert "▼ set cautions (1)" in screen_text(app) and "only 8 questions" in screen_text(app)
        pane = app.screen.query_one("#flags", TextPane)
        row = next(y for y, line in enumerate(pane.content.plain.split("\n")) if "set cautions" in line)
        await pilot.click("#flags", offset=(2, row))
        await pilot.pause()
        assert "▶ set cautions (1)" in screen_text(app) and "only 8 questions" not in screen_text(app)


async def test_a_pane_scrolls_and_wraps_to_its_width(session):
    long_question = " ".join(f"word{i}" for i in range(400))
    items = list(session.evalset.items)
    app = make_app(session, scan=fixed_scan())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        pane = app.screen.query_one("#question-pane", TextPane)
        pane.update(long_question)
        await pilot.pause()
        assert pane.virtual_size.height > pane.scrollable_content_region.height  # wrapped, taller than the pane
        assert all(len(line.rstrip()) <= pane.scrollable_content_region.width for line in _rows(pane))
        pane.scroll_end(animate=False)
        await pilot.pause()
        assert "word399" in screen_text(app)
        assert items  # the set itself is untouched by what a pane shows


@pytest.fixture
def long_session(tmp_path):
    """Items whose question and quote wrap to many more lines than their panes have rows."""
    words = " ".join(f"word{i}" for i in range(300))
    items = tuple(
        item.replace(
            question=f"Question {n}: {words}?",
            anchors=(cg.GoldAnchor(source_id="a.md", quote=f"quote {n} {words}"),),
        )
        for n, item in enumerate(make_items(4), start=1)
    )
    session = open_session(tmp_path, cg.EvalSet(id="long", items=items))
    yield session
    session.close()


async def test_the_first_item_scrolls_to_its_last_line(long_session):
    # The layout wraps a pane's text before the pane is told its size: the scroll range must follow anyway.
    app = make_app(long_session, scan=fixed_scan())
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, app)
        for pane_id in ("question-pane", "evidence-pane"):
            pane = app.screen.query_one(f"#{pane_id}", TextPane)
            lines = len(pane.content.plain)  # more characters than rows, surely
            assert pane.max_scroll_y > 0, pane_id
            assert pane.virtual_size.height == len(pane._lines(pane.scrollable_content_region.width)) < lines
            pane.focus()
            await pilot.press("end")
            await pilot.wait_for_scheduled_animations()
            assert pane.scroll_y == pane.max_scroll_y > 0
        assert "answer 1" in screen_text(app) or "word299" in screen_text(app)


async def test_a_resize_refits_the_scroll_range_to_the_new_wrap(long_session):
    app = make_app(long_session, scan=fixed_scan())
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, app)
        pane = app.screen.query_one("#question-pane", TextPane)
        wide = pane.virtual_size.height
        await pilot.resize_terminal(104, 36)
        await pilot.pause()
        await pilot.pause()
        width = pane.scrollable_content_region.width
        assert pane.virtual_size.height == len(pane._lines(width)) > wide  # narrower: more lines, all reachable
        pane.focus()
        await pilot.press("end")
        await pilot.wait_for_scheduled_animations()
        last = pane.render_line(pane.scrollable_content_region.height - 1).text.rstrip()
        assert last == pane._lines(width)[-1].text.rstrip()


async def test_history_shown_again_scrolls_to_decisions_made_while_it_was_hidden(session):
    app = make_app(session, scan=fixed_scan())
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot, app)
        pane = app.screen.query_one("#history-pane", TextPane)
        await pilot.press("h")
        await pilot.press(*"asasasa")
        await settle(pilot, app)
        await pilot.press("h")
        await pilot.pause()
        await pilot.pause()
        width = pane.scrollable_content_region.width
        assert pane.virtual_size.height == len(pane._lines(width)) >= 7


async def test_a_decision_wraps_only_the_history_entry_it_adds(session, monkeypatch):
    from reviewtui.tui.render import history_view
    from reviewtui.tui.widgets.textpane import ListPane

    app = make_app(session, scan=fixed_scan())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        pane = app.screen.query_one("#history-pane", ListPane)
        wrapped: list[str] = []
        real_wrap = TextPane._wrap

        def wrap(self, content, width):
            if self is pane:
                wrapped.append(content.plain)
            return real_wrap(self, content, width)

        monkeypatch.setattr(TextPane, "_wrap", wrap)
        width = pane.scrollable_content_region.width

        def shown() -> list[str]:
            return [line.text for line in pane._lines(width)]

        def expected() -> list[str]:
            return [line.text for line in real_wrap(pane, history_view(session.queue.recent(20)), width)]

        for n, key in enumerate("asas", start=1):
            wrapped.clear()
            await pilot.press(key)
            await settle(pilot, app)
            # The pane reads as the whole history wrapped at once, and only the new entry was wrapped.
            assert shown() == expected()
            assert wrapped == [history_view(session.queue.recent(1)).plain], (n, wrapped)
        # An undo only takes the top entry away: nothing already shown is wrapped again.
        wrapped.clear()
        await pilot.press("u")
        await settle(pilot, app)
        assert shown() == expected() and wrapped == []
        # Whatever the pane showed at another width is wrapped afresh at the new one.
        await pilot.resize_terminal(100, 40)
        await settle(pilot, app)
        await pilot.press("a")
        await settle(pilot, app)
        width = pane.scrollable_content_region.width
        assert shown() == expected()
        # The entries' text offsets start at each entry, so the pane takes no mouse selection.
        assert not pane.allow_select


async def test_the_history_of_an_item_reviewed_before_reads_as_its_whole_text(tmp_path):
    from reviewtui.evalset.model.review import REVIEW_KEY, ReviewRecord
    from reviewtui.tui.render import history_view

    items = list(make_items(4))
    record = ReviewRecord(verdict="rejected", reason="ambiguous", reviewer="[b]ana[/b]", note="see the\x1b[2J appendix")
    items[1] = items[1].replace(meta={REVIEW_KEY: record.as_meta()})
    session = open_session(tmp_path, cg.EvalSet(id="earlier", items=tuple(items)))
    try:
        app = make_app(session, scan=fixed_scan())
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            pane = app.screen.query_one("#history-pane", TextPane)
            for key in "as":  # onto q2, reviewed before (its record first), then past it
                await pilot.press(key)
                await settle(pilot, app)
                width = pane.scrollable_content_region.width
                earlier = ReviewRecord.from_meta(session.queue.current.meta)
                assert (earlier is not None) == (key == "a")
                whole = history_view(session.queue.recent(20), earlier=earlier)
                assert [line.text for line in pane._lines(width)] == [line.text for line in pane._wrap(whole, width)]
                assert ("this item, earlier" in pane.content.plain) == (key == "a")
    finally:
        session.close()


def _rows(pane: TextPane) -> list[str]:
    return [pane.render_line(y).text for y in range(pane.scrollable_content_region.height)]


async def test_a_new_theme_recolours_the_panes(session):
    app = make_app(session, scan=fixed_scan())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        pane = app.screen.query_one("#question-pane", TextPane)
        before = pane.render_line(0)
        app.theme = "textual-light" if app.theme != "textual-light" else "textual-dark"
        await pilot.pause()
        after = pane.render_line(0)
        assert after.text == before.text
        # the text itself, not only the blank cells after it, is drawn in the new theme's colours
        first_word = [seg.style.color for seg in before if seg.text.strip()][0]
        assert [seg.style.color for seg in after if seg.text.strip()][0] != first_word


@pytest.mark.parametrize("width", [30, 40, 60, 80, 120])
async def test_the_top_bar_leaves_out_whole_pieces_never_part_of_one(width):
    # The bar alone, in an app of its own: in the review app, a message the app handled late (a scan's flags) drew
    # the review's own counts over the ones given here on a busy machine.
    from textual.app import App

    from reviewtui.tui.widgets.topbar import TopBar

    class BarApp(App[None]):
        def compose(self):
            yield TopBar(id="top-bar")

    app = BarApp()
    async with app.run_test(size=(width, 24)) as pilot:
        bar = app.screen.query_one("#top-bar", TopBar)
        bar.show_set("a-very-long-set-identifier-" + "x" * 80, 3, "ana's share")
        bar.show_progress(1, 1_234, {"accepted": 1}, 514.0, 8_580.0)
        await pilot.pause()
        text = bar.text
        assert len(text) <= bar.size.width
        assert "1/1,234  ✓1 ✗0 ✎0 ↷0" in text  # the counts, whole, at every width
        for piece in ("514/h", "ETA 2h23m"):  # the rate and the ETA: whole or absent
            assert piece in text or not any(piece[:k] in text.split("↷0")[-1] for k in range(2, len(piece)))
        if "ETA" in text:
            assert "514/h" in text  # the ETA goes first
        if width >= 80:
            assert "514/h" in text and "ETA 2h23m" in text


def _count_frames(app, monkeypatch) -> list[int]:
    """A list that gets an entry for every frame the screen draws (its compositor's refreshes)."""
    frames: list[int] = []
    screen = app.screen
    real_refresh = screen._compositor_refresh

    def compositor_refresh():
        frames.append(1)
        return real_refresh()

    monkeypatch.setattr(screen, "_compositor_refresh", compositor_refresh)
    return frames


async def test_a_decision_is_drawn_in_one_frame_once_the_history_is_full(tmp_path, monkeypatch):
    # With more decisions than the history pane has rows, its scrollbar is shown; Textual used to
    # repaint that scrollbar one frame after every decision, though nothing about it had changed.
    # Questions of different lengths: the question pane's height changes, so each decision lays the screen out.
    items = tuple(
        item.replace(question=item.question + " Also, which form?" * (8 * (n % 2)))
        for n, item in enumerate(make_items(40))
    )
    session = open_session(tmp_path, cg.EvalSet(id="frames", items=items))
    try:
        app = make_app(session, scan=fixed_scan())
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            await pilot.press(*"as" * 12)
            await settle(pilot, app)
            history = app.screen.query_one("#history-pane", TextPane)
            assert history.max_scroll_y > 0  # the case at hand: a scrollbar on the history
            frames = _count_frames(app, monkeypatch)
            await pilot.pause(0.1)  # a frame still owed to the earlier keys belongs to none of the keys measured
            for key in "asa":
                frames.clear()
                await pilot.press(key)
                await pilot.pause(0.1)  # several refresh ticks: a late frame would be counted
                assert len(frames) == 1, f"{key}: {len(frames)} frames"
            assert session.queue.stats().decided == 27
    finally:
        session.close()


async def test_a_pane_whose_text_changes_length_brings_its_scrollbar_along_in_the_same_frame(tmp_path, monkeypatch):
    # Every item has more warnings than the pane has rows, a different number each time: the warnings
    # pane's scroll range changes on every decision. Its scrollbar used to be redrawn a frame after the
    # text (about 30 ms later on screen), because Textual moved it only in the layout pass that followed.
    items = tuple(make_items(30))
    flags = {
        item.id: [Flag("too-short", Severity.LOW, f"warning {k} of item {n}") for k in range(20 + 7 * (n % 3))]
        for n, item in enumerate(items)
    }
    session = open_session(tmp_path, cg.EvalSet(id="lengths", items=items))
    try:
        app = make_app(session, scan=fixed_scan(flags))
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            warnings = app.screen.query_one("#flags", TextPane)
            assert warnings.max_scroll_y > 0  # the case at hand: a scrollbar on the warnings
            frames = _count_frames(app, monkeypatch)
            await pilot.pause(0.1)  # a frame still owed to the first paint belongs to no key (seen on a loaded CI box)
            lengths = []
            for key in "asas":
                frames.clear()
                await pilot.press(key)
                await pilot.pause(0.1)  # several refresh ticks: a late frame would be counted
                assert len(frames) == 1, f"{key}: {len(frames)} frames"
                assert warnings.vertical_scrollbar.window_virtual_size == warnings.virtual_size.height
                lengths.append(warnings.virtual_size.height)
            assert len(set(lengths)) > 1  # the scroll range did change from one item to the next
            assert session.queue.stats().decided == 4
    finally:
        session.close()


async def test_starting_a_worker_never_writes_out_its_arguments(session):
    # Textual names a worker after the repr of its arguments unless it is given a description;
    # for the flagged-first order that was the whole flag map, 250 ms on the UI thread at 100k items.
    class Watched(dict):
        shown = 0

        def __repr__(self) -> str:
            Watched.shown += 1
            return super().__repr__()

    app = make_app(session, scan=fixed_scan())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        flags = Watched({"q2": [Flag("too-short", Severity.MEDIUM, "only 2 words")]})
        worker = app._compute_order(flags, Watched())
        await worker.wait()
        await pilot.pause()
        assert Watched.shown == 0
        assert app.view.flagged_order == [1]  # and the order was worked out from them


def test_every_worker_of_the_app_has_a_description():
    import re
    from pathlib import Path

    import reviewtui.tui.app

    root = Path(reviewtui.tui.app.__file__).parent
    found = [
        (path.name, decorator)
        for path in root.rglob("*.py")
        for decorator in re.findall(r"@work\((.*?)\)\n", path.read_text(encoding="utf-8"), flags=re.S)
    ]
    assert found  # the app has workers, and each one says what it is
    assert [entry for entry in found if "description=" not in entry[1]] == []


def test_the_set_reader_holds_off_just_after_a_key_and_never_for_long():
    from reviewtui.tui.app import LOADER_HOLD, LOADER_HOLD_MAX, loader_hold

    assert loader_hold(100.0, float("-inf")) == 0.0  # no key yet: read on
    assert loader_hold(100.0, 100.0) == pytest.approx(LOADER_HOLD)  # a key this instant: wait
    assert 0.0 < loader_hold(100.0 + LOADER_HOLD / 2, 100.0) < LOADER_HOLD
    assert loader_hold(100.0 + LOADER_HOLD, 100.0) == 0.0
    assert loader_hold(100.0, 100.0 + 60) == LOADER_HOLD_MAX  # a clock gone backwards cannot stop the reading


class _Lines:
    """A stand-in for SetLoader: ``total`` lines, each read as its number; records every read."""

    def __init__(self, total: int) -> None:
        self.total, self.next, self.reads = total, 0, []

    @property
    def done(self) -> bool:
        return self.next >= self.total

    def read_more(self, limit: int) -> list[int]:
        got = list(range(self.next, min(self.next + limit, self.total)))
        self.next += len(got)
        self.reads.append(len(got))
        return got


def test_a_key_in_the_middle_of_a_batch_makes_the_reader_hold_off_at_its_next_slice():
    from reviewtui.evalset.review.loading import LOADER_BATCH
    from reviewtui.tui.app import LOADER_HOLD, LOADER_HOLD_MAX, LOADER_SLICE, read_batch

    assert LOADER_SLICE < LOADER_BATCH
    lines = _Lines(10 * LOADER_BATCH)
    now = [100.0]
    last_key = [float("-inf")]
    slept: list[tuple[int, float]] = []

    def sleep(seconds: float) -> None:
        slept.append((lines.next, seconds))
        now[0] += seconds

    def read_more(limit: int) -> list[int]:
        got = _Lines.read_more(lines, limit)
        now[0] += 0.002
        if lines.next == 3 * LOADER_SLICE:
            last_key[0] = now[0]  # a key arrives while the third slice is read
        return got

    lines.read_more = read_more
    handed_back: list[int] = []
    batch = read_batch(
        lines, lambda: last_key[0], lambda: False, sleep=sleep, clock=lambda: now[0], let_others_run=lambda: handed_back.append(lines.next)
    )
    assert batch == list(range(LOADER_BATCH))  # one whole batch, read a slice at a time
    # the interpreter handed to the other threads after every slice
    assert handed_back == list(range(LOADER_SLICE, LOADER_BATCH + 1, LOADER_SLICE))
    assert set(lines.reads) == {LOADER_SLICE}
    assert slept == [(3 * LOADER_SLICE, pytest.approx(LOADER_HOLD))]  # held off before the very next slice
    # Keys all the time: the holds of one batch add up to LOADER_HOLD_MAX at most, and the batch is still read.
    slept.clear()
    batch = read_batch(lines, lambda: now[0], lambda: False, sleep=sleep, clock=lambda: now[0])
    assert batch is not None and len(batch) == LOADER_BATCH
    assert sum(seconds for _, seconds in slept) == pytest.approx(LOADER_HOLD_MAX)
    assert read_batch(lines, lambda: now[0], lambda: True, sleep=sleep, clock=lambda: now[0]) is None


async def test_every_key_is_noted_for_the_set_reader(session):
    app = make_app(session, scan=fixed_scan())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        before = app._last_key_at
        await pilot.press("right")  # not a decision: any key counts
        assert app._last_key_at > before
        noted = app._last_key_at
        await pilot.press("a")
        assert app._last_key_at > noted and session.queue.stats().decided == 1


def _watch_wrapping(monkeypatch) -> tuple[list[str], list[str]]:
    """Which panes wrap text ahead (TextPane.wrap) and which wrap it when they must draw it."""
    from reviewtui.tui.widgets import textpane

    ahead: list[str] = []
    on_demand: list[str] = []
    inside_wrap = [False]
    real_wrap, real_to_strips = TextPane.wrap, textpane.Visual.to_strips

    def wrap(self, content):
        ahead.append(self.id)
        inside_wrap[0] = True
        try:
            return real_wrap(self, content)
        finally:
            inside_wrap[0] = False

    def to_strips(widget, *args, **kwargs):
        if not inside_wrap[0] and isinstance(widget, TextPane):  # Static and the top bar draw through it too
            on_demand.append(widget.id)
        return real_to_strips(widget, *args, **kwargs)

    monkeypatch.setattr(TextPane, "wrap", wrap)
    monkeypatch.setattr(textpane.Visual, "to_strips", staticmethod(to_strips))
    return ahead, on_demand


def _fresh_rows(pane: TextPane, content) -> list[str]:
    """The rows ``pane`` shows for ``content`` wrapped now, from the top."""
    lines = pane.wrap(content).lines
    return [line.text.rstrip() for line in lines[: pane.scrollable_content_region.height]]


async def test_the_next_items_text_is_wrapped_while_the_current_one_is_read(session, monkeypatch):
    from reviewtui.tui.render import evidence_view, question_view

    app = make_app(session, scan=fixed_scan())
    # Watched from the start: on a slow run the screen made q2's text ready while settle still waited, before a
    # watch set up after it could see it (and the test saw nothing wrapped ahead).
    ahead, on_demand = _watch_wrapping(monkeypatch)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        await _until_ready(pilot, app)  # the reviewer reads q1: q2's text is wrapped meanwhile
        assert sorted(ahead) == ["evidence-pane", "question-pane"]  # q2 has q1's warnings (none): not wrapped
        ahead.clear()
        on_demand.clear()  # the first frame's drawing; what follows is the key's
        await pilot.press("a")
        await pilot.pause()
        assert session.queue.current.id == "q2"
        # The key showed q2's question and evidence as wrapped ahead; only the history was wrapped then.
        assert on_demand == ["history-pane"], on_demand
        item = session.queue.current
        for selector, content in (("#question-pane", question_view(item)), ("#evidence-pane", evidence_view(item))):
            pane = app.screen.query_one(selector, TextPane)
            assert [row.rstrip() for row in _rows(pane)][: len(_fresh_rows(pane, content))] == _fresh_rows(pane, content)
        assert "Question number 2 about" in screen_text(app)


async def _until_ready(pilot, app, timeout: float = 5.0) -> None:
    """Wait until the screen has wrapped the next item's text (see ReviewScreen._get_next_ready)."""
    for _ in range(int(timeout / 0.02)):
        if app.screen._ready:
            return
        await pilot.pause(0.02)
    raise AssertionError("the next item's text was never made ready")


async def test_keys_in_quick_succession_never_wait_for_text_made_ahead(session, monkeypatch):
    from textual.timer import Timer

    from reviewtui.tui.screens import review

    # Each key stops the wait for making the next item's text ready and starts it again, so nothing is
    # wrapped ahead while keys come. Timed against the clock (a wait of 0.4 s, keys 0.1 s apart), this
    # failed on a loaded machine; so the wait here is longer than any key takes, and the test counts the
    # waits started and stopped instead.
    monkeypatch.setattr(review, "READY_AFTER", 60.0)
    stopped: list[str | None] = []
    real_stop = Timer.stop
    monkeypatch.setattr(Timer, "stop", lambda self: stopped.append(self.name) or real_stop(self))
    app = make_app(session, scan=fixed_scan())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        ahead, _ = _watch_wrapping(monkeypatch)
        before = stopped.count("next item's text")
        for key in "sasasa":
            await pilot.press(key)
            await pilot.pause(0.05)
        assert ahead == []
        assert stopped.count("next item's text") - before >= 6  # every key put the wait off again
        assert session.queue.current.id == "q7" and "Question number 7 about" in screen_text(app)
        waiting = app.screen._ready_timer
        assert waiting is not None and waiting.name == "next item's text"
        waiting.stop()
        app.screen._get_next_ready()  # what the wait ends in, once the keys stop
        await pilot.pause()
        assert sorted(ahead) == ["evidence-pane", "question-pane"]


async def test_text_made_ahead_at_another_width_is_wrapped_again(session, monkeypatch):
    from reviewtui.tui.screens import review

    app = make_app(session, scan=fixed_scan())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        await _until_ready(pilot, app)  # q2's text made ready at 120 columns
        # Nothing is made ready again before the key, and the key comes only once the panes have their new
        # width: on a loaded machine the key once arrived before the resize had reached them, when the text
        # made ahead still fitted.
        monkeypatch.setattr(review, "READY_AFTER", 60.0)
        if app.screen._ready_timer is not None:  # one a redraw started earlier, with the short wait
            app.screen._ready_timer.stop()
        question = app.screen.query_one("#question-pane", TextPane)
        wide = question.scrollable_content_region.width
        await pilot.resize_terminal(100, 40)
        for _ in range(250):
            await pilot.pause(0.02)
            if question.scrollable_content_region.width < wide:
                break
        await pilot.pause()
        _, on_demand = _watch_wrapping(monkeypatch)
        await pilot.press("a")
        await pilot.pause()
        assert "question-pane" in on_demand and "evidence-pane" in on_demand
        assert question.virtual_size.width == question.scrollable_content_region.width
        assert "Question number 2 about" in screen_text(app)


async def test_an_auto_height_pane_lays_out_exactly_when_its_clamped_height_changes(monkeypatch):
    from textual.app import App, ComposeResult

    class Pane(App):
        # A scrollbar always shown: one that comes and goes makes Textual lay the pane out for that alone.
        CSS = "TextPane { height: auto; min-height: 5; max-height: 10; overflow-y: scroll; }"

        def compose(self) -> ComposeResult:
            yield TextPane("\n".join(["line"] * 3), id="pane")

    app = Pane()
    async with app.run_test(size=(40, 30)) as pilot:
        await pilot.pause()
        pane = app.screen.query_one("#pane", TextPane)
        layouts = _count_layouts(app.screen, monkeypatch)
        # lines -> the height it must have: held at 5 below it, at 10 above it; exactly 5 or 10 count as held too
        for lines, height, lays_out in (
            (5, 5, False),  # from 3 lines (held at the minimum) to exactly the minimum
            (4, 5, False),  # from exactly the minimum to below it
            (5, 5, False),
            (7, 7, True),
            (8, 8, True),
            (10, 10, True),  # exactly the maximum
            (15, 10, False),  # from exactly the maximum to above it
            (12, 10, False),
            (10, 10, False),
            (9, 9, True),
            (2, 5, True),
        ):
            layouts.clear()
            pane.update("\n".join(f"line {n}" for n in range(lines)))
            await pilot.pause()
            assert pane.outer_size.height == height, (lines, pane.outer_size.height)
            assert bool(layouts) == lays_out, (lines, layouts)
            assert pane.virtual_size.height == lines


async def test_a_held_height_grows_at_once_and_lets_go_only_after_enough_shorter_texts(monkeypatch):
    from textual.app import App, ComposeResult

    class Pane(App):
        CSS = "TextPane { height: auto; min-height: 1; max-height: 20; overflow-y: scroll; }"

        def compose(self) -> ComposeResult:
            yield TextPane("", id="pane", hold=3)

    app = Pane()
    async with app.run_test(size=(40, 30)) as pilot:
        await pilot.pause()
        pane = app.screen.query_one("#pane", TextPane)
        layouts = _count_layouts(app.screen, monkeypatch)
        # lines -> the height: the tallest of the last three texts
        for lines, height in ((3, 3), (8, 8), (4, 8), (4, 8), (4, 4), (4, 4), (9, 9), (2, 9), (2, 9), (2, 2)):
            layouts.clear()
            before = pane.outer_size.height
            pane.update("\n".join(f"line {n}" for n in range(lines)))
            await pilot.pause()
            assert pane.outer_size.height == height, (lines, pane.outer_size.height)
            assert pane.virtual_size.height == lines  # the scroll range is always the text's own
            # A layout pass exactly when the height changes; the fifth text has the length of the fourth,
            # and only the height let go of the 8 lines before them.
            assert bool(layouts) == (height != before), (lines, layouts)
        # Counts taken at one width say nothing about another: a new width starts with the text shown.
        pane.update("\n".join(["line"] * 12))
        pane.update("line")
        await pilot.pause()
        assert pane.outer_size.height == 12
        await pilot.resize_terminal(30, 30)
        await pilot.pause()
        assert pane.outer_size.height == 1


def _styled(strips) -> list[list[tuple[str, object]]]:
    """Lines as (text, style) runs: what a pane draws, colours and highlights included."""
    return [[(segment.text, segment.style) for segment in strip] for strip in strips]


async def test_text_made_ahead_is_used_only_under_the_key_it_was_made_for(session, monkeypatch):
    app = make_app(session, scan=fixed_scan())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        await _until_ready(pilot, app)
        screen = app.screen
        key, wrapped = screen._ready["#question-pane"]
        screen._ready["#question-pane"] = ("another key", wrapped)  # what the screen would show has changed
        _, on_demand = _watch_wrapping(monkeypatch)
        await pilot.press("a")
        await pilot.pause()
        assert "question-pane" in on_demand and "evidence-pane" not in on_demand


async def test_text_made_ahead_is_not_shown_with_a_selection_it_no_longer_has(session, monkeypatch):
    from textual.selection import Selection

    from reviewtui.tui.render import question_view

    app = make_app(session, scan=fixed_scan())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        screen = app.screen
        question = screen.query_one("#question-pane", TextPane)
        screen.selections = {question: Selection(None, None)}  # the whole question selected ...
        await pilot.pause()
        # Made again from here: on a slow machine the wait above can outlast READY_AFTER, and the text
        # made then would be cleared here with no redraw left to make it again.
        screen._ready.clear()
        screen._get_ready_soon()
        await _until_ready(pilot, app)  # ... while the next one is wrapped: the highlight is in its lines
        screen.selections = {}
        await pilot.pause()
        _, on_demand = _watch_wrapping(monkeypatch)
        await pilot.press("a")
        await pilot.pause()
        assert "question-pane" in on_demand
        fresh = question.wrap(question_view(session.queue.current))
        assert _styled(question._lines(fresh.width)) == _styled(fresh.lines)


async def test_a_pane_shows_text_wrapped_before_a_new_theme_in_the_new_colours():
    from textual.app import App, ComposeResult
    from textual.content import Content

    class Pane(App):
        def compose(self) -> ComposeResult:
            yield TextPane(id="pane")

    app = Pane()
    async with app.run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        pane = app.screen.query_one("#pane", TextPane)
        text = Content.styled("a line in the accent colour", "$accent")
        wrapped = pane.wrap(text)
        app.theme = "textual-light" if app.theme != "textual-light" else "textual-dark"
        await pilot.pause()
        pane.update(wrapped)
        await pilot.pause()
        fresh = pane.wrap(text)
        assert _styled(fresh.lines) != _styled(wrapped.lines)  # the theme did change the colours
        assert _styled(pane._lines(fresh.width)) == _styled(fresh.lines)


async def test_nothing_is_made_ahead_while_the_corpus_job_is_still_locating_quotes(session, monkeypatch):
    # Until then each showing looks the quotes up afresh: a lookup made ahead would be repeated, not used.
    app = make_app(session, scan=fixed_scan())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        await _until_ready(pilot, app)  # without a corpus: made ahead
        screen = app.screen
        screen._ready.clear()
        looked_up: list[str] = []
        monkeypatch.setattr(app, "corpus", object())  # a corpus whose job has not finished (view.evidence is None)
        monkeypatch.setattr(app, "resolutions_for", lambda item: looked_up.append(item.id))
        assert app.view.evidence is None
        screen._get_next_ready()
        assert screen._ready == {} and looked_up == []


async def test_the_next_items_text_is_made_ready_again_after_a_dialog_closes(session, monkeypatch):
    from reviewtui.tui.screens import review

    monkeypatch.setattr(review, "READY_AFTER", 0.1)
    app = make_app(session, scan=fixed_scan())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        screen = app.screen
        await pilot.press("a")  # a redraw, then the help screen
        await pilot.press("question_mark")
        assert app.screen is not screen
        # A slow machine can make the text before the dialog opens: start again from here, so the
        # wait surely ends under the help screen.
        screen._ready.clear()
        screen._get_ready_soon()
        await pilot.pause(0.4)
        assert screen._ready == {}  # nothing is made under a dialog
        await pilot.press("escape")
        assert app.screen is screen
        await _until_ready(pilot, app)
        assert set(screen._ready) == {"#question-pane", "#evidence-pane"}


async def test_a_reject_draws_the_reason_picker_and_its_rows_never_the_whole_screen(tmp_path, monkeypatch):
    # The reasons were a dialog screen: opening it drew the whole review screen again, dimmed, under
    # it, and closing it drew the review screen once more. The picker is a panel on the review
    # screen: showing it, choosing a reason (the focus stays on the list) and hiding it are partial
    # updates of the rows that changed.
    session = open_session(tmp_path, cg.EvalSet(id="reasons", items=make_items(4)))
    try:
        app = make_app(session, scan=fixed_scan())
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            screen = app.screen
            full: list[int] = []
            real_full = screen._compositor.render_full_update

            def render_full_update(*args, **kwargs):
                full.append(1)
                return real_full(*args, **kwargs)

            monkeypatch.setattr(screen._compositor, "render_full_update", render_full_update)
            frames = _count_frames(app, monkeypatch)
            await pilot.press("r")
            await pilot.pause(0.1)
            picker = screen.reason_picker
            assert app.screen is screen and picker.is_open
            assert frames and not full, (len(frames), len(full))
            shown = len(frames)
            await pilot.press("2")
            await pilot.pause(0.1)
            assert len(frames) > shown and not full  # the chosen reason is drawn, in a partial update
            assert picker.query_one("#reasons").highlighted == 1
            # what is typed after the reason is the note, a leading digit included
            await pilot.press(*"3 days late", "enter")
            await pilot.pause(0.1)
            assert not picker.display and not full
            assert "Reject q1" not in screen_text(app) and "Enter: reject" not in screen_text(app)
        decision = session.queue.decision_for("q1")
        assert decision.reason is list(RejectReason)[1]  # the review screen lists the reasons in this order
        assert decision.note == "3 days late"
    finally:
        session.close()


# ---- a pane given new text draws only the rows that changed ----


class _OnePane:
    """A bare app holding one TextPane (no border), to count and check the rows it draws."""

    @staticmethod
    def make(size: tuple[int, int]):
        from textual.app import App

        class PaneApp(App):
            CSS = "TextPane { height: 1fr; }"

            def compose(self):
                yield TextPane(id="pane")

        return PaneApp()


async def test_new_text_redraws_only_the_rows_that_differ(monkeypatch):
    app = _OnePane.make((30, 10))
    async with app.run_test(size=(30, 10)) as pilot:
        pane = app.query_one(TextPane)
        pane.update("first line\nsecond line\nthird line")
        await pilot.pause()
        drawn: list[int] = []
        real = TextPane.render_line
        monkeypatch.setattr(TextPane, "render_line", lambda self, y: drawn.append(y) or real(self, y))
        pane.update("first line\nanother line\nthird line")
        await pilot.pause()
        assert drawn == [1]  # not the other two lines, not the seven blank rows under them
        drawn.clear()
        pane.update("first line")
        await pilot.pause()
        assert drawn == [1, 2]  # the rows the text left: drawn blank
        drawn.clear()
        pane.update("first line")
        await pilot.pause()
        assert drawn == []
        assert [line.strip() for line in screen_text(app).splitlines()[:3]] == ["first line", "", ""]


async def test_rows_drawn_in_part_never_leave_a_stale_line():
    import random

    from textual.geometry import Region

    rng = random.Random(11)
    words = ["alpha", "be", "gamma", "[b]delta[/b]", "épsilon", "zeta-zeta-zeta", "η", ""]
    app = _OnePane.make((24, 8))
    async with app.run_test(size=(24, 8)) as pilot:
        pane = app.query_one(TextPane)
        for step in range(80):
            lines = [" ".join(rng.choice(words) for _ in range(rng.randrange(0, 6))) for _ in range(rng.randrange(0, 14))]
            pane.update("\n".join(lines))
            if step % 7 == 3:
                pane.scroll_to(y=rng.randrange(0, 6), animate=False)
            await pilot.pause()
            width, height = pane.size
            served = pane.render_lines(Region(0, 0, width, height))  # rows not redrawn come from Textual's cache
            pane._styles_cache.clear()
            fresh = pane.render_lines(Region(0, 0, width, height))
            assert served == fresh, (step, [s.text for s in served], [s.text for s in fresh])

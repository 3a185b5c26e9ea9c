"""The one-widget progress bar of the top bar and the warnings pane."""

from __future__ import annotations

from textual.app import App

from reviewtui.tui.widgets.linebar import LineBar


class _BarApp(App):
    CSS = "LineBar { width: 25; }"

    def compose(self):
        yield LineBar()


async def _drawn(total: int | None, progress: int) -> tuple[str, list[str]]:
    app = _BarApp()
    async with app.run_test(size=(40, 3)) as pilot:
        bar = app.query_one(LineBar)
        bar.update(total=total, progress=progress)
        await pilot.pause()
        text = bar.render()
        colours = [str(span.style.color.name) if span.style.color else "" for span in text.spans]
        return text.plain, colours


async def test_unknown_total_draws_an_empty_line_and_dashes():
    plain, _ = await _drawn(None, 5)
    assert plain == "━" * 20 + "  --%"
    assert (await _drawn(0, 0))[0] == plain


async def test_fraction_fills_half_cells_and_floors_the_percentage():
    plain, _ = await _drawn(1000, 275)  # 27.5 % of 20 cells = 5.5 cells
    assert plain == "━━━━━╸" + "━" * 14 + "  27%"
    assert len(plain) == 25
    assert (await _drawn(1000, 999))[0].endswith("  99%")  # not rounded up to a finished look


async def test_complete_bar_changes_colour_and_progress_is_clamped():
    done, done_colours = await _drawn(10, 10)
    over, _ = await _drawn(10, 12)
    part, part_colours = await _drawn(10, 5)
    assert done == over == "━" * 20 + " 100%"
    assert done_colours[0] != part_colours[0]

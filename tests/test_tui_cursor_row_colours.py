"""The digit that picks a row of a list (the question type, a reject reason) stays readable on the list's cursor.

Drawn in the accent colour on the cursor's background, the digit of the highlighted row (the current type, as the
type picker opens; the reason a digit chose) was all but invisible in most themes: 1.04:1 in nord."""

from __future__ import annotations

import pytest

from reviewtui.evalset.io.settings import AppConfig
from tests.tui_helpers import contrast_ratio as _contrast
from tests.tui_helpers import review_app, settle


def _digit_on_row(app, row_text: str, digit: str) -> float:
    """The contrast of ``digit`` as drawn on the screen's line holding ``row_text``."""
    for strip in app.screen._compositor.render_strips():
        if row_text not in strip.text:
            continue
        for segment in strip:
            if segment.text.strip().endswith(digit) and segment.style is not None:
                return _contrast(segment.style.color.triplet, segment.style.bgcolor.triplet)
    raise AssertionError(f"no line with {row_text!r} and {digit!r}")


@pytest.mark.parametrize("theme", ["nord", "catppuccin-latte", "textual-dark"])
async def test_the_current_types_digit_is_readable_on_the_cursor(tmp_path, theme):
    async with review_app(tmp_path, "types", config=AppConfig(theme=theme)) as (app, pilot, _session):
        await pilot.press("m")
        await settle(pilot, app)
        assert _digit_on_row(app, "(current)", "1") >= 3.0


@pytest.mark.parametrize("theme", ["nord", "catppuccin-latte"])
async def test_the_chosen_reasons_digit_is_readable_on_the_cursor(tmp_path, theme):
    async with review_app(tmp_path, "reasons", config=AppConfig(theme=theme)) as (app, pilot, _session):
        await pilot.press("r", "2")
        await settle(pilot, app)
        assert _digit_on_row(app, "ambiguous", "2") >= 3.0

"""The focused pane's title is readable in a light theme: drawn in the theme's accent (textual-light's orange on
its light grey), "Question" stood at a contrast of 1.5:1 on the pane the arrows scroll."""

from __future__ import annotations

import pytest

from reviewtui.evalset.io.settings import AppConfig
from tests.tui_helpers import contrast_ratio as _contrast
from tests.tui_helpers import review_app


@pytest.mark.parametrize("theme", ["textual-light", "catppuccin-latte", "textual-dark"])
async def test_the_focused_panes_title_is_readable(tmp_path, theme):
    async with review_app(tmp_path, "titles", config=AppConfig(theme=theme)) as (app, _pilot, _session):
        pane = app.screen.focused
        assert pane is not None and pane.border_title
        top = pane.region.y
        strip = app.screen._compositor.render_strips()[top]
        title = [segment for segment in strip if pane.border_title in segment.text]
        assert title, strip.text
        style = title[0].style
        assert _contrast(style.color.triplet, style.bgcolor.triplet) >= 3.0

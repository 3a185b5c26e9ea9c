"""A one-line progress bar drawn by a single widget.

Textual's ProgressBar mounts three widgets (bar, percentage, ETA) and animates
while its total is unknown, redrawing 15 times a second. The review screen has
two bars and wants neither cost: every widget adds to the time before the first
question shows, and an animation competes with the set loader for the
interpreter. This bar is one widget, redrawn only when its value changes.
"""

from __future__ import annotations

import math

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

__all__ = ["LineBar", "bar_cells"]

FULL, HALF = "━", "╸"


def bar_cells(fraction: float | None, width: int) -> tuple[str, str, str]:
    """A bar ``width`` cells wide with its label: the filled part, the rest, and `` 42%`` (`` --%`` unknown)."""
    label = " --%" if fraction is None else f"{math.floor(fraction * 100):>3}%"
    room = max(width - len(label) - 1, 0)
    halves = 0 if fraction is None else math.floor(fraction * room * 2)
    done = FULL * (halves // 2) + (HALF if halves % 2 else "")
    return done, FULL * (room - len(done)), label


class LineBar(Widget, can_focus=False):
    """Filled cells for the part done, a dim line for the rest, and a percentage (``--%`` until known)."""

    COMPONENT_CLASSES = {"linebar--done", "linebar--complete", "linebar--todo"}
    DEFAULT_CSS = """
    LineBar {
        height: 1;
        .linebar--done {
            color: $primary;
        }
        .linebar--complete {
            color: $success;
        }
        .linebar--todo {
            color: $surface;
        }
    }
    """

    fraction: reactive[float | None] = reactive(None)
    """How much is done, 0 to 1, or None while the total is not known."""

    def update(self, *, total: int | None, progress: int) -> None:
        """Show ``progress`` of ``total`` (a total of None or 0 means not known yet)."""
        self.fraction = min(max(progress / total, 0.0), 1.0) if total else None

    def render(self) -> Text:
        fraction = self.fraction
        done, todo, label = bar_cells(fraction, self.size.width)
        style = "linebar--complete" if fraction is not None and fraction >= 1 else "linebar--done"
        return Text.assemble(
            (done, self.get_component_rich_style(style)),
            (todo, self.get_component_rich_style("linebar--todo")),
            " ",
            label,
            no_wrap=True,
            end="",
        )

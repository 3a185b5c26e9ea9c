"""Measure text the way terminals draw it: spacing vowel signs take a cell.

Rich (and so Textual, which measures and wraps with Rich's width table) counts the
spacing combining marks of Indic and other Brahmic scripts (Unicode category ``Mc``:
Devanagari's ा ि ी ो, Tamil's ா, ...) as zero cells wide. The C library's ``wcwidth``,
which terminals and tmux follow, counts each as one. A line of Hindi measured by Rich
is then shorter than the terminal draws it: it runs over its pane's border and pushes
the end of the line, words of an answer included, off the screen. Here the marks
are given one cell in Rich's table, so what is wrapped is what fits.

The table is Rich's own (``rich._unicode_data``), changed in place once, before the app
draws anything; should a version of Rich keep it in another shape, nothing is changed
and ``tests/test_tui_cells.py`` fails.
"""

from __future__ import annotations

import unicodedata

__all__ = ["measure_as_terminals_do"]

_done = False


def _split(start: int, end: int) -> list[tuple[int, int, int]]:
    """A zero-width range of Rich's table, with its spacing marks given one cell."""
    runs: list[tuple[int, int, int]] = []
    for codepoint in range(start, end + 1):
        width = 1 if unicodedata.category(chr(codepoint)) == "Mc" else 0
        if runs and runs[-1][2] == width and runs[-1][1] == codepoint - 1:
            runs[-1] = (runs[-1][0], codepoint, width)
        else:
            runs.append((codepoint, codepoint, width))
    return runs


def measure_as_terminals_do() -> bool:
    """Give spacing combining marks one cell in Rich's width table; True once it is done."""
    global _done
    if _done:
        return True
    from rich import cells
    from rich._unicode_data import load

    table = load("auto")
    widths = table.widths
    if not isinstance(widths, list) or not all(isinstance(row, tuple) and len(row) == 3 for row in widths):
        return False
    changed: list[tuple[int, int, int]] = []
    for start, end, width in widths:
        changed.extend(_split(start, end) if width == 0 else [(start, end, width)])
    widths[:] = changed
    # Widths measured before the change (none, when called at start-up) would be kept by these caches.
    cells.get_character_cell_size.cache_clear()
    cells.cached_cell_len.cache_clear()
    _done = True
    return True

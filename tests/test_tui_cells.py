"""Text is measured as terminals draw it: a spacing vowel sign (Devanagari ा ि ी ो) takes a cell.

Rich counted those marks as zero cells while the C library's wcwidth, which terminals and tmux
follow, counts one: a Hindi line then ran over its pane's border and words at its end were not
drawn. The app gives them one cell before anything is measured (reviewtui.tui.cells).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import locale
import unicodedata

import pytest

import reviewtui as cg
import reviewtui.tui.app  # (the width table is set when the app's module is imported)
from tests.tui_helpers import fixed_scan, make_app, open_session, screen_text, settle

ANSWER = (
    "Reinforcement Learning में एक agent trial-and-error के आधार पर सीखता है। उसे या तो rewards मिलते हैं या "
    "penalties, और वो अपने rewards को maximize करने की कोशिश करता है — वो खुद ही यह जान लेता है कि कौन सा काम "
    "करने से reward maximize होगा।"
)


def _libc_wcwidth():
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        locale.setlocale(locale.LC_CTYPE, "C.UTF-8")
    except locale.Error:
        return None
    libc = ctypes.CDLL(name)
    libc.wcwidth.argtypes = [ctypes.c_wchar]
    return lambda text: sum(max(0, libc.wcwidth(character)) for character in text)


def test_spacing_marks_take_a_cell_and_other_widths_are_unchanged():
    from rich.cells import cell_len

    assert unicodedata.category("\u093e") == "Mc"
    assert cell_len("\u0915\u093e") == 2  # का: the letter and its vowel sign
    assert cell_len("\u0915\u094d") == 1  # a virama (Mn) stays without a cell
    assert cell_len("\u0915\u0902") == 1  # an anusvara (Mn) too
    assert cell_len("e\u0301") == 1 and cell_len("中文") == 4 and cell_len("plain") == 5


def test_widths_of_indic_text_are_the_c_librarys():
    wcwidth = _libc_wcwidth()
    if wcwidth is None:
        pytest.skip("no C library wcwidth with a UTF-8 locale here to compare with")
    from rich.cells import cell_len

    for block in (range(0x0900, 0x0980), range(0x0B80, 0x0C00), range(0x0D00, 0x0D80)):  # Devanagari, Tamil, Malayalam
        for codepoint in block:
            character = chr(codepoint)
            if unicodedata.category(character) in ("Mc", "Mn", "Lo"):
                assert cell_len(character) == wcwidth(character), (hex(codepoint), unicodedata.category(character))


async def test_a_hindi_answer_is_drawn_whole_inside_its_pane(tmp_path):
    wcwidth = _libc_wcwidth()
    if wcwidth is None:
        pytest.skip("no C library wcwidth with a UTF-8 locale here to compare with")
    item = cg.EvalItem(id="q1", question="Reinforcement Learning में agent किस आधार पर सीखता है?", answer=ANSWER)
    session = open_session(tmp_path, cg.EvalSet(id="hi", items=(item,)))
    app = make_app(session, scan=fixed_scan())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        lines = screen_text(app).split("\n")
    # every row is as wide on a terminal as the screen, so no pane runs over the next one's border
    assert all(wcwidth(line) == 120 for line in lines), [wcwidth(line) for line in lines]
    drawn = "".join(line.replace("│", "").strip() for line in lines)
    assert "करता" in drawn and "होगा" in drawn

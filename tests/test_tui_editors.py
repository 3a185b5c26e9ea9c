"""Editors keep the real characters of the data and draw them safely.

Saving an editor gives back exactly what it was opened on plus what was typed:
no tab, CR, escape, bidi mark or invisible character is rewritten into its
visible stand-in, and no line break is normalised. What reaches the terminal
holds no unsafe character at all.
"""

from __future__ import annotations

import pytest
from textual import events
from textual.app import App, ComposeResult

import reviewtui as cg
from reviewtui.evalset.review.queue import Verdict
from reviewtui.evalset.text.safe import has_unsafe
from reviewtui.tui.safe import one_cell
from reviewtui.tui.widgets.editors import NoteInput, SafeInput, SafeTextArea, VerbatimDocument
from tests.tui_helpers import fixed_scan, make_app, open_session, screen_text, settle

#: One value per kind of character an editor must keep as it is.
CHARACTER_CLASSES = {
    "tab": "a\tb\t",
    "cr": "a\rb",
    "crlf": "one\r\ntwo\r\n",
    "mixed line ends": "a\r\nb\nc\rd",
    "newline": "first\nsecond",
    "trailing newline": "end\n",
    "esc csi": "x\x1b[2Jy\x1b[31mred",
    "osc clipboard": "x\x1b]52;c;aGk=\x07y",
    "osc link": "\x1b]8;;https://x\x1b\\link\x1b]8;;\x1b\\",
    "c1": "x\x9b2Jy\x85z\x90",
    "other c0 and del": "\x00\x01\x08\x0b\x0c\x1c\x1d\x1e\x1f\x7f",
    "bidi override": "abc\u202edef\u202c \u202a\u202b\u202d",
    "bidi isolates": "\u2066x\u2069 \u2067y\u2069 \u2068z\u2069",
    "lrm rlm alm": "a\u200eb\u200fc\u061cd",
    "line and paragraph separators": "one\u2028two\u2029three",
    "zero width": "a\u200bb\u200cc\u200dd\u2060e\u180e",
    "bom": "\ufeffstart\ufeff",
    "tags": "flag\U000e0067\U000e0062\U000e007f",
    "annotation": "\ufff9a\ufffab\ufffb",
    "arabic with marks": "مرحبا\u200f بالعالم \u200e(1) \u061c٣",
    "hebrew with marks": "שלום\u200f עולם \u200e42",
    "persian zwnj": "می\u200cخواهم",
    "emoji zwj": "👨\u200d👩\u200d👧 family 🏳️\u200d🌈",
    "cjk": "漢字テスト",
    "empty": "",
}
#: Lone surrogates cannot be in a set (the model refuses them) but can reach a widget.
WIDGET_ONLY = {"lone surrogate": "a\ud800b\udfff"}


def strips_text(widget) -> str:
    """Everything the widget sends to the terminal, line by line."""
    lines = widget.render_lines(widget.size.region)
    return "\n".join("".join(segment.text for segment in strip) for strip in lines)


class EditorApp(App[None]):
    def compose(self) -> ComposeResult:
        return iter(())


@pytest.mark.parametrize("value", [*CHARACTER_CLASSES.values(), *WIDGET_ONLY.values()], ids=[*CHARACTER_CLASSES, *WIDGET_ONLY])
def test_verbatim_document_keeps_every_character(value):
    document = VerbatimDocument(value)
    assert document.text == value
    assert document.line_count == value.count("\n") + 1  # only "\n" breaks a line
    for index in range(document.line_count):
        drawn = document.get_line(index)
        assert len(drawn) == len(document.real_line(index))  # columns mean the same character
        assert not has_unsafe(drawn.replace("\t", " "))  # tabs are expanded to spaces by the TextArea
    document.replace_range(document.end, document.end, "!")
    assert document.text == value + "!"
    document.replace_range(document.end, document.end, "\r\nnew")
    assert document.text == value + "!\r\nnew"


def test_textual_own_document_would_change_them():
    # Why VerbatimDocument exists: Textual's Document splits at CR, U+2028 … and rejoins with one line end.
    from textual.document._document import Document

    assert Document("a\r\nb\nc").text != "a\r\nb\nc"
    assert Document("one\u2028two").text != "one\u2028two"


async def test_each_editor_saves_exactly_what_it_was_given_plus_what_was_typed():
    values = {**CHARACTER_CLASSES, **WIDGET_ONLY}
    app = EditorApp()
    async with app.run_test(size=(80, 12)) as pilot:
        editors = {name: (SafeTextArea(value, soft_wrap=True), SafeInput(value=value, select_on_focus=False)) for name, value in values.items()}
        await app.screen.mount_all([widget for pair in editors.values() for widget in pair])
        for area, _field in editors.values():
            area.styles.height = 4
        await pilot.pause()
        for name, (area, field) in editors.items():
            value = values[name]
            assert area.text == value and field.value == value, name  # nothing rewritten on opening
            drawn = strips_text(area) + "\n" + strips_text(field)
            assert not has_unsafe(drawn), (name, drawn)
            first_word = (one_cell(value.split("\n")[0], keep_tabs=True)[0].split() or [""])[0]
            assert first_word[:10] in strips_text(area), name  # the stand-ins are what is shown
            # a key typed at the end, as the focused editor gets it
            area.move_cursor(area.document.end)
            area.post_message(events.Key("exclamation_mark", "!"))
            field.cursor_position = len(field.value)
            field.post_message(events.Key("question_mark", "?"))
        await pilot.pause()
        for name, (area, field) in editors.items():
            value = values[name]
            assert area.text == value + "!", name
            assert field.value == value + "?", name
            assert not has_unsafe(strips_text(area) + strips_text(field)), name


async def test_a_typed_joiner_or_direction_mark_is_kept():
    """Typed, a zero-width non-joiner (Persian "می‌شود"), an emoji's zero-width joiner and a direction mark
    were dropped: Textual inserts only what str.isprintable calls printable. The word was saved spelled otherwise."""
    app = EditorApp()
    async with app.run_test(size=(80, 12)) as pilot:
        area, field, note = SafeTextArea("می", soft_wrap=True), SafeInput(value="می"), NoteInput(value="👩")
        await app.screen.mount_all([area, field, note])
        await pilot.pause()
        area.move_cursor(area.document.end)
        field.cursor_position = len(field.value)
        note.cursor_position = len(note.value)
        for widget, typed in ((area, "\u200cشود\u200f"), (field, "\u200cشود"), (note, "\u200d💻")):
            for character in typed:
                widget.post_message(events.Key(f"key_{ord(character):x}", character))
        await pilot.pause()
        assert area.text == "می\u200cشود\u200f"
        assert field.value == "می\u200cشود"
        assert note.value == "👩\u200d💻"
        # a control character is not typed text: ctrl+b stays a key, not a character in the field
        field.post_message(events.Key("ctrl+b", "\x02"))
        await pilot.pause()
        assert field.value == "می\u200cشود"


async def test_cursor_columns_count_each_stand_in_as_one_cell():
    app = EditorApp()
    async with app.run_test(size=(40, 8)) as pilot:
        field = SafeInput(value="a\x1b\u202eb", select_on_focus=False)
        area = SafeTextArea("a\x1b\u202eb")
        await app.screen.mount(field, area)
        await pilot.pause()
        # Textual measures these characters as zero cells wide; drawn as one cell each, the cursor
        # after "b" must be in column 4, or it would sit on the wrong character
        assert field._value.plain == "a␛⇄b" and field._position_to_cell(4) == 4
        area.move_cursor((0, 4))
        assert area.cursor_screen_offset.x - area.content_region.x == 4


# ---- through the app: the edit dialog and the note dialog -----------------------------------------

EVERYTHING = "".join(CHARACTER_CLASSES.values())


def editing_set() -> cg.EvalSet:
    return cg.EvalSet(
        id="editors",
        items=(
            cg.EvalItem(
                id="all",
                question="Q " + EVERYTHING + "?",
                answer="A " + EVERYTHING,
                anchors=(cg.GoldAnchor(source_id="doc.md", quote="quote " + EVERYTHING),),
                qtype="factoid",
            ),
            cg.EvalItem(id="next", question="Another question?"),
        ),
    )


def journal_size(session) -> int:
    return session.journal_path.stat().st_size


async def test_edit_dialog_keeps_every_character_of_every_field(tmp_path):
    evalset = editing_set()
    item = evalset.items[0]
    session = open_session(tmp_path, evalset)
    app = make_app(session, scan=fixed_scan())
    try:
        async with app.run_test(size=(120, 50)) as pilot:
            await settle(pilot, app)
            # opened and saved untouched: no edit, nothing written
            before = journal_size(session)
            await pilot.press("e")
            await pilot.pause()
            assert not has_unsafe(screen_text(app)), "the dialog drew an unsafe character"
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert session.queue.decided == 0 and journal_size(session) == before

            # one character typed at the end of the question and of the quote: only those change
            await pilot.press("e")
            await pilot.pause()
            question = app.screen.query_one("#edit-question", SafeTextArea)
            question.move_cursor(question.document.end)
            await pilot.press("!")
            quote = app.screen.query_one("#edit-quote", SafeTextArea)
            quote.focus()
            quote.move_cursor(quote.document.end)
            await pilot.press("+")
            assert not has_unsafe(screen_text(app))
            await pilot.press("ctrl+s")
            await pilot.pause()
    finally:
        session.close()
    decision = session.queue.decision_for("all")
    assert decision.verdict is Verdict.EDITED
    assert decision.after.question == item.question + "!"
    assert decision.after.answer == item.answer
    assert decision.after.anchors[0].quote == item.anchors[0].quote + "+"
    assert decision.after.qtype == item.qtype


async def test_note_dialog_keeps_the_note_as_it_was(tmp_path):
    evalset = editing_set()
    note = "note " + EVERYTHING
    session = open_session(tmp_path, evalset)
    session.note(note)
    app = make_app(session, scan=fixed_scan())
    try:
        async with app.run_test(size=(120, 30)) as pilot:
            await settle(pilot, app)
            before = journal_size(session)
            await pilot.press("n")
            await pilot.pause()
            assert not has_unsafe(screen_text(app))
            await pilot.press("enter")  # untouched: the note stays, nothing is written
            await pilot.pause()
            assert session.queue.note_for("all") == note and journal_size(session) == before
            await pilot.press("n", "end", "!", "enter")
            await pilot.pause()
            assert session.queue.note_for("all") == note + "!"
            # A key typed at once adds to the note: the whole note was selected, and one key replaced it.
            await pilot.press("n", "?", "enter")
            await pilot.pause()
            assert session.queue.note_for("all") == note + "!?"
    finally:
        session.close()


async def test_a_draft_the_journal_refused_is_added_to_not_replaced(tmp_path):
    """After a failed save (a full disk) the note dialog came back holding the draft, all of it selected:
    the next key typed replaced a note of pages with one letter."""
    from reviewtui.tui.screens.dialogs import NoteScreen

    app = EditorApp()
    async with app.run_test(size=(80, 12)) as pilot:
        app.push_screen(NoteScreen("q1", current="", draft="a long draft"))
        await pilot.pause()
        await pilot.press("Z")
        await pilot.pause()
        assert app.screen.query_one("#note", NoteInput).value == "a long draftZ"


async def test_a_paste_into_a_search_field_takes_its_first_line_once_and_into_a_note_all_of_it():
    app = EditorApp()
    async with app.run_test(size=(60, 8)) as pilot:
        field = SafeInput(select_on_focus=False)
        note = NoteInput(select_on_focus=False)
        await app.screen.mount(field, note)
        for widget in (field, note):
            widget.focus()
            await pilot.pause()
            app.post_message(events.Paste("first\x1b line\nsecond line"))
            await pilot.pause()
            await pilot.pause()
        assert field.value == "first\x1b line"  # the real characters, once
        assert note.value == "first\x1b line\nsecond line"
        assert "\n" not in note._value.plain and "\x1b" not in note._value.plain  # drawn as stand-ins


async def test_a_paste_over_several_lines_into_a_text_area_keeps_its_lines():
    """Terminals send a pasted line break as a carriage return (xterm, VTE, tmux), some as CR LF: a pasted
    paragraph became one line with a CR stand-in where each break was, and was saved with lone CRs."""
    app = EditorApp()
    async with app.run_test(size=(60, 8)) as pilot:
        area = SafeTextArea("kept\r as it was|", soft_wrap=True)
        await app.screen.mount(area)
        area.focus()
        area.move_cursor(area.document.end)
        await pilot.pause()
        app.post_message(events.Paste("first\rsecond\r\nthird\nfourth \x1b\u200b"))
        await pilot.pause()
        await pilot.pause()
        # the text it held keeps its CR; the pasted breaks are breaks, as Enter types them
        assert area.text == "kept\r as it was|first\nsecond\nthird\nfourth \x1b\u200b"
        assert area.cursor_location == (3, len("fourth \x1b\u200b"))


async def test_a_note_pasted_from_a_terminal_keeps_line_breaks_not_carriage_returns():
    app = EditorApp()
    async with app.run_test(size=(60, 8)) as pilot:
        note = NoteInput(value="was\r", select_on_focus=False)
        await app.screen.mount(note)
        note.focus()
        note.cursor_position = len(note.value)
        await pilot.pause()
        app.post_message(events.Paste("first\rsecond\r\nthird"))  # as a terminal sends three pasted lines
        await pilot.pause()
        await pilot.pause()
        assert note.value == "was\rfirst\nsecond\nthird"

"""Editors that keep the real characters of the data and only draw them safely.

A question, quote or note may hold characters that must never reach the
terminal as themselves (escape sequences, bidi overrides, zero-width
characters; see :mod:`reviewtui.evalset.text.safe`). Editing must not change
them either: a quote has to keep matching its document, and an Arabic or Hebrew
set needs its direction marks. So these editors hold the text exactly as
given, and what is saved is that text plus whatever the reviewer typed; only
the drawing replaces each unsafe character with a one-cell stand-in
(:func:`~reviewtui.tui.safe.one_cell`), so cursor columns stay those of the
real text.
"""

from __future__ import annotations

import unicodedata

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.document._document import Document, EditResult, Location
from textual.document._document_navigator import DocumentNavigator
from textual.document._wrapped_document import WrappedDocument
from textual.geometry import Size, clamp
from textual.widgets import Input, TextArea

from reviewtui.tui.safe import CONTROL_STYLE, one_cell

__all__ = ["NoteInput", "SafeInput", "SafeTextArea", "VerbatimDocument", "pasted_line_breaks"]


def pasted_line_breaks(text: str) -> str:
    """A paste's line breaks as Enter types them: a terminal sends each one as CR (xterm, VTE, tmux) or CR LF."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def typed_format_character(event: events.Key) -> str | None:
    """The invisible character a key typed, when it is one: a zero-width joiner or non-joiner (Persian
    "می‌شود", an emoji family), a direction mark. Textual inserts only what ``str.isprintable`` calls
    printable, and these are not, so typed they were dropped and the word saved spelled otherwise."""
    character = event.character
    if character is not None and len(character) == 1 and unicodedata.category(character) == "Cf":
        return character
    return None


def _drawn_line(line: str) -> str:
    # TextArea expands tabs into spaces itself, so they are left for it
    return one_cell(line, keep_tabs=True)[0]


class VerbatimDocument(Document):
    """A TextArea document that gives back exactly the text it was given.

    Textual's own Document splits lines with ``str.splitlines`` (which also
    breaks at CR, VT, FF, FS/GS/RS, NEL, U+2028 and U+2029) and joins them
    again with the first kind of line break it saw, so a text with CR LF, a
    lone CR or a U+2028 would be saved changed. Here only ``"\\n"`` breaks a
    line; every other character stays inside its line.

    The TextArea measures, wraps and draws what ``lines``, ``get_line`` and
    indexing return: the drawn form of each line, of the same length. The real
    characters are what ``text`` and ``get_text_range`` (copy, undo) return.
    """

    def __init__(self, text: str) -> None:
        self._newline = "\n"
        self._lines: list[str] = text.split("\n")
        self._drawn: list[str] = [_drawn_line(line) for line in self._lines]

    @property
    def lines(self) -> list[str]:
        return self._drawn

    @property
    def text(self) -> str:
        return "\n".join(self._lines)

    @property
    def newline(self) -> str:  # type: ignore[override]
        return "\n"

    def real_line(self, index: int) -> str:
        """The line's real characters (``get_line`` gives the drawn ones)."""
        return self._lines[index]

    def get_line(self, index: int) -> str:
        return self._drawn[index]

    def __getitem__(self, line_index):
        return self._drawn[line_index]

    def get_size(self, tab_width: int) -> Size:
        widths = [cell_len(line.expandtabs(tab_width)) for line in self._drawn]
        return Size(max(widths, default=0), len(self._drawn))

    def replace_range(self, start: Location, end: Location, text: str) -> EditResult:
        """Document.replace_range, with the inserted text split at "\\n" only."""
        top, bottom = sorted((start, end))
        top_row, top_column = top
        bottom_row, bottom_column = bottom
        lines = self._lines
        replaced_text = self.get_text_range(top, bottom)
        after_selection = "" if bottom_row >= len(lines) else lines[bottom_row][bottom_column:]
        before_selection = "" if top_row >= len(lines) else lines[top_row][:top_column]
        insert_lines = text.split("\n")
        insert_lines[0] = before_selection + insert_lines[0]
        destination_column = len(insert_lines[-1])
        insert_lines[-1] = insert_lines[-1] + after_selection
        lines[top_row : bottom_row + 1] = insert_lines
        self._drawn[top_row : bottom_row + 1] = [_drawn_line(line) for line in insert_lines]
        return EditResult((top_row + len(insert_lines) - 1, destination_column), replaced_text)


class SafeTextArea(TextArea):
    """A plain-text TextArea on a :class:`VerbatimDocument`, stand-ins drawn in CONTROL_STYLE."""

    def _set_document(self, text: str, language: str | None) -> None:
        # TextArea._set_document without the languages: these editors are plain text only.
        document = VerbatimDocument(text)
        self._highlight_query = None
        self.document = document
        self.wrapped_document = WrappedDocument(document, tab_width=self.indent_width)
        self.navigator = DocumentNavigator(self.wrapped_document)
        self._build_highlight_map()
        self.move_cursor((0, 0))
        self._rewrap_and_refresh_virtual_size()

    async def _on_paste(self, event: events.Paste) -> None:
        # A terminal sends each line break of a paste as a carriage return (xterm, VTE, tmux; a few as CR LF),
        # the way it sends Enter: kept as it came, a pasted paragraph was one line with a CR stand-in at each
        # break, and saved so. Here they are line breaks, as Enter types them; the text already there is untouched.
        # (Textual runs the paste handler of every class in the MRO: TextArea's would paste the CRs again.)
        event.prevent_default()
        if self.read_only:
            return
        text = pasted_line_breaks(event.text)
        if result := self._replace_via_keyboard(text, *self.selection):
            self.move_cursor(result.end_location)
            self.focus()

    async def _on_key(self, event: events.Key) -> None:
        # Textual runs the key handler of every class in the MRO; TextArea's leaves these characters out.
        if not self.read_only and (character := typed_format_character(event)) is not None:
            event.stop()
            event.prevent_default()
            self._restart_blink()
            self._replace_via_keyboard(character, *self.selection)

    def get_line(self, line_index: int) -> Text:
        document = self.document
        drawn = document.get_line(line_index)
        line = Text(drawn, end="", no_wrap=True)
        real = document.real_line(line_index) if isinstance(document, VerbatimDocument) else drawn
        if real != drawn:
            for index, (was, shown) in enumerate(zip(real, drawn, strict=False)):
                if was != shown:
                    line.stylize(CONTROL_STYLE, index, index + 1)
        return line


class SafeInput(Input):
    """An Input whose value keeps every character; unsafe ones (and newlines) are drawn as stand-ins."""

    def _drawn(self) -> tuple[str, list[int]]:
        return one_cell(self.value, one_line=True)

    async def _on_key(self, event: events.Key) -> None:
        # Textual runs the key handler of every class in the MRO; Input's leaves these characters out.
        if (character := typed_format_character(event)) is not None:
            event.stop()
            event.prevent_default()
            selection = self.selection
            if selection.is_empty:
                self.insert_text_at_cursor(character)
            else:
                self.replace(character, *selection)

    @property
    def _value(self) -> Text:
        if self.password:
            return super()._value
        drawn, marks = self._drawn()
        text = Text(drawn, no_wrap=True, overflow="ignore", end="")
        for index in marks:
            text.stylize(CONTROL_STYLE, index, index + 1)
        return text

    def _position_to_cell(self, position: int) -> int:
        # the drawn text has one character per character of the value, so positions carry over
        return cell_len(self._drawn()[0][:position])

    def _cell_offset_to_index(self, offset: int) -> int:
        drawn = self._drawn()[0]
        scroll_x, _ = self.scroll_offset
        offset += scroll_x
        cell_offset = 0
        for index, char in enumerate(drawn):
            width = cell_len(char)
            if cell_offset <= offset < cell_offset + width:
                return index
            cell_offset += width
        return clamp(offset, 0, len(self.value))


class NoteInput(SafeInput):
    """A one-line note field that keeps a multi-line paste whole, its line breaks drawn as stand-ins:
    Input keeps a paste's first line, and a note pasted from several lines is the reviewer's, all of it.
    (A search or a goto field keeps the first line.)"""

    def _on_paste(self, event: events.Paste) -> None:
        # Textual runs the paste handler of every class in the MRO: Input's (the first line) would
        # run after this one unless the default is prevented.
        event.prevent_default()
        if event.text:
            text = pasted_line_breaks(event.text)  # a terminal's CR for each break: the note keeps line breaks
            selection = self.selection
            if selection.is_empty:
                self.insert_text_at_cursor(text)
            else:
                self.replace(text, *selection)
        event.stop()

"""Small modal dialogs: question type, note, go to, search (the reject reason is a panel: widgets/reasons.py).

Each one returns its answer through ``dismiss`` (``None`` when cancelled) and
holds no review logic: the review screen passes the answer to the session.
Letters typed here never reach the review keys, because those bindings live on
the review screen, not on the app.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence, Set

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.events import Key
from textual.message import Message
from textual.screen import ScreenResultType
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option
from textual.worker import get_current_worker

from reviewtui.evalset.model.errors import EvalSetError
from reviewtui.evalset.model.flag import Flag
from reviewtui.evalset.review.queue import ReviewQueue
from reviewtui.evalset.review.search import SearchHit, search_queue
from reviewtui.tui.safe import join, safe, safe_plain
from reviewtui.tui.screens.base import Dialog
from reviewtui.tui.widgets.editors import NoteInput, SafeInput
from reviewtui.tui.widgets.reasons import DETAIL_STYLE, NUMBER_STYLE

__all__ = [
    "GotoScreen",
    "NoteScreen",
    "SearchScreen",
    "TypePickerScreen",
]

_DIGITS = "123456789"  # ASCII only: "²" or "٣" is not a digit key here


class _Dialog(Dialog[ScreenResultType]):
    """A centred box; Escape cancels."""

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="dialog.cancel")]

    def action_cancel(self) -> None:
        if self.may_discard("Esc again"):
            self.dismiss(None)


class _Numbered(_Dialog[ScreenResultType]):
    """A dialog whose list's rows start with the digit that picks them. The row under the list's cursor is drawn
    in the cursor's colour (see widgets.reasons.NUMBER_STYLE): its digit in the accent colour, on the cursor's
    background, could not be read."""

    _marked: int | None = None  # the row drawn as the cursor's

    def _option(self, number: int, text: str, highlighted: bool = False) -> Option:
        raise NotImplementedError

    def _options(self) -> list[str]:
        raise NotImplementedError

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        rows, options = event.option_list, self._options()
        now = event.option_index
        if now == self._marked:
            return
        if self._marked is not None and self._marked < len(options):
            rows.replace_option_prompt_at_index(self._marked, self._option(self._marked + 1, options[self._marked]).prompt)
        rows.replace_option_prompt_at_index(now, self._option(now + 1, options[now], highlighted=True).prompt)
        self._marked = now


class TypePickerScreen(_Numbered[str | None]):
    """Mark the question type: a digit or Enter picks."""

    def __init__(self, types: Sequence[str], current: str | None) -> None:
        super().__init__()
        self._types = list(types)
        if current and current not in self._types:
            self._types.append(current)
        self._current = current

    def compose(self) -> ComposeResult:
        with Vertical(classes="box"):
            yield Static("Question type", classes="box-title")
            yield OptionList(*(self._option(n, t) for n, t in enumerate(self._types, 1)), id="types")
            yield Static("digit or Enter: choose · Esc: cancel", classes="hint")

    def _options(self) -> list[str]:
        return self._types

    def _option(self, number: int, qtype: str, highlighted: bool = False) -> Option:
        key = Content.styled(f"{number} " if number <= 9 else "  ", NUMBER_STYLE[highlighted])
        current = Content.styled("  (current)", DETAIL_STYLE[highlighted]) if qtype == self._current else ""
        return Option(join(key, safe(qtype, one_line=True, limit=80), current))

    def on_mount(self) -> None:
        types = self.query_one("#types", OptionList)
        if self._current in self._types:
            types.highlighted = self._types.index(self._current)
        types.focus()

    def on_key(self, event: Key) -> None:
        if event.character and event.character in _DIGITS[: len(self._types)]:
            event.stop()
            self.dismiss(self._types[int(event.character) - 1])

    @on(OptionList.OptionSelected, "#types")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self._types[event.option_index])


class WarningPickerScreen(_Numbered[str | None]):
    """Which of the item's warnings is not a problem (or, if dismissed already, is one after all)."""

    def __init__(self, flags: Sequence[Flag], dismissed: Set[str]) -> None:
        super().__init__()
        self._checks = list(dict.fromkeys(flag.check for flag in flags))
        self._reasons = {flag.check: flag.reason for flag in reversed(flags)}
        self._dismissed = dismissed

    def compose(self) -> ComposeResult:
        with Vertical(classes="box"):
            yield Static("Not a problem?", classes="box-title")
            yield OptionList(*(self._option(n, c) for n, c in enumerate(self._checks, 1)), id="warnings")
            yield Static("digit or Enter: choose · Esc: cancel", classes="hint")

    def _options(self) -> list[str]:
        return self._checks

    def _option(self, number: int, check: str, highlighted: bool = False) -> Option:
        key = Content.styled(f"{number} " if number <= 9 else "  ", NUMBER_STYLE[highlighted])
        detail = DETAIL_STYLE[highlighted]
        state = Content.styled("  dismissed: choose to take it back", detail) if check in self._dismissed else ""
        said = self._reasons.get(check, "")
        said = said if len(said) <= 60 else said[:59] + "…"  # a line of a list: the rest is in the warnings pane
        reason = Content.styled("  " + safe_plain(said, one_line=True, limit=None), detail)
        return Option(join(key, safe(check, one_line=True, limit=60), state, reason))

    def on_mount(self) -> None:
        self.query_one("#warnings", OptionList).focus()

    def on_key(self, event: Key) -> None:
        if event.character and event.character in _DIGITS[: len(self._checks)]:
            event.stop()
            self.dismiss(self._checks[int(event.character) - 1])

    @on(OptionList.OptionSelected, "#warnings")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self._checks[event.option_index])


class NoteScreen(_Dialog[str | None]):
    """A note on the current item, kept in the journal without deciding anything."""

    def __init__(self, item_id: str, current: str = "", draft: str | None = None) -> None:
        """``current``: the item's note; ``draft``: a note typed before that could not be saved, shown instead."""
        super().__init__()
        self._item_id = item_id
        self._current = current
        self._draft = draft

    def compose(self) -> ComposeResult:
        with Vertical(classes="box"):
            yield Static(join("Note on ", safe(self._item_id, one_line=True, limit=120)), classes="box-title")
            # the note as it is: saving it untouched gives back the same characters
            shown = self._current if self._draft is None else self._draft
            # Not selected on focus: selected, the first key typed replaced the whole note, and a draft a full
            # disk refused was gone with one letter. The cursor starts at the end, to add to it.
            yield NoteInput(value=shown, placeholder="a note for later", id="note", select_on_focus=False)
            yield Static("Enter: save · Esc: cancel", classes="hint")

    def unsaved(self) -> str | None:
        value = self.query_one("#note", SafeInput).value
        return value if value != self._current else None

    def unsaved_hint(self, again: str) -> str:
        return f"Enter saves the note; {again} discards it"

    @on(SafeInput.Submitted, "#note")
    def _save(self, event: SafeInput.Submitted) -> None:
        self.dismiss(event.value)


class GotoScreen(_Dialog[str | None]):
    """Jump to an item by its id or its position (1-based).

    ``check(text)`` raises an error for text that names no item; the dialog then says why under the field
    and stays open with the text as typed, to be corrected, instead of closing on a notice and losing it.
    """

    def __init__(self, total: int, still_reading: bool = False, check: Callable[[str], object] | None = None) -> None:
        super().__init__()
        self._total = total
        self._still_reading = still_reading
        self._check = check

    def compose(self) -> ComposeResult:
        with Vertical(classes="box"):
            yield Static("Go to", classes="box-title")
            yield SafeInput(placeholder=self._placeholder_text(), id="target")
            yield Static("", id="goto-problem", classes="problem")
            yield Static("Enter: go · Esc: cancel · / searches ids, questions, answers and quotes", classes="hint")

    def _placeholder_text(self) -> str:
        # While the set is read the count grows: the range is what has been read so far, and says so.
        so_far = " so far (still reading)" if self._still_reading else ""
        return f"item id, or a position 1–{self._total:,}{so_far}"

    @on(SafeInput.Changed, "#target")
    def _edited(self) -> None:
        self.query_one("#goto-problem", Static).display = False  # said of the text before this change

    @on(SafeInput.Submitted, "#target")
    def _go(self, event: SafeInput.Submitted) -> None:
        value = event.value.strip()
        if value and self._check is not None:
            try:
                self._check(value)
            except EvalSetError as exc:
                problem = self.query_one("#goto-problem", Static)
                problem.update(safe(exc.message, style="$text-error", limit=300))
                problem.display = True
                return
        self.dismiss(value or None)


class SearchScreen(_Dialog[int | None]):
    """Search questions, answers, quotes and ids; pick a hit to jump to it.

    The scan runs in a worker thread when Enter is pressed (not on every
    keystroke), so a 100k-item set never blocks typing.
    """

    class Hits(Message):
        """A search's hits, from its worker thread: posted, never waited on (see _run_search)."""

        def __init__(self, hits: list[SearchHit], read_so_far: int | None) -> None:
            super().__init__()
            self.hits = hits
            self.read_so_far = read_so_far

    def __init__(
        self,
        queue: ReviewQueue,
        last_query: str = "",
        remember: Callable[[str], None] | None = None,
        still_reading: Callable[[], bool] | None = None,
    ) -> None:
        super().__init__()
        self._queue = queue
        self._last_query = last_query
        self._remember = remember
        # Asked as each search starts: while the set is read, a count of hits is of the part read so far.
        self._still_reading = still_reading
        self._hits: list[SearchHit] = []

    def compose(self) -> ComposeResult:
        with Vertical(classes="box"):
            yield Static("Search", classes="box-title")
            yield SafeInput(value=self._last_query, placeholder="text in a question, answer, quote or id", id="query")
            yield OptionList(id="hits")
            yield Static("Enter: search · ↓ then Enter: open · Esc: cancel", classes="hint", id="search-hint")

    def on_key(self, event: Key) -> None:
        hits = self.query_one("#hits", OptionList)
        query = self.query_one("#query", SafeInput)
        if event.key == "down" and self.focused is query and hits.option_count:
            hits.focus()
            event.stop()
        elif self.focused is hits and (event.is_printable or event.key == "backspace"):
            # Typing goes on in the field: the focus moves to the hits after a search, not the reviewer's words.
            query.select_on_focus = False  # the words typed so far stay, the key goes after them
            query.focus()
            if event.key == "backspace":
                query.action_delete_left()
            elif event.character:
                query.insert_text_at_cursor(event.character)
            event.stop()

    @on(SafeInput.Changed, "#query")
    def _query_changed(self) -> None:
        # The hits listed were found for the words before this change: a count or a hit of theirs would mislead.
        if self._hits:
            self._hits = []
            self.query_one("#hits", OptionList).clear_options()
        self.query_one("#search-hint", Static).update("Enter: search · ↓ then Enter: open · Esc: cancel")

    @on(SafeInput.Submitted, "#query")
    def _search(self, event: SafeInput.Submitted) -> None:
        if self._remember is not None:
            self._remember(event.value)
        self.query_one("#search-hint", Static).update("searching…")
        partial = self._still_reading is not None and self._still_reading()
        self._run_search(event.value, len(self._queue) if partial else None)

    @work(thread=True, exclusive=True, group="search", description="search")
    def _run_search(self, query: str, read_so_far: int | None = None) -> None:
        worker = get_current_worker()
        # The items counted as read are the ones searched: a batch read meanwhile would make the count say fewer.
        hits = search_queue(self._queue, query, cancelled=lambda: worker.is_cancelled, upto=read_so_far)
        if not worker.is_cancelled:
            # Posted, not through call_from_thread: that waits for the app's loop to run the call, and a loop that
            # is closing (the reviewer quit while the search ran) never does, holding this thread for ever.
            self.post_message(self.Hits(hits, read_so_far))

    @on(Hits)
    def _hits_found(self, message: Hits) -> None:
        self._show_hits(message.hits, message.read_so_far)

    def _show_hits(self, hits: list[SearchHit], read_so_far: int | None = None) -> None:
        """``read_so_far``: the set was still being read, and this many items were searched (None: all of it)."""
        if self.answered or not self.is_attached:
            return  # the search finished after the dialog was closed
        self._hits = hits
        options = self.query_one("#hits", OptionList)
        options.clear_options()
        options.add_options(
            Option(
                join(
                    Content.styled(f"{hit.number:>6} ", "dim"),  # the place the status line and g use
                    safe(hit.item_id, style="bold", one_line=True, limit=60),
                    Content.styled(f"  {hit.field}: ", "dim"),
                    safe(hit.snippet, one_line=True, limit=200),
                )
            )
            for hit in hits
        )
        more = " (first 500)" if len(hits) >= 500 else ""
        if read_so_far is not None:  # "0 found" of a set mostly unread would say the text is nowhere in it
            more += f" in the {read_so_far:,} read so far (still reading)"
        self.query_one("#search-hint", Static).update(
            Content(f"{len(hits):,} found{more} · " + ("↓ then Enter: open · " if hits else "") + "Esc: cancel")
        )
        if hits:
            options.highlighted = 0
            if len(hits) == 1:
                options.focus()

    @on(OptionList.OptionSelected, "#hits")
    def _open(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self._hits[event.option_index].position)

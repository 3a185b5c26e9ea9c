"""The reject reason picker: a panel drawn over the bottom of the review screen, not a dialog screen.

A dialog is a screen of its own: opening one made Textual draw the whole review screen again,
dimmed, under it, and closing it drew the review screen once more, about two thirds of a
reject's cost and two whole screens of output to the terminal. The panel is drawn on a layer of
the review screen, so showing it draws the panel and hiding it the rows it covered.

While it is shown it is *modal* for keys (``is_modal``): Textual looks for a key's binding from the
focused widget up to the first modal node, so no review key (accept, next item, export) runs
behind it, and the focus stays in it (``trap_focus``; the review screen takes the focus back
if a click moves it out). Quitting, a priority key, still works, and asks first if a note is
typed (see :class:`~reviewtui.tui.screens.base.GuardsTyping`).

Keys: a digit picks a reason (the focus stays on the list, so the digit repaints one line);
anything else typed is the note, a digit after the reason included; Enter rejects; Esc cancels.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.events import DescendantFocus, Key, Paste
from textual.message import Message
from textual.widget import Widget
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from reviewtui.tui.safe import join, safe
from reviewtui.tui.screens.base import GuardsTyping
from reviewtui.tui.widgets.editors import NoteInput, SafeInput

__all__ = ["ReasonPicker", "RejectChoice", "numbered"]

_DIGITS = "123456789"  # ASCII only: "²" or "٣" is not a digit key here
_CHOSEN = "▸ "  # before the chosen reason


#: A row's digit, and what the row says after its label, as drawn off the list's cursor and on it. On the cursor's
#: background (the highlighted row) the accent colour and the dimming made them unreadable in most themes: the
#: digit of the current type drew at a contrast of 1.04:1 in nord and catppuccin-mocha, 1.13:1 in catppuccin-latte.
NUMBER_STYLE = {False: "bold $text-accent", True: "bold"}
DETAIL_STYLE = {False: "dim", True: "italic"}


def numbered(number: int, label: str, detail: str = "", *, highlighted: bool = False) -> Content:
    """An option as ``1 label  detail``, the number in the accent colour, the detail dimmed; ``highlighted``:
    drawn on the list's cursor, in the cursor's own colour (bold number, italic detail)."""
    parts: list[Content | str] = [Content.styled(f"{number} ", NUMBER_STYLE[highlighted]), label]
    if detail:
        parts.append(Content.styled(f"  {detail}", DETAIL_STYLE[highlighted]))
    return join(*parts)


@dataclass(frozen=True)
class RejectChoice:
    reason: str | None
    note: str


class _ReasonList(OptionList):
    """Reasons to pick from; Enter with none highlighted means "reject without a reason"."""

    class Confirmed(Message):
        pass

    def action_select(self) -> None:
        if self.highlighted is None:
            self.post_message(self.Confirmed())
        else:
            super().action_select()


class ReasonPicker(GuardsTyping, Vertical):
    """Reject: an optional reason (a digit), an optional note, Enter to confirm, Esc to cancel.

    Built with the review screen and shown again for every reject (:meth:`ask_about`), hidden
    otherwise. Its answer is a :class:`Chosen` or a :class:`Cancelled` message, posted once.
    """

    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="reject.cancel"),
        # The screen's Tab keys are behind the panel (it is modal): these move within it.
        Binding("tab", "app.focus_next", "Next field", id="reject.next_field", show=False),
        Binding("shift+tab", "app.focus_previous", "Previous field", id="reject.previous_field", show=False),
    ]

    class Chosen(Message):
        def __init__(self, choice: RejectChoice) -> None:
            super().__init__()
            self.choice = choice

    class Cancelled(Message):
        pass

    def __init__(self, reasons: Sequence[tuple[str, str]], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._reasons = list(reasons)
        self._item_id = ""
        self._picked = False  # a digit has chosen the reason: what is typed next is the note
        self._answered = True  # nothing asked yet
        self._last_inside: Widget | None = None  # the picker's widget that last had the focus
        self._marked: int | None = None  # the reason whose line is marked as chosen
        self.display = False
        self.trap_focus()

    @property
    def is_modal(self) -> bool:
        return bool(self.display)

    @property
    def is_open(self) -> bool:
        """Shown and not yet answered."""
        return bool(self.display) and not self._answered

    def compose(self) -> ComposeResult:
        yield Static(self._title(), classes="box-title")
        yield _ReasonList(
            *(Option(self._prompt(n, False), id=code) for n, (code, _) in enumerate(self._reasons)),
            id="reasons",
        )
        yield Static("Note (optional)", classes="field-label")
        yield NoteInput(placeholder="why? (Enter rejects)", id="note", select_on_focus=False)
        yield Static("digit: a reason · type: a note · Enter: reject · Esc: cancel", classes="hint")

    def _title(self) -> Content:
        return join("Reject ", safe(self._item_id, one_line=True, limit=120))

    def _prompt(self, index: int, chosen: bool) -> Content:
        """A reason's line; the chosen one is marked in text as well as by the highlight's colour, which a
        terminal without colours (or NO_COLOR) does not show."""
        code, label = self._reasons[index]
        mark = Content.styled(_CHOSEN, NUMBER_STYLE[True]) if chosen else " " * len(_CHOSEN)
        return join(mark, numbered(index + 1, code, label, highlighted=chosen))

    def _mark(self, index: int | None) -> None:
        reasons = self.query_one("#reasons", OptionList)
        if self._marked == index:
            return
        if self._marked is not None:
            reasons.replace_option_prompt_at_index(self._marked, self._prompt(self._marked, False))
        if index is not None:
            reasons.replace_option_prompt_at_index(index, self._prompt(index, True))
        self._marked = index

    @on(OptionList.OptionHighlighted, "#reasons")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._mark(event.option_index)

    @property
    def item_id(self) -> str:
        """The item the picker was last asked about."""
        return self._item_id

    def ask_about(self, item_id: str, again: RejectChoice | None = None) -> None:
        """Show the panel for ``item_id``: no reason, no note, the focus on the reasons. With ``again`` (a
        reject the journal could not take), its reason chosen and its note typed, the focus on the note."""
        self._item_id = item_id
        self._answered = False
        self._warned_about = None
        codes = [code for code, _ in self._reasons]
        chosen = codes.index(again.reason) if again is not None and again.reason in codes else None
        self._picked = chosen is not None
        self.query_one(".box-title", Static).update(self._title())
        reasons = self.query_one("#reasons", OptionList)
        reasons.highlighted = chosen
        self._mark(chosen)
        note = self.query_one("#note", SafeInput)
        note.value = again.note if again is not None else ""
        self.display = True
        if again is not None:
            self._last_inside = note
            note.focus()
        else:
            self._last_inside = reasons
            reasons.focus()

    def take_focus_back(self) -> None:
        """Give the focus back to the field that had it (a click elsewhere took it), the chosen reason kept."""
        target = self._last_inside or self.query_one("#reasons", OptionList)
        target.focus(scroll_visible=False)

    def close(self) -> None:
        """Hide the panel (its answer has been posted, or there is nothing to answer).

        The note is emptied: a hidden field holding text would still count as text on the screen
        (an Esc read together with the next key is then not split, see keyorder.escape_then).
        """
        self._answered = True
        self.display = False
        self.query_one("#note", SafeInput).value = ""
        self.withdraw_unsaved_notice()

    # ---- GuardsTyping -------------------------------------------------------------------

    def unsaved(self) -> str | None:
        return self.query_one("#note", SafeInput).value.strip() or None

    def unsaved_hint(self, again: str) -> str:
        return f"Enter rejects the item with this note; {again} discards the note"

    # ---- keys ---------------------------------------------------------------------------

    def on_key(self, event: Key) -> None:
        reasons = self.query_one("#reasons", OptionList)
        if self.screen.focused is not reasons or not self.is_open:
            return
        if event.character and event.character in _DIGITS[: len(self._reasons)] and not self._picked:
            reasons.highlighted = int(event.character) - 1
            self._picked = True
            event.stop()
        elif event.is_printable and event.character:
            note = self.query_one("#note", SafeInput)
            note.focus()
            note.insert_text_at_cursor(event.character)
            event.stop()

    def on_paste(self, event: Paste) -> None:
        # Pasted into the list (the focus stays there after a digit): it is the note.
        if self.screen.focused is self.query_one("#reasons", OptionList):
            note = self.query_one("#note", SafeInput)
            note.focus()
            note.post_message(Paste(event.text))
            event.stop()

    def on_descendant_focus(self, event: DescendantFocus) -> None:
        note = self.query_one("#note", SafeInput)
        if event.widget is self.query_one("#reasons", OptionList) and self._last_inside is note:
            self._picked = False  # back on the list from the note (Shift+Tab): a digit chooses the reason again
        self._last_inside = event.widget

    def action_cancel(self) -> None:
        if self.is_open and self.may_discard("Esc again"):
            self._answered = True
            self.post_message(self.Cancelled())

    def _finish(self) -> None:
        if not self.is_open:
            return  # a second Enter in the same read: the first one has answered
        self._answered = True
        index = self.query_one("#reasons", OptionList).highlighted
        reason = self._reasons[index][0] if index is not None else None
        self.post_message(self.Chosen(RejectChoice(reason, self.query_one("#note", SafeInput).value.strip())))

    @on(OptionList.OptionSelected, "#reasons")
    @on(_ReasonList.Confirmed)
    def _reason_chosen(self, event: Message) -> None:
        event.stop()
        self._finish()

    @on(SafeInput.Submitted, "#note")
    def _note_submitted(self, event: SafeInput.Submitted) -> None:
        event.stop()
        self._finish()

"""The edit dialog: question, answer, type, and any anchor's quote and grade; an item without
a quote can be given one (its document, its words, its grade).

It returns only what changed (an :class:`ItemChanges`), so the review screen can
hand the edit to the session as one decision. ctrl+s saves, Escape cancels (twice when
something was changed: see :meth:`~reviewtui.tui.screens.base.GuardsTyping.may_discard`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Select, Static

from reviewtui.evalset.model.items import EvalItem, GoldAnchor
from reviewtui.evalset.review.queue import ItemEdit
from reviewtui.evalset.text.safe import shows_something
from reviewtui.tui.safe import join, safe, safe_plain
from reviewtui.tui.screens.base import Dialog
from reviewtui.tui.widgets.editors import SafeInput, SafeTextArea

__all__ = ["EditScreen", "ItemChanges"]

#: The type Select's value for "no type": the others are indices into the dialog's list of types,
#: so a type called "(none)" in the data is never mistaken for it.
_NO_TYPE = -1
_GRADE_WORDS = {2: "answers fully", 1: "partly", 0: "irrelevant"}


@dataclass
class ItemChanges:
    """What the reviewer changed; ``None`` means unchanged (an empty ``qtype``: the type was cleared)."""

    question: str | None = None
    answer: str | None = None
    qtype: str | None = None
    anchors: dict[int, tuple[str, int]] = field(default_factory=dict)  # index -> (quote, grade)
    new_quote: tuple[str, str, int] | None = None  # (document, quote, grade) for an item that had no quote

    def __bool__(self) -> bool:
        changed = (self.question, self.answer, self.qtype, self.new_quote)
        return any(v is not None for v in changed) or bool(self.anchors)

    def as_edit(self) -> ItemEdit:
        """The changes as the one edit step the session takes (every changed quote in one decision)."""
        new = GoldAnchor(*self.new_quote) if self.new_quote is not None else None
        return ItemEdit(
            question=self.question, answer=self.answer, qtype=self.qtype, anchor_edits=self.anchors or None, new_anchor=new
        )


def _grade_label(grade: int) -> str:
    words = _GRADE_WORDS.get(grade)
    return f"grade {grade}: {words}" if words else f"grade {grade}"


class EditScreen(Dialog[ItemChanges | None]):
    """Question, answer, type and quotes, edited as their real characters (see SafeTextArea).

    Saving compares every field with the item itself, so a dialog saved untouched
    is no edit at all (no journal step), whatever characters or grades the item has.
    """

    BINDINGS = [
        Binding("ctrl+s", "save", "Save", id="edit.save", priority=True),
        Binding("escape", "cancel", "Cancel", id="edit.cancel"),
    ]

    def __init__(
        self, item: EvalItem, types: Sequence[str], source: str = "", draft: ItemChanges | None = None, anchor: int = 0
    ) -> None:
        """``source``: the document a new quote is first said to be from, for an item without a quote.
        ``draft``: changes saved before that the journal could not take, shown in the fields instead of the
        item's own text (still compared with the item, so they are unsaved changes until saved).
        ``anchor``: the quote shown first, the one the evidence pane has chosen (``[`` / ``]``), as ``x`` shows it."""
        super().__init__()
        self._item = item
        self._source = source
        self._draft = draft or ItemChanges()
        self._types = list(types)
        for qtype in (item.qtype, self._draft.qtype):
            if qtype and qtype not in self._types:
                self._types.append(qtype)
        self._drafts = [self._draft.anchors.get(n, (a.quote, a.grade)) for n, a in enumerate(item.anchors)]
        # every grade the item's quotes have is a choice, so showing one never changes it
        # (a grade 3 from a graded set stays 3 unless the reviewer picks another)
        self._grades = sorted({*_GRADE_WORDS, *(a.grade for a in item.anchors)}, reverse=True)
        self._anchor = anchor if 0 <= anchor < len(item.anchors) else 0

    def compose(self) -> ComposeResult:
        item, draft = self._item, self._draft
        qtype = draft.qtype if draft.qtype is not None else item.qtype
        new_source, new_quote, new_grade = draft.new_quote if draft.new_quote is not None else (self._source, "", 2)
        with Vertical(classes="box"):
            yield Static(join("Edit ", safe(item.id, one_line=True, limit=120)), classes="box-title")
            yield Static("Question", classes="field-label")
            question = draft.question if draft.question is not None else item.question
            yield SafeTextArea(question, id="edit-question", soft_wrap=True, show_line_numbers=False)
            yield Static("Answer", classes="field-label")
            yield SafeTextArea(draft.answer if draft.answer is not None else item.answer or "", id="edit-answer", soft_wrap=True)
            with Horizontal(classes="row"):
                # Select draws its labels as given: each type from the data goes through safe_plain
                # (rich Text is never parsed as markup, and keeps the Select's type-to-search working)
                yield Select(
                    [
                        (Text("(none)"), _NO_TYPE),
                        *((Text(safe_plain(t, one_line=True, limit=80)), n) for n, t in enumerate(self._types)),
                    ],
                    value=self._types.index(qtype) if qtype else _NO_TYPE,
                    allow_blank=False,
                    id="edit-type",
                    prompt="type",
                )
                if len(item.anchors) > 1:
                    yield Select(
                        [(f"quote {n} of {len(item.anchors)}", n - 1) for n in range(1, len(item.anchors) + 1)],
                        value=self._anchor,
                        allow_blank=False,
                        id="edit-anchor",
                    )
                yield Select(
                    [(_grade_label(grade), grade) for grade in self._grades],
                    value=self._drafts[self._anchor][1] if item.anchors else new_grade,
                    allow_blank=False,
                    id="edit-grade",
                )
            if item.anchors:
                source = safe(item.anchors[self._anchor].source_id, one_line=True, limit=200)
                yield Static(join("Quote from ", source), classes="field-label", id="quote-label")
            else:
                yield Static("No quote yet. To give this item one, name its document:", classes="field-label", id="quote-label")
                yield SafeInput(new_source, id="edit-source", placeholder="the document the quote is from")
                yield Static("and type the quote (left empty, none is added):", classes="field-label")
            yield SafeTextArea(self._drafts[self._anchor][0] if item.anchors else new_quote, id="edit-quote", soft_wrap=True)
            yield Static("ctrl+s: save · Esc: cancel · Tab: next field", classes="hint")

    def on_mount(self) -> None:
        self.query_one("#edit-question", SafeTextArea).focus(scroll_visible=False)
        # In a short terminal the box scrolls (see the stylesheet). Textual centres the focused question as the
        # screen comes up, in a short animation, which left the item's id and the "Question" label above the
        # edge: once it has run, the box goes back to its top (the question is right under them).
        # On a busy machine the animation may still run, or start only, when the timer fires: it looks again.
        self.set_timer(0.3, lambda: self._show_the_top(5), name="edit dialog's top")

    def _show_the_top(self, looks: int) -> None:
        if not self.is_attached or self.focused is not self.query_one("#edit-question"):
            return  # the reviewer has moved on: their place is theirs
        box = self.query_one(".box")
        if box.scroll_y or self.app.animator.is_being_animated(box, "scroll_y"):
            box.scroll_home(animate=False)
        if looks > 1:
            self.set_timer(0.2, lambda: self._show_the_top(looks - 1), name="edit dialog's top")

    def _store_draft(self) -> None:
        if not self._item.anchors:
            return
        quote = self.query_one("#edit-quote", SafeTextArea).text
        grade = self.query_one("#edit-grade", Select).value
        self._drafts[self._anchor] = (quote, grade if isinstance(grade, int) else self._drafts[self._anchor][1])

    @on(Select.Changed, "#edit-anchor")
    def _switch_anchor(self, event: Select.Changed) -> None:
        if not isinstance(event.value, int) or event.value == self._anchor:
            return
        self._store_draft()
        self._anchor = event.value
        quote, grade = self._drafts[self._anchor]
        self.query_one("#edit-quote", SafeTextArea).load_text(quote)
        self.query_one("#edit-grade", Select).value = grade
        source = self._item.anchors[self._anchor].source_id
        self.query_one("#quote-label", Static).update(join("Quote from ", safe(source, one_line=True, limit=200)))

    def collect(self) -> ItemChanges:
        """Compare the fields with the item; keep only real changes."""
        self._store_draft()
        item = self._item
        changes = ItemChanges()
        question = self.query_one("#edit-question", SafeTextArea).text
        if question != item.question:
            changes.question = question
        answer = self.query_one("#edit-answer", SafeTextArea).text
        if answer != (item.answer or ""):
            changes.answer = answer
        chosen = self.query_one("#edit-type", Select).value
        if isinstance(chosen, int):
            # "(none)" is offered, so choosing it is a change too: an empty type clears it (see ItemEdit)
            qtype = "" if chosen == _NO_TYPE else self._types[chosen]
            if qtype != (item.qtype or ""):
                changes.qtype = qtype
        for index, (anchor, (quote, grade)) in enumerate(zip(item.anchors, self._drafts, strict=False)):
            if quote != anchor.quote or grade != anchor.grade:
                changes.anchors[index] = (quote, grade)
        if not item.anchors:
            quote = self.query_one("#edit-quote", SafeTextArea).text
            source = self.query_one("#edit-source", SafeInput).value
            if quote or (source and source != self._source):  # typed: kept, and asked about before Esc drops it
                grade = self.query_one("#edit-grade", Select).value
                changes.new_quote = (source, quote, grade if isinstance(grade, int) else 2)
        return changes

    def action_save(self) -> None:
        if self.answered:
            return  # a second ctrl+s in the same read: the first one has saved
        changes = self.collect()
        # Blank is anything that shows nothing: a question of zero-width spaces passed a check of strip().
        if changes.question is not None and not shows_something(changes.question):
            self.notify("The question cannot be blank (or only characters that show nothing).", severity="error", markup=False)
            return
        for index, (quote, _grade) in changes.anchors.items():
            if not shows_something(quote):
                message = f"Quote {index + 1} cannot be blank; reject the item instead."
                self.notify(message, severity="error", markup=False)
                return
        if changes.new_quote is not None:
            source, quote, _grade = changes.new_quote
            if not shows_something(quote):
                self.notify("The new quote is blank: type it, or clear the document's name.", severity="error", markup=False)
                return
            if not shows_something(source):
                self.notify("Name the document the new quote is from.", severity="error", markup=False)
                return
        if not changes:
            # Typed and typed back, or saved untouched: nothing to record. Said, or the next key (a reject meant
            # for the next item) landed on this one while the reviewer thought the edit had moved on.
            self.app.notify("Nothing changed, so nothing was saved: the item stays as it was.", timeout=4, markup=False)
        self.dismiss(changes if changes else None)

    def unsaved(self) -> tuple[object, ...] | None:
        changes = self.collect()
        if not changes:
            return None
        return (changes.question, changes.answer, changes.qtype, tuple(sorted(changes.anchors.items())), changes.new_quote)

    def unsaved_hint(self, again: str) -> str:
        return f"ctrl+s saves your changes; {again} discards them"

    def action_cancel(self) -> None:
        if self.may_discard("Esc again"):
            self.dismiss(None)

"""The edit dialog: question, answer, type, and any anchor's quote and grade.

It returns only what changed (an :class:`ItemChanges`), so the review screen can
hand the edit to the session as one decision. ctrl+s saves, Escape cancels.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Select, Static, TextArea

from reviewtui.evalset.model import EvalItem
from reviewtui.tui.safe import join, safe, safe_plain

__all__ = ["EditScreen", "ItemChanges"]

_NO_TYPE = "(none)"


@dataclass
class ItemChanges:
    """What the reviewer changed; ``None`` means unchanged."""

    question: str | None = None
    answer: str | None = None
    qtype: str | None = None
    anchors: dict[int, tuple[str, int]] = field(default_factory=dict)  # index -> (quote, grade)

    def __bool__(self) -> bool:
        return any(v is not None for v in (self.question, self.answer, self.qtype)) or bool(self.anchors)


def _editable(text: str | None) -> str:
    """Text as it appears in an editor: control characters shown, so saving unchanged text changes nothing."""
    return "" if text is None else safe_plain(text, limit=None, one_line=False)


class EditScreen(ModalScreen[ItemChanges | None]):
    DEFAULT_CLASSES = "dialog"
    BINDINGS = [
        Binding("ctrl+s", "save", "Save", id="edit.save", priority=True),
        Binding("escape", "cancel", "Cancel", id="edit.cancel"),
    ]

    def __init__(self, item: EvalItem, types: Sequence[str]) -> None:
        super().__init__()
        self._item = item
        self._types = list(types)
        if item.qtype and item.qtype not in self._types:
            self._types.append(item.qtype)
        self._drafts = [(_editable(a.quote), a.grade) for a in item.anchors]
        self._anchor = 0

    def compose(self) -> ComposeResult:
        item = self._item
        with Vertical(classes="box"):
            yield Static(join("Edit ", safe(item.id, one_line=True, limit=120)), classes="box-title")
            yield Static("Question", classes="field-label")
            yield TextArea(_editable(item.question), id="edit-question", soft_wrap=True, show_line_numbers=False)
            yield Static("Answer", classes="field-label")
            yield TextArea(_editable(item.answer), id="edit-answer", soft_wrap=True)
            with Horizontal(classes="row"):
                yield Select(
                    [(t, t) for t in [_NO_TYPE, *self._types]],
                    value=item.qtype or _NO_TYPE,
                    allow_blank=False,
                    id="edit-type",
                    prompt="type",
                )
                if len(item.anchors) > 1:
                    yield Select(
                        [(f"quote {n} of {len(item.anchors)}", n - 1) for n in range(1, len(item.anchors) + 1)],
                        value=0,
                        allow_blank=False,
                        id="edit-anchor",
                    )
                if item.anchors:
                    yield Select(
                        [("grade 2: answers fully", 2), ("grade 1: partly", 1), ("grade 0: irrelevant", 0)],
                        value=item.anchors[0].grade if item.anchors[0].grade in (0, 1, 2) else 2,
                        allow_blank=False,
                        id="edit-grade",
                    )
            if item.anchors:
                yield Static(join("Quote from ", safe(item.anchors[0].source_id, one_line=True, limit=200)), classes="field-label", id="quote-label")
                yield TextArea(self._drafts[0][0], id="edit-quote", soft_wrap=True)
            else:
                yield Static("This item has no quote to edit (no evidence).", classes="hint")
            yield Static("ctrl+s: save · Esc: cancel · Tab: next field", classes="hint")

    def on_mount(self) -> None:
        self.query_one("#edit-question", TextArea).focus()

    def _store_draft(self) -> None:
        if not self._item.anchors:
            return
        quote = self.query_one("#edit-quote", TextArea).text
        grade = self.query_one("#edit-grade", Select).value
        self._drafts[self._anchor] = (quote, int(grade) if isinstance(grade, int) else self._drafts[self._anchor][1])

    @on(Select.Changed, "#edit-anchor")
    def _switch_anchor(self, event: Select.Changed) -> None:
        if not isinstance(event.value, int) or event.value == self._anchor:
            return
        self._store_draft()
        self._anchor = event.value
        quote, grade = self._drafts[self._anchor]
        self.query_one("#edit-quote", TextArea).load_text(quote)
        self.query_one("#edit-grade", Select).value = grade if grade in (0, 1, 2) else 2
        source = self._item.anchors[self._anchor].source_id
        self.query_one("#quote-label", Static).update(join("Quote from ", safe(source, one_line=True, limit=200)))

    def collect(self) -> ItemChanges:
        """Compare the fields with the item; keep only real changes."""
        self._store_draft()
        item = self._item
        changes = ItemChanges()
        question = self.query_one("#edit-question", TextArea).text
        if question != _editable(item.question):
            changes.question = question
        answer = self.query_one("#edit-answer", TextArea).text
        if answer != _editable(item.answer):
            changes.answer = answer
        qtype = self.query_one("#edit-type", Select).value
        if isinstance(qtype, str) and qtype != (item.qtype or _NO_TYPE) and qtype != _NO_TYPE:
            changes.qtype = qtype
        for index, (anchor, (quote, grade)) in enumerate(zip(item.anchors, self._drafts)):
            if quote != _editable(anchor.quote) or grade != anchor.grade:
                changes.anchors[index] = (quote, grade)
        return changes

    def action_save(self) -> None:
        changes = self.collect()
        if changes.question is not None and not changes.question.strip():
            self.notify("The question cannot be blank.", severity="error", markup=False)
            return
        for index, (quote, _grade) in changes.anchors.items():
            if not quote.strip():
                message = f"Quote {index + 1} cannot be blank; reject the item instead."
                self.notify(message, severity="error", markup=False)
                return
        self.dismiss(changes if changes else None)

    def action_cancel(self) -> None:
        self.dismiss(None)

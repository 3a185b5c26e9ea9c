"""Find items by text: the question, the answer, the id, and every quote.

A plain case-insensitive substring scan. It is O(N) per search, which is why
the app runs it in a worker thread when the user asks, never per keystroke.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from reviewtui.evalset.model.items import EvalItem

__all__ = ["SearchHit", "search_items"]


@dataclass(frozen=True, slots=True)
class SearchHit:
    position: int
    item_id: str
    field: str
    snippet: str


def _fields(item: EvalItem) -> Iterator[tuple[str, str]]:
    yield "id", item.id
    yield "question", item.question
    if item.answer:
        yield "answer", item.answer
    for number, anchor in enumerate(item.anchors, start=1):
        yield f"quote {number}", anchor.quote
        yield f"source {number}", anchor.source_id


def _snippet(text: str, start: int, length: int, width: int = 80) -> str:
    left = max(0, start - width // 3)
    right = min(len(text), start + length + width)
    prefix = "…" if left else ""
    suffix = "…" if right < len(text) else ""
    return prefix + " ".join(text[left:right].split()) + suffix


def search_items(
    items: Sequence[EvalItem],
    query: str,
    *,
    limit: int = 500,
    cancelled: Callable[[], bool] | None = None,
) -> list[SearchHit]:
    """Items whose id, question, answer, quotes or sources contain ``query`` (any case), in set order.

    At most one hit per item (its first matching field), at most ``limit`` hits.
    """
    needle = query.casefold().strip()
    if not needle:
        return []
    hits: list[SearchHit] = []
    for position, item in enumerate(items):
        if cancelled is not None and position % 4096 == 0 and cancelled():
            break
        for field, text in _fields(item):
            found = text.casefold().find(needle)
            if found >= 0:
                hits.append(SearchHit(position, item.id, field, _snippet(text, found, len(needle))))
                break
        if len(hits) >= limit:
            break
    return hits

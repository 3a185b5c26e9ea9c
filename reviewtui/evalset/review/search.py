"""Find items by text: the question, the answer, the id, and every quote.

A plain case-insensitive substring scan. It is O(N) per search, which is why
the app runs it in a worker thread when the user asks, never per keystroke.
:func:`search_queue` searches a review as the reviewer sees it: each item as
edited, in the order on screen, each hit numbered as the status line and ``g``
number it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from reviewtui.evalset.model.items import EvalItem

if TYPE_CHECKING:
    from reviewtui.evalset.review.queue import ReviewQueue

__all__ = ["SearchHit", "search_items", "search_queue"]


@dataclass(frozen=True, slots=True)
class SearchHit:
    """``position``: where the item is (its index in the sequence searched, a queue index for
    :func:`search_queue`); ``number``: the 1-based place a reviewer sees it at."""

    position: int
    item_id: str
    field: str
    snippet: str
    number: int = 0


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
    return _search(((position, position + 1, item) for position, item in enumerate(items)), query, limit, cancelled)


def search_queue(
    queue: ReviewQueue,
    query: str,
    *,
    limit: int = 500,
    cancelled: Callable[[], bool] | None = None,
    upto: int | None = None,
) -> list[SearchHit]:
    """:func:`search_items` over a review: each item as the reviewer sees it (an edited one as
    edited, so text an edit removed is not found), in the order on screen ("flagged first"
    included), each hit's ``number`` its place in that order and ``position`` its queue index.

    ``upto``: search the first that many items of the order (a caller that says how many it searched
    counts them before the search starts, while a loader may add more)."""
    total = len(queue) if upto is None else min(upto, len(queue))  # items added meanwhile: the next search's

    def in_order() -> Iterator[tuple[int, int, EvalItem]]:
        for rank in range(total):
            index = queue.index_at_rank(rank)
            yield index, rank + 1, queue.shown(index)

    return _search(in_order(), query, limit, cancelled)


def _search(
    found_in: Iterator[tuple[int, int, EvalItem]], query: str, limit: int, cancelled: Callable[[], bool] | None
) -> list[SearchHit]:
    needle = query.casefold().strip()
    if not needle:
        return []
    hits: list[SearchHit] = []
    for seen, (position, number, item) in enumerate(found_in):
        if cancelled is not None and seen % 4096 == 0 and cancelled():
            break
        for field, text in _fields(item):
            found = text.casefold().find(needle)
            if found >= 0:
                hits.append(SearchHit(position, item.id, field, _snippet(text, found, len(needle)), number))
                break
        if len(hits) >= limit:
            break
    return hits

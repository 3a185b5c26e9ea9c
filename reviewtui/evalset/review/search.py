"""Find items by text: the question, the answer, the id, and every quote.

A plain case-insensitive substring scan. It is O(N) per search, which is why
the app runs it in a worker thread when the user asks, never per keystroke.
:func:`search_queue` searches a review as the reviewer sees it: each item as
edited, in the order on screen, each hit numbered as the status line and ``g``
number it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from reviewtui.evalset.model.items import EvalItem
from reviewtui.evalset.text.clusters import clusters

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


#: Characters that do not show, left out on both sides: "zero\u200bwidth" is found by "zerowidth".
_INVISIBLE_CHARS = "\u00ad\u200b\u2060\ufeff"
_INVISIBLE = str.maketrans(dict.fromkeys(map(ord, _INVISIBLE_CHARS)))
_HAS_INVISIBLE = re.compile(f"[{_INVISIBLE_CHARS}]").search


def _fold(text: str) -> str:
    """``text`` for a caseless match that ignores how an accent is encoded: "café" typed with one
    character finds "cafe" followed by a combining accent, as the screen draws both alike."""
    if text.isascii():
        return text.lower()  # the same length, position for position
    folded = text.casefold()
    if "\u0307" in folded:
        # Case folding makes the capital "İ" (Turkish, Azerbaijani) an "i" with a combining dot above: "istanbul"
        # did not find "İstanbul", nor "İstanbul" typed find "istanbul". Its lower case is the plain "i".
        folded = folded.replace("i\u0307", "i")
    # Most text is composed already and holds no invisible character: normalising it again, for every field of
    # every item a search passes, made a search of a set with accents twice as slow.
    if unicodedata.is_normalized("NFC", folded) and _HAS_INVISIBLE(folded) is None:
        return folded
    return unicodedata.normalize(
        "NFC", unicodedata.normalize("NFC", text).casefold().replace("i\u0307", "i").translate(_INVISIBLE)
    )


def _find(text: str, needle: str) -> tuple[int, int]:
    """Where the folded ``needle`` is in ``text``, as a start and a length in ``text``'s own
    characters (folding changes lengths: "ß" is "ss", "é" two characters), or ``(-1, 0)``."""
    folded = _fold(text)
    found = folded.find(needle)
    if found < 0 or text.isascii():
        return found, len(needle)
    start = end = -1
    seen = 0
    for index, part in clusters(text):
        if start < 0 and seen >= found:
            start = index
        # Folded a character at a time, a letter and its combining accent count two where the folded text,
        # composed again, has one: in a decomposed text (NFD, as macOS writes names) the snippet drifted to
        # before the hit, by one for each accent before it, and showed text without the word searched for.
        seen += len(_fold(part))
        if seen >= found + len(needle):
            end = index + len(part)
            break
    start = max(start, 0)
    return start, max(end, start + 1) - start


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
    needle = _fold(query.strip())
    if not needle:
        return []
    hits: list[SearchHit] = []
    for seen, (position, number, item) in enumerate(found_in):
        if cancelled is not None and seen % 4096 == 0 and cancelled():
            break
        for field, text in _fields(item):
            if text.isascii():  # most fields: lower case is the fold, position for position (no call per field)
                found, length = text.lower().find(needle), len(needle)
            else:
                found, length = _find(text, needle)
            if found >= 0:
                hits.append(SearchHit(position, item.id, field, _snippet(text, found, length), number))
                break
        if len(hits) >= limit:
            break
    return hits

"""Item ids that differ only in what a screen does not show: "q1" and "q1 ", "café" composed and decomposed.

The reader keeps ids exactly as written, as the format says, so two such ids are two items. The app,
the reports and `g` (go to an id) show them alike, and a reviewer cannot tell which one they are deciding.
What the screen does show is kept apart: a zero-width or control character is drawn as a stand-in there
(``<U+200B>``), a no-break space inside an id as a gap, so "q1" and "q\u00a01" look different, while "q 1"
and "q\u00a01" do not. The scan names the pairs in a set-level caution. An id that is printable ASCII with
nothing to strip is its own key, so most sets cost one cheap test per id and no second table.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping

__all__ = ["alike_ids", "shown_key"]


def shown_key(item_id: str) -> str:
    """``item_id`` as a screen shows it: composed (NFC), every space-like character a space, no space at its ends."""
    if item_id.isascii() and item_id.isprintable() and item_id == item_id.strip():
        return item_id
    composed = unicodedata.normalize("NFC", item_id)
    return "".join(_as_drawn(char) for char in composed).strip()


def _as_drawn(char: str) -> str:
    """A space-like character as the cells it takes (an ideographic space is two); any other as itself."""
    if not (char.isspace() or unicodedata.category(char) == "Zs"):
        return char
    return "  " if unicodedata.east_asian_width(char) in ("W", "F") else " "


def alike_ids(ids: Iterable[str], known: Mapping[str, int] | None = None) -> list[tuple[str, str]]:
    """Pairs of distinct ids that a screen shows alike: (the first of them in ``ids``, another), in set order.

    ``known``: every id of the set (the set's own id table), so plain ids need no table of their own.
    """
    ids = list(ids) if known is None else ids
    table = known if known is not None else {item_id: at for at, item_id in enumerate(ids)}
    first: dict[str, str] = {}  # key -> the first id seen with it, for the ids that are not their own key
    pairs: list[tuple[str, str]] = []
    for item_id in ids:
        key = shown_key(item_id)
        if key == item_id:
            continue
        if key in table:
            pairs.append((key, item_id))  # a plain id, and one that shows as it
        elif key in first:
            pairs.append((first[key], item_id))
        else:
            first[key] = item_id
    return pairs

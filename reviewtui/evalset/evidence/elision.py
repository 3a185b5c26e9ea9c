"""A quote that leaves words out, as quotes written by people and LLMs do.

"Any and all proprietary rights … in and to any Confidential Information" is a
faithful quote of a clause whose words between the two parts were cut, and
"shall remain in effect until the end of the current calendar year…" of a
sentence that goes on. Neither is in its document as written; both are there
once the ellipsis is read as the cut it marks. The same goes for a quote that
ends in a full stop or comma of the sentence it was put in ("designates as
being confidential,"), where the document's sentence goes on.

:func:`loose_parts` gives the parts of such a quote, folded (see
:mod:`textmatch`): split at each ellipsis ("…", "...", ". . .", also in
brackets), with the punctuation at the quote's end dropped, and parts holding no
letter or digit left out; a part of one word makes it no such quote (a single
word is found in too many places). :func:`find_parts` finds them in order in folded
text, each within ``MAX_GAP`` characters of the one before (a cut of a
paragraph or two, never a part found pages later by chance), and gives up after
``MAX_LOOKUPS`` parts looked for.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["GAVE_UP", "MAX_GAP", "MAX_LOOKUPS", "find_parts", "loose_parts"]

#: The most folded characters a cut may leave out between two parts.
MAX_GAP = 1000
#: The most parts one search looks for. Each start of the first part follows the parts until one is missing,
#: so a quote of many parts against a text that holds all but the last few, past a gap, cost the starts times
#: the parts: 20,000 parts took 90 s. A search that reaches this many has found no place (about a second).
MAX_LOOKUPS = 1_000_000
#: What :func:`find_parts` counts when it gave up: how many places there are is then not known.
GAVE_UP = -1

# On folded text, where "…" has become "...": three or more dots, perhaps spaced, perhaps in brackets.
_ELLIPSIS = re.compile(r"\s*[\[(]?\s*\.(?:\s?\.){2,}\s*[\])]?\s*")
_END_PUNCTUATION = re.compile(r"[\s.,;:]+$")
_WORD = re.compile(r"\w")
_WORDS = re.compile(r"\w+")


def loose_parts(folded_quote: str) -> tuple[tuple[str, ...], bool, bool] | None:
    """(the parts, whether an ellipsis was cut out, whether end punctuation was dropped), or None when
    neither changes the quote (then there is nothing to search for beyond the quote itself)."""
    pieces = [piece.strip() for piece in _ELLIPSIS.split(folded_quote)]
    cut = len(pieces) > 1
    if pieces:
        last = _END_PUNCTUATION.sub("", pieces[-1])
        dropped = last != pieces[-1]
        pieces[-1] = last
    else:
        dropped = False
    parts = tuple(piece for piece in pieces if _WORD.search(piece))
    if not parts or not (cut or dropped):
        return None
    if any(len(_WORDS.findall(part)) < 2 for part in parts):
        return None  # a lone word is found in too many places to say where a cut quote is

    return parts, cut, dropped


def find_parts(text: str, parts: tuple[str, ...], n: int, lo: int, hi: int) -> tuple[tuple[int, int] | None, int]:
    """(``(start, end)`` of the n-th place starting in [lo, hi) where the parts follow each other, or None;
    how many such places there are, up to n + 1; ``GAVE_UP`` instead when the search stopped after
    ``MAX_LOOKUPS`` parts looked for, so that how many there are is not known).

    A place belongs where it starts, as an exact match does (the page it starts on): the parts after the
    first may run past ``hi``. Each part is looked for after the one before, at most ``MAX_GAP``
    characters on. Of two starts of the first part that lead to the same later parts, only the later
    counts: the tightest passage is the one quoted.
    """
    first = parts[0]
    starts_end = hi + len(first) - 1  # a first part starting before hi ends by here
    limit = len(text)
    places: list[tuple[int, int]] = []
    budget = MAX_LOOKUPS
    at = text.find(first, lo, starts_end)
    while at != -1 and len(places) <= n:
        budget -= len(parts)
        if budget < 0:
            return None, GAVE_UP
        end, next_try = _follow(text, parts, at, limit)
        if end is not None and end < limit and unicodedata.combining(text[end]):
            end = None  # the last part ends inside a character ("cafe" of "café" with its accent apart)
        if end is not None:
            if places and places[-1][1] == end:
                places[-1] = (at, end)
            else:
                places.append((at, end))
        at = text.find(first, next_try, starts_end) if next_try >= 0 else -1
    if at != -1 and places:  # the last place may still be tightened by a later start of the first part
        while at != -1 and budget >= len(parts) and _follow(text, parts, at, limit)[0] == places[-1][1]:
            budget -= len(parts)
            places[-1] = (at, places[-1][1])
            at = text.find(first, at + 1, starts_end)
    found = places[n] if n < len(places) else None
    return found, len(places)


def _follow(text: str, parts: tuple[str, ...], start: int, hi: int) -> tuple[int | None, int]:
    """(where the last part ends when every part follows the one before from ``start``, else None;
    the first start of the first part worth trying next, or -1 when no later one can lead anywhere).

    A part not found within its gap is looked for further on once: a later start finds each part at or
    after where this one did, so with no copy further on none can succeed, and with the next copy far
    on, the starts too early to reach it are passed over. Without this a part missing from a long
    document was looked for once per copy of the first part, ``MAX_GAP`` characters each time
    (a text of 5 million words 'a' took 7 s for one quote 'a a ... b b').
    """
    position = start + len(parts[0])
    before = len(parts[0])  # the parts' characters up to the one looked for
    for k, part in enumerate(parts[1:], 1):
        at = text.find(part, position, min(hi, position + MAX_GAP + len(part)))
        if at == -1:
            later = text.find(part, position, hi)
            if later == -1:
                return None, -1
            # A start s looks for this part from at most s + before + (k - 1) * MAX_GAP, and must find it
            # within MAX_GAP of there.
            return None, max(start + 1, later - before - k * MAX_GAP)
        position = at + len(part)
        before += len(part)
    return position, start + 1

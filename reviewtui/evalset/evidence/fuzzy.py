"""Approximate search for a quote that is not in its document word for word.

rapidfuzz does the scoring (``fuzz.partial_ratio_alignment``: the best
passage of the quote's length, scored 0–100 by indel similarity). Its cost
grows with quote length times text length, and a long quote that is absent
from a long document can take seconds, so the text is never handed over
whole: pieces of the quote seed a handful of candidate windows (each piece
found in the document votes for where the quote would start), and each
window is first screened with ``fuzz.ratio``, whose lower bound rules out
windows that cannot reach the threshold, before the alignment runs.

The alignment slides the quote along its window, and its cost grows faster than
the square of the quote's length (a quote twice as long took about seven times
as long: 42 s for a 32 KB quote, in one C call that not even Ctrl+C interrupts).
A quote longer than ``LONG_QUOTE`` is therefore not slid: it is compared whole
(``fuzz.ratio``) with the passage of its own length at each start its pieces
vote for. A typo changes no start, and a character put in or left out moves the
passage's end by one, which costs the score little over thousands of characters.
Even one such comparison grows with the square of the length (2.6 s at 512,000
characters), so a quote longer than ``MAX_APPROXIMATE`` is not looked for
approximately at all: only as written (or folded, or cut), like a quote too short.

Everything here works on folded text (see :mod:`textmatch`); the caller maps
positions back to the original document.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from dataclasses import dataclass

from rapidfuzz import fuzz

from reviewtui.evalset.text.words import unspaced

__all__ = ["LONG_QUOTE", "MAX_APPROXIMATE", "FuzzyHit", "fuzzy_find"]

_SEED_SIZE = 16
_MAX_SEEDS = 16
_MAX_HITS_PER_SEED = 64  # a piece found more often than this says little about where the quote is
_SMALL_TEXT = 4096  # texts up to this size (or a few quote lengths) are scored as one window
#: Quotes longer than this (folded characters) are compared at their likely starts instead of aligned (see the notes).
LONG_QUOTE = 2048
#: Quotes longer than this (folded characters) are not looked for approximately (see the notes): at most a few
#: dozen comparisons of 0.05 s each.
MAX_APPROXIMATE = 65_536
_LONG_QUOTE_SEEDS = 64  # pieces of a long quote looked for: one copied with many slips may keep few of them whole
_STARTS_TRIED = 3  # starts compared in each region a long quote's pieces point at


@dataclass(frozen=True, slots=True)
class FuzzyHit:
    """A passage ``[start, end)`` of the searched text and its score."""

    start: int
    end: int
    score: float


def _seeds(quote: str, most: int = _MAX_SEEDS) -> list[tuple[str, int]]:
    """Evenly spaced pieces of the quote with their offsets.

    A quote with a few typos still shares most of its pieces with the passage
    it came from, and a piece of a dozen or more characters is rare in any
    document, so each place a piece is found is a strong hint.
    """
    length = len(quote)
    size = max(4, min(_SEED_SIZE, length // 3))
    if length < size:
        return [(quote, 0)]
    last = length - size
    count = min(most, last // max(1, size // 2) + 1)
    offsets = sorted({round(i * last / (count - 1)) for i in range(count)} if count > 1 else {0})
    seen: set[str] = set()
    seeds: list[tuple[str, int]] = []
    for offset in offsets:
        piece = quote[offset : offset + size]
        if piece.strip() and piece not in seen:
            seen.add(piece)
            seeds.append((piece, offset))
    return seeds


def _places(text: str, piece: str, lo: int, hi: int) -> list[int]:
    """Where ``piece`` is in ``text[lo:hi]``; none when it is found more than _MAX_HITS_PER_SEED times (it says little)."""
    places: list[int] = []
    at = text.find(piece, lo, hi)
    while at != -1 and len(places) <= _MAX_HITS_PER_SEED:
        places.append(at)
        at = text.find(piece, at + 1, hi)
    return [] if len(places) > _MAX_HITS_PER_SEED else places


def _candidate_starts(text: str, quote: str, lo: int, hi: int, limit: int) -> list[int]:
    """Likely start positions of the quote in ``text[lo:hi]``, best voted first."""
    bucket = max(16, len(quote) // 4)
    votes: Counter[int] = Counter()
    where: dict[int, int] = {}
    for piece, offset in _seeds(quote):
        hits = _places(text, piece, lo, hi)
        voted: set[int] = set()
        for at in hits:
            start = max(lo, at - offset)
            key = start // bucket
            if key not in voted:
                voted.add(key)
                votes[key] += 1
                where.setdefault(key, start)
    return [where[key] for key, _ in votes.most_common(limit)]


def _windows(text: str, quote: str, lo: int, hi: int, limit: int) -> list[tuple[int, int]]:
    """Windows of ``text`` worth scoring, one per likely start, by position.

    Windows are not merged: two copies of a passage a few characters apart
    must stay two candidates, or ``occurrence`` could not tell them apart.
    """
    length = len(quote)
    slack = max(32, length // 4)
    if hi - lo <= max(_SMALL_TEXT, 3 * length):
        # One window, unless the quote's pieces point at several places: each copy of a passage must be a
        # candidate of its own, or ``occurrence`` could not tell them apart in a short document either.
        starts = _candidate_starts(text, quote, lo, hi, limit)
        if len({start // max(1, length // 2) for start in starts}) < 2:
            return [(lo, hi)]
        return sorted((max(lo, start - slack), min(hi, start + length + slack)) for start in starts)
    return sorted(
        (max(lo, start - slack), min(hi, start + length + slack))
        for start in _candidate_starts(text, quote, lo, hi, limit)
    )


def _could_reach(quote: str, window: str, threshold: float) -> bool:
    """False only when no passage of ``window`` can score ``threshold`` against ``quote``.

    A passage scoring t (as a fraction) shares at least t·L/(2−t) characters in
    order with the quote (L = quote length), and so does the whole window; the
    window's plain ratio is then at least 2·that/(L+W).
    """
    length, width = len(quote), len(window)
    t = threshold / 100.0
    common = t * length / (2.0 - t)
    floor = 100.0 * 2.0 * common / (length + width) - 0.5
    return fuzz.ratio(quote, window, score_cutoff=max(floor, 0.0)) > 0.0


def fuzzy_find(
    text: str,
    quote: str,
    *,
    threshold: float,
    lo: int = 0,
    hi: int | None = None,
    max_windows: int = 8,
) -> list[FuzzyHit]:
    """Passages of ``text[lo:hi]`` scoring at least ``threshold`` against ``quote``, by position.

    At most one hit per candidate window. A text shorter than the quote is
    compared whole (``fuzz.ratio``), so a short document holding only part of a
    long quote does not score as a match.
    """
    hi = len(text) if hi is None else hi
    if not quote or hi <= lo or len(quote) > MAX_APPROXIMATE:
        return []
    if len(quote) > LONG_QUOTE:
        return _distinct(_long_quote_hits(text, quote, threshold, lo, hi, max_windows))
    hits: list[FuzzyHit] = []
    for start, end in _windows(text, quote, lo, hi, max_windows):
        window = text[start:end]
        if len(window) < len(quote):
            score = fuzz.ratio(quote, window, score_cutoff=threshold)
            if score:
                hits.append(FuzzyHit(start, end, score))
            continue
        if not _could_reach(quote, window, threshold):
            continue
        found = fuzz.partial_ratio_alignment(quote, window, score_cutoff=threshold)
        if found is None or found.dest_end <= found.dest_start:
            continue
        hit = FuzzyHit(start + found.dest_start, start + found.dest_end, found.score)
        hits.append(_fitted(text, quote, hit, lo, hi, threshold))
    return _distinct(hits)


#: How far, beyond the length the quote and the passage differ by, an end may move when fitted: a sixth of the
#: quote, from 8 to 40 characters (the fit compares the quote with each passage its ends may give).
_FIT_SLACK = 8
_FIT_MOST = 40


def _fitted(text: str, quote: str, hit: FuzzyHit, lo: int, hi: int, threshold: float) -> FuzzyHit:
    """``hit`` with its ends moved to the word boundaries nearby where the passage, whole, is most like the quote.

    The alignment takes a passage of the quote's own length: a quote with letters left out ("comittee
    aproved the anual budget") is shorter than its passage, so the passage lost a first or last word
    ("The", the full stop), and a span made from it did not cover what the quote quotes.
    """
    differ = abs((hit.end - hit.start) - len(quote))
    reach = differ + min(_FIT_MOST, max(_FIT_SLACK, len(quote) // 6))
    # In a script written without spaces every character begins a word: there the ends move no further than
    # the lengths differ, or a clause's worth of characters on either side would be tried (and taken).
    near = differ + 2
    starts = [
        at
        for at in range(max(lo, hit.start - reach), min(hit.start + reach, hit.end) + 1)
        if _begins_word(text, at, lo) or (abs(at - hit.start) <= near and _inside_unspaced(text, at, lo, hi))
    ]
    ends = [
        at
        for at in range(max(hit.start + 1, hit.end - reach), min(hi, hit.end + reach) + 1)
        if _ends_word(text, at, hi) or (abs(at - hit.end) <= near and _inside_unspaced(text, at, lo, hi))
    ]
    best, best_score = (hit.start, hit.end), -1.0  # the alignment's own passage only when no boundaries are near
    for start in starts or [hit.start]:
        for end in ends or [hit.end]:
            if end <= start:
                continue
            score = fuzz.ratio(quote, text[start:end], score_cutoff=max(best_score, 0.0))
            if score > best_score or (score == best_score and end - start > best[1] - best[0]):
                best, best_score = (start, end), score
    if best_score < threshold:  # no passage between word boundaries is close enough: the alignment's stands
        return hit
    return FuzzyHit(best[0], best[1], best_score)


def _inside_unspaced(text: str, at: int, lo: int, hi: int) -> bool:
    """Whether ``at`` falls between two characters of a script written without spaces (Chinese, Japanese, Thai)."""
    return lo < at < hi and unspaced(text[at - 1]) and unspaced(text[at])


def _begins_word(text: str, at: int, lo: int) -> bool:
    return at == lo or (not text[at - 1].isalnum() and (at == len(text) or not text[at].isspace()))


def _ends_word(text: str, at: int, hi: int) -> bool:
    # not before a combining accent: it belongs to the letter before it
    return at == hi or (not text[at].isalnum() and not unicodedata.combining(text[at]) and not text[at - 1].isspace())


def _long_quote_hits(text: str, quote: str, threshold: float, lo: int, hi: int, limit: int) -> list[FuzzyHit]:
    """A long quote compared whole with the passage of its length at the starts its pieces vote for (see the notes).

    A piece found as it is says exactly where the quote would start; pieces of a passage that is really there
    agree on one start (or on starts a few characters apart, where a character was put in or left out), while
    a phrase the document repeats elsewhere points somewhere else. So the votes are counted per start, the
    regions with the most votes are taken, and in each the few starts most voted for are compared, the best
    kept. One comparison costs the quote's length times a 64th of it, where the alignment along a window cost
    far more; a quote none of whose pieces is found as it is has no start, and no hit.
    """
    length = len(quote)
    region = max(16, length // 4)
    votes: dict[int, Counter[int]] = {}  # region -> start -> pieces that put the quote there
    for piece, offset in _seeds(quote, _LONG_QUOTE_SEEDS):
        voted: set[int] = set()  # one vote a piece in each region: a phrase a stretch of text repeats is one piece
        for at in _places(text, piece, lo, hi):
            start = max(lo, at - offset)
            if start // region not in voted:
                voted.add(start // region)
                votes.setdefault(start // region, Counter())[start] += 1
    ranked = sorted(votes.values(), key=lambda starts: -sum(starts.values()))[:limit]
    found: list[FuzzyHit] = []
    for starts in ranked:
        best: FuzzyHit | None = None
        for start, _ in starts.most_common(_STARTS_TRIED):
            end = min(hi, start + length)
            score = fuzz.ratio(quote, text[start:end], score_cutoff=threshold)
            if score and (best is None or score > best.score):
                best = FuzzyHit(start, end, score)
        if best is not None:
            found.append(best)
    return found


def _distinct(hits: list[FuzzyHit]) -> list[FuzzyHit]:
    """Hits by position, passages overlapping by more than half kept once (the better score)."""
    kept: list[FuzzyHit] = []
    for hit in sorted(hits, key=lambda h: (h.start, -h.score)):
        if kept:
            last = kept[-1]
            overlap = min(last.end, hit.end) - max(last.start, hit.start)
            if overlap * 2 > min(last.end - last.start, hit.end - hit.start):
                if hit.score > last.score:
                    kept[-1] = hit
                continue
        kept.append(hit)
    return kept

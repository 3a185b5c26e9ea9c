"""Approximate search for a quote that is not in its document word for word.

rapidfuzz does the scoring (``fuzz.partial_ratio_alignment``: the best
passage of the quote's length, scored 0–100 by indel similarity). Its cost
grows with quote length times text length, and a long quote that is absent
from a long document can take seconds, so the text is never handed over
whole: pieces of the quote seed a handful of candidate windows (each piece
found in the document votes for where the quote would start), and each
window is first screened with ``fuzz.ratio``, whose lower bound rules out
windows that cannot reach the threshold, before the alignment runs.

Everything here works on folded text (see :mod:`textmatch`); the caller maps
positions back to the original document.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from rapidfuzz import fuzz

__all__ = ["FuzzyHit", "fuzzy_find"]

_SEED_SIZE = 16
_MAX_SEEDS = 16
_MAX_HITS_PER_SEED = 64  # a piece found more often than this says little about where the quote is
_SMALL_TEXT = 4096  # texts up to this size (or a few quote lengths) are scored as one window


@dataclass(frozen=True, slots=True)
class FuzzyHit:
    """A passage ``[start, end)`` of the searched text and its score."""

    start: int
    end: int
    score: float


def _seeds(quote: str) -> list[tuple[str, int]]:
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
    count = min(_MAX_SEEDS, last // max(1, size // 2) + 1)
    offsets = sorted({round(i * last / (count - 1)) for i in range(count)} if count > 1 else {0})
    seen: set[str] = set()
    seeds: list[tuple[str, int]] = []
    for offset in offsets:
        piece = quote[offset : offset + size]
        if piece.strip() and piece not in seen:
            seen.add(piece)
            seeds.append((piece, offset))
    return seeds


def _candidate_starts(text: str, quote: str, lo: int, hi: int, limit: int) -> list[int]:
    """Likely start positions of the quote in ``text[lo:hi]``, best voted first."""
    bucket = max(16, len(quote) // 4)
    votes: Counter[int] = Counter()
    where: dict[int, int] = {}
    for piece, offset in _seeds(quote):
        hits: list[int] = []
        at = text.find(piece, lo, hi)
        while at != -1 and len(hits) <= _MAX_HITS_PER_SEED:
            hits.append(at)
            at = text.find(piece, at + 1, hi)
        if not hits or len(hits) > _MAX_HITS_PER_SEED:
            continue
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
    if hi - lo <= max(_SMALL_TEXT, 3 * length):
        return [(lo, hi)]
    slack = max(32, length // 4)
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
    if not quote or hi <= lo:
        return []
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
        hits.append(FuzzyHit(start + found.dest_start, start + found.dest_end, found.score))
    return _distinct(hits)


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

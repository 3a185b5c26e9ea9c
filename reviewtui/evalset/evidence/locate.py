"""Finding one quote in one document: exact, then folded, then loose, then approximate.

Rules, in the order they are tried:

1. **exact**: the quote as written (``str.find``); ``occurrence`` n picks the
   (n+1)-th match, counting overlapping matches.
2. **normalised**: quote and document folded (:mod:`textmatch`: whitespace,
   case, quote marks, dashes, ligatures, invisible characters, NFC/NFD); the
   n-th folded match is mapped back to original offsets.
3. **loose**: a quote that does not match folded but has an ellipsis ("…",
   "...") or ends in a full stop, comma, semicolon or colon is read as its
   parts, cut at each ellipsis, the end punctuation dropped
   (:mod:`elision`); the n-th place where the folded parts follow each other
   (each within a short gap of the one before) is a **normalised** match whose
   note says what was ignored. What is left must be at least
   ``min_fuzzy_length`` folded characters.
4. **approximate**: rapidfuzz on candidate windows (:mod:`fuzzy`), for quotes
   of at least ``min_fuzzy_length`` folded characters, scoring at least the
   threshold. The best-scoring passage wins; ``occurrence`` only chooses among
   passages scoring within two points of the best (copies of the same text),
   by position. When there are fewer such copies than ``occurrence`` asks
   for, the best is taken and the note says so. (A near-copy that scores
   clearly lower is a different passage, whatever the occurrence says.)

If the quote is found literally (or folded) but fewer times than
``occurrence`` asks for, the answer is *not found*: a fuzzy match elsewhere
would be a guess.

Copies the item's gold marks: an anchor that says nothing of which copy it means (occurrence 0, which a
file cannot tell from an occurrence not given, and no page hint) is placed at a copy its item's gold spans
cover exactly, the earliest such, when the first copy is not one of them; the note says where the first
copy is and which occurrence the marked one is. A reader that has offsets but no document to count copies
in (LegalBench-RAG) makes such anchors; without this, the quote of a snippet whose text is also earlier in
its file landed on the earlier copy, away from the snippet's own span. An anchor that gives an occurrence
or a page hint is searched as it says.

Pages: ``page_hint`` is 1-based and counts form-feed separated pages. It is
used only when the document has more than one page (a hint on a page-less
text is silently ignored). A match belongs to the page it starts on. When the
hinted page does not exist, or the quote is not on it, the whole document is
searched (occurrence then counts over the whole document) and ``page_note``
says so.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Callable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from rapidfuzz.distance import Indel

from reviewtui.evalset.evidence.corpus import Document
from reviewtui.evalset.evidence.elision import GAVE_UP, MAX_LOOKUPS, find_parts, loose_parts
from reviewtui.evalset.evidence.fuzzy import MAX_APPROXIMATE, fuzzy_find
from reviewtui.evalset.evidence.resolution import MatchKind
from reviewtui.evalset.evidence.textmatch import (
    DASHES,
    DOUBLE_QUOTES,
    INVISIBLE,
    SINGLE_QUOTES,
    fold,
)
from reviewtui.evalset.model.items import GoldAnchor
from reviewtui.evalset.text.words import unspaced

__all__ = ["Located", "SearchSettings", "describe_folding", "locate", "marked_occurrence"]

_CUT_NOTE = "the words left out at each ellipsis"
_END_PUNCTUATION = re.compile(r"[\s.,;:]+$")
_SAME_PASSAGE_MARGIN = 2.0  # approximate hits this close to the best count as copies of it


@dataclass(frozen=True, slots=True)
class SearchSettings:
    """Knobs of the approximate search (see :class:`AnchorResolver`)."""

    threshold: float = 85.0
    fuzzy: bool = True
    min_fuzzy_length: int = 12
    max_windows: int = 8


@dataclass(frozen=True, slots=True)
class Located:
    """Where a quote was found (original offsets), or why not."""

    kind: MatchKind
    start: int = -1
    end: int = -1
    score: float | None = None
    note: str = ""
    page_note: str = ""


#: Matches walked one by one before the rest are found by the regular-expression engine, which steps over
#: each match without running Python (a quote asked for at occurrence 10**9 in a text of its copies).
_WALKED = 64


def _nth_exact(text: str, quote: str, n: int, lo: int, hi: int) -> tuple[int, int]:
    """(position of the n-th match starting in [lo, hi), or -1; matches seen).

    Overlapping matches count. The usual quote is found within a few matches; past ``_WALKED`` the rest
    are stepped over in C, and counted there when there are fewer than ``n + 1``.
    """
    count = 0
    at = text.find(quote, lo)
    while at != -1 and at < hi:
        if count == n:
            return at, count + 1
        count += 1
        if count == _WALKED:
            return _nth_beyond(text, quote, n - count, at + 1, hi, count)
        at = text.find(quote, at + 1)
    return -1, count


def _nth_whole(text: str, quote: str, n: int, lo: int, hi: int) -> tuple[int, int]:
    """:func:`_nth_exact`, where a match must end where a character ends: "cafe" is not in "café" written
    as "e" and a combining accent (text in NFD, or folded), though the search finds it there."""
    at, count = _nth_exact(text, quote, n, lo, hi)
    if at == -1 or not _goes_on_at(text, at + len(quote)):
        return at, count
    count, at = 0, text.find(quote, lo)
    while at != -1 and at < hi:
        if not _goes_on_at(text, at + len(quote)):
            if count == n:
                return at, count + 1
            count += 1
        at = text.find(quote, at + 1)
    return -1, count


def _goes_on_at(text: str, at: int) -> bool:
    """Whether the character at ``at`` is a mark that belongs to the one before it (a combining accent)."""
    return at < len(text) and unicodedata.combining(text[at]) != 0


def _nth_beyond(text: str, quote: str, n: int, lo: int, hi: int, before: int) -> tuple[int, int]:
    """:func:`_nth_exact` from ``lo`` on, ``before`` matches having been passed already."""
    # A match starting before hi ends before hi + len(quote); the search must see that far and no farther.
    end = hi + len(quote) - 1
    escaped = re.escape(quote)
    pattern = re.compile(f"(?={escaped})" if _overlaps_itself(quote) else escaped)
    counter = itertools.count()
    matches = zip(pattern.finditer(text, lo, end), counter)
    found = next(itertools.islice(matches, n, None), None)
    if found is not None:
        return found[0].start(), before + n + 1
    return -1, before + next(counter)


def _overlaps_itself(quote: str) -> bool:
    """Whether two copies of ``quote`` can overlap: some part at its start is also at its end ("abab").

    Otherwise matches never overlap and a plain search finds them all, many times faster than one that
    tries every position."""
    border = [0] * len(quote)  # the longest part ending at i that is also at the start
    k = 0
    for i in range(1, len(quote)):
        while k and quote[i] != quote[k]:
            k = border[k - 1]
        if quote[i] == quote[k]:
            k += 1
        border[i] = k
    return k > 0


def _times(count: int) -> str:
    return "once" if count == 1 else f"{count} times"


class _Search:
    """One quote in one document, within one region."""

    def __init__(self, document: Document, anchor: GoldAnchor, settings: SearchSettings) -> None:
        self.document = document
        self.anchor = anchor
        self.settings = settings
        self._folded_quote: str | None = None
        #: the parts of a quote cut with "…" (how many), when their search stopped before it knew where they are
        self.parts_given_up: int | None = None

    @property
    def folded_quote(self) -> str:
        """Folded only when the exact search fails: most quotes never need it."""
        if self._folded_quote is None:
            self._folded_quote = fold(self.anchor.quote)
        return self._folded_quote

    def literal(self, lo: int, hi: int) -> tuple[Located | None, int]:
        """Exact, then folded; also returns the most matches seen (for the occurrence note)."""
        text, quote, n = self.document.text, self.anchor.quote, self.anchor.occurrence
        at, exact_count = _nth_whole(text, quote, n, lo, hi)
        if at != -1:
            return Located(MatchKind.EXACT, at, at + len(quote), 100.0), exact_count
        if not self.folded_quote:
            return None, exact_count
        folded = self.document.normalised
        f_lo, f_hi = folded.folded_position(lo), folded.folded_position(hi)
        at, folded_count = _nth_whole(folded.text, self.folded_quote, n, f_lo, f_hi)
        if at == -1:
            if exact_count or folded_count:
                return None, max(exact_count, folded_count)
            return self.loose(f_lo, f_hi)
        start, end = folded.original_span(at, at + len(self.folded_quote))
        start, end = _trim(text, start, end)
        note = describe_folding(quote, text[start:end])
        return Located(MatchKind.NORMALISED, start, end, 100.0, note=note), folded_count

    def loose(self, f_lo: int, f_hi: int) -> tuple[Located | None, int]:
        """The quote read as cut at its ellipses, its end punctuation dropped (:mod:`elision`); the parts
        must be in the document as they are once folded."""
        loose = loose_parts(self.folded_quote)
        if loose is None:
            return None, 0
        parts, cut, dropped = loose
        if sum(len(part) for part in parts) < self.settings.min_fuzzy_length:
            return None, 0  # what is left is too short to say where it is
        folded = self.document.normalised
        found, count = find_parts(folded.text, parts, self.anchor.occurrence, f_lo, f_hi)
        if count == GAVE_UP:
            self.parts_given_up = len(parts)
            return None, 0
        if found is None:
            return None, count
        start, end = folded.original_span(*found)
        start, end = _trim(self.document.text, start, end)
        said = [words for words, done in ((_CUT_NOTE, cut), ("the punctuation at its end", dropped)) if done]
        note = "ignoring " + " and ".join(said)
        # Beside a cut, the passage holds what was left out, so only an uncut quote's folding is named.
        folding = "" if cut else describe_folding(_END_PUNCTUATION.sub("", self.anchor.quote), self.document.text[start:end])
        if folding.startswith("ignoring differences in "):
            note += "; " + folding.removeprefix("ignoring ")
        return Located(MatchKind.NORMALISED, start, end, 100.0, note=note), count

    def approximate(self, lo: int, hi: int) -> Located | None:
        settings = self.settings
        if not settings.fuzzy or len(self.folded_quote) < settings.min_fuzzy_length:
            return None
        folded = self.document.normalised
        f_lo, f_hi = folded.folded_position(lo), folded.folded_position(hi)
        hits = fuzzy_find(
            folded.text,
            self.folded_quote,
            threshold=settings.threshold,
            lo=f_lo,
            hi=f_hi,
            max_windows=settings.max_windows,
        )
        if not hits:
            return None
        n = self.anchor.occurrence
        best = max(hit.score for hit in hits)
        copies = [hit for hit in hits if hit.score >= best - _SAME_PASSAGE_MARGIN]
        note = ""
        if n < len(copies):
            hit = copies[n]
        else:
            hit = max(copies, key=lambda h: h.score)
            note = (
                f"occurrence {n} asked for but only {len(copies)} approximate "
                f"passage{'s' if len(copies) != 1 else ''} found; took the best"
            )
        start, end = folded.original_span(hit.start, hit.end)
        text = self.document.text
        start, end = _whole_words(text, *_trim(text, start, end), lo, hi)
        return Located(MatchKind.APPROXIMATE, start, end, round(hit.score, 1), note=note)


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    """Drop whitespace at the ends of a mapped passage (never to nothing)."""
    while start < end - 1 and text[start].isspace():
        start += 1
    while end - 1 > start and text[end - 1].isspace():
        end -= 1
    return start, end


#: The longest word a passage is widened to take whole: a longer run of letters is a script written without
#: spaces (Chinese, Japanese, Thai), where a word's edge cannot be told this way.
_LONGEST_WORD = 30


def _whole_words(text: str, start: int, end: int, lo: int, hi: int) -> tuple[int, int]:
    """Widen an approximate passage that begins or ends inside a word to that word's edges, within [lo, hi).

    The fuzzy search scores windows of characters, so its best one often starts or stops a few letters
    into a word ("he Company ... prior writt"): the reviewer read a cut word in the evidence pane, and
    `resolve` wrote a gold span ending inside one.
    """
    # Between two characters of a script written without spaces (Chinese, Japanese, Thai) is a word's edge as
    # it stands: widened to the run of letters, a passage took in its whole clause.
    if lo < start < end and _cuts_a_word(text, start):
        left, right = _word_around(text, start, lo, hi)
        if right - left <= _LONGEST_WORD:
            start = left
    if start < end < hi and _cuts_a_word(text, end):
        left, right = _word_around(text, end, lo, hi)
        if right - left <= _LONGEST_WORD:
            end = right
    return start, end


def _cuts_a_word(text: str, at: int) -> bool:
    """Whether ``at`` falls inside a word: between two of its characters, not two of a script without spaces."""
    before, after = text[at - 1], text[at]
    return _in_word(before) and _in_word(after) and not (unspaced(before) and unspaced(after))


def _in_word(char: str) -> bool:
    """A letter, a digit, or a mark that goes on the letter before it: an accent written as a character of
    its own (the decomposed "é" of text in NFD) is part of its word, and a passage cut before it lost it."""
    return char.isalnum() or unicodedata.category(char).startswith("M")


def _word_around(text: str, at: int, lo: int, hi: int) -> tuple[int, int]:
    """The run of letters and digits around ``at`` within [lo, hi), looked at no further than one character
    past ``_LONGEST_WORD`` each way: a run longer than that is not widened to, and walking all of it (a
    run of 3 million letters without a space) took a third of a second per passage."""
    left = at
    stop = max(lo, at - _LONGEST_WORD - 1)
    while left > stop and _in_word(text[left - 1]):
        left -= 1
    right = at
    stop = min(hi, at + _LONGEST_WORD + 1)
    while right < stop and _in_word(text[right]):
        right += 1
    return left, right


def _region(document: Document, page_hint: int | None) -> tuple[tuple[int, int] | None, str]:
    if page_hint is None or document.page_count <= 1:
        return None, ""
    bounds = document.page_bounds(page_hint)
    if bounds is None:
        return None, (
            f"page {page_hint} asked for but the document has {document.page_count} pages; "
            "searched all of it"
        )
    return bounds, ""


def locate(
    document: Document, anchor: GoldAnchor, settings: SearchSettings, marked: AbstractSet[tuple[int, int]] = frozenset()
) -> Located:
    """Find ``anchor.quote`` in ``document`` following the module's rules; ``marked`` holds the
    ``(start, end)`` of the gold spans of the anchor's item in this document (those as long as the quote
    are enough)."""
    if anchor.occurrence == 0 and anchor.page_hint is None:
        found = _marked_copy(document.text, anchor.quote, marked)
        if found is not None:
            return found
    search = _Search(document, anchor, settings)
    whole = (0, len(document.text))
    region, page_note = _region(document, anchor.page_hint)

    found, seen = search.literal(*(region or whole))
    if found is None and region is not None:
        found, seen_all = search.literal(*whole)
        seen = max(seen, seen_all)
        if found is not None:
            page_note = _other_page(document, found, anchor.page_hint)
    if found is not None:
        return _with_page_note(found, page_note)

    if seen and search.parts_given_up is None:
        # The quote is there, just not as many times as the occurrence asks.
        return Located(
            MatchKind.NOT_FOUND,
            note=f"the quote occurs {_times(seen)}, but occurrence {anchor.occurrence} "
            f"(counting from 0) was asked for",
            page_note=page_note,
        )

    found = search.approximate(*(region or whole))
    if found is None and region is not None:
        found = search.approximate(*whole)
        if found is not None:
            page_note = _other_page(document, found, anchor.page_hint)
    if found is not None:
        return _with_page_note(found, page_note)

    if not search.folded_quote:
        why = "the quote holds no visible text"
    elif not settings.fuzzy:
        why = "no exact or normalised match (approximate search is off)"
    elif len(search.folded_quote) < settings.min_fuzzy_length:
        why = (
            f"no exact or normalised match, and the quote is too short "
            f"(under {settings.min_fuzzy_length} characters) for an approximate one"
        )
    elif len(search.folded_quote) > MAX_APPROXIMATE:
        why = f"no exact or normalised match, and the quote is too long (over {MAX_APPROXIMATE:,} characters) for an approximate one"
    else:
        why = f"no passage scores {settings.threshold:g} or more"
    if search.parts_given_up is not None:
        # Said first: that search, not the approximate one, is what could not tell where the quote is.
        why = (
            f"its {search.parts_given_up:,} parts cut with '…' were looked for until the search stopped, after "
            f"{MAX_LOOKUPS:,} parts looked for, before it knew where they are; {why}"
        )
    return Located(MatchKind.NOT_FOUND, note=why, page_note=page_note)


def _marked_copy(text: str, quote: str, marked: AbstractSet[tuple[int, int]]) -> Located | None:
    """The earliest copy of ``quote`` that a marked span covers exactly, when the first copy is not one."""
    if not marked:
        return None
    length = len(quote)
    first = text.find(quote)
    if first == -1 or (first, first + length) in marked:
        return None  # not there as written, or the usual search takes the first copy, which the gold marks too
    copies = [start for start, end in marked if end - start == length and text.startswith(quote, start)]
    if not copies:
        return None
    start = min(copies)
    _, earlier = _nth_exact(text, quote, start, first, start)
    note = (
        f"took the copy at the item's gold span (occurrence {earlier}); "
        f"the quote is first at [{first}, {first + length})"
    )
    return Located(MatchKind.EXACT, start, start + length, 100.0, note=note)


def marked_occurrence(text: str, quote: str, marked: AbstractSet[tuple[int, int]]) -> int | None:
    """Which copy of ``quote`` (counting from 0, as an anchor's ``occurrence`` does) :func:`locate` takes for an
    anchor that gives no occurrence or page hint, placed at a copy its item's gold ``marked`` covers exactly; None
    when that is the first copy (or none). An edit of such a quote keeps it (a correction of the same passage),
    since the span that marked the copy goes with the old words."""
    found = _marked_copy(text, quote, marked)
    if found is None:
        return None
    _, earlier = _nth_exact(text, quote, found.start, text.find(quote), found.start)
    return earlier


def _other_page(document: Document, found: Located, page_hint: int | None) -> str:
    """The note for a passage found once the whole document was searched: a passage starting on the page
    asked for belongs to it (one running onto the next page is not within the page alone), and was said
    to be "found on page 2, not on page 2"."""
    page = document.page_of(found.start)
    return "" if page == page_hint else f"found on page {page}, not on page {page_hint}"


def _with_page_note(found: Located, page_note: str) -> Located:
    if not page_note:
        return found
    return Located(found.kind, found.start, found.end, found.score, found.note, page_note)


# --- saying what a normalised match differed in ---------------------------------------------

_REMOVE_INVISIBLE = {ord(c): None for c in INVISIBLE}
_STRAIGHT_QUOTES = {ord(c): "'" for c in SINGLE_QUOTES + DOUBLE_QUOTES + '"'}
_PLAIN_DASHES = {ord(c): "-" for c in DASHES}
_STEPS: tuple[tuple[str, Callable[[str], str]], ...] = (
    ("invisible characters", lambda s: s.translate(_REMOVE_INVISIBLE)),
    ("whitespace", lambda s: " ".join(s.split())),
    ("quote marks", lambda s: s.translate(_STRAIGHT_QUOTES)),
    ("dashes", lambda s: s.translate(_PLAIN_DASHES)),
    ("ligatures or accent encoding", lambda s: unicodedata.normalize("NFKD", s)),
    ("case", str.casefold),
)


def describe_folding(quote: str, passage: str) -> str:
    """Which kinds of difference separate a quote from the passage it matched once folded.

    The folding steps are applied one after another; a kind is named when its
    step brings the two texts closer (smaller indel distance).
    """
    q, p = quote, passage
    named: list[str] = []
    for label, step in _STEPS:
        if q == p:
            break
        q2, p2 = step(q), step(p)
        if Indel.distance(q2, p2) < Indel.distance(q, p):
            named.append(label)
        q, p = q2, p2
    if not named:
        return "after normalising"
    return "ignoring differences in " + ", ".join(named)

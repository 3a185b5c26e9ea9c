"""Lenient text comparison that can still point back into the original text.

A quote typed by a person or an LLM rarely matches its source byte for byte:
curly quotes become straight, a PDF extractor leaves ligatures ("ﬁ"), soft
hyphens and runs of spaces, case drifts. :func:`normalise` folds those
differences away and keeps a compact map from every position in the folded
text back to the original, so a match found in the folded text becomes offsets
into the text the reviewer actually sees.

What folding does, in order, one character at a time:

* any run of whitespace (including NBSP and other Unicode spaces) becomes one space;
* soft hyphens, zero-width spaces/joiners and byte-order marks disappear;
* every quote mark, single or double, straight, curly or other, becomes ``'``
  (a quote that puts a defined term in single quotes, ‘Renewal Term’, where the
  document has "Renewal Term", says the same thing); every dash and minus sign
  becomes ``-``;
* everything else goes through Unicode NFKD (ligatures split, composed accents
  decomposed, so NFC and NFD spellings agree) and ``casefold``.

The map is stored as segments (a run where folded and original advance
together, or a block where several folded characters come from one original
stretch), so a 10 MB document with ordinary prose costs a few thousand
segments, not one integer per character.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from array import array
from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache

__all__ = ["DASHES", "DOUBLE_QUOTES", "INVISIBLE", "SINGLE_QUOTES", "NormalisedText", "fold", "normalise"]

# Plain ASCII text between these matches only needs lower-casing (and '"' made "'"), which keeps its
# length; everything matched here may change length and is handled piece by piece.
_SPECIAL = re.compile(r"\s{2,}|[^\S ]|[^\x00-\x7f\s]+")

SINGLE_QUOTES = "\u2018\u2019\u201a\u201b\u2032\u00b4"  # ' variants
DOUBLE_QUOTES = "\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb"  # " variants
DASHES = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d\u2043"
INVISIBLE = "\u00ad\u200b\u200c\u200d\u2060\ufeff"

_TABLE: dict[str, str] = {}
_TABLE.update({ch: "'" for ch in SINGLE_QUOTES})
_TABLE.update({ch: "'" for ch in DOUBLE_QUOTES})
_TABLE.update({ch: "-" for ch in DASHES})
_TABLE.update({ch: "" for ch in INVISIBLE})
_TRANSLATE = str.maketrans(_TABLE)


@lru_cache(maxsize=65536)
def _fold_char(ch: str) -> str:
    """The folded form of one non-ASCII, non-space character (may be empty or longer)."""
    if ch in _TABLE:
        return _TABLE[ch]
    folded = unicodedata.normalize("NFKD", ch).casefold()
    # Decomposition can produce characters the table knows (U+2011 -> U+2010).
    folded = unicodedata.normalize("NFKD", folded).translate(_TRANSLATE)
    return folded


def fold(text: str) -> str:
    """The folded form of ``text`` without the offset map, outer spaces stripped (for quotes)."""
    return normalise(text).text.strip(" ")


class _MapBuilder:
    """Collects segments: identity runs (folded and original advance together) and blocks."""

    __slots__ = ("norm", "orig", "orig_end")

    def __init__(self) -> None:
        self.norm = array("q")
        self.orig = array("q")
        self.orig_end = array("q")  # -1 marks an identity run

    def identity(self, n: int, o: int) -> None:
        if self.orig_end and self.orig_end[-1] == -1 and self.orig[-1] + (n - self.norm[-1]) == o:
            return  # continues the previous identity run
        self.norm.append(n)
        self.orig.append(o)
        self.orig_end.append(-1)

    def block(self, n: int, o: int, o_end: int) -> None:
        self.norm.append(n)
        self.orig.append(o)
        self.orig_end.append(o_end)


@dataclass(frozen=True, slots=True, eq=False)
class NormalisedText:
    """Folded text plus the way back to the original text's offsets."""

    text: str
    original_length: int
    _norm: array
    _orig: array
    _orig_end: array

    def __len__(self) -> int:
        return len(self.text)

    def original_start(self, index: int) -> int:
        """Where the folded character at ``index`` starts in the original text."""
        if index >= len(self.text):
            return self.original_length
        k = bisect_right(self._norm, index) - 1
        if self._orig_end[k] == -1:
            return self._orig[k] + (index - self._norm[k])
        return self._orig[k]

    def original_end(self, index: int) -> int:
        """Where the folded character at ``index`` ends in the original text."""
        k = bisect_right(self._norm, index) - 1
        if self._orig_end[k] == -1:
            return self._orig[k] + (index - self._norm[k]) + 1
        return self._orig_end[k]

    def original_span(self, start: int, end: int) -> tuple[int, int]:
        """The original ``[start, end)`` covering the folded ``[start, end)`` (end > start)."""
        return self.original_start(start), self.original_end(end - 1)

    def folded_position(self, original: int) -> int:
        """The first folded index whose original start is at or after ``original``."""
        if original <= 0:
            return 0
        if original >= self.original_length:
            return len(self.text)
        k = bisect_right(self._orig, original) - 1
        if k < 0:
            return 0
        seg_norm = self._norm[k]
        seg_next = self._norm[k + 1] if k + 1 < len(self._norm) else len(self.text)
        if self._orig_end[k] == -1:
            offset = original - self._orig[k]
            return min(seg_norm + offset, seg_next)
        return seg_norm if original == self._orig[k] else seg_next


def normalise(text: str) -> NormalisedText:
    """Fold ``text`` (see the module notes) and keep the map back to its offsets."""
    parts: list[str] = []
    build = _MapBuilder()
    n = 0
    pos = 0
    # The text's end is taken as one more special place, so that the plain text after the last is emitted
    # by the same lines as the plain text between two.
    for match in itertools.chain(_SPECIAL.finditer(text), (None,)):
        start, end = match.span() if match is not None else (len(text), len(text))
        if start > pos:
            chunk = text[pos:start].lower().replace('"', "'")
            at = pos
            if chunk[0] == " " and parts and parts[-1].endswith(" "):
                # Spaces around an invisible character (removed) are one space, as a run of spaces is.
                chunk, at = chunk[1:], pos + 1
            if chunk:
                build.identity(n, at)
                parts.append(chunk)
                n += len(chunk)
        if match is None:
            break
        piece = match.group()
        if piece[0].isspace():
            if parts and parts[-1].endswith(" "):
                pos = end  # likewise: the space before an invisible character stands for both
                continue
            if end - start == 1:
                build.identity(n, start)
            else:
                build.block(n, start, end)
            parts.append(" ")
            n += 1
        else:
            for offset, ch in enumerate(piece):
                folded = _fold_char(ch)
                if not folded:
                    continue
                if len(folded) == 1:
                    build.identity(n, start + offset)
                else:
                    build.block(n, start + offset, start + offset + 1)
                parts.append(folded)
                n += len(folded)
        pos = end
    if not build.norm:
        build.identity(0, 0)
    return NormalisedText("".join(parts), len(text), build.norm, build.orig, build.orig_end)

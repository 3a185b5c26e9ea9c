"""A set of positions ``0 .. n-1`` that finds its next member in a few steps.

The review queue keeps the positions of the undecided items here, so that
"which item comes next" costs the same on a set of a thousand questions as on
a million. Members are bits in 64-bit words; a second level of words says
which first-level words are non-empty, and so on up to a single word. Adding,
removing and "next member at or after p" each touch one word per level
(four levels for a million positions).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

__all__ = ["PositionSet"]

_WORD = 64
_SHIFT = 6
_LOW = _WORD - 1
_FULL = (1 << _WORD) - 1


def _lowest_bit(word: int) -> int:
    return (word & -word).bit_length() - 1


class PositionSet:
    """Positions ``0 .. size-1``, each either in the set or not."""

    __slots__ = ("_levels", "_count", "size")

    def __init__(self, size: int) -> None:
        """An empty set over ``size`` positions."""
        if size < 0:
            raise ValueError("a position set cannot have a negative size")
        self.size = size
        self._count = 0
        self._levels: list[list[int]] = []
        width = size
        while True:
            words = max(1, (width + _LOW) >> _SHIFT)
            self._levels.append([0] * words)
            if words == 1:
                break
            width = words

    @classmethod
    def full(cls, size: int) -> PositionSet:
        """Every position present, built a word at a time."""
        made = cls(size)
        if size == 0:
            return made
        width = size
        for level in made._levels:
            whole, rest = divmod(width, _WORD)
            level[:whole] = [_FULL] * whole
            if rest:
                level[whole] = (1 << rest) - 1
            width = len(level)
        made._count = size
        return made

    def __len__(self) -> int:
        return self._count

    def __contains__(self, position: object) -> bool:
        if not isinstance(position, int) or not 0 <= position < self.size:
            return False
        return bool(self._levels[0][position >> _SHIFT] >> (position & _LOW) & 1)

    def __iter__(self) -> Iterator[int]:
        position = self.next_from(0)
        while position >= 0:
            yield position
            position = self.next_from(position + 1)

    def add(self, position: int) -> None:
        self._check(position)
        levels = self._levels
        word_index = position >> _SHIFT
        before = levels[0][word_index]
        after = before | (1 << (position & _LOW))
        if after == before:
            return
        levels[0][word_index] = after
        self._count += 1
        # Mark the word non-empty upwards until a level already knew it.
        for level in levels[1:]:
            if before:
                break
            position = word_index
            word_index = position >> _SHIFT
            before = level[word_index]
            level[word_index] = before | (1 << (position & _LOW))

    def discard(self, position: int) -> None:
        self._check(position)
        levels = self._levels
        word_index = position >> _SHIFT
        before = levels[0][word_index]
        after = before & ~(1 << (position & _LOW))
        if after == before:
            return
        levels[0][word_index] = after
        self._count -= 1
        # A word that became empty clears its bit one level up, and so on.
        for level in levels[1:]:
            if after:
                break
            position = word_index
            word_index = position >> _SHIFT
            after = level[word_index] & ~(1 << (position & _LOW))
            level[word_index] = after

    def next_from(self, position: int) -> int:
        """The smallest member at or after ``position``, or -1 when there is none."""
        if position < 0:
            position = 0
        if position >= self.size:
            return -1
        levels = self._levels
        depth = 0
        while True:
            level = levels[depth]
            word_index = position >> _SHIFT
            if word_index >= len(level):
                return -1
            shift = position & _LOW
            word = level[word_index] >> shift << shift
            if word:
                position = (word_index << _SHIFT) | _lowest_bit(word)
                break
            depth += 1
            if depth == len(levels):
                return -1
            position = word_index + 1
        # Walk down to the first member below the word found.
        while depth:
            depth -= 1
            position = (position << _SHIFT) | _lowest_bit(levels[depth][position])
        return position

    def grow(self, size: int) -> None:
        """Widen the set to ``size`` positions; the new ones start as members.

        For a queue whose set is still being read: costs O(size / 64), so adding
        a batch never walks the positions one by one.
        """
        old = self.size
        if size < old:
            raise ValueError(f"a position set cannot shrink (from {old} to {size})")
        base = self._levels[0]
        words = max(1, (size + _LOW) >> _SHIFT)
        base.extend([0] * (words - len(base)))
        position = old
        while position < size:
            word_index = position >> _SHIFT
            low = position & _LOW
            high = min(_WORD, size - (word_index << _SHIFT))
            base[word_index] |= ((1 << high) - 1) ^ ((1 << low) - 1)
            position = (word_index + 1) << _SHIFT
        self._levels = _levels_over(base)
        self.size = size
        self._count += size - old

    def first(self) -> int:
        """The smallest member, or -1 when the set is empty."""
        return self.next_from(0)

    def copy(self) -> PositionSet:
        """Another set with the same members (a word at a time)."""
        made = PositionSet.__new__(PositionSet)
        made.size, made._count, made._levels = self.size, self._count, [level.copy() for level in self._levels]
        return made

    def bits(self) -> Any:
        """Every position's membership, as a numpy array of ``size`` booleans (a word at a time, no walk)."""
        import numpy as np

        words = np.array(self._levels[0], dtype="<u8")
        return np.unpackbits(words.view(np.uint8), bitorder="little")[: self.size].astype(bool)

    @classmethod
    def from_bits(cls, bits: Any) -> PositionSet:
        """The set whose members are the positions where ``bits`` (a numpy array of booleans) is true.

        Built a word at a time, as :meth:`bits` reads one: laying out a million positions in another
        order (see ``ReviewQueue._apply_order``) costs no walk over them in Python.
        """
        import numpy as np

        size = len(bits)
        made = cls(size)
        if size == 0:
            return made
        packed = np.packbits(np.asarray(bits, dtype=bool), bitorder="little")
        padded = np.zeros(len(made._levels[0]) * 8, dtype=np.uint8)
        padded[: len(packed)] = packed
        made._levels = _levels_over(padded.view("<u8").tolist())
        made._count = int(np.count_nonzero(bits))
        return made

    def _check(self, position: int) -> None:
        if not 0 <= position < self.size:
            raise IndexError(f"position {position} is outside 0..{self.size - 1}")


def _levels_over(base: list[int]) -> list[list[int]]:
    """``base`` (the members' words) and the levels above it, each word of one a bit of the level above: set where
    the word below has any member."""
    levels = [base]
    while len(levels[-1]) > 1:
        below = levels[-1]
        upper = [0] * ((len(below) + _LOW) >> _SHIFT)
        for index, word in enumerate(below):
            if word:
                upper[index >> _SHIFT] |= 1 << (index & _LOW)
        levels.append(upper)
    return levels

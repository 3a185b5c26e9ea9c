"""PositionSet, the structure behind "next undecided item", against a plain Python set."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reviewtui.evalset.review.positions import PositionSet


def expected_next(members: set[int], start: int) -> int:
    return min((m for m in members if m >= start), default=-1)


@settings(max_examples=200, deadline=None)
@given(
    size=st.integers(0, 5000),
    full=st.booleans(),
    steps=st.lists(st.tuples(st.booleans(), st.integers(0, 10**6), st.integers(-3, 10**6)), max_size=80),
)
def test_matches_a_plain_set(size, full, steps):
    made = PositionSet.full(size) if full else PositionSet(size)
    model = set(range(size)) if full else set()
    for add, raw, probe in steps:
        if size:
            position = raw % size
            (made.add if add else made.discard)(position)
            (model.add if add else model.discard)(position)
        start = probe if probe < 0 else probe % (size + 2)
        assert made.next_from(start) == expected_next(model, max(start, 0))
        assert len(made) == len(model)
    assert list(made) == sorted(model)
    assert made.first() == expected_next(model, 0)


def test_sizes_at_word_boundaries():
    for size in (1, 63, 64, 65, 4095, 4096, 4097, 262_145):
        made = PositionSet.full(size)
        assert len(made) == size
        assert made.next_from(size - 1) == size - 1
        made.discard(size - 1)
        assert made.next_from(size - 1) == -1
        made.discard(0)
        model = set(range(1, size - 1))
        assert made.first() == expected_next(model, 0)
        made.add(size - 1)
        model.add(size - 1)
        assert made.next_from(1) == expected_next(model, 1)


def test_positions_outside_are_refused():
    made = PositionSet(10)
    with pytest.raises(IndexError):
        made.add(10)
    with pytest.raises(IndexError):
        made.discard(-1)
    assert 10 not in made and "x" not in made

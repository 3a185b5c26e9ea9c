"""The approximate search: its screening never hides a real match, and repeated passages stay apart."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz import fuzz

from reviewtui.evalset.evidence.fuzzy import _could_reach, fuzzy_find


@settings(max_examples=400, deadline=None)
@given(
    st.text(alphabet="abcde ", min_size=5, max_size=40),
    st.text(alphabet="abcde ", min_size=5, max_size=120),
    st.sampled_from([60.0, 75.0, 85.0, 95.0]),
)
def test_screen_never_rejects_a_window_that_reaches_the_threshold(quote: str, window: str, threshold: float) -> None:
    if len(window) < len(quote):
        return
    found = fuzz.partial_ratio_alignment(quote, window, score_cutoff=threshold)
    if found is not None:
        assert _could_reach(quote, window, threshold)


def _prose(rng: random.Random, size: int) -> str:
    words = ["".join(rng.choice("abcdefghijklmnop") for _ in range(rng.randint(2, 9))) for _ in range(800)]
    return " ".join(rng.choice(words) for _ in range(size // 6))


def test_two_adjacent_copies_are_two_hits() -> None:
    rng = random.Random(11)
    passage = _prose(rng, 400)
    text = _prose(rng, 20_000) + " " + passage + " " + passage + " " + _prose(rng, 20_000)
    quote = passage[:150] + "#" + passage[151:]
    hits = fuzzy_find(text, quote, threshold=85)
    first = text.index(passage)
    second = text.index(passage, first + 1)
    assert [abs(h.start - s) <= 2 for h, s in zip(hits, (first, second))] == [True, True]
    assert len(hits) == 2


def test_search_stays_inside_the_region() -> None:
    rng = random.Random(12)
    passage = _prose(rng, 300)
    text = passage + " " + _prose(rng, 30_000) + " " + passage
    quote = passage.replace(passage[40], "#", 1)
    later = text.rindex(passage)
    hits = fuzzy_find(text, quote, threshold=85, lo=later - 10)
    assert len(hits) == 1 and abs(hits[0].start - later) <= 2


def test_a_text_shorter_than_the_quote_is_compared_whole() -> None:
    quote = "the whole of this long quote must be present for a match to count"
    assert fuzzy_find("the whole of this long quote", quote, threshold=85) == []

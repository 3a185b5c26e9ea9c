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


def _typed(rng: random.Random, text: str, rate: float) -> str:
    """``text`` copied by a careless hand: about ``rate`` of its characters changed, dropped or doubled."""
    out = []
    for c in text:
        r = rng.random()
        if r < rate / 3:
            continue
        if r < 2 * rate / 3:
            out.append(c)
        out.append("#" if r < rate else c)
    return "".join(out)


def test_a_long_quote_is_compared_at_its_likely_starts_not_slid_along_its_window(monkeypatch) -> None:
    """A 32 KB quote took 42 s in one uninterruptible call: sliding it along its window grows faster than its
    length squared. It is now compared whole where its pieces place it, and found where the sliding found it."""
    import reviewtui.evalset.evidence.fuzzy as fuzzy

    rng = random.Random(13)
    passage = _prose(rng, 32_000)
    text = _prose(rng, 8_000) + " " + passage + " " + _prose(rng, 8_000)
    quote = _typed(rng, passage, 0.04)
    assert len(quote) > fuzzy.LONG_QUOTE

    def no_sliding(*args, **kwargs):
        raise AssertionError("a long quote was slid along its window")

    monkeypatch.setattr(fuzzy.fuzz, "partial_ratio_alignment", no_sliding)
    hits = fuzzy_find(text, quote, threshold=85)
    start = text.index(passage)
    assert len(hits) == 1
    assert abs(hits[0].start - start) <= 10 and abs(hits[0].end - (start + len(passage))) <= 60
    assert hits[0].score >= 90


def test_a_long_quote_scores_as_the_sliding_scored_it() -> None:
    """Just past LONG_QUOTE, where both ways are cheap: the same passage, the score within half a point."""
    from reviewtui.evalset.evidence.fuzzy import LONG_QUOTE

    rng = random.Random(14)
    for rate in (0.02, 0.06, 0.12):
        passage = _prose(rng, LONG_QUOTE + 600)
        text = _prose(rng, 3_000) + " " + passage + " " + _prose(rng, 3_000)
        quote = _typed(rng, passage, rate)
        slid = fuzz.partial_ratio_alignment(quote, text, score_cutoff=80)
        hits = fuzzy_find(text, quote, threshold=80)
        assert slid is not None and len(hits) == 1, rate
        assert abs(hits[0].start - slid.dest_start) <= 10 and abs(hits[0].score - slid.score) <= 0.5, (rate, hits, slid)


def test_a_long_quote_none_of_whose_pieces_is_in_the_text_is_not_found() -> None:
    rng = random.Random(15)
    text = _prose(rng, 20_000)
    quote = _prose(random.Random(99), 4_000).replace("a", "#")  # another text, and no piece of it as it stands
    assert fuzzy_find(text, quote, threshold=85) == []


def test_a_quote_past_the_approximate_limit_is_not_looked_for_approximately(monkeypatch) -> None:
    """One comparison of a 512,000-character quote took 2.6 s, and a search makes a few dozen of them."""
    import reviewtui.evalset.evidence.fuzzy as fuzzy

    rng = random.Random(16)
    passage = _prose(rng, 3_000)
    monkeypatch.setattr(fuzzy, "MAX_APPROXIMATE", 2_999)
    quote = passage[:2_999] + "#"  # one character past the (lowered) limit, one typo
    assert fuzzy_find(passage + " tail", quote, threshold=85) == []
    monkeypatch.setattr(fuzzy, "MAX_APPROXIMATE", 3_000)
    assert len(fuzzy_find(passage + " tail", quote, threshold=85)) == 1


def test_a_quote_past_the_approximate_limit_is_said_too_long_not_unmatched(monkeypatch) -> None:
    """It was said to have "no passage scoring 85 or more", though no passage was scored."""
    import reviewtui.evalset.evidence.fuzzy as fuzzy
    import reviewtui.evalset.evidence.locate as locate_module
    from reviewtui.evalset.evidence.corpus import Document
    from reviewtui.evalset.evidence.locate import SearchSettings, locate
    from reviewtui.evalset.evidence.resolution import MatchKind
    from reviewtui.evalset.model.items import GoldAnchor

    monkeypatch.setattr(fuzzy, "MAX_APPROXIMATE", 2_999)
    monkeypatch.setattr(locate_module, "MAX_APPROXIMATE", 2_999)
    passage = _prose(random.Random(17), 3_000)
    found = locate(Document("d.txt", passage + " tail"), GoldAnchor("d.txt", passage[:2_999] + "#"), SearchSettings())
    assert found.kind is MatchKind.NOT_FOUND
    assert found.note == "no exact or normalised match, and the quote is too long (over 2,999 characters) for an approximate one"

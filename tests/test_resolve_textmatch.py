"""Folding with an offset map: folded matches must map back onto the original passage."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reviewtui.evalset.evidence.textmatch import fold, normalise

ORIGINAL = (
    "He said \u201cHello\u201d  \u2014  the \ufb01nal   straw.\u00a0Caf\u00e9 Cafe\u0301 "
    "hy\u00adphen STRASSE \u00df\u200bend"
)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        ('he said "hello" - the final straw.', "He said \u201cHello\u201d  \u2014  the \ufb01nal   straw."),
        ("the FINAL straw", "the \ufb01nal   straw"),
        ("café", "Caf\u00e9"),
        ("Cafe\u0301 hyphen", "Cafe\u0301 hy\u00adphen"),
        ("strasse ssend", "STRASSE \u00df\u200bend"),
        ("fi", "\ufb01"),
    ],
)
def test_folded_match_maps_back_to_the_original_passage(quote: str, passage: str) -> None:
    folded = normalise(ORIGINAL)
    target = fold(quote)
    at = folded.text.find(target)
    assert at != -1
    start, end = folded.original_span(at, at + len(target))
    assert ORIGINAL[start:end] == passage


def test_half_of_a_ligature_maps_to_the_whole_ligature() -> None:
    folded = normalise("o\ufb03ce")  # "oﬃce"
    assert folded.text == "office"
    at = folded.text.find("of")
    assert folded.original_span(at, at + 2) == (0, 2)


def test_fold_strips_and_collapses() -> None:
    assert fold("  Two\t\tWords \n") == "two words"
    assert fold("\u00ad\u200b") == ""


def test_ascii_text_is_one_segment() -> None:
    folded = normalise("Plain ASCII text with single spaces only.")
    assert folded.text == "plain ascii text with single spaces only."
    assert len(folded._norm) == 1


def test_folded_position_is_the_inverse_of_original_start() -> None:
    folded = normalise(ORIGINAL)
    for original in range(len(ORIGINAL) + 1):
        index = folded.folded_position(original)
        assert folded.original_start(index) >= original
        if index > 0:
            assert folded.original_start(index - 1) < original


_ALPHABET = "ab AB\t\n\u00a0\u2019\u201c\u2014\u00ad\ufb01\u00e9e\u0301\u00df\x00\x1b"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=_ALPHABET, max_size=60))
def test_offset_map_is_monotonic_and_in_range(text: str) -> None:
    folded = normalise(text)
    previous_start = 0
    for index in range(len(folded.text)):
        start, end = folded.original_start(index), folded.original_end(index)
        assert 0 <= start < end <= len(text)
        assert start >= previous_start
        previous_start = start


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=_ALPHABET, min_size=1, max_size=60), st.data())
def test_every_folded_slice_refolds_to_itself(text: str, data: st.DataObject) -> None:
    """Folding the mapped-back original passage gives the folded slice again (modulo outer spaces)."""
    folded = normalise(text)
    if not folded.text.strip():
        return
    a = data.draw(st.integers(0, len(folded.text) - 1))
    b = data.draw(st.integers(a + 1, len(folded.text)))
    start, end = folded.original_span(a, b)
    piece = folded.text[a:b].strip(" ")
    assert piece in normalise(text[start:end]).text or not piece


def test_large_document_folds_quickly_and_compactly() -> None:
    rng = random.Random(7)
    words = ["alpha", "Beta", "gamma\u2019s", "delta", "\u201cquoted\u201d", "e\ufb01"]
    text = " ".join(rng.choice(words) for _ in range(200_000))
    folded = normalise(text)
    assert len(folded.text) < len(text) + 100_000
    at = folded.text.find("gamma's")
    start, end = folded.original_span(at, at + len("gamma's"))
    assert text[start:end] == "gamma\u2019s"


@pytest.mark.parametrize(
    ("quote", "passage", "named"),
    [
        ("Hello  world", "hello  world", "case"),  # the shared double space is not a difference
        ("He said \u201chi\u201d", 'he said  "hi"', "whitespace, quote marks, case"),
        ("the \u2018Term\u2019", 'the "Term"', "quote marks"),
        ("the \ufb01nal", "the final", "ligatures or accent encoding"),
        ("a - b", "a \u2014 b", "dashes"),
        ("Con\u00adtact", "Contact", "invisible characters"),
    ],
)
def test_describe_folding_names_only_real_differences(quote: str, passage: str, named: str) -> None:
    from reviewtui.evalset.evidence.locate import describe_folding

    assert describe_folding(quote, passage) == f"ignoring differences in {named}"

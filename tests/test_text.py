"""The tokenisers' ASCII fast paths must give exactly what their regex definitions give."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from reviewtui.evalset.text.words import (
    AUDIT_STOPWORDS,
    content_tokens,
    has_any_word,
    letter_runs,
    runs_and_content_tokens,
    script_tokens,
    word_count,
    word_set,
    words,
    words_and_content_tokens,
)
from tests.equivalence_helpers import TEXTS

# The definitions the fast paths replace, written the slow, obvious way.
_WORD = re.compile(r"\w+")


def reference_content_tokens(text: str) -> frozenset[str]:
    return frozenset(re.findall(r"[a-z0-9]{2,}", text.lower())) - AUDIT_STOPWORDS


def reference_word_count(text: str, stop_at: int | None = None) -> int:
    count = sum(1 for piece in text.split() if re.search(r"\w", piece))
    return count if not stop_at or stop_at < 1 else min(count, stop_at)


ascii_text = st.text(alphabet=st.characters(max_codepoint=127), max_size=80)
mixed_text = st.text(alphabet=st.sampled_from("aZ9_ -'’?.\t\n\x1c\x1f\x0bKéß İ漢"), max_size=40)


@settings(max_examples=400, deadline=None)
@given(st.one_of(ascii_text, mixed_text))
def test_fast_paths_match_their_definitions(text: str) -> None:
    assert content_tokens(text) == reference_content_tokens(text)
    assert letter_runs(text) == re.findall(r"[a-z]+", text.lower())
    assert runs_and_content_tokens(text) == (frozenset(letter_runs(text)), reference_content_tokens(text))
    assert words_and_content_tokens(text) == (word_set(text), reference_content_tokens(text))
    if text.isascii():  # outside ASCII, words keep combining marks, which plain \w splits at
        assert words(text) == _WORD.findall(text.casefold())
        assert word_set(text) == frozenset(_WORD.findall(text.casefold()))
    for stop_at in (None, 0, 1, 3):
        assert word_count(text, stop_at=stop_at) == reference_word_count(text, stop_at)


@settings(max_examples=600, deadline=None)
@given(st.one_of(ascii_text, mixed_text, TEXTS), st.one_of(ascii_text, mixed_text, TEXTS), st.one_of(ascii_text, mixed_text))
def test_has_any_word_is_a_look_at_the_list_of_words(text: str, other: str, glue: str) -> None:
    for wanted in (words(other), words(text)[:1], words(text)[-1:], [word[1:] for word in words(text) if len(word) > 1]):
        for where in (text, glue + other + glue, other + glue, glue + text):
            assert has_any_word(where, wanted) == (not set(wanted).isdisjoint(words(where))), (where, wanted)


def test_has_any_word_examples() -> None:
    assert has_any_word("The HR office approves.", ["office"]) and not has_any_word("The HR offices.", ["office"])
    assert has_any_word("Die Straße ist lang.", ["strasse"])  # case-folded, as words() folds it
    assert not has_any_word("Die Hauptstraße ist lang.", ["strasse"])
    assert has_any_word("ὈΔΥΣΣΕΎΣ returned", words("Ὀδυσσεύς")) and not has_any_word("returned", [])
    assert not has_any_word("हिंदी", ["हि"])  # the vowel sign is inside the word


def test_examples() -> None:
    assert content_tokens("What is the API_KEY for v2?") == {"api", "key", "v2"}
    assert words("Don't STOP-now") == ["don", "t", "stop", "now"]
    assert word_count("a -- b ? 1.5") == 3
    assert word_count("one two three four", stop_at=2) == 2
    assert letter_runs("Is it 4K?") == ["is", "it", "k"]
    assert content_tokens("\u212a\u212a") == frozenset({"kk"})  # Kelvin sign lower-cases to an ASCII k


def test_runs_and_content_tokens_with_and_without_digits() -> None:
    # Without digits the tokens come from the letter runs; with them, from the audit's own split.
    assert runs_and_content_tokens("What is the API_KEY?") == ({"what", "is", "the", "api", "key"}, {"api", "key"})
    assert runs_and_content_tokens("Is v2 out?") == ({"is", "v", "out"}, {"v2", "out"})
    assert runs_and_content_tokens("Où est \u212a2?") == ({"o", "est", "k"}, {"est", "k2"})
    assert runs_and_content_tokens("Où est la gare?") == ({"o", "est", "la", "gare"}, {"est", "la", "gare"})


def test_words_and_content_tokens_with_and_without_underscores() -> None:
    # Without an underscore the tokens come from the words; with one, from the audit's own split.
    assert words_and_content_tokens("What is v2?") == ({"what", "is", "v2"}, {"v2"})
    assert words_and_content_tokens("What is the API_KEY?") == ({"what", "is", "the", "api_key"}, {"api", "key"})
    assert words_and_content_tokens("Où est la gare?") == ({"où", "est", "la", "gare"}, {"est", "la", "gare"})


@settings(max_examples=300, deadline=None)
@given(st.one_of(ascii_text, mixed_text))
def test_script_tokens_are_the_audit_tokens_on_ascii_and_the_pair_helpers_agree(text: str) -> None:
    if text.isascii():
        assert script_tokens(text) == content_tokens(text)
    assert runs_and_content_tokens(text, every_script=True) == (frozenset(letter_runs(text)), script_tokens(text))
    assert words_and_content_tokens(text, every_script=True) == (word_set(text), script_tokens(text))


def test_script_tokens_read_every_script() -> None:
    assert script_tokens("Qu'est-ce que la photosynthèse ?") >= {"photosynthèse", "est"}  # not "photosynth"
    assert script_tokens("ما هي عاصمة مصر؟") == {"ما", "هي", "عاصمة", "مصر"}  # the ASCII audit sees nothing here
    assert content_tokens("ما هي عاصمة مصر؟") == frozenset()
    assert script_tokens("हिंदी भाषा क्या है?") == {"हिंदी", "भाषा", "क्या", "है"}  # vowel signs stay inside words
    assert script_tokens("日本の首都") == {"日本", "本の", "の首", "首都"}  # unspaced scripts: pairs of characters
    assert script_tokens("東") == {"東"}
    assert script_tokens("Wer gewann das Fußballspiel 2014?") == {"wer", "gewann", "das", "fussballspiel", "2014"}


def test_script_tokens_read_unspaced_scripts_and_one_form_of_each_letter() -> None:
    assert script_tokens("ภาษาไทย") == {"ภา", "าษ", "ษา", "าไ", "ไท", "ทย"}  # Thai has no spaces between words
    assert script_tokens("時々雨") == {"時々", "々雨"}  # the iteration mark is part of the word
    assert script_tokens("Cafe\u0301") == script_tokens("Café") == {"café"}  # decomposed and precomposed alike


@settings(max_examples=200, deadline=None)
@given(sets=st.lists(st.frozensets(st.text(max_size=4), max_size=8), max_size=12))
def test_token_rows_keep_each_set_as_one_spelling(sets: list[frozenset[str]]) -> None:
    from reviewtui.evalset.text.words import TokenRows

    rows = TokenRows()
    for tokens in sets:
        rows.add(tokens)
    assert len(rows) == len(sets)
    words = {number: word for word, number in rows.numbers.items()}
    assert len(words) == len(rows.numbers)  # one number per word
    for tokens, row in zip(sets, rows, strict=True):
        assert list(row) == sorted(set(row)) and len(row) == len(tokens) and bool(row) == bool(tokens)
        assert {words[number] for number in row} == tokens
        assert all(rows.number(word) in row for word in tokens)
    for a, b in zip(sets, rows, strict=True):  # equal sets, equal rows; different sets, different rows
        for c, d in zip(sets, rows, strict=True):
            assert (a == c) == (b == d)
    assert rows.number("never seen, too long for the sets above") == -1
    assert rows.row(["x", "x", "y"]) == rows.row(["y", "x"])  # repeats count once


def test_token_rows_number_words_in_the_order_they_are_first_met_whatever_the_input():
    import random

    from reviewtui.evalset.text.words import TokenRows

    def reference(numbers: dict[str, int], tokens) -> tuple[int, ...]:
        return tuple(sorted({numbers.setdefault(token, len(numbers)) for token in tokens}))

    rng = random.Random(3)
    vocabulary = [f"w{n}" for n in range(40)]
    rows, numbers = TokenRows(), {}
    for _ in range(3000):
        words = [rng.choice(vocabulary) for _ in range(rng.randrange(0, 8))]
        given = rng.choice((frozenset(words), set(words), words, tuple(words), iter(words)))
        kept = frozenset(words) if isinstance(given, frozenset) else set(words) if isinstance(given, set) else list(words)
        rows.add(given)
        assert rows[-1] == reference(numbers, kept)
    assert rows.numbers == numbers and rows.number("w3") == numbers["w3"] and rows.number("nope") == -1


@settings(max_examples=800, deadline=None)
@given(st.lists(TEXTS, min_size=1, max_size=6), st.booleans())
def test_word_and_content_rows_are_the_rows_of_the_words_and_the_content_tokens(texts: list[str], every_script: bool) -> None:
    # In a table that numbers the dropped words first, a question's content tokens are mostly a slice of its
    # words' row; whatever the text, the two rows hold the words and tokens words_and_content_tokens gives.
    from reviewtui.evalset.text.words import TokenRows, word_and_content_rows

    rows = TokenRows()
    dropped = rows.number_dropped_first()
    name = {number: word for word, number in rows.numbers.items()}
    for text in [*texts, "What is the API_KEY?", "Où est la gare ?", "q1 of the 2 a b"]:
        words_row, content_row = word_and_content_rows(text, rows, dropped, every_script=every_script)
        name.update({number: word for word, number in rows.numbers.items()})
        words, content = words_and_content_tokens(text, every_script=every_script)
        assert list(words_row) == sorted(words_row) and list(content_row) == sorted(content_row)
        assert {name[n] for n in words_row} == words and len(words_row) == len(words)
        assert {name[n] for n in content_row} == content and len(content_row) == len(content)


def test_only_an_empty_table_numbers_the_dropped_words_first() -> None:
    import pytest

    from reviewtui.evalset.text.words import TokenRows

    rows = TokenRows()
    rows.add(["policy"])
    with pytest.raises(ValueError, match="empty table"):
        rows.number_dropped_first()


def test_symbols_are_the_characters_words_leave_out_that_change_what_is_asked():
    from reviewtui.evalset.text.words import symbols, symbols_apart

    assert symbols("Is B+ enough?") == "+" and symbols("Is B- enough?") == "-" and symbols("Is B enough?") == ""
    assert symbols("C# or C++?") == "#++" and symbols("$5 or 5%?") == "$%" and symbols("1/5 of 10") == "/"
    # a dash joining two words or numbers is spelling; one on its own, or before a number, is not
    assert symbols("a well-known COVID-19 rule") == "" and symbols("is it −5 or -5 or – 5?") == "--"
    assert symbols("the 2019 - 2020 budget") == symbols("the 2019-2020 budget") == ""  # a dash between spaces too
    # Unicode's symbols, in the form NFKC gives them; markup is not a symbol
    assert symbols("B＋ or B－") == "+-" and symbols("C♯ or C♭") == "♯♭" and symbols("٪5") == "٪"
    assert symbols("What is the <b>deductible</b> amount?") == "" and symbols("Is x < 5?") == "<"
    assert symbols("¿Qué es «esto», exactamente?") == ""
    # a comparison is no tag, emphasis is no symbol, a product is one; a prime is
    assert symbols("Is a<b and c>d here?") == symbols("Is a < b and c > d here?") == "<>"
    assert symbols("What does List<T> mean?") == "<>" and symbols("What is **GDP** in economics?") == ""
    assert symbols("<i>Why</i> is it?") == "" and symbols("x*y or x**2") == "***" and symbols("f′(x)") == "′"
    assert symbols("What, exactly, is it? (the 'rule')") == ""  # punctuation is not a symbol
    assert symbols_apart("Is B+ enough?", "Is B- enough?") == "here '+', there '-'"
    assert symbols_apart("Is it $5?", "Is it 5?") == "here '$', there no symbol"
    assert symbols_apart("Is it well-known?", "Is it well known?") == ""

"""cut-answer: an answer that stops on a word that only begins a phrase."""

from __future__ import annotations

import pytest

import reviewtui as cg
from reviewtui.evalset.checks.check_cut_answer import CUT_ANSWER, cut_answer
from reviewtui.evalset.checks.registry import FLAG, checks


@pytest.mark.parametrize("answer", ["6,5 % dans", "the north bank of", "Up to five tools from the", "between 1990 and"])
def test_an_answer_ending_on_a_word_that_begins_a_phrase_is_flagged(answer):
    reason = cut_answer(cg.EvalItem(id="q", question="What is it?", answer=answer))
    assert reason is not None and "cut a word too late" in reason


@pytest.mark.parametrize(
    "answer",
    [
        "within (90) days from date of shipment.” (Subparagraph (A))",  # CUAD: ends on a name, in capitals
        "It is what we come back to.",  # a sentence
        "in",  # one word: nothing to cut
        "Seven days",
        "A",
        None,
    ],
)
def test_a_sentence_a_capital_or_a_single_word_is_not(answer):
    assert cut_answer(cg.EvalItem(id="q", question="What is it?", answer=answer)) is None


def test_it_is_registered_and_fires_on_piafs_answer_alone(realdata):
    import warnings

    from reviewtui.evalset.io import open_evalset

    assert CUT_ANSWER in {c.name for c in checks(FLAG)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        small = open_evalset(realdata / "qa-piaf-french" / "small.json")
        squad = open_evalset(realdata / "qa-squad2-haystack" / "small.json")
    assert [item.id for item in small.items if cut_answer(item)] == ["p140295460357392"]
    assert not [item.id for item in squad.items if cut_answer(item)]


# ---- the last word read from the reversed text is the one the regex searched for ----

from types import SimpleNamespace  # noqa: E402

from hypothesis import given, settings  # noqa: E402

from tests.equivalence_helpers import TEXTS, random_texts, real_texts  # noqa: E402


def _reference_cut_answer(answer) -> str | None:
    """The check written plainly, as it was before: the regex searched for in the answer's last 40 characters."""
    import re

    from reviewtui.evalset.checks.check_cut_answer import _OPENERS

    if not answer or answer.rstrip().endswith((".", "!", "?", "…")):
        return None
    last = re.search(r"(\w+)\W*$", answer[-40:])
    if last is None or last.group(1) not in _OPENERS or " " not in answer.strip():
        return None
    return f"the expected answer ends on {last.group(1)!r}, a word that begins a phrase: was the span cut a word too late?"


def _same_as_the_reference(answers) -> int:
    """Asserts the check answers as the reference on each answer; how many it flagged."""
    flagged = 0
    for answer in answers:
        reason = cut_answer(SimpleNamespace(answer=answer, anchors=()))  # no quote: the answer's own ending decides
        assert reason == _reference_cut_answer(answer), repr(answer)
        flagged += reason is not None
    return flagged


@settings(max_examples=1500, deadline=None)
@given(TEXTS, TEXTS)
def test_the_check_answers_as_its_plain_definition_on_any_answer(answer, more):
    _same_as_the_reference([answer, answer + more, more + " " + answer, (more * 8)[:45] + answer[-3:]])


def test_the_check_answers_as_its_plain_definition_on_many_made_up_answers():
    texts = random_texts(7, 60_000)
    assert _same_as_the_reference(texts + [text + "\n" for text in texts[:5000]]) > 1000


def test_every_real_text_and_every_cut_of_a_real_quote_gets_the_plain_definitions_answer(realdata):
    texts = real_texts(realdata)
    cuts = [quote[:at] for quote in texts for at in range(1, len(quote), 7)]  # words cut, spans ending anywhere
    assert len(texts) > 5000 and _same_as_the_reference(texts) >= 1 and _same_as_the_reference(cuts) > 1000


@pytest.mark.parametrize(
    ("answer", "quote", "flagged"),
    [
        # the quote's clause ends on the preposition: the span is whole
        ("the people he grew up with", "She thanked the people he grew up with.", False),
        ("a four-track machine and", "It used a four-track machine and, according to him, a mixer.", True),  # an aside
        ("a cause worth fighting for", "It was a cause worth fighting  for.", False),
        ("hidden fees to look out for", "Here are the hidden fees to look out for", False),
        # the quote goes on after it: cut a word too late (PIAF's "6,5 % dans")
        ("6,5 % dans", "une croissance moyenne de 6,5 % dans la région", True),
        ("the people he grew up with", "He met the people he grew up with them.", True),
        ("the north bank of", "nothing here holds the answer", True),  # no quote holds it: as written
        ("was also the editor of", 'Masterton was also the editor of "Scare Care", an anthology.', True),  # a title opens
        ("the man he worked for", 'She said it was "the man he worked for" all along.', False),  # a quotation closes
    ],
)
def test_an_answer_that_ends_where_its_quotes_clause_ends_is_whole(answer, quote, flagged):
    item = cg.EvalItem(id="q", question="Which?", answer=answer, anchors=(cg.GoldAnchor("d.md", quote),))
    assert (cut_answer(item) is not None) is flagged

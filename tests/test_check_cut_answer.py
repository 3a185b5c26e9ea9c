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

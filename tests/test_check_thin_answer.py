"""thin-answer: judges an answer by what the question asks, not by a fixed word count."""

from __future__ import annotations

import pytest

import reviewtui as cg
from reviewtui.evalset.checks.check_thin_answer import THIN_ANSWER, thin_answer
from reviewtui.evalset.checks.registry import FLAG, checks


def _item(question: str, answer: str | None) -> cg.EvalItem:
    return cg.EvalItem(id="q", question=question, answer=answer)


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("What should a member do if a borrowed tool breaks during a loan?", "Report."),
        ("What should enterprises do if they want to deploy it internally?", "gtm@langchain.dev"),
        ("Why are many of the band's songs considered controversial?", "men who have sex with men"),
        ("Explain how the loan period is set.", "Fourteen days"),
    ],
)
def test_a_reason_or_an_action_answered_in_a_word_or_two_is_flagged(question, answer):
    reason = thin_answer(_item(question, answer))
    assert reason is not None and "reason or a course of action" in reason


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("Who founded the tool library?", "Ada Lovelace"),  # a name answers who
        ("How many tools can a Standard member borrow?", "Five"),
        ("When does membership expire?", "12 March 2026"),
        ("How can function problems typically be restated?", "decision problems"),  # "how" is left alone
        ("Why do members pay a deposit?", "Because tools are sometimes returned broken or not at all."),
        ("Why is the sky blue?", None),
    ],
)
def test_complete_short_answers_and_full_explanations_are_not_flagged(question, answer):
    assert thin_answer(_item(question, answer)) is None


def test_it_is_one_registered_module():
    assert THIN_ANSWER in {c.name for c in checks(FLAG)}


def test_long_unbroken_answers_are_read_in_one_pass():
    """An answer of a million characters with no space, or full of '@', is read once, not once per character."""
    assert thin_answer(_item("Why is it so?", "x" * 1_000_000)) is not None  # one word
    assert thin_answer(_item("What should I do now?", "a@" * 200_000)) is not None  # one address


@pytest.mark.parametrize(
    ("question", "answer", "quote", "flagged"),
    [
        # an extractive answer to "why" is the span its quote gives as the cause
        ("Why is the sky blue?", "Rayleigh scattering", "The sky looks blue because of Rayleigh scattering.", False),
        ("Why was the match postponed?", "rain", "The match was postponed due to  rain.", False),
        ("Why did the project fail?", "Lack of funding.", "It failed owing to lack of funding, the board said.", False),
        ("Explain the delay.", "la pluie", "Le match a été reporté à cause de la pluie.", False),
        # the same span where the quote gives it as no cause, or no quote holds it
        ("Why is the sky blue?", "Rayleigh scattering", "Rayleigh scattering is a physical effect.", True),
        ("Why was the match postponed?", "rain", "Heavy snow fell on the ground.", True),
    ],
)
def test_a_short_answer_its_quote_gives_as_a_cause_is_complete(question, answer, quote, flagged):
    item = cg.EvalItem(id="q", question=question, answer=answer, anchors=(cg.GoldAnchor("d.md", quote),))
    assert (thin_answer(item) is not None) is flagged

"""yes-no-answer: an open question answered as a yes/no question would be."""

from __future__ import annotations

import pytest

import reviewtui as cg
from reviewtui.evalset.checks.check_yes_no_answer import YES_NO_ANSWER, yes_no_answer
from reviewtui.evalset.checks.registry import FLAG, checks
from reviewtui.evalset.checks.scan import scan_flags
from reviewtui.evalset.model.flag import Severity


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("Que faire si mon compte Facebook a été piraté ?", "Non. Le piratage est un délit."),  # PIAF's FAQ
        ("Comment supprimer le compte d'une personne décédée ?", "Oui.\nLa loi permet aux héritiers d'agir."),
        ("How do I return a borrowed drill?", "Yes, at the front desk."),
        ("¿Cómo cancelo mi cuenta?", "No. Debe escribir al servicio."),
        ("Wie kündige ich?", "Nein, das geht nur schriftlich."),
        ("What should I do if my card is stolen?", "No. Call the bank first."),  # a bare "if" is a condition
    ],
)
def test_an_open_question_answered_yes_or_no_and_more_is_flagged(question, answer):
    reason = yes_no_answer(cg.EvalItem(id="q", question=question, answer=answer))
    assert reason is not None and "does not ask yes or no" in reason


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("What answer denotes that an algorithm has accepted an input string?", "yes"),  # SQuAD 2.0: the word asked for
        ("What will the output be for a member of the language?", "Yes."),
        ("What fee is charged for a late return?", "No fee is charged."),  # "No" starts a noun phrase
        ("Can a member borrow two saws at once?", "No. One at a time."),  # a yes/no question
        ("Est-il possible de supprimer mon compte ?", "Oui, depuis les réglages."),
        ("What is the loan period?", "Nobody knows exactly; two weeks."),
        ("What is the loan period?", None),
        ("Was Obama born in Hawaii?", "Yes, in Honolulu."),  # English "was" asks yes or no
        ("Was the treaty signed in 1990?", "Yes. It was signed in Paris."),
        ("What is Chanel's best-known perfume?", "No. 5, launched in 1921"),  # a number, not a reply
        ("Which symphony did Beethoven write last?", "No. 9 in D minor"),
        # an open question holding a yes/no one
        ("What is the answer to whether Viber stores messages?", "No, they are deleted once delivered."),
        ("What did the committee say when asked if it would resign?", "No. It refused to step down."),
        ("Que répond la banque quand on lui demande si le compte est gelé ?", "Oui, pour trente jours."),
    ],
)
def test_a_yes_no_question_a_bare_yes_or_a_no_that_starts_a_phrase_is_not(question, answer):
    assert yes_no_answer(cg.EvalItem(id="q", question=question, answer=answer)) is None


def test_it_is_a_registered_low_warning_that_the_scan_runs():
    assert YES_NO_ANSWER in {c.name for c in checks(FLAG)}
    item = cg.EvalItem(id="q1", question="How do I return a borrowed drill?", answer="Yes, at the front desk.")
    (flag,) = [f for f in scan_flags(cg.EvalSet(id="s", items=(item,))).flags["q1"] if f.check == YES_NO_ANSWER]
    assert flag.severity is Severity.LOW


def test_real_piaf_faq_items_reworded_from_yes_no_questions_are_the_ones_flagged(realdata):
    import warnings

    from reviewtui.evalset.io import open_evalset

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        evalset = open_evalset(realdata / "qa-piaf-french" / "faq.json")
        squad = open_evalset(realdata / "qa-squad2-haystack" / "small.json")
    assert {item.id for item in evalset.items if yes_no_answer(item)} == {"a2-p0-q0", "a8-p0-q0"}
    assert not [item.id for item in squad.items if yes_no_answer(item)]

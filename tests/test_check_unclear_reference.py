"""unclear-reference: speaks only when the question leans on something a reader cannot see."""

from __future__ import annotations

import pytest

import reviewtui as cg
from reviewtui.evalset.checks.check_unclear_reference import UNCLEAR_REFERENCE, unclear_reference
from reviewtui.evalset.checks.registry import FLAG, checks
from reviewtui.evalset.checks.scan import scan_flags


@pytest.mark.parametrize(
    "question",
    [
        # the dangling-reference filter's misfires on real sets
        "What answer denotes that an algorithm has accepted an input string?",
        "It is generally assumed that what is the most efficient way to sort?",
        "Who identified themselves as the first settlers of the valley?",
        "Are alcoholic drinks reimbursed when they are bought with a client?",
        "What does it cost to replace a lost badge?",
        "MafA phosphorylation decreases its ubiquitination.",
        "Which record label signed this singer, who was born in Ohio in 1961?",
        "How is the quality of a startup's product defined in the context of the tech industry?",
        "Consider the Marketing Affiliate Agreement between Birch Inc. and Mount Holdings Inc.; What is the expiration date of this contract?",
        "How many tools can a Standard member have on loan at once?",
    ],
)
def test_questions_that_say_what_they_mean_are_not_flagged(question):
    assert unclear_reference(cg.EvalItem(id="q", question=question)) is None


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("What is the main focus of this paper?", "this 'paper'"),
        ("List the important dates in this case.", "this 'case'"),
        ("According to the context provided, what does the agent need?", "'According to the context'"),
        ("What are the two inputs mentioned in the provided context?", "'in the provided context'"),
        ("What does that mean?", "'that'"),
        ("What about this?", "'this' at the end"),
        ("When was it built?", "'it' has nothing earlier"),
        ("According to the artİcle, who won?", "'According to the artİcle'"),  # case-blind as the pattern is
        ("PER THE DOCUMENT ABOVE, WHAT CHANGED?", "'THE DOCUMENT ABOVE'"),
    ],
)
def test_questions_that_lean_on_unseen_context_are_flagged_and_the_reason_names_the_words(question, said):
    reason = unclear_reference(cg.EvalItem(id="q", question=question))
    assert reason is not None and said in reason


def test_it_is_one_registered_module_that_the_scan_runs():
    assert UNCLEAR_REFERENCE in {c.name for c in checks(FLAG)}
    scan = scan_flags(cg.EvalSet(id="s", items=(cg.EvalItem(id="q1", question="What is the main focus of this paper?"),)))
    assert [f.check for f in scan.flags["q1"] if f.check == UNCLEAR_REFERENCE] == [UNCLEAR_REFERENCE]

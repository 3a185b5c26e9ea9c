"""Questions one set shares with another: a test split's questions that its train split asks too.

Auditing one split at a time never sees that SciFact's test claim 870 is its train claim 871, word for
word: a retriever tuned on the train split has then seen the test question, and its score measures
memory. Two questions are shared when they have the same words in the same order (case and
punctuation aside, as ``reviewtui filter`` compares repeats) and do not cite evidence from disjoint
documents (the same question asked of another document, as PrivacyQA asks every policy, is another
question). Memory follows the other set's questions: one table of their wordings.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from reviewtui.evalset.checks.findings import asked_of_other_documents
from reviewtui.evalset.jobs.cancel import ShouldStop, check_stop
from reviewtui.evalset.model.items import EvalItem, EvalSet
from reviewtui.evalset.text.words import normalise_question, words

__all__ = ["Shared", "shared_questions"]


@dataclass(frozen=True, slots=True)
class Shared:
    """An item of the set and the item of the other set that asks the same question."""

    item_id: str
    other_id: str
    #: whether both expect the same answer (case and surrounding space aside); None when either has none
    same_answer: bool | None


def shared_questions(evalset: EvalSet, other: EvalSet, should_stop: ShouldStop | None = None) -> Iterator[Shared]:
    """Each item of ``evalset`` whose question ``other`` asks too, with the first such item of ``other``, in set order."""
    asked: dict[str, list[EvalItem]] = {}
    for done, item in enumerate(other.items):
        if done % 4096 == 0:
            check_stop(should_stop)
        wording = " ".join(words(item.question))
        if wording:
            asked.setdefault(wording, []).append(item)
    for done, item in enumerate(evalset.items):
        if done % 4096 == 0:
            check_stop(should_stop)
        wording = " ".join(words(item.question))
        theirs = asked.get(wording) if wording else None
        if not theirs:
            continue
        match = next((o for o in theirs if not asked_of_other_documents(item, o)), None)
        if match is None:
            continue
        same: bool | None = None
        if item.answer is not None and match.answer is not None:
            same = normalise_question(item.answer) == normalise_question(match.answer)
        yield Shared(item.id, match.id, same)

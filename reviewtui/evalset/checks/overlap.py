"""Questions one set shares with another: a test split's questions that its train split asks too.

Auditing one split at a time never sees that SciFact's test claim 870 is its train claim 871, word for
word: a retriever tuned on the train split has then seen the test question, and its score measures
memory. Two questions are shared when they have the same words in the same order (case, punctuation,
Unicode forms and invisible characters aside: "café" composed or not, a soft hyphen, full-width
letters) and do not cite evidence from disjoint documents (the same question asked of another document,
as PrivacyQA asks every policy, is another question).

The other set is indexed once by wording, and by wording with each document it cites, so a question
asked of thousands of documents costs a look per document of its own, never one per item of the other
set. Of the other set's items that ask a question, the one reported is the same item (same id) if it
asks it, else one expecting the same answer, else the first that cites a shared document or none.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field

from reviewtui.evalset.checks.findings import asked_of_other_documents
from reviewtui.evalset.checks.repeats import documents_of
from reviewtui.evalset.jobs.cancel import ShouldStop, check_stop
from reviewtui.evalset.model.items import EvalItem, EvalSet
from reviewtui.evalset.text.words import normalise_question, words

__all__ = ["Overlap", "Shared", "shared_questions", "wording"]


@dataclass(frozen=True, slots=True)
class Shared:
    """An item of the set and the item of the other set that asks the same question."""

    item_id: str
    other_id: str
    #: whether both expect the same answer (case and surrounding space aside); None when either has none
    same_answer: bool | None


@dataclass
class Overlap:
    """What :func:`shared_questions` found besides the pairs: the same words asked of other documents only."""

    other_documents: int = 0
    pairs: list[Shared] = field(default_factory=list)


def wording(question: str) -> str:
    """The form two questions must share: their words in order, compared as a reader sees them."""
    if not question.isascii():
        composed = unicodedata.normalize("NFKC", question)
        question = "".join(char for char in composed if unicodedata.category(char) != "Cf")  # soft hyphens, zero widths
    return " ".join(words(question))


def shared_questions(evalset: EvalSet, other: EvalSet, should_stop: ShouldStop | None = None) -> Overlap:
    """Each item of ``evalset`` whose question ``other`` asks too, in set order (see the module notes)."""
    first: dict[str, EvalItem] = {}  # wording -> the first item of other asking it
    citing_none: dict[str, EvalItem] = {}  # wording -> the first such item citing no document
    citing: dict[tuple[str, str], EvalItem] = {}  # (wording, document) -> the first such item citing it
    answered: dict[tuple[str, str], EvalItem] = {}  # (wording, answer) -> the first such item expecting it
    by_id = other.positions  # the set's own id table: where each item stands
    for done, item in enumerate(other.items):
        if done % 4096 == 0:
            check_stop(should_stop)
        asked = wording(item.question)
        if not asked:
            continue
        first.setdefault(asked, item)
        documents = documents_of(item)
        if not documents:
            citing_none.setdefault(asked, item)
        for document in documents:
            citing.setdefault((asked, document), item)
        if item.answer is not None:
            answered.setdefault((asked, normalise_question(item.answer)), item)
    found = Overlap()
    for done, item in enumerate(evalset.items):
        if done % 4096 == 0:
            check_stop(should_stop)
        asked = wording(item.question)
        if not asked or asked not in first:
            continue
        match: EvalItem | None = None
        same_id = by_id.get(item.id)
        if same_id is not None:
            candidate = other.items[same_id]
            if wording(candidate.question) == asked and not asked_of_other_documents(item, candidate):
                match = candidate
        if match is None and item.answer is not None:
            expecting = answered.get((asked, normalise_question(item.answer)))
            if expecting is not None and not asked_of_other_documents(item, expecting):
                match = expecting
        if match is None:
            documents = documents_of(item)
            if not documents:
                match = first[asked]
            else:
                options = [citing_none.get(asked), *(citing.get((asked, document)) for document in documents)]
                present = [option for option in options if option is not None]
                match = min(present, key=lambda option: by_id[option.id]) if present else None
        if match is None:
            found.other_documents += 1
            continue
        same: bool | None = None
        if item.answer is not None and match.answer is not None:
            same = normalise_question(item.answer) == normalise_question(match.answer)
        found.pairs.append(Shared(item.id, match.id, same))
    return found

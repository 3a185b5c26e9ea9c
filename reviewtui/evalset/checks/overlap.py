"""Questions one set shares with another: a test split's questions that its train split asks too.

Auditing one split at a time never sees that SciFact's test claim 870 is its train claim 871, word for
word: a retriever tuned on the train split has then seen the test question, and its score measures
memory. Two questions are shared when they have the same words in the same order (case, punctuation,
also inside a word between letters, Unicode forms and invisible characters aside: "café" composed or not,
a soft hyphen, full-width letters, "Don't" and "Dont") and do not cite evidence from disjoint documents
(the same question asked of another document, as PrivacyQA asks every policy, is another question; a
BEIR question's relevant documents are the ones it cites).

The other set is indexed once by wording, and by wording with each document it cites, so a question
asked of thousands of documents costs a look per document of its own, never one per item of the other
set. Of the other set's items that ask a question, the one reported is the same item (same id) if it
asks it, else the first expecting the same answer (in one Unicode form) that cites a shared document or
none, else the first that cites a shared document or none.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from reviewtui.evalset.checks.repeats import documents_of
from reviewtui.evalset.evidence.resolve import gold_document_ids
from reviewtui.evalset.jobs.cancel import ShouldStop, check_stop
from reviewtui.evalset.model.items import EvalItem, EvalSet
from reviewtui.evalset.text.safe import draws_nothing, is_invisible_mark
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


#: Punctuation inside a word, between two letters: "Don't" and "Dont", "U.S." and "US", "e-mail" and "email" ask
#: the same. Between digits it is kept: "3.5 days" is not "35 days".
_INSIDE_A_WORD = re.compile(r"(?<=[^\W\d_])['\u2019.\-\u2010\u2011](?=[^\W\d_])")


def _as_read(char: str) -> str:
    """A character as a reader sees it in a question: a separator as a space, and nothing for one that draws as
    nothing (zero widths, soft hyphens, variation selectors, the grapheme joiner, Hangul fillers)."""
    if unicodedata.category(char)[0] == "Z":
        return " "
    return "" if draws_nothing(char) or is_invisible_mark(char) else char


def wording(question: str) -> str:
    """The form two questions must share: their words in order, compared as a reader sees them."""
    if not question.isascii():
        composed = unicodedata.normalize("NFKC", question)
        question = "".join(map(_as_read, composed))
    return " ".join(words(_INSIDE_A_WORD.sub("", question)))


def answer_form(answer: str) -> str:
    """An expected answer as two are compared: Unicode forms, case and surrounding space aside ("Zürich" composed
    or not, "８ cm" and "8 cm")."""
    return normalise_question(unicodedata.normalize("NFKC", answer) if not answer.isascii() else answer)


def _documents(item: EvalItem) -> frozenset[str]:
    """The documents an item's evidence comes from, a BEIR question's relevant documents among them."""
    return documents_of(item) | frozenset(gold_document_ids(item))


def _other_documents(a: EvalItem, b: EvalItem) -> bool:
    """Whether both cite documents and none in common: one question asked of two sources."""
    mine, theirs = _documents(a), _documents(b)
    return bool(mine) and bool(theirs) and mine.isdisjoint(theirs)


def shared_questions(evalset: EvalSet, other: EvalSet, should_stop: ShouldStop | None = None) -> Overlap:
    """Each item of ``evalset`` whose question ``other`` asks too, in set order (see the module notes)."""
    first: dict[str, EvalItem] = {}  # wording -> the first item of other asking it
    citing_none: dict[str, EvalItem] = {}  # wording -> the first such item citing no document
    citing: dict[tuple[str, str], EvalItem] = {}  # (wording, document) -> the first such item citing it
    # the same, of the items expecting one answer: (wording, answer) and (wording, answer, document)
    answered_none: dict[tuple[str, str], EvalItem] = {}
    answered: dict[tuple[str, str, str], EvalItem] = {}
    answered_any: dict[tuple[str, str], EvalItem] = {}  # (wording, answer) -> the first expecting it, whatever it cites
    by_id = other.positions  # the set's own id table: where each item stands
    for done, item in enumerate(other.items):
        if done % 4096 == 0:
            check_stop(should_stop)
        asked = wording(item.question)
        if not asked:
            continue
        first.setdefault(asked, item)
        documents = _documents(item)
        expects = answer_form(item.answer) if item.answer is not None else None
        if expects is not None:
            answered_any.setdefault((asked, expects), item)
        if not documents:
            citing_none.setdefault(asked, item)
            if expects is not None:
                answered_none.setdefault((asked, expects), item)
        for document in documents:
            citing.setdefault((asked, document), item)
            if expects is not None:
                answered.setdefault((asked, expects, document), item)

    def earliest(options: list[EvalItem | None]) -> EvalItem | None:
        present = [option for option in options if option is not None]
        return min(present, key=lambda option: by_id[option.id]) if present else None

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
            if wording(candidate.question) == asked and not _other_documents(item, candidate):
                match = candidate
        documents = _documents(item)
        if match is None and item.answer is not None:
            # One expecting the same answer, of the items that cite no document or one of this item's: the first
            # expecting it could cite others only, and one further on cite this item's (it was never looked at).
            expects = answer_form(item.answer)
            if not documents:
                match = answered_any.get((asked, expects))  # citing nothing, it shares a document with anyone
            else:
                match = earliest([answered_none.get((asked, expects)), *(answered.get((asked, expects, d)) for d in documents)])
        if match is None:
            if not documents:
                match = first[asked]
            else:
                match = earliest([citing_none.get(asked), *(citing.get((asked, document)) for document in documents)])
        if match is None:
            found.other_documents += 1
            continue
        same: bool | None = None
        if item.answer is not None and match.answer is not None:
            same = answer_form(item.answer) == answer_form(match.answer)
        found.pairs.append(Shared(item.id, match.id, same))
    return found

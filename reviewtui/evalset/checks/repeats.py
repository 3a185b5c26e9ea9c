"""Which copies of one repeated question really repeat each other, counted without comparing pairs.

The same question asked of different documents (PrivacyQA asks every privacy policy what it
collects) is not a repeat, and different answers there are expected, not a conflict. Used by
the per-item flags and by the review profile's audit, so that both say the same.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator, Sequence
from itertools import combinations

from reviewtui.evalset.model.items import EvalItem

__all__ = ["PARTNERS_SHOWN", "Repeats", "documents_of", "relevant_documents"]

#: Related items a flag names; the rest are counted.
PARTNERS_SHOWN = 20


def documents_of(item: EvalItem) -> frozenset[str]:
    """The documents an item's evidence comes from: its quotes' sources and its spans' documents."""
    return frozenset(anchor.source_id for anchor in item.anchors) | frozenset(gold.span.doc_id for gold in item.gold)


def relevant_documents(item: EvalItem) -> str | None:
    """The documents a retrieval query with no answer is judged relevant to (BEIR's ``meta["gold_documents"]``,
    grade above 0 or not a number), as one key; None for an item with an answer or no such list."""
    if item.answer is not None:
        return None
    documents = item.meta.get("gold_documents")
    if not isinstance(documents, (list, tuple)) or not documents:
        return None
    relevant = set()
    for entry in documents:
        document, grade = (entry[0], entry[1]) if isinstance(entry, (list, tuple)) and len(entry) >= 2 else (entry, None)
        if isinstance(grade, (int, float)) and not isinstance(grade, bool) and grade <= 0:
            continue  # judged not relevant
        relevant.add(str(document))
    # \x00 cannot start an answer as compared (it is trimmed of white space, and an item's text holds no NUL)
    return "\x00documents\x00" + "\x00".join(sorted(relevant))


class Repeats:
    """The items of one repeated question, and for each the others it really repeats, without comparing pairs.

    The same question asked of other documents is not a repeat (see ``findings.asked_of_other_documents``):
    an item repeats the items that cite nothing, and those that cite one of its documents. How
    many those are, and how many of them expect its answer, is counted by inclusion-exclusion
    over the sets of documents items cite: per item, a sum over the subsets of its own
    documents (items cite few). Its first PARTNERS_SHOWN partners are read in the finding's
    order from the lists of items per document, stopping there. So a question asked 20,000
    times costs about a pass over its copies, whatever documents they cite.
    """

    #: An item citing more documents than this has its partners gathered from the lists per
    #: document instead (2 ** this many subsets would be too many to sum over).
    MANY_DOCUMENTS = 10

    def __init__(self, items: Sequence[EvalItem | None], item_ids: Sequence[str]) -> None:
        """``items``: the items of ``item_ids``, in their order (None for one the set does not hold)."""
        self.ids = item_ids
        self.documents: list[frozenset[str]] = []
        self.answer_of: list[str | None] = []  # the answer as compared: case and spacing aside
        self.citing: dict[str, list[int]] = {}  # document -> positions of the items citing it, in order
        self.uncited: list[int] = []  # positions of the items citing nothing, in order
        self.answers: dict[str | None, int] = {}  # answer -> items, all of them
        self.uncited_answers: dict[str | None, int] = {}  # answer -> items citing nothing
        self.covering: dict[frozenset[str], int] = {}  # documents T -> items citing all of T (T of few documents)
        self.covering_answer: dict[tuple[frozenset[str], str | None], int] = {}
        for k, item in enumerate(items):
            documents = documents_of(item) if item is not None else frozenset()
            answer = None if item is None or item.answer is None else item.answer.strip().lower()
            self.documents.append(documents)
            self.answer_of.append(answer)
            self.answers[answer] = self.answers.get(answer, 0) + 1
            if not documents:
                self.uncited.append(k)
                self.uncited_answers[answer] = self.uncited_answers.get(answer, 0) + 1
                continue
            for document in documents:
                self.citing.setdefault(document, []).append(k)
            if len(documents) <= self.MANY_DOCUMENTS:
                for subset in _subsets(documents):
                    self.covering[subset] = self.covering.get(subset, 0) + 1
                    key = (subset, answer)
                    self.covering_answer[key] = self.covering_answer.get(key, 0) + 1
        self.many = any(len(documents) > self.MANY_DOCUMENTS for documents in self.documents)

    def _sharing(self, documents: frozenset[str], answer: str | None) -> tuple[int, int]:
        """(items citing one of ``documents``, those of them expecting ``answer``), itself included."""
        if self.many:  # some item's subsets were not counted: gather the union instead
            union = set()
            for document in documents:
                union.update(self.citing[document])
            return len(union), sum(1 for o in union if self.answer_of[o] == answer)
        total = same = 0
        for subset in _subsets(documents):
            sign = 1 if len(subset) % 2 else -1
            total += sign * self.covering.get(subset, 0)
            same += sign * self.covering_answer.get((subset, answer), 0)
        return total, same

    def repeats_any(self, k: int) -> bool:
        """Whether item ``k`` repeats some other item: :meth:`partners`' count, without naming any."""
        documents = self.documents[k]
        if not documents:
            return len(self.ids) > 1
        return self._sharing(documents, self.answer_of[k])[0] + len(self.uncited) > 1

    def partners(self, k: int) -> tuple[tuple[str, ...], int, bool]:
        """(the first PARTNERS_SHOWN others item ``k`` repeats, how many it repeats, whether any expects another answer)."""
        documents = self.documents[k]
        mine = self.answer_of[k]
        if not documents:  # it repeats every other item
            total, same = len(self.ids), self.answers.get(mine, 0)
            streams: list[Sequence[int]] = [range(len(self.ids))]
        else:
            total, same = self._sharing(documents, mine)
            total += len(self.uncited)
            same += self.uncited_answers.get(mine, 0)
            streams = [self.citing[document] for document in sorted(documents)]
            if self.uncited:
                streams.append(self.uncited)
        total -= 1  # itself
        same -= 1
        if not total:
            return (), 0, False
        head: list[int] = []
        last = -1
        for o in heapq.merge(*streams) if len(streams) > 1 else streams[0]:
            if o == k or o == last:  # an item citing two of these documents comes once from each list
                continue
            last = o
            head.append(o)
            if len(head) == PARTNERS_SHOWN:
                break
        ids = self.ids
        return tuple(ids[o] for o in head), total, total > same


def _subsets(documents: frozenset[str]) -> Iterator[frozenset[str]]:
    """The non-empty subsets of a few documents."""
    ordered = sorted(documents)
    for size in range(1, len(ordered) + 1):
        for chosen in combinations(ordered, size):
            yield frozenset(chosen)

"""The filter chain as the review profile weighs it: what ``reviewtui filter`` removes by default.

The documented chain (:func:`~reviewtui.evalset.checks.filters.default_filters`) keeps its
documented behaviour, and ``filter --profile goldensetauditor`` runs it. By default the command
removes only what the review profile warns about at medium or above, so that the next version of
a set loses nothing the app would show as a hint:

* a filter whose warnings weigh less than medium in the review profile is left out (the crude
  pronoun rule, the baseline-score rule);
* repeats: an item goes only when an earlier kept item asks the same words in the same order
  (case and punctuation aside) *and* expects the same answer. Word overlap alone was right on
  none of the labelled near-duplicates, and a set of words hides what word order and repetition
  say ("What is not example of ..." against "What is an example of ...", SQuAD 2.0's
  unanswerable twin of a question). The same question with another expected answer is a
  conflict for a reviewer to settle, never settled by keeping whichever comes first. A retrieval
  query with no answer (BEIR) expects its relevant documents: the same query judged against other
  documents stays too, since dropping it would drop those judgements;
* too short: a claim written as a short sentence ("DUSP4 decreases apoptosis.") stays, so does a
  question long enough once its words are counted as its language writes them (French elisions,
  the Arabic article), and on a set where more than a tenth of the questions are short (keyword
  queries) the filter is not used at all: there the app and ``audit`` show it as a hint, a
  property of the set.
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from operator import is_

from reviewtui.evalset.checks.base import CHUNK, Filter, FilterPass, Rejection, shorten
from reviewtui.evalset.checks.duplicates import DuplicateFilter
from reviewtui.evalset.checks.filters import (
    MIN_QUESTION_WORDS,
    UNRESOLVED_EVIDENCE,
    FilterChain,
    ShortQuestionFilter,
    UnresolvedEvidenceFilter,
    default_filters,
)
from reviewtui.evalset.checks.policy import EXACT_DUPLICATE, reads_as_statement, too_short_is_common
from reviewtui.evalset.checks.registry import FILTER, checks
from reviewtui.evalset.checks.repeats import documents_of
from reviewtui.evalset.checks.repeats import relevant_documents as _relevant_documents
from reviewtui.evalset.checks.warninglog import WarningLog
from reviewtui.evalset.jobs.cancel import ShouldStop, check_stop
from reviewtui.evalset.model.flag import Severity
from reviewtui.evalset.model.items import EvalItem, EvalSet
from reviewtui.evalset.model.review import REVIEW_KEY
from reviewtui.evalset.text.counts import count, plural
from reviewtui.evalset.text.words import in_quotes, normalise_question, symbols, words, written_words

__all__ = [
    "ReviewChain", "SameQuestionFilter", "StatementAwareShortFilter", "filters_before_copies", "judge_copies", "review_cautions",
    "review_chain",
]

#: Conflicts named one by one in the filter's note; the rest are counted.
CONFLICTS_NAMED = 5


class SameQuestionFilter(Filter):
    """An item whose question repeats an earlier kept item's, word for word and in order (case and
    punctuation aside, not the symbols that change what it asks: "B+" and "B-", "$5" and "5%"), with
    the same expected answer (case and surrounding space aside; no answer and an empty one alike),
    and whose evidence is not all from other documents than that item's.

    A removal is named ``exact-duplicate`` when the two texts are equal but for case and spacing,
    as the app and ``audit`` name such a pair, and by the filter's own name otherwise; such a
    near repeat (other punctuation) goes only when the two also share an expected answer or their
    quotes, as the review profile warns about it, and stays, shown as a hint, when they share neither.
    Order-dependent as the documented duplicate filter is: the first of the copies stays. A
    repeat with another expected answer stays too, and the pass's note names it: which answer
    is right is for a reviewer to decide. A question with no word at all is never a repeat.
    """

    itemwise = False

    def __init__(self, name: str = "near-duplicate", repeats: Container[str] | None = None) -> None:
        """``repeats``: the ids of every item whose words another item of the set asks in the same order, where
        they are known (the scan's word join finds them): any other item is kept without its words being read."""
        self.name = name
        self.repeats = repeats

    def apply(self, items: Sequence[EvalItem], *, should_stop: ShouldStop | None = None) -> FilterPass:
        kept, rejected, conflicts, judged_apart = self.judge(items, should_stop=should_stop)
        notes = [note for note in (_conflict_note(conflicts), _judged_apart_note(judged_apart)) if note]
        return FilterPass(kept, rejected, " ".join(notes) or None)

    def judge(
        self, items: Sequence[EvalItem], *, should_stop: ShouldStop | None = None, said: bool = True
    ) -> tuple[tuple[EvalItem, ...], tuple[Rejection, ...], list[tuple[str, str]], list[tuple[str, str]]]:
        """(the items kept, those removed, the (item, earlier item) pairs kept with another expected answer,
        and those kept as judged against other relevant documents): what :meth:`apply` says, in parts, for
        the flags to say what the filter does with each copy (see :func:`judge_copies`).
        ``said=False``: the removals without their reasons (each a string of its own, read by no flag)."""
        seq = tuple(items)
        # each wording (its words joined: one string, not a tuple of them, at 100k questions) -> its first
        # kept item, or once the wording repeats, its kept items indexed (_KeptOfWording)
        kept_by_wording: dict[str, EvalItem | _KeptOfWording] = {}
        split_by_symbols: set[str] = set()  # the wordings asked more than once, kept apart by their symbols
        kept: list[EvalItem] = []
        rejected: list[Rejection] = []
        conflicts: list[tuple[str, str]] = []  # (item kept with another answer, the first item of its wording)
        judged_apart: list[tuple[str, str]] = []  # the same, for queries whose relevant documents differ
        repeats = self.repeats
        for start in range(0, len(seq), CHUNK):
            check_stop(should_stop)
            for item in seq[start : start + CHUNK]:
                if repeats is not None and item.id not in repeats:
                    kept.append(item)  # no other item asks its words in this order: no earlier one, no later one
                    continue
                wording = " ".join(words(item.question))
                if wording in split_by_symbols or (wording and wording in kept_by_wording):
                    # "B+" and "B-" are words alike, asked apart: a wording asked twice is told apart by its
                    # symbols (found only then, not for every question), its first item moved under its own.
                    if wording not in split_by_symbols:
                        split_by_symbols.add(wording)
                        first = kept_by_wording[wording]
                        assert isinstance(first, EvalItem)  # alone under its wording until now
                        marked = symbols(first.question)
                        if marked:
                            kept_by_wording[f"{wording}\x00{marked}"] = kept_by_wording.pop(wording)
                    marks = symbols(item.question)
                    if marks:
                        wording = f"{wording}\x00{marks}"
                earlier = kept_by_wording.get(wording) if wording else None
                if earlier is None:
                    if wording:
                        kept_by_wording[wording] = item
                    kept.append(item)
                    continue
                if isinstance(earlier, EvalItem):
                    earlier = kept_by_wording[wording] = _KeptOfWording(earlier)
                found = earlier.repeated_by(item)
                if isinstance(found, str):  # kept: another document's question, or another answer
                    if found:
                        (judged_apart if _relevant_documents(item) is not None else conflicts).append((item.id, found))
                    earlier.add(item)
                    kept.append(item)
                    continue
                same, exact = found
                if not said:
                    rejected.append(Rejection(item.id, EXACT_DUPLICATE if exact else self.name, "", (same.id,)))
                    continue
                if item.answer is None and _relevant_documents(item) is not None:
                    expects = "names the same relevant documents"
                else:
                    expects = "expects the same answer" if normalise_question(item.answer) else "neither has an expected answer"
                rejected.append(
                    Rejection(
                        item.id,
                        EXACT_DUPLICATE if exact else self.name,
                        f"asks what {in_quotes(same.id)} asks, in the same words, and {expects}; "
                        f"that one stays: {shorten(same.question)}",
                        (same.id,),
                    )
                )
        return tuple(kept), tuple(rejected), conflicts, judged_apart


_EVERY = object()  # the scope every kept item is in: an item citing nothing is compared with all of them
_UNCITED = object()  # the scope of the kept items citing nothing: an item citing something is compared with them too


class _KeptOfWording:
    """The kept items of one repeated wording, indexed so that a new copy is judged without a pass over them.

    What :meth:`repeated_by` asks of the earlier copies (the first in their order that is not another
    document's question, the first of those expecting the same answer, the first of those asking the same
    text, sharing ground with it) is each the first item under one key, per scope: per document cited, and
    for the items citing nothing. A key's first item is all a copy needs, so each key keeps one number.
    Scanning the copies instead made 20,000 copies of one question with 20,000 answers (or asked of
    20,000 documents) cost 200 million comparisons.
    """

    def __init__(self, first: EvalItem) -> None:
        self.items: list[EvalItem] = []
        self.first: dict[tuple[object, ...], int] = {}  # (scope, what is asked) -> its first item's place in items
        self.add(first)

    def add(self, item: EvalItem) -> None:
        place = len(self.items)
        self.items.append(item)
        documents = documents_of(item)
        scopes: tuple[object, ...] = (_EVERY, *documents) if documents else (_EVERY, _UNCITED)
        for key in _keys(item):
            for scope in scopes:
                self.first.setdefault((scope, *key), place)

    def _earliest(self, item: EvalItem, key: tuple[object, ...]) -> int | None:
        """The first kept item under ``key`` among those ``item`` may repeat (see asked_of_other_documents)."""
        documents = documents_of(item)
        scopes: tuple[object, ...] = (_UNCITED, *documents) if documents else (_EVERY,)
        places = [place for scope in scopes if (place := self.first.get((scope, *key))) is not None]
        return min(places) if places else None

    def repeated_by(self, item: EvalItem) -> str | tuple[EvalItem, bool]:
        """(the kept item ``item`` repeats, whether in the same text) when it goes; when it stays,
        the id of the first kept item it conflicts with, or "" when it conflicts with none."""
        here = self._earliest(item, ("here",))
        if here is None:  # one question put to two documents (PrivacyQA asks each policy the same thing) is two items
            return ""
        answer = _expected(item)
        if self._earliest(item, ("answer", answer)) is None:
            return self.items[here].id
        # Named as the app and `audit` name the pair: the same text (case and spacing aside, in the review
        # profile) is an exact duplicate there; the same words with other punctuation, a near one,
        # which they warn about only when the two share an answer or their quotes (shared_ground). Without
        # either (no answers, other passages) it is a hint there, and stays here.
        same = self._earliest(item, ("question", answer, normalise_question(item.question, spacing=True)))
        if same is not None:
            return self.items[same], True
        grounds = []
        if item.answer is not None:
            grounds.append(self._earliest(item, ("answered", answer)))
        quotes = _quotes(item)
        if quotes:
            grounds.append(self._earliest(item, ("quotes", answer, quotes)))
        near = [place for place in grounds if place is not None]
        return (self.items[min(near)], False) if near else ""


def _quotes(item: EvalItem) -> frozenset[tuple[str, str]]:
    """An item's quotes as shared_ground compares them."""
    return frozenset((anchor.source_id, anchor.quote.strip()) for anchor in item.anchors)


def _expected(item: EvalItem) -> str:
    """What an item expects, as its repeats are compared: its answer, or a query's relevant documents."""
    documents = _relevant_documents(item)
    return normalise_question(item.answer) if documents is None else documents


def _keys(item: EvalItem) -> list[tuple[object, ...]]:
    """What a kept item can be the first of, for _KeptOfWording.repeated_by."""
    answer = _expected(item)
    keys: list[tuple[object, ...]] = [("here",), ("answer", answer), ("question", answer, normalise_question(item.question, spacing=True))]
    if item.answer is not None:  # shared_ground: two answers given and the same
        keys.append(("answered", answer))
    quotes = _quotes(item)
    if quotes:
        keys.append(("quotes", answer, quotes))
    return keys


def _named(pairs: list[tuple[str, str]]) -> str:
    """The first CONFLICTS_NAMED (item, the earlier item it repeats) pairs, and how many more."""
    named = "; ".join(f"{in_quotes(item_id)} (as {in_quotes(first)})" for item_id, first in pairs[:CONFLICTS_NAMED])
    return named + (f" and {len(pairs) - CONFLICTS_NAMED:,} more" if len(pairs) > CONFLICTS_NAMED else "")


def _conflict_note(conflicts: list[tuple[str, str]]) -> str | None:
    if not conflicts:
        return None
    return (
        f"kept {count(len(conflicts), 'item')} that {plural(len(conflicts), 'repeats', 'repeat')} an earlier "
        f"question with another expected answer: "
        f"{_named(conflicts)}. Which answer is right is for a reviewer to decide (audit: conflicting-answers where the two "
        "differ in case and spacing only, near-duplicates where their punctuation differs)"
    )


def _judged_apart_note(kept: list[tuple[str, str]]) -> str | None:
    if not kept:
        return None
    return (
        f"kept {count(len(kept), 'query', 'queries')} that {plural(len(kept), 'repeats', 'repeat')} an earlier one "
        f"judged against other relevant documents: {_named(kept)}. Removing one would lose its judgements; merge "
        "them into one query by hand"
    )


class StatementAwareShortFilter(ShortQuestionFilter):
    """The too-short filter as the review profile weighs it: a short whole statement (a claim to verify)
    stays, and so does a question long enough once its words are counted as its language writes them
    ("Qu'est-ce qu'un cookie ?" is six words, not the three pieces between its spaces).

    ``checked``: items and the documented filter's reason for each (None: long enough), from a
    pass made already (:func:`review_chain` counts them): applied to those very items, the filter
    does not count every question's words again.
    """

    def __init__(
        self,
        min_words: int = MIN_QUESTION_WORDS,
        name: str = "too-short",
        checked: tuple[Sequence[EvalItem], Sequence[str | None]] | None = None,
    ) -> None:
        super().__init__(min_words, name)
        self._checked = checked

    def check(self, item: EvalItem) -> str | None:
        return self._weighed(item, super().check(item))

    def _weighed(self, item: EvalItem, reason: str | None) -> str | None:
        if reason is not None and (reads_as_statement(item.question) or written_words(item.question) >= self.min_words):
            return None
        return reason

    def apply(self, items: Sequence[EvalItem], *, should_stop: ShouldStop | None = None) -> FilterPass:
        checked = self._checked
        if checked is None or not _same_items(items, checked[0]):
            return super().apply(items, should_stop=should_stop)
        kept: list[EvalItem] = []
        rejected: list[Rejection] = []
        seq, reasons = checked
        for start in range(0, len(seq), CHUNK):
            check_stop(should_stop)
            for item, reason in zip(seq[start : start + CHUNK], reasons[start : start + CHUNK]):
                if reason is not None:
                    reason = self._weighed(item, reason)
                if reason is None:
                    kept.append(item)
                else:
                    rejected.append(Rejection(item.id, self.name, reason))
        return FilterPass(tuple(kept), tuple(rejected))


def _same_items(these: Sequence[EvalItem], those: Sequence[EvalItem]) -> bool:
    """Whether two sequences hold the very same item objects, in the same order."""
    return these is those or (len(these) == len(those) and all(map(is_, these, those)))


@dataclass(frozen=True)
class ReviewChain:
    """The review profile's chain, and what it leaves out of the documented one and why."""

    chain: FilterChain
    rarely_right: list[str] = field(default_factory=list)  # filters left out everywhere: rarely right on real sets
    notes: list[str] = field(default_factory=list)  # filters left out of this set's chain, each with its reason


def review_chain(
    evalset: EvalSet | Sequence[EvalItem] | None = None,
    *,
    baseline_scores: Mapping[str, float] | None = None,
    short_reasons: Mapping[str, str] | None = None,
    repeats: Container[str] | None = None,
) -> ReviewChain:
    """The documented chain as the review profile weighs it (see the module notes); ``evalset`` is the set it will run on.

    ``short_reasons``: the documented too-short filter's reason for each item of ``evalset`` it
    rejects, by item id, where a pass over the set has found them already (the scan's wording
    checks); the chain then does not count every question's words again. ``repeats``: the ids of
    the items of ``evalset`` whose words another asks in the same order, where they are known (see
    :class:`SameQuestionFilter`); the repeats filter then reads no other item's words.
    """
    weight = {c.name: c.review_severity if c.review_severity is not None else c.severity for c in checks(FILTER)}
    items: Sequence[EvalItem] = () if evalset is None else (evalset.items if isinstance(evalset, EvalSet) else evalset)
    kept: list[Filter] = []
    rarely_right: list[str] = []
    notes: list[str] = []
    for flt in default_filters(baseline_scores=baseline_scores).filters:
        if isinstance(flt, DuplicateFilter):
            kept.append(SameQuestionFilter(name=flt.name, repeats=repeats))
        elif isinstance(flt, ShortQuestionFilter):
            # Counted as the scan counts it (statements included), so the two agree on when it is common.
            reasons = [short_reasons.get(item.id) for item in items] if short_reasons is not None else [flt.check(item) for item in items]
            flagged = len(reasons) - reasons.count(None)
            if too_short_is_common(flagged, len(items)):
                notes.append(
                    f"{flt.name} not used: {flagged:,} of {count(len(items), 'question')} have fewer than "
                    f"{flt.min_words} words, which makes this a set of keyword queries, where short is the set's "
                    f"style; the app and audit show these as hints"
                )
            else:
                kept.append(StatementAwareShortFilter(flt.min_words, name=flt.name, checked=(items, reasons)))
        elif weight.get(flt.name, Severity.MEDIUM) < Severity.MEDIUM:
            rarely_right.append(flt.name)
        elif isinstance(flt, UnresolvedEvidenceFilter) and items:
            kept.append(SetWideUnresolvedFilter(not flt.stands_down(items), name=flt.name))
        else:
            kept.append(flt)
    return ReviewChain(FilterChain(kept), rarely_right, notes)


class SetWideUnresolvedFilter(UnresolvedEvidenceFilter):
    """The unresolved-evidence filter, standing down only when nothing in the whole set has been located, as the app
    and ``audit`` judge it. The chain runs it on what the filters before it leave, where the few located items may
    be gone already (a too-short one): judged there, it would keep the items ``audit`` warns of."""

    def __init__(self, located: bool, name: str = UNRESOLVED_EVIDENCE) -> None:
        super().__init__(name)
        self.located = located

    def stands_down(self, items: Sequence[EvalItem]) -> bool:
        return not self.located

    def check(self, item: EvalItem) -> str | None:
        # A reviewer who edited an item's quote took the span of its old words away (see review.queue.
        # gold_of_kept_quotes): the next version's filter removed the very items the review corrected.
        if _quote_edited(item.meta.get(REVIEW_KEY)):
            return None
        return super().check(item)


def _quote_edited(record: object) -> bool:
    """Whether an export's review record says the item was kept edited with a quote changed: a single review's
    ``original`` holds the old anchors, a team's merged record each reviewer's under ``decisions``."""
    if not isinstance(record, Mapping) or record.get("verdict") != "edited":
        return False
    originals = [record.get("original")]
    decisions = record.get("decisions")
    if isinstance(decisions, Mapping):
        originals += [decision.get("original") for decision in decisions.values() if isinstance(decision, Mapping)]
    return any(isinstance(original, Mapping) and "anchors" in original for original in originals)


def review_cautions(
    evalset: EvalSet,
    *,
    baseline_scores: Mapping[str, float] | None = None,
    should_stop: ShouldStop | None = None,
    short_reasons: Mapping[str, str] | None = None,
    repeats: Container[str] | None = None,
) -> WarningLog:
    """The cautions about what the review chain leaves of ``evalset`` ("only 9 questions are left"),
    counted as ``reviewtui filter`` counts them, for a scan in the review profile to show
    (``short_reasons`` and ``repeats``: see :func:`review_chain`)."""
    chain = review_chain(evalset, baseline_scores=baseline_scores, short_reasons=short_reasons, repeats=repeats).chain
    return chain.run(evalset, should_stop=should_stop, say_stood_down=True).warnings


#: What ``reviewtui filter`` does with a copy of a repeated question (see :func:`judge_copies`).
DROPPED, KEPT, KEPT_ANOTHER_ANSWER, KEPT_OTHER_DOCUMENTS, REMOVED = "dropped", "kept", "another answer", "other documents", "removed"


def filters_before_copies(chain: FilterChain, items: Sequence[EvalItem]) -> tuple[list[Filter], SameQuestionFilter | None]:
    """The filters of ``chain`` (the review chain on ``items``) that judge items before its repeats filter compares
    copies, those that run and do not stand down on ``items``, each asked of one item at a time; and that filter
    (None: the chain has none that runs)."""
    before: list[Filter] = []
    for flt in chain.filters:
        if flt.skip_reason() is not None:
            continue
        if isinstance(flt, SameQuestionFilter):
            return before, flt
        if not flt.itemwise:
            raise ValueError(f"{flt.name}: a filter before the duplicate one judges items together")  # none does
        if not flt.stands_down(items):
            before.append(flt)
    return before, None


def judge_copies(
    evalset: EvalSet,
    asked: Iterable[EvalItem],
    *,
    baseline_scores: Mapping[str, float] | None = None,
    short_reasons: Mapping[str, str] | None = None,
    should_stop: ShouldStop | None = None,
) -> Iterator[tuple[str, str, str]]:
    """What ``reviewtui filter`` does with each item of ``asked`` (items of ``evalset``, in set order, with every
    item that asks the same words as one of them), one at a time: (item id, DROPPED, the item kept instead),
    (item id, KEPT, ""), (item id, KEPT_ANOTHER_ANSWER or KEPT_OTHER_DOCUMENTS, the earlier item it repeats), or
    (item id, REMOVED, the filter that removes it first). For the duplicate flags to say it: they said only
    what ``filter --profile goldensetauditor`` does, while the default command drops most copies too, and keeps
    others (another answer, other relevant documents).

    The filters before the duplicate one judge each item on its own, as they stand on the whole set (they
    stand down set-wide, or not at all), so an item is asked of each in turn: their passes over a subset,
    their removals with a reason each, were the scan's peak on a set whose questions mostly repeat another's
    words."""
    chain = review_chain(evalset, baseline_scores=baseline_scores, short_reasons=short_reasons).chain
    before, duplicates = filters_before_copies(chain, evalset.items)
    survivors: list[EvalItem] = []
    for start, item in enumerate(asked):
        if not start % CHUNK:
            check_stop(should_stop)
        for flt in before:
            if flt.check(item) is not None:
                yield item.id, REMOVED, flt.name
                break
        else:
            survivors.append(item)
    if duplicates is None:
        yield from ((item.id, KEPT, "") for item in survivors)
        return
    kept, rejected, conflicts, judged_apart = duplicates.judge(survivors, should_stop=should_stop, said=False)
    del survivors
    # A copy kept with another answer, or for other relevant documents, is among the kept too: said once, as such.
    later = {item_id for item_id, _ in conflicts} | {item_id for item_id, _ in judged_apart}
    yield from ((item.id, KEPT, "") for item in kept if item.id not in later)
    del kept
    yield from ((r.item_id, DROPPED, r.related_ids[0]) for r in rejected)
    del rejected
    yield from ((item_id, KEPT_ANOTHER_ANSWER, first) for item_id, first in conflicts)
    yield from ((item_id, KEPT_OTHER_DOCUMENTS, first) for item_id, first in judged_apart)

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
  conflict for a reviewer to settle, never settled by keeping whichever comes first;
* too short: a claim written as a short sentence ("DUSP4 decreases apoptosis.") stays, so does a
  question long enough once its words are counted as its language writes them (French elisions,
  the Arabic article), and on a set where more than a tenth of the questions are short (keyword
  queries) the filter is not used at all: there the app and ``audit`` show it as a hint, a
  property of the set.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from reviewtui.evalset.checks.base import CHUNK, Filter, FilterPass, Rejection, shorten
from reviewtui.evalset.checks.duplicates import DuplicateFilter
from reviewtui.evalset.checks.filters import FilterChain, ShortQuestionFilter, default_filters
from reviewtui.evalset.checks.findings import asked_of_other_documents, shared_ground
from reviewtui.evalset.checks.policy import EXACT_DUPLICATE, reads_as_statement, too_short_is_common
from reviewtui.evalset.checks.registry import FILTER, checks
from reviewtui.evalset.checks.warninglog import WarningLog
from reviewtui.evalset.jobs.cancel import ShouldStop, check_stop
from reviewtui.evalset.model.flag import Severity
from reviewtui.evalset.model.items import EvalItem, EvalSet
from reviewtui.evalset.text.counts import count, plural
from reviewtui.evalset.text.words import in_quotes, normalise_question, words, written_words

__all__ = ["ReviewChain", "SameQuestionFilter", "StatementAwareShortFilter", "review_cautions", "review_chain"]

#: Conflicts named one by one in the filter's note; the rest are counted.
CONFLICTS_NAMED = 5


class SameQuestionFilter(Filter):
    """An item whose question repeats an earlier kept item's, word for word and in order (case and
    punctuation aside), with the same expected answer (case and surrounding space aside; no answer
    and an empty one alike), and whose evidence is not all from other documents than that item's.

    A removal is named ``exact-duplicate`` when the two texts are equal but for case and surrounding
    space, as the app and ``audit`` name such a pair, and by the filter's own name otherwise; such a
    near repeat (other punctuation) goes only when the two also share an expected answer or their
    quotes, as the review profile warns about it, and stays, shown as a hint, when they share neither.
    Order-dependent as the documented duplicate filter is: the first of the copies stays. A
    repeat with another expected answer stays too, and the pass's note names it: which answer
    is right is for a reviewer to decide. A question with no word at all is never a repeat.
    """

    itemwise = False

    def __init__(self, name: str = "near-duplicate") -> None:
        self.name = name

    def apply(self, items: Sequence[EvalItem], *, should_stop: ShouldStop | None = None) -> FilterPass:
        seq = tuple(items)
        # each wording (its words joined: one string, not a tuple of them, at 100k questions) -> its kept items, one per answer
        kept_by_wording: dict[str, list[EvalItem]] = {}
        kept: list[EvalItem] = []
        rejected: list[Rejection] = []
        conflicts: list[tuple[str, str]] = []  # (item kept with another answer, the first item of its wording)
        for start in range(0, len(seq), CHUNK):
            check_stop(should_stop)
            for item in seq[start : start + CHUNK]:
                wording = " ".join(words(item.question))
                earlier = kept_by_wording.get(wording) if wording else None
                if earlier is None:
                    if wording:
                        kept_by_wording[wording] = [item]
                    kept.append(item)
                    continue
                # One question put to two documents (PrivacyQA asks each policy the same thing) is two items.
                here = [other for other in earlier if not asked_of_other_documents(item, other)]
                if not here:
                    earlier.append(item)
                    kept.append(item)
                    continue
                answer = normalise_question(item.answer)
                alike = [other for other in here if normalise_question(other.answer) == answer]
                if not alike:
                    conflicts.append((item.id, here[0].id))
                    earlier.append(item)
                    kept.append(item)
                    continue
                # Named as the app and `audit` name the pair: the same text (case and surrounding space aside)
                # is an exact duplicate there; the same words with other punctuation or spacing, a near one,
                # which they warn about only when the two share an answer or their quotes. Without either (no
                # answers, other passages) it is a hint there, and stays here.
                question = normalise_question(item.question)
                same = next((other for other in alike if normalise_question(other.question) == question), None)
                exact = same is not None
                if same is None:
                    same = next((other for other in alike if shared_ground(item, other)), None)
                if same is None:
                    earlier.append(item)
                    kept.append(item)
                    continue
                expects = "expects the same answer" if answer else "neither has an expected answer"
                rejected.append(
                    Rejection(
                        item.id,
                        EXACT_DUPLICATE if exact else self.name,
                        f"asks what {in_quotes(same.id)} asks, in the same words, and {expects}; "
                        f"that one stays: {shorten(same.question)}",
                        (same.id,),
                    )
                )
        return FilterPass(tuple(kept), tuple(rejected), _conflict_note(conflicts))


def _conflict_note(conflicts: list[tuple[str, str]]) -> str | None:
    if not conflicts:
        return None
    named = "; ".join(f"{in_quotes(item_id)} (as {in_quotes(first)})" for item_id, first in conflicts[:CONFLICTS_NAMED])
    more = f" and {len(conflicts) - CONFLICTS_NAMED:,} more" if len(conflicts) > CONFLICTS_NAMED else ""
    return (
        f"kept {count(len(conflicts), 'item')} that {plural(len(conflicts), 'repeats', 'repeat')} an earlier "
        f"question with another expected answer: "
        f"{named}{more}. Which answer is right is for a reviewer to decide (audit: conflicting-answers)"
    )


class StatementAwareShortFilter(ShortQuestionFilter):
    """The too-short filter as the review profile weighs it: a short whole statement (a claim to verify)
    stays, and so does a question long enough once its words are counted as its language writes them
    ("Qu'est-ce qu'un cookie ?" is six words, not the three pieces between its spaces)."""

    def check(self, item: EvalItem) -> str | None:
        reason = super().check(item)
        if reason is not None and (reads_as_statement(item.question) or written_words(item.question) >= self.min_words):
            return None
        return reason


@dataclass(frozen=True)
class ReviewChain:
    """The review profile's chain, and what it leaves out of the documented one and why."""

    chain: FilterChain
    rarely_right: list[str] = field(default_factory=list)  # filters left out everywhere: rarely right on real sets
    notes: list[str] = field(default_factory=list)  # filters left out of this set's chain, each with its reason


def review_chain(
    evalset: EvalSet | Sequence[EvalItem] | None = None, *, baseline_scores: Mapping[str, float] | None = None
) -> ReviewChain:
    """The documented chain as the review profile weighs it (see the module notes); ``evalset`` is the set it will run on."""
    weight = {c.name: c.review_severity if c.review_severity is not None else c.severity for c in checks(FILTER)}
    items: Sequence[EvalItem] = () if evalset is None else (evalset.items if isinstance(evalset, EvalSet) else evalset)
    kept: list[Filter] = []
    rarely_right: list[str] = []
    notes: list[str] = []
    for flt in default_filters(baseline_scores=baseline_scores).filters:
        if isinstance(flt, DuplicateFilter):
            kept.append(SameQuestionFilter(name=flt.name))
        elif isinstance(flt, ShortQuestionFilter):
            # Counted as the scan counts it (statements included), so the two agree on when it is common.
            flagged = sum(1 for item in items if flt.check(item) is not None)
            if too_short_is_common(flagged, len(items)):
                notes.append(
                    f"{flt.name} not used: {flagged:,} of {count(len(items), 'question')} have fewer than "
                    f"{flt.min_words} words, which makes this a set of keyword queries, where short is the set's "
                    f"style; the app and audit show these as hints"
                )
            else:
                kept.append(StatementAwareShortFilter(flt.min_words, name=flt.name))
        elif weight.get(flt.name, Severity.MEDIUM) >= Severity.MEDIUM:
            kept.append(flt)
        else:
            rarely_right.append(flt.name)
    return ReviewChain(FilterChain(kept), rarely_right, notes)


def review_cautions(
    evalset: EvalSet, *, baseline_scores: Mapping[str, float] | None = None, should_stop: ShouldStop | None = None
) -> WarningLog:
    """The cautions about what the review chain leaves of ``evalset`` ("only 9 questions are left"),
    counted as ``reviewtui filter`` counts them, for a scan in the review profile to show."""
    return review_chain(evalset, baseline_scores=baseline_scores).chain.run(evalset, should_stop=should_stop, say_stood_down=True).warnings

"""An item's warnings after an edit: every check that looks at the item alone runs again at once.

A reviewer who fixes a quote or rewrites a short question must see the warning go
(or stay) before deciding, not a warning about text that is no longer there. The
checks that look at one item run on the edited item as the scan runs them, by
scanning a set of that one item: same reasons, same rules. What they cannot see in a
set of one is taken from the last full scan:

* checks that compare the item with others (duplicates, the same answer from the same
  evidence, conflicting answers, category coverage) keep their flags, marked as found before the edit, until the set is
  scanned again as reviewed (the app does that shortly after the last edit);
* a severity the full scan adjusted for the whole set (too-short on a keyword-query
  set) stays as the full scan set it;
* "no evidence" stays as long as the item still has none, and "no expected answer, unlike
  other items" as long as it still has no answer: both depend on the other items;
* too-short on a keyword-query set keeps saying why it is a hint there.

Evidence warnings come from the edited quotes' own lookup when there is a corpus.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from reviewtui.evalset.checks import audit as audit_mod
from reviewtui.evalset.checks.findings import NO_ANSWER_REASON
from reviewtui.evalset.checks.policy import EXACT_DUPLICATE, NEAR_DUPLICATE, NEAR_DUPLICATE_SAME_GROUND, NO_EVIDENCE, SEVERITY
from reviewtui.evalset.checks.registry import REVIEW, profile_severities
from reviewtui.evalset.checks.same_evidence import SAME_EVIDENCE
from reviewtui.evalset.checks.scan import KEYWORD_SET_NOTE, TOO_SHORT, scan_flags, weighed_for_its_wording
from reviewtui.evalset.evidence.resolution import (
    CHECK_APPROXIMATE,
    CHECK_NORMALISED,
    CHECK_NOT_FOUND,
    CHECK_PAGE_HINT,
    CHECK_UNKNOWN_DOCUMENT,
    CHECK_UNREADABLE,
    AnchorResolution,
    evidence_flags,
)
from reviewtui.evalset.model.flag import Flag, Severity, sort_flags
from reviewtui.evalset.model.items import EvalItem, EvalSet, QuestionType

__all__ = ["COMPARING_CHECKS", "EVIDENCE_CHECKS", "STALE_NOTE", "SetFacts", "recheck_item"]

#: Checks whose verdict on an item depends on the other items of the set.
COMPARING_CHECKS = frozenset(
    {
        NEAR_DUPLICATE,
        NEAR_DUPLICATE_SAME_GROUND,
        EXACT_DUPLICATE,
        SAME_EVIDENCE,
        audit_mod.CONFLICTING,
        audit_mod.EXACT_DUPLICATES,
        audit_mod.NEAR_DUPLICATES,
        audit_mod.CATEGORY_COVERAGE,
    }
)
#: Checks made by looking the item's quotes up in the corpus.
EVIDENCE_CHECKS = frozenset(
    {CHECK_NOT_FOUND, CHECK_UNKNOWN_DOCUMENT, CHECK_UNREADABLE, CHECK_APPROXIMATE, CHECK_NORMALISED, CHECK_PAGE_HINT}
)
STALE_NOTE = " [found before the edit; compared with the other items again in a moment]"


@dataclass(frozen=True)
class SetFacts:
    """What the last full scan knew of the whole set that a recheck of one item cannot see."""

    #: the set is one of keyword queries (too-short is common in it: a hint there, see policy.too_short_is_common)
    keyword_queries: bool = False
    #: how many of the set's items, as the scan read them, have an expected answer
    answered: int = 0


def recheck_item(
    item: EvalItem,
    before: Iterable[Flag],
    resolutions: Sequence[AnchorResolution] | None = None,
    facts: SetFacts | None = None,
    was_answered: bool = False,
) -> list[Flag]:
    """The warnings of ``item`` as edited, most severe first.

    ``before`` are the flags the last full scan (and corpus lookup) gave the item as it
    was; ``resolutions`` the lookup of the edited item's quotes, when there is a corpus
    (None keeps the earlier evidence warnings as they were). ``facts``: what that scan knew of
    the set, so that an edit which makes a keyword query short, or takes an answer away, is
    weighed as the scan would (``was_answered``: whether the item the scan saw had an answer).
    """
    before = list(before)
    # A weight the full scan gave for the whole set stays; one it gave for the item's own wording
    # (a short claim's too-short, or a French question's, a hint) is the recheck's to decide again.
    severity_before = {flag.check: flag.severity for flag in before if not weighed_for_its_wording(flag)}
    keyword_set = (facts is not None and facts.keyword_queries) or any(
        flag.check == TOO_SHORT and flag.reason.endswith(KEYWORD_SET_NOTE) for flag in before
    )
    scan = scan_flags(EvalSet(id="recheck", items=(item,)), workers=1)
    flags: list[Flag] = []
    for flag in scan.flags.get(item.id, ()):
        if flag.check in COMPARING_CHECKS:
            continue  # a set of one has nothing to compare with: the full scan's verdict stands (below)
        own = weighed_for_its_wording(flag)
        severity = flag.severity if own else severity_before.get(flag.check, flag.severity)
        reason = flag.reason
        if flag.check == TOO_SHORT and not own and keyword_set:
            reason += KEYWORD_SET_NOTE  # why it weighs as it does, which a set of one cannot tell
            severity = Severity.HINT
        if severity != flag.severity or reason != flag.reason:
            flag = Flag(flag.check, severity, reason, flag.related_ids)
        flags.append(flag)
    for flag in before:
        if flag.check in COMPARING_CHECKS:
            reason = flag.reason if flag.reason.endswith(STALE_NOTE) else flag.reason + STALE_NOTE
            flags.append(Flag(flag.check, flag.severity, reason, flag.related_ids))
        elif flag.check == NO_EVIDENCE and not (item.gold or item.anchors) and item.qtype != QuestionType.UNANSWERABLE:
            flags.append(flag)
        elif (
            flag.check == audit_mod.WEAK_ANSWER
            and flag.reason == NO_ANSWER_REASON
            and item.answer is None
            and item.qtype != QuestionType.UNANSWERABLE  # retyped unanswerable: no answer is its design, as in the scan
        ):
            flags.append(flag)  # "unlike other items": the others still have theirs
        elif flag.check in EVIDENCE_CHECKS and resolutions is None:
            flags.append(flag)
    others_answered = facts is not None and facts.answered - was_answered > 0
    no_answer_missed = item.answer is None and item.qtype != QuestionType.UNANSWERABLE
    if no_answer_missed and others_answered and not any(f.reason == NO_ANSWER_REASON for f in flags):
        # An edit that took the answer away: the scan would say so, as it does of items that never had one.
        flags.append(Flag(audit_mod.WEAK_ANSWER, _weak_answer_weight(), NO_ANSWER_REASON))
    if resolutions is not None:
        flags += evidence_flags(resolutions).get(item.id, [])
    return sort_flags(flags)


def _weak_answer_weight() -> Severity:
    """weak-answer's weight in the review profile, the one the app shows (see registry.profile_severities)."""
    weight = profile_severities(REVIEW).get(audit_mod.WEAK_ANSWER)
    return weight[1] if weight is not None else SEVERITY.get(audit_mod.WEAK_ANSWER, Severity.LOW)

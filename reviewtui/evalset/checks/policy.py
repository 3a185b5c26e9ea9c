"""How much each kind of per-item flag deserves a reviewer's attention, and why.

The severities were set by running every check over the real public sets under
``shared/realdata`` (2,333 questions, mostly good ones) and reading what fired:
a check that fires on many good questions is LOW, whatever it sounds like, so
that a MEDIUM or HIGH flag in the review pane keeps its meaning. Each check's
severity and the measured share are registered with the check
(:mod:`.registry`); this module holds those of the flags the scan makes from
other checks' findings, and the table of all of them. tests/test_flags.py
re-measures it.
"""

from __future__ import annotations

from collections.abc import Sequence

from reviewtui.evalset.checks.registry import SCAN, Check, register, severity_table
from reviewtui.evalset.model.flag import Severity
from reviewtui.evalset.model.items import EvalItem, QuestionType

__all__ = [
    "EXACT_DUPLICATE",
    "NEAR_DUPLICATE",
    "NEAR_DUPLICATE_SAME_GROUND",
    "NO_EVIDENCE",
    "NO_EVIDENCE_DOCUMENTS_REASON",
    "NO_EVIDENCE_REASON",
    "SEVERITY",
    "SUGGESTED_TYPE",
    "evidence_is_the_rule",
    "reads_as_statement",
    "too_short_is_common",
]

SUGGESTED_TYPE = "suggested-type"
NEAR_DUPLICATE = "near-duplicate"
NEAR_DUPLICATE_SAME_GROUND = "near-duplicate, same answer or evidence"
NO_EVIDENCE = "no-evidence"
NO_EVIDENCE_REASON = (
    "no quote and no span, unlike the rest of the set: no retrieval score can be computed for it. "
    "Add evidence, mark it unanswerable, or remove it"
)
#: The same flag on an item whose only evidence is a list of relevant documents (``meta["gold_documents"]``: DPR's
#: positive passages where none holds the answer, so no quote was made): the plain reason said no score could be
#: computed, though a retriever can be scored on those documents.
NO_EVIDENCE_DOCUMENTS_REASON = (
    "no quote and no span, unlike the rest of the set: only relevant documents (meta['gold_documents']) with no "
    "passage in them known to hold the answer, so only whole-document retrieval can be scored. Check that one of "
    "them answers it and quote that passage, mark it unanswerable, or remove it"
)
EXACT_DUPLICATE = "exact-duplicate"


def evidence_is_the_rule(items: Sequence[EvalItem]) -> bool:
    """Whether an item without a quote or a span stands out in ``items``: some have evidence, and those without
    it (unanswerable ones aside) are no more than those with it. With "some have evidence" alone, one quote added
    in review to a BEIR set (relevant documents only) put a medium no-evidence warning on every other item, each
    said to be "unlike the rest of the set"."""
    having = lacking = 0
    for item in items:
        if item.gold or item.anchors:
            having += 1
        elif item.qtype != QuestionType.UNANSWERABLE:
            lacking += 1
    return having > 0 and lacking <= having

# The flags the scan makes from other checks' findings; the filters and the audit checks register
# their own severities next to their logic. The note of each says how often it was right on real sets.
register(
    Check(
        EXACT_DUPLICATE,
        SCAN,
        Severity.MEDIUM,
        "The same question twice: counted twice in every average. 1.9 % of real items; every case inspected was a "
        "real repeat (student-loan rows copied 8 times, two Arabic queries)",
        module=__name__,
    )
)
register(
    Check(
        NO_EVIDENCE,
        SCAN,
        Severity.MEDIUM,
        "No evidence in a set where at least as many items have some (and not typed unanswerable): it cannot be "
        "scored. Did "
        "not fire on the real sets as read; fires on the sample set's seeded q37",
        module=__name__,
    )
)
register(
    Check(
        NEAR_DUPLICATE_SAME_GROUND,
        SCAN,
        Severity.MEDIUM,
        "Near-duplicates that also expect the same answer or cite the same quotes: very likely one question asked "
        "twice (the sample set's seeded pair is one)",
        module=__name__,
    )
)
register(
    Check(
        SUGGESTED_TYPE,
        SCAN,
        Severity.HINT,
        "The regex type guess differs from the label (or there is none) on 82 % of real items, and from HotpotQA's "
        "own labels on 78 %: a hint only",
        module=__name__,
    )
)

# Check name -> severity of its flag, for every registered check (filters, audit, the above, extra checks).
SEVERITY: dict[str, Severity] = severity_table()

# Share of a set (of at least TOO_SHORT_MIN_SET items) above which too-short flags are a property of
# the set (keyword queries), not of its items.
TOO_SHORT_COMMON = 0.10
TOO_SHORT_MIN_SET = 20


def too_short_is_common(flagged: int, size: int) -> bool:
    return size >= TOO_SHORT_MIN_SET and flagged > TOO_SHORT_COMMON * size


def reads_as_statement(text: str) -> bool:
    """Whether ``text`` is a sentence that ends with a full stop and asks nothing: "DUSP4 decreases apoptosis."

    Fact-checking sets (SciFact and the like) hold claims, not questions, and a complete claim
    of three words is not the fragment the too-short check is after ("Late fee rules?").
    """
    text = text.strip()
    return text.endswith(".") and not text.endswith("..") and "?" not in text and len(text.split()) >= 2

"""Warnings about a pair of items that the review has settled by rejecting the other item.

A conflicting answer, a duplicate or the same evidence asked twice is a problem of two items
(or more) at once: keeping both puts it in the next version of the set. Once the reviewer has
rejected every other item a warning names, the next version holds only this one, and the
warning has nothing left to warn of. It is still shown, as a hint that says what settled it,
so the reviewer sees why it went quiet and an undo of that reject brings it back as it was.

An accept made while such a warning was open records the items it named (``Decision.pairs``, in the journal),
so that rejecting them afterwards settles it in the export and the tally as rejecting them first does
(``ReviewQueue.settled_checks``). :func:`edit_may_end` says whether an edit changed what a pair check compares,
and so may have ended its warning before the next scan can say.

Kept light on purpose (no import of the checks themselves, only of ``repeats``' cap): the review app
imports it at start and asks it on every key, and importing the audit's module would slow its first
question down.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from reviewtui.evalset.checks.repeats import PARTNERS_SHOWN
from reviewtui.evalset.model.flag import Flag, Severity, sort_flags
from reviewtui.evalset.model.items import EvalItem
from reviewtui.evalset.text.words import in_quotes, symbols, words

__all__ = ["PAIR_CHECKS", "edit_may_end", "settleable", "settled_by_review"]

#: The checks whose warning is about the items it names as much as about its own. Their names are the
#: registry's (``tests/test_settled_warnings.py`` holds them to it): the flags' names in the review
#: profile, and the audit's own names, which the goldensetauditor profile shows.
PAIR_CHECKS = frozenset(
    {"conflicting-answers", "exact-duplicate", "near-duplicate", "same-evidence", "exact-duplicates", "near-duplicates"}
)
#: A flag names at most this many other items; one that names this many may have partners it does not name,
#: which the review may not have rejected.
_NAMED_AT_MOST = PARTNERS_SHOWN
#: What a pair warning's reason says when its check stopped looking before it had every partner (a crowded
#: word, a long list): it may have partners it does not name, so it is never settled. The checks' own wording
#: (findings.ids_text, the near-duplicate and same-evidence reasons); ``tests/test_settled_warnings.py`` makes
#: each of them and holds this list to it.
MAY_HAVE_MORE = (" and perhaps others", " and at least ", " and others")


#: What each pair check compares of an item: an edit that leaves these as they were, as the check reads them, leaves
#: its warning in place (until the next scan, the warning on an edited item is the scan's of the item before it).
_COMPARES: dict[str, tuple[str, ...]] = {
    "conflicting-answers": ("question", "answer"),
    "exact-duplicate": ("question",),
    "exact-duplicates": ("question",),
    "near-duplicate": ("question",),
    "near-duplicates": ("question",),
    "same-evidence": ("anchors", "answer"),
}


def _as_compared(item: EvalItem, field: str) -> object:
    if field == "question":
        return words(item.question), symbols(item.question)  # case, spacing and punctuation aside, as a repeat is told
    if field == "answer":
        return (item.answer or "").strip().casefold()
    return tuple((anchor.source_id, anchor.quote.strip()) for anchor in item.anchors)


def edit_may_end(flag: Flag, before: EvalItem, after: EvalItem) -> bool:
    """Whether editing ``before`` into ``after`` may have ended ``flag``, a warning about this item and others that
    the scan found on the item before the edit: it changed what the check compares (the question of a duplicate, the
    answer of a conflict). Fixing a typo in the answer of a duplicate, or a space in its question, ends nothing."""
    fields = _COMPARES.get(flag.check)
    if fields is None:
        return False
    return any(_as_compared(before, field) != _as_compared(after, field) for field in fields)


def settleable(flag: Flag) -> bool:
    """Whether rejecting every item ``flag`` names would settle it: a pair warning (not a hint) that names all of
    its partners."""
    others = flag.related_ids
    return (
        flag.check in PAIR_CHECKS
        and flag.severity != Severity.HINT
        and bool(others)
        and len(others) < _NAMED_AT_MOST
        and not any(marker in flag.reason for marker in MAY_HAVE_MORE)
    )


def settled_by_review(flags: Sequence[Flag], rejected: Callable[[str], bool]) -> Sequence[Flag]:
    """``flags`` with each pair warning whose every named item ``rejected`` says the review rejected turned
    into a hint that says so; the same sequence when there is none (most items, on every key)."""
    changed: list[Flag] | None = None
    for k, flag in enumerate(flags):
        others = flag.related_ids
        if not settleable(flag) or not all(rejected(other) for other in others):
            continue
        if changed is None:
            changed = list(flags)
        named = ", ".join(in_quotes(other) for other in others)
        changed[k] = Flag(
            flag.check,
            Severity.HINT,
            f"{flag.reason} (settled: {named} rejected in this review)",
            others,
        )
    return flags if changed is None else sort_flags(changed)

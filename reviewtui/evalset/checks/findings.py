"""Turning near-duplicate pairs and audit findings into per-item flags with one-line reasons.

Each flag names the other items involved (``related_ids``) and, for duplicates,
what the order-dependent duplicate filter would do with this item, so a reviewer
can decide which copy to keep without looking anything up.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Protocol

from reviewtui.evalset.checks import audit as audit_mod
from reviewtui.evalset.checks.audit import AuditReport, Finding
from reviewtui.evalset.checks.policy import EXACT_DUPLICATE, NEAR_DUPLICATE, NEAR_DUPLICATE_SAME_GROUND, SEVERITY
from reviewtui.evalset.checks.simjoin import jaccard
from reviewtui.evalset.model.flag import Flag, Severity
from reviewtui.evalset.model.items import EvalItem, EvalSet
from reviewtui.evalset.text.words import visible

__all__ = ["NearDuplicateLinks", "add_flag", "audit_flags", "filter_verdicts", "ids_text"]


def add_flag(flags: dict[str, list[Flag]], item_id: str, flag: Flag) -> None:
    bucket = flags.get(item_id)
    if bucket is None:
        flags[item_id] = [flag]
    else:
        bucket.append(flag)


def ids_text(ids: Iterable[str], limit: int = 4) -> str:
    ids = list(ids)
    shown = ", ".join(repr(visible(i)) for i in ids[:limit])
    return shown + (f" and {len(ids) - limit} more" if len(ids) > limit else "")


class ByPosition(Protocol):
    """Anything that gives a question's normalised form by its position (a list, a dict, a lazy view)."""

    def __getitem__(self, position: int, /) -> str: ...


class NearDuplicateLinks:
    """One near-duplicate flag per item, naming every item it nearly repeats, built in two steps.

    Pairs come from the filter (word overlap ≥ 0.8, :meth:`add_word_pairs`) and from the
    audit (content tokens ≥ 0.82, :meth:`add_audit_pairs`). Pairs that are the same question
    after trimming and case are left to the exact-duplicate and conflicting-answer flags.
    The scan adds the filter's pairs and calls :meth:`prepare` while the audit is still
    running elsewhere, which works out the costly parts of most reasons ahead of time.
    ``sets`` maps a position to its word set; ``normalised`` a position to its trimmed,
    lower-cased question.
    """

    def __init__(
        self,
        items: Sequence[EvalItem],
        sets: Sequence[frozenset[str]] | Mapping[int, frozenset[str]],
        normalised: ByPosition,
        position: Mapping[str, int],
    ) -> None:
        self.items = items
        self.sets = sets
        self.normalised = normalised
        self.position = position
        self.partners: dict[int, dict[int, str]] = {}  # position -> {other position: how measured}
        self._details: dict[tuple[int, int], tuple[str, str]] = {}  # (item, first partner) -> (difference, shared ground)

    def _link(self, i: int, j: int, how: str, *, measured: bool = False) -> None:
        """Link i and j; ``measured``: ``how`` is the audit's figure, which the report prints for this pair,
        so it replaces the filter's word overlap (one pair, one number, in the app and in the report)."""
        if self.normalised[i] == self.normalised[j]:
            return
        partners = self.partners
        if measured:
            partners.setdefault(i, {})[j] = how
            partners.setdefault(j, {})[i] = how
        else:
            partners.setdefault(i, {}).setdefault(j, how)
            partners.setdefault(j, {}).setdefault(i, how)

    def add_word_pairs(self, pairs: Iterable[tuple[int, int]]) -> None:
        sets = self.sets
        for i, j in pairs:
            self._link(i, j, f"{jaccard(sets[i], sets[j]):.0%} of words shared")

    def add_audit_pairs(self, report: AuditReport) -> None:
        for finding in report.of_check(audit_mod.NEAR_DUPLICATES):
            i, j = (self.position[item_id] for item_id in finding.item_ids)
            if finding.evidence.get("no_content_tokens"):
                self._link(i, j, "")
            else:
                self._link(i, j, f"{finding.evidence['token_jaccard']:.0%} of content words shared", measured=True)

    def prepare(self) -> None:
        """Work out each item's reason details against its current first partner (kept if it stays first)."""
        for k, others in self.partners.items():
            first = min((o for o in others if others[o]), default=None)
            if first is not None:
                self._detail(k, first)

    def _detail(self, k: int, first: int) -> tuple[str, str]:
        found = self._details.get((k, first))
        if found is None:
            found = self._details[(k, first)] = (
                _difference(self.sets[k], self.sets[first]),
                _shared_ground(self.items[k], self.items[first]),
            )
        return found

    def flags_into(self, flags: dict[str, list[Flag]], dropped: Mapping[int, int]) -> None:
        """Add the flags; ``dropped``: what the order-dependent duplicate filter removes (see first_kept_duplicate)."""
        items = self.items
        for k, others in self.partners.items():
            ordered = sorted(others)
            measured = [o for o in ordered if others[o]]
            item_id = items[k].id
            if not measured:
                # Only linked because neither question has any word the audit can compare.
                related = tuple(items[o].id for o in ordered)
                reason = (
                    f"counts as a duplicate of {ids_text(related)} only because neither has a word the audit can "
                    f"compare (non-Latin script or only very common words)"
                )
                add_flag(flags, item_id, Flag(NEAR_DUPLICATE, Severity.LOW, reason, related))
                continue
            same_source = [o for o in measured if not asked_of_other_documents(items[k], items[o])]
            if not same_source:
                # The same question put to another document (one question per privacy policy): not a duplicate.
                related = tuple(items[o].id for o in measured)
                reason = (
                    f"worded like {ids_text(related)}, which {'is' if len(related) == 1 else 'are'} asked of other "
                    f"documents: the same question about different sources, not a duplicate"
                )
                add_flag(flags, item_id, Flag(NEAR_DUPLICATE, Severity.HINT, reason, related))
                continue
            measured = same_source
            first = measured[0]
            related = tuple(items[o].id for o in measured)
            difference, shared = self._detail(k, first)
            reason = f"nearly the same question as {visible(items[first].id)!r} ({others[first]}{difference})"
            if len(measured) > 1:
                reason += f" and {len(measured) - 1} other{'s' if len(measured) > 2 else ''}"
            if shared:
                reason += f"; {shared}"
            if k in dropped:
                reason += f"; the duplicate filter drops this one and keeps {visible(items[dropped[k]].id)!r}"
            elif any(dropped.get(o) == k for o in ordered):
                reason += "; the duplicate filter keeps this one"
            severity = SEVERITY[NEAR_DUPLICATE_SAME_GROUND] if shared else SEVERITY[NEAR_DUPLICATE]
            add_flag(flags, item_id, Flag(NEAR_DUPLICATE, severity, reason, related))


def _documents(item: EvalItem) -> frozenset[str]:
    return frozenset(anchor.source_id for anchor in item.anchors) | frozenset(gold.span.doc_id for gold in item.gold)


def asked_of_other_documents(a: EvalItem, b: EvalItem) -> bool:
    """Whether two items cite evidence, none of it from the same document: one question asked of two sources.

    A set may ask the same question of every document (PrivacyQA asks each privacy policy what
    data it shares); those are not duplicates, and their answers may rightly differ.
    """
    mine, theirs = _documents(a), _documents(b)
    return bool(mine) and bool(theirs) and mine.isdisjoint(theirs)


def _shared_ground(a: EvalItem, b: EvalItem) -> str:
    """Why two similar questions are probably one question: the same expected answer, or the same quotes."""
    if a.answer is not None and b.answer is not None and a.answer.strip().lower() == b.answer.strip().lower():
        return "both expect the same answer"
    quotes_a = {(anchor.source_id, anchor.quote.strip()) for anchor in a.anchors}
    if quotes_a and quotes_a == {(anchor.source_id, anchor.quote.strip()) for anchor in b.anchors}:
        return "both cite the same evidence"
    return ""


def _difference(mine: frozenset[str], theirs: frozenset[str], limit: int = 3) -> str:
    """"; here 'biology', there 'chemistry'": what a reviewer needs to judge a near-duplicate."""
    only_mine = sorted(mine - theirs)
    only_theirs = sorted(theirs - mine)
    if not only_mine and not only_theirs:
        return "; same words, in another order or form"

    def show(words: list[str]) -> str:
        text = ", ".join(repr(visible(w)) for w in words[:limit])
        return (text + ", …") if len(words) > limit else (text or "nothing")

    return f"; here {show(only_mine)}, there {show(only_theirs)}"


def filter_verdicts(items: Sequence[EvalItem], dropped: Mapping[int, int]) -> dict[str, str]:
    """What the (order-dependent) duplicate filter does to each item involved, as a clause for a reason."""
    verdicts: dict[str, str] = {}
    for j, i in dropped.items():
        verdicts[items[j].id] = f"; the duplicate filter drops this one and keeps {visible(items[i].id)!r}"
        verdicts.setdefault(items[i].id, "; the duplicate filter keeps this one")
    return verdicts


def audit_flags(flags: dict[str, list[Flag]], report: AuditReport, evalset: EvalSet, verdicts: Mapping[str, str]) -> None:
    """Turn audit findings (other than near-duplicate pairs, handled above) into per-item flags."""
    for finding in report.findings:
        if not finding.item_ids or finding.check == audit_mod.NEAR_DUPLICATES:
            continue
        for item_id in finding.item_ids:
            others = tuple(i for i in finding.item_ids if i != item_id)
            shown = finding
            if finding.check in (audit_mod.CONFLICTING, audit_mod.EXACT_DUPLICATES):
                others = _same_source(evalset, item_id, others)
                if not others:  # asked of other documents only: not a repeat, and different answers are expected
                    continue
                if finding.check == audit_mod.CONFLICTING and not _answers_differ(evalset, item_id, others):
                    # those left, of the same document, expect the same answer: a plain repeat
                    shown = replace(finding, check=audit_mod.EXACT_DUPLICATES)
            flag = _flag_for(shown, item_id, others, evalset)
            if flag is None:
                continue
            if finding.check in (audit_mod.CONFLICTING, audit_mod.EXACT_DUPLICATES) and item_id in verdicts:
                flag = Flag(flag.check, flag.severity, flag.reason + verdicts[item_id], flag.related_ids)
            add_flag(flags, item_id, flag)


def _same_source(evalset: EvalSet, item_id: str, others: tuple[str, ...]) -> tuple[str, ...]:
    """The items of ``others`` not asked of other documents than ``item_id`` (see asked_of_other_documents)."""
    item = evalset.get(item_id)
    if item is None:
        return others
    kept = []
    for other_id in others:
        other = evalset.get(other_id)
        if other is None or not asked_of_other_documents(item, other):
            kept.append(other_id)
    return tuple(kept)


def _answers_differ(evalset: EvalSet, item_id: str, others: tuple[str, ...]) -> bool:
    """Whether any of ``others`` expects another answer than ``item_id`` (case and spacing aside)."""

    def answer(key: str) -> str | None:
        item = evalset.get(key)
        return None if item is None or item.answer is None else item.answer.strip().lower()

    mine = answer(item_id)
    return any(answer(other) != mine for other in others)


def _flag_for(finding: Finding, item_id: str, others: tuple[str, ...], evalset: EvalSet) -> Flag | None:
    check = finding.check
    evidence = finding.evidence
    if check == audit_mod.CONFLICTING:
        reason = f"asks the same question as {ids_text(others)} but expects a different answer; decide which is right"
        return Flag(check, SEVERITY[check], reason, others)
    if check == audit_mod.EXACT_DUPLICATES:
        item = evalset.get(item_id)
        same = "with the same expected answer" if item is not None and item.answer is not None else "(no expected answers)"
        reason = f"the same question as {ids_text(others)} {same}; it is counted {len(others) + 1} times"
        return Flag(EXACT_DUPLICATE, SEVERITY[EXACT_DUPLICATE], reason, others)
    if check == audit_mod.WEAK_ANSWER:
        item = evalset.get(item_id)
        if item is not None and item.answer is None:
            reason = "no expected answer, unlike other items in the set"
        else:
            count = evidence.get("meaningful_tokens", 0)
            reason = (
                f"the expected answer has {count} content word{'' if count == 1 else 's'} "
                f"(the audit wants {evidence.get('minimum')}); grading it is brittle"
            )
        return Flag(check, SEVERITY[check], reason)
    if check == audit_mod.AMBIGUOUS:
        return Flag(check, SEVERITY[check], finding.detail)
    if check == audit_mod.OVER_EASY:
        return Flag(check, SEVERITY[check], f"{finding.detail}: the answer may just repeat the question")
    if check == audit_mod.CATEGORY_COVERAGE:
        category = str(evidence.get("category"))
        count = evidence.get("count")
        reason = f"its category {category!r} has only {count} question{'' if count == 1 else 's'}; a per-category score would be noise"
        return Flag(check, SEVERITY[check], reason, others)
    return Flag(check, Severity.LOW, finding.detail, others)

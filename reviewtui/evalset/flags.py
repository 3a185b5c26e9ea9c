"""Per-item flags for the reviewer: every problem found on each question, with an honest severity.

:func:`scan_flags` runs every filter on *every* item (not only on the survivors
of the chain, so a question removed as too short is still checked for a dangling
pronoun), the golden-set audit, and the type heuristic, and returns:

* ``flags``: item id → list of :class:`~reviewtui.evalset.flag.Flag`, most severe
  first (only items with at least one flag are present; look up with
  :meth:`FlagScan.for_item`);
* ``cautions``: set-level advice (:func:`~reviewtui.evalset.quality.assess`
  warnings, the filter chain's warnings, notes about the checks themselves).

The review app calls it once per set from a worker thread (``progress`` and
``should_stop`` are for that) and then looks flags up per item.

Severities follow how often a flag is right, measured on the real public sets
under ``shared/realdata`` (see :mod:`flag_policy`). A check that fires on a large
share of good questions is LOW so that the pane keeps its meaning; a suggested
type is only ever a HINT. How findings become flags is in :mod:`flag_findings`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from reviewtui.evalset import audit as audit_mod
from reviewtui.evalset.audit import AuditReport, audit, prepare
from reviewtui.evalset.cancel import Progress, ShouldStop, check_stop
from reviewtui.evalset.classify import classify_question
from reviewtui.evalset.filters import (
    DanglingReferenceFilter,
    DuplicateFilter,
    Filter,
    FilterChain,
    FilterPass,
    FilterResult,
    GeneralKnowledgeFilter,
    NonDiscriminatingFilter,
    ShortQuestionFilter,
    UnresolvedEvidenceFilter,
    first_kept_duplicate,
    unchecked_note,
)
from reviewtui.evalset.flag import Flag, Severity, sort_flags
from reviewtui.evalset.flag_findings import add_flag, audit_flags, duplicate_flags, filter_verdicts
from reviewtui.evalset.flag_policy import (
    NO_EVIDENCE,
    NO_EVIDENCE_REASON,
    SEVERITY,
    SUGGESTED_TYPE,
    too_short_is_common,
)
from reviewtui.evalset.io.files import gc_paused
from reviewtui.evalset.model import EvalItem, EvalSet, QuestionType
from reviewtui.evalset.quality import assess
from reviewtui.evalset.simjoin import similar_pairs
from reviewtui.evalset.text import word_set
from reviewtui.evalset.warninglog import WarningLog

__all__ = ["SEVERITY", "FlagScan", "item_flags", "scan_flags", "set_cautions"]  # SEVERITY: from flag_policy


@dataclass(frozen=True)
class FlagScan:
    """The result of one scan: flags per item, set-level cautions, and the reports behind them."""

    flags: Mapping[str, list[Flag]]
    cautions: WarningLog
    audit: AuditReport
    chain: FilterResult
    size: int
    counts: Mapping[str, int] = field(default_factory=dict)

    def for_item(self, item_id: str) -> list[Flag]:
        return self.flags.get(item_id, [])

    def worst(self, item_id: str) -> Severity | None:
        flags = self.flags.get(item_id)
        return flags[0].severity if flags else None

    def flagged(self, at_least: Severity = Severity.LOW) -> list[str]:
        """Ids of items with a flag of at least ``at_least``: worst flag first, then most such flags, then set order."""
        ranked = []
        for item_id, flags in self.flags.items():
            if flags[0].severity >= at_least:
                ranked.append((-flags[0].severity, -sum(f.severity >= at_least for f in flags), item_id))
        ranked.sort(key=lambda entry: entry[:2])
        return [item_id for *_, item_id in ranked]

    def to_dict(self) -> dict[str, list[dict[str, object]]]:
        return {item_id: [flag.to_dict() for flag in flags] for item_id, flags in self.flags.items()}


class _Meter:
    """Progress in work units, and the stop check, in one place.

    Reports at most about 200 times per scan (every half per cent, and at the end),
    so a progress bar in another thread is not flooded with messages.
    """

    def __init__(self, total: int, progress: Progress | None, should_stop: ShouldStop | None) -> None:
        self.total = max(total, 1)
        self.done = 0
        self.reported = 0
        self.step = max(1, self.total // 200)
        self.progress = progress
        self.should_stop = should_stop

    def advance(self, units: int) -> None:
        check_stop(self.should_stop)
        self.done = min(self.total, self.done + units)
        if self.progress is not None and (self.done - self.reported >= self.step or self.done == self.total):
            self.reported = self.done
            self.progress(self.done, self.total)


class _KnownVerdicts(Filter):
    """A filter whose verdict per item was already computed on the whole set."""

    def __init__(self, name: str, reasons: Mapping[str, str]) -> None:
        self.name = name
        self.reasons = reasons

    def check(self, item: EvalItem) -> str | None:
        return self.reasons.get(item.id)


class _KnownPairs(DuplicateFilter):
    """The duplicate filter on a subset, from pairs the join already found on the whole set."""

    def __init__(self, base: DuplicateFilter, items: Sequence[EvalItem], pairs: Sequence[tuple[int, int]], sets: Sequence[frozenset[str]]) -> None:
        super().__init__(base.threshold, base.name)
        self._position = {item.id: k for k, item in enumerate(items)}
        self._pairs = pairs
        self._sets = sets

    def apply(self, items: Sequence[EvalItem], *, should_stop: ShouldStop | None = None) -> FilterPass:
        seq = tuple(items)
        local = {self._position[item.id]: k for k, item in enumerate(seq)}
        pairs = [(local[i], local[j]) for i, j in self._pairs if i in local and j in local]
        return self.apply_pairs(seq, pairs, [self._sets[self._position[item.id]] for item in seq])


def _itemwise_pass(items: Sequence[EvalItem], flt: Filter, should_stop: ShouldStop | None) -> dict[str, str]:
    """Run an itemwise filter's check on every item: {item id: reason}."""
    reasons: dict[str, str] = {}
    if flt.skip_reason() is not None:
        return reasons
    for start in range(0, len(items), 4096):
        for item in items[start : start + 4096]:
            reason = flt.check(item)
            if reason is not None:
                reasons[item.id] = reason
        check_stop(should_stop)
    return reasons


def scan_flags(
    evalset: EvalSet,
    *,
    baseline_scores: Mapping[str, float] | None = None,
    answerer: Callable[[str], str] | None = None,
    category_key: str | None = None,
    progress: Progress | None = None,
    should_stop: ShouldStop | None = None,
    evidence_flags: Mapping[str, Iterable[Flag]] | None = None,
    reviewed_key: str = "reviewed",
    cancelled: ShouldStop | None = None,
) -> FlagScan:
    """Check every item with every filter, the audit and the type heuristic; see the module notes.

    ``evidence_flags`` (item id → flags, e.g. from resolving quotes against a corpus)
    are merged in as given. Raises :class:`~reviewtui.evalset.cancel.ScanCancelled`
    when ``should_stop`` returns True; ``cancelled`` is accepted as another name for it
    (the review app's). Call this once and use both ``flags`` and ``cautions``:
    :func:`item_flags` and :func:`set_cautions` each run the whole scan.
    """
    if should_stop is None:
        should_stop = cancelled
    with gc_paused():
        return _scan(evalset, baseline_scores, answerer, category_key, progress, should_stop, evidence_flags, reviewed_key)


def _scan(
    evalset: EvalSet,
    baseline_scores: Mapping[str, float] | None,
    answerer: Callable[[str], str] | None,
    category_key: str | None,
    progress: Progress | None,
    should_stop: ShouldStop | None,
    evidence_flags: Mapping[str, Iterable[Flag]] | None,
    reviewed_key: str,
) -> FlagScan:
    items = evalset.items
    n = len(items)
    meter = _Meter(n * (6 if answerer is not None else 5), progress, should_stop)
    flags: dict[str, list[Flag]] = {}
    check_stop(should_stop)

    # 1. Itemwise filters, on every item.
    short, dangling = ShortQuestionFilter(), DanglingReferenceFilter()
    nondisc = NonDiscriminatingFilter(baseline_scores=baseline_scores or {})
    unresolved = UnresolvedEvidenceFilter()
    reasons: dict[str, dict[str, str]] = {}
    for flt in (short, dangling, nondisc):
        reasons[flt.name] = _itemwise_pass(items, flt, should_stop)
    unresolved_pass = unresolved.apply(items, should_stop=should_stop)
    reasons[unresolved.name] = {r.item_id: r.reason for r in unresolved_pass.rejected}
    meter.advance(n)

    general = GeneralKnowledgeFilter(answerer=_remembering(answerer) if answerer is not None else None)
    unchecked_by_model = 0
    if answerer is not None:
        reasons[general.name] = {}
        for start in range(0, n, 8):
            for item in items[start : start + 8]:
                checked, reason = general.verdict(item)
                unchecked_by_model += not checked
                if reason is not None:
                    reasons[general.name][item.id] = reason
            meter.advance(len(items[start : start + 8]))
    if any(item.gold or item.anchors for item in items):
        for item in items:
            if not (item.gold or item.anchors) and item.qtype != QuestionType.UNANSWERABLE:
                add_flag(flags, item.id, Flag(NO_EVIDENCE, SEVERITY[NO_EVIDENCE], NO_EVIDENCE_REASON))
    severity = dict(SEVERITY)
    if too_short_is_common(len(reasons[short.name]), n):
        severity[short.name] = Severity.LOW
    for name, found in reasons.items():
        for item_id, reason in found.items():
            add_flag(flags, item_id, Flag(name, severity[name], reason))

    # 2. Near-duplicates: every pair (word overlap, as the filter sees it), and the filter's own verdict.
    duplicate = DuplicateFilter()
    sets = [word_set(item.question) for item in items]
    word_pairs = similar_pairs(sets, duplicate.threshold, should_stop=should_stop)
    check_stop(should_stop)
    meter.advance(n)

    # 3. The audit (its near-duplicate pairs use the audit's content tokens).
    prepared = prepare(items)
    report = audit(evalset, category_key=category_key, prepared=prepared, should_stop=should_stop)
    meter.advance(n)
    dropped = first_kept_duplicate(word_pairs)
    duplicate_flags(flags, items, sets, word_pairs, dropped, report, prepared)
    audit_flags(flags, report, evalset, filter_verdicts(items, dropped))

    # 4. Suggested types. One shared (immutable) Flag per (label, suggestion): there are only a few dozen.
    hints: dict[tuple[str | None, str], Flag] = {}
    for start in range(0, n, 4096):
        for item in items[start : start + 4096]:
            qtype = item.qtype
            if qtype is not None and (qtype not in QuestionType.ALL or qtype == QuestionType.UNANSWERABLE):
                continue  # a custom category the heuristic does not know, or a type wording cannot show
            suggested = classify_question(item.question)
            if suggested != qtype:
                hint = hints.get((qtype, suggested))
                if hint is None:
                    hint = hints[(qtype, suggested)] = _type_hint(qtype, suggested)
                add_flag(flags, item.id, hint)
        check_stop(should_stop)
    meter.advance(n)

    for item_id, extra in (evidence_flags or {}).items():
        extra = list(extra)
        if any(flag.severity >= Severity.HIGH for flag in extra) and item_id in flags:
            # The evidence check says which quote is missing; the filter's flag would only repeat it.
            flags[item_id] = [f for f in flags[item_id] if f.check != unresolved.name]
        for flag in extra:
            add_flag(flags, item_id, flag)

    # 5. The chain as it would run (survivors only), from the verdicts above, for its warnings.
    chain = FilterChain(
        [
            _KnownVerdicts(short.name, reasons[short.name]),
            _KnownVerdicts(dangling.name, reasons[dangling.name]),
            unresolved,
            _KnownPairs(duplicate, items, word_pairs, sets),
            nondisc if nondisc.skip_reason() else _KnownVerdicts(nondisc.name, reasons[nondisc.name]),
            general if answerer is None else _KnownVerdicts(general.name, reasons[general.name]),
        ]
    )
    chain_result = chain.run(evalset, should_stop=should_stop)
    if answerer is not None:
        note = unchecked_note(general.name, unchecked_by_model, n)
        if note:
            chain_result.warnings.info("evalset", note)
    meter.advance(n)

    ordered = {item.id: sort_flags(flags[item.id]) for item in items if item.id in flags}
    counts: dict[str, int] = {}
    for item_flags_ in ordered.values():
        for check in {f.check for f in item_flags_}:
            counts[check] = counts.get(check, 0) + 1
    cautions = WarningLog()
    cautions.extend(assess(evalset, baseline_scores=baseline_scores, reviewed_key=reviewed_key).warnings())
    cautions.extend(chain_result.warnings)
    _check_notes(cautions, evalset, report, prepared, counts)
    return FlagScan(ordered, cautions, report, chain_result, n, counts)


def _type_hint(qtype: str | None, suggested: str) -> Flag:
    reason = (
        f"no type yet; the wording reads like {suggested!r}"
        if qtype is None
        else f"labelled {qtype!r}, but the wording reads like {suggested!r} (a regex guess)"
    )
    return Flag(SUGGESTED_TYPE, SEVERITY[SUGGESTED_TYPE], reason)


def _remembering(answerer: Callable[[str], str]) -> Callable[[str], str]:
    """Ask the model once per distinct question."""
    replies: dict[str, str] = {}

    def answer(question: str) -> str:
        reply = replies.get(question)
        if reply is None:
            reply = replies[question] = answerer(question)
        return reply

    return answer


def _check_notes(cautions: WarningLog, evalset: EvalSet, report: AuditReport, prepared: Any, counts: Mapping[str, int]) -> None:
    """Set-level notes that explain the flags, so a reader knows how far to trust them."""
    n = len(evalset)
    if not n:
        return
    with_answer = sum(1 for item in evalset.items if item.answer is not None)
    weak = len(report.of_check(audit_mod.WEAK_ANSWER))
    if with_answer and weak * 2 > with_answer:
        cautions.info(
            "audit",
            f"{weak} of {with_answer} expected answers have fewer than {report.config.min_expected_words} content words. "
            f"This set uses short answers, which the weak-answer check was not made for; its flags are LOW",
        )
    short = counts.get("too-short", 0)
    if too_short_is_common(short, n):
        cautions.info(
            "audit",
            f"{short} of {n} questions have fewer than 4 words; this looks like a keyword-query set, so too-short "
            f"flags are LOW here",
        )
    no_tokens = sum(1 for tokens in prepared.question_tokens if not tokens)
    unreadable_pairs = sum(1 for f in report.of_check(audit_mod.NEAR_DUPLICATES) if f.evidence.get("no_content_tokens"))
    if unreadable_pairs:
        cautions.caution(
            "audit",
            f"{no_tokens} of {n} questions have no ASCII content word (other scripts, or only common words). The audit's "
            f"overlap checks cannot read them, so it counts them as duplicates of each other; those flags are LOW",
        )
    if report.failed:
        conflicts = len(report.of_check(audit_mod.CONFLICTING))
        cautions.caution(
            "audit",
            f"{conflicts} question{' is' if conflicts == 1 else 's are'} asked more than once with different expected "
            f"answers; scores on {'it' if conflicts == 1 else 'them'} are meaningless until one answer is chosen",
        )


def item_flags(evalset: EvalSet, **options: Any) -> dict[str, list[Flag]]:
    """Flags per item id (only flagged items); same options as :func:`scan_flags`."""
    return dict(scan_flags(evalset, **options).flags)


def set_cautions(evalset: EvalSet, **options: Any) -> WarningLog:
    """Set-level cautions (assess, filter chain, notes on the checks); same options as :func:`scan_flags`.

    Runs the whole scan: when flags are needed too, call :func:`scan_flags` once and use both halves.
    """
    return scan_flags(evalset, **options).cautions

"""Per-item flags for the reviewer: every problem found on each question, with an honest severity.

:func:`scan_flags` runs every filter on *every* item (not only on the survivors
of the chain, so a question removed as too short is still checked for a dangling
pronoun), the golden-set audit, and the type heuristic, and returns:

* ``flags``: item id → list of :class:`~reviewtui.evalset.model.flag.Flag`, most severe
  first (only items with at least one flag are present; look up with
  :meth:`FlagScan.for_item`);
* ``cautions``: set-level advice (:func:`~reviewtui.evalset.checks.quality.assess`
  warnings, the filter chain's warnings, notes about the checks themselves).

The review app calls it once per set, away from the keys (``progress`` and
``should_stop`` are for that), and then looks flags up per item. The work is in
:mod:`.scan_parts`, in pieces that need nothing from each other, so that on a large
set both similarity joins and the audit run in a forked child on a second core
while this process runs the filters and the type guesses (see :func:`scan_flags`).

Severities follow how often a flag is right, measured on the real public sets
under ``shared/realdata``; each check registers its severity next to its logic (:mod:`.registry`). A check that fires on a large
share of good questions is LOW so that the pane keeps its meaning; a suggested
type is only ever a HINT. How findings become flags is in :mod:`.findings`.
"""

from __future__ import annotations

import mmap
import os
from array import array
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Hashable, ItemsView, Iterable, Iterator, Mapping, Sequence, ValuesView
from copy import copy
from dataclasses import dataclass, field, replace
from functools import cached_property
from operator import attrgetter
from typing import Any

from reviewtui.evalset.checks import audit as audit_mod
from reviewtui.evalset.checks.alike_ids import alike_ids
from reviewtui.evalset.checks.audit import AuditReport, Finding, FindingTable
from reviewtui.evalset.checks.classify import guess_confidence
from reviewtui.evalset.checks.filters import MIN_QUESTION_WORDS, FilterResult
from reviewtui.evalset.checks.findings import (
    PARTNERS_SHOWN,
    DefaultVerdicts,
    NearDuplicateFlags,
    NearDuplicateLinks,
    PiecedFlag,
    add_one,
    at_severity,
    audit_flags,
    filter_verdicts,
    listed,
)
from reviewtui.evalset.checks.looked_up import lookup_speaks_for_cautions, lookup_speaks_for_quotes
from reviewtui.evalset.checks.policy import (
    EXACT_DUPLICATE,
    NEAR_DUPLICATE,
    SEVERITY,
    SUGGESTED_TYPE,
    reads_as_statement,
    too_short_is_common,
)
from reviewtui.evalset.checks.quality import assess
from reviewtui.evalset.checks.registry import REVIEW, checks, profile_severities
from reviewtui.evalset.checks.review_filters import (
    DROPPED,
    KEPT,
    KEPT_ANOTHER_ANSWER,
    KEPT_OTHER_DOCUMENTS,
    REMOVED,
    judge_copies,
    review_cautions,
)
from reviewtui.evalset.checks.same_evidence import SAME_EVIDENCE, same_evidence_flags, same_evidence_groups
from reviewtui.evalset.checks.scan_parts import (
    AuditHalf,
    FilterHalf,
    Meter,
    audit_half,
    filter_half,
    question_forms,
    word_groups,
)
from reviewtui.evalset.checks.simgroups import SimilarGroups, index_kind
from reviewtui.evalset.checks.warninglog import WarningLog
from reviewtui.evalset.jobs.cancel import Progress, ShouldStop, check_stop
from reviewtui.evalset.jobs.channel import Sender, Spooled, WorkerEnded, WorkerError, out_of_room
from reviewtui.evalset.jobs.collector import gc_paused, return_freed_memory
from reviewtui.evalset.jobs.fork import ForkedJob, can_fork
from reviewtui.evalset.model.flag import Flag, Severity
from reviewtui.evalset.model.items import EvalItem, EvalSet, QuestionType
from reviewtui.evalset.text.counts import count, plural
from reviewtui.evalset.text.words import TokenRows, content_tokens, how_written_words_count, script_tokens, words, written_words

__all__ = ["SEVERITY", "FlagScan", "FlagTable", "PrewrittenFindings", "item_flags", "scan_flags", "set_cautions"]  # SEVERITY: from policy

#: What ``scan_flags(findings_json=...)`` is given: the audit's report and the profile -> a report's findings, as bytes.
FindingsWriter = Callable[[AuditReport, str], Iterable[bytes]]


@dataclass(frozen=True)
class PrewrittenFindings:
    """The findings as a report writes them, made by the scan's child (see ``scan_flags(findings_json=...)``).

    ``findings`` are this process's findings they were made from, so that a report of
    another audit (or of the same one weighed for another profile) does not take them.
    """

    findings: Sequence[Finding]
    profile: str
    spooled: Spooled = field(repr=False)

    def chunks(self) -> Iterator[bytes]:
        return self.spooled.chunks()


@dataclass(frozen=True)
class FlagScan:
    """The result of one scan: flags per item, set-level cautions, and the reports behind them.

    ``chain`` (the documented chain's result, survivors only) is built when first read: the
    scan itself needs only its cautions, which are in ``cautions`` already.
    """

    flags: Mapping[str, list[Flag]]
    cautions: WarningLog
    audit: AuditReport
    replay_chain: Callable[[], FilterResult] = field(repr=False, compare=False)
    size: int
    counts: Mapping[str, int] = field(default_factory=dict)
    profile: str = REVIEW  # what the flags weigh (see scan_flags)
    findings_json: PrewrittenFindings | None = field(default=None, repr=False, compare=False)

    @cached_property
    def chain(self) -> FilterResult:
        return self.replay_chain()

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
        return dict(self.dicts())

    def dicts(self) -> Iterator[tuple[str, list[dict[str, object]]]]:
        """(item id, its flags as dicts), one item at a time, in set order."""
        # Most flags are shared: one object per distinct reason (see filter_half), so each is made a dict once.
        # But not all: where each item's flag is its own (a near- or exact duplicate naming its partners), a
        # dict kept per flag held all of them until the last item was written. What is kept is bounded, and a
        # shared flag dropped with the rest is made again the next time it is met.
        # A near-duplicate flag is its item's own, and a FlagTable makes it anew each time it is read: it is not
        # kept, and the flags kept are held with their dicts, so that no id is another flag's by then.
        made: dict[int, tuple[Flag, dict[str, object]]] = {}
        for item_id, flags in self.flags.items():
            listed = []
            if len(made) > _DICTS_KEPT:
                made.clear()
            for flag in flags:
                if type(flag) is PiecedFlag:
                    listed.append(flag.to_dict())
                    continue
                found = made.get(id(flag))
                if found is None:
                    found = made[id(flag)] = (flag, flag.to_dict())
                listed.append(found[1])
            yield item_id, listed


_DICTS_KEPT = 4096  # flags' dicts kept for reuse while a report is written (see FlagScan.dicts)

#: Flags that name an item's repeats: a pair one of these names is not named again as same-evidence.
DUPLICATE_CHECKS = frozenset({EXACT_DUPLICATE, NEAR_DUPLICATE, audit_mod.EXACT_DUPLICATES, audit_mod.NEAR_DUPLICATES})

PARALLEL_FROM = 2_000  # below this a scan takes well under 0.1 s, and a fork saves nothing


@gc_paused()  # hundreds of thousands of small flags, lists and sets, none of them cyclic
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
    workers: int | None = None,
    profile: str = REVIEW,
    findings_json: FindingsWriter | None = None,
) -> FlagScan:
    """Check every item with every filter, the audit and the type heuristic; see the module notes.

    ``profile`` says what each flag weighs: ``"review"`` (the default, what the app and the
    commands show: a check not precise enough on labelled real items is a hint) or
    ``"goldensetauditor"`` (every check at the weight it has in that tool's terms).

    ``evidence_flags`` (item id → flags, e.g. from resolving quotes against a corpus)
    are merged in as given. Given at all, even empty, they say that every quote was looked up: the
    lookup then speaks for the quotes, and the unresolved-evidence flags and note are left out (see
    checks.looked_up), as the review app leaves them out with a corpus open.
    Raises :class:`~reviewtui.evalset.jobs.cancel.ScanCancelled` when ``should_stop`` returns True;
    ``cancelled`` is accepted as another name for it (the review app's). Call this once and use both ``flags`` and ``cautions``:
    :func:`item_flags` and :func:`set_cautions` each run the whole scan.

    ``workers=2`` runs the near-duplicate join and the audit in a forked child on a
    second core, with numpy, while this process runs the filters and the type
    guesses; ``1`` runs all of it here, without numpy. The default is two for sets of at least ``PARALLEL_FROM``
    items. The result is the same either way, and two quietly become one where
    forking is not possible or not safe (no ``os.fork``, or other threads running in
    this process). A failure in the child is raised here as
    :class:`~reviewtui.evalset.jobs.fork.WorkerError`; the child never outlives the call.

    ``findings_json(report, profile)``: how a report writes the audit's findings. When the
    work is split in two, the child writes them so from its own audit, once everything else
    it does is sent, while this process merges the flags; they come back in
    ``FlagScan.findings_json``, for the report to copy rather than make again on one core
    (see :func:`~reviewtui.evalset.checks.report.to_json_chunks`). Otherwise, or when the child
    could not write them (a full temporary folder), that is None.
    """
    weights = profile_severities(profile)  # checked first: an unknown profile is refused before the work
    every_script = profile == REVIEW  # the tool's own profile reads ASCII words only, as the tool does
    same_evidence = any(check.name == SAME_EVIDENCE for check in checks(profile=profile))
    scan = _scan(evalset, baseline_scores, answerer, category_key, progress, should_stop or cancelled,
                 evidence_flags, reviewed_key, workers, every_script, same_evidence, weights, profile, findings_json)
    return _short_statements_as_hints(scan, evalset) if profile == REVIEW else scan


#: Added to a too-short flag the review profile keeps as a hint (see reads_as_statement).
SHORT_STATEMENT_NOTE = "; it reads as a whole statement (a claim to verify), and a claim can be short"
#: Added to a too-short flag on a set of keyword queries, which the review profile keeps as a hint.
KEYWORD_SET_NOTE = "; short is this set's style (keyword queries), so this is a hint"
TOO_SHORT = "too-short"


#: Begins what is added to a too-short flag on a question long enough once its words are counted as its
#: language writes them (see _written_words_note).
WRITTEN_WORDS_NOTE = "; counted as its language writes words"


def _written_words_note(question: str, words: int) -> str:
    """The note, with the example of the question's own script: a French question was told how Arabic counts."""
    return f"{WRITTEN_WORDS_NOTE} ({how_written_words_count(question)}), it has {words}: long enough, so this is a hint"


def weighed_for_its_wording(flag: Flag) -> bool:
    """Whether the review profile weighed ``flag`` for the item's own wording (a short claim, a question
    short only between its spaces), not for the whole set: a recheck after an edit decides such a weight again."""
    return flag.reason.endswith(SHORT_STATEMENT_NOTE) or WRITTEN_WORDS_NOTE in flag.reason


def _short_statements_as_hints(scan: FlagScan, evalset: EvalSet) -> FlagScan:
    """The review profile: a too-short flag weighs as a hint, and says why, on a short whole statement,
    on a question long enough once its words are counted as its language writes them, and on every
    item of a set of keyword queries (where short is the set's style, not an item's fault)."""
    changed: dict[str, list[Flag]] = {}
    flagged = scan.counts.get(TOO_SHORT)
    if not flagged:
        return scan
    keyword_set = too_short_is_common(flagged, len(evalset))
    hint = Severity.HINT

    def weighs_more(flag: Flag) -> bool:
        return flag.check == TOO_SHORT and flag.severity > hint

    # Only the items with such a flag: a table of the scan's (most items') finds them by their lists' patterns.
    shown = scan.flags.flagged_by(weighs_more) if isinstance(scan.flags, FlagTable) else scan.flags.items()
    for item_id, found in shown:
        for flag in found:  # a plain loop: a generator per flagged item cost more than the looking
            if flag.check == TOO_SHORT and flag.severity > hint:
                break
        else:
            continue
        item = evalset.get(item_id)
        if item is None:
            continue
        if keyword_set:
            note = KEYWORD_SET_NOTE
        elif reads_as_statement(item.question):
            note = SHORT_STATEMENT_NOTE
        elif (written := written_words(item.question)) >= MIN_QUESTION_WORDS:
            note = _written_words_note(item.question, written)
        else:
            continue
        changed[item_id] = sorted(
            (
                Flag(flag.check, Severity.HINT, flag.reason + note, flag.related_ids)
                if flag.check == TOO_SHORT and flag.severity > Severity.HINT
                else flag
                for flag in found
            ),
            key=_SEVERITY_OF,
            reverse=True,
        )
    if not changed:
        return scan
    flags = scan.flags.changed(changed) if isinstance(scan.flags, FlagTable) else {**scan.flags, **changed}
    # A flag that weighs less now may sort after another check of its item: counts go in order of first appearance.
    # Each item keeps the checks it had, so each count stands; only their order is found again, walking the set
    # until every check has appeared (on most sets within its first items).
    order: dict[str, None] = {}
    for found in flags.values():
        for flag in found:
            order.setdefault(flag.check)
        if len(order) == len(scan.counts):
            break
    return replace(scan, flags=flags, counts={check: scan.counts[check] for check in order})


def _reweighed(flags: list[Flag], weights: Mapping[str, tuple[Severity, Severity]], made: dict[int, Flag]) -> list[Flag]:
    """``flags`` (sorted, the merge's own list) with each flag at its weight in the profile, in place;
    most severe first again where one changed.

    Most flags are shared by many items (one weak-answer flag per distinct reason): each is
    reweighed once, through ``made`` (by the id of the flag it replaces), and stays shared, so
    the report makes one dict of it, not one per item. The list is sorted again only when a
    weight changed, and stably: ties keep the order the list had.
    """
    changed = False
    for at, flag in enumerate(flags):
        weight = weights.get(flag.check)
        if weight is None or flag.severity != weight[0]:
            continue
        flags[at] = _reweighed_one(flag, weight[1], made)
        changed = True
    if changed:
        flags.sort(key=_SEVERITY_OF, reverse=True)
    return flags


def _reweighed_one(flag: Flag, severity: Severity, made: dict[int, Flag]) -> Flag:
    """``flag`` at ``severity``, made once per flag it replaces (see _reweighed)."""
    if type(flag) is PiecedFlag:
        # An item's own near-duplicate flag, made for the merge and let go after it: its id may be another's next.
        return at_severity(flag, severity)
    new = made.get(id(flag))
    if new is None:
        new = made[id(flag)] = at_severity(flag, severity)
    return new


def _scan(
    evalset: EvalSet,
    baseline_scores: Mapping[str, float] | None,
    answerer: Callable[[str], str] | None,
    category_key: str | None,
    progress: Progress | None,
    should_stop: ShouldStop | None,
    evidence_flags: Mapping[str, Iterable[Flag]] | None,
    reviewed_key: str,
    workers: int | None,
    every_script: bool = False,
    same_evidence: bool = False,
    weights: Mapping[str, tuple[Severity, Severity]] | None = None,
    profile: str = REVIEW,
    findings_json: FindingsWriter | None = None,
) -> FlagScan:
    if workers is None:
        workers = 2 if len(evalset) >= PARALLEL_FROM else 1
    parallel = workers > 1 and len(evalset) > 0 and can_fork()
    n = len(evalset)
    meter = Meter(n * (6 if answerer is not None else 5), progress, should_stop)
    check_stop(should_stop)
    evidence = {item_id: list(extra) for item_id, extra in (evidence_flags or {}).items()}
    looked_up = evidence_flags is not None

    def assessed_here() -> WarningLog:
        quality = assess(evalset, baseline_scores=baseline_scores, reviewed_key=reviewed_key, text_markers=True)
        return quality.warnings(say_skipped=True)

    # In the review profile the cautions about what filtering leaves count what `reviewtui filter` removes by
    # default, the review chain's work, not the documented chain's (one number per fact). A model to ask would be
    # asked again by that chain: then the documented chain's cautions, which reuse its answers, stand. Only the
    # cautions shown are made: the documented chain's replay costs this process a pass over the set.
    chain_cautions: Callable[..., WarningLog] | None = None
    if profile == REVIEW and answerer is None:

        def chain_cautions(mine: FilterHalf | None = None, default: _DefaultTable | None = None) -> WarningLog:
            # This process has the too-short reasons from the wording checks (``mine``), and the items whose words
            # another asks in the same order (``default``); the child finds them again.
            short = mine.verdicts.reasons.get(TOO_SHORT) if mine is not None else None
            repeats = default.asked() if default is not None else None
            return review_cautions(
                evalset, baseline_scores=baseline_scores, should_stop=should_stop, short_reasons=short, repeats=repeats
            )

    job = told = None
    if parallel:
        told = mmap.mmap(-1, _TOLD_SIZE)  # shared with the child (see _start_child)
        try:
            job = _start_child(evalset, category_key, told, every_script, same_evidence, chain_cautions, profile, findings_json)
            if job is None and findings_json is not None:
                # No temporary file for the findings (no usable temporary folder), or no process: the split is worth
                # more than the child's head start on the report, so it is tried again without it.
                findings_json = None
                job = _start_child(evalset, category_key, told, every_script, same_evidence, chain_cautions, profile)
        finally:
            if job is None:
                told.close()
    if job is not None and told is not None:
        with job, told:
            mine = filter_half(
                evalset, baseline_scores, answerer, meter, lambda: job.receive(should_stop), every_script=every_script
            )
            default = _default_verdicts(mine, every_script)
            # While the child finishes the audit:
            links = _links(evalset, mine, every_script)
            assessed = assessed_here()
            documented = mine.chain.outline(should_stop) if chain_cautions is None else None
            links.prepare()
            # The audit's join comes first, early in the audit. While the rest of the audit is not in, this
            # process works out the items' near-duplicate flags from both joins, then the review chain's
            # cautions: only work done before the audit is in shortens the scan, for from then on this process
            # alone is busy (the merge, the report). The cautions made here are told to the child, which then
            # sends None for them. Not the same-evidence groups: the child makes them first thing after the
            # audit, and they are in before the merge reaches them; made here too, they made this process late
            # for the audit. With the audit in already (where this process is the longer path) the links are
            # made before it is taken in all the same: the flags' working tables and the audit's join are let go
            # before its findings come in, instead of being held beside them.
            joined = job.ready()
            audit_groups: SimilarGroups | None = job.receive(should_stop) if joined else None
            audit_in = joined and job.ready()
            linked: _Linked | None = None
            if joined and not audit_in:
                linked = _link(mine, links, audit_groups, every_script, default)
                audit_in = job.ready()
            cautions_here = documented
            if cautions_here is None and chain_cautions is not None and not audit_in:
                told[_CAUTIONS_MADE] = 1
                cautions_here = chain_cautions(mine, default)
            if not joined:
                audit_groups = job.receive(should_stop)
            if linked is None:
                linked = _link(mine, links, audit_groups, every_script, default)
            audit_groups = None  # its flags are made: the merge reads it no more
            theirs: AuditHalf = replace(job.receive(should_stop), groups=None)
            meter.advance(n)
            _own_ids(theirs.report, evalset.items, mine.position)

            # What the child sends after the audit, each read when the merge comes to it (the child makes them
            # while this process takes in the audit): the same-evidence groups, then the cautions. The audit is
            # all that had to come from the child: should it end before sending these (killed for memory while
            # grouping), this process makes what it has not got itself, and reads nothing more of it.
            ended: list[WorkerEnded] = []

            def after_audit() -> Any:
                if not ended:
                    try:
                        return job.receive(should_stop)
                    except WorkerEnded as error:
                        ended.append(error)
                return _NOT_SENT

            def same_groups() -> Sequence[list[int]]:
                groups = after_audit()
                if groups is _NOT_SENT:
                    return same_evidence_groups(evalset.items) if same_evidence else []
                assert isinstance(groups, list)
                return groups

            def cautions_left() -> WarningLog | None:
                sent = after_audit()
                if cautions_here is not None:
                    return cautions_here
                if sent is _NOT_SENT:
                    return chain_cautions(mine, default) if chain_cautions is not None else None
                assert sent is None or isinstance(sent, WarningLog)
                return sent

            # Merged before leaving the block: the child's exit (unmapping a large heap) overlaps with it,
            # and so does the child's writing of the findings.
            scan = _merge(
                evalset, mine, links, theirs, assessed, evidence, every_script, same_groups, should_stop, weights, profile,
                cautions_left, linked, looked_up=looked_up,
            )
            if findings_json is None or ended:
                return scan
            try:
                written: Spooled = job.receive(should_stop)
            except WorkerError as error:
                # The scan is whole by now. A temporary folder out of space, or the child killed while writing,
                # costs only the child's head start on the report, which then writes the findings itself; any
                # other failure of the writer is a fault in it, and is raised.
                if not out_of_room(error):
                    raise
                return scan
            return replace(scan, findings_json=PrewrittenFindings(theirs.report.findings, profile, written))

    tokens = TokenRows()  # the audit's tokens of each question, from the wording checks' split
    mine = filter_half(evalset, baseline_scores, answerer, meter, tokens=tokens, every_script=every_script)
    default = _default_verdicts(mine, every_script)
    assessed = assessed_here()
    links = _links(evalset, mine, every_script)
    theirs = audit_half(evalset, category_key, should_stop, tokens, every_script=every_script)
    same = same_evidence_groups(evalset.items) if same_evidence else []
    left = chain_cautions(mine, default) if chain_cautions is not None else mine.chain.outline(should_stop)
    meter.advance(n)
    return _merge(
        evalset, mine, links, theirs, assessed, evidence, every_script, lambda: same, should_stop, weights, profile, lambda: left,
        default=default, looked_up=looked_up,
    )


#: Bytes of the memory the scan shares with its child, and which byte says what (see _start_child).
_TOLD_SIZE = 1
_CAUTIONS_MADE = 0
#: What the scan reads of a child that ended before sending a result (see _scan).
_NOT_SENT = object()


def _own_ids(report: AuditReport, items: Sequence[EvalItem], position: Mapping[str, int]) -> None:
    """Point each finding the child sent at this process's own id strings, the items' ones.

    Unpickled, every finding names its items with new copies of their ids: at 100k items, 100k
    strings this process already holds. The findings were just made by unpickling and nothing
    else holds them yet, so their ids are set in place (a frozen dataclass refuses only the
    plain assignment), not copied into new findings.
    """
    findings = report.findings
    if isinstance(findings, FindingTable):
        findings.bind(items)  # its one-item findings name items by position
        findings = findings.whole
    get = position.get
    for finding in findings:
        ids = finding.item_ids
        if len(ids) == 1:
            k = get(ids[0])
            if k is not None:
                object.__setattr__(finding, "item_ids", (items[k].id,))
        elif ids:
            shared = tuple(i if (k := get(i)) is None else items[k].id for i in ids)
            object.__setattr__(finding, "item_ids", shared)


def _start_child(
    evalset: EvalSet,
    category_key: str | None,
    told: mmap.mmap,
    every_script: bool = False,
    same_evidence: bool = False,
    chain_cautions: Callable[..., WarningLog] | None = None,
    profile: str = REVIEW,
    findings_json: FindingsWriter | None = None,
) -> ForkedJob | None:
    """Fork the child that sends :func:`word_groups`, the audit's near-duplicate join as soon as the
    audit has made it, the rest of :func:`audit_half` (its ``groups`` None), the same-evidence groups
    (empty unless ``same_evidence``), ``chain_cautions()`` (None without it), then, with
    ``findings_json``, the audit's findings as it writes them, as bytes; None when no process (or,
    with ``findings_json``, no temporary file for the findings) can be made.

    ``told`` is memory the two processes share: a byte set at ``_CAUTIONS_MADE`` says this process
    made the cautions itself, and the child, if it has not begun them, sends None instead, and
    writes the findings that much sooner.

    The child runs both similarity joins, with numpy (``vectorised``): importing numpy starts
    a thread pool, which is harmless in a child that never forks, while this process stays
    free of it and can fork again for the next scan. The same-evidence grouping is done here
    too, right after the audit: the parent, taking in the audit, reaches them in its merge a
    few tenths of a second later, and has work of its own before the audit is in (see _scan).
    """

    def in_child(send: Sender, parent_gone: ShouldStop) -> None:
        # numpy is imported here, first thing, on the path the parent waits for: its BLAS library starts a thread
        # per core as it loads, for matrix work no join does (they sort, count and compare integer arrays). One
        # thread, unless the user asked for more.
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
        tokens = TokenRows()  # the audit's tokens of each question, from the word join's split
        send(word_groups(evalset.items, parent_gone, tokens, vectorised=True, every_script=every_script))
        # Each step's temporaries, given back before the next: the child's peak sets the audit command's.
        return_freed_memory()
        joined: list[bool] = []

        def groups_made(groups: SimilarGroups) -> None:
            send(groups)
            joined.append(True)

        audited = audit_half(
            evalset, category_key, parent_gone, tokens, vectorised=True, every_script=every_script, groups_made=groups_made
        )
        if not joined:  # every audit makes its join first; should one not, the parent still reads a join, then the audit
            send(audited.groups)
        del tokens  # read by the audit alone
        audited = replace(audited, groups=None)  # the join went ahead: let go of before the rest is sent
        report = audited.report
        # Its one-item findings as numbers: they would be the largest thing the parent takes in, at its peak. Kept
        # so here too, for the findings this process writes below: the findings themselves go before the cautions.
        table = FindingTable.of(report.findings, evalset.positions)
        if table is not None:
            table.bind(evalset.items)
            report = replace(report, findings=table)  # type: ignore[arg-type]  # read as the tuple was
            audited = replace(audited, report=report)  # the findings themselves go before it is sent
        del table
        send(audited)  # the table sent unbound (see FindingTable)
        written = report if findings_json is not None else None  # kept only to write its findings below
        del audited, report  # its near-duplicate join is the parent's now
        return_freed_memory()
        # The groups first: the parent's merge reads them before the cautions, which it reads last.
        send(same_evidence_groups(evalset.items) if same_evidence else [])
        send(chain_cautions() if chain_cautions is not None and not told[_CAUTIONS_MADE] else None)
        return_freed_memory()
        if findings_json is not None and written is not None:
            send.send_bytes(findings_json(written, profile))

    job = ForkedJob(in_child, raw_file=findings_json is not None)  # the findings wait in a temporary file, not in memory
    try:
        job.start()
    except OSError:  # out of memory or processes: the caller does it all itself
        return None
    return job


# Each item's flags go in a fixed order: filters, near-duplicates, audit, type hint, evidence; then
# the list is sorted most severe first, ties kept in that order (sort_flags's order: a stable sort
# keeps ties in place under reverse=True too), and then weighed for the profile (see _reweighed).
# While the child is still busy, the near-duplicate reasons from the filter's pairs are worked out, and
# then, from both joins (the audit's comes ahead of the rest of the audit), the near-duplicate flags
# (_link); each item's whole list is built once the audit is in, in one pass over the set: building
# them all before and rebuilding those the audit adds to (most items, on a set of short answers) cost
# more than the wait it filled.


def _links(evalset: EvalSet, mine: FilterHalf, every_script: bool = False) -> NearDuplicateLinks:
    """The near-duplicate links from the filter's word join (the audit's join is added by :func:`_link`)."""
    items = evalset.items
    forms = question_forms(items, every_script=every_script)  # the audit's: a pair it calls one question is no near one
    return NearDuplicateLinks(items, mine.sets, forms, mine.position, mine.word_groups)


def _checks(flags: list[Flag]) -> Iterable[str]:
    """Each check of a flag list once, in the list's (sorted) order.

    Not a set: a set of strings iterates in an order that changes with the hash seed, and
    the counts' order is printed in the JSON report.
    """
    if len(flags) == 2:  # (the merge counts a single flag itself)
        a, b = flags[0].check, flags[1].check
        return (a,) if a == b else (a, b)
    return dict.fromkeys(flag.check for flag in flags)


def _hints(mine: FilterHalf) -> list[Flag | None]:
    """The type-hint flag for each hint code (0: none). Flags are immutable: one per (label, suggestion) will do."""
    return [None, *(_type_hint(qtype, suggested) for qtype, suggested in mine.verdicts.hint_keys)]


def _flag_list(
    own: list[Flag] | None, later: list[Flag] | None, hint: Flag | None, extra: list[Flag] | None, unresolved: str
) -> list[Flag] | None:
    """One item's flags in their order, most severe first. ``own`` and ``later`` are lists the
    merge made for this item alone, so the result is one of them, extended: a new list per item
    would hold every flagged item's list twice until the merge ends."""
    if own:
        flags = own
        if later:
            flags += later
    else:
        flags = later if later is not None else []
    if hint is not None:
        flags.append(hint)
    if extra is not None:
        if any(flag.severity >= Severity.HIGH for flag in extra):
            # The evidence check says which quote is missing; the filter's flag would only repeat it.
            flags = [f for f in flags if f.check != unresolved]
        flags += extra
    if len(flags) > 1:
        flags.sort(key=_SEVERITY_OF, reverse=True)
    return flags or None


@dataclass(frozen=True)
class _Linked:
    """Each item's near-duplicate flag, and the duplicate filter's choices."""

    flags: NearDuplicateFlags
    dropped: Mapping[int, int]  # which copy of a repeated question comes first: the review profile warns the later ones
    # What the documented chain's near-duplicate filter removes, which the flags say: it runs on what the
    # filters before it leave, so the copy a reason says it keeps may be another one than the first.
    chain_dropped: Mapping[int, int]
    # What `reviewtui filter` does by default with each item that shares its word set with another (review profile;
    # see review_filters.judge_copies): the copies the flags say it drops or keeps.
    default: Mapping[str, tuple[str, str]] = field(default_factory=dict)  # a _DefaultTable


class _KeptTable(Mapping[int, int]):
    """{dropped position: the kept position it repeats} (see SimilarGroups.first_kept), as a flat table.

    Held while the near-duplicate flags are made, where the scan's memory peaks: where most items
    are someone's later copy, a dict held an entry and two numbers of their own per item.
    """

    __slots__ = ("_kept", "_size")

    def __init__(self, dropped: Mapping[int, int], positions: int) -> None:
        kept = self._kept = array(index_kind(positions), [-1]) * positions
        for j, i in dropped.items():
            kept[j] = i
        self._size = len(dropped)

    def kept_array(self) -> array:
        """Position -> the kept position it repeats, -1 where it repeats none (a dropped position is one at 0 or more)."""
        return self._kept

    def put(self, position: int, kept: int) -> None:
        if self._kept[position] < 0:
            self._size += 1
        self._kept[position] = kept

    def __getitem__(self, position: int) -> int:
        kept = self._kept[position] if type(position) is int and 0 <= position < len(self._kept) else -1
        if kept < 0:
            raise KeyError(position)
        return kept

    def __contains__(self, position: object) -> bool:
        return type(position) is int and 0 <= position < len(self._kept) and self._kept[position] >= 0

    def get(self, position: int, default: Any = None) -> Any:
        if type(position) is int and 0 <= position < len(self._kept):
            kept = self._kept[position]
            if kept >= 0:
                return kept
        return default

    def __iter__(self) -> Iterator[int]:
        return (j for j, i in enumerate(self._kept) if i >= 0)

    def __len__(self) -> int:
        return self._size


def _link(
    mine: FilterHalf, links: NearDuplicateLinks, groups: SimilarGroups | None, every_script: bool, default: _DefaultTable | None
) -> _Linked:
    """The near-duplicate flags from both joins: the filter's (in ``links``) and the audit's (``groups``); ``default``:
    what `reviewtui filter` does with each copy (review profile; see _default_verdicts)."""
    positions = len(mine.word_groups.group_of)
    dropped = _KeptTable(mine.word_groups.first_kept(), positions)
    chain_dropped = mine.duplicates_dropped(dropped)
    if chain_dropped is not dropped:
        chain_dropped = _KeptTable(chain_dropped, positions)
    flags = NearDuplicateFlags(links.items)
    # The goldensetauditor profile weighs the audit's pairs as the tool weighs their findings.
    links.add_audit_groups(
        groups, script_tokens if every_script else content_tokens, None if every_script else audit_mod.NEAR_PAIR_SEVERITY
    )
    links.symbols_matter = every_script
    default_dropped = default.dropped() if default else None
    # The copies `reviewtui filter` drops that the documented chain removes before it compares copies (a question
    # too short by its spaces, a dangling "this"): that filter does not keep them.
    gone = {
        k: name for k in default_dropped or () if (name := mine.removed_before(mine.chain.evalset.items[k].id)) is not None
    }
    links.flags_into(flags, chain_dropped, default_dropped, gone)
    links.audit = None  # read no more: the caller lets its own hold go before the audit's findings come in
    return _Linked(flags, dropped, chain_dropped, default if default is not None else {})


def _default_verdicts(mine: FilterHalf, every_script: bool, should_stop: ShouldStop | None = None) -> _DefaultTable | None:
    """What `reviewtui filter` does by default with each item whose word set another item has too: only those can ask
    another's words in the same order, all the review chain's duplicate filter removes (see judge_copies).
    None outside the review profile (``every_script``). Made as soon as the filters' half is in: made later, while the
    flags were, the scraps of its working strings stayed under the scan's peak."""
    if not every_script:
        return None
    groups = mine.word_groups
    members = groups.members
    evalset = mine.chain.evalset
    items = evalset.items
    # The items asking another's words in the same order (the only ones that filter compares), in set order: looked
    # for group by group among those sharing their word set, so that a word string per question is never held for all
    # of them (on a set of few words most questions share a word set, and those strings, held under the flags' making,
    # raised the scan's peak).
    found: list[int] = []
    for g in members.shared():  # the groups of more than one item
        group = members[g]
        wordings = [" ".join(words(items[k].question)) for k in group]
        times = Counter(wordings)
        found.extend(k for k, wording in zip(group, wordings) if wording and times[wording] > 1)
    shared = array("l", sorted(found))
    del found
    table = _DefaultTable(evalset.items, mine.position, shared)
    if shared:
        judged = judge_copies(
            evalset, map(items.__getitem__, shared), short_reasons=mine.verdicts.reasons.get(TOO_SHORT), should_stop=should_stop
        )
        for item_id, verdict, other in judged:
            table.put(item_id, verdict, other)
    return table


class _DefaultTable(Mapping[str, tuple[str, str]]):
    """What `reviewtui filter` does by default with each copy (see judge_copies), as numbers per item judged,
    by position: a dict of tuples, or a number per item of the set, held through the flags' making, where the scan's
    memory peaks, cost more than the 4x-the-file goal left on the 20-word set."""

    __slots__ = ("_at", "_items", "_other", "_positions", "_removed_by", "_verdict")

    _VERDICTS = ("", DROPPED, KEPT, KEPT_ANOTHER_ANSWER, KEPT_OTHER_DOCUMENTS, REMOVED)

    def __init__(self, items: Sequence[EvalItem], positions: Mapping[str, int], judged: array | None = None) -> None:
        """``judged``: the positions that may get a verdict, in increasing order."""
        self._items = items
        self._positions = positions
        self._at = judged if judged is not None else array("l")
        self._verdict = bytearray(len(self._at))  # per position judged: an index into _VERDICTS (0: none given)
        self._other = array("l", [-1]) * len(self._at)  # the other item's position (-1: none)
        self._removed_by: dict[int, str] = {}  # position -> the filter that removes it (REMOVED)

    def _index(self, k: int | None) -> int:
        at = self._at
        i = -1 if k is None else bisect_left(at, k)
        return i if 0 <= i < len(at) and at[i] == k and self._verdict[i] else -1

    def put(self, item_id: str, verdict: str, other: str) -> None:
        k = self._positions[item_id]
        i = bisect_left(self._at, k)
        assert i < len(self._at) and self._at[i] == k, "a verdict on an item not judged"
        self._verdict[i] = self._VERDICTS.index(verdict)
        if verdict == REMOVED:
            self._removed_by[k] = other
        elif other:
            self._other[i] = self._positions[other]

    def asked(self) -> frozenset[str]:
        """The ids of the items that may get a verdict: those whose words another item asks in the same order."""
        items = self._items
        return frozenset(items[k].id for k in self._at)

    def dropped(self) -> Mapping[int, int]:
        """{position: the position kept instead} of the copies it drops."""
        code = self._VERDICTS.index(DROPPED)
        return {k: self._other[i] for i, k in enumerate(self._at) if self._verdict[i] == code}

    def __getitem__(self, item_id: str) -> tuple[str, str]:
        k = self._positions.get(item_id)
        i = self._index(k)
        if i < 0:
            raise KeyError(item_id)
        if k in self._removed_by:
            return REMOVED, self._removed_by[k]
        other = self._other[i]
        return self._VERDICTS[self._verdict[i]], "" if other < 0 else self._items[other].id

    def __contains__(self, item_id: object) -> bool:
        return isinstance(item_id, str) and self._index(self._positions.get(item_id)) >= 0

    def __iter__(self) -> Iterator[str]:
        items = self._items
        return (items[k].id for k, verdict in zip(self._at, self._verdict) if verdict)

    def __len__(self) -> int:
        return len(self._verdict) - self._verdict.count(0)


def _merge(
    evalset: EvalSet,
    mine: FilterHalf,
    links: NearDuplicateLinks,
    theirs: AuditHalf,
    assessed: WarningLog,
    evidence: Mapping[str, list[Flag]],
    every_script: bool = False,
    same_evidence: Callable[[], Sequence[list[int]]] | None = None,
    should_stop: ShouldStop | None = None,
    weights: Mapping[str, tuple[Severity, Severity]] | None = None,
    profile: str = REVIEW,
    chain_cautions: Callable[[], WarningLog | None] | None = None,
    linked: _Linked | None = None,
    default: _DefaultTable | None = None,
    looked_up: bool = False,
) -> FlagScan:
    """Every item's flag list, weighed for ``profile``, its counts, and the notes, in one pass over the set.

    ``looked_up``: every quote was looked up in a corpus (see scan_flags' ``evidence_flags``).

    ``same_evidence()``: groups of items with one answer and one evidence (review profile only; None:
    none), called once, after the audit's flags are made.
    ``chain_cautions()``: what filtering leaves, as the profile's chain says it (None, or a call that
    gives None: the documented chain's); called once, after the flags are made.
    ``linked``: :func:`_link`'s result, when it was worked out before the audit was in (None: it is
    worked out here, from the audit's join in ``theirs``, and ``default``, what `reviewtui filter` does with each copy).
    """
    items = evalset.items
    report = theirs.report
    if linked is None:
        linked = _link(mine, links, theirs.groups, every_script, default)
    near, dropped, chain_dropped = linked.flags, linked.dropped, linked.chain_dropped
    # The audit's flags, and the same-evidence ones, each item's after its near-duplicate one (one flag kept bare).
    later: dict[str, Flag | list[Flag]] = {}
    verdicts: Mapping[str, str] = filter_verdicts(items, chain_dropped, mine.position)
    if profile == REVIEW and linked.default:
        # What `reviewtui filter` does with each copy, and the documented filter where it does otherwise.
        verdicts = DefaultVerdicts(linked.default, verdicts, mine.removed_before)  # type: ignore[arg-type]
    audit_flags(later, report, evalset, verdicts, one_kept_bare=True)  # type: ignore[arg-type]
    same = same_evidence() if same_evidence is not None else ()
    if same:
        named = _WithNear(later, near, evalset.positions)
        for item_id, flag in same_evidence_flags(items, same, named, DUPLICATE_CHECKS, should_stop).items():
            add_one(later, item_id, flag)

    hints = _hints(mine)
    # Each item's lists are taken as its flags are kept (in ``table``), so that they are not held twice.
    own, added, extra, unresolved = mine.flags.pop, later.pop, evidence.get, mine.unresolved
    near_flag, near_at = near.flag, near.starts()  # a flag is made only where the table says the item has one
    # Which items the filter drops, read straight from the table's array where it is one: most items are asked.
    dropped_at = dropped.kept_array() if isinstance(dropped, _KeptTable) else None
    reweighed: dict[int, Flag] = {}
    # The first copy of a repeated question, which the filter keeps: in the review profile its copy flags are hints (_as_kept).
    # So may be the earlier of two paraphrases the filter keeps both of (it pairs on words, the flags on content words):
    # any kept item the audit's groups flagged (``audited``) is looked at.
    review = profile == REVIEW
    kept = bytearray(len(items))  # marked per position: a set held an int object per kept item, at the scan's peak
    if review:
        for i in dropped.values():
            if i not in dropped:
                kept[i] = 1
    table = FlagTable(items, evalset.positions, near)
    counts: dict[str, int] = {}  # check -> items it flags, in the order a walk through the set first meets them
    for at, (item, code) in enumerate(zip(items, mine.verdicts.hint_codes)):
        item_id = item.id
        filtered, found = own(item_id, None), added(item_id, None)
        if looked_up and filtered is not None:
            filtered = lookup_speaks_for_quotes(filtered)
        audited = [found] if isinstance(found, Flag) else found  # as listed() makes it
        extras = extra(item_id) if evidence else None
        mine_near = near_flag(at) if near_at[at] >= 0 else None
        if mine_near is not None:
            if audited is None:
                audited = [mine_near]
            else:
                audited.insert(0, mine_near)
        if filtered is None and audited is None and not code and extras is None:
            continue
        if filtered is None and not code and extras is None and audited is not None and len(audited) == 1:
            flags = audited  # one flag of the audit's (a weak answer's, on most items): _flag_list would return it
        else:
            listed_flags = _flag_list(filtered, audited, hints[code], extras, unresolved)
            if listed_flags is None:
                continue
            flags = listed_flags
        # Most items have one flag (a weak answer's, on a set of short answers): the steps below are done
        # inline for them, as each step would do them, without a call apiece.
        one = flags[0] if len(flags) == 1 else None
        if one is not None:
            if weights:
                weight = weights.get(one.check)
                if weight is not None and one.severity == weight[0]:
                    one = flags[0] = _reweighed_one(one, weight[1], reweighed)
        elif weights:
            flags = _reweighed(flags, weights, reweighed)
        if (kept[at] or (review and audited is not None and (dropped_at[at] < 0 if dropped_at is not None else at not in dropped))) and (
            one is None or one.check in _COPY_CHECKS
        ):
            flags = _as_kept(flags, at, dropped, mine.position)
        table.put(at, flags, mine_near)
        if one is not None:
            check = flags[0].check
            counts[check] = counts.get(check, 0) + 1
        else:
            for check in _checks(flags):
                counts[check] = counts.get(check, 0) + 1

    cautions = WarningLog()
    cautions.extend(assessed)
    said = chain_cautions() if chain_cautions is not None else None
    cautions.extend(mine.chain.outline(should_stop) if said is None else said)
    if looked_up:
        cautions.entries = lookup_speaks_for_cautions(cautions.entries)
    _check_notes(cautions, len(items), report, mine.verdicts.with_answer, theirs.no_tokens, counts, profile)
    _alike_ids_note(cautions, evalset)
    table.done()
    return FlagScan(table, cautions, report, mine.chain, len(items), counts, profile)


class _WithNear(Mapping[str, list[Flag]]):
    """What same_evidence_flags reads of the flags made so far: each item's near-duplicate flag, then the audit's."""

    def __init__(self, later: Mapping[str, Flag | list[Flag]], near: NearDuplicateFlags, positions: Mapping[str, int]) -> None:
        self._later, self._near, self._positions = later, near, positions

    def __getitem__(self, item_id: str) -> list[Flag]:
        k = self._positions.get(item_id)
        flag = None if k is None else self._near.flag(k)
        audited = listed(self._later.get(item_id))
        if flag is None and audited is None:
            raise KeyError(item_id)
        return ([] if flag is None else [flag]) + (audited or [])

    def __iter__(self) -> Iterator[str]:
        later, near = self._later, self._near
        return (item_id for item_id, k in self._positions.items() if item_id in later or k in near)

    def __len__(self) -> int:
        return sum(1 for _ in self)


#: In a FlagTable's kept lists, the place of the item's near-duplicate flag (an id is never 0).
_NEAR = 0
#: A FlagTable's severity for an item whose near-duplicate flag weighs as it was made.
_AS_MADE = 255


class FlagTable(Mapping[str, list[Flag]]):
    """Item id -> its flags, most severe first, in set order: what a scan's ``FlagScan.flags`` holds.

    Each item's list is made when it is read, a new list each time. Most flags are shared by many
    items (a weak answer's, one per distinct reason), so most items' lists are one of a few
    patterns, kept once: per item, the number of its pattern. An item's near-duplicate flag is its
    own, and is kept as numbers (:class:`NearDuplicateFlags`) until it is read: the pattern says
    where it goes in the list, and the item, at what severity, when the scan weighed it anew. Where
    every question has partners, a list, a flag, its pieces and its ids per item, all held until
    the report was written, cost more than anything else the scan holds but the items.
    """

    __slots__ = ("_changed", "_index", "_items", "_near", "_pattern", "_patterns", "_positions", "_severity", "_size")

    def __init__(self, items: Sequence[EvalItem], positions: Mapping[str, int], near: NearDuplicateFlags) -> None:
        self._items = items
        self._positions = positions
        self._near = near
        self._pattern = array("i", [-1]) * len(items)  # position -> its pattern; -1: no flag
        self._patterns: list[tuple[Flag | None, ...]] = []  # None: the item's near-duplicate flag
        self._index: dict[int | tuple[int, ...], int] = {}  # a pattern by the ids of its flags, while it is filled
        self._severity = bytearray()  # position -> its near-duplicate flag's severity, where weighed anew
        self._size = 0
        self._changed: Mapping[str, list[Flag]] = {}  # lists given whole, in place of the kept ones (see changed)

    def put(self, k: int, flags: list[Flag], near: Flag | None) -> None:
        """Keep ``flags`` as the item at ``k``'s; ``near``: its near-duplicate flag as made, which ``flags`` may
        hold weighed anew."""
        if near is None:
            # One flag (most items): its id is the key, a tuple of ids only for more (the two are never equal).
            key: int | tuple[int, ...] = id(flags[0]) if len(flags) == 1 else tuple(map(id, flags))
        else:
            pieces = _pieces_of(near)
            key = tuple([_NEAR if flag is near or _pieces_of(flag) is pieces else id(flag) for flag in flags])
            if _NEAR in key:
                weighed = flags[key.index(_NEAR)].severity
                if weighed != near.severity:
                    if not self._severity:
                        self._severity = bytearray([_AS_MADE]) * len(self._items)
                    self._severity[k] = weighed
        index = self._index.get(key)
        if index is None:
            index = self._index[key] = len(self._patterns)
            # The flags themselves are kept with the pattern: while they are, no other object has their ids.
            codes = key if type(key) is tuple else (key,)
            self._patterns.append(tuple([None if code == _NEAR else flag for code, flag in zip(codes, flags)]))
        if self._pattern[k] < 0:
            self._size += 1
        self._pattern[k] = index

    def done(self) -> None:
        """Filled: the patterns are looked up no more."""
        self._index = {}

    @property
    def set_items(self) -> Sequence[EvalItem]:
        """The set's items, in order: the item at each position :meth:`weights_by_position` gives."""
        return self._items

    @property
    def positions(self) -> Mapping[str, int]:
        """The position of each item of the set by its id (the set's own table)."""
        return self._positions

    def _at(self, k: int) -> list[Flag] | None:
        index = self._pattern[k]
        if index < 0:
            return None
        pattern = self._patterns[index]
        flags = list(pattern)
        if None in pattern:
            severity = self._severity[k] if self._severity else _AS_MADE
            near = self._near.flag(k)
            assert near is not None
            flags[pattern.index(None)] = near if severity == _AS_MADE else at_severity(near, _SEVERITIES[severity])
        return flags  # type: ignore[return-value]  # every None is filled

    def __getitem__(self, item_id: str) -> list[Flag]:
        flags = self.get(item_id)
        if flags is None:
            raise KeyError(item_id)
        return flags

    def get(self, item_id: str, default: Any = None) -> Any:
        if self._changed:
            changed = self._changed.get(item_id)
            if changed is not None:
                return changed
        k = self._positions.get(item_id)
        flags = None if k is None else self._at(k)
        return default if flags is None else flags

    def __contains__(self, item_id: object) -> bool:
        k = self._positions.get(item_id) if isinstance(item_id, str) else None
        return k is not None and self._pattern[k] >= 0

    def weights(self) -> Iterator[tuple[str, Sequence[tuple[str, Severity]]]]:
        """(item id, the check and severity of each of its flags, in their order), in set order, without making
        the flags: what the report's counts read of every item."""
        weighed = [tuple(None if flag is None else (flag.check, flag.severity) for flag in pattern) for pattern in self._patterns]
        items, changed, near, severities = self._items, self._changed, self._near, self._severity
        for k, index in enumerate(self._pattern):
            if index < 0:
                continue
            item_id = items[k].id
            if changed and item_id in changed:
                yield item_id, [(flag.check, flag.severity) for flag in changed[item_id]]
                continue
            made = weighed[index]
            if None in made:
                weight = severities[k] if severities else _AS_MADE
                severity = near.severity(k) if weight == _AS_MADE else _SEVERITIES[weight]
                made = tuple((NEAR_DUPLICATE, severity) if entry is None else entry for entry in made)
            yield item_id, made  # type: ignore[misc]

    def weights_by_position(self) -> Iterator[tuple[int, Hashable | None, Sequence[tuple[str, Severity]]]]:
        """(position, a key, the check and severity of each of its flags) of each item with flags, in set order:
        :meth:`weights` by position. Items with equal keys weigh alike (and are given the same tuple): most share
        a pattern, and an item's own near-duplicate flag weighs one of a few severities. The key is None for a
        list given whole (see :meth:`changed`)."""
        weighed = [tuple(None if flag is None else (flag.check, flag.severity) for flag in pattern) for pattern in self._patterns]
        own = [None in made for made in weighed]
        items, changed, near, severities = self._items, self._changed, self._near, self._severity
        with_near: dict[tuple[int, Severity], tuple[tuple[str, Severity], ...]] = {}
        for k, index in enumerate(self._pattern):
            if index < 0:
                continue
            if changed and items[k].id in changed:
                yield k, None, [(flag.check, flag.severity) for flag in changed[items[k].id]]
            elif own[index]:
                weight = severities[k] if severities else _AS_MADE
                key = (index, near.severity(k) if weight == _AS_MADE else _SEVERITIES[weight])
                made = with_near.get(key)
                if made is None:
                    made = with_near[key] = tuple((NEAR_DUPLICATE, key[1]) if entry is None else entry for entry in weighed[index])
                yield k, key, made
            else:
                yield k, index, weighed[index]  # type: ignore[misc]  # no None in it

    def near_severity(self, item_id: str) -> Severity | None:
        """The severity of the item's near-duplicate flag, as weighed (None: it has none), without making its flags."""
        if self._changed:
            changed = self._changed.get(item_id)
            if changed is not None:
                return max((flag.severity for flag in changed if flag.check == NEAR_DUPLICATE), default=None)
        k = self._positions.get(item_id)
        if k is None or self._pattern[k] < 0:
            return None
        index = self._pattern[k]
        worst: Severity | None = None
        for flag in self._patterns[index]:
            if flag is None:  # its own flag, kept as numbers, at its severity as made unless weighed anew
                weight = self._severity[k] if self._severity else _AS_MADE
                severity = self._near.severity(k) if weight == _AS_MADE else _SEVERITIES[weight]
            elif flag.check == NEAR_DUPLICATE:
                severity = flag.severity
            else:
                continue
            if worst is None or severity > worst:
                worst = severity
        return worst

    def flagged_by(self, wanted: Callable[[Flag], bool]) -> Iterator[tuple[str, list[Flag]]]:
        """(item id, its flags) of the items one of whose flags ``wanted`` picks, in set order; an item's
        near-duplicate flag is not asked (the patterns are: most items share one)."""
        if self._changed:
            yield from ((item_id, flags) for item_id, flags in self._pairs() if any(map(wanted, flags)))
            return
        picked = bytearray(any(flag is not None and wanted(flag) for flag in pattern) for pattern in self._patterns)
        items = self._items
        for k, index in enumerate(self._pattern):
            if index >= 0 and picked[index]:
                yield items[k].id, self._at(k)  # type: ignore[misc]

    def _flagged(self) -> Iterator[int]:
        return (k for k, index in enumerate(self._pattern) if index >= 0)

    def __iter__(self) -> Iterator[str]:
        items = self._items
        return (items[k].id for k in self._flagged())

    def __len__(self) -> int:
        return self._size

    def items(self) -> ItemsView[str, list[Flag]]:
        return _TableItems(self)

    def values(self) -> ValuesView[list[Flag]]:
        return _TableValues(self)

    def _pairs(self) -> Iterator[tuple[str, list[Flag]]]:
        items, changed, at = self._items, self._changed, self._at
        for k in self._flagged():
            item_id = items[k].id
            flags = changed.get(item_id) if changed else None
            yield item_id, at(k) if flags is None else flags  # type: ignore[misc]

    def changed(self, lists: Mapping[str, list[Flag]]) -> FlagTable:
        """This table with ``lists`` in place of some items' flags (items that have flags: the order stays)."""
        new = copy(self)
        new._changed = {**self._changed, **lists}
        return new

    def __copy__(self) -> FlagTable:
        new = FlagTable.__new__(FlagTable)
        for name in FlagTable.__slots__:
            setattr(new, name, getattr(self, name))
        return new

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Mapping):
            return NotImplemented
        return len(self) == len(other) and dict(self._pairs()) == dict(other.items())

    __hash__ = None  # type: ignore[assignment]

    def __reduce__(self) -> tuple[object, ...]:
        return dict, (list(self._pairs()),)  # sent elsewhere as a plain dict

    def __repr__(self) -> str:
        return f"FlagTable({dict(self._pairs())!r})"


class _TableItems(ItemsView[str, list[Flag]]):
    _mapping: FlagTable

    def __iter__(self) -> Iterator[tuple[str, list[Flag]]]:
        return self._mapping._pairs()


class _TableValues(ValuesView[list[Flag]]):
    _mapping: FlagTable

    def __iter__(self) -> Iterator[list[Flag]]:
        return (flags for _, flags in self._mapping._pairs())


def _pieces_of(flag: Flag) -> object:
    """What a near-duplicate flag weighed anew shares with the flag it was made from: its pieces, or its reason."""
    return _REASON_SLOT.__get__(flag)


_REASON_SLOT = Flag.__dict__["reason"]
_SEVERITIES = tuple(Severity)  # by value: HINT is 0


#: Pairs of look-alike ids a caution names; the rest are counted.
ALIKE_NAMED = 5


def _alike_ids_note(cautions: WarningLog, evalset: EvalSet) -> None:
    """A caution naming ids that a screen shows alike (see checks/alike_ids)."""
    pairs = alike_ids((item.id for item in evalset.items), evalset.positions)
    if not pairs:
        return
    named = ", ".join(f"{ascii(a)} and {ascii(b)}" for a, b in pairs[:ALIKE_NAMED])  # escaped: as written, they look alike
    more = f" and {len(pairs) - ALIKE_NAMED} more" if len(pairs) > ALIKE_NAMED else ""
    cautions.caution(
        "evalset",
        f"{count(len(pairs), 'pair')} of item ids differ only in what a screen does not show (a space at an end, "
        f"another kind of space, another Unicode form of the same letters): {named}{more}. The app and the reports "
        f"show each pair alike; give them ids that differ visibly",
    )


_SEVERITY_OF = attrgetter("severity")


def _as_kept(flags: list[Flag], at: int, dropped: Mapping[int, int], position: Mapping[str, int]) -> list[Flag]:
    """The flags of the first copy of a repeated question, the item at ``at``, which the duplicate filter
    keeps: its exact- and near-duplicate flags about its own later copies made hints, in place.

    Every copy of a repeated question was warned alike, so a reviewer who took the warning at its
    word on each copy rejected them all, and the question was lost. The copies after the first
    carry the warning ("the duplicate filter drops this one and keeps ..."); the first keeps the
    same reason as a hint. A flag is a hint when every item it names is a later copy: one the
    filter drops in favour of this one, or, for a near-duplicate, a later item the filter keeps
    too (its word overlap fell under the filter's threshold; PrivacyQA's lb95 and lb103), whose own
    flag, naming this earlier item, stays a warning. A flag naming an earlier item, or one the
    filter drops in favour of another, stays a warning, so of two paraphrases the later one is
    always warned. On the labelled development set such warnings on a first copy were, all but one,
    ones the labels tolerate rather than ask for. That one is the price: PrivacyQA's lb112
    repeats lb95 in other words, the join pairs it only with the later lb116, and its warning
    becomes a hint. Word-overlap near-duplicates are hints already; conflicting answers stay a
    warning on every copy: which answer is right is the question.
    """
    changed = False
    for k, flag in enumerate(flags):
        if flag.check not in _COPY_CHECKS or flag.severity <= Severity.HINT or not flag.related_ids:
            continue
        near = flag.check == NEAR_DUPLICATE
        if near and len(flag.related_ids) >= PARTNERS_SHOWN:
            continue  # the ids may stop short of an earlier paraphrase: the warning stays
        if all(_later_copy(position.get(other), at, dropped, near) for other in flag.related_ids):
            flags[k] = at_severity(flag, Severity.HINT)
            changed = True
    if changed:
        flags.sort(key=_SEVERITY_OF, reverse=True)
    return flags


def _later_copy(other: int | None, at: int, dropped: Mapping[int, int], near: bool) -> bool:
    """Whether the item at ``other`` is a later copy of the one at ``at`` (see _as_kept)."""
    if other is None:
        return False
    kept_instead = dropped.get(other)
    return kept_instead == at or (near and kept_instead is None and other > at)


#: The flags that name an item's copies, which the duplicate filter resolves by keeping the first.
_COPY_CHECKS = frozenset({EXACT_DUPLICATE, NEAR_DUPLICATE})


def _type_hint(qtype: str | None, suggested: str) -> Flag:
    """The type guess as a flag: a hint, unless the item's own type disagrees with a confident guess."""
    confidence = guess_confidence(suggested)
    record = confidence.describe()
    how = "fallback: no rule matched" if suggested == QuestionType.FACTOID else "wording rule"
    if qtype is None:
        reason = f"no type yet; the wording reads like {suggested!r} ({how}; {record})"
    else:
        reason = f"labelled {qtype!r}, but the wording reads like {suggested!r} ({how}; {record})"
    severity = SEVERITY[SUGGESTED_TYPE]
    if qtype is not None and confidence.confident:
        severity = max(severity, Severity.LOW)
    return Flag(SUGGESTED_TYPE, severity, reason)


def _has(n: int) -> str:
    return plural(n, "has", "have")


def _check_notes(
    cautions: WarningLog,
    n: int,
    report: AuditReport,
    with_answer: int,
    no_tokens: int,
    counts: Mapping[str, int],
    profile: str = REVIEW,
) -> None:
    """Set-level notes that explain the flags, so a reader knows how far to trust them (weighed as ``profile`` weighs them)."""
    weights = profile_severities(profile)

    def weighed(check: str, severity: Severity) -> str:
        """How a note names the flags of ``check`` raised at ``severity``: as ``profile`` shows them."""
        if check == TOO_SHORT and profile == REVIEW:
            return "hints"  # see _short_statements_as_hints
        shown = weights[check][1] if check in weights and weights[check][0] == severity else severity
        return "hints" if shown is Severity.HINT else shown.label.upper()

    if not n:
        return
    # Of the items with an answer: the check also finds every item without one, which the count is not about.
    findings = report.findings
    details = (
        findings.details(audit_mod.WEAK_ANSWER)
        if isinstance(findings, FindingTable)  # read as they are kept: a finding per item made only to be counted
        else (f.detail for f in report.of_check(audit_mod.WEAK_ANSWER))
    )
    weak = sum(1 for detail in details if detail != audit_mod.NO_ANSWER_DETAIL)
    if with_answer and weak * 2 > with_answer:
        cautions.info(
            "audit",
            f"{weak} of {count(with_answer, 'expected answer')} {_has(weak)} fewer than {report.config.min_expected_words} content words. "
            f"This set uses short answers, which the weak-answer check was not made for; its flags are "
            f"{weighed(audit_mod.WEAK_ANSWER, Severity.LOW)}",
        )
    short = counts.get("too-short", 0)
    if too_short_is_common(short, n):
        cautions.info(
            "audit",
            f"{short} of {count(n, 'question')} {_has(short)} fewer than 4 words; this looks like a keyword-query set, so too-short "
            f"flags are {weighed(TOO_SHORT, Severity.LOW)} here",
        )
    unreadable_pairs = sum(1 for f in report.of_check(audit_mod.NEAR_DUPLICATES) if f.evidence.get("no_content_tokens"))
    if unreadable_pairs:
        cautions.caution(
            "audit",
            f"{no_tokens} of {count(n, 'question')} {_has(no_tokens)} no ASCII content word (other scripts, or only "
            f"common words). The audit's overlap checks cannot read them, so it counts them as duplicates of each other; "
            f"those flags are LOW",
        )
    elif no_tokens:
        cautions.info(
            "audit",
            f"{no_tokens} of {count(n, 'question')} {_has(no_tokens)} no word the audit's overlap checks can compare (only very common "
            f"words or symbols); they are not compared with other questions",
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

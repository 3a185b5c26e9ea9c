"""The work of :func:`~reviewtui.evalset.checks.scan.scan_flags`, in pieces that need nothing from each other.

* :func:`item_verdicts`: the two filters that read only a question's wording, and
  the type guess, in one pass (the pronoun check and the guess share a word list).
* :func:`word_groups`: the near-duplicate filter's similarity join on word sets.
* :func:`audit_half`: the golden-set audit.
* :func:`filter_half`: the other filters, the model one included (it calls the
  caller's ``answerer``, so it always runs in the calling process), and the
  chain's result rebuilt from every filter's verdicts; it takes the join's pairs from
  the pieces above. It also runs the registry's extra per-item checks (:mod:`.registry`,
  kind ``FLAG``) and :func:`item_verdicts`' work, in the same pass over the items: the
  question's letter runs the wording checks make are the extra checks' too.

Which filters there are, their order and their severities come from the registry, as
they do for :func:`~reviewtui.evalset.checks.filters.default_filters`.

On a large set :func:`word_groups` and :func:`audit_half` (both similarity joins)
run in a forked child on the second core while the calling process runs the other
two. What the child returns is small and pickles quickly. :mod:`.scan` merges the
pieces in a fixed order, so the result does not depend on where each ran.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from reviewtui.evalset.checks.audit import AuditReport, QuestionForms, audit, prepare
from reviewtui.evalset.checks.base import Replayed
from reviewtui.evalset.checks.classify import classify_question
from reviewtui.evalset.checks.duplicates import PairsFound
from reviewtui.evalset.checks.filters import (
    DanglingReferenceFilter,
    DuplicateFilter,
    Filter,
    FilterChain,
    FilterResult,
    ShortQuestionFilter,
    UnresolvedEvidenceFilter,
    default_filters,
    unchecked_note,
)
from reviewtui.evalset.checks.findings import add_flag
from reviewtui.evalset.checks.policy import (
    NO_EVIDENCE,
    NO_EVIDENCE_DOCUMENTS_REASON,
    NO_EVIDENCE_REASON,
    SEVERITY,
    evidence_is_the_rule,
    too_short_is_common,
)
from reviewtui.evalset.checks.registry import Needs, flag_checks, severity_table
from reviewtui.evalset.checks.simgroups import SimilarGroups, similar_groups
from reviewtui.evalset.checks.warninglog import WarningLog
from reviewtui.evalset.jobs.cancel import Progress, ShouldStop, check_stop
from reviewtui.evalset.model.flag import Flag, Severity
from reviewtui.evalset.model.items import EvalItem, EvalSet, QuestionType
from reviewtui.evalset.text.words import (
    TokenRows,
    letter_runs,
    runs_and_content_tokens,
    word_and_content_rows,
    word_set,
)

__all__ = [
    "AuditHalf",
    "ChainReplay",
    "FilterHalf",
    "ItemVerdicts",
    "Meter",
    "question_forms",
    "audit_half",
    "filter_half",
    "item_verdicts",
    "word_groups",
]


class Meter:
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


# ---------------------------------------------------------------- the filter half


@dataclass
class FilterHalf:
    """Filter flags per item (in the order the scan adds them), the word-overlap pairs and the chain's result."""

    flags: dict[str, list[Flag]]
    sets: Mapping[int, tuple[int, ...]]  # word sets (rows of word numbers): those of items with a partner, others made when asked
    word_groups: SimilarGroups  # the filter's join: similar questions as groups and links, never as pairs
    position: Mapping[str, int]  # item id → index (the set's own table, where it has a whole one)
    chain: ChainReplay  # its cautions (ChainReplay.outline) are made where a profile shows them, not here
    unresolved: str
    verdicts: ItemVerdicts
    #: what the filters before the near-duplicate one remove in the documented chain (item id -> reason, one
    #: mapping per filter, the chain's own): that filter never sees those items
    removed_before_duplicates: tuple[Mapping[str, str], ...] = ()
    #: the name of each of those filters, in the same order
    removed_before_names: tuple[str, ...] = ()

    def removed_before(self, item_id: str) -> str | None:
        """The documented chain's filter that removes ``item_id`` before its near-duplicate filter sees it (None: none
        does): ``filter --profile goldensetauditor`` neither keeps nor drops such an item as a copy."""
        for name, found in zip(self.removed_before_names, self.removed_before_duplicates):
            if item_id in found:
                return name
        return None

    def duplicates_dropped(self, in_set_order: Mapping[int, int]) -> Mapping[int, int]:
        """What ``filter --profile goldensetauditor``'s near-duplicate filter removes, as the chain runs it (on
        the survivors of the filters before it): {dropped position: the kept position it repeats}.

        ``in_set_order``: the rule run on every item (``word_groups.first_kept()``), returned as it is when
        the filters before it remove no item that has a partner.
        """
        removed = self.removed_before_duplicates
        if not removed:
            return in_set_order
        items = self.chain.evalset.items
        involved = self.word_groups.involved()
        left = [k for k in involved if not any(items[k].id in found for found in removed)]
        return in_set_order if len(left) == len(involved) else self.word_groups.first_kept(left)


class _Lazy(dict):
    """A value per position of ``items``, made the first time that position is asked for.

    The flags need word sets and trimmed questions only for the few items in pairs;
    making them for every item would cost a pass over the set. ``known`` seeds it.
    """

    def __init__(self, items: Sequence[EvalItem], make: Callable[[EvalItem], Any], known: Iterable[tuple[int, Any]] = ()) -> None:
        super().__init__(known)
        self._items = items
        self._make = make

    def __missing__(self, k: int) -> Any:
        value = self[k] = self._make(self._items[k])
        return value

    def uncached(self, k: int) -> Any:
        """The value at ``k``: the one kept, else made and not kept (for a reader that would otherwise fill
        the table for every position, the near-duplicate flags' figures on a set where every question has
        a partner: 12 MB of rows at 100k items, held to the end of the scan)."""
        value = self.get(k, _NOT_KEPT)
        return self._make(self._items[k]) if value is _NOT_KEPT else value


_NOT_KEPT = object()


def _question_rows(numbers: dict[str, int]) -> Callable[[EvalItem], tuple[int, ...]]:
    """A question's word set as a row of word ``numbers``: on a set where every item has a partner,
    100k frozensets of words held this process's peak; rows take a tenth of that. Only the
    numbers are kept, not the rows already made with them (those of items without a partner go)."""
    row = TokenRows(numbers).row

    def make(item: EvalItem) -> tuple[int, ...]:
        return row(word_set(item.question))

    return make


def question_forms(items: Sequence[EvalItem], *, every_script: bool = False) -> QuestionForms:
    """The audit's form of each question by position (the audit's own may be in another process); ``every_script``:
    the review profile's, spacing aside too."""
    return QuestionForms(items, spacing=every_script)


def word_groups(
    items: Sequence[EvalItem],
    should_stop: ShouldStop | None,
    tokens: TokenRows | None = None,
    *,
    vectorised: bool = False,
    every_script: bool = False,
) -> SimilarGroups:
    """The near-duplicate filter's join on the whole set: positions whose word sets overlap enough, as groups.

    With ``tokens`` (an empty table), each question's content tokens are appended to it, for :func:`audit_half`,
    from the same split of the question (see ``words_and_content_tokens``; ``every_script``
    as for :func:`audit_half`). The word sets are then kept as rows numbered like the tokens:
    a tenth of the memory of 100k frozensets, which set this process's peak.
    """
    sets: list[frozenset[str]] | TokenRows
    if tokens is None:
        sets = [word_set(item.question) for item in items]
        return similar_groups(sets, DuplicateFilter().threshold, should_stop=should_stop, vectorised=vectorised)
    sets = TokenRows(tokens.numbers)  # numbered as the tokens are; a TokenRows, so the join takes its rows as sets
    # The tokens are kept packed until the word sets are gone, and only then made rows (see extend_packed).
    flat, ends = array("l"), array("q")
    dropped = tokens.number_dropped_first()  # so a question's tokens are mostly a slice of its words' row
    keep = sets.append
    for item in items:
        words_row, content_row = word_and_content_rows(item.question, sets, dropped, every_script=every_script)
        keep(words_row)
        flat.extend(content_row)
        ends.append(len(flat))
    groups = similar_groups(sets, DuplicateFilter().threshold, should_stop=should_stop, vectorised=vectorised)
    del sets
    tokens.extend_packed(flat, ends)
    return groups


def _remembering(answerer: Callable[[str], str]) -> Callable[[str], str]:
    """Ask the model once per distinct question."""
    replies: dict[str, str] = {}

    def answer(question: str) -> str:
        reply = replies.get(question)
        if reply is None:
            reply = replies[question] = answerer(question)
        return reply

    return answer


@dataclass(frozen=True)
class ItemVerdicts:
    """The wording filters' reasons ({filter name: {item id: reason}}) and the type guesses.

    ``hint_codes[k]`` is 0 when item k gets no type hint, else 1 + the index of its
    ``(label, suggestion)`` in ``hint_keys``.
    """

    reasons: dict[str, dict[str, str]]
    hint_codes: array
    hint_keys: tuple[tuple[str | None, str], ...]
    with_answer: int  # items with an expected answer, for the notes on the weak-answer check


WORDING = (ShortQuestionFilter, DanglingReferenceFilter)  # the filters item_verdicts runs, in its own pass


def item_verdicts(
    items: Sequence[EvalItem],
    should_stop: ShouldStop | None,
    tokens: TokenRows | None = None,
    *,
    every_script: bool = False,
) -> ItemVerdicts:
    """The two filters that read only the wording (too short, dangling reference) and the type guess, in one pass.

    One pass because every pass over 100k items costs time of its own (each item is
    a cache miss), and because the pronoun check and the type guess read the same words.
    With ``tokens``, each question's content tokens are appended to it, for :func:`audit_half`:
    they come from the same split of the question (see ``runs_and_content_tokens``).
    The scan itself does this work in :func:`filter_half`'s pass (see :func:`_wording`).
    """
    judge, verdicts = _wording(len(items), tokens, every_script)
    n = len(items)
    for start in range(0, n, 4096):
        for k in range(start, min(start + 4096, n)):
            judge(k, items[k])
        check_stop(should_stop)
    return verdicts()


def _wording(
    n: int, tokens: TokenRows | None, every_script: bool
) -> tuple[Callable[[int, EvalItem], frozenset[str]], Callable[[], ItemVerdicts]]:
    """:func:`item_verdicts` one item at a time, for a pass over the set that does other work too:
    ``judge(k, item)`` for each item in order (it returns the question's letter runs, which other checks
    read too: see Needs.question_runs), then ``verdicts()``."""
    short, dangling = ShortQuestionFilter(), DanglingReferenceFilter()
    short_reasons: dict[str, str] = {}
    dangling_reasons: dict[str, str] = {}
    reasons = {short.name: short_reasons, dangling.name: dangling_reasons}
    codes = array("H", bytes(2 * n))
    keys: dict[tuple[str | None, str], int] = {}
    known, unanswerable, fallback = QuestionType.ALL, QuestionType.UNANSWERABLE, QuestionType.FACTOID
    short_check, dangling_check = short.check, dangling.check_question
    add_tokens = tokens.add if tokens is not None else None
    with_answer = 0

    def judge(k: int, item: EvalItem) -> frozenset[str]:
        nonlocal with_answer
        question = item.question
        with_answer += item.answer is not None
        reason = short_check(item)
        if reason is not None:
            short_reasons[item.id] = reason
        if add_tokens is None:
            words = frozenset(letter_runs(question))
        else:
            words, content = runs_and_content_tokens(question, every_script=every_script)
            add_tokens(content)
        reason = dangling_check(question, words)
        if reason is not None:
            dangling_reasons[item.id] = reason
        qtype = item.qtype
        if qtype is not None and (qtype not in known or qtype == unanswerable):
            return words  # a custom category the heuristic does not know, or a type wording cannot show
        suggested = classify_question(question, words)
        # A label against the fallback (no rule matched, so "factoid") is no disagreement: "labelled 'multi_hop',
        # but the wording reads like 'factoid'" was said of 206 of HotpotQA's 300 people's labels, by a guess that
        # has never matched a person's type.
        if suggested != qtype and (qtype is None or suggested != fallback):
            codes[k] = keys.setdefault((qtype, suggested), len(keys) + 1)
        return words

    def verdicts() -> ItemVerdicts:
        return ItemVerdicts(reasons, codes, tuple(keys), with_answer)

    return judge, verdicts


def filter_half(
    evalset: EvalSet,
    baseline_scores: Mapping[str, float] | None,
    answerer: Callable[[str], str] | None,
    meter: Meter,
    groups: Callable[[], SimilarGroups] | None = None,
    *,
    tokens: TokenRows | None = None,
    every_script: bool = False,
) -> FilterHalf:
    """Every filter of the chain, the wording ones as :func:`item_verdicts` (``tokens`` and ``every_script`` as
    there), the word-set join, and the chain.

    The filters are the documented chain's (:func:`~reviewtui.evalset.checks.filters.default_filters`).
    ``groups()``, when given, returns the word-set join (:func:`word_groups`, from another
    process); it is called after the pass over the items. Without it the join runs here.
    """
    items = evalset.items
    n = len(items)
    should_stop = meter.should_stop
    flags: dict[str, list[Flag]] = {}
    filters = default_filters(baseline_scores=baseline_scores, answerer=_remembering(answerer) if answerer is not None else None).filters
    running = [flt for flt in filters if flt.skip_reason() is None]
    # The filters judged here, one item at a time; the wording ones and the near-duplicate join are done apart,
    # and a filter that judges whole batches is applied once to the whole set.
    apart = [flt for flt in running if not isinstance(flt, (*WORDING, DuplicateFilter)) and not flt.stands_down(items)]
    here = [flt for flt in apart if flt.itemwise]
    batches = [flt for flt in apart if not flt.itemwise]
    judged: list[tuple[Callable[[EvalItem], tuple[bool, str | None]], dict[str, str]]] = [(flt.verdict, {}) for flt in here]
    unjudged = [0] * len(here)

    # One pass for the filters judged here, the word sets, the no-evidence flags, the extra checks and
    # the positions: every pass over a large set costs time of its own.
    numbering = TokenRows()  # the word sets, numbered (see _question_rows)
    sets: TokenRows | None = None if groups is not None else numbering
    # The set's own id -> index table, where it covers every item: a second one is 100k entries at 100k.
    position: Mapping[str, int] = evalset.positions
    made_here: dict[str, int] | None = None if len(position) == n else {}
    no_evidence = only_documents = None
    if evidence_is_the_rule(items):  # then an item without any stands out
        no_evidence = Flag(NO_EVIDENCE, SEVERITY[NO_EVIDENCE], NO_EVIDENCE_REASON)
        only_documents = Flag(NO_EVIDENCE, SEVERITY[NO_EVIDENCE], NO_EVIDENCE_DOCUMENTS_REASON)
    # The extra per-item checks (outside the spec's chain), with one Needs per item that they share.
    extras: list[tuple[str, Callable[[EvalItem, Needs], str | None], dict[str, str]]] = [
        (check.name, check.flag, {}) for check in flag_checks() if check.flag is not None
    ]
    # The wording filters and the type guess in the same pass: the question's letter runs they make are the
    # extra checks' too (see Needs.question_runs).
    judge_wording, wording_verdicts = _wording(n, tokens, every_script)
    slow = any(flt.costly for flt in here)
    step = 8 if slow else 4096  # a model can be slow: report progress often
    for start in range(0, n, step):
        for k in range(start, min(start + step, n)):
            item = items[k]
            runs = judge_wording(k, item)
            if made_here is not None:
                made_here[item.id] = k
            if sets is not None:
                sets.add(word_set(item.question))
            if no_evidence is not None and not (item.gold or item.anchors) and item.qtype != QuestionType.UNANSWERABLE:
                assert only_documents is not None
                add_flag(flags, item.id, only_documents if item.meta.get("gold_documents") else no_evidence)
            for f, (verdict, found) in enumerate(judged):
                checked, reason = verdict(item)
                if not checked:
                    unjudged[f] += 1
                if reason is not None:
                    found[item.id] = reason
            if extras:
                needs = Needs(item, runs)
                for _, flag_of, found in extras:
                    reason = flag_of(item, needs)
                    if reason is not None:
                        found[item.id] = reason
        if slow:
            meter.advance(min(step, n - start))
        else:
            check_stop(should_stop)
    meter.advance(n)
    if made_here is not None:
        position = made_here

    # Near-duplicates: every similar question (word overlap, as the filter sees it), as groups.
    if sets is not None:
        similar = similar_groups(sets, DuplicateFilter().threshold, should_stop=should_stop)
        check_stop(should_stop)
    elsewhere = wording_verdicts()
    meter.advance(n)
    if groups is not None:
        similar = groups()
    meter.advance(n)
    pair_sets = _Lazy(items, _question_rows(numbering.numbers), () if sets is None else ((k, sets[k]) for k in similar.involved()))
    del sets, numbering  # only the word sets of items with a partner are read later

    # What each running filter found on the whole set, in chain order.
    found_by: dict[str, Any] = {flt.name: found for flt, (_, found) in zip(here, judged)}
    for flt in batches:
        found_by[flt.name] = {r.item_id: r.reason for r in flt.apply(items, should_stop=should_stop).rejected}
    found_by.update(elsewhere.reasons)
    for flt in running:
        if isinstance(flt, DuplicateFilter):
            found_by[flt.name] = PairsFound(position, similar, pair_sets)
        else:
            found_by.setdefault(flt.name, {})  # stood down on the whole set: no verdicts

    # Per-item flags, after the no-evidence ones: each filter in chain order, then the extra checks.
    # (The near-duplicate filter's flags come from its pairs, with the audit's: see NearDuplicateLinks.)
    severity = severity_table()  # read now: a check may have registered after policy made SEVERITY
    short = ShortQuestionFilter().name
    if too_short_is_common(len(found_by.get(short, ())), n):
        severity[short] = Severity.LOW
    per_item = [(flt.name, found_by[flt.name]) for flt in running if not isinstance(flt, DuplicateFilter)]
    for name, found in [*per_item, *((name, found) for name, _, found in extras)]:
        made: dict[str, Flag] = {}  # flags are immutable: one per distinct reason (most reasons repeat)
        for item_id, reason in found.items():
            flag = made.get(reason)
            if flag is None:
                flag = made[reason] = Flag(name, severity[name], reason)
            add_flag(flags, item_id, flag)

    # The chain as it would run (survivors only), replayed from the verdicts above: its cautions and its
    # result when asked. A filter that skips itself runs as it is, to say so.
    notes = tuple(note for flt, count in zip(here, unjudged) if (note := unchecked_note(flt.name, count, n)))
    chain = ChainReplay(
        evalset,
        tuple(Replayed(flt, found_by[flt.name]) if flt.skip_reason() is None else flt for flt in filters),
        notes,
    )
    removed: list[Mapping[str, str]] = []  # by the filters the chain runs before the near-duplicate one
    removed_by: list[str] = []
    for flt in running:
        if isinstance(flt, DuplicateFilter):
            break
        if not found_by[flt.name]:
            continue
        if removed and type(flt).stands_down is not Filter.stands_down:
            # A filter that judges its batch (unresolved evidence stands down when nothing left has a gold
            # span) judges what the filters before it left, as the chain runs it.
            left = [item for item in items if not any(item.id in found for found in removed)]
            if flt.stands_down(left):
                continue
        removed.append(found_by[flt.name])
        removed_by.append(flt.name)
    meter.advance(n)
    return FilterHalf(
        flags, pair_sets, similar, position, chain, UnresolvedEvidenceFilter().name, elsewhere, tuple(removed), tuple(removed_by)
    )


@dataclass(frozen=True)
class ChainReplay:
    """The documented chain (each filter on the survivors of the one before), replayed from
    verdicts already computed on the whole set.

    A scan needs only the chain's cautions, which count survivors: :meth:`outline` gives
    them without building a Rejection per removed item (90k of them on a 100k set whose
    quotes were never resolved). Calling the replay builds the full result.
    """

    evalset: EvalSet
    filters: tuple[Filter, ...]
    notes: tuple[str, ...] = ()  # added to the cautions after the chain's own

    def outline(self, should_stop: ShouldStop | None = None) -> WarningLog:
        counting = [flt.counting() if isinstance(flt, Replayed) else flt for flt in self.filters]
        return self._finish(FilterChain(counting).run(self.evalset, should_stop=should_stop, say_stood_down=True)).warnings

    def __call__(self) -> FilterResult:
        return self._finish(FilterChain(list(self.filters)).run(self.evalset, say_stood_down=True))

    def _finish(self, result: FilterResult) -> FilterResult:
        for note in self.notes:
            result.warnings.info("evalset", note)
        return result


# ---------------------------------------------------------------- the audit half

#: Near-duplicate pairs a scan's audit lists one finding each, in the goldensetauditor profile (the review profile
#: reports clusters). Each costs about a kilobyte between the two processes and the report; past this many they
#: are counted, not listed (see audit's max_pairs_listed): a set of templates holds billions.
MAX_PAIRS_LISTED = 1_000_000


@dataclass(frozen=True)
class AuditHalf:
    """The audit's report, how many questions had no content token for it to compare, and its near-duplicate join."""

    report: AuditReport
    no_tokens: int
    groups: SimilarGroups | None = None


def audit_half(
    evalset: EvalSet,
    category_key: str | None,
    should_stop: ShouldStop | None,
    question_tokens: TokenRows | None = None,
    *,
    vectorised: bool = False,
    every_script: bool = False,
    groups_made: Callable[[SimilarGroups], None] | None = None,
) -> AuditHalf:
    """The audit; ``question_tokens``: each question's content tokens, from :func:`item_verdicts`, when known.

    ``every_script``: the review profile's reading of the audit (see :func:`~.audit.audit`); the
    tokens given must have been made the same way. ``groups_made(groups)``: called with the audit's
    near-duplicate join as soon as the audit has made it, before its other checks.
    """
    if question_tokens is not None and len(question_tokens) != len(evalset.items):
        question_tokens = None  # not every question was split: the audit splits them itself
    prepared = prepare(evalset.items, question_tokens, every_script=every_script)
    no_tokens = sum(1 for tokens in prepared.question_tokens if not tokens)
    prepared.release_tokens = True  # nothing here reads the rows after the audit: it drops each once read
    prepared.findings_table = True  # the scan keeps them as a table: the audit makes it so, its findings never made
    prepared.groups_made = groups_made
    report = audit(
        evalset,
        category_key=category_key,
        prepared=prepared,
        should_stop=should_stop,
        vectorised=vectorised,
        every_script=every_script,
        max_pairs_listed=MAX_PAIRS_LISTED,
    )
    return AuditHalf(report, no_tokens, prepared.near_groups)

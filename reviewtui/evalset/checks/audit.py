"""The golden-set audit: seven checks on questions and their expected answers.

The checks and their thresholds are those of goldensetauditor 0.2.0, applied to
an :class:`EvalSet` — the question is the prompt, ``answer`` the expected answer,
``qtype`` (or a ``meta`` key you name) the category, the item id the row id:

======================  ======================================================  ==========================
check                   finds                                                   status when found
======================  ======================================================  ==========================
conflicting-answers     the same question (trimmed, any case) with different    FAIL (the only one)
                        expected answers
exact-duplicates        the same question with the same answer                  WARN
weak-answer             an expected answer with fewer than 4 content tokens     WARN
ambiguous-question      "it/this/that/they/there" in a question of < 7 content  WARN
                        tokens, or several questions in one
over-easy               question and answer sharing ≥ 72 % of content tokens    WARN
near-duplicates         two different questions sharing ≥ 82 % of content       WARN
                        tokens
category-coverage       a category with fewer than 3 questions                  WARN; INSUFFICIENT_INPUT
                                                                                when there are no categories
======================  ======================================================  ==========================

Overall: FAIL if any check fails, else WARN if any warns, else INSUFFICIENT_INPUT
if every finding is one, else PASS. The near-duplicate check compares *all*
pairs, exactly, through a similarity join; there is no pair cap (a caller may ask
for one: ``max_pairs_listed``, which a scan in the goldensetauditor profile sets).

Differences from goldensetauditor, all deliberate: in the review profile
(``every_script``) a set where no item has an expected answer gets
INSUFFICIENT_INPUT for the two answer checks instead of one warning per item (the
tool's profile warns of each, as the tool does); an item without an answer is not
checked for over-easiness (it is already a weak answer).
"""

from __future__ import annotations

import re
from array import array
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from functools import cache
from itertools import combinations, compress
from operator import attrgetter, not_
from typing import Any

from reviewtui.evalset.checks.registry import AUDIT, GOLDENSETAUDITOR, REVIEW, Check, register
from reviewtui.evalset.checks.repeats import Repeats, relevant_documents
from reviewtui.evalset.checks.simgroups import SimilarGroups, similar_groups
from reviewtui.evalset.checks.simjoin import jaccard
from reviewtui.evalset.jobs.cancel import Progress, ShouldStop, check_stop
from reviewtui.evalset.jobs.channel import pickled_in_batches, unpickled_batches
from reviewtui.evalset.jobs.collector import gc_paused
from reviewtui.evalset.model.flag import Severity
from reviewtui.evalset.model.items import EvalItem, EvalSet, QuestionType
from reviewtui.evalset.text.counts import count
from reviewtui.evalset.text.words import TokenRows, content_tokens, in_quotes, normalise_question, script_tokens, symbols_apart

__all__ = [
    "CHECKS",
    "GSA_CHECK_NAMES",
    "MISSING_CATEGORY",
    "AuditConfig",
    "AuditReport",
    "CheckResult",
    "Finding",
    "Status",
    "audit",
]


class Status(StrEnum):
    PASS = "PASS"
    WARN = "WARN"
    FAIL = "FAIL"
    INSUFFICIENT_INPUT = "INSUFFICIENT_INPUT"


CONFLICTING = "conflicting-answers"
EXACT_DUPLICATES = "exact-duplicates"
WEAK_ANSWER = "weak-answer"
AMBIGUOUS = "ambiguous-question"
OVER_EASY = "over-easy"
NEAR_DUPLICATES = "near-duplicates"
CATEGORY_COVERAGE = "category-coverage"
CHECKS: tuple[str, ...] = (
    CONFLICTING,
    EXACT_DUPLICATES,
    WEAK_ANSWER,
    AMBIGUOUS,
    OVER_EASY,
    NEAR_DUPLICATES,
    CATEGORY_COVERAGE,
)

# goldensetauditor 0.2.0 names the same seven checks in snake case; this maps its names to ours,
# for anyone reading its reports beside ours (the comparison test and benchmark use it too).
GSA_CHECK_NAMES: dict[str, str] = {
    "conflicting_expected_answers": CONFLICTING,
    "exact_duplicate_inputs": EXACT_DUPLICATES,
    "weak_expected_answer": WEAK_ANSWER,
    "ambiguous_prompt_heuristic": AMBIGUOUS,
    "overeasy_example": OVER_EASY,
    "near_duplicate_inputs": NEAR_DUPLICATES,
    "category_coverage": CATEGORY_COVERAGE,
}

MISSING_CATEGORY = "<missing>"

_AMBIGUOUS_WORD = re.compile(r"\b(?:it|this|that|they|there)\b")
_SHORT_PROMPT_TOKENS = 7


@dataclass(frozen=True)
class AuditConfig:
    """Thresholds (goldensetauditor's defaults) and where the category comes from.

    ``category_key``: None or ``"qtype"`` reads ``item.qtype``; any other name reads ``item.meta[name]``.
    """

    min_expected_words: int = 4
    near_duplicate_threshold: float = 0.82
    overeasy_overlap_threshold: float = 0.72
    min_category_count: int = 3
    category_key: str | None = None

    def category_of(self, item: EvalItem) -> Any:
        if self.category_key in (None, "qtype"):
            return item.qtype
        return item.meta.get(self.category_key) if item.meta else None

    @property
    def category_label(self) -> str:
        return "qtype" if self.category_key in (None, "qtype") else f"meta[{self.category_key!r}]"


@dataclass(frozen=True, slots=True)  # slots: unpickled from the scan's child, each would otherwise get a dict of its own
class Finding:
    """One problem the audit found; ``item_ids`` are the rows it names, in set order."""

    check: str
    status: Status
    severity: Severity | None
    item_ids: tuple[str, ...]
    detail: str
    recommendation: str
    evidence: Mapping[str, Any] = field(default_factory=dict)

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt through __init__: a frozen dataclass's own __setstate__ looks its fields up again for
        # each object, which made unpickling the scan child's 100k findings twice as slow.
        return Finding, (self.check, self.status, self.severity, self.item_ids, self.detail, self.recommendation, self.evidence)

    def to_dict(self) -> dict[str, Any]:
        return {
            "check": self.check,
            "status": str(self.status),  # a StrEnum's str is its value, without the enum's descriptor lookup
            "severity": "none" if self.severity is None else self.severity.label,
            "item_ids": list(self.item_ids),
            "detail": self.detail,
            "recommendation": self.recommendation,
            "evidence": dict(self.evidence),
        }


@dataclass(frozen=True)
class CheckResult:
    """One check's outcome over the whole set."""

    check: str
    status: Status
    findings: int
    items: int
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "check": self.check,
            "status": self.status.value,
            "findings": self.findings,
            "items": self.items,
            "note": self.note,
        }


@dataclass(frozen=True)
class AuditReport:
    """Everything the audit found on one set, with its overall status."""

    status: Status
    findings: tuple[Finding, ...]  # or, taken in from the scan's child, a FindingTable
    checks: tuple[CheckResult, ...]
    summary: Mapping[str, Any]
    config: AuditConfig
    set_id: str = ""
    set_version: int = 1

    def __reduce__(self) -> tuple[Any, ...]:
        # Sent from the scan's child process: the findings go in batches, so that pickling a
        # hundred thousand of them does not raise the child's peak by several times their size.
        state = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "findings"}
        findings = self.findings
        return (_unpickled_report, (state, findings if isinstance(findings, FindingTable) else pickled_in_batches(findings)))

    @property
    def failed(self) -> bool:
        return self.status is Status.FAIL

    def of_check(self, check: str) -> tuple[Finding, ...]:
        if isinstance(self.findings, FindingTable):
            return self.findings.of_check(check)
        return tuple(f for f in self.findings if f.check == check)

    def by_item(self) -> dict[str, list[Finding]]:
        """Findings per item id (a finding naming three items appears under each)."""
        found: dict[str, list[Finding]] = {}
        for finding in self.findings:
            for item_id in finding.item_ids:
                found.setdefault(item_id, []).append(finding)
        return found

    def to_dict(self, *, findings: bool = True) -> dict[str, Any]:
        """The report as plain data; ``findings=False`` leaves the findings out (a caller writing them one by one)."""
        data = {
            "set": {"id": self.set_id, "version": self.set_version},
            "status": self.status.value,
            "summary": dict(self.summary),
            "config": {
                "min_expected_words": self.config.min_expected_words,
                "near_duplicate_threshold": self.config.near_duplicate_threshold,
                "overeasy_overlap_threshold": self.config.overeasy_overlap_threshold,
                "min_category_count": self.config.min_category_count,
                "category": self.config.category_label,
            },
            "checks": [c.to_dict() for c in self.checks],
        }
        if findings:
            data["findings"] = [f.to_dict() for f in self.findings]
        return data


def _named_count(findings: Sequence[Finding], position: Mapping[str, int] | None) -> int:
    """How many items ``findings`` name, each once: marked by position where the set's are known (a set of the
    ids held one per item named, several times over at the end of an audit that names every item)."""
    if position is None:
        return len({item_id for f in findings for item_id in f.item_ids})
    marks = bytearray(len(position))
    elsewhere: set[str] = set()
    for finding in findings:
        for item_id in finding.item_ids:
            k = position.get(item_id)
            if k is None:
                elsewhere.add(item_id)
            else:
                marks[k] = 1
    return marks.count(1) + len(elsewhere)


def _unpickled_report(state: dict[str, Any], findings: bytes | FindingTable) -> AuditReport:
    """An AuditReport as its ``__reduce__`` sent it."""
    return AuditReport(findings=findings if isinstance(findings, FindingTable) else unpickled_batches(findings), **state)  # type: ignore[arg-type]


_FINDING_SLOTS = tuple(
    Finding.__dict__[name].__set__ for name in ("check", "status", "severity", "item_ids", "detail", "recommendation", "evidence")
)  # a finding made by its slots: a frozen dataclass's __init__ sets each field through object.__setattr__, twice as slow
_new_finding = Finding.__new__


class FindingTable(Sequence[Finding]):
    """An audit's findings as the scan's child sends them, each made when it is read (a new object each time).

    On a set of short answers the audit has a finding per item, most of them one of a few things
    said of one item (a weak answer of 0, 1, 2 or 3 content words): a finding, its item's id and a
    tuple for it, per item, were the largest thing the scan took in from its child, and came in at
    the scan's peak. Such a finding is kept here as two numbers, what it says (one of ``_said``, by
    which the child's findings shared it) and its item's position; the others as they are. The ids
    are the items' own: the table is given the items it names (:meth:`bind`) once it is taken in.
    """

    __slots__ = ("_items", "_said", "_what", "_where", "_whole", "_whole_at")

    def __init__(
        self,
        said: list[tuple[Any, ...]],
        what: array,
        where: array,
        whole: list[Finding],
        whole_at: list[array | None] | None = None,
    ) -> None:
        self._said = said  # (check, status, severity, detail, recommendation, evidence)
        self._what = what  # per finding: its entry in _said, or -1 for one of _whole
        self._where = where  # per finding: its item's position, or its place in _whole
        self._whole = whole
        # Per finding of _whole: the positions of the items it names (None: an item the set does not hold), by which
        # it is sent, its ids made again from the items it is bound to (see __reduce__).
        self._whole_at = whole_at if whole_at is not None else [None] * len(whole)
        self._items: Sequence[EvalItem] | None = None

    @classmethod
    def of(cls, findings: Sequence[Finding], positions: Mapping[str, int]) -> FindingTable | None:
        """``findings`` kept so; None where too few say one thing of one item for it to pay. A table is returned as it
        is (an audit asked for one: see ``_Prepared.findings_table``)."""
        if isinstance(findings, FindingTable):
            return findings

        def said_by(finding: Finding) -> tuple[Any, ...] | None:
            if len(finding.item_ids) != 1 or finding.item_ids[0] not in positions:
                return None
            # By the objects that say it: the audit makes each distinct one once and shares it.
            return (finding.check, finding.status, finding.severity, id(finding.detail), id(finding.recommendation), id(finding.evidence))

        times = Counter(said_by(finding) for finding in findings)
        times.pop(None, None)
        if sum(n for n in times.values() if n > 1) * 2 < len(findings):
            return None
        number: dict[tuple[Any, ...], int] = {}
        said: list[tuple[Any, ...]] = []
        wide = "q" if max(len(positions), len(findings)) >= 2**31 else "i"
        what, where = array("i"), array(wide)
        whole: list[Finding] = []
        whole_at: list[array | None] = []
        for finding in findings:
            key = said_by(finding)
            if key is None or times[key] < 2:
                what.append(-1)
                where.append(len(whole))
                whole.append(finding)
                named = [positions.get(item_id) for item_id in finding.item_ids]
                whole_at.append(None if None in named else array(wide, named))
                continue
            at = number.get(key)
            if at is None:
                at = number[key] = len(said)
                f = finding
                said.append((f.check, f.status, f.severity, f.detail, f.recommendation, f.evidence))
            what.append(at)
            where.append(positions[finding.item_ids[0]])
        return cls(said, what, where, whole, whole_at)

    def bind(self, items: Sequence[EvalItem]) -> None:
        """The items the findings' positions are of."""
        self._items = items
        whole, at_of = self._whole, self._whole_at
        for k, at in enumerate(at_of):
            if at is not None and len(at) != len(whole[k].item_ids):  # sent without its ids: named by the items'
                _FINDING_SLOTS[3](whole[k], tuple([items[p].id for p in at]))

    @property
    def whole(self) -> Sequence[Finding]:
        """The findings kept as they are (those naming several items, or saying what no other says)."""
        return self._whole

    def _made(self, at: int) -> Finding:
        what = self._what[at]
        if what < 0:
            return self._whole[self._where[at]]
        return self.made(what, self._where[at])

    def made(self, said: int, position: int) -> Finding:
        """The finding saying ``_said[said]`` of the item at ``position``."""
        assert self._items is not None, "a FindingTable is read once bound to its items"
        check, status, severity, detail, recommendation, evidence = self._said[said]
        finding = _new_finding(Finding)
        s_check, s_status, s_severity, s_ids, s_detail, s_recommendation, s_evidence = _FINDING_SLOTS
        s_check(finding, check)
        s_status(finding, status)
        s_severity(finding, severity)
        s_ids(finding, (self._items[position].id,))
        s_detail(finding, detail)
        s_recommendation(finding, recommendation)
        s_evidence(finding, evidence)
        return finding

    def check_of(self, said: int) -> str:
        """The check of the findings saying ``_said[said]``."""
        return str(self._said[said][0])

    def walk(self) -> Iterator[tuple[Finding | None, int, int]]:
        """Each finding in order, as it is kept: (a finding, -1, -1), or (None, what it says, its item's position)
        for one made on reading (see :meth:`made`)."""
        whole = self._whole
        for what, where in zip(self._what, self._where):
            yield (whole[where], -1, -1) if what < 0 else (None, what, where)

    def __len__(self) -> int:
        return len(self._what)

    def __getitem__(self, at: Any) -> Any:
        if isinstance(at, slice):
            return [self._made(k) for k in range(*at.indices(len(self)))]
        if at < 0:
            at += len(self)
        if not 0 <= at < len(self):
            raise IndexError("finding index out of range")
        return self._made(at)

    def __iter__(self) -> Iterator[Finding]:
        # made() written out: a report reads every finding, one per item on a set of short answers.
        items, said, whole = self._items, self._said, self._whole
        s_check, s_status, s_severity, s_ids, s_detail, s_recommendation, s_evidence = _FINDING_SLOTS
        for what, where in zip(self._what, self._where):
            if what < 0:
                yield whole[where]
                continue
            assert items is not None, "a FindingTable is read once bound to its items"
            check, status, severity, detail, recommendation, evidence = said[what]
            finding = _new_finding(Finding)
            s_check(finding, check)
            s_status(finding, status)
            s_severity(finding, severity)
            s_ids(finding, (items[where].id,))
            s_detail(finding, detail)
            s_recommendation(finding, recommendation)
            s_evidence(finding, evidence)
            yield finding

    def of_check(self, check: str) -> tuple[Finding, ...]:
        """The findings of ``check``, in order (only theirs are made)."""
        said, whole, what = self._said, self._whole, self._what
        wanted = {k for k, entry in enumerate(said) if entry[0] == check}
        return tuple(
            self._made(k)
            for k in range(len(what))
            if (what[k] in wanted if what[k] >= 0 else whole[self._where[k]].check == check)
        )

    def details(self, check: str) -> Iterator[str]:
        """The detail of each finding of ``check``, in order, without making the findings."""
        said, whole, where = self._said, self._whole, self._where
        for k, what in enumerate(self._what):
            entry = said[what] if what >= 0 else None
            if entry is not None:
                if entry[0] == check:
                    yield entry[3]
            elif (finding := whole[where[k]]).check == check:
                yield finding.detail

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other))

    __hash__ = None  # type: ignore[assignment]

    def __reduce__(self) -> tuple[Any, ...]:
        # Unbound, as the child sends it: the parent binds it to its own items, and the findings naming several
        # items are sent without their ids (a near-duplicate cluster names thousands), which binding makes again.
        # Those go in batches (see AuditReport).
        # Each made by its constructor, not by dataclasses.replace, which reads every field by name and then calls the
        # same constructor: in the goldensetauditor profile every near-duplicate pair is such a finding.
        bare = [
            f if at is None else Finding(f.check, f.status, f.severity, (), f.detail, f.recommendation, f.evidence)
            for f, at in zip(self._whole, self._whole_at)
        ]
        return (_unpickled_table, (self._said, self._what, self._where, pickled_in_batches(bare), self._whole_at))

    def __repr__(self) -> str:
        return f"FindingTable({len(self)} findings)"


def _unpickled_table(
    said: list[tuple[Any, ...]], what: array, where: array, whole: bytes, whole_at: list[array | None]
) -> FindingTable:
    return FindingTable(said, what, where, list(unpickled_batches(whole)), whole_at)


def overall_status(findings: Sequence[Finding]) -> Status:
    return overall_status_of({f.status for f in findings})


def overall_status_of(statuses: Collection[Status]) -> Status:
    """:func:`overall_status` of findings with these statuses (a Counter's keys: none is counted 0 where the audit
    counts them)."""
    if Status.FAIL in statuses:
        return Status.FAIL
    if Status.WARN in statuses:
        return Status.WARN
    if set(statuses) == {Status.INSUFFICIENT_INPUT}:
        return Status.INSUFFICIENT_INPUT
    return Status.PASS


class QuestionForms(dict[int, str]):
    """Each question trimmed and lower-cased (the form two questions must share to be the same
    question), by position, made the first time a position is asked for and kept.

    Only questions in near-duplicate groups are ever asked for: on a set of mostly distinct
    questions, a list of every form was a second copy of all the questions' text.
    ``spacing``: runs of white space inside count as one space (see :func:`normalise_question`).
    """

    def __init__(self, items: Sequence[EvalItem], *, spacing: bool = False) -> None:
        super().__init__()
        self._items = items
        self._spacing = spacing

    def __missing__(self, k: int) -> str:
        form = self[k] = normalise_question(self._items[k].question, spacing=self._spacing)
        return form

    def form(self, k: int) -> str:
        """The form at ``k``, made without keeping it (where it is read once)."""
        form = self.get(k)
        return normalise_question(self._items[k].question, spacing=self._spacing) if form is None else form


@dataclass
class _Prepared:
    """Per-item values several checks share, computed once.

    ``near_groups``: what the near-duplicate join found, once the audit has run it (the scan
    reads it there for the per-item flags instead of listing the pairs again).
    """

    items: tuple[EvalItem, ...]
    normalised: QuestionForms
    question_tokens: TokenRows  # each question's tokens as a row of word numbers
    near_groups: SimilarGroups | None = None
    # Whether the audit may drop each token row once its last check has read it (see _per_item_checks): only
    # for a caller that reads nothing of the rows afterwards.
    release_tokens: bool = False
    #: read the words of every script (the review profile), as the question rows were made; else ASCII only
    every_script: bool = False
    #: given the near-duplicate join as soon as it is made, before the checks that follow it (the scan's child
    #: hands it on, so that the parent works out each item's near-duplicate links while the audit goes on)
    groups_made: Callable[[SimilarGroups], None] | None = None
    #: return the findings as a :class:`FindingTable` bound to the items, for a caller that sends them to another
    #: process (the scan's child): the audit's one-item findings (one per item, on a set of short answers) are then
    #: never made one by one, only said by number, as the table keeps them
    findings_table: bool = False


def prepare(items: Sequence[EvalItem], question_tokens: TokenRows | None = None, *, every_script: bool = False) -> _Prepared:
    """``question_tokens``: each question's tokens, when the caller has them already.

    ``every_script``: tokens from :func:`~reviewtui.evalset.text.words.script_tokens` (words of
    any script) instead of the tool's ASCII-only ``content_tokens``; the same on ASCII text.
    """
    seq = tuple(items)
    if question_tokens is None:
        question_tokens = TokenRows()
        add, split = question_tokens.add, script_tokens if every_script else content_tokens
        for item in seq:
            add(split(item.question))
    forms = QuestionForms(seq, spacing=every_script)
    return _Prepared(items=seq, normalised=forms, question_tokens=question_tokens, every_script=every_script)


def _repeated_forms(prep: _Prepared) -> list[list[int]]:
    """The positions of each question asked more than once (same form), groups in order of their first.

    Grouped by the hash of each form, the form itself made again only where a hash repeats, so
    that grouping a set of distinct questions does not hold a copy of every question's text.
    """
    forms, items = prep.normalised, prep.items
    first: dict[int, int] = {}  # a form's hash -> the first position with a form of that hash
    collided: dict[str, int] = {}  # a form whose hash another form had first -> its first position
    repeats: dict[int, list[int]] = {}  # first position -> every position of its form
    for position in _may_repeat(prep):
        form = normalise_question(items[position].question, spacing=prep.every_script)
        at = first.setdefault(hash(form), position)
        if at != position and forms[at] != form:
            at = collided.setdefault(form, position)
        if at != position:
            repeats.setdefault(at, [at]).append(position)
    return [repeats[at] for at in sorted(repeats)]


def _may_repeat(prep: _Prepared) -> Iterable[int]:
    """The positions whose question may be asked again elsewhere in the set (same form), ascending: all of them,
    unless the near-duplicate join has grouped the questions by their token rows already (``prep.near_groups``).

    Then only the questions that share their row with another, those without a token, and those not in ASCII:
    an ASCII question's tokens are the runs of ASCII letters and digits of its form (lower-casing aside, trimming
    and spacing change no run), so two questions of one form, one of them in ASCII, have one row. (The other is in
    ASCII too but for its Kelvin signs, the one character outside ASCII that lower-cases into it, and is read as
    "K".) On a set of distinct questions, a form made for every question was most of the time this took.
    """
    items, groups, rows = prep.items, prep.near_groups, prep.question_tokens
    n = len(items)
    if groups is None or len(groups.group_of) != n or len(rows) != n:
        return range(n)
    try:
        ascii_questions = list(map(str.isascii, map(attrgetter("question"), items)))
    except TypeError:  # a question that is not text (not from a file): every position, as normalise_question reads it
        return range(n)
    marks = bytearray(map(not_, ascii_questions))
    del ascii_questions
    for k in compress(range(n), map(not_, rows)):
        marks[k] = 1
    members = groups.members
    for g in members.shared():
        for k in members[g]:
            marks[k] = 1
    return compress(range(n), marks)


def _really_repeated(prep: _Prepared, positions: list[int]) -> list[int]:
    """The copies of one question that repeat another copy: not only ones asked of other documents."""
    items = [prep.items[p] for p in positions]
    repeats = Repeats(items, [item.id for item in items])
    return [p for k, p in enumerate(positions) if repeats.repeats_any(k)]


def _duplicate_groups(prep: _Prepared) -> list[Finding]:
    """A finding per question asked more than once: a conflict when the copies expect different
    answers, an exact duplicate otherwise.

    In the review profile (``prep.every_script``) the copies asked of different documents are
    not copies (see :class:`~reviewtui.evalset.checks.repeats.Repeats`): a question put to every
    privacy policy, each with its own answer, failed the audit as a conflict while no item's
    flags said so. Only the copies that repeat another are named, and their answers counted.
    """
    findings = []
    removed_first: list[Callable[[EvalItem], str | None]] = []  # made once, for the first BEIR copies met
    for positions in _repeated_forms(prep):
        if prep.every_script:
            positions = _really_repeated(prep, positions)
            if not positions:
                continue
        ids = tuple(prep.items[p].id for p in positions)
        answers = {normalise_question(prep.items[p].answer) for p in positions}
        if len(answers) > 1:
            findings.append(
                Finding(
                    CONFLICTING,
                    Status.FAIL,
                    Severity.HIGH,
                    ids,
                    f"{count(len(ids), 'item')} ask the same question but expect {len(answers)} different answers; "
                    f"the ground truth for it is undefined",
                    "Decide which answer is right and keep one item, before scoring anything on this question.",
                    {"duplicate_count": len(ids), "distinct_answers": len(answers)},
                )
            )
            if prep.every_script:
                # The copies that share an answer repeat each other all the same, and `filter` removes all but
                # the first of them: said only as a conflict, the audit counted none of what filter removed.
                findings += _same_answer_copies(prep, positions)
        else:
            judged = _judged_apart(prep, positions) if prep.every_script else 1
            if judged > 1:
                # A retrieval query with no answer expects its relevant documents: `reviewtui filter` keeps a copy
                # judged against other documents (removing it would lose its judgements), so "keep one copy" told
                # a reviewer to do what the filter refuses to.
                kept = f"keeps {judged:,} of them, one per set of relevant documents"
                if judged == len(ids):
                    kept = "keeps both" if judged == 2 else "keeps them all"
                kept += ", as removing one would lose its judgements"
                if not removed_first:
                    removed_first.append(_removed_before_copies(prep.items))
                # The filters before it remove the same text alike ("covid vaccine" is too short where short
                # queries are rare): "keeps them all" was said of copies that command removes, every one.
                removed_as = removed_first[0](prep.items[positions[0]])
                if removed_as is not None:
                    kept = f"removes {'both' if len(ids) == 2 else 'them all'} as {removed_as} before it compares copies"
                detail = (
                    f"{count(len(ids), 'query', 'queries')} ask the same question, judged against {judged:,} different "
                    f"sets of relevant documents, so it counts {len(ids)} times in every average; `reviewtui filter` "
                    f"{kept}"
                )
                advice = "Merge them into one query with every relevant document, or say why the repetition is intended."
            else:
                detail = (
                    f"{count(len(ids), 'item')} ask the same question "
                    f"{'with the same answer' if answers != {''} else '(none has an expected answer)'}, so it counts "
                    f"{len(ids)} times in every average"
                )
                advice = "Keep one copy, or say why the repetition is intended."
            findings.append(Finding(EXACT_DUPLICATES, Status.WARN, Severity.MEDIUM, ids, detail, advice, {"duplicate_count": len(ids)}))
    return findings


def _removed_before_copies(items: Sequence[EvalItem]) -> Callable[[EvalItem], str | None]:
    """The name of the filter `reviewtui filter` (the review chain on ``items``) removes an item with before its
    repeats filter compares copies, or None: a call per item, the chain made once (it counts the short questions of
    the whole set)."""
    from reviewtui.evalset.checks.review_filters import filters_before_copies, review_chain  # it imports this module's kin

    before, _ = filters_before_copies(review_chain(items).chain, items)

    def removed_as(item: EvalItem) -> str | None:
        return next((flt.name for flt in before if flt.check(item) is not None), None)

    return removed_as


def _judged_apart(prep: _Prepared, positions: Sequence[int]) -> int:
    """How many different sets of relevant documents copies of one query without answers are judged against
    (BEIR's ``gold_documents``); 1 where they are not such queries, or are judged against the same."""
    keys = {relevant_documents(prep.items[p]) for p in positions}
    return 1 if None in keys else len(keys)


def _same_answer_copies(prep: _Prepared, positions: Sequence[int]) -> list[Finding]:
    """Within copies of one question that expect different answers, a finding per answer two or more expect."""
    by_answer: dict[str, list[str]] = {}
    for position in positions:
        item = prep.items[position]
        by_answer.setdefault(normalise_question(item.answer), []).append(item.id)
    return [
        Finding(
            EXACT_DUPLICATES,
            Status.WARN,
            Severity.MEDIUM,
            tuple(ids),
            f"{count(len(ids), 'item')} ask the same question "
            f"{'with the same answer' if answer else '(none has an expected answer)'}, so it counts {len(ids)} times "
            f"in every average (other copies of it expect another answer)",
            "Keep one copy, or say why the repetition is intended.",
            {"duplicate_count": len(ids)},
        )
        for answer, ids in by_answer.items()
        if len(ids) > 1
    ]


#: The text and evidence of one-item findings (detail, recommendation, evidence), made once per distinct
#: finding and shared: most findings of a large set say one of a few things (a weak answer of 0, 1, 2 or 3
#: content tokens, the same ambiguity). Findings are frozen and no one writes to their evidence, so sharing
#: is safe, and a shared object is sent to another process (pickled) once, not once per item. Each check
#: caches its maker per run (functools.cache on a local function).
_Parts = tuple[str, str, dict[str, Any]]


#: A weak-answer finding's detail when the item has no expected answer at all.
NO_ANSWER_DETAIL = "the item has no expected answer"
#: The same, in a set where no item has one (the goldensetauditor profile warns of each, as that tool does).
NO_ANSWER_IN_SET_DETAIL = "the item has no expected answer, nor has any other item of the set"


class _Said:
    """What the audit's one-item findings say, each distinct thing once, numbered as a :class:`FindingTable` numbers
    them (its ``_said``), and the findings it keeps whole, shared by every check's :class:`_Entries`."""

    def __init__(self) -> None:
        self.said: list[tuple[Any, ...]] = []  # (check, status, severity, detail, recommendation, evidence)
        self.whole: list[Finding] = []
        # id(parts) -> (its number, the parts): kept alive here, so that no other parts take their id
        self._numbers: dict[int, tuple[int, _Parts]] = {}

    def number(self, check: str, status: Status, severity: Severity, parts: _Parts) -> int:
        """The number of what ``parts`` say (see _Parts: a check makes each distinct one once and shares it)."""
        known = self._numbers.get(id(parts))
        if known is not None:
            return known[0]
        detail, advice, evidence = parts
        self.said.append((check, status, severity, detail, advice, evidence))
        self._numbers[id(parts)] = (len(self.said) - 1, parts)
        return len(self.said) - 1


class _Entries:
    """One check's findings in order, as a :class:`FindingTable` keeps them: a one-item finding as the number of what
    it says and its item's position, any other as a finding (kept in ``said.whole``, -1 and its place there)."""

    def __init__(self, said: _Said) -> None:
        self.said = said
        self.what = array("i")
        self.where = array("q")

    def add_whole(self, finding: Finding) -> None:
        self.what.append(-1)
        self.where.append(len(self.said.whole))
        self.said.whole.append(finding)


def _findings_table(
    said: _Said, entries: Sequence[_Entries], items: Sequence[EvalItem], positions: Mapping[str, int] | None
) -> FindingTable:
    """The findings of ``entries``, one check's after another, as a table bound to ``items``; with ``positions`` (the
    set's id -> position), ready to be sent to another process."""
    what, where = array("i"), array("q")
    for check in entries:
        what += check.what
        where += check.where
    whole_at: list[array | None] | None = None
    if positions is not None:
        whole_at = []
        for finding in said.whole:  # as FindingTable.of keeps them: by position, to be sent without their ids
            named = [positions.get(item_id) for item_id in finding.item_ids]
            whole_at.append(None if None in named else array("q", named))
    table = FindingTable(said.said, what, where, said.whole, whole_at)
    table.bind(items)
    return table


def _whole_entries(said: _Said, findings: Iterable[Finding]) -> _Entries:
    entries = _Entries(said)
    for finding in findings:
        entries.add_whole(finding)
    return entries


def _per_item_checks(
    prep: _Prepared, config: AuditConfig, should_stop: ShouldStop | None, has_answers: bool, said: _Said
) -> tuple[_Entries, _Entries, _Entries]:
    """The checks that read one item at a time (weak answer, over-easy, ambiguous), in one pass.

    Each list is in set order. Where ``prep.release_tokens`` says so, each question's token row
    is dropped once read: these checks are its last reader, and in the scan's child the rows
    would otherwise stay alive under the findings that replace them.
    """
    # goldensetauditor warns of every missing answer, in a set without any too; the review profile says once that
    # there are none to check (a retrieval-only set warned on every item is a pane nobody reads).
    per_item = has_answers or not prep.every_script
    weak, easy, ambiguous = _Entries(said), _Entries(said), _Entries(said)
    if not per_item:
        weak.add_whole(_no_answers(WEAK_ANSWER))
        easy.add_whole(_no_answers(OVER_EASY))
    # Each finding kept as two numbers, what it says and its item's position (see _Entries): a finding object per item
    # was made here, only for the scan's child to take it apart again into those numbers.
    weak_what, weak_where = weak.what.append, weak.where.append
    number = said.number
    minimum = config.min_expected_words
    threshold = config.overeasy_overlap_threshold
    rows = prep.question_tokens
    number_of_word = rows.numbers.get
    release = prep.release_tokens
    # An answer is read as its question is: "إجازة سنوية مدفوعة" has three content words, not none.
    answer_words = script_tokens if prep.every_script else content_tokens

    @cache
    def no_answer() -> _Parts:
        return (
            NO_ANSWER_DETAIL if has_answers else NO_ANSWER_IN_SET_DETAIL,
            "Write the expected answer, or leave this item out of answer scoring.",
            {"meaningful_tokens": 0, "minimum": minimum},
        )

    @cache
    def few_tokens(tokens: int) -> _Parts:
        return (
            f"the expected answer has {count(tokens, 'content word')} (fewer than {minimum})",
            "A fuller reference answer makes grading less arbitrary; or leave this item out of answer scoring.",
            {"meaningful_tokens": tokens, "minimum": minimum},
        )

    @cache
    def too_easy(overlap: float) -> _Parts:
        return (
            f"the question and its expected answer share {overlap:.0%} of their content words",
            "Check that the answer is not simply read off the question.",
            {"token_jaccard": round(overlap, 4), "threshold": threshold},
        )

    @cache
    def unclear(vague: bool, several: bool, marks: int) -> _Parts:
        if vague and several:
            detail = (
                "a short question leans on a vague word (it/this/that/they/there) and may hold more than one question"
            )
        elif vague:
            detail = "a short question leans on a vague word (it/this/that/they/there) with nothing to pin it down"
        else:
            detail = f"the text may hold more than one question ({count(marks, 'question mark')}" + (
                ", joined by 'and')" if marks == 1 else ")"
            )
        return detail, "Make it one self-contained question.", {"question_marks": marks, "ambiguous_reference": vague}

    for position, item in enumerate(prep.items):
        if position % 4096 == 0:
            check_stop(should_stop)
        question_tokens = rows[position]
        if per_item:
            if item.answer is None:
                # The review profile: a question typed unanswerable has no answer by design, not a weak one.
                if not (prep.every_script and item.qtype == QuestionType.UNANSWERABLE):
                    weak_what(number(WEAK_ANSWER, Status.WARN, Severity.MEDIUM, no_answer()))
                    weak_where(position)
            else:
                answer_tokens = answer_words(item.answer)
                answer_count, question_count = len(answer_tokens), len(question_tokens)
                if answer_count < minimum:
                    weak_what(number(WEAK_ANSWER, Status.WARN, Severity.MEDIUM, few_tokens(answer_count)))
                    weak_where(position)
                # The overlap is at most the smaller token count over the larger (the one set inside the other), and
                # a question most often has several times the content words of its answer: the words in common are
                # counted only where that bound reaches the threshold. Division rounds monotonically, so the bound
                # as computed is never below the overlap as computed, and no over-easy item is passed over.
                fewer, more = (answer_count, question_count) if answer_count < question_count else (question_count, answer_count)
                if not more or fewer / more >= threshold:
                    # jaccard() written out, as C loops: this runs once per item. A word no question uses has no
                    # number (None), which no row holds.
                    common = sum(map(question_tokens.__contains__, map(number_of_word, answer_tokens)))
                    union = question_count + answer_count - common
                    # The tool counts a question and an answer with no content word between them as the same
                    # (overlap 1.0, "100 %"); the review profile, as for near-duplicates, compares nothing then.
                    overlap = common / union if union else (0.0 if prep.every_script else 1.0)
                    if overlap >= threshold:
                        easy.what.append(number(OVER_EASY, Status.WARN, Severity.LOW, too_easy(overlap)))
                        easy.where.append(position)
        vague, several, marks = ambiguity(item.question, question_tokens)
        if vague or several:
            ambiguous.what.append(number(AMBIGUOUS, Status.WARN, Severity.LOW, unclear(vague, several, marks)))
            ambiguous.where.append(position)
        if release:
            rows[position] = ()
    return weak, easy, ambiguous


def ambiguity(question: str, tokens: Collection[object]) -> tuple[bool, bool, int]:
    """(vague reference in a short question, several questions in one, number of question marks)."""
    marks = question.count("?")
    # Lower-cased only where it is read: most questions are long enough, with one question mark or none.
    lower = question.lower() if marks == 1 or len(tokens) < _SHORT_PROMPT_TOKENS else ""
    vague = len(tokens) < _SHORT_PROMPT_TOKENS and _AMBIGUOUS_WORD.search(lower) is not None
    several = marks > 1 or (marks >= 1 and " and " in lower)
    return vague, several, marks


def near_duplicate_pairs(
    prep: _Prepared,
    threshold: float,
    should_stop: ShouldStop | None = None,
    *,
    vectorised: bool = False,
    tokenless: bool = True,
) -> list[tuple[int, int, float]]:
    """Pairs of *different* questions (after trimming and lower-casing) with content-token Jaccard ≥ threshold.

    ``vectorised``: as for :func:`~reviewtui.evalset.checks.simjoin.similar_pairs`. With
    ``tokenless=False`` questions without a token are left out instead of counting as
    identical to each other (n such questions would make n(n-1)/2 pairs of nothing in common).
    """
    groups = near_duplicate_groups(prep, threshold, should_stop, vectorised=vectorised, tokenless=tokenless)
    return _pairs_of(prep, groups)


def _pairs_of(prep: _Prepared, groups: SimilarGroups) -> list[tuple[int, int, float]]:
    tokens, normalised = prep.question_tokens, prep.normalised
    return [(i, j, jaccard(tokens[i], tokens[j])) for i, j in groups.pairs_apart(normalised)]


def _too_many_pairs(found: int, listed: int, threshold: float) -> Finding:
    """The near-duplicate check's one finding where its pairs are too many to list one by one."""
    return Finding(
        NEAR_DUPLICATES,
        Status.INSUFFICIENT_INPUT,
        Severity.LOW,
        (),
        f"{found:,} pairs of different questions share {threshold:.0%} or more of their content words: more "
        f"than the {listed:,} this report lists one finding each (the items' own near-duplicate flags are all there)",
        "Audit in the review profile, which reports near-duplicates as clusters, or audit the set in smaller batches.",
        {"pairs": found, "listed_at_most": listed, "threshold": threshold},
    )


def near_duplicate_groups(
    prep: _Prepared,
    threshold: float,
    should_stop: ShouldStop | None = None,
    *,
    vectorised: bool = False,
    tokenless: bool = True,
) -> SimilarGroups:
    """The join behind :func:`near_duplicate_pairs`, kept as groups (see :mod:`.simgroups`); stored on ``prep``."""
    groups = similar_groups(
        prep.question_tokens, threshold, should_stop=should_stop, vectorised=vectorised, skip_empty=not tokenless
    )
    check_stop(should_stop)
    prep.near_groups = groups
    if prep.groups_made is not None:
        prep.groups_made(groups)
    return groups


#: Pairs named in a cluster finding, closest first: enough to judge it, few enough to bound the report.
CLOSEST_PAIRS = 3


def _near_duplicate_clusters(prep: _Prepared, groups: SimilarGroups, threshold: float) -> list[Finding]:
    """One finding per cluster of questions linked by near-duplicate pairs, instead of one per pair.

    Two questions that read the same after trimming and case are an exact duplicate, not a near
    one; a group of identical token sets links its members only when it holds two or more
    different questions. The finding counts the pairs and names the closest few. Its size
    grows with the number of questions, whatever the number of pairs.
    """
    normalised, tokens, items = prep.normalised, prep.question_tokens, prep.items
    # Per group of two or more different questions: how many pairs of its members ask the same one. Two numbers
    # per group, not a dict of its questions: where nearly every question has a group, those were the peak of
    # the process running the audit.
    group_count = len(groups.members)
    mixed_groups = bytearray(group_count)
    same_pairs: dict[int, int] = {}
    # The forms are made group by group and let go (kept, one per question, they were a copy of every question).
    form = normalised.form
    for g in groups.members.shared():  # a group of one holds one question
        counted: dict[str, int] = {}
        for k in groups.members[g]:
            mine = form(k)
            counted[mine] = counted.get(mine, 0) + 1
        if len(counted) > 1:
            mixed_groups[g] = 1
            same_pairs[g] = sum(f * (f - 1) // 2 for f in counted.values())

    def mixed(g: int) -> bool:
        return bool(mixed_groups[g])

    clusters = groups.clusters(keep_group=mixed)
    cluster_of = array("l", [-1]) * group_count
    for c, positions in enumerate(clusters):
        for k in positions:
            cluster_of[groups.group_of[k]] = c
    pairs = [0] * len(clusters)
    closest: list[list[tuple[float, int, int]]] = [[] for _ in clusters]
    for g, same in same_pairs.items():
        m = len(groups.members[g])
        c = cluster_of[g]
        pairs[c] += m * (m - 1) // 2 - same
        # The earliest pairs of different questions in the group (same words: similarity 1.0).
        offered = 0
        for a, b in combinations(groups.members[g], 2):
            if form(a) != form(b):
                _keep_closest(closest[c], (1.0, a, b))
                offered += 1
                if offered == CLOSEST_PAIRS:
                    break
    for g, how_many, first in groups.similar_runs(CLOSEST_PAIRS):
        c = cluster_of[g]
        pairs[c] += how_many
        if first:  # every pair of a run has the same score: offer the earliest few
            score = jaccard(tokens[first[0][0]], tokens[first[0][1]])
            for a, b in first:
                _keep_closest(closest[c], (score, a, b))
    findings = []
    for c, positions in enumerate(clusters):
        best = sorted(closest[c], key=lambda entry: (-entry[0], entry[1], entry[2]))
        if len(positions) == 2 and best[0][0] >= 1.0:
            apart = symbols_apart(items[positions[0]].question, items[positions[1]].question)
            detail = (
                f"two questions have the same content words, but {apart}: probably two questions (the items' flags are hints)"
                if apart  # "B+" and "B-": as the items' own flags say it
                else "two different questions have the same content words (in another order or form, or with other words "
                "not counted as content)"
            )
        elif len(positions) == 2:
            detail = f"two different questions share {best[0][0]:.0%} of their content words"
        else:
            named = "; ".join(f"{in_quotes(items[a].id)} and {in_quotes(items[b].id)} ({score:.0%})" for score, a, b in best)
            detail = (
                f"{len(positions):,} questions are near-duplicates of one another: {pairs[c]:,} pairs share at least "
                f"{threshold:.0%} of their content words; the closest: {named}"
            )
        findings.append(
            Finding(
                NEAR_DUPLICATES,
                Status.WARN,
                Severity.MEDIUM,
                tuple(items[k].id for k in positions),
                detail,
                "Merge them, drop all but one, or mark the deliberate paraphrases.",
                {
                    "pairs": pairs[c],
                    "closest": [[items[a].id, items[b].id, round(score, 4)] for score, a, b in best],
                    "threshold": threshold,
                },
            )
        )
    return findings


def _keep_closest(kept: list[tuple[float, int, int]], candidate: tuple[float, int, int]) -> None:
    """Keep the CLOSEST_PAIRS best of what is offered: highest score, then earliest positions."""
    kept.append(candidate)
    if len(kept) > CLOSEST_PAIRS:
        kept.sort(key=lambda entry: (-entry[0], entry[1], entry[2]))
        del kept[CLOSEST_PAIRS:]


#: What goldensetauditor weighs a near-duplicate pair (one finding each), and so what its profile's flags of the pairs
#: this audit's join found weigh.
NEAR_PAIR_SEVERITY = Severity.MEDIUM


def _near_duplicates(prep: _Prepared, pairs: list[tuple[int, int, float]], threshold: float) -> list[Finding]:
    findings = []
    for i, j, score in pairs:
        no_tokens = not prep.question_tokens[i]
        detail = (
            "neither question has a content word the audit can compare (ASCII words other than the most common "
            "ones), so the two count as identical"
            if no_tokens
            else f"two different questions share {score:.0%} of their content words"
        )
        findings.append(
            Finding(
                NEAR_DUPLICATES,
                Status.WARN,
                NEAR_PAIR_SEVERITY,
                (prep.items[i].id, prep.items[j].id),
                detail,
                "Merge them, drop one, or mark one as a deliberate paraphrase.",
                {"token_jaccard": round(score, 4), "threshold": threshold, "no_content_tokens": no_tokens},
            )
        )
    return findings


def resolve_category(items: Sequence[EvalItem], config: AuditConfig) -> tuple[AuditConfig, str]:
    """Use the question type when a named meta key is absent but the readers file that column as the type.

    ``--category-key category`` on a CSV with a ``category`` column means the type:
    the CSV reader stores that column in ``qtype``. Any other absent key is left
    as it is, and the coverage check reports it.
    """
    key = config.category_key
    if key in (None, "qtype") or any(item.meta and key in item.meta for item in items):
        return config, ""
    from reviewtui.evalset.io.csvcells import FIELD_ALIASES, normalise_header

    if normalise_header(key) in FIELD_ALIASES["qtype"] and any(item.qtype is not None for item in items):
        return replace(
            config, category_key=None
        ), f"no item has meta[{key!r}]; its column was read as the question type"
    return config, ""


def _category_coverage(prep: _Prepared, config: AuditConfig) -> tuple[list[Finding], str, int | None]:
    """The coverage findings, the check's note, and the number of categories (None when there are none)."""
    if config.category_key in (None, "qtype"):  # category_of() without a call per item
        values = [item.qtype for item in prep.items]
    else:
        values = [config.category_of(item) for item in prep.items]
    if all(value is None for value in values):
        return (
            [
                Finding(
                    CATEGORY_COVERAGE,
                    Status.INSUFFICIENT_INPUT,
                    Severity.LOW,
                    (),
                    f"no item has a category ({config.category_label})",
                    "Label question types, or name the meta key that holds a category, to check coverage per category.",
                )
            ],
            "no categories",
            None,
        )
    members: dict[str, list[str]] = {}
    for item, value in zip(prep.items, values):
        members.setdefault(MISSING_CATEGORY if value is None else str(value), []).append(item.id)
    findings = []
    for category, ids in members.items():
        if len(ids) < config.min_category_count:
            findings.append(
                Finding(
                    CATEGORY_COVERAGE,
                    Status.WARN,
                    Severity.MEDIUM,
                    tuple(ids),
                    f"category {category!r} has {count(len(ids), 'question')} (fewer than {config.min_category_count}); "
                    f"a score for it is mostly noise",
                    "Add questions to it, or do not report a score for this category.",
                    {"category": category, "count": len(ids), "minimum": config.min_category_count},
                )
            )
    return findings, count(len(members), "category", "categories"), len(members)


def _no_answers(check: str) -> Finding:
    return Finding(
        check,
        Status.INSUFFICIENT_INPUT,
        Severity.LOW,
        (),
        "no item in the set has an expected answer",
        "Add expected answers to check them; retrieval-only sets can ignore this.",
    )


@gc_paused()  # millions of short-lived containers, no cycles: the collector only costs time
def audit(
    evalset: EvalSet | Sequence[EvalItem],
    config: AuditConfig | None = None,
    *,
    category_key: str | None = None,
    progress: Progress | None = None,
    should_stop: ShouldStop | None = None,
    prepared: _Prepared | None = None,
    vectorised: bool = False,
    every_script: bool = False,
    max_pairs_listed: int | None = None,
) -> AuditReport:
    """Run the seven checks. ``category_key`` overrides ``config.category_key``.

    ``every_script`` (the review profile's reading; off, the tool's own): questions are
    compared on words of any script (see :func:`prepare`), questions without any token are
    not near-duplicates of each other, nor over-easy when the answer has none either, a
    question typed unanswerable is not a weak answer for having no answer, and
    near-duplicates are reported as clusters, one finding per cluster with its pair count
    and closest pairs, instead of one per pair.

    ``progress(done, total)`` is called after each check; ``should_stop`` is polled
    between chunks and stops the audit with :class:`~reviewtui.evalset.jobs.cancel.ScanCancelled`.
    ``vectorised=True`` lets numpy find the near-duplicate pairs (the same pairs; see
    :func:`~reviewtui.evalset.checks.simjoin.similar_pairs` for when to ask for it).

    ``max_pairs_listed``: without ``every_script``, near-duplicates are one finding per pair,
    and a set of templates holds billions of pairs. Past this many the pairs are counted, not
    listed, and the check says so in one INSUFFICIENT_INPUT finding, as goldensetauditor does past
    its own limit (None, the default: every pair is listed, as documented).
    """
    config = config or AuditConfig()
    if category_key is not None:
        config = replace(config, category_key=category_key)
    items = tuple(evalset.items if isinstance(evalset, EvalSet) else evalset)
    config, category_note = resolve_category(items, config)
    steps = 5

    def step(done: int) -> None:
        check_stop(should_stop)
        if progress is not None:
            progress(done, steps)

    prep = prepared if prepared is not None else prepare(items, every_script=every_script)
    step(1)
    # The join first: its arrays (one entry per token of every question) are then not stacked on the
    # findings of the checks below (one per item on a set of short answers). The report lists the
    # checks in their own order whatever the order they ran in.
    threshold = config.near_duplicate_threshold
    if every_script:  # clusters, bounded whatever the number of pairs
        groups = near_duplicate_groups(prep, threshold, should_stop, vectorised=vectorised, tokenless=False)
        near = _near_duplicate_clusters(prep, groups, threshold)
    else:  # one finding per pair, as the tool reports them
        groups = near_duplicate_groups(prep, threshold, should_stop, vectorised=vectorised)
        found = None if max_pairs_listed is None else groups.pair_count_apart(prep.normalised)
        if found is not None and max_pairs_listed is not None and found > max_pairs_listed:
            near = [_too_many_pairs(found, max_pairs_listed, threshold)]
        else:
            pairs = _pairs_of(prep, groups)
            near = _near_duplicates(prep, pairs, threshold)
    step(2)
    duplicates = _duplicate_groups(prep)
    step(3)
    has_answers = any(item.answer is not None for item in items)
    said = _Said()
    weak, easy, ambiguous = _per_item_checks(prep, config, should_stop, has_answers, said)
    step(4)
    coverage, coverage_note, category_count = _category_coverage(prep, config)
    step(5)

    entries = [
        _whole_entries(said, (f for f in duplicates if f.check == CONFLICTING)),
        _whole_entries(said, (f for f in duplicates if f.check == EXACT_DUPLICATES)),
        weak,
        ambiguous,
        easy,
        _whole_entries(said, near),
        _whole_entries(said, coverage),
    ]
    if category_note:
        coverage_note = f"{coverage_note}; {category_note}"
    compared = "all pairs compared, on words of any script; one finding per cluster" if every_script else "all pairs compared"
    notes = {CATEGORY_COVERAGE: coverage_note, NEAR_DUPLICATES: compared}
    position = evalset.positions if isinstance(evalset, EvalSet) else None
    # The set's own id -> position table, where it holds every item: a one-item finding's item is then its position.
    whole = position is not None and len(position) == len(items)
    as_table = prep.findings_table and whole
    table = _findings_table(said, entries, prep.items, position if as_table else None)
    del entries
    findings: Sequence[Finding] = table if as_table else tuple(table)
    tally = _tally(table, position) if whole and position is not None else _tally_findings(findings, position)
    checks = []
    for check in CHECKS:
        count_of, statuses_of, named = tally.get(check, (0, Counter(), 0))
        status = overall_status_of(statuses_of) if count_of else Status.PASS
        checks.append(CheckResult(check, status, count_of, named, notes.get(check, "")))
    statuses = tally[_EVERY][1]
    summary: dict[str, Any] = {
        "items": len(items),
        "finding_count": len(findings),
        "fail_count": statuses[Status.FAIL],
        "warn_count": statuses[Status.WARN],
        "insufficient_input_count": statuses[Status.INSUFFICIENT_INPUT],
        "items_named": tally[_EVERY][2],
    }
    if category_count is not None:
        summary["category_count"] = category_count
    set_id = evalset.id if isinstance(evalset, EvalSet) else ""
    version = evalset.version if isinstance(evalset, EvalSet) else 1
    return AuditReport(overall_status_of(statuses), findings, tuple(checks), summary, config, set_id, version)  # type: ignore[arg-type]


_EVERY = ""  # the tally of every finding, beside each check's (no check is named so)
_Tally = dict[str, tuple[int, Counter[Status], int]]  # check -> (findings, their statuses, items named)


def _tally_findings(findings: Sequence[Finding], position: Mapping[str, int] | None) -> _Tally:
    """Per check and for every finding: how many there are, their statuses, how many items they name (each once;
    ``position``: as for :func:`_named_count`)."""
    of_check: dict[str, list[Finding]] = {}
    for finding in findings:
        of_check.setdefault(finding.check, []).append(finding)
    tally = {check: (len(mine), Counter(f.status for f in mine), _named_count(mine, position)) for check, mine in of_check.items()}
    tally[_EVERY] = (len(findings), Counter(f.status for f in findings), _named_count(findings, position))
    return tally


def _tally(table: FindingTable, position: Mapping[str, int]) -> _Tally:
    """:func:`_tally_findings` read from a table of the set's findings (``position``: the set's id -> position), without
    making its one-item findings: each is counted by what it says, and its item marked at its position."""
    said, what, where, whole = table._said, table._what, table._where, table._whole
    marks: dict[str, bytearray] = {}
    elsewhere: dict[str, set[str]] = {}
    counts: dict[str, int] = {}
    statuses: dict[str, Counter[Status]] = {}
    every_marks, every_elsewhere = bytearray(len(position)), set()

    def of(check: str) -> bytearray:
        found = marks.get(check)
        if found is None:
            found = marks[check] = bytearray(len(position))
            elsewhere[check] = set()
            counts[check] = 0
            statuses[check] = Counter()
        return found

    for number, times in Counter(what).items():  # a C loop over every finding
        if number >= 0:
            check, status = said[number][0], said[number][1]
            of(check)
            counts[check] += times
            statuses[check][status] += times
    for number, at in zip(what, where):
        if number >= 0:
            check = said[number][0]
            marks[check][at] = 1
            every_marks[at] = 1
        else:
            finding = whole[at]
            check = finding.check
            mine = of(check)
            counts[check] += 1
            statuses[check][finding.status] += 1
            for item_id in finding.item_ids:
                k = position.get(item_id)
                if k is None:
                    elsewhere[check].add(item_id)
                    every_elsewhere.add(item_id)
                else:
                    mine[k] = 1
                    every_marks[k] = 1
    tally = {check: (counts[check], statuses[check], marks[check].count(1) + len(elsewhere[check])) for check in marks}
    every_status: Counter[Status] = Counter()
    for found in statuses.values():
        every_status.update(found)
    tally[_EVERY] = (len(what), every_status, every_marks.count(1) + len(every_elsewhere))
    return tally


# The seven checks, as goldensetauditor runs them; the review app shows their findings as per-item flags.
# Severity notes: the share of real items (under shared/realdata) each fired on.
# The goldensetauditor profile weighs each flag as the tool weighs the finding it comes from (the last column).
_AUDIT_SEVERITY = (  # name, severity, severity in the review profile (None: the same), why, the tool's own
    (CONFLICTING, Severity.HIGH, None, "Same question, different expected answers: the ground truth is undefined", None),
    (EXACT_DUPLICATES, Severity.MEDIUM, None, "Shown per item as exact-duplicate (see policy)", None),
    (
        WEAK_ANSWER,
        Severity.LOW,
        Severity.HINT,
        "Fewer than 4 content words: 39 % of real items, 80-95 % of short-answer sets; right on 6 of 113 labelled "
        "items (tests/devset): a name, a number or a date is a complete answer to what most questions ask",
        Severity.MEDIUM,
    ),
    (
        AMBIGUOUS,
        Severity.LOW,
        Severity.HINT,
        "goldensetauditor's heuristic: 16 % of real items, right on 9 of 131 labelled items (an 'and' inside a name, "
        "'how many ... are there')",
        None,
    ),
    (
        OVER_EASY,
        Severity.MEDIUM,
        None,
        "Answer repeating the question: 1 of 2,333 real items (the demo set's seeded Q008)",
        Severity.LOW,
    ),
    (NEAR_DUPLICATES, Severity.LOW, None, "Shown per item as near-duplicate (see the filter's note)", None),
    (
        CATEGORY_COVERAGE,
        Severity.LOW,
        Severity.HINT,
        "A category with < 3 questions (0.6 %): a property of the set, not of the item; wrong on all 21 labelled flags",
        Severity.MEDIUM,
    ),
)
for _name, _severity, _review, _note, _tool in _AUDIT_SEVERITY:
    register(
        Check(
            _name,
            AUDIT,
            _severity,
            _note,
            profiles=frozenset({REVIEW, GOLDENSETAUDITOR}),
            module=__name__,
            review_severity=_review,
            gsa_severity=_tool,
        )
    )

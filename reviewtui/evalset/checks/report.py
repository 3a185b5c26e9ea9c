"""The audit report as plain text, JSON, Markdown or one self-contained HTML file.

Every string that comes from the data (ids, questions, categories, reasons) is
treated as hostile: control and bidi characters are shown as escapes in every
format; HTML escapes ``& < > " '`` and forbids scripts and remote loads through
its Content-Security-Policy; Markdown escapes its own punctuation and HTML's.
Nothing from the data is ever interpreted as markup.

Long lists are cut in the human formats (``limit`` findings per check and
flagged items); JSON always carries everything.
"""

from __future__ import annotations

import html
import re
from array import array
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from itertools import compress, islice
from operator import not_
from typing import Any, cast

import orjson

from reviewtui import __version__
from reviewtui.evalset.checks.audit import CHECKS, NEAR_DUPLICATES, AuditReport, CheckResult, Finding, FindingTable, Status
from reviewtui.evalset.checks.policy import NEAR_DUPLICATE
from reviewtui.evalset.checks.registry import AUDIT, REVIEW, checks
from reviewtui.evalset.checks.scan import FlagScan, FlagTable
from reviewtui.evalset.jobs.cancel import ShouldStop
from reviewtui.evalset.jobs.channel import Sender, Spooled, WorkerError, out_of_room
from reviewtui.evalset.jobs.collector import gc_paused
from reviewtui.evalset.jobs.fork import ForkedJob, can_fork
from reviewtui.evalset.model.flag import Severity
from reviewtui.evalset.text.counts import count
from reviewtui.evalset.text.words import visible, visible_id

__all__ = ["FORMATS", "render", "to_html", "to_json", "to_markdown", "to_text"]

FORMATS = ("text", "json", "md", "html")

BOUNDARY = (
    "This audit checks the eval set itself: its questions, expected answers and categories. "
    "It does not grade model answers, and it cannot tell whether an expected answer is true."
)

_DEFAULT_LIMIT = 50


def _by_check(findings: Iterable[Finding]) -> dict[str, list[Finding]]:
    grouped: dict[str, list[Finding]] = {check: [] for check in CHECKS}
    for finding in findings:
        grouped.setdefault(finding.check, []).append(finding)
    return grouped


class _Weighing:
    """What a report says each finding weighs: the profile's weight of its check, and in the review profile a
    near-duplicate cluster's from its items' flags.

    ``checks``: check name -> its weight (empty: findings as the audit weighs them). ``near``: an item's
    near-duplicate flag's severity as the scan weighed it (None: no scan, or not the review profile).
    """

    __slots__ = ("checks", "near")

    def __init__(self, checks: Mapping[str, Severity], near: Callable[[str], Severity | None] | None = None) -> None:
        self.checks = checks
        self.near = near


def _weighed(finding: Finding, weighing: _Weighing) -> Severity | None:
    """A finding's severity as the report's profile weighs it, where it weighs it otherwise.

    Findings carry goldensetauditor's own severities (that tool's parity), and its profile's report
    shows them so. The review profile's report showed "low" of an over-easy finding whose item's flag
    said "medium", and "medium" of weak answers shown as hints: there a finding about items says what
    their flags say. A near-duplicate cluster says the worst of its items' near-duplicate flags: those
    weigh each item's closest partner (the same answer or quotes, medium; asked of other documents, a
    hint), and a cluster said "low" of items every one of whose flags was a hint (maud's q14, q16, q17).
    """
    if finding.status not in (Status.WARN, Status.FAIL):
        return finding.severity
    if finding.check == NEAR_DUPLICATES and weighing.near is not None:
        worst = max((s for s in map(weighing.near, finding.item_ids) if s is not None), default=None)
        if worst is not None:
            return worst
    return weighing.checks.get(finding.check, finding.severity)


def _weights(scan: FlagScan | None) -> _Weighing:
    """How the report of ``scan`` weighs its findings (as the audit does for another profile than review, or without
    a scan)."""
    if scan is None or scan.profile != REVIEW:
        return _Weighing({})
    return _Weighing(_profile_weights(REVIEW), _near_severity(scan))


def _near_severity(scan: FlagScan) -> Callable[[str], Severity | None]:
    flags = scan.flags
    if isinstance(flags, FlagTable):
        return flags.near_severity

    def near(item_id: str) -> Severity | None:
        found = flags.get(item_id) or ()
        return max((flag.severity for flag in found if flag.check == NEAR_DUPLICATE), default=None)

    return near


def _profile_weights(profile: str | None) -> Mapping[str, Severity]:
    if profile != REVIEW:
        return {}
    return {check.name: check.review_severity if check.review_severity is not None else check.severity for check in checks(AUDIT)}


def _weighed_by_flags(findings: Sequence[Finding], profile: str | None) -> int:
    """Where the findings begin whose weight in ``profile`` is read from the items' flags: the first near-duplicate
    cluster in the review profile (the audit lists them together, after the one-item checks); past the end in
    another profile."""
    if profile != REVIEW:
        return len(findings)
    if isinstance(findings, FindingTable):  # the one-item findings kept as numbers are not made to be read
        for at, (finding, _, _) in enumerate(findings.walk()):
            if finding is not None and finding.check == NEAR_DUPLICATES:
                return at
        return len(findings)
    return next((at for at, finding in enumerate(findings) if finding.check == NEAR_DUPLICATES), len(findings))


def _severity(finding: Finding, weighing: _Weighing) -> str:
    severity = _weighed(finding, weighing)
    return "none" if severity is None else severity.label


def _finding_dict(finding: Finding, weighing: _Weighing) -> dict[str, Any]:
    made = finding.to_dict()
    severity = _weighed(finding, weighing)
    if severity is not finding.severity:
        made["severity"] = None if severity is None else severity.label
    return made


# --- JSON -----------------------------------------------------------------------------------


def warning_and_hint_counts(scan: FlagScan) -> tuple[dict[str, int], dict[str, int]]:
    """Per check: the items it warns (a flag at low or above), and the items it only hints at.

    One count per item and check, as the app's pane shows them: an item whose check raises a
    warning and a hint counts once, as warned.
    """
    warned: dict[str, int] = {}
    hinted: dict[str, int] = {}

    def count_in(flags: Sequence[tuple[str, Severity]], items: int) -> None:
        if len(flags) == 1:  # most items: one flag, nothing to weigh against
            check, severity = flags[0]
            target = warned if severity >= Severity.LOW else hinted
            target[check] = target.get(check, 0) + items
            return
        worst: dict[str, int] = {}
        for check, severity in flags:
            if severity > worst.get(check, -1):
                worst[check] = severity
        for check, worst_severity in worst.items():
            target = warned if worst_severity >= Severity.LOW else hinted
            target[check] = target.get(check, 0) + items

    table = scan.flags
    if not isinstance(table, FlagTable):
        for found in table.values():
            count_in([(flag.check, flag.severity) for flag in found], 1)
        return warned, hinted
    # Items with one key weigh alike (most share a few lists): each key is counted in where the walk first meets
    # it (so each check is met first where a walk item by item met it), and its other items at the end, at once.
    met: dict[Hashable, int] = {}  # the weights' key -> its items met
    first: dict[Hashable, Sequence[tuple[str, Severity]]] = {}
    for _, key, flags in table.weights_by_position():
        if key is not None:
            seen = met.get(key)
            if seen is not None:
                met[key] = seen + 1
                continue
            met[key] = 1
            first[key] = flags
        count_in(flags, 1)
    for key, items in met.items():
        if items > 1:
            count_in(first[key], items - 1)
    return warned, hinted


def _flag_weights(scan: FlagScan) -> Iterable[tuple[str, Sequence[tuple[str, Severity]]]]:
    """(item id, the check and severity of each of its flags), in set order: read from a scan's table as it keeps
    them (each item's flags made only to be counted cost as much as the rest of the report)."""
    flags = scan.flags
    if isinstance(flags, FlagTable):
        return flags.weights()
    return ((item_id, [(flag.check, flag.severity) for flag in found]) for item_id, found in flags.items())


def to_json(report: AuditReport, scan: FlagScan | None = None) -> str:
    """Everything: report, per-check results, every finding, and per-item flags when a scan is given."""
    return to_json_bytes(report, scan).decode()


def to_json_bytes(report: AuditReport, scan: FlagScan | None = None) -> bytes:
    """:func:`to_json` as UTF-8 bytes."""
    return b"".join(to_json_chunks(report, scan))


_INDENT = orjson.OPT_INDENT_2


def to_json_chunks(report: AuditReport, scan: FlagScan | None = None, *, flags_apart: bool = False) -> Iterator[bytes]:
    """:func:`to_json_bytes` in pieces, byte for byte the same document.

    The findings and the per-item flags are made into dicts and dumped one at a time, so
    a report of a large set is never held whole in memory, as a tree of dicts or as text:
    a file can be written as the pieces come (``atomic_write`` takes them).

    ``flags_apart``: on a large scan, the per-item flags (the report's last member) are made
    into JSON by a forked child, on another core, while this process writes everything before
    them (see :class:`_FlagsMadeApart`); where no child can be made, they are made here.
    """
    apart = _FlagsMadeApart.start(scan) if flags_apart and scan is not None else None
    try:
        yield from _json_chunks(report, scan, apart)
    finally:
        if apart is not None:
            apart.close()  # the child is ended, whether or not its part was read


def _json_chunks(report: AuditReport, scan: FlagScan | None, apart: _FlagsMadeApart | None) -> Iterator[bytes]:
    with gc_paused():  # a dict per finding and per flag, hundreds of thousands on a large set, none of them cyclic
        head: dict[str, Any] = {"tool": f"reviewtui {__version__}", **report.to_dict(findings=False)}
        yield b"{\n" + b",\n".join(_member(key, value) for key, value in head.items())
        yield b",\n"
        made = None if scan is None else scan.findings_json
        findings = report.findings
        if scan is not None and made is not None and made.findings is findings and made.profile == scan.profile:
            yield from made.chunks()  # written by the scan's child while this process merged (scan_flags)
            ahead = _weighed_by_flags(findings, scan.profile)  # those the child could weigh without the flags
        else:
            yield _array_open("findings")
            ahead = 0
        weighing = _weights(scan)
        # Past the child's by index: skipping them by iterating would make each finding a table keeps as numbers.
        rest = findings if ahead == 0 else findings[ahead:]
        yield from _array_elements((_finding_dict(f, weighing) for f in rest), first=ahead == 0)
        yield _array_close(empty=not findings)
        tail: dict[str, Any] = {"truth_boundary": BOUNDARY}
        if scan is not None:
            tail["profile"] = scan.profile
            tail["cautions"] = [{"level": e.level, "topic": e.topic, "message": e.message} for e in scan.cautions]
            tail["flag_counts"] = dict(scan.counts)  # items per check, whatever the weight (hints included)
            tail["warning_counts"], tail["hint_counts"] = warning_and_hint_counts(scan)
            # the items each check's flag names that its findings leave out
            beyond = flagged_beyond_findings(report, scan)
            tail["warned_beyond_findings"] = {check: warned for check, (warned, _) in beyond.items() if warned}
            tail["hinted_beyond_findings"] = {check: hinted for check, (_, hinted) in beyond.items() if hinted}
        yield b"".join(b",\n" + _member(key, value) for key, value in tail.items())
        if scan is not None:
            yield b",\n" + b'  "flags": '
            yield from apart.chunks() if apart is not None else _object_body(scan.dicts())
        yield b"\n}\n"


#: Flagged items from which ``to_json_chunks(flags_apart=True)`` has a forked child make the flags' JSON: below
#: this the fork and the copy cost about as much as they save.
FLAGS_APART_FROM = 20_000


class _FlagsMadeApart:
    """A scan's per-item flags as the JSON report writes them, made by a forked child.

    Making them is the larger part of writing a large report (a dict per flag, dumped, for each
    of 100k items), and the last: the child makes them from the scan it shares with this process,
    into a temporary file (in the temporary folder, on disk as a rule, not in memory), while
    this process writes the report's head, the audit's findings and the counts; then they are
    copied a piece at a time (channel.PIECE). A child that could not write them (a full temporary folder, or
    killed) leaves them to be made here; any other failure is raised.
    """

    def __init__(self, scan: FlagScan, job: ForkedJob | None) -> None:
        self._scan = scan
        self._job = job

    @classmethod
    def start(cls, scan: FlagScan) -> _FlagsMadeApart | None:
        """The child at work on ``scan``'s flags; None for a small scan, or where no child can be made."""
        if len(scan.flags) < FLAGS_APART_FROM or not can_fork():
            return None

        def in_child(send: Sender, parent_gone: ShouldStop) -> None:
            with gc_paused():
                send.send_bytes(_object_body(scan.dicts()))

        job = ForkedJob(in_child, raw_file=True)
        try:
            job.start()
        except OSError:  # out of processes, memory or temporary space: made here
            return None
        return cls(scan, job)

    def chunks(self) -> Iterator[bytes]:
        made: Spooled | None = None
        if self._job is not None:
            try:
                made = self._job.receive()
            except WorkerError as error:
                if not out_of_room(error):
                    raise
            finally:
                self.close()
        if made is None:
            yield from _object_body(self._scan.dicts())
            return
        try:
            yield from made.chunks()
        finally:
            made.close()

    def close(self) -> None:
        if self._job is not None:
            self._job.close()
            self._job = None


def findings_json_chunks(report: AuditReport, profile: str | None) -> Iterator[bytes]:
    """The start of the JSON report's ``"findings": [...]`` member, in pieces, weighed for ``profile`` (None: as the
    audit weighs them): every finding whose weight is not read from the items' flags, and no closing bracket.

    The scan's child makes these from its own audit while the parent merges the flags
    (``scan_flags(findings_json=...)``), and :func:`to_json_chunks` copies them, byte for byte
    what it would have made itself, then writes the rest (the review profile's near-duplicate
    clusters, weighed by their items' flags, which the child does not have)."""
    weighing = _Weighing(_profile_weights(profile))
    findings = report.findings
    ahead = _weighed_by_flags(findings, profile)
    with gc_paused():
        yield _array_open("findings")
        yield from _array_elements((_finding_dict(finding, weighing) for finding in islice(findings, ahead)), first=True)


def _member(key: str, value: Any) -> bytes:
    """One member of the top-level object, laid out as OPT_INDENT_2 lays it out there."""
    return b"  " + orjson.dumps(key) + b": " + orjson.dumps(value, option=_INDENT).replace(b"\n", b"\n  ")


#: Elements (findings, items' flags) dumped per piece. Small enough that a piece and its copies (the dump, its
#: indented copy, that copy after a comma) stay under the C library's mapping threshold (collector.LARGE_BLOCK, a few
#: hundred bytes an element): larger pieces each came from a mapping of their own, whose pages were faulted in
#: afresh and handed back for every piece, a tenth of the time the report's JSON took to make.
_BATCH = 256


def _array_member(key: str, elements: Iterable[Any], batch: int = _BATCH) -> Iterator[bytes]:
    """``"key": [...]`` at the top level's depth, as OPT_INDENT_2 lays it out there, a batch per piece.

    Elements are dumped a batch at a time, as one list each: orjson lays a list's elements out
    one level in, so a batch needs only its brackets taken off and one more level added. Each
    batch is its own piece, so the whole array (a finding per item on a large set) is never
    held in memory as text.
    """
    yield _array_open(key)
    empty = True
    for piece in _array_elements(elements, first=True, batch=batch):
        yield piece
        empty = False
    yield _array_close(empty)


def _array_open(key: str) -> bytes:
    return b"  " + orjson.dumps(key) + b": ["


def _array_elements(elements: Iterable[Any], *, first: bool, batch: int = _BATCH) -> Iterator[bytes]:
    """The elements of an array :func:`_array_open` began, a batch per piece; ``first``: none was written before them
    (else each piece begins with a comma)."""
    iterator = iter(elements)
    while chunk := list(islice(iterator, batch)):
        yield _inner(chunk, first)  # b"[\n  {...},\n  {...}\n]" -> b"\n    {...},\n    {...}", after a comma but first
        first = False


def _array_close(empty: bool) -> bytes:
    return b"]" if empty else b"\n  ]"


def _inner(batch: list[Any] | dict[str, Any], first: bool) -> bytes:
    """A batch dumped as one list or object, without its brackets and one level further in, after a comma unless
    it is the ``first``; ``batch`` is emptied.

    Each copy let go before the next: the batch, its text, that text's slice, its indented copy and that copy
    after a comma, held beside each other, were several times a batch of the largest findings (a cluster naming
    thousands of items), in the process whose peak can be the command's.
    """
    dumped = orjson.dumps(batch, option=_INDENT)
    batch.clear()
    indented = dumped.replace(b"\n", b"\n  ")  # its closing bracket's line, "\n]", is "\n  ]" now
    del dumped
    if first:
        return indented[1:-4]
    piece = bytearray(indented)
    del indented
    piece[0] = ord(",")  # in place of the opening bracket
    del piece[-4:]
    return cast("bytes", piece)  # a bytearray: every reader of these pieces (a write, a join) takes it as bytes


def _object_body(members: Iterable[tuple[str, Any]], batch: int = _BATCH) -> Iterator[bytes]:
    """``{...}`` at the top level's depth, a batch of members per piece (dumped as one object, as in _array_member)."""
    yield b"{"
    iterator = iter(members)
    empty = True
    while chunk := dict(islice(iterator, batch)):
        yield _inner(chunk, empty)  # b'{\n  "key": ...,\n  ...\n}'
        empty = False
    yield b"}" if empty else b"\n  }"


def _count_lines(scan: FlagScan) -> list[str]:
    """Two lines: the items each check warns, and those it only hints at (plain text; escape per format)."""
    warnings, hints = warning_and_hint_counts(scan)

    def listed(counts: dict[str, int]) -> str:
        return ", ".join(f"{check} {n:,}" for check, n in sorted(counts.items(), key=lambda kv: -kv[1])) or "none"

    return [
        f"items each check warns ({scan.profile} profile, low or above): {listed(warnings)}",
        f"items each check only hints at (shown dimmed, not counted as warnings; an item may be warned by another check): {listed(hints)}",
    ]


#: An audit check's name -> the name its per-item flags go by, where the two differ.
_FLAG_OF_CHECK = {"near-duplicates": "near-duplicate", "exact-duplicates": "exact-duplicate"}


def flagged_beyond_findings(report: AuditReport, scan: FlagScan | None) -> dict[str, tuple[list[str], list[str]]]:
    """Per check of the table: the items flagged with that check's flag that none of the check's findings
    name, in set order, as (warned: low or above, only hinted).

    The table's checks measure as the audit measures; an item's flag may also weigh what the
    audit does not (PrivacyQA's lb90 is warned as a near-duplicate because its words overlap
    lb89's and both cite the same evidence, while their content words fall under the audit's
    threshold; the duplicate filter's own measure, word overlap, flags pairs the audit's content
    words do not reach). A report whose flags name items its own table leaves out reads as two
    answers (a table of 6 near-duplicate items beside 16 flagged); this is what the table's note
    and the JSON say instead, in either profile.
    """
    if scan is None:
        return {}
    named = _Named(getattr(scan.flags, "positions", None))
    findings = report.findings
    if isinstance(findings, FindingTable) and named.by_position:
        marks_of: dict[int, bytearray] = {}  # what a finding says -> its check's marks: most findings say one of a few
        for finding, said, position in findings.walk():  # the findings kept as numbers are not made to be read
            if finding is None:
                marks = marks_of.get(said)
                if marks is None:
                    marks = marks_of[said] = named.marks(findings.check_of(said))
                marks[position] = 1
            else:
                named.add(finding.check, finding.item_ids)
    else:
        for finding in findings:
            named.add(finding.check, finding.item_ids)
    check_of_flag = {_FLAG_OF_CHECK.get(check.check, check.check): check.check for check in report.checks}
    beyond: dict[str, tuple[list[str], list[str]]] = {}
    table = scan.flags
    if isinstance(table, FlagTable) and named.by_position:
        _beyond_by_position(table, named, check_of_flag, beyond)
        return beyond
    for item_id, flags in _flag_weights(scan):
        for flag_check, severity in flags:  # worst first: an item warned by a check is not also listed as hinted by it
            check = check_of_flag.get(flag_check)
            if check is None or named.names(check, item_id):
                continue
            warned, hinted = beyond.setdefault(check, ([], []))
            if item_id in warned[-1:] or item_id in hinted[-1:]:
                continue
            (warned if severity >= Severity.LOW else hinted).append(item_id)
    return beyond


def _beyond_by_position(
    table: FlagTable, named: _Named, check_of_flag: Mapping[str, str], beyond: dict[str, tuple[list[str], list[str]]]
) -> None:
    """:func:`flagged_beyond_findings`'s walk over a table's items, by position. What a list of flags asks (its
    checks of the table, each once, at its first flag's weight: the worst, since lists go worst first) is worked
    out once for the items that weigh alike, which are then sifted together; each check's items are put back in
    set order, and the checks in the order a walk item by item would have met them."""
    items = table.set_items

    def asked(flags: Sequence[tuple[str, Severity]]) -> list[tuple[str, bool]]:
        found: list[tuple[str, bool]] = []
        for flag_check, severity in flags:
            check = check_of_flag.get(flag_check)
            if check is not None and all(check != seen for seen, _ in found):
                found.append((check, severity >= Severity.LOW))
        return found

    asks: dict[Hashable, list[tuple[str, bool]]] = {}  # the weights' key -> what they ask
    alike: dict[Hashable, array] = {}  # the weights' key -> the positions of its items (numbers, not int objects)
    listed: dict[tuple[str, bool], array] = {}  # (check, warned) -> positions, in no order yet
    for k, key, flags in table.weights_by_position():
        if key is None:  # a list given whole
            for entry in asked(flags):
                listed.setdefault(entry, array("l")).append(k)
            continue
        positions = alike.get(key)
        if positions is None:
            alike[key] = array("l", (k,))
            asks[key] = asked(flags)
        else:
            positions.append(k)
    for key, positions in alike.items():
        for entry in asks[key]:
            listed.setdefault(entry, array("l")).extend(positions)
    del alike
    sifted: dict[str, tuple[list[int], list[int]]] = {}
    for (check, is_warned), positions in listed.items():
        left = named.unnamed(check, positions, items)
        if left:
            sifted.setdefault(check, ([], []))[0 if is_warned else 1].extend(sorted(left))

    def first_met(check: str) -> tuple[int, int]:
        warned_at, hinted_at = sifted[check]
        k = min(warned_at[:1] + hinted_at[:1])
        checks = [found for found, _ in asked([(flag.check, flag.severity) for flag in table[items[k].id]])]
        return k, checks.index(check)

    for check in sorted(sifted, key=first_met):
        warned_at, hinted_at = sifted[check]
        beyond[check] = ([items[k].id for k in warned_at], [items[k].id for k in hinted_at])


class _Named:
    """The items each check's findings name: by position, a byte per item of the set, where the positions are known.

    A set of the ids per check held the id of nearly every item twice over (the weak answers', the near-duplicates'),
    at the end of the command, where its memory peaks.
    """

    def __init__(self, positions: Mapping[str, int] | None) -> None:
        self._positions = positions
        self._marks: dict[str, bytearray] = {}
        self._ids: dict[str, set[str]] = {}  # ids not found among the positions (or all of them, without positions)

    @property
    def by_position(self) -> bool:
        return self._positions is not None

    def marks(self, check: str) -> bytearray:
        """The marks of ``check``'s items, by position (positions known), to set a position's byte to say it names it."""
        marks = self._marks.get(check)
        if marks is None:
            marks = self._marks[check] = bytearray(len(self._positions))  # type: ignore[arg-type]
        return marks

    def add(self, check: str, item_ids: Iterable[str]) -> None:
        positions = self._positions
        marks = self._marks.get(check) if positions is not None else None
        if marks is None and positions is not None:
            marks = self._marks[check] = bytearray(len(positions))
        for item_id in item_ids:
            k = positions.get(item_id) if positions is not None else None
            if k is None or marks is None:
                self._ids.setdefault(check, set()).add(item_id)
            else:
                marks[k] = 1

    def unnamed(self, check: str, positions: array, items: Sequence[Any]) -> array:
        """Those of ``positions`` (of ``items``, with positions known) whose items ``check``'s findings do not name."""
        marks = self._marks.get(check)
        left = positions if marks is None else array("l", compress(positions, map(not_, map(marks.__getitem__, positions))))
        ids = self._ids.get(check)
        return array("l", (k for k in left if items[k].id not in ids)) if ids else left

    def names(self, check: str, item_id: str) -> bool:
        marks = self._marks.get(check)
        k = self._positions.get(item_id) if marks is not None and self._positions is not None else None
        if k is not None and marks is not None and marks[k]:
            return True
        return item_id in self._ids.get(check, ())


def _check_note(
    check: CheckResult,
    scan: FlagScan | None,
    weights: tuple[dict[str, int], dict[str, int]] | None,
    beyond: dict[str, tuple[list[str], list[str]]] | None = None,
) -> str:
    """A check's own note, and in the review profile whether the items it found carry warnings or only
    hints, and which items the profile warns about with this check's flag that no finding names.

    The table is the audit as goldensetauditor reports it (a WARN for word-overlap near-duplicates);
    the app weighs each check for the profile, and a table saying WARN beside a pane showing hints
    read as two answers to one question. ``weights``: :func:`warning_and_hint_counts` of ``scan``;
    ``beyond``: :func:`flagged_beyond_findings`.
    """
    notes = [check.note] if check.note else []
    if scan is not None and weights is not None and scan.profile == REVIEW and check.items:
        flag = _FLAG_OF_CHECK.get(check.check, check.check)
        warned, hinted = weights
        if flag in hinted and flag not in warned:
            notes.append(f"{scan.profile} profile: hints only, not warnings")
    more_warned, more_hinted = (beyond or {}).get(check.check, ([], []))
    if scan is not None and more_warned:
        notes.append(
            f"{scan.profile} profile also warns {count(len(more_warned), 'item')} no finding here names, "
            f"each flag saying why: {_ids_text(more_warned)}"
        )
    if scan is not None and more_hinted:
        lead = "and only hints at" if more_warned else f"{scan.profile} profile also hints at"
        notes.append(f"{lead} {count(len(more_hinted), 'item')} no finding here names: {_ids_text(more_hinted)}")
    return "; ".join(notes)


# --- plain text ---------------------------------------------------------------------------


def _ids_text(ids: Sequence[str], limit: int = 6) -> str:
    shown = ", ".join(visible_id(i) for i in ids[:limit])
    return shown + (f" (+{len(ids) - limit})" if len(ids) > limit else "")


def _warned_in_profile(scan: FlagScan | None) -> str:
    """How many items the profile warns about, for beside the audit's status: "WARN" over 681 findings
    that the review profile shows as hints read as a set with problems."""
    if scan is None or scan.profile != REVIEW:
        return ""
    warned = sum(1 for flags in scan.flags.values() if flags[0].severity >= Severity.LOW)
    return f"; {scan.profile} profile: {count(warned, 'item') if warned else 'no item'} warned"


def to_text(report: AuditReport, scan: FlagScan | None = None, *, limit: int = 10) -> str:
    """A terminal summary: overall status, each check, the first findings, the cautions."""
    lines = [
        f"audit of {visible(report.set_id) or 'eval set'} v{report.set_version}: {report.status.value} "
        f"({count(report.summary['items'], 'item')}, {count(report.summary['finding_count'], 'finding')}"
        f"{_warned_in_profile(scan)})",
        "",
    ]
    grouped = _by_check(report.findings)
    weights = warning_and_hint_counts(scan) if scan is not None else None
    severities = _weights(scan)
    beyond = flagged_beyond_findings(report, scan)
    for check in report.checks:
        said = _check_note(check, scan, weights, beyond)
        note = f"  [{visible(said)}]" if said else ""
        lines.append(f"  {check.status.value:<18} {check.check:<20} {count(check.findings, 'finding')}, {count(check.items, 'item')}{note}")
    for name, findings in grouped.items():
        if not findings:
            continue
        lines += ["", f"{name}:"]
        for finding in findings[:limit]:
            where = f"[{_ids_text(finding.item_ids)}] " if finding.item_ids else ""
            # The weight beside the tool's status, as the Markdown report gives it: hundreds of bare "WARN" lines
            # on a set the review profile warns nowhere (its weak answers are hints) read as a set in trouble.
            weight = _severity(finding, severities)
            lines.append(f"  {finding.status.value} / {weight} {where}{visible(finding.detail)}")
        if len(findings) > limit:
            lines.append(f"  … {len(findings) - limit} more (use --to json for all)")
    if scan is not None:
        worst = scan.flagged(Severity.MEDIUM)
        lines += ["", *_count_lines(scan), f"items with a medium or high flag: {len(worst)}"]
        for entry in scan.cautions:
            lines.append(visible(str(entry)))
    lines += ["", BOUNDARY]
    return "\n".join(lines) + "\n"


# --- Markdown -------------------------------------------------------------------------------

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|~])")


def md(text: object, *, ident: bool = False) -> str:
    """Data text made inert in Markdown: HTML characters as entities, Markdown punctuation backslashed.

    ``ident``: an item id, escaped as the text report and the flags' reasons escape ids (:func:`visible_id`), so
    an id holding the characters ``\\u202e`` and one holding the right-to-left override are not shown alike."""
    value = visible_id(str(text)) if ident else visible(str(text))
    value = value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _MD_SPECIAL.sub(r"\\\1", value)


def to_markdown(report: AuditReport, scan: FlagScan | None = None, *, limit: int = _DEFAULT_LIMIT) -> str:
    lines = [
        f"# Eval-set audit: {md(report.set_id or 'eval set')} v{report.set_version}",
        "",
        f"**Overall status:** {report.status.value}{md(_warned_in_profile(scan))}",
        "",
        "| check | status | findings | items | note |",
        "|---|---|---|---|---|",
    ]
    weights = warning_and_hint_counts(scan) if scan is not None else None
    severities = _weights(scan)
    beyond = flagged_beyond_findings(report, scan)
    for check in report.checks:
        note = md(_check_note(check, scan, weights, beyond))
        lines.append(f"| {check.check} | {check.status.value} | {check.findings} | {check.items} | {note} |")
    lines += ["", "## Summary", ""]
    lines += [f"- {md(key)}: {md(value)}" for key, value in report.summary.items()]
    lines += ["", "## Findings", ""]
    if not report.findings:
        lines.append("No findings.")
    for name, findings in _by_check(report.findings).items():
        if not findings:
            continue
        lines += [f"### {name} ({len(findings)})", ""]
        for finding in findings[:limit]:
            ids = ", ".join(md(i, ident=True) for i in finding.item_ids) or "the whole set"
            weight = _severity(finding, severities)
            lines.append(f"- **{finding.status.value}** / {weight} — {ids}: {md(finding.detail)}. {md(finding.recommendation)}")
        if len(findings) > limit:
            lines.append(f"- … and {len(findings) - limit} more (the JSON report lists all)")
        lines.append("")
    if scan is not None:
        lines += ["## Cautions", ""]
        lines += [f"- {entry.level} \\[{md(entry.topic)}\\]: {md(entry.message)}" for entry in scan.cautions] or ["None."]
        lines += ["", "## Per check", ""]
        lines += [f"- {md(line)}" for line in _count_lines(scan)]
        lines += ["", "## Flagged items", ""]
        flagged = scan.flagged(Severity.MEDIUM)
        if not flagged:
            lines.append("No item has a medium or high flag.")
        for item_id in flagged[:limit]:
            flags = scan.for_item(item_id)
            reasons = "; ".join(f"{f.severity.label} {f.check}: {md(f.reason)}" for f in flags if f.severity >= Severity.MEDIUM)
            lines.append(f"- {md(item_id, ident=True)} — {reasons}")
        if len(flagged) > limit:
            lines.append(f"- … and {len(flagged) - limit} more (the JSON report lists all)")
        lines.append("")
    lines += ["## Truth boundary", "", BOUNDARY, ""]
    return "\n".join(lines)


# --- HTML -------------------------------------------------------------------------------------


def h(text: object, *, ident: bool = False) -> str:
    """Data text for HTML: control characters as visible escapes, then every markup character escaped
    (``ident``: an item id, as :func:`md` says)."""
    return html.escape(visible_id(str(text)) if ident else visible(str(text)), quote=True)


_CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem;line-height:1.45;color:#1f2328}
h1{font-size:1.5rem}h2{font-size:1.2rem;margin-top:2rem}h3{font-size:1rem}
table{border-collapse:collapse;width:100%;margin:.5rem 0}\
th,td{border:1px solid #d0d7de;padding:.35rem .5rem;text-align:left;vertical-align:top}
th{background:#f6f8fa}.status{font-weight:700;padding:.1rem .45rem;border-radius:.3rem}
.FAIL{background:#ffebe9;color:#a40e26}.WARN{background:#fff8c5;color:#7d4e00}.PASS{background:#dafbe1;color:#116329}
.INSUFFICIENT_INPUT{background:#eaeef2;color:#424a53}.more{color:#57606a;font-style:italic}
.boundary{background:#f6f8fa;border:1px solid #d0d7de;padding:.75rem;border-radius:.4rem;margin-top:2rem}
code{font-family:ui-monospace,monospace;font-size:.9em}
"""


def _status(status: Status) -> str:
    return f'<span class="status {status.value}">{status.value}</span>'


def to_html(report: AuditReport, scan: FlagScan | None = None, *, limit: int = _DEFAULT_LIMIT) -> str:
    """One HTML file with no scripts and no outside resources; every data string escaped."""
    out = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">",
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>Eval-set audit: {h(report.set_id or 'eval set')}</title>",
        f"<style>{_CSS}</style></head><body>",
        f"<h1>Eval-set audit: <code>{h(report.set_id or 'eval set')}</code> v{report.set_version}</h1>",
        f"<p>Overall status: {_status(report.status)}{html.escape(_warned_in_profile(scan))}</p>",
        "<h2>Checks</h2><table><thead><tr><th>Check</th><th>Status</th><th>Findings</th><th>Items</th><th>Note</th></tr></thead><tbody>",
    ]
    weights = warning_and_hint_counts(scan) if scan is not None else None
    severities = _weights(scan)
    beyond = flagged_beyond_findings(report, scan)
    for check in report.checks:
        out.append(
            f"<tr><td>{h(check.check)}</td><td>{_status(check.status)}</td><td>{check.findings}</td>"
            f"<td>{check.items}</td><td>{h(_check_note(check, scan, weights, beyond))}</td></tr>"
        )
    out.append("</tbody></table><h2>Summary</h2><ul>")
    out += [f"<li>{h(key)}: {h(value)}</li>" for key, value in report.summary.items()]
    out.append("</ul><h2>Findings</h2>")
    if not report.findings:
        out.append("<p>No findings.</p>")
    for name, findings in _by_check(report.findings).items():
        if not findings:
            continue
        out.append(f"<h3>{h(name)} ({len(findings)})</h3>")
        out.append("<table><thead><tr><th>Status</th><th>Severity</th><th>Items</th><th>Detail</th><th>Recommendation</th></tr></thead><tbody>")
        for finding in findings[:limit]:
            ids = ", ".join(f"<code>{h(i, ident=True)}</code>" for i in finding.item_ids) or "the whole set"
            out.append(
                f"<tr><td>{_status(finding.status)}</td><td>{h(_severity(finding, severities))}</td><td>{ids}</td>"
                f"<td>{h(finding.detail)}</td><td>{h(finding.recommendation)}</td></tr>"
            )
        out.append("</tbody></table>")
        if len(findings) > limit:
            out.append(f'<p class="more">… and {len(findings) - limit} more; the JSON report lists all.</p>')
    if scan is not None:
        out.append("<h2>Cautions</h2><ul>")
        out += [f"<li><b>{h(e.level)}</b> [{h(e.topic)}]: {h(e.message)}</li>" for e in scan.cautions]
        out.append("</ul><h2>Per check</h2><ul>")
        out += [f"<li>{h(line)}</li>" for line in _count_lines(scan)]
        out.append("</ul><h2>Flagged items (medium and high)</h2>")
        flagged = scan.flagged(Severity.MEDIUM)
        if not flagged:
            out.append("<p>No item has a medium or high flag.</p>")
        else:
            out.append("<table><thead><tr><th>Item</th><th>Severity</th><th>Check</th><th>Reason</th><th>Related</th></tr></thead><tbody>")
            for item_id in flagged[:limit]:
                for flag in scan.for_item(item_id):
                    if flag.severity < Severity.MEDIUM:  # as the Markdown report: the table's rows are its heading's
                        continue
                    related = ", ".join(f"<code>{h(r, ident=True)}</code>" for r in flag.related_ids)
                    out.append(
                        f"<tr><td><code>{h(item_id, ident=True)}</code></td><td>{h(flag.severity.label)}</td><td>{h(flag.check)}</td>"
                        f"<td>{h(flag.reason)}</td><td>{related}</td></tr>"
                    )
            out.append("</tbody></table>")
            if len(flagged) > limit:
                out.append(f'<p class="more">… and {len(flagged) - limit} more items; the JSON report lists all.</p>')
    out.append(f'<div class="boundary"><b>Truth boundary.</b> {h(BOUNDARY)}</div>')
    out.append(f"<p class=\"more\">reviewtui {h(__version__)}</p></body></html>")
    return "\n".join(out) + "\n"


def render_chunks(report: AuditReport, scan: FlagScan | None, fmt: str, *, flags_apart: bool = False) -> Iterable[bytes]:
    """:func:`render` as UTF-8 pieces, for writing to a file (JSON is made as it is written; ``flags_apart``: see
    :func:`to_json_chunks`)."""
    if fmt == "json":
        return to_json_chunks(report, scan, flags_apart=flags_apart)
    return (render(report, scan, fmt).encode("utf-8"),)


def render(report: AuditReport, scan: FlagScan | None, fmt: str) -> str:
    """The report in one of :data:`FORMATS`."""
    if fmt == "json":
        return to_json(report, scan)
    if fmt == "md":
        return to_markdown(report, scan)
    if fmt == "html":
        return to_html(report, scan)
    if fmt == "text":
        return to_text(report, scan)
    raise ValueError(f"unknown report format {fmt!r}; choose one of {', '.join(FORMATS)}")

"""Writing the outcome of a review: the reviewed set, or the rejected questions.

The reviewed set is ``queue.result(original)``, saved as the set's next
version beside the input: ``quiz.jsonl`` at version 1 becomes ``quiz.v2.jsonl``,
and ``quiz.v2.jsonl`` becomes ``quiz.v3.jsonl`` (the version in the name is
replaced, never stacked; a CSV file, which keeps no version, is numbered from the
one in its name: ``quiz.v2.csv`` becomes ``quiz.v3.csv``, see :func:`version_read`).
The rejected questions go to ``quiz.rejected.jsonl``
with their reason code, note and reviewer in ``meta``: what a question
generator should be shown before its next batch. Both are written atomically.

Nothing is replaced silently. A default name never lands on an existing file:
when ``quiz.v2.jsonl`` is already there (an earlier export, perhaps edited by
hand since), the export becomes ``quiz.v3.jsonl``, version 3, and the rejected
questions ``quiz.rejected-2.jsonl``. An ``out`` naming an existing file is
refused unless ``force``, which never applies to a default name. No output, forced or not, may be the input, its review
journal or its lock (see :func:`reviewtui.evalset.io.outputs.check_output`).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Collection, Mapping
from pathlib import Path
from typing import Any

import orjson

from reviewtui.evalset.io.files import file_sha256, is_stdout, named, set_identity, set_sha256
from reviewtui.evalset.io.journal import default_journal_path, split_record, split_tag
from reviewtui.evalset.io.names import VERSION_TAIL, file_name_text, version_in_name
from reviewtui.evalset.io.outputs import check_output, claimed_output, free_output
from reviewtui.evalset.model.errors import InputError, OutputError
from reviewtui.evalset.model.items import EvalItem, EvalSet, FrozenDict
from reviewtui.evalset.model.review import REPLACED, REVIEW_KEY, keep_earlier, keep_replaced
from reviewtui.evalset.review.queue import ReviewQueue, Verdict, iso_time
from reviewtui.evalset.text.counts import count
from reviewtui.evalset.text.words import in_quotes

__all__ = [
    "EXPORT_FORMATS",
    "accepted_past_warnings",
    "decided_before_checks",
    "earlier_copy",
    "earlier_export_of",
    "export_rejected",
    "export_reviewed",
    "default_name",
    "lineage",
    "version_read",
    "next_version_path",
    "rejected_names",
    "rejected_path",
    "rejected_set",
    "write_evalset",
    "write_reviewed",
]

EXPORT_FORMATS = ("jsonl", "csv")


def _base_stem(input_path: Path) -> str:
    """The file name without its extension and without a trailing ``.v<N>``; a folder (a BEIR set) has no
    extension to drop: ``nq.2024`` is the set's whole name, as ``filter`` always named it."""
    name = _set_name(input_path)
    return VERSION_TAIL.sub("", name) or name


def _set_name(input_path: Path) -> str:
    return input_path.name if input_path.is_dir() else input_path.stem


def version_read(evalset: EvalSet, input_path: str | os.PathLike[str] | None) -> int:
    """The version of ``evalset``, read from ``input_path``, that its next version follows: the set's own, or the
    one the file's name carries as an export names it (``quiz.v2.csv``: 2) when that is higher.

    A CSV file has no place for a version and reads back as version 1, so an export of ``quiz.v2.csv`` (itself
    the export of version 2) made a second version 2, ``quiz.v2.reviewed.csv``; the name is where the version
    a CSV export was given is kept.
    """
    named = version_in_name(input_path) if input_path is not None else None
    return evalset.version if named is None else max(evalset.version, named)


def _check_format(format: str) -> str:
    fmt = format.lower().lstrip(".")
    if fmt not in EXPORT_FORMATS:
        raise InputError(f"cannot export as {format!r}; choose one of: {', '.join(EXPORT_FORMATS)}")
    return fmt


def _away_from_input(candidate: Path, input_path: Path, fallback: str) -> Path:
    if _same_file(candidate, input_path):
        return candidate.with_name(fallback)
    return candidate


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve() or (a.exists() and b.exists() and os.path.samefile(a, b))
    except OSError:
        return False


def next_version_path(
    input_path: str | os.PathLike[str], version: int, format: str = "jsonl", split: str | None = None, *, made_by: str = "reviewed"
) -> Path:
    """Default name for version ``version`` of the set read from ``input_path``; a BEIR folder's ``split`` other than
    its default is named in it, as in the split's journal (``scifact.train.v2.jsonl``): the train split's export and
    then the test split's were v2 and v3, and read as one set's versions.

    Every command that writes a next version (``export``, ``filter``) names it here, so that each finds the
    versions the others wrote. ``made_by`` goes into the name only where the plain one would be the input itself."""
    source = Path(input_path)
    fmt = _check_format(format)
    stem = _base_stem(source) + split_tag(split)
    candidate = source.with_name(f"{stem}.v{version}.{fmt}")
    return _away_from_input(candidate, source, f"{stem}.v{version}.{made_by}.{fmt}")


def version_siblings(input_path: str | os.PathLike[str], format: str, split: str | None = None) -> Callable[[int], list[Path]]:
    """The names version ``n`` of the set goes by in the export formats other than ``format`` (see
    io.outputs.free_output): a version is one set, whatever file holds it."""
    others = [fmt for fmt in EXPORT_FORMATS if fmt != _check_format(format)]

    def siblings(n: int) -> list[Path]:
        names = [next_version_path(input_path, n, fmt, split) for fmt in others]
        return [*names, *(name.with_suffix(name.suffix.upper()) for name in names)]  # quiz.v2.CSV is version 2 too

    return siblings


def earlier_copy(
    input_path: str | os.PathLike[str], written: str | os.PathLike[str], version: int, first: int, split: str | None = None
) -> Path | None:
    """An earlier export of the set, named as exports are (versions ``first`` to ``version - 1``), whose items are
    byte for byte those of the JSONL export ``written``: the same decisions exported again. None when there is none.

    Only a file whose header holds an export's record of its review counts (``filter`` and ``convert`` write
    versions too); only the item lines are compared (each header names its own version and journal bytes); a
    file that is not a plain file of its own (a link) is not read. Each candidate is read as far as its first
    difference.
    """
    target = Path(written)
    for version_then in range(version - 1, first - 1, -1):
        candidate = next_version_path(input_path, version_then, "jsonl", split)
        try:
            if not stat.S_ISREG(os.lstat(candidate).st_mode) or os.path.samefile(candidate, target):
                continue
            if _same_items(candidate, target):
                return candidate
        except OSError:
            continue
    return None


def earlier_export_of(
    evalset: EvalSet, input_path: str | os.PathLike[str], written: str | os.PathLike[str], split: str | None = None
) -> Path | None:
    """:func:`earlier_copy` for the JSONL export ``written`` of ``evalset`` (read from ``input_path``), its version
    read from its own header: for a caller that has only the path the export was written to (the app)."""
    try:
        with Path(written).open("rb") as handle:
            version = orjson.loads(handle.readline())["_evalset"]["version"]
    except (OSError, orjson.JSONDecodeError, KeyError, TypeError):
        return None
    if not isinstance(version, int):
        return None
    return earlier_copy(input_path, written, version, version_read(evalset, input_path) + 1, split)


def _same_items(first: Path, second: Path) -> bool:
    with first.open("rb") as a, second.open("rb") as b:
        b.readline()
        try:
            header = orjson.loads(a.readline())
            record = header["_evalset"]["meta"][REVIEW_KEY]
        except (orjson.JSONDecodeError, KeyError, TypeError):
            return False
        if not isinstance(record, dict) or "journal_sha256" not in record:
            return False  # not an export of a review: a filter's version, a conversion
        while True:
            x, y = a.read(1 << 20), b.read(1 << 20)
            if x != y:
                return False
            if not x:
                return True


def rejected_path(input_path: str | os.PathLike[str], format: str = "jsonl", split: str | None = None) -> Path:
    """Default name for the rejected questions of the set read from ``input_path`` (a BEIR ``split`` named, as in
    :func:`next_version_path`)."""
    source = Path(input_path)
    fmt = _check_format(format)
    stem = _set_name(source) + split_tag(split)
    candidate = source.with_name(f"{stem}.rejected.{fmt}")
    return _away_from_input(candidate, source, f"{stem}.rejected-items.{fmt}")


def rejected_names(input_path: str | os.PathLike[str], fmt: str, split: str | None) -> Callable[[int], Path]:
    """The names the rejected questions go by, first to last free: ``quiz.rejected.jsonl``, then ``quiz.rejected-2.jsonl``."""
    first = rejected_path(input_path, fmt, split)
    return lambda n: first if n == 1 else first.with_name(f"{first.stem}-{n}.{fmt}")


def default_name(
    input_path: str | os.PathLike[str],
    version: int,
    format: str = "jsonl",
    *,
    split: str | None = None,
    journal_path: str | os.PathLike[str] | None = None,
    rejected: bool = False,
) -> tuple[Path, int]:
    """The name an export without ``-o`` would be written under now, not taken (a command about to write says
    what reading the file back will give, and a CSV's version and id are read from its name), with the version
    the set is written as there: the next free version from ``version`` on, or the rejected questions' first free
    name (they keep ``version``, the one they were rejected from)."""
    fmt = _check_format(format)
    if rejected:
        name, _ = free_output(rejected_names(input_path, fmt, split), 1, input_path=input_path, journal_path=journal_path)
        return name, version
    return free_output(
        lambda n: next_version_path(input_path, n, fmt, split),
        version,
        input_path=input_path,
        journal_path=journal_path,
        siblings=version_siblings(input_path, fmt, split),
    )


def write_evalset(evalset: EvalSet, path: str | os.PathLike[str], format: str = "jsonl") -> Path:
    """Write a set with the io layer's writer for ``format`` (both write atomically).

    A failed write is an EvalSetError naming ``path``; no partial file is left.
    """
    fmt = _check_format(format)
    from reviewtui.evalset.io import write_csv, write_jsonl

    writer = write_jsonl if fmt == "jsonl" else write_csv
    try:
        return Path(writer(evalset, path))
    except BrokenPipeError:  # standard output closed early (`| head`): the reader wanted no more
        raise
    except OSError as exc:  # a full disk, a read-only folder: said in one line, naming the file
        # Standard output is named as the other commands name it, not as "-".
        where = "standard output" if is_stdout(path) else os.fspath(path)
        raise OutputError(f"cannot write the export: {exc.strerror or exc}", path=where) from None


def export_reviewed(
    original: EvalSet,
    queue: ReviewQueue,
    input_path: str | os.PathLike[str],
    out: str | os.PathLike[str] | None = None,
    format: str = "jsonl",
    *,
    force: bool = False,
    journal_path: str | os.PathLike[str] | None = None,
    journal_bytes: int | None = None,
    read_as: tuple[object, ...] | None = None,
    split: str | None = None,
    not_restored: Mapping[str, str] | None = None,
) -> Path:
    """Save the reviewed set as the next version; returns where it went (see :func:`write_reviewed`)."""
    return write_reviewed(
        original,
        queue,
        input_path,
        out,
        format,
        force=force,
        journal_path=journal_path,
        journal_bytes=journal_bytes,
        read_as=read_as,
        split=split,
        not_restored=not_restored,
    )[0]


def write_reviewed(
    original: EvalSet,
    queue: ReviewQueue,
    input_path: str | os.PathLike[str],
    out: str | os.PathLike[str] | None = None,
    format: str = "jsonl",
    *,
    force: bool = False,
    journal_path: str | os.PathLike[str] | None = None,
    journal_bytes: int | None = None,
    read_as: tuple[object, ...] | None = None,
    split: str | None = None,
    not_restored: Mapping[str, str] | None = None,
) -> tuple[Path, EvalSet]:
    """Save the reviewed set as the next version; returns where it went and the set as written.

    Without ``out`` the name is the next version's, or the first later version
    whose file does not exist yet (the set's version follows the name), ``force``
    or not: an earlier export is never replaced. An ``out`` that exists is
    refused unless ``force``. ``journal_path``, when the review's
    journal is not the default one, is protected like the default. ``journal_bytes``,
    ``read_as``, ``split`` and ``not_restored``: see :func:`lineage`.
    """
    fmt = _check_format(format)
    reviewed = queue.result(original, records=True)
    record = lineage(
        original,
        queue,
        input_path,
        journal_path,
        journal_bytes=journal_bytes,
        read_as=read_as,
        split=split,
        not_restored=not_restored,
    )
    reviewed = reviewed.replace(version=record["from_version"] + 1, meta={**reviewed.meta, REVIEW_KEY: record})
    guard: dict[str, Any] = {"input_path": input_path, "journal_path": journal_path, "force": force}
    if out is not None:
        return write_evalset(reviewed, check_output(out, **guard), fmt), reviewed
    siblings = version_siblings(input_path, fmt, split)
    # never over an earlier export, force or not
    with claimed_output(
        lambda n: next_version_path(input_path, n, fmt, split),
        reviewed.version,
        input_path=input_path,
        journal_path=journal_path,
        siblings=siblings,
    ) as (target, version):
        if version != reviewed.version:
            reviewed = reviewed.model_copy(update={"version": version})
        return write_evalset(reviewed, target, fmt), reviewed


def rejected_set(original: EvalSet, queue: ReviewQueue, *, from_version: int | None = None) -> EvalSet:
    """The rejected items as reviewed, with ``verdict``, ``reject_reason``, ``review_note``,
    ``reviewer`` and ``decided_at`` added to each item's meta. ``from_version``: the version they were
    rejected from, when not the set's own (see :func:`version_read`)."""
    version = original.version if from_version is None else from_version
    items: list[EvalItem] = []
    for decision in queue.rejections():
        item = decision.after or decision.before
        if item is None:  # a decision built by hand without items: look it up in the set
            item = original.get(decision.item_id)
            if item is None:
                continue
        stamped = {
            "verdict": Verdict.REJECTED.value,
            "reject_reason": decision.reason.value if decision.reason else None,
            "review_note": decision.note,
            "reviewer": decision.reviewer,
            "decided_at": iso_time(decision.decided_at),
        }
        record = keep_earlier({**decision.record().as_meta(), **queue.dismissal_record(decision.item_id, decision.reviewer)}, item.meta)
        meta = FrozenDict({**item.meta, **stamped, REVIEW_KEY: keep_replaced(record, item.meta, stamped)})
        items.append(item.model_copy(update={"meta": meta}))
    return EvalSet(
        id=f"{original.id}.rejected",
        items=tuple(items),
        version=version,
        source="review-rejections",
        meta={"rejected_from": original.id, "rejected_from_version": version},
    )


def export_rejected(
    original: EvalSet,
    queue: ReviewQueue,
    input_path: str | os.PathLike[str],
    out: str | os.PathLike[str] | None = None,
    format: str = "jsonl",
    *,
    force: bool = False,
    journal_path: str | os.PathLike[str] | None = None,
    journal_bytes: int | None = None,
    read_as: tuple[object, ...] | None = None,
    split: str | None = None,
    not_restored: Mapping[str, str] | None = None,
) -> Path:
    """Save the rejected questions with their reasons; returns where they went.

    Without ``out``: ``<stem>.rejected.<format>``, or ``<stem>.rejected-2.<format>``
    and so on when that exists, ``force`` or not. An ``out`` that exists is refused
    unless ``force``. The header's ``meta["review"]`` holds the
    review's lineage, as the reviewed set's does (``journal_bytes``, ``read_as``, ``split``
    and ``not_restored``: see :func:`lineage`).
    """
    fmt = _check_format(format)
    guard: dict[str, Any] = {"input_path": input_path, "journal_path": journal_path, "force": force}
    # Without it the file named the set but not the file or the journal its rejections came from, nor their hashes.
    record = lineage(
        original,
        queue,
        input_path,
        journal_path,
        journal_bytes=journal_bytes,
        read_as=read_as,
        split=split,
        not_restored=not_restored,
    )
    rejected = rejected_set(original, queue, from_version=record["from_version"])
    rejected = rejected.replace(meta={**rejected.meta, REVIEW_KEY: record})
    if out is not None:
        return write_evalset(rejected, check_output(out, **guard), fmt)
    # never over an earlier export, force or not
    with claimed_output(rejected_names(input_path, fmt, split), 1, input_path=input_path, journal_path=journal_path) as (target, _):
        return write_evalset(rejected, target, fmt)


def own_values_replaced(evalset: EvalSet, decided: Collection[str] | None = None) -> dict[str, int]:
    """Meta key -> how many of an export's items held a value of their own there, which the export wrote over
    and kept in the item's record (``meta["review"]["replaced"]``, see :func:`~reviewtui.evalset.model.review.keep_replaced`).

    ``decided``: the items this export decided (their ids); an item passed through undecided carries an earlier
    export's record as it was, and what that export replaced is not this one's to say.
    """
    counts: dict[str, int] = {}
    for item in evalset.items:
        if decided is not None and item.id not in decided:
            continue
        record = item.meta.get(REVIEW_KEY)
        replaced = record.get(REPLACED) if isinstance(record, Mapping) else None
        if isinstance(replaced, Mapping):
            for key in replaced:
                counts[key] = counts.get(key, 0) + 1
    return counts


def replaced_line(counts: Mapping[str, int]) -> str:
    """What an export says of the item's own values it wrote over (see :func:`own_values_replaced`)."""
    listed = ", ".join(f"{in_quotes(key)} on {count(n, 'item')}" for key, n in counts.items())
    return (
        f"note: the export writes the review into meta keys some items held values of their own in ({listed}): "
        "their values are kept under meta['review']['replaced']"
    )


def decided_before_checks(queue: ReviewQueue) -> list[str]:
    """The items decided while the quality checks were still running (``Decision.unchecked``), in queue order: no
    warning was known then, so none is recorded with them, and none counts as accepted past or confirmed."""
    return [item_id for item_id, d in queue.decisions.items() if d.unchecked]


def accepted_past_warnings(queue: ReviewQueue) -> dict[str, tuple[str, ...]]:
    """Items accepted or edited while a high-severity warning was still open on them -> those checks.

    A review that waves serious warnings through should say so wherever its result is shown.
    """
    kept = (Verdict.ACCEPTED, Verdict.EDITED)
    past: dict[str, tuple[str, ...]] = {}
    for item_id, d in queue.decisions.items():
        if d.warnings and d.verdict in kept:
            # as the review stands now (see passed_warnings); another reviewer's word does not undo what this one did
            still = queue.passed_warnings(item_id, d)
            if still:
                past[item_id] = still
    return past


def refuse_a_changed_set(input_path: str | os.PathLike[str] | None, read_as: tuple[object, ...] | None) -> None:
    """InputError when the set file is no longer the one read (``read_as``: its io.files.set_identity then): an
    export's header names the file its items came from, with its hash, and the hash would be of another set."""
    if input_path is not None and read_as is not None and set_identity(input_path) != read_as:
        raise InputError(
            "has changed on disk since it was read, and the export would name the new file as the set its items "
            "came from; export again",
            path=str(input_path),
        )


def skipped_notes(queue: ReviewQueue) -> dict[str, dict[str, str]]:
    """The notes on skipped items, item id -> the note and whose it is: what an export's header keeps of them."""
    return {
        item_id: {"note": d.note, "by": d.note_by or d.reviewer}
        for item_id, d in queue.decisions.items()
        if d.verdict is Verdict.SKIPPED and d.note
    }


def tool_name() -> str:
    """The tool and its version, as an export's header names them."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"reviewtui {version('reviewtui')}"
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "reviewtui"


def lineage(
    original: EvalSet,
    queue: ReviewQueue,
    input_path: str | os.PathLike[str] | None,
    journal_path: str | os.PathLike[str] | None = None,
    *,
    journal_bytes: int | None = None,
    read_as: tuple[object, ...] | None = None,
    split: str | None = None,
    not_restored: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """Where an exported set came from, for its header's ``meta["review"]``.

    The version and file it was reviewed from (with the file's SHA-256, and the split of a BEIR
    folder read with one), the journal that holds the decisions (the SHA-256 of its first
    ``journal_bytes`` bytes: the records the queue was replayed from, when the caller says how many,
    0 for no journal; else all it holds now), the tool, the reviewers, the first and
    last decision times, the counts, the items accepted past a high-severity
    warning, and the notes on skipped items (which the next version leaves out). An earlier
    export's lineage, when the set was one, is kept under ``previous``.
    ``read_as``: the set's identity before it was read (io.files.set_identity); a set changed
    since is refused, since its hash would not be of the set the items came from.
    ``not_restored``: item id -> why a decision the journal holds was not applied ("changed": the item
    differs from when it was decided; "vanished": gone from the set), as the replay found; those still
    without a decision are listed under ``decisions_not_restored``, so the file says what its review left out.
    ``from_version`` is the version as its file's name may carry it (see :func:`version_read`).
    """
    decisions = queue.decisions
    times = [d.decided_at for d in decisions.values() if d.decided_at]
    stats = queue.stats()
    journal = Path(journal_path) if journal_path is not None else (default_journal_path(input_path, split) if input_path else None)
    hashed: list[int] = []
    # The bytes the queue was replayed from, when known: not what a review still open has appended since,
    # nor a last record cut short, which the replay left out and the next session cuts off.
    # 0: no journal was there to replay (one begun since is not this export's).
    journal_sha256 = file_sha256(journal, hashed, limit=journal_bytes) if journal is not None and journal_bytes != 0 else None
    from_sha256 = set_sha256(input_path) if input_path is not None else None
    refuse_a_changed_set(input_path, read_as)
    record: dict[str, Any] = {
        "from_version": version_read(original, input_path),
        "from_file": file_name_text(named(input_path).name) if input_path is not None else None,
        "from_sha256": from_sha256,
        **split_record(split),  # a BEIR folder's qrels file, when not its default
        "journal_file": file_name_text(journal.name) if journal is not None and journal_sha256 is not None else None,
        "journal_sha256": journal_sha256,
        # A journal only grows (the review goes on; a session that closes adds where its cursor was):
        # its first this many bytes are the ones the hash is of.
        "journal_bytes": hashed[0] if journal_sha256 is not None else None,
        "tool": tool_name(),
        # everyone whose words the records hold: who decided, who wrote a note on someone else's decision,
        # who dismissed a warning on a decided item
        "reviewers": sorted(
            {name for d in decisions.values() for name in (d.reviewer, d.note_by, *(by for by, _ in d.earlier_notes)) if name}
            | {by for item_id in queue.dismissals if item_id in decisions for by in queue.dismissers_for(item_id).values() if by}
        ),
        "first_decision_at": iso_time(min(times)) if times else None,
        "last_decision_at": iso_time(max(times)) if times else None,
        "counts": {
            "items": stats.total,
            "decided": stats.decided,
            **stats.counts,
            # the items the file marks reviewed, left out of this review (without --all) and written as they were:
            # the file holds them too, so its item count is items + these
            **({"marked_reviewed": len(original) - stats.total} if len(original) > stats.total else {}),
        },
        "accepted_past_warnings": {item_id: list(checks) for item_id, checks in accepted_past_warnings(queue).items()},
        # a skipped item is not in the next version (nor a rejected one's file): its note would be lost otherwise
        "skipped_notes": skipped_notes(queue),
        # an item nobody decided passes through as it was: a note written on it is kept here, or it is lost
        "undecided_notes": queue.draft_notes(),
        # per check: items rejected while it flagged them or edited so it no longer does, flags dismissed, items kept past it
        "warnings": queue.warning_tally(),
    }
    dropped = {
        item_id: why
        for item_id, why in (not_restored or {}).items()
        if (at := queue.index_of(item_id)) is None or queue.decision_for(at) is None  # not decided again since
    }
    if dropped:
        record["decisions_not_restored"] = dropped
    unchecked = decided_before_checks(queue)
    if unchecked:  # only then: headers of reviews that waited for the checks stay as they were
        record["decided_before_checks"] = unchecked
    return keep_earlier(record, original.meta)  # an earlier export's lineage, or the set's own data of that name

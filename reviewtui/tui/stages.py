"""The app's slow checks (quality scan, corpus lookup) as *stages*, and the messages they report.

A stage takes a loaded set and a ``send`` callback and reports everything as small
typed messages (below). The app runs a stage either in a child process (the normal
case: ``python -m reviewtui.tui.stages``, started with
:class:`~reviewtui.evalset.jobs.spawn.SpawnedJob`, which reads the set from its file
itself) or in one of its own threads (sets built in memory, tests that supply their
own scan). Results go in chunks, so the app never spends long unpickling while the
reviewer is pressing keys. This module imports no Textual: the child starts faster
without it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Union

from reviewtui.evalset.checks.warninglog import LogEntry
from reviewtui.evalset.jobs.cancel import ScanCancelled
from reviewtui.evalset.jobs.channel import WorkerEnded
from reviewtui.evalset.jobs.spawn import SpawnedJob, python_module, serve
from reviewtui.evalset.model.flag import Flag
from reviewtui.evalset.model.items import EvalSet

if TYPE_CHECKING:  # a corpus is only loaded with --corpus
    from reviewtui.evalset.evidence.corpus import Corpus
    from reviewtui.evalset.evidence.resolution import AnchorResolution

__all__ = [
    "CautionList",
    "ChildJob",
    "EvidenceBatch",
    "EvidenceFlagBatch",
    "EvidenceSummary",
    "FlagBatch",
    "JobSource",
    "Scan",
    "StageDone",
    "StageFailed",
    "StageMessage",
    "StageProgress",
    "chunks",
    "evidence_stage",
    "quality_scan",
    "quality_stage",
    "run_stage",
]

CHUNK = 2_000
MODULE = "reviewtui.tui.stages"  # what the child runs


# ---- what a stage reports, in this order: progress, results in chunks, then done or failed


@dataclass(frozen=True, slots=True)
class StageProgress:
    stage: str
    done: int
    total: int


@dataclass(frozen=True, slots=True)
class FlagBatch:
    """Quality flags of some items: item id -> flags."""

    flags: dict[str, list[Flag]]


@dataclass(frozen=True, slots=True)
class CautionList:
    """The set-level cautions of the quality scan."""

    entries: list[LogEntry]


@dataclass(frozen=True, slots=True)
class EvidenceBatch:
    """What the corpus lookup found for each quote of some items: item id -> resolutions."""

    resolutions: dict[str, tuple[AnchorResolution, ...]]


@dataclass(frozen=True, slots=True)
class EvidenceFlagBatch:
    """Evidence flags of some items: item id -> flags."""

    flags: dict[str, list[Flag]]


@dataclass(frozen=True, slots=True)
class EvidenceSummary:
    text: str


@dataclass(frozen=True, slots=True)
class StageFailed:
    stage: str
    error: str


@dataclass(frozen=True, slots=True)
class StageDone:
    stage: str


StageMessage = Union[  # noqa: UP007 - a runtime alias, for isinstance
    StageProgress, FlagBatch, CautionList, EvidenceBatch, EvidenceFlagBatch, EvidenceSummary, StageFailed, StageDone
]
Send = Callable[[StageMessage], None]
Cancelled = Callable[[], bool]
Scan = Callable[..., tuple[dict[str, list[Flag]], list[LogEntry]]]


@dataclass(frozen=True)
class JobSource:
    """Where a child process finds the set and, optionally, the corpus."""

    path: str
    format: str | None = None
    corpus: str | None = None
    extensions: tuple[str, ...] = ()
    split: str | None = None  # a BEIR folder's qrels split: the child must read the same questions
    journal: str | None = None  # scan the set as reviewed so far: with the edits this journal holds


def chunks(mapping: Mapping[str, Any], size: int = CHUNK) -> Iterator[dict[str, Any]]:
    batch: dict[str, Any] = {}
    for key, value in mapping.items():
        batch[key] = value
        if len(batch) >= size:
            yield batch
            batch = {}
    if batch:
        yield batch


def quality_scan(
    evalset: EvalSet, *, progress: Callable[[int, int], None], cancelled: Cancelled
) -> tuple[dict[str, list[Flag]], list[LogEntry]]:
    """The quality layer's per-item flags and set-level cautions, from one scan of the set.

    On one core (``workers=1``), where ``reviewtui audit`` forks a second worker: the app's screen
    needs a core of its own while a large set is read and scanned. With the scan on both cores of a
    two-core machine, keys pressed in those first seconds waited for the CPU, however low the scan's
    priority; the price is that a large set's warnings arrive some seconds later.
    """
    from reviewtui.evalset.checks.scan import scan_flags

    scan = scan_flags(evalset, progress=progress, should_stop=cancelled, workers=1)
    return dict(scan.flags), list(scan.cautions.entries)


def quality_stage(evalset: EvalSet, send: Send, *, cancelled: Cancelled = lambda: False, scan: Scan = quality_scan) -> None:
    flags, cautions = scan(evalset, progress=lambda done, total: send(StageProgress("quality", done, total)), cancelled=cancelled)
    for batch in chunks(flags):
        send(FlagBatch(batch))
    send(CautionList(cautions))


def evidence_stage(evalset: EvalSet, corpus: Corpus, send: Send, *, cancelled: Cancelled = lambda: False) -> None:
    from reviewtui.evalset.evidence.resolve import AnchorResolver, evidence_flags

    def progress(done: int, total: int) -> None:
        if cancelled():
            raise ScanCancelled("the corpus lookup was stopped")
        send(StageProgress("evidence", done, total))

    _resolved, report = AnchorResolver().resolve_with_report(evalset, corpus, progress=progress)
    by_item: dict[str, tuple[Any, ...]] = {}
    for resolution in report.resolutions:
        if resolution.item_id is not None:
            by_item[resolution.item_id] = (*by_item.get(resolution.item_id, ()), resolution)
    for batch in chunks(by_item):
        send(EvidenceBatch(batch))
    for batch in chunks(evidence_flags(report)):
        send(EvidenceFlagBatch(batch))
    send(EvidenceSummary(report.summary()))


def run_stage(stage: str, evalset: EvalSet, corpus: Corpus | None, send: Send, *, cancelled: Cancelled, scan: Scan = quality_scan) -> None:
    """Run one stage and end with StageDone or StageFailed (nothing escapes, except a stop request)."""
    try:
        if stage == "quality":
            quality_stage(evalset, send, cancelled=cancelled, scan=scan)
        else:
            assert corpus is not None
            evidence_stage(evalset, corpus, send, cancelled=cancelled)
    except ScanCancelled:
        return
    except Exception as exc:  # reported to the app, which shows it instead of crashing
        send(StageFailed(stage, _failure(exc)))
        return
    send(StageDone(stage))


def _failure(exc: Exception) -> str:
    """What a stage that stopped says: an input problem as the commands say it (``path:line: what``); anything else
    with its kind, which a report of the bug needs ("InputError: big.jsonl:400001: ..." said a class name to a user)."""
    from reviewtui.evalset.model.errors import EvalSetError

    return str(exc) if isinstance(exc, EvalSetError) else f"{type(exc).__name__}: {exc}"


def as_reviewed(evalset: EvalSet, path: str, journal: str, fmt: str | None, split: str | None) -> EvalSet:
    """The set with every edit its review journal holds so far (read only: the app keeps writing it)."""
    from reviewtui.evalset.review.session import load_review

    loaded = load_review(path, journal_path=journal, format=fmt, evalset=evalset, split=split)
    edited = {d.item_id: d.after for d in loaded.queue.decisions.values() if d.after is not None and d.after is not d.before}
    if not edited:
        return evalset
    return evalset.replace(items=tuple(edited.get(item.id, item) for item in evalset.items))


def _child_main(argv: list[str]) -> int:
    """The child: ``python -m reviewtui.tui.stages STAGE PATH FORMAT CORPUS EXTS SPLIT JOURNAL`` and what SpawnedJob adds."""
    served = serve(argv)  # first, before the long work of reading the set: the app may be killed at any moment
    stage, path, fmt, corpus_dir, extensions, split, journal = (served.args + [""] * 7)[:7]
    try:
        from reviewtui.evalset.evidence.corpus import Corpus
        from reviewtui.evalset.io import open_evalset

        evalset = open_evalset(path, format=fmt or None, split=split or None)
        if journal:
            evalset = as_reviewed(evalset, path, journal, fmt or None, split or None)
        exts = tuple(e for e in extensions.split(",") if e)
        corpus = (Corpus(corpus_dir, extensions=exts) if exts else Corpus(corpus_dir)) if corpus_dir else None
    except Exception as exc:
        served.send(StageFailed(stage, _failure(exc)))
        return 1
    finally:
        served.stop_watching()  # with a thread running, the scan could not fork its second worker
    # From here the stage itself polls whether the app is still there, between chunks of work.
    run_stage(stage, evalset, corpus, served.send, cancelled=served.parent_gone())
    return 0


class ChildJob:
    """One stage in a child process, read from a worker thread of the app.

    ``run(on_message, cancelled)`` blocks the calling thread until the child is done,
    handing each message to ``on_message``; it stops the child when ``cancelled()``
    turns True. The child dies with the app, however the app ends (``kill -9``
    included): see :mod:`reviewtui.evalset.jobs.lifetime`.
    """

    def __init__(self, stage: str, source: JobSource) -> None:
        self.stage = stage
        self.source = source
        self.pid: int | None = None  # the child's, while it runs

    def command(self) -> list[str]:
        source = self.source
        return python_module(
            MODULE,
            self.stage,
            source.path,
            source.format or "",
            source.corpus or "",
            ",".join(source.extensions),
            source.split or "",
            source.journal or "",
        )

    def run(self, on_message: Callable[[StageMessage], None], cancelled: Cancelled) -> None:
        try:
            with SpawnedJob(self.command()) as job:
                self.pid = job.pid
                while True:
                    message = job.receive(cancelled)
                    on_message(message)
                    if isinstance(message, (StageDone, StageFailed)):
                        return
        except ScanCancelled:
            return
        except WorkerEnded as ended:  # the child closed its end without saying it was done
            on_message(StageFailed(self.stage, f"the {self.stage} check stopped unexpectedly ({ended})"))
        finally:
            self.pid = None


if __name__ == "__main__":
    # Run from the module under its own name: messages made here must unpickle in the app as its classes.
    from reviewtui.tui.stages import _child_main as child_main

    raise SystemExit(child_main(sys.argv[1:]))

"""Turning a check's stage messages into app messages, the same way wherever the stage ran.

Chunks are gathered here, in the worker thread, and handed over whole when the
stage is done, so the warnings pane never says "no problems" about an item whose
flags are still on their way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.message import Message

from reviewtui.evalset.checks.warninglog import LogEntry
from reviewtui.evalset.model.flag import Flag
from reviewtui.tui.messages import EvidenceFinished, EvidenceProgress, ScanFailed, ScanFinished, ScanProgress
from reviewtui.tui.stages import (
    CautionList,
    EvidenceBatch,
    EvidenceFlagBatch,
    EvidenceSummary,
    FlagBatch,
    StageDone,
    StageFailed,
    StageMessage,
    StageProgress,
)

#: ``checks.filters.UNRESOLVED_EVIDENCE``, named here: importing the checks would add a tenth of a second
#: to the app's start, which runs them in another process (tests/test_tui_evidence_flags.py keeps the two equal).
UNRESOLVED_EVIDENCE = "unresolved-evidence"


def _lookup_speaks_for_quotes(flags: dict[str, list[Flag]]) -> dict[str, list[Flag]]:
    """The scan's flags without unresolved-evidence ("no place located in a document"): with a corpus open, the app looks
    every quote up itself and flags those it does not find. The scan reads the set as the file has it,
    where a quote without a gold span counts as not located (once any item of the set has spans), so
    it flagged quotes the lookup finds word for word."""
    kept: dict[str, list[Flag]] = {}
    for item_id, found in flags.items():
        if any(flag.check == UNRESOLVED_EVIDENCE for flag in found):
            found = [flag for flag in found if flag.check != UNRESOLVED_EVIDENCE]
            if not found:
                continue
        kept[item_id] = found
    return kept


class StageReceiver:
    """Call it with each stage message; it posts app messages through ``post``.

    ``quotes_looked_up``: a corpus is open and the app looks every quote up itself; the quality
    scan's unresolved-evidence flags and cautions are then left out here, in the worker thread, not on
    the screen's (see :func:`_lookup_speaks_for_quotes`).
    """

    def __init__(self, post: Callable[[Message], object], quotes_looked_up: bool = False) -> None:
        self.post = post
        self.quotes_looked_up = quotes_looked_up
        self.flags: dict[str, list[Flag]] = {}
        self.evidence: dict[str, tuple[Any, ...]] = {}
        self.evidence_flags: dict[str, list[Flag]] = {}
        self.cautions: list[LogEntry] = []
        self.summary = ""

    def __call__(self, message: StageMessage) -> None:
        match message:
            case StageProgress(stage, done, total):
                self.post((ScanProgress if stage == "quality" else EvidenceProgress)(done, total))
            case FlagBatch(flags):
                self.flags.update(_lookup_speaks_for_quotes(flags) if self.quotes_looked_up else flags)
            case EvidenceBatch(resolutions):
                self.evidence.update(resolutions)
            case EvidenceFlagBatch(flags):
                self.evidence_flags.update(flags)
            case CautionList(entries):
                # With a corpus open the lookup says which quotes are located: the scan's word on them (a filter
                # that stood down as nothing was located yet) contradicted the evidence pane's "40 of 41 found".
                said_by_lookup = f"{UNRESOLVED_EVIDENCE}:"
                self.cautions = [e for e in entries if not e.message.startswith(said_by_lookup)] if self.quotes_looked_up else entries
            case EvidenceSummary(text):
                self.summary = text
            case StageFailed(stage, error):
                self.post(ScanFailed(error, stage))  # the app's title names the stage
            case StageDone("quality"):
                self.post(ScanFinished(self.flags, self.cautions))
            case StageDone("evidence"):
                self.post(EvidenceFinished(self.evidence, self.evidence_flags, self.summary))

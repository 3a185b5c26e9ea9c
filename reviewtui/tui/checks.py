"""Turning a check's stage messages into app messages, the same way wherever the stage ran.

Chunks are gathered here, in the worker thread, and handed over whole when the
stage is done, so the warnings pane never says "no problems" about an item whose
flags are still on their way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.message import Message

from reviewtui.evalset.checks.looked_up import lookup_speaks_for_cautions, lookup_speaks_for_quotes
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


def _lookup_speaks_for_quotes(flags: dict[str, list[Flag]]) -> dict[str, list[Flag]]:
    """The scan's flags as the lookup of every quote leaves them (see checks.looked_up)."""
    kept: dict[str, list[Flag]] = {}
    for item_id, found in flags.items():
        left = lookup_speaks_for_quotes(found)
        if left is not None:
            kept[item_id] = left
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
                # With a corpus open the lookup says which quotes are located (see checks.looked_up).
                self.cautions = lookup_speaks_for_cautions(entries) if self.quotes_looked_up else entries
            case EvidenceSummary(text):
                self.summary = text
            case StageFailed(stage, error):
                self.post(ScanFailed(error, stage))  # the app's title names the stage
            case StageDone("quality"):
                self.post(ScanFinished(self.flags, self.cautions))
            case StageDone("evidence"):
                self.post(EvidenceFinished(self.evidence, self.evidence_flags, self.summary))

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


class StageReceiver:
    """Call it with each stage message; it posts app messages through ``post``."""

    def __init__(self, post: Callable[[Message], object]) -> None:
        self.post = post
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
                self.flags.update(flags)
            case EvidenceBatch(resolutions):
                self.evidence.update(resolutions)
            case EvidenceFlagBatch(flags):
                self.evidence_flags.update(flags)
            case CautionList(entries):
                self.cautions = entries
            case EvidenceSummary(text):
                self.summary = text
            case StageFailed(stage, error):
                self.post(ScanFailed(f"{stage} check: {error}"))
            case StageDone("quality"):
                self.post(ScanFinished(self.flags, self.cautions))
            case StageDone("evidence"):
                self.post(EvidenceFinished(self.evidence, self.evidence_flags, self.summary))

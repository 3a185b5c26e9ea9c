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
from reviewtui.tui.messages import EvidenceFinished, EvidenceProgress, ScanFailed, ScanFinished, ScanProgress


class StageReceiver:
    """Call it with each stage message; it posts app messages through ``post``."""

    def __init__(self, post: Callable[[Message], object]) -> None:
        self.post = post
        self.staged: dict[str, dict[str, Any]] = {"flags": {}, "evidence": {}, "evidence-flags": {}}
        self.cautions: list[LogEntry] = []
        self.summary = ""

    def __call__(self, *message: Any) -> None:
        if len(message) == 1 and isinstance(message[0], tuple):  # ChildJob hands over the tuple itself
            message = message[0]
        kind = message[0]
        if kind == "progress":
            _, stage, done, total = message
            self.post((ScanProgress if stage == "quality" else EvidenceProgress)(done, total))
        elif kind in self.staged:
            self.staged[kind].update(message[1])
        elif kind == "cautions":
            self.cautions = message[1]
        elif kind == "evidence-summary":
            self.summary = message[1]
        elif kind == "error":
            self.post(ScanFailed(f"{message[1]} check: {message[2]}"))
        elif kind == "done" and message[1] == "quality":
            self.post(ScanFinished(self.staged["flags"], self.cautions))
        elif kind == "done" and message[1] == "evidence":
            self.post(EvidenceFinished(self.staged["evidence"], self.staged["evidence-flags"], self.summary))

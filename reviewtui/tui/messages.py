"""Messages from the checks' worker threads to the app (workers never touch widgets)."""

from __future__ import annotations

from textual.message import Message

from reviewtui.evalset.flag import Flag
from reviewtui.evalset.resolve import AnchorResolution
from reviewtui.evalset.warninglog import LogEntry


class ScanProgress(Message, bubble=False):
    """The quality scan got further."""

    def __init__(self, done: int, total: int) -> None:
        super().__init__()
        self.done = done
        self.total = total

    def can_replace(self, message: Message) -> bool:
        return type(message) is type(self)


class EvidenceProgress(ScanProgress):
    """The lookup of the quotes in the corpus got further."""


class ScanFinished(Message, bubble=False):
    """Per-item flags and set-level cautions are ready."""

    def __init__(self, flags: dict[str, list[Flag]], cautions: list[LogEntry]) -> None:
        super().__init__()
        self.flags = flags
        self.cautions = cautions


class EvidenceFinished(Message, bubble=False):
    """Every anchor of the set was looked up in the corpus."""

    def __init__(
        self, resolutions: dict[str, tuple[AnchorResolution, ...]], flags: dict[str, list[Flag]], summary: str
    ) -> None:
        super().__init__()
        self.resolutions = resolutions
        self.flags = flags
        self.summary = summary


class ScanFailed(Message, bubble=False):
    """A check could not run; the review goes on without its results."""

    def __init__(self, error: str) -> None:
        super().__init__()
        self.error = error


class OrderReady(Message, bubble=False):
    """The flagged-first order, and how many items carry a flag of MEDIUM or worse."""

    def __init__(self, order: list[int], serious: int) -> None:
        super().__init__()
        self.order = order
        self.serious = serious

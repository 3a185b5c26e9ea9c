"""Messages from the worker threads (checks, the set loader) to the app; workers never touch widgets."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message import Message

from reviewtui.evalset.checks.warninglog import LogEntry
from reviewtui.evalset.model.flag import Flag
from reviewtui.evalset.model.items import EvalItem, EvalSet, EvalSetError

if TYPE_CHECKING:  # the resolver is only loaded when a corpus is given
    from reviewtui.evalset.evidence.resolve import AnchorResolution


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


class SetBatch(Message, bubble=False):
    """Another batch of a set still being read, and how far into the file it reached (0..1)."""

    def __init__(self, items: list[EvalItem], fraction: float) -> None:
        super().__init__()
        self.items = items
        self.fraction = fraction


class SetLoaded(Message, bubble=False):
    """The whole set has been read."""

    def __init__(self, evalset: EvalSet) -> None:
        super().__init__()
        self.evalset = evalset


class SetLoadFailed(Message, bubble=False):
    """Reading the rest of the set hit a problem (a malformed line): the app must close."""

    def __init__(self, error: EvalSetError) -> None:
        super().__init__()
        self.error = error

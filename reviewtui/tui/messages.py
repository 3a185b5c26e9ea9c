"""Messages from the worker threads (checks, the set loader) to the app; workers never touch widgets.

Each is a dataclass (Textual's ``Message`` sets itself up in ``__post_init__``), posted
with ``bubble=False`` because only the app handles them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual.message import Message

from reviewtui.evalset.checks.warninglog import LogEntry
from reviewtui.evalset.model.flag import Flag
from reviewtui.evalset.model.items import EvalItem, EvalSet, EvalSetError

if TYPE_CHECKING:  # the resolver is only loaded when a corpus is given
    from reviewtui.evalset.checks.recheck import SetFacts
    from reviewtui.evalset.evidence.resolve import AnchorResolution
    from reviewtui.evalset.review.queue import ReviewOrder


@dataclass
class ScanProgress(Message, bubble=False):
    """The quality scan got further."""

    done: int
    total: int

    def can_replace(self, message: Message) -> bool:
        # A flood of progress updates collapses into the latest one.
        return type(message) is type(self)


class EvidenceProgress(ScanProgress):
    """The lookup of the quotes in the corpus got further."""


@dataclass
class ScanFinished(Message, bubble=False):
    """Per-item flags and set-level cautions are ready."""

    flags: dict[str, list[Flag]]
    cautions: list[LogEntry]


@dataclass
class EvidenceFinished(Message, bubble=False):
    """Every anchor of the set was looked up in the corpus."""

    resolutions: dict[str, tuple[AnchorResolution, ...]]
    flags: dict[str, list[Flag]]
    summary: str


@dataclass
class ScanFailed(Message, bubble=False):
    """A check could not run; the review goes on without its results.

    ``stage``: "quality" (the warnings) or "evidence" (the corpus lookup of every quote).
    """

    error: str
    stage: str = "quality"


@dataclass
class OrderReady(Message, bubble=False):
    """The flagged-first order, and how many items carry a flag of MEDIUM or worse.

    ``ranked``: the order's (minus the item's worst severity, its index), sorted, so that an item whose warnings as
    shown changed since can be put in its place again (see ``ReviewApp.flagged_order_as_shown``)."""

    order: list[int]
    serious: int
    ranked: list[tuple[int, int]] | None = None
    #: the request it answers (see ReviewApp.order_pending); None: whatever was asked last
    asked: object | None = None
    #: what the quality scan's flags ``facts_of`` say of the whole set (see ReviewApp._set_facts), worked out with the
    #: order, off the UI thread: an edited item's first recheck after a scan no longer walks every item and flag
    facts: SetFacts | None = None
    facts_of: object | None = None
    #: ``order`` worked out for the review queue (see ReviewOrder), off the UI thread; None for an empty order
    prepared: ReviewOrder | None = None


@dataclass
class ExportDone(Message, bubble=False):
    """An export on its thread is done: what to say of it (the text, and whether as a warning), or why it failed."""

    said: tuple[str, bool] | None
    error: Exception | None = None


@dataclass
class SetBatch(Message, bubble=False):
    """Another batch of a set still being read, and how far into the file it reached (0..1)."""

    items: list[EvalItem]
    fraction: float


@dataclass
class SetLoaded(Message, bubble=False):
    """The whole set has been read; ``note``: what reading it changed, to be said (NaN in meta), or None."""

    evalset: EvalSet
    note: str | None = None


@dataclass
class SetLoadFailed(Message, bubble=False):
    """Reading the rest of the set hit a problem (a malformed line): the app must close."""

    error: EvalSetError


@dataclass
class LoaderCrashed(Message, bubble=False):
    """Reading the rest of the set stopped on an error of reviewtui's own (a bug): the app must close as on any."""

    error: BaseException

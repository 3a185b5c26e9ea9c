"""Opening a review on the first items of a large set while the rest is still being read.

A 100k-question JSONL file takes a second or two to read and validate; the
reviewer only needs the question under the cursor. So the review app reads
just enough of the file to put the cursor exactly where reading all of it
would (:func:`read_opening`), opens, and reads the rest in the background in
batches (:class:`SetLoader`) that are appended to the queue.

"Exactly where" holds because of how the queue moves: after a decision the
cursor goes to the next undecided item *after* it. Once every item the
journal names has been read, plus one more item in review after the last of
them, replaying the journal on the items read so far makes the same moves as
replaying it on the whole set. Two kinds of record need the whole set and make
the opening read everything: a custom order (it ranks every item) and a move
past the last item.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from reviewtui.evalset.io.journal import JournalContents, where_it_ended
from reviewtui.evalset.io.jsonl import PROGRESS_EVERY, JsonlReader, find_item
from reviewtui.evalset.jobs.cancel import Progress
from reviewtui.evalset.jobs.collector import gc_paused
from reviewtui.evalset.model.items import EvalItem, EvalSet, EvalSetError
from reviewtui.evalset.review.queue import stays_in_review
from reviewtui.evalset.review.replay import journal_item_ids

__all__ = [
    "OPENING_ITEMS",
    "PREVIEW_FROM_BYTES",
    "OpeningPlan",
    "SetLoader",
    "opening_plan",
    "read_opening",
    "read_to_end",
    "reads_as_jsonl",
    "resume_preview",
]

#: Items read before the screen opens, at least: more than a reviewer can page through before the loader's first
#: batch lands (tens of milliseconds later), and about 5 ms of reading (1,000 took 15-20 ms of the launch).
OPENING_ITEMS = 300
#: Items per background batch: small enough that the queue grows smoothly and keys never wait on it.
LOADER_BATCH = 2_000
_SEEKING_BATCH = 256  # while looking for the journal's items: a few milliseconds per batch
#: A journal at least this long (about 10,000 decisions) is resumed behind a preview of the
#: question it ended on (:func:`resume_preview`); a shorter one is read and replayed in a
#: fraction of a second, before the screen opens, as it always was.
PREVIEW_FROM_BYTES = 2_000_000


@dataclass(frozen=True, slots=True)
class OpeningPlan:
    """What the journal needs before a review can open on part of the set."""

    needed: frozenset[str]  # every item id a record names
    decided: frozenset[str]  # ids decided or annotated: they stay in review even if marked reviewed
    include_reviewed: bool
    #: the items this review may hold at all (a team member's share); None: every item
    only: Callable[[EvalItem], bool] | None = None

    def in_review(self, item: EvalItem) -> bool:
        """Whether the queue holds this item (the rule of ``ReviewQueue.from_evalset``, within ``only``)."""
        if self.only is not None and not self.only(item):
            return False
        return self.include_reviewed or stays_in_review(item, self.decided)


def opening_plan(
    contents: JournalContents, include_reviewed: bool, only: Callable[[EvalItem], bool] | None = None
) -> OpeningPlan | None:
    """The ids to read before opening, or None when the journal needs the whole set first.

    ``include_reviewed`` is the rule already settled for this review (see ``_includes_reviewed``
    in :mod:`reviewtui.evalset.review.session`); ``only`` keeps a team member to their share.
    """
    needed: set[str] = set()
    for _, payload in contents.records[1:]:
        op = payload.get("op")
        target = payload.get("id")
        if op == "order" or op == "reorder" or (op == "move" and target is None):
            return None
        if isinstance(target, str):
            needed.add(target)
    return OpeningPlan(frozenset(needed), frozenset(journal_item_ids(contents)), include_reviewed, only)


def read_opening(
    reader: JsonlReader, plan: OpeningPlan, *, at_least: int | None = None, progress: Progress | None = None
) -> None:
    """Read until the journal's items and one item in review after the last of them are in,
    and at least ``at_least`` items (default :data:`OPENING_ITEMS`), or to the end of the file.

    ``at_least`` counts every item read, a team member's or not: with a twentieth of the set
    they open on about fifteen of their own, more than they can page through before the
    loader's first batch (a hundred more of theirs) is in. ``progress(bytes read, bytes in
    the file)`` is told after each batch: a journal whose items lie all through a large file
    makes the opening read most of it.
    """
    if at_least is None:
        at_least = OPENING_ITEMS
    if not reader.bytes_total:  # a pipe: how much is left cannot be told
        progress = None
    missing = set(plan.needed)
    after_last_needed = 0
    told_at = 0  # items read when progress was last told: past the seeking, items come one at a time
    while not reader.done:
        for item in reader.read(max(at_least - len(reader.items), _SEEKING_BATCH if missing else 1)):
            if item.id in missing:
                missing.discard(item.id)
                after_last_needed = 0
            elif plan.in_review(item):
                after_last_needed += 1
        opened = not missing and after_last_needed and len(reader.items) >= at_least
        if progress is not None and (opened or reader.done or len(reader.items) - told_at >= _SEEKING_BATCH):
            progress(reader.bytes_read, reader.bytes_total)
            told_at = len(reader.items)
        if opened:
            return


def read_to_end(reader: JsonlReader, progress: Progress | None = None) -> EvalSet:
    """The whole set, ``progress(bytes read, bytes in the file)`` told after each batch; what the reading
    changed is said (see JsonlReader.say_notes)."""
    if progress is not None and reader.bytes_total:  # else no progress to tell, or a pipe's unknown length
        while not reader.done:
            reader.read(PROGRESS_EVERY)
            progress(reader.bytes_read, reader.bytes_total)
    evalset = reader.finish()
    reader.say_notes()
    return evalset


class SetLoader:
    """The rest of a set file, read a batch at a time off the UI thread.

    :meth:`read_more` and :meth:`finish` may run in a worker thread; they touch
    nothing but the file. The caller hands each batch to the session on its own
    thread. :meth:`close` waits for a batch in progress, so closing the session
    while a batch is being read is safe.
    """

    #: what reading the set changed, to be said once it is read (see finish)
    note: str | None = None

    def __init__(self, reader: JsonlReader, in_review: Callable[[EvalItem], bool]) -> None:
        self._reader = reader
        self._in_review = in_review
        self._lock = threading.Lock()
        self._closed = False

    @property
    def done(self) -> bool:
        """Nothing more to read: the end of the file, or the session was closed."""
        return self._closed or self._reader.done

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def fraction(self) -> float:
        """How much of the file has been read, 0..1."""
        total = self._reader.bytes_total
        if self._closed or not total:
            return 1.0
        return min(1.0, self._reader.bytes_read / total)

    def read_more(self, limit: int = LOADER_BATCH) -> list[EvalItem]:
        """The next batch's items that belong in the review (raises EvalSetError at a bad line)."""
        with self._lock:
            if self._closed:
                return []
            with gc_paused():  # see gc_paused: the collector would walk every new item many times over
                return self._keep(self._reader.read(limit))

    def finish(self) -> EvalSet:
        """The whole set, once every batch has been read (RuntimeError once closed); what the reading changed
        and a reader says as a warning is kept in :attr:`note` instead, for the app to show (a warning from
        this worker thread would reach nobody)."""
        with self._lock, gc_paused():
            if self._closed:
                raise RuntimeError("the set loader was closed with its session")
            evalset = self._reader.finish()
            self.note = self._reader.note_text()
            return evalset

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._reader.close()

    def _keep(self, batch: Iterable[EvalItem]) -> list[EvalItem]:
        keep = self._in_review
        return [item for item in batch if keep(item)]


def reads_as_jsonl(path: str | os.PathLike[str], format: str | None) -> bool:
    """Whether a set file is read as native JSONL, the one format read in batches (and searched by id)."""
    if format is not None:
        return format.lower() == "jsonl"
    from reviewtui.evalset.io.sniff import sniff_format

    p = Path(path)
    return p.suffix.lower() != ".json" and not p.is_dir() and sniff_format(p) == "jsonl"


def resume_preview(
    set_path: str | os.PathLike[str],
    journal_path: str | os.PathLike[str],
    *,
    format: str | None = None,
    from_bytes: int | None = None,
) -> EvalItem | None:
    """The item a long review ended on, read without reading the set or replaying the journal; None when unknown.

    Resuming 100k decisions means reading and checking every item they name and replaying every
    record: seconds. The journal's last line says which item the cursor was on when the review
    last closed (``where_it_ended``), and that item's line is found by its id (``find_item``), in a
    few tens of milliseconds, so the app can show its question while the review opens behind
    it. Only for a native JSONL file and a journal of at least ``from_bytes`` bytes
    (:data:`PREVIEW_FROM_BYTES`); the replay then decides where the cursor really is.
    """
    limit = PREVIEW_FROM_BYTES if from_bytes is None else from_bytes
    try:
        if os.stat(journal_path).st_size < limit:
            return None
    except OSError:
        return None
    try:
        if not reads_as_jsonl(set_path, format):
            return None
    except (OSError, EvalSetError):  # the set cannot be read: opening the review says why
        return None
    item_id = where_it_ended(journal_path)
    return None if item_id is None else find_item(set_path, item_id)

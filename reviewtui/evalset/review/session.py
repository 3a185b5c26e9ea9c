"""A review session: one set, one reviewer, one journal, one lock.

This is the object the review app and the command line use. Opening a session
takes the set's lock, loads the set, reads and replays its journal, and builds
the queue. Every method that changes anything plans the step on the queue,
writes it to the journal, and only then applies it, so what is on screen is
never ahead of what is on disk. The input file is only ever read.

:func:`load_review` does the same reading without the lock and without writing
anything, for ``reviewtui status`` and ``reviewtui export`` (which may run while
the app is open).
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import functools
import os
import socket
import time
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reviewtui.evalset.io.files import set_identity
from reviewtui.evalset.io.journal import (
    JournalClaim,
    JournalContents,
    JournalWriter,
    claim_journal,
    default_journal_path,
    read_journal,
)
from reviewtui.evalset.io.jsonl import LinePrints
from reviewtui.evalset.io.lock import LockHolder, ReviewLock, default_lock_path
from reviewtui.evalset.io.names import LEGALBENCH, file_name_text
from reviewtui.evalset.model.errors import EvalSetError, InputError, JournalError, JournalWriteError, OutputError, ReviewError
from reviewtui.evalset.model.flag import Flag, Severity
from reviewtui.evalset.model.items import EvalItem, EvalSet
from reviewtui.evalset.review.export import version_read
from reviewtui.evalset.review.loading import reads_as_jsonl
from reviewtui.evalset.review.queue import (
    IDLE_CAP_SECONDS,
    Action,
    Annotate,
    Change,
    Decide,
    Dismiss,
    ItemEdit,
    Redo,
    Reorder,
    ReviewOrder,
    ReviewQueue,
    Undo,
    default_reviewer,
    format_duration,
)
from reviewtui.evalset.review.replay import (
    ReplayOutcome,
    StaleRecord,
    UndoMismatch,
    journal_item_ids,
    record_for,
    replay,
)
from reviewtui.evalset.review.team import TeamPlan, signed_by_others
from reviewtui.evalset.text.counts import count, plural
from reviewtui.evalset.text.safe import shown
from reviewtui.evalset.text.words import in_quotes

if TYPE_CHECKING:
    from reviewtui.evalset.review.loading import SetLoader

__all__ = ["LoadedReview", "ResumeReport", "ReviewSession", "load_review", "status_lines"]

# Cursor moves and order changes are written at once but never wait for the disk,
# whatever the durability: losing the last arrow key to a power cut costs nothing,
# and the next synced step makes them durable too.
_UNSYNCED_OPS = frozenset(("move", "order", "reorder"))

#: Each decision is on disk (fdatasync) before the next question is drawn. It costs a
#: few hundred microseconds on an idle disk (benchmarks/bench_review.py), far below
#: what a person notices; "batched" trades that for a half-second window.
DEFAULT_DURABILITY = "every"


@dataclass(frozen=True, slots=True)
class ResumeReport:
    """What opening a review found: how far it had got, and anything that could not be restored."""

    journal_path: Path
    resumed: bool  # the journal holds work to go on from, not only sessions opened (see _holds_work)
    decided: int
    total: int
    stale: tuple[StaleRecord, ...] = ()
    torn: str | None = None
    recovered_lock: LockHolder | None = None
    version_then: int | None = None
    version_now: int | None = None
    complete: bool = True  # False while the rest of a large set is still being read
    #: Items the file marks reviewed, left out of this review (the demo set's 41 questions were "38 to check",
    #: and nothing on screen said why).
    marked_reviewed: int = 0

    @property
    def headline(self) -> str:
        if not self.complete:  # the total is not known yet; the app shows how far the reading is
            return f"resumed: {self.decided:,} decided" if self.resumed else "new review"
        left_out = f", {self.marked_reviewed:,} marked reviewed left out (--all)" if self.marked_reviewed else ""
        if self.resumed:
            return f"resumed: {self.decided:,} of {self.total:,} decided{left_out}"
        return f"new review: {self.total:,} {plural(self.total, 'question', 'questions')} to check{left_out}"

    def lines(self) -> list[str]:
        """The headline, then one line per thing the reviewer should know."""
        out = [self.headline]
        if self.version_then is not None and self.version_now is not None and self.version_then != self.version_now:
            out.append(f"the set is now version {self.version_now}; this review began on version {self.version_then}")
        stale_ids = list(dict.fromkeys(record.item_id for record in self.stale))
        if stale_ids:
            n = len(stale_ids)
            shown = ", ".join(stale_ids[:5]) + (f" and {n - 5} more" if n > 5 else "")
            out.append(
                f"{n} earlier {plural(n, 'decision', 'decisions')} not restored because "
                f"{plural(n, 'its item changed or is', 'their items changed or are')} gone: {shown}"
            )
        if self.torn:
            out.append(self.torn)
        if self.recovered_lock is not None:
            out.append(f"took over the lock left by {self.recovered_lock.describe()}, which did not close cleanly")
        return out

    def __str__(self) -> str:
        return "\n".join(self.lines())


@dataclass(slots=True)
class LoadedReview:
    """A set and its review state as read from disk (nothing locked, nothing written)."""

    input_path: Path | None
    journal_path: Path
    evalset: EvalSet
    queue: ReviewQueue
    contents: JournalContents
    outcome: ReplayOutcome
    report: ResumeReport
    header: dict[str, Any] = field(default_factory=dict)
    #: the set file as it was before it was read (io.files.set_identity), for an export to check it still is
    input_identity: tuple[object, ...] | None = None


def _load_set(
    path: Path,
    format: str | None,
    progress: Callable[[int, int], None] | None = None,
    split: str | None = None,
    line_prints: LinePrints | None = None,
) -> EvalSet:
    from reviewtui.evalset.io import open_evalset

    return open_evalset(path, format=format, progress=progress, split=split, line_prints=line_prints)


def _resolved(path: Path) -> Path:
    try:
        return path.resolve()
    except OSError:  # a loop of links: compared as written
        return path


def _share_of(evalset: EvalSet, share: Callable[[EvalItem], bool]) -> EvalSet:
    """The part of ``evalset`` a team member reviews, in set order."""
    return evalset.replace(items=tuple(filter(share, evalset.items)))


def _includes_reviewed(contents: JournalContents, asked: bool | None) -> bool:
    """Whether the review keeps items already marked reviewed: asked now, or by the journal's first session."""
    return bool(asked) or bool((contents.header or {}).get("all", False))


def _beside(journal_path: Path, input_path: Path) -> bool:
    """Whether ``journal_path`` is where a review of ``input_path`` keeps its journal by default (a split's too)."""
    default = default_journal_path(input_path)
    return Path(os.path.abspath(journal_path.parent)) == Path(os.path.abspath(default.parent)) and (
        journal_path.name == default.name
        or (journal_path.name.startswith(f"{input_path.name}.") and journal_path.name.endswith(default.name[len(input_path.name) :]))
    )


def _journal_set(header: Mapping[str, Any], evalset: EvalSet, input_path: Path | None = None) -> Any:
    """The id of the set a journal's header says it reviews, as ``evalset``'s (read from ``input_path``) is given now.

    A LegalBench-RAG set was ``legalbench-rag`` whatever its file, until its id became its file's name: a journal
    begun then names that id, and the file it was begun on (``input``, the real path), whose name is the set's id
    now; the same file opened by another name (a link to it) is its set too. Without that file (a review begun
    through the library on a set it was handed) the journal is taken for this set's."""
    journal_set = header.get("set")
    if journal_set == LEGALBENCH and evalset.source == LEGALBENCH and journal_set != evalset.id:
        started_on = header.get("input")
        if not isinstance(started_on, str) or not started_on:
            return evalset.id
        with contextlib.suppress(OSError, RuntimeError):  # a link loop: the file's name is all there is to go by
            if input_path is not None and file_name_text(input_path.resolve()) == started_on:
                return evalset.id
        return file_name_text(Path(started_on).stem)
    return journal_set


def _check_belongs(
    contents: JournalContents,
    evalset: EvalSet,
    journal_ids: Collection[str],
    *,
    in_team: bool = False,
    named: bool = False,
    input_path: Path | None = None,
) -> None:
    """Refuse a journal of another set: one whose header names another set id, or, beside a set read on its
    own, one none of whose decided items the set holds (a set of the same name written over the one reviewed).

    A team's journal (``in_team``) is the plan's for this set, whose id and version are checked: there every
    item a reviewer decided may have left the set between rounds, and their decisions are reported vanished,
    as any other removed item's are. Refused as another set's, it stopped every team command. ``named``: the journal
    was named (--journal), not the one beside the set, so that the advice is not to name one. ``input_path``: the
    file the set was read from (see :func:`_journal_set`)."""
    header = contents.header
    if header is None:
        return
    where = str(contents.path)
    journal_set = _journal_set(header, evalset, input_path)
    if journal_set != evalset.id:
        started_on = f" (started on {shown(header['input'])})" if header.get("input") else ""
        if in_team:
            # A team's journals are the plan's, found in the team's folder, never named with --journal (which a
            # team's review refuses): "leave --journal out" was said to a lead who had only renamed the set file
            # (a CSV set, like a BEIR folder, takes its id from its name), with every team command stopped.
            advice = (
                "a team's journals all judge the set they began on: give the file the name it had "
                "(its id comes from its name unless the file holds one), or move the team's journals aside to start again"
            )
        elif named:
            advice = "name this set's own journal, or leave --journal out for the one beside the set"
        else:
            advice = "move it aside or pass --journal to keep a separate one"
        raise JournalError(
            f"this journal belongs to set {journal_set!r}{started_on}, not to {evalset.id!r}; " + advice,
            path=where,
            line=1,
        )
    if not in_team and journal_ids and not any(evalset.get(item_id) is not None for item_id in journal_ids):
        raise JournalError(
            f"none of the {count(len(journal_ids), 'item')} this journal decided on is in the set any more, "
            "so it most likely belongs to another set with the same id; "
            + ("name this set's own journal, or leave --journal out" if named else "move it aside or pass --journal"),
            path=where,
            line=1,
        )


def refuse_other_version(loaded: LoadedReview) -> None:
    """Refuse a journal begun on another version of the set (a team's journals must all judge one version).

    A single review only says so on resuming (see ResumeReport): its reviewer sees what changed.
    A team's agreement and merged export compare reviewers item by item, which is only meaningful
    when they judged the same text.
    """
    header = loaded.contents.header or {}
    then, now = header.get("version"), loaded.evalset.version
    if then is not None and then != now:
        raise JournalError(
            f"this journal was written for version {then} of set {loaded.evalset.id!r}, and the file now holds "
            f"version {now}; a team's reviews must all be of one version: move the team's journals aside "
            "(or review the earlier version) to go on",
            path=str(loaded.journal_path),
            line=1,
        )


def _resume(
    evalset: EvalSet,
    journal_path: Path,
    *,
    input_path: Path | None,
    include_reviewed: bool | None,
    reviewer: str | None,
    clock: Callable[[], float] | None,
    idle_cap: float,
    contents: JournalContents | None = None,
    line_prints: LinePrints | None = None,
    journal_ids: Collection[str] | None = None,
    replay_progress: Callable[[int, int], None] | None = None,
    in_team: bool = False,
) -> LoadedReview:
    if contents is None:
        contents = read_journal(journal_path)
    header = contents.header or {}
    if journal_ids is None:
        journal_ids = journal_item_ids(contents)
    named = input_path is not None and not _beside(journal_path, input_path)
    _check_belongs(contents, evalset, journal_ids, in_team=in_team, named=named, input_path=input_path)
    include = _includes_reviewed(contents, include_reviewed)

    def fresh_queue() -> ReviewQueue:
        return ReviewQueue.from_evalset(
            evalset,
            skip_reviewed=not include,
            include_ids=journal_ids,
            reviewer=reviewer,
            clock=clock,
            idle_cap=idle_cap,
            text_markers=True,  # a spreadsheet's "false" is not reviewed (the documented queue reads it by its truth)
        )

    queue = fresh_queue()
    try:
        outcome = replay(queue, contents, line_prints, replay_progress) if contents.records else ReplayOutcome()
    except UndoMismatch as exc:
        # A journal written before undos named their change, by a version that paired an undo with the
        # change on top whatever it was: replayed again that way, it reads as it did then.
        queue = fresh_queue()
        try:
            outcome = replay(queue, contents, line_prints, replay_progress, as_written_before=True)
        except EvalSetError:
            raise exc from None
    resumed = _holds_work(contents)
    report = ResumeReport(
        journal_path=journal_path,
        resumed=resumed,
        decided=queue.decided,
        total=len(queue),
        stale=_not_decided_again(queue, outcome.stale, contents),
        # With no whole record, what the cut left is all the file holds: said once, as the journal the app refuses.
        torn=contents.torn.describe(journal_path) if contents.torn and contents.records else None,
        version_then=header.get("version") if resumed else None,
        version_now=evalset.version,
        marked_reviewed=0 if include else len(evalset.items) - len(queue),
    )
    header = dict(header)
    header["all"] = include
    return LoadedReview(input_path, journal_path, evalset, queue, contents, outcome, report, header)


def _not_decided_again(
    queue: ReviewQueue, stale: list[StaleRecord], contents: JournalContents
) -> tuple[StaleRecord, ...]:
    """The decisions set aside (their item changed in the file) that nothing has replaced since: an item the
    reviewer has decided again has been dealt with, and being told of it on every resume is noise. A decision
    that stands from before the one set aside (the set changed back) is not that: the report stays.

    "Since" is by the journal's order, not by the clock: with the clock set back, a decision made after the
    one set aside was dated before it, and the item was reported on every resume though decided again.
    """
    if not stale:
        return ()
    ids = {record.item_id for record in stale}
    set_aside = {record.line for record in stale}
    applied: dict[str, list[tuple[int, object]]] = {}  # item -> (line, time) of its decide records applied
    for line, payload in contents.records:
        item_id = payload.get("id")
        if payload.get("op") == "decide" and item_id in ids and line not in set_aside:
            applied.setdefault(item_id, []).append((line, payload.get("at")))
    kept = []
    for record in stale:
        index = queue.index_of(record.item_id)
        decision = queue.decision_for(index) if index is not None else None
        again = (
            decision is not None
            and record.at is not None
            # the standing decision is one a record after the one set aside made (told by its time)
            and any(line > record.line and at == decision.decided_at for line, at in applied.get(record.item_id, ()))
        )
        if not again:
            kept.append(record)
    return tuple(kept)


#: What a journal records that is not review work: a session opening, the cursor moving. Opening a
#: set, looking around and closing it again leaves a journal, but no review to resume.
_NOT_WORK = frozenset(("open", "move"))


def _holds_work(contents: JournalContents) -> bool:
    """Whether the journal records a decision, a note, an undo or redo, or an order of the reviewer's."""
    # replay() has already refused a record whose "op" is not a string
    return any(payload.get("op") not in _NOT_WORK for _, payload in contents.records[1:])


def not_restored(report: ResumeReport) -> dict[str, str]:
    """Item id -> why the journal's decision on it was not applied ("changed", "vanished"), for an export's header."""
    return {record.item_id: record.why for record in report.stale}


def load_review(
    path: str | os.PathLike[str],
    *,
    journal_path: str | os.PathLike[str] | None = None,
    include_reviewed: bool | None = None,
    format: str | None = None,
    evalset: EvalSet | None = None,
    split: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    replay_progress: Callable[[int, int], None] | None = None,
    in_team: bool = False,
) -> LoadedReview:
    """Read a set and replay its journal without taking the lock or writing anything.

    A torn last record is reported in ``report.torn`` but left on disk (the next
    session cuts it off). ``split`` chooses a BEIR folder's qrels file (and its journal).
    ``progress(done, total)`` follows the reading of the set file, ``replay_progress`` the
    replay of the journal's records. ``in_team``: the journal is a team member's or the adjudicator's (see
    :func:`_check_belongs`).
    """
    input_path = Path(path)
    journal = Path(journal_path) if journal_path is not None else default_journal_path(input_path, split)
    contents: JournalContents | None = None
    prints: LinePrints | None = None
    journal_ids: frozenset[str] | None = None
    if evalset is None:
        # The journal first, so that the set's reader can keep the line hashes replay checks against.
        try:
            contents = read_journal(journal)
        except EvalSetError:
            contents = None  # read again after the set, so a broken set is still the first thing reported
        else:
            prints = LinePrints(journal_item_ids(contents))
            journal_ids = prints.wanted  # the same ids: _resume need not gather them again
    identity = set_identity(input_path) if evalset is None else None  # before reading: a change while it is read shows
    loaded_set = (
        evalset if evalset is not None else _load_set(input_path, format, progress, split=split, line_prints=prints)
    )
    loaded = _resume(
        loaded_set,
        journal,
        input_path=input_path,
        include_reviewed=include_reviewed,
        reviewer=None,
        clock=None,
        idle_cap=IDLE_CAP_SECONDS,
        contents=contents,
        line_prints=prints,
        journal_ids=journal_ids,
        replay_progress=replay_progress,
        in_team=in_team,
    )
    loaded.input_identity = identity
    return loaded


def _journalled(plan: Callable[..., Action | None]) -> Callable[..., Any]:
    """A session step made from one of the queue's plans: planned, written to the journal, then applied."""

    def step(self: ReviewSession, *args: Any, **kwargs: Any) -> Any:
        return self.apply(plan(self.queue, *args, **kwargs))

    step.__name__ = step.__qualname__ = plan.__name__.removeprefix("plan_")
    step.__doc__ = f"``apply(queue.{plan.__name__}(...))``: see :meth:`ReviewQueue.{plan.__name__}`."
    return step


class ReviewSession:
    """A set open for review: the queue, its journal and its lock, driven through one object.

    Use :meth:`open` (or :meth:`start` with a set already in memory), then
    :meth:`apply` with a step the queue planned (or one of the one-keystroke
    methods made from it), then :meth:`close` (or a ``with`` block).
    """

    def __init__(self, loaded: LoadedReview, writer: JournalWriter, lock: ReviewLock | None) -> None:
        self._loaded = loaded
        self._writer = writer
        self._lock = lock
        self._prints = loaded.outcome.fingerprints
        # The journal records of the changes on the queue's undo and redo stacks, so that an undo or a
        # redo names the one it takes (see replay): kept in step with the queue by apply().
        self._undo_records = list(loaded.outcome.undo_records)
        self._redo_records = list(loaded.outcome.redo_records)
        #: the orders the journal holds whole, by ReviewOrder.key: the record a "reorder" names (see apply)
        self._orders = dict(loaded.outcome.orders)
        self._loader: SetLoader | None = None
        self.opened_at = time.time()
        #: the format the set file was read as (None: guessed from the file), so helpers can read it the same way
        self.source_format: str | None = None
        #: the BEIR qrels split the set was read with (None: the folder's default)
        self.source_split: str | None = None
        #: a team member's or an adjudicator's session holds only part of the set: its export would lose the rest
        self.partial = False
        #: what part of a team's work this review is, for the screen ("ana's share"); None: a single review
        self.role: str | None = None
        #: an adjudicator's session on a team's disagreements (its result is the adjudicated consensus)
        self.adjudicating = False
        self._share: Callable[[EvalItem], bool] | None = None  # while a team member's set is read: their items
        self._last_record: dict[str, Any] | None = None  # the last step this session wrote (see _note_the_cursor)
        self._last_decided_at: float | None = None  # the time of the last decision this session wrote (status_lines)
        #: the set file as this review read it (see io.files.set_identity): its export says which file it came from
        self._input_as_read = set_identity(loaded.input_path)
        #: steps refused because the journal could not take them (a full disk): nothing of them was made
        self.unsaved_steps = 0
        #: why the journal refused the last of them, as the system said it ("No space left on device")
        self.last_unsaved = ""
        #: what happened to the journal's name while the review ran (replaced, removed), as found when it closed
        self.journal_moved: str | None = None
        #: where what this review wrote into a journal replaced or removed on disk was copied as it closed (see
        #: JournalWriter.keep_copy); None when nothing was copied
        self.journal_kept: Path | None = None

    # --- opening and closing ------------------------------------------------------------

    @classmethod
    def open(
        cls,
        path: str | os.PathLike[str],
        *,
        reviewer: str | None = None,
        journal_path: str | os.PathLike[str] | None = None,
        include_reviewed: bool = False,
        format: str | None = None,
        durability: str = DEFAULT_DURABILITY,
        clock: Callable[[], float] | None = None,
        idle_cap: float = IDLE_CAP_SECONDS,
        progress: Callable[[int, int], None] | None = None,
        progressive: bool = False,
        require_questions: bool = False,
        split: str | None = None,
        team: TeamPlan | None = None,
        only_ids: Collection[str] | None = None,
        replay_progress: Callable[[int, int], None] | None = None,
    ) -> ReviewSession:
        """Open a set file for review, resuming its journal if it has one.

        With ``require_questions`` a set read whole that holds no questions is refused
        (InputError) before its lock is kept or a journal is made for it. ``split`` chooses
        a BEIR folder's qrels file; another split than the default has a journal of its own.
        With ``team`` (a plan from ``reviewtui assign``) the reviewer gets only the items the
        plan gives them, in a journal and under a lock of their own (see :mod:`.team`).
        ``only_ids`` keeps just those items (an adjudication: the items reviewers disagree on).

        ``progress(done, total)`` follows the reading of a large set file (in bytes),
        ``replay_progress(done, total)`` the replay of its journal (in records). With
        ``progressive``, a native JSONL set opens as soon as the cursor's place is
        known (see :mod:`reviewtui.evalset.review.loading`); :attr:`loading` then reads the
        rest, and a malformed line further on raises when its batch is read.

        Raises EvalSetError (one line, naming the file) for a missing or malformed
        set, a journal of another set, a damaged journal, a lock or journal that is
        a link or not a plain file, or a set or journal already open in another
        session. Every step is written before it returns, so it survives the app
        being killed; ``durability`` says when it is also forced to disk against a
        power cut: ``"every"`` (the default: each decision, note, undo and redo
        waits for the disk before returning; cursor moves do not), ``"batched"``
        (within half a second, in the background) or ``"close"``. A step that
        cannot be written raises :class:`~reviewtui.evalset.io.journal.JournalWriteError`
        and is not made.
        """
        input_path = Path(path)
        if not input_path.exists():  # a folder may be fine: a BEIR set is one
            raise InputError("no such file", path=str(input_path))
        # " bo " found bo's journal and signed its records " bo ": one reviewer under two names.
        who = (reviewer or default_reviewer()).strip()
        if not who:
            raise InputError("a reviewer's name cannot be blank")
        share: Callable[[EvalItem], bool] | None = None
        if team is not None:
            team.refuse_a_linked_folder()  # a team's review writes its journal there (--journal may only name it)
            journal = Path(journal_path) if journal_path is not None else team.journal_for(who)
            if only_ids is None and journal_path is not None and _resolved(journal) != _resolved(team.journal_for(who)):
                # Another member's journal would count these decisions as theirs in the team's agreement and export.
                raise InputError(
                    f"in this team's review, {who}'s decisions are kept in {team.journal_for(who)}; "
                    "--journal cannot name another journal",
                    path=str(journal),
                )
            lock_path = journal.with_suffix(".reviewtui-lock")  # beside its journal: one writer per journal
            if only_ids is None:
                # Refuses a name the plan does not hold, before anything is locked or read (the adjudicator's
                # journal, signed by whoever adjudicated, read as a reviewer's copied over); what the journal
                # decided stays in the share when a new plan moved it to someone else.
                team.share_of(who)
                share = team.share_of(who, _own_decisions(journal, who))
            else:
                progressive = False  # an adjudication: the disagreements were found on the whole set
        elif only_ids is not None:
            journal = Path(journal_path) if journal_path is not None else default_journal_path(input_path, split)
            lock_path = _lock_path(input_path, journal)
            progressive = False
        else:
            journal = Path(journal_path) if journal_path is not None else default_journal_path(input_path, split)
            lock_path = _lock_path(input_path, journal)
        if journal.exists() and os.path.samefile(journal, input_path):
            raise InputError("the journal cannot be the set file itself; pick another --journal", path=str(journal))
        try:
            lock = ReviewLock.acquire(lock_path, subject=str(input_path), reviewer=who)
        except OutputError as exc:
            if team is None and journal_path is None and not os.access(lock_path.parent, os.W_OK):
                # The set's folder is read-only (a shared or mounted folder): the review itself can still be kept
                # elsewhere, which "Permission denied" alone did not say.
                raise OutputError(
                    f"{exc.message}; the set's folder cannot be written: --journal PATH, in a folder you can write, "
                    "keeps the review's journal (and its lock) there",
                    path=exc.path,
                ) from None
            raise
        read_as = set_identity(input_path)  # before reading: a file replaced while it is read shows at the export
        options: dict[str, Any] = {
            "lock": lock,
            "reviewer": who,
            "include_reviewed": include_reviewed,
            "durability": durability,
            "clock": clock,
            "idle_cap": idle_cap,
            "one_version": team is not None,
            "replay_progress": replay_progress,
        }
        try:
            if progressive and reads_as_jsonl(input_path, format):
                session = cls._open_reading(input_path, journal, share=share, progress=progress, **options)
            else:
                evalset = _load_set(input_path, format, progress, split)
                if require_questions:
                    # Of the set as the file holds it, before a share is taken: a team member the plan gives no
                    # item of a CSV set was told "no questions in this file", of a file of ten questions (a
                    # JSONL set's share, read progressively, opens empty, and so does this one now).
                    from reviewtui.evalset.io import require_questions as refuse_empty

                    refuse_empty(evalset, input_path)
                if only_ids is not None:
                    wanted = frozenset(only_ids)
                    evalset = evalset.replace(items=tuple(item for item in evalset.items if item.id in wanted))
                elif share is not None:
                    evalset = _share_of(evalset, share)
                session = cls.start(evalset, journal, input_path=input_path, **options)
            session.source_format = format
            session.source_split = split
            session._input_as_read = read_as
            session.partial = team is not None or only_ids is not None
            session.adjudicating = only_ids is not None and team is not None
            if only_ids is not None:
                session.role = f"{who} adjudicating" if team is not None else "part of the set"
            elif team is not None:
                session.role = f"{who}'s share"  # short: the top bar gives the set's name most of its width
            return session
        except BaseException:
            lock.release()
            raise

    @classmethod
    def start(
        cls,
        evalset: EvalSet,
        journal_path: str | os.PathLike[str],
        *,
        input_path: str | os.PathLike[str] | None = None,
        lock: ReviewLock | None = None,
        reviewer: str | None = None,
        include_reviewed: bool = False,
        durability: str = DEFAULT_DURABILITY,
        clock: Callable[[], float] | None = None,
        idle_cap: float = IDLE_CAP_SECONDS,
        one_version: bool = False,
        replay_progress: Callable[[int, int], None] | None = None,
    ) -> ReviewSession:
        """Review a set already in memory against a journal file.

        The journal is locked for as long as the session is open, so a second session
        on it is refused whatever set it reviews. Any lock on the set itself is the
        caller's (``lock`` is released on close). With ``one_version`` (a team member's
        review) a journal begun on another version of the set is refused, untouched.
        """
        journal = Path(journal_path)
        who = reviewer or default_reviewer()
        source = Path(input_path) if input_path is not None else None
        claim = claim_journal(journal)
        try:
            loaded = _resume(
                evalset,
                journal,
                input_path=source,
                include_reviewed=include_reviewed,
                reviewer=who,
                clock=clock,
                idle_cap=idle_cap,
                contents=claim.contents,
                replay_progress=replay_progress,
                in_team=one_version,
            )
            if one_version:
                refuse_other_version(loaded)
            return cls._attach(loaded, claim, lock=lock, reviewer=who, durability=durability)
        except BaseException:
            claim.release()
            raise

    @classmethod
    def _attach(
        cls,
        loaded: LoadedReview,
        claim: JournalClaim,
        *,
        lock: ReviewLock | None,
        reviewer: str,
        durability: str,
        complete: bool = True,
    ) -> ReviewSession:
        """Open the claimed journal for writing (a new one gets its header) and log this session's start."""
        if lock is not None and lock.recovered is not None:
            loaded.report = _with_lock(loaded.report, lock.recovered)
        if loaded.contents.records:
            writer = JournalWriter.reopen(claim, durability=durability)
        else:
            evalset, source = loaded.evalset, loaded.input_path
            header = {
                "set": evalset.id,
                "version": evalset.version,
                "input": file_name_text(source.resolve()) if source is not None else None,
                "items": len(evalset) if complete else None,
                "all": loaded.header["all"],
                "at": time.time(),
                "by": reviewer,
                "tool": _tool_version(),
            }
            writer = JournalWriter.create(loaded.journal_path, header, durability=durability)
        try:
            opened = {"op": "open", "at": time.time(), "by": reviewer, "pid": os.getpid(), "host": socket.gethostname()}
            try:
                writer.append(opened)
            except JournalWriteError:
                # No step has been taken yet: "the last step was not saved" told a reviewer nothing they could
                # act on. What a failed append left is cut off by the next opening, so every decision is kept.
                why = f" ({writer.failure})" if writer.failure else ""
                raise JournalWriteError(
                    f"the review cannot open: the journal cannot take the record of this session's start{why}; "
                    "every decision in it is kept: free some space on its disk and open the review again",
                    path=str(writer.path),
                ) from None
        except BaseException:
            writer.close()
            raise
        return cls(loaded, writer, lock)

    @classmethod
    def _open_reading(
        cls,
        input_path: Path,
        journal: Path,
        *,
        lock: ReviewLock,
        reviewer: str,
        include_reviewed: bool,
        durability: str,
        clock: Callable[[], float] | None,
        idle_cap: float,
        one_version: bool = False,
        share: Callable[[EvalItem], bool] | None = None,
        progress: Callable[[int, int], None] | None = None,
        replay_progress: Callable[[int, int], None] | None = None,
    ) -> ReviewSession:
        """Open a native JSONL set on its first items; the rest is left to :attr:`loading`.

        ``share`` keeps a team member to their items, in the opening and in every later batch.
        ``progress`` follows the reading done before opening (all of it, when a journal names
        items all through the file), ``replay_progress`` the replay of the journal.
        """
        from reviewtui.evalset.io.jsonl import JsonlReader
        from reviewtui.evalset.review.loading import (
            SetLoader,
            opening_plan,
            read_opening,
            read_to_end,
        )

        reader = JsonlReader(input_path)
        claim: JournalClaim | None = None
        try:
            claim = claim_journal(journal)
            contents = claim.contents
            plan = opening_plan(contents, _includes_reviewed(contents, include_reviewed), share)
            journal_ids = plan.decided if plan is not None else frozenset(journal_item_ids(contents))
            # The first item was read with the header; it is checked against the journal the long way.
            prints = reader.line_prints = LinePrints(journal_ids)
            if plan is None:
                evalset = read_to_end(reader, progress)
            else:
                read_opening(reader, plan, progress=progress)
                evalset = reader.snapshot()
                if reader.done:  # read whole while opening: said as read_to_end says it
                    reader.say_notes()
            if share is not None:
                evalset = _share_of(evalset, share)
            loaded = _resume(
                evalset,
                journal,
                input_path=input_path,
                include_reviewed=include_reviewed,
                reviewer=reviewer,
                clock=clock,
                idle_cap=idle_cap,
                contents=contents,
                line_prints=prints,
                journal_ids=journal_ids,
                replay_progress=replay_progress,
                in_team=one_version,
            )
            reader.line_prints = None  # every item the journal names has been read
            if one_version:
                refuse_other_version(loaded)
            if not reader.done:
                loaded.report = replace(loaded.report, complete=False)
            session = cls._attach(
                loaded, claim, lock=lock, reviewer=reviewer, durability=durability, complete=reader.done
            )
        except BaseException:
            if claim is not None:
                claim.release()
            reader.close()
            raise
        if reader.done:
            reader.close()
        else:
            assert plan is not None
            session._loader = SetLoader(reader, plan.in_review)
            session._share = share
        return session

    def close(self) -> None:
        """Note where the cursor is, flush and close the journal and give up the lock. Safe to call twice."""
        if self._loader is not None:
            self._loader.close()
        try:
            self._note_the_cursor()
        finally:  # whatever happened there, the journal is closed and the lock given back
            if not self._writer.closed:
                self.journal_moved = self._writer.name_moved()
                if self.journal_moved is not None:
                    self.journal_kept = self._writer.keep_copy()
            self._writer.close()
            if self._lock is not None:
                self._lock.release()

    def _note_the_cursor(self) -> None:
        """End the journal with a move to the item under the cursor, unless the last step was that move.

        The next opening reads it from the journal's last line (``where_it_ended``) and shows
        that question while it reads the set and replays the journal, which at 100k decisions
        takes seconds. Replayed on the same set, the move puts the cursor where the steps before
        it left it: it changes nothing. On a set that changed since, the reviewer still comes back
        to where they were; without the move, a last decision that no longer applies (its item
        changed) would have left the cursor on that item instead (the resume report lists such
        items either way). Not written past the last item, nor when the journal cannot take it
        (nothing is lost then: a move decides nothing).
        """
        if self._writer.closed:
            return
        current = self.queue.current
        last = self._last_record
        if current is None or (last is not None and last["op"] == "move" and last["id"] == current.id):
            return
        record = {"op": "move", "id": current.id}
        with contextlib.suppress(EvalSetError):
            self._writer.append(record, sync=False)
            self._last_record = record

    @property
    def closed(self) -> bool:
        return self._writer.closed

    def __enter__(self) -> ReviewSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- a set still being read ----------------------------------------------------------

    @property
    def loading(self) -> SetLoader | None:
        """The reader of the rest of the set while it is still coming in; None once whole."""
        return self._loader

    def add_loaded(self, items: Sequence[EvalItem]) -> None:
        """Append a batch the loader read (call on the thread that drives the session)."""
        self.queue.extend(items)

    def finish_loading(self, evalset: EvalSet) -> None:
        """The whole set has been read: it replaces the part read at opening (a team member's share of it)."""
        if self._share is not None:
            evalset = _share_of(evalset, self._share)
            self._share = None
        self._loader = None
        self._loaded.evalset = evalset
        report = self._loaded.report
        left_out = 0 if self._loaded.header.get("all") else len(evalset.items) - len(self.queue)
        self._loaded.report = replace(report, complete=True, total=len(self.queue), marked_reviewed=left_out)

    def _require_loaded(self, doing: str) -> None:
        if self._loader is not None:
            raise ReviewError(
                f"the set is still being read ({self._loader.fraction:.0%}); {doing} once it has loaded"
            )

    # --- what the app reads -------------------------------------------------------------

    @property
    def queue(self) -> ReviewQueue:
        return self._loaded.queue

    @property
    def evalset(self) -> EvalSet:
        return self._loaded.evalset

    @property
    def resume_report(self) -> ResumeReport:
        return self._loaded.report

    @property
    def input_path(self) -> Path | None:
        return self._loaded.input_path

    @functools.cached_property
    def version(self) -> int:
        """The version under review, as its export counts it: a CSV file keeps none, so ``quiz.v2.csv`` is
        version 2 by its name though it reads back as 1 (see :func:`version_read`). Worked out once: the top
        bar asks on every key, and neither the file's name nor its header changes while the review is open
        (the set read whole at the end of a progressive opening has the same header)."""
        return version_read(self.evalset, self.input_path)

    @property
    def journal_path(self) -> Path:
        return self._loaded.journal_path

    @property
    def reviewer(self) -> str:
        return self.queue.reviewer

    @property
    def current(self) -> EvalItem | None:
        return self.queue.current

    # --- steps: plan on the queue, write to the journal, then apply ----------------------

    def apply(self, action: Action | None) -> Any:
        """Write a step the queue planned to the journal, then apply it; returns what the queue's apply returns.

        ``None`` (an undo or redo with nothing to take back) does nothing. Nothing is
        applied unless the record was written, so the queue is never ahead of the journal.
        """
        if action is None:
            return None
        prepared = action.prepared if isinstance(action, Reorder) and action.indices is not None else None
        if isinstance(action, Reorder) and action.indices is not None:
            self._require_loaded("change the order")
        if prepared is not None and prepared.key in self._orders:
            # An order the journal holds whole already (f pressed again, in this session or an earlier one): named by
            # its record, one short line, where the whole order again was megabytes at a million items.
            record: dict[str, Any] = {"op": "reorder", "of": self._orders[prepared.key]}
        elif prepared is not None and prepared.base is not None and prepared.base.key in self._orders:
            # One the journal holds whole with a few items moved (the warnings an edit fixed): the difference alone.
            record = {
                "op": "reorder",
                "of": self._orders[prepared.base.key],
                "out": self.queue.ids_of(sorted(prepared.out)),
                "in": [[place, item_id] for (place, _), item_id in zip(prepared.ins, self.queue.ids_of(i for _, i in prepared.ins))],
            }
        else:
            record = record_for(self.queue, action, self._prints)
        # Named only while the records kept match the queue's stacks, which they always should: a wrong
        # name would make the journal unreadable, a missing one leaves the pairing to the item's id.
        in_step = self.queue.depths == (len(self._undo_records), len(self._redo_records))
        if in_step and isinstance(action, Undo) and self._undo_records:
            record["of"] = self._undo_records[-1]
        elif in_step and isinstance(action, Redo) and self._redo_records:
            record["of"] = self._redo_records[-1]
        try:
            sequence = self._writer.append(record, sync=False if record["op"] in _UNSYNCED_OPS else None)
        except JournalWriteError as exc:
            # Counted for the end of the review: a reviewer who missed the notice (keys typed ahead, a
            # glance away) must still hear, once the app has closed, that steps they took were not made.
            self.unsaved_steps += 1
            self.last_unsaved = self._writer.failure or exc.message
            raise
        self._last_record = record
        if prepared is not None and record["op"] == "order":
            self._orders.setdefault(prepared.key, sequence)
        if record["op"] == "decide":
            self._last_decided_at = record["at"]
        result = self.queue.apply(action)
        if isinstance(action, (Decide, Annotate, Dismiss)):
            self._undo_records.append(sequence)
            self._redo_records.clear()
        elif isinstance(action, Undo) and self._undo_records:
            self._redo_records.append(self._undo_records.pop())
        elif isinstance(action, Redo) and self._redo_records:
            self._undo_records.append(self._redo_records.pop())
        return result

    def edit(self, edit: ItemEdit | None = None, /, **fields: Any) -> EvalItem:
        """Edit the current item: an :class:`ItemEdit`, or its fields as keywords."""
        return self.apply(self.queue.plan_edit(edit if edit is not None else ItemEdit(**fields))).after

    def mark(self, qtype: str, note: str = "") -> EvalItem:
        return self.edit(ItemEdit(qtype=qtype, note=note))

    def set_order(self, indices: Sequence[int | str] | ReviewOrder | None) -> None:
        """Review in another order (see ReviewQueue.set_order); a :class:`ReviewOrder` made once (off the screen's
        thread) costs a word-at-a-time layout, and its journal record names it by an earlier one when it can."""
        if indices is not None:
            self._require_loaded("change the order")
        self.apply(self.queue.plan_order(indices))

    # The queue's other one-keystroke steps, each journalled: ``session.accept()`` is
    # ``session.apply(session.queue.plan_accept())``, and so on.
    accept = _journalled(ReviewQueue.plan_accept)
    reject = _journalled(ReviewQueue.plan_reject)
    skip = _journalled(ReviewQueue.plan_skip)
    note = _journalled(ReviewQueue.plan_note)
    dismiss = _journalled(ReviewQueue.plan_dismiss)
    adopt = _journalled(ReviewQueue.plan_adopt)

    def redo(self) -> Any:
        """Make again the step the last undo took back, if it is this reviewer's (as :meth:`undo` takes back only
        one's own): another reviewer's step brought back in a shared journal was theirs again, and the one who
        pressed the key could not take it back."""
        self._refuse_anothers(self.queue.next_redo, "the step to redo", "redo brings back")
        return self.apply(self.queue.plan_redo())

    def undo(self) -> Any:
        """Take back the last step, if it is this reviewer's.

        Adjudicators share one journal, and a set reviewed without a team keeps one journal whoever
        opens it: an undo took back the step another person had made before, without a word. Such a
        step is refused, with what to do instead; a step whose author is not recorded (a journal written
        before steps were signed) is taken back as before.
        """
        self._refuse_anothers(self.queue.last_change, "the last step", "undo takes back")
        return self.apply(self.queue.plan_undo())

    def _refuse_anothers(self, change: Change | None, which: str, does: str) -> None:
        """ReviewError when ``change`` was signed by another reviewer than this session's (see :meth:`undo`)."""
        author = change_author(change) if change is not None else ""
        if change is not None and author and self.reviewer and author != self.reviewer:
            raise ReviewError(
                f"{which}, on {in_quotes(change.item_id)}, was made by {in_quotes(author)}: {does} only "
                f"your own steps (decide that item again to change it)"
            )

    next = _journalled(ReviewQueue.plan_next)
    previous = _journalled(ReviewQueue.plan_previous)
    goto = _journalled(ReviewQueue.plan_goto)
    next_undecided = _journalled(ReviewQueue.plan_next_undecided)

    # --- results --------------------------------------------------------------------------

    def export(
        self, out: str | os.PathLike[str] | None = None, format: str = "jsonl", rejected: bool = False
    ) -> Path:
        """Write the reviewed set as its next version (or, with ``rejected``, the rejected items)."""
        return self.export_later(out, format, rejected, snapshot=False)()[0]

    def export_later(
        self, out: str | os.PathLike[str] | None = None, format: str = "jsonl", rejected: bool = False, *, snapshot: bool = True
    ) -> Callable[[], tuple[Path, ReviewQueue]]:
        """:meth:`export`'s checks, made now, and a call that writes the export (returning where, and the queue it
        read): the review as it stands now (``snapshot``: a copy of the queue, see ReviewQueue.snapshot; the journal
        by its size now), so the call may run on another thread while the review goes on."""
        self._require_loaded("export")
        if self.adjudicating:
            raise ReviewError(
                "an adjudication holds only the items the team's reviewers did not settle; the team's result with "
                "its decisions is written by: reviewtui export FILE --consensus adjudicated"
            )
        if self.partial:
            raise ReviewError(
                "this review holds only your share of a team's set, and its export would leave the rest out; "
                "the team's result is written by: reviewtui export FILE --consensus majority (or unanimous, adjudicated)"
            )
        from reviewtui.evalset.review.export import export_rejected, export_reviewed

        source = self.input_path
        if source is None and out is None:
            raise ReviewError("this session has no input file to name the export after; name the output file")
        now = set_identity(source) if source is not None else None
        if source is not None and now != self._input_as_read:
            # The export records the file's hash as the set it came from; the set here is the one read before
            # the change, so either the record or the items would be wrong.
            what = "has changed on disk" if now is not None else "is no longer a file there"
            raise ReviewError(
                f"{source} {what} since this review read it, and its export would not match the set it names; "
                "open the review again to export the file as it is now (the decisions so far are in the journal)"
            )
        # The journal may live elsewhere (--journal): name it, so that no export lands on it.
        # The hash is of the journal as this session has written it, and of the set file as it still is when hashed;
        # the rejected questions' header records the same lineage as the next version's.
        write = export_rejected if rejected else export_reviewed
        queue = self.queue.snapshot() if snapshot else self.queue
        evalset, journal_path, journal_bytes = self.evalset, self.journal_path, self._writer.size
        read_as, split, kept_back = self._input_as_read, self.source_split, not_restored(self._loaded.report)

        def written() -> tuple[Path, ReviewQueue]:
            path = write(
                evalset,
                queue,
                source or Path(str(out)),
                out,
                format,
                journal_path=journal_path,
                journal_bytes=journal_bytes,
                read_as=read_as,
                split=split,
                not_restored=kept_back,
            )
            return path, queue

        return written

    def note_warnings(self, *flag_maps: Mapping[str, Iterable[Flag]]) -> None:
        """Tell the session which checks flag which items (item id -> flags), from every source of flags.

        From then on an accept or edit records the high-severity checks still open on its
        item (``Decision.warnings``), and the export shows who accepted past them. Call it
        again whenever the flags change; it costs one pass over the flagged items.
        """
        merged: dict[str, list[Flag]] = {}
        for flags in flag_maps:
            for item_id, found in flags.items():
                merged.setdefault(item_id, []).extend(found)
        self.warnings_from(lambda item: merged.get(item.id, ()))

    def warnings_from(
        self,
        lookup: Callable[[EvalItem], Iterable[Flag]],
        pairs: Callable[[EvalItem], Mapping[str, tuple[str, ...]]] | None = None,
        edit_ends: Callable[[Flag, EvalItem, EvalItem], bool] | None = None,
        unknown: Callable[[EvalItem], bool] | None = None,
    ) -> None:
        """Like :meth:`note_warnings`, with the flags looked up when a decision is made.

        ``unknown(item)``: whether no warning of the item is known yet (the checks still running); a decision made
        then is marked as such (``Decision.unchecked``), and the status and the export count those.

        ``lookup`` gets the item as it will stand once decided (an edit's new version). The
        review app passes the warnings as it would show them for that item, so an edit that
        fixed a problem is not recorded as accepted past it. ``pairs``: for an item, each warning about it and
        other items that rejecting those items settles -> their ids (``Decision.pairs``); without it, no warning
        a decision records is ever settled. ``edit_ends(flag, shown, edited)``: whether an edit may have ended a
        warning about this item and others (the lookup has the scan's until the set is checked again); without
        it, an edit of the question, answer or quotes is taken to have ended every such warning.
        """

        def serious(item: EvalItem) -> tuple[str, ...]:
            return tuple(dict.fromkeys(f.check for f in lookup(item) if f.severity >= Severity.HIGH))

        def warned(item: EvalItem) -> tuple[str, ...]:
            return tuple(dict.fromkeys(f.check for f in lookup(item) if f.severity >= Severity.LOW))

        def ended(flag: Flag, shown: EvalItem, edited: EvalItem) -> bool:
            if edit_ends is not None:
                return edit_ends(flag, shown, edited)
            return (shown.question, shown.answer, shown.anchors) != (edited.question, edited.answer, edited.anchors)

        def left_by_edit(shown: EvalItem, edited: EvalItem) -> tuple[str, ...]:
            # A warning about this item and others (a duplicate, a conflicting answer) is the scan's of the text before
            # the edit until the set is checked again: an edit of what it compares may have ended it, and counting it
            # as kept past made every reworded duplicate a wrong warning; an edit of anything else leaves it.
            return tuple(
                dict.fromkeys(
                    f.check
                    for f in lookup(edited)
                    if f.severity >= Severity.LOW and not (f.related_ids and ended(f, shown, edited))
                )
            )

        self.queue.open_warnings = serious
        self.queue.flagged_by = warned
        self.queue.left_by_edit = left_by_edit
        self.queue.pairs_of = pairs
        self.queue.warnings_unknown = unknown

    def status_lines(self) -> list[str]:
        """Where this review stands now: what ``reviewtui status`` would print, this session's steps included."""
        outcome = self._loaded.outcome
        last = outcome.last_decision_at
        if self._last_decided_at is not None and (last is None or self._last_decided_at > last):
            last = self._last_decided_at
        # The journal as read at opening, and this session since: its start ("open") and its records.
        return status_lines(self._loaded, journal=(self._writer.records, outcome.sessions + 1, last))


def _own_decisions(journal: Path, reviewer: str) -> frozenset[str]:
    """The ids a team member's journal decided on or annotated; InputError when another reviewer signed its decisions.

    ``status``, ``agreement`` and the merged export leave such decisions out, as not the file owner's. Opened as
    the owner's review, they counted as the owner's own, and the items they covered in the owner's share looked
    done: the owner never came to them, and the team's result waited for the owner for ever.
    """
    if not journal.exists():
        return frozenset()
    contents = read_journal(journal)
    others = signed_by_others(contents.records, reviewer)
    if others:
        who = ", ".join(f"{count(n, 'decision')} by {in_quotes(signer)}" for signer, n in others.items())
        raise InputError(
            f"{reviewer}'s journal holds {who}: another reviewer's journal copied over {reviewer}'s (or one file for "
            f"two names on a disk that ignores case); the team's status and export do not count them as "
            f"{reviewer}'s, and {reviewer}'s review will not add to them: move this file aside, or put "
            f"{reviewer}'s own journal back",
            path=str(journal),
        )
    return frozenset(journal_item_ids(contents))


def _lock_path(input_path: Path, journal: Path) -> Path:
    """The lock beside the input (symlinks followed, so two names of one file share it);
    beside the journal when the input's folder is read-only."""
    real = Path(os.path.realpath(input_path))
    beside_input = default_lock_path(real)
    if os.access(real.parent, os.W_OK):
        return beside_input
    return journal.with_name(real.name + beside_input.suffix)


def _with_lock(report: ResumeReport, holder: LockHolder) -> ResumeReport:
    return replace(report, recovered_lock=holder)


def _tool_version() -> str:
    from reviewtui import __version__

    return f"reviewtui {__version__}"


def _when(timestamp: float | None) -> str:
    if timestamp is None:
        return "never"
    try:
        return f"{_dt.datetime.fromtimestamp(timestamp).astimezone():%Y-%m-%d %H:%M}"
    except (OverflowError, OSError, ValueError):  # replay keeps times in range; this is the last guard
        return "at an unreadable time"


def tally_lines(tally: dict[str, dict[str, int]]) -> list[str]:
    """What reviewers said of each check's warnings, a line per check (none when nothing was said)."""
    if not tally:
        return []
    lines = ["warnings, as the reviewers judged them (confirmed by a reject or an edit that fixed it / dismissed / accepted past):"]
    for check, counts in tally.items():
        lines.append(f"  {check}: {counts['confirmed']} confirmed, {counts['dismissed']} dismissed, {counts['accepted']} accepted past")
    return lines


def status_lines(
    loaded: LoadedReview, journal: tuple[int, int, float | None] | None = None, *, part_of: int | None = None
) -> list[str]:
    """Where a review stands, as the lines ``reviewtui status`` prints.

    ``journal``: (records, sessions, last decision's time) of the journal now, for a review still open; None:
    the journal as read. ``part_of``: the whole set's size, when ``loaded`` holds a team member's part of it.
    """
    queue, evalset = loaded.queue, loaded.evalset
    outcome = loaded.outcome
    records, sessions, last_decision_at = (
        journal if journal is not None else (len(loaded.contents.records), outcome.sessions, outcome.last_decision_at)
    )
    stats = queue.stats()
    name = loaded.input_path.name if loaded.input_path else evalset.id
    size = f"{len(evalset):,} {plural(len(evalset), 'question', 'questions')}"
    if part_of is not None and part_of != len(evalset):  # "set 't', 21 questions" said of a set of 40
        size = f"{len(evalset):,} of its {part_of:,} questions in this part"
    version = version_read(evalset, loaded.input_path)  # a CSV's version is in its name, as the export counts it
    lines = [f"{name}: set {evalset.id!r} v{version}, {size}, {stats.total:,} in review"]
    if not records:
        if loaded.contents.exists:  # empty, or only a torn first record: not one the app will write to
            # What the app would refuse to write to (see io.journal): said here too, not as "no journal".
            what = (
                "only the start of one record, cut short (reviewtui writes a journal's first record whole, so it "
                "was cut by something else); there is nothing in it to keep"
                if loaded.contents.torn is not None
                else "no complete journal record (an empty file, or something else)"
            )
            lines.append(
                f"not started: {loaded.journal_path} holds {what}, so the review app will not write to it: "
                "remove it or choose another --journal"
            )
        else:
            lines.append(f"not started: no journal at {loaded.journal_path}")
            if loaded.input_path is not None:
                from reviewtui.evalset.io.names import TEAM_SUFFIX
                from reviewtui.evalset.io.teamfiles import other_team_folders

                for folder in other_team_folders(loaded.input_path, evalset.id):
                    # A set renamed since its team began: the folder keeps the old name, and nothing pointed to it.
                    lines.append(
                        f"a team's folder beside it, {folder.name}, holds reviews of set {evalset.id!r}: if this file "
                        f"was renamed, rename the folder after it ({loaded.input_path.name}{TEAM_SUFFIX}) to go on with them"
                    )
        lines.extend(loaded.report.lines()[1:])
        return lines
    percent = 100.0 * stats.fraction
    lines.append(f"decided {stats.decided:,} of {stats.total:,} ({percent:.0f}%), {stats.left:,} left")
    lines.append(" · ".join(f"{verdict} {count:,}" for verdict, count in stats.counts.items()))
    reasons = queue.reason_counts()
    if reasons:
        lines.append("rejected for: " + ", ".join(f"{code or 'no reason given'} {n:,}" for code, n in reasons.items()))
    pace = f"time on screen {format_duration(stats.seconds)}"
    if stats.per_hour is not None:
        pace += f", {stats.per_hour:,.0f} per hour"
    if stats.eta_seconds is not None and stats.left:
        pace += f", about {format_duration(stats.eta_seconds)} to go"
    lines.append(pace)
    unchecked = sum(1 for decision in queue.decisions.values() if decision.unchecked)
    if unchecked:
        # What the per-check counts below leave out: nothing was known of these items' warnings when they were decided.
        lines.append(
            f"{count(unchecked, 'decision')} made before the quality checks had finished: no warning was recorded "
            f"with {'it' if unchecked == 1 else 'them'}"
        )
    reviewers: dict[str, int] = {}
    for decision in queue.decisions.values():
        reviewers[decision.reviewer] = reviewers.get(decision.reviewer, 0) + 1
    if reviewers:
        lines.append("decided by: " + ", ".join(f"{who or '?'} ({n:,})" for who, n in reviewers.items()))
    lines.extend(tally_lines(queue.warning_tally()))
    # The journal's last decision, even one taken back since: said so when none stands ("decided 0 of 12" beside
    # a time read as a contradiction).
    gone = ""
    if last_decision_at is not None:
        standing = max((d.decided_at for d in queue.decisions.values() if d.decided_at), default=None)
        if standing is None:
            gone = " (none stands now)"
        elif standing < last_decision_at:
            gone = f" (taken back since; the last that stands: {_when(standing)})"
    lines.append(f"last decision: {_when(last_decision_at)}{gone}; {sessions:,} {plural(sessions, 'session', 'sessions')}")
    lines.append(f"journal: {loaded.journal_path} ({records:,} {plural(records, 'record', 'records')})")
    for extra in loaded.report.lines()[1:]:
        lines.append(extra)
    if loaded.input_path is not None:
        holder = ReviewLock.holder(_lock_path(loaded.input_path, loaded.journal_path))
        if holder is not None:
            lines.append(f"open for review now: {holder.describe()}")
    return lines


def change_author(change: Change) -> str:
    """Who made an undoable step, as the journal signed it; "" when it does not say (a journal from before
    steps were signed)."""
    if change.dismissed_after is not None or change.dismissed_before is not None:
        return change.dismissed_by
    after = change.after
    if change.advances:  # a decision
        return after.reviewer if after is not None else ""
    if after is not None and after is not change.before:  # a note on a decided item
        return after.note_by or after.reviewer
    return change.draft_by_after

"""The review journal file: append-only, one checked JSON line per step.

Each line is ``{"c":"<crc32 of the payload, 8 hex digits>","r":<payload>}``. The
payload is an object with a sequence number ``n`` (0 for the first line,
then one more per line) and an ``op``. The checksum sits at a fixed place in
front of the payload, so checking a line needs no re-encoding: the payload is
exactly the bytes between the fixed prefix and the closing brace.

Why it survives ``kill -9``: a record is one ``os.write`` on a file opened with
``O_APPEND``, made before the review method returns. Once the call is back the
bytes are in the kernel, whatever happens to the process. Surviving a power cut
or a kernel crash also needs ``fdatasync``, which costs from a fraction of a
millisecond to several on a busy disk; review sessions do it
before each decision returns (see :data:`DURABILITY_MODES`).

What a crash can leave: at most one record cut short at the very end (a write
that never reached its newline, or zeros after a power cut). Reading drops it
and says so. A whole line (it ends in a newline) that fails its check cannot
come from a crash: it is damage, refused with its line number, and never cut off.

A journal is never written through a symbolic link or into anything but a
regular file. A new one appears whole: its first record is written to a
hidden file beside it, which is then linked into place, so a journal never
exists empty or half-written and an existing file with no whole record is not
taken for one. A session holds an ``flock`` on its journal from before reading
it to the end, so two sessions (on two copies of a set, say) never append to
one journal.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import secrets
import stat
import threading
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from reviewtui.evalset.io.files import fsync_dir, named
from reviewtui.evalset.io.lock import LockHolder, open_own_file, plausible_timestamp
from reviewtui.evalset.jobs.collector import gc_paused
from reviewtui.evalset.model.errors import (
    EvalSetError,
    InputError,
    JournalError,
    JournalWriteError,
    SetLocked,
)

__all__ = [
    "BATCH_SECONDS",
    "DURABILITY_MODES",
    "JOURNAL_FORMAT",
    "JOURNAL_SUFFIX",
    "JournalClaim",
    "JournalContents",
    "JournalWriteError",
    "JournalWriter",
    "TornTail",
    "claim_journal",
    "decode_line",
    "default_journal_path",
    "encode_record",
    "is_journal_file",
    "read_journal",
    "where_it_ended",
    "shown_value",
]
JOURNAL_SUFFIX = ".reviewtui-journal"
JOURNAL_FORMAT = 1

_HEAD = b'{"c":"'
_MID = b'","r":'
_PREFIX_LEN = len(_HEAD) + 8 + len(_MID)
_TAIL = b"}"


DEFAULT_SPLIT = "test"  # the qrels file a BEIR folder is read with when none is named


def default_journal_path(input_path: str | os.PathLike[str], split: str | None = None) -> Path:
    """Where a set's journal lives unless told otherwise: beside it, ``<file name>.reviewtui-journal``.

    A BEIR folder read with another qrels split than its default is another set of questions,
    so its review gets a journal of its own, ``<folder>.<split>.reviewtui-journal``.
    """
    path = named(input_path)
    return path.with_name(path.name + split_tag(split) + JOURNAL_SUFFIX)


def split_name(split: str | None) -> str | None:
    """The split a record names (``from_split``): "dev" for "dev" and "dev.tsv", None for the default split, named
    or not, as :func:`split_tag` names the files (the record said "test" for `--split test` and nothing without it,
    "train.tsv" for a file named scifact.train.v2.jsonl)."""
    tag = split_tag(split)
    return tag[1:] if tag else None


def split_record(split: str | None) -> dict[str, str]:
    """What a record of where a set came from says of its split: ``{"from_split": name}``, or nothing for the default."""
    name = split_name(split)
    return {"from_split": name} if name else {}


def split_tag(split: str | None) -> str:
    """What a BEIR split adds to the names of its review's files: "" for the default split, else ".NAME".

    InputError for a split that cannot be part of a file name (a qrels file's name has no slash): the
    journal's name was built from "--split ../queries" before the folder was asked, and failed with a traceback.
    """
    split = split.removesuffix(".tsv") if split else split  # "dev" and "dev.tsv" name one qrels file
    if not split or split == DEFAULT_SPLIT:
        return ""
    if "/" in split or "\\" in split or "\0" in split or split in (".", ".."):
        raise InputError(
            f"--split {shown_value(split)} is not the name of a qrels file: a split names qrels/NAME.tsv, a file name and not a path"
        )
    return f".{split}"


def encode_record(payload: Mapping[str, Any]) -> bytes:
    """One journal line (with its newline) for a payload."""
    body = orjson.dumps(payload)
    return b"%s%08x%s%s%s\n" % (_HEAD, zlib.crc32(body), _MID, body, _TAIL)


def decode_line(line: bytes) -> dict[str, Any] | None:
    """The payload of one line (without its newline), or None when the line is damaged."""
    if len(line) < _PREFIX_LEN + 3 or not line.startswith(_HEAD) or not line.endswith(_TAIL):
        return None
    if line[len(_HEAD) + 8 : _PREFIX_LEN] != _MID:
        return None
    body = line[_PREFIX_LEN:-1]
    try:
        expected = int(line[len(_HEAD) : len(_HEAD) + 8], 16)
    except ValueError:
        return None
    if zlib.crc32(body) != expected:
        return None
    try:
        payload = orjson.loads(body)
    except orjson.JSONDecodeError:
        return None
    return payload if isinstance(payload, dict) else None


def is_journal_file(path: str | os.PathLike[str]) -> bool:
    """Whether the regular file at ``path`` begins as a review journal does, whatever its name.

    A journal kept under a name of the reviewer's choosing (``--journal notes.log``) looks like
    any file to a rule about names; its first bytes say what it is: a record's frame,
    ``{"c":"<8 hex digits>","r":``. Only that much is read. False for anything that cannot be read.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # never waits on a FIFO
    except OSError:
        return False
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        head = os.read(fd, _PREFIX_LEN)
    except OSError:
        return False
    finally:
        os.close(fd)
    digits = head[len(_HEAD) : _MID_AT.start]
    return head.startswith(_HEAD) and head[_MID_AT] == _MID and all(c in b"0123456789abcdef" for c in digits)


#: How much of a journal's end :func:`where_it_ended` reads: many times the longest move record.
_TAIL_BYTES = 1 << 16


def where_it_ended(path: str | os.PathLike[str]) -> str | None:
    """The id of the item the cursor was on when the journal's last session closed, or None.

    A session closes by recording the cursor's item in a move (see ``ReviewSession.close``),
    so that the next opening can show that question while it reads the set and replays the
    journal. Only the file's last whole records are read: the id comes from a last "move"
    record, after which nothing but session starts ("open") may follow. Anything else (a
    session that ended without closing, a damaged or cut-short end, no such file) gives None,
    and the opening simply waits for the replay, as it always may. The replay decides where
    the cursor really is; this is only a guess at it, read before the replay.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW)
    except OSError:
        return None
    try:
        size = os.fstat(fd).st_size
        start = max(size - _TAIL_BYTES, 0)
        tail = os.pread(fd, size - start, start)
    except OSError:
        return None
    finally:
        os.close(fd)
    if not tail.endswith(b"\n"):
        return None  # empty, or a last record cut short: the replay will say what it is
    lines = tail[:-1].split(b"\n")
    if start > 0:
        lines = lines[1:]  # the first piece may be the end of a longer line
    for line in reversed(lines):
        payload = decode_line(line)
        if payload is None:
            return None
        op = payload.get("op")
        if op == "open":
            continue
        target = payload.get("id")
        return target if op == "move" and type(target) is str else None
    return None


def shown_value(value: object, limit: int = 40) -> str:
    """A value from a file for an error message: its repr (which escapes control and
    invisible characters), cut short when long."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


@dataclass(frozen=True, slots=True)
class TornTail:
    """The damaged end of a journal: where the good part ends and what was cut off."""

    line: int
    good_size: int
    dropped_bytes: int

    def describe(self, path: Path) -> str:
        return (
            f"{path}:{self.line}: the last record was cut short (the review was interrupted while "
            f"writing it); dropped {self.dropped_bytes} byte(s), everything before it is kept"
        )


@dataclass(slots=True)
class JournalContents:
    """A journal as read: its good records in order, and any torn tail."""

    path: Path
    records: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    good_size: int = 0
    torn: TornTail | None = None
    exists: bool = True
    size: int = 0  # bytes read, torn tail included
    #: the last record is whole (its checksum holds) but its line break is missing: an editor or a tool that
    #: drops a file's last line break; kept, and the break written back when the journal is continued
    unended: bool = False

    @property
    def header(self) -> dict[str, Any] | None:
        return self.records[0][1] if self.records else None

    @property
    def next_sequence(self) -> int:
        return len(self.records)


_JOURNAL = "the review journal"


def read_journal(path: str | os.PathLike[str]) -> JournalContents:
    """Read and check a journal without locking it; a missing file reads as empty.

    Raises EvalSetError naming ``path:line`` for damage anywhere but a last record
    that was cut short, and naming ``path`` for a link or anything but a regular file.
    """
    where = Path(path)
    try:
        fd = open_own_file(where, os.O_RDONLY, what=_JOURNAL)
    except FileNotFoundError:
        return JournalContents(where, exists=False)
    except OSError as exc:
        raise JournalError(f"cannot read the review journal: {exc.strerror or exc}", path=str(where)) from None
    try:
        data = _read_whole(fd, where)
    finally:
        os.close(fd)
    with gc_paused():
        return _parse(where, data)


class JournalClaim:
    """A journal held for one writing session.

    It was locked before it was read, so nobody appends to it between the reading
    and the writer that continues it (:meth:`JournalWriter.reopen`). A claim on a
    journal that does not exist yet holds nothing; :meth:`JournalWriter.create`
    then refuses if another session made one meanwhile.
    """

    def __init__(self, contents: JournalContents, fd: int) -> None:
        self.contents = contents
        self._fd = fd

    @property
    def path(self) -> Path:
        return self.contents.path

    def take(self) -> int:
        """The locked file descriptor, handed over to a writer (-1 when there is no file)."""
        fd, self._fd = self._fd, -1
        return fd

    def release(self) -> None:
        """Let go of the journal without writing to it. Safe to call twice."""
        fd = self.take()
        if fd >= 0:
            os.close(fd)


def claim_journal(path: str | os.PathLike[str]) -> JournalClaim:
    """Lock a journal for writing, then read it (see :class:`JournalClaim`).

    Raises EvalSetError when another session is writing it (naming that session as
    its last "open" record does), when it is damaged, and when it exists but holds
    no whole record (an empty file, or one that is not a journal).
    """
    where = Path(path)
    try:
        fd = open_own_file(where, os.O_RDWR | os.O_APPEND, what=_JOURNAL)
    except FileNotFoundError:
        return JournalClaim(JournalContents(where, exists=False), -1)
    except OSError as exc:
        raise JournalError(f"cannot open the review journal: {exc.strerror or exc}", path=str(where)) from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise JournalError(
                    f"cannot lock the review journal: {exc.strerror or exc}", path=str(where)
                ) from None
            raise _in_use(where, fd) from None
        data = _read_whole(fd, where)
        with gc_paused():
            contents = _parse(where, data)
        if not contents.records:
            # A journal is created with its first record whole (see JournalWriter.create), so
            # this file was not made by reviewtui; writing to it would change someone else's file.
            what = (
                "holds only the start of one record, cut short (reviewtui writes a journal's first record whole, so "
                "it was cut by something else); there is nothing in it to keep"
                if contents.torn is not None
                else "holds no complete journal record, so it is not a reviewtui journal (an empty file, or something else)"
            )
            raise JournalError(f"{what}; refusing to write to it: remove it or choose another --journal", path=str(where))
    except BaseException:
        os.close(fd)
        raise
    return JournalClaim(contents, fd)


def _in_use(where: Path, fd: int | None = None) -> SetLocked:
    """The refusal for a journal another session is writing, naming it as well as the journal can."""
    holder = None
    with contextlib.suppress(OSError, EvalSetError):
        if fd is not None:
            holder = _last_opener(_read_whole(fd, where))
        else:
            own = open_own_file(where, os.O_RDONLY, what=_JOURNAL)
            try:
                holder = _last_opener(_read_whole(own, where))
            finally:
                os.close(own)
    who = holder.describe() if holder else "another process"
    return SetLocked(
        f"already in use by another review session ({who}); finish or quit that session first, "
        "or give this review its own --journal",
        path=str(where),
    )


def _last_opener(data: bytes) -> LockHolder | None:
    """Who opened the journal last, from its latest readable "open" record."""
    for line in reversed(data.split(b"\n")):
        payload = decode_line(line)
        if payload is not None and payload.get("op") == "open":
            return LockHolder.checked(payload.get("pid"), payload.get("host"), payload.get("at"), payload.get("by"))
    return None


def _read_whole(fd: int, where: Path) -> bytes:
    try:
        size = os.fstat(fd).st_size
        chunks: list[bytes] = []
        offset = 0
        while chunk := os.pread(fd, max(size - offset, 1 << 16), offset):
            chunks.append(chunk)
            offset += len(chunk)
    except OSError as exc:
        raise JournalError(f"cannot read the review journal: {exc.strerror or exc}", path=str(where)) from None
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


_CRC_AT = slice(len(_HEAD), len(_HEAD) + 8)
_MID_AT = slice(len(_HEAD) + 8, _PREFIX_LEN)


def _parse(where: Path, data: bytes) -> JournalContents:
    contents = JournalContents(where, size=len(data))
    records = contents.records
    start = 0
    size = len(data)
    line_no = 0
    loads, crc32, shortest = orjson.loads, zlib.crc32, _PREFIX_LEN + 3
    while start < size:
        line_no += 1
        end = data.find(b"\n", start)
        if end < 0:
            end = size
            # No line break: a write that never finished, unless the record is whole (checksum, sequence), as
            # when something rewrote the file without its last line break. Dropping it lost a decision.
            payload = decode_line(data[start:end])
            if payload is not None and type(number := payload.get("n")) is int and number == line_no - 1:
                if line_no == 1:
                    _check_header(payload, where)  # a header alone, whole: kept as any whole record is
                records.append((line_no, payload))
                contents.unended = True
                start = size
                break
            payload = None
        else:
            # decode_line, written out: a journal of 100k records spends most of its reading here
            line = data[start:end]
            payload = None
            if len(line) >= shortest and line.startswith(_HEAD) and line.endswith(_TAIL) and line[_MID_AT] == _MID:
                body = line[_PREFIX_LEN:-1]
                try:
                    expected = int(line[_CRC_AT], 16)
                except ValueError:
                    expected = -1
                if crc32(body) == expected:
                    try:
                        payload = loads(body)
                    except orjson.JSONDecodeError:
                        pass
                    else:
                        if not isinstance(payload, dict):
                            payload = None
                        elif type(number := payload.get("n")) is int and number == line_no - 1 and line_no > 1:
                            records.append((line_no, payload))  # _check_sequence, the common case
                            start = end + 1
                            continue
        if payload is None:
            if end == size and _could_be_a_record(data[start:end]):
                contents.torn = TornTail(line_no, start, size - start)
                break
            if line_no == 1:
                if end > start and data[end - 1 : end] == b"\r" and decode_line(data[start : end - 1]) is not None:
                    raise JournalError(  # a journal whole but for its line endings: say so, not "not a journal"
                        "this journal's lines end in CR LF (Windows line endings), which reviewtui never writes: "
                        "something converted the file; convert it back to LF line endings (dos2unix) and try again",
                        path=str(where),
                        line=1,
                    )
                raise JournalError(
                    "this is not a reviewtui journal; refusing to read or overwrite it",
                    path=str(where),
                    line=1,
                )
            if end == size:
                raise JournalError(
                    "the journal ends in text that is not the start of a record, so it was not cut short "
                    "by an interruption: the file was changed by something other than reviewtui",
                    path=str(where),
                    line=line_no,
                )
            raise JournalError(
                "damaged journal record (its checksum or layout is wrong): the file was changed by "
                "something other than reviewtui, or damaged on disk",
                path=str(where),
                line=line_no,
            )
        _check_sequence(payload, line_no, where)
        records.append((line_no, payload))
        start = end + 1
    contents.good_size = start  # the end of the last whole record (a torn tail starts there)
    return contents


def _could_be_a_record(fragment: bytes) -> bool:
    """Whether an unfinished last line is what an interrupted write leaves: the start of a
    record, or the zeros a power cut can leave where the data never reached the disk.

    Anything else is some other file named as the journal, or text added to it, which
    must not be cut off. What comes before the first zero is compared: a record's first bytes reached the disk
    and the rest of its block did not (``{"c`` and zeros was refused as a file changed by something else).
    """
    head, zero, rest = fragment.partition(b"\0")
    size = min(len(head), len(_HEAD))
    if head[:size] != _HEAD[:size]:
        return False
    # A record's first bytes, then zeros to the end: text after the zeros is something else added to the file.
    return not head or not zero or not rest.strip(b"\0")


def _check_sequence(payload: dict[str, Any], line_no: int, path: Path) -> None:
    number = payload.get("n")
    if type(number) is not int or number != line_no - 1:
        raise JournalError(
            f"journal record out of sequence (numbered {shown_value(number)}, expected {line_no - 1})",
            path=str(path),
            line=line_no,
        )
    if line_no == 1:
        _check_header(payload, path)


def _optional_count(value: object) -> bool:
    return value is None or (type(value) is int and value >= 0)


# The header's fields that reviewtui reads back, what each must be, and how to say so.
# Fields it does not know are left alone (a newer reviewtui may add some).
_HEADER_FIELDS: dict[str, tuple[Any, str]] = {
    "set": (lambda v: type(v) is str, "the set id, a string"),
    "version": (lambda v: v is None or (type(v) is int and v >= 1), "a set version (a whole number from 1)"),
    "input": (lambda v: v is None or type(v) is str, "a file path or null"),
    "items": (_optional_count, "a count of items or null"),
    "all": (lambda v: type(v) is bool, "true or false"),
    "at": (plausible_timestamp, "a time (seconds since 1970)"),
    "by": (lambda v: type(v) is str, "a reviewer name"),
    "tool": (lambda v: type(v) is str, "a string"),
}


def _check_header(payload: dict[str, Any], path: Path) -> None:
    if payload.get("op") != "start":
        raise JournalError("this file does not start like a reviewtui journal", path=str(path), line=1)
    version = payload.get("format")
    if type(version) is not int or version < 1:
        raise JournalError(
            f"journal format {shown_value(version)} is not a format number", path=str(path), line=1
        )
    if version > JOURNAL_FORMAT:
        raise JournalError(
            f"journal format {version!r} is newer than this reviewtui understands ({JOURNAL_FORMAT})",
            path=str(path),
            line=1,
        )
    for name, (fits, meaning) in _HEADER_FIELDS.items():
        if name in payload and not fits(payload[name]):
            raise JournalError(
                f"journal header: {name!r} must be {meaning}, not {shown_value(payload[name])}",
                path=str(path),
                line=1,
            )


DURABILITY_MODES = ("batched", "every", "close")
"""When records are forced to disk (every mode writes each record before the step returns):

``every`` (what review sessions use by default): each step waits for its own
``fdatasync``. ``batched``: a background thread ``fdatasync``-s new records
within ``BATCH_SECONDS``; a power cut loses at most that much work. ``close``:
only closing the session syncs.
All three survive the app being killed or crashing, since that needs only the write.
"""

BATCH_SECONDS = 0.5


class _BackgroundSync(threading.Thread):
    """Forces a journal's new records to disk shortly after they are written, off the caller's path."""

    def __init__(self, fd: int, interval: float) -> None:
        super().__init__(name="reviewtui-journal-sync", daemon=True)
        self._fd = fd
        self._interval = interval
        self._dirty = threading.Event()
        self._stopping = threading.Event()
        self.error: OSError | None = None

    def written(self) -> None:
        self._dirty.set()

    def run(self) -> None:
        while True:
            self._dirty.wait()
            # Let a burst of steps share one sync; closing cuts the pause short (and syncs itself).
            if self._stopping.wait(self._interval):
                return
            self._dirty.clear()
            try:
                _datasync(self._fd)
            except OSError as exc:
                self.error = exc
                return

    def stop(self) -> None:
        self._stopping.set()
        self._dirty.set()
        self.join()


class JournalWriter:
    """Appends records to a journal, one ``os.write`` each, synced as ``durability`` says.

    The writer's file descriptor holds the journal's ``flock`` for as long as it is open.
    """

    def __init__(
        self, path: Path, fd: int, *, next_sequence: int, size: int, durability: str = "batched"
    ) -> None:
        if durability not in DURABILITY_MODES:
            os.close(fd)
            raise JournalError(f"unknown durability {durability!r}; choose one of: {', '.join(DURABILITY_MODES)}")
        self.path = path
        self._fd = fd
        self._identity = _identity(os.fstat(fd))  # the file this writer appends to, as its name must still say
        self._where = os.path.abspath(path)  # that name, whatever the working folder becomes
        self._next = next_sequence
        self._size = size
        self._stuck: str | None = None  # why the file could not be cut back after a failed write
        #: what the operating system said when the last append failed ("No space left on device")
        self.failure = ""
        self.durability = durability
        self._background: _BackgroundSync | None = None
        if durability == "batched":
            self._background = _BackgroundSync(fd, BATCH_SECONDS)
            self._background.start()

    @classmethod
    def create(
        cls, path: str | os.PathLike[str], header: Mapping[str, Any], *, durability: str = "batched"
    ) -> JournalWriter:
        """Start a new journal with its first record, synced; refuses if anything is at ``path``."""
        if durability not in DURABILITY_MODES:  # before anything is made on disk
            raise JournalError(f"unknown durability {durability!r}; choose one of: {', '.join(DURABILITY_MODES)}")
        where = Path(path)
        first = encode_record({"n": 0, "op": "start", "format": JOURNAL_FORMAT, **header})
        try:
            where.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise JournalError(f"cannot create the review journal: {exc.strerror or exc}", path=str(where)) from None
        fd = _create_whole(where, first)
        fsync_dir(where.parent)
        return cls(where, fd, next_sequence=1, size=len(first), durability=durability)

    @classmethod
    def reopen(cls, claim: JournalClaim, *, durability: str = "batched") -> JournalWriter:
        """Continue a claimed journal; a last record that was cut short is cut off first, so new
        records follow whole ones."""
        contents = claim.contents
        where = contents.path
        fd = claim.take()
        if fd < 0 or not contents.records:
            if fd >= 0:
                os.close(fd)
            raise JournalError("there is no journal here to continue", path=str(where))
        try:
            if os.fstat(fd).st_size != contents.size:
                raise JournalError(
                    "the review journal changed while it was being read; open the review again", path=str(where)
                )
            if contents.torn is not None:
                os.ftruncate(fd, contents.good_size)
                os.fsync(fd)
            elif contents.unended:  # the line break its last record lacks, so that the next record starts a line
                if os.write(fd, b"\n") != 1:
                    raise OSError(errno.ENOSPC, "the line break could not be written")
                os.fsync(fd)
        except OSError as exc:
            os.close(fd)
            raise JournalError(f"cannot repair the review journal: {exc.strerror or exc}", path=str(where)) from None
        except BaseException:
            os.close(fd)
            raise
        size = contents.good_size + (1 if contents.unended else 0)
        return cls(where, fd, next_sequence=contents.next_sequence, size=size, durability=durability)

    @property
    def closed(self) -> bool:
        return self._fd < 0

    @property
    def records(self) -> int:
        """How many records the journal holds, its header included, this writer's appends counted."""
        return self._next

    @property
    def size(self) -> int:
        return self._size

    def append(self, payload: Mapping[str, Any], *, sync: bool | None = None) -> int:
        """Write one record; returns its sequence number.

        ``sync=True`` forces this record to disk before returning, ``False`` never
        does; None follows the writer's durability. When the record cannot be
        written whole (a full disk, an I/O error) the file is cut back to the last
        whole record and JournalWriteError says the step was not saved.
        """
        if self._fd < 0:
            raise JournalError("the review journal is closed", path=str(self.path))
        if self._stuck is not None:
            self.failure = self._stuck
            raise JournalWriteError(
                f"the last step was not saved: an earlier failed write could not be cut back ({self._stuck}), "
                "so nothing more can be added safely; quit and open the review again",
                path=str(self.path),
            )
        background = self._background
        if background is not None and background.error is not None:
            self.failure = background.error.strerror or str(background.error)
            raise JournalWriteError(
                "the last step was not saved: the review journal could not be saved to disk "
                f"({background.error.strerror or background.error}); quit and open the review again",
                path=str(self.path),
            )
        elsewhere = self._name_moved()
        if elsewhere is not None:
            self.failure = elsewhere
            raise JournalWriteError(
                f"the last step was not saved: {elsewhere} while the review was open (a git checkout or pull, a sync "
                "tool, an editor), and a step written now would go to a file no longer there; quit, and check what "
                "the journal holds before opening the review again",
                path=str(self.path),
            )
        sequence = self._next
        line = encode_record({"n": sequence, **payload})
        failure = None
        try:
            written = os.write(self._fd, line)
            while 0 < written < len(line):  # only on a nearly full disk: finish, or fail below
                more = os.write(self._fd, line[written:])
                if more <= 0:
                    break
                written += more
            if written != len(line):
                failure = f"only {max(written, 0)} of {len(line)} bytes could be written"
            elif sync or (sync is None and self.durability == "every"):
                _datasync(self._fd)
        except OSError as exc:
            failure = exc.strerror or str(exc)
        if failure is not None:
            self.failure = failure
            self._cut_back()
            if self._stuck is not None:  # what reached the file stays there: say so rather than guess
                raise JournalWriteError(
                    f"the last step was not made here ({failure}), and the journal could not be cut back to "
                    f"its last whole record ({self._stuck}); quit and open the review again: every earlier "
                    "decision is kept, and the last step too if it reached the file whole",
                    path=str(self.path),
                )
            raise JournalWriteError(
                f"the last step was not saved ({failure}); every earlier decision is on disk",
                path=str(self.path),
            )
        self._size += len(line)
        self._next = sequence + 1
        if background is not None and sync is None:
            background.written()
        return sequence

    def name_moved(self) -> str | None:
        """:meth:`_name_moved`, for a session closing: a journal replaced after the last step refused nothing, and the
        quit must still say that the steps before went to the file that is gone."""
        return None if self._fd < 0 else self._name_moved()

    def keep_copy(self) -> Path | None:
        """When the journal's name no longer names this writer's file, copy what that file holds into a new file
        beside the name (``<journal>.kept``, then ``.kept-2`` ...) and return its path; None when the name still
        names it, or no copy could be made.

        A journal removed, or replaced by a ``git pull`` that deleted the old file, is gone once the review closes
        it: the steps made in it were lost with it. The copy is a new file, made exclusively, never through a link:
        nothing there is replaced.
        """
        if self._fd < 0 or self._name_moved() is None:
            return None
        base = f"{self._where}.kept"
        for number in range(1, 100):
            target = base if number == 1 else f"{base}-{number}"
            try:
                out = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
            except FileExistsError:
                continue
            except OSError:
                return None
            try:
                offset = 0
                while chunk := os.pread(self._fd, 1 << 20, offset):
                    view = memoryview(chunk)
                    while view:
                        view = view[os.write(out, view) :]
                    offset += len(chunk)
                os.fsync(out)
            except OSError:
                os.close(out)
                with contextlib.suppress(OSError):
                    os.unlink(target)
                return None
            os.close(out)
            return Path(target)
        return None

    def _name_moved(self) -> str | None:
        """What happened to the journal's name, when it no longer names the file this writer appends to.

        A journal replaced on disk while the review ran (``git pull`` or ``git checkout`` of a journal kept in git,
        as a team's are, a sync tool, an editor saving it) left the writer appending to the old file, deleted: each
        step after it was shown as saved, the quit said nothing, and the review reopened without them.
        """
        try:
            now = os.lstat(self._where)
        except FileNotFoundError:
            return JOURNAL_REMOVED
        except OSError:
            return None  # cannot tell: the write says what is wrong, if anything
        if _identity(now) != self._identity:
            return JOURNAL_REPLACED
        return None

    def _cut_back(self) -> None:
        """Remove what a failed append left, so no broken record ends up between later ones."""
        try:
            os.ftruncate(self._fd, self._size)
        except OSError as exc:
            self._stuck = exc.strerror or str(exc)

    def close(self) -> None:
        """Stop background syncing, force everything to disk, close. Safe to call twice."""
        if self._fd < 0:
            return
        if self._background is not None:
            self._background.stop()
            self._background = None
        fd, self._fd = self._fd, -1
        with contextlib.suppress(OSError):
            os.fsync(fd)
        os.close(fd)


#: What JournalWriter.failure says when the journal's name no longer names the file the review appends to.
JOURNAL_REPLACED = "the review journal was replaced by another file"
JOURNAL_REMOVED = "the review journal was removed"


def _identity(st: os.stat_result) -> tuple[int, int]:
    return (st.st_dev, st.st_ino)


# Where a file system has no hard links, a new journal is made in place instead.
_NO_HARD_LINKS = frozenset(
    code for code in (errno.EPERM, errno.ENOSYS, getattr(errno, "ENOTSUP", None), getattr(errno, "EOPNOTSUPP", None))
    if code is not None
)
_NEW_FILE = os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


def _create_whole(where: Path, first: bytes) -> int:
    """Make ``where`` a new file holding ``first``, already written, synced and locked.

    The record goes into a hidden file beside it, which is then hard-linked into place:
    ``link`` fails when anything, even a dangling link, is at ``where``, and whoever
    opens the new journal finds it whole and locked.
    """
    temp = where.with_name(f".{where.name[:100]}.{secrets.token_hex(4)}.new")
    try:
        fd = _new_file(temp, first)
    except OSError as exc:
        raise _cannot_create(where, exc) from None
    in_place = False
    try:
        os.link(temp, where, follow_symlinks=False)
    except FileExistsError:
        os.close(fd)
        raise _already_there(where) from None
    except OSError as exc:
        os.close(fd)
        if exc.errno not in _NO_HARD_LINKS:
            raise _cannot_create(where, exc) from None
        in_place = True
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temp)
    if not in_place:
        return fd
    try:
        return _new_file(where, first)
    except FileExistsError:
        raise _already_there(where) from None
    except OSError as exc:
        raise _cannot_create(where, exc) from None


def _new_file(path: Path, first: bytes) -> int:
    """Create ``path`` (it must not exist), lock it, write ``first`` whole and sync it."""
    fd = os.open(path, _NEW_FILE, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # nobody else can have it yet
        written = os.write(fd, first)
        if written != len(first):
            raise OSError(errno.ENOSPC, f"only {written} of {len(first)} bytes could be written")
        _datasync(fd)
    except BaseException:
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(path)  # made here a moment ago, and only this process knows it
        raise
    return fd


def _cannot_create(where: Path, exc: OSError) -> EvalSetError:
    return JournalError(f"cannot create the review journal: {exc.strerror or exc}", path=str(where))


def _already_there(where: Path) -> EvalSetError:
    """The refusal when a new journal's place is taken: by a session writing there, or by something else."""
    try:
        fd = open_own_file(where, os.O_RDONLY, what=_JOURNAL)
    except (OSError, EvalSetError):
        fd = -1
    if fd >= 0:
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
            except OSError:
                return _in_use(where, fd)
        finally:
            os.close(fd)
    return JournalError(
        "a file is already where the new journal should go (it appeared while the review was opening?); "
        "open the review again, or choose another --journal",
        path=str(where),
    )


def _datasync(fd: int) -> None:
    sync = getattr(os, "fdatasync", None)
    (sync or os.fsync)(fd)

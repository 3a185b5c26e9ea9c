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

What a crash can leave: at most one damaged record, the last one (a short
write, or zeros after a power cut). Reading drops it and says so; a damaged
line anywhere else means the file was changed by something else and is an
error naming the line.
"""

from __future__ import annotations

import contextlib
import os
import threading
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from reviewtui.evalset.io.files import fsync_dir, gc_paused
from reviewtui.evalset.model import EvalSetError

__all__ = [
    "BATCH_SECONDS",
    "DURABILITY_MODES",
    "JOURNAL_FORMAT",
    "JOURNAL_SUFFIX",
    "JournalContents",
    "JournalWriter",
    "TornTail",
    "decode_line",
    "default_journal_path",
    "encode_record",
    "read_journal",
]

JOURNAL_SUFFIX = ".reviewtui-journal"
JOURNAL_FORMAT = 1

_HEAD = b'{"c":"'
_MID = b'","r":'
_PREFIX_LEN = len(_HEAD) + 8 + len(_MID)
_TAIL = b"}"


def default_journal_path(input_path: str | os.PathLike[str]) -> Path:
    """Where a set's journal lives unless told otherwise: beside it, ``<file name>.reviewtui-journal``."""
    path = Path(input_path)
    return path.with_name(path.name + JOURNAL_SUFFIX)


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

    @property
    def header(self) -> dict[str, Any] | None:
        return self.records[0][1] if self.records else None

    @property
    def next_sequence(self) -> int:
        return len(self.records)


def read_journal(path: str | os.PathLike[str]) -> JournalContents:
    """Read and check a journal; a missing file reads as empty.

    Raises EvalSetError naming ``path:line`` for damage anywhere but the last line.
    """
    where = Path(path)
    try:
        data = where.read_bytes()
    except FileNotFoundError:
        return JournalContents(where, exists=False)
    except OSError as exc:
        raise EvalSetError(f"cannot read the review journal: {exc.strerror or exc}", path=str(where)) from None
    with gc_paused():
        return _parse(where, data)


def _parse(where: Path, data: bytes) -> JournalContents:
    contents = JournalContents(where)
    start = 0
    size = len(data)
    line_no = 0
    while start < size:
        line_no += 1
        end = data.find(b"\n", start)
        last = end < 0 or end + 1 == size
        if end < 0:
            payload = None  # no newline: the write never finished
            end = size
        else:
            payload = decode_line(data[start:end])
        if payload is None:
            if last and (line_no > 1 or _could_be_a_record(data[start:end])):
                contents.torn = TornTail(line_no, start, size - start)
                break
            if line_no == 1:
                raise EvalSetError(
                    "this is not a reviewtui journal; refusing to read or overwrite it",
                    path=str(where),
                    line=1,
                )
            raise EvalSetError(
                "damaged journal record (its checksum or layout is wrong): the file was changed by "
                "something other than reviewtui, or damaged on disk",
                path=str(where),
                line=line_no,
            )
        _check_sequence(payload, line_no, where)
        contents.records.append((line_no, payload))
        start = end + 1
        contents.good_size = start
    return contents


def _could_be_a_record(fragment: bytes) -> bool:
    """A lone first line is only taken for a torn header if it starts like one.

    Anything else is some other file named as the journal, which must not be cut down.
    """
    size = min(len(fragment), len(_HEAD))
    return fragment[:size] == _HEAD[:size]


def _check_sequence(payload: dict[str, Any], line_no: int, path: Path) -> None:
    if payload.get("n") != line_no - 1:
        raise EvalSetError(
            f"journal record out of sequence (numbered {payload.get('n')!r}, expected {line_no - 1})",
            path=str(path),
            line=line_no,
        )
    if line_no == 1:
        if payload.get("op") != "start":
            raise EvalSetError("this file does not start like a reviewtui journal", path=str(path), line=1)
        version = payload.get("format")
        if not isinstance(version, int) or version > JOURNAL_FORMAT:
            raise EvalSetError(
                f"journal format {version!r} is newer than this reviewtui understands ({JOURNAL_FORMAT})",
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
    """Appends records to a journal, one ``os.write`` each, synced as ``durability`` says."""

    def __init__(
        self, path: Path, fd: int, *, next_sequence: int, size: int, durability: str = "batched"
    ) -> None:
        if durability not in DURABILITY_MODES:
            os.close(fd)
            raise EvalSetError(f"unknown durability {durability!r}; choose one of: {', '.join(DURABILITY_MODES)}")
        self.path = path
        self._fd = fd
        self._next = next_sequence
        self._size = size
        self.durability = durability
        self._background: _BackgroundSync | None = None
        if durability == "batched":
            self._background = _BackgroundSync(fd, BATCH_SECONDS)
            self._background.start()

    @classmethod
    def create(
        cls, path: str | os.PathLike[str], header: Mapping[str, Any], *, durability: str = "batched"
    ) -> JournalWriter:
        """Start a new journal (replacing an empty or torn-header one) with its first record, synced."""
        where = Path(path)
        try:
            where.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(where, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o644)
        except OSError as exc:
            raise EvalSetError(f"cannot create the review journal: {exc.strerror or exc}", path=str(where)) from None
        writer = cls(where, fd, next_sequence=0, size=0, durability=durability)
        try:
            writer.append({"op": "start", "format": JOURNAL_FORMAT, **header}, sync=True)
        except BaseException:
            writer.close()
            raise
        fsync_dir(where.parent)
        return writer

    @classmethod
    def reopen(cls, contents: JournalContents, *, durability: str = "batched") -> JournalWriter:
        """Continue a journal that was read; a torn tail is cut off first so new records follow good ones."""
        where = contents.path
        try:
            fd = os.open(where, os.O_WRONLY | os.O_APPEND | os.O_CLOEXEC)
        except OSError as exc:
            raise EvalSetError(f"cannot write to the review journal: {exc.strerror or exc}", path=str(where)) from None
        try:
            if os.fstat(fd).st_size != contents.good_size:
                os.ftruncate(fd, contents.good_size)
                os.fsync(fd)
        except OSError as exc:
            os.close(fd)
            raise EvalSetError(f"cannot repair the review journal: {exc.strerror or exc}", path=str(where)) from None
        return cls(where, fd, next_sequence=contents.next_sequence, size=contents.good_size, durability=durability)

    @property
    def closed(self) -> bool:
        return self._fd < 0

    @property
    def size(self) -> int:
        return self._size

    def append(self, payload: Mapping[str, Any], *, sync: bool | None = None) -> int:
        """Write one record; returns its sequence number. On failure the file is left as it was.

        ``sync=True`` forces this record to disk before returning, ``False`` never
        does; None follows the writer's durability.
        """
        if self._fd < 0:
            raise EvalSetError("the review journal is closed", path=str(self.path))
        background = self._background
        if background is not None and background.error is not None:
            raise EvalSetError(
                f"the review journal could not be saved to disk ({background.error.strerror or background.error})",
                path=str(self.path),
            )
        sequence = self._next
        line = encode_record({"n": sequence, **payload})
        try:
            written = os.write(self._fd, line)
            while written < len(line):  # only on a nearly full disk; finish or fail below
                written += os.write(self._fd, line[written:])
            if sync or (sync is None and self.durability == "every"):
                _datasync(self._fd)
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.ftruncate(self._fd, self._size)
            raise EvalSetError(
                f"cannot write the review journal ({exc.strerror or exc}); the last step was not made",
                path=str(self.path),
            ) from None
        self._size += len(line)
        self._next = sequence + 1
        if background is not None and sync is None:
            background.written()
        return sequence

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


def _datasync(fd: int) -> None:
    sync = getattr(os, "fdatasync", None)
    (sync or os.fsync)(fd)

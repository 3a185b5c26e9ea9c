"""How a child process hands its results to its parent: pickles in a spool file, a few bytes of notice on a pipe.

A result written straight into a pipe would stall the child as soon as the pipe's
small buffer filled, until the parent, busy with its own work, got round to reading.
So the child writes each pickle to an unnamed spool file shared with the parent and
then a fixed-size notice on the pipe saying where it is; a notice never blocks.
Both ends are this module: the pickles only ever come from our own child.

A failure in the child travels the same way, marked as one, and is raised in the
parent as :class:`WorkerError`, chained to the child's own exception when that can
be unpickled. Bytes the parent will only copy somewhere (part of a report the child
wrote) go as they are, not pickled, and arrive as a :class:`Spooled` span the parent
reads a piece at a time (:meth:`Sender.send_bytes`). A channel made with
``raw_file=True`` puts them in a temporary file of their own, in the temporary folder:
where that is on disk (as a rule), a report's worth of bytes waits in the page cache,
which the system can write out and take back, not in a memory file that no process's
memory counts (a temporary folder kept in memory, a tmpfs, holds them in memory again).
"""

from __future__ import annotations

import io
import os
import pickle
import select
import struct
import tempfile
import traceback
import weakref
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from reviewtui.evalset.jobs.cancel import ShouldStop, check_stop

__all__ = [
    "Channel",
    "Sender",
    "Spooled",
    "WorkerEnded",
    "WorkerError",
    "out_of_room",
    "pickled_in_batches",
    "spool",
    "unpickled_batches",
]

POLL_SECONDS = 0.05
_NOTICE = struct.Struct("!BQQ")  # what the frame is, its offset and its length in the spool file
_PICKLE, _FAILURE, _BYTES = 0, 1, 2  # what a notice announces


#: Bytes of a spooled span read at a time (:meth:`Spooled.chunks`): under the C library's mapping threshold
#: (collector.LARGE_BLOCK), so each read reuses the memory the one before freed; a read of a megabyte was a
#: mapping of its own, its pages faulted in afresh for every piece of a report copied from the spool.
PIECE = 1 << 16


#: Values per batch in :func:`pickled_in_batches`.
BATCH = 4096


def pickled_in_batches(values: Sequence[Any], size: int = BATCH) -> bytes:
    """``values`` pickled a batch at a time, for a ``__reduce__`` of a result with a long list in it.

    A pickler remembers every object it has written until the end of the dump (so that a
    second reference to one is written as a reference), and keeps alive the temporaries made
    to describe each object. For a result holding a hundred thousand small records that
    memory is several times the pickle's size, and it comes on top of the child's own peak.
    Batches are written with the memory cleared between them: an object shared between two
    batches is written twice, and arrives as two equal objects.
    """
    out = io.BytesIO()
    pickle.dump(len(values), out, protocol=pickle.HIGHEST_PROTOCOL)
    for start in range(0, len(values), size):
        # A pickler of its own per batch: its memory is dropped, and the reader's, one per batch too,
        # numbers the objects it remembers as this one did (a cleared pickler and a reader that read
        # on would not agree).
        pickle.dump(values[start : start + size], out, protocol=pickle.HIGHEST_PROTOCOL)
    return out.getvalue()


def unpickled_batches(data: bytes) -> tuple[Any, ...]:
    """The values :func:`pickled_in_batches` wrote, as one tuple."""
    source = io.BytesIO(data)
    count = pickle.load(source)
    values: list[Any] = []
    while len(values) < count:
        values += pickle.load(source)
    return tuple(values)


class WorkerError(RuntimeError):
    """The work given to the child process failed there, or the child died before answering."""


def out_of_room(error: WorkerError) -> bool:
    """Whether the child failed for want of room rather than for a fault in its work: it ended without a
    word (killed, most often for memory), or writing its answer failed (a full temporary folder)."""
    return isinstance(error, WorkerEnded) or isinstance(error.__cause__, OSError)


class WorkerEnded(WorkerError):
    """The child closed its end of the channel without another answer (it exited, or was killed).

    ``signal``: the signal that killed it, when one did and its job knows (a SIGKILL is most often the
    system's out-of-memory killer, which a command reports as such)."""

    def __init__(self, message: str, *, signal: int | None = None) -> None:
        super().__init__(message)
        self.signal = signal


def spool() -> int:
    """A file descriptor for a file with no name, in memory where the system allows."""
    if hasattr(os, "memfd_create"):
        try:
            return os.memfd_create("reviewtui-job", os.MFD_CLOEXEC)
        except OSError:
            pass
    return file_spool()


def file_spool() -> int:
    """A file descriptor for a temporary file with no name, in the temporary folder (on disk, as a rule)."""
    with tempfile.TemporaryFile() as file:
        return os.dup(file.fileno())


class Sender:
    """The child's end: :meth:`send` a result, or :meth:`fail` with an exception.

    ``raw_fd``: the channel's file for :meth:`send_bytes` (-1: the spool takes them too).
    """

    def __init__(self, spool_fd: int, pipe_fd: int, raw_fd: int = -1) -> None:
        self._spool = spool_fd
        self._pipe = pipe_fd
        self._end = 0
        self._raw = raw_fd
        self._raw_end = 0

    def send(self, value: Any) -> None:
        self._post(value)

    __call__ = send

    def send_bytes(self, chunks: Iterable[bytes]) -> None:
        """Send ``chunks`` as one run of bytes, written to the spool as they come (never joined here);
        the parent receives a :class:`Spooled` span of them."""
        raw = self._raw >= 0
        writer = _SpoolWriter(self._raw, self._raw_end) if raw else _SpoolWriter(self._spool, self._end)
        for chunk in chunks:
            writer.write(chunk)
        os.write(self._pipe, _NOTICE.pack(_BYTES, writer.start, writer.written))
        if raw:
            self._raw_end += writer.written
        else:
            self._end += writer.written

    def fail(self, exc: BaseException) -> None:
        """Send the failure as text and traceback, with the exception itself pickled apart (it may not unpickle)."""
        try:
            pickled: bytes | None = pickle.dumps(exc, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:
            pickled = None
        value = (f"{type(exc).__name__}: {exc}", pickled, "".join(traceback.format_exception(exc)))
        self._post(value, failed=True)

    def _post(self, value: Any, failed: bool = False) -> None:
        # Pickled straight into the spool file, a frame at a time: a pickle of the whole result in
        # memory would add its size to the child's peak, and the child's peak can be the command's.
        # Should pickling fail part-way, nothing is announced and the next answer writes over it.
        writer = _SpoolWriter(self._spool, self._end)
        pickle.dump(value, writer, protocol=pickle.HIGHEST_PROTOCOL)
        kind = _FAILURE if failed else _PICKLE
        os.write(self._pipe, _NOTICE.pack(kind, self._end, writer.written))  # a few bytes: never blocks
        self._end += writer.written


class _SpoolWriter:
    """A file-like ``write`` at an offset of the spool file, for pickle.dump (which needs nothing else)."""

    def __init__(self, fd: int, start: int) -> None:
        self.fd = fd
        self.start = start
        self.written = 0

    def write(self, data: bytes | bytearray | memoryview) -> int:
        view = memoryview(data)
        if not view.c_contiguous:  # a buffer pickled out of band in another layout (a Fortran-order array)
            view = memoryview(view.tobytes(order="A"))  # its own layout, as pickle.dumps writes it
        view = view.cast("B")
        length = len(view)
        while view:
            done = os.pwrite(self.fd, view, self.start + self.written)
            self.written += done
            view = view[done:]
        return length


class Channel:
    """The parent's end: the spool file and the read end of the notice pipe, both owned (and closed) here;
    with ``raw_file``, a temporary file for the bytes sent as they are (see the module notes), owned here too."""

    def __init__(self, *, raw_file: bool = False) -> None:
        self.spool = spool()
        self.pipe = -1
        self.child_end = -1  # the pipe's write end, until the child has it
        self.raw = -1
        self._notices = bytearray()
        try:
            if raw_file:
                self.raw = file_spool()
            self.pipe, self.child_end = os.pipe()
        except BaseException:
            self.close()
            raise

    def child_started(self) -> None:
        """The child holds the write end now; the parent's copy goes, so the pipe ends when the child does."""
        if self.child_end >= 0:
            os.close(self.child_end)
            self.child_end = -1

    def wait(self, seconds: float) -> bool:
        """True when a notice (or the end of the pipe) is there to read."""
        if len(self._notices) >= _NOTICE.size:
            return True
        ready, _, _ = select.select([self.pipe], [], [], seconds)
        return bool(ready)

    def receive(self, should_stop: ShouldStop | None = None) -> Any:
        """The child's next result; polls ``should_stop`` while waiting (raises ScanCancelled).

        Raises :class:`WorkerError` when the child failed, :class:`WorkerEnded` when it
        ended without answering.
        """
        while len(self._notices) < _NOTICE.size:
            check_stop(should_stop)
            if self.wait(POLL_SECONDS):
                chunk = os.read(self.pipe, 4096)
                if not chunk:
                    raise WorkerEnded("the worker process ended without an answer")
                self._notices += chunk
        kind, offset, length = _NOTICE.unpack(self._notices[: _NOTICE.size])
        del self._notices[: _NOTICE.size]
        if kind == _BYTES:
            return Spooled(self.raw if self.raw >= 0 else self.spool, offset, length)
        if kind == _PICKLE:  # written by our own child
            # Read as the unpickler asks, not whole first: a whole frame was a copy of the result's pickle
            # beside the result, at the peak of the process taking in a scan's audit.
            return pickle.load(_SpoolReader(self.spool, offset, length))
        frame = self._read_at(offset, length)
        text, pickled, trace = pickle.loads(frame)
        error = WorkerError(f"the worker process failed: {text}")
        error.add_note(f"in the worker process:\n{trace}")
        raise error from _unpickled(pickled)

    def ended(self) -> bool:
        """True when the child has closed its end and every notice has been read."""
        if len(self._notices) >= _NOTICE.size or not self.wait(0):
            return False
        chunk = os.read(self.pipe, 4096)
        self._notices += chunk
        return not chunk

    def _read_at(self, offset: int, length: int) -> bytes:
        return b"".join(_pieces(self.spool, offset, length, length))

    def close(self) -> None:
        for fd in (self.pipe, self.child_end, self.spool, self.raw):
            if fd >= 0:
                os.close(fd)
        self.pipe = self.child_end = self.spool = self.raw = -1


class Spooled:
    """Bytes a child sent with :meth:`Sender.send_bytes`, left in the spool file until read.

    The span keeps its own descriptor of the spool, so it can be read after the job that
    made it has ended and closed the channel; the descriptor is closed when the span is
    closed or dropped. Read a piece at a time (:meth:`chunks`): the whole run is never
    in this process's memory at once.
    """

    def __init__(self, spool_fd: int, offset: int, length: int) -> None:
        self._fd = os.dup(spool_fd)
        self.offset = offset
        self.length = length
        self._closer = weakref.finalize(self, os.close, self._fd)

    def chunks(self, size: int = PIECE) -> Iterator[bytes]:
        """The bytes, in order, in pieces of at most ``size``."""
        return _pieces(self._fd, self.offset, self.length, size)

    def close(self) -> None:
        self._closer()

    def __reduce__(self) -> Any:
        raise TypeError("a spooled span is a descriptor of this process's; it cannot be pickled")


class _SpoolReader:
    """``length`` bytes of the spool from ``offset``, as a file the unpickler reads from (see Channel.receive)."""

    __slots__ = ("_end", "_fd", "_offset")

    def __init__(self, fd: int, offset: int, length: int) -> None:
        self._fd = fd
        self._offset = offset
        self._end = offset + length

    def read(self, size: int = -1) -> bytes:
        left = self._end - self._offset
        size = left if size < 0 or size > left else size
        if not size:
            return b""
        data = b"".join(_pieces(self._fd, self._offset, size, size))
        self._offset += size
        return data

    def readline(self) -> bytes:  # only the text opcodes of old protocols read lines
        line = bytearray()
        while not line.endswith(b"\n") and (byte := self.read(1)):
            line += byte
        return bytes(line)


def _pieces(fd: int, offset: int, length: int, size: int) -> Iterator[bytes]:
    """``length`` bytes of ``fd`` from ``offset``, in reads of at most ``size`` (a read may return less)."""
    while length:
        part = os.pread(fd, min(size, length), offset)
        if not part:
            raise WorkerError("the worker process's answer was cut short")
        yield part
        offset += len(part)
        length -= len(part)


def _unpickled(pickled: bytes | None) -> BaseException | None:
    """The child's own exception, to chain to the WorkerError, when it survives the trip."""
    if pickled is None:
        return None
    try:
        exc = pickle.loads(pickled)  # written by our own child
    except Exception:
        return None
    return exc if isinstance(exc, BaseException) else None

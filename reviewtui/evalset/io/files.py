"""Low-level file access shared by every reader and writer.

Whole-file writes are atomic: the bytes go to a temporary file in the target's
folder, are flushed and fsynced, and the temporary file is renamed over the
target. A crash leaves either the old file or the new one, never half of one.
"""

from __future__ import annotations

import contextlib
import gc
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

import orjson

from reviewtui.evalset.model import EvalSetError

__all__ = [
    "BOM",
    "atomic_write",
    "decode_utf8",
    "fsync_dir",
    "gc_paused",
    "json_error",
    "json_lines",
    "open_for_reading",
    "read_bytes",
    "read_json",
    "utf8_error",
]

BOM = b"\xef\xbb\xbf"


def _os_error(p: Path, exc: OSError) -> EvalSetError:
    if isinstance(exc, FileNotFoundError):
        return EvalSetError("no such file", path=str(p))
    if isinstance(exc, IsADirectoryError):
        return EvalSetError("is a folder, not a file", path=str(p))
    if isinstance(exc, PermissionError):
        return EvalSetError("permission denied", path=str(p))
    return EvalSetError(f"cannot read: {exc.strerror or exc}", path=str(p))


def read_bytes(path: str | os.PathLike[str]) -> bytes:
    """Read a whole input file, turning OS errors into one clear EvalSetError."""
    p = Path(path)
    try:
        return p.read_bytes()
    except OSError as exc:
        raise _os_error(p, exc) from None


def open_for_reading(path: str | os.PathLike[str]) -> BinaryIO:
    """Open an input file for streaming, with the same clear errors as :func:`read_bytes`.

    Readers that go line by line use this so that a large file is never held in
    memory next to the objects built from it.
    """
    p = Path(path)
    if p.is_dir():  # open() succeeds on a folder on some systems and fails later on read
        raise EvalSetError("is a folder, not a file", path=str(p))
    try:
        return open(p, "rb")  # noqa: SIM115 - the caller closes it
    except OSError as exc:
        raise _os_error(p, exc) from None


def utf8_error(path: str | os.PathLike[str], data: bytes, exc: UnicodeDecodeError, first_line: int = 1) -> EvalSetError:
    """Say where in ``data`` the bytes stop being UTF-8, as ``path:line`` and a column."""
    line = first_line + data.count(b"\n", 0, exc.start)
    column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
    bad = data[exc.start : exc.start + 1].hex()
    return EvalSetError(
        f"not valid UTF-8 (byte 0x{bad} at column {column}); save the file as UTF-8 and try again",
        path=str(path),
        line=line,
    )


def decode_utf8(path: str | os.PathLike[str], data: bytes) -> str:
    """Text of a UTF-8 file without its byte-order mark; bad bytes give ``path:line``."""
    if data.startswith(BOM):
        data = data[len(BOM) :]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise utf8_error(path, data, exc) from None


def json_error(path: str | os.PathLike[str], exc: orjson.JSONDecodeError, line: int | None = None) -> EvalSetError:
    """``path:line: not valid JSON (...)``; ``line`` for one line of a JSON Lines file, else orjson's own."""
    reason = str(exc).split(": line ", 1)[0]
    return EvalSetError(
        f"not valid JSON ({reason}, column {exc.colno})", path=str(path), line=exc.lineno if line is None else line
    )


def read_json(path: str | os.PathLike[str]) -> Any:
    """A whole JSON file, parsed; bad UTF-8 or JSON is named by ``path:line``."""
    try:
        return orjson.loads(decode_utf8(path, read_bytes(path)))
    except orjson.JSONDecodeError as exc:
        raise json_error(path, exc) from None


def json_lines(path: str | os.PathLike[str]) -> Iterator[tuple[int, Any]]:
    """``(line number, parsed value)`` for each non-blank line of a JSON Lines file, read as a stream."""
    name = str(path)
    with open_for_reading(path) as handle:
        for number, raw in enumerate(handle, 1):
            if number == 1 and raw.startswith(BOM):
                raw = raw[len(BOM) :]
            if not raw.strip():
                continue
            try:
                raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise utf8_error(name, raw, exc, first_line=number) from None
            try:
                yield number, orjson.loads(raw)
            except orjson.JSONDecodeError as exc:
                raise json_error(name, exc, number) from None


def fsync_dir(folder: str | os.PathLike[str]) -> None:
    """Make a rename or a new file in ``folder`` durable (no-op where unsupported)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def atomic_write(path: str | os.PathLike[str], data: bytes | Iterator[bytes]) -> Path:
    """Write ``data`` to ``path`` atomically and durably; create missing parent folders.

    ``data`` may be bytes or an iterator of byte chunks (so large exports need not
    be joined in memory first). The file keeps the target's permissions when it
    already exists.
    """
    target = Path(path)
    folder = target.parent
    folder.mkdir(parents=True, exist_ok=True)
    # A short fixed prefix: the target's own name in it would make a legal long name too long.
    fd, tmp_name = tempfile.mkstemp(prefix=".rtui-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as handle:
            if isinstance(data, (bytes, bytearray, memoryview)):
                handle.write(data)
            else:
                for chunk in data:
                    handle.write(chunk)
            handle.flush()
            os.fsync(handle.fileno())
        with contextlib.suppress(OSError):
            os.chmod(tmp_name, target.stat().st_mode & 0o7777 if target.exists() else 0o644)
        os.replace(tmp_name, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp_name)
        raise
    fsync_dir(folder)
    return target


@contextlib.contextmanager
def gc_paused(*, keep: bool = False) -> Iterator[None]:
    """Pause the cyclic garbage collector while building many objects at once.

    Loading 100k items allocates millions of containers and none of them form
    cycles; letting the collector scan them repeatedly triples the load time.

    On the way out the objects made meanwhile are moved straight to the oldest
    generation (``gc.freeze()`` then ``gc.unfreeze()``, two constant-time list
    moves). Otherwise the first young-generation pass after re-enabling would
    walk every one of them at once, which costs about as much as validating
    them, only to promote them there anyway. They are still examined by later
    full collections, so cyclic garbage made inside the block is collected
    then rather than at once. Skipped when the program froze objects itself, so
    its frozen ones stay frozen.

    ``keep=True`` is for objects that live as long as the program (the set under
    review): they are frozen instead, so no later collection walks them either
    (a full one over a 100k-item set stalls every thread for most of a second).
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            if keep:
                gc.freeze()
            elif gc.get_freeze_count() == 0:
                gc.freeze()
                gc.unfreeze()
            gc.enable()

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

from reviewtui.evalset.model import EvalSetError

__all__ = ["atomic_write", "fsync_dir", "gc_paused", "read_bytes"]


def read_bytes(path: str | os.PathLike[str]) -> bytes:
    """Read a whole input file, turning OS errors into one clear EvalSetError."""
    p = Path(path)
    try:
        return p.read_bytes()
    except FileNotFoundError:
        raise EvalSetError("no such file", path=str(p)) from None
    except IsADirectoryError:
        raise EvalSetError("is a folder, not a file", path=str(p)) from None
    except PermissionError:
        raise EvalSetError("permission denied", path=str(p)) from None
    except OSError as exc:
        raise EvalSetError(f"cannot read: {exc.strerror or exc}", path=str(p)) from None


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
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
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
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while building many objects at once.

    Loading 100k items allocates millions of containers and none of them form
    cycles; letting the collector scan them repeatedly triples the load time.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()

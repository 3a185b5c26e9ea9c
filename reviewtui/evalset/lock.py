"""One review session per set at a time.

The lock is an ``flock`` on ``<input file>.reviewtui-lock``. The operating system
drops an flock when its holder exits for any reason, ``kill -9`` included, so
a lock file left behind by a dead session is simply taken over. The holder
writes its pid, host and start time into the file, so a refused second session
can say who has the set open.

The file is removed on a clean release. Because another process may have
opened the old file just before it was removed, a newly taken lock is only
trusted once the path still names the very file that was locked.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import errno
import fcntl
import os
import socket
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from reviewtui.evalset.model import EvalSetError

__all__ = ["LOCK_SUFFIX", "LockHolder", "ReviewLock", "default_lock_path"]

LOCK_SUFFIX = ".reviewtui-lock"
_ATTEMPTS = 20


def default_lock_path(input_path: str | os.PathLike[str]) -> Path:
    path = Path(input_path)
    return path.with_name(path.name + LOCK_SUFFIX)


@dataclass(frozen=True, slots=True)
class LockHolder:
    """Who holds (or last held) a lock, as written in the lock file."""

    pid: int | None
    host: str
    since: float | None
    reviewer: str = ""

    @classmethod
    def parse(cls, data: bytes) -> LockHolder | None:
        try:
            info: Any = orjson.loads(data)
        except orjson.JSONDecodeError:
            return None
        if not isinstance(info, dict):
            return None
        pid = info.get("pid")
        since = info.get("since")
        return cls(
            pid=pid if isinstance(pid, int) else None,
            host=str(info.get("host") or "?"),
            since=float(since) if isinstance(since, (int, float)) else None,
            reviewer=str(info.get("reviewer") or ""),
        )

    def describe(self) -> str:
        who = f"pid {self.pid}" if self.pid is not None else "another process"
        when = ""
        if self.since is not None:
            stamp = _dt.datetime.fromtimestamp(self.since).astimezone()
            when = f", since {stamp:%Y-%m-%d %H:%M:%S %Z}".rstrip()
        by = f" by {self.reviewer}" if self.reviewer else ""
        return f"{who} on {self.host}{by}{when}"


class ReviewLock:
    """An exclusive, crash-safe claim on one input file for one review session."""

    def __init__(self, path: Path, fd: int, recovered: LockHolder | None) -> None:
        self.path = path
        self._fd = fd
        self.recovered = recovered
        """The previous holder when its lock file was left behind (it did not exit cleanly)."""

    @classmethod
    def acquire(cls, lock_path: str | os.PathLike[str], *, subject: str, reviewer: str = "") -> ReviewLock:
        """Take the lock or raise EvalSetError naming the session that holds it.

        ``subject`` is what the lock protects (the input path), used in messages.
        """
        path = Path(lock_path)
        for _ in range(_ATTEMPTS):
            try:
                fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
            except OSError as exc:
                raise EvalSetError(
                    f"cannot create the lock file {path}: {exc.strerror or exc}", path=subject
                ) from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as exc:
                holder = LockHolder.parse(_read_all(fd))
                os.close(fd)
                if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                    raise EvalSetError(f"cannot lock {path}: {exc.strerror or exc}", path=subject) from None
                who = holder.describe() if holder else "another process"
                raise EvalSetError(
                    f"already open for review by {who}; finish or quit that session first "
                    f"(the lock is {path.name})",
                    path=subject,
                ) from None
            if not _still_names(path, fd):
                os.close(fd)  # the file was removed by a releasing session: lock the new one
                continue
            left_behind = LockHolder.parse(_read_all(fd))
            _write_holder(fd, reviewer)
            return cls(path, fd, left_behind)
        raise EvalSetError(f"could not take the lock {path}: it keeps changing", path=subject)

    @staticmethod
    def holder(lock_path: str | os.PathLike[str]) -> LockHolder | None:
        """The live holder of a lock, or None when nobody holds it. Does not take it."""
        path = Path(lock_path)
        try:
            fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            return None
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
            except OSError:
                return LockHolder.parse(_read_all(fd)) or LockHolder(None, "?", None)
            return None
        finally:
            os.close(fd)

    @property
    def held(self) -> bool:
        return self._fd >= 0

    def release(self) -> None:
        """Remove the lock file and let go. Safe to call twice."""
        if self._fd < 0:
            return
        fd, self._fd = self._fd, -1
        with contextlib.suppress(OSError):
            if _still_names(self.path, fd):
                self.path.unlink()
        os.close(fd)

    def __enter__(self) -> ReviewLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def _still_names(path: Path, fd: int) -> bool:
    try:
        on_disk = os.stat(path)
    except FileNotFoundError:
        return False
    mine = os.fstat(fd)
    return (on_disk.st_dev, on_disk.st_ino) == (mine.st_dev, mine.st_ino)


def _read_all(fd: int) -> bytes:
    try:
        return os.pread(fd, 4096, 0)
    except OSError:
        return b""


def _write_holder(fd: int, reviewer: str) -> None:
    info = {
        "pid": os.getpid(),
        "host": socket.gethostname(),
        "since": _dt.datetime.now().timestamp(),
        "reviewer": reviewer,
    }
    with contextlib.suppress(OSError):
        os.ftruncate(fd, 0)
        os.pwrite(fd, orjson.dumps(info), 0)

"""One review session per set at a time.

The lock is an ``flock`` on ``<input file>.reviewtui-lock``. The operating system
drops an flock when its holder exits for any reason, ``kill -9`` included, so
a lock file left behind by a dead session is simply taken over. The holder
writes its pid, host and start time into the file, so a refused second session
can say who has the set open.

The file is removed on a clean release. Because another process may have
opened the old file just before it was removed, a newly taken lock is only
trusted once the path still names the very file that was locked.

A session also holds a shared claim on the set file itself (a lock on one byte past its
end; each file of a folder set), whatever name it was opened by. That claim is not what keeps two sessions apart (team members review
one set side by side); it lets a command about to replace a file ask whether any
session is reviewing it, under this name, a hard link's or through a symbolic link
(:func:`under_review`), so that ``--force`` never swaps a set out from under its review.

The lock file is rewritten in place, so it is never opened through a symbolic
link (the link's target, the eval set itself for ``ln -s quiz.jsonl
quiz.jsonl.reviewtui-lock``, would be overwritten), and anything but a plain
file with one name is refused. :func:`open_own_file` does the same for the
review journal.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import errno
import fcntl
import os
import socket
import stat
import struct
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from reviewtui.evalset.io.files import named
from reviewtui.evalset.model.errors import EvalSetError, OutputError, SetLocked
from reviewtui.evalset.text.safe import shown

__all__ = [
    "LOCK_SUFFIX", "LockHolder", "ReviewLock", "default_lock_path", "open_own_file", "plausible_timestamp",
    "refuse_unless_plain", "under_review",
]

LOCK_SUFFIX = ".reviewtui-lock"
_ATTEMPTS = 20
_LABEL_CHARS = 80  # a host or reviewer name longer than this is cut when shown
_PID_LIMIT = 2**31  # pids are positive C ints everywhere
#: Timestamps reviewtui accepts from its own files: the epoch to the year 3000. Anything
#: outside is hand-made, and some of it (1e308, -1e20) makes datetime raise.
_LAST_TIMESTAMP = 32_503_680_000.0


def plausible_timestamp(value: object) -> bool:
    """Whether a value read from a file can stand for a moment (a real number datetime can show)."""
    return type(value) in (int, float) and 0 <= value < _LAST_TIMESTAMP  # type: ignore[operator]


def _stamp(timestamp: float) -> str | None:
    """A local date and time, or None for a value datetime cannot represent here."""
    try:
        moment = _dt.datetime.fromtimestamp(timestamp).astimezone()
    except (OverflowError, OSError, ValueError, TypeError):
        return None
    return f"{moment:%Y-%m-%d %H:%M:%S %Z}".rstrip()


def _label(value: object) -> str:
    """A name from a file (host, reviewer) made safe to print on one line; "" for anything but text."""
    if not isinstance(value, str):
        return ""
    return shown(value[: _LABEL_CHARS * 2])[:_LABEL_CHARS]


def default_lock_path(input_path: str | os.PathLike[str]) -> Path:
    path = named(input_path)
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
        return cls.checked(info.get("pid"), info.get("host"), info.get("since"), info.get("reviewer"))

    @classmethod
    def checked(cls, pid: object, host: object, since: object, reviewer: object) -> LockHolder:
        """A holder from values read out of a file: anything of the wrong kind or out of range is
        left out rather than trusted, and names are made safe to print."""
        return cls(
            pid=pid if type(pid) is int and 0 < pid < _PID_LIMIT else None,
            host=_label(host) or "?",
            since=float(since) if plausible_timestamp(since) else None,  # type: ignore[arg-type]
            reviewer=_label(reviewer),
        )

    def describe(self) -> str:
        pid = self.pid
        who = f"pid {pid}" if type(pid) is int else "another process"
        since = self.since
        stamp = _stamp(since) if isinstance(since, (int, float)) else None
        when = f", since {stamp}" if stamp else ""
        by = f" by {self.reviewer}" if self.reviewer else ""
        return f"{who} on {self.host}{by}{when}"


class ReviewLock:
    """An exclusive, crash-safe claim on one input file for one review session."""

    def __init__(self, path: Path, fd: int, recovered: LockHolder | None, claims: list[int] | None = None) -> None:
        self.path = path
        self._fd = fd
        self._claims = claims or []  # the claims on the set file itself, or a folder set's files (see under_review)
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
                fd = open_own_file(path, os.O_RDWR | os.O_CREAT, what="the lock file")
            except OSError as exc:
                raise OutputError(
                    f"cannot create the lock file {path}: {exc.strerror or exc}", path=subject
                ) from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as exc:
                holder = LockHolder.parse(_read_all(fd))
                os.close(fd)
                if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                    raise OutputError(f"cannot lock {path}: {exc.strerror or exc}", path=subject) from None
                who = holder.describe() if holder else "another process"
                # The lock's name alone beside the set; its path when it is elsewhere (a team member's, in the team's folder).
                shown = path.name if _same_folder(path.parent, Path(subject).parent) else str(path)
                raise SetLocked(
                    f"already open for review by {who}; finish or quit that session first (the lock is {shown})",
                    path=subject,
                ) from None
            if not _still_names(path, fd):
                os.close(fd)  # the file was removed by a releasing session: lock the new one
                continue
            if os.fstat(fd).st_nlink != 1:
                os.close(fd)
                raise OutputError(
                    "the lock file has another name (a hard link), so rewriting it would change that "
                    "file too; reviewtui never writes through a link, remove it",
                    path=str(path),
                )
            left_behind = LockHolder.parse(_read_all(fd))
            try:
                _write_holder(fd, reviewer)
            except BaseException:
                os.close(fd)  # not held by a session that never began (the file, emptied or not, is free to take)
                raise
            return cls(path, fd, left_behind, _claim_the_set(subject))
        raise OutputError(f"could not take the lock {path}: it keeps changing", path=subject)

    @staticmethod
    def holder(lock_path: str | os.PathLike[str]) -> LockHolder | None:
        """The live holder of a lock, or None when nobody holds it. Does not take it."""
        path = Path(lock_path)
        try:
            # Never through a link and never a pipe (reading one would wait for ever). A session
            # refuses such a lock, so nobody can be holding it.
            fd = open_own_file(path, os.O_RDONLY, what="the lock file")
        except (OSError, EvalSetError):
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
        claims, self._claims = self._claims, []
        for claim in claims:
            os.close(claim)

    def __enter__(self) -> ReviewLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


#: The claim is a shared lock on one byte far past the end of any set file (``F_OFD_SETLK``, Linux), which nothing
#: but a session locks: a test of it is not confused by other programs' locks on the file (``flock log.txt -c
#: 'reviewtui status quiz.jsonl >> log.txt'`` was refused as a set under review). Where the system has no such
#: locks (macOS), a shared ``flock`` on the file stands in, tried again for an instant when a test holds it.
_CLAIM_AT = 2**62
_FLOCK = struct.Struct("hhqqi4x")  # struct flock on Linux: type, whence, start, length, pid (and its padding)
# (64-bit only: there the struct above is the kernel's; a 32-bit build takes the flock that stands in.)
_OFD = getattr(fcntl, "F_OFD_SETLK", None) is not None and struct.calcsize("P") == 8
_CLAIM_TRIES = 5
_CLAIM_PAUSE = 0.01
#: A set that is a folder (BEIR's queries, corpus and qrels): the files claimed in it, at most this deep and this many.
_FOLDER_DEPTH = 2
_FOLDER_FILES = 64


def _claim_the_set(subject: str) -> list[int]:
    """Claims on the set ``subject`` (followed through links: it is the file that is claimed), as open fds: its file,
    or the files of a folder set (a BEIR set's queries and qrels).

    Empty when there is nothing to claim (a pipe) or it cannot be had: the claim only lets :func:`under_review`
    see the session, so a session never fails for the want of it.
    """
    try:
        mode = os.stat(subject).st_mode
    except OSError:
        return []
    if stat.S_ISDIR(mode):
        claims = []
        for path in _files_in(Path(subject)):
            fd = _claim_one(str(path))
            if fd >= 0:
                claims.append(fd)
        return claims
    if not stat.S_ISREG(mode):
        return []
    fd = _claim_one(subject)
    return [fd] if fd >= 0 else []


#: The files a BEIR set is read from, claimed first: seventy notes beside them took the whole quota, and the
#: queries under review could be replaced.
_BEIR_PARTS = ("queries", "corpus", "qrels")


def _files_in(folder: Path) -> list[Path]:
    found: list[tuple[bool, Path]] = []  # (not a BEIR part, path)
    others = 0
    walking = [(folder, 0, False)]
    while walking:
        where, depth, beir = walking.pop()
        try:
            entries = sorted(os.scandir(where), key=lambda entry: entry.name)
        except OSError:
            continue
        for entry in entries:
            part = beir or entry.name.startswith(_BEIR_PARTS)
            try:
                if entry.is_file(follow_symlinks=False):
                    if not part:
                        if others >= _FOLDER_FILES:
                            continue  # enough of the other files to fill the quota
                        others += 1
                    found.append((not part, Path(entry.path)))
                elif entry.is_dir(follow_symlinks=False) and depth + 1 < _FOLDER_DEPTH:
                    walking.append((Path(entry.path), depth + 1, part))
            except OSError:
                continue
    found.sort(key=lambda entry: entry[0])  # stable: the BEIR parts first, each group in the order found
    return [path for _, path in found[:_FOLDER_FILES]]


def _claim_one(path: str) -> int:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return -1
    try:
        if _OFD:
            fcntl.fcntl(fd, fcntl.F_OFD_SETLK, _FLOCK.pack(fcntl.F_RDLCK, os.SEEK_SET, _CLAIM_AT, 1, 0))
            return fd
        for attempt in range(_CLAIM_TRIES):
            try:
                fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
                return fd
            except OSError as exc:
                if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN):
                    break
            if attempt + 1 < _CLAIM_TRIES:
                time.sleep(_CLAIM_PAUSE)  # a command testing whether the file is under review holds it for an instant
    except OSError:
        pass
    os.close(fd)
    return -1


def under_review(path: str | os.PathLike[str]) -> bool:
    """Whether a review session has the regular file at ``path`` open, by this name or any other.

    The test is on the file itself (see :func:`_claim_the_set`), so a set opened by a hard link's
    name, or by a symbolic link, counts. Not following a link at ``path``: an output there is
    refused for being a link.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOFOLLOW)
    except OSError:
        return False  # not there, or not readable: nothing this process can tell
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        if _OFD:
            try:
                found = fcntl.fcntl(fd, fcntl.F_OFD_GETLK, _FLOCK.pack(fcntl.F_WRLCK, os.SEEK_SET, _CLAIM_AT, 1, 0))
            except OSError:
                return False  # a file system without such locks: no session can have claimed it either
            kind, _, start, length, _ = _FLOCK.unpack(found)
            if kind == fcntl.F_UNLCK:
                return False
            # A lock on the claim's own byte is a session's. One over the whole file is another program's, and hides
            # any claim behind it (the system names one lock only): then the session's lock file beside the set, as
            # a session opened by this name leaves it, is asked instead.
            if start == _CLAIM_AT and length == 1:
                return True
            return any(ReviewLock.holder(default_lock_path(name)) is not None for name in (path, os.path.realpath(path)))
        for attempt in range(_CLAIM_TRIES):
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return False  # (closing the file lets go at once)
            except OSError as exc:
                if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN):
                    return False
            if attempt + 1 < _CLAIM_TRIES:
                time.sleep(_CLAIM_PAUSE)  # another command making the same test holds it for an instant
        return True
    finally:
        os.close(fd)


def open_own_file(path: Path, flags: int, *, what: str, mode: int = 0o644) -> int:
    """Open one of reviewtui's own files (a lock, a journal) as a plain file, never through a link.

    Raises EvalSetError naming ``path`` when it is a symbolic link or not a regular file
    (a pipe, a device, a folder); ``what`` names the file in that message. Other
    failures (missing, no permission) raise the OSError for the caller to word.
    """
    try:
        found = os.lstat(path)
    except FileNotFoundError:
        if not flags & os.O_CREAT:
            raise
    else:
        # Refused before opening: opening a pipe or a device can wait or act on it.
        _require_plain(path, found.st_mode, what)
    try:
        # O_NOFOLLOW: a link put in place after the look above fails here instead of being
        # followed. O_NONBLOCK: a pipe swapped in meanwhile cannot hang the open (regular
        # files ignore the flag, so later reads and writes are not affected).
        fd = os.open(path, flags | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, mode)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.EMLINK) and os.path.islink(path):
            _require_plain(path, stat.S_IFLNK, what)
        raise
    try:
        _require_plain(path, os.fstat(fd).st_mode, what)
    except BaseException:
        os.close(fd)
        raise
    return fd


_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
)


def refuse_unless_plain(path: Path, what: str) -> None:
    """Refuse ``path`` (OutputError naming it) when something other than a regular file is there: a link, a pipe, a
    device, a folder; nothing there is no refusal. For a file about to be replaced whole, which never writes into one."""
    try:
        found = os.lstat(path)
    except FileNotFoundError:
        return
    _require_plain(path, found.st_mode, what)


def _require_plain(path: Path, mode: int, what: str) -> None:
    if stat.S_ISREG(mode):
        return
    if stat.S_ISLNK(mode):
        raise OutputError(
            f"{what} is a symbolic link; reviewtui never writes through a link, remove it", path=str(path)
        )
    kind = next((name for test, name in _KINDS if test(mode)), "an unusual kind of file")
    # A device is the system's (/dev/null): removing it is never the advice.
    way_out = "give another path" if kind == "a device" else "move it away or give another path"
    raise OutputError(
        f"{what} is {kind}, not a regular file; reviewtui only uses plain files of its own: {way_out}",
        path=str(path),
    )


def _still_names(path: Path, fd: int) -> bool:
    """Whether ``path`` itself (not a link's target) is the file open as ``fd``."""
    try:
        on_disk = os.lstat(path)
    except FileNotFoundError:
        return False
    mine = os.fstat(fd)
    return (on_disk.st_dev, on_disk.st_ino) == (mine.st_dev, mine.st_ino)


def _read_all(fd: int) -> bytes:
    try:
        return os.pread(fd, 4096, 0)
    except OSError:
        return b""


def _same_folder(one: Path, other: Path) -> bool:
    """Whether two folders are one, however named (``quiz.jsonl`` given as a relative path named its lock in full)."""
    try:
        return one == other or os.path.samefile(one, other)
    except OSError:
        return False


def _write_holder(fd: int, reviewer: str) -> None:
    info = {
        "pid": os.getpid(),
        "host": socket.gethostname(),
        "since": _dt.datetime.now().timestamp(),
        "reviewer": reviewer,
    }
    written = orjson.dumps(info)  # before the file is emptied: a name orjson cannot write leaves it as it was
    with contextlib.suppress(OSError):
        os.ftruncate(fd, 0)
        os.pwrite(fd, written, 0)

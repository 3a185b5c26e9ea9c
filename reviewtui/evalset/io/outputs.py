"""The one rule for where a command may write.

Never over the set it reads, its review journal or its lock (compared by resolved
path and by device and inode, so ``./`` and hard links do not get round it), never
over a file of an input that is a folder (a BEIR set's queries, corpus and qrels; a
corpus of documents) or over another file the command reads (a corpus file), never
over an existing file without ``force``, never over a set a review session has open (by any
name), never through a symbolic link, and never
into a folder; a pipe or a device is written to, not replaced.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path

from reviewtui.evalset.io.files import (
    abandoned_claim,
    claim_text,
    is_device,
    is_stdout,
    refuse_no_folder,
    remove_stale_temps,
    write_all,
)
from reviewtui.evalset.io.journal import JOURNAL_SUFFIX, default_journal_path, is_journal_file
from reviewtui.evalset.io.lock import LOCK_SUFFIX, ReviewLock, default_lock_path, under_review
from reviewtui.evalset.io.names import PLAN_NAME, TEAM_SUFFIX, named
from reviewtui.evalset.model.errors import OutputError

__all__ = ["check_output", "claimed_output", "free_output", "names_a_folder", "output_problem", "stdout_problem", "stream_problem"]


def _is_team_plan(target: Path) -> bool:
    """Whether ``target`` (named plan.json) is a team's plan: one that exists in a folder named ``*.reviews``, or
    the place of one beside the set the folder is named after (``quiz.jsonl.reviews`` beside ``quiz.jsonl``;
    a split's folder ``scifact.train.reviews`` beside ``scifact``). A plan.json in a folder of the user's own
    that merely ends in .reviews is any file."""
    folder = named(target).resolve().parent
    if not folder.name.endswith(TEAM_SUFFIX):
        return False
    if target.exists():
        return True
    stem = folder.name.removesuffix(TEAM_SUFFIX)
    candidates = {stem, stem.rsplit(".", 1)[0]}  # the set, or the set a split's tag was added to
    return any((folder.parent / name).exists() for name in candidates if name)


def _same_file(a: Path, b: Path) -> bool:
    """Whether two paths name one file: the same resolved path, or the same (device, inode)."""
    try:
        if os.path.realpath(a) == os.path.realpath(b):
            return True
        first, second = os.stat(a), os.stat(b)
    except (OSError, ValueError):
        return False
    return (first.st_dev, first.st_ino) == (second.st_dev, second.st_ino)


def _review_files(input_path: Path, journal_path: Path | None) -> list[tuple[Path, str]]:
    """The files an output must never be: the input, its journal and its lock, each with what it is."""

    name = input_path.name
    real = Path(os.path.realpath(input_path))
    files = [(input_path, "the input set itself")]
    journals = [default_journal_path(input_path), default_journal_path(real)]
    locks = [default_lock_path(input_path), default_lock_path(real)]
    if journal_path is not None:
        journals.append(journal_path)
        locks.append(journal_path.with_name(real.name + LOCK_SUFFIX))  # where the lock goes in a read-only folder
    files += [(journal, f"the review journal of {name}") for journal in journals]
    files += [(lock, f"the review lock of {name}") for lock in locks]
    return files


def _inside(target: Path, folder: Path) -> bool:
    """Whether ``target`` (its folder's links followed, not its own) is somewhere inside ``folder``."""
    try:
        where = Path(os.path.realpath(target.parent)) / target.name
        return Path(os.path.realpath(folder)) in where.parents
    except (OSError, ValueError):
        return False


def _input_problem(target: Path, source: Path) -> str | None:
    """Why ``target`` may not be written over, being ``source`` (something the command reads) or a
    file inside it; None if it is neither."""
    if _same_file(target, source):
        return "is a file this command reads; reviewtui never writes over its input (name another output file)"
    # A corpus folder: its documents are never written over, and nothing new goes in: a report written
    # there as .md or .txt was read as a document by the next command that read the folder.
    if os.path.isdir(source) and _inside(target, source):
        if os.path.lexists(target):
            return f"is a file of the folder {source}, which this command reads; reviewtui never writes over it (name another output file)"
        return (
            f"is inside the folder {source}, which this command reads as documents; "
            "a new file there could be read as one (name a file outside it)"
        )
    if os.path.isdir(source) and _linked_from(source, target):
        return (
            f"is a document of the folder {source} (a symbolic link there leads to it), which this command reads; "
            "reviewtui never writes over it (name another output file)"
        )
    return None


def _linked_from(folder: Path, target: Path) -> bool:
    """Whether a symbolic link inside ``folder`` leads to the existing file ``target``: the corpus reads the file it
    leads to as one of its documents, and `resolve -o that-file --force` replaced it."""
    try:
        wanted = os.stat(target)
    except OSError:
        return False
    if not stat.S_ISREG(wanted.st_mode):
        return False
    folders = [os.fspath(folder)]
    while folders:
        try:
            entries = list(os.scandir(folders.pop()))
        except OSError:
            continue
        for entry in entries:
            if entry.name.startswith("."):
                continue  # hidden: the corpus reads no hidden file or folder
            try:
                if entry.is_symlink():
                    found = os.stat(entry.path)
                    if (found.st_dev, found.st_ino) == (wanted.st_dev, wanted.st_ino):
                        return True
                elif entry.is_dir(follow_symlinks=False):
                    folders.append(entry.path)
            except OSError:
                continue
    return False


def _in_input_folder(target: Path, source: Path) -> str | None:
    # A new file counts too: a corpus.jsonl or a qrels file written into a BEIR folder changes what reading it gives.
    if os.path.isdir(source) and _inside(target, source):
        what = "a file of" if os.path.lexists(target) else "inside"
        return f"is {what} the input folder {source}; reviewtui never writes into its input (name a file outside it)"
    return None


def names_a_folder(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` as typed ends in a slash (or "/.", "/.."): it names a folder, not a file. ``Path()`` drops
    what tells so: "reports/" was written as a file named "reports", "keep.jsonl/." replaced keep.jsonl."""
    named_as_given = os.fspath(path)
    return isinstance(named_as_given, str) and os.path.basename(named_as_given) in ("", ".", "..")


def output_problem(
    path: str | os.PathLike[str],
    *,
    input_path: str | os.PathLike[str] | None = None,
    journal_path: str | os.PathLike[str] | None = None,
    force: bool = False,
    reads: Sequence[str | os.PathLike[str]] = (),
) -> str | None:
    """Why ``path`` may not be written as an output, or None when it may.

    Never, even with ``force``: the input set, its review journal or its lock
    (compared by resolved path and by device and inode, so another name or a
    hard link of them is caught too), any file named like a journal or a lock,
    a set a review session has open (by any name: see :func:`~reviewtui.evalset.io.lock.under_review`),
    a symbolic link (except one to a pipe or a device, such as ``/dev/stdout``),
    a folder, a file that begins as a review journal (one kept under a name of its own),
    any file inside the input when the input is a folder (a new one too), and any of ``reads``
    (the other files or folders the command reads, such as a corpus), or any file inside one.
    Without ``force``: an existing regular file. A pipe, a character
    device and ``-`` (standard output) are always fine: writing to them replaces
    nothing.
    """

    if is_stdout(path):
        return stdout_problem(input_path, journal_path, reads)
    if names_a_folder(path):
        return "ends in a slash, so it names a folder; name the file to write (for example in that folder)"
    target = Path(path)
    if input_path is not None:
        problem = _in_input_folder(target, Path(input_path))
        if problem is not None:
            return problem
        for protected, what in _review_files(Path(input_path), Path(journal_path) if journal_path else None):
            if _same_file(target, protected):
                return f"is {what}; reviewtui never writes over it (name another output file)"
    for other in reads:
        problem = _input_problem(target, Path(other))
        if problem is not None:
            return problem
    if target.name.endswith((JOURNAL_SUFFIX, LOCK_SUFFIX)):
        return "is named like a review journal or lock; reviewtui never writes one as an output"
    if target.name == PLAN_NAME and _is_team_plan(target):
        return "is a team's plan (reviewtui assign writes it); reviewtui never writes over it as an output"
    try:
        st = os.lstat(target)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"cannot write: {exc.strerror or exc}"
    if stat.S_ISLNK(st.st_mode):
        try:
            followed = os.stat(target).st_mode
        except OSError:
            followed = 0
        if is_device(followed):
            return None
        return "is a symbolic link; reviewtui does not write through links (name the file itself, or a new one)"
    if stat.S_ISDIR(st.st_mode):
        return "is a folder, not a file"
    if is_device(st.st_mode):
        return None
    if not stat.S_ISREG(st.st_mode):
        return "is neither a regular file nor a pipe or a character device"
    if is_journal_file(target):
        return "is a review journal (its first record says so); reviewtui never writes over one, --force or not"
    if under_review(target):
        # Replaced, the set would change under the session reviewing it, whose journal then names items of another file.
        holder = ReviewLock.holder(default_lock_path(target))
        by = f" by {holder.describe()}" if holder is not None else " in another session (by this name or another)"
        return (
            f"is open for review{by}; reviewtui never replaces a set while it is reviewed, --force or not: "
            "finish or quit that review first, or name another file"
        )
    if not force:
        return "already exists; pass --force to replace it, or name another file"
    return None


def stdout_problem(
    input_path: str | os.PathLike[str] | None,
    journal_path: str | os.PathLike[str] | None,
    reads: Sequence[str | os.PathLike[str]],
) -> str | None:
    """Why standard output may not be written: it is redirected into the input, its journal or lock, or a
    file the command reads (``-o - >> x.jsonl.reviewtui-journal`` appended a set to the journal, and no
    command could read it again), compared by device and inode as the named outputs are; or, where the
    system names the file (Linux), into any file a named output may not be (:func:`output_problem`): a
    team's journals and plan, a split's journal, the files of an input folder. Inside a folder the command
    reads, a file that holds something is refused (``>> corpus/doc.txt`` appended to a document); an empty
    one is the new file the shell made for ``>``, before any command could say no, and is not."""
    return stream_problem(1, input_path, journal_path, reads)


def stream_problem(
    fd: int,
    input_path: str | os.PathLike[str] | None,
    journal_path: str | os.PathLike[str] | None,
    reads: Sequence[str | os.PathLike[str]],
) -> str | None:
    """:func:`stdout_problem` for the stream ``fd``: standard error (2) too, where every message goes and where the
    app draws its screen (``2>> x.jsonl`` wrote a refusal, or the screen, into the set)."""
    label = "standard output" if fd == 1 else "standard error" if fd == 2 else f"file descriptor {fd}"
    try:
        out = os.fstat(fd)
    except OSError:  # closed: the command says so when it writes
        return None
    if not stat.S_ISREG(out.st_mode):
        return None
    protected: list[tuple[str | os.PathLike[str], str]] = []
    if input_path is not None:
        protected += _review_files(Path(input_path), Path(journal_path) if journal_path else None)
    protected += [(other, "a file this command reads") for other in reads]
    for file, what in protected:
        try:
            found = os.stat(file)
        except (OSError, ValueError):
            continue
        if (found.st_dev, found.st_ino) == (out.st_dev, out.st_ino):
            return f"{label} goes into {what}; reviewtui never writes into it (send {label} elsewhere)"
    try:  # where standard output goes, by name: Linux says so; elsewhere only the files above are known
        where = Path(os.readlink(f"/proc/self/fd/{fd}"))
    except OSError:
        return None
    if not where.is_absolute():  # "pipe:[…]" and the like: nothing on disk
        return None
    # Every rule a named output is held to (a team's journals and plan, a journal under any name, a split's
    # journal, the files of an input folder, a folder the command reads), --force or not. An empty file in a
    # folder the command reads is the new one the shell made for `>` before any command could say no.
    # A corpus folder is the one exception, as the README says: an input folder gains no file either way (a
    # new `qrels/x.tsv` is a new split of the set).
    folder_reads = () if out.st_size == 0 else reads
    problem = output_problem(where, input_path=input_path, journal_path=journal_path, force=True, reads=folder_reads)
    if problem is None:
        return None
    return f"{label} goes into {where}, which {problem}"


def check_output(
    path: str | os.PathLike[str],
    *,
    input_path: str | os.PathLike[str] | None = None,
    journal_path: str | os.PathLike[str] | None = None,
    force: bool = False,
    reads: Sequence[str | os.PathLike[str]] = (),
) -> Path:
    """``path`` as a Path when it may be written (see :func:`output_problem`); else an EvalSetError naming it."""
    problem = output_problem(path, input_path=input_path, journal_path=journal_path, force=force, reads=reads)
    if problem is not None:
        raise OutputError(problem, path=os.fspath(path))
    return Path(path)


def refuse_output_beside(input_path: str | os.PathLike[str]) -> None:
    """Refuse to name an output after an input that can be read only once (a pipe, a device):
    beside ``/dev/stdin`` is ``/dev``, and beside a named pipe, a file nothing will look for.

    Commands call it before reading, so that the set is not read only to be refused.
    """
    refuse_no_folder(
        input_path,
        "there is no set file to write the next version beside: name the output (-o PATH, or -o - for standard output)",
        OutputError,
    )


def _held_by_other_than_a_file(path: Path) -> bool:
    try:
        return not stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:  # not there, or not to be looked at (no permission, too long): output_problem says which
        return False


def free_output(
    name_for: Callable[[int], Path],
    first: int,
    *,
    input_path: str | os.PathLike[str] | None = None,
    journal_path: str | os.PathLike[str] | None = None,
    siblings: Callable[[int], Iterable[Path]] | None = None,
) -> tuple[Path, int]:
    """The first ``(name_for(n), n)`` from ``n = first`` on that may be written.

    ``siblings``: the other names number ``n`` goes by (``quiz.v2.csv`` beside ``quiz.v2.jsonl``); a number one of
    them is taken by is passed over, or an export as CSV after one as JSONL made a second, different version 2.

    Default output names never replace a file, ``--force`` or not: when ``quiz.v2.jsonl`` is
    there, the next version's name is taken, since an earlier export is never replaced (``--force``
    replaces only a file the user names). A name held by anything but a regular file (a pipe, a
    device, a link) is passed over too: a name the command chose is for a new file, and writing to
    a pipe there would wait for a reader that never comes (a device would take the set away).
    """
    if input_path is not None:
        refuse_output_beside(input_path)
    for number in range(first, first + 10_000):
        candidate = name_for(number)
        if _held_by_other_than_a_file(candidate):
            continue
        if siblings is not None and any(os.path.lexists(other) for other in siblings(number)):
            continue
        if abandoned_claim(candidate):
            # A write killed outright (kill -9) left its claim, which says so, and perhaps a temporary file:
            # that one is removed, the claim is passed over (another command may be looking at it too).
            remove_stale_temps(candidate.parent, candidate.name)
            continue
        if output_problem(candidate, input_path=input_path, journal_path=journal_path) is None:
            return candidate, number
    raise OutputError(f"no free name from {name_for(first).name} on", path=str(name_for(first).parent))


@contextlib.contextmanager
def claimed_output(
    name_for: Callable[[int], Path],
    first: int,
    *,
    input_path: str | os.PathLike[str] | None = None,
    journal_path: str | os.PathLike[str] | None = None,
    siblings: Callable[[int], Iterable[Path]] | None = None,
) -> Iterator[tuple[Path, int]]:
    """:func:`free_output` (``siblings`` as it takes them), with the name taken for this process until the block
    has written it.

    Two commands run at once (an ``export`` and a ``filter`` of one set) found the same free name,
    and the second rename replaced the first one's file. Here the name is claimed by creating a file
    there exclusively (saying which process took the name: an empty one would read as a set of no
    questions), so the other command moves on to the next name; the block's write then renames the
    finished file over it. Should the block fail, the claim is removed again (if it is still the one
    made here). A claim whose process was killed outright is passed over, and its write's temporary
    file removed (see free_output).
    """
    number = first
    while True:
        target, number = free_output(name_for, number, input_path=input_path, journal_path=journal_path, siblings=siblings)
        try:
            fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o666)
        except FileExistsError:  # taken since free_output looked: the next one
            number += 1
            continue
        except OSError:
            yield target, number  # the write will say why it cannot be made (a read-only folder, ...)
            return
        claim = claim_text()
        made: os.stat_result | None = None
        try:
            try:
                made = os.fstat(fd)
                write_all(fd, claim)  # not an empty file, which would read as a set of no questions
            finally:
                os.close(fd)
        except OSError:
            # A full disk: not even the claim's line fits. The file made a moment ago goes again, or it stayed
            # as an empty "next version" and the error named no file; the write says why it cannot be made.
            _remove_claim(target, made, None)
            yield target, number
            return
        try:
            yield target, number
        except BaseException:
            _remove_claim(target, made, claim)
            raise
        return


def _remove_claim(target: Path, made: os.stat_result | None, claim: bytes | None) -> None:
    """Remove the claim made at ``target`` if it is still that file (``made``) holding just ``claim``
    (None: whatever part of it was written)."""
    with contextlib.suppress(OSError):
        now = os.lstat(target)
        if made is None or (now.st_dev, now.st_ino) != (made.st_dev, made.st_ino):
            return
        if claim is None or target.read_bytes() == claim:
            os.unlink(target)

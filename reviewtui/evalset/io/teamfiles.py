"""The files of a team's folder (``quiz.jsonl.reviews/``): the plan and the reviewers' journals found there.

What the plan says and who reviews which item is :mod:`reviewtui.evalset.review.team`; this module only
reads and writes, so that every file touch stays in ``io/``.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

from reviewtui.evalset.io.files import atomic_write
from reviewtui.evalset.io.journal import JOURNAL_SUFFIX
from reviewtui.evalset.io.lock import open_own_file, refuse_unless_plain
from reviewtui.evalset.io.names import PLAN_NAME, TEAM_SUFFIX
from reviewtui.evalset.model.errors import InputError, OutputError

__all__ = [
    "journal_names",
    "journal_owner",
    "other_team_folders",
    "read_plan",
    "refuse_a_linked_team_folder",
    "write_plan",
]

#: Team folders and journals looked at beside a set for :func:`other_team_folders`: a handful is all a folder holds.
_LOOKED_AT = 20


def journal_names(folder: Path) -> frozenset[str]:
    """The reviewers whose journals are in a team's folder: names already in use, whatever rules they were made under."""
    try:
        return frozenset(path.name.removesuffix(JOURNAL_SUFFIX) for path in folder.iterdir() if path.name.endswith(JOURNAL_SUFFIX))
    except OSError:  # no folder yet
        return frozenset()


def other_team_folders(input_path: str | os.PathLike[str], set_id: str) -> list[Path]:
    """Team folders beside ``input_path`` made for another file name whose journals review set ``set_id``: the folder
    of a set renamed since (its team's folder keeps the old name). Only each journal's first line is read."""
    from reviewtui.evalset.io.journal import decode_line

    path = Path(input_path)
    own = path.name + TEAM_SUFFIX
    found: list[Path] = []
    try:
        folders = sorted(p for p in path.parent.iterdir() if p.name.endswith(TEAM_SUFFIX) and p.name != own)[:_LOOKED_AT]
    except OSError:
        return found
    for folder in folders:
        try:
            if not (folder / PLAN_NAME).is_file():
                continue
            journals = sorted(p for p in folder.iterdir() if p.name.endswith(JOURNAL_SUFFIX))[:_LOOKED_AT]
        except OSError:
            continue
        for journal in journals:
            try:
                with journal.open("rb") as handle:
                    first = decode_line(handle.readline(1 << 16).rstrip(b"\n"))
            except OSError:
                continue
            if first is not None and first.get("op") == "start" and first.get("set") == set_id:
                found.append(folder)
                break
    return found


def journal_owner(folder: Path, journal: Path) -> str | None:
    """Whose journal of the team's ``folder`` ``journal`` is: by where it leads (a link is followed to its file), or by
    being the same file (a hard link elsewhere); None when it is none of them."""
    try:
        target = journal.resolve()
        team_folder = folder.resolve()
    except (OSError, RuntimeError):
        return None
    if target.parent == team_folder and target.name.endswith(JOURNAL_SUFFIX):
        return target.name[: -len(JOURNAL_SUFFIX)]
    try:
        found = os.stat(target)
        members = list(folder.iterdir())
    except OSError:
        return None
    for member in members:
        if not member.name.endswith(JOURNAL_SUFFIX):
            continue
        try:
            mine = os.lstat(member)  # a link in the folder is no journal of it (and one that leads nowhere, no error)
        except OSError:
            continue
        if stat.S_ISREG(mine.st_mode) and (mine.st_dev, mine.st_ino) == (found.st_dev, found.st_ino):
            return member.name[: -len(JOURNAL_SUFFIX)]
    return None


def refuse_a_linked_team_folder(folder: Path) -> None:
    """Refuse to write in a team's folder that is a symbolic link (mkdir and the journal's own no-link open
    both take a link to a folder for the folder): the plan and the journals would land in its target."""
    if folder.is_symlink():
        raise OutputError(
            "the team's folder is a symbolic link; reviewtui never writes through a link: remove the link "
            "(the plan and every reviewer's journal are written in this folder)",
            path=str(folder),
        )


def write_plan(plan_path: Path, data: bytes) -> Path:
    """Write a team's plan, making its folder if need be; OutputError naming the file when it cannot be written."""
    folder = plan_path.parent
    refuse_a_linked_team_folder(folder)
    # A pipe or a device under the plan's name (or a link to one) took the plan and kept nothing: a pipe held the
    # command waiting for a reader, and a link to /dev/null said the plan was written.
    refuse_unless_plain(plan_path, "the team's plan")
    made = False
    try:
        try:
            folder.mkdir()
            made = True
        except FileExistsError:
            pass
        return atomic_write(plan_path, data)
    except OSError as exc:
        # A full disk or a read-only folder said "reviewtui: No space left on device", naming no file; a
        # folder made here for the plan goes again, so the set does not look as if it had a team.
        if made:
            with contextlib.suppress(OSError):
                folder.rmdir()
        raise OutputError(f"cannot write the team's plan: {exc.strerror or exc}", path=str(plan_path)) from None


def _read_plain(plan_path: Path) -> bytes:
    """The bytes of the plan file, opened as reviewtui opens its own files (see ``open_own_file``): a named pipe under
    the plan's name held every command that reads the plan waiting for a writer for good, and a link to a device
    (``/dev/zero``) was read until memory ran out."""
    fd = open_own_file(plan_path, os.O_RDONLY, what="the team's plan")
    with os.fdopen(fd, "rb") as handle:
        return handle.read()


def read_plan(plan_path: Path, input_path: str | os.PathLike[str], split: str | None = None) -> bytes | None:
    """The plan's bytes, or None when the set has none (one reviewer, the single journal).

    Raises InputError for a set that is not there, or a split that names no qrels file: "no team plan"
    would send its reader looking for one.
    """
    try:
        return _read_plain(plan_path)
    except FileNotFoundError:
        if not os.path.lexists(input_path):
            raise InputError("no such file", path=os.fspath(input_path)) from None
        if split is not None:
            # A split that names no qrels file has no plan either; that is what is wrong, not the plan.
            from reviewtui.evalset.io.beir import beir_folder_files
            from reviewtui.evalset.io.sniff import refuse_split

            if not os.path.isdir(input_path):
                refuse_split(input_path)
            beir_folder_files(input_path, split)
        return None
    except NotADirectoryError:
        # A file where the team's folder goes: "<folder>/plan.json: ... (Not a directory)" named a path that is not there.
        raise InputError(
            "is a file, where reviewtui keeps a team's plan and journals in a folder of this name; move or rename it",
            path=str(plan_path.parent),
        ) from None
    except OSError as exc:
        raise InputError(f"cannot read the team plan ({exc.strerror or exc})", path=str(plan_path)) from None

r"""Where a corpus's documents are, and writing documents out as a corpus folder, one text file per document id.

A corpus is a folder of documents, or a BEIR ``corpus.jsonl`` (named itself, or
found in the BEIR folder that holds it beside ``queries.jsonl``): see
:func:`beir_corpus_file`.

Converted sets (SQuAD paragraphs, Natural Questions pages, HotpotQA paragraphs)
carry their source documents inside the file; written out like this, they open
with ``--corpus`` and every quote shows in its context. A document id becomes a
path relative to the folder, with ``.txt`` added unless it already ends in ``.txt``
or ``.md``; the corpus finds it again under the bare id (see
:mod:`reviewtui.evalset.evidence.corpus`). With ``flat=True`` an id is one file
name whatever it holds: ``/`` is written as ``%2F`` and ``\`` as ``%5C``, which
the corpus reads back as the same id, so that a title such as ``ISS A/S`` is not
taken for a folder. A name part starting with a dot (a Wikipedia title such as
``.sj``) is written with the dot as ``%2E``, since the corpus skips hidden files
and reads ``%2E`` as a dot; so is a character no screen shows as itself (an escape
sequence in a title) or a line break, %-escaped, so that a listing of the folder is
safe. An id that would land outside the folder or collide with another is refused
and reported, never written somewhere else.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import unicodedata
from collections.abc import Callable, Collection, Mapping
from pathlib import Path, PurePosixPath
from urllib.parse import quote, unquote

from reviewtui.evalset.io.beir import refuse_unplain_part
from reviewtui.evalset.io.files import atomic_write, read_once_kind
from reviewtui.evalset.model.errors import InputError
from reviewtui.evalset.text.safe import UNSAFE

__all__ = ["beir_corpus_file", "canonical_name", "corpus_folder", "list_documents", "read_document", "write_corpus"]


def corpus_folder(root: str | os.PathLike[str]) -> Path:
    """``root`` as a Path when it is a folder; else an InputError saying what it is."""
    folder = Path(root)
    if not folder.exists():
        raise InputError("corpus folder not found", path=str(folder))
    if not folder.is_dir():
        what = "is a file" if folder.is_file() else f"is {read_once_kind(folder) or 'not a folder'}"
        raise InputError(f"{what}; a corpus is a folder of documents or a BEIR corpus.jsonl", path=str(folder))
    return folder


def beir_corpus_file(root: str | os.PathLike[str]) -> Path | None:
    """The BEIR ``corpus.jsonl`` that ``root`` names, or None when ``root`` is to be read as a folder of documents.

    A ``.jsonl`` file is taken as a BEIR corpus. A folder is, when it holds
    ``corpus.jsonl`` beside ``queries.jsonl`` (a BEIR set with its corpus): both
    are asked for, so that a folder of documents that happens to hold a file
    named corpus.jsonl is still read as documents. A BEIR set without its corpus
    (queries and qrels only, as BEIR sets are often shared) is an InputError: read
    as a folder of documents it would be an empty corpus, and every lookup would
    fail without saying why. A ``corpus.jsonl`` there that is not a plain file (a
    named pipe, a device, a folder) is an InputError saying what it is.
    """
    path = Path(root)
    if path.is_file() and path.suffix.lower() == ".jsonl":
        return path
    if path.is_dir() and (path / "queries.jsonl").is_file():
        documents = path / "corpus.jsonl"
        if documents.is_file():
            return documents
        if os.path.lexists(documents):
            # A pipe, a device or a folder under that name is there, not missing: said as the set's other files say it.
            refuse_unplain_part(documents, path)
        if (path / "qrels").is_dir():
            raise InputError("is a BEIR set without its corpus.jsonl, so it holds no documents", path=str(path))
    return None


def list_documents(folder: Path, extensions: Collection[str]) -> dict[str, Path]:
    """Every document under ``folder`` by id (its path below the folder, ``/``-separated), in a stable order.

    Hidden files and folders are left out, and so are files whose extension is not
    in ``extensions`` (lower-case, with the dot).
    """
    found: dict[str, Path] = {}
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        rel_dir = os.path.relpath(dirpath, folder)
        for name in sorted(filenames):
            if name.startswith(".") or os.path.splitext(name)[1].lower() not in extensions:
                continue
            doc_id = name if rel_dir == "." else f"{Path(rel_dir).as_posix()}/{name}"
            found[doc_id] = Path(dirpath, name)
    return found


def read_document(path: Path) -> bytes:
    """The bytes of one document (OSError is the caller's to report against the document's id).

    Only a regular file is read. A named pipe in a corpus folder stopped ``audit`` and ``resolve``
    for good, waiting for a writer; it is opened without waiting and refused, as a device is.
    """
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = "a folder" if stat.S_ISDIR(mode) else read_once_kind(path) or "not a regular file"
            raise OSError(errno.EINVAL, f"is {kind}, not a document file")
        with os.fdopen(fd, "rb") as handle:
            fd = -1  # the handle closes it
            return handle.read()
    finally:
        if fd >= 0:
            os.close(fd)


def canonical_name(name: str) -> str:
    """The form under which a corpus treats two spellings of a file name as one: %-escapes decoded,
    ``/`` separators, no leading ``./``, NFC. Writing and reading a corpus must agree on it."""
    # Decoded first, so that %2F and %5C (how a flat corpus writes a slash and a backslash) separate as those do.
    name = unquote(name).replace("\\", "/")
    while name.startswith("./"):
        name = name[2:]
    return unicodedata.normalize("NFC", name.strip("/"))

_KEPT_SUFFIXES = (".txt", ".md")
#: What a file name written here never holds as itself: what no screen shows as itself, and line breaks.
_UNSHOWN_IN_NAMES = re.compile(f"\n|{UNSAFE.pattern}")


def write_corpus(
    texts: Mapping[str, str],
    folder: str | os.PathLike[str],
    *,
    flat: bool = False,
    refuse: Callable[[Path], str | None] | None = None,
) -> tuple[int, dict[str, str]]:
    """Write each text to ``folder``; returns how many were written and ``{refused id: why}``.

    ``flat=True`` writes every id as one file directly in ``folder`` (for ids that are
    titles, not paths); otherwise ``/`` in an id makes a subfolder. ``refuse(path)`` says why a
    document's file may not be written there (it is the set being converted, say), or None.
    """
    root = Path(folder)
    real_root = root.resolve()
    written = 0
    refused: dict[str, str] = {}
    # Two ids whose files the corpus (or a case-insensitive file system) would take for one: the first wins.
    taken: dict[str, str] = {}
    for doc_id, text in texts.items():
        try:
            relative = _relative_path(doc_id, flat=flat)
        except ValueError as exc:
            refused[doc_id] = str(exc)
            continue
        key = canonical_name(str(relative)).casefold()
        if key in taken:
            refused[doc_id] = (
                f"its file would be the one written for {taken[key]!r}, so looking it up in the corpus finds that document"
            )
            continue
        target = root / relative
        if not target.parent.resolve().is_relative_to(real_root):  # a symbolic link inside the folder points out
            refused[doc_id] = "its folder is a link to somewhere outside the corpus folder"
            continue
        why = refuse(target) if refuse is not None else None
        if why is not None:
            refused[doc_id] = f"its file {target.name} {why}"
            continue
        try:
            atomic_write(target, text.encode("utf-8"))
        except UnicodeEncodeError:
            refused[doc_id] = "the text holds characters that cannot be written as UTF-8 (lone surrogates)"
            continue
        except OSError as exc:
            refused[doc_id] = exc.strerror or str(exc)
            continue
        taken[key] = doc_id
        written += 1
    return written, refused


def _relative_path(doc_id: str, *, flat: bool = False) -> PurePosixPath:
    """The file for ``doc_id`` under the folder; ValueError saying why when it cannot have one."""
    if not doc_id.strip() or "\x00" in doc_id:
        raise ValueError("an empty id (or one with a NUL character) cannot be a file name")
    if flat:
        # Escaped rather than split: the corpus decodes %2F and %5C, so the id finds this one file again.
        # No separator is left, so the name can neither make a folder nor climb out of this one.
        parts: tuple[str, ...] = (doc_id.replace("/", "%2F").replace("\\", "%5C"),)
    else:
        path = PurePosixPath(doc_id.replace("\\", "/"))
        if path.is_absolute() or ".." in path.parts:
            raise ValueError("the id is an absolute path or climbs out of the folder")
        if not path.parts:
            raise ValueError("the id names no file")
        parts = path.parts
    # Characters that act on a terminal or show nothing (an escape sequence in a SQuAD title) are written %-escaped,
    # as the corpus reads them back, so that listing the folder prints no raw control bytes.
    parts = tuple(_UNSHOWN_IN_NAMES.sub(lambda match: quote(match.group(), safe=""), part) for part in parts)
    # A leading dot would hide the file from the corpus scan; "%2E" is the same name to the corpus lookup.
    path = PurePosixPath(*("%2E" + part[1:] if part.startswith(".") else part for part in parts))
    return path if path.suffix.lower() in _KEPT_SUFFIXES else path.with_name(path.name + ".txt")

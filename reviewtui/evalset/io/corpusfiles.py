"""Writing documents out as a corpus folder, one text file per document id.

Converted sets (SQuAD paragraphs, Natural Questions pages) carry their source
documents inside the file; written out like this, they open with ``--corpus`` and
every quote shows in its context. A document id becomes a path relative to the
folder, with ``.txt`` added unless it already ends in ``.txt`` or ``.md``; the
corpus finds it again under the bare id (see :mod:`reviewtui.evalset.evidence.corpus`).
A name part starting with a dot (a Wikipedia title such as ``.sj``) is written
with the dot as ``%2E``, since the corpus skips hidden files and reads ``%2E`` as a
dot. An id that would land outside the folder or collide with another is refused
and reported, never written somewhere else.
"""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Collection, Mapping
from pathlib import Path, PurePosixPath
from urllib.parse import unquote

from reviewtui.evalset.io.files import atomic_write
from reviewtui.evalset.model.errors import InputError

__all__ = ["canonical_name", "corpus_folder", "list_documents", "read_document", "write_corpus"]


def corpus_folder(root: str | os.PathLike[str]) -> Path:
    """``root`` as a Path when it is a folder; else an InputError saying what it is."""
    folder = Path(root)
    if not folder.exists():
        raise InputError("corpus folder not found", path=str(folder))
    if not folder.is_dir():
        raise InputError("is a file; a corpus is a folder of documents", path=str(folder))
    return folder


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
    """The bytes of one document (OSError is the caller's to report against the document's id)."""
    return path.read_bytes()


def canonical_name(name: str) -> str:
    """The form under which a corpus treats two spellings of a file name as one: %-escapes decoded,
    ``/`` separators, no leading ``./``, NFC. Writing and reading a corpus must agree on it."""
    name = unquote(name.replace("\\", "/"))
    while name.startswith("./"):
        name = name[2:]
    return unicodedata.normalize("NFC", name.strip("/"))

_KEPT_SUFFIXES = (".txt", ".md")


def write_corpus(texts: Mapping[str, str], folder: str | os.PathLike[str]) -> tuple[int, dict[str, str]]:
    """Write each text to ``folder``; returns how many were written and ``{refused id: why}``."""
    root = Path(folder)
    real_root = root.resolve()
    written = 0
    refused: dict[str, str] = {}
    # Two ids whose files the corpus (or a case-insensitive file system) would take for one: the first wins.
    taken: dict[str, str] = {}
    for doc_id, text in texts.items():
        try:
            relative = _relative_path(doc_id)
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


def _relative_path(doc_id: str) -> PurePosixPath:
    """The file for ``doc_id`` under the folder; ValueError saying why when it cannot have one."""
    if not doc_id.strip() or "\x00" in doc_id:
        raise ValueError("an empty id (or one with a NUL character) cannot be a file name")
    path = PurePosixPath(doc_id.replace("\\", "/"))
    if path.is_absolute() or ".." in path.parts:
        raise ValueError("the id is an absolute path or climbs out of the folder")
    if not path.parts:
        raise ValueError("the id names no file")
    # A leading dot would hide the file from the corpus scan; "%2E" is the same name to the corpus lookup.
    path = PurePosixPath(*("%2E" + part[1:] if part.startswith(".") else part for part in path.parts))
    return path if path.suffix.lower() in _KEPT_SUFFIXES else path.with_name(path.name + ".txt")

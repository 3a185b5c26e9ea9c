"""A folder of source documents that anchors quote from.

A document's id is its path relative to the folder, with ``/`` separators
(``privacy_qa/Fiverr.txt``). When a file name occurs only once in the corpus,
the bare name (``Fiverr.txt``) names it too. Only ``.txt`` and ``.md`` files
are taken by default; hidden files and folders (``.git``) are skipped.

Eval sets written by other tools do not always spell ids the way the file
system does, so a lookup that misses tries, in order:

1. the id with ``%XX`` escapes decoded, ``\\`` turned into ``/`` and Unicode
   put in NFC, against file paths treated the same way (so ``a%20b.txt``
   finds ``a b.txt``, ``a b.txt`` finds a file literally named ``a%20b.txt``,
   and an NFD ``MOËT`` finds an NFC one);
2. the bare file name, treated the same way, when it is unique;
3. the id with the corpus folder's own name (or its last few folder names) in
   front removed, so ``privacy_qa/Fiverr.txt`` works against ``corpus/privacy_qa``;
4. an id that does not end in one of the corpus's extensions, with each of them
   added (``Normans#0`` finds ``Normans#0.txt``, as ``reviewtui convert
   --corpus-out`` writes SQuAD paragraphs and Natural Questions pages).

A spelling that matches two files is refused rather than guessed. Every
lookup is a dictionary access; names are listed once, when the corpus is opened,
and the tables for other spellings are built on the first lookup that needs them.

A BEIR corpus (its ``corpus.jsonl``, or the BEIR folder holding it beside
``queries.jsonl``) is a corpus too: its documents are the file's lines, by ``_id``
(the ids BEIR's qrels name), each read as its title, a blank line and its text.
Opening it notes where each line starts and keeps no text
(:class:`~reviewtui.evalset.io.beir.BeirCorpusFile`); a line is parsed when its
document is first asked for. The folder-name prefixes above do not apply to it,
and neither do extensions.

Documents are read on first use and kept. A file that cannot be read or is not
valid in the corpus encoding is reported for that document alone
(:class:`UnreadableDocument`, :attr:`Corpus.problems`); the rest of the corpus
stays usable. Pages are separated by form feeds (``\\f``) and numbered from 1.
"""

from __future__ import annotations

import os
import re
import unicodedata
from bisect import bisect_left, bisect_right
from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass
from difflib import SequenceMatcher
from pathlib import Path
from typing import NoReturn

from reviewtui.evalset.evidence.textmatch import NormalisedText, normalise
from reviewtui.evalset.io.beir import BeirCorpusFile, beir_document_text
from reviewtui.evalset.io.corpusfiles import (
    beir_corpus_file,
    canonical_name,
    corpus_folder,
    list_documents,
    read_document,
)
from reviewtui.evalset.model.items import EvalSetError

__all__ = [
    "DEFAULT_EXTENSIONS",
    "Corpus",
    "Document",
    "DocumentError",
    "DocumentProblem",
    "UnknownDocument",
    "UnreadableDocument",
]

DEFAULT_EXTENSIONS: tuple[str, ...] = (".txt", ".md")
_PREFIX_DEPTH = 3  # how many of the corpus folder's trailing names may prefix an id

#: What follows a document's id in the ids of its pieces, when a corpus was split for retrieval and its
#: relevance judgements still name the whole (ARCD's qrels name ``arcd-doc183``; its corpus holds
#: ``arcd-doc183_chunk_0`` to ``_chunk_3``): a separator, perhaps a word for a piece, and a number.
_PIECE_SUFFIX = re.compile(r"(?:[_#:.-]|::)(?:(?:chunk|part|passage|segment|section|para|p|c)[_#:.-]?)?(\d+)", re.IGNORECASE)
#: How many ids may begin with a missing one for them to be weighed as its pieces (a short id such as "doc"
#: begins every id of some corpora: then no pieces are named, rather than a count cut short).
_PIECES_WEIGHED = 10_000
#: How many ids beside a missing one, in sorted order, are weighed as the name it was meant to be.
_NEIGHBOURS = 3
_NUMBERS = re.compile(r"\d+")
#: How alike two names must be (difflib's ratio) for one to be offered as what the other meant.
_CLOSE_NAME = 0.85


class DocumentError(EvalSetError):
    """A document an anchor names cannot be used."""


class UnknownDocument(DocumentError):
    """No document in the corpus has this id (or the id matches several)."""


class UnreadableDocument(DocumentError):
    """The document exists but could not be read or decoded."""


@dataclass(frozen=True, slots=True)
class DocumentProblem:
    """Why one document could not be used (or was used with replaced characters)."""

    doc_id: str
    reason: str
    fatal: bool = True

    def __str__(self) -> str:
        return f"{self.doc_id}: {self.reason}"


class Document:
    """One loaded document: its text, its pages and (on demand) its folded form."""

    __slots__ = ("_normalised", "_page_starts", "id", "path", "text")

    def __init__(self, doc_id: str, text: str, path: Path | None = None) -> None:
        self.id = doc_id
        self.text = text
        self.path = path
        self._page_starts: tuple[int, ...] | None = None
        self._normalised: NormalisedText | None = None

    def __repr__(self) -> str:
        return f"Document({self.id!r}, {len(self.text)} chars, {self.page_count} pages)"

    @property
    def page_starts(self) -> tuple[int, ...]:
        """Offset where each page begins (page 1 at index 0)."""
        if self._page_starts is None:
            starts = [0]
            find = self.text.find
            at = find("\f")
            while at != -1:
                starts.append(at + 1)
                at = find("\f", at + 1)
            self._page_starts = tuple(starts)
        return self._page_starts

    @property
    def page_count(self) -> int:
        return len(self.page_starts)

    def page_bounds(self, page: int) -> tuple[int, int] | None:
        """``[start, end)`` of a 1-based page, without its form feed; None when out of range."""
        starts = self.page_starts
        if not 1 <= page <= len(starts):
            return None
        end = starts[page] - 1 if page < len(starts) else len(self.text)
        return starts[page - 1], end

    def page_of(self, offset: int) -> int:
        """The 1-based page holding ``offset``."""
        return bisect_right(self.page_starts, offset)

    @property
    def normalised(self) -> NormalisedText:
        """The folded text with its offset map, computed the first time it is needed."""
        if self._normalised is None:
            self._normalised = normalise(self.text)
        return self._normalised


def _normalise_extensions(extensions: Iterable[str]) -> frozenset[str]:
    out = set()
    for ext in extensions:
        ext = ext.strip().lower()
        if ext:
            out.add(ext if ext.startswith(".") else "." + ext)
    return frozenset(out)


class Corpus:
    """Source documents by id, read lazily. See the module notes for how ids are matched."""

    def __init__(
        self,
        root: str | os.PathLike[str],
        *,
        extensions: Iterable[str] = DEFAULT_EXTENSIONS,
        encoding: str = "utf-8",
        errors: str = "strict",
    ) -> None:
        """Index the files under ``root``, or the lines of a BEIR corpus (see the module notes).

        ``errors="replace"`` loads undecodable documents with U+FFFD in place of
        the bad bytes (and still reports them); the default refuses them. A BEIR
        corpus is JSON, so always UTF-8: ``encoding`` and ``extensions`` do not
        apply to it.
        """
        self.encoding = encoding
        self.errors = errors
        self._paths: dict[str, Path] = {}
        self._texts: dict[str, str] = {}
        self._beir: BeirCorpusFile | None = None
        jsonl = beir_corpus_file(root)
        if jsonl is not None:
            # root is the file itself, so that a helper process given str(root) opens the same corpus.
            self.root: Path | None = jsonl
            self.extensions: frozenset[str] = frozenset()
            self._beir = BeirCorpusFile(jsonl)
            self._setup(self._beir.offsets, prefixes=())
            return
        folder = corpus_folder(root)
        self.root = folder
        self.extensions = _normalise_extensions(extensions)
        self._setup(self._scan(folder), prefixes=self._root_prefixes(folder))

    @classmethod
    def from_texts(cls, texts: Mapping[str, str]) -> Corpus:
        """A corpus held in memory (tests, benchmarks, a quote being edited in the app)."""
        corpus = cls.__new__(cls)
        corpus.root = None
        corpus.encoding = "utf-8"
        corpus.errors = "strict"
        corpus.extensions = frozenset()
        corpus._paths = {}
        corpus._texts = dict(texts)
        corpus._beir = None
        corpus._setup(corpus._texts, prefixes=())
        return corpus

    # --- indexing -------------------------------------------------------------------------

    def _scan(self, folder: Path) -> dict[str, Path]:
        self._paths.update(list_documents(folder, self.extensions))
        return self._paths

    @staticmethod
    def _root_prefixes(folder: Path) -> tuple[str, ...]:
        parts = Path(os.path.abspath(folder)).parts[1:]
        return tuple(
            "/".join(parts[len(parts) - depth :]) + "/"
            for depth in range(1, min(_PREFIX_DEPTH, len(parts)) + 1)
        )

    def _setup(self, ids: Mapping[str, object], *, prefixes: tuple[str, ...]) -> None:
        """``ids``: the documents, by id, in the corpus's order; kept as the table of exact ids.

        Taking the mapping the ids are already kept in, rather than a set made from it,
        spares a second table of every id, which counts for a BEIR corpus of millions.
        """
        self._ids = tuple(ids)
        self._exact: Collection[str] = ids  # a mapping: `in` asks about its keys
        self._spellings: tuple[dict[str, list[str]], dict[str, list[str]]] | None = None
        self._ordered: list[str] | None = None  # every id sorted, for pieces_of and closest_name
        self._pieces: dict[str, tuple[str, ...]] = {}  # pieces_of's answers, each looked for once
        self._why: dict[str, str] = {}  # why_missing's answers, each worked out once
        self._prefixes = prefixes
        self._loaded: dict[str, Document] = {}
        self._problems: dict[str, DocumentProblem] = {}
        self._lookups: dict[str, str | None] = {}

    def _tables(self) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
        """Ids by their canonical form and by their canonical file name, built the first time an id is not exact.

        Built late because most lookups are exact, and for a large corpus these
        tables take time and memory that such lookups never need.
        """
        if self._spellings is None:
            by_key: dict[str, list[str]] = {}
            by_name: dict[str, list[str]] = {}
            for doc_id in self._ids:
                by_key.setdefault(canonical_name(doc_id), []).append(doc_id)
                # The name is cut off at a real separator before decoding: a %2F in a file name
                # (a title written by a flat corpus) is part of the name, not a folder.
                name = doc_id.replace("\\", "/").rsplit("/", 1)[-1]
                by_name.setdefault(canonical_name(name), []).append(doc_id)
            self._spellings = (by_key, by_name)
        return self._spellings

    # --- ids ------------------------------------------------------------------------------

    @property
    def ids(self) -> tuple[str, ...]:
        return self._ids

    def __len__(self) -> int:
        return len(self._ids)

    def __iter__(self) -> Iterator[str]:
        return iter(self._ids)

    def __contains__(self, source_id: object) -> bool:
        return isinstance(source_id, str) and self.resolve_id(source_id) is not None

    def __repr__(self) -> str:
        where = str(self.root) if self.root is not None else "memory"
        return f"Corpus({where!r}, {len(self._ids)} documents)"

    def resolve_id(self, source_id: str) -> str | None:
        """The corpus id that ``source_id`` names, or None when none (or several) match."""
        if source_id in self._exact:
            return source_id
        if source_id in self._lookups:
            return self._lookups[source_id]
        found = self._lookup(source_id)
        if found is None:
            for prefix in self._prefixes:
                if source_id.startswith(prefix):
                    found = self._lookup(source_id[len(prefix) :])
                    if found is not None:
                        break
        self._lookups[source_id] = found
        return found

    def _lookup(self, source_id: str) -> str | None:
        found = self._match(source_id)
        if found is None and Path(source_id).suffix.lower() not in self.extensions:
            with_extension = {m for ext in self.extensions if (m := self._match(source_id + ext)) is not None}
            found = with_extension.pop() if len(with_extension) == 1 else None
        return found

    def _match(self, source_id: str) -> str | None:
        if source_id in self._exact:
            return source_id
        key = canonical_name(source_id)
        by_key, by_name = self._tables()
        matches = by_key.get(key)
        if matches is None and "/" not in key:
            matches = by_name.get(key)
        return matches[0] if matches is not None and len(matches) == 1 else None

    def why_missing(self, source_id: str) -> str:
        """A sentence saying why ``source_id`` does not name one document (made once per id: a lookup that
        misses asks for it for every quote of that document)."""
        said = self._why.get(source_id)
        if said is None:
            said = self._why[source_id] = self._why_missing(source_id)
        return said

    def _why_missing(self, source_id: str) -> str:
        candidates = self.candidates(source_id)
        if len(candidates) > 1:
            # Names a screen shows alike (café composed and decomposed) are written with their code points.
            alike = len({unicodedata.normalize("NFC", c) for c in candidates}) < len(candidates)
            shown = ", ".join((ascii if alike else repr)(c) for c in candidates[:3])
            more = f" and {len(candidates) - 3} more" if len(candidates) > 3 else ""
            return f"document {source_id!r} is ambiguous: it could be {shown}{more}"
        missing = f"no document {source_id!r} in the corpus ({len(self._ids):,} document{'' if len(self._ids) == 1 else 's'})"
        skipped = self._skipped_file(source_id)
        if skipped is not None:
            return f"{missing}: {skipped}"
        pieces = self.pieces_of(source_id)
        if pieces:
            first = f"{pieces[0]!r}, …" if len(pieces) > 1 else repr(pieces[0])
            return f"{missing}, only {'its one piece' if len(pieces) == 1 else f'its {len(pieces):,} pieces'} ({first})"
        closest = self.closest_name(source_id)
        return f"{missing}; the closest name is {closest!r}" if closest is not None else missing

    def _skipped_file(self, source_id: str) -> str | None:
        """Why a file of the corpus folder at ``source_id`` is not one of its documents, or None when there is none:
        "no document 'notes.pdf'" was said of a file that was there, and only needed --ext pdf."""
        if self._beir is not None or self.root is None or not source_id or os.path.isabs(source_id):
            return None
        if ".." in Path(source_id).parts:  # outside the folder: not the corpus's to say anything of
            return None
        path = self.root / source_id
        try:
            if not path.is_file():
                return None
        except (OSError, ValueError):
            return None
        relative = Path(source_id).parts
        if any(part.startswith(".") for part in relative):
            return "the file is there, but hidden files and folders (a name starting with a dot) are not read"
        folder = self.root
        for depth, part in enumerate(relative[:-1], start=1):
            folder = folder / part
            if folder.is_symlink():
                linked = "/".join(relative[:depth])
                return f"the file is there, but in {linked}, a link to a folder, which is not followed"
        suffix = path.suffix.lower()
        if suffix not in self.extensions:
            read = ", ".join(sorted(self.extensions))
            hint = f": --ext {suffix.lstrip('.')} reads it" if suffix else ""
            return f"the file is there, but only {read} files are read{hint}"
        return None

    def _sorted_ids(self) -> list[str]:
        """Every id in sorted order, made the first time an id is not found (as the other spellings are)."""
        if self._ordered is None:
            self._ordered = sorted(self._ids)
        return self._ordered

    def _bare_forms(self, source_id: str) -> list[str]:
        """``source_id`` as the corpus's ids may begin with it: as given, without the corpus folder's own names
        in front (as resolve_id takes them off), and each of those without an extension of the corpus."""
        forms = [source_id, *(source_id[len(prefix) :] for prefix in self._prefixes if source_id.startswith(prefix))]
        for form in list(forms):
            stem, dot, extension = form.rpartition(".")
            if dot and stem and f".{extension.lower()}" in self.extensions:
                forms.append(stem)
        return [form for form in dict.fromkeys(forms) if form]

    def _without_extension(self, doc_id: str) -> str:
        stem, dot, extension = doc_id.rpartition(".")
        return stem if dot and stem and f".{extension.lower()}" in self.extensions else doc_id

    def pieces_of(self, source_id: str) -> list[str]:
        """The documents that are pieces of ``source_id``, in the order of their numbers: ids made of it, a
        separator and a number (``arcd-doc183_chunk_0``, ``doc#2``, a folder's ``doc183_chunk_0.txt``), as a
        corpus split for retrieval names them. Empty when there are none, when ``source_id`` is itself a
        document, or when more ids begin with it than are weighed (a short id such as ``doc``): then no
        count could be given as exact."""
        known = self._pieces.get(source_id)
        if known is None:
            known = self._pieces[source_id] = self._find_pieces(source_id)
        return list(known)

    def _find_pieces(self, source_id: str) -> tuple[str, ...]:
        if not source_id or source_id in self:
            return ()
        ordered = self._sorted_ids()
        for form in self._bare_forms(source_id):
            first = bisect_left(ordered, form)
            last = bisect_left(ordered, form + "\U0010ffff")  # the ids that begin with it are side by side
            if last - first > _PIECES_WEIGHED:
                continue
            found: list[tuple[int, str]] = []
            for doc_id in ordered[first:last]:
                match = _PIECE_SUFFIX.fullmatch(self._without_extension(doc_id), len(form))
                if match is not None:
                    found.append((int(match.group(1)), doc_id))
            if found:
                return tuple(doc_id for _, doc_id in sorted(found))
        return ()

    def closest_name(self, source_id: str) -> str | None:
        """A document whose id is nearly ``source_id`` (a file renamed by a character or two: ``TickTick - To
        Do`` for ``TickTick: To Do``), or None. Only the ids beside it in sorted order are weighed, so the
        answer costs a few comparisons on any corpus; a name changed in its first characters is not found,
        and neither is one that differs only in its numbers (``doc12`` is not offered for ``doc123``). A
        folder's ids are compared without the extension when ``source_id`` has none."""
        if not source_id or source_id in self:
            return None
        ordered = self._sorted_ids()
        best, best_ratio = None, _CLOSE_NAME
        for form in self._bare_forms(source_id):
            at = bisect_left(ordered, form)
            unnumbered = _NUMBERS.sub("", form)
            for doc_id in ordered[max(0, at - _NEIGHBOURS) : at + _NEIGHBOURS]:
                compared = self._without_extension(doc_id) if form == self._without_extension(form) else doc_id
                if _NUMBERS.sub("", compared) == unnumbered:
                    continue  # another of a numbered series (doc12 for doc123), not the same name misspelt
                ratio = SequenceMatcher(None, form, compared, autojunk=False).ratio()
                if ratio >= best_ratio:
                    best, best_ratio = doc_id, ratio
        return best

    def candidates(self, source_id: str) -> list[str]:
        """The documents ``source_id`` could name when it names more than one of them (``a`` for ``a.md`` and
        ``a.txt``); empty otherwise."""
        key = canonical_name(source_id)
        by_key, by_name = self._tables()
        with_extension = [m for ext in sorted(self.extensions) if (m := self._match(source_id + ext)) is not None]
        # A bare file name is matched anywhere in the folder, an id with a folder part only there (see _match): the
        # documents of that name elsewhere are not what it could name ("zzz/plain.txt is ambiguous" misled).
        by_file_name = by_name.get(key) if "/" not in key else None
        for candidates in (by_key.get(key), by_file_name, with_extension or None):
            if candidates is not None and len(candidates) > 1:
                return list(candidates)
        return []

    # --- documents ------------------------------------------------------------------------

    def document(self, source_id: str) -> Document:
        """The document ``source_id`` names, read on first use.

        Raises :class:`UnknownDocument` or :class:`UnreadableDocument`.
        """
        doc_id = self.resolve_id(source_id)
        if doc_id is None:
            raise UnknownDocument(self.why_missing(source_id))
        loaded = self._loaded.get(doc_id)
        if loaded is not None:
            return loaded
        problem = self._problems.get(doc_id)
        if problem is not None and problem.fatal:
            raise UnreadableDocument(problem.reason, path=doc_id)
        return self._load(doc_id)

    def get(self, source_id: str) -> Document | None:
        """The document, or None when it is unknown or unreadable."""
        try:
            return self.document(source_id)
        except DocumentError:
            return None

    def why_unusable(self, source_id: str) -> str:
        """Why :meth:`get` has no document for ``source_id``: :meth:`why_missing` for an id that names none, and for
        a document found but not readable, that and why ("no document 'd2' in the corpus" was said of one whose
        line has no text)."""
        doc_id = self.resolve_id(source_id)
        problem = self._problems.get(doc_id) if doc_id is not None else None
        if problem is None or not problem.fatal:
            return self.why_missing(source_id)
        return f"document {doc_id!r} is in the corpus but could not be read: {problem.reason}"

    def text(self, source_id: str) -> str:
        return self.document(source_id).text

    def _load(self, doc_id: str) -> Document:
        path = self._paths.get(doc_id)
        if path is not None:
            text = self._read(doc_id, path)
        elif self._beir is not None:
            text = self._read_line(doc_id, self._beir)
        else:
            text = self._texts[doc_id]
        document = Document(doc_id, text, path)
        self._loaded[doc_id] = document
        return document

    def _read(self, doc_id: str, path: Path) -> str:
        try:
            data = read_document(path)
        except OSError as exc:
            self._refuse(doc_id, f"cannot read: {exc.strerror or exc}")
        try:
            return data.decode(self.encoding)
        except UnicodeDecodeError as exc:
            # The line too: a byte offset alone is hard to find in an editor, where a long document is mended.
            line = data.count(b"\n", 0, exc.start) + 1
            reason = f"not valid {self.encoding} at byte {exc.start:,} (line {line:,})"
            if self.errors == "strict":
                self._refuse(doc_id, reason)
            self._problems[doc_id] = DocumentProblem(doc_id, reason + "; bad bytes replaced", fatal=False)
            return data.decode(self.encoding, errors=self.errors)
        except LookupError:
            self._refuse(doc_id, f"unknown encoding {self.encoding!r}")

    def _read_line(self, doc_id: str, beir: BeirCorpusFile) -> str:
        try:
            data = beir.line(doc_id)
        except OSError as exc:
            self._refuse(doc_id, f"cannot read: {exc.strerror or exc}")
        except ValueError as exc:
            self._refuse(doc_id, f"{beir.path.name}: {exc}")
        try:
            line = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            reason = f"{self._beir_line(beir, doc_id)}: not valid utf-8 at byte {exc.start:,} of the line"
            if self.errors == "strict":
                self._refuse(doc_id, reason)
            self._problems[doc_id] = DocumentProblem(doc_id, reason + "; bad bytes replaced", fatal=False)
            line = data.decode("utf-8", errors=self.errors)
        try:
            return beir_document_text(line, doc_id)
        except ValueError as exc:
            self._refuse(doc_id, f"{self._beir_line(beir, doc_id)}: {exc}")

    @staticmethod
    def _beir_line(beir: BeirCorpusFile, doc_id: str) -> str:
        """``corpus.jsonl:LINE``, the document's line to mend, as a reader's errors name a line (the name alone if
        the file cannot be read again to count it)."""
        try:
            return f"{beir.path.name}:{beir.line_number(doc_id)}"
        except OSError:
            return beir.path.name

    def _refuse(self, doc_id: str, reason: str) -> NoReturn:
        self._problems[doc_id] = DocumentProblem(doc_id, reason)
        raise UnreadableDocument(reason, path=doc_id)

    @property
    def problems(self) -> tuple[DocumentProblem, ...]:
        """Documents found unreadable (or read with replacements) so far."""
        return tuple(self._problems.values())

    def load_all(self) -> tuple[DocumentProblem, ...]:
        """Read every document now; return the problems (the app may prefer this up front)."""
        for doc_id in self._ids:
            if doc_id not in self._loaded and doc_id not in self._problems:
                try:
                    self._load(doc_id)
                except UnreadableDocument:
                    pass
        return self.problems

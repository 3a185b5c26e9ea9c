"""BEIR: a ``queries.jsonl`` plus a qrels file of (query, document, score) judgements.

BEIR gold names whole documents, not passages. The set's meta says so
(``granularity: "document"`` and a note), and each item keeps its gold in
``item.meta["gold_documents"]`` as ``(doc_id, grade)`` tuples rather than in
``item.gold``, which is for character spans.

Rules:

- only judgements with a score above 0 count; the score is kept as the grade, so
  graded sets (1/2/3) stay graded; a query without any is dropped (counted);
- from each query line only ``_id`` and ``text`` are read. ``metadata`` is left out
  on purpose: SciFact keeps its evidence labels there, and putting them next to
  the question would leak the answer key into it; the queries that had one are
  counted (``query_metadata_left_out``), so that leaving it out is said; any other field of a
  query line is left out and counted the same way (``query_fields_left_out``);
- qrels layouts accepted: tab-separated ``query-id, corpus-id, score`` with or
  without a header row; tab-separated ``query, doc, doc, score`` (the document
  column repeated, seen in published subsets); TREC ``query 0 doc score``
  separated by spaces. CRLF endings and a BOM are fine;
- an id field with spaces around it (``"1\\t 0 31715818\\t1"``) is refused with
  its ``path:line``: it is a TREC line mixed into tab-separated columns, and
  reading it as given would import a document id that does not exist;
- judgements for query ids the queries file does not have, non-positive scores
  and repeated (query, document) pairs are counted in the set's meta;
- a folder may hold several qrels files, one per split (``qrels/train.tsv``,
  ``qrels/test.tsv``). One is read: the split asked for, else ``test.tsv``, else
  the only one. When others exist the set's meta names the file read
  (``qrels_file``) and the others (``other_qrels_files``), since a query dropped
  for want of a judgement may well be judged in one of them.

The corpus (``corpus.jsonl``: one object per line with ``_id``, ``title`` and
``text``) is read by :class:`BeirCorpusFile`: one pass notes where each
document's line starts, and a document is parsed only when it is asked for, so
that a corpus of millions of documents opens without being held in memory. Its
text is the title, a blank line and the text (just the text when the title is
empty); its id is ``_id``, the id the qrels name.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Sequence
from pathlib import Path
from typing import Any, BinaryIO

import orjson

from reviewtui.evalset.io.files import (
    BOM,
    decode_utf8,
    json_error,
    loads_exact,
    open_for_reading,
    read_bytes,
    read_once_kind,
)
from reviewtui.evalset.io.problems import json_type_name
from reviewtui.evalset.io.skipped import ImportNotes
from reviewtui.evalset.model.items import EvalItem, EvalSet, EvalSetError, InputError

__all__ = [
    "BEIR_NOTE",
    "BeirCorpusFile",
    "beir_document_text",
    "beir_folder_files",
    "read_beir",
    "read_qrels",
    "refuse_unplain_part",
]

BEIR_NOTE = (
    "Gold here marks whole documents, not the passages that answer. Use this set to compare "
    "retrievers; do not use it to rank chunkers, since every chunk of a gold document scores "
    "as relevant whether or not it holds the answer."
)
_TREC_ITERATION = frozenset({"0", "Q0", "q0"})
_MAX_SCORE = 2**63 - 1


#: The fields of a query line this reader reads (``metadata`` to say it is left out).
_QUERY_FIELDS = frozenset(("_id", "text", "metadata"))


def read_beir(
    queries_path: str | os.PathLike[str],
    qrels_path: str | os.PathLike[str],
    *,
    evalset_id: str = "beir",
    other_qrels: Sequence[str] = (),
) -> EvalSet:
    """Read BEIR queries and judgements into a set with document-level gold in item meta.

    ``other_qrels`` names the qrels files of the same folder that were not read;
    they go into the set's meta so that what the import left out can say where
    the other judgements are.
    """
    notes = ImportNotes(Path(qrels_path).name)
    queries, query_lines = _read_queries(queries_path, notes)
    judged = read_qrels(qrels_path, notes)
    items: list[EvalItem] = []
    dropped = 0
    for query_id, text in queries.items():
        gold = judged.pop(query_id, None)
        if not gold:
            dropped += 1
            continue
        try:
            items.append(EvalItem(id=query_id, question=text, meta={"gold_documents": list(gold.items())}))
        except EvalSetError as exc:
            raise exc.located(str(queries_path), query_lines[query_id]) from None
    for query_id in query_lines:  # queries skipped for blank text are not "unknown"
        judged.pop(query_id, None)
    unknown = len(judged)
    meta: dict[str, Any] = {"granularity": "document", "note": BEIR_NOTE}
    if dropped:
        meta["queries_dropped"] = dropped
    if unknown:
        meta["unknown_query_ids"] = unknown
    if other_qrels:
        meta["qrels_file"] = Path(qrels_path).name
        meta["other_qrels_files"] = list(other_qrels)
    meta.update(notes.meta())
    return EvalSet(id=evalset_id, items=tuple(items), source="beir", meta=meta)


def beir_folder_files(folder: str | os.PathLike[str], split: str | None = None) -> tuple[Path, Path, list[str]]:
    """The queries file of a BEIR folder, the qrels file to read and the names of the other qrels files.

    ``split`` names a qrels file (``train`` or ``train.tsv``); without it ``test.tsv``
    is taken, or the only one there is.
    """
    root = Path(folder)
    queries = root / "queries.jsonl"
    if not queries.is_file():
        if os.path.lexists(queries):
            refuse_unplain_part(queries, root)
        raise InputError("is a folder without queries.jsonl, so it is not a BEIR set", path=str(root))
    qrels = sorted((root / "qrels").glob("*.tsv"))
    if not qrels:
        raise InputError("is a BEIR folder without qrels/*.tsv judgements", path=str(root))
    names = ", ".join(q.name for q in qrels)
    if split is not None:
        wanted = split if split.endswith(".tsv") else split + ".tsv"
        chosen = [q for q in qrels if q.name == wanted]
        if not chosen:
            raise InputError(f"has no qrels file for the split {split!r}; its qrels files are: {names}", path=str(root))
    else:
        chosen = [q for q in qrels if q.name == "test.tsv"] or (qrels if len(qrels) == 1 else [])
        if not chosen:
            example = qrels[0].stem
            raise InputError(
                f"has several qrels files ({names}) and no test.tsv; choose one with --split, "
                f"for example --split {example} (split={example!r} when calling open_evalset)",
                path=str(root),
            )
    refuse_unplain_part(chosen[0], root)  # a pipe there waited for a writer for ever; a device never ended
    return queries, chosen[0], [q.name for q in qrels if q != chosen[0]]


def refuse_unplain_part(part: Path, root: Path) -> None:
    """Refuse a file of a BEIR folder that is not a plain file once links are followed (a pipe, a device, a folder),
    saying which of its files it is and what it is instead."""
    where = part.relative_to(root).as_posix()
    try:
        mode = os.stat(part).st_mode
    except OSError as exc:
        raise InputError(f"cannot read its {where}: {exc.strerror or exc}", path=str(root)) from None
    if stat.S_ISREG(mode):
        return
    kind = "a folder" if stat.S_ISDIR(mode) else read_once_kind(part) or "not a regular file"
    raise InputError(f"its {where} is {kind}; a BEIR folder's files are plain files", path=str(root))


def _read_queries(path: str | os.PathLike[str], notes: ImportNotes) -> tuple[dict[str, str], dict[str, int]]:
    name = str(path)
    text = decode_utf8(path, read_bytes(path))
    queries: dict[str, str] = {}
    lines: dict[str, int] = {}
    for number, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        try:
            record = loads_exact(line)
        except orjson.JSONDecodeError as exc:
            raise json_error(name, exc, number) from None
        if not isinstance(record, dict):
            raise InputError(f"expected a query object, found {json_type_name(record)}", path=name, line=number)
        query_id = record.get("_id")
        if isinstance(query_id, int) and not isinstance(query_id, bool):
            query_id = str(query_id)
        if not isinstance(query_id, str) or not query_id:
            raise InputError("a query needs an `_id` (a string)", path=name, line=number, field="_id")
        text_value = record.get("text")
        if not isinstance(text_value, str):
            shown = _missing_text(record, text_value)
            raise InputError(f"query {query_id!r}: `text` {shown}", path=name, line=number, field="text")
        if query_id in lines:
            raise InputError(
                f"query id {query_id!r} is used twice: on line {lines[query_id]} and again here",
                path=name,
                line=number,
                field="_id",
            )
        lines[query_id] = number
        if not text_value.strip():
            notes.skip("queries_skipped", "blank text", query_id)
            continue
        if record.get("metadata"):  # left out on purpose (see the rules above), but said: it is the file's data
            notes.note("query_metadata_left_out", query_id)
        if not _QUERY_FIELDS.issuperset(record):  # a title, a label: left out for the same reason, and said
            notes.note("query_fields_left_out", query_id)
        queries[query_id] = text_value
    return queries, lines


def _is_int(value: str) -> bool:
    return value.lstrip("+-").isdigit()


def _split(line: str, tabbed: bool) -> list[str]:
    return line.split("\t") if tabbed else line.split()


_LINE_ENDS = re.compile(r"\r\n|\r|\n")


def read_qrels(path: str | os.PathLike[str], notes: ImportNotes | None = None) -> dict[str, dict[str, int]]:
    """Positive judgements as ``{query_id: {doc_id: grade}}``, in file order."""
    name = str(path)
    notes = notes if notes is not None else ImportNotes(Path(path).name)
    text = decode_utf8(path, read_bytes(path))
    judged: dict[str, dict[str, int]] = {}
    tabbed: bool | None = None
    # Lines end at a line feed, a CR LF or a CR only: splitlines() also ends one at U+0085, U+2028 and
    # other characters an id may hold, which then read as a line of one column.
    for number, line in enumerate(_LINE_ENDS.split(text), 1):
        if not line.strip():
            continue
        if tabbed is None:
            tabbed = "\t" in line
            fields = _split(line, tabbed)
            if not _is_int(fields[-1].strip()):
                continue  # a header row such as query-id<TAB>corpus-id<TAB>score
        fields = _split(line, tabbed)
        query_id, doc_id, score = _judgement(fields, tabbed, name, number)
        if score <= 0:
            notes.note("judgements_not_positive")
            continue
        docs = judged.setdefault(query_id, {})
        if doc_id in docs:
            notes.note("duplicate_judgements")
            docs[doc_id] = max(docs[doc_id], score)
        else:
            docs[doc_id] = score
    return judged


def _judgement(fields: list[str], tabbed: bool, name: str, number: int) -> tuple[str, str, int]:
    layout = "tab-separated" if tabbed else "space-separated"
    if len(fields) == 3:
        query_id, doc_id, score = fields
    elif len(fields) == 4 and fields[1].strip() == fields[2].strip():
        query_id, doc_id, _, score = fields
    elif len(fields) == 4 and fields[1].strip() in _TREC_ITERATION:
        query_id, _, doc_id, score = fields
    else:
        raise InputError(
            f"expected 3 {layout} columns (query id, document id, score) or the 4-column TREC layout "
            f"(query 0 document score); this line has {len(fields)}",
            path=name,
            line=number,
        )
    for label, value in (("query id", query_id), ("corpus id", doc_id)):
        if not value.strip():
            raise InputError(f"the {label} is empty", path=name, line=number)
        if value != value.strip():
            raise InputError(
                f"the {label} {value!r} has spaces around it; this looks like a TREC line "
                "(query 0 document score) mixed into tab-separated columns. Fix the file to "
                "query-id<TAB>corpus-id<TAB>score",
                path=name,
                line=number,
                field="query-id" if label == "query id" else "corpus-id",
            )
    written = score.strip()
    if not _is_int(written):
        raise InputError(f"the score must be a whole number, found {written!r}", path=name, line=number, field="score")
    # The score becomes a grade, which every writer must be able to write (64 bits for orjson);
    # the length test comes first because Python refuses to convert a very long digit string at all.
    digits = written.lstrip("+-").lstrip("0")
    if len(digits) > 19 or (len(digits) == 19 and int(digits) > _MAX_SCORE):
        shown = written if len(written) <= 30 else written[:30] + "…"
        raise InputError(f"the score {shown} is out of range", path=name, line=number, field="score")
    magnitude = int(digits or "0")  # without its leading zeros, which could be as long as they like
    return query_id, doc_id, -magnitude if written.startswith("-") else magnitude


# --- the corpus -----------------------------------------------------------------------------

# BEIR writes `{"_id": "...", ...}` with the id first, so most lines give their id to this
# pattern without being parsed; a line it does not fit (another key order, an escape in the
# id, a number for an id) is parsed in full instead.
_LEADING_ID = re.compile(rb'\{[ \t]*"_id"[ \t]*:[ \t]*"([^"\\\r\n]*)"')


class BeirCorpusFile:
    """A BEIR ``corpus.jsonl``, indexed by ``_id``: where each document's line starts in the file.

    Only the index is kept (one entry per document, no text), and a document is
    read from the file each time :meth:`line` is called; the caller keeps what it
    has read.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.offsets, self._stamp = _index_corpus(self.path)

    def __len__(self) -> int:
        return len(self.offsets)

    def line(self, doc_id: str) -> bytes:
        """The raw line of ``doc_id``: OSError when the file cannot be read, ValueError when it changed.

        A file rewritten since it was indexed would put another document, or half a
        line, at the noted place, so it is refused rather than read.
        """
        with open(self.path, "rb") as handle:
            if _stamp(handle) != self._stamp:
                raise ValueError("the corpus file changed since it was opened; open it again")
            handle.seek(self.offsets[doc_id])
            return handle.readline()

    def line_number(self, doc_id: str) -> int:
        """The number of ``doc_id``'s line in the file (1 for the first), counted when asked: only a problem with a
        document needs it, and the index keeps offsets alone."""
        return _line_at(self.path, self.offsets[doc_id])


def _missing_text(record: dict[str, Any], text: object) -> str:
    """What is wrong with a record's ``text`` that is not a string ("null" was said to be missing)."""
    if text is None:
        return "is null" if "text" in record else "is missing"
    return f"must be a string, found {json_type_name(text)}"


def _stamp(handle: BinaryIO) -> tuple[int, int]:
    info = os.fstat(handle.fileno())
    return info.st_size, info.st_mtime_ns


def beir_document_text(line: str, doc_id: str) -> str:
    """The text of one corpus line: title, blank line, text. ValueError saying why when it has none.

    ``doc_id`` is the id the index found at this place; a line with another id
    means the file changed since it was indexed.
    """
    try:
        record = orjson.loads(line)
    except orjson.JSONDecodeError as exc:
        raise ValueError(f"not valid JSON ({str(exc).split(': line ', 1)[0]})") from None
    if not isinstance(record, dict) or _record_id(record) != doc_id:
        raise ValueError("the corpus file changed since it was opened; open it again")
    title, text = record.get("title"), record.get("text")
    if not isinstance(text, str):
        raise ValueError(f"`text` {_missing_text(record, text)}")
    if title is not None and not isinstance(title, str):
        raise ValueError(f"`title` must be a string, found {json_type_name(title)}")
    return f"{title}\n\n{text}" if title and title.strip() else text


def _record_id(record: dict[str, Any]) -> str | None:
    """``_id`` as a string (BEIR ids are strings; a whole number is read as its digits, as for queries)."""
    doc_id = record.get("_id")
    if isinstance(doc_id, int) and not isinstance(doc_id, bool):
        doc_id = str(doc_id)
    return doc_id if isinstance(doc_id, str) and doc_id else None


def _index_corpus(path: Path) -> tuple[dict[str, int], tuple[int, int]]:
    """Where each document's line starts, by id, and the file's size and time when it was read."""
    name = str(path)
    offsets: dict[str, int] = {}
    match = _LEADING_ID.match
    with open_for_reading(path) as handle:
        stamp = _stamp(handle)
        offset = 0
        for number, raw in enumerate(handle, 1):
            start = offset
            offset += len(raw)
            if number == 1 and raw.startswith(BOM):
                raw = raw[len(BOM) :]
                start += len(BOM)
            found = match(raw)
            doc_id: str | None = None
            if found is not None and (raw.count(b'"_id"') > 1 or b"\\u005f" in raw or b"\\u005F" in raw):
                found = None  # an id given twice in one line (or spelled with an escape): the full parse refuses it
            if found is not None:
                try:
                    doc_id = found.group(1).decode("utf-8")
                except UnicodeDecodeError:
                    doc_id = None  # the full parse below says where the bad bytes are
            if not doc_id:
                if not raw.strip():
                    continue
                doc_id = _slow_id(raw, name, number)
            if doc_id in offsets:
                raise InputError(
                    f"document id {doc_id!r} is used twice: on line {_line_at(path, offsets[doc_id])} and again here",
                    path=name,
                    line=number,
                    field="_id",
                )
            offsets[doc_id] = start
    return offsets, stamp


def _slow_id(raw: bytes, name: str, number: int) -> str:
    try:
        record = loads_exact(raw)
    except orjson.JSONDecodeError as exc:
        raise json_error(name, exc, number) from None
    if not isinstance(record, dict):
        raise InputError(f"expected a document object, found {json_type_name(record)}", path=name, line=number)
    doc_id = _record_id(record)
    if doc_id is None:
        if "_evalset" in record or "question" in record:
            # The set itself given as --corpus: said as what it is, not as a document that lacks an id.
            raise InputError(
                "this is an eval set, not a corpus: --corpus takes the folder of the documents the quotes come from, "
                "or a BEIR corpus.jsonl",
                path=name,
                line=number,
            )
        raise InputError("a document needs an `_id` (a string)", path=name, line=number, field="_id")
    return doc_id


def _line_at(path: Path, offset: int) -> int:
    """The line number of the line starting at ``offset`` (only for an error message, so read again), counted a
    megabyte at a time: the line may be far into a corpus of gigabytes."""
    lines = 1
    with open(path, "rb") as handle:
        while offset > 0:
            chunk = handle.read(min(offset, 1 << 20))
            if not chunk:
                break
            lines += chunk.count(b"\n")
            offset -= len(chunk)
    return lines

"""BEIR: a ``queries.jsonl`` plus a qrels file of (query, document, score) judgements.

BEIR gold names whole documents, not passages. The set's meta says so
(``granularity: "document"`` and a note), and each item keeps its gold in
``item.meta["gold_documents"]`` as ``(doc_id, grade)`` tuples rather than in
``item.gold``, which is for character spans.

Rules:

- only judgements with a score above 0 count; the score is kept as the grade, so
  graded sets (1/2/3) stay graded; a query without any is dropped (counted);
- from each query line only ``_id`` and ``text`` are read. ``metadata`` is ignored
  on purpose: SciFact keeps its evidence labels there, and putting them next to
  the question would leak the answer key into it;
- qrels layouts accepted: tab-separated ``query-id, corpus-id, score`` with or
  without a header row; tab-separated ``query, doc, doc, score`` (the document
  column repeated, seen in published subsets); TREC ``query 0 doc score``
  separated by spaces. CRLF endings and a BOM are fine;
- an id field with spaces around it (``"1\\t 0 31715818\\t1"``) is refused with
  its ``path:line``: it is a TREC line mixed into tab-separated columns, and
  reading it as given would import a document id that does not exist;
- judgements for query ids the queries file does not have, non-positive scores
  and repeated (query, document) pairs are counted in the set's meta.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import orjson

from reviewtui.evalset.io.files import decode_utf8, json_error, read_bytes
from reviewtui.evalset.io.problems import json_type_name
from reviewtui.evalset.io.skipped import ImportNotes
from reviewtui.evalset.model.items import EvalItem, EvalSet, EvalSetError, InputError

__all__ = ["BEIR_NOTE", "read_beir", "read_qrels"]

BEIR_NOTE = (
    "Gold here marks whole documents, not the passages that answer. Use this set to compare "
    "retrievers; do not use it to rank chunkers, since every chunk of a gold document scores "
    "as relevant whether or not it holds the answer."
)
_TREC_ITERATION = frozenset({"0", "Q0", "q0"})
_MAX_SCORE = 2**63 - 1


def read_beir(
    queries_path: str | os.PathLike[str], qrels_path: str | os.PathLike[str], *, evalset_id: str = "beir"
) -> EvalSet:
    """Read BEIR queries and judgements into a set with document-level gold in item meta."""
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
    meta.update(notes.meta())
    return EvalSet(id=evalset_id, items=tuple(items), source="beir", meta=meta)


def _read_queries(path: str | os.PathLike[str], notes: ImportNotes) -> tuple[dict[str, str], dict[str, int]]:
    name = str(path)
    text = decode_utf8(path, read_bytes(path))
    queries: dict[str, str] = {}
    lines: dict[str, int] = {}
    for number, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        try:
            record = orjson.loads(line)
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
            shown = "is missing" if text_value is None else f"must be a string, found {json_type_name(text_value)}"
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
        queries[query_id] = text_value
    return queries, lines


def _is_int(value: str) -> bool:
    return value.lstrip("+-").isdigit()


def _split(line: str, tabbed: bool) -> list[str]:
    return line.split("\t") if tabbed else line.split()


def read_qrels(path: str | os.PathLike[str], notes: ImportNotes | None = None) -> dict[str, dict[str, int]]:
    """Positive judgements as ``{query_id: {doc_id: grade}}``, in file order."""
    name = str(path)
    notes = notes if notes is not None else ImportNotes(Path(path).name)
    text = decode_utf8(path, read_bytes(path))
    judged: dict[str, dict[str, int]] = {}
    tabbed: bool | None = None
    for number, line in enumerate(text.splitlines(), 1):
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

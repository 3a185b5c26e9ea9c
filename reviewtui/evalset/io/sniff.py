"""Choosing a reader: by extension (:func:`read_evalset`) or by looking (:func:`open_evalset`).

``read_evalset`` follows the reference page: ``.csv`` goes to ``read_csv`` and
anything else to ``read_jsonl``, without looking inside the file.

``open_evalset`` is what the command line uses, since a reviewer should be able
to open any file the io layer understands. It decides in this order:

1. ``format=`` when given: ``jsonl``, ``csv``, ``beir``, ``legalbench``,
   ``squad``, ``hotpotqa`` or ``nq``;
2. a folder holding ``queries.jsonl`` and ``qrels/*.tsv`` is BEIR (``split=`` names the
   qrels file to read; without it ``qrels/test.tsv`` when present, else the only ``.tsv``);
3. ``.csv`` / ``.tsv`` is CSV;
4. ``.json``: ``{"tests": ...}`` or a list of tests is LegalBench-RAG,
   ``{"data": [{"paragraphs": ...}]}`` is SQuAD, a list of rows with
   ``supporting_facts`` and ``context`` is HotpotQA;
5. anything else is JSONL: HotpotQA when its first record has
   ``supporting_facts`` and ``context``, Natural Questions (simplified) when it
   has ``question_text`` and ``document_text``, question rows of another tool
   (ragas, deepeval, a pandas export: ``rows``, see :mod:`.jsonrows`) when it is
   one, otherwise the native format. A ``.json`` list of such rows is ``rows`` too.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

import orjson

from reviewtui.evalset.io.files import BOM, JsonLinesInJson, loads_allowing_nan, named, open_for_reading, read_json, refuse_read_once
from reviewtui.evalset.io.jsonl import LinePrints, read_jsonl
from reviewtui.evalset.io.names import file_name_text
from reviewtui.evalset.io.shapes import is_dpr, is_hotpot_record, is_nq_record, is_question_row, is_squad
from reviewtui.evalset.model.items import EvalSet, EvalSetError, InputError

__all__ = ["FORMATS", "beir_files", "open_evalset", "read_evalset", "sniff_format"]

FORMATS = ("jsonl", "csv", "beir", "legalbench", "squad", "hotpotqa", "nq", "dpr", "rows")


def read_evalset(path: str | os.PathLike[str]) -> EvalSet:
    """``read_csv`` for a ``.csv`` file, ``read_jsonl`` for anything else (extension only)."""
    if Path(path).suffix.lower() == ".csv":
        from reviewtui.evalset.io.csvfile import read_csv

        return read_csv(path)
    return read_jsonl(path)


def beir_files(folder: str | os.PathLike[str], split: str | None = None) -> tuple[Path, Path]:
    """The queries file and the qrels file of a BEIR folder (``split`` chooses among several qrels files)."""
    from reviewtui.evalset.io.beir import beir_folder_files

    queries, qrels, _others = beir_folder_files(folder, split)
    return queries, qrels


def _first_record(path: Path) -> Any:
    with open_for_reading(path) as handle:
        for number, raw in enumerate(handle, 1):
            if number == 1:
                raw = raw.removeprefix(BOM)
            if raw.strip():
                try:
                    return loads_allowing_nan(raw)  # a first row holding NaN is still recognised
                except orjson.JSONDecodeError:
                    return None
    return None


def _json_kind(payload: Any) -> str | None:
    if isinstance(payload, dict) and "tests" in payload:
        return "legalbench"
    if is_squad(payload):
        return "squad"
    if is_dpr(payload):
        return "dpr"
    if isinstance(payload, list) and payload:
        first = payload[0]
        if is_hotpot_record(first):
            return "hotpotqa"
        if isinstance(first, dict) and "query" in first and "snippets" in first:
            return "legalbench"
        if is_question_row(first, listed=True):
            return "rows"
    return None


def _json_lines_kind(p: Path, exc: JsonLinesInJson) -> str:
    """The format of a .json file that holds JSON Lines: question rows (a Hugging Face dataset's `to_json`
    writes them so) are read as they are; anything else is refused as it was, naming the formats to choose."""
    first = exc.first
    if is_hotpot_record(first) or is_dpr([first]) or is_nq_record(first) or not is_question_row(first):
        raise exc  # the formats to choose are named (as the sniffing of a .jsonl file would choose them)
    refuse_read_once(p, "name its format (--from rows on the command line, format=\"rows\" in Python)")
    return "rows"


def sniff_format(path: str | os.PathLike[str]) -> str:
    """The format :func:`open_evalset` would pick for ``path`` (one of :data:`FORMATS`)."""
    p = Path(path)
    if p.is_dir():
        beir_files(p)
        return "beir"
    suffix = p.suffix.lower()
    if suffix in (".csv", ".tsv"):
        return "csv"
    if suffix == ".json":
        try:
            payload = read_json(p)
        except JsonLinesInJson as exc:
            return _json_lines_kind(p, exc)
        kind = _json_kind(payload)
        if kind is None:
            raise InputError(
                "is JSON but not a format reviewtui knows (LegalBench-RAG `tests`, SQuAD `data`, "
                "HotpotQA rows, DPR `positive_ctxs`, other tools' question rows); name the format if it is one of them "
                "(--from on the command line, format= in Python)",
                path=str(p),
            )
        return kind
    # Looking at its first line would use up what the reader needs.
    refuse_read_once(
        p,
        "its format cannot be recognised first; name it "
        f"(--from on the command line, format= in Python: {', '.join(FORMATS)})",
    )
    first = _first_record(p)
    if is_hotpot_record(first):
        return "hotpotqa"
    if is_dpr([first]):
        return "dpr"
    if is_question_row(first):
        return "rows"
    return "nq" if is_nq_record(first) else "jsonl"


def is_native_jsonl(path: str | os.PathLike[str], format: str | None = None) -> bool:
    """Whether ``path`` is read as a native JSONL set (``format`` as given, or sniffed from its first line only).

    Its reader leaves nothing out and renumbers nothing (a bad line is an error), so what its header counts of
    that kind (``describe_skipped``) was said when the set it came from was read, not now. False when unsure.
    """
    if format is not None:
        return format.lower() == "jsonl"
    p = Path(path)
    if p.suffix.lower() in (".json", ".csv", ".tsv") or p.is_dir():
        return False
    try:
        return sniff_format(p) == "jsonl"
    except (EvalSetError, OSError):
        return False


def refuse_split(path: str | os.PathLike[str]) -> NoReturn:
    """The error for a split given with a set that is not a BEIR folder."""
    raise InputError("a split (--split) chooses among the qrels files of a BEIR folder; this is not one", path=os.fspath(path))


def open_evalset(
    path: str | os.PathLike[str],
    *,
    format: str | None = None,  # the public name
    progress: Callable[[int, int], None] | None = None,
    split: str | None = None,
    line_prints: LinePrints | None = None,
    share_strings: bool = False,
) -> EvalSet:
    """Open any eval set the io layer can read, choosing the reader by looking at it.

    ``progress(done, total)`` reports how far a native JSONL file has been read
    (other formats are small enough to read without it). ``split`` chooses the
    qrels file of a BEIR folder (``"train"`` reads ``qrels/train.tsv``); for any
    other format it is refused rather than ignored. ``line_prints`` collects the hashes of
    some items' lines of a native JSONL file (see :class:`~reviewtui.evalset.io.jsonl.LinePrints`);
    other formats leave it empty. ``share_strings`` is passed to :func:`read_jsonl` (native
    JSONL only).
    """
    # The readers are imported here, on demand, so that opening a JSONL set loads none of the others.
    from reviewtui.evalset.io.beir import beir_folder_files, read_beir
    from reviewtui.evalset.io.csvfile import read_csv
    from reviewtui.evalset.io.dpr import dpr_from_payload, read_dpr
    from reviewtui.evalset.io.hotpot import hotpot_from_records, read_hotpotqa
    from reviewtui.evalset.io.jsonrows import read_rows, rows_from_records
    from reviewtui.evalset.io.legalbench import (
        legalbench_from_payload,
        read_legalbench_rag,
    )
    from reviewtui.evalset.io.nq import read_nq
    from reviewtui.evalset.io.squad import read_squad, squad_from_payload

    p = Path(path)
    kind = format.lower() if format else None
    if kind is not None and kind not in FORMATS:
        raise InputError(f"unknown format {format!r}; choose one of: {', '.join(FORMATS)}")
    if split is not None and (kind not in (None, "beir") or not p.is_dir()):
        refuse_split(p)
    if kind is None and p.suffix.lower() == ".json" and not p.is_dir():
        try:
            payload = read_json(p)  # parse once and hand the result over
        except JsonLinesInJson as exc:
            payload, kind = None, _json_lines_kind(p, exc)
        else:
            kind = _json_kind(payload)
        if kind == "legalbench":
            return legalbench_from_payload(payload, str(p))
        if kind == "squad":
            return squad_from_payload(payload, str(p))
        if kind == "hotpotqa":
            return hotpot_from_records(((None, row) for row in payload), str(p))
        if kind == "dpr":
            return dpr_from_payload(payload, str(p))
        if kind == "rows" and payload is not None:  # a list; JSON Lines are read by read_rows below
            return rows_from_records(((None, row) for row in payload), str(p))
    if kind is None:
        # A folder can only be BEIR, and its reader says why when it is not; sniffing it would
        # refuse a folder of several qrels files before the split could choose one.
        kind = "beir" if p.is_dir() else sniff_format(p)
    if kind == "beir":
        if not p.is_dir():
            raise InputError("reading as BEIR needs the BEIR folder (queries.jsonl and qrels/)", path=str(p))
        queries, qrels, others = beir_folder_files(p, split)
        return read_beir(queries, qrels, evalset_id=file_name_text(named(p).name), other_qrels=others)
    readers: dict[str, Callable[[Path], EvalSet]] = {
        "jsonl": read_jsonl,
        "csv": read_csv,
        # named after its file, as every other format's set (the reader's documented default is for the API)
        "legalbench": lambda p: read_legalbench_rag(p, evalset_id=None),
        "squad": read_squad,
        "hotpotqa": read_hotpotqa,
        "nq": read_nq,
        "dpr": read_dpr,
        "rows": read_rows,
    }
    if kind == "jsonl":
        return read_jsonl(p, progress=progress, line_prints=line_prints, share_strings=share_strings)
    return readers[kind](p)

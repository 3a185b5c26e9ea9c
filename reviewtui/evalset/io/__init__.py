"""Reading and writing eval sets: the one place files come in and go out.

Native formats: JSONL (:mod:`.jsonl`, the lossless one) and CSV (:mod:`.csvfile`,
for spreadsheets). Benchmark formats: BEIR (:mod:`.beir`) and LegalBench-RAG
(:mod:`.legalbench`). Conversions: SQuAD v1/v2 and PIAF (:mod:`.squad`), HotpotQA
(:mod:`.hotpot`), Natural Questions simplified (:mod:`.nq`), other tools' question rows in JSON
(:mod:`.jsonrows`). :func:`open_evalset` picks among them by looking at the file;
:func:`read_evalset` goes by extension only. Every reader raises
:class:`~reviewtui.evalset.model.items.EvalSetError` with ``path``/``line``/``field``
for a bad file, and counts what it skipped in the set's meta
(:func:`describe_skipped` says it in one line). Every writer is atomic.

A file that holds no items reads as an empty set: a header-only JSONL or CSV file is
what writing an empty set gives (a CSV file needs its header row at least). A command
that works on questions refuses such a set with :func:`require_questions`, so that an
empty file is turned away in the same words whatever its format.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from reviewtui._lazy import lazy_exports

if TYPE_CHECKING:
    from reviewtui.evalset.model.items import EvalSet

# Loaded on first use: opening a JSONL set for review should not pay for the CSV, BEIR or NQ readers.
_EXPORTS = {
    "FORMATS": ".sniff",
    "describe_skipped": ".skipped",
    "dpr_corpus": ".dpr",
    "hotpot_corpus": ".hotpot",
    "open_evalset": ".sniff",
    "read_beir": ".beir",
    "read_csv": ".csvfile",
    "read_dpr": ".dpr",
    "read_evalset": ".sniff",
    "read_hotpotqa": ".hotpot",
    "read_jsonl": ".jsonl",
    "read_legalbench_rag": ".legalbench",
    "nq_corpus": ".nq",
    "read_nq": ".nq",
    "read_qrels": ".beir",
    "read_rows": ".jsonrows",
    "read_squad": ".squad",
    "sniff_format": ".sniff",
    "squad_corpus": ".squad",
    "write_csv": ".csvfile",
    "write_jsonl": ".jsonl",
}

__all__ = sorted([*_EXPORTS, "require_questions"])
__getattr__, _ = lazy_exports(__name__, _EXPORTS)


def __dir__() -> list[str]:
    return list(__all__)


def require_questions(evalset: EvalSet, path: str | os.PathLike[str]) -> EvalSet:
    """``evalset`` as it is, or an :class:`InputError` naming ``path`` when it holds no questions.

    An empty file handed to a command is almost always the wrong file or a failed
    export, so saying so beats an empty review or report. What the reader skipped is
    added, since it often says why nothing is left (rows all blank, queries without a
    positive judgement).
    """
    if len(evalset):
        return evalset
    from reviewtui.evalset.io.skipped import describe_skipped
    from reviewtui.evalset.model.errors import InputError

    where = "folder" if os.path.isdir(path) else "file"
    skipped = describe_skipped(evalset)
    raise InputError(f"no questions in this {where}" + (f"; {skipped}" if skipped else ""), path=str(path))

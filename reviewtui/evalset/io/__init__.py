"""Reading and writing eval sets: the one place files come in and go out.

Native formats: JSONL (:mod:`.jsonl`, the lossless one) and CSV (:mod:`.csvfile`,
for spreadsheets). Benchmark formats: BEIR (:mod:`.beir`) and LegalBench-RAG
(:mod:`.legalbench`). Conversions: SQuAD v1/v2 and PIAF (:mod:`.squad`), HotpotQA
(:mod:`.hotpot`), Natural Questions simplified (:mod:`.nq`). :func:`open_evalset` picks among them by looking at the file;
:func:`read_evalset` goes by extension only. Every reader raises
:class:`~reviewtui.evalset.model.EvalSetError` with ``path``/``line``/``field``
for a bad file, and counts what it skipped in the set's meta
(:func:`describe_skipped` says it in one line). Every writer is atomic.
"""

from __future__ import annotations

from reviewtui.evalset.io.beir import read_beir, read_qrels
from reviewtui.evalset.io.csvfile import read_csv, write_csv
from reviewtui.evalset.io.hotpot import hotpot_corpus, read_hotpotqa
from reviewtui.evalset.io.jsonl import read_jsonl, write_jsonl
from reviewtui.evalset.io.legalbench import read_legalbench_rag
from reviewtui.evalset.io.nq import nq_corpus, read_nq
from reviewtui.evalset.io.skipped import describe_skipped
from reviewtui.evalset.io.sniff import FORMATS, open_evalset, read_evalset, sniff_format
from reviewtui.evalset.io.squad import read_squad, squad_corpus

__all__ = [
    "FORMATS",
    "describe_skipped",
    "hotpot_corpus",
    "open_evalset",
    "read_beir",
    "read_csv",
    "read_evalset",
    "read_hotpotqa",
    "read_jsonl",
    "read_legalbench_rag",
    "nq_corpus",
    "read_nq",
    "read_qrels",
    "read_squad",
    "sniff_format",
    "squad_corpus",
    "write_csv",
    "write_jsonl",
]

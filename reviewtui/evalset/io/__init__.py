"""Reading and writing eval sets: the one place files come in and go out.

Native formats: JSONL (:mod:`.jsonl`, the lossless one) and CSV (:mod:`.csvfile`,
for spreadsheets). Benchmark formats: BEIR (:mod:`.beir`) and LegalBench-RAG
(:mod:`.legalbench`). Conversions: SQuAD v1/v2 and PIAF (:mod:`.squad`), HotpotQA
(:mod:`.hotpot`), Natural Questions simplified (:mod:`.nq`). :func:`open_evalset` picks among them by looking at the file;
:func:`read_evalset` goes by extension only. Every reader raises
:class:`~reviewtui.evalset.model.items.EvalSetError` with ``path``/``line``/``field``
for a bad file, and counts what it skipped in the set's meta
(:func:`describe_skipped` says it in one line). Every writer is atomic.
"""

from __future__ import annotations

from reviewtui._lazy import lazy_exports

# Loaded on first use: opening a JSONL set for review should not pay for the CSV, BEIR or NQ readers.
_EXPORTS = {
    "FORMATS": ".sniff",
    "describe_skipped": ".skipped",
    "hotpot_corpus": ".hotpot",
    "open_evalset": ".sniff",
    "read_beir": ".beir",
    "read_csv": ".csvfile",
    "read_evalset": ".sniff",
    "read_hotpotqa": ".hotpot",
    "read_jsonl": ".jsonl",
    "read_legalbench_rag": ".legalbench",
    "nq_corpus": ".nq",
    "read_nq": ".nq",
    "read_qrels": ".beir",
    "read_squad": ".squad",
    "sniff_format": ".sniff",
    "squad_corpus": ".squad",
    "write_csv": ".csvfile",
    "write_jsonl": ".jsonl",
}

__all__ = sorted(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

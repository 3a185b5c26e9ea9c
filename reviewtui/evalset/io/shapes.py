"""How each converted format looks once parsed: the tests the sniffer and the readers share.

Kept apart from the readers so that recognising a native JSONL file does not
load the HotpotQA, Natural Questions and SQuAD converters.
"""

from __future__ import annotations

from typing import Any

__all__ = ["is_dpr", "is_hotpot_record", "is_nq_record", "is_squad"]


def is_hotpot_record(record: Any) -> bool:
    return isinstance(record, dict) and "supporting_facts" in record and "context" in record


def is_dpr(payload: Any) -> bool:
    """Whether parsed JSON is a DPR retriever file: a list of questions with their ``positive_ctxs``."""
    return isinstance(payload, list) and bool(payload) and isinstance(payload[0], dict) and "positive_ctxs" in payload[0]


def is_nq_record(record: Any) -> bool:
    return isinstance(record, dict) and "question_text" in record and "document_text" in record


def is_squad(payload: Any) -> bool:
    """Whether parsed JSON has the SQuAD shape (a ``data`` list of articles with paragraphs)."""
    if not isinstance(payload, dict) or not isinstance(payload.get("data"), list):
        return False
    if not payload["data"]:  # SQuAD's shape with no article in it: said as a file without questions, not an unknown format
        return set(payload) <= {"data", "version"}
    first = payload["data"][0]
    return isinstance(first, dict) and "paragraphs" in first

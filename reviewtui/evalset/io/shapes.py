"""How each converted format looks once parsed: the tests the sniffer and the readers share.

Kept apart from the readers so that recognising a native JSONL file does not
load the HotpotQA, Natural Questions and SQuAD converters.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["is_dpr", "is_hotpot_record", "is_nq_record", "is_question_row", "is_squad", "question_key"]


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


#: An item's own fields (EvalItem's; a test keeps the two equal): a record with none but these is one of our
#: items missing a field, not another tool's row.
ITEM_FIELDS = frozenset(("id", "question", "gold", "anchors", "qtype", "answer", "meta"))
#: Our own items' evidence: a record holding it is ours whatever else it holds (read as a row, it went to meta).
OUR_EVIDENCE = frozenset(("anchors", "gold"))


def question_key(record: Mapping[str, Any]) -> str | None:
    """The key a question row's question is under, chosen as the CSV reader chooses a column (in its aliases'
    order; of two keys spelt alike, the first)."""
    from reviewtui.evalset.io.csvcells import FIELD_ALIASES, normalise_header

    names: dict[str, str] = {}
    for key in record:
        names.setdefault(normalise_header(str(key)), key)
    return next((names[alias] for alias in FIELD_ALIASES["question"] if alias in names), None)


def is_question_row(record: Any, *, listed: bool = False) -> bool:
    """Whether a parsed JSON record is a question row of another tool (see :mod:`.jsonrows`). ``listed``: the
    record is one of a JSON list, which no native format is, so that a row whose keys are all an item's field
    names (``question`` and ``answer``, as a pandas frame of them writes it) is a row too: no native reader
    would say which field it lacks."""
    if not isinstance(record, Mapping) or "_evalset" in record or OUR_EVIDENCE & record.keys():
        return False
    extra = record.keys() - ITEM_FIELDS
    if not extra and not listed:  # one of our items with a field missing: the native reader says which
        return False
    # Looked at only now: a native item has been told apart above without loading the CSV reader's names.
    from reviewtui.evalset.io.csvcells import FIELD_ALIASES, normalise_header

    if "id" in record and "question" in record and extra:
        known = {name for names in FIELD_ALIASES.values() for name in names}
        if not any(normalise_header(str(key)) in known for key in extra):
            return False  # one of our items with a key misspelt ("anwser"): refused as one, naming the key
    key = question_key(record)
    if key is None or not isinstance(record[key], str):  # OpenAI evals' `input` is a list of messages
        return False
    # An answer that is neither a text nor a list of texts (Hugging Face's SQuAD `answers` object) would be no
    # answer, and the rows no better read than refused.
    answers = {*FIELD_ALIASES["answer"], "answers"}
    return all(
        value is None or isinstance(value, str) or (isinstance(value, list) and all(isinstance(v, str) for v in value))
        for key, value in record.items()
        if normalise_header(str(key)) in answers
    )

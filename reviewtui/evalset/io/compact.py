"""Keeping a loaded set small in memory.

pydantic records, on every model instance, the set of field names the input
gave (``model_fields_set``). A line of a native file gives all of them, so a
loaded item and each of its anchors would carry an identical set of five to
seven names: about 730 bytes each, some 2 KB of a typical item's 4 KB. Readers
of large files therefore point every such instance at one shared set per model
type. The set is only read by pydantic, and pydantic copies it before changing
it (``model_copy(update=...)``); the models are frozen, so nothing else changes
it in place. Instances whose input left fields out keep their own set.

Evidence repeats across items: questions about one document name the same
source, and questions about one passage quote the same words. Parsing gives
each occurrence its own string, so a reader also passes a table of the strings
seen so far, and each anchor's source and quote (each span's document) is
pointed at the first equal string. Equal strings are interchangeable (the
models compare and hash by value), and the table lives only as long as the read.
"""

from __future__ import annotations

from pydantic import BaseModel

from reviewtui.evalset.model.items import EvalItem, GoldAnchor, GoldSpan, Span

__all__ = ["nested_meta_keys", "share_field_sets"]

#: what a reader passes as ``strings``: each distinct evidence string, keyed by itself
StringTable = dict[str, str]

_set_fields_set = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_ALL_ITEM = set(EvalItem.model_fields)
_ALL_ANCHOR = set(GoldAnchor.model_fields)
_ALL_GOLD = set(GoldSpan.model_fields)
_ALL_SPAN = set(Span.model_fields)
_N_ITEM, _N_ANCHOR, _N_GOLD, _N_SPAN = len(_ALL_ITEM), len(_ALL_ANCHOR), len(_ALL_GOLD), len(_ALL_SPAN)


def share_field_sets(item: EvalItem, strings: StringTable | None = None) -> int:
    """Point the item's (and its evidence's) complete field-name sets at shared ones, and with
    ``strings`` its evidence's sources and quotes at the equal strings read before them.

    Returns how many keys the JSON object the item was read from held, counted once each: its
    own, its evidence's and those of ``meta`` itself, not of objects nested in meta values (see
    :func:`nested_meta_keys`). A reader compares it with the colons of the line, to find a key
    given twice (see ``jsonl.may_repeat_a_key``).
    """
    fields_set = item.__pydantic_fields_set__
    keys = len(fields_set) + len(item.meta)
    if len(fields_set) == _N_ITEM:
        _set_fields_set(item, _ALL_ITEM)
    for anchor in item.anchors:
        given = len(anchor.__pydantic_fields_set__)
        keys += given
        if given == _N_ANCHOR:
            _set_fields_set(anchor, _ALL_ANCHOR)
        if strings is not None:
            fields = anchor.__dict__  # frozen against setting attributes, not against this
            source, quote = fields["source_id"], fields["quote"]
            fields["source_id"] = strings.setdefault(source, source)
            fields["quote"] = strings.setdefault(quote, quote)
    for gold in item.gold:
        given = len(gold.__pydantic_fields_set__)
        if given == _N_GOLD:
            _set_fields_set(gold, _ALL_GOLD)
        span = gold.span
        keys += given + len(span.__pydantic_fields_set__)
        if len(span.__pydantic_fields_set__) == _N_SPAN:
            _set_fields_set(span, _ALL_SPAN)
        if strings is not None:
            fields = span.__dict__
            doc = fields["doc_id"]
            fields["doc_id"] = strings.setdefault(doc, doc)
    return keys


def nested_meta_keys(item: EvalItem) -> int:
    """The keys of the JSON objects nested in ``item``'s meta values (dicts within dicts and lists)."""
    return sum(_keys_within(value) for value in item.meta.values() if isinstance(value, (dict, list)))


def _keys_within(value: object) -> int:
    """The keys of every JSON object in ``value`` (dicts within dicts and lists included)."""
    if isinstance(value, dict):
        return len(value) + sum(_keys_within(inner) for inner in value.values() if isinstance(inner, (dict, list)))
    if isinstance(value, list):
        return sum(_keys_within(inner) for inner in value if isinstance(inner, (dict, list)))
    return 0

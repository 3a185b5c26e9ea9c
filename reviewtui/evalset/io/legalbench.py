"""LegalBench-RAG: tests with a query and snippets that point at character ranges.

The file is ``{"tests": [...]}`` or a bare list of tests. Each test has a
``query``, an optional ``answer`` and ``snippets`` of ``{"file_path", "span":
[start, end]}``. Snippets become resolved gold spans (``GoldSpan(Span(file_path,
start, end))``), which is what this format offers that others do not.

The set's id is the file's name without its extension (``privacy_qa.json``: ``privacy_qa``), as a set of any
other format without an id of its own is named, so that a review journal of one LegalBench-RAG file is refused for another; only
:func:`read_legalbench_rag`, whose reference page documents it, still gives ``legalbench-rag`` unless told
otherwise. (The app and the commands read through ``open_evalset``, which names the set after its file.)

Item ids are ``lb<n>`` with ``n`` the test's position in the file, so an id
still points at its test when earlier tests were skipped. A test's other fields
(``tags``) go into its item's meta as they are, and a snippet's other fields into
``meta["snippet_fields"]``, one ``{"snippet": position, ...}`` per such snippet.

Two kinds of trouble are told apart:

- gaps are skipped and counted in the set's meta: a test without a query
  (``tests_skipped``) and a snippet without ``file_path`` or ``span``, with a
  span of fewer than two numbers, with one that covers no text, or with one
  that starts before its document (``snippets_skipped``, by reason);
- wrong types raise :class:`EvalSetError` naming the file and what was expected
  (``tests`` not a list, a snippet that is not an object, a span given as a
  string or as more than two numbers...), because guessing there would import
  wrong offsets silently.

The benchmark file holds no document text, so a span cannot be measured against
its document here (``reviewtui resolve`` does that with the corpus). A snippet
that carries its text (``answer``) is measured against that text instead: the
text is the document's characters over the span, so a span of another length,
one running past its document's end among them, is refused as well.

A snippet's own ``answer`` text (PrivacyQA carries one: the exact text of the
span) also becomes a :class:`GoldAnchor` quote on the same file, so the item is
portable as well as resolved and a reviewer can read the evidence without the
corpus at hand. The quote gives no occurrence, since there is no text here to count its copies in; when
its text is also earlier in the file, the resolver still finds it at the snippet's span, which the item's
gold holds (see :mod:`reviewtui.evalset.evidence.locate`).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from reviewtui.evalset.io.files import read_json
from reviewtui.evalset.io.names import LEGALBENCH, file_name_text
from reviewtui.evalset.io.problems import json_type_name
from reviewtui.evalset.model.items import (
    EvalItem,
    EvalSet,
    EvalSetError,
    InputError,
    validation_to_evalset_error,
)

__all__ = ["legalbench_from_payload", "read_legalbench_rag"]


def read_legalbench_rag(path: str | os.PathLike[str], *, evalset_id: str | None = LEGALBENCH) -> EvalSet:
    """Read a LegalBench-RAG benchmark file into a set of items with resolved gold spans.

    Its id is ``evalset_id``: ``legalbench-rag`` unless told otherwise, as the reference page has it; None names
    the set after its file, as the app and the commands do."""
    name = str(path)
    return legalbench_from_payload(read_json(path), name, evalset_id=evalset_id)


#: The fields of a test and of a snippet this reader turns into the item.
_TEST_FIELDS = frozenset(("query", "snippets", "answer"))
_SNIPPET_FIELDS = frozenset(("file_path", "span", "answer"))
#: Where an item keeps its snippets' other fields: one entry per such snippet, ``{"snippet": position, ...}``.
SNIPPET_FIELDS_KEY = "snippet_fields"


def _wrong(name: str, where: str, expected: str, found: Any) -> EvalSetError:
    return InputError(f"{where} must be {expected}, found {json_type_name(found)}", path=name, field=where)


def legalbench_from_payload(payload: Any, name: str, *, evalset_id: str | None = None) -> EvalSet:
    """Build the set from already-parsed JSON (``name`` is used in messages and meta, and, without
    ``evalset_id``, for the set's id: the file's name without its extension, as the other readers give)."""
    if isinstance(payload, dict):
        if "tests" not in payload:
            keys = ", ".join(f"`{k}`" for k in list(payload)[:6]) or "none"
            raise InputError(f"expected a `tests` list or a bare list of tests; top-level keys: {keys}", path=name)
        tests = payload["tests"]
        if not isinstance(tests, list):
            raise _wrong(name, "tests", "a list of tests", tests)
    elif isinstance(payload, list):
        tests = payload
    else:
        raise _wrong(name, "the file", "an object with `tests` or a list of tests", payload)

    snippet_skips: dict[str, int] = {}
    tests_skipped = 0
    items: list[EvalItem] = []
    for index, test in enumerate(tests):
        where = f"tests[{index}]"
        if not isinstance(test, dict):
            raise _wrong(name, where, "an object", test)
        query = test.get("query")
        if query is None or (isinstance(query, str) and not query.strip()):
            tests_skipped += 1
            continue
        if not isinstance(query, str):
            raise _wrong(name, f"{where}.query", "a string", query)
        answer = test.get("answer")
        if answer is not None and not isinstance(answer, str):
            raise _wrong(name, f"{where}.answer", "a string", answer)
        snippets = test.get("snippets", [])
        if not isinstance(snippets, list):
            raise _wrong(name, f"{where}.snippets", "a list", snippets)
        gold: list[dict[str, Any]] = []
        anchors: list[dict[str, Any]] = []
        quoted: set[tuple[str, str]] = set()  # (file, quote) of the anchors so far, kept as they are added
        # Fields the benchmark's own files do not have (tags, a note on a snippet) go along in the item's meta
        # as the file has them: dropped, they were lost without a word.
        meta: dict[str, Any] = {
            # a test's own field named as the reader's key for snippet fields keeps its value under another name
            (key if key != SNIPPET_FIELDS_KEY else f"test_{key}"): value
            for key, value in test.items()
            if key not in _TEST_FIELDS
        }
        for position, snippet in enumerate(snippets):
            if isinstance(snippet, dict) and not _SNIPPET_FIELDS.issuperset(snippet):
                extra = {key: value for key, value in snippet.items() if key not in _SNIPPET_FIELDS}
                meta.setdefault(SNIPPET_FIELDS_KEY, []).append({"snippet": position, **extra})
            evidence = _snippet(snippet, f"{where}.snippets[{position}]", name)
            if isinstance(evidence, str):
                snippet_skips[evidence] = snippet_skips.get(evidence, 0) + 1
                continue
            span, quote = evidence
            gold.append({"span": span, "grade": 2})
            # The set of quotes was built again from every anchor for each snippet: one test of 10,000
            # snippets took 8 s to read, and each doubling four times as long.
            if quote is not None and (span["doc_id"], quote) not in quoted:
                quoted.add((span["doc_id"], quote))
                anchors.append({"source_id": span["doc_id"], "quote": quote})
        try:
            items.append(
                EvalItem.model_validate(
                    {"id": f"lb{index}", "question": query, "gold": gold, "anchors": anchors, "answer": answer, "meta": meta}
                )
            )
        except ValidationError as exc:
            error = validation_to_evalset_error(exc)
            raise InputError(f"{where}: {error.message}", path=name, field=f"{where}.{error.field}") from None
    meta = {
        "granularity": "span",
        "source_file": Path(name).name,
        "tests_in_file": len(tests),
        "tests_skipped": tests_skipped,
        "snippets_skipped": snippet_skips,
    }
    set_id = evalset_id if evalset_id is not None else file_name_text(Path(name).stem)
    return EvalSet(id=set_id, items=tuple(items), source=LEGALBENCH, meta=meta)


def _snippet(snippet: Any, where: str, name: str) -> tuple[dict[str, Any], str | None] | str:
    """(span record, quote or None) for a usable snippet, or the reason it is skipped."""
    if not isinstance(snippet, dict):
        raise _wrong(name, where, "an object", snippet)
    file_path = snippet.get("file_path")
    if file_path is None or file_path == "":
        return "had no `file_path`"
    if not isinstance(file_path, str):
        raise _wrong(name, f"{where}.file_path", "a string", file_path)
    span = snippet.get("span")
    if span is None:
        return "had no `span`"
    if not isinstance(span, list):
        raise _wrong(name, f"{where}.span", "a list of two numbers [start, end]", span)
    if len(span) < 2:
        return "`span` shorter than two numbers"
    if len(span) > 2:  # start and end would be a guess: taking the first two dropped the rest without a word
        raise InputError(
            f"{where}.span must be two whole numbers [start, end], found a list of {len(span)}",
            path=name,
            field=f"{where}.span",
        )
    start, end = span[0], span[1]
    for value in (start, end):
        if not isinstance(value, int) or isinstance(value, bool):
            raise _wrong(name, f"{where}.span", "two whole numbers [start, end]", value)
    if start < 0:  # [-1, 2] was said to cover no text: it is an offset before its document's first character
        return "`span` starts before its document (a negative offset)"
    if end <= start:
        return "`span` covers no text"
    quote = snippet.get("answer")
    if quote is not None and not isinstance(quote, str):  # a wrong type, as the module notes say, is refused
        raise _wrong(name, f"{where}.answer", "the span's text, a string", quote)
    if quote is not None and not quote.strip():
        quote = None  # blank: no text given, so nothing to measure the span against either
    if quote is not None and len(quote) != end - start:
        raise InputError(
            f"{where}.span [{start}, {end}] covers {end - start:,} characters, but the snippet's text "
            f"(`answer`) has {len(quote):,}: the span does not point at that text "
            "(it may run past the end of its document)",
            path=name,
            field=f"{where}.span",
        )
    return {"doc_id": file_path, "start": start, "end": end}, quote

"""Natural Questions, "simplified" JSONL release, converted to an eval set.

One question per line: ``example_id``, ``question_text``, ``document_url``,
``document_text`` (the Wikipedia page as space-separated tokens, HTML tags being
tokens of their own such as ``<P>`` or ``<Td_colspan="2">``) and ``annotations``
(``long_answer`` and ``short_answers`` as token ranges, ``yes_no_answer``).

The conversion:

- ``id`` is ``example_id`` as a string; the question is kept as written (NQ
  questions are lower case search queries without a question mark, so the
  quality checks will rightly point at some of them);
- the document is the page without its tag tokens, the rest joined by single
  spaces (:func:`nq_corpus` returns these texts, keyed by source id). Its source
  id is the page title from ``document_url`` (``title=`` parameter), else
  ``nq-<example id>``;
- the first annotation with a long answer and a short or yes/no answer (else the
  first with a long answer) gives one :class:`GoldAnchor` quoting that long answer
  and one :class:`GoldSpan` over the same characters of the document, so quote and
  span agree and ``--corpus`` can show it in context;
- ``answer`` is that annotation's short answers joined with ``"; "``, or
  ``"yes"`` / ``"no"`` for a yes/no answer; the token ranges are kept in item meta,
  and the other annotators' answers, where they differ, in ``meta["other_answers"]``;
- a question that no annotator could answer from the page gets qtype
  ``"unanswerable"`` and no evidence (counted in ``questions_without_answer``);
  one with no annotation at all gets no evidence and no type;
- a line without a question is skipped and counted (``questions_skipped``);
- a malformed annotation (not an object, offsets that are not token numbers, a
  long answer holding no text) is passed over like a missing one.

A title names one page text. When the same title comes with a different text
(another revision of the page), that page gets ``<title>@<oldid>`` instead, so a
span never points into the wrong text.
"""

from __future__ import annotations

import hashlib
import html
import os
from array import array
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from pydantic import ValidationError

from reviewtui.evalset.io.files import json_lines
from reviewtui.evalset.io.names import file_name_text
from reviewtui.evalset.io.problems import json_type_name, question_missing, record_id
from reviewtui.evalset.io.shapes import is_nq_record
from reviewtui.evalset.io.skipped import ImportNotes
from reviewtui.evalset.io.squad import occurrence_before
from reviewtui.evalset.model.items import (
    EvalItem,
    EvalSet,
    InputError,
    QuestionType,
    validation_to_evalset_error,
)

__all__ = ["is_nq_record", "nq_corpus", "nq_from_records", "read_nq"]


def read_nq(path: str | os.PathLike[str], *, evalset_id: str | None = None) -> EvalSet:
    """Convert a Natural Questions simplified JSONL file; see the module notes."""
    return nq_from_records(json_lines(path), str(path), evalset_id=evalset_id)


def nq_corpus(path: str | os.PathLike[str]) -> dict[str, str]:
    """The documents the conversion quotes from (pages without tags), keyed by source id."""
    corpus: dict[str, str] = {}
    for example in _examples(json_lines(path), str(path), ImportNotes(Path(path).name)):
        corpus.setdefault(example.doc_id, example.page.text)
    return corpus


def _page_title(row: dict[str, Any]) -> str | None:
    """The page title named in ``document_url`` (its ``title=`` parameter), if any."""
    return _url_parameter(row, "title")


def _url_parameter(row: dict[str, Any], key: str) -> str | None:
    url = row.get("document_url")
    if not isinstance(url, str):
        return None
    try:
        values = parse_qs(urlsplit(html.unescape(url)).query).get(key)
    except ValueError:  # not a URL urllib can take apart (an unclosed "[" of an IPv6 address, say)
        return None
    return values[0] if values and values[0].strip() else None


class _DocumentIds:
    """One source id per distinct page text, the same whichever function walks the file.

    A title names its page; the same title with a different text (another
    revision, ``oldid`` in the URL) gets ``<title>@<oldid>``, and failing that the
    example's own id, so a span never points into another page's text.
    """

    def __init__(self) -> None:
        self._digests: dict[str, bytes] = {}  # a digest, not the text: NQ pages are large and many

    def assign(self, row: dict[str, Any], text: str, fallback: str) -> str:
        digest = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()
        title = _page_title(row)
        oldid = _url_parameter(row, "oldid")
        candidates = [title, f"{title}@{oldid}" if title and oldid else None, fallback, f"{fallback}@{len(self._digests)}"]
        for candidate in filter(None, candidates):
            known = self._digests.setdefault(candidate, digest)
            if known == digest:
                return candidate
        raise AssertionError("the last candidate is always new")  # pragma: no cover


@dataclass
class _Example:
    line: int
    item_id: str
    question: str
    row: dict[str, Any]
    page: _Page
    doc_id: str


def _examples(records: Iterator[tuple[int, Any]], name: str, notes: ImportNotes) -> Iterator[_Example]:
    """The rows that become items, with their ids and pages; the one walk both readers share."""
    ids = _DocumentIds()
    seen: dict[str, int] = {}
    for line, row in records:
        if not isinstance(row, dict):
            raise InputError(f"expected a Natural Questions example object, found {json_type_name(row)}", path=name, line=line)
        item_id = record_id(row.get("example_id"), path=name, line=line, field="example_id") or f"nq-line{line}"
        missing = question_missing(row, "question_text")
        if missing is not None:
            notes.skip("questions_skipped", missing, item_id)
            continue
        question: str = row["question_text"]  # text, and not blank (question_missing)
        if item_id in seen:
            raise InputError(f"question id {item_id!r} is used twice: at line {seen[item_id]} and here", path=name, line=line)
        seen[item_id] = line
        document_text = row.get("document_text")
        if not isinstance(document_text, str):
            # Without its page an example has no evidence: it was typed unanswerable, as if no annotator had answered.
            raise InputError(
                f"`document_text` must be the page's text, found {json_type_name(document_text)}", path=name, line=line,
                field="document_text",
            )
        page = _Page(document_text)
        yield _Example(line, item_id, question, row, page, ids.assign(row, page.text, f"nq-{item_id}"))


_PIECE = 1 << 20  # characters of a page split into tokens at a time


def _token_runs(document_text: str) -> Iterator[list[str]]:
    """The page's tokens (``document_text.split(" ")``), a megabyte of the page at a time."""
    at = 0
    while True:
        cut = document_text.find(" ", at + _PIECE)
        if cut < 0:
            yield document_text[at:].split(" ")
            return
        yield document_text[at:cut].split(" ")
        at = cut + 1


class _Page:
    """A page without its tag tokens, and where each remaining token starts and ends in it.

    Where each token starts and ends is kept in two arrays of numbers (-1 for a tag), and the page is
    split a piece at a time: a pair of numbers per token, and every token held at once, took 28 times
    the page's size (560 MB for a page of 20 MB).
    """

    def __init__(self, document_text: Any) -> None:
        self._starts = array("q")
        self._ends = array("q")
        texts: list[str] = []
        at = -1  # where the next token starts, less the space joining it to the one before
        for tokens in _token_runs(document_text) if isinstance(document_text, str) else ():
            pieces: list[str] = []
            for token in tokens:
                if not token or _is_tag(token):
                    self._starts.append(-1)
                    self._ends.append(-1)
                    continue
                at += 1  # the joining space (none before the first token: at starts at -1)
                self._starts.append(at)
                at += len(token)
                self._ends.append(at)
                pieces.append(token)
            if pieces:
                texts.append(" ".join(pieces))
        self.text = " ".join(texts)

    @property
    def tokens(self) -> int:
        """How many tokens the page has, its tags and empty ones included."""
        return len(self._starts)

    def chars(self, start: Any, end: Any) -> tuple[int, int] | None:
        """Character range of the text tokens in token range ``[start, end)``; None if it holds none."""
        if not (isinstance(start, int) and isinstance(end, int)) or start < 0 or end <= start:
            return None
        starts, last = self._starts, min(end, len(self._starts)) - 1
        while start <= last and starts[start] < 0:
            start += 1
        while last >= start and starts[last] < 0:
            last -= 1
        return (starts[start], self._ends[last]) if start <= last else None


def _is_tag(token: str) -> bool:
    return len(token) > 2 and token[0] == "<" and token[-1] == ">"


def nq_from_records(
    records: Iterator[tuple[int, Any]], name: str, *, evalset_id: str | None = None
) -> EvalSet:
    """Build the set from parsed NQ rows given as ``(line number, row)``."""
    notes = ImportNotes(Path(name).name)
    items: list[EvalItem] = []
    in_file = unanswered = 0

    def counted() -> Iterator[tuple[int, Any]]:
        nonlocal in_file
        for record in records:
            in_file += 1
            yield record

    for example in _examples(counted(), name, notes):
        try:
            item = _item(example)
        except ValidationError as exc:
            problem = validation_to_evalset_error(exc)
            raise InputError(problem.message, path=name, line=example.line, field=problem.field) from None
        except _Malformed as exc:
            raise InputError(str(exc), path=name, line=example.line, field="annotations") from None
        unanswered += item.qtype == QuestionType.UNANSWERABLE
        items.append(item)
    meta: dict[str, Any] = {"converted_from": "Natural Questions (simplified)", "source_file": Path(name).name}
    meta["questions_in_file"] = in_file
    if unanswered:
        meta["questions_without_answer"] = unanswered
    meta.update(notes.meta())
    return EvalSet(id=evalset_id or file_name_text(Path(name).stem), items=tuple(items), source="natural-questions", meta=meta)


def _dicts(value: Any) -> list[dict[str, Any]]:
    """The objects in a list field; anything else (a malformed field) counts as empty."""
    return [entry for entry in value if isinstance(entry, dict)] if isinstance(value, list) else []


class _Malformed(ValueError):
    """An annotation that is not one NQ writes: said with the row's line, never read as "no answer"."""


def _token_range(span: Any, where: str, page: _Page) -> None:
    """Refuse a token range that NQ would not write: not whole numbers, or outside the page (NQ's -1, -1 is "none")."""
    if not isinstance(span, dict):
        raise _Malformed(f"{where} must be an object with start_token and end_token, found {json_type_name(span)}")
    start, end = _whole(span, "start_token", where), _whole(span, "end_token", where)
    if (start, end) == (-1, -1):
        return
    if 0 <= end < start:
        raise _Malformed(f"{where} ends at token {end} before it starts at token {start}: it covers no text")
    if 0 <= end == start:
        raise _Malformed(f"{where} starts and ends at token {start}: it covers no text")
    if not 0 <= start < end <= page.tokens:
        # Read past the page's end, the span and the short answer took the rest of the page.
        raise _Malformed(f"{where} covers tokens [{start}, {end}), outside the page's {page.tokens:,} tokens")


def _whole(span: dict[str, Any], name: str, where: str) -> int:
    value = span.get(name)
    if not isinstance(value, int) or isinstance(value, bool):
        raise _Malformed(f"{where}.{name} must be a whole number, found {json_type_name(value)}")
    return value


def _checked_annotations(row: dict[str, Any], page: _Page) -> list[dict[str, Any]]:
    """The row's annotations, each refused unless NQ could have written it (a malformed one was read as no answer)."""
    annotations = row.get("annotations")
    if annotations is None:
        return []
    if not isinstance(annotations, list):
        raise _Malformed(f"`annotations` must be a list, found {json_type_name(annotations)}")
    for a, annotation in enumerate(annotations):
        where = f"annotations[{a}]"
        if not isinstance(annotation, dict):
            raise _Malformed(f"{where} must be an object, found {json_type_name(annotation)}")
        if annotation.get("long_answer") is not None:
            _token_range(annotation["long_answer"], f"{where}.long_answer", page)
        shorts = annotation.get("short_answers")
        if shorts is not None and not isinstance(shorts, list):
            raise _Malformed(f"{where}.short_answers must be a list, found {json_type_name(shorts)}")
        for k, short in enumerate(shorts or ()):
            _token_range(short, f"{where}.short_answers[{k}]", page)
    return annotations


def _item(example: _Example) -> EvalItem:
    page, doc, row = example.page, example.doc_id, example.row
    meta: dict[str, Any] = {"document_url": row.get("document_url")}
    # Each annotation with a long answer, with the answer it gives. NQ's dev rows have five annotators, and the
    # first with a long answer may give no short one while a later one does: taking the first alone lost the
    # answer. The first that gives both is taken, else the first with a long answer; the other annotators'
    # answers are kept in meta["other_answers"].
    answered: list[tuple[dict[str, Any], tuple[int, int], list[dict[str, Any]], str | None]] = []
    for annotation in _checked_annotations(row, page):
        long_answer = annotation.get("long_answer")
        if not isinstance(long_answer, dict):
            continue
        where = page.chars(long_answer.get("start_token"), long_answer.get("end_token"))
        if where is None or not page.text[where[0] : where[1]].strip():
            continue
        shorts = _dicts(annotation.get("short_answers"))
        short_texts = [page.text[a:b] for a, b in filter(None, (page.chars(s.get("start_token"), s.get("end_token")) for s in shorts))]
        yes_no = annotation.get("yes_no_answer")
        given = yes_no.lower() if yes_no in ("YES", "NO") else "; ".join(t for t in short_texts if t.strip()) or None
        answered.append((annotation, where, shorts, given))
    if answered:
        annotation, (start, end), shorts, answer = next((a for a in answered if a[3] is not None), answered[0])
        long_answer = annotation["long_answer"]
        yes_no = annotation.get("yes_no_answer")
        others = list(dict.fromkeys(given for _, _, _, given in answered if given is not None and given != answer))
        if others:
            meta["other_answers"] = others
        meta["long_answer_tokens"] = [long_answer["start_token"], long_answer["end_token"]]
        meta["short_answer_tokens"] = [[s.get("start_token"), s.get("end_token")] for s in shorts]
        if yes_no in ("YES", "NO"):
            meta["yes_no_answer"] = yes_no
        quote = page.text[start:end]
        return EvalItem.model_validate(
            {
                "id": example.item_id,
                "question": example.question,
                "anchors": [{"source_id": doc, "quote": quote, "occurrence": occurrence_before(page.text, quote, start)}],
                "gold": [{"span": {"doc_id": doc, "start": start, "end": end}}],
                "answer": answer,
                "meta": meta,
            }
        )
    if not row.get("annotations"):
        # No annotator at all (`annotations` absent, null or empty: a file of questions only) says nothing of the
        # page: typed unanswerable, every such question was counted as one no annotator could answer.
        return EvalItem.model_validate({"id": example.item_id, "question": example.question, "meta": meta})
    return EvalItem.model_validate(
        {"id": example.item_id, "question": example.question, "qtype": QuestionType.UNANSWERABLE, "meta": meta}
    )

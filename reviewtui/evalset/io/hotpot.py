"""HotpotQA converted to an eval set.

Two shapes are read: the Hugging Face JSONL export (one question per line,
``supporting_facts: {"title": [...], "sent_id": [...]}`` and ``context: {"title":
[...], "sentences": [[...]]}``) and the original JSON list (``_id``,
``supporting_facts: [[title, sent_id]]``, ``context: [[title, [sentences]]]``).

The conversion:

- each supporting fact becomes a :class:`GoldAnchor` quoting that sentence (its
  leading space removed) with ``source_id`` = the paragraph title as HotpotQA
  gives it (titles keep HotpotQA's HTML entities, e.g. ``&amp;``, since they are
  ids); ``occurrence`` counts the copies of the sentence in that paragraph's text that start before it (as
  the resolver counts them: overlapping copies and one running into the sentence included);
- ``type`` bridge becomes qtype ``multi_hop``, comparison becomes ``comparative``;
  any other type is left unset; the original ``type`` and ``level`` are kept in
  item meta, and so is any field of the row this reader does not read (an annotator's name);
- ``answer`` is kept as given (including "yes"/"no");
- a row with the evidence fields of reviewtui's own sets (``anchors``, ``gold``) is refused, as is one
  with neither ``context`` nor ``supporting_facts``: another format read as HotpotQA would lose its evidence;
- a supporting fact whose title or sentence index is not in the context is
  skipped and counted (``supporting_facts_skipped``); a row without a question
  is skipped and counted (``questions_skipped``).

No gold spans are made: HotpotQA has no canonical parse of its paragraphs.
:func:`hotpot_corpus` returns each paragraph's text (its sentences joined as given)
under its title, which is what the anchors' quotes and occurrences refer to.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from reviewtui.evalset.io.files import json_records
from reviewtui.evalset.io.names import file_name_text
from reviewtui.evalset.io.problems import json_type_name, question_missing, record_id
from reviewtui.evalset.io.shapes import is_hotpot_record
from reviewtui.evalset.io.skipped import ImportNotes
from reviewtui.evalset.io.squad import occurrence_before
from reviewtui.evalset.model.items import (
    EvalItem,
    EvalSet,
    InputError,
    QuestionType,
    validation_to_evalset_error,
)

__all__ = ["hotpot_corpus", "hotpot_from_records", "is_hotpot_record", "read_hotpotqa"]

_QTYPES = {"bridge": QuestionType.MULTI_HOP, "comparison": QuestionType.COMPARATIVE}
#: The fields of a HotpotQA row this reader turns into the item; any other is kept in the item's meta as it is.
_READ = frozenset(("id", "_id", "question", "answer", "type", "level", "supporting_facts", "context"))
#: Evidence fields of a reviewtui item, which no HotpotQA row has: a row holding one is another format read as this
#: one, and its evidence would be lost. (A ``meta`` or ``qtype`` field goes along as any other field does.)
_NATIVE = frozenset(("anchors", "gold"))


def read_hotpotqa(path: str | os.PathLike[str], *, evalset_id: str | None = None) -> EvalSet:
    """Convert a HotpotQA JSONL (HF export) or JSON list (original release) file."""
    return hotpot_from_records(json_records(path), str(path), evalset_id=evalset_id)


def hotpot_corpus(path: str | os.PathLike[str]) -> dict[str, str]:
    """Paragraph texts by title, the documents the anchors quote (the first text of a title wins).

    HotpotQA names a paragraph by its Wikipedia title, and rows that share a title share its text.
    A title given another text elsewhere is warned about, with a count: the quotes of the rows that
    gave that other text may not be found in the document written.
    """
    corpus: dict[str, str] = {}
    notes = ImportNotes(Path(path).name)
    for _, row in json_records(path):
        if isinstance(row, dict):
            for title, sentences in _paragraphs(row.get("context"), notes).items():
                text = "".join(sentences)
                if corpus.setdefault(title, text) != text:
                    notes.note_once("titles_with_other_texts", repr(title))
    notes.warn(
        "titles_with_other_texts",
        "titles given another text by a later paragraph, of which the document keeps the first: "
        "{n} ({examples}); the quotes of questions on those later paragraphs may not be found in it",
    )
    return corpus


def _list(value: Any) -> list[Any]:
    """A list field; anything else (a malformed row) reads as empty, so its facts are skipped and counted."""
    return value if isinstance(value, list) else []


def _paragraphs(context: Any, notes: ImportNotes | None = None) -> dict[str, list[str]]:
    """Title -> sentences, from either context shape (the first paragraph of a title wins; with ``notes``,
    a later one of another text is counted)."""
    out: dict[str, list[str]] = {}
    if isinstance(context, dict):
        pairs: Iterable[tuple[Any, Any]] = zip(_list(context.get("title")), _list(context.get("sentences")))
    else:
        pairs = ((entry[0], entry[1]) for entry in _list(context) if isinstance(entry, list) and len(entry) == 2)
    for title, sentences in pairs:
        if isinstance(title, str) and isinstance(sentences, list):
            text = [s if isinstance(s, str) else "" for s in sentences]
            if out.setdefault(title, text) != text and notes is not None:
                notes.note_once("titles_with_other_texts", repr(title))
    return out


def _facts(facts: Any, notes: ImportNotes, item_id: str) -> list[tuple[Any, Any]]:
    """The ``(title, sentence index)`` pairs of a row's supporting facts, in either shape; a fact that
    is not one (a title without its index, a three-item entry, not a list at all) is counted as skipped."""
    if isinstance(facts, dict):
        titles, indices = _list(facts.get("title")), _list(facts.get("sent_id"))
        for _ in range(abs(len(titles) - len(indices))):  # zip would drop the unpaired ones without a word
            notes.skip("supporting_facts_skipped", "a title without a sentence index, or the reverse", item_id)
        return list(zip(titles, indices))
    if facts is not None and not isinstance(facts, list):
        notes.skip("supporting_facts_skipped", "supporting_facts is not a list", item_id)
    pairs: list[tuple[Any, Any]] = []
    for fact in _list(facts):
        if isinstance(fact, list) and len(fact) == 2:
            pairs.append((fact[0], fact[1]))
        else:
            notes.skip("supporting_facts_skipped", "not a [title, sentence index] pair", item_id)
    return pairs


def hotpot_from_records(
    records: Iterable[tuple[int | None, Any]], name: str, *, evalset_id: str | None = None
) -> EvalSet:
    """Build the set from parsed HotpotQA rows given as ``(line number or None, row)``."""
    notes = ImportNotes(Path(name).name)
    items: list[EvalItem] = []
    seen: dict[str, int | None] = {}
    in_file = 0
    for position, (line, row) in enumerate(records):
        in_file += 1
        if not isinstance(row, dict):
            raise InputError(f"expected a HotpotQA question object, found {json_type_name(row)}", path=name, line=line)
        key = "id" if "id" in row else "_id"
        where = f"row {position + 1}" if line is None else None
        item_id = record_id(row.get(key), path=name, line=line, field=key, where=where) or f"hp{position}"
        missing = question_missing(row, "question")
        if missing is not None:
            notes.skip("questions_skipped", missing, item_id)
            continue
        question: str = row["question"]  # text, and not blank (question_missing)
        native = sorted(key for key in _NATIVE if isinstance(row.get(key), list))  # as lists: a gold "yes" is a field
        if native:
            # Read as HotpotQA (--from hotpotqa), a reviewtui set lost its anchors without a word.
            fields = " and ".join(f"`{k}`" for k in native)
            raise InputError(
                f"question {item_id!r} has {fields}, evidence as reviewtui's own sets hold it, not as HotpotQA does; "
                "read the file as one of those (--from jsonl)",
                path=name,
                line=line,
            )
        if "context" not in row and "supporting_facts" not in row:
            # Kept, the row was a question with no evidence and nothing said; HotpotQA gives every one its paragraphs.
            raise InputError(
                f"question {item_id!r} has neither `context` nor `supporting_facts`, which every HotpotQA row has",
                path=name,
                line=line,
            )
        if item_id in seen:
            where = f"line {seen[item_id]}" if seen[item_id] else "an earlier row"
            raise InputError(f"question id {item_id!r} is used twice: at {where} and here", path=name, line=line)
        seen[item_id] = line
        try:
            items.append(_item(item_id, question, row, notes))
        except InputError as exc:
            raise InputError(exc.message, path=name, line=line, field=exc.field) from None
        except ValidationError as exc:  # `type` or `level` kept in meta, nested too deep for instance
            problem = validation_to_evalset_error(exc)
            raise InputError(f"question {item_id!r}: {problem.message}", path=name, line=line, field=problem.field) from None
    meta: dict[str, Any] = {"converted_from": "HotpotQA", "source_file": Path(name).name, "questions_in_file": in_file}
    meta.update(notes.meta())
    return EvalSet(id=evalset_id or file_name_text(Path(name).stem), items=tuple(items), source="hotpotqa", meta=meta)


def _item(item_id: str, question: str, row: dict[str, Any], notes: ImportNotes) -> EvalItem:
    paragraphs = _paragraphs(row.get("context"))
    anchors: list[dict[str, Any]] = []
    seen: set[tuple[str, str, int]] = set()
    for title, sent_id in _facts(row.get("supporting_facts"), notes, item_id):
        sentences = paragraphs.get(title)
        if sentences is None:
            notes.skip("supporting_facts_skipped", "title not in the context", item_id)
            continue
        if not isinstance(sent_id, int) or isinstance(sent_id, bool):
            notes.skip("supporting_facts_skipped", "sentence index not a whole number", item_id)
            continue
        if not 0 <= sent_id < len(sentences):
            notes.skip("supporting_facts_skipped", "sentence index out of range", item_id)
            continue
        sentence = sentences[sent_id]
        quote = sentence.strip()
        if not quote:
            notes.skip("supporting_facts_skipped", "blank sentence", item_id)
            continue
        # Counted in the paragraph's text as the resolver counts: every copy starting before this sentence's
        # text, one running into it or overlapping another included.
        start = sum(map(len, sentences[:sent_id])) + len(sentence) - len(sentence.lstrip())
        occurrence = occurrence_before("".join(sentences), quote, start)
        # One quote per copy of a sentence: two facts naming two sentences of the same words are two quotes (the
        # second was dropped as a repeat of the first, and nothing counted it); the same fact twice is one.
        if (title, quote, occurrence) in seen:
            notes.note("supporting_facts_repeated", repr(item_id))
            continue
        seen.add((title, quote, occurrence))
        anchors.append({"source_id": title, "quote": quote, "occurrence": occurrence})
    kind = row.get("type")
    meta: dict[str, Any] = {key: row[key] for key in ("type", "level") if key in row}
    # Fields this reader does not read (an annotator, a source) go along in meta as the file has them.
    meta.update((key, value) for key, value in row.items() if key not in _READ)
    answer = row.get("answer")
    if answer is not None and not isinstance(answer, str):
        # HotpotQA's answers are text; a number or a list here was read as no answer at all.
        raise InputError(f"question {item_id!r}: `answer` must be text, found {json_type_name(answer)}", field="answer")
    if isinstance(answer, str) and not answer.strip():
        # No answer to expect: read as none, as DPR's and a CSV's blank answers are, and counted (it went without a word)
        notes.skip("answers_skipped", "blank", repr(item_id))
        answer = None
    return EvalItem.model_validate(
        {
            "id": item_id,
            "question": question,
            "anchors": anchors,
            "qtype": _QTYPES.get(kind) if isinstance(kind, str) else None,
            "answer": answer,
            "meta": meta,
        }
    )

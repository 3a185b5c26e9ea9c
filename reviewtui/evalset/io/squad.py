"""SQuAD-format files (v1.1 and v2.0, and French PIAF files) converted to an eval set.

SQuAD is ``{"version", "data": [{"title", "paragraphs": [{"context", "qas": [...]}]}]}``;
each question has ``answers`` of ``{"text", "answer_start"}`` and, in v2.0,
``is_impossible`` with ``plausible_answers``. The conversion:

- each paragraph is one source document with id ``"<title>#<paragraph index>"``
  (:func:`squad_corpus` returns their texts, for resolving or reading); a missing or null
  title is an empty one (``"#0"``), a whole number is written in digits, and any other
  title that is not text is refused;
- an answerable question gets, for the sentence(s) holding its answers, one
  :class:`GoldAnchor` quoting them and one :class:`GoldSpan` over the same
  characters of the paragraph, so the two forms of evidence agree. Sentences are
  found by a simple rule (``.``, ``!``, ``?`` or ``…`` followed by a space and a
  character that is not lower case, or a line break), good enough for a quote
  and not meant as a linguistic tool;
- ``answer`` is the first answer's text; every given answer, with its offset,
  is kept in ``meta["answers"]`` (SQuAD lists several per question, often
  overlapping: "10th century" / "the first half of the 10th century"), a repeat
  too (a dev file gives each annotator's answer: the repeats are their agreement);
- ``is_impossible`` gives qtype ``"unanswerable"``, no evidence and no answer;
  the plausible answers are kept in ``meta["plausible_answers"]`` (as entries, with their offsets), and the paragraph it was
  asked of is named in ``meta["context_document"]`` (the document :func:`squad_corpus` writes).
  Answers with text on such a question contradict the flag; the flag wins, as in the SQuAD 2.0
  training readers, and the texts are kept in ``meta["answers_in_file"]`` and counted
  (``impossible_with_answers``). Text-less entries (``{"text": "", "answer_start": -1}``, some
  tools' way of writing "no answer") are no contradiction;
- an answer whose text is not at its offset is looked up near it, counted
  (``answer_offsets_corrected``) and its given offset kept as ``answer_start_in_file``
  in ``meta["answers"]``; one that cannot be found is left out and counted (``answers_skipped``).
  An ``answer_start`` that is not a whole number of 0 or more (missing, text, true/false,
  negative) is no offset: the answer is looked up the same way;
- an empty question (PIAF ``tiny.json`` has one) is skipped and counted
  (``questions_skipped``); a question without an ``id`` (PIAF ``faq.json``) gets
  ``a<article>-p<paragraph>-q<question>``;
- article fields other than ``title`` and ``paragraphs`` (PIAF's ``categorie``,
  ``theme``, ``sous_theme``, ``dossier``, ``link``; ``id`` as ``article_id``) go into item meta as
  written (PIAF's " Histoire " keeps its spaces). They are not question types, so qtype
  stays unset for the classifier to fill in; the article title and paragraph
  index are in ``meta["title"]`` and ``meta["paragraph"]``. A paragraph's and a question's
  other fields (``document_id``, an ``annotator``) go into item meta too (a name it already
  uses as ``squad_<name>``), and an answer's other fields stay in its entry of ``meta["answers"]``.
"""

from __future__ import annotations

import os
import re
from bisect import bisect_left, bisect_right
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from reviewtui.evalset.io.files import read_json
from reviewtui.evalset.io.names import file_name_text
from reviewtui.evalset.io.problems import json_type_name, question_missing, record_id
from reviewtui.evalset.io.shapes import is_squad
from reviewtui.evalset.io.skipped import ImportNotes
from reviewtui.evalset.model.items import (
    CONTEXT_DOCUMENT,
    EvalItem,
    EvalSet,
    InputError,
    QuestionType,
    validation_to_evalset_error,
)

__all__ = ["is_squad", "read_squad", "sentence_bounds", "squad_corpus", "squad_from_payload"]

_SENTENCE_END = re.compile(r"[.!?…]+[\"'»”’)\]]*(?=\s+[^\sa-zà-ÿ]|\s*$)|\n+")


def read_squad(path: str | os.PathLike[str], *, evalset_id: str | None = None) -> EvalSet:
    """Convert a SQuAD-format JSON file; see the module notes for what becomes what."""
    name = str(path)
    return squad_from_payload(read_json(path), name, evalset_id=evalset_id)


def squad_corpus(path: str | os.PathLike[str]) -> dict[str, str]:
    """Paragraph texts keyed by the source ids the conversion uses (``"<title>#<index>"``), read by the
    reader's rules (a null list is empty; a paragraph that is not an object with a ``context`` string is
    refused), so that every item's document is here under the name the item gives it."""
    name = str(path)
    payload = read_json(path)
    if not is_squad(payload):
        raise InputError("not a SQuAD file: expected a `data` list of articles with `paragraphs`", path=name)
    texts: dict[str, str] = {}
    names = _article_names(payload["data"], name)
    for a, article in enumerate(payload["data"]):
        for p, paragraph in enumerate(_list(article.get("paragraphs"), f"data[{a}].paragraphs", name)):
            texts[f"{names[a]}#{p}"] = _context(paragraph, f"data[{a}].paragraphs[{p}]", name)
    return texts


def _article_names(articles: list[Any], name: str, notes: ImportNotes | None = None) -> list[str]:
    """Each article's name in its paragraphs' document ids: its title, and for an article whose title an
    earlier one has, the title and its number among them ("T (2)"), so that no two paragraphs share an id.

    Two articles titled alike gave their first paragraphs one document, "T#0": converting the set with
    its corpus kept one text, and the other article's questions pointed into it.
    """
    names: list[str] = []
    taken: set[str] = set()
    seen: dict[str, int] = {}
    for a, article in enumerate(articles):
        if not isinstance(article, dict):
            raise InputError(f"data[{a}] must be an article object, found {json_type_name(article)}", path=name)
        # The title is part of every document id of the article, so it follows the rule for ids: null is no
        # title, as a missing one is (str() made it "None#0"), and a list or true/false is refused, not spelled.
        title = record_id(article.get("title"), path=name, line=None, field="title", where=f"data[{a}]") or ""
        shown = title
        if title in taken:
            number = seen.get(title, 1)
            while shown in taken:
                number += 1
                shown = f"{title} ({number})" if title else f"({number})"
            seen[title] = number
            if notes is not None:
                notes.note("articles_renamed", f"data[{a}] {title!r} as {shown!r}")
        taken.add(shown)
        names.append(shown)
    return names


def _context(paragraph: Any, where: str, name: str) -> str:
    if not isinstance(paragraph, dict) or not isinstance(paragraph.get("context", ""), str):
        raise InputError(f"{where} must be an object with a `context` string", path=name, field=where)
    if "context" not in paragraph and paragraph.get("qas"):
        # Read as an empty text, its answers were each "not in its paragraph", and --corpus-out wrote an empty file.
        raise InputError(f"{where} has questions but no `context`, the text their answers are found in", path=name, field=where)
    return paragraph.get("context", "")


def _list(value: Any, where: str, name: str) -> list[Any]:
    """A list field of the file (missing or null reads as empty); anything else is an error naming it."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise InputError(f"{where} must be a list, found {json_type_name(value)}", path=name, field=where)
    return value


def sentence_bounds(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each sentence, without surrounding whitespace."""
    bounds: list[tuple[int, int]] = []
    start = 0
    for match in _SENTENCE_END.finditer(text):
        end = match.end() if not match.group().startswith("\n") else match.start()
        bounds.append((start, end))
        start = match.end()
    bounds.append((start, len(text)))
    out = []
    for s, e in bounds:
        while s < e and text[s].isspace():
            s += 1
        while e > s and text[e - 1].isspace():
            e -= 1
        if e > s:
            out.append((s, e))
    return out


class _Paragraph:
    """One paragraph's context, its sentences, and what its questions have looked up in it so far.

    A paragraph may carry thousands of questions, and a question thousands of answers: each lookup
    walked every sentence, or every place its text was found, so that 10,000 answers on one question
    took seconds, and each doubling four times as long. The sentences are searched by halves and the
    places of a text are found once per paragraph.
    """

    def __init__(self, context: str) -> None:
        self.context = context
        bounds = sentence_bounds(context)
        self._starts = [s for s, _ in bounds]
        self._ends = [e for _, e in bounds]
        self._places: dict[str, list[int]] = {}  # answer text -> where it is, one after the other
        self._before: dict[str, tuple[list[int], bool]] = {}  # quote -> places found so far, and whether that is all

    def sentences_around(self, start: int, end: int) -> tuple[int, int]:
        """From the start of the first sentence to the end of the last one the range [start, end) touches."""
        first = bisect_right(self._ends, start)  # the first sentence ending after start
        last = bisect_left(self._starts, end) - 1  # the last one starting before end
        if first > last:
            return start, end
        return self._starts[first], self._ends[last]

    def places(self, text: str) -> list[int]:
        """Where ``text`` is in the context, left to right, each place after the end of the one before."""
        found = self._places.get(text)
        if found is None:
            found = []
            at = self.context.find(text)
            while at >= 0:
                found.append(at)
                at = self.context.find(text, at + len(text))
            self._places[text] = found
        return found

    def occurrence_before(self, quote: str, start: int) -> int:
        """:func:`occurrence_before` of the context, the places already found kept for the next quote asked."""
        found, complete = self._before.get(quote, ([], False))
        while not complete and (not found or found[-1] < start):
            at = self.context.find(quote, found[-1] + 1 if found else 0)
            if at < 0:
                complete = True
            else:
                found.append(at)
        self._before[quote] = (found, complete)
        return bisect_left(found, start)


def occurrence_before(text: str, quote: str, start: int) -> int:
    """How many times ``quote`` appears in ``text`` before ``start``."""
    count, position = 0, text.find(quote)
    while 0 <= position < start:
        count += 1
        position = text.find(quote, position + 1)
    return count


def _locate(paragraph: _Paragraph, answer: Any) -> tuple[str, int] | str:
    """(text, start) of a usable answer, or the reason it is not usable."""
    if not isinstance(answer, dict) or not isinstance(answer.get("text"), str) or not answer["text"].strip():
        return "no answer text"
    text = answer["text"]
    start = _offset(answer.get("answer_start"))
    if start is not None and paragraph.context[start : start + len(text)] == text:
        return text, start
    found = paragraph.places(text)
    if not found:
        return "answer text not in its paragraph"
    near = start if start is not None else 0
    after = bisect_left(found, near)  # the nearest place is this one or the one before; the earlier on a tie
    return text, min(found[max(after - 1, 0) : after + 1], key=lambda position: abs(position - near))


def _offset(value: Any) -> int | None:
    """``answer_start`` as a character offset, or None when it is not one (missing, text, a fraction, ...).

    true/false are whole numbers to Python: ``true`` pointed at character 1 and, when the text was there,
    was taken without a word. A negative number counts from the paragraph's end in a slice, so ``-4`` could
    match and then fail later as a negative span. Neither is an offset a SQuAD file means: the answer is
    looked up in its paragraph like one without an offset, and the move counted.
    """
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        return None
    return value


def _answer_entries(answers: list[Any]) -> list[dict[str, Any]]:
    """A question's answer entries that have a text, each as the file gives it (offset and any other field, an
    annotator's name): entries without text say nothing to keep. Only the texts were kept, and every offset lost."""
    return [
        {key: _writable(value) for key, value in a.items()}
        for a in answers
        if isinstance(a, dict) and isinstance(a.get("text"), str) and a["text"]
    ]


def _writable(value: Any) -> Any:
    """A whole number past what JSON writers take as text, as the answers' offsets keep one (else the whole file
    was refused, "meta holds the whole number ...", for a meta the file does not have)."""
    return str(value) if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 2**63 else value


#: The fields of a paragraph, a question and an answer this reader turns into the item; any other goes along.
_PARAGRAPH_FIELDS = frozenset(("context", "qas"))
_QUESTION_FIELDS = frozenset(("id", "question", "answers", "is_impossible", "plausible_answers"))
_ANSWER_FIELDS = frozenset(("text", "answer_start"))


#: The names this reader gives item meta of its own: a file's field of one of these names is kept as ``squad_<name>``.
_OWN_META = frozenset(("title", "paragraph", "answers", "plausible_answers", "answers_in_file", CONTEXT_DOCUMENT))


def _keep_other_fields(meta: dict[str, Any], record: dict[str, Any], read: frozenset[str]) -> None:
    """Put the fields of ``record`` this reader does not read into ``meta`` as the file has them (a paragraph's
    ``document_id``, a question's ``annotator``): dropped, they were lost without a word. A name the item's meta
    uses already or that this reader writes (``answers``, ``context_document``, ...) is kept under ``squad_<name>``,
    so that a file's field never passes for the reader's own."""
    for key, value in record.items():
        if key not in read:
            meta[key if key not in meta and key not in _OWN_META else f"squad_{key}"] = value


def _article_meta(article: dict[str, Any]) -> dict[str, Any]:
    meta: dict[str, Any] = {}
    for key, value in article.items():
        if key in ("title", "paragraphs"):
            continue
        name = "article_id" if key == "id" else key
        # as the file has it: " Particuliers " and "Particuliers" may be two values
        meta[name if name not in _OWN_META else f"squad_{name}"] = value
    return meta


def squad_from_payload(payload: Any, name: str, *, evalset_id: str | None = None) -> EvalSet:
    """Build the set from already-parsed SQuAD JSON."""
    if not is_squad(payload):
        raise InputError(
            f"expected SQuAD JSON (a `data` list of articles with `paragraphs`), found {json_type_name(payload)}",
            path=name,
        )
    notes = ImportNotes(Path(name).name)
    items: list[EvalItem] = []
    places: dict[str, str] = {}
    in_file = 0
    names = _article_names(payload["data"], name, notes)
    for a, article in enumerate(payload["data"]):
        shared = _article_meta(article)
        for p, paragraph in enumerate(_list(article.get("paragraphs"), f"data[{a}].paragraphs", name)):
            where = f"data[{a}].paragraphs[{p}]"
            context = _context(paragraph, where, name)
            source_id = f"{names[a]}#{p}"
            sentences = _Paragraph(context)
            for q, qa in enumerate(_list(paragraph.get("qas"), f"{where}.qas", name)):
                in_file += 1
                place = f"{where}.qas[{q}]"
                if not isinstance(qa, dict):
                    raise InputError(f"{place} must be a question object", path=name, field=place)
                missing = question_missing(qa, "question")
                if missing is not None:
                    notes.skip("questions_skipped", missing, place)
                    continue
                question: str = qa["question"]  # text, and not blank (question_missing)
                item_id = record_id(qa.get("id"), path=name, line=None, where=place) or f"a{a}-p{p}-q{q}"
                if item_id in places:
                    raise InputError(
                        f"question id {item_id!r} is used twice: at {places[item_id]} and at {place}",
                        path=name,
                        field=place,
                    )
                places[item_id] = place
                meta = {"title": article.get("title"), "paragraph": p, **shared}
                _keep_other_fields(meta, paragraph, _PARAGRAPH_FIELDS)
                try:
                    items.append(_question_item(item_id, question, qa, sentences, source_id, meta, notes, place, name))
                except ValidationError as exc:  # meta from the article's own fields, nested too deep for instance
                    problem = validation_to_evalset_error(exc)
                    raise InputError(f"{place}: {problem.message}", path=name, field=place) from None
    meta_out: dict[str, Any] = {
        "converted_from": "SQuAD",
        "format_version": str(payload.get("version", "")),
        "source_file": Path(name).name,
        "questions_in_file": in_file,
    }
    meta_out.update(notes.meta())
    notes.warn(
        "articles_renamed",
        "articles titled like an earlier one, their paragraphs' documents named with a number: {n} ({examples})",
    )
    notes.warn(
        "impossible_with_answers",
        "questions marked is_impossible that also list answers, read as unanswerable with the answers kept in "
        "meta['answers_in_file']: {n} ({examples})",
    )
    stem = file_name_text(Path(name).stem)
    return EvalSet(id=evalset_id or stem, items=tuple(items), source="squad", meta=meta_out)


def _question_item(
    item_id: str,
    question: str,
    qa: dict[str, Any],
    paragraph: _Paragraph,
    source_id: str,
    meta: dict[str, Any],
    notes: ImportNotes,
    place: str,
    name: str,
) -> EvalItem:
    _keep_other_fields(meta, qa, _QUESTION_FIELDS)
    impossible = qa.get("is_impossible", False)
    if type(impossible) is int and impossible in (0, 1):  # a spreadsheet's or pandas' way of writing false and true
        impossible = bool(impossible)
    if impossible is not None and not isinstance(impossible, bool):
        # A string "false" is true to Python: it made an answered question unanswerable, its answer dropped.
        raise InputError(f"{place}.is_impossible must be true or false, found {json_type_name(impossible)}", path=name, field=place)
    if impossible:
        plausible = _answer_entries(_list(qa.get("plausible_answers"), f"{place}.plausible_answers", name))
        if plausible:
            meta["plausible_answers"] = plausible
        # Answers as well as the flag: the file says two things. Reading it as the flag says keeps the item
        # what its author marked it, and keeping the answers lets a reviewer settle which of the two is wrong.
        contradicting = _answer_entries(_list(qa.get("answers"), f"{place}.answers", name))
        if contradicting:
            meta["answers_in_file"] = contradicting
            notes.note("impossible_with_answers", repr(item_id))
        # No evidence by design, but a reviewer judges "unanswerable" against the paragraph it was
        # written for: name it (the document squad_corpus writes for it), so the app can show it.
        meta[CONTEXT_DOCUMENT] = source_id
        return EvalItem.model_validate({"id": item_id, "question": question, "qtype": QuestionType.UNANSWERABLE, "meta": meta})
    located: list[tuple[str, int]] = []  # each answer found, once: the evidence
    # Every answer entry found, repeats too (SQuAD's dev files give each annotator's answer, the same span
    # several times: how many agreed is in the repeats), with what the file said beside the text and offset.
    entries: list[dict[str, Any]] = []
    seen: set[tuple[str, int]] = set()
    for answer in _list(qa.get("answers"), f"{place}.answers", name):
        found = _locate(paragraph, answer)
        if isinstance(found, str):
            notes.skip("answers_skipped", found, item_id)
            continue
        if found not in seen:
            seen.add(found)
            located.append(found)
        entry: dict[str, Any] = {"text": found[0], "answer_start": found[1]}
        if _offset(answer.get("answer_start")) != found[1]:  # true == 1 in Python: compare the offset read
            entry["answer_start_in_file"] = _writable(answer.get("answer_start"))
            notes.note("answer_offsets_corrected", item_id)
        if isinstance(answer, dict):
            for key, value in answer.items():
                if key not in _ANSWER_FIELDS:
                    entry.setdefault(key, value)
        entries.append(entry)
    spans = sorted({paragraph.sentences_around(start, start + len(text)) for text, start in located})
    merged: list[tuple[int, int]] = []
    for s, e in spans:
        if merged and s <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(e, merged[-1][1]))
        else:
            merged.append((s, e))
    anchors = []
    gold = []
    for s, e in merged:
        quote = paragraph.context[s:e]
        anchors.append({"source_id": source_id, "quote": quote, "occurrence": paragraph.occurrence_before(quote, s)})
        gold.append({"span": {"doc_id": source_id, "start": s, "end": e}})
    if entries:
        meta["answers"] = entries
    return EvalItem.model_validate(
        {
            "id": item_id,
            "question": question,
            "gold": gold,
            "anchors": anchors,
            "answer": located[0][0] if located else None,
            "meta": meta,
        }
    )

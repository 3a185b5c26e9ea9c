"""DPR's retriever files (Karpukhin et al., 2020: NQ, TriviaQA and others as ``biencoder-*.json``) as an eval set.

A file is a JSON list of questions (or a ``.jsonl`` file of them, one per line), each with ``question``, ``answers`` (a list of texts),
``positive_ctxs`` (the passages that answer it: ``title``, ``text``, ``passage_id`` and scores),
``negative_ctxs`` and ``hard_negative_ctxs``, and in some files ``dataset``. The conversion:

- each question is an item ``q1``, ``q2``, ... in file order (DPR's rows carry no id; a row's ``id``
  or ``qid`` is taken when it has one); the first answer is the expected one, and a question with
  several keeps them all in ``meta["answers"]``;
- each positive passage is a document named ``<title>#<passage_id>`` (``psg_id`` in DPR's TriviaQA files;
  a name another passage's text holds takes a number, see :class:`_Names`; :func:`dpr_corpus` gives their
  texts, for ``convert --corpus-out``), and every one is named in ``meta["gold_documents"]`` as
  ``(document, 1)``, the shape a BEIR set's relevant documents have; a passage listed twice (DPR's
  NQ files give the gold passage again among the retrieved ones, with another score) counts once
  (``positive_passages_repeated``);
- in each positive passage that holds an answer, the sentence holding it becomes a quote, as a SQuAD
  answer's does (NQ's tokenised answers, "July 5 , 2018", are found as the passage writes them,
  "July 5, 2018"); a question none of whose passages holds an answer keeps its documents and has no quote
  (``answers_not_in_passages``), which the evidence checks then say;
- the negative and hard negative passages are left out and counted (``negative_passages_left_out``):
  they are what a retriever is trained against, not a question's evidence;
- ``dataset`` is kept in meta, and so is any other field of a question this reader does not read
  (a ``question_id``), as the file has it.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from reviewtui.evalset.io.files import json_lines, read_json
from reviewtui.evalset.io.names import file_name_text
from reviewtui.evalset.io.problems import json_type_name, question_missing, record_id
from reviewtui.evalset.io.shapes import is_dpr
from reviewtui.evalset.io.skipped import ImportNotes
from reviewtui.evalset.io.squad import occurrence_before, sentence_bounds
from reviewtui.evalset.model.items import EvalItem, EvalSet, InputError, validation_to_evalset_error

__all__ = ["dpr_corpus", "dpr_from_payload", "is_dpr", "read_dpr"]

_NEGATIVES = ("negative_ctxs", "hard_negative_ctxs")
#: The fields of a question this reader turns into the item; any other (a question_id) goes into its meta as it is.
_READ = frozenset(("id", "qid", "question", "answers", "positive_ctxs", "dataset", *_NEGATIVES))


def read_dpr(path: str | os.PathLike[str], *, evalset_id: str | None = None) -> EvalSet:
    """Convert a DPR retriever file (a JSON list, or the same rows one per line in a ``.jsonl`` file)."""
    return dpr_from_payload(_payload(path), str(path), evalset_id=evalset_id)


def _payload(path: str | os.PathLike[str]) -> Any:
    """The file's rows: a JSON list as it stands, or the lines of a JSON Lines file gathered into one."""
    if Path(path).suffix.lower() == ".jsonl":
        return [row for _line, row in json_lines(path)]
    return read_json(path)


def dpr_corpus(path: str | os.PathLike[str]) -> dict[str, str]:
    """The positive passages' texts keyed by the document names the conversion gives them."""
    name = str(path)
    texts: dict[str, str] = {}
    names = _Names()
    for position, row in enumerate(_rows(_payload(path), name)):
        if not isinstance(row, dict) or question_missing(row, "question") is not None:
            continue  # as the reader leaves it out (and says why), so that both name the same passages alike
        for document, text in _positives(row, f"row {position + 1}", name, names):
            texts.setdefault(document, text)
    return texts


def _rows(payload: Any, name: str) -> list[Any]:
    if not isinstance(payload, list):
        raise InputError(
            f"expected DPR JSON (a list of questions with `positive_ctxs`), found {json_type_name(payload)}", path=name
        )
    if payload and not is_dpr(payload):
        # A list, but not of DPR questions: "expected a list ..., found a list" said nothing of what was wrong.
        first = payload[0]
        what = (
            f"its first entry has no `positive_ctxs` (its keys: {', '.join(str(key)[:40] for key in list(first)[:6])})"
            if isinstance(first, dict) and first
            else "its first entry is an empty object"
            if isinstance(first, dict)
            else f"its first entry is {json_type_name(first)}, not a question"
        )
        raise InputError(f"expected DPR JSON (a list of questions with `positive_ctxs`); this list is not one: {what}", path=name)
    return payload


class _Names:
    """Document names for the passages of a whole file, the same for its reader and for :func:`dpr_corpus`.

    A passage is ``<title>#<passage id>`` (DPR's NQ files say ``passage_id``, its TriviaQA files ``psg_id``), or
    ``<title>#`` without an id. A name that another text already holds (two questions' passages titled alike
    and given no id, or a title holding "#") takes a number, ``<title>#<id> (2)``: the first text kept under a
    name was another question's passage, and the quote made from the second was then not found in it.
    """

    def __init__(self) -> None:
        self.texts: dict[str, str] = {}

    @staticmethod
    def base(title: str, passage_id: str | None) -> str:
        """The name a passage has unless another text holds it already."""
        return f"{title}#{passage_id if passage_id is not None else ''}"

    def name(self, title: str, passage_id: str | None, text: str) -> str:
        base = self.base(title, passage_id)
        candidate, number = base, 1
        while self.texts.setdefault(candidate, text) != text:
            number += 1
            candidate = f"{base} ({number})"
        return candidate


def _positives(
    row: dict[str, Any], where: str, name: str, names: _Names, notes: ImportNotes | None = None
) -> list[tuple[str, str]]:
    """(document name, text) of each positive passage of ``row``, each passage once."""
    passages = row.get("positive_ctxs")
    if passages is None:
        return []
    if not isinstance(passages, list):
        raise InputError(f"{where}: `positive_ctxs` must be a list, found {json_type_name(passages)}", path=name)
    found: dict[str, str] = {}
    for k, passage in enumerate(passages):
        field = f"positive_ctxs[{k}]"
        if not isinstance(passage, dict) or not isinstance(passage.get("text", ""), str):
            raise InputError(f"{where}: {field} must be a passage object with a `text` string", path=name, field=field)
        title = record_id(passage.get("title"), path=name, line=None, field=f"{field}.title", where=where) or ""
        key = "passage_id" if "passage_id" in passage else "psg_id"
        passage_id = record_id(passage.get(key), path=name, line=None, field=f"{field}.{key}", where=where)
        text = passage.get("text", "")
        document = names.name(title, passage_id, text)
        if notes is not None and document != names.base(title, passage_id):
            # A passage id is what a retriever's run names: one changed without a word matched no run
            notes.note_once("passages_renamed", repr(document))
        if document in found:  # the same passage (name and text) listed again for this question
            if notes is not None:
                notes.note("positive_passages_repeated", f"{where}: {document!r}")
            continue
        found[document] = text
    return list(found.items())


def dpr_from_payload(payload: Any, name: str, *, evalset_id: str | None = None) -> EvalSet:
    """Build the set from a parsed DPR file (``name``: its path, for messages and the set's id)."""
    rows = _rows(payload, name)
    notes = ImportNotes(Path(name).name)
    items: list[EvalItem] = []
    seen: dict[str, int] = {}
    datasets: set[str] = set()
    names = _Names()
    for position, row in enumerate(rows):
        where = f"row {position + 1}"
        if not isinstance(row, dict):
            raise InputError(f"{where} must be a question object, found {json_type_name(row)}", path=name)
        key = "id" if "id" in row else "qid"
        item_id = record_id(row.get(key), path=name, line=None, field=key, where=where) or f"q{position + 1}"
        missing = question_missing(row, "question")
        if missing is not None:
            notes.skip("questions_skipped", missing, item_id)
            continue
        if item_id in seen:
            raise InputError(f"question id {item_id!r} is used twice: at row {seen[item_id]} and at {where}", path=name)
        seen[item_id] = position + 1
        negatives = sum(len(row[kind]) for kind in _NEGATIVES if isinstance(row.get(kind), list))
        if negatives:
            notes.note("negative_passages_left_out", count=negatives)
        if isinstance(row.get("dataset"), str):
            datasets.add(row["dataset"])
        try:
            items.append(_item(item_id, row, where, name, notes, names))
        except ValidationError as exc:
            problem = validation_to_evalset_error(exc)
            raise InputError(f"{where}, question {item_id!r}: {problem.message}", path=name, field=problem.field) from None
    meta: dict[str, Any] = {"converted_from": "DPR", "source_file": Path(name).name, "questions_in_file": len(rows)}
    if datasets:
        meta["datasets"] = sorted(datasets)
    meta.update(notes.meta())
    return EvalSet(id=evalset_id or file_name_text(Path(name).stem), items=tuple(items), source="dpr", meta=meta)


def _answers(row: dict[str, Any], where: str, name: str, notes: ImportNotes, item_id: str) -> list[str]:
    answers = row.get("answers")
    if answers is None:
        return []
    if not isinstance(answers, list):
        raise InputError(f"{where}: `answers` must be a list of texts, found {json_type_name(answers)}", path=name, field="answers")
    for answer in answers:
        if not isinstance(answer, str):
            raise InputError(f"{where}: `answers` must be a list of texts, and holds {json_type_name(answer)}", path=name, field="answers")
    kept = [answer for answer in answers if answer.strip()]
    for _ in range(len(answers) - len(kept)):  # an answer of spaces alone: nothing to look for or to expect
        notes.skip("answers_skipped", "blank", repr(item_id))
    return kept


def _find_answer(text: str, answer: str) -> tuple[int, int] | None:
    """(start, end) of ``answer`` in a passage, or None.

    DPR's NQ answers are tokenised, a space on each side of punctuation ("July 5 , 2018",
    "Vol . 2"), while its passages are plain text ("July 5, 2018"): where the answer's exact
    words are not in the passage, they are looked for with the spaces next to punctuation
    optional (and any run of spaces between words as one).
    """
    at = text.find(answer)
    if at >= 0:
        return at, at + len(answer)
    tokens = answer.split()
    if not tokens:
        return None
    parts = [re.escape(tokens[0])]
    for before, after in zip(tokens, tokens[1:]):
        between_words = before[-1].isalnum() and after[0].isalnum()
        parts.append(r"\s+" if between_words else r"\s*")
        parts.append(re.escape(after))
    found = re.search("".join(parts), text)
    return (found.start(), found.end()) if found else None


def _item(item_id: str, row: dict[str, Any], where: str, name: str, notes: ImportNotes, names: _Names) -> EvalItem:
    answers = _answers(row, where, name, notes, item_id)
    documents = _positives(row, where, name, names, notes)
    anchors: list[dict[str, Any]] = []
    for document, text in documents:
        for answer in answers:
            place = _find_answer(text, answer)
            if place is None:
                continue
            at, answer_end = place
            # The sentence holding the answer, as the SQuAD reader quotes one (the whole passage when it has one).
            start, end = next(((s, e) for s, e in sentence_bounds(text) if s <= at < e), (0, len(text)))
            end = max(end, answer_end)
            quote = text[start:end]
            anchors.append({"source_id": document, "quote": quote, "occurrence": occurrence_before(text, quote, start)})
            break
    if answers and documents and not anchors:
        notes.note("answers_not_in_passages", item_id)
    meta: dict[str, Any] = {}
    if documents:
        meta["gold_documents"] = [(document, 1) for document, _ in documents]
    if len(answers) > 1:
        meta["answers"] = answers
    if isinstance(row.get("dataset"), str):
        meta["dataset"] = row["dataset"]
    for key, value in row.items():
        if key not in _READ and key not in meta:
            meta[key] = value
    return EvalItem.model_validate(
        {
            "id": item_id,
            "question": row["question"],
            "anchors": anchors,
            "answer": answers[0] if answers else None,
            "meta": meta,
        }
    )

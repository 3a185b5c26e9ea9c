"""What an import left out or changed, counted in ``evalset.meta`` and said in one line.

Readers never drop or alter anything quietly: each one counts what it skipped
(by reason) in the set's meta and, for the format quirks a person would not
expect, also emits a ``UserWarning``. :func:`describe_skipped` reads only those
counts, so its sentence cannot disagree with what the import actually did.

Count keys (present only when something happened, except the LegalBench-RAG
ones the reference page always shows):

=============================  ====================================================
``tests_skipped``              LegalBench-RAG tests without a query (int)
``snippets_skipped``           LegalBench-RAG snippets dropped, by reason (dict)
``queries_dropped``            BEIR queries without a positive judgement (int); with
                               ``qrels_file`` and ``other_qrels_files`` (a BEIR folder
                               with several splits) the sentence names the file read
                               and the ones that were not
``queries_skipped``            BEIR query lines unusable, by reason (dict)
``unknown_query_ids``          BEIR: query ids judged in qrels but absent from queries
``judgements_not_positive``    BEIR: judgement rows with score 0 or less, ignored
``duplicate_judgements``       BEIR: repeated (query, document) rows; the higher score kept
``questions_skipped``          SQuAD/HotpotQA questions left out, by reason (dict)
``answers_skipped``            SQuAD answers whose text or offset was unusable, by reason
``supporting_facts_skipped``   HotpotQA facts that point nowhere, by reason (dict)
``rows_skipped``               CSV rows left out, by reason (dict)
``ids_numbered``               CSV or JSON rows given ids q1, q2, ... (no id column or key)
``evidence_without_source``    CSV rows whose evidence text went to ``meta["contexts"]``
``meta_cells_unreadable``      CSV meta cells that were not a JSON object, read as {}
``columns_renamed``            CSV columns named like an earlier one, kept as "name (column N)"
``columns_unnamed``            CSV columns with no name (not the first), kept as "(column N)"
``rows_short``                 CSV rows with fewer cells than the header, the rest read as empty
``last_row_unended``           CSV: the last of those ends the file without a line break (cut short?)
``articles_renamed``           SQuAD articles titled like an earlier one, whose paragraphs'
                               documents are named "<title> (2)#0", ... so that none is shared
``answer_offsets_corrected``   SQuAD answers whose ``answer_start`` did not point at
                               their text (or was no whole number), moved to where it is
                               (the file's value kept)
``positive_passages_repeated`` DPR positive passages listed twice for one question, kept once
``passages_renamed``           DPR positive passages whose ``<title>#<id>`` another text holds, named
                               ``<title>#<id> (2)``, ... so that none is shared
``answers_not_in_passages``    DPR questions whose answers no positive passage holds (no quote)
``negative_passages_left_out`` DPR negative and hard negative passages, not read
``impossible_with_answers``    SQuAD questions marked ``is_impossible`` that also list
                               answers: read as unanswerable, the answers' texts kept
``non_finite_numbers``         CSV rows whose meta holds NaN or an infinite number, which
                               every writer writes as null
=============================  ====================================================

Any other ``<things>_skipped`` key holding an int or a ``{reason: count}`` dict is
reported too, so new readers need no change here.
"""

from __future__ import annotations

import warnings
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from reviewtui.evalset.io.readingnote import ReadingNote
from reviewtui.evalset.text.counts import plural

__all__ = ["NON_FINITE", "ImportNotes", "ReadingNote", "describe_skipped"]

#: The kind of reading note counting items whose meta holds NaN or an infinite number, written back as null.
NON_FINITE = "non_finite_numbers"

# key -> (singular noun, plural noun, why, when the value is a plain count)
_SKIPS: dict[str, tuple[str, str, str]] = {
    "tests_skipped": ("test", "tests", "no query"),
    "snippets_skipped": ("snippet", "snippets", ""),
    "queries_skipped": ("query line", "query lines", ""),
    "queries_dropped": ("query", "queries", "no positive judgement in the qrels"),
    "questions_skipped": ("question", "questions", ""),
    "answers_skipped": ("answer", "answers", ""),
    "supporting_facts_skipped": ("supporting fact", "supporting facts", ""),
    "rows_skipped": ("row", "rows", ""),
}
_VERBS = {"queries_dropped": "dropped"}

# Counts of things kept but changed: key -> sentence with {n} and {s} (plural ending).
_NOTES: dict[str, str] = {
    "unknown_query_ids": "judgements for {n} query id{s} not in the queries file ignored",
    "judgements_not_positive": "{n} judgement{s} with score 0 or less ignored",
    "duplicate_judgements": "{n} repeated judgement{s} merged (higher score kept)",
    "query_metadata_left_out": (
        "{n} query line{s} with `metadata`, not read (left out on purpose: it can hold the answer key, as SciFact's "
        "evidence labels do)"
    ),
    "query_fields_left_out": (
        "{n} query line{s} with fields besides `_id`, `text` and `metadata`, not read (a BEIR query is its id and text; "
        "another field can hold the answer key, as `metadata` can)"
    ),
    "ids_numbered": "{n} row{s} numbered q1, q2, ... (no id column or key)",
    "cells_unguarded": (
        "{n} row{s} with a cell beginning with an apostrophe before = + - @, a tab or a carriage return, read without it (the mark a "
        "spreadsheet-safe CSV, as reviewtui writes one, puts there so that the cell is not run as a formula)"
    ),
    "evidence_without_source": "{n} row{s} with evidence text but no source: kept in meta['contexts'], no anchor",
    "meta_cells_unreadable": "{n} meta cell{s} not a JSON object, read as {{}}",
    "columns_unnamed": "{n} column{s} with no name in the header, kept in meta as \"(column N)\"",
    "columns_renamed": "{n} column{s} named like one before, kept in meta under a key naming the column",
    "rows_short": "{n} row{s} with fewer cells than the header names, the missing cells read as empty",
    "last_row_unended": "the last row is short and the file ends inside it (cut short?)",
    "articles_renamed": "{n} article{s} titled like an earlier one: their documents are named with a number, \"<title> (2)#0\"",
    "non_finite_numbers": "{n} item{s} with NaN or an infinite number in meta, which a written file holds as null",
    "answer_offsets_corrected": (
        "{n} answer offset{s} not at the answer's text (or not a whole number), moved to where it is (the file's value kept in "
        "meta['answers'] as answer_start_in_file)"
    ),
    "positive_passages_repeated": "{n} positive passage{s} listed a second time among the same question's passages (DPR), kept once",
    "passages_renamed": (
        "{n} positive passage{s} whose title and id another passage of other text holds (DPR): named with a number, "
        "\"<title>#<id> (2)\""
    ),
    "supporting_facts_repeated": "{n} supporting fact{s} listed a second time among the same question's facts (HotpotQA), kept once",
    "answers_not_in_passages": "{n} question{s} whose answers no positive passage holds, kept with their documents and no quote",
    "negative_passages_left_out": "{n} negative and hard negative passage{s} left out (what a retriever trains against, not evidence)",
    "impossible_with_answers": (
        "{n} question{s} marked is_impossible but listing answers, read as unanswerable (the answers kept in "
        "meta['answers_in_file'])"
    ),
}


def _dropped_why(meta: Mapping[str, Any]) -> str | None:
    """Why BEIR queries were dropped, naming the qrels file read and the others, when the folder had several.

    Without this a reader takes "no positive judgement" for the whole truth, when the
    queries may be judged in another split that was simply not read.
    """
    read, others = meta.get("qrels_file"), meta.get("other_qrels_files")
    if not isinstance(read, str) or not isinstance(others, (list, tuple)) or not others:
        return None
    names = ", ".join(f"qrels/{name}" for name in others)
    if len(others) == 1:
        other = str(others[0])
        return f"no positive judgement in qrels/{read}, the split read; {names} was not read: --split {other.removesuffix('.tsv')} reads it"
    return f"no positive judgement in qrels/{read}, the split read; {names} were not read: --split NAME reads one"


def _skip_sentence(key: str, value: Any, why_now: str | None = None) -> str | None:
    one, many, why = _SKIPS.get(key, ("", "", ""))
    why = why_now or why
    if not one:
        noun = key.rsplit("_", 1)[0].replace("_", " ")
        one, many = noun.removesuffix("s"), noun
    verb = _VERBS.get(key, "skipped")
    if isinstance(value, Mapping):
        reasons = [(str(reason), int(count)) for reason, count in value.items() if count]
        total = sum(count for _, count in reasons)
        if not total:
            return None
        # Thousands separated, as every other count the commands and the app print ("2829 judgements" stood out).
        parts = ", ".join(f"{count:,} {reason}" for reason, count in reasons)
        return f"{total:,} {plural(total, one, many)} {verb}: {parts}."
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        tail = f" ({why})" if why else ""
        return f"{value:,} {plural(value, one, many)} {verb}{tail}."
    return None


def describe_skipped(evalset: Any, *, leave_out: Iterable[str] = ()) -> str:
    """One line saying what the import of ``evalset`` skipped or changed; ``""`` when nothing.

    Accepts an EvalSet or its meta mapping. ``leave_out``: meta keys not to mention (already said
    another way, see :class:`ReadingNote`).
    """
    meta: Mapping[str, Any] = getattr(evalset, "meta", evalset)
    left_out = frozenset(leave_out)
    if left_out:
        meta = {key: value for key, value in meta.items() if key not in left_out}
    sentences: list[str] = []
    for key, value in meta.items():
        if key in _SKIPS or (key.endswith(("_skipped", "_dropped")) and key not in _NOTES):
            sentence = _skip_sentence(key, value, _dropped_why(meta) if key == "queries_dropped" else None)
            if sentence:
                sentences.append(sentence)
    notes = []
    for key, template in _NOTES.items():
        n = meta.get(key)
        if isinstance(n, int) and not isinstance(n, bool) and n > 0:
            notes.append(template.format(n=f"{n:,}", s="" if n == 1 else "s"))
    if notes:
        text = "; ".join(notes)
        sentences.append(text[0].upper() + text[1:] + ".")
    return " ".join(sentences)


class ImportNotes:
    """Counts and examples of what one import skipped or changed.

    ``skip(kind, reason)`` counts a left-out record under ``meta[kind][reason]``;
    ``note(kind, example)`` counts a kept-but-changed one under ``meta[kind]``.
    ``warn(...)`` raises one UserWarning per kind, naming a few examples.
    """

    def __init__(self, source: str) -> None:
        self.source = source
        self.skips: dict[str, Counter[str]] = {}
        self.counts: Counter[str] = Counter()
        self.examples: dict[str, list[str]] = {}
        self._seen: dict[str, set[str]] = {}  # see note_once

    def skip(self, kind: str, reason: str, example: str | None = None) -> None:
        self.skips.setdefault(kind, Counter())[reason] += 1
        self._example(kind, example)

    def note(self, kind: str, example: str | None = None, count: int = 1) -> None:
        self.counts[kind] += count
        self._example(kind, example)

    def note_once(self, kind: str, example: str) -> None:
        """Count ``example`` under ``kind`` the first time only: what is counted is distinct things (titles), not
        how often each turned up, so an example is never named twice."""
        seen = self._seen.setdefault(kind, set())
        if example not in seen:
            seen.add(example)
            self.note(kind, example)

    def _example(self, kind: str, example: str | None) -> None:
        if example is not None:
            shown = self.examples.setdefault(kind, [])
            if len(shown) < 5:
                shown.append(example)

    def meta(self, keep_zero: Iterable[str] = ()) -> dict[str, Any]:
        """The counts as set meta: skips as ``{reason: n}`` dicts, notes as ints."""
        out: dict[str, Any] = {}
        for kind in keep_zero:
            out[kind] = 0
        for kind, reasons in self.skips.items():
            out[kind] = dict(reasons)
        for kind, n in self.counts.items():
            out[kind] = n
        return out

    def warn(self, kind: str, message: str, stacklevel: int = 3) -> None:
        """Warn about ``kind`` if it happened; ``message`` may use {n} and {examples}."""
        n = self.counts.get(kind) or sum(self.skips.get(kind, Counter()).values())
        if not n:
            return
        shown = self.examples.get(kind, [])
        more = n - len(shown)
        examples = ", ".join(shown) + (f" and {more} more" if more > 0 and shown else "")
        text = f"{self.source}: " + message.format(n=f"{n:,}", examples=examples)
        warnings.warn(ReadingNote(text, self.source, kind), stacklevel=stacklevel)

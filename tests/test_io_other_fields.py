"""Fields a reader of another format does not turn into the item are kept or counted, never dropped silently.

Each of these was lost without a word: a SQuAD paragraph's ``document_id``, a question's ``annotator``,
an answer's ``answer_id``; a LegalBench-RAG test's ``tags`` and a snippet's ``note``; a HotpotQA row's
``annotator``; a DPR question's ``question_id``; a BEIR query's ``title``. And ``--from hotpotqa`` read
a reviewtui set as questions without evidence.
"""

from __future__ import annotations

import json
import warnings

import pytest

import reviewtui as cg
from reviewtui.cli import main
from reviewtui.evalset.io import describe_skipped
from reviewtui.evalset.io.dpr import read_dpr
from reviewtui.evalset.io.hotpot import read_hotpotqa
from reviewtui.evalset.io.squad import read_squad
from reviewtui.evalset.model.errors import EvalSetError

CONTEXT = "The Normans were people. They lived in Normandy."


def test_squad_keeps_the_fields_of_paragraphs_questions_and_answers(tmp_path):
    path = tmp_path / "s.json"
    answer = {"text": "Normandy", "answer_start": 39, "answer_id": "ans-9", "answer_category": "SHORT"}
    qa = {"id": "a1", "question": "Where did they live?", "is_impossible": False, "annotator": "alice", "paragraph": "mine",
          "answers": [answer]}
    path.write_text(json.dumps({"version": "v2.0", "data": [{"title": "Normans", "paragraphs": [
        {"context": CONTEXT, "document_id": "doc-17", "qas": [qa]}]}]}))
    (item,) = read_squad(path).items
    assert item.meta["document_id"] == "doc-17" and item.meta["annotator"] == "alice"
    assert item.meta["paragraph"] == 0 and item.meta["squad_paragraph"] == "mine"  # a name meta uses, kept beside
    assert item.meta["answers"] == [answer]
    assert item.answer == "Normandy"


def test_legalbench_keeps_a_tests_and_a_snippets_other_fields(tmp_path):
    path = tmp_path / "lb.json"
    path.write_text(json.dumps({"tests": [{"query": "Q one?", "tags": ["PrivacyQA"], "snippets": [
        {"file_path": "a.txt", "span": [0, 5], "answer": "hello", "note": "important"},
        {"file_path": "a.txt", "span": [6, 9]}]}]}))
    (item,) = cg.read_legalbench_rag(path).items
    assert item.meta == {"tags": ["PrivacyQA"], "snippet_fields": [{"snippet": 0, "note": "important"}]}
    assert len(item.gold) == 2


def test_legalbench_items_of_the_benchmark_shape_have_no_meta(tmp_path):
    path = tmp_path / "lb.json"
    path.write_text(json.dumps({"tests": [{"query": "Q?", "snippets": [{"file_path": "a.txt", "span": [0, 5], "answer": "hello"}]}]}))
    assert cg.read_legalbench_rag(path).items[0].meta == {}


def _hotpot_row(**extra):
    row = {"id": "h1", "question": "Q?", "answer": "yes", "type": "bridge", "level": "hard",
           "supporting_facts": {"title": ["A"], "sent_id": [0]}, "context": {"title": ["A"], "sentences": [["A one."]]}}
    return json.dumps({**row, **extra}) + "\n"


def test_hotpot_keeps_a_rows_other_fields(tmp_path):
    path = tmp_path / "h.jsonl"
    path.write_text(_hotpot_row(annotator="bob"))
    (item,) = read_hotpotqa(path).items
    assert item.meta == {"type": "bridge", "level": "hard", "annotator": "bob"} and len(item.anchors) == 1


def test_a_reviewtui_set_read_as_hotpot_is_refused_not_stripped_of_its_evidence(tmp_path, capsys):
    path = tmp_path / "native.jsonl"
    path.write_text(json.dumps({"id": "q1", "question": "Where?", "answer": "Paris",
                                "anchors": [{"source_id": "doc.txt", "quote": "Paris is the capital."}]}) + "\n")
    assert main(["convert", "--from", "hotpotqa", str(path), "-"]) == 2
    err = capsys.readouterr().err
    assert f"{path}:1: question 'q1' has `anchors`, evidence as reviewtui's own sets hold it, not as HotpotQA does" in err


def test_a_hotpot_row_with_fields_named_meta_or_gold_keeps_them(tmp_path):
    """Refused as "a field of reviewtui's own sets" with advice to leave out a --from no one gave."""
    path = tmp_path / "h.jsonl"
    path.write_text(_hotpot_row(meta={"annotator": "ana"}, gold="yes", qtype="hard"))
    (item,) = read_hotpotqa(path).items
    assert (item.meta["meta"], item.meta["gold"], item.meta["qtype"]) == ({"annotator": "ana"}, "yes", "hard")
    assert item.qtype == "multi_hop" and len(item.anchors) == 1


def test_a_hotpot_row_without_context_or_facts_is_refused_at_its_line(tmp_path):
    path = tmp_path / "h.jsonl"
    path.write_text(_hotpot_row() + json.dumps({"id": "h2", "question": "Later?", "answer": "no"}) + "\n")
    with pytest.raises(EvalSetError) as raised:
        read_hotpotqa(path)
    assert raised.value.line == 2 and "neither `context` nor `supporting_facts`" in raised.value.message


def test_dpr_keeps_a_questions_other_fields(tmp_path):
    path = tmp_path / "d.json"
    path.write_text(json.dumps([{"question": "q", "question_id": "Q77", "answers": ["Paris"],
                                 "positive_ctxs": [{"title": "F", "text": "Paris is big.", "passage_id": "1"}]}]))
    (item,) = read_dpr(path).items
    assert item.meta["question_id"] == "Q77" and item.answer == "Paris"


def test_beir_counts_query_fields_it_leaves_out(tmp_path):
    queries, qrels = tmp_path / "queries.jsonl", tmp_path / "qrels.tsv"
    queries.write_text('{"_id": "1", "text": "What is a reef?", "title": "Reefs"}\n{"_id": "2", "text": "What is a cay?"}\n')
    qrels.write_text("query-id\tcorpus-id\tscore\n1\td1\t1\n2\td2\t1\n")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        evalset = cg.read_beir(queries, qrels)
    assert evalset.meta["query_fields_left_out"] == 1
    assert "1 query line with fields besides `_id`, `text` and `metadata`, not read" in describe_skipped(evalset)
    assert "title" not in evalset.items[0].meta


# --- what a bad input is told, in its own words ----------------------------------------------------------------


def test_a_squad_paragraph_with_questions_and_no_context_is_refused_by_name(tmp_path):
    """Read as an empty text: every answer was "not in its paragraph", and --corpus-out wrote an empty document."""
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"data": [{"title": "T", "paragraphs": [{"qas": [{"id": "a", "question": "Q?", "answers": []}]}]}]}))
    with pytest.raises(EvalSetError) as raised:
        read_squad(path)
    assert "data[0].paragraphs[0] has questions but no `context`" in raised.value.message


def test_a_squad_offset_too_large_for_json_is_kept_as_text(tmp_path):
    """It was refused as "meta holds the whole number ...", naming a meta the file does not have."""
    path = tmp_path / "s.json"
    huge = 10**29
    path.write_text(json.dumps({"data": [{"title": "T", "paragraphs": [{"context": CONTEXT, "qas": [
        {"id": "a", "question": "Where did they live?", "answers": [{"text": "Normandy", "answer_start": huge}]}]}]}]}))
    (item,) = read_squad(path).items
    assert item.meta["answers"] == [{"text": "Normandy", "answer_start": 39, "answer_start_in_file": str(huge)}]


def _nq_refused(tmp_path, *, start: int, end: int) -> pytest.ExceptionInfo[EvalSetError]:
    """Read an NQ row whose one long answer covers tokens [start, end), which the reader must refuse."""
    from reviewtui.evalset.io import read_nq

    row = {"example_id": 1, "question_text": "q", "document_url": "https://en.wikipedia.org//w/index.php?title=X&amp;oldid=1",
           "document_text": "<P> a b c d e f g h i j </P>", "long_answer_candidates": [],
           "annotations": [{"long_answer": {"start_token": start, "end_token": end}, "short_answers": [], "yes_no_answer": "NONE"}]}
    path = tmp_path / "nq.jsonl"
    path.write_text(json.dumps(row) + "\n")
    with pytest.raises(EvalSetError) as raised:
        read_nq(path)
    return raised


def test_a_reversed_nq_range_is_said_as_reversed(tmp_path):
    raised = _nq_refused(tmp_path, start=9, end=3)
    assert "long_answer ends at token 3 before it starts at token 9: it covers no text" in raised.value.message


def test_a_hotpot_sentence_index_given_as_text_is_said_as_such(tmp_path):
    path = tmp_path / "h.jsonl"
    path.write_text(_hotpot_row(supporting_facts={"title": ["A"], "sent_id": ["0"]}))
    evalset = read_hotpotqa(path)
    assert evalset.meta["supporting_facts_skipped"] == {"sentence index not a whole number": 1}


def test_a_tab_separated_header_with_a_comma_in_a_name_is_read_by_its_tabs(tmp_path):
    path = tmp_path / "s.tsv"
    path.write_text("id\tquestion\tanswer\tnotes, misc\nq1\tWhat is a reef?\tA ridge\tx, y\n")
    (item,) = cg.read_csv(path).items
    assert (item.id, item.question, item.answer) == ("q1", "What is a reef?", "A ridge")
    # a comma-separated header with a tab inside a name stays comma-separated
    path.write_text('id,question,"notes\tmore"\nq1,What is a reef?,x\n')
    assert cg.read_csv(path).items[0].question == "What is a reef?"


def test_a_tests_own_field_named_like_the_readers_key_for_snippet_fields_is_kept_apart(tmp_path):
    """A test's own `snippet_fields` crashed the reader (a text has no append), or had the snippets' fields appended."""
    path = tmp_path / "lb.json"
    for own in ("note", [1], {"a": 1}):
        path.write_text(json.dumps({"tests": [{"query": "Q?", "snippet_fields": own, "snippets": [
            {"file_path": "a.txt", "span": [0, 5], "answer": "hello", "note": "x"}]}]}))
        (item,) = cg.read_legalbench_rag(path).items
        assert item.meta == {"test_snippet_fields": own, "snippet_fields": [{"snippet": 0, "note": "x"}]}


def test_a_squad_field_named_like_the_readers_own_meta_is_kept_apart(tmp_path):
    """A paragraph's `answers` passed for the item's answers, and a question's `context_document` was overwritten."""
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"data": [{"title": "T", "answers": "ARTICLE", "paragraphs": [{
        "context": CONTEXT, "answers": "PARAGRAPH", "plausible_answers": "P", "qas": [
            {"id": "a1", "question": "Where did they live?", "answers": [{"text": "Normandy", "answer_start": 39}]},
            {"id": "a2", "question": "Who ruled?", "is_impossible": True, "context_document": "FILE", "answers": []},
        ]}]}]}))
    first, second = read_squad(path).items
    assert first.meta["answers"] == [{"text": "Normandy", "answer_start": 39}]
    assert (first.meta["squad_answers"], first.meta["squad_plausible_answers"]) == ("PARAGRAPH", "P")
    assert "plausible_answers" not in first.meta
    assert second.meta["context_document"] == "T#0" and second.meta["squad_context_document"] == "FILE"
    assert "answers" not in second.meta


def test_an_empty_nq_range_is_said_as_empty(tmp_path):
    raised = _nq_refused(tmp_path, start=4, end=4)
    assert "long_answer starts and ends at token 4: it covers no text" in raised.value.message


def test_a_number_too_large_to_read_is_named_so_not_as_null(tmp_path):
    """A span start of 1e400 was said as "must be a whole number (got null)": the file holds no null."""
    path = tmp_path / "s.jsonl"
    path.write_text('{"id":"a","question":"Q?","gold":[{"span":{"doc_id":"d","start":1e400,"end":3}}]}\n')
    with pytest.raises(EvalSetError) as raised:
        cg.read_jsonl(path)
    assert "`gold.0.span.start` must be a whole number (got a number too large to read)" in raised.value.message

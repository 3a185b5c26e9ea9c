"""read_beir: the page's example, the qrels layouts seen in real files, and refusals."""

from __future__ import annotations

from pathlib import Path

import pytest

import reviewtui as cg
from reviewtui.evalset.io import describe_skipped, open_evalset

QUERIES = (
    '{"_id": "1", "text": "What is the notice period for resignation?"}\n'
    '{"_id": "2", "text": "How many sick days per year?", "metadata": {"d9": [{"sentences": [1], "label": "SUPPORT"}]}}\n'
    '{"_id": 3, "text": "Who signs the contract?"}\n'
)


def _files(tmp_path: Path, qrels: str | bytes, queries: str = QUERIES) -> tuple[Path, Path]:
    q = tmp_path / "queries.jsonl"
    q.write_text(queries, encoding="utf-8")
    r = tmp_path / "qrels.tsv"
    r.write_bytes(qrels if isinstance(qrels, bytes) else qrels.encode())
    return q, r


def test_page_example(tmp_path):
    q = tmp_path / "beir_queries.jsonl"
    q.write_text('{"_id": "1", "text": "What is the notice period for resignation?"}\n')
    r = tmp_path / "beir_qrels.tsv"
    r.write_text("query-id\tcorpus-id\tscore\n1\thandbook.pdf\t1\n")
    es = cg.read_beir(q, r)
    assert (len(es), es.id, es.source) == (1, "beir", "beir")
    assert list(es.meta) == ["granularity", "note"]
    assert es.meta["granularity"] == "document"
    assert "document" in es.meta["note"] and "chunk" in es.meta["note"]
    (item,) = es.items
    assert (item.id, item.question) == ("1", "What is the notice period for resignation?")
    assert dict(item.meta) == {"gold_documents": [("handbook.pdf", 1)]}
    assert item.gold == () and item.anchors == ()
    assert describe_skipped(es) == ""


def test_only_positive_judgements_count_and_grades_are_kept(tmp_path):
    q, r = _files(tmp_path, "query-id\tcorpus-id\tscore\n1\td1\t2\n1\td2\t0\n1\td3\t1\n2\td4\t0\n3\td5\t3\n")
    es = cg.read_beir(q, r, evalset_id="mine")
    assert es.id == "mine"
    assert [item.id for item in es] == ["1", "3"]  # query 2 has no positive judgement: dropped
    assert es.get("1").meta["gold_documents"] == [("d1", 2), ("d3", 1)]
    assert es.get("3").meta["gold_documents"] == [("d5", 3)]
    assert es.meta["queries_dropped"] == 1
    assert es.meta["judgements_not_positive"] == 2
    line = describe_skipped(es)
    assert "1 query dropped" in line and "2 judgements with score 0 or less" in line


def test_metadata_never_reaches_the_question_or_meta(tmp_path):
    q, r = _files(tmp_path, "2\td4\t1\n")
    item = cg.read_beir(q, r).get("2")
    assert item.question == "How many sick days per year?"
    assert dict(item.meta) == {"gold_documents": [("d4", 1)]}
    assert "SUPPORT" not in repr(item)


@pytest.mark.parametrize(
    "qrels",
    [
        "query-id\tcorpus-id\tscore\n1\td1\t1\n3\td2\t1\n",
        "1\td1\t1\n3\td2\t1\n",  # no header
        b"query-id\tcorpus-id\tscore\r\n1\td1\t1\r\n3\td2\t1\r\n",  # CRLF
        b"\xef\xbb\xbfquery-id\tcorpus-id\tscore\n1\td1\t1\n\n3\td2\t1",  # BOM, blank line, no final newline
        "1\td1\td1\t1\n3\td2\td2\t1\n",  # document column repeated
        "1 0 d1 1\n3 0 d2 1\n",  # TREC
        "1 Q0 d1 1\n3  Q0  d2  1\n",  # TREC with Q0 and extra spaces
    ],
    ids=["header", "no-header", "crlf", "bom-blank-no-newline", "four-columns", "trec", "trec-q0"],
)
def test_qrels_layouts_give_the_same_set(tmp_path, qrels):
    q, r = _files(tmp_path, qrels)
    es = cg.read_beir(q, r)
    assert [(item.id, item.meta["gold_documents"]) for item in es] == [("1", [("d1", 1)]), ("3", [("d2", 1)])]


def test_judgements_for_unknown_queries_and_duplicates_are_counted(tmp_path):
    q, r = _files(tmp_path, "1\td1\t1\n1\td1\t2\n99\td1\t1\n98\td2\t1\n98\td3\t1\n")
    es = cg.read_beir(q, r)
    assert es.get("1").meta["gold_documents"] == [("d1", 2)]
    assert es.meta["unknown_query_ids"] == 2
    assert es.meta["duplicate_judgements"] == 1
    assert "2 query ids not in the queries file" in describe_skipped(es)


def test_tab_separated_columns_with_trec_spaces_are_refused_at_their_line(tmp_path):
    q, r = _files(tmp_path, "1\td1\t1\n3\t 0 31715818\t1\n")
    with pytest.raises(cg.EvalSetError) as info:
        cg.read_beir(q, r)
    error = info.value
    assert (error.path, error.line, error.field) == (str(r), 2, "corpus-id")
    assert "' 0 31715818'" in error.message and "TREC" in error.message
    q, r = _files(tmp_path, "1012 0 \t9745001\t1\n")
    with pytest.raises(cg.EvalSetError) as info:
        cg.read_beir(q, r)
    assert (info.value.line, info.value.field) == (1, "query-id")


@pytest.mark.parametrize(
    "qrels, line, words",
    [
        ("1\td1\t1\n1\td2\thigh\n", 2, "whole number"),
        ("1\td1\t1\n1\td2\n", 2, "this line has 2"),
        ("1\td1\t1\n1\td2\td3\t1\n", 2, "this line has 4"),
        ("1\t\t1\n", 1, "empty"),
    ],
)
def test_bad_qrels_lines(tmp_path, qrels, line, words):
    q, r = _files(tmp_path, qrels)
    with pytest.raises(cg.EvalSetError) as info:
        cg.read_beir(q, r)
    assert (info.value.path, info.value.line) == (str(r), line)
    assert words in info.value.message


@pytest.mark.parametrize(
    "queries, line, words",
    [
        ('{"_id": "1", "text": "A?"}\n{"_id": "2", "text": "B?"\n', 2, "not valid JSON"),
        ('{"_id": "1", "text": "A?"}\n{"text": "B?"}\n', 2, "`_id`"),
        ('{"_id": "1"}\n', 1, "`text` is missing"),
        ('{"_id": "1", "text": 5}\n', 1, "must be a string"),
        ('{"_id": "1", "text": "A?"}\n\n{"_id": "1", "text": "B?"}\n', 3, "line 1"),
        ('["1", "A?"]\n', 1, "a list"),
    ],
)
def test_bad_queries_lines(tmp_path, queries, line, words):
    q, r = _files(tmp_path, "1\td1\t1\n", queries=queries)
    with pytest.raises(cg.EvalSetError) as info:
        cg.read_beir(q, r)
    assert (info.value.path, info.value.line) == (str(q), line)
    assert words in info.value.message


def test_blank_query_text_is_skipped_and_counted(tmp_path):
    q, r = _files(tmp_path, "1\td1\t1\n2\td2\t1\n", queries='{"_id": "1", "text": " "}\n{"_id": "2", "text": "B?"}\n')
    es = cg.read_beir(q, r)
    assert [item.id for item in es] == ["2"]
    assert es.meta["queries_skipped"] == {"blank text": 1}
    assert "unknown_query_ids" not in es.meta
    assert "1 query line skipped: 1 blank text." in describe_skipped(es)


def test_open_evalset_reads_a_beir_folder(tmp_path):
    (tmp_path / "qrels").mkdir()
    (tmp_path / "queries.jsonl").write_text(QUERIES)
    (tmp_path / "qrels" / "train.tsv").write_text("1\td1\t1\n")
    (tmp_path / "qrels" / "dev.tsv").write_text("3\td1\t1\n")
    with pytest.raises(cg.EvalSetError, match="several qrels files"):
        open_evalset(tmp_path)
    (tmp_path / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\n2\td1\t1\n")
    es = open_evalset(tmp_path)
    assert [item.id for item in es] == ["2"] and es.id == tmp_path.name
    (tmp_path / "qrels" / "test.tsv").unlink()
    (tmp_path / "qrels" / "train.tsv").unlink()
    assert [item.id for item in open_evalset(tmp_path)] == ["3"]  # the only one left


def test_opening_one_file_of_a_beir_folder_points_at_the_folder(tmp_path):
    (tmp_path / "queries.jsonl").write_text('{"_id": "1", "text": "What is X?"}\n', encoding="utf-8")
    (tmp_path / "qrels").mkdir()
    (tmp_path / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\n1\td1\t1\n", encoding="utf-8")
    with pytest.raises(cg.EvalSetError) as caught:
        open_evalset(tmp_path / "queries.jsonl")
    assert caught.value.line == 1
    assert f"a file of the BEIR set in {tmp_path}: open that folder instead" in str(caught.value)
    assert len(open_evalset(tmp_path)) == 1  # the folder itself opens
    loose = tmp_path / "loose"
    loose.mkdir()
    (loose / "corpus.jsonl").write_text('{"_id": "d1", "text": "X is a thing."}\n', encoding="utf-8")
    with pytest.raises(cg.EvalSetError, match="read from their folder"):
        open_evalset(loose / "corpus.jsonl")


def test_the_beir_hint_never_raises_on_a_path_the_system_cannot_look_at():
    from reviewtui.evalset.io.problems import _hint

    assert "read from their folder" in _hint({"_id": "1", "text": "x"}, "/" + "d" * 5000 + "/queries.jsonl")


def test_a_document_id_holding_a_next_line_character_stays_one_id(tmp_path):
    """splitlines() ended a line at U+0085 inside an id: "expected 3 tab-separated columns" on half of it."""
    q, r = _files(tmp_path, "query-id\tcorpus-id\tscore\n1\tdoc\u0085one\t1\r\n2\td2\t1\n")
    es = cg.read_beir(q, r)
    assert es.get("1").meta["gold_documents"] == [("doc\u0085one", 1)]
    assert es.get("2").meta["gold_documents"] == [("d2", 1)]


def test_a_beir_folder_whose_qrels_file_is_a_pipe_or_a_device_is_refused_without_waiting(tmp_path):
    """A named pipe as qrels/test.tsv hung every command (waiting for a writer); /dev/zero there read until the
    machine ran out of memory."""
    import os

    from reviewtui.evalset.io import open_evalset

    for kind in ("pipe", "device"):
        folder = tmp_path / kind
        (folder / "qrels").mkdir(parents=True)
        (folder / "queries.jsonl").write_text('{"_id": "q1", "text": "What is x?"}\n', encoding="utf-8")
        qrels = folder / "qrels" / "test.tsv"
        if kind == "pipe":
            os.mkfifo(qrels)
        else:
            qrels.symlink_to("/dev/zero")
        with pytest.raises(cg.EvalSetError, match=f"its qrels/test.tsv is a {'named pipe' if kind == 'pipe' else 'device'}"):
            open_evalset(folder)


@pytest.mark.parametrize("kind, said", [("pipe", "a named pipe"), ("device", "a device"), ("folder", "a folder")])
def test_a_beir_folder_whose_corpus_is_a_pipe_a_device_or_a_folder_says_so(tmp_path, capsys, kind, said):
    """corpus.jsonl as one of these was reported missing ("a BEIR set without its corpus.jsonl"), where
    queries.jsonl and the qrels said what they were. Nothing here opens the pipe: it has no writer."""
    import os

    from reviewtui.cli import main
    from reviewtui.evalset.evidence.corpus import Corpus

    folder = tmp_path / "set"
    (folder / "qrels").mkdir(parents=True)
    (folder / "queries.jsonl").write_text('{"_id": "q1", "text": "What is x?"}\n', encoding="utf-8")
    (folder / "qrels" / "test.tsv").write_text("q1\td1\t1\n", encoding="utf-8")
    corpus = folder / "corpus.jsonl"
    if kind == "pipe":
        os.mkfifo(corpus)
    elif kind == "device":
        corpus.symlink_to("/dev/zero")
    else:
        corpus.mkdir()
    with pytest.raises(cg.EvalSetError) as caught:
        Corpus(folder)
    assert str(caught.value) == f"{folder}: its corpus.jsonl is {said}; a BEIR folder's files are plain files"
    quiz = tmp_path / "quiz.jsonl"
    assert main(["convert", str(folder), str(quiz)]) == 0  # the set itself does not need the corpus
    capsys.readouterr()
    assert main(["resolve", str(quiz), "--corpus", str(folder)]) == 2
    err = capsys.readouterr().err
    assert f"its corpus.jsonl is {said}" in err and "without its corpus" not in err and "Traceback" not in err


def test_endless_zero_bytes_read_as_a_stream_are_refused_at_once():
    from reviewtui.evalset.io import open_evalset

    for fmt in ("jsonl", "csv"):
        with pytest.raises(cg.EvalSetError, match="begins with 4,096 zero bytes"):
            open_evalset("/dev/zero", format=fmt)


def test_query_metadata_is_left_out_and_counted(tmp_path):
    """SciFact's evidence labels were dropped with nothing said but the queries dropped for want of a judgement."""
    q, r = _files(tmp_path, "1\td1\t1\n2\td2\t1\n3\td3\t1\n")
    es = cg.read_beir(q, r)
    assert all(set(item.meta) == {"gold_documents"} for item in es)  # the answer key stays out of the items
    assert es.meta["query_metadata_left_out"] == 1
    assert "1 query line with `metadata`, not read (left out on purpose" in describe_skipped(es)

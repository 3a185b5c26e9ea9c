"""CSV: the page's examples, aliases, ragas-style cells, formula guards, warnings and errors."""

from __future__ import annotations

import csv
import io
import json
import warnings
from pathlib import Path

import pytest

import reviewtui as cg
from reviewtui.evalset.io import describe_skipped
from reviewtui.evalset.io.csvcells import guard, parse_json_like, parse_text_list, unguard


def _write(tmp_path: Path, text: str, name: str = "s.csv") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8", newline="")
    return path


def _read_quietly(path: Path) -> cg.EvalSet:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return cg.read_csv(path)


@pytest.fixture
def handbook_set() -> cg.EvalSet:
    anchor = cg.GoldAnchor(source_id="handbook.pdf", quote="Employees accrue 1.5 days of leave per month.")
    item = cg.EvalItem(
        id="q1", question="How much leave do employees accrue per month?", anchors=(anchor,), qtype="factoid"
    )
    return cg.EvalSet(id="handbook-quiz", items=(item,))


# --- the page's examples -------------------------------------------------------------------


def test_page_write_example(tmp_path, handbook_set):
    path = cg.write_csv(handbook_set, tmp_path / "quiz.csv")
    assert path == tmp_path / "quiz.csv"
    with open(path, encoding="utf-8") as handle:  # text mode, as the page reads it
        text = handle.read()
    assert text == (
        "id,question,source_id,quote,grade,page,occurrence,qtype,answer,meta\n"
        "q1,How much leave do employees accrue per month?,handbook.pdf,"
        "Employees accrue 1.5 days of leave per month.,2,,0,factoid,,\n"
    )
    assert cg.read_csv(path).items == handbook_set.items


def test_page_minimal_file_numbers_rows_and_warns(tmp_path):
    path = _write(
        tmp_path,
        "question,source_id,quote\n"
        "What is the notice period for resignation?,handbook.pdf,Employees must give 30 days written notice.\n"
        "How many sick days per year?,handbook.pdf,Employees receive 10 paid sick days per year.\n",
        "minimal2.csv",
    )
    with pytest.warns(UserWarning, match="no id column"):
        es = cg.read_csv(path)
    assert [(it.id, it.question) for it in es] == [
        ("q1", "What is the notice period for resignation?"),
        ("q2", "How many sick days per year?"),
    ]
    assert es.get("q2").anchors == (cg.GoldAnchor("handbook.pdf", "Employees receive 10 paid sick days per year."),)
    assert es.meta["ids_numbered"] == 2
    assert "2 rows numbered q1, q2" in describe_skipped(es)


def test_page_quote_without_source_gives_no_anchor_but_keeps_the_text(tmp_path):
    path = _write(
        tmp_path,
        "id,question,quote\nq1,What is the notice period for resignation?,Employees must give 30 days written notice.\n",
        "no_source.csv",
    )
    with pytest.warns(UserWarning, match="no source"):
        es = cg.read_csv(path)
    item = es.get("q1")
    assert (item.anchors, item.is_answerable) == ((), False)
    assert item.meta["contexts"] == ["Employees must give 30 days written notice."]
    assert es.meta["evidence_without_source"] == 1
    assert "meta['contexts']" in describe_skipped(es)


def test_page_missing_question_column(tmp_path):
    path = _write(tmp_path, "foo,bar\n1,2\n", "bad.csv")
    with pytest.raises(cg.EvalSetError) as info:
        cg.read_csv(path)
    error = info.value
    assert (error.path, error.line, error.field) == (str(path), 1, "question")
    assert "no question column" in error.message
    assert "question, query, q" in error.message
    assert "Found: foo, bar" in error.message


def test_page_bad_meta_cell_reads_as_empty_dict_with_a_warning(tmp_path):
    path = _write(tmp_path, 'id,question,meta\nq1,Q one?,"{""reviewed"": true}"\nq2,Q two?,remember to check this\n')
    with pytest.warns(UserWarning, match="meta cells"):
        es = cg.read_csv(path)
    assert dict(es.get("q1").meta) == {"reviewed": True}
    assert dict(es.get("q2").meta) == {}
    assert es.meta["meta_cells_unreadable"] == 1


def test_missing_optional_columns_are_fine(tmp_path):
    es = cg.read_csv(_write(tmp_path, "id,question\nq1,Only a question?\n"))
    item = es.get("q1")
    assert (item.answer, item.qtype, item.anchors, dict(item.meta)) == (None, None, (), {})
    assert dict(es.meta) == {}


def test_evalset_id_defaults_to_stem_and_can_be_given(tmp_path):
    path = _write(tmp_path, "id,question\nq1,Q?\n", "my-set.csv")
    assert cg.read_csv(path).id == "my-set"
    assert cg.read_csv(path, evalset_id="other").id == "other"


# --- columns and aliases -------------------------------------------------------------------


@pytest.mark.parametrize(
    "header",
    [
        "ID,Question,Source_ID,Quote,Grade,Page,Occurrence,QType,Answer,Meta",
        "question_id,query,document,evidence,relevance,page_hint,occurrence_index,type,expected_answer,metadata",
        "qid,q,doc,answer_span,rel,page_number,nth,question_type,gold_answer,meta",
        "id,question,doc_id,context,grade,page,occurrence,category,answer,meta",
        "id,question,file,passage,grade,page,occurrence,qtype,answer,meta",
        "id,question,filename,quote,grade,page,occurrence,qtype,answer,meta",
        " Id , QUESTION ,Source-Id,quote,grade,page,occurrence,qtype,answer,meta",
    ],
)
def test_page_aliases_case_insensitive(tmp_path, header):
    path = _write(tmp_path, header + '\nx1,Why?,h.pdf,The quote.,1,4,2,numeric,Because.,"{""a"": 1}"\n')
    item = cg.read_csv(path).get("x1")
    assert item.question == "Why?"
    assert item.anchors == (cg.GoldAnchor("h.pdf", "The quote.", grade=1, page_hint=4, occurrence=2),)
    assert (item.qtype, item.answer, dict(item.meta)) == ("numeric", "Because.", {"a": 1})


@pytest.mark.parametrize("column", ["ground_truth", "ground_truths", "reference", "expected_output", "Expected Completion"])
def test_reference_answer_aliases(tmp_path, column):
    es = cg.read_csv(_write(tmp_path, f"id,prompt,{column}\nq1,Why?,Because.\n"))
    assert es.get("q1").answer == "Because."


@pytest.mark.parametrize("column", ["user_input", "input", "prompt", "query"])
def test_question_aliases_from_other_tools(tmp_path, column):
    assert cg.read_csv(_write(tmp_path, f"id,{column}\nq1,Why?\n")).get("q1").question == "Why?"


def test_reference_answer_wins_over_a_pipeline_answer_column(tmp_path):
    path = _write(tmp_path, "id,question,answer,ground_truth\nq1,Why?,The model said so.,Because.\n")
    item = cg.read_csv(path).get("q1")
    assert item.answer == "Because."
    assert item.meta["answer"] == "The model said so."


def test_source_file_alias_and_source_without_evidence(tmp_path):
    es = cg.read_csv(_write(tmp_path, 'id,prompt,expected completion,source_file\nq1,Why?,Because.,privacy_qa/Fiverr.txt\n'))
    item = es.get("q1")
    assert item.anchors == ()
    assert item.meta["source_file"] == "privacy_qa/Fiverr.txt"
    es = cg.read_csv(_write(tmp_path, "id,question,quote,source_file\nq1,Why?,Quoted.,f.txt\n", "b.csv"))
    assert es.get("q1").anchors == (cg.GoldAnchor("f.txt", "Quoted."),)


def test_unknown_columns_go_to_meta_and_index_columns_are_ignored(tmp_path):
    path = _write(tmp_path, ",Unnamed: 0,Question,Answer,Difficulty,Topic,Video\n0,0,Why?,Because.,Hard,,v.mp4\n")
    item = _read_quietly(path).get("q1")
    assert dict(item.meta) == {"Difficulty": "Hard", "Video": "v.mp4"}


def test_evolution_type_is_read_as_qtype(tmp_path):
    es = _read_quietly(_write(tmp_path, "question,evolution_type\nWhy?,multi_context\n"))
    assert es.items[0].qtype == "multi_context"


def test_ragas_list_cells(tmp_path):
    rows = [
        ["question", "contexts", "ground_truths"],
        ["Q1?", "['first text', \"second's text\"]", '["Answer one"]'],
        ["Q2?", "['numpy style'\n 'second part']", "['A', 'B']"],
        ["Q3?", '["json \\u00e9", "x"]', "plain answer"],
        ["Q4?", "[not a list", ""],
    ]
    buffer = io.StringIO()
    csv.writer(buffer).writerows(rows)
    es = _read_quietly(_write(tmp_path, buffer.getvalue()))
    q1, q2, q3, q4 = es.items
    assert q1.meta["contexts"] == ["first text", "second's text"] and q1.answer == "Answer one"
    assert q2.meta["contexts"] == ["numpy style", "second part"]
    assert q2.answer == "A" and q2.meta["answers"] == ["A", "B"]
    assert q3.meta["contexts"] == ["json é", "x"] and q3.answer == "plain answer"
    assert q4.meta["contexts"] == ["[not a list"] and q4.answer is None
    assert es.meta["evidence_without_source"] == 4


def test_a_list_cell_in_a_context_column_is_its_texts(tmp_path):
    """A DataFrame with a list column `context` (deepeval's goldens have one) written with to_csv: each
    text was kept as one quote "['a', 'b']", brackets and quotes and all."""
    rows = [
        ["question", "answer", "context"],
        ["Q1?", "Paris", "['Paris is the capital of France.', \"It's big.\"]"],
        ["Q2?", "Lyon", '["Lyon is in France."]'],
        ["Q3?", "x", "[a plain text in brackets]"],
    ]
    buffer = io.StringIO()
    csv.writer(buffer).writerows(rows)
    q1, q2, q3 = _read_quietly(_write(tmp_path, buffer.getvalue())).items
    assert q1.meta["contexts"] == ["Paris is the capital of France.", "It's big."]
    assert q2.meta["contexts"] == ["Lyon is in France."]
    assert q3.meta["contexts"] == ["[a plain text in brackets]"]


def test_list_cells_with_a_source_column_give_one_anchor_per_text(tmp_path):
    path = _write(tmp_path, "id,question,contexts,source_id\nq1,Why?,\"['one', 'two', '  ']\",f.pdf\n")
    item = cg.read_csv(path).get("q1")
    assert item.anchors == (cg.GoldAnchor("f.pdf", "one"), cg.GoldAnchor("f.pdf", "two"))


def test_ragas_metadata_list_gives_sources_to_the_contexts(tmp_path):
    rows = [
        ["", "question", "contexts", "metadata"],
        ["0", "Why?", "['text a', 'text b']", "[{'source': 'a.pdf', 'page': 1}, {'source': 'b.pdf'}]"],
        ["1", "How?", "['text c']", "[{'page': 1}]"],
    ]
    buffer = io.StringIO()
    csv.writer(buffer).writerows(rows)
    es = _read_quietly(_write(tmp_path, buffer.getvalue()))
    first, second = es.items
    assert first.anchors == (cg.GoldAnchor("a.pdf", "text a"), cg.GoldAnchor("b.pdf", "text b"))
    assert first.meta["metadata"] == [{"source": "a.pdf", "page": 1}, {"source": "b.pdf"}]
    assert second.anchors == () and second.meta["contexts"] == ["text c"]


def test_python_dict_meta_cell_is_read_safely(tmp_path):
    path = _write(tmp_path, "id,question,meta\nq1,Why?,\"{'Authors': 'A, B', 'n': 2}\"\nq2,How?,\"__import__('os')\"\n")
    with pytest.warns(UserWarning, match="meta cells"):
        es = cg.read_csv(path)
    assert dict(es.get("q1").meta) == {"Authors": "A, B", "n": 2}
    assert dict(es.get("q2").meta) == {}


def test_list_and_meta_parsers_never_evaluate_code():
    assert parse_text_list("[__import__('os').system('echo hi')]") == ["[__import__('os').system('echo hi')]"]
    assert parse_text_list("[b'bytes']") == ["[b'bytes']"]
    assert parse_text_list("[f'{x}']") == ["[f'{x}']"]
    assert parse_json_like("{'a': {1, 2}}") is ...  # a set is not JSON
    assert parse_json_like("{'a': 1j}") is ...
    assert parse_json_like("[" * 5000) is ...


def test_semicolon_and_tab_delimited_exports(tmp_path):
    es = cg.read_csv(_write(tmp_path, "id;question;answer\nq1;Why, then?;Because.\n"))
    assert (es.get("q1").question, es.get("q1").answer) == ("Why, then?", "Because.")
    es = cg.read_csv(_write(tmp_path, "\n\nid\tquestion\nq1\tWhy?\n", "t.csv"))
    assert es.get("q1").question == "Why?"


def test_bom_crlf_and_quoted_newlines(tmp_path):
    path = tmp_path / "s.csv"
    path.write_bytes(b'\xef\xbb\xbfid,question,answer\r\nq1,"Line one\r\nline two?",A\r\nq2,Q2?,"x,y"')
    es = cg.read_csv(path)
    assert es.get("q1").question == "Line one\r\nline two?"
    assert es.get("q2").answer == "x,y"


def test_rows_of_empty_cells_are_skipped_and_counted(tmp_path):
    path = _write(tmp_path, "id,question\nq1,Why?\n,\n\nq2,How?\n,\n")
    with pytest.warns(UserWarning, match="every cell empty"):
        es = cg.read_csv(path)
    assert [item.id for item in es] == ["q1", "q2"]
    assert es.meta["rows_skipped"] == {"every cell empty": 2}
    assert describe_skipped(es).startswith("2 rows skipped: 2 every cell empty.")


def test_spreadsheet_float_numbers_are_accepted(tmp_path):
    item = cg.read_csv(_write(tmp_path, "id,question,source_id,quote,grade,page\nq1,Why?,f,Q.,2.0,3.0\n")).get("q1")
    assert (item.anchors[0].grade, item.anchors[0].page_hint) == (2, 3)


# --- row errors name path:line -------------------------------------------------------------


def _error(path: Path) -> cg.EvalSetError:
    with pytest.raises(cg.EvalSetError) as info:
        _read_quietly(path)
    return info.value


def test_row_errors_point_at_the_physical_line(tmp_path):
    path = _write(tmp_path, 'id,question,answer\nq1,"Two\nlines?",A\nq2,"Why?",B,extra\n')
    error = _error(path)
    assert (error.path, error.line) == (str(path), 4)
    assert str(error).startswith(f"{path}:4:")


def test_a_row_without_a_question_is_skipped_and_counted(tmp_path):
    """The reference page has read_csv refuse a file without a question column; one blank question cell refused
    the whole file. The row is left out, counted and said, naming its line."""
    import warnings

    from reviewtui.evalset.io import describe_skipped, read_csv

    path = _write(tmp_path, "question,answer\nWhat is A?,a\n,b\n  ,c\nWhat is D?,d\n\n")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        evalset = read_csv(path)
    assert [item.question for item in evalset] == ["What is A?", "What is D?"]
    # numbered as rows: a question filled in later takes its own id, not the next row's (whose decisions then went)
    assert [item.id for item in evalset] == ["q1", "q4"]
    assert evalset.meta["rows_skipped"] == {"no question": 2}
    assert "2 rows skipped: 2 no question." in describe_skipped(evalset)
    said = [str(w.message) for w in caught]
    assert any("rows skipped: 2 with no question (lines 3, 4)" in message for message in said), said


def test_duplicate_id_names_both_lines(tmp_path):
    error = _error(_write(tmp_path, "id,question\nq1,A?\nq2,B?\n\nq1,C?\n"))
    assert (error.line, error.field) == (5, "id")
    assert "line 2" in error.message


@pytest.mark.parametrize(
    "row, field",
    [
        ("q1,Why?,f.pdf,Quote.,high,,", "grade"),
        ("q1,Why?,f.pdf,Quote.,-1,,", "grade"),
        ("q1,Why?,f.pdf,Quote.,2,p3,", "page"),
        ("q1,Why?,f.pdf,Quote.,2,,-2", "occurrence"),
        (",Why?,f.pdf,Quote.,2,,", "id"),
    ],
)
def test_bad_cells(tmp_path, row, field):
    error = _error(_write(tmp_path, "id,question,source_id,quote,grade,page,occurrence\n" + row + "\n"))
    assert (error.line, error.field) == (2, field)


def test_too_many_cells(tmp_path):
    error = _error(_write(tmp_path, "id,question\nq1,Why?\nq2,How?,extra\n"))
    assert error.line == 3 and "3 cells" in error.message


def test_invalid_utf8_and_empty_file(tmp_path):
    path = tmp_path / "latin1.csv"
    path.write_bytes("id,question\nq1,Café?\n".encode("latin-1"))
    error = _error(path)
    assert error.line == 2 and "UTF-8" in error.message
    error = _error(_write(tmp_path, "\n\n", "empty.csv"))
    assert "empty" in error.message and error.path == str(tmp_path / "empty.csv")


# --- writing -------------------------------------------------------------------------------


def test_write_warns_about_extra_anchors_and_gold_only_items(tmp_path):
    a1, a2 = cg.GoldAnchor("f", "one"), cg.GoldAnchor("f", "two")
    gold = cg.GoldSpan(cg.Span("f", 0, 5))
    items = (
        cg.EvalItem(id="multi", question="Q?", anchors=(a1, a2)),
        cg.EvalItem(id="spans", question="Q?", gold=(gold,)),
        cg.EvalItem(id="both", question="Q?", gold=(gold,), anchors=(a1,)),
        cg.EvalItem(id="fine", question="Q?", anchors=(a1,)),
    )
    with pytest.warns(UserWarning) as record:
        cg.write_csv(cg.EvalSet(id="s", items=items), tmp_path / "s.csv")
    messages = [str(w.message) for w in record]
    assert len(messages) == 2
    assert "'multi'" in messages[0] and "after the first" in messages[0] and "'fine'" not in messages[0]
    assert "'spans'" in messages[1] and "'both'" not in messages[1]
    back = cg.read_csv(tmp_path / "s.csv")
    assert back.get("multi").anchors == (a1,)
    assert back.get("spans").anchors == ()


def test_write_is_silent_when_nothing_is_lost(tmp_path, handbook_set):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cg.write_csv(handbook_set, tmp_path / "s.csv")


def test_meta_is_one_json_cell(tmp_path):
    item = cg.EvalItem(id="q1", question="Q?", meta={"reviewed": True, "pair": ("a", 1), "note": "x, \"y\""})
    path = cg.write_csv(cg.EvalSet(id="s", items=(item,)), tmp_path / "s.csv")
    with open(path, newline="", encoding="utf-8") as handle:
        row = next(csv.DictReader(handle))
    assert json.loads(row["meta"]) == {"reviewed": True, "pair": ["a", 1], "note": 'x, "y"'}
    assert dict(cg.read_csv(path).get("q1").meta) == {"reviewed": True, "pair": ["a", 1], "note": 'x, "y"'}


@pytest.mark.parametrize(
    "text, written",
    [
        ("=1+1", "'=1+1"),
        ("+SUM(A1)", "'+SUM(A1)"),
        ("-5 degrees?", "'-5 degrees?"),
        ("@cmd", "'@cmd"),
        ("\tTabbed", "'\tTabbed"),
        ("\rCarriage", "'\rCarriage"),
        ("'=already", "''=already"),
        ("''-twice", "'''-twice"),
        ("'plain apostrophe", "'plain apostrophe"),
        ("normal = text", "normal = text"),
        ("", ""),
    ],
)
def test_formula_guard(text, written):
    assert guard(text) == written
    assert unguard(written) == text


def test_formula_cells_are_written_guarded_and_read_back_exactly(tmp_path):
    item = cg.EvalItem(
        id="=id",
        question="=HYPERLINK(\"http://x\")",
        anchors=(cg.GoldAnchor("@src", "-quote", page_hint=-3),),
        qtype="+t",
        answer="'=kept",
        meta={"k": "=v"},
    )
    path = cg.write_csv(cg.EvalSet(id="s", items=(item,)), tmp_path / "s.csv")
    with open(path, newline="", encoding="utf-8") as handle:
        row = list(csv.reader(handle))[1]
    assert row[:4] == ["'=id", "'=HYPERLINK(\"http://x\")", "'@src", "'-quote"]
    assert row[5] == "'-3" and row[7] == "'+t" and row[8] == "''=kept"
    assert all(not cell or cell[0] not in "=+-@\t\r" for cell in row)
    assert cg.read_csv(path).items == (item,)


def test_a_quote_never_closed_is_refused_at_its_record_not_read_to_the_end_of_the_file(tmp_path):
    # A hand-edited cell that opens a quote and never closes it: read loosely, every row after it became
    # part of q2's question and the set had 2 questions instead of 5, with nothing said.
    text = (
        "id,question,answer\n"
        "q1,What does the tile saw need?,A guard\n"
        'q2,"The ""best"" saw, or the cheapest?,cheap\n'
        "q3,How long is a loan?,One week\n"
        "q4,Who runs the library?,Volunteers\n"
    )
    error = _error(_write(tmp_path, text))
    assert error.line == 3
    assert "never closed" in error.message


def test_text_after_a_closing_quote_is_refused_not_unquoted_silently(tmp_path):
    error = _error(_write(tmp_path, 'id,question,answer\nq1,ok?,A\nq2,"Hamlet" is a play by whom?,Shakespeare\n'))
    assert error.line == 3
    assert "after its closing quote" in error.message and "double the quotes" in error.message


def test_quotes_written_as_csv_writes_them_still_read(tmp_path):
    buffer = io.StringIO()
    csv.writer(buffer).writerows([["id", "question"], ["q1", 'The "best" saw, or\nthe cheapest?'], ["q2", "plain"]])
    evalset = cg.read_csv(_write(tmp_path, buffer.getvalue()))
    assert [item.question for item in evalset.items] == ['The "best" saw, or\nthe cheapest?', "plain"]


def test_a_whole_document_in_a_context_cell_is_read(tmp_path):
    document = "The handbook says loans last two weeks. " * 8_000  # 320,000 characters, past Python's default limit
    buffer = io.StringIO()
    csv.writer(buffer).writerows([["id", "question", "quote", "source_id"], ["q1", "How long do loans last?", document, "handbook.md"]])
    evalset = cg.read_csv(_write(tmp_path, buffer.getvalue()))
    assert evalset.items[0].anchors[0].quote == document


def test_a_second_column_under_a_fields_name_is_said_and_kept_in_meta(tmp_path):
    path = _write(tmp_path, "id,question,Question,answer,ground_truth\nq1,What is it?,What is that?,a model's,the reference\n")
    with pytest.warns(UserWarning, match="a second column under a field's name") as caught:
        evalset = cg.read_csv(path)
    item = evalset.items[0]
    assert item.question == "What is it?" and item.meta["Question"] == "What is that?"
    assert item.answer == "the reference"  # the reference answer over a pipeline's, by the aliases' order: not a second column
    said = " ".join(str(w.message) for w in caught)
    assert "'Question' (the question is 'question')" in said and "'answer'" not in said


def test_a_second_column_of_the_same_name_is_kept_under_its_own_key(tmp_path):
    """Two 'notes' columns read as one meta key, and the first cell was gone without a word."""
    path = tmp_path / "d.csv"
    path.write_text("id,question,notes,notes\na,What is kept?,first,second\n")
    with pytest.warns(UserWarning, match="'notes' as 'notes \\(column 4\\)'"):
        evalset = cg.read_csv(path)
    assert dict(evalset.get("a").meta) == {"notes": "first", "notes (column 4)": "second"}
    assert evalset.meta["columns_renamed"] == 1


def test_a_column_and_the_meta_cell_giving_one_key_two_values_is_refused(tmp_path):
    path = tmp_path / "m.csv"
    path.write_text('id,question,title,meta\na,What is kept?,COLUMN,"{""title"": ""META""}"\nb,And this?,same,"{""title"": ""same""}"\n')
    with pytest.raises(cg.EvalSetError, match=r"m.csv:2: the column 'title' and the meta cell's key 'title'") as caught:
        cg.read_csv(path)
    assert caught.value.field == "title"
    path.write_text('id,question,title,meta\nb,And this?,same,"{""title"": ""same""}"\n')
    assert cg.read_csv(path).get("b").meta["title"] == "same"  # one value given twice loses nothing


def test_short_rows_are_counted_and_a_file_that_may_be_cut_inside_its_last_row_says_so(tmp_path):
    """A demo CSV cut at byte 777 read as a question "W" without a word."""
    path = tmp_path / "short.csv"
    path.write_text("id,question,answer,x\nq1,Who wrote it?,Ana,1\nq2,Who read it?\n")
    with pytest.warns(UserWarning, match="fewer cells than the header names, the missing cells read as empty: 1 \\(lines 3\\)"):
        evalset = cg.read_csv(path)
    assert evalset.get("q2").answer is None and evalset.meta["rows_short"] == 1
    path.write_text("id,question,answer,x\nq1,Who wrote it?,Ana,1\nq2,W")  # no line end: cut short, or written so
    with pytest.warns(UserWarning, match="the last row \\(line 3\\) is short and the file ends inside it"):
        evalset = cg.read_csv(path)
    assert evalset.meta["last_row_unended"] == 1


def test_a_whole_number_beyond_64_bits_in_a_meta_cell_is_refused_not_rounded(tmp_path):
    path = tmp_path / "big.csv"
    path.write_text('id,question,meta\na,What is kept?,"{""x"": 123456789012345678901234567890}"\n')
    with pytest.raises(cg.EvalSetError, match="big.csv:2: meta holds the whole number 123456789012345678901234567890"):
        cg.read_csv(path)


def test_a_column_with_no_name_after_the_first_is_kept_and_said(tmp_path):
    """Cells under a blank header were dropped without a word; only a first column (pandas' index) is not data."""
    path = tmp_path / "u.csv"
    path.write_text(",id,question,,,answer,\n0,a,What is kept?,IMPORTANT,DATA2,yes,\n1,b,And this?,,more,no,\n")
    with pytest.warns(UserWarning, match=r"columns with no name in the header, their cells kept in each item's meta as \(column 4\), \(column 5\)"):
        evalset = cg.read_csv(path)
    assert dict(evalset.get("a").meta) == {"(column 4)": "IMPORTANT", "(column 5)": "DATA2"}
    assert dict(evalset.get("b").meta) == {"(column 5)": "more"}
    assert evalset.meta["columns_unnamed"] == 2  # the trailing comma's empty column holds nothing, and is not counted


def test_a_meta_cell_of_non_json_keys_is_still_read_as_unreadable_not_refused(tmp_path):
    # The repeated-key check comes after the test of what JSON can hold: {1: 1, 1: 2} is no JSON object either way.
    path = tmp_path / "k.csv"
    path.write_text('id,question,meta\na,What is kept here?,"{1: 1, 1: 2}"\n')
    with pytest.warns(UserWarning, match="not a JSON object"):
        evalset = cg.read_csv(path)
    assert dict(evalset.get("a").meta) == {} and evalset.meta["meta_cells_unreadable"] == 1


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ('id,question,quote,meta\na1,Q?,NEW evidence text,"{""contexts"": [""old""]}"\n', "contexts"),
        ('id,question,source_file,meta\na1,Q?,B.pdf,"{""source_file"": ""A.pdf""}"\n', "source_file"),
        ('id,question,ground_truths,meta\na1,Q?,"[\'first\', \'second\']","{""answers"": [""x""]}"\n', "answers"),
    ],
)
def test_a_meta_cell_giving_a_kept_cell_another_value_is_refused(tmp_path, text, key):
    """The meta cell's value won and the row's text was gone without a word (the warning even said it was kept)."""
    with pytest.raises(cg.EvalSetError, match=rf"the row's '{key}' .* and the meta cell's key '{key}' .* two values"):
        _read_quietly(_write(tmp_path, text))


def test_page_grade_and_occurrence_no_anchor_took_are_kept_in_meta(tmp_path):
    """A golden set of documents and pages without quotes lost its pages and grades without a word."""
    es = _read_quietly(_write(tmp_path, "id,question,answer,source_file,page,grade\nq1,Why?,Because.,manual.pdf,12,1\n"))
    assert dict(es.get("q1").meta) == {"source_file": "manual.pdf", "page": "12", "grade": "1"}
    es = _read_quietly(_write(tmp_path, "id,question,quote,page,grade,occurrence\nx1,Q?,some text,4,1,2\n", "b.csv"))
    assert dict(es.get("x1").meta) == {"contexts": ["some text"], "page": "4", "grade": "1", "occurrence": "2"}
    ragas = 'id,question,contexts,page,occurrence,metadata\na1,Q?,"[\'one\', \'two\']",7,1,"[{""source"": ""s1""}, {""source"": ""s2""}]"\n'
    item = _read_quietly(_write(tmp_path, ragas, "c.csv")).get("a1")
    assert [a.source_id for a in item.anchors] == ["s1", "s2"]  # each context's own source: the row's page is not theirs
    assert (item.meta["page"], item.meta["occurrence"]) == ("7", "1")
    full = _read_quietly(_write(tmp_path, "id,question,quote,source_id,page,grade\nq1,Q?,text,d.pdf,4,1\n", "d.csv"))
    assert full.get("q1").anchors[0].page_hint == 4 and "page" not in full.get("q1").meta  # used: not kept twice


def test_a_pandas_index_that_does_not_count_the_rows_is_kept(tmp_path):
    """A frame filtered before it was saved wrote 5 and 17 in its index: the values were thrown away unsaid."""
    counted = _read_quietly(_write(tmp_path, ",question,answer\n0,Why?,Because.\n1,How?,So.\n"))
    assert all("(column 1)" not in item.meta for item in counted)  # 0, 1: only row numbers
    filtered = _read_quietly(_write(tmp_path, ",question,answer\n5,Why?,Because.\n17,How?,So.\n", "f.csv"))
    assert [item.meta.get("(column 1)") for item in filtered] == ["5", "17"]


def test_an_apostrophe_read_as_the_formula_guard_is_said(tmp_path):
    """In a file reviewtui did not write, "'+' means addition" lost its apostrophe without a word."""
    es = _read_quietly(_write(tmp_path, "id,question\nq1,'+' means addition in which language?\nq2,Plain?\n"))
    assert es.get("q1").question == "+' means addition in which language?"
    assert es.meta["cells_unguarded"] == 1 and "1 row with a cell beginning with an apostrophe" in describe_skipped(es)
    written = cg.write_csv(cg.EvalSet(id="w", items=(cg.EvalItem(id="q1", question="=1+1 is what?"),)), tmp_path / "w.csv")
    assert cg.read_csv(written).get("q1").question == "=1+1 is what?"  # its own guard comes off, as ever


def test_the_guard_note_names_every_character_it_guards(tmp_path):
    """A tab or a carriage return after the apostrophe is guarded too, and the note said "before = + - or @"."""
    es = _read_quietly(_write(tmp_path, "id,question\nq1,\"'\tTabbed question here?\"\n", "t.csv"))
    assert es.get("q1").question == "\tTabbed question here?"
    said = describe_skipped(es)
    assert "a tab or a carriage return" in said


def test_the_readme_says_what_the_formula_guard_does():
    """A CSV export changed "=HYPERLINK(...)" into "'=HYPERLINK(...)", and nothing a user reads said so."""
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    assert "formula" in readme and "apostrophe" in readme


@pytest.mark.parametrize(
    "record",
    [
        # fields of other types than an export writes: the columns read them back as defaults, or dropped them
        {"verdict": "approved", "note": None, "reviewer": ["ana", "bo"], "seconds": "12", "flagged": "none", "decided_at": 1733000000},
        {"verdict": "ok"},  # an export's fields left out: the columns gave back nine defaults beside it
    ],
)
def test_a_review_record_the_columns_would_change_stays_in_the_meta_cell_as_it_is(tmp_path, record):
    item = cg.EvalItem(id="c3", question="Is the moon made of rock and dust?", answer="Yes", meta={"review": record})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cg.write_csv(cg.EvalSet(id="s", items=(item,)), tmp_path / "out.csv")
        back = cg.read_csv(tmp_path / "out.csv")
    assert dict(back.get("c3").meta["review"]) == record

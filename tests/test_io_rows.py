"""Question rows of other tools (ragas, deepeval, a pandas or `datasets` export) open as they are, from JSON Lines
or a JSON list: before, they were refused with a hint to write them out as CSV first."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

import reviewtui as cg
from reviewtui.cli import main
from reviewtui.evalset.io.csvfile import read_csv
from reviewtui.evalset.io.jsonrows import read_rows
from reviewtui.evalset.io.shapes import ITEM_FIELDS, is_question_row
from reviewtui.evalset.io.sniff import FORMATS, open_evalset, sniff_format

RAGAS = [
    {
        "user_input": "What is the capital of France?",
        "reference_contexts": ["Paris is the capital of France."],
        "reference": "Paris",
        "synthesizer_name": "single_hop",
    },
    {
        "user_input": "Who wrote Hamlet?",
        "reference_contexts": ["Hamlet is a tragedy.", "It was written by Shakespeare around 1600."],
        "reference": "William Shakespeare",
        "synthesizer_name": "multi_hop",
        "difficulty": 3,
        "tags": {"topic": "plays", "checked": False},
    },
]


def _lines(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


def test_a_ragas_jsonl_opens_with_its_keys_taken_by_name(tmp_path, recwarn):
    path = _lines(tmp_path / "ragas.jsonl", RAGAS)
    assert sniff_format(path) == "rows"
    evalset = open_evalset(path)
    first, second = evalset.items
    assert (first.id, first.question, first.answer) == ("q1", "What is the capital of France?", "Paris")
    assert second.meta["contexts"] == ["Hamlet is a tragedy.", "It was written by Shakespeare around 1600."]
    # a key no field takes keeps its value as the type it is, not as text
    assert second.meta["difficulty"] == 3 and dict(second.meta["tags"]) == {"topic": "plays", "checked": False}
    assert first.meta["synthesizer_name"] == "single_hop" and "difficulty" not in first.meta  # keys vary by record
    said = " ".join(str(w.message) for w in recwarn)
    assert "no id key, so rows were numbered q1, q2" in said and "rows with evidence text but no source: 2" in said


def test_a_deepeval_json_list_opens_and_its_sources_give_anchors(tmp_path):
    path = tmp_path / "goldens.json"
    rows = [
        {"input": "Refund window?", "expected_output": "30 days", "context": ["Refunds within 30 days."], "source_file": "policy.txt"},
        {"input": "Who signs?", "expected_output": None, "context": None, "source_file": "policy.txt"},
    ]
    path.write_text(json.dumps(rows), encoding="utf-8")
    assert sniff_format(path) == "rows"
    refund, signs = open_evalset(path).items
    assert [(a.source_id, a.quote) for a in refund.anchors] == [("policy.txt", "Refunds within 30 days.")]
    assert refund.answer == "30 days" and signs.answer is None and not signs.anchors
    assert signs.meta["source_file"] == "policy.txt"  # a source without evidence text is kept, as in a CSV file


def test_texts_are_read_as_written(tmp_path):
    """A JSON text carries no spreadsheet's formula guard, and one in a field of plain text is never a list."""
    path = _lines(tmp_path / "rows.jsonl", [
        {"query": "'+1 or -1?", "answer": "['a', 'b']", "evidence": "['not', 'a list']", "doc": "d.txt"},
    ])
    item = open_evalset(path).items[0]
    assert item.question == "'+1 or -1?" and item.answer == "['a', 'b']"
    assert [a.quote for a in item.anchors] == ["['not', 'a list']"]


def test_a_list_pandas_wrote_as_text_is_read_as_the_csv_reader_reads_it(tmp_path):
    path = _lines(tmp_path / "pandas.jsonl", [{"question": "Q?", "contexts": "['one', 'two']", "ground_truths": "['x', 'y']"}])
    item = open_evalset(path).items[0]
    assert list(item.meta["contexts"]) == ["one", "two"] and item.answer == "x" and list(item.meta["answers"]) == ["x", "y"]


@pytest.mark.parametrize(
    "record, message",
    [
        ({"query": "Q?", "answer": 42}, "`answer` must be a text or a list of texts, found a number"),
        ({"query": "Q?", "contexts": ["a", 3]}, "`contexts` must be a text or a list of texts, found a list"),
        ({"query": "Q?", "grade": "high", "doc": "d", "quote": "x"}, "`grade` must be a whole number"),
        ({"query": "Q?", "qtype": ["a"]}, "`qtype` must be a text, found a list"),
        ({"query": "Q?", "metadata": 7}, "`metadata` must be an object, found a number"),
    ],
    ids=["answer-number", "context-list", "grade-text", "qtype-list", "meta-number"],
)
def test_a_value_of_the_wrong_type_is_named_at_its_line(tmp_path, capsys, record, message):
    path = _lines(tmp_path / "rows.jsonl", [{"query": "First?", "answer": "fine"}, record])
    assert main(["info", str(path), "--from", "rows"]) == 2
    err = capsys.readouterr().err
    assert f"rows.jsonl:2: {message}" in err and "Traceback" not in err


def test_a_json_lists_rows_are_named_by_their_place(tmp_path, capsys):
    path = tmp_path / "rows.json"
    path.write_text(json.dumps([{"query": "First?", "id": "f"}, {"query": "Again?", "id": "a"}, {"query": "Third?", "id": "a"}]))
    assert main(["info", str(path)]) == 2
    assert "rows.json: row 3: item id 'a' is used twice: on row 2 and again here" in capsys.readouterr().err
    path.write_text(json.dumps([{"query": "First?", "id": "f"}, {"query": "No id?"}]))
    assert main(["info", str(path)]) == 2
    assert "rows.json: row 2: this row has no id, although the file has an id key" in capsys.readouterr().err


def test_rows_without_a_question_are_skipped_and_counted(tmp_path, recwarn):
    path = _lines(tmp_path / "rows.jsonl", [{"input": "Kept?", "note": 1}, {"input": None, "note": 2}, {"input": "", "note": 3}])
    evalset = open_evalset(path)
    assert [item.question for item in evalset.items] == ["Kept?"]
    assert any("rows skipped: 2 with no question (lines 2, 3)" in str(w.message) for w in recwarn)


def test_our_own_items_are_not_taken_for_rows(tmp_path):
    assert ITEM_FIELDS == set(cg.EvalItem.model_fields)  # written out so that sniffing a file loads no model
    assert not is_question_row({"id": "q1", "question": "Q?", "anwser": "typo"})  # ours, with a typo: refused as ours
    assert is_question_row({"id": "Q001", "question": "Q?", "expected_answer": "A", "category": "policy"})  # a golden set
    assert not is_question_row({"question": "Q?", "answer": "A"})  # ours without an id
    assert not is_question_row({"question": "Q?", "anchors": [], "context": "c"})  # our evidence
    assert not is_question_row({"input": [{"role": "user", "content": "2+2?"}], "ideal": "4"})  # a chat
    assert not is_question_row({"query": "Q?", "answers": {"text": ["x"], "answer_start": [3]}})  # no text answer
    assert is_question_row({"question": "Q?", "answer": "A", "context": "c"})
    path = _lines(tmp_path / "ours.jsonl", [{"question": "Q?", "answer": "A"}])
    assert sniff_format(path) == "jsonl"
    with pytest.raises(cg.EvalSetError, match="field `id` is missing"):
        open_evalset(path)


def test_a_later_record_of_our_own_shape_is_refused_not_read_into_meta(tmp_path, capsys):
    path = _lines(tmp_path / "mixed.jsonl", [RAGAS[0], {"id": "x", "question": "Q?", "anchors": [{"source_id": "d", "quote": "q"}]}])
    assert main(["info", str(path)]) == 2
    assert "mixed.jsonl:2: this record has `anchors`, evidence as reviewtui's own items hold it" in capsys.readouterr().err


def test_the_format_can_be_named(tmp_path, capsys):
    assert "rows" in FORMATS
    path = _lines(tmp_path / "set.txt", RAGAS)
    assert main(["info", str(path), "--from", "rows"]) == 0
    assert "2 questions" in capsys.readouterr().out
    with pytest.raises(cg.EvalSetError, match="no record has a question under any name reviewtui knows"):
        read_rows(_lines(tmp_path / "none.jsonl", [{"text": "no question here"}]))


def test_the_spec_reader_still_refuses_them_and_says_how_to_open_them(tmp_path):
    with pytest.raises(cg.EvalSetError) as info:
        cg.read_jsonl(_lines(tmp_path / "ragas.jsonl", RAGAS))
    assert "reads rows like these as question rows" in info.value.message and "--from rows" in info.value.message


def test_a_review_of_rows_exports_the_next_version(tmp_path, capsys):
    path = _lines(tmp_path / "ragas.jsonl", RAGAS)
    from reviewtui.evalset.review.session import ReviewSession

    with ReviewSession.open(path, reviewer="ana") as session:
        session.accept()
    out = tmp_path / "next.jsonl"
    assert main(["export", str(path), "-o", str(out)]) == 0
    exported = cg.read_jsonl(out)
    assert exported.items[0].meta["verdict"] == "accepted" and exported.items[1].meta["difficulty"] == 3


def _csv_rows_as_pandas_writes_them(path: Path) -> list[dict]:
    """The rows of a CSV file as ``pd.read_csv(path).to_json(orient="records", lines=True)`` gives them: every
    cell a text (a list cell too), an empty cell left out here (pandas writes null, which the CSV has not)."""
    with open(path, newline="", encoding="utf-8") as handle:
        return [{key: value for key, value in row.items() if value != ""} for row in csv.DictReader(handle)]


def test_real_golden_sets_read_as_rows_give_the_items_their_csv_gives(realdata, tmp_path, recwarn):
    files = sorted((realdata / "goldenset-aimakerspace").rglob("*.csv")) + sorted((realdata / "goldenset-demo").glob("*.csv"))
    if not files:
        pytest.skip(f"no golden-set CSV files under {realdata}")
    for source in files:
        rows = _csv_rows_as_pandas_writes_them(source)
        as_rows = open_evalset(_lines(tmp_path / f"{source.stem}.jsonl", rows))
        assert as_rows.items == read_csv(source).items, source.name


def test_a_pandas_index_key_is_read_as_the_csv_readers_index_column(tmp_path, recwarn):
    """A frame read from a CSV file pandas wrote with its index has an "Unnamed: 0" column; written with
    ``to_json(orient="records")`` each record holds it as a number. It counts the rows, and is left out as the
    CSV reader leaves that column out; one that does not count them (a filtered frame) is kept under its key."""
    path = _lines(tmp_path / "frame.jsonl", [
        {"Unnamed: 0": 0, "question": "Why?", "answer": "Because."},
        {"Unnamed: 0": 1, "question": "How?", "answer": "So."},
    ])
    assert sniff_format(path) == "rows"
    first, second = open_evalset(path).items
    assert (first.question, second.question) == ("Why?", "How?")
    assert "Unnamed: 0" not in first.meta and "Unnamed: 0" not in second.meta
    filtered = tmp_path / "filtered.json"
    filtered.write_text(json.dumps([{"Unnamed: 0": 5, "query": "Who?"}, {"query": "Where?"}]), encoding="utf-8")
    who, where = open_evalset(filtered).items
    assert who.meta["Unnamed: 0"] == 5 and "Unnamed: 0" not in where.meta


def test_a_json_list_of_rows_with_only_an_items_field_names_opens_as_rows(tmp_path, recwarn):
    """``df[["question", "answer"]].to_json(path, orient="records")``: no key but an item's field names, and no
    native format is a JSON list, so no native reader would say which field the rows lack: they are rows."""
    path = tmp_path / "qa.json"
    path.write_text(json.dumps([{"question": "Refund window?", "answer": "30 days"}, {"question": "Who signs?"}]))
    assert sniff_format(path) == "rows"
    refund, signs = open_evalset(path).items
    assert (refund.id, refund.question, refund.answer, signs.id) == ("q1", "Refund window?", "30 days", "q2")
    with_ids = tmp_path / "ids.json"
    with_ids.write_text(json.dumps([{"id": "a", "question": "Refund window?", "answer": "30 days"}]))
    assert [item.id for item in open_evalset(with_ids).items] == ["a"]
    typo = tmp_path / "typo.json"  # one of our items with a key misspelt is still no row
    typo.write_text(json.dumps([{"id": "a", "question": "Refund window?", "anwser": "30 days"}]))
    with pytest.raises(cg.EvalSetError, match="not a format reviewtui knows"):
        open_evalset(typo)


def test_rows_holding_nan_as_pythons_json_writes_it_are_read(tmp_path, recwarn):
    """``json.dump`` writes a float NaN as ``NaN``; the native reader reads such a line (and its hint sends a
    row of another tool's shape to the rows reader), so the rows reader reads it too, and says so."""
    path = tmp_path / "scored.jsonl"
    path.write_text('{"user_input": "Why?", "reference": "So.", "score": NaN}\n{"user_input": "How?", "score": 0.5}\n')
    assert sniff_format(path) == "rows"
    why, how = open_evalset(path).items
    assert why.answer == "So." and why.meta["score"] != why.meta["score"] and how.meta["score"] == 0.5
    assert "NaN or an infinite number" in " ".join(str(w.message) for w in recwarn)


def test_a_json_file_of_json_lines_rows_opens_as_rows(tmp_path, recwarn):
    """A Hugging Face dataset's ``to_json("set.json")`` writes JSON Lines into a file named .json; question rows
    there open as they do from .jsonl. Other JSON Lines in a .json file are refused as before, naming the formats."""
    path = _lines(tmp_path / "ragas.json", RAGAS)
    assert sniff_format(path) == "rows"
    assert [item.question for item in open_evalset(path).items] == [row["user_input"] for row in RAGAS]
    ours = _lines(tmp_path / "ours.json", [{"id": "a", "question": "Why?"}, {"id": "b", "question": "How?"}])
    with pytest.raises(cg.EvalSetError, match="holds JSON Lines"):
        open_evalset(ours)


def test_records_naming_their_question_differently_are_refused_not_skipped(tmp_path):
    """One record with a `q` key made `q` the question of every record: the others, whose question is under
    `user_input`, were left out as rows "with no question", and that record's own question went to meta."""
    rows = [{"user_input": f"Question {n} about refunds?", "reference": f"answer {n}"} for n in range(3)]
    rows[1]["q"] = "R2"
    path = _lines(tmp_path / "rows.jsonl", rows)
    with pytest.raises(cg.EvalSetError) as info:
        open_evalset(path)
    assert info.value.line == 1 and "`user_input`" in info.value.message and "line 2 has `q`" in info.value.message
    listed = tmp_path / "rows.json"
    listed.write_text(json.dumps([{"question": "A?"}, {"query": "B?"}]))
    with pytest.raises(cg.EvalSetError, match="row 2: this record's question is under `query`, but row 1"):
        open_evalset(listed)


def test_jsonl_rows_of_an_items_field_names_without_ids_are_pointed_to_the_rows_reader(tmp_path):
    """``df[["question", "answer"]].to_json(path, orient="records", lines=True)``: each line looks like one of our
    items without its id, and the native reader says so; it also says which reader numbers such rows."""
    path = _lines(tmp_path / "qa.jsonl", [{"question": "Refund window?", "answer": "30 days"}])
    with pytest.raises(cg.EvalSetError) as info:
        open_evalset(path)
    assert info.value.line == 1 and info.value.message.startswith("field `id` is missing; ")
    assert "--from rows" in info.value.message
    assert [item.id for item in open_evalset(path, format="rows").items] == ["q1"]


def test_a_key_no_field_takes_goes_to_meta_as_it_is_spelt(tmp_path):
    """Read through the CSV reader's header rules, " tags " became meta "tags" and the record's own "tags" was
    renamed "tags (column 3)"; an empty key became "(column 4)"."""
    path = _lines(tmp_path / "keys.jsonl", [{"query": "Q?", " tags ": 1, "tags": 2, "": 3}])
    item = open_evalset(path).items[0]
    assert dict(item.meta) == {" tags ": 1, "tags": 2, "": 3}


def test_our_own_set_header_is_not_read_as_a_row(tmp_path, capsys):
    path = _lines(tmp_path / "headed.jsonl", [{"_evalset": {"id": "s", "version": 3}}, *RAGAS])
    assert main(["info", str(path), "--from", "rows"]) == 2
    assert "headed.jsonl:1: this is the header of a set in reviewtui's own format" in capsys.readouterr().err

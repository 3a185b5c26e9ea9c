"""Hand-made hostile input: each file either loads into items that can be saved, or fails as ``path:line``.

The main case is ``meta`` nested deeper than JSON writers go (orjson stops at 254 levels,
pydantic about there): such an item used to load, and then every attempt to decide or edit
it crashed. It is now refused at load, by every reader, at :data:`MAX_META_DEPTH`; anything
at the limit or below loads and can be written, also wrapped inside a journal record.
"""

from __future__ import annotations

import csv
import io
import warnings
from pathlib import Path
from typing import Any

import orjson
import pytest
from textual.app import App

from reviewtui.cli import main
from reviewtui.evalset.io import describe_skipped, open_evalset, write_jsonl
from reviewtui.evalset.io.jsonl import JsonlReader
from reviewtui.evalset.io.readingnote import ReadingNote
from reviewtui.evalset.model.items import MAX_META_DEPTH, EvalItem, EvalSet, EvalSetError, GoldAnchor
from reviewtui.evalset.review import loading
from reviewtui.evalset.review.session import ReviewSession
from reviewtui.tui.app import ReviewApp
from tests.tui_helpers import FakeClock


def nested(levels: int) -> dict[str, Any]:
    """A meta object nested exactly ``levels`` deep (its own object is level 1)."""
    value: Any = 1
    for _ in range(levels):
        value = {"k": value}
    return value


def _line(item_id: str, **fields: Any) -> bytes:
    """One item line; a ``meta`` given as bytes goes in as written (orjson cannot write the deepest ones)."""
    raw_meta = fields.pop("meta") if isinstance(fields.get("meta"), bytes) else None
    line = orjson.dumps({"id": item_id, "question": f"Which form does rule {item_id} ask for?", **fields})
    return line if raw_meta is None else line[:-1] + b', "meta": ' + raw_meta + b"}"


def deep_json(levels: int) -> bytes:
    """:func:`nested` as JSON text, for depths no JSON writer goes to."""
    return b'{"k": ' * levels + b"1" + b"}" * levels


def _jsonl(tmp_path: Path, *lines: bytes, name: str = "set.jsonl") -> Path:
    path = tmp_path / name
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


def _error(path: Path, **kwargs: Any) -> EvalSetError:
    with pytest.raises(EvalSetError) as info:
        open_evalset(path, **kwargs)
    return info.value


# --- meta nested too deep ------------------------------------------------------------------


def test_meta_nested_300_deep_is_refused_at_its_line(tmp_path):
    path = _jsonl(tmp_path, _line("q1"), _line("q2", meta={"a": 1}), _line("q3", meta=deep_json(300)))
    error = _error(path)
    assert str(error) == f"{path}:3: meta is nested 300 levels deep; at most {MAX_META_DEPTH} are allowed"
    assert error.field == "meta"


def test_the_progressive_reader_refuses_it_at_its_line_too(tmp_path):
    lines = [_line(f"q{i}") for i in range(1, 10)] + [_line("deep", meta=deep_json(100))]
    reader = JsonlReader(_jsonl(tmp_path, *lines))
    assert len(reader.read(5)) == 5  # the opening batch is fine
    with pytest.raises(EvalSetError) as info:
        reader.finish()
    reader.close()
    assert (info.value.line, info.value.field) == (10, "meta") and "nested 100 levels deep" in str(info.value)


def test_one_level_over_the_limit_is_refused_and_a_list_counts_as_a_level(tmp_path):
    too_deep: Any = 1
    for _ in range(MAX_META_DEPTH):
        too_deep = [too_deep]
    error = _error(_jsonl(tmp_path, _line("q1", meta={"x": too_deep})))
    assert f"meta is nested {MAX_META_DEPTH + 1} levels deep" in str(error) and error.line == 1


def test_meta_at_the_limit_loads_and_every_writer_can_write_it(tmp_path):
    path = _jsonl(tmp_path, _line("q1", meta=nested(MAX_META_DEPTH)), _line("q2"))
    evalset = open_evalset(path)
    item = evalset.get("q1")
    assert item is not None
    orjson.dumps(item.model_dump())
    item.model_dump_json()
    record: Any = item.model_dump()
    for _ in range(20):  # the journal, the editor's copy: always inside a few more levels
        record = {"wrapped": [record]}
    orjson.dumps(record)
    assert open_evalset(write_jsonl(evalset, tmp_path / "again.jsonl")).get("q1") == item


def test_accepting_and_editing_an_item_at_the_limit_works(tmp_path):
    """What `a` and `e` do in the app: each writes the item to the journal."""
    path = _jsonl(tmp_path, _line("q1", meta=nested(MAX_META_DEPTH)), _line("q2", meta=nested(MAX_META_DEPTH)))
    with ReviewSession.open(path, reviewer="ana", clock=FakeClock()) as session:
        session.accept()
        session.edit(question="Which form does the second rule ask for?")
    with ReviewSession.open(path, reviewer="ana", clock=FakeClock()) as again:
        assert again.queue.decision_for("q1") is not None and again.queue.decision_for("q2") is not None


def test_a_deep_header_meta_is_refused_at_the_header_line(tmp_path):
    header = b'{"_evalset": {"id": "s", "meta": ' + deep_json(200) + b"}}"
    error = _error(_jsonl(tmp_path, header, _line("q1")))
    assert error.line == 1 and error.field == "_evalset.meta" and "nested 200 levels deep" in error.message


def test_json_too_deep_for_the_parser_is_a_located_error_not_a_traceback(tmp_path):
    path = _jsonl(tmp_path, _line("q1"), b'{"id": "q2", "question": "Deep?", "meta": {"x": ' + b"[" * 5000 + b"]" * 5000 + b"}}")
    error = _error(path)
    assert error.line == 2 and "not valid JSON" in error.message


def test_very_wide_meta_loads(tmp_path):
    wide = {"rows": [[] for _ in range(100_000)], "keys": {f"k{i}": i for i in range(10_000)}}
    item = open_evalset(_jsonl(tmp_path, _line("q1", meta=wide))).items[0]
    assert len(item.meta["rows"]) == 100_000 and orjson.dumps(item.model_dump())


def test_a_meta_that_holds_itself_is_refused_not_looped_over():
    cycle: list[Any] = []
    cycle.append(cycle)
    with pytest.raises(EvalSetError, match="nested more than"):
        EvalItem(id="q1", question="Which?", meta={"x": cycle})


def test_with_meta_refuses_what_it_could_not_write():
    item = EvalItem(id="q1", question="Which?")
    with pytest.raises(EvalSetError, match=r"'q1': meta is nested 70 levels deep"):
        item.with_meta(nested(70))
    assert item.with_meta({"reviewed": True, "batch": 3}).meta == {"reviewed": True, "batch": 3}


# --- the command line -------------------------------------------------------------------------


def _headless_run(self: ReviewApp) -> Any:
    """The app without a terminal; if it has not closed itself after a while, it is closed with 0 (so a test fails, not hangs)."""

    async def close_if_still_open(pilot: Any) -> None:
        for _ in range(300):
            if pilot.app.return_code is not None:  # it closed itself
                return
            await pilot.pause(0.1)
        pilot.app.exit()

    return App.run(self, headless=True, auto_pilot=close_if_still_open)


@pytest.fixture
def deep_file(tmp_path):
    return _jsonl(tmp_path, _line("q1"), _line("q2", meta=deep_json(300)))


def test_info_on_a_deep_meta_exits_2_with_one_line(deep_file, capsys):
    assert main(["info", str(deep_file)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"{deep_file}:2: meta is nested 300 levels deep; at most {MAX_META_DEPTH} are allowed"]


def test_review_on_a_deep_meta_exits_2_with_one_line(deep_file, monkeypatch, capsys):
    monkeypatch.setattr(ReviewApp, "run", _headless_run)
    monkeypatch.setenv("REVIEWTUI_REVIEWER", "ana")
    assert main([str(deep_file)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"{deep_file}:2: meta is nested 300 levels deep; at most {MAX_META_DEPTH} are allowed"]


def test_review_finding_a_deep_meta_while_reading_in_the_background_exits_2(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(loading, "OPENING_ITEMS", 3)
    monkeypatch.setattr(loading, "LOADER_BATCH", 50)
    path = _jsonl(tmp_path, *[_line(f"q{i}") for i in range(1, 201)], _line("late", meta=deep_json(300)))
    monkeypatch.setattr(ReviewApp, "run", _headless_run)
    monkeypatch.setenv("REVIEWTUI_REVIEWER", "ana")
    assert main([str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"{path}:201: meta is nested 300 levels deep")


# --- the other readers --------------------------------------------------------------------------


def _csv(tmp_path: Path, header: list[str], *rows: list[str]) -> Path:
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(header)
    writer.writerows(rows)
    path = tmp_path / "set.csv"
    path.write_text(buffer.getvalue(), encoding="utf-8")
    return path


def test_csv_meta_cell_nested_too_deep_is_refused_at_its_line(tmp_path):
    path = _csv(tmp_path, ["id", "question", "meta"], ["q1", "Which?", "{}"], ["q2", "Which?", orjson.dumps(nested(100)).decode()])
    error = _error(path)
    assert error.line == 3 and "meta is nested 100 levels deep" in error.message


def test_csv_meta_cell_as_a_python_literal_nested_too_deep_is_refused(tmp_path):
    literal = "{'k': " * 150 + "1" + "}" * 150
    error = _error(_csv(tmp_path, ["id", "question", "meta"], ["q1", "Which?", literal]))
    assert error.line == 2 and "meta is nested 150 levels deep" in error.message


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize(
    "cell",
    [
        "{'k': '\\ud800'}",  # a lone surrogate: not Unicode that UTF-8 (or any JSON writer) can hold
        "{'\\udc00': 1}",
        "{'k': " + "9" * 30 + "}",  # a whole number beyond the 64 bits orjson writes
    ],
)
def test_csv_python_literals_no_json_writer_could_write_are_not_taken_as_meta(tmp_path, cell):
    evalset = open_evalset(_csv(tmp_path, ["id", "question", "meta"], ["q1", "Which?", cell]))
    assert evalset.items[0].meta == {}  # counted and warned about as an unreadable meta cell
    orjson.dumps(evalset.items[0].model_dump())


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_csv_list_cells_with_a_lone_surrogate_are_read_as_plain_text(tmp_path):
    path = _csv(
        tmp_path,
        ["id", "question", "source_id", "contexts", "ground_truths"],
        ["q1", "Which?", "doc.md", "['\\ud800 first']", "['\\ud800 a', 'b']"],
    )
    item = open_evalset(path).items[0]
    assert item.anchors[0].quote == "['\\ud800 first']" and item.answer == "['\\ud800 a', 'b']"
    orjson.dumps(item.model_dump())


def test_squad_article_fields_nested_too_deep_are_refused_naming_the_question(tmp_path):
    payload = {
        "version": "1.1",
        "data": [
            {
                "title": "T",
                "theme": nested(100),
                "paragraphs": [{"context": "Bob is here.", "qas": [{"id": "s1", "question": "Who?", "answers": []}]}],
            }
        ],
    }
    path = tmp_path / "squad.json"
    path.write_bytes(orjson.dumps(payload))
    error = _error(path)
    assert str(error).startswith(f"{path}: data[0].paragraphs[0].qas[0]: meta is nested 101 levels deep")


def _hotpot_row(**fields: Any) -> dict[str, Any]:
    row = {
        "_id": "h1",
        "question": "Who is here?",
        "answer": "Bob",
        "type": "bridge",
        "level": "easy",
        "supporting_facts": [["T", 0]],
        "context": [["T", ["Bob is here."]]],
    }
    row.update(fields)
    return row


def test_hotpot_fields_kept_in_meta_nested_too_deep_are_refused_at_their_line(tmp_path):
    path = tmp_path / "hotpot.jsonl"
    path.write_bytes(orjson.dumps(_hotpot_row()) + b"\n" + orjson.dumps(_hotpot_row(_id="h2", level=nested(100))) + b"\n")
    error = _error(path)
    assert error.line == 2 and "question 'h2': meta is nested 101 levels deep" in error.message


def _nq_row(**fields: Any) -> dict[str, Any]:
    row = {
        "example_id": 7,
        "question_text": "who is here",
        "document_url": "https://en.wikipedia.org/w/index.php?title=Bob",
        "document_text": "<P> Bob is here </P>",
        "annotations": [{"long_answer": {"start_token": 0, "end_token": 5}, "short_answers": [], "yes_no_answer": "NONE"}],
    }
    row.update(fields)
    return row


def test_nq_fields_kept_in_meta_nested_too_deep_are_refused_at_their_line(tmp_path):
    path = tmp_path / "nq.jsonl"
    path.write_bytes(orjson.dumps(_nq_row(document_url=nested(100))) + b"\n")
    error = _error(path)
    assert error.line == 1 and "meta is nested 101 levels deep" in error.message


# --- other hostile values ---------------------------------------------------------------------------


def test_a_whole_number_beyond_64_bits_in_meta_is_refused_not_rounded(tmp_path):
    """It was read as a float: 123456789012345678901234567890 became 1.2345678901234568e+29 without a word."""
    path = _jsonl(tmp_path, b'{"id": "q1", "question": "Which?", "meta": {"x": 18446744073709551616, "y": [99999999999999999999999]}}')
    with pytest.raises(EvalSetError, match=r"18446744073709551616, outside the range JSON is written with \(-2\*\*63 to 2\*\*64-1\); quote it"):
        open_evalset(path)
    path = _jsonl(tmp_path, b'{"id": "q1", "question": "Which?", "meta": {"x": 18446744073709551615, "y": "99999999999999999999999"}}')
    item = open_evalset(path).items[0]  # the largest 64-bit number, and a long one quoted: as written
    assert item.meta["x"] == 2**64 - 1 and item.meta["y"] == "99999999999999999999999"
    orjson.dumps(item.model_dump())


def test_a_whole_number_id_of_any_length_reads_as_its_digits(tmp_path):
    path = _jsonl(tmp_path, _line("q0"), b'{"id": 100000000000000000000000000, "question": "Which?"}')
    assert open_evalset(path).items[1].id == "100000000000000000000000000"


def test_model_refuses_meta_values_no_writer_could_write():
    with pytest.raises(EvalSetError, match="outside the range JSON is written with"):
        EvalItem(id="q1", question="Which?", meta={"n": 2**64})
    with pytest.raises(EvalSetError, match="not valid Unicode"):
        EvalItem(id="q1", question="Which?", meta={"x": "\ud800"})
    assert EvalItem(id="q1", question="Which?", meta={"x": None}).meta == {"x": None}
    with pytest.raises(EvalSetError, match=r"grade` is too large"):
        GoldAnchor(source_id="d", quote="x", grade=2**63)
    assert EvalItem(id="q1", question="Which?", meta={"n": 2**64 - 1, "m": -(2**63)}).meta["n"] == 2**64 - 1


@pytest.mark.parametrize(
    ("line", "words"),
    [
        (b'{"id": "q1", "question": "Which?", "anchors": [{"source_id": "d", "quote": "x", "grade": 99999999999999999999}]}', "grade"),
        (b'{"id": "q1", "question": "Which?", "gold": [{"span": {"doc_id": "d", "start": 0, "end": 18446744073709551615}}]}', "end"),
        (b'{"id": "q1", "question": "Which?", "anchors": [{"source_id": "d", "quote": "x", "grade": 1e400}]}', "grade"),
        (b'{"id": [1], "question": "Which?"}', "id"),
        (b'{"id": {"a": 1}, "question": "Which?"}', "id"),
        (b'{"id": true, "question": "Which?"}', "id"),
        (b'{"id": 1.5, "question": "Which?"}', "id"),
        (b'{"id": "q1", "question": 5}', "question"),
        (b'{"id": "q1", "question": "Which\\ud800?"}', "not valid JSON"),
        (b'{"id": "q1", "question": "Which\x00?"}', "not valid JSON"),
    ],
)
def test_hostile_jsonl_values_fail_at_their_line(tmp_path, line, words):
    error = _error(_jsonl(tmp_path, _line("q0"), line))
    assert error.line == 2 and words in error.message


def test_nan_and_infinity_in_meta_load_on_any_line_and_write_back_as_null(tmp_path):
    """What Python's json module writes for them; JSON has no such values, so writers give null."""
    line = b'{"id": "q%d", "question": "Which?", "meta": {"score": NaN, "bounds": [-Infinity, Infinity]}}'
    path = _jsonl(tmp_path, line % 1, line % 2)
    with pytest.warns(ReadingNote):
        evalset = open_evalset(path)
    assert [str(item.meta["score"]) for item in evalset.items] == ["nan", "nan"]
    again = open_evalset(write_jsonl(evalset, tmp_path / "again.jsonl"))
    assert again.items[1].meta == {"score": None, "bounds": [None, None]}
    orjson.dumps(evalset.items[0].model_dump())


def _reading_notes(path: Path, **kwargs: Any) -> tuple[Any, list[str]]:
    """The set read from ``path`` and the reading notes (warnings) said as it was read."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        evalset = open_evalset(path, **kwargs)
    return evalset, [str(w.message) for w in caught if issubclass(w.category, ReadingNote)]


def test_nan_in_item_meta_is_said_with_a_count_and_the_items_and_lines(tmp_path):
    """It was written back as null without a word: 0.5 or "not scored" became nothing."""
    path = _jsonl(
        tmp_path,
        b'{"_evalset": {"id": "s"}}',
        b'{"id": "q1", "question": "Which?", "meta": {"score": NaN}}',
        b"",
        _line("q2", meta={"score": None}),  # a null of its own is no NaN
        b'{"id": "q3", "question": "Which?", "meta": {"runs": [{"loss": -Infinity}]}}',
        b'{"id": "q4", "question": "Which?", "meta": {"score": 1e400}}',  # too large for a float: read as infinite
    )
    evalset, notes = _reading_notes(path)
    assert notes == [
        "set.jsonl: NaN or infinite numbers in the meta of 3 items ('q1' on line 2, 'q3' on line 5, 'q4' on line 6): "
        "JSON has no form for them, so a file written from this set (convert, export, filter) holds null in their place"
    ]
    assert evalset.items[3].meta["score"] == float("inf")


def test_the_review_sessions_reading_says_nan_too(tmp_path):
    """A review (and export's check of it) opens a native set through the batch reader, not read_jsonl."""
    path = _jsonl(tmp_path, _line("q1"), b'{"id": "q2", "question": "Which?", "meta": {"score": NaN}}')
    with JsonlReader(path) as reader, pytest.warns(ReadingNote, match=r"1 item \('q2' on line 2\)"):
        loading.read_to_end(reader)


def test_nan_on_a_line_read_the_slow_way_reads_as_on_any_other(tmp_path):
    """A whole-number id sends a line past the fast path, where orjson refused NaN: "not valid JSON"."""
    path = _jsonl(tmp_path, b'{"id": 7, "question": "Which?", "meta": {"score": NaN, "top": 1e400}}')
    evalset, notes = _reading_notes(path)
    assert evalset.items[0].id == "7" and str(evalset.items[0].meta["score"]) == "nan"
    assert len(notes) == 1 and "1 item ('7' on line 1)" in notes[0]


def test_nan_does_not_hide_what_is_wrong_with_its_line(tmp_path):
    error = _error(_jsonl(tmp_path, b'{"id": "q1", "question": "Which?", "meta": {"score": NaN}, "anwser": "x"}'))
    assert error.line == 1 and "unknown field `anwser`" in error.message


def test_a_header_with_nan_in_its_meta_reads_back_as_the_set_writer_wrote_it(tmp_path):
    """The set writer writes NaN in the header's meta as NaN, and reading that file back said "not valid JSON"."""
    evalset = EvalSet(id="s", meta={"baseline": float("nan")}, items=(EvalItem(id="q1", question="Which?"),))
    path = write_jsonl(evalset, tmp_path / "s.jsonl")
    again, notes = _reading_notes(path)
    assert str(again.meta["baseline"]) == "nan" and notes == []  # written back as it was: nothing to say


def test_an_error_after_a_header_with_nan_names_the_right_line(tmp_path):
    path = _jsonl(tmp_path, b'{"_evalset": {"id": "s", "meta": {"m": NaN}}}', _line("q1"), _line("q1"))
    error = _error(path)
    assert error.line == 3 and "on line 2" in error.message


def test_csv_meta_cell_with_nan_is_read_and_said(tmp_path):
    """It was "not a JSON object, read as {}": the whole cell dropped for one NaN."""
    path = _csv(tmp_path, ["id", "question", "meta"], ["q1", "Which?", '{"score": NaN, "n": 2}'], ["q2", "Which?", '{"n": 3}'])
    evalset, notes = _reading_notes(path)
    assert str(evalset.items[0].meta["score"]) == "nan" and evalset.items[0].meta["n"] == 2
    assert notes == [
        "set.csv: meta cells holding NaN or an infinite number: 1 (lines 2); JSON has no form for them, so a file "
        "written from this set (convert, export, filter) holds null in their place"
    ]
    assert describe_skipped(evalset) == "1 item with NaN or an infinite number in meta, which a written file holds as null."


@pytest.mark.parametrize(
    ("encoding", "said"),
    [("utf-16", "the file is UTF-16 (it begins with a byte-order mark)"), ("utf-16-le", "the file looks like UTF-16")],
)
def test_a_utf16_csv_file_is_said_to_be_utf16(tmp_path, encoding, said):
    """Without a mark it read, and failed as "no question column. ... Found: i d ,  q u e s t i o n"."""
    path = tmp_path / "wide.csv"
    path.write_bytes("id,question\nq1,What is one?\n".encode(encoding))
    error = _error(path)
    assert error.line == 1 and error.message.startswith(said) and error.message.endswith("save it as UTF-8 and try again")


def test_a_number_of_thousands_of_digits_is_said_as_that(tmp_path):
    """orjson's "number is infinity when parsed as double" said nothing of a 5000-digit id written without quotes."""
    path = _jsonl(tmp_path, _line("q1"), b'{"id": "q2", "question": "Which?", "meta": {"hash": ' + b"7" * 5000 + b"}}")
    error = _error(path)
    assert error.line == 2
    assert error.message == (
        "the number 777777777777... (5,000 digits, column 53) is too large to be read as a number; "
        "if it is a name or a code, put it in quotes"
    )


def test_an_escaped_nul_in_text_loads_and_writes(tmp_path):
    item = open_evalset(_jsonl(tmp_path, b'{"id": "q\\u0000", "question": "Which\\u0000?"}')).items[0]
    assert item.id == "q\x00" and orjson.dumps(item.model_dump())


@pytest.mark.parametrize(
    ("fields", "words"),
    [({"_id": ["h"]}, "`_id` must be a string or a whole number, found a list"), ({"id": True}, "`id` must be")],
)
def test_converted_ids_that_are_not_text_or_whole_numbers_are_refused(tmp_path, fields, words):
    row = _hotpot_row()
    row.update(fields)
    path = tmp_path / "hotpot.jsonl"
    path.write_bytes(orjson.dumps(row) + b"\n")
    error = _error(path)
    assert error.line == 1 and words in error.message


def test_nq_example_id_that_is_an_object_is_refused(tmp_path):
    path = tmp_path / "nq.jsonl"
    path.write_bytes(orjson.dumps(_nq_row(example_id={"a": 1})) + b"\n")
    assert "`example_id` must be a string or a whole number" in str(_error(path))


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize(
    "fields",
    [{"context": 5}, {"context": {"title": 5, "sentences": 6}}, {"supporting_facts": 7}, {"supporting_facts": {"title": 5}}],
)
def test_hotpot_rows_with_malformed_context_or_facts_load_without_evidence(tmp_path, fields):
    path = tmp_path / "hotpot.jsonl"
    path.write_bytes(orjson.dumps(_hotpot_row(**fields)) + b"\n")
    item = open_evalset(path).items[0]
    assert item.anchors == ()


@pytest.mark.parametrize(
    ("where", "words"),
    [
        ("paragraphs", "data[0].paragraphs must be a list, found a number"),
        ("qas", "data[0].paragraphs[0].qas must be a list, found a number"),
        ("answers", "data[0].paragraphs[0].qas[0].answers must be a list, found a number"),
    ],
)
def test_squad_lists_of_the_wrong_type_are_named(tmp_path, where, words):
    qa: dict[str, Any] = {"id": "s1", "question": "Who?", "answers": [{"text": "Bob", "answer_start": 0}]}
    paragraph: dict[str, Any] = {"context": "Bob is here.", "qas": [qa]}
    article: dict[str, Any] = {"title": "T", "paragraphs": [paragraph]}
    {"paragraphs": article, "qas": paragraph, "answers": qa}[where][where] = 5
    path = tmp_path / "squad.json"
    path.write_bytes(orjson.dumps({"version": "1.1", "data": [article]}))
    assert str(_error(path)) == f"{path}: {words}"


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_nq_url_that_urllib_cannot_split_still_loads(tmp_path):
    path = tmp_path / "nq.jsonl"
    path.write_bytes(orjson.dumps(_nq_row(document_url="http://[::1/w?title=Bob")) + b"\n")
    item = open_evalset(path).items[0]
    assert item.anchors and item.anchors[0].source_id == "nq-7"


@pytest.mark.parametrize("score", ["9" * 30, "9" * 5000, "-" + "9" * 5000], ids=["30 digits", "5000 digits", "minus 5000 digits"])
def test_beir_scores_out_of_range_are_refused_at_their_line(tmp_path, score):
    (tmp_path / "qrels").mkdir()
    (tmp_path / "queries.jsonl").write_text('{"_id": "q1", "text": "Who?"}\n')
    (tmp_path / "qrels" / "test.tsv").write_text(f"q1\td1\t1\nq1\td2\t{score}\n")
    error = _error(tmp_path)
    assert (error.path, error.line) == (str(tmp_path / "qrels" / "test.tsv"), 2) and "out of range" in error.message


def test_beir_scores_with_many_leading_zeros_are_read(tmp_path):
    (tmp_path / "qrels").mkdir()
    (tmp_path / "queries.jsonl").write_text('{"_id": "q1", "text": "Who?"}\n')
    (tmp_path / "qrels" / "test.tsv").write_text("q1\td1\t" + "0" * 5000 + "2\n")
    assert open_evalset(tmp_path).items[0].meta["gold_documents"] == [("d1", 2)]


def test_a_whole_number_beyond_64_bits_in_a_squad_file_is_refused_not_rounded(tmp_path):
    """Only JSONL lines were read exactly: a SQuAD article's id became 1.2345678901234568e+29 in meta."""
    import json

    data = {"version": "v2.0", "data": [{"title": "T", "id": 123456789012345678901234567890, "paragraphs": [
        {"context": "Paris is the capital of France.",
         "qas": [{"id": "a", "question": "What is the capital of France?", "answers": [{"text": "Paris", "answer_start": 0}]}]}]}]}
    path = tmp_path / "sq.json"
    path.write_text(json.dumps(data))
    with pytest.raises(EvalSetError, match="123456789012345678901234567890, outside the range JSON is written with"):
        open_evalset(path)


def test_nan_found_in_another_thread_does_not_move_this_threads_count():
    """A reader compares the count before and after its batch: another thread's NaN moved it (only cost), and two
    threads adding to one shared number could put it back where the reader saw it (a NaN unsaid)."""
    import threading

    from reviewtui.evalset.model.items import EvalItem, non_finite_seen

    mine = non_finite_seen()
    seen_there: list[int] = []

    def other() -> None:
        before = non_finite_seen()
        EvalItem.model_validate_json(b'{"id": "a", "question": "Q?", "meta": {"x": NaN}}')
        seen_there.append(non_finite_seen() - before)

    worker = threading.Thread(target=other)
    worker.start()
    worker.join()
    assert seen_there == [1] and non_finite_seen() == mine
    EvalItem.model_validate_json(b'{"id": "b", "question": "Q?", "meta": {"x": Infinity}}')
    assert non_finite_seen() == mine + 1


def test_a_whole_number_below_the_range_is_not_called_too_large():
    with pytest.raises(EvalSetError, match="-9223372036854775809, outside the range JSON is written with"):
        EvalItem(id="q", question="How many?", meta={"n": -(2**63) - 1})
    EvalItem(id="q", question="How many?", meta={"n": -(2**63)})  # the lowest the writer takes

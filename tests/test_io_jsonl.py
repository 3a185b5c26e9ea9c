"""Native JSONL: the reference page's examples, the reading rules and every located error."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import reviewtui as cg
from reviewtui.evalset.io import read_evalset

ITEM_FIELDS = ["id", "question", "gold", "anchors", "qtype", "answer", "meta"]
ANCHOR_FIELDS = ["source_id", "quote", "grade", "page_hint", "occurrence"]


@pytest.fixture
def handbook_set() -> cg.EvalSet:
    anchor = cg.GoldAnchor(source_id="handbook.pdf", quote="Employees accrue 1.5 days of leave per month.")
    item = cg.EvalItem(
        id="q1",
        question="How much leave do employees accrue per month?",
        anchors=(anchor,),
        qtype=cg.QuestionType.FACTOID,
    )
    return cg.EvalSet(id="handbook-quiz", items=(item,))


def _error(path: Path) -> cg.EvalSetError:
    with pytest.raises(cg.EvalSetError) as info:
        cg.read_jsonl(path)
    return info.value


# --- the page's examples -------------------------------------------------------------------


def test_page_write_example_gives_header_then_item_in_page_order(tmp_path, handbook_set):
    path = cg.write_jsonl(handbook_set, tmp_path / "quiz.jsonl")
    assert path == tmp_path / "quiz.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2
    assert json.loads(lines[0]) == {"_evalset": {"id": "handbook-quiz", "version": 1, "source": "manual", "meta": {}}}
    assert list(json.loads(lines[0])["_evalset"]) == ["id", "version", "source", "meta"]
    item = json.loads(lines[1])
    assert item == {
        "id": "q1",
        "question": "How much leave do employees accrue per month?",
        "gold": [],
        "anchors": [
            {
                "source_id": "handbook.pdf",
                "quote": "Employees accrue 1.5 days of leave per month.",
                "grade": 2,
                "page_hint": None,
                "occurrence": 0,
            }
        ],
        "qtype": "factoid",
        "answer": None,
        "meta": {},
    }
    assert list(item) == ITEM_FIELDS
    assert list(item["anchors"][0]) == ANCHOR_FIELDS


def test_page_read_example_gives_len_id_version_source(tmp_path, handbook_set):
    cg.write_jsonl(handbook_set, tmp_path / "quiz.jsonl")
    es = cg.read_jsonl(tmp_path / "quiz.jsonl")
    assert (len(es), es.id, es.version, es.source) == (1, "handbook-quiz", 1, "manual")
    assert es == handbook_set


def test_page_minimal_file_without_header(tmp_path):
    path = tmp_path / "minimal.jsonl"
    path.write_text(
        '{"id": "q1", "question": "What is the notice period for resignation?", '
        '"anchors": [{"source_id": "handbook.pdf", "quote": "Employees must give 30 days written notice."}]}\n'
    )
    es = cg.read_jsonl(path)
    assert (len(es), es.id, es.version, es.source, dict(es.meta)) == (1, "minimal", 1, "import", {})
    anchor = es.get("q1").anchors[0]
    assert (anchor.grade, anchor.page_hint, anchor.occurrence) == (2, None, 0)


def test_write_creates_missing_parent_folders(tmp_path, handbook_set):
    target = tmp_path / "a" / "b" / "quiz.jsonl"
    assert cg.write_jsonl(handbook_set, target) == target
    assert cg.read_jsonl(target) == handbook_set


def test_read_evalset_goes_by_extension(tmp_path, handbook_set):
    cg.write_jsonl(handbook_set, tmp_path / "quiz.jsonl")
    cg.write_jsonl(handbook_set, tmp_path / "quiz.txt")
    assert read_evalset(tmp_path / "quiz.jsonl") == handbook_set
    assert read_evalset(tmp_path / "quiz.txt") == handbook_set
    (tmp_path / "really.csv").write_bytes((tmp_path / "quiz.jsonl").read_bytes())
    with pytest.raises(cg.EvalSetError, match="holds JSON, not CSV") as info:
        read_evalset(tmp_path / "really.csv")  # JSON in a .csv goes to the CSV reader and fails there, saying why
    assert info.value.line == 1


# --- what is written -----------------------------------------------------------------------


def test_gold_spans_meta_and_non_ascii_are_written_in_order(tmp_path):
    item = cg.EvalItem(
        id="ü-1",
        question="Qu'est-ce que « Ωmega » ?",
        gold=(cg.GoldSpan(cg.Span("doc.txt", 3, 9), grade=1),),
        anchors=(cg.GoldAnchor("doc.txt", "naïve quote", 1, 4, 2),),
        answer="Ωmega",
        meta={"tags": ("a", 1), "reviewed": True},
    )
    es = cg.EvalSet(id="s", items=(item,), version=3, source="tool", meta={"by": "me"})
    raw = cg.write_jsonl(es, tmp_path / "s.jsonl").read_bytes()
    assert "« Ωmega »".encode() in raw  # UTF-8, not \u escapes
    record = json.loads(raw.splitlines()[1])
    assert record["gold"] == [{"span": {"doc_id": "doc.txt", "start": 3, "end": 9}, "grade": 1}]
    assert list(record["gold"][0]) == ["span", "grade"]
    assert list(record["gold"][0]["span"]) == ["doc_id", "start", "end"]
    back = cg.read_jsonl(tmp_path / "s.jsonl")
    assert (back.version, back.source, dict(back.meta)) == (3, "tool", {"by": "me"})
    assert back.items[0].meta["tags"] == ["a", 1]  # JSON has no tuples
    assert back.items[0].replace(meta=item.meta) == item


def test_write_refuses_meta_that_is_not_json(tmp_path):
    item = cg.EvalItem(id="q1", question="Why?", meta={"bad": object()})
    with pytest.raises(cg.EvalSetError, match="'q1'.*meta"):
        cg.write_jsonl(cg.EvalSet(id="s", items=(item,)), tmp_path / "s.jsonl")
    assert not list(tmp_path.iterdir())  # nothing half-written


# --- tolerated layouts ---------------------------------------------------------------------

LINE_1 = b'{"id": "q1", "question": "First?"}'
LINE_2 = b'{"id": "q2", "question": "Second?"}'


@pytest.mark.parametrize(
    "content",
    [
        b"\xef\xbb\xbf" + LINE_1 + b"\n" + LINE_2 + b"\n",
        LINE_1 + b"\r\n" + LINE_2 + b"\r\n",
        b"\n\n" + LINE_1 + b"\n   \n\t\n" + LINE_2 + b"\n\n",
        LINE_1 + b"\n" + LINE_2,
        b"\xef\xbb\xbf" + LINE_1 + b"\r\n\r\n" + LINE_2,
    ],
    ids=["bom", "crlf", "blank-lines", "no-final-newline", "all-together"],
)
def test_tolerated_layouts(tmp_path, content):
    path = tmp_path / "s.jsonl"
    path.write_bytes(content)
    es = cg.read_jsonl(path)
    assert [item.id for item in es] == ["q1", "q2"]
    assert [item.question for item in es] == ["First?", "Second?"]


def test_header_after_blank_lines_and_bom_is_still_the_header(tmp_path):
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"\xef\xbb\xbf\n\n" + b'{"_evalset": {"id": "x", "version": 4}}\r\n' + LINE_1)
    es = cg.read_jsonl(path)
    assert (es.id, es.version, es.source, len(es)) == ("x", 4, "manual", 1)


def test_header_without_id_falls_back_to_the_stem(tmp_path):
    path = tmp_path / "named.jsonl"
    path.write_bytes(b'{"_evalset": {"version": 2, "source": "s", "meta": {"k": 1}}}\n' + LINE_1)
    es = cg.read_jsonl(path)
    assert (es.id, es.version, es.source, dict(es.meta)) == ("named", 2, "s", {"k": 1})


def test_integer_ids_are_read_as_strings(tmp_path):
    path = tmp_path / "s.jsonl"
    path.write_text('{"id": 7, "question": "Seven?"}\n{"id": "8", "question": "Eight?"}\n')
    assert [item.id for item in cg.read_jsonl(path)] == ["7", "8"]


def test_empty_file_gives_an_empty_set(tmp_path):
    path = tmp_path / "empty.jsonl"
    path.write_bytes(b"\n\n")
    es = cg.read_jsonl(path)
    assert (len(es), es.id, es.source) == (0, "empty", "import")


# --- located errors ------------------------------------------------------------------------


def _write_lines(tmp_path: Path, *lines: str) -> Path:
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_malformed_json_names_path_and_line(tmp_path):
    path = _write_lines(tmp_path, LINE_1.decode(), "", '{"id": "q2", "question": "Broken?"')
    error = _error(path)
    assert (error.path, error.line) == (str(path), 3)
    assert str(error).startswith(f"{path}:3: not valid JSON")


@pytest.mark.parametrize("line, found", [("[1, 2]", "a list"), ('"text"', "a string"), ("42", "a number"), ("null", "null")])
def test_a_line_that_is_not_an_object(tmp_path, line, found):
    error = _error(_write_lines(tmp_path, LINE_1.decode(), line))
    assert error.line == 2
    assert f"found {found}" in error.message


def test_missing_id(tmp_path):
    error = _error(_write_lines(tmp_path, LINE_1.decode(), '{"question": "No id?"}'))
    assert (error.line, error.field) == (2, "id")
    assert "id" in error.message and "missing" in error.message


def test_missing_question(tmp_path):
    error = _error(_write_lines(tmp_path, '{"id": "q9"}'))
    assert (error.line, error.field) == (1, "question")
    assert "missing" in error.message


def test_blank_question(tmp_path):
    error = _error(_write_lines(tmp_path, LINE_1.decode(), LINE_2.decode(), '{"id": "q3", "question": "  \\t "}'))
    assert (error.line, error.field) == (3, "question")
    assert "blank" in error.message


def test_line_that_is_not_an_item_at_all(tmp_path):
    error = _error(_write_lines(tmp_path, '{"example_id": 1, "document_text": "x"}'))
    assert error.line == 1
    assert "neither `id` nor `question`" in error.message and "`example_id`" in error.message


@pytest.mark.parametrize(
    "anchor, field, words",
    [
        ('{"source_id": "a.pdf", "quote": "   "}', "anchors[0].quote", "blank"),
        ('{"source_id": "a.pdf"}', "anchors[0].quote", "missing"),
        ('{"source_id": "a.pdf", "quote": "x", "grade": -1}', "anchors[0].grade", "negative"),
        ('{"source_id": "a.pdf", "quote": "x", "occurrence": "first"}', "anchors[0].occurrence", "whole number"),
        ('"just a string"', "anchors[0]", "object"),
    ],
)
def test_bad_anchor(tmp_path, anchor, field, words):
    line = '{"id": "q1", "question": "Why?", "anchors": [' + anchor + "]}"
    error = _error(_write_lines(tmp_path, LINE_2.decode(), line))
    assert (error.line, error.field) == (2, field)
    assert words in error.message


def test_empty_gold_span_is_located(tmp_path):
    line = '{"id": "q1", "question": "Why?", "gold": [{"span": {"doc_id": "d", "start": 5, "end": 5}}]}'
    error = _error(_write_lines(tmp_path, line))
    assert error.line == 1
    assert error.field.startswith("gold[0]")
    assert "covers no text" in error.message


def test_unknown_item_key_is_named_with_the_known_fields(tmp_path):
    error = _error(_write_lines(tmp_path, LINE_1.decode(), '{"id": "q2", "question": "Q?", "anwser": "x"}'))
    assert (error.line, error.field) == (2, "anwser")
    assert "`anwser`" in error.message
    assert "id, question, gold, anchors, qtype, answer, meta" in error.message


@pytest.mark.parametrize(
    "line, field, said",
    [
        (
            '{"question": "Who wrote Hamlet?", "answers": ["Shakespeare"], "ctxs": [{"title": "Hamlet", "text": "x"}]}',
            "id",
            "field `id` is missing; unknown fields `answers`, `ctxs`; the fields of an item are: "
            "id, question, gold, anchors, qtype, answer, meta",
        ),
        (
            '{"question": "What is RAG?", "answer": "Retrieval-augmented generation", "context": "RAG combines..."}',
            "id",
            "field `id` is missing; unknown field `context`; the fields of an item are:",
        ),
        (
            '{"id": "5733be28", "title": "Notre_Dame", "context": "x", "question": "Q?", "answers": {"text": ["x"]}}',
            "title",
            "unknown fields `title`, `context`, `answers`; the fields of an item are:",
        ),
    ],
    ids=["retriever-ctxs", "hf-export", "hf-squad-rows"],
)
def test_every_unknown_key_of_a_foreign_record_is_named_at_once(tmp_path, line, field, said):
    """A record in another tool's shape was said as "field `id` is missing (and 2 more problems)": the keys
    in the way went unnamed, or were named one per attempt."""
    error = _error(_write_lines(tmp_path, line))
    assert (error.line, error.field) == (1, field)
    assert error.message.startswith(said)
    assert "more problem" not in error.message


def test_unknown_anchor_key_lists_anchor_fields(tmp_path):
    line = '{"id": "q1", "question": "Q?", "anchors": [{"source_id": "s", "quote": "x", "page": 3}]}'
    error = _error(_write_lines(tmp_path, line))
    assert error.field == "anchors[0].page"
    assert "source_id, quote, grade, page_hint, occurrence" in error.message


def test_duplicate_id_names_both_lines(tmp_path):
    path = _write_lines(
        tmp_path,
        '{"_evalset": {"id": "s"}}',
        LINE_1.decode(),
        "",
        LINE_2.decode(),
        '{"id": "q1", "question": "Again?"}',
    )
    error = _error(path)
    assert (error.line, error.field) == (5, "id")
    assert "line 2" in error.message and "'q1'" in error.message
    assert str(error).startswith(f"{path}:5:")


def test_duplicate_integer_and_string_id(tmp_path):
    error = _error(_write_lines(tmp_path, '{"id": 7, "question": "A?"}', '{"id": "7", "question": "B?"}'))
    assert error.line == 2 and "line 1" in error.message


@pytest.mark.parametrize(
    ("line", "key"),
    [
        ('{"id":"q2","question":"Q?","answer":"yes","answer":"no"}', "answer"),
        ('{"id":"q2","question":"Q?","anchors":[{"source_id":"a","quote":"x","quote":"y"}]}', "quote"),
        ('{"id":"q2","question":"Q?","meta":{"src":{"page":1,"page":2}}}', "page"),
        ('{"id":7,"question":"Q?","id":8}', "id"),  # a line read the slow way (its id is coerced)
        ('{"id" : "q2", "question" : "Q?", "qtype" : "a", "qtype" : "b"}', "qtype"),  # spaces before colons
        ('{"id":"q2","question":"Q?","question" : "R?"}', "question"),  # only the repeat spaced: counts alike
        ('{"id":"q2","question":"Q?","question"\r:"R?"}', "question"),  # a carriage return is JSON whitespace too
    ],
)
def test_a_key_given_twice_is_refused_at_its_line(tmp_path, line, key):
    """orjson and pydantic keep the last of two values under one key: the first vanished without a word."""
    error = _error(_write_lines(tmp_path, LINE_1.decode(), line))
    assert (error.line, error.field) == (2, key)
    assert f'"{key}" is given twice' in error.message


def test_a_key_given_twice_in_the_header_is_refused(tmp_path):
    error = _error(_write_lines(tmp_path, '{"_evalset": {"id": "a", "id": "b"}}', LINE_1.decode()))
    assert (error.line, error.field) == (1, "id")


@pytest.mark.parametrize(
    "line",
    [
        '{"id":"q2","question":"Who said \\":\\" first?","answer":"x\\":"}',  # the pair inside strings
        '{"id" : "q2", "question" : "Q?"}',
        '{"id":"q2","question":"Q?","meta":{"a":{"b":[{"c":1},{"c":2}],"d":{}}}}',  # equal keys in different objects
    ],
)
def test_lines_that_only_look_as_if_a_key_were_repeated_read_as_they_are(tmp_path, line):
    evalset = cg.read_jsonl(_write_lines(tmp_path, line))
    assert evalset.items[0].id == "q2"


def test_invalid_utf8_names_the_line_and_column(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_bytes(LINE_1 + b"\n" + b'{"id": "q2", "question": "caf\xe9?"}\n')
    error = _error(path)
    assert error.line == 2
    assert "UTF-8" in error.message and "0xe9" in error.message and "column 30" in error.message


def test_header_not_on_the_first_line(tmp_path):
    error = _error(_write_lines(tmp_path, LINE_1.decode(), '{"_evalset": {"id": "late"}}'))
    assert (error.line, error.field) == (2, "_evalset")
    assert "first non-blank line" in error.message


def test_second_header(tmp_path):
    error = _error(_write_lines(tmp_path, '{"_evalset": {"id": "a"}}', '{"_evalset": {"id": "b"}}'))
    assert error.line == 2 and error.field == "_evalset"


@pytest.mark.parametrize(
    "header, field, words",
    [
        ('{"_evalset": {"id": "s", "version": 0}}', "_evalset.version", "at least 1"),
        ('{"_evalset": {"id": "s", "version": "two"}}', "_evalset.version", "whole number"),
        ('{"_evalset": {"id": "s", "meta": []}}', "_evalset.meta", "object"),
        ('{"_evalset": {"id": "s", "owner": "me"}}', "_evalset.owner", "unknown header field"),
        ('{"_evalset": ["s"]}', "_evalset", "must be an object"),
        ('{"_evalset": {"id": "s"}, "id": "q1"}', "_evalset", "besides"),
    ],
)
def test_bad_header(tmp_path, header, field, words):
    error = _error(_write_lines(tmp_path, header, LINE_1.decode()))
    assert (error.line, error.field) == (1, field)
    assert words in error.message


def test_missing_file_and_folder(tmp_path):
    missing = _error(tmp_path / "nope.jsonl")
    assert (missing.path, missing.line) == (str(tmp_path / "nope.jsonl"), None)
    assert "no such file" in str(missing)
    folder = _error(tmp_path)
    assert "folder" in folder.message and folder.path == str(tmp_path)


def test_cli_prints_a_located_error_in_one_line_and_exits_2(tmp_path, capsys):
    from reviewtui.cli import main

    path = _write_lines(tmp_path, LINE_1.decode(), "{oops")
    out_path = tmp_path / "out.jsonl"
    assert main(["convert", str(path), str(out_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"{path}:2: not valid JSON")
    assert "\n" not in err and "Traceback" not in err
    assert not out_path.exists()


# --- memory sharing of pydantic's field-name sets -------------------------------------------


def test_loaded_items_share_complete_field_sets_without_changing_behaviour(tmp_path, handbook_set):
    second = handbook_set.items[0].replace(id="q2")
    cg.write_jsonl(handbook_set.with_items((handbook_set.items[0], second)), tmp_path / "s.jsonl")
    with (tmp_path / "s.jsonl").open("a") as handle:
        handle.write('{"id": "q3", "question": "Short form?"}\n')
    es = cg.read_jsonl(tmp_path / "s.jsonl")
    first, second, short = es.items
    assert first.model_fields_set == set(ITEM_FIELDS)
    assert first.model_fields_set is second.model_fields_set  # one shared set
    assert first.anchors[0].model_fields_set is second.anchors[0].model_fields_set
    assert short.model_fields_set == {"id", "question"}  # partial input keeps its own, true set
    copy = first.model_copy(update={"answer": "1.5 days"})
    assert copy.answer == "1.5 days" and copy.model_fields_set is not first.model_fields_set
    assert first.model_fields_set == set(ITEM_FIELDS) and first.answer is None
    assert first.model_dump(exclude_unset=True) == first.model_dump()
    assert short.model_dump(exclude_unset=True) == {"id": "q3", "question": "Short form?"}


def test_shared_strings_give_the_same_set_with_one_copy_of_each_repeated_source_and_quote(tmp_path):
    """Questions about one passage cite the same source and quote; read for a scan, they share one copy."""
    quote = "Loans of reference books last two weeks and may be renewed once at the desk."
    items = [
        cg.EvalItem(
            id=f"q{n}",
            question=f"Question {n} about loans?",
            anchors=(cg.GoldAnchor("rules.md", quote), cg.GoldAnchor(f"other{n % 2}.md", f"Clause {n} of the rules.")),
            gold=(cg.GoldSpan(cg.Span("rules.md", n, n + 5)),),
        )
        for n in range(6)
    ]
    path = cg.write_jsonl(cg.EvalSet(id="loans", items=items), tmp_path / "loans.jsonl")
    plain = cg.read_jsonl(path)
    shared = cg.read_jsonl(path, share_strings=True)
    assert shared == plain and [i.anchors for i in shared] == [i.anchors for i in plain]
    assert len({id(i.anchors[0].quote) for i in shared}) == 1
    assert len({id(i.anchors[0].source_id) for i in shared} | {id(i.gold[0].span.doc_id) for i in shared}) == 1
    assert len({id(i.anchors[1].source_id) for i in shared}) == 2  # other0.md and other1.md
    assert len({id(i.anchors[1].quote) for i in shared}) == 6  # each quote its own
    # a shared string stays an ordinary value: editing one item leaves the others alone
    edited = shared.items[0].model_copy(update={"anchors": (cg.GoldAnchor("rules.md", "Another quote."),)})
    assert shared.items[1].anchors[0].quote == quote and edited.anchors[0].quote == "Another quote."


@pytest.mark.parametrize("command", ["audit", "filter"])
def test_the_commands_that_scan_a_whole_set_read_it_with_shared_strings(tmp_path, monkeypatch, command):
    from reviewtui.cli import main
    from reviewtui.evalset.io import jsonl

    asked: list[bool] = []
    real_init = jsonl.JsonlReader.__init__

    def spy(self, path, **kwargs):
        asked.append(kwargs.get("share_strings", False))
        real_init(self, path, **kwargs)

    monkeypatch.setattr(jsonl.JsonlReader, "__init__", spy)
    items = [cg.EvalItem(id=f"q{n}", question=f"How long do loans of kind {n} last?", answer="two weeks") for n in range(3)]
    path = cg.write_jsonl(cg.EvalSet(id="loans", items=items), tmp_path / "loans.jsonl")
    out = tmp_path / ("report.json" if command == "audit" else "kept.jsonl")
    argv = [command, str(path), "-o", str(out)] + (["--to", "json"] if command == "audit" else [])
    assert main(argv) in (0, 1)
    assert asked == [True] and out.is_file()


@pytest.mark.parametrize(("blank", "said"), [("", "empty"), ("  ", "only spaces"), ("\t\u3000", "only spaces")])
def test_an_item_without_a_real_id_is_refused_at_its_line(tmp_path, blank, said):
    # An item whose id is blank cannot be named: the journal would record "id": "", the screen show nothing.
    path = tmp_path / "blank.jsonl"
    lines = [{"id": "q1", "question": "Fine question here?"}, {"id": blank, "question": "Which one is this?"}]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    with pytest.raises(cg.EvalSetError) as info:
        cg.read_jsonl(path)
    assert (info.value.line, info.value.field) == (2, "id")
    assert said in info.value.message


def test_a_json_document_laid_out_over_many_lines_is_said_to_be_one(tmp_path):
    # Pretty-printed JSON read as JSON Lines: "{" alone on line 1 read as "unexpected end of data", a broken file.
    path = tmp_path / "pretty.jsonl"
    path.write_text(json.dumps({"id": "q1", "question": "How long do loans last?"}, indent=2) + "\n", encoding="utf-8")
    with pytest.raises(cg.EvalSetError) as info:
        cg.read_jsonl(path)
    assert info.value.line == 1 and "not JSON Lines" in info.value.message


def test_squad_json_read_as_hotpotqa_says_it_is_not_json_lines(tmp_path):
    from reviewtui.evalset.io.sniff import open_evalset

    path = tmp_path / "small.json"
    squad = {"version": "v2.0", "data": [{"title": "T", "paragraphs": [{"context": "Loans last two weeks.", "qas": []}]}]}
    path.write_text(json.dumps(squad, indent=2), encoding="utf-8")
    for fmt in ("hotpotqa", "nq"):
        with pytest.raises(cg.EvalSetError) as info:
            open_evalset(path, format=fmt)
        assert info.value.line == 1 and "not JSON Lines" in info.value.message, fmt


def test_a_last_line_cut_short_is_a_broken_line_not_a_document_over_many_lines(tmp_path):
    from reviewtui.evalset.io.files import json_lines

    path = tmp_path / "cut.jsonl"
    path.write_bytes(b'{"_id": "q1", "question": "who is')  # no newline: the file ends inside the record
    with pytest.raises(cg.EvalSetError) as info:
        list(json_lines(path))
    assert info.value.line == 1 and "not valid JSON" in info.value.message


def test_a_line_nested_deeper_than_pythons_parser_goes_still_gets_the_depth_error(tmp_path):
    """Reading such a line again to look for a repeated key ended in a RecursionError traceback."""
    deep = "[" * 1000 + "]" * 1000
    path = _write_lines(tmp_path, '{"id":"a","question":"What is the capital of France?","meta":{"x":' + deep + ',"y":":"}}')
    error = _error(path)
    assert error.line == 1 and "deep" in error.message


def test_lines_read_the_slow_way_are_not_all_read_a_third_time(tmp_path, monkeypatch):
    """A whole-number id sends a line down the slow path; reading each such line again to look for a
    repeated key doubled the time of a file of them."""
    import reviewtui.evalset.io.jsonl as jsonl

    calls = []
    monkeypatch.setattr(jsonl, "refuse_repeated_keys", lambda *args: calls.append(args))
    lines = [f'{{"id": {k}, "question": "Which year did branch {k} open?", "meta": {{"at": "10:30"}}}}' for k in range(50)]
    assert len(cg.read_jsonl(_write_lines(tmp_path, *lines))) == 50
    assert calls == []  # a colon in a string, a space after a colon: nothing that needs a second look


@pytest.mark.parametrize("ending", ["\n", "\r\n"])
def test_a_line_cut_short_is_said_at_the_column_where_its_text_stops(tmp_path, ending):
    # "column 1": orjson counted the line's own line break as a second line.
    path = tmp_path / "cut.jsonl"
    path.write_text(ending.join(['{"id":"a","question":"What is one?"}', '{"id":"b","question":"What is two?"', '{"id":"c","question":"What is three?"}', ""]), newline="")
    with pytest.raises(cg.EvalSetError, match=r"cut\.jsonl:2: not valid JSON \(unexpected end of data, column 36\)"):
        cg.read_jsonl(path)


def test_an_id_used_twice_in_a_pipe_is_named_by_its_lines(tmp_path):
    # A pipe cannot be read a second time to find the lines: "by item 1 and again by item 3 (counting items, not lines)".
    import os
    import threading

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    data = b'{"_evalset":{"id":"x"}}\n\n{"id":"a","question":"What is one?"}\n{"id":"b","question":"What is two?"}\n{"id":"a","question":"What is three?"}\n'
    writer = threading.Thread(target=lambda: fifo.write_bytes(data), daemon=True)
    writer.start()
    with pytest.raises(cg.EvalSetError) as caught:
        cg.read_jsonl(fifo)
    writer.join(5)
    assert str(caught.value) == f"{fifo}:5: item id 'a' is used twice: on line 3 and again here"


@pytest.mark.parametrize("version", ["true", "false", '"7"', "1.5"])
def test_a_header_version_that_is_not_a_whole_number_is_refused_as_written(tmp_path, version):
    """`"version": true` read as version 1 and "7" as 7, without a word."""
    path = tmp_path / "v.jsonl"
    header = '{"_evalset": {"id": "s", "version": ' + version + "}}"
    path.write_text(header + '\n{"id": "q1", "question": "Q?"}\n', encoding="utf-8")
    with pytest.raises(cg.EvalSetError, match=r"_evalset.version` must be a whole number, found " + re.escape(version)):
        cg.read_jsonl(path)


@pytest.mark.parametrize("written", ["true", "false", '"2"', "2.0"])
@pytest.mark.parametrize(
    ("where", "line"),
    [
        ("anchors.0.grade", '"anchors": [{"source_id": "d.md", "quote": "a quote", "grade": VALUE}]'),
        ("anchors.0.occurrence", '"anchors": [{"source_id": "d.md", "quote": "a quote", "occurrence": VALUE}]'),
        ("anchors.0.page_hint", '"anchors": [{"source_id": "d.md", "quote": "a quote", "page_hint": VALUE}]'),
        ("gold.0.span.start", '"gold": [{"span": {"doc_id": "d.md", "start": VALUE, "end": 9}}]'),
        ("gold.0.span.end", '"gold": [{"span": {"doc_id": "d.md", "start": 0, "end": VALUE}}]'),
        ("gold.0.grade", '"gold": [{"span": {"doc_id": "d.md", "start": 0, "end": 9}, "grade": VALUE}]'),
    ],
)
def test_an_item_number_that_is_not_a_whole_number_is_refused_as_written(tmp_path, written, where, line):
    """`"grade": true` was read as grade 1 (answers partly) and a span's `"end": true` as 1, without a word,
    where the header's version was already refused; a number is now a number in the items too."""
    path = tmp_path / "n.jsonl"
    path.write_text('{"id": "q1", "question": "Where is the library?", ' + line.replace("VALUE", written) + "}\n", encoding="utf-8")
    with pytest.raises(cg.EvalSetError) as caught:
        cg.read_jsonl(path)
    assert str(caught.value) == f"{path}:1: field `{where}` must be a whole number (got {written})"


def test_code_that_builds_an_anchor_gives_its_numbers_as_whole_numbers():
    with pytest.raises(cg.EvalSetError, match=r"`grade` must be a whole number \(got True\)"):
        cg.GoldAnchor("d.md", "a quote", grade=True)
    assert cg.GoldAnchor("d.md", "a quote", grade=1).grade == 1


_TWO_LINES = '{"id":"a","question":"What is one?"}\n{"id":"b","question":"What is two?"}\n'


@pytest.mark.parametrize(
    ("encoding", "said"),
    [
        ("utf-16", "the file is UTF-16 (it begins with a byte-order mark), not UTF-8"),
        ("utf-32", "the file is UTF-32 (it begins with a byte-order mark), not UTF-8"),
        ("utf-16-le", "the file looks like UTF-16 without a byte-order mark (every other byte is zero), not UTF-8"),
        ("utf-16-be", "the file looks like UTF-16 without a byte-order mark (every other byte is zero), not UTF-8"),
    ],
)
def test_a_utf16_file_is_said_to_be_utf16(tmp_path, encoding, said):
    """It was "not valid UTF-8 (byte 0xff at column 1)", or without a mark "not valid JSON": nothing said why."""
    path = tmp_path / "wide.jsonl"
    path.write_bytes(_TWO_LINES.replace("one", "un été").encode(encoding))
    error = _error(path)
    assert str(error) == f"{path}:1: {said}; save it as UTF-8 and try again"


@pytest.mark.parametrize("lines", [_TWO_LINES.replace("\n", "\r"), _TWO_LINES.replace("\n", "\r", 1)])
def test_lines_ending_in_a_carriage_return_alone_are_said_as_that(tmp_path, lines):
    """Old Mac line endings made the file one line, "not valid JSON (unexpected content after document, column 37)"."""
    path = tmp_path / "mac.jsonl"
    path.write_text(lines, newline="")
    error = _error(path)
    assert error.line == 1
    assert error.message == (
        "the lines of this file end with a carriage return alone (the old Mac line ending), which JSON Lines does not "
        "take for a line break, so they read as one line; save the file with LF (or CRLF) line endings"
    )


@pytest.mark.parametrize("at_line", [1, 3])
def test_an_io_error_while_reading_is_one_line_naming_the_file(tmp_path, monkeypatch, at_line):
    """An I/O error (a failing disk) in the middle of a set said "reviewtui: Input/output error", naming no
    file, and in the app's loader thread it was not said at all."""
    import errno
    import io
    import os

    from reviewtui.cli import main
    from reviewtui.evalset.io import jsonl as jsonl_mod

    path = tmp_path / "quiz.jsonl"
    path.write_text("".join(f'{{"id": "q{n}", "question": "Which form does rule {n} ask for?"}}\n' for n in range(5)))
    real_open = jsonl_mod.open_for_reading

    class Failing(io.BufferedReader):
        lines_read = 0

        def __next__(self):
            Failing.lines_read += 1
            if Failing.lines_read >= at_line:
                raise OSError(errno.EIO, os.strerror(errno.EIO))
            return super().__next__()

    def failing_open(p):
        real_open(p).close()
        return Failing(io.FileIO(p, "rb"))

    monkeypatch.setattr(jsonl_mod, "open_for_reading", failing_open)
    with pytest.raises(cg.EvalSetError) as caught:
        jsonl_mod.read_jsonl(path)
    assert str(caught.value) == f"{path}: cannot read: {os.strerror(errno.EIO)}"
    Failing.lines_read = 0
    assert main(["info", str(path)]) == 2


def test_json_lines_in_a_file_named_json_say_how_to_read_them(tmp_path):
    """"hp.json:2: not valid JSON (unexpected content after document)" named the symptom, not the format."""
    from reviewtui.evalset.io.sniff import open_evalset

    # HotpotQA's rows (other tools' question rows in such a file are read as rows: see test_io_rows)
    rows = [
        {"_id": "h1", "question": "Which came first?", "answer": "A", "supporting_facts": [], "context": []},
        {"_id": "h2", "question": "Who?", "answer": "B", "supporting_facts": [], "context": []},
    ]
    path = tmp_path / "rows.json"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    with pytest.raises(cg.EvalSetError) as info:
        open_evalset(path)
    assert "holds JSON Lines (one record on each line), not one JSON document" in info.value.message
    assert "--from jsonl, rows, hotpotqa or nq" in info.value.message and info.value.path == str(path)
    # Two values on one line, or a line that is not an object, are broken JSON, said as before.
    for text, line in (('{"a": 1} {"b": 2}\n', 1), ("[1]\n]\n", 2)):
        path.write_text(text, encoding="utf-8")
        with pytest.raises(cg.EvalSetError) as info:
            open_evalset(path)
        assert "not valid JSON (unexpected content after document" in info.value.message and info.value.line == line


@pytest.mark.parametrize("name", ["demo.txt", "demo.jsonl"])
def test_a_csv_file_read_as_json_lines_is_said_to_be_csv(tmp_path, name):
    from reviewtui.evalset.io.sniff import open_evalset

    path = tmp_path / name
    path.write_text('"id","question","answer"\nq1,How long do loans last?,Two weeks\n', encoding="utf-8")
    with pytest.raises(cg.EvalSetError) as info:
        open_evalset(path)
    assert info.value.line == 1 and "this line names the columns of a CSV file" in info.value.message
    assert "--from csv" in info.value.message
    # A first line that is simply broken JSON is said as broken JSON.
    path.write_text('{"id": "q1", "question": oops}\n', encoding="utf-8")
    with pytest.raises(cg.EvalSetError) as info:
        open_evalset(path)
    assert "not valid JSON" in info.value.message


def test_a_squad_file_with_no_article_is_a_squad_file_without_questions(tmp_path):
    """{"data": []} was "JSON but not a format reviewtui knows", and --from squad then called it "an object"."""
    from reviewtui.evalset.io.sniff import open_evalset

    path = tmp_path / "empty.json"
    path.write_text('{"version": "v2.0", "data": []}', encoding="utf-8")
    assert len(open_evalset(path)) == 0 and len(open_evalset(path, format="squad")) == 0
    path.write_text('{"data": [], "rows": 3}', encoding="utf-8")  # another file with a data key: not taken for SQuAD
    with pytest.raises(cg.EvalSetError, match="not a format reviewtui knows"):
        open_evalset(path)


@pytest.mark.parametrize(
    "line, hinted",
    [
        ('{"input": "Refund window?", "expected_output": "30 days", "context": ["Refunds within 30 days."]}', True),
        ('{"question": "Who wrote Hamlet?", "answer": "Shakespeare", "context": "Hamlet is by Shakespeare."}', True),
        ('{"input": [{"role": "user", "content": "2+2?"}], "ideal": "4"}', False),  # a chat: no CSV question
        ('{"id": "q2", "question": "Q?", "anwser": "x"}', False),  # a native item's typo
        ('{"id": "q3", "question": "Q?", "anwser": "x", "qtyp": "factoid"}', False),  # two typos: still ours
        # Hugging Face's SQuAD rows: the route loses every answer (the CSV reader keeps the object as text in meta)
        ('{"id": "5733be28", "title": "T", "context": "c", "question": "Q?", "answers": {"text": ["x"]}}', False),
        ('{"query": "Q?", "answers": {"text": ["x"], "answer_start": [3]}}', False),  # an answer that is no text
    ],
    ids=["deepeval", "hf-export", "openai-evals", "typo", "two-typos", "hf-squad-rows", "answer-object"],
)
def test_a_row_of_another_tool_is_told_the_way_in(tmp_path, line, hinted):
    """A deepeval or datasets JSONL read as our own format was refused as "not an eval item" or "field `id` is
    missing" with no word of the rows reader, which takes those very names (`input`, `expected_output`, `context`)."""
    error = _error(_write_lines(tmp_path, line))
    assert error.line == 1
    assert ("reads rows like these as question rows" in error.message) is hinted
    if hinted:
        assert "--from rows on the command line" in error.message


def test_a_json_list_of_question_rows_is_read_as_rows(tmp_path):
    from reviewtui.evalset.io.sniff import open_evalset

    path = tmp_path / "qa.json"
    path.write_text('[{"query": "What is RAG?", "answer": "Retrieval-augmented generation", "context": "RAG is..."}]')
    assert open_evalset(path).items[0].answer == "Retrieval-augmented generation"
    path.write_text('[{"rows": 3}]')
    with pytest.raises(cg.EvalSetError, match="not a format reviewtui knows") as info:
        open_evalset(path)
    assert "CSV" not in info.value.message


def test_json_lines_read_as_squad_are_not_told_to_take_the_name_they_have(tmp_path):
    """`overlap squad.json squad.jsonl --from squad` said of squad.jsonl: "... or name the file .jsonl"."""
    from reviewtui.evalset.io.sniff import open_evalset

    path = tmp_path / "rows.jsonl"
    path.write_text('{"id": "h1", "question": "Which came first?"}\n{"id": "h2", "question": "Who came?"}\n', encoding="utf-8")
    with pytest.raises(cg.EvalSetError) as info:
        open_evalset(path, format="squad")
    assert "holds JSON Lines (one record on each line)" in info.value.message
    assert "name the file .jsonl" not in info.value.message
    renamed = tmp_path / "rows.json"
    path.rename(renamed)
    with pytest.raises(cg.EvalSetError) as info:
        open_evalset(renamed)
    assert info.value.message.endswith("or name the file .jsonl")

"""read_legalbench_rag and describe_skipped: the page's example, skips by reason, type errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import reviewtui as cg
from reviewtui.evalset.io import describe_skipped


def _write(tmp_path: Path, payload, name: str = "lbrag.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(payload), encoding="utf-8")
    return path


def test_page_example(tmp_path):
    payload = {
        "tests": [
            {
                "query": "What is the notice period for resignation?",
                "answer": "30 days",
                "snippets": [
                    {"file_path": "handbook.txt", "span": [120, 167]},
                    {"file_path": "handbook.txt"},
                ],
            }
        ]
    }
    es = cg.read_legalbench_rag(_write(tmp_path, payload))
    assert (len(es), es.id, es.source) == (1, "legalbench-rag", "legalbench-rag")
    assert list(es.meta) == ["granularity", "source_file", "tests_in_file", "tests_skipped", "snippets_skipped"]
    assert es.meta["granularity"] == "span"
    assert es.meta["source_file"] == "lbrag.json"
    assert (es.meta["tests_in_file"], es.meta["tests_skipped"]) == (1, 0)
    # the reason is a key a caller looks up, so it is the page's own: {'had no `span`': 1}
    assert es.meta["snippets_skipped"] == {"had no `span`": 1}
    (item,) = es.items
    assert (item.id, item.question, item.answer) == ("lb0", "What is the notice period for resignation?", "30 days")
    assert item.gold == (cg.GoldSpan(span=cg.Span("handbook.txt", 120, 167), grade=2),)
    assert repr(item.gold) == "(GoldSpan(span=Span('handbook.txt', 120, 167), grade=2),)"
    assert describe_skipped(es) == "1 snippet skipped: 1 had no `span`."


def test_bare_list_and_skips_counted_by_reason(tmp_path):
    tests = [
        {"query": "A?", "snippets": [{"file_path": "a.txt", "span": [0, 10]}, {"span": [1, 2]}]},
        {"snippets": [{"file_path": "a.txt", "span": [0, 10]}]},
        {"query": "   ", "snippets": []},
        {"query": "B?", "snippets": [{"file_path": "b.txt", "span": [5]}, {"file_path": "b.txt", "span": [9, 9]}]},
        {"query": "C?", "snippets": [{"file_path": "c.txt", "span": [3, 8]}, {"file_path": "", "span": [1, 2]}]},
    ]
    es = cg.read_legalbench_rag(_write(tmp_path, tests), evalset_id="mine")
    assert es.id == "mine"
    assert [item.id for item in es] == ["lb0", "lb3", "lb4"]  # ids keep the test's position in the file
    assert es.get("lb3").gold == ()
    assert es.get("lb4").gold_spans == (cg.Span("c.txt", 3, 8),)
    assert es.meta["tests_in_file"] == 5 and es.meta["tests_skipped"] == 2
    assert sum(es.meta["snippets_skipped"].values()) == 4
    assert len(es.meta["snippets_skipped"]) == 3  # missing file_path x2, too short, covers no text
    line = describe_skipped(es)
    assert line.startswith("2 tests skipped (no query). 4 snippets skipped: ")


def test_snippet_answer_text_becomes_an_anchor_too(tmp_path):
    tests = [{"query": "A?", "snippets": [
        {"file_path": "a.txt", "span": [0, 5], "answer": "Hello"},
        {"file_path": "a.txt", "span": [10, 15], "answer": "  "},
    ]}]
    item = cg.read_legalbench_rag(_write(tmp_path, {"tests": tests})).items[0]
    assert item.anchors == (cg.GoldAnchor("a.txt", "Hello"),)
    assert len(item.gold) == 2
    assert item.is_resolved and item.is_portable


def test_many_snippets_of_one_test_are_read_without_comparing_every_pair():
    # The anchors' quotes were gathered again for every snippet: 10,000 snippets took 8 s, twice as many
    # four times that. The quotes' hashes taken are counted, not the time.
    from reviewtui.evalset.io.legalbench import legalbench_from_payload

    hashed = {"n": 0}

    class Counted(str):
        __slots__ = ()

        def __hash__(self) -> int:
            hashed["n"] += 1
            return str.__hash__(self)

    n = 2_000
    snippets = [{"file_path": "a.txt", "span": [10 * k, 10 * k + 7], "answer": Counted(f"c{k:06d}")} for k in range(n)]
    snippets.append({"file_path": "a.txt", "span": [0, 7], "answer": Counted("c000000")})  # a repeat: one anchor
    item = legalbench_from_payload({"tests": [{"query": "Which clauses?", "snippets": snippets}]}, "lb.json").items[0]
    assert len(item.gold) == n + 1 and len(item.anchors) == n
    assert hashed["n"] <= 5 * n


@pytest.mark.parametrize(
    "payload, field, expected",
    [
        ({"tests": {"query": "A?"}}, "tests", "a list of tests"),
        ({"cases": []}, None, "`tests`"),
        ("just text", "the file", "an object with `tests`"),
        ([["A?"]], "tests[0]", "an object"),
        ([{"query": 5}], "tests[0].query", "a string"),
        ([{"query": "A?", "snippets": "a.txt"}], "tests[0].snippets", "a list"),
        ([{"query": "A?", "snippets": ["a.txt"]}], "tests[0].snippets[0]", "an object"),
        ([{"query": "A?", "snippets": [{"file_path": "a", "span": "117,202"}]}], "tests[0].snippets[0].span", "two numbers"),
        ([{"query": "A?", "snippets": [{"file_path": "a", "span": [1.5, 9]}]}], "tests[0].snippets[0].span", "whole numbers"),
        ([{"query": "A?", "snippets": [{"file_path": 3, "span": [1, 9]}]}], "tests[0].snippets[0].file_path", "a string"),
        # a snippet's text as a list: its quote was dropped without a word
        ([{"query": "A?", "snippets": [{"file_path": "a", "span": [1, 9], "answer": ["x"]}]}], "tests[0].snippets[0].answer", "a string"),
        # a third number was dropped without a word, the first two read as start and end
        ([{"query": "A?", "snippets": [{"file_path": "a", "span": [3, 8, 99]}]}], "tests[0].snippets[0].span", "found a list of 3"),
        ([{"query": "A?", "snippets": [{"file_path": "a", "span": [3, 8, "x", None]}]}], "tests[0].snippets[0].span", "found a list of 4"),
    ],
)
def test_wrong_types_raise_naming_the_file_and_what_was_expected(tmp_path, payload, field, expected):
    path = _write(tmp_path, payload)
    with pytest.raises(cg.EvalSetError) as info:
        cg.read_legalbench_rag(path)
    error = info.value
    assert error.path == str(path)
    assert error.field == field
    assert expected in error.message
    assert str(error).startswith(f"{path}:")


def test_a_span_that_is_not_as_long_as_its_own_text_is_refused(tmp_path, capsys):
    """The file has no document to measure a span against, but a snippet's text is the document over the span:
    a span running past the document's end (or anywhere else) was written out as gold beside its text."""
    from reviewtui.cli import main

    tests = [
        {"query": "A?", "snippets": [{"file_path": "a.txt", "span": [0, 5], "answer": "Hello"}]},
        {"query": "B?", "snippets": [
            {"file_path": "a.txt", "span": [10, 14], "answer": "  ab"},  # leading spaces are part of the span
            {"file_path": "a.txt", "span": [0, 500], "answer": "Hello"},
        ]},
    ]
    path = _write(tmp_path, {"tests": tests})
    with pytest.raises(cg.EvalSetError) as info:
        cg.read_legalbench_rag(path)
    assert (info.value.path, info.value.field) == (str(path), "tests[1].snippets[1].span")
    assert "[0, 500] covers 500 characters" in info.value.message and "has 5" in info.value.message
    assert main(["convert", str(path), str(tmp_path / "out.jsonl")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{path}: tests[1].snippets[1].span") and "Traceback" not in err
    assert not (tmp_path / "out.jsonl").exists()
    tests[1]["snippets"].pop()
    assert len(cg.read_legalbench_rag(_write(tmp_path, {"tests": tests})).get("lb1").gold) == 1


def test_malformed_json_names_the_line(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"tests": [\n  {"query": "A?",\n  }\n]}\n')
    with pytest.raises(cg.EvalSetError) as info:
        cg.read_legalbench_rag(path)
    assert info.value.line == 2 and "not valid JSON" in info.value.message  # the stray comma


# --- describe_skipped on its own ------------------------------------------------------------


def test_describe_skipped_reads_only_meta():
    assert describe_skipped({}) == ""
    assert describe_skipped({"tests_skipped": 0, "snippets_skipped": {}}) == ""
    assert describe_skipped({"snippets_skipped": {"a": 2, "b": 1}}) == "3 snippets skipped: 2 a, 1 b."
    assert describe_skipped({"tests_skipped": 1}) == "1 test skipped (no query)."
    assert describe_skipped({"tests_skipped": 5}) == "5 tests skipped (no query)."  # "(it had no query)" read wrong for five
    assert describe_skipped({"widgets_skipped": {"too big": 2}}) == "2 widgets skipped: 2 too big."
    assert describe_skipped({"queries_dropped": 809}) == "809 queries dropped (no positive judgement in the qrels)."
    line = describe_skipped({"questions_skipped": {"empty question": 1}, "ids_numbered": 3, "meta_cells_unreadable": 1})
    assert line == (
        "1 question skipped: 1 empty question. "
        "3 rows numbered q1, q2, ... (no id column or key); 1 meta cell not a JSON object, read as {}."
    )
    assert "\n" not in line


def test_a_negative_span_start_is_skipped_as_such_not_as_covering_no_text(tmp_path):
    # [-1, 2] covers three offsets; "`span` covers no text" sent its reader looking for an empty span.
    tests = [{"query": "A?", "snippets": [{"file_path": "a.txt", "span": [-1, 2]}, {"file_path": "a.txt", "span": [4, 2]}]}]
    es = cg.read_legalbench_rag(_write(tmp_path, tests))
    assert es.meta["snippets_skipped"] == {"`span` starts before its document (a negative offset)": 1, "`span` covers no text": 1}

"""The demo sample set: it loads, its quotes are real, and its seeded problems are really there.

The JSONL is parsed here with ``json`` and built with the model directly, so these tests do not
depend on the io layer; the last tests also read the files through ``reviewtui.evalset.io`` when
that module provides ``read_jsonl``/``read_csv``, and skip otherwise.
"""

from __future__ import annotations

import csv
import itertools
import json
import re
from pathlib import Path

import pytest

import reviewtui as cg

SET_DIR = Path(__file__).resolve().parent.parent / "sample_sets" / "wrenfield_tools"
JSONL = SET_DIR / "wrenfield_tools.jsonl"
CSV_PATH = SET_DIR / "wrenfield_tools.csv"
CORPUS = SET_DIR / "corpus"
README = SET_DIR / "README.md"

ITEM_FIELDS = ["id", "question", "gold", "anchors", "qtype", "answer", "meta"]
ANCHOR_FIELDS = ["source_id", "quote", "grade", "page_hint", "occurrence"]
CSV_HEADER = ["id", "question", "source_id", "quote", "grade", "page", "occurrence", "qtype", "answer", "meta"]

# The seeded problems, as listed in sample_sets/wrenfield_tools/README.md.
DANGLING = "q05"
EXACT_DUP = ("q06", "q34")  # same question, conflicting answers; q34 is the wrong one
NEAR_DUP = ("q09", "q24")
WRONG_TYPE = "q13"
OVER_EASY = "q16"
MULTI_ANCHOR = "q17"
BAD_QUOTE = "q20"
TOO_SHORT = "q21"
WEAK_ANSWER = "q22"
GENERAL_KNOWLEDGE = "q36"
NO_EVIDENCE = "q37"
SEEDED = {
    DANGLING, *EXACT_DUP, *NEAR_DUP, WRONG_TYPE, OVER_EASY, MULTI_ANCHOR,
    BAD_QUOTE, TOO_SHORT, WEAK_ANSWER, GENERAL_KNOWLEDGE, NO_EVIDENCE,
}
UNANSWERABLE_ON_PURPOSE = "q38"
FORMULA_START = ("=", "+", "-", "@")


def words(text: str) -> set[str]:
    return set(re.findall(r"\w+", text.lower()))


def jaccard(a: str, b: str) -> float:
    wa, wb = words(a), words(b)
    return len(wa & wb) / len(wa | wb)


def word_count(text: str) -> int:
    return len(re.findall(r"\w+", text))


def read_lines() -> tuple[dict, list[dict]]:
    lines = JSONL.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    return header, [json.loads(line) for line in lines[1:]]


@pytest.fixture(scope="module")
def records() -> list[dict]:
    return read_lines()[1]


@pytest.fixture(scope="module")
def evalset() -> cg.EvalSet:
    header, recs = read_lines()
    meta = header["_evalset"]
    return cg.EvalSet(
        id=meta["id"],
        items=tuple(cg.EvalItem(**rec) for rec in recs),
        version=meta["version"],
        source=meta["source"],
        meta=meta["meta"],
    )


def document(source_id: str) -> str:
    return (CORPUS / source_id).read_text(encoding="utf-8")


def quote_found(anchor: cg.GoldAnchor) -> bool:
    """The quote is in its document (on its 1-based page, when one is given) often enough for its occurrence."""
    text = document(anchor.source_id)
    if anchor.page_hint is not None:
        pages = text.split("\f")
        if not 1 <= anchor.page_hint <= len(pages):
            return False
        text = pages[anchor.page_hint - 1]
    return text.count(anchor.quote) > anchor.occurrence


# --- the file and the model ---------------------------------------------------------------


def test_header_line():
    header, _ = read_lines()
    assert list(header) == ["_evalset"]
    meta = header["_evalset"]
    assert (meta["id"], meta["version"], meta["source"]) == ("wrenfield_tools", 1, "generated")
    assert meta["meta"]["corpus"] == "corpus/"
    assert meta["meta"]["generator"]


def test_every_line_validates_with_fields_in_order(records):
    for rec in records:
        assert list(rec) == ITEM_FIELDS, rec["id"]
        for anchor in rec["anchors"]:
            assert list(anchor) == ANCHOR_FIELDS, rec["id"]
        cg.EvalItem(**rec)


def test_ids_unique_and_about_forty(evalset, records):
    ids = [rec["id"] for rec in records]
    assert len(ids) == len(set(ids))
    assert 35 <= len(evalset) <= 45
    assert [item.id for item in evalset] == ids


def test_types_varied_and_known(evalset):
    assert set(evalset.types()) == set(cg.QuestionType.ALL)
    assert all(item.answer for item in evalset)


def test_a_few_items_are_already_reviewed(evalset):
    reviewed = [item.id for item in evalset if item.meta.get("reviewed")]
    assert 2 <= len(reviewed) <= 3
    assert not SEEDED & set(reviewed)


def test_literal_text_cases_present(evalset):
    questions = [item.question for item in evalset]
    assert any("[" in q and "]" in q for q in questions)
    assert any(not q.isascii() for q in questions)


# --- the corpus ---------------------------------------------------------------------------


def test_corpus_shape():
    docs = sorted(p.name for p in CORPUS.iterdir() if p.is_file())
    assert 4 <= len(docs) <= 6
    assert any(" " in name for name in docs)
    assert any("\f" in document(name) for name in docs)
    for name in docs:
        assert 300 <= len(document(name).split()) <= 1600, name


def test_anchors_name_corpus_documents(evalset):
    for item in evalset:
        for anchor in item.anchors:
            assert (CORPUS / anchor.source_id).is_file(), (item.id, anchor.source_id)


def test_every_quote_but_the_seeded_one_is_verbatim(evalset):
    for item in evalset:
        if item.id == BAD_QUOTE:
            continue
        for anchor in item.anchors:
            assert quote_found(anchor), (item.id, anchor.quote)


def test_seeded_bad_quote_is_nowhere_in_the_corpus(evalset):
    item = evalset.get(BAD_QUOTE)
    assert len(item.anchors) == 1
    quote = item.anchors[0].quote
    assert not quote_found(item.anchors[0])
    assert all(quote not in document(p.name) for p in CORPUS.iterdir())


# --- the seeded problems ------------------------------------------------------------------


def test_readme_table_lists_exactly_the_seeded_items(evalset):
    rows = re.findall(r"^\| (q\d+) \|", README.read_text(encoding="utf-8"), flags=re.MULTILINE)
    assert len(rows) == len(set(rows))
    assert set(rows) == SEEDED
    assert all(evalset.get(item_id) is not None for item_id in rows)


def test_near_duplicate_pair(evalset):
    a, b = (evalset.get(i) for i in NEAR_DUP)
    assert a.question != b.question
    assert jaccard(a.question, b.question) >= 0.8


def test_no_unintended_near_duplicates(evalset):
    close = {
        (x.id, y.id)
        for x, y in itertools.combinations(evalset, 2)
        if jaccard(x.question, y.question) >= 0.8
    }
    assert close == {NEAR_DUP, EXACT_DUP}


def test_exact_duplicate_with_conflicting_answer(evalset):
    a, b = (evalset.get(i) for i in EXACT_DUP)
    assert a.question == b.question
    assert a.answer != b.answer
    assert a.anchors == b.anchors


def test_only_the_seeded_question_is_too_short(evalset):
    assert word_count(evalset.get(TOO_SHORT).question) < 4
    assert [item.id for item in evalset if word_count(item.question) < 4] == [TOO_SHORT]


def test_dangling_pronoun(evalset):
    first_words = re.findall(r"\w+", evalset.get(DANGLING).question)[:3]
    assert "it" in [w.lower() for w in first_words]


def test_no_evidence_item(evalset):
    item = evalset.get(NO_EVIDENCE)
    assert item.anchors == () and item.gold == ()
    assert not item.is_answerable
    assert item.answer
    assert [i.id for i in evalset if not i.is_answerable] == [NO_EVIDENCE, UNANSWERABLE_ON_PURPOSE]
    assert evalset.get(UNANSWERABLE_ON_PURPOSE).qtype == cg.QuestionType.UNANSWERABLE


def test_multi_anchor_item(evalset):
    item = evalset.get(MULTI_ANCHOR)
    assert 2 <= len(item.anchors) <= 3
    assert len({a.source_id for a in item.anchors}) == 2
    assert item.qtype == cg.QuestionType.MULTI_HOP
    assert [i.id for i in evalset if len(i.anchors) > 1] == [MULTI_ANCHOR]


def test_wrong_type_weak_answer_over_easy_general_knowledge(evalset):
    assert evalset.get(WRONG_TYPE).qtype == cg.QuestionType.COMPARATIVE
    assert word_count(evalset.get(WEAK_ANSWER).answer) == 1
    easy = evalset.get(OVER_EASY)
    assert jaccard(easy.question, easy.answer) >= 0.8
    gk = evalset.get(GENERAL_KNOWLEDGE)
    assert gk.answer and gk.anchors


# --- the CSV copy -------------------------------------------------------------------------


def unneutralise(cell: str) -> str:
    return cell[1:] if cell[:1] == "'" and cell[1:2] in FORMULA_START else cell


def test_csv_matches_jsonl(evalset):
    with CSV_PATH.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle))
    assert rows[0] == CSV_HEADER
    body = rows[1:]
    assert [row[0] for row in body] == [item.id for item in evalset]
    for row, item in zip(body, evalset):
        assert len(row) == len(CSV_HEADER), item.id
        for cell in row:
            assert cell[:1] not in FORMULA_START, (item.id, cell)
        cells = dict(zip(CSV_HEADER, (unneutralise(c) for c in row)))
        assert cells["question"] == item.question
        assert cells["answer"] == (item.answer or "")
        assert cells["qtype"] == (item.qtype or "")
        assert (json.loads(cells["meta"]) if cells["meta"] else {}) == dict(item.meta)
        if item.anchors:
            first = item.anchors[0]
            expected = (first.source_id, first.quote, str(first.grade),
                        "" if first.page_hint is None else str(first.page_hint), str(first.occurrence))
        else:
            expected = ("", "", "", "", "")
        assert tuple(cells[k] for k in ("source_id", "quote", "grade", "page", "occurrence")) == expected


def test_csv_neutralises_the_minus_cell():
    with CSV_PATH.open(encoding="utf-8", newline="") as handle:
        neutralised = [cell for row in csv.reader(handle) for cell in row if unneutralise(cell) != cell]
    assert neutralised and all(cell.startswith("'-") for cell in neutralised)


# --- through the io layer, when it exists -------------------------------------------------


def io_readers():
    try:
        from reviewtui.evalset.io import read_csv, read_jsonl
    except ImportError as exc:
        pytest.skip(f"reviewtui.evalset.io has no readers yet: {exc}")
    return read_jsonl, read_csv


def test_read_jsonl_gives_the_same_set(evalset):
    read_jsonl, _ = io_readers()
    loaded = read_jsonl(JSONL)
    assert (loaded.id, loaded.version, loaded.source) == (evalset.id, evalset.version, evalset.source)
    assert loaded.items == evalset.items


def test_read_csv_gives_the_same_first_anchors(evalset):
    _, read_csv = io_readers()
    loaded = read_csv(CSV_PATH)
    assert [i.id for i in loaded] == [i.id for i in evalset]
    for got, want in zip(loaded, evalset):
        assert got.question == want.question
        # Whether the reader strips the formula-guard quote is the io layer's choice; accept both.
        assert got.answer in (want.answer, None if want.answer is None else "'" + want.answer)
        assert got.qtype == want.qtype
        assert got.anchors == want.anchors[:1]
        assert dict(got.meta) == dict(want.meta)
